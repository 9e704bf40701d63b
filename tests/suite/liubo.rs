//! Liubo through the binary: the sample, a game with chain commitments and escrowed seeds,
//! refusals, and a dishonest judge's tampered chain element.

use super::helpers::*;
use qijudge::games::liubo::referee as liubo;
use qijudge::games::liubo::rules::notation::write_turn;
use qijudge::protocol::signing::{self, namespace};
use qijudge::store::GameDir;
use std::path::Path;

struct LGame {
    tmp: tempfile::TempDir,
    keys: Keys,
}

impl LGame {
    /// Keys, manifest, both commitments and seeds, judged: throw 1 is waiting.
    fn started(rules: &[&str]) -> LGame {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let g = LGame { tmp, keys };
        let (alice, bob, judge) = (
            format!("alice={}.pub", g.keys.path("alice")),
            format!("bob={}.pub", g.keys.path("bob")),
            format!("{}.pub", g.keys.path("judge")),
        );
        let d = g.d();
        let mut args = vec![
            "new", "liubo", &d, "--player", &alice, "--player", &bob, "--judge", &judge, "--now",
            NOW,
        ];
        for r in rules {
            args.push("--rule");
            args.push(r);
        }
        ok(&args);
        ok(&["setup", &d, "--as", "a", "--key", &g.keys.path("alice")]);
        ok(&["setup", &d, "--as", "b", "--key", &g.keys.path("bob")]);
        assert_eq!(g.judge().code, 0);
        g
    }

    fn d(&self) -> String {
        self.tmp.path().join("game").to_string_lossy().into_owned()
    }

    fn judge(&self) -> Run {
        qj(&[
            "judge",
            &self.d(),
            "--key",
            &self.keys.path("judge"),
            "--now",
            NOW,
        ])
    }

    fn state(&self) -> liubo::State {
        let d = GameDir::new(self.d());
        let g = liubo::LiuboGame::load(&d).unwrap();
        liubo::current(&d, &g).unwrap()
    }

    /// The mover and the first legal turn for the waiting throw.
    fn next_turn(&self) -> (usize, String) {
        let s = self.state();
        let (_, seat, _) = s.throw.expect("a throw is waiting");
        let turns = s.position.unwrap().legal_turns();
        (seat, write_turn(&turns[0]))
    }

    fn key_of(seat: usize) -> &'static str {
        if seat == 0 {
            "alice"
        } else {
            "bob"
        }
    }

    fn play_next(&self) {
        let (seat, text) = self.next_turn();
        ok(&[
            "move",
            &self.d(),
            "--as",
            liubo::SEATS[seat],
            "--key",
            &self.keys.path(Self::key_of(seat)),
            &text,
        ]);
        assert_eq!(self.judge().code, 0);
    }

    fn path(&self, rel: &str) -> std::path::PathBuf {
        Path::new(&self.d()).join(rel)
    }
}

#[test]
fn the_sample_game_verifies_with_its_revealed_seeds() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/liubo/sample");
    let r = ok(&["verify", &sample.to_string_lossy()]);
    assert!(r.stdout.contains("18 throws recomputed"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("both revealed seeds rebuild their signed chains"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("a wins (owl captured)"), "{}", r.stdout);
}

#[test]
fn a_game_runs_from_commitments_to_turns_and_verifies() {
    let g = LGame::started(&[]);
    let view: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(g.path("views/public.json")).unwrap())
            .unwrap();
    assert_eq!(view["throw"]["t"], 1);
    assert_eq!(view["throw"]["elements"].as_object().unwrap().len(), 2);
    for _ in 0..6 {
        g.play_next();
    }
    assert_eq!(g.state().position.unwrap().turns, 6);
    let text = ok(&["view", &g.d(), "--as", "public"]);
    assert!(text.stdout.contains("to play throw 7"), "{}", text.stdout);
    // A third party without the seeds checks every throw against the signed chain heads.
    std::fs::rename(g.path("setups"), g.tmp.path().join("seeds-held-by-judge")).unwrap();
    let v = ok(&["verify", &g.d()]);
    assert!(v.stdout.contains("7 throws recomputed"), "{}", v.stdout);
    std::fs::rename(g.tmp.path().join("seeds-held-by-judge"), g.path("setups")).unwrap();
    // Judging again changes nothing.
    let before = snapshot(Path::new(&g.d()));
    assert!(g.judge().stdout.contains("nothing new"));
    assert_eq!(before, snapshot(Path::new(&g.d())));
}

