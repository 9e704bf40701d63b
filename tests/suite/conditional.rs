//! Conditional answers (`move --if`) through the binary: written while the opponent is to move,
//! played by the judge when the record follows a line, named in the record, dropped when the
//! opponent plays anything else, withdrawn, refused when they cannot be used, and audited.

use super::helpers::*;
use std::path::Path;

fn record_moves(record: &str) -> Vec<serde_json::Value> {
    record
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["entry"].clone())
        .filter(|e| e["kind"] == "move")
        .collect()
}

struct Xq {
    g: TestGame,
}

impl Xq {
    fn new() -> Xq {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let dir = tmp.path().join("game");
        new_game("xiangqi", &dir, &keys, &[]);
        let g = TestGame { tmp, dir, keys };
        ok(&[
            "judge",
            &g.d(),
            "--key",
            &g.keys.path("judge"),
            "--now",
            NOW,
        ]);
        Xq { g }
    }

    fn move_(&self, seat: &str, args: &[&str]) -> Run {
        let (d, key) = (self.g.d(), self.g.keys.path(TestGame::key_of(seat)));
        let mut all = vec!["move", d.as_str(), "--as", seat, "--key", key.as_str()];
        all.extend_from_slice(args);
        qj(&all)
    }

    fn play(&self, seat: &str, mv: &str) -> Run {
        let r = self.move_(seat, &[mv]);
        assert_eq!(r.code, 0, "{r:?}");
        let j = self.g.judge();
        assert_eq!(j.code, 0, "{j:?}");
        j
    }

    fn moves(&self) -> Vec<serde_json::Value> {
        record_moves(&self.g.read("record.jsonl"))
    }
}

