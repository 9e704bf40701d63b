//! Play via git, end to end with the real `git`: sealed setups and signed moves committed by the
//! players through the shipped pre-commit hook, the judge's CI mode on each change, and the
//! shipped pre-receive hook on a server; legal moves pass, an illegal, a forged, a stale and a
//! history-rewriting change are refused, and no blob of the history shows a secret in clear.

use super::helpers::*;
use qijudge::games::luzhanqi::rules::Options;
use qijudge::protocol::signing;
use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("QIJUDGE", env!("CARGO_BIN_EXE_qijudge"))
        .output()
        .expect("git must be installed (.ci/run installs it)");
    assert!(
        out.status.success(),
        "git {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A commit that runs the pre-commit hook with the player's key; its exit code and stderr.
fn commit_as(repo: &Path, key: &str, message: &str) -> (i32, String) {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["commit", "-q", "-m", message])
        .env("QIJUDGE", env!("CARGO_BIN_EXE_qijudge"))
        .env("QIJUDGE_KEY", key)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout),
    )
}

struct Repo {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    game: PathBuf,
    keys: Keys,
}

impl Repo {
    fn g(&self) -> String {
        self.game.to_string_lossy().into_owned()
    }

    fn head(&self) -> String {
        git(&self.root, &["rev-parse", "HEAD"]).trim().to_string()
    }

    /// The judge's CI run on what changed since `base`.
    fn ci(&self, base: &str) -> Run {
        qj(&[
            "judge",
            &self.g(),
            "--key",
            &self.keys.path("judge"),
            "--now",
            NOW,
            "--ci",
            "--base",
            base,
            "--format",
            "github",
        ])
    }

    /// A player's change accepted by the CI run, whose outputs are then committed.
    fn land(&self, base: &str) {
        let r = self.ci(base);
        assert_eq!(r.code, 0, "{r:?}");
        // What the judge wrote, and nothing a player left uncommitted.
        git(
            &self.root,
            &[
                "add",
                "-A",
                "games/g1/record.jsonl",
                "games/g1/record.sig",
                "games/g1/views",
            ],
        );
        let status = git(&self.root, &["status", "--short"]);
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args(["commit", "-q", "--no-verify", "-m", "judge"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{status} {r:?} {out:?}");
    }

    /// Writes a move with `qijudge move` (unchecked: the hook is under test) and commits it
    /// through the hook.
    fn commit_move(&self, seat: &str, mv: &str) -> (i32, String) {
        let key = self.keys.path(TestGame::key_of(seat));
        ok(&[
            "move",
            &self.g(),
            "--as",
            seat,
            "--key",
            &key,
            mv,
            "--no-check",
        ]);
        git(&self.root, &["add", "-A"]);
        commit_as(&self.root, &key, mv)
    }

    /// An illegal move for `ply`: the hook stops it; forced past the hook, the CI mode refuses it
    /// with an annotation on the file. The change is then dropped.
    fn illegal_move_is_stopped(&self, seat: &str, mv: &str, ply: u32) {
        let base = self.head();
        let (code, out) = self.commit_move(seat, mv);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("field move"), "{out}");
        git(
            &self.root,
            &["commit", "-q", "--no-verify", "-m", "illegal"],
        );
        let refused = self.ci(&base);
        assert_eq!(refused.code, 1, "{refused:?}");
        assert!(
            refused
                .stdout
                .contains(&format!("::error file=games/g1/moves/{ply:04}-{seat}.toml")),
            "{refused:?}"
        );
        self.drop_last();
    }

    /// Moves the sealed setups out of the working tree (a player keeps them until the judge
    /// has recorded every commitment); returns where they are.
    fn hold_sealed(&self) -> PathBuf {
        let held = self._tmp.path().join("held-sealed");
        std::fs::rename(self.game.join("sealed"), &held).unwrap();
        held
    }

    /// Both seats commit and seal their setups (`setup --seal`); nothing is written in clear.
    fn seal_setups(&self) {
        for (seat, rows) in [("south", SOUTH_ROWS), ("north", NORTH_ROWS)] {
            let file = self._tmp.path().join(format!("{seat}-setup.toml"));
            std::fs::write(&file, rows).unwrap();
            let key = self.keys.path(TestGame::key_of(seat));
            let g = self.g();
            let out = ok(&[
                "setup",
                &g,
                "--as",
                seat,
                "--key",
                &key,
                "--seal",
                file.to_str().unwrap(),
            ]);
            assert!(out.stdout.contains("sealed/"), "{out:?}");
        }
        assert!(
            !self.game.join("setups").exists(),
            "no clear setup is written"
        );
    }

    /// Drops the last commit and any file it left (a pull request that is not merged).
    fn drop_last(&self) {
        git(&self.root, &["reset", "-q", "--hard", "HEAD~1"]);
        git(&self.root, &["clean", "-q", "-fd"]);
    }
}

fn sealed_repo() -> Repo {
    sealed_repo_of("luzhanqi")
}

/// A repository holding one new sealed game of `kind`, committed through the hook.
fn sealed_repo_of(kind: &str) -> Repo {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let root = tmp.path().join("repo");
    std::fs::create_dir(&root).unwrap();
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["config", "user.name", "test"]);
    git(&root, &["config", "user.email", "test@example.org"]);
    let hook = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/git-hooks/pre-commit");
    std::fs::copy(&hook, root.join(".git/hooks/pre-commit")).unwrap();
    let game = root.join("games/g1");
    let r = Repo {
        _tmp: tmp,
        root,
        game,
        keys,
    };
    new_sealed(kind, &r.game, &r.keys);
    git(&r.root, &["add", "-A"]);
    let (code, out) = commit_as(&r.root, &r.keys.path("alice"), "new game");
    assert_eq!(code, 0, "{out}");
    r
}

