//! The hostile suite over every kind of player file the protocol declares
//! (`qijudge::protocol::kinds::KINDS`): a stranger's copy, a transplant to another game or ply,
//! a replayed older version (across runs and within one), brute force over every digest that is
//! published, and the non-interference differential. Each attack is driven by the table: a kind
//! is attacked as its row says it is bound, ordered and read, and a kind with no attack here
//! fails the first test, so a new kind cannot land without them.

use super::helpers::*;
use qijudge::protocol::kinds::{Bound, FileKind, Order, Proof, Readers, KINDS};
use std::path::{Path, PathBuf};

/// A Xiangqi game played by mail: the judge's folder and each player's copy (red is alice,
/// black is bob), every message carried through `inbox` as a mail client would.
struct Club {
    tmp: tempfile::TempDir,
    keys: Keys,
    judge: PathBuf,
    copies: [PathBuf; 2],
    sent: std::cell::Cell<u32>,
}

impl Club {
    fn new() -> Club {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let judge = tmp.path().join("judge");
        new_mail_game("xiangqi", &judge, &keys.dir, "alice", "bob");
        Club::open(tmp, keys, judge)
    }

    /// Another club playing the very same game (manifest and keys): a twin for differentials.
    fn twin(&self) -> Club {
        let tmp = tempfile::tempdir().unwrap();
        copy_dir(&self.keys.dir, &tmp.path().join("keys"));
        for name in ["alice", "bob", "judge", "mallory"] {
            use std::os::unix::fs::PermissionsExt;
            let key = tmp.path().join("keys").join(name);
            std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let keys = Keys {
            dir: tmp.path().join("keys"),
        };
        let judge = tmp.path().join("judge");
        std::fs::create_dir_all(&judge).unwrap();
        std::fs::copy(self.judge.join("game.toml"), judge.join("game.toml")).unwrap();
        Club::open(tmp, keys, judge)
    }

    fn open(tmp: tempfile::TempDir, keys: Keys, judge: PathBuf) -> Club {
        let c = Club {
            copies: [tmp.path().join("alice"), tmp.path().join("bob")],
            tmp,
            keys,
            judge,
            sent: std::cell::Cell::new(0),
        };
        ok(&[
            "judge",
            &c.j(),
            "--key",
            &c.keys.path("judge"),
            "--now",
            NOW,
        ]);
        for copy in &c.copies {
            std::fs::create_dir_all(copy).unwrap();
            for f in ["game.toml", "record.jsonl", "record.sig"] {
                std::fs::copy(c.judge.join(f), copy.join(f)).unwrap();
            }
        }
        c
    }

    fn j(&self) -> String {
        self.judge.to_string_lossy().into_owned()
    }

    fn out(&self) -> PathBuf {
        self.tmp.path().join("out")
    }

    fn copy(&self, seat: &str) -> &Path {
        &self.copies[usize::from(seat != "red")]
    }

    fn who(seat: &str) -> &'static str {
        if seat == "red" {
            "alice"
        } else {
            "bob"
        }
    }

    /// `move` in the seat's own copy.
    fn write(&self, seat: &str, args: &[&str]) -> Run {
        let copy = self.copy(seat).to_string_lossy().into_owned();
        let key = self.keys.path(Self::who(seat));
        let mut all = vec!["move", copy.as_str(), "--as", seat, "--key", key.as_str()];
        all.extend_from_slice(args);
        qj(&all)
    }

    /// A message from `who` carrying `files` (paths in a copy), written as an .eml.
    fn message(&self, who: &str, files: &[PathBuf]) -> PathBuf {
        self.sent.set(self.sent.get() + 1);
        let msg = self.tmp.path().join(format!("m{}.eml", self.sent.get()));
        let mut args = vec![
            "make".to_string(),
            "inline".into(),
            msg.to_string_lossy().into_owned(),
            format!("{who}@example.org"),
        ];
        // The first file, its signature when one follows, and the rest beside them.
        let signed = files.len() > 1 && files[1].to_string_lossy().ends_with(".sig");
        for (i, f) in files.iter().enumerate() {
            args.push(match i < 1 + usize::from(signed) {
                true => f.to_string_lossy().into_owned(),
                false => format!("--also={}", f.display()),
            });
        }
        eml_py(&args.iter().map(String::as_str).collect::<Vec<_>>());
        msg
    }

