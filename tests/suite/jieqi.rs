//! Jieqi through the binary: the nonce commitments before the nonces, a game played with
//! mistakes on the way, the audit before and after the reveal, a tampered nonce and a lying
//! record caught, the options checked, and the shipped sample.

use super::helpers::*;
use qijudge::protocol::signing;
use std::path::{Path, PathBuf};

struct Jieqi {
    tmp: tempfile::TempDir,
    dir: PathBuf,
    keys: Keys,
}

impl Jieqi {
    fn new(extra: &[&str]) -> Jieqi {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let dir = tmp.path().join("game");
        new_game("jieqi", &dir, &keys, extra);
        Jieqi { tmp, dir, keys }
    }

    fn g(&self) -> String {
        self.dir.to_string_lossy().into_owned()
    }

    fn key(seat: &str) -> &'static str {
        if seat == "red" {
            "alice"
        } else {
            "bob"
        }
    }

    fn judge(&self) -> Run {
        qj(&[
            "judge",
            &self.g(),
            "--key",
            &self.keys.path("judge"),
            "--now",
            NOW,
        ])
    }

    fn setup(&self, seat: &str) -> Run {
        let key = self.keys.path(Jieqi::key(seat));
        ok(&["setup", &self.g(), "--as", seat, "--key", &key])
    }

    fn send(&self, seat: &str, mv: &str, extra: &[&str]) -> Run {
        let key = self.keys.path(Jieqi::key(seat));
        let g = self.g();
        let mut args = vec!["move", &g, "--as", seat, "--key", &key, mv];
        args.extend_from_slice(extra);
        qj(&args)
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.join(rel)).unwrap()
    }

    fn status(&self) -> serde_json::Value {
        let r = ok(&["status", &self.g(), "--json", "--now", NOW]);
        serde_json::from_str(&r.stdout).unwrap()
    }

    /// Plays from the listed legal moves (the `step`-th of each list) until the game ends or
    /// `plies` have been played; then the side to move resigns.
    fn play_out(&self, plies: usize, step: usize) -> usize {
        for ply in 1..=plies {
            let status = self.status();
            if !status["result"].is_null() {
                return ply - 1;
            }
            let seat = status["to_move"].as_str().unwrap().to_string();
            let moves = ok(&["moves", &self.g(), "--as", &seat]).stdout;
            let moves: Vec<&str> = moves.lines().collect();
            let mv = moves[(ply * step) % moves.len()];
            assert_eq!(self.send(&seat, mv, &[]).code, 0);
            let r = self.judge();
            assert_eq!(r.code, 0, "{r:?}");
        }
        let status = self.status();
        if status["result"].is_null() {
            let seat = status["to_move"].as_str().unwrap().to_string();
            assert_eq!(self.send(&seat, "resign", &[]).code, 0);
            assert_eq!(self.judge().code, 0);
        }
        plies
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn copy_of(dir: &Path, name: &str) -> PathBuf {
    let copy = dir.parent().unwrap().join(name);
    copy_dir(dir, &copy);
    copy
}

#[test]
fn a_jieqi_game_from_the_nonces_to_the_audit() {
    let j = Jieqi::new(&[]);
    let r = j.judge();
    assert!(
        r.stdout
            .contains("waiting for the nonce commitment of red and black"),
        "{r:?}"
    );
    // Red commits and, too early, hands over its nonce: the judge records the commitment but
    // takes no nonce before both commitments are recorded (neither player can then choose its
    // nonce knowing the other's).
    let r = j.setup("red");
    assert!(r.stdout.contains("setups/red.toml"), "{r:?}");
    let r = j.judge();
    assert!(r.stdout.contains("commitment of red recorded"), "{r:?}");
    assert!(!j.read("record.jsonl").contains("setup_accepted"));
    assert!(
        r.stdout
            .contains("waiting for the nonce commitment of black"),
        "{r:?}"
    );
    j.setup("black");
    let r = j.judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("setup of red accepted"), "{r:?}");
    assert!(r.stdout.contains("play begins; red moves first"), "{r:?}");
    // A second setup is refused: a seat commits once.
    let again = qj(&[
        "setup",
        &j.g(),
        "--as",
        "red",
        "--key",
        &j.keys.path("alice"),
    ]);
    assert_ne!(again.code, 0);
    assert!(again.stderr.contains("a seat commits once"), "{again:?}");

    // Mistakes players make: out of turn, an illegal move (the face-down piece on b0 moves as
    // a horse), a typo; each refused with its reason before anything is written.
    let r = j.send("black", "h7e7", &[]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("it is red's move"), "{r:?}");
    let r = j.send("red", "b0b5", &[]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("a horse cannot move from b0 to b5"),
        "{r:?}"
    );
    let r = j.send("red", "b0-c9x", &[]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("ICCS"), "{r:?}");
    assert!(!j.dir.join("moves").exists());
    // Forced past the player's check, the judge refuses it by file and field, keeps it apart
    // and the player sends a legal one: the game goes on.
    assert_eq!(j.send("red", "b0b5", &["--no-check"]).code, 0);
    let r = j.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("moves/0001-red.toml") && r.stderr.contains("field move"),
        "{r:?}"
    );
    let note = j.read("views/red.refusal.txt");
    assert!(note.contains("cannot move from b0 to b5"), "{note}");
    let r = j.send("red", "h2-e2", &[]);
    assert!(r.stdout.contains("(h2e2)"), "{r:?}");
    let r = j.judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("ply 1: red h2e2 (turned up "), "{r:?}");
    let record = j.read("record.jsonl");
    assert!(record.contains("\"revealed\":\""), "{record}");

    j.play_out(160, 7);
    assert!(!j.status()["result"].is_null());
    // Before the reveal the game is over but the judge's use of the nonces cannot be checked:
    // a spectator's audit refuses to call it verified (nor do the judge's own `setups/` count,
    // which a spectator cannot tell from invented ones).
    let spectator = copy_of(&j.dir, "spectator");
    let r = qj(&["verify", &spectator.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("reveal/red.toml: missing: the game is over but the nonces are not revealed"),
        "{r:?}"
    );
    std::fs::remove_dir_all(spectator.join("setups")).unwrap();
    // After it, the layout is recomputed and every piece that turned up checked.
    let r = ok(&["reveal", &j.g()]);
    assert!(r.stdout.contains("reveal/black.toml"), "{r:?}");
    std::fs::remove_dir_all(spectator.join("views")).unwrap();
    copy_dir(&j.dir.join("reveal"), &spectator.join("reveal"));
    copy_dir(&j.dir.join("views"), &spectator.join("views"));
    let r = ok(&["verify", &spectator.to_string_lossy()]);
    assert!(
        r.stdout.contains("the layout they give matches all"),
        "{r:?}"
    );
    assert!(r.stdout.contains("layout: a0="), "{r:?}");

    // A tampered nonce: caught, naming the file and the field.
    let tampered = copy_of(&spectator, "tampered-nonce");
    let path = tampered.join("reveal/red.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let nonce = text
        .lines()
        .find_map(|l| l.strip_prefix("nonce = \""))
        .unwrap()
        .to_string();
    let flipped: String = nonce
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                if c == '0' {
                    '1'
                } else {
                    '0'
                }
            } else {
                c
            }
        })
        .collect();
    std::fs::write(&path, text.replace(&nonce, &flipped)).unwrap();
    let r = qj(&["verify", &tampered.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("reveal/red.toml")
            && r.stderr.contains("field nonce")
            && r.stderr
                .contains("does not match the commitment red signed"),
        "{r:?}"
    );

    // A judge that lied about what turned up, and signed its lie: the layout gives it away.
    let lying = copy_of(&spectator, "lying-judge");
    let record = std::fs::read_to_string(lying.join("record.jsonl")).unwrap();
    let line = record
        .lines()
        .position(|l| l.contains("\"revealed\":\""))
        .unwrap();
    let lines: Vec<String> = record.lines().map(str::to_string).collect();
    let (before, after) = lines[line].split_once("\"revealed\":\"").unwrap();
    let letter = after.chars().next().unwrap();
    let other = if letter.eq_ignore_ascii_case(&'p') {
        if letter.is_ascii_uppercase() {
            'R'
        } else {
            'r'
        }
    } else if letter.is_ascii_uppercase() {
        'P'
    } else {
        'p'
    };
    let lie = format!("{before}\"revealed\":\"{other}{}", &after[1..]);
    // Re-chain the lines after the lie, as the judge would have to.
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let l = if i == line { lie.clone() } else { l.clone() };
        let l = if i > line {
            let prev: &String = out.last().unwrap();
            let prev = qijudge::protocol::hash::sha256_tagged(prev.as_bytes());
            let (head, rest) = l.split_once("\"prev\":\"").unwrap();
            let rest = rest.split_once('"').unwrap().1;
            format!("{head}\"prev\":\"{prev}\"{rest}")
        } else {
            l
        };
        out.push(l);
    }
    let text = out.join("\n") + "\n";
    std::fs::write(lying.join("record.jsonl"), &text).unwrap();
    // (Its views would have to be re-signed too; without them the record is what is judged.)
    std::fs::remove_dir_all(lying.join("views")).unwrap();
    let judge = signing::parse_private_key(&std::fs::read_to_string(j.keys.path("judge")).unwrap())
        .unwrap();
    std::fs::write(
        lying.join("record.sig"),
        signing::sign(&judge, signing::namespace::RECORD, text.as_bytes()),
    )
    .unwrap();
    let r = qj(&["verify", &lying.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("record.jsonl") && r.stderr.contains("but the nonces put"),
        "{r:?}"
    );
    drop(j.tmp);
}