/// A sealed repository whose commitments have landed, with both seats' sealed setups held
/// aside (in the returned folder), not yet committed.
fn committed_sealed_repo() -> (Repo, PathBuf) {
    let r = sealed_repo();
    r.seal_setups();
    let base = r.head();
    let held = r.hold_sealed();
    git(&r.root, &["add", "games/g1/commitments"]);
    git(&r.root, &["commit", "-q", "--no-verify", "-m", "c"]);
    r.land(&base);
    (r, held)
}

/// A sealed repository whose commitments, then sealed setups, have landed: play begins.
fn started_sealed_repo() -> Repo {
    let (r, held) = committed_sealed_repo();
    let base = r.head();
    std::fs::rename(held, r.game.join("sealed")).unwrap();
    git(&r.root, &["add", "-A"]);
    git(&r.root, &["commit", "-q", "--no-verify", "-m", "s"]);
    r.land(&base);
    r
}

/// Every blob ever committed, as text.
fn all_blobs(repo: &Path) -> Vec<(String, Vec<u8>)> {
    let list = git(repo, &["rev-list", "--objects", "--all"]);
    let mut blobs = Vec::new();
    for line in list.lines() {
        let (id, path) = line.split_once(' ').unwrap_or((line, ""));
        if git(repo, &["cat-file", "-t", id]).trim() == "blob" {
            let out = Command::new("git")
                .arg("-C")
                .arg(repo)
                .args(["cat-file", "-p", id])
                .output()
                .unwrap();
            blobs.push((path.to_string(), out.stdout));
        }
    }
    blobs
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn a_sealed_game_played_through_git_hooks_and_the_ci_mode() {
    let r = sealed_repo();
    r.seal_setups();
    assert!(!r.game.join("setups").exists(), "no clear setup is written");

    // Two-phase start: sealed setups pushed with the commitments are refused.
    let base = r.head();
    git(&r.root, &["add", "-A"]);
    assert_eq!(
        commit_as(&r.root, &r.keys.path("alice"), "all at once").0,
        1
    );
    git(
        &r.root,
        &["commit", "-q", "--no-verify", "-m", "all at once"],
    );
    let refused = r.ci(&base);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(
        refused.stdout.contains("::error file=games/g1/sealed/")
            && refused.stdout.contains("every seat's commitment"),
        "{refused:?}"
    );
    git(&r.root, &["reset", "-q", "--soft", "HEAD~1"]);
    git(&r.root, &["reset", "-q"]);

    // Commitments first, then the sealed setups (held back until the record lists both).
    let held = r.hold_sealed();
    git(&r.root, &["add", "games/g1/commitments"]);
    let (code, out) = commit_as(&r.root, &r.keys.path("alice"), "commitments");
    assert_eq!(code, 0, "{out}");
    r.land(&base);
    let base = r.head();
    std::fs::rename(held, r.game.join("sealed")).unwrap();
    git(&r.root, &["add", "games/g1/sealed"]);
    let (code, out) = commit_as(&r.root, &r.keys.path("bob"), "sealed setups");
    assert_eq!(code, 0, "{out}");
    r.land(&base);
    assert!(r.game.join("views/south.age").exists());
    assert!(!r.game.join("views/south.json").exists());

    // Legal moves, each through the hook and the CI mode.
    let moves = random_moves(&fixed_setups(), Options::default(), 6, 7);
    for (i, mv) in moves.iter().enumerate() {
        let base = r.head();
        let (code, out) = r.commit_move(seat_of_ply(i + 1), mv);
        assert_eq!(code, 0, "ply {}: {out}", i + 1);
        r.land(&base);
    }
    let ply = moves.len() as u32 + 1;
    let seat = seat_of_ply(ply as usize);
    let key_path = r.keys.path(TestGame::key_of(seat));

    // An illegal move (a landmine does not move).
    let mine = if seat == "south" { "a1-a2" } else { "a12-a11" };
    r.illegal_move_is_stopped(seat, mine, ply);

    // A forged move: signed by another key.
    let base = r.head();
    let legal = random_moves(&fixed_setups(), Options::default(), 7, 7)[6].clone();
    ok(&["move", &r.g(), "--as", seat, "--key", &key_path, &legal]);
    let path = r.game.join(format!("moves/{ply:04}-{seat}.toml"));
    let mallory =
        signing::parse_private_key(&std::fs::read_to_string(r.keys.path("mallory")).unwrap())
            .unwrap();
    let text = std::fs::read(&path).unwrap();
    std::fs::write(
        path.with_extension("toml.sig"),
        signing::sign(&mallory, signing::namespace::MOVE, &text),
    )
    .unwrap();
    git(&r.root, &["add", "-A"]);
    assert_eq!(commit_as(&r.root, &key_path, "forged").0, 1);
    git(&r.root, &["commit", "-q", "--no-verify", "-m", "forged"]);
    let refused = r.ci(&base);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stdout.contains(".toml.sig"), "{refused:?}");
    r.drop_last();

    // A stale move: it answers the record head before the last ply.
    let base = r.head();
    ok(&["move", &r.g(), "--as", seat, "--key", &key_path, &legal]);
    let current = std::fs::read_to_string(&path).unwrap();
    let record = std::fs::read_to_string(r.game.join("record.jsonl")).unwrap();
    // The head before the last line is that line's `prev`.
    let old_head = record
        .lines()
        .last()
        .and_then(|l| l.split("\"prev\":\"").nth(1))
        .and_then(|h| h.split('"').next())
        .unwrap()
        .to_string();
    let answers = current
        .lines()
        .find(|l| l.starts_with("answers = "))
        .unwrap();
    let stale = current.replace(answers, &format!("answers = \"{old_head}\""));
    assert_ne!(stale, current);
    let alice_or_bob =
        signing::parse_private_key(&std::fs::read_to_string(&key_path).unwrap()).unwrap();
    std::fs::write(&path, &stale).unwrap();
    std::fs::write(
        path.with_extension("toml.sig"),
        signing::sign(&alice_or_bob, signing::namespace::MOVE, stale.as_bytes()),
    )
    .unwrap();
    git(&r.root, &["add", "-A"]);
    let (code, out) = commit_as(&r.root, &key_path, "stale");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("stale"), "{out}");
    git(&r.root, &["commit", "-q", "--no-verify", "-m", "stale"]);
    let refused = r.ci(&base);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stdout.contains("answers"), "{refused:?}");
    r.drop_last();

    // Rewriting history: a change to an accepted move, and a record rolled back.
    let base = r.head();
    let first = r.game.join("moves/0001-south.toml");
    let mut text = std::fs::read_to_string(&first).unwrap();
    text.push_str("# edited\n");
    std::fs::write(&first, text).unwrap();
    git(
        &r.root,
        &["commit", "-q", "-a", "--no-verify", "-m", "edit"],
    );
    let refused = r.ci(&base);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stdout.contains("append-only"), "{refused:?}");
    r.drop_last();
    let old_record = git(&r.root, &["show", "HEAD~2:games/g1/record.jsonl"]);
    let old_sig = git(&r.root, &["show", "HEAD~2:games/g1/record.sig"]);
    std::fs::write(r.game.join("record.jsonl"), old_record).unwrap();
    std::fs::write(r.game.join("record.sig"), old_sig).unwrap();
    git(
        &r.root,
        &["commit", "-q", "-a", "--no-verify", "-m", "rollback"],
    );
    let refused = r.ci(&base);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stdout.contains("does not extend"), "{refused:?}");
    r.drop_last();

    // The legal move lands; each player reads its own sealed view, and only its own.
    let base = r.head();
    let (code, out) = r.commit_move(seat, &legal);
    assert_eq!(code, 0, "{out}");
    r.land(&base);
    let view = ok(&[
        "view",
        &r.g(),
        "--as",
        "south",
        "--key",
        &r.keys.path("alice"),
    ]);
    assert!(view.stdout.contains("view for south"), "{view:?}");
    let wrong = qj(&[
        "view",
        &r.g(),
        "--as",
        "south",
        "--key",
        &r.keys.path("bob"),
    ]);
    assert_eq!(wrong.code, 1);

    // Nothing in the history shows a setup or a seat's view in clear.
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("g");
    std::fs::create_dir(&copy).unwrap();
    for (rel, bytes) in snapshot(&r.game) {
        let to = copy.join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, bytes).unwrap();
    }
    let copy_s = copy.to_string_lossy().into_owned();
    ok(&[
        "move",
        &copy_s,
        "--as",
        seat_of_ply(ply as usize + 1),
        "--key",
        &r.keys.path(TestGame::key_of(seat_of_ply(ply as usize + 1))),
        "resign",
    ]);
    ok(&[
        "judge",
        &copy_s,
        "--key",
        &r.keys.path("judge"),
        "--now",
        NOW,
    ]);
    ok(&["reveal", &copy_s, "--key", &r.keys.path("judge")]);
    ok(&["verify", &copy_s]);
    let mut secrets = Vec::new();
    for seat in ["south", "north"] {
        let reveal = std::fs::read_to_string(copy.join(format!("reveal/{seat}.toml"))).unwrap();
        for field in ["salt", "lot_nonce", "setup"] {
            let line = reveal
                .lines()
                .find(|l| l.starts_with(&format!("{field} = ")))
                .unwrap();
            secrets.push(line.split('"').nth(1).unwrap().to_string());
        }
    }
    let blobs = all_blobs(&r.root);
    assert!(blobs.len() > 40, "{}", blobs.len());
    for (path, bytes) in &blobs {
        for s in &secrets {
            assert!(!contains(bytes, s), "{path} holds a secret in clear");
        }
        for clear in [
            "\"audience\": \"south\"",
            "\"audience\": \"north\"",
            "qijudge-sealed 1",
        ] {
            assert!(!contains(bytes, clear), "{path} holds {clear:?}");
        }
    }
}