/// A refused input: exit 1, file and reason named, nothing changed.
fn refused(g: &LGame, needles: &[&str]) {
    let before = inputs(Path::new(&g.d()));
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    for n in needles {
        assert!(r.stderr.contains(n), "{n:?} not in {}", r.stderr);
    }
    let moved = assert_inputs_kept(&before, Path::new(&g.d()));
    assert!(moved > 0, "the refused file still holds its place");
}

/// Writes a signed move file by hand.
fn write_turn_file(g: &LGame, seat: usize, signer: &str, ply: u32, action: &str) {
    let d = GameDir::new(g.d());
    let game = liubo::LiuboGame::load(&d).unwrap();
    let state = liubo::current(&d, &game).unwrap();
    let key =
        signing::parse_private_key(&std::fs::read_to_string(g.keys.path(signer)).unwrap()).unwrap();
    let file = qijudge::protocol::files::MoveFile {
        format: qijudge::protocol::files::MOVE_FORMAT.into(),
        game: game.manifest.id.clone(),
        manifest: game.hash.clone(),
        ply,
        seat: liubo::SEATS[seat].into(),
        answers: state.head(&game),
        action: action.into(),
        offer_draw: false,
        comment: None,
        chain_index: None,
        chain: None,
    };
    let text = qijudge::protocol::files::to_toml(&file);
    let path = g.path(&format!("moves/{ply:04}-{}.toml", liubo::SEATS[seat]));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        format!("{}.sig", path.display()),
        signing::sign(&key, namespace::MOVE, text.as_bytes()),
    )
    .unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn illegal_forged_and_out_of_turn_turns_are_refused() {
    let g = LGame::started(&[]);
    let (seat, _) = g.next_turn();
    let s = g.state();
    let (_, _, (x, y)) = s.throw.unwrap();
    let missing = (1..=4).find(|v| *v != x && *v != y).unwrap();
    write_turn_file(
        &g,
        seat,
        LGame::key_of(seat),
        1,
        &format!("{missing}:in-{missing}, {x}:in-{x}"),
    );
    refused(
        &g,
        &[
            &format!("moves/0001-{}.toml", liubo::SEATS[seat]),
            "field move",
            &format!("no value {missing}"),
        ],
    );
    std::fs::remove_dir_all(g.path("moves")).unwrap();

    write_turn_file(&g, seat, "mallory", 1, &format!("{x}:in-{x}, {y}:in-{y}"));
    refused(&g, &[".toml.sig"]);
    std::fs::remove_dir_all(g.path("moves")).unwrap();

    write_turn_file(
        &g,
        1 - seat,
        LGame::key_of(1 - seat),
        1,
        &format!("{x}:in-{x}, {y}:in-{y}"),
    );
    refused(&g, &["out of turn"]);
}