#[test]
fn the_options_are_checked_and_a_sealed_game_keeps_captured_pieces_unknown() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let dir = |name: &str| tmp.path().join(name);
    new_game(
        "jieqi",
        &dir("confined"),
        &keys,
        &[
            "--rule",
            "advisors-elephants=confined",
            "--rule",
            "captured=both",
        ],
    );
    let manifest = std::fs::read_to_string(dir("confined").join("game.toml")).unwrap();
    assert!(
        manifest.contains("advisors-elephants = \"confined\"")
            && manifest.contains("captured = \"both\""),
        "{manifest}"
    );
    let d = dir("bad").to_string_lossy().into_owned();
    let judge = format!("{}.pub", keys.path("judge"));
    let alice = format!("alice={}.pub", keys.path("alice"));
    let bob = format!("bob={}.pub", keys.path("bob"));
    let base = [
        "new", "jieqi", &d, "--player", &alice, "--player", &bob, "--judge", &judge,
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        qj(&args)
    };
    let r = with(&["--rule", "captured=maybe"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("both, captor or nobody"), "{r:?}");
    let r = with(&["--rule", "flying-general=off"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("Jieqi options are"), "{r:?}");
    // A sealed game publishes every view: a captor's secret cannot be kept there.
    let r = with(&["--sealed", "--rule", "captured=captor"]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("field rules.captured") && r.stderr.contains("sealed"),
        "{r:?}"
    );
    assert!(!dir("bad").join("game.toml").exists(), "nothing written");
    new_game("jieqi", &dir("sealed"), &keys, &["--sealed"]);
    let manifest = std::fs::read_to_string(dir("sealed").join("game.toml")).unwrap();
    assert!(manifest.contains("captured = \"nobody\""), "{manifest}");
    // Its nonce is sealed to the judge: nothing in clear.
    let g = dir("sealed").to_string_lossy().into_owned();
    let r = ok(&["setup", &g, "--as", "red", "--key", &keys.path("alice")]);
    assert!(r.stdout.contains("sealed/red.age"), "{r:?}");
    assert!(!dir("sealed").join("setups").exists());
}

#[test]
fn the_sample_game_verifies_with_its_layout() {
    let dir = root().join("games/jieqi/sample");
    let r = ok(&["verify", &dir.to_string_lossy()]);
    assert!(r.stdout.contains("133 plies"), "{r:?}");
    assert!(
        r.stdout.contains("the layout they give matches all"),
        "{r:?}"
    );
    // Each seat sees what it took face down; the other seat and the public do not.
    let view = |who: &str| -> serde_json::Value {
        let r = ok(&[
            "view",
            &dir.to_string_lossy(),
            "--as",
            who,
            "--format",
            "json",
        ]);
        serde_json::from_str(&r.stdout).unwrap()
    };
    let (red, black, public) = (view("red"), view("black"), view("public"));
    let face_down_taken = |v: &serde_json::Value, by: &str| -> Vec<String> {
        v["taken"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["face_down"] == true && t["by"] == by)
            .map(|t| t["piece"].as_str().unwrap().to_string())
            .collect()
    };
    let by_red = face_down_taken(&red, "red");
    assert!(!by_red.is_empty());
    assert!(by_red.iter().all(|p| p != "x"), "{by_red:?}");
    assert!(face_down_taken(&black, "red").iter().all(|p| p == "x"));
    assert!(face_down_taken(&public, "red").iter().all(|p| p == "x"));
    assert!(face_down_taken(&black, "black").iter().all(|p| p != "X"));
}

#[test]
fn a_wrong_nonce_is_refused_and_the_right_one_still_starts_the_game() {
    let j = Jieqi::new(&[]);
    j.setup("red");
    j.setup("black");
    // Red hands over a nonce it did not commit to (a stale file, say): refused by file, field
    // and reason, kept apart, and red alone is told why.
    let path = j.dir.join("setups/red.toml");
    let right = std::fs::read_to_string(&path).unwrap();
    let nonce = right
        .lines()
        .find_map(|l| l.strip_prefix("nonce = \""))
        .unwrap()
        .trim_end_matches('"')
        .to_string();
    std::fs::write(&path, right.replace(&nonce, &"ab".repeat(32))).unwrap();
    let r = j.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("setups/red.toml")
            && r.stderr.contains("field nonce")
            && r.stderr
                .contains("does not match the commitment red signed"),
        "{r:?}"
    );
    assert!(j.dir.join("views/red.refusal.txt").exists());
    assert!(!j.dir.join("views/black.refusal.txt").exists());
    // Black's nonce beside it is taken in the same run: a refused file delays no other.
    let record = j.read("record.jsonl");
    assert!(
        !record.contains(r#""kind":"setup_accepted","seat":"red""#),
        "{record}"
    );
    assert!(
        record.contains(r#""kind":"setup_accepted","seat":"black""#),
        "{record}"
    );
    // A nonce for another seat, or another game, is refused too.
    std::fs::write(&path, right.replace("seat = \"red\"", "seat = \"black\"")).unwrap();
    let r = j.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("field seat"), "{r:?}");
    // The right one: play begins, and the refusal note is gone.
    std::fs::write(&path, &right).unwrap();
    let r = j.judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("play begins"), "{r:?}");
    assert!(!j.dir.join("views/red.refusal.txt").exists());
}