#[test]
fn the_pre_receive_hook_refuses_an_illegal_push_and_takes_a_legal_one() {
    let r = started_sealed_repo();

    // The server: a bare clone with the shipped pre-receive hook and the judge's key.
    let server = r._tmp.path().join("server.git");
    let out = Command::new("git")
        .args(["clone", "-q", "--bare"])
        .arg(&r.root)
        .arg(&server)
        .output()
        .unwrap();
    assert!(out.status.success());
    let hook = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/git-hooks/pre-receive");
    std::fs::copy(&hook, server.join("hooks/pre-receive")).unwrap();
    git(
        &r.root,
        &["remote", "add", "server", &server.to_string_lossy()],
    );
    let push = |what: &str| {
        Command::new("git")
            .arg("-C")
            .arg(&r.root)
            .args(["push", "-q", "server", what])
            .env("QIJUDGE", env!("CARGO_BIN_EXE_qijudge"))
            .env("QIJUDGE_JUDGE_KEY", r.keys.path("judge"))
            .output()
            .unwrap()
    };

    let (code, out) = r.commit_move("south", "a1-a2");
    assert_eq!(code, 1, "{out}");
    git(&r.root, &["commit", "-q", "--no-verify", "-m", "illegal"]);
    let pushed = push("HEAD:main");
    assert!(!pushed.status.success(), "an illegal move was pushed");
    assert!(
        String::from_utf8_lossy(&pushed.stderr).contains("push refused"),
        "{}",
        String::from_utf8_lossy(&pushed.stderr)
    );
    r.drop_last();

    let mv = random_moves(&fixed_setups(), Options::default(), 1, 3)[0].clone();
    let (code, out) = r.commit_move("south", &mv);
    assert_eq!(code, 0, "{out}");
    let pushed = push("HEAD:main");
    assert!(
        pushed.status.success(),
        "{}",
        String::from_utf8_lossy(&pushed.stderr)
    );
}

