//! Whole games played through the command line as people type them, mistakes included: each
//! mistake is refused with the message a player needs (checked by its text), nothing is lost,
//! and the game goes on to its end and verifies.

use super::helpers::*;
use std::path::Path;

/// Xiangqi from `new` to `verify`: a private key given as the judge's, a command run outside
/// the game folder, full-width notation, a second move before the judge ran, a move onto one's
/// own piece, the list of games waiting for a player, a conditional answer (mistyped, then
/// played by the judge; tried on one's own turn), a blocked elephant, then a resignation that
/// every count includes.
#[test]
fn a_xiangqi_game_as_people_type_it() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("game").to_string_lossy().into_owned();
    let (alice, bob) = (
        format!("alice={}.pub", keys.path("alice")),
        format!("bob={}.pub", keys.path("bob")),
    );
    // The organiser gives the judge's private key file instead of its .pub.
    let r = qj(&[
        "new",
        "xiangqi",
        &d,
        "--player",
        &alice,
        "--player",
        &bob,
        "--judge",
        &keys.path("judge"),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("is a private key; a game lists public keys")
            && r.stderr.contains("judge.pub"),
        "{}",
        r.stderr
    );
    assert!(
        !Path::new(&d).exists(),
        "nothing is created by a refused `new`"
    );
    let judge_pub = format!("{}.pub", keys.path("judge"));
    ok(&[
        "new", "xiangqi", &d, "--player", &alice, "--player", &bob, "--judge", &judge_pub,
    ]);
    let judge = || qj(&["judge", &d, "--key", &keys.path("judge")]);
    assert_eq!(judge().code, 0);
    let play = |seat: &str, key: &str, mv: &str| {
        qj(&["move", &d, "--as", seat, "--key", &keys.path(key), mv])
    };

    // A player looks at the game from the wrong folder.
    let r = qj(&["view", &tmp.path().to_string_lossy(), "--as", "red"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("not a game folder (it has no game.toml)")
            && r.stderr.contains("the one `qijudge new` made"),
        "{}",
        r.stderr
    );

    // ... and from a folder that does not exist (a typo in the path).
    let typo = tmp.path().join("gmae1");
    let r = qj(&["status", &typo.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("gmae1: no such folder") && r.stderr.contains("qijudge games"),
        "{}",
        r.stderr
    );

    // Red types a cannon move in full-width characters, as a Chinese keyboard gives them.
    let r = play("red", "alice", "Ｈ２－Ｄ２");
    assert_eq!(r.code, 0, "{r:?}");
    // Then, impatient, moves again before the judge has run.
    let r = play("red", "alice", "h0-g2");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("you already moved for ply 1") && r.stderr.contains("wait for the judge"),
        "{}",
        r.stderr
    );
    let r = judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("ply 1: red h2d2"), "{}", r.stdout);

    // Black tries to move a chariot onto its own horse: refused input (exit 1), not a usage error.
    let r = play("black", "bob", "a9-b9");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("b9 is occupied by one of your own pieces"),
        "{}",
        r.stderr
    );
    // Bob, with several games in one folder, asks which wait for him.
    let r = ok(&[
        "games",
        &tmp.path().to_string_lossy(),
        "--key",
        &format!("{}.pub", keys.path("bob")),
    ]);
    assert!(
        r.stdout.contains("YOUR TURN: black (bob) to move"),
        "{}",
        r.stdout
    );
    // Alice, waiting, answers the reply she expects in advance; she first forgets the `=`.
    let answer = |seat: &str, key: &str, line: &str| {
        let key = keys.path(key);
        qj(&["move", &d, "--as", seat, "--key", &key, "--if", line])
    };
    let r = answer("red", "alice", "h7-e7 e0-e1");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("write each step as REPLY=ANSWER"),
        "{}",
        r.stderr
    );
    let r = answer("red", "alice", "h7-e7=e0-e1");
    assert_eq!(r.code, 0, "{r:?}");
    // Bob plays the expected reply: the judge answers it from alice's file at once.
    let r = play("black", "bob", "h7-e7");
    assert_eq!(r.code, 0, "{r:?}");
    let r = judge();
    assert!(r.stdout.contains("ply 3: red e0e1"), "{}", r.stdout);
    // Bob tries the same trick on his own turn.
    let r = answer("black", "bob", "e1-d1=h9-g7");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("it is your move (ply 4)"), "{}", r.stderr);
    for (seat, key, mv) in [
        ("black", "bob", "h9-g7"),
        ("red", "alice", "e1-d1"),
        ("black", "bob", "a9-a8"),
    ] {
        let r = play(seat, key, mv);
        assert_eq!(r.code, 0, "{mv}: {r:?}");
        assert_eq!(judge().code, 0, "{mv}");
    }
    // The king now stands on d1, the eye of red's elephant on c0.
    let r = play("red", "alice", "c0-e2");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("an elephant cannot move from c0 to e2: its eye at d1 is blocked"),
        "{}",
        r.stderr
    );

    // Red resigns at ply 7; the resignation is a signed move every count includes.
    let r = play("red", "alice", "resign");
    assert_eq!(r.code, 0, "{r:?}");
    let r = judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("ply 7: red resign") && r.stdout.contains("black wins (resignation)"),
        "{}",
        r.stdout
    );
    let status = judge_status(&d);
    assert!(
        status.contains("after 7 plies") && status.contains("red resigned"),
        "{status}"
    );
    let r = ok(&["verify", &d]);
    assert!(
        r.stdout.contains(": 7 plies, every signature"),
        "{}",
        r.stdout
    );
    // The refused attempts left nothing behind: the folder holds six signed moves and the
    // conditional file that gave the seventh.
    let moves = std::fs::read_dir(Path::new(&d).join("moves"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".toml")
        })
        .count();
    assert_eq!(moves, 6);
    assert!(Path::new(&d).join("conditional/0002-red.toml").exists());
}