    /// The judge's `inbox` run over `messages`, in that order, in one run.
    fn inbox(&self, messages: &[PathBuf]) -> Run {
        let out = self.out();
        let judge_key = self.keys.path("judge");
        let mut args = vec!["inbox".to_string(), self.j()];
        args.extend(messages.iter().map(|m| m.to_string_lossy().into_owned()));
        args.extend(
            [
                "--key",
                &judge_key,
                "--now",
                NOW,
                "--outbox",
                &out.to_string_lossy(),
                "--from",
                "judge@example.org",
            ]
            .map(String::from),
        );
        qj(&args.iter().map(String::as_str).collect::<Vec<_>>())
    }

    /// The judge's latest message to `seat`, taken into its copy.
    fn take(&self, seat: &str) {
        let copy = self.copy(seat).to_string_lossy().into_owned();
        ok(&[
            "inbox",
            &copy,
            &self.out().join(format!("{seat}.eml")).to_string_lossy(),
        ]);
    }

    /// A move played from a copy and mailed; both copies take the judge's answers.
    fn play(&self, seat: &str, mv: &str) {
        let r = self.write(seat, &[mv]);
        assert_eq!(r.code, 0, "{r:?}");
        let ply = recorded_moves(&self.judge).len() + 1;
        let file = self.copy(seat).join(format!("moves/{ply:04}-{seat}.toml"));
        let r = self.inbox(&[self.message(Self::who(seat), &[file.clone(), sig(&file)])]);
        assert_eq!(r.code, 0, "{r:?}");
        self.take("red");
        self.take("black");
    }

    /// Red's conditional answers for ply `ply` as they stand in its copy: the signed file, its
    /// signature and its plans.
    fn conditional_files(&self, ply: u32) -> Vec<PathBuf> {
        let c = self.copy("red");
        let f = c.join(format!("conditional/{ply:04}-red.toml"));
        vec![
            f.clone(),
            sig(&f),
            c.join(format!("plans/{ply:04}-red.toml")),
        ]
    }

    /// Red's conditional answers written for ply `ply`, each file's bytes kept (a version).
    fn conditional(&self, ply: u32, args: &[&str]) -> Vec<(PathBuf, Vec<u8>)> {
        let r = self.write("red", args);
        assert_eq!(r.code, 0, "{r:?}");
        self.conditional_files(ply)
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                (p, bytes)
            })
            .collect()
    }

    /// A kept version of a file set, written back into a fresh folder and mailed from there.
    fn message_of(&self, who: &str, version: &[(PathBuf, Vec<u8>)]) -> PathBuf {
        self.sent.set(self.sent.get() + 1);
        let dir = self.tmp.path().join(format!("kept{}", self.sent.get()));
        let files: Vec<PathBuf> = version
            .iter()
            .map(|(p, bytes)| {
                let rel = p.strip_prefix(self.copy("red")).unwrap();
                let to = dir.join(rel);
                std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::fs::write(&to, bytes).unwrap();
                to
            })
            .collect();
        self.message(who, &files)
    }
}

fn sig(file: &Path) -> PathBuf {
    PathBuf::from(format!("{}.sig", file.display()))
}

