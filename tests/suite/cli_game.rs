//! Whole games through the command line.

use super::helpers::*;
use qijudge::games::luzhanqi::rules::Options;

#[test]
fn a_full_game_from_new_to_verify() {
    let g = TestGame::started(&[]);
    // Play random legal moves until the game ends (resign if it runs long).
    let moves = random_moves(&fixed_setups(), Options::default(), 120, 5);
    for (i, mv) in moves.iter().enumerate() {
        let r = g.play(seat_of_ply(i + 1), mv);
        assert_eq!(r.code, 0, "ply {}: {r:?}", i + 1);
        assert!(
            r.stdout
                .contains(&format!("ply {}: {} {mv}", i + 1, seat_of_ply(i + 1))),
            "{}",
            r.stdout
        );
    }
    let status = ok(&["status", &g.d(), "--json"]);
    let s: serde_json::Value = serde_json::from_str(&status.stdout).unwrap();
    if s["result"].is_null() {
        let seat = s["to_move"].as_str().unwrap().to_string();
        let r = g.play(&seat, "resign");
        assert!(r.stdout.contains("game over"), "{r:?}");
    }
    // Before the reveal there is nothing to audit.
    assert_eq!(qj(&["verify", &g.d()]).code, 1);
    ok(&["reveal", &g.d()]);
    let v = ok(&["verify", &g.d()]);
    assert!(v.stdout.starts_with("verified game lzq-"), "{v:?}");
    let full = ok(&["view", &g.d(), "--as", "full"]);
    assert!(full.stdout.contains("Game over"), "{}", full.stdout);
}

#[test]
fn judging_twice_changes_nothing() {
    let g = TestGame::started(&[]);
    for (i, mv) in random_moves(&fixed_setups(), Options::default(), 6, 1)
        .iter()
        .enumerate()
    {
        assert_eq!(g.play(seat_of_ply(i + 1), mv).code, 0);
    }
    let before = snapshot(&g.dir);
    let r = qj(&[
        "judge",
        &g.d(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        "2030-01-01T00:00:00Z",
    ]);
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout, "nothing new\nsouth to move (ply 7)\n");
    assert_eq!(
        snapshot(&g.dir),
        before,
        "a second run wrote different bytes"
    );
}

#[test]
fn the_shipped_sample_verifies_and_rejudges_identically() {
    let (_t, dir) = sample_copy();
    let d = dir.to_string_lossy().into_owned();
    let before = snapshot(&dir);
    let v = ok(&["verify", &d]);
    assert!(v.stdout.contains("83 signed moves"), "{v:?}");
    let key = dir.join("keys/judge").to_string_lossy().into_owned();
    let again = ok(&["judge", &d, "--key", &key]).stdout;
    assert!(
        again.starts_with("nothing new\ngame over: ") && again.lines().count() == 2,
        "{again:?}"
    );
    assert_eq!(snapshot(&dir), before);
}

