//! What a hostile review found, kept as a regression suite: whoever can write into a game folder
//! (a shared folder, a repository) or run next to the judge must not be able to steer it, lose
//! a file, roll the game back, learn a secret from what the judge keeps, or speak in its name.

use super::helpers::*;
use qijudge::protocol::seal;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs two qijudge commands at the same time; their results in order.
fn at_once(a: &[&str], b: &[&str]) -> (Run, Run) {
    let spawn = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_qijudge"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (pa, pb) = (spawn(a), spawn(b));
    let run = |p: std::process::Child| {
        let out = p.wait_with_output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    };
    (run(pa), run(pb))
}

#[test]
fn a_staging_plan_someone_else_left_is_never_followed() {
    let g = TestGame::started(&[]);
    let precious = g.tmp.path().join("precious");
    std::fs::write(&precious, "keep").unwrap();
    g.write(".qijudge-staging/0", "evil");
    g.write(
        ".qijudge-staging/PLAN",
        &format!(
            "delete - {}\nput 0 ../escaped\nput 0 game.toml\n",
            precious.display()
        ),
    );
    let manifest = g.read("game.toml");
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("not written by qijudge"), "{r:?}");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep");
    assert!(!g.tmp.path().join("escaped").exists());
    assert_eq!(g.read("game.toml"), manifest);
    // Nothing is lost: the plan is kept apart, and the next run goes on.
    let aside: Vec<_> = std::fs::read_dir(g.dir.join("refused"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(aside.len(), 1);
    assert!(aside[0].join("PLAN").exists());
    assert_eq!(g.judge().code, 0);
}

#[test]
fn two_of_each_writing_command_at_once_leave_a_consistent_game() {
    for round in 0..4 {
        // setup: a seat commits once; the loser of the race is told, nothing is mixed.
        let g = TestGame::new(&[]);
        let file = g.tmp.path().join("south-setup.toml");
        std::fs::write(&file, SOUTH_ROWS).unwrap();
        let (d, key, f) = (g.d(), g.keys.path("alice"), file.to_string_lossy());
        let setup = ["setup", &d, "--as", "south", "--key", &key, &f];
        let (a, b) = at_once(&setup, &setup);
        let codes = [a.code, b.code];
        assert!(
            codes.contains(&0) && codes.iter().filter(|&&c| c == 0).count() == 1,
            "round {round}: {a:?} {b:?}"
        );
        g.setup("north", NORTH_ROWS);
        assert_eq!(
            g.judge().code,
            0,
            "round {round}: the setup race left a bad commitment"
        );

        // move: two different moves for the same ply; one is written, whole and signed.
        let moves = [
            ["move", &d, "--as", "south", "--key", &key, "a6-a7"],
            ["move", &d, "--as", "south", "--key", &key, "e6-e7"],
        ];
        let (a, b) = at_once(&moves[0], &moves[1]);
        assert_eq!(
            [a.code, b.code].iter().filter(|&&c| c == 0).count(),
            1,
            "round {round}: {a:?} {b:?}"
        );
        let r = g.judge();
        assert_eq!(r.code, 0, "round {round}: {r:?}");
        assert!(
            g.read("record.jsonl").contains("\"ply\":1"),
            "round {round}"
        );

        // judge: the second waits for the first; both succeed with the same result.
        g.send("north", "c7-c6");
        let judge = ["judge", &d, "--key", &g.keys.path("judge"), "--now", NOW];
        let before = snapshot(&g.dir);
        let (a, b) = at_once(&judge, &judge);
        assert_eq!((a.code, b.code), (0, 0), "round {round}: {a:?} {b:?}");
        let after = snapshot(&g.dir);
        assert_ne!(before, after);
        assert_eq!(g.judge().stdout.lines().next(), Some("nothing new"));
    }
}

#[test]
fn two_reveals_at_once_write_the_same_files() {
    for _ in 0..4 {
        let (_tmp, dir) = sample_copy();
        std::fs::remove_dir_all(dir.join("reveal")).unwrap();
        let d = dir.to_string_lossy();
        let reveal = ["reveal", &d];
        let (a, b) = at_once(&reveal, &reveal);
        assert_eq!((a.code, b.code), (0, 0), "{a:?} {b:?}");
        ok(&["verify", &d]);
    }
}

#[test]
fn an_older_record_with_its_public_view_does_not_roll_the_game_back() {
    let g = TestGame::started(&[]);
    g.play("south", "a6-a7");
    let old: Vec<(String, Vec<u8>)> = [
        "record.jsonl",
        "record.sig",
        "views/public.json",
        "views/public.json.sig",
        "views/public.txt",
        "views/public.txt.sig",
    ]
    .iter()
    .map(|f| (f.to_string(), std::fs::read(g.dir.join(f)).unwrap()))
    .collect();
    g.play("north", "c7-c6");
    // Someone restores the older record and public view; the newer seat views are still there.
    for (f, bytes) in &old {
        std::fs::write(g.dir.join(f), bytes).unwrap();
    }
    std::fs::remove_file(g.dir.join("moves/0002-north.toml")).unwrap();
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("rolled back"), "{r:?}");
    assert!(
        r.stderr.contains("views/north.json") || r.stderr.contains("views/south.json"),
        "names the signed view that remembers: {r:?}"
    );
}

