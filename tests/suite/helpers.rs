//! Running the binary and building game directories for tests.

use qijudge::games::luzhanqi::rules::random::SplitMix64;
use qijudge::games::luzhanqi::rules::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const SOUTH_ROWS: &str = "rows = [\n  \"CO CP LT CP BG\",\n  \"MJ . EN . MG\",\n  \"EN LT . CP GN\",\n  \"BM . CO . BM\",\n  \"FM BG MG LT MJ\",\n  \"LM FL LM EN LM\",\n]\n";
pub const NORTH_ROWS: &str = "rows = [\n  \"LT CP MJ CO EN\",\n  \"CP . BG . EN\",\n  \"GN MG . LT CP\",\n  \"BG . BM . MG\",\n  \"LM CO BM LT FM\",\n  \"EN FL LM LM MJ\",\n]\n";
pub const NOW: &str = "2026-11-21T12:00:00Z";

/// What a run of the binary did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn qj(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(args)
        .output()
        .expect("run qijudge");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs and insists on success.
pub fn ok(args: &[&str]) -> Run {
    let r = qj(args);
    assert_eq!(r.code, 0, "qijudge {}: {r:?}", args.join(" "));
    r
}

/// Every file below a directory with its bytes (the lock file aside).
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if !p.ends_with(".qijudge.lock") {
                out.insert(
                    p.strip_prefix(root).unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The files that changed between two snapshots other than by the judge setting a refused
/// candidate aside (moved, byte for byte, from `FOLDER/NAME` to `refused/FOLDER/...`). Also
/// returns how many files were set aside.
pub fn changed_but_set_aside(
    before: &BTreeMap<String, Vec<u8>>,
    after: &BTreeMap<String, Vec<u8>>,
) -> (Vec<String>, usize) {
    let mut changed = Vec::new();
    let mut moved = 0;
    for (k, v) in before {
        match after.get(k) {
            Some(w) if w == v => {}
            Some(_) => changed.push(k.clone()),
            None => {
                let folder = k.rsplit_once('/').map_or("", |(f, _)| f);
                let stem = k.rsplit('/').next().unwrap().split('.').next().unwrap();
                let aside = after.iter().any(|(a, w)| {
                    w == v
                        && !before.contains_key(a)
                        && a.starts_with(&format!("refused/{folder}/{stem}."))
                });
                match aside {
                    true => moved += 1,
                    false => changed.push(k.clone()),
                }
            }
        }
    }
    for k in after.keys() {
        if !before.contains_key(k) && !k.starts_with("refused/") {
            changed.push(k.clone());
        }
    }
    (changed, moved)
}

/// `who`'s SSH signature of `text` in namespace `ns`, as a player's (or a forger's) tool makes it.
pub fn sign_as(keys: &Keys, who: &str, ns: &str, text: &str) -> String {
    let key = ssh_key::PrivateKey::read_openssh_file(Path::new(&keys.path(who))).unwrap();
    qijudge::protocol::signing::sign(&key, ns, text.as_bytes())
}

/// A game folder's inputs: every file but the judge's outputs (views and record), which a
/// refused run still writes for what came before the refused file.
pub fn inputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut s = snapshot(dir);
    s.retain(|k, _| !k.starts_with("views/") && !k.starts_with("record."));
    s
}

/// Asserts that no input changed since `before` (taken with [`inputs`]) except refused
/// candidates set aside, and returns how many were.
pub fn assert_inputs_kept(before: &BTreeMap<String, Vec<u8>>, dir: &Path) -> usize {
    let (changed, moved) = changed_but_set_aside(before, &inputs(dir));
    assert!(
        changed.is_empty(),
        "a refused run changed inputs: {changed:?}"
    );
    moved
}

/// Asserts that the judge moved the refused candidate `rel` (and its signature) out of its place
/// into `refused/`, so its seat can send a corrected file there.
pub fn assert_set_aside(dir: &Path, rel: &str) {
    assert!(!dir.join(rel).exists(), "{rel} still holds its place");
    assert!(
        !dir.join(format!("{rel}.sig")).exists(),
        "{rel}.sig is left"
    );
    let (folder, name) = rel.split_once('/').unwrap();
    let stem = name.split('.').next().unwrap();
    let kept = std::fs::read_dir(dir.join("refused").join(folder))
        .map(|d| {
            d.filter_map(|e| e.ok()).any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!("{stem}."))
            })
        })
        .unwrap_or(false);
    assert!(kept, "{rel} is not kept in refused/{folder}/");
}