#[test]
fn views_show_own_ranks_and_hide_enemy_ranks() {
    let g = TestGame::started(&[]);
    let south: serde_json::Value = serde_json::from_str(&g.read("views/south.json")).unwrap();
    let pieces = south["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 50);
    for p in pieces {
        let known = !p["piece"].is_null();
        assert_eq!(known, p["seat"] == "south", "{p}");
    }
    let public: serde_json::Value = serde_json::from_str(&g.read("views/public.json")).unwrap();
    assert!(public["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["piece"].is_null()));
    for field in ["game", "manifest", "audience", "ply", "record_head"] {
        assert!(!south[field].is_null(), "view lacks {field}");
    }
    let text = ok(&["view", &g.d(), "--as", "south"]).stdout;
    let diagram: String = text.lines().take_while(|l| !l.starts_with("Key")).collect();
    assert!(
        diagram.contains("[FL]") && diagram.contains("xx") && !diagram.contains("fl"),
        "{text}"
    );
    let chinese = ok(&["view", &g.d(), "--as", "south", "--chinese"]).stdout;
    assert!(chinese.contains("[旗]"), "{chinese}");
    assert!(
        !g.dir.join("views/full.json").exists(),
        "no full view before the end"
    );
}

#[test]
fn a_view_with_a_broken_signature_is_not_shown() {
    let g = TestGame::started(&[]);
    let v = g
        .read("views/south.json")
        .replace("\"ply\": 0", "\"ply\": 1");
    g.write("views/south.json", &v);
    let r = qj(&["view", &g.d(), "--as", "south"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("views/south.json.sig"), "{r:?}");
}

#[test]
fn moves_lists_legal_moves_of_a_position_file() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("p.json");
    let options = serde_json::to_value(Options::default()).unwrap();
    let pos = serde_json::json!({
        "format": "qijudge/luzhanqi-position/1", "board": "2p", "rules": options, "to_move": "south",
        "pieces": { "south": { "a6": "colonel", "a1": "flag" }, "north": { "a9": "major" } }
    });
    std::fs::write(&file, pos.to_string()).unwrap();
    let r = ok(&["moves", "luzhanqi", &file.to_string_lossy()]);
    assert_eq!(
        r.stdout,
        "a6-a2\na6-a3\na6-a4\na6-a5\na6-a7\na6-a8\na6-a9\na6-b5\na6-b6\na6-c6\na6-d6\na6-e6\n"
    );
    std::fs::write(&file, pos.to_string().replace("a9", "z9")).unwrap();
    let bad = qj(&["moves", "luzhanqi", &file.to_string_lossy()]);
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("z9"), "{bad:?}");
}

#[test]
fn keygen_never_overwrites() {
    let tmp = tempfile::tempdir().unwrap();
    let k = tmp.path().join("k").to_string_lossy().into_owned();
    ok(&["keygen", &k]);
    let r = qj(&["keygen", &k]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("already exists"));
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&k).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn usage_errors_exit_with_two() {
    assert_eq!(qj(&["judge"]).code, 2);
    assert_eq!(qj(&["frobnicate"]).code, 2);
    assert_eq!(qj(&["--help"]).code, 0);
    let g = TestGame::new(&[]);
    let r = qj(&[
        "new",
        "luzhanqi",
        &g.d(),
        "--player",
        "a=x",
        "--player",
        "b=y",
        "--judge",
        "z",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn rule_options_are_spelled_out_in_the_manifest() {
    let g = TestGame::new(&["mines=explode", "first-mover=lot"]);
    let m = g.read("game.toml");
    for line in [
        "mines = \"explode\"",
        "first-mover = \"lot\"",
        "flying-bombs = false",
        "max-plies = 0",
        "visibility = \"hidden\"",
    ] {
        assert!(m.contains(line), "{line} missing from\n{m}");
    }
    let bad = TestGame::new(&[]);
    let r = qj(&[
        "new",
        "luzhanqi",
        &format!("{}2", bad.d()),
        "--player",
        &format!("a={}.pub", bad.keys.path("alice")),
        "--player",
        &format!("b={}.pub", bad.keys.path("bob")),
        "--judge",
        &format!("{}.pub", bad.keys.path("judge")),
        "--rule",
        "mines=sometimes",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("mines"), "{r:?}");
}

#[test]
fn closed_or_full_standard_output_is_not_a_panic() {
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/luzhanqi/sample");
    let args = [
        "view",
        sample.to_str().unwrap(),
        "--as",
        "full",
        "--format",
        "json",
    ];
    // A reader that goes away at once: quiet success.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    // A full device: an I/O error, exit code 2.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(args)
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("standard output") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn secrets_are_written_for_their_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let g = TestGame::started(&[]);
    for f in [
        g.dir.join("setups/south.toml"),
        g.tmp.path().join("keys/alice"),
    ] {
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", f.display());
    }
}

#[test]
fn small_error_paths_of_the_command_line() {
    let g = TestGame::started(&[]);
    // Judging with a player's key instead of the judge's.
    let r = qj(&["judge", &g.d(), "--key", &g.keys.path("alice")]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("is not the judge key named in game.toml"),
        "{r:?}"
    );
    // Revealing before the end.
    let r = qj(&["reveal", &g.d()]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("the game is not over"), "{r:?}");
    // An audience that does not exist.
    assert_eq!(qj(&["view", &g.d(), "--as", "everyone"]).code, 2);
    // One key for two seats is refused when the game is created, and nothing is left behind.
    let dir = g.tmp.path().join("dup").to_string_lossy().into_owned();
    let alice = format!("{}.pub", g.keys.path("alice"));
    let r = qj(&[
        "new",
        "luzhanqi",
        &dir,
        "--player",
        &format!("a={alice}"),
        "--player",
        &format!("b={alice}"),
        "--judge",
        &format!("{}.pub", g.keys.path("judge")),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("distinct keys"), "{r:?}");
    assert!(!std::path::Path::new(&dir).join("game.toml").exists());
    // A second setup for a seat that already committed.
    let r = g.setup("south", SOUTH_ROWS);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("a seat commits once"), "{r:?}");
}

#[test]
fn events_show_each_audience_only_its_own_facts() {
    let g = TestGame::started(&[]);
    assert_eq!(g.play("south", "a6-a7").code, 0);
    let lines = |audience: &str| -> Vec<serde_json::Value> {
        ok(&["events", &g.d(), "--as", audience])
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let public = lines("public");
    assert!(public.iter().all(|e| e["audience"] == "everyone"));
    assert!(public.iter().any(|e| e["fact"]["kind"] == "moved"));
    let south = lines("south");
    let identified: Vec<&serde_json::Value> = south
        .iter()
        .filter(|e| e["fact"]["kind"] == "identified")
        .collect();
    assert_eq!(identified.len(), 1);
    assert_eq!(identified[0]["fact"]["seat"], "south");
    assert_eq!(south.len(), public.len() + 1);
    let r = qj(&["events", &g.d(), "--as", "full"]);
    assert_eq!(
        r.code, 1,
        "the full stream is refused before the end: {r:?}"
    );
    // Unjudged files are not shown as if they were accepted: the stream is what the judge
    // recorded.
    let recorded = ok(&["events", &g.d(), "--as", "public"]).stdout;
    use qijudge::games::luzhanqi::rules::{two_player, Move, Position, Seat};
    let b = two_player();
    let (mut p, _) = Position::start(b, Options::default(), &fixed_setups(), Seat(0));
    p.play(Move::parse("a6-a7", b).unwrap()).unwrap();
    let north = p.legal_moves()[0].display(b);
    g.send("north", &north);
    assert_eq!(ok(&["events", &g.d(), "--as", "public"]).stdout, recorded);
}

#[test]
fn a_seat_lists_its_moves_from_its_own_view_and_move_checks_them() {
    use qijudge::games::luzhanqi::rules::{two_player, Position, Seat};
    let g = TestGame::started(&[]);
    let listed = ok(&["moves", &g.d(), "--as", "south"]);
    // The seat's view gives exactly the moves of the whole position: ranks it cannot see play
    // no part in where its pieces may go.
    let (position, _) = Position::start(two_player(), Options::default(), &fixed_setups(), Seat(0));
    let mut expected: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|m| m.display(two_player()))
        .collect();
    expected.sort();
    assert_eq!(listed.stdout.lines().collect::<Vec<_>>(), expected);
    let north = qj(&["moves", &g.d(), "--as", "north"]);
    assert_eq!(north.code, 1, "{north:?}");
    assert!(north.stderr.contains("south's move"), "{}", north.stderr);
    // `move` refuses what the player's own view shows to be illegal or out of turn, and
    // writes nothing.
    let key = g.keys.path("alice");
    let illegal = qj(&["move", &g.d(), "--as", "south", "--key", &key, "a5-a4"]);
    assert_eq!(illegal.code, 1, "refused input: {illegal:?}");
    assert!(
        illegal.stderr.contains("holds a piece of yours"),
        "{}",
        illegal.stderr
    );
    let bob = g.keys.path("bob");
    let early = qj(&["move", &g.d(), "--as", "north", "--key", &bob, "a7-a6"]);
    assert_eq!(early.code, 1, "{early:?}");
    assert!(
        !g.dir.join("moves").exists()
            || std::fs::read_dir(g.dir.join("moves")).unwrap().count() == 0
    );
    // A listed move is taken by the judge.
    ok(&["move", &g.d(), "--as", "south", "--key", &key, &expected[0]]);
    assert_eq!(g.judge().code, 0);
}

#[test]
fn a_sealed_seat_lists_its_moves_with_its_key() {
    let g = TestGame::sealed();
    for _ in 0..2 {
        g.judge();
    }
    let without = qj(&["moves", &g.d(), "--as", "south"]);
    assert_eq!(without.code, 1, "{without:?}");
    assert!(without.stderr.contains("--key"), "{}", without.stderr);
    let with = ok(&[
        "moves",
        &g.d(),
        "--as",
        "south",
        "--key",
        &g.keys.path("alice"),
    ]);
    assert!(with.stdout.lines().count() > 5, "{}", with.stdout);
    // The seat's own view tells it the command that works in a sealed game: with the key.
    let view = ok(&[
        "view",
        &g.d(),
        "--as",
        "south",
        "--key",
        &g.keys.path("alice"),
    ]);
    assert!(
        view.stdout
            .contains(" --as south --key KEY; play one with qijudge move "),
        "{}",
        view.stdout
    );
}

#[test]
fn a_manifest_naming_an_unknown_game_and_moves_without_a_seat_are_refused() {
    let g = TestGame::started(&[]);
    let both = qj(&["moves", &g.d(), "position.json", "--as", "south"]);
    assert_eq!(both.code, 2, "{both:?}");
    let neither = qj(&["moves", &g.d()]);
    assert_eq!(neither.code, 2, "{neither:?}");
    assert!(neither.stderr.contains("--as SEAT"), "{}", neither.stderr);
    let manifest = g
        .read("game.toml")
        .replace("game = \"luzhanqi\"", "game = \"chess\"");
    g.write("game.toml", &manifest);
    let r = qj(&["status", &g.d()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("game.toml") && r.stderr.contains("\"chess\""),
        "{}",
        r.stderr
    );
}

/// `--as South` and `A6A7` are what people type: taken, and written in the record's form.
#[test]
fn seats_and_moves_are_taken_in_any_case_and_without_the_dash() {
    let g = TestGame::started(&[]);
    let moves = ok(&["moves", &g.d(), "--as", "SOUTH"]).stdout;
    let first = moves.lines().next().unwrap().to_string();
    let compact = first.replace('-', "").to_uppercase();
    let key = g.keys.path("alice");
    ok(&["move", &g.d(), "--as", "South", "--key", &key, &compact]);
    let file = g.read("moves/0001-south.toml");
    assert!(file.contains(&format!("move = \"{first}\"")), "{file}");
    assert_eq!(g.judge().code, 0);
    let view = ok(&["view", &g.d(), "--as", "North"]).stdout;
    assert!(
        view.contains(&format!("Last move (ply 1): south {first}")),
        "{view}"
    );
}

/// Help to start: the template, a random setup, and what `setup`, `view --as full` and `verify`
/// say when it is too early.
#[test]
fn a_new_player_is_shown_the_way_to_a_setup() {
    let g = TestGame::new(&[]);
    let key = g.keys.path("alice");
    let r = qj(&["setup", &g.d(), "--as", "south", "--key", &key]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("--template") && r.stderr.contains("--random"),
        "{r:?}"
    );
    // The template, written to a file, is a setup the judge takes.
    let template = ok(&["setup", &g.d(), "--as", "south", "--template"]).stdout;
    assert!(
        template.starts_with('#') && template.contains("rows = ["),
        "{template}"
    );
    let file = g.tmp.path().join("mine.toml");
    std::fs::write(&file, &template).unwrap();
    ok(&[
        "setup",
        &g.d(),
        "--as",
        "south",
        "--key",
        &key,
        &file.to_string_lossy(),
    ]);
    // A random setup for north, printed to its player, is the setup the judge plays.
    let drawn = ok(&[
        "setup",
        &g.d(),
        "--as",
        "north",
        "--key",
        &g.keys.path("bob"),
        "--random",
        "7",
    ])
    .stdout;
    assert!(drawn.contains("rows = ["), "{drawn}");
    let r = qj(&[
        "setup",
        &g.d(),
        "--as",
        "north",
        "--key",
        &g.keys.path("bob"),
        "--random",
        "x",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--random: \"x\" is not a seed"), "{r:?}");
    // Too early for the full view and for verify: one sentence and a hint, no Debug text.
    assert_eq!(g.judge().code, 0);
    let full = qj(&["view", &g.d(), "--as", "full"]);
    assert_eq!(full.code, 1);
    assert!(
        full.stderr.contains("written when the game is over"),
        "{full:?}"
    );
    let verify = qj(&["verify", &g.d()]);
    assert_eq!(verify.code, 1);
    assert!(verify.stderr.contains("hint:"), "{verify:?}");
    for r in [&full, &verify] {
        assert!(
            !r.stderr.contains("Some(") && !r.stderr.contains("{ "),
            "{r:?}"
        );
    }
    // North's view shows the drawn setup, row by row from its front row.
    let rows: Vec<String> = drawn
        .lines()
        .filter(|l| l.starts_with("  \""))
        .map(|l| l.trim().trim_matches(|c| c == '"' || c == ',').to_string())
        .collect();
    let north: serde_json::Value = serde_json::from_str(&g.read("views/north.json")).unwrap();
    let known = north["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["piece"].is_null())
        .count();
    assert_eq!(known, 25);
    assert_eq!(rows.len(), 6, "{drawn}");
}

/// A game's own tools are refused for the games that lack them, naming the games that have
/// them (from the registry): `moves GAME FILE` needs a `position` tool, `match --pgn-out` a
/// `pgn` tool.
#[test]
fn a_tool_a_game_lacks_is_refused_naming_the_games_that_have_it() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("position.json");
    std::fs::write(&file, "{}").unwrap();
    let r = qj(&["moves", "xiangqi", &file.to_string_lossy()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("position is for luzhanqi games, not xiangqi"),
        "{r:?}"
    );
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let pgn = tmp.path().join("m.pgn").to_string_lossy().into_owned();
    let r = qj(&[
        "match",
        "--folders",
        "--game",
        "liubo",
        "--out",
        &out,
        "--bot",
        "a=builtin:random",
        "--bot",
        "b=builtin:random",
        "--pgn-out",
        &pgn,
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("--pgn-out: pgn is for xiangqi games, not liubo"),
        "{r:?}"
    );
    assert!(
        !tmp.path().join("m").exists(),
        "a refused match writes nothing"
    );
}

/// `qijudge games ROOT`: every game under a folder with whose turn it is and by when; with a
/// player's key, only that player's games, its turns first and marked; a folder that is no
/// readable game is listed with why, and the others are still listed.
#[test]
fn games_lists_whose_turn_it_is_across_a_folder_of_games() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("club");
    let keys = Keys::new(tmp.path());
    let pubkey = |n: &str| format!("{}.pub", keys.path(n));
    let r = root.to_string_lossy().into_owned();
    let at = "2026-11-28T10:00:00Z";
    let live = root.join("live").to_string_lossy().into_owned();
    ok(&[
        "new",
        "xiangqi",
        &live,
        "--player",
        &format!("alice={}", pubkey("alice")),
        "--player",
        &format!("bob={}", pubkey("bob")),
        "--judge",
        &pubkey("judge"),
        "--clock",
        "4320",
        "--now",
        at,
    ]);
    ok(&["judge", &live, "--key", &keys.path("judge"), "--now", at]);
    let waiting = root.join("waiting").to_string_lossy().into_owned();
    ok(&[
        "new",
        "banqi",
        &waiting,
        "--player",
        &format!("bob={}", pubkey("bob")),
        "--player",
        &format!("mallory={}", pubkey("mallory")),
        "--judge",
        &pubkey("judge"),
    ]);
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/xiangqi/sample");
    copy_dir(&sample, &root.join("old/xq"));
    std::fs::create_dir_all(root.join("broken")).unwrap();
    std::fs::write(root.join("broken/game.toml"), "not toml").unwrap();

    let everyone = ok(&["games", &r, "--now", "2026-11-28T12:00:00Z"]).stdout;
    let lines: Vec<&str> = everyone.lines().collect();
    assert_eq!(lines.len(), 4, "{everyone}");
    assert_eq!(
        lines[0],
        "live  xiangqi after 0 plies  red (alice) to move, due 2026-12-01T10:00:00Z"
    );
    assert!(
        everyone.contains("broken  ?  cannot be read: refused: game.toml"),
        "{everyone}"
    );
    assert!(
        everyone.contains("old/xq  xiangqi after 97 plies  over: checkmate"),
        "{everyone}"
    );
    assert!(
        everyone.contains("waiting  banqi after 0 plies  waiting"),
        "{everyone}"
    );

    let alice = ok(&["games", &r, "--key", &pubkey("alice"), "--now", at]).stdout;
    assert_eq!(
        alice.trim(),
        "live  xiangqi [you: red] after 0 plies  YOUR TURN: red (alice) to move, due 2026-12-01T10:00:00Z"
    );
    // The private key file, as a player keeps it, names the same player.
    let private = pubkey("alice").trim_end_matches(".pub").to_string();
    assert!(std::path::Path::new(&private).exists(), "{private}");
    let by_private = ok(&["games", &r, "--key", &private, "--now", at]).stdout;
    assert_eq!(by_private, alice);
    let bob: serde_json::Value = serde_json::from_str(
        &ok(&["games", &r, "--key", &pubkey("bob"), "--json", "--now", at]).stdout,
    )
    .unwrap();
    let paths: Vec<&str> = bob
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["live", "waiting"], "{bob}");
    assert_eq!(bob[0]["yours"], serde_json::json!(["black"]));
    assert_eq!(bob[0]["your_turn"], false);
    assert_eq!(bob[1]["yours"], serde_json::json!(["first"]));
    let none = ok(&["games", &r, "--address", "nobody@example.org"]).stdout;
    assert_eq!(none.trim(), "no game of yours here");
    let missing = qj(&["games", &tmp.path().join("nowhere").to_string_lossy()]);
    assert_eq!(missing.code, 2, "{missing:?}");
}

/// A Luzhanqi move written as people write it (a space, a typographic dash) is read, and the
/// move file holds it as the game writes it (`a6-a7`).
#[test]
fn a_move_written_with_a_space_or_a_dash_is_read() {
    for written in ["a6 a7", "a6–a7"] {
        let g = TestGame::started(&[]);
        let r = g.send("south", written);
        assert_eq!(r.code, 0, "{written}: {r:?}");
        assert!(r.stdout.contains("(a6-a7)"), "{written}: {r:?}");
        let file = g.read("moves/0001-south.toml");
        assert!(file.contains("move = \"a6-a7\""), "{written}: {file}");
        assert_eq!(g.judge().code, 0);
    }
}

/// Help is wrapped to 100 columns, for every command, short and long.
#[test]
fn help_fits_a_terminal() {
    let top = ok(&["--help"]).stdout;
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() > 20, "{top}");
    for command in std::iter::once(None).chain(commands.iter().map(Some)) {
        for flag in ["-h", "--help"] {
            let mut args: Vec<&str> = command.iter().map(|c| c.as_str()).collect();
            args.push(flag);
            let text = ok(&args).stdout;
            for line in text.lines() {
                assert!(
                    line.chars().count() <= 100,
                    "qijudge {}: a line of {} characters: {line}",
                    args.join(" "),
                    line.chars().count()
                );
            }
        }
    }
}