#[test]
fn precheck_refuses_a_move_out_of_turn_or_for_a_later_ply() {
    let g = TestGame::sealed();
    assert_eq!(g.judge().code, 0);
    let (d, dir, keys) = (g.d(), &g.dir, &g.keys);
    let precheck = |key: &str| qj(&["precheck", &d, "--key", &keys.path(key)]);

    g.send("north", "a7-a8");
    let r = precheck("bob");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("not this seat's turn"), "{r:?}");
    std::fs::remove_dir_all(dir.join("moves")).unwrap();

    // South's move renamed and re-signed for ply 2.
    let mv = random_moves(&fixed_setups(), Options::default(), 1, 5)[0].clone();
    g.send("south", &mv);
    let ok_run = ok(&["precheck", &d, "--key", &keys.path("alice")]);
    assert!(ok_run.stdout.contains("legal on your view"), "{ok_run:?}");
    let text = std::fs::read_to_string(dir.join("moves/0001-south.toml"))
        .unwrap()
        .replace("ply = 1", "ply = 2");
    std::fs::remove_dir_all(dir.join("moves")).unwrap();
    std::fs::create_dir(dir.join("moves")).unwrap();
    let alice =
        signing::parse_private_key(&std::fs::read_to_string(keys.path("alice")).unwrap()).unwrap();
    std::fs::write(dir.join("moves/0002-south.toml"), &text).unwrap();
    std::fs::write(
        dir.join("moves/0002-south.toml.sig"),
        signing::sign(&alice, signing::namespace::MOVE, text.as_bytes()),
    )
    .unwrap();
    let r = precheck("alice");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("the next ply is 1"), "{r:?}");
}