/// Keys for alice, bob and the judge, made once per test directory.
pub struct Keys {
    pub dir: PathBuf,
}

impl Keys {
    pub fn new(root: &Path) -> Keys {
        let dir = root.join("keys");
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["alice", "bob", "judge", "mallory"] {
            ok(&["keygen", &dir.join(name).to_string_lossy()]);
        }
        Keys { dir }
    }
    pub fn path(&self, name: &str) -> String {
        self.dir.join(name).to_string_lossy().into_owned()
    }
}

/// `qijudge new GAME DIR` with alice and bob as players, the judge's key, `--now NOW` and
/// `extra` arguments (`--rule`, `--clock`, `--sealed`).
pub fn new_game(game: &str, dir: &Path, keys: &Keys, extra: &[&str]) -> Run {
    let (alice, bob, judge) = (
        format!("alice={}.pub", keys.path("alice")),
        format!("bob={}.pub", keys.path("bob")),
        format!("{}.pub", keys.path("judge")),
    );
    let d = dir.to_string_lossy();
    let mut args = vec![
        "new", game, &d, "--player", &alice, "--player", &bob, "--judge", &judge, "--now", NOW,
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

/// `qijudge new GAME DIR --sealed` with alice and bob as players and the judge's key.
pub fn new_sealed(game: &str, dir: &Path, keys: &Keys) -> Run {
    new_game(game, dir, keys, &["--sealed"])
}

/// A game directory with helpers to play it through the binary.
pub struct TestGame {
    pub tmp: tempfile::TempDir,
    pub dir: PathBuf,
    pub keys: Keys,
}

impl TestGame {
    /// Keys and a manifest with the given `--rule` options.
    pub fn new(rules: &[&str]) -> TestGame {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let dir = tmp.path().join("game");
        let (alice, bob, judge) = (
            format!("alice={}.pub", keys.path("alice")),
            format!("bob={}.pub", keys.path("bob")),
            format!("{}.pub", keys.path("judge")),
        );
        let d = dir.to_string_lossy().into_owned();
        let mut args = vec![
            "new", "luzhanqi", &d, "--player", &alice, "--player", &bob, "--judge", &judge,
            "--now", NOW,
        ];
        let rule_args: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
        for r in &rule_args {
            args.push("--rule");
            args.push(r);
        }
        ok(&args);
        TestGame { tmp, dir, keys }
    }

    /// A sealed game (`new --sealed`) whose two seats have committed and sealed their setups.
    pub fn sealed() -> TestGame {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let dir = tmp.path().join("game");
        new_sealed("luzhanqi", &dir, &keys);
        let g = TestGame { tmp, dir, keys };
        g.setup("south", SOUTH_ROWS);
        g.setup("north", NORTH_ROWS);
        g
    }

    /// A game with both setups committed and judged: play can begin.
    pub fn started(rules: &[&str]) -> TestGame {
        let g = TestGame::new(rules);
        g.setup("south", SOUTH_ROWS);
        g.setup("north", NORTH_ROWS);
        ok(&[
            "judge",
            &g.d(),
            "--key",
            &g.keys.path("judge"),
            "--now",
            NOW,
        ]);
        g
    }

    pub fn d(&self) -> String {
        self.dir.to_string_lossy().into_owned()
    }

    /// Alice plays the first seat (south, red, a), Bob the other.
    pub fn key_of(seat: &str) -> &'static str {
        if matches!(seat, "south" | "red" | "a" | "first") {
            "alice"
        } else {
            "bob"
        }
    }

    pub fn setup(&self, seat: &str, text: &str) -> Run {
        let file = self.tmp.path().join(format!("{seat}-setup.toml"));
        std::fs::write(&file, text).unwrap();
        qj(&[
            "setup",
            &self.d(),
            "--as",
            seat,
            "--key",
            &self.keys.path(Self::key_of(seat)),
            &file.to_string_lossy(),
        ])
    }

    pub fn judge(&self) -> Run {
        self.judge_with(&[])
    }

    /// Judges with extra arguments (`--forfeit`, `--details`).
    pub fn judge_with(&self, extra: &[&str]) -> Run {
        let (d, key) = (self.d(), self.keys.path("judge"));
        let mut args = vec!["judge", d.as_str(), "--key", key.as_str(), "--now", NOW];
        args.extend_from_slice(extra);
        qj(&args)
    }

    /// Writes a signed move, without judging it and without `move`'s own check (the judge is
    /// what these tests try): a player's tool may send anything.
    pub fn send(&self, seat: &str, mv: &str) -> Run {
        self.send_with(seat, mv, &[])
    }

    /// Writes a signed move with extra arguments (`--offer-draw`, `--comment`).
    pub fn send_with(&self, seat: &str, mv: &str, extra: &[&str]) -> Run {
        let (d, key) = (self.d(), self.keys.path(Self::key_of(seat)));
        let mut args = vec![
            "move",
            d.as_str(),
            "--as",
            seat,
            "--key",
            key.as_str(),
            mv,
            "--no-check",
        ];
        args.extend_from_slice(extra);
        ok(&args)
    }

    /// Writes a signed move and judges it.
    pub fn play(&self, seat: &str, mv: &str) -> Run {
        self.send(seat, mv);
        self.judge()
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// The two fixed setups as validated setups.
pub fn fixed_setups() -> Vec<Setup> {
    let b = two_player();
    [SOUTH_ROWS, NORTH_ROWS]
        .iter()
        .enumerate()
        .map(|(i, t)| {
            Setup::validate(
                b,
                Seat(i as u8),
                &Placement::from_toml(t, b, Seat(i as u8)).unwrap(),
            )
            .unwrap()
        })
        .collect()
}

/// Random legal moves from the fixed setups (south first), stopping early if the game ends.
pub fn random_moves(setups: &[Setup], options: Options, plies: usize, seed: u64) -> Vec<String> {
    let b = two_player();
    let (mut p, _) = Position::start(b, options, setups, Seat(0));
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while p.result().is_none() && out.len() < plies {
        let moves = p.legal_moves();
        let m = moves[rng.below(moves.len())];
        out.push(m.display(b));
        p.play(m).unwrap();
    }
    out
}

pub fn seat_of_ply(ply: usize) -> &'static str {
    if ply % 2 == 1 {
        "south"
    } else {
        "north"
    }
}

/// A setup written square by square, as `qijudge setup` reads it.
pub fn setup_text(setup: &Setup) -> String {
    let b = two_player();
    setup
        .pieces
        .iter()
        .map(|(sq, p)| format!("{} = \"{}\"\n", b.name_of(*sq), p.english()))
        .collect()
}

/// Copies the shipped sample game into a temporary directory.
pub fn sample_copy() -> (tempfile::TempDir, PathBuf) {
    sample_copy_of("games/luzhanqi/sample")
}

/// Copies a shipped game folder (`games/GAME/sample`) into a temporary directory.
pub fn sample_copy_of(folder: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dst = tmp.path().join("sample");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    for (rel, bytes) in snapshot(&src) {
        let p = dst.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    (tmp, dst)
}

/// Fails when `text` shows a Rust `Debug` dump (a struct, an enum variant, an `Option`) instead
/// of a sentence.
pub fn assert_no_debug(what: &str, text: &str) {
    for pattern in [
        "Some(",
        "None,",
        "Error {",
        "Refusal {",
        "FormatError",
        "Os {",
        "kind: ",
        "Entry::",
        "Move {",
        "Io(",
        "Refused(",
    ] {
        assert!(
            !text.contains(pattern),
            "{what}: a Debug dump ({pattern}) reached the user: {text}"
        );
    }
}

/// Runs the test's mail maker (`tests/mail/eml.py`, Python's `email` package): see its help.
pub fn eml_py(args: &[&str]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail/eml.py");
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 runs (CI installs it)");
    assert!(
        out.status.success(),
        "eml.py {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs the binary with `input` on its standard input.
pub fn qj_stdin(args: &[&str], input: &[u8]) -> Run {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run qijudge");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: the binary may stop reading early (a refusal), which must not
    // block the test.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("run qijudge");
    writer.join().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Copies a folder (files and subfolders) to `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    for (rel, bytes) in snapshot(from) {
        let p = to.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

/// `qijudge setup DIR --as SEAT --key KEY FILE`, with `text` written to FILE beside DIR.
pub fn setup_with(dir: &Path, seat: &str, key: &str, text: &str) -> Run {
    let name = dir.file_name().unwrap().to_string_lossy();
    let file = dir.with_file_name(format!("{name}-{seat}-setup.toml"));
    std::fs::write(&file, text).unwrap();
    ok(&[
        "setup",
        &dir.to_string_lossy(),
        "--as",
        seat,
        "--key",
        key,
        &file.to_string_lossy(),
    ])
}

/// `qijudge new luzhanqi DIR` with alice (south) and bob (north) reachable by mail
/// (`alice@example.org`, `bob@example.org`), the judge's key and `--now NOW`, plus `extra`.
pub fn new_game_by_mail(dir: &Path, keys: &Keys, extra: &[&str]) -> Run {
    let (alice, bob, judge) = (
        format!("alice={}.pub=alice@example.org", keys.path("alice")),
        format!("bob={}.pub=bob@example.org", keys.path("bob")),
        format!("{}.pub", keys.path("judge")),
    );
    let d = dir.to_string_lossy();
    let mut args = vec![
        "new", "luzhanqi", &d, "--player", &alice, "--player", &bob, "--judge", &judge, "--now",
        NOW,
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

/// `qijudge new KIND DIR` with two players (red first) whose keys are `KEYS/NAME` and whose
/// addresses are `NAME@example.org`, judged by `KEYS/judge`.
pub fn new_mail_game(kind: &str, dir: &Path, keys: &Path, red: &str, black: &str) {
    new_mail_game_with(kind, dir, keys, red, black, &[]);
}

/// [`new_mail_game`] with more options for `new`.
pub fn new_mail_game_with(
    kind: &str,
    dir: &Path,
    keys: &Path,
    red: &str,
    black: &str,
    more: &[&str],
) {
    let p = |w: &str| format!("{w}={}.pub={w}@example.org", keys.join(w).display());
    let judge = format!("{}.pub", keys.join("judge").display());
    let dir = dir.to_string_lossy();
    let (red, black) = (p(red), p(black));
    let mut args = vec![
        "new", kind, &dir, "--player", &red, "--player", &black, "--judge", &judge, "--now", NOW,
    ];
    args.extend_from_slice(more);
    ok(&args);
}

/// The seat to move and its moves as `qijudge moves` lists them: the first of `seats` whose
/// list is not empty; none when nobody may move.
pub fn to_move<'a>(d: &str, seats: &[&'a str]) -> Option<(&'a str, Vec<String>)> {
    seats.iter().find_map(|&seat| {
        let r = qj(&["moves", d, "--as", seat]);
        (r.code == 0 && !r.stdout.trim().is_empty())
            .then(|| (seat, r.stdout.lines().map(str::to_string).collect()))
    })
}

/// The shipped sample games of `game`, as paths from the repository: `games/GAME/sample*`, or
/// for a game built only into the tests (the toy of `--features toy-game`),
/// `tests/data/GAME/sample*`.
pub fn samples_of(game: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for folder in [format!("games/{game}"), format!("tests/data/{game}")] {
        let Ok(entries) = std::fs::read_dir(root.join(&folder)) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("sample") && e.path().join("game.toml").is_file() {
                found.push(format!("{folder}/{name}"));
            }
        }
        if !found.is_empty() {
            break;
        }
    }
    found.sort();
    found
}

/// The moves of a game folder's record, as recorded (`h2e2`, `b2b9=R`, `resign`), in order.
pub fn recorded_moves(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("record.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["entry"]["kind"] == "move")
        .map(|v| v["entry"]["move"].as_str().unwrap_or_default().to_string())
        .collect()
}