#[test]
fn only_the_judge_writes_views() {
    let g = TestGame::started(&[]);
    g.play("south", "a6-a7");
    let judged = snapshot(&g.dir);
    g.write("views/bob-resigned.txt", "north resigned; south wins\n");
    g.write("views/public.txt", "north resigned; south wins\n");
    g.write("views/south.refusal.txt", "your flag was captured\n");
    let r = g.judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        snapshot(&g.dir),
        judged,
        "the judge's own outputs are back and nothing else is in views/"
    );
    // Every file the judge writes there carries its signature, pictures included.
    for name in std::fs::read_dir(g.dir.join("views")).unwrap() {
        let name = name.unwrap().file_name().to_string_lossy().into_owned();
        if !name.ends_with(".sig") {
            assert!(g.dir.join(format!("views/{name}.sig")).exists(), "{name}");
        }
    }
}

/// The opponent guesses a seat's sealed refusal reason, seals the guess to the judge and puts
/// it where the note is. The judge must not keep it because it opens to the same text: it
/// decides from its own signed tag, so the guess is replaced whether right or wrong.
#[test]
fn a_sealed_guess_of_a_refusal_note_is_never_kept_right_or_wrong() {
    let g = TestGame::sealed();
    assert_eq!(g.judge().code, 0);
    assert!(g.read("record.jsonl").contains("begin"), "play has begun");
    g.send("south", "a6-a5");
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    let note = g.dir.join("views/south.refusal.age");
    let written = std::fs::read(&note).unwrap();
    // Judging again keeps the judge's own note byte for byte.
    g.judge();
    assert_eq!(std::fs::read(&note).unwrap(), written);
    // The right guess: the very plaintext (here taken with south's key), sealed anew.
    let alice = ssh_key::PrivateKey::read_openssh_file(Path::new(&g.keys.path("alice"))).unwrap();
    let judge_pub =
        ssh_key::PublicKey::read_openssh_file(Path::new(&format!("{}.pub", g.keys.path("judge"))))
            .unwrap();
    let plain = seal::decrypt(&written, &alice).unwrap();
    let guess = seal::encrypt(&plain, &[&judge_pub]).unwrap();
    std::fs::write(&note, &guess).unwrap();
    g.judge();
    let after_right = std::fs::read(&note).ok();
    assert_ne!(
        after_right.as_deref(),
        Some(guess.as_slice()),
        "the judge kept a sealed file it did not write"
    );
    // A wrong guess meets the same fate: nothing to learn from keep-or-replace.
    let wrong = seal::encrypt(b"landmine", &[&judge_pub]).unwrap();
    std::fs::write(&note, &wrong).unwrap();
    g.judge();
    let after_wrong = std::fs::read(&note).ok();
    assert_ne!(after_wrong.as_deref(), Some(wrong.as_slice()));
    assert_eq!(after_right.is_some(), after_wrong.is_some());
}

/// Another process holding the lock makes a command wait, then give up after
/// `QIJUDGE_LOCK_WAIT` seconds with exit 2 and a sentence; a lock file that is a link is refused.
#[test]
fn a_held_lock_makes_commands_wait_then_give_up() {
    let g = TestGame::started(&[]);
    let lock = std::fs::File::options()
        .write(true)
        .open(g.dir.join(".qijudge.lock"))
        .unwrap();
    lock.try_lock().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args([
            "judge",
            &g.d(),
            "--key",
            &g.keys.path("judge"),
            "--now",
            NOW,
        ])
        .env("QIJUDGE_LOCK_WAIT", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another qijudge has been working"));
    drop(lock);
    assert_eq!(g.judge().code, 0);
    // A planted link in place of the lock file is never followed.
    let elsewhere = g.tmp.path().join("elsewhere");
    std::fs::remove_file(g.dir.join(".qijudge.lock")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, g.dir.join(".qijudge.lock")).unwrap();
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains(".qijudge.lock: is a link"), "{r:?}");
    assert!(!elsewhere.exists());
}
