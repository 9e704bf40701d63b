//! Every game ends: each registered game under each of its rule sets (`Game::rule_sets`: the
//! variants, the movement options and the option sets that turn the game's own limits off)
//! plays random bots to an end within the match's maximum length, and that maximum applies to
//! every game by default.

use super::helpers::*;

/// Full moves a match allows here (a full move is one ply of every seat).
const MAX_MOVES: u32 = 150;

#[test]
fn every_game_under_every_rule_set_ends_within_the_match_maximum() {
    let mut ended_by_length = 0;
    for game in qijudge::games::registry::names() {
        let g = qijudge::games::by_name(game).unwrap();
        for (board, rules) in g.rule_sets() {
            let what = format!("{game} {board} {rules:?}");
            let seats = g.seats(board).unwrap().len() as u32;
            let tmp = tempfile::tempdir().unwrap();
            let out = tmp.path().join("m");
            let o = out.to_string_lossy().into_owned();
            let max = MAX_MOVES.to_string();
            let mut args = vec![
                "match",
                "--folders",
                "--game",
                game,
                "--board",
                board,
                "--out",
                &o,
                "--bot",
                "a=builtin:random",
                "--bot",
                "b=builtin:random",
                "--games",
                "2",
                "--max-moves",
                &max,
            ];
            for r in rules.iter() {
                args.extend(["--rule", r]);
            }
            let played = qj(&args);
            assert_eq!(played.code, 0, "{what}: {played:?}");
            let mut dirs: Vec<_> = std::fs::read_dir(out.join("games"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            dirs.sort();
            assert_eq!(dirs.len(), 2, "{what}");
            for dir in dirs {
                let status = ok(&["status", &dir.to_string_lossy()]).stdout;
                assert!(status.contains("over"), "{what}: {status}");
                let plies: u32 = status
                    .split_whitespace()
                    .skip_while(|w| *w != "after")
                    .nth(1)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{what}: no ply count in {status}"));
                assert!(plies <= MAX_MOVES * seats, "{what}: {plies} plies");
                if status.contains("adjudicat") {
                    ended_by_length += 1;
                    assert_eq!(plies, MAX_MOVES * seats, "{what}: {status}");
                }
                ok(&["verify", &dir.to_string_lossy()]);
            }
        }
    }
    // With the games' own limits off, some games run to the maximum: the ruling is exercised.
    assert!(ended_by_length > 0);
}

#[test]
fn a_match_has_a_maximum_length_by_default_for_every_game() {
    let help = ok(&["match", "--help"]).stdout;
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("--max-moves <N>"), "{flat}");
    assert!(flat.contains("in every game; 0 for no maximum"), "{flat}");
    assert!(flat.contains("[default: 1000]"), "{flat}");
    // A game with no score rulings refuses them, naming the games that take them, but takes
    // the maximum length.
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().join("m").to_string_lossy().into_owned();
    let refused = qj(&[
        "match",
        "--folders",
        "--game",
        "banqi",
        "--out",
        &o,
        "--bot",
        "a=builtin:random",
        "--bot",
        "b=builtin:random",
        "--resign",
        "3:600",
    ]);
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(
        refused
            .stderr
            .contains("--resign and --draw adjudicate engine games by their scores"),
        "{refused:?}"
    );
}