/// `qijudge new GAME` for alice and bob, the judge's public key from `keys`.
fn new_game(game: &str, d: &str, keys: &Keys) {
    let (alice, bob, judge) = (
        format!("alice={}.pub", keys.path("alice")),
        format!("bob={}.pub", keys.path("bob")),
        format!("{}.pub", keys.path("judge")),
    );
    ok(&[
        "new", game, d, "--player", &alice, "--player", &bob, "--judge", &judge,
    ]);
}

/// One judge run, which must succeed.
fn judged(d: &str, keys: &Keys) -> Run {
    let r = qj(&["judge", d, "--key", &keys.path("judge")]);
    assert_eq!(r.code, 0, "{r:?}");
    r
}

fn judge_status(d: &str) -> String {
    ok(&["status", d]).stdout
}

/// Liubo (the judge throws) from `new` to the end, played from the lists `moves` prints, with
/// the mistakes of a new player at the first turn: asking to throw, naming an owl the player has
/// not got, and an end its stone cannot reach; each refusal names the real cause, and the game
/// goes on to a result that verifies.
#[test]
fn a_liubo_game_as_people_type_it() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("game").to_string_lossy().into_owned();
    new_game("liubo", &d, &keys);
    let judge = || judged(&d, &keys);
    ok(&["setup", &d, "--as", "a", "--key", &keys.path("alice")]);
    ok(&["setup", &d, "--as", "b", "--key", &keys.path("bob")]);
    judge();
    let key_of = |seat: &str| keys.path(if seat == "a" { "alice" } else { "bob" });
    let play = |seat: &str, mv: &str| qj(&["move", &d, "--as", seat, "--key", &key_of(seat), mv]);
    // Whose turn it is, and what it may play: the seat whose `moves` answers.
    let mover = || to_move(&d, &["a", "b"]);
    let (seat, turns) = mover().expect("a throw is waiting after the seeds");
    // Turns of throws and moves take no answers written in advance.
    let waiting = if seat == "a" { "b" } else { "a" };
    let r = qj(&[
        "move",
        &d,
        "--as",
        waiting,
        "--key",
        &key_of(waiting),
        "--if",
        "3:in-3=2:in-2",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(
            "conditional answers are for games of two seats that move in turn, not Liubo"
        ),
        "{}",
        r.stderr
    );
    let r = play(seat, "throw");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("in this game (escrow) the judge throws")
            && r.stderr.contains("lists your turns"),
        "{}",
        r.stderr
    );
    // The first listed turn tells the throw's values; a new player writes an owl it lacks.
    let first = &turns[0];
    let value = first.split(':').next().unwrap();
    let r = play(seat, &format!("{value}:owl:5-6"));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("you have no owl on 5"), "{}", r.stderr);
    assert!(!r.stderr.contains("ends on"), "{}", r.stderr);

    // Then the game is played out from the lists, one judge run a turn.
    let mut turns_played = 0;
    while let Some((seat, turns)) = mover() {
        let pick = &turns[turns_played % turns.len()];
        let r = play(seat, pick);
        assert_eq!(r.code, 0, "{pick}: {r:?}");
        judge();
        turns_played += 1;
        assert!(turns_played < 2000, "the game does not end");
    }
    let status = ok(&["status", &d]).stdout;
    assert!(status.contains("game over"), "{status}");
    // A spectator checks the game before the judge has revealed the seeds: told what is missing.
    let r = qj(&["verify", &d]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&format!("qijudge reveal {d}`")),
        "{}",
        r.stderr
    );
    ok(&["reveal", &d, "--key", &keys.path("judge")]);
    let r = ok(&["verify", &d]);
    assert!(r.stdout.contains("verified"), "{}", r.stdout);
}