/// An illegal move merged anyway (the pull request check has no key) used to block both
/// players. Now the judge in CI sets it aside into refused/ and seals the reason to its seat;
/// the workflow commits that like any output, the judge's commit passes the CI rules, and the
/// corrected move lands on the same ply.
#[test]
fn an_illegal_move_merged_anyway_is_set_aside_and_the_seat_learns_why() {
    let r = started_sealed_repo();

    // South's move onto its own piece, merged without the hook.
    let base = r.head();
    let key = r.keys.path("alice");
    ok(&[
        "move",
        &r.g(),
        "--as",
        "south",
        "--key",
        &key,
        "a6-b6",
        "--no-check",
    ]);
    git(&r.root, &["add", "-A"]);
    git(&r.root, &["commit", "-q", "--no-verify", "-m", "merged"]);
    let refused = r.ci(&base);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stdout.contains("::error"), "{refused:?}");
    assert_set_aside(&r.game, "moves/0001-south.toml");
    // What the workflow commits: everything the judge wrote, the move set aside included.
    let before_judge = r.head();
    git(&r.root, &["add", "-A"]);
    git(&r.root, &["commit", "-q", "--no-verify", "-m", "judge"]);
    let changed = git(
        &r.root,
        &["show", "--name-status", "--no-renames", "--format=", "HEAD"],
    );
    assert!(
        changed.contains("D\tgames/g1/moves/0001-south.toml")
            && changed.contains("A\tgames/g1/refused/moves/0001-south.")
            && changed.contains("A\tgames/g1/views/south.refusal.age"),
        "{changed}"
    );
    // The judge's own commit passes the rules (a pre-receive hook checks it too); the same
    // change from anyone else is an eviction, refused.
    let stranger = r.ci(&before_judge);
    assert_eq!(stranger.code, 1, "{stranger:?}");
    assert!(stranger.stderr.contains("a refused file"), "{stranger:?}");
    let own = qj(&[
        "judge",
        &r.g(),
        "--key",
        &r.keys.path("judge"),
        "--now",
        NOW,
        "--ci",
        "--base",
        &before_judge,
        "--judge-commit",
    ]);
    assert_eq!(own.code, 0, "{own:?}");
    // South reads why, with its key only.
    let view = ok(&["view", &r.g(), "--as", "south", "--key", &key]);
    assert!(
        view.stderr.contains("your last file was refused") && view.stderr.contains("b6"),
        "{view:?}"
    );
    let bob = qj(&[
        "view",
        &r.g(),
        "--as",
        "north",
        "--key",
        &r.keys.path("bob"),
    ]);
    assert!(!bob.stderr.contains("refused"), "{bob:?}");
    // The corrected move takes ply 1.
    let base = r.head();
    let (code, out) = r.commit_move("south", "a6-a7");
    assert_eq!(code, 0, "{out}");
    r.land(&base);
    assert!(std::fs::read_to_string(r.game.join("record.jsonl"))
        .unwrap()
        .contains("\"ply\":1"));
    assert!(!r.game.join("views/south.refusal.age").exists());
}