fn record_entries(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("record.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["entry"].clone())
        .collect()
}

fn fired_count(dir: &Path) -> usize {
    record_entries(dir)
        .iter()
        .filter(|e| e.get("conditional").is_some())
        .count()
}

/// Every kind in the table has its attacks here, chosen by what its row declares.
#[test]
fn every_kind_in_the_table_is_attacked() {
    for kind in KINDS {
        let attacks = attacks_of(kind);
        assert!(
            !attacks.is_empty(),
            "{}: a kind of file with no attack in the hostile suite",
            kind.name
        );
        // What can be replaced must be ordered inside what is signed.
        if kind.order == Order::Sequence {
            assert!(matches!(kind.proof, Proof::Signed(_)), "{}", kind.name);
        }
        // A secret kind is never bound by its own signature (a readable signature over a
        // secret lets anyone confirm a guess of it).
        if kind.readers != Readers::Everyone {
            assert!(!matches!(kind.proof, Proof::Signed(_)), "{}", kind.name);
        }
    }
}

/// The attacks the suite runs on a kind, from its row; each names the test that runs it.
fn attacks_of(kind: &FileKind) -> Vec<&'static str> {
    let mut a = Vec::new();
    match kind.name {
        "commitment" | "move" | "conditional" => {
            a.push("a_strangers_copy_of_each_signed_kind_is_refused")
        }
        "secret" => a.push("a_secret_that_does_not_open_its_commitment_is_refused"),
        "plans" => a.push("plans_that_do_not_match_their_signed_commitments_are_refused"),
        _ => return Vec::new(),
    }
    if kind.binds.contains(&Bound::Game) {
        a.push("a_file_of_each_kind_transplanted_to_another_game_or_ply_is_refused");
    }
    match kind.order {
        Order::Once => a.push("a_second_version_of_a_file_sent_once_is_refused"),
        Order::Sequence | Order::WithSigned => {
            a.push("an_older_conditional_version_never_comes_back_in_either_order")
        }
    }
    if kind.readers == Readers::JudgeOnly || kind.name == "conditional" {
        a.push("brute_force_over_every_published_conditional_digest_learns_nothing");
        a.push("the_other_seat_and_spectators_read_the_same_bytes_whatever_the_plans");
    }
    a
}

/// A stranger (the opponent) re-signs each signed kind with its own key, and sends it by mail
/// as the seat's: refused, naming the file and the signature; nothing is taken.
#[test]
fn a_strangers_copy_of_each_signed_kind_is_refused() {
    let c = Club::new();
    c.play("red", "h2e2");
    c.conditional(2, &["--if", "h9g7=h0g2"]);
    let files = [
        (
            "move",
            c.copy("red").join("moves/0001-red.toml"),
            "qijudge-move",
        ),
        (
            "conditional",
            c.copy("red").join("conditional/0002-red.toml"),
            "qijudge-conditional",
        ),
    ];
    for (kind, file, ns) in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let forged_dir = c.tmp.path().join(format!("forged-{kind}"));
        let rel = file.strip_prefix(c.copy("red")).unwrap();
        let to = forged_dir.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(&to, &text).unwrap();
        std::fs::write(sig(&to), sign_as(&c.keys, "bob", ns, &text)).unwrap();
        let before = snapshot(&c.judge);
        let r = c.inbox(&[c.message("bob", &[to.clone(), sig(&to)])]);
        assert!(
            r.stderr.contains("not signed by red's key")
                || r.stdout.contains("not signed by red's key"),
            "{kind}: {r:?}"
        );
        let after = snapshot(&c.judge);
        assert_eq!(
            before.get(&rel.to_string_lossy().into_owned()),
            after.get(&rel.to_string_lossy().into_owned()),
            "{kind}: the judge's copy changed"
        );
    }
    // Commitments: a Luzhanqi commitment signed by the other seat's key, in a shared folder.
    let g = TestGame::new(&[]);
    let r = g.setup("south", &setup_text(&fixed_setups()[0]));
    assert_eq!(r.code, 0, "{r:?}");
    let text = g.read("commitments/south.toml");
    g.write(
        "commitments/south.toml.sig",
        &sign_as(&g.keys, "bob", "qijudge-commitment", &text),
    );
    let j = g.judge();
    assert!(j.stderr.contains("commitments/south.toml"), "{j:?}");
    assert!(!g.read("record.jsonl").contains("\"commitment\""), "taken");
}

/// A secret (a setup) that does not open its seat's signed commitment is refused.
#[test]
fn a_secret_that_does_not_open_its_commitment_is_refused() {
    let g = TestGame::new(&[]);
    for seat in ["south", "north"] {
        let r = g.setup(
            seat,
            &setup_text(&fixed_setups()[usize::from(seat == "north")]),
        );
        assert_eq!(r.code, 0, "{r:?}");
    }
    // The salt changed by one digit: the setup no longer opens the commitment.
    let text = g.read("setups/south.toml");
    let at = text.find("salt = \"").unwrap() + 8;
    let mut bytes = text.into_bytes();
    bytes[at] = if bytes[at] == b'0' { b'1' } else { b'0' };
    g.write("setups/south.toml", &String::from_utf8(bytes).unwrap());
    let j = g.judge();
    assert_ne!(j.code, 0, "{j:?}");
    assert!(j.stderr.contains("setups/south.toml"), "{j:?}");
    assert!(!g
        .read("record.jsonl")
        .contains("setup_accepted\",\"seat\":\"south"));
}