/// Luzhanqi from `new` to a resignation: a setup with the flag off the headquarters, a move of a
/// landmine, a move of the opponent's piece, a move out of turn, a conditional answer naming an
/// outcome in the player's own words; each refused by its cause, the game going on from the
/// lists `moves` prints, and the end verified after the reveal.
#[test]
fn a_luzhanqi_game_as_people_type_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("game").to_string_lossy().into_owned();
    new_game("luzhanqi", &d, &keys);
    let judge = || judged(&d, &keys);
    let key_of = |seat: &str| keys.path(if seat == "south" { "alice" } else { "bob" });
    // Alice swaps her flag and a landmine on the back row: the flag must be in a headquarters.
    let example = std::fs::read_to_string(root.join("games/luzhanqi/example-setup.toml")).unwrap();
    let bad = tmp.path().join("bad-setup.toml");
    std::fs::write(
        &bad,
        example.replace("\"LM FL LM EN LM\"", "\"FL LM LM EN LM\""),
    )
    .unwrap();
    let r = qj(&[
        "setup",
        &d,
        "--as",
        "south",
        "--key",
        &key_of("south"),
        &bad.to_string_lossy(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("the setup breaks 1 rule(s)")
            && r.stderr
                .contains("a1: the flag must stand in a headquarters"),
        "{}",
        r.stderr
    );
    let good = root
        .join("games/luzhanqi/example-setup.toml")
        .to_string_lossy()
        .into_owned();
    ok(&[
        "setup",
        &d,
        "--as",
        "south",
        "--key",
        &key_of("south"),
        &good,
    ]);
    ok(&[
        "setup",
        &d,
        "--as",
        "north",
        "--key",
        &key_of("north"),
        &good,
    ]);
    judge();
    let play = |seat: &str, mv: &str| qj(&["move", &d, "--as", seat, "--key", &key_of(seat), mv]);
    let to_move = || to_move(&d, &["south", "north"]);
    let (first, _) = to_move().expect("someone moves first");
    let other = if first == "south" { "north" } else { "south" };
    // Each side sees the board from its own side: its landmine on a1, the enemy's front on a7.
    let refusals = [
        (first, "a1-a2", "your landmine on a1 never moves"),
        (first, "a7-a8", "there is no piece of yours on a7"),
        (
            other,
            "c6-c5",
            &format!("it is {first}'s move, not {other}'s") as &str,
        ),
    ];
    for (seat, mv, why) in refusals {
        let r = play(seat, mv);
        assert_eq!(r.code, 1, "{mv}: {r:?}");
        assert!(r.stderr.contains(why), "{mv}: {}", r.stderr);
    }
    // The seat waiting answers in advance, first naming a combat outcome in its own words.
    let answer = |line: &str| {
        let key = key_of(other);
        qj(&["move", &d, "--as", other, "--key", &key, "--if", line])
    };
    let r = answer("a1-a2/won=c6-c5");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("the outcome is one of moved, attacker_won, defender_won, both_removed"),
        "{}",
        r.stderr
    );
    assert_eq!(answer("A1A2/moved=c6-c5").code, 0);
    let status = ok(&["status", &d]).stdout;
    assert!(
        status.contains(&format!(
            "{other}'s conditional answers (conditional/0001-{other}.toml) stand: a1-a2/moved c6-c5"
        )),
        "{status}"
    );
    // Twenty plies from the lists, then the side to move resigns.
    let mut plies = 0;
    while plies < 20 {
        let Some((seat, moves)) = to_move() else {
            break;
        };
        let pick = &moves[plies % moves.len()];
        let r = play(seat, pick);
        assert_eq!(r.code, 0, "{pick}: {r:?}");
        judge();
        plies += 1;
    }
    // The landmine never moved: the answer was dropped with the first move.
    assert!(!ok(&["status", &d]).stdout.contains("conditional answers"));
    if let Some((seat, _)) = to_move() {
        assert_eq!(play(seat, "resign").code, 0);
        let r = judge();
        assert!(r.stdout.contains("resign"), "{}", r.stdout);
        plies += 1;
    }
    let status = ok(&["status", &d]).stdout;
    assert!(
        status.contains(&format!("after {plies} plies")) && status.contains("wins (resignation)"),
        "{status}"
    );
    let r = qj(&["verify", &d]);
    assert_eq!(r.code, 1, "verify wants the revealed setups: {r:?}");
    ok(&["reveal", &d, "--key", &keys.path("judge")]);
    let r = ok(&["verify", &d]);
    assert!(
        r.stdout.contains(&format!("{plies} signed moves")),
        "{plies}: {}",
        r.stdout
    );
}