/// What the hostile review pushed past the CI mode: files outside the game folder (a workflow, a
/// root `.gitattributes` that breaks every checkout), a view in the judge's name, a changed
/// manifest and a force-push. Each is refused with exit 1 and one sentence.
#[test]
fn ci_refuses_what_only_the_owner_or_the_judge_may_change() {
    let r = started_sealed_repo();
    let refused = |base: &str, needle: &str| {
        let run = r.ci(base);
        assert_eq!(run.code, 1, "{needle}: {run:?}");
        assert!(run.stderr.contains(needle), "{needle}: {run:?}");
        assert_no_debug(needle, &run.stderr);
        assert_no_debug(needle, &run.stdout);
    };
    let change = |rel: &str, text: &str| {
        let path = r.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        git(&r.root, &["add", "-A"]);
        git(&r.root, &["commit", "-q", "--no-verify", "-m", rel]);
    };
    let base = r.head();
    // A player's pre-commit check (staged changes) refuses an outside file too.
    std::fs::write(r.root.join(".gitattributes"), "* text eol=crlf\n").unwrap();
    git(&r.root, &["add", ".gitattributes"]);
    let staged = qj(&["precheck", &r.g(), "--staged"]);
    assert_eq!(staged.code, 1, "{staged:?}");
    assert!(
        staged.stderr.contains("outside every game folder"),
        "{staged:?}"
    );
    git(&r.root, &["rm", "-q", "--cached", ".gitattributes"]);
    std::fs::remove_file(r.root.join(".gitattributes")).unwrap();
    for (rel, text) in [
        (".gitattributes", "* text eol=crlf\n"),
        (".github/workflows/qijudge.yml", "on: push\n"),
    ] {
        change(rel, text);
        refused(&base, "outside every game folder");
        r.drop_last();
    }
    change(
        "games/g1/views/bob-resigned.txt",
        "north resigned; south wins\n",
    );
    refused(&base, "is no file the judge writes");
    r.drop_last();
    change("games/g1/views/public.txt", "north resigned; south wins\n");
    refused(&base, "only the judge writes views/");
    r.drop_last();
    let manifest = std::fs::read_to_string(r.game.join("game.toml")).unwrap();
    change("games/g1/game.toml", &manifest.replace("bob", "eve"));
    refused(&base, "the manifest never changes");
    r.drop_last();
    // A force-push: the new head does not descend from the published one.
    change("games/g1/notes.txt", "x");
    let pushed = r.head();
    git(&r.root, &["reset", "-q", "--hard", "HEAD~2"]);
    change("games/g1/other.txt", "y");
    refused(&pushed, "rewrites history");
    git(&r.root, &["reset", "-q", "--hard", &base]);
    // The owner's allow-list (committed by the owner, outside any check) lets docs change.
    change(".qijudge-allow", "# the site\ndocs/\n");
    let base = r.head();
    change("docs/rules.md", "# house rules\n");
    let run = r.ci(&base);
    assert_eq!(run.code, 0, "{run:?}");
    change("docs-old/rules.md", "x");
    refused(&base, "outside every game folder");
}