/// Each kind bound to a game, carried to another game with the same players, or to another
/// ply, is refused by the field that binds it.
#[test]
fn a_file_of_each_kind_transplanted_to_another_game_or_ply_is_refused() {
    let a = Club::new();
    let b = Club::new();
    a.play("red", "h2e2");
    b.play("red", "h2e2");
    a.conditional(2, &["--if", "h9g7=h0g2"]);
    // Red's move and conditional answers of game A, mailed to game B's judge.
    for files in [
        vec![
            a.copy("red").join("moves/0001-red.toml"),
            sig(&a.copy("red").join("moves/0001-red.toml")),
        ],
        a.conditional_files(2),
    ] {
        let r = b.inbox(&[a.message("alice", &files)]);
        assert!(
            r.stderr.contains("belongs to another game")
                || r.stdout.contains("belongs to another game"),
            "{r:?}"
        );
    }
    assert!(!b.judge.join("conditional/0002-red.toml").exists());
    // In a shared folder: red's conditional file for ply 2 renamed to ply 4.
    let g = &a.judge;
    std::fs::copy(g.join("moves/0001-red.toml"), g.join("moves/0003-red.toml")).unwrap();
    std::fs::copy(
        g.join("moves/0001-red.toml.sig"),
        g.join("moves/0003-red.toml.sig"),
    )
    .unwrap();
    let r = qj(&[
        "judge",
        &a.j(),
        "--key",
        &a.keys.path("judge"),
        "--now",
        NOW,
    ]);
    assert!(r.stderr.contains("moves/0003-red.toml"), "{r:?}");
    for kind in KINDS.iter().filter(|k| k.binds.contains(&Bound::Ply)) {
        assert_ne!(kind.path("red", 1), kind.path("red", 3), "{}", kind.name);
    }
}

/// A file sent once (a move) never takes a second version, whatever it says.
#[test]
fn a_second_version_of_a_file_sent_once_is_refused() {
    let c = Club::new();
    c.play("red", "h2e2");
    let file = c.copy("red").join("moves/0001-red.toml");
    let first = std::fs::read(&file).unwrap();
    // Red signs another move for ply 1 against the same head and mails it.
    std::fs::remove_file(&file).unwrap();
    std::fs::remove_file(sig(&file)).unwrap();
    let text = String::from_utf8(first).unwrap().replace("h2e2", "b2e2");
    std::fs::write(&file, &text).unwrap();
    std::fs::write(sig(&file), sign_as(&c.keys, "alice", "qijudge-move", &text)).unwrap();
    let r = c.inbox(&[c.message("alice", &[file.clone(), sig(&file)])]);
    let said = format!("{}{}", r.stdout, r.stderr);
    assert!(
        said.contains("never replaced") || said.contains("already"),
        "{r:?}"
    );
    assert_eq!(recorded_moves(&c.judge), ["h2e2"]);
}

/// Red withdraws its conditional answers (version 2) after writing them (version 1). Whatever
/// the order the two versions reach the judge, in two runs or in one, the withdrawal stands
/// and black's reply is not answered; the control, with no withdrawal, is answered.
#[test]
fn an_older_conditional_version_never_comes_back_in_either_order() {
    for order in [
        "newer first, two runs",
        "newer first, one run",
        "older first, one run",
        "control",
    ] {
        let c = Club::new();
        c.play("red", "h2e2");
        let v1 = c.conditional(2, &["--if", "h9g7=h0g2"]);
        let v2 = c.conditional(2, &["--withdraw-if"]);
        let (m1, m2) = (c.message_of("alice", &v1), c.message_of("alice", &v2));
        match order {
            "newer first, two runs" => {
                assert_eq!(c.inbox(std::slice::from_ref(&m2)).code, 0);
                let r = c.inbox(std::slice::from_ref(&m1));
                let said = format!("{}{}", r.stdout, r.stderr);
                assert!(said.contains("not newer than version 2"), "{order}: {r:?}");
            }
            "newer first, one run" => {
                c.inbox(&[m2, m1]);
            }
            "older first, one run" => {
                c.inbox(&[m1, m2]);
            }
            _ => {
                c.inbox(&[m1]);
            }
        }
        c.take("black");
        c.play("black", "h9g7");
        let fired = fired_count(&c.judge);
        assert_eq!(fired, usize::from(order == "control"), "{order}");
        ok(&["verify", &c.j()]);
    }
}