#[test]
fn conditional_answers_fire_two_deep_and_are_dropped_or_withdrawn() {
    let x = Xq::new();
    let d = x.g.d();
    x.play("red", "h2e2");
    // Black to move: red answers two likely replies, one of them two moves deep.
    let r = x.move_("red", &["--if", "h9g7=h0g2,i9h9=i0h0", "--if", "b9c7=b0c2"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .contains("conditional/0002-red.toml (2 line(s), version 1)"),
        "{r:?}"
    );
    let status = ok(&["status", &d]).stdout;
    assert!(
        status.contains(
            "red's conditional answers (conditional/0002-red.toml) stand: h9g7 h0g2 i9h9 i0h0; \
             b9c7 b0c2"
        ),
        "{status}"
    );
    // Red's own text view shows them; black's view and the public view say nothing of them.
    let red = ok(&["view", &d, "--as", "red"]).stdout;
    assert!(
        red.contains("Your conditional answers (conditional/0002-red.toml) stand: h9g7 h0g2"),
        "{red}"
    );
    let black = ok(&["view", &d, "--as", "black"]).stdout;
    assert!(!black.contains("conditional"), "{black}");
    for who in ["black", "public"] {
        let view = ok(&["view", &d, "--as", who, "--format", "json"]).stdout;
        assert!(
            !view.contains("h0g2") && !view.contains("conditional"),
            "{who}: {view}"
        );
    }
    let said = x.play("black", "h9g7").stdout;
    assert!(said.contains("ply 3: red h0g2"), "{said}");
    let said = x.play("black", "i9h9").stdout;
    assert!(said.contains("ply 5: red i0h0"), "{said}");
    let moves = x.moves();
    assert_eq!(moves[2]["conditional"]["path"], "conditional/0002-red.toml");
    assert_eq!(moves[2]["conditional"]["line"], 1);
    assert_eq!(moves[4]["conditional"]["line"], 1);
    assert!(moves[1].get("conditional").is_none());
    // The line is used up: red's next move is its own.
    let said = x.play("black", "h7h5").stdout;
    assert!(said.contains("red to move (ply 7)"), "{said}");
    assert!(!ok(&["status", &d]).stdout.contains("conditional answers"));
    x.play("red", "a3a4");
    // A conditional answer the opponent does not follow is dropped.
    assert_eq!(x.move_("red", &["--if", "a9a8=a4a5"]).code, 0);
    let said = x.play("black", "a6a5").stdout;
    assert!(said.contains("red to move (ply 9)"), "{said}");
    // Withdrawn answers are not played.
    x.play("red", "c3c4");
    assert_eq!(x.move_("red", &["--if", "a9a8=g3g4"]).code, 0);
    let r = x.move_("red", &["--withdraw-if"]);
    assert!(r.stdout.contains("withdrawn"), "{r:?}");
    let said = x.play("black", "a9a8").stdout;
    assert!(said.contains("red to move (ply 11)"), "{said}");
    let verified = ok(&["verify", &d]).stdout;
    assert!(
        verified.contains("every signature, move and view checked"),
        "{verified}"
    );
    // Twice the same: the judge's second run changes nothing.
    let before = snapshot(&x.g.dir);
    ok(&["judge", &d, "--key", &x.g.keys.path("judge"), "--now", NOW]);
    assert_eq!(before, snapshot(&x.g.dir));
}

/// The shipped Xiangqi sample's moves in a new game: red answers every fourth of its moves,
/// and the mate, from conditional lines (each beside a line for another reply).
#[test]
fn a_xiangqi_game_is_played_to_mate_with_conditional_answers() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/xiangqi/sample");
    let recorded = record_moves(&std::fs::read_to_string(sample.join("record.jsonl")).unwrap());
    let x = Xq::new();
    let d = x.g.d();
    let last = recorded.len() - 1;
    let by_conditional = |i: usize| i.is_multiple_of(2) && (i % 8 == 4 || i == last);
    let mut fired = Vec::new();
    for (i, m) in recorded.iter().enumerate() {
        let (seat, action) = (m["seat"].as_str().unwrap(), m["move"].as_str().unwrap());
        if by_conditional(i) {
            continue;
        }
        if by_conditional(i + 1) {
            let answer = recorded[i + 1]["move"].as_str().unwrap();
            // A decoy line first, for another legal reply, which is not played, and an answer
            // legal after it (lines are played out on the position when written).
            let decoy = {
                use qijudge::games::xiangqi::rules::fen;
                let status = ok(&["status", &d, "--json"]).stdout;
                let fen_text = serde_json::from_str::<serde_json::Value>(&status).unwrap()["fen"]
                    .as_str()
                    .unwrap()
                    .to_string();
                let mut position = fen::parse(&fen_text).unwrap();
                // (None where the reply is forced.)
                let other = position
                    .legal_moves()
                    .iter()
                    .find(|m| m.to_string() != action);
                other.map(|other| {
                    position.play(other).unwrap();
                    let reply = position.legal_moves().iter().next().unwrap();
                    format!("{other}={reply}")
                })
            };
            let line = format!("{action}={answer}");
            let r = match &decoy {
                Some(decoy) => x.move_("red", &["--if", decoy, "--if", &line]),
                None => x.move_("red", &["--if", &line]),
            };
            assert_eq!(r.code, 0, "{r:?}");
            fired.push(if decoy.is_some() { 2 } else { 1 });
        }
        let r = x.move_(seat, &[action]);
        assert_eq!(r.code, 0, "ply {}: {r:?}", i + 1);
        let j = x.g.judge();
        assert_eq!(j.code, 0, "ply {}: {j:?}", i + 1);
    }
    let ours = x.moves();
    assert_eq!(ours.len(), recorded.len());
    for (a, b) in ours.iter().zip(&recorded) {
        assert_eq!(a["move"], b["move"], "ply {}", a["ply"]);
    }
    let lines: Vec<u64> = ours
        .iter()
        .filter_map(|m| m["conditional"]["line"].as_u64())
        .collect();
    assert_eq!(lines, fired);
    assert!(
        ours[last].get("conditional").is_some(),
        "the mate was a conditional answer"
    );
    let record = x.g.read("record.jsonl");
    assert!(
        record.contains(r#""winner":"red","reason":"checkmate""#),
        "{record}"
    );
    let verified = ok(&["verify", &d]).stdout;
    assert!(
        verified.contains("every signature, move and view checked"),
        "{verified}"
    );
}

#[test]
fn conditional_answers_that_cannot_be_used_are_refused_with_their_reason() {
    let x = Xq::new();
    let d = x.g.d();
    // On one's own turn there is nothing to answer.
    let r = x.move_("red", &["--if", "h9g7=h2e2"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("it is your move (ply 1)"), "{r:?}");
    let r = x.move_("red", &["--if", "h9g7"]);
    assert!(r.stderr.contains("REPLY=ANSWER"), "{r:?}");
    x.play("red", "h2e2");
    // A reply that cannot happen, and a non-move, are refused with the line, the move and why.
    let r = x.move_("red", &["--if", "h9h5=h0g2"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("line 1 (h9h5=h0g2): the reply \"h9h5\" cannot be played there"),
        "{r:?}"
    );
    let r = x.move_("red", &["--if", "h9g7=h0h0"]);
    assert!(r.stderr.contains("\"h0h0\""), "{r:?}");
    assert!(!x.g.dir.join("conditional/0002-red.toml").exists());
    // WXF and Chinese read as `move` reads them, into the record's spelling; a WXF move along
    // a rank is written with `.`, since `=` separates the reply from the answer.
    let r = x.move_("red", &["--if", "C2=5=H2+3"]);
    assert!(
        r.stderr.contains("write a WXF move along a rank with `.`"),
        "{r:?}"
    );
    assert_eq!(x.move_("red", &["--if", "C2.5=H2+3"]).code, 0);
    assert!(x.g.read("plans/0002-red.toml").contains("\"b7e7 h0g2\""));
    assert_eq!(x.move_("red", &["--if", "H8+7=H2+3"]).code, 0);
    assert!(x.g.read("plans/0002-red.toml").contains("\"h9g7 h0g2\""));
    // A move in a line that does not read, and a line of one move.
    let r = x.move_("red", &["--if", "h9g7=h0g2/moved"]);
    assert!(
        r.stderr
            .contains("only the opponent's moves name an outcome"),
        "{r:?}"
    );
    // One signed by the other seat's key, as a forger would.
    assert_eq!(x.move_("red", &["--if", "h9g7=h0g2"]).code, 0);
    let text = x.g.read("conditional/0002-red.toml");
    let forged = sign_as(&x.g.keys, "bob", "qijudge-conditional", &text);
    x.g.write("conditional/0002-red.toml.sig", &forged);
    let j = x.g.judge();
    assert_eq!(j.code, 1, "{j:?}");
    assert!(j.stderr.contains("conditional/0002-red.toml"), "{j:?}");
    assert_set_aside(&x.g.dir, "conditional/0002-red.toml");
    // A stranger's name and a far-future ply are refused too, and the game goes on.
    x.g.write("conditional/notes.txt", "hello");
    assert_eq!(x.move_("red", &["--if", "h9g7=h0g2"]).code, 0);
    std::fs::rename(
        x.g.dir.join("conditional/0002-red.toml"),
        x.g.dir.join("conditional/0009-red.toml"),
    )
    .unwrap();
    std::fs::rename(
        x.g.dir.join("conditional/0002-red.toml.sig"),
        x.g.dir.join("conditional/0009-red.toml.sig"),
    )
    .unwrap();
    std::fs::rename(
        x.g.dir.join("conditional/0002-red.age"),
        x.g.dir.join("conditional/0009-red.age"),
    )
    .unwrap();
    // One run sets both aside (it prints the first refusal).
    let j = x.g.judge();
    assert_eq!(j.code, 1, "{j:?}");
    assert!(
        j.stderr
            .contains("conditional/0009-red.toml: field ply: ply 2 is next"),
        "{j:?}"
    );
    assert_set_aside(&x.g.dir, "conditional/0009-red.toml");
    assert_set_aside(&x.g.dir, "conditional/notes.txt");
    let j = x.g.judge();
    assert_eq!(j.code, 0, "{j:?}");
    x.play("black", "h9g7");
    assert!(ok(&["status", &d]).stdout.contains("red to move (ply 3)"));
    x.play("red", "h0g2");
    // An answer that cannot be played where it falls (the chariot is blocked) is refused when
    // written, with the line, the move and why: Xiangqi lines are played out on the position.
    let r = x.move_("red", &["--if", "a6a5=i0i9"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("line 1 (a6a5=i0i9): your answer \"i0i9\" cannot be played there"),
        "{r:?}"
    );
    assert!(ok(&["verify", &d]).stdout.contains("verified"));
}

/// In Luzhanqi a seat cannot play its line out on what it sees (the opponent's ranks are
/// hidden): a standing answer the rules refuse where it falls (a piece onto its own) is not
/// played, and its seat is told at once, privately, with the line, the move and the ply.
#[test]
fn a_standing_answer_the_rules_refuse_is_told_to_its_seat_at_once() {
    let g = TestGame::started(&[]);
    let d = g.d();
    let seats = ["south", "north"];
    let (first, moves) = to_move(&d, &seats).unwrap();
    let second = seats.into_iter().find(|s| *s != first).unwrap();
    g.play(first, &moves[0]);
    let (_, theirs) = to_move(&d, &seats).unwrap();
    let played = theirs[0].clone();
    g.play(second, &played);
    let (_, replies) = to_move(&d, &seats).unwrap();
    // Two squares of the second seat's other pieces: one moved onto the other is refused.
    let from = |m: &String| m.split('-').next().unwrap().to_string();
    let mut own: Vec<String> = theirs.iter().map(from).collect();
    own.dedup();
    own.retain(|s| *s != from(&played) && !played.ends_with(&format!("-{s}")));
    let bad = format!("{}-{}", own[0], own[1]);
    let key = g.keys.path(TestGame::key_of(second));
    let line = format!("{}={bad}", replies[0]);
    ok(&["move", &d, "--as", second, "--key", &key, "--if", &line]);
    let r = g.send(first, &replies[0]);
    assert_eq!(r.code, 0, "{r:?}");
    let j = g.judge();
    assert!(
        j.stderr.contains(&format!(
            "conditional/0003-{second}.toml: field lines: refused"
        )),
        "{j:?}"
    );
    assert!(!j.stderr.contains(&bad), "{j:?}");
    let note = g.read(&format!("views/{second}.refusal.txt"));
    assert!(
        note.contains(&format!("line 1's answer {bad} cannot be played at ply 4")),
        "{note}"
    );
    assert!(!g.read("views/public.txt").contains(&bad));
    assert!(ok(&["status", &d])
        .stdout
        .contains(&format!("{second} to move (ply 4)")));
    // The seat plays its own move; the game goes on.
    let (_, legal) = to_move(&d, &seats).unwrap();
    let j = g.play(second, &legal[0]);
    assert_eq!(j.code, 0, "{j:?}");
}

#[test]
fn a_fired_conditional_file_changed_afterwards_fails_the_audit() {
    let x = Xq::new();
    let d = x.g.d();
    x.play("red", "h2e2");
    assert_eq!(x.move_("red", &["--if", "h9g7=h0g2"]).code, 0);
    x.play("black", "h9g7");
    ok(&["verify", &d]);
    let path = x.g.dir.join("conditional/0002-red.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("seq = 1", "seq = 7")).unwrap();
    let r = qj(&["verify", &d]);
    assert_ne!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("conditional/0002-red.toml"), "{r:?}");
}

/// The shipped Luzhanqi sample's moves, replayed in a new game with the same setups: North
/// answers every fourth of its moves from a conditional line that names South's move and the
/// combat outcome the record shows, beside a line for another outcome.
#[test]
fn a_luzhanqi_game_is_played_to_the_end_with_conditional_answers() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/luzhanqi/sample");
    let recorded = record_moves(&std::fs::read_to_string(sample.join("record.jsonl")).unwrap());
    let g = TestGame::started(&[]);
    let d = g.d();
    let north_key = g.keys.path("bob");
    let mut fired = 0;
    for (i, m) in recorded.iter().enumerate() {
        let (seat, action) = (m["seat"].as_str().unwrap(), m["move"].as_str().unwrap());
        let from_conditional = seat == "north" && i % 8 == 1;
        if from_conditional {
            continue;
        }
        if let Some(next) = recorded
            .get(i + 1)
            .filter(|_| seat == "south" && i % 8 == 0)
        {
            let outcome = m["outcome"].as_str().unwrap_or("moved");
            let other = if outcome == "moved" {
                "defender_won"
            } else {
                "moved"
            };
            let answer = next["move"].as_str().unwrap();
            let lines = [
                format!("{action}/{other}=a1-a2"),
                format!("{action}/{outcome}={answer}"),
            ];
            ok(&[
                "move", &d, "--as", "north", "--key", &north_key, "--if", &lines[0], "--if",
                &lines[1],
            ]);
            fired += 1;
        }
        g.send(seat, action);
        let j = g.judge();
        assert_eq!(j.code, 0, "ply {}: {j:?}", i + 1);
    }
    let ours = record_moves(&g.read("record.jsonl"));
    assert_eq!(ours.len(), recorded.len());
    for (a, b) in ours.iter().zip(&recorded) {
        assert_eq!(
            (&a["move"], &a["outcome"]),
            (&b["move"], &b["outcome"]),
            "ply {}",
            a["ply"]
        );
    }
    let lines: Vec<u64> = ours
        .iter()
        .filter_map(|m| m["conditional"]["line"].as_u64())
        .collect();
    assert_eq!(
        lines,
        vec![2; fired],
        "the line of the outcome South saw fired"
    );
    assert!(g.read("record.jsonl").contains(r#""kind":"end""#));
    ok(&["reveal", &d, "--key", &g.keys.path("judge")]);
    let verified = ok(&["verify", &d]).stdout;
    assert!(verified.contains("verified"), "{verified}");
    // South's view never carried North's conditional file.
    assert!(!g.read("views/south.json").contains("a1-a2"));
}

/// By mail: red mails its conditional answer from its copy, black's reply comes in, and the
/// judge's message to black carries the answer and the file it came from, so black's copy
/// replays the game.
#[test]
fn a_conditional_answer_comes_by_mail_and_black_s_copy_replays_it() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let judge = tmp.path().join("judge-copy");
    let copies = [tmp.path().join("alice-copy"), tmp.path().join("bob-copy")];
    let j = judge.to_string_lossy().into_owned();
    new_mail_game("xiangqi", &judge, &keys.dir, "alice", "bob");
    ok(&["judge", &j, "--key", &keys.path("judge"), "--now", NOW]);
    for copy in &copies {
        std::fs::create_dir_all(copy).unwrap();
        for f in ["game.toml", "record.jsonl", "record.sig"] {
            std::fs::copy(judge.join(f), copy.join(f)).unwrap();
        }
    }
    let out = tmp.path().join("out");
    let mut sent = 0;
    let mut mail = |who: &str, file: &Path| {
        sent += 1;
        let msg = tmp.path().join(format!("m{sent}.eml"));
        // A conditional file goes with its plans, which only the judge reads.
        let plans = file.to_string_lossy().replace("/conditional/", "/plans/");
        let mut args = vec![
            "make".to_string(),
            "inline".into(),
            msg.to_string_lossy().into_owned(),
            format!("{who}@example.org"),
            file.to_string_lossy().into_owned(),
            format!("{}.sig", file.display()),
        ];
        if plans != file.to_string_lossy() {
            args.push(format!("--also={plans}"));
        }
        eml_py(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let r = qj(&[
            "inbox",
            &j,
            &msg.to_string_lossy(),
            "--key",
            &keys.path("judge"),
            "--now",
            NOW,
            "--outbox",
            &out.to_string_lossy(),
            "--from",
            "judge@example.org",
        ]);
        assert_eq!(r.code, 0, "{r:?}");
        r
    };
    let [alice, bob] = [0, 1].map(|i| copies[i].to_string_lossy().into_owned());
    let take = |copy: &str, seat: &str| {
        ok(&[
            "inbox",
            copy,
            &out.join(format!("{seat}.eml")).to_string_lossy(),
        ]);
    };
    // A player's `move` in its own copy: red is alice in copy 0, black bob in copy 1.
    let play = |seat: &str, args: &[&str]| {
        let (copy, who) = match seat {
            "red" => (&alice, "alice"),
            _ => (&bob, "bob"),
        };
        let key = keys.path(who);
        let mut all = vec!["move", copy.as_str(), "--as", seat, "--key", key.as_str()];
        all.extend_from_slice(args);
        ok(&all);
    };
    play("red", &["h2e2"]);
    mail("alice", &copies[0].join("moves/0001-red.toml"));
    take(&alice, "red");
    play("red", &["--if", "h9g7=h0g2"]);
    mail("alice", &copies[0].join("conditional/0002-red.toml"));
    assert!(judge.join("plans/0002-red.toml").exists());
    assert!(judge.join("conditional/0002-red.toml").exists());
    take(&bob, "black");
    play("black", &["h9g7"]);
    mail("bob", &copies[1].join("moves/0002-black.toml"));
    let to_black = std::fs::read_to_string(out.join("black.eml")).unwrap();
    assert!(to_black.contains("black to move (ply 4)"), "{to_black}");
    take(&bob, "black");
    assert!(copies[1].join("conditional/0002-red.toml").exists());
    let status = ok(&["status", &bob]).stdout;
    assert!(status.contains("black to move (ply 4)"), "{status}");
    play("black", &["b9c7"]);
}