#[test]
fn what_the_judge_cannot_take_is_refused_by_file_and_field() {
    let j = Jieqi::new(&[]);
    // Before play begins a move is refused by the player's own tool.
    let r = j.send("red", "h2e2", &[]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("play has not begun"), "{r:?}");
    // A commitment whose digest is no digest, signed by its seat: refused by field.
    j.setup("red");
    let path = j.dir.join("commitments/red.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let digest = text
        .lines()
        .find_map(|l| l.strip_prefix("commitment = \""))
        .unwrap()
        .trim_end_matches('"')
        .to_string();
    let broken = text.replace(&digest, "not-hex");
    let alice = signing::parse_private_key(&std::fs::read_to_string(j.keys.path("alice")).unwrap())
        .unwrap();
    std::fs::write(&path, &broken).unwrap();
    std::fs::write(
        j.dir.join("commitments/red.toml.sig"),
        signing::sign(&alice, signing::namespace::COMMITMENT, broken.as_bytes()),
    )
    .unwrap();
    let r = j.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("commitments/red.toml") && r.stderr.contains("field commitment"),
        "{r:?}"
    );
    std::fs::write(&path, &text).unwrap();
    std::fs::write(
        j.dir.join("commitments/red.toml.sig"),
        signing::sign(&alice, signing::namespace::COMMITMENT, text.as_bytes()),
    )
    .unwrap();
    j.setup("black");
    assert_eq!(j.judge().code, 0);

    // A draw offered and accepted ends the game as a draw by agreement.
    let offered = copy_of(&j.dir, "draw");
    let d = offered.to_string_lossy().into_owned();
    let alice_key = j.keys.path("alice");
    let bob_key = j.keys.path("bob");
    let judge = j.keys.path("judge");
    ok(&[
        "move",
        &d,
        "--as",
        "red",
        "--key",
        &alice_key,
        "e0e1",
        "--offer-draw",
    ]);
    ok(&["judge", &d, "--key", &judge, "--now", NOW]);
    ok(&[
        "move",
        &d,
        "--as",
        "black",
        "--key",
        &bob_key,
        "accept-draw",
    ]);
    let r = ok(&["judge", &d, "--key", &judge, "--now", NOW]);
    assert!(r.stdout.contains("game over: draw"), "{r:?}");

    // A judge without the nonces (a copy of the game without setups/) cannot turn a piece up:
    // refused with what it lacks, and nothing is lost.
    let bare = copy_of(&j.dir, "bare");
    std::fs::remove_dir_all(bare.join("setups")).unwrap();
    let b = bare.to_string_lossy().into_owned();
    ok(&["move", &b, "--as", "red", "--key", &alice_key, "h2e2"]);
    let r = qj(&["judge", &b, "--key", &judge, "--now", NOW]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("cannot turn up the piece on h2") && r.stderr.contains("setups/red.toml"),
        "{r:?}"
    );
    // A king move turns nothing up: it is taken.
    let kings = copy_of(&j.dir, "kings");
    std::fs::remove_dir_all(kings.join("setups")).unwrap();
    let k = kings.to_string_lossy().into_owned();
    ok(&["move", &k, "--as", "red", "--key", &alice_key, "e0e1"]);
    ok(&["judge", &k, "--key", &judge, "--now", NOW]);

    // A hand-edited manifest that seals a captor's secret is refused by every command.
    let sealed = copy_of(&j.dir, "sealed-captor");
    let manifest = std::fs::read_to_string(sealed.join("game.toml")).unwrap();
    let edited = manifest.replacen("board = \"9x10\"\n", "board = \"9x10\"\nsealed = true\n", 1);
    assert_ne!(edited, manifest);
    std::fs::write(sealed.join("game.toml"), edited).unwrap();
    let r = qj(&["status", &sealed.to_string_lossy()]);
    assert_ne!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("field rules.captured"), "{r:?}");
}

