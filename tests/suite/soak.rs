//! Fault-injection soak: random Xiangqi games on a clock over each transport (a plain folder,
//! e-mail through `inbox`, a git repository judged in CI mode), in which the players also send
//! typos, illegal moves, duplicates, out-of-turn and far-future moves, strangers' files and late
//! moves (and, by mail, chat and auto-replies). Every game must reach its end (a result, a draw
//! or a forfeit) with no hand edit of any folder: a game that stops taking a legal move is
//! stuck. `QIJUDGE_SOAK_GAMES` sets the games per transport (default 3).

use super::helpers::*;
use qijudge::protocol::signing::namespace;
use std::path::{Path, PathBuf};
use std::process::Command;

/// splitmix64: a reproducible stream, seeded per game.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fault {
    Typo,
    Duplicate,
    OutOfTurn,
    FarFuture,
    Stranger,
    Late,
    Chat,
    AutoReply,
}

/// A signed file as a player hands it over: its name in `moves/`, its text, its signature.
type Signed = (String, String, String);

/// How files reach the judge, and how the judge runs.
trait Transport {
    fn dir(&self) -> &Path;
    fn deliver(&mut self, files: &[Signed]);
    /// Mail only: a message with no file, or an auto-reply pasting one.
    fn noise(&mut self, _fault: Fault, _file: Option<&Signed>) {}
    fn judge(&mut self, now: &str) -> Run;
}

/// Writes signed files into a game folder's `moves/`.
fn write_moves(dir: &Path, files: &[Signed]) {
    for (name, text, sig) in files {
        std::fs::write(dir.join(format!("moves/{name}.sig")), sig).unwrap();
        std::fs::write(dir.join(format!("moves/{name}")), text).unwrap();
    }
}

/// The players write straight into the game folder.
struct Folder {
    dir: PathBuf,
    key: String,
}

impl Transport for Folder {
    fn dir(&self) -> &Path {
        &self.dir
    }
    fn deliver(&mut self, files: &[Signed]) {
        write_moves(&self.dir, files);
    }
    fn judge(&mut self, now: &str) -> Run {
        let d = self.dir.to_string_lossy().into_owned();
        qj(&["judge", &d, "--key", &self.key, "--now", now])
    }
}

/// Each delivery is a plain-text message pasting the file and its signature; the judge runs
/// through `inbox` and mails its answers into an outbox.
struct Mail {
    dir: PathBuf,
    key: String,
    spool: PathBuf,
    pending: Vec<PathBuf>,
    count: usize,
}

impl Mail {
    fn message(&mut self, headers: &str, body: &str) {
        self.count += 1;
        let path = self.spool.join(format!("m{}.eml", self.count));
        let text = format!(
            "From: player@example.org\r\nTo: judge@example.org\r\nSubject: move\r\n\
             Message-ID: <{}@example.org>\r\n{headers}\r\n{}",
            self.count,
            body.replace('\n', "\r\n")
        );
        std::fs::write(&path, text).unwrap();
        self.pending.push(path);
    }
}

