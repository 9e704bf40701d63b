//! A game that ends by a signed move off the board — a resignation, an accepted draw — counts
//! that move as a ply everywhere (`status`, the views, `verify`, and the next `move` file), and
//! every view shows it with its comment. Run for every registered game.

use super::helpers::*;

fn status(dir: &str) -> serde_json::Value {
    serde_json::from_str(&ok(&["status", dir, "--json"]).stdout).unwrap()
}

#[test]
fn every_game_counts_and_shows_the_move_that_ended_it_off_the_board() {
    for game in qijudge::games::registry::names() {
        let g = qijudge::games::by_name(game).unwrap();
        let seats = g.seats("2p").unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let dir = tmp.path().join(game);
        let d = dir.to_string_lossy().into_owned();
        new_game(game, &dir, &keys, &[]);
        let key_of = |seat: &str| {
            let i = seats.iter().position(|s| s == seat).unwrap();
            keys.path(["alice", "bob"][i])
        };
        let judge = || ok(&["judge", &d, "--key", &keys.path("judge")]);
        judge();
        if g.has_secrets() {
            for seat in &seats {
                let mut args = vec!["setup", &d, "--as", seat];
                let key = key_of(seat);
                args.extend(["--key", &key]);
                if g.setup_is_chosen() {
                    args.push("--random");
                }
                ok(&args);
            }
            judge();
            judge();
        }
        // The seat to move plays, offering a draw where the game has offers; the other seat
        // accepts it (or, in a game without offers, resigns), with a comment.
        let first = status(&d)["to_move"].as_str().unwrap().to_string();
        let legal = ok(&["moves", &d, "--as", &first]).stdout;
        let mv = legal.lines().next().unwrap().to_string();
        let mut args = vec!["move", &d, "--as", &first];
        let key = key_of(&first);
        args.extend(["--key", &key, &mv]);
        let offers = g.draw_offers();
        if offers {
            args.push("--offer-draw");
        }
        ok(&args);
        judge();
        let Some(second) = status(&d)["to_move"].as_str().map(str::to_string) else {
            panic!("{game}: over after one move");
        };
        let ending = if offers { "accept-draw" } else { "resign" };
        let ply = ok(&[
            "move",
            &d,
            "--as",
            &second,
            "--key",
            &key_of(&second),
            ending,
            "--comment",
            "well played",
        ]);
        let written = ply.stdout.split_whitespace().nth(1).unwrap().to_string();
        let n: u32 = written
            .trim_start_matches("moves/")
            .get(..4)
            .unwrap()
            .parse()
            .unwrap();
        let said = judge().stdout;
        assert!(
            said.contains(&format!("ply {n}: {second} {ending}")),
            "{game}: {said}"
        );
        // status counts it.
        let s = ok(&["status", &d]).stdout;
        assert!(s.contains(&format!("after {n} ")), "{game}: {s}");
        // Every audience's view shows it, with its comment.
        for audience in seats.iter().map(String::as_str).chain(["public"]) {
            let v = ok(&["view", &d, "--as", audience]).stdout;
            let verb = if offers {
                "accepts the draw"
            } else {
                "resigns"
            };
            assert!(
                v.contains(&format!("Ply {n}: {second} {verb}")),
                "{game} {audience}: {v}"
            );
            assert!(v.contains("\"well played\""), "{game} {audience}: {v}");
        }
        // And so does the audit.
        if g.has_secrets() {
            ok(&["reveal", &d, "--key", &keys.path("judge")]);
        }
        let v = ok(&["verify", &d]).stdout;
        // Its count of plies (Liubo's of throws, one per turn), where it gives one, is n.
        let counted = v.split(": ").all(|part| match part.split_once(' ') {
            Some((count, rest)) if rest.starts_with("plies") || rest.starts_with("throws") => {
                count == n.to_string()
            }
            _ => true,
        });
        assert!(counted, "{game}: {v}");
    }
}
