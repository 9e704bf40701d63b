//! Crash safety: a judge killed with SIGKILL at any moment leaves every output file in its old
//! or its new version, and the next run finishes with the bytes of an uninterrupted run. Two
//! judges started at once: one refuses, nothing is corrupted.

use super::helpers::*;
use qijudge::games::luzhanqi::rules::random::SplitMix64;
use qijudge::store::GameDir;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

type Files = BTreeMap<String, Vec<u8>>;

fn copy(files: &Files, to: &Path) {
    for (rel, bytes) in files {
        let p = to.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

fn judge_args(dir: &Path) -> Vec<String> {
    let d = dir.to_string_lossy().into_owned();
    vec![
        "judge".into(),
        d.clone(),
        "--key".into(),
        format!("{d}/keys/judge"),
        "--now".into(),
        NOW.into(),
    ]
}

fn outputs(files: &Files) -> Files {
    files
        .iter()
        .filter(|(k, _)| k.starts_with("record.") || k.starts_with("views/"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// A game judged up to ply 200 with 200 more signed plies waiting: (files before, files after an
/// uninterrupted judge run).
fn long_game_states(root: &Path) -> (Files, Files) {
    let base = root.join("base");
    let seed = (1..50).find(|&s| {
        let _ = std::fs::remove_dir_all(&base);
        qijudge::games::luzhanqi::synth::long_game(&GameDir::new(&base), 400, s).is_ok()
    });
    assert!(seed.is_some(), "no 400-ply synthetic game");
    let all = snapshot(&base);
    let first_half: Files = all
        .iter()
        .filter(|(k, _)| !k.starts_with("moves/") || k[6..10].parse::<u32>().unwrap() <= 200)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let pre_dir = root.join("pre");
    copy(&first_half, &pre_dir);
    let args = judge_args(&pre_dir);
    assert_eq!(
        qj(&args.iter().map(String::as_str).collect::<Vec<_>>()).code,
        0
    );
    copy(&all, &pre_dir);
    let pre = snapshot(&pre_dir);
    let reference = root.join("reference");
    copy(&pre, &reference);
    let args = judge_args(&reference);
    assert_eq!(
        qj(&args.iter().map(String::as_str).collect::<Vec<_>>()).code,
        0
    );
    (pre, snapshot(&reference))
}

#[test]
fn sigkill_at_random_moments_leaves_old_or_new_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (pre, done) = long_game_states(tmp.path());
    let (old, new) = (outputs(&pre), outputs(&done));
    assert_ne!(old, new);
    // How long an uninterrupted run takes, to spread the kills over it.
    let probe = tmp.path().join("probe");
    copy(&pre, &probe);
    let start = Instant::now();
    assert!(Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(judge_args(&probe))
        .output()
        .unwrap()
        .status
        .success());
    let span = start.elapsed().as_micros() as usize + 1;
    let mut rng = SplitMix64::new(2026);
    let (mut mixed, mut untouched, mut finished) = (0, 0, 0);
    let trials = 40;
    for trial in 0..trials {
        let dir = tmp.path().join(format!("t{trial}"));
        copy(&pre, &dir);
        // Every other trial slows the commit (a debug-build hook) so kills land inside it.
        let slow = trial % 2 == 1;
        let window = if slow { span + 3_000 * new.len() } else { span };
        let mut child = Command::new(env!("CARGO_BIN_EXE_qijudge"))
            .args(judge_args(&dir))
            .env("QIJUDGE_SLOW_COMMIT_MS", if slow { "3" } else { "0" })
            .spawn()
            .unwrap();
        let from = if slow { span / 2 } else { 0 };
        std::thread::sleep(Duration::from_micros(
            (from + rng.below(window * 11 / 10 - from)) as u64,
        ));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let after = outputs(&snapshot(&dir));
        for name in old.keys().chain(new.keys()).chain(after.keys()) {
            let now = after.get(name);
            assert!(
                now == old.get(name) || now == new.get(name),
                "trial {trial}: {name} is neither old nor new"
            );
        }
        match (after == old, after == new) {
            (true, _) => untouched += 1,
            (_, true) => finished += 1,
            _ => mixed += 1,
        }
        let args = judge_args(&dir);
        let r = qj(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(r.code, 0, "trial {trial}: {r:?}");
        assert!(
            snapshot(&dir) == done,
            "trial {trial}: the rerun differs from an uninterrupted run"
        );
    }
    eprintln!("crash trials: {trials} kills; {untouched} before any output changed, {mixed} between files of one commit, {finished} after it");
    assert_eq!(untouched + mixed + finished, trials);
    assert!(mixed > 0, "no kill landed inside a commit");
}

#[test]
fn two_judges_at_once_do_not_corrupt_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    let (pre, done) = long_game_states(tmp.path());
    for round in 0..5 {
        let dir = tmp.path().join(format!("race{round}"));
        copy(&pre, &dir);
        let a = Command::new(env!("CARGO_BIN_EXE_qijudge"))
            .args(judge_args(&dir))
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let b = Command::new(env!("CARGO_BIN_EXE_qijudge"))
            .args(judge_args(&dir))
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        // The second waits for the first: both succeed, one after the other.
        for out in [&a, &b] {
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert!(
            snapshot(&dir) == done,
            "round {round}: the game differs from a single run"
        );
    }
}