impl Transport for Mail {
    fn dir(&self) -> &Path {
        &self.dir
    }
    fn deliver(&mut self, files: &[Signed]) {
        for (_, text, sig) in files {
            self.message("", &format!("My move:\n\n{text}\n{sig}\n"));
        }
    }
    fn noise(&mut self, fault: Fault, file: Option<&Signed>) {
        match (fault, file) {
            (Fault::AutoReply, Some((_, text, sig))) => self.message(
                "Auto-Submitted: auto-replied\r\n",
                &format!("I am away.\n\n{text}\n{sig}\n"),
            ),
            _ => self.message("", "Good game so far!\n"),
        }
    }
    fn judge(&mut self, now: &str) -> Run {
        let d = self.dir.to_string_lossy().into_owned();
        if self.pending.is_empty() {
            return qj(&["judge", &d, "--key", &self.key, "--now", now]);
        }
        let outbox = self.spool.join("out").to_string_lossy().into_owned();
        let mut args = vec!["inbox".to_string(), d];
        args.extend(
            self.pending
                .drain(..)
                .map(|p| p.to_string_lossy().into_owned()),
        );
        for a in [
            "--key",
            &self.key,
            "--now",
            now,
            "--outbox",
            &outbox,
            "--from",
            "judge@example.org",
        ] {
            args.push(a.to_string());
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        qj(&refs)
    }
}

/// Each delivery is a commit on main (a pull request merged without its check); the judge runs
/// in CI mode on the change and its outputs are committed, as the example workflow does.
struct Git {
    root: PathBuf,
    dir: PathBuf,
    key: String,
}

fn git(root: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .expect("git must be installed (.ci/run installs it)");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Commits everything in the work tree (a duplicate may change nothing: still a commit).
fn commit_all(root: &Path, message: &str) {
    git(root, &["add", "-A"]);
    git(
        root,
        &[
            "commit",
            "-q",
            "--allow-empty",
            "--no-verify",
            "-m",
            message,
        ],
    );
}

impl Transport for Git {
    fn dir(&self) -> &Path {
        &self.dir
    }
    fn deliver(&mut self, files: &[Signed]) {
        write_moves(&self.dir, files);
        commit_all(&self.root, "player");
    }
    fn judge(&mut self, now: &str) -> Run {
        let base = git(&self.root, &["rev-parse", "HEAD~1"]);
        let d = self.dir.to_string_lossy().into_owned();
        let r = qj(&[
            "judge",
            &d,
            "--key",
            &self.key,
            "--now",
            now,
            "--ci",
            "--base",
            base.trim(),
        ]);
        assert!(r.code <= 1, "the CI judge failed: {r:?}");
        // What the example workflow does after exit 0 or 1.
        commit_all(&self.root, "judge");
        r
    }
}

fn status(dir: &Path) -> serde_json::Value {
    let r = ok(&["status", &dir.to_string_lossy(), "--json"]);
    serde_json::from_str(&r.stdout).unwrap()
}

fn signer(seat: &str) -> &'static str {
    if seat == "red" {
        "alice"
    } else {
        "bob"
    }
}

/// The signed move `mv` for the seat to move, made by `qijudge move` and taken out of the
/// folder again: the player's own tool never writes what it knows is illegal.
fn make_move(dir: &Path, keys: &Keys, seat: &str, mv: &str) -> Signed {
    let d = dir.to_string_lossy().into_owned();
    ok(&[
        "move",
        &d,
        "--as",
        seat,
        "--key",
        &keys.path(signer(seat)),
        mv,
    ]);
    let ply = status(dir)["ply"].as_u64().unwrap() + 1;
    let name = format!("{ply:04}-{seat}.toml");
    let path = dir.join("moves").join(&name);
    let text = std::fs::read_to_string(&path).unwrap();
    let sig = std::fs::read_to_string(path.with_extension("toml.sig")).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(path.with_extension("toml.sig")).unwrap();
    (name, text, sig)
}

/// A file signed by `who`, as a hand-written (or hostile) tool would sign it.
fn signed(keys: &Keys, who: &str, name: String, text: String) -> Signed {
    let sig = sign_as(keys, who, namespace::MOVE, &text);
    (name, text, sig)
}

/// What one soak over a transport did.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    plies: usize,
    faults: std::collections::BTreeMap<String, usize>,
    stuck: usize,
    endings: std::collections::BTreeMap<String, usize>,
}