/// Everything published about red's conditional answers: each line's commitment in the
/// signed file and, once one fires, the steps the record discloses and the digest of the rest.
/// The opponent tries every line of one step (each legal reply, each answer) against each, and
/// every continuation against the rest: nothing matches. The control, which knows the salt the
/// judge holds, finds the real lines, so the search would find a leak.
#[test]
fn brute_force_over_every_published_conditional_digest_learns_nothing() {
    use qijudge::protocol::plan;
    let c = Club::new();
    c.play("red", "h2e2");
    c.conditional(2, &["--if", "h9g7=h0g2,i9h9=i0h0", "--if", "b9c7=b0c2"]);
    let files = c.conditional_files(2);
    assert_eq!(c.inbox(&[c.message("alice", &files)]).code, 0);
    c.take("black");
    c.play("black", "h9g7");
    assert_eq!(fired_count(&c.judge), 1);
    // What black holds: the signed file and the record.
    let black = c.copy("black");
    let signed: toml::Table =
        toml::from_str(&std::fs::read_to_string(black.join("conditional/0002-red.toml")).unwrap())
            .unwrap();
    let commitments: Vec<String> = signed["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(commitments.len(), 8, "padded to eight");
    let fired = record_entries(black)
        .into_iter()
        .find(|e| e.get("conditional").is_some())
        .unwrap();
    let opened: plan::Opening =
        serde_json::from_value(fired["conditional"]["opened"].clone()).unwrap();
    assert_eq!(
        opened.steps,
        ["h9g7 h0g2"],
        "only the step played is disclosed"
    );
    // Every step black could guess: a move from each square of its side's first ranks to each
    // square of the board's middle, answered the same way from red's (a superset of the legal
    // steps).
    let files = "abcdefghi";
    let squares = |ranks: &[u8]| -> Vec<String> {
        ranks
            .iter()
            .flat_map(|r| files.chars().map(move |f| format!("{f}{r}")))
            .collect()
    };
    let moves = |from: &[u8], to: &[u8]| -> Vec<String> {
        let to = squares(to);
        squares(from)
            .into_iter()
            .flat_map(|a| {
                to.iter()
                    .map(move |b| format!("{a}{b}"))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let replies = moves(&[9, 7, 6], &[8, 7, 6, 5]);
    let answers = moves(&[0, 2, 3], &[1, 2, 3, 4]);
    let steps: Vec<String> = replies
        .iter()
        .flat_map(|r| answers.iter().map(move |a| format!("{r} {a}")))
        .collect();
    let salts: Vec<[u8; 32]> = opened
        .salts
        .iter()
        .map(|s| qijudge::protocol::hash::hex32(s).unwrap())
        .chain([[0u8; 32]])
        .collect();
    let published: Vec<String> = commitments
        .iter()
        .cloned()
        .chain([format!("sha256:{}", opened.rest)])
        .collect();
    let mut tried = 0;
    for salt in &salts {
        for step in &steps {
            // The line of that one step, and the known first step followed by it.
            for line in [
                vec![step.clone()],
                vec![opened.steps[0].clone(), step.clone()],
            ] {
                tried += 1;
                let guess = plan::line_commitment(salt, &line);
                assert!(!published.contains(&guess), "{line:?} found");
            }
        }
    }
    assert!(tried > 100_000, "{tried}");
    // The control: the judge's plans hold the salts; with them the real lines are found.
    let plans: toml::Table =
        toml::from_str(&std::fs::read_to_string(c.judge.join("plans/0002-red.toml")).unwrap())
            .unwrap();
    let salts_held = plans["salts"].as_array().unwrap();
    let found = plans["lines"]
        .as_array()
        .unwrap()
        .iter()
        .zip(salts_held)
        .filter(|(l, salt)| {
            let salt = qijudge::protocol::hash::hex32(salt.as_str().unwrap()).unwrap();
            let pairs = qijudge::judge::conditional::pairs(l.as_str().unwrap());
            commitments.contains(&plan::line_commitment(&salt, &pairs))
        })
        .count();
    assert_eq!(found, 2);
    // No byte black's copy holds names a step red has not played.
    for (path, bytes) in snapshot(black) {
        let text = String::from_utf8_lossy(&bytes);
        for unplayed in ["i0h0", "b0c2"] {
            assert!(!text.contains(unplayed), "{path} shows {unplayed}");
        }
    }
}

/// Two games alike but for red's standing conditional answers (one line or another that does
/// not fire, or none): every file black and the spectators may read is byte for byte the same
/// after black's reply; the control, whose line fires, differs.
#[test]
fn the_other_seat_and_spectators_read_the_same_bytes_whatever_the_plans() {
    let readable = |c: &Club| {
        let mut files = snapshot(&c.judge);
        files.retain(|p, _| {
            p == "record.jsonl"
                || p == "record.sig"
                || p.starts_with("views/black")
                || p.starts_with("views/public")
        });
        let mut copy = snapshot(c.copy("black"));
        copy.retain(|p, _| !p.starts_with("conditional/"));
        (files, copy)
    };
    let template = Club::new();
    let play = |plans: Option<&str>| {
        let c = template.twin();
        c.play("red", "h2e2");
        if let Some(line) = plans {
            c.conditional(2, &["--if", line]);
            let files = c.conditional_files(2);
            assert_eq!(c.inbox(&[c.message("alice", &files)]).code, 0);
        }
        c.take("black");
        c.play("black", "h9g7");
        readable(&c)
    };
    let none = play(None);
    let one = play(Some("b9c7=b0c2"));
    let other = play(Some("c9e7=b0c2,h9g7=h0g2"));
    assert_eq!(none.0, one.0, "the judge's files black and spectators read");
    assert_eq!(none.0, other.0);
    assert_eq!(none.1, one.1, "black's copy");
    assert_eq!(none.1, other.1);
    let fires = play(Some("h9g7=h0g2"));
    assert_ne!(none.0, fires.0, "the control's answer is in the record");
    assert_ne!(none.1, fires.1);
}

/// Plans that do not match the signed file's commitments are refused, to the seat alone and
/// without quoting them; a stranger's plans never replace a seat's.
#[test]
fn plans_that_do_not_match_their_signed_commitments_are_refused() {
    let c = Club::new();
    c.play("red", "h2e2");
    let good = c.conditional(2, &["--if", "h9g7=h0g2"]);
    // Without its plans, the signed file is refused when it comes: it could never fire.
    let r = c.inbox(&[c.message_of("alice", &good[..2])]);
    assert!(r.stderr.contains("its plans have not come"), "{r:?}");
    assert!(!c.judge.join("conditional/0002-red.toml").exists());
    assert_eq!(c.inbox(&[c.message_of("alice", &good)]).code, 0);
    let plans = c.judge.join("plans/0002-red.toml");
    let held = std::fs::read(&plans).unwrap();
    // Bob mails plans of his own for red's file: a line red never committed to.
    let mut forged = good[2].clone();
    forged.1 = String::from_utf8(forged.1)
        .unwrap()
        .replace("h9g7 h0g2", "h9g7 h0i2")
        .into_bytes();
    let r = c.inbox(&[c.message_of("bob", &[forged])]);
    let said = format!("{}{}", r.stdout, r.stderr);
    assert!(
        said.contains("does not match conditional/0002-red.toml"),
        "{r:?}"
    );
    assert!(!said.contains("h0i2"), "the plan is quoted: {said}");
    assert_eq!(std::fs::read(&plans).unwrap(), held);
    c.take("black");
    c.play("black", "h9g7");
    assert_eq!(recorded_moves(&c.judge).last().unwrap(), "h0g2");
}
