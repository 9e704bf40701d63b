//! Xiangqi through the binary: the sample, a game in three notations, refusals, repetition
//! verdicts, perft and PGN checking.

use super::helpers::*;
use qijudge::protocol::files::{to_toml, MoveFile, MOVE_FORMAT};
use qijudge::protocol::hash::sha256_tagged;
use qijudge::protocol::record::Record;
use qijudge::protocol::signing::{self, namespace};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the repository's Xiangqi test data (`tests/data/xiangqi/`).
fn test_data(name: &str) -> String {
    root()
        .join("tests/data/xiangqi")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A Xiangqi game directory with fresh keys.
struct XGame {
    tmp: tempfile::TempDir,
    keys: Keys,
}

impl XGame {
    fn new(rules: &[&str]) -> XGame {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let g = XGame { tmp, keys };
        let (alice, bob, judge) = (
            format!("alice={}.pub", g.keys.path("alice")),
            format!("bob={}.pub", g.keys.path("bob")),
            format!("{}.pub", g.keys.path("judge")),
        );
        let d = g.d();
        let mut args = vec![
            "new", "xiangqi", &d, "--player", &alice, "--player", &bob, "--judge", &judge, "--now",
            NOW,
        ];
        for r in rules {
            args.push("--rule");
            args.push(r);
        }
        ok(&args);
        ok(&["judge", &d, "--key", &g.keys.path("judge"), "--now", NOW]);
        g
    }

    fn d(&self) -> String {
        self.tmp.path().join("game").to_string_lossy().into_owned()
    }

    fn key_of(seat: &str) -> &'static str {
        if seat == "red" {
            "alice"
        } else {
            "bob"
        }
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

    fn play(&self, seat: &str, mv: &str) -> Run {
        ok(&[
            "move",
            &self.d(),
            "--as",
            seat,
            "--key",
            &self.keys.path(Self::key_of(seat)),
            mv,
        ]);
        let r = self.judge();
        assert_eq!(r.code, 0, "{r:?}");
        r
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(Path::new(&self.d()).join(rel)).unwrap()
    }

    fn head(&self) -> String {
        let hash = sha256_tagged(self.read("game.toml").as_bytes());
        Record::parse(&self.read("record.jsonl"), &hash)
            .unwrap()
            .head_or(&hash)
    }

    /// Writes a move file by hand (any notation, any signer), as another tool or a forger would.
    fn write_move(
        &self,
        ply: u32,
        seat: &str,
        action: &str,
        signer: &str,
        answers: Option<String>,
    ) -> String {
        let manifest: toml::Table = toml::from_str(&self.read("game.toml")).unwrap();
        let file = MoveFile {
            format: MOVE_FORMAT.into(),
            game: manifest["id"].as_str().unwrap().into(),
            manifest: sha256_tagged(self.read("game.toml").as_bytes()),
            ply,
            seat: seat.into(),
            answers: answers.unwrap_or_else(|| self.head()),
            action: action.into(),
            offer_draw: false,
            comment: None,
            chain_index: None,
            chain: None,
        };
        let text = to_toml(&file);
        let key =
            signing::parse_private_key(&std::fs::read_to_string(self.keys.path(signer)).unwrap())
                .unwrap();
        let path = format!("moves/{ply:04}-{seat}.toml");
        let full = Path::new(&self.d()).join(&path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(
            format!("{}.sig", full.display()),
            signing::sign(&key, namespace::MOVE, text.as_bytes()),
        )
        .unwrap();
        std::fs::write(&full, text).unwrap();
        path
    }

    fn view_json(&self) -> serde_json::Value {
        serde_json::from_str(&self.read("views/public.json")).unwrap()
    }
}

#[test]
fn the_sample_game_verifies() {
    let r = ok(&[
        "verify",
        &root().join("games/xiangqi/sample").to_string_lossy(),
    ]);
    assert!(r.stdout.contains("97 plies"), "{}", r.stdout);
    assert!(
        r.stdout.contains("checkmate: black is mated"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_game_in_three_notations_is_judged_viewed_and_verified() {
    let g = XGame::new(&[]);
    g.play("red", "炮二平五");
    g.play("black", "H8+7");
    g.play("red", "h0g2");
    g.play("black", "I9-H9");
    let v = g.view_json();
    assert_eq!(
        v["moves"],
        serde_json::json!(["h2e2", "h9g7", "h0g2", "i9h9"])
    );
    assert_eq!(v["to_move"], "red");
    assert_eq!(v["last_move"]["chinese"], "車９平８");
    let status = ok(&["status", &g.d()]);
    assert!(
        status.stdout.contains("red to move (ply 5)"),
        "{}",
        status.stdout
    );
    let text = ok(&["view", &g.d(), "--as", "black"]);
    assert!(
        text.stdout
            .contains("Last move (ply 4): black i9h9 = R9.8 = 車９平８"),
        "{}",
        text.stdout
    );
    ok(&["verify", &g.d()]);
    // Judging again changes nothing, byte for byte.
    let before = snapshot(Path::new(&g.d()));
    assert!(g.judge().stdout.contains("nothing new"));
    assert_eq!(before, snapshot(Path::new(&g.d())));
}

#[test]
fn moves_written_by_other_tools_in_wxf_or_chinese_are_normalised() {
    let g = XGame::new(&[]);
    g.write_move(1, "red", "C2.5", "alice", None);
    assert_eq!(g.judge().code, 0);
    g.write_move(2, "black", "馬８進７", "bob", None);
    assert_eq!(g.judge().code, 0);
    let record = g.read("record.jsonl");
    assert!(
        record.contains("\"move\":\"h2e2\"") && record.contains("\"move\":\"h9g7\""),
        "{record}"
    );
}

/// A refused input: exit 1, the file and field named, and nothing changed.
fn refused(g: &XGame, expect: &[&str]) -> Run {
    let before = inputs(Path::new(&g.d()));
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    for needle in expect {
        assert!(r.stderr.contains(needle), "{needle:?} not in {}", r.stderr);
    }
    let moved = assert_inputs_kept(&before, Path::new(&g.d()));
    assert!(moved > 0, "the refused file still holds its place");
    r
}

#[test]
fn an_illegal_move_is_refused_with_its_reason() {
    let g = XGame::new(&[]);
    g.write_move(1, "red", "h2h8", "alice", None);
    refused(
        &g,
        &[
            "moves/0001-red.toml",
            "field move",
            "a cannon cannot move from h2 to h8",
        ],
    );
    let g = XGame::new(&[]);
    g.write_move(1, "red", "K5+2", "alice", None);
    refused(
        &g,
        &[
            "moves/0001-red.toml",
            "field move",
            "a king cannot move from e0 to e2",
        ],
    );
    let g = XGame::new(&[]);
    g.write_move(1, "red", "H5+3", "alice", None);
    refused(
        &g,
        &[
            "moves/0001-red.toml",
            "field move",
            "does not match any move",
        ],
    );
}

#[test]
fn forged_out_of_turn_ahead_and_stale_moves_are_refused() {
    let g = XGame::new(&[]);
    g.write_move(1, "red", "h2e2", "mallory", None);
    let r = refused(
        &g,
        &["moves/0001-red.toml.sig", "must be signed by red's key"],
    );
    assert!(!r.stdout.contains("nothing new"), "{r:?}");

    // Red's own signature over a file edited by hand afterwards: named as such.
    let g = XGame::new(&[]);
    g.write_move(1, "red", "h2e2", "alice", None);
    let path = Path::new(&g.d()).join("moves/0001-red.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("h2e2", "h2d2")).unwrap();
    let r = refused(
        &g,
        &["moves/0001-red.toml.sig", "was changed after red signed it"],
    );
    assert!(!r.stderr.contains("must be signed by"), "{r:?}");
    assert!(!r.stdout.contains("nothing new"), "{r:?}");

    let g = XGame::new(&[]);
    g.write_move(1, "black", "h9g7", "bob", None);
    refused(&g, &["moves/0001-black.toml", "out of turn"]);

    let g = XGame::new(&[]);
    g.write_move(3, "red", "h2e2", "alice", None);
    refused(&g, &["moves/0003-red.toml", "field ply", "ply 1 is next"]);

    let g = XGame::new(&[]);
    let stale = g.head();
    g.play("red", "h2e2");
    g.write_move(2, "black", "h9g7", "bob", Some(stale));
    refused(&g, &["moves/0002-black.toml", "field answers", "stale"]);

    let g = XGame::new(&[]);
    g.play("red", "h2e2");
    g.write_move(2, "black", "accept-draw", "bob", None);
    refused(&g, &["moves/0002-black.toml", "no draw offer"]);
}

#[test]
fn verify_catches_a_changed_move_and_the_judge_a_rolled_back_record() {
    let g = XGame::new(&[]);
    g.play("red", "h2e2");
    let older = (g.read("record.jsonl"), g.read("record.sig"));
    g.play("black", "h9g7");
    let path = Path::new(&g.d()).join("moves/0001-red.toml");
    let original = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, original.replace("h2e2", "b2e2")).unwrap();
    let r = qj(&["verify", &g.d()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("moves/0001-red.toml: ply 1 is already recorded"),
        "{}",
        r.stderr
    );
    std::fs::write(&path, original).unwrap();
    ok(&["verify", &g.d()]);
    std::fs::write(Path::new(&g.d()).join("record.jsonl"), &older.0).unwrap();
    std::fs::write(Path::new(&g.d()).join("record.sig"), &older.1).unwrap();
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("rolled back"), "{}", r.stderr);
}

#[test]
fn perpetual_check_ends_the_game_for_the_checker() {
    // Case 7 of repetition.json: black checks with every move, red does not.
    let g = XGame::new(&["start=9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1"]);
    let moves = [
        "d6e6", "e4d4", "e6d6", "d4e4", "d6e6", "e4d4", "e6d6", "d4e4",
    ];
    for (i, m) in moves.iter().enumerate() {
        g.play(if i % 2 == 0 { "red" } else { "black" }, m);
    }
    let v = g.view_json();
    assert_eq!(v["result"]["score"], "1-0");
    assert_eq!(v["result"]["reason"], "perpetual_check");
    assert!(v["result"]["detail"]
        .as_str()
        .unwrap()
        .contains("perpetual check by black"));
    let r = qj(&[
        "move",
        &g.d(),
        "--as",
        "red",
        "--key",
        &g.keys.path("alice"),
        "d6e6",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    ok(&["verify", &g.d()]);
}

#[test]
fn resignation_and_forfeit_end_the_game() {
    let g = XGame::new(&[]);
    g.play("red", "h2e2");
    g.play("black", "resign");
    assert_eq!(g.view_json()["result"]["winner"], "red");
    ok(&["verify", &g.d()]);

    let g = XGame::new(&[]);
    let r = qj(&[
        "judge",
        &g.d(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        NOW,
        "--forfeit",
        "red:missed-deadline",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(g.view_json()["result"]["winner"], "black");
    ok(&["verify", &g.d()]);
}

#[test]
fn an_invalid_start_fen_is_refused_with_reasons() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("g").to_string_lossy().into_owned();
    let r = qj(&[
        "new",
        "xiangqi",
        &d,
        "--player",
        &format!("a={}.pub", keys.path("alice")),
        "--player",
        &format!("b={}.pub", keys.path("bob")),
        "--judge",
        &format!("{}.pub", keys.path("judge")),
        "--rule",
        "start=4k4/9/9/9/9/9/9/9/9/4K4 w",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("the side not to move is in check"),
        "{}",
        r.stderr
    );
}

#[test]
fn perft_prints_the_total_last() {
    // A game without the tool is refused, naming the games that have it.
    for args in [["perft", "liubo", "2"], ["check", "banqi", "-"]] {
        let r = qj(&args);
        assert_eq!(r.code, 2, "{r:?}");
        let tool = args[0];
        assert!(
            r.stderr
                .contains(&format!("{tool} is for xiangqi games, not {}", args[1])),
            "{r:?}"
        );
    }
    let r = ok(&["perft", "xiangqi", "3"]);
    assert_eq!(r.stdout.lines().last(), Some("79666"));
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let r = ok(&["perft", "xiangqi", "3", "--fen", fen, "--divide"]);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"43929"));
    let sum: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 43929);
    assert_eq!(lines.len() - 1, 38);
    let bad = qj(&["perft", "xiangqi", "2", "--fen", "rnbakabnr/9 w"]);
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("ranks"), "{}", bad.stderr);
}

#[derive(serde::Deserialize)]
struct Checked {
    game: usize,
    file: String,
    status: String,
    illegal: Option<Illegal>,
    rule_result: Option<String>,
}

#[derive(serde::Deserialize)]
struct Illegal {
    ply: usize,
}

#[test]
fn check_reports_every_recorded_game() {
    let r = qj(&["check", "xiangqi", &test_data("games-zh.pgn"), "--json"]);
    assert_eq!(
        r.code, 1,
        "three records hold an illegal move: {}",
        r.stderr
    );
    let games: Vec<Checked> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 200);
    let bad: Vec<(usize, usize)> = games
        .iter()
        .filter_map(|g| g.illegal.as_ref().map(|i| (g.game, i.ply)))
        .collect();
    assert_eq!(bad, vec![(11, 115), (17, 72), (29, 72)]);
    assert!(games.iter().all(|g| g.file.ends_with("games-zh.pgn")));
    assert_eq!(games[2].status, "checkmate");
    assert_eq!(games[2].rule_result.as_deref(), Some("1-0"));

    let ok_run = qj(&["check", "xiangqi", &test_data("games.pgn")]);
    assert_eq!(ok_run.code, 0, "{}", ok_run.stderr);
    assert!(
        ok_run
            .stdout
            .contains("game 3 (ccpd-003): 97 plies, checkmate: black is mated, the rules give 1-0"),
        "{}",
        ok_run.stdout
    );
}

#[test]
fn check_reads_standard_input_and_refuses_broken_pgn() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(["check", "xiangqi", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1. C2.5 H8+7 2. R1.2 {a comment} *\n[Game \"Chinese Chess\"]\n\n1. 炮二平五 {x} 炮８平五 *\n".as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("<stdin> game 1: illegal move at ply 3 \"R1.2\""),
        "{stdout}"
    );
    assert!(
        stdout.contains("<stdin> game 2: 2 plies, not over by the rules"),
        "{stdout}"
    );

    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("broken.pgn");
    std::fs::write(&file, "[Game \"Chinese Chess\"\n1. C2.5").unwrap();
    let r = qj(&["check", "xiangqi", &file.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("broken.pgn") && r.stderr.contains("line 1"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_judged_game_exports_as_pgn_that_check_accepts() {
    let sample = root()
        .join("games/xiangqi/sample")
        .to_string_lossy()
        .into_owned();
    let r = ok(&["pgn", &sample, "--notation", "chinese"]);
    assert!(
        r.stdout.starts_with("[Game \"Chinese Chess\"]\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("[Format \"Chinese\"]") && r.stdout.contains("1. 兵七進一 卒７進１"),
        "{}",
        r.stdout
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("sample.pgn");
    std::fs::write(&file, &r.stdout).unwrap();
    let checked = ok(&["check", "xiangqi", &file.to_string_lossy()]);
    assert!(
        checked.stdout.contains(
            "97 plies, checkmate: black is mated, the rules give 1-0; Result tag 1-0 agrees"
        ),
        "{}",
        checked.stdout
    );
}

#[test]
fn an_edited_manifest_frame_is_refused_with_its_field() {
    for (game, from, to, field) in [
        (
            "xiangqi",
            "board = \"9x10\"",
            "board = \"8x8\"",
            "field board",
        ),
        ("xiangqi", "id = \"xq-", "id = \"lzq-", "field id"),
        ("liubo", "seat = \"b\"", "seat = \"c\"", "field players"),
        (
            "liubo",
            "game = \"liubo\"",
            "game = \"luzhanqi\"",
            "game.toml",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g");
        std::fs::create_dir_all(&dir).unwrap();
        let sample = root().join(format!("games/{game}/sample/game.toml"));
        let text = std::fs::read_to_string(sample).unwrap();
        assert!(text.contains(from), "{game}: {from}");
        std::fs::write(dir.join("game.toml"), text.replacen(from, to, 1)).unwrap();
        let r = qj(&["status", &dir.to_string_lossy()]);
        assert_eq!(r.code, 1, "{game} {to}: {r:?}");
        assert!(r.stderr.contains(field), "{field} not in {}", r.stderr);
    }
}

#[test]
fn a_draw_offered_with_a_move_is_accepted_by_the_next() {
    let g = XGame::new(&[]);
    ok(&[
        "move",
        &g.d(),
        "--as",
        "red",
        "--key",
        &g.keys.path("alice"),
        "h2e2",
        "--offer-draw",
    ]);
    assert_eq!(g.judge().code, 0);
    assert_eq!(g.view_json()["draw_offer"], "red");
    g.play("black", "accept-draw");
    let v = g.view_json();
    assert_eq!(v["result"]["score"], "1/2-1/2");
    assert_eq!(v["result"]["reason"], "agreement");
    ok(&["verify", &g.d()]);
}

#[test]
fn a_seat_lists_its_legal_moves_and_precheck_checks_a_move() {
    let g = XGame::new(&[]);
    let red = ok(&["moves", &g.d(), "--as", "red"]);
    assert_eq!(red.stdout.lines().count(), 44, "{}", red.stdout);
    assert!(red.stdout.lines().any(|l| l == "h2e2"), "{}", red.stdout);
    let black = qj(&["moves", &g.d(), "--as", "black"]);
    assert_eq!(black.code, 1, "{black:?}");
    assert!(black.stderr.contains("red's move"), "{}", black.stderr);
    g.play("red", "C2.5");
    let black = ok(&["moves", &g.d(), "--as", "black"]);
    let mut position = qijudge::games::xiangqi::rules::Position::start();
    position
        .play(qijudge::games::xiangqi::rules::notation::parse_iccs("h2e2").unwrap())
        .unwrap();
    let mut expected: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    expected.sort();
    assert_eq!(black.stdout.lines().collect::<Vec<_>>(), expected);
    // A written move is checked without the judge's key; an illegal one is refused by name.
    ok(&[
        "move",
        &g.d(),
        "--as",
        "black",
        "--key",
        &g.keys.path("bob"),
        "h9g7",
    ]);
    let pre = ok(&["precheck", &g.d()]);
    assert!(
        pre.stdout.contains("moves/0002-black.toml"),
        "{}",
        pre.stdout
    );
    assert!(pre.stdout.contains("legal"), "{}", pre.stdout);
    std::fs::remove_file(Path::new(&g.d()).join("moves/0002-black.toml")).unwrap();
    std::fs::remove_file(Path::new(&g.d()).join("moves/0002-black.toml.sig")).unwrap();
    ok(&[
        "move",
        &g.d(),
        "--as",
        "black",
        "--key",
        &g.keys.path("bob"),
        "h9h5",
        "--no-check",
    ]);
    let pre = qj(&["precheck", &g.d()]);
    assert_eq!(pre.code, 1, "{pre:?}");
    assert!(
        pre.stderr.contains("moves/0002-black.toml"),
        "{}",
        pre.stderr
    );
}

/// What a new user types wrong gets an answer that says what is wrong and what to give.
#[test]
fn players_mistakes_are_answered_in_plain_words() {
    let g = XGame::new(&[]);
    let d = g.d();
    let key = g.keys.path("alice");
    // A move onto one's own piece is refused input (exit 1), with the point named.
    let r = qj(&["move", &d, "--as", "red", "--key", &key, "a0a3"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("occupied by one of your own pieces"),
        "{r:?}"
    );
    // An elephant blocked at its eye: "an elephant", not "a elephant".
    let r = qj(&["move", &d, "--as", "red", "--key", &key, "c0e2"]);
    assert_eq!(r.code, 0, "{r:?}");
    let _ = g.judge();
    let r = qj(&[
        "move",
        &d,
        "--as",
        "black",
        "--key",
        &g.keys.path("bob"),
        "c9c5",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("an elephant cannot move"), "{r:?}");
    // A folder that is no game.
    let r = qj(&["status", &g.tmp.path().to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("not a game folder"), "{r:?}");
    // `new` given a private key, or an ECDSA key, for a player or the judge.
    let other = g.tmp.path().join("other");
    let judge_private = g.keys.path("judge");
    let alice = format!("alice={}.pub", g.keys.path("alice"));
    let bob = format!("bob={}.pub", g.keys.path("bob"));
    let new = |judge: &str| {
        qj(&[
            "new",
            "xiangqi",
            &other.to_string_lossy(),
            "--player",
            &alice,
            "--player",
            &bob,
            "--judge",
            judge,
        ])
    };
    let r = new(&judge_private);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("is a private key") && r.stderr.contains(".pub"),
        "{r:?}"
    );
    let ecdsa = g.tmp.path().join("ecdsa");
    let made = std::process::Command::new("ssh-keygen")
        .args([
            "-q",
            "-t",
            "ecdsa",
            "-N",
            "",
            "-f",
            &ecdsa.to_string_lossy(),
        ])
        .status()
        .unwrap();
    assert!(made.success());
    let r = new(&format!("{}.pub", ecdsa.display()));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("SSH key of type ecdsa-sha2-nistp256") && r.stderr.contains("Ed25519"),
        "{r:?}"
    );
    // An empty PGN file is said to hold no game (exit 1), not passed in silence.
    let empty = g.tmp.path().join("empty.pgn");
    std::fs::write(&empty, "\n").unwrap();
    let r = qj(&["check", "xiangqi", &empty.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("no game in this file"), "{r:?}");
    // The Chinese board draws its empty points as crossings of the grid (＋, full width), so
    // every rank lines up.
    let view = ok(&["view", &d, "--as", "public", "--chinese"]);
    let rank8 = view.stdout.lines().find(|l| l.starts_with("8 ")).unwrap();
    assert_eq!(rank8.matches('＋').count(), 9, "{rank8:?}");
}

/// `check` tells a text that is no move from a move the rules forbid.
#[test]
fn check_tells_bad_notation_from_an_illegal_move() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("g.pgn");
    std::fs::write(&file, "1. h2e2 h9g7 2. zz9 *\n").unwrap();
    let r = qj(&["check", "xiangqi", &file.to_string_lossy(), "--json"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("\"status\":\"bad_notation\""), "{r:?}");
    std::fs::write(&file, "1. h2e2 h9g7 2. h0h9 *\n").unwrap();
    let r = qj(&["check", "xiangqi", &file.to_string_lossy(), "--json"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("\"status\":\"illegal_move\""), "{r:?}");
}

/// `pgn --notation chinese-simplified` prints the mainland forms (马８进７, 车一平二), and the
/// PGN reads back through `check` to the same result.
#[test]
fn a_game_prints_in_simplified_chinese_and_reads_back() {
    let dir = root().join("games/xiangqi/sample");
    let text = ok(&[
        "pgn",
        &dir.to_string_lossy(),
        "--notation",
        "chinese-simplified",
    ])
    .stdout;
    assert!(
        text.contains("马８进７") && text.contains("车一平二"),
        "{text}"
    );
    assert!(
        !text.contains(['馬', '車', '進', '後', '俥', '傌', '帥', '將']),
        "{text}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("game.pgn");
    std::fs::write(&file, &text).unwrap();
    let r = ok(&["check", "xiangqi", &file.to_string_lossy()]);
    assert!(r.stdout.contains("Result tag 1-0 agrees"), "{r:?}");
}

/// A recorded move edited by hand afterwards (a player "correcting" it in a shared folder) is
/// refused as the recorded move it is, naming its ply and the hash the record holds, not as a
/// bad signature that would send its seat to write it again; put back, the game goes on.
#[test]
fn a_recorded_move_edited_by_hand_is_refused_as_already_recorded() {
    let g = XGame::new(&[]);
    g.play("red", "h2e2");
    let path = Path::new(&g.d()).join("moves/0001-red.toml");
    let kept = std::fs::read(&path).unwrap();
    std::fs::write(&path, g.read("moves/0001-red.toml").replace("h2e2", "b2e2")).unwrap();
    for args in [
        vec!["judge", &g.d() as &str, "--key", &g.keys.path("judge")],
        vec!["status", &g.d()],
    ] {
        let r = qj(&args);
        assert_eq!(r.code, 1, "{r:?}");
        assert!(
            r.stderr
                .contains("moves/0001-red.toml: ply 1 is already recorded"),
            "{r:?}"
        );
        assert!(
            r.stderr.contains("put the file back as it was recorded"),
            "{r:?}"
        );
        assert!(!r.stderr.contains("write it again with qijudge"), "{r:?}");
    }
    std::fs::write(&path, kept).unwrap();
    g.play("black", "h9g7");
}

/// The judge replays the record it signed without checking again the players' signatures on
/// the files it holds (it checked each when it took the file): a recorded move's signature
/// replaced later (by another valid signature of the same seat, over another file) does not
/// stop the judge, while `verify`, which trusts no record, refuses it by name. (A file whose
/// bytes changed is not trusted: see the test above.)
#[test]
fn the_judge_trusts_its_own_record_for_signatures_and_verify_does_not() {
    let g = XGame::new(&[]);
    g.play("red", "h2e2");
    g.play("black", "h9g7");
    g.play("red", "h0g2");
    let moves = Path::new(&g.d()).join("moves");
    std::fs::copy(
        moves.join("0003-red.toml.sig"),
        moves.join("0001-red.toml.sig"),
    )
    .unwrap();
    let again = g.judge();
    assert_eq!(again.code, 0, "{again:?}");
    let audit = qj(&["verify", &g.d()]);
    assert_eq!(audit.code, 1, "{audit:?}");
    assert!(
        audit.stderr.contains("moves/0001-red.toml.sig"),
        "{audit:?}"
    );
}
