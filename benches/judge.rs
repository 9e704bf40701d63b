//! Judge speed on a long signed game: the cost per ply of `judge` (replaying and verifying every
//! file) against the cost of one SSHSIG Ed25519 verification measured in the same run. Every
//! judge run replays the whole record, so the recorded plies' cost is what a game pays per move.
//! Run with `cargo bench --bench judge`.

use qijudge::games::luzhanqi::referee::load_game;
use qijudge::games::luzhanqi::synth::{long_game, NOW};
use qijudge::judge::pipeline::Mode;
use qijudge::protocol::signing::{self, namespace};
use qijudge::store::GameDir;
use std::time::Instant;

const PLIES: u32 = 1000;

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = GameDir::new(tmp.path());
    let judge_key = long_game(&dir, PLIES, 5).expect("a 1000-ply game");
    let game = load_game(&dir).unwrap();

    // One SSHSIG verification of a move file, as the judge does it.
    let text = std::fs::read_to_string(tmp.path().join("moves/0500-north.toml")).unwrap();
    let sig = std::fs::read_to_string(tmp.path().join("moves/0500-north.toml.sig")).unwrap();
    let rounds = 2000;
    let t = Instant::now();
    for _ in 0..rounds {
        signing::forget_verified();
        signing::verify(&game.player_keys[1], namespace::MOVE, text.as_bytes(), &sig).unwrap();
    }
    let verify_us = t.elapsed().as_secs_f64() / rounds as f64 * 1e6;

    // Judging all 1000 plies from scratch (every file new), then again (everything recorded).
    let time_judge = |label: &str, goal: &str| {
        // Each run verifies every signature, as a new `qijudge judge` process does.
        signing::forget_verified();
        let t = Instant::now();
        let replay =
            qijudge::games::luzhanqi::referee::replay(&dir, &game, Mode::Judge, NOW).unwrap();
        assert!(
            replay.refusal.is_none(),
            "{:?}",
            replay.refusal.map(|e| e.to_string())
        );
        let replay_s = t.elapsed().as_secs_f64();
        for (name, body) in qijudge::games::luzhanqi::referee::outputs(&game, &replay, &judge_key) {
            dir.write(&name, body.as_bytes()).unwrap();
        }
        let total_s = t.elapsed().as_secs_f64();
        let per_ply = replay_s / PLIES as f64 * 1e6;
        println!(
            "judge {label}: {:.1} ms total ({:.1} ms replay + {:.1} ms views and signatures); {per_ply:.1} µs per ply = {:.2}× one verification ({goal})",
            total_s * 1e3,
            replay_s * 1e3,
            (total_s - replay_s) * 1e3,
            per_ply / verify_us
        );
    };
    println!("one SSHSIG Ed25519 verification: {verify_us:.1} µs");
    // New files are verified strictly, the judge's own check and a second thread's (from the
    // last file backwards) meeting in the middle; what the record holds is confirmed in batches.
    let target = "target ≤ 1.0×";
    time_judge("first run (1000 new plies)", target);
    time_judge("re-run (1000 recorded plies)", target);
    time_judge("re-run (1000 recorded plies)", target);
    growth();
}

/// What a judge run costs as the game grows: with 100, 1 000 and 10 000 plies recorded, one run
/// taking one new move and one run with nothing new (each a fresh process's work: nothing
/// remembered). Every run replays the whole record, so both grow with it; the figures say by
/// how much.
fn growth() {
    for recorded in [100u32, 1_000, 10_000] {
        let (tmp, judge_key) = (5..50)
            .find_map(|seed| {
                let tmp = tempfile::tempdir().unwrap();
                let key = long_game(&GameDir::new(tmp.path()), recorded + 1, seed).ok()?;
                Some((tmp, key))
            })
            .expect("a long random game");
        let dir = GameDir::new(tmp.path());
        let game = load_game(&dir).unwrap();
        // Record all but the last move, as earlier runs of the judge would have.
        let last = dir
            .list("moves")
            .unwrap()
            .into_iter()
            .find(|n| n.starts_with(&format!("{:04}-", recorded + 1)) && n.ends_with(".toml"))
            .unwrap();
        let aside = tmp.path().join("aside");
        std::fs::create_dir(&aside).unwrap();
        for name in [last.clone(), format!("{last}.sig")] {
            std::fs::rename(tmp.path().join("moves").join(&name), aside.join(&name)).unwrap();
        }
        let run = || {
            signing::forget_verified();
            let t = Instant::now();
            let replay =
                qijudge::games::luzhanqi::referee::replay(&dir, &game, Mode::Judge, NOW).unwrap();
            if let Some(e) = &replay.refusal {
                panic!("{e}");
            }
            for (name, body) in
                qijudge::games::luzhanqi::referee::outputs(&game, &replay, &judge_key)
            {
                dir.write(&name, body.as_bytes()).unwrap();
            }
            t.elapsed().as_secs_f64() * 1e3
        };
        run();
        for name in [last.clone(), format!("{last}.sig")] {
            std::fs::rename(aside.join(&name), tmp.path().join("moves").join(&name)).unwrap();
        }
        let one_new = run();
        let nothing_new = run();
        println!(
            "judge run at {recorded} recorded plies: {one_new:.1} ms taking one new move, {nothing_new:.1} ms with nothing new ({:.1} µs per recorded ply)",
            nothing_new * 1e3 / recorded as f64
        );
    }
}