/// The hidden-piece Xiangqi variants from `new` to a resignation: a move out of turn, the
/// opponent's piece, words that are no move, and the game's own mistake (Jieqi: a face-down
/// piece moved unlike the piece of its starting point; Banqi: turning up a piece already face
/// up), and a resignation written as a conditional answer; each refused by its cause with exit
/// 1, then the game played from the lists `moves` prints, resigned, counted alike by `status`
/// and `verify`, and verified after the reveal.
#[test]
fn jieqi_and_banqi_games_as_people_type_them() {
    struct Case {
        game: &'static str,
        seats: [&'static str; 2],
        mistakes: &'static [(usize, &'static str, &'static str)],
        /// A first move, then the second seat's mistake about it and the refusal's words.
        after_first: Option<(&'static str, &'static str, &'static str)>,
    }
    let cases = [
        Case {
            game: "jieqi",
            seats: ["red", "black"],
            mistakes: &[
                (1, "a9a8", "it is red's move, not black's"),
                (0, "a9a8", "the piece on a9 belongs to the opponent"),
                (
                    0,
                    "z9z9",
                    "\"z9z9\" is not a move; write ICCS coordinates like h2e2",
                ),
                (0, "b0b1", "a horse cannot move from b0 to b1"),
            ],
            after_first: None,
        },
        Case {
            game: "banqi",
            seats: ["first", "second"],
            mistakes: &[
                (1, "c2", "it is first's move, not second's"),
                (
                    0,
                    "hello",
                    "\"hello\" is not a turn: write a square to turn its piece up",
                ),
            ],
            after_first: Some(("c2", "c2", "the piece on c2 is already face up")),
        },
    ];
    for case in cases {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let d = tmp.path().join("game").to_string_lossy().into_owned();
        new_game(case.game, &d, &keys);
        let key_of = |seat: &str| {
            keys.path(if seat == case.seats[0] {
                "alice"
            } else {
                "bob"
            })
        };
        for seat in case.seats {
            ok(&["setup", &d, "--as", seat, "--key", &key_of(seat)]);
        }
        judged(&d, &keys);
        let play =
            |seat: &str, mv: &str| qj(&["move", &d, "--as", seat, "--key", &key_of(seat), mv]);
        for &(seat, mv, why) in case.mistakes {
            let r = play(case.seats[seat], mv);
            assert_eq!(r.code, 1, "{}: {mv}: {r:?}", case.game);
            assert!(r.stderr.contains(why), "{}: {mv}: {}", case.game, r.stderr);
        }
        // The seat waiting tries to resign in advance: answers are moves on the board.
        let r = qj(&[
            "move",
            &d,
            "--as",
            case.seats[1],
            "--key",
            &key_of(case.seats[1]),
            "--if",
            "a0a1=resign",
        ]);
        assert_eq!(r.code, 1, "{}: {r:?}", case.game);
        assert!(
            r.stderr
                .contains("resign: a line holds moves on the board only"),
            "{}: {}",
            case.game,
            r.stderr
        );
        let to_move = || to_move(&d, &case.seats);
        let mut plies = 0;
        if let Some((first, mistake, why)) = case.after_first {
            assert_eq!(play(case.seats[0], first).code, 0);
            judged(&d, &keys);
            plies += 1;
            let r = play(case.seats[1], mistake);
            assert_eq!(r.code, 1, "{}: {mistake}: {r:?}", case.game);
            assert!(
                r.stderr.contains(why),
                "{}: {mistake}: {}",
                case.game,
                r.stderr
            );
        }
        while plies < 16 {
            let Some((seat, moves)) = to_move() else {
                break;
            };
            let pick = &moves[(plies * 7) % moves.len()];
            let r = play(seat, pick);
            assert_eq!(r.code, 0, "{}: {pick}: {r:?}", case.game);
            judged(&d, &keys);
            plies += 1;
        }
        let (seat, _) = to_move().expect("a 16-ply game goes on");
        assert_eq!(play(seat, "resign").code, 0);
        let r = judged(&d, &keys);
        assert!(r.stdout.contains("resign"), "{}", r.stdout);
        plies += 1;
        let status = judge_status(&d);
        assert!(
            status.contains(&format!("after {plies} plies")) && status.contains("resign"),
            "{}: {status}",
            case.game
        );
        let r = qj(&["verify", &d]);
        assert_eq!(r.code, 1, "{}: verify wants the reveal: {r:?}", case.game);
        ok(&["reveal", &d, "--key", &keys.path("judge")]);
        let r = ok(&["verify", &d]);
        assert!(
            r.stdout.contains(&format!(": {plies} plies")) && r.stdout.contains("verified"),
            "{}: {plies}: {}",
            case.game,
            r.stdout
        );
    }
}

/// Four-player Luzhanqi from `new` to a resignation that leaves the game going on: the judge
/// waits for every seat's commitment, then refuses an ally's piece, a landmine, a move out of
/// turn and words that are no move; 24 plies from the lists `moves` prints; the seat to move
/// resigns, and the next seat's turn is the ply its `move` writes.
#[test]
fn a_four_player_game_as_people_type_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    for name in ["carol", "dave"] {
        ok(&["keygen", &keys.path(name)]);
    }
    let seats = [
        ("south", "alice"),
        ("east", "carol"),
        ("north", "bob"),
        ("west", "dave"),
    ];
    let d = tmp.path().join("game").to_string_lossy().into_owned();
    let players: Vec<String> = seats
        .iter()
        .map(|(_, who)| format!("{who}={}.pub", keys.path(who)))
        .collect();
    let judge_pub = format!("{}.pub", keys.path("judge"));
    let mut args: Vec<&str> = vec!["new", "luzhanqi", &d, "--board", "cross4"];
    for p in &players {
        args.extend(["--player", p.as_str()]);
    }
    args.extend(["--judge", judge_pub.as_str()]);
    ok(&args);
    let key_of = |seat: &str| keys.path(seats.iter().find(|(s, _)| *s == seat).unwrap().1);
    // Conditional answers are for two seats that alternate: said before anything else.
    let r = qj(&[
        "move",
        &d,
        "--as",
        "north",
        "--key",
        &key_of("north"),
        "--if",
        "sa6-sa5=na6-na5",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(
            "conditional answers are for games of two seats that move in turn, not 4 seats"
        ),
        "{}",
        r.stderr
    );
    let setup = root
        .join("games/luzhanqi/example-setup.toml")
        .to_string_lossy()
        .into_owned();
    for (seat, _) in &seats[..3] {
        ok(&["setup", &d, "--as", seat, "--key", &key_of(seat), &setup]);
    }
    let r = judged(&d, &keys);
    assert!(
        r.stdout.contains("waiting for every seat's commitment"),
        "{}",
        r.stdout
    );
    ok(&[
        "setup",
        &d,
        "--as",
        "west",
        "--key",
        &key_of("west"),
        &setup,
    ]);
    let r = judged(&d, &keys);
    assert!(r.stdout.contains("play begins"), "{}", r.stdout);
    let play = |seat: &str, mv: &str| qj(&["move", &d, "--as", seat, "--key", &key_of(seat), mv]);
    let names: Vec<&str> = seats.iter().map(|(s, _)| *s).collect();
    let to_move = || to_move(&d, &names);
    let (first, _) = to_move().expect("someone moves first");
    let not_first = seats.iter().map(|(s, _)| *s).find(|s| *s != first).unwrap();
    let ally_arm = match first {
        "south" => "n",
        "north" => "s",
        "east" => "w",
        _ => "e",
    };
    let own_arm = &first[..1];
    let refusals = [
        (
            first,
            format!("{ally_arm}b6-{ally_arm}b5"),
            format!("there is no piece of yours on {ally_arm}b6"),
        ),
        (
            first,
            format!("{own_arm}a1-{own_arm}a2"),
            format!("your landmine on {own_arm}a1 never moves"),
        ),
        (
            not_first,
            format!("{}b6-{}b5", &not_first[..1], &not_first[..1]),
            format!("it is {first}'s move, not {not_first}'s"),
        ),
        (
            first,
            "xx".to_string(),
            "\"xx\" is not a move: write from-to".to_string(),
        ),
    ];
    for (seat, mv, why) in &refusals {
        let r = play(seat, mv);
        assert_eq!(r.code, 1, "{mv}: {r:?}");
        assert!(r.stderr.contains(why.as_str()), "{mv}: {}", r.stderr);
    }
    let mut plies = 0;
    while plies < 24 {
        let Some((seat, moves)) = to_move() else {
            break;
        };
        let pick = &moves[(plies * 5) % moves.len()];
        let r = play(seat, pick);
        assert_eq!(r.code, 0, "{pick}: {r:?}");
        judged(&d, &keys);
        plies += 1;
    }
    let (seat, _) = to_move().expect("the game goes on after 24 plies");
    assert_eq!(play(seat, "resign").code, 0);
    let r = judged(&d, &keys);
    assert!(r.stdout.contains("resign"), "{}", r.stdout);
    plies += 1;
    // Three seats play on; the next turn is the ply `move` writes.
    let (next, moves) = to_move().expect("the other three play on");
    assert_ne!(next, seat);
    let status = judge_status(&d);
    let ply = plies + 1;
    assert!(
        status.contains(&format!("{next} to move (ply {ply})")),
        "{status}"
    );
    let r = play(next, &moves[0]);
    assert!(
        r.stdout.contains(&format!("moves/{ply:04}-{next}.toml")),
        "{r:?}"
    );
}