/// A game of shuffle nonces played through git: the nonces sealed to the judge and published
/// only after both commitments are recorded, `plies` moves through the hook and the CI mode
/// (the `pick`-th legal move each), `illegal` stopped by both, a resignation, and no nonce in
/// clear anywhere in the history before the reveal; the reveal recomputes the layout.
fn a_sealed_nonce_game_is_played_through_git(
    kind: &str,
    seats: [&str; 2],
    plies: usize,
    pick: usize,
    illegal: &str,
) {
    let r = sealed_repo_of(kind);
    for (seat, who) in seats.into_iter().zip(["alice", "bob"]) {
        let out = ok(&["setup", &r.g(), "--as", seat, "--key", &r.keys.path(who)]);
        assert!(out.stdout.contains("sealed/"), "{out:?}");
    }
    assert!(!r.game.join("setups").exists(), "no clear nonce is written");
    let base = r.head();
    let held = r.hold_sealed();
    git(&r.root, &["add", "games/g1/commitments"]);
    let (code, out) = commit_as(&r.root, &r.keys.path("alice"), "commitments");
    assert_eq!(code, 0, "{out}");
    r.land(&base);
    let base = r.head();
    std::fs::rename(held, r.game.join("sealed")).unwrap();
    git(&r.root, &["add", "games/g1/sealed"]);
    let (code, out) = commit_as(&r.root, &r.keys.path("bob"), "sealed nonces");
    assert_eq!(code, 0, "{out}");
    r.land(&base);
    // Nothing in these views is secret in a sealed game: they are published as they are.
    assert!(r.game.join(format!("views/{}.json", seats[0])).exists());

    let status = |g: &str| -> serde_json::Value {
        serde_json::from_str(&ok(&["status", g, "--json", "--now", NOW]).stdout).unwrap()
    };
    for ply in 1..=plies {
        let seat = status(&r.g())["to_move"].as_str().unwrap().to_string();
        let moves = ok(&["moves", &r.g(), "--as", &seat]).stdout;
        let moves: Vec<&str> = moves.lines().collect();
        let base = r.head();
        let (code, out) = r.commit_move(&seat, moves[(ply * pick) % moves.len()]);
        assert_eq!(code, 0, "ply {ply}: {out}");
        r.land(&base);
    }
    let seat = status(&r.g())["to_move"].as_str().unwrap().to_string();
    r.illegal_move_is_stopped(&seat, illegal, plies as u32 + 1);

    // The seat resigns; the judge reveals both nonces; the layout is recomputed.
    let base = r.head();
    let (code, out) = r.commit_move(&seat, "resign");
    assert_eq!(code, 0, "{out}");
    r.land(&base);
    let blobs = all_blobs(&r.root);
    ok(&["reveal", &r.g(), "--key", &r.keys.path("judge")]);
    let v = ok(&["verify", &r.g()]);
    assert!(
        v.stdout.contains("the layout they give matches all"),
        "{v:?}"
    );
    for seat in seats {
        let reveal = std::fs::read_to_string(r.game.join(format!("reveal/{seat}.toml"))).unwrap();
        let nonce = reveal
            .lines()
            .find_map(|l| l.strip_prefix("nonce = \""))
            .unwrap()
            .trim_end_matches('"')
            .to_string();
        assert_eq!(nonce.len(), 64);
        for (path, bytes) in &blobs {
            assert!(
                !contains(bytes, &nonce),
                "{path} holds {seat}'s nonce in clear"
            );
        }
    }
}