#[test]
fn a_seed_that_does_not_match_its_commitment_is_refused_naming_the_player() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("game").to_string_lossy().into_owned();
    ok(&[
        "new",
        "liubo",
        &d,
        "--player",
        &format!("alice={}.pub", keys.path("alice")),
        "--player",
        &format!("bob={}.pub", keys.path("bob")),
        "--judge",
        &format!("{}.pub", keys.path("judge")),
        "--rule",
        "chain_length=64",
    ]);
    ok(&["setup", &d, "--as", "a", "--key", &keys.path("alice")]);
    ok(&["setup", &d, "--as", "b", "--key", &keys.path("bob")]);
    let seed_path = Path::new(&d).join("setups/b.toml");
    let text = std::fs::read_to_string(&seed_path).unwrap();
    let seed_line = text.lines().find(|l| l.starts_with("seed = ")).unwrap();
    std::fs::write(
        &seed_path,
        text.replace(seed_line, &format!("seed = \"{}\"", "ab".repeat(32))),
    )
    .unwrap();
    let r = qj(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("setups/b.toml") && r.stderr.contains("player b does not reach the head"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_dishonest_judge_cannot_change_a_throw() {
    let g = LGame::started(&[]);
    g.play_next();
    // The judge rewrites the last throw's element for a and signs the record again.
    let record_path = g.path("record.jsonl");
    let record = std::fs::read_to_string(&record_path).unwrap();
    let mut lines: Vec<String> = record.lines().map(str::to_string).collect();
    let last = lines.last_mut().unwrap();
    assert!(last.contains("\"kind\":\"throw\""), "{last}");
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    let element = v["entry"]["elements"]["a"].as_str().unwrap().to_string();
    *last = last.replace(&element, &"00".repeat(32));
    let forged = format!("{}\n", lines.join("\n"));
    let judge_key =
        signing::parse_private_key(&std::fs::read_to_string(g.keys.path("judge")).unwrap())
            .unwrap();
    std::fs::write(&record_path, &forged).unwrap();
    std::fs::write(
        g.path("record.sig"),
        signing::sign(&judge_key, namespace::RECORD, forged.as_bytes()),
    )
    .unwrap();
    std::fs::remove_dir_all(g.path("views")).unwrap();
    std::fs::rename(g.path("setups"), g.tmp.path().join("elsewhere")).unwrap();
    let r = qj(&["verify", &g.d()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("element 2 of player a does not hash back to its signed chain"),
        "{}",
        r.stderr
    );
}

/// Self mode with bonus throws: fixed game id and seeds (so a double comes early), players
/// revealing their own chain elements, the non-mover's reveal for the bonus throw.
#[test]
fn self_mode_players_reveal_their_own_elements_and_bonus_throws_wait_for_a_reveal() {
    use qijudge::games::liubo::throws;
    use qijudge::protocol::files::{to_toml, JudgeEntry, Player};
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let dir = tmp.path().join("game");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let pubkey = |n: &str| {
        let k = signing::parse_public_key(
            &std::fs::read_to_string(format!("{}.pub", keys.path(n))).unwrap(),
        )
        .unwrap();
        signing::public_key_line(&k)
    };
    let id = [7u8; 16];
    let game_id = format!("lb-{}", hex::encode(id));
    // Seeds whose throws 2 to 6 hold a double: the bonus throw comes early.
    let n = 64;
    let (seed_a, seed_b) = (1u8..)
        .map(|k| ([k; 32], [k.wrapping_add(100); 32]))
        .find(|(a, b)| {
            let ca = throws::chain(&game_id, "A", a, n);
            let cb = throws::chain(&game_id, "B", b, n);
            (2..=6).any(|t| {
                let v = throws::values(&throws::throw_digest(
                    &game_id,
                    t,
                    &ca[t as usize],
                    &cb[t as usize],
                ));
                v == (1, 1) || v == (4, 4)
            })
        })
        .unwrap();
    let rules = qijudge::games::liubo::rules::Options {
        dice_mode: qijudge::games::liubo::rules::DiceMode::SelfReveal,
        extra_throw_on_doubles: true,
        chain_length: n,
        ..Default::default()
    };
    let players = vec![
        Player {
            seat: "a".into(),
            name: "alice".into(),
            key: pubkey("alice"),
            email: None,
            digest: false,
        },
        Player {
            seat: "b".into(),
            name: "bob".into(),
            key: pubkey("bob"),
            email: None,
            digest: false,
        },
    ];
    let manifest = liubo::LiuboGame::new_manifest(
        id,
        NOW.into(),
        false,
        rules,
        None,
        JudgeEntry {
            key: pubkey("judge"),
        },
        players,
    );
    std::fs::write(dir.join("game.toml"), to_toml(&manifest)).unwrap();
    let gd = GameDir::new(&d);
    let g = liubo::LiuboGame::load(&gd).unwrap();
    for (seat, seed, who) in [(0, seed_a, "alice"), (1, seed_b, "bob")] {
        let (commitment, secret) = liubo::new_chain(&g, seat, seed);
        let key =
            signing::parse_private_key(&std::fs::read_to_string(keys.path(who)).unwrap()).unwrap();
        let text = to_toml(&commitment);
        let name = liubo::SEATS[seat];
        std::fs::create_dir_all(dir.join("commitments")).unwrap();
        std::fs::create_dir_all(dir.join("setups")).unwrap();
        std::fs::write(
            dir.join(format!("commitments/{name}.toml.sig")),
            signing::sign(&key, namespace::COMMITMENT, text.as_bytes()),
        )
        .unwrap();
        std::fs::write(dir.join(format!("commitments/{name}.toml")), text).unwrap();
        std::fs::write(dir.join(format!("setups/{name}.toml")), to_toml(&secret)).unwrap();
    }
    let judge = || qj(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW]);
    assert_eq!(judge().code, 0);
    ok(&[
        "move",
        &d,
        "--as",
        "a",
        "--key",
        &keys.path("alice"),
        "reveal",
    ]);
    ok(&[
        "move",
        &d,
        "--as",
        "b",
        "--key",
        &keys.path("bob"),
        "reveal",
    ]);
    assert_eq!(judge().code, 0);
    let mut bonus_reveals = 0;
    for _ in 0..10 {
        let state = liubo::current(&gd, &g).unwrap();
        if state.end.is_some() {
            break;
        }
        let p = state.position.as_ref().unwrap();
        let (mover, t) = (p.to_move, p.turns + 1);
        let other = 1 - mover;
        let who = |s: usize| if s == 0 { "alice" } else { "bob" };
        if state.known(other).is_none_or(|(j, _)| j < t) {
            ok(&[
                "move",
                &d,
                "--as",
                liubo::SEATS[other],
                "--key",
                &keys.path(who(other)),
                "reveal",
            ]);
            bonus_reveals += 1;
            assert_eq!(judge().code, 0);
            continue;
        }
        let shown = ok(&[
            "move",
            &d,
            "--as",
            liubo::SEATS[mover],
            "--key",
            &keys.path(who(mover)),
            "throw",
        ]);
        let example = shown
            .stdout
            .split("for example ")
            .nth(1)
            .unwrap()
            .trim()
            .trim_end_matches(')')
            .to_string();
        // The mover's own chain gives its throw: `moves` lists the turns it allows.
        let listed = ok(&["moves", &d, "--as", liubo::SEATS[mover]]);
        assert!(
            listed.stdout.lines().any(|l| l == example),
            "{example:?} not in {}",
            listed.stdout
        );
        ok(&[
            "move",
            &d,
            "--as",
            liubo::SEATS[mover],
            "--key",
            &keys.path(who(mover)),
            &example,
        ]);
        let pre = ok(&["precheck", &d]);
        assert!(pre.stdout.contains("signed by"), "{}", pre.stdout);
        let r = judge();
        assert_eq!(r.code, 0, "{r:?}");
    }
    assert!(
        bonus_reveals >= 1,
        "a bonus throw needed the opponent's reveal"
    );
    // Anyone checks every throw from the revealed elements alone.
    std::fs::rename(dir.join("setups"), tmp.path().join("private")).unwrap();
    let v = ok(&["verify", &d]);
    assert!(v.stdout.contains("throws recomputed"), "{}", v.stdout);
    // A turn file revealing a wrong chain element is refused.
    std::fs::rename(tmp.path().join("private"), dir.join("setups")).unwrap();
    let state = liubo::current(&gd, &g).unwrap();
    assert!(state.end.is_none(), "ten turns do not end this game");
    {
        let p = state.position.as_ref().unwrap();
        let (mover, t) = (p.to_move, p.turns + 1);
        let who = if mover == 0 { "alice" } else { "bob" };
        let key =
            signing::parse_private_key(&std::fs::read_to_string(keys.path(who)).unwrap()).unwrap();
        let head = state.head(&g);
        qijudge::player::write_move(
            &gd,
            &g.manifest.id,
            &g.hash,
            liubo::SEATS[mover],
            &key,
            qijudge::player::NewMove {
                ply: t,
                answers: &head,
                action: "1:in-1, 1:in-1",
                offer_draw: false,
                comment: None,
                chain: Some((t + 1, "00".repeat(32))),
                replace: false,
            },
        )
        .unwrap();
        let r = judge();
        assert_eq!(r.code, 1, "{r:?}");
        assert!(
            r.stderr.contains("field chain")
                && r.stderr.contains("does not hash back to your signed chain"),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn seeds_stay_secret_until_the_end_and_a_resignation_ends_it() {
    let g = LGame::started(&[]);
    let r = qj(&["reveal", &g.d()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("seeds stay secret until the end"),
        "{}",
        r.stderr
    );
    let (seat, _) = g.next_turn();
    ok(&[
        "move",
        &g.d(),
        "--as",
        liubo::SEATS[seat],
        "--key",
        &g.keys.path(LGame::key_of(seat)),
        "resign",
    ]);
    assert_eq!(g.judge().code, 0);
    let end = g.state().end.unwrap();
    assert_eq!(end.0.as_deref(), Some(liubo::SEATS[1 - seat]));
    ok(&["reveal", &g.d()]);
    let v = ok(&["verify", &g.d()]);
    assert!(
        v.stdout
            .contains("both revealed seeds rebuild their signed chains"),
        "{}",
        v.stdout
    );
}

#[test]
fn the_mover_lists_its_legal_turns_and_precheck_checks_a_turn() {
    let g = LGame::started(&[]);
    let s = g.state();
    let (_, mover, _) = s.throw.unwrap();
    let (seat, other) = (liubo::SEATS[mover], liubo::SEATS[1 - mover]);
    let listed = ok(&["moves", &g.d(), "--as", seat]);
    let mut expected: Vec<String> = s
        .position
        .unwrap()
        .legal_turns()
        .iter()
        .map(|t| write_turn(t))
        .collect();
    expected.sort();
    expected.dedup();
    assert_eq!(listed.stdout.lines().collect::<Vec<_>>(), expected);
    let not_yours = qj(&["moves", &g.d(), "--as", other]);
    assert_eq!(not_yours.code, 1, "{not_yours:?}");
    let first = expected[0].clone();
    let key = g.keys.path(LGame::key_of(mover));
    let offer = qj(&[
        "move",
        &g.d(),
        "--as",
        seat,
        "--key",
        &key,
        &first,
        "--offer-draw",
    ]);
    assert_eq!(offer.code, 2, "{offer:?}");
    assert!(offer.stderr.contains("no draw offers"), "{}", offer.stderr);
    ok(&[
        "move",
        &g.d(),
        "--as",
        seat,
        "--key",
        &g.keys.path(LGame::key_of(mover)),
        &first,
    ]);
    let pre = ok(&["precheck", &g.d()]);
    assert!(pre.stdout.contains("legal"), "{}", pre.stdout);
    assert_eq!(g.judge().code, 0);
}

/// The record keeps commitments and seeds in the order they came: b first, then a. A later
/// run must replay that order, not seat order.
#[test]
fn commitments_and_seeds_replay_in_the_order_they_were_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("game").to_string_lossy().into_owned();
    new_game("liubo", d.as_ref(), &keys, &[]);
    let judge = || ok(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW]);
    ok(&["setup", &d, "--as", "b", "--key", &keys.path("bob")]);
    judge();
    ok(&["setup", &d, "--as", "a", "--key", &keys.path("alice")]);
    judge();
    let record = std::fs::read_to_string(tmp.path().join("game/record.jsonl")).unwrap();
    let b = record.find("\"seat\":\"b\"").unwrap();
    let a = record.find("\"seat\":\"a\"").unwrap();
    assert!(b < a, "{record}");
    let again = judge();
    assert!(again.stdout.contains("nothing new"), "{again:?}");
    ok(&["verify", &d]);
}

/// In escrow mode the judge throws: a player typing `throw` is told so, and how to play.
#[test]
fn throw_in_escrow_mode_says_the_judge_throws() {
    let g = LGame::started(&["dice_mode=escrow"]);
    let (seat, _) = g.next_turn();
    let r = qj(&[
        "move",
        &g.d(),
        "--as",
        liubo::SEATS[seat],
        "--key",
        &g.keys.path(LGame::key_of(seat)),
        "throw",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("the judge throws"), "{r:?}");
    assert!(r.stderr.contains("qijudge moves"), "{r:?}");
}

/// The replay page says whose each shortcut right is (`a's 2 stones on 6`), and a finished
/// game shows none (they are for a next turn).
#[test]
fn shortcut_rights_name_their_owner_and_end_with_the_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/liubo/sample");
    let d = dir.to_string_lossy();
    let page = ok(&["html", &d, "--as", "public"]).stdout;
    assert!(
        page.contains("shortcut rights in its owner&#39;s next turn: a&#39;s 2 stones on 6"),
        "no owner named"
    );
    let end = ok(&["view", &d, "--as", "public"]).stdout;
    assert!(!end.contains("shortcut rights"), "{end}");
}

/// Self mode as players run it: before the start reveals `moves` says what play waits for
/// (not only "play has not begun"); once play begins, `status` says a turn waits for the judge
/// only while one does (never the start reveals, all game long); the text view in Chinese
/// gives its key and the state of play in Chinese.
#[test]
fn self_mode_status_and_moves_say_what_the_game_waits_for() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let dir = tmp.path().join("lb");
    let d = dir.to_string_lossy().into_owned();
    new_game("liubo", &dir, &keys, &["--rule", "dice_mode=self"]);
    let key_of = |seat: &str| keys.path(if seat == "a" { "alice" } else { "bob" });
    for seat in ["a", "b"] {
        ok(&["setup", &d, "--as", seat, "--key", &key_of(seat)]);
    }
    let judge_runs = || ok(&["judge", &d, "--key", &keys.path("judge")]);
    judge_runs();
    let early = qj(&["moves", &d, "--as", "a"]);
    assert_eq!(early.code, 1, "{early:?}");
    assert!(early.stderr.contains("start reveals"), "{early:?}");
    assert!(early.stderr.contains("--key KEY reveal"), "{early:?}");
    for seat in ["a", "b"] {
        ok(&["move", &d, "--as", seat, "--key", &key_of(seat), "reveal"]);
    }
    judge_runs();
    for _ in 0..4 {
        let status = ok(&["status", &d]).stdout;
        assert!(!status.contains("waits for the judge"), "{status}");
        let v: serde_json::Value =
            serde_json::from_str(&ok(&["status", &d, "--json"]).stdout).unwrap();
        let seat = v["to_move"].as_str().unwrap().to_string();
        let turn = ok(&["moves", &d, "--as", &seat]).stdout;
        let turn = turn.lines().next().unwrap();
        ok(&["move", &d, "--as", &seat, "--key", &key_of(&seat), turn]);
        let status = ok(&["status", &d]).stdout;
        assert!(
            status.contains("is written and waits for the judge"),
            "{status}"
        );
        judge_runs();
    }
    let text = ok(&["view", &d, "--as", "public", "--chinese"]).stdout;
    for word in ["图例", "甲方：备用", "乙方：备用", "上一回合", "轮到"] {
        assert!(text.contains(word), "{word}: {text}");
    }
    assert!(!text.contains("Key: STATION"), "{text}");
    assert!(!text.contains("in reserve"), "{text}");
}