/// Jieqi engines over UCI, in the dialect of Pikafish's jieqi branch (`tests/bots/
/// jieqi_uci_engine.py`, written from JieqiBox's notation text): each is told the position after
/// the last turn-up, with face-down pieces as `X`/`x` and the identities its seat cannot place
/// yet, and the plain moves since; the game (two turn-ups, then the kings step to and fro until
/// the position repeats) is played, recorded and verifies.
#[test]
fn jieqi_engines_play_over_uci_in_their_dialect() {
    let tmp = tempfile::tempdir().unwrap();
    let cycle = ["e0e1", "e9e8", "e1e0", "e8e9"];
    let moves: Vec<&str> = ["a3a4", "a6a5"]
        .into_iter()
        .chain((0..60).map(|i| cycle[i % 4]))
        .collect();
    let script = tmp.path().join("script.txt");
    std::fs::write(&script, moves.join("\n") + "\n").unwrap();
    let log = tmp.path().join("red.log");
    let engine = root().join("tests/bots/jieqi_uci_engine.py");
    let red = format!(
        "red=uci:/usr/bin/python3 {} {} log={}",
        engine.display(),
        script.display(),
        log.display()
    );
    let black = format!(
        "black=uci:/usr/bin/python3 {} {}",
        engine.display(),
        script.display()
    );
    let out = tmp.path().join("m");
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "jieqi",
        "--bot",
        &red,
        "--bot",
        &black,
        "--games",
        "1",
        "--bot-write",
        &tmp.path().to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let game = &v["games"][0];
    assert_eq!(game["reason"], "repetition", "{game}");
    let plies = game["plies"].as_u64().unwrap() as usize;
    let dir = out.join("games/game-00001");
    let played = recorded_moves(&dir);
    assert_eq!(played.len(), plies);
    assert!(
        played
            .iter()
            .zip(&moves)
            .all(|(p, m)| p.split('=').next() == Some(*m)),
        "{played:?}"
    );
    ok(&["verify", &dir.to_string_lossy()]);
    let told = std::fs::read_to_string(&log).unwrap();
    let positions: Vec<&str> = told
        .lines()
        .filter(|l| l.starts_with("position "))
        .collect();
    assert_eq!(
        positions[0],
        "position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w \
         R2N2B2A2C2P5r2n2b2a2c2p5 - 0 1"
    );
    // After both turn-ups: the position after black's (move 2, red to move), each side's pool
    // one identity smaller, no moves; then the kings' moves since.
    let fields: Vec<&str> = positions[1].split_whitespace().collect();
    assert_eq!(fields.len(), 8, "{}", positions[1]);
    assert_eq!(
        (fields[3], fields[5], fields[6], fields[7]),
        ("w", "-", "0", "2")
    );
    let pool_size = |upper: bool| -> u32 {
        let pool = fields[4];
        let mut total = 0;
        let mut chars = pool.chars().peekable();
        while let Some(c) = chars.next() {
            let n: u32 = chars.next().and_then(|d| d.to_digit(10)).unwrap();
            if c.is_ascii_uppercase() == upper {
                total += n;
            }
        }
        total
    };
    assert_eq!(
        (pool_size(true), pool_size(false)),
        (14, 14),
        "{}",
        positions[1]
    );
    assert!(positions[2].starts_with(positions[1]), "{told}");
    assert!(positions[2].ends_with(" moves e0e1 e9e8"), "{told}");
}