/// Jieqi through git (captured pieces stay unknown in a sealed game); the illegal move: no
/// general goes five points.
#[test]
fn a_sealed_jieqi_game_is_played_through_git() {
    a_sealed_nonce_game_is_played_through_git("jieqi", ["red", "black"], 12, 3, "e0e5");
}

/// Banqi through git (its views hold nothing secret); the illegal turn: no piece moves two
/// squares.
#[test]
fn a_sealed_banqi_game_is_played_through_git() {
    a_sealed_nonce_game_is_played_through_git("banqi", ["first", "second"], 10, 5, "a1a3");
}

/// The review's findings on a repository's history and its sealed files: a setup in clear that
/// one commit adds and the next removes; a stranger's junk `sealed/north.age` (alone, or with
/// south's signature under north's name); a seat's refusal note deleted by someone else; a file
/// name that is not UTF-8. Each is refused with exit 1 naming the file; the seats' own sealed
/// secrets, signed by them, pass.
#[test]
fn ci_checks_every_commit_and_who_sealed_what() {
    let (r, held) = committed_sealed_repo();
    let base = r.head();
    let refused = |needle: &str| {
        let run = r.ci(&base);
        assert_eq!(run.code, 1, "{needle}: {run:?}");
        assert!(run.stderr.contains(needle), "{needle}: {run:?}");
        git(&r.root, &["reset", "-q", "--hard", &base]);
        git(&r.root, &["clean", "-q", "-fdx"]);
    };
    let commit = |msg: &str| {
        git(&r.root, &["add", "-A"]);
        git(&r.root, &["commit", "-q", "--no-verify", "-m", msg]);
    };
    // A setup in clear, then removed: the tree is clean, the history is not.
    std::fs::create_dir_all(r.game.join("setups")).unwrap();
    std::fs::write(r.game.join("setups/south.toml"), SOUTH_ROWS).unwrap();
    git(&r.root, &["add", "-f", "games/g1/setups/south.toml"]);
    git(&r.root, &["commit", "-q", "--no-verify", "-m", "oops"]);
    git(&r.root, &["rm", "-q", "games/g1/setups/south.toml"]);
    git(&r.root, &["commit", "-q", "--no-verify", "-m", "undo"]);
    refused("a setup in clear, added by commit");
    // A stranger's junk envelope for north: alone, then with south's signature renamed.
    std::fs::create_dir_all(r.game.join("sealed")).unwrap();
    std::fs::write(r.game.join("sealed/north.age"), b"junk").unwrap();
    commit("junk");
    refused("comes without its other half");
    std::fs::create_dir_all(r.game.join("sealed")).unwrap();
    std::fs::copy(held.join("south.age"), r.game.join("sealed/north.age")).unwrap();
    std::fs::copy(
        held.join("south.age.sig"),
        r.game.join("sealed/north.age.sig"),
    )
    .unwrap();
    commit("south's as north's");
    refused("is not north's signature");
    // A name that is not UTF-8 (Linux allows any bytes).
    use std::os::unix::ffi::OsStrExt;
    let odd = std::ffi::OsStr::from_bytes(b"games/g1/moves/\xff.toml");
    std::fs::create_dir_all(r.game.join("moves")).unwrap();
    std::fs::write(r.root.join(odd), b"x").unwrap();
    commit("odd");
    refused("not UTF-8");
    // The seats' own envelopes, each with its seat's signature, pass; play begins.
    std::fs::rename(&held, r.game.join("sealed")).unwrap();
    commit("sealed");
    r.land(&base);
    assert!(std::fs::read_to_string(r.game.join("record.jsonl"))
        .unwrap()
        .contains("setup_accepted"));
}