/// Plays one random game with faults; returns false if it got stuck.
fn play(t: &mut dyn Transport, keys: &Keys, rng: &mut Rng, mail: bool, tally: &mut Tally) -> bool {
    // The judge's clock: a minute passes with every run (the game was made at NOW).
    let mut minute = 0i64;
    let mut now = |extra: i64| {
        minute += 1 + extra;
        (chrono::DateTime::parse_from_rfc3339(NOW).unwrap() + chrono::Duration::minutes(minute))
            .format("%Y-%m-%dT%H:%M:%SZ")
            .to_string()
    };
    assert!(t.judge(&now(0)).code == 0);
    let mut last: Option<Signed> = None;
    let resign_after = 20 + rng.below(30);
    // Every action either ends the game or lets a legal move through within a few tries.
    for _ in 0..400 {
        let s = status(t.dir());
        if !s["result"].is_null() {
            let reason = s["result"]["reason"].as_str().unwrap_or("?").to_string();
            *tally.endings.entry(reason).or_default() += 1;
            return true;
        }
        let seat = s["to_move"].as_str().unwrap().to_string();
        let other = if seat == "red" { "black" } else { "red" };
        let ply = s["ply"].as_u64().unwrap() as usize + 1;
        let d = t.dir().to_string_lossy().into_owned();
        let legal: Vec<String> = ok(&["moves", &d, "--as", &seat])
            .stdout
            .lines()
            .map(str::to_string)
            .collect();
        let mv = if ply > resign_after || legal.is_empty() {
            "resign".to_string()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        let good = make_move(t.dir(), keys, &seat, &mv);
        // Mail adds the faults only a mailbox has: chat and auto-replies.
        const FAULTS: [Fault; 8] = [
            Fault::Typo,
            Fault::Duplicate,
            Fault::OutOfTurn,
            Fault::FarFuture,
            Fault::Stranger,
            Fault::Late,
            Fault::Chat,
            Fault::AutoReply,
        ];
        let kinds = if mail { &FAULTS[..] } else { &FAULTS[..6] };
        // One action in three is a fault; a late move is rare (it ends the game).
        let fault = match rng.below(3) {
            0 => Some(kinds[rng.below(kinds.len())])
                .filter(|f| *f != Fault::Late || rng.below(4) == 0),
            _ => None,
        };
        let (name, text, _) = good.clone();
        let mut late = 0;
        match fault {
            Some(Fault::Typo) => {
                let bad = text.replace(&format!("move = \"{mv}\""), "move = \"a0a9\"");
                t.deliver(&[signed(keys, signer(&seat), name.clone(), bad)]);
            }
            Some(Fault::Duplicate) => match &last {
                Some(prev) => t.deliver(std::slice::from_ref(prev)),
                None => t.deliver(std::slice::from_ref(&good)),
            },
            Some(Fault::OutOfTurn) => {
                let theirs = text.replace(
                    &format!("seat = \"{seat}\""),
                    &format!("seat = \"{other}\""),
                );
                t.deliver(&[signed(
                    keys,
                    signer(other),
                    format!("{ply:04}-{other}.toml"),
                    theirs,
                )]);
            }
            Some(Fault::FarFuture) => {
                let far = text.replace(&format!("ply = {ply}\n"), "ply = 9999\n");
                t.deliver(&[signed(
                    keys,
                    signer(&seat),
                    format!("9999-{seat}.toml"),
                    far,
                )]);
            }
            Some(Fault::Stranger) => {
                t.deliver(&[signed(keys, "mallory", name.clone(), text.clone())]);
            }
            Some(Fault::Late) => {
                // Sent, but judged after the deadline and its grace (60 + 30 minutes).
                t.deliver(std::slice::from_ref(&good));
                late = 120;
            }
            Some(f @ (Fault::Chat | Fault::AutoReply)) => t.noise(f, Some(&good)),
            None => t.deliver(std::slice::from_ref(&good)),
        }
        if let Some(f) = fault {
            *tally.faults.entry(format!("{f:?}")).or_default() += 1;
        }
        let r = t.judge(&now(late));
        assert!(r.code <= 1, "the judge failed: {r:?}");
        assert!(!r.stderr.contains("panicked"), "{r:?}");
        if fault.is_some_and(|f| f != Fault::Late) {
            // The honest player then sends the real move; it must be taken.
            if status(t.dir())["ply"].as_u64().unwrap() as usize + 1 == ply {
                let fresh = make_move(t.dir(), keys, &seat, &mv);
                t.deliver(&[fresh]);
                let r = t.judge(&now(0));
                assert!(r.code <= 1, "the judge failed: {r:?}");
            }
            let moved = status(t.dir())["ply"].as_u64().unwrap() as usize >= ply;
            let over = !status(t.dir())["result"].is_null();
            if !moved && !over {
                eprintln!("stuck at ply {ply} after {fault:?}: {r:?}");
                return false;
            }
        }
        tally.plies += 1;
        last = Some(good);
    }
    false
}

fn soak(transport: &str, make: &dyn Fn(&Path, &Keys) -> Box<dyn Transport>) -> Tally {
    let games: usize = std::env::var("QIJUDGE_SOAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let mut tally = Tally::default();
    for n in 0..games {
        let root = tmp.path().join(format!("{transport}{n}"));
        std::fs::create_dir_all(&root).unwrap();
        let mut t = make(&root, &keys);
        let mut rng = Rng(0x5eed ^ (n as u64) << 8 ^ transport.len() as u64);
        let done = play(t.as_mut(), &keys, &mut rng, transport == "mail", &mut tally);
        tally.games += 1;
        if !done {
            tally.stuck += 1;
        } else {
            ok(&["verify", &t.dir().to_string_lossy()]);
        }
    }
    eprintln!("soak {transport}: {tally:?}");
    tally
}

/// A Xiangqi game on a 60:30 clock in `dir`.
fn new_clock_game(dir: &Path, keys: &Keys) {
    new_game("xiangqi", dir, keys, &["--clock", "60:30"]);
}

fn check(t: &Tally) {
    assert_eq!(t.stuck, 0, "{t:?}");
    assert!(t.faults.values().sum::<usize>() >= t.games, "{t:?}");
    assert_eq!(t.endings.values().sum::<usize>(), t.games, "{t:?}");
}

#[test]
fn soak_over_a_plain_folder() {
    let t = soak("folder", &|root, keys| {
        let dir = root.join("g");
        new_clock_game(&dir, keys);
        Box::new(Folder {
            dir,
            key: keys.path("judge"),
        })
    });
    check(&t);
}

#[test]
fn soak_over_e_mail() {
    let t = soak("mail", &|root, keys| {
        let dir = root.join("g");
        new_clock_game(&dir, keys);
        let spool = root.join("spool");
        std::fs::create_dir_all(&spool).unwrap();
        Box::new(Mail {
            dir,
            key: keys.path("judge"),
            spool,
            pending: Vec::new(),
            count: 0,
        })
    });
    check(&t);
}

#[test]
fn soak_over_git_in_ci_mode() {
    let t = soak("git", &|root, keys| {
        git(root, &["init", "-q", "-b", "main"]);
        git(root, &["config", "user.name", "soak"]);
        git(root, &["config", "user.email", "soak@example.org"]);
        git(root, &["config", "commit.gpgsign", "false"]);
        let dir = root.join("games/g1");
        new_clock_game(&dir, keys);
        git(root, &["add", "-A"]);
        git(root, &["commit", "-q", "-m", "new game"]);
        // The first judge run is a change like any other: make one to judge.
        git(root, &["commit", "-q", "--allow-empty", "-m", "start"]);
        Box::new(Git {
            root: root.to_path_buf(),
            dir,
            key: keys.path("judge"),
        })
    });
    check(&t);
}
