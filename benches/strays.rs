//! What strangers' stray files cost a judge run: 1 000, 10 000 and 100 000 junk files in
//! `moves/` beside one real move. The run takes the move and sets every stray aside; its cost
//! should grow linearly with the files present (a flat cost per stray file).
//! Run with `cargo bench --bench strays`.

use qijudge::games::{self, JudgeRequest};
use qijudge::judge::pipeline::Rulings;
use qijudge::store::GameDir;
use qijudge::synth::{long_game, NOW};
use std::time::Instant;

fn main() {
    let mut per_stray = Vec::new();
    for strays in [1_000usize, 10_000, 100_000] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        long_game(&dir, 11, 5).expect("a short game");
        let key = tmp.path().join("keys/judge");
        let judge = || {
            games::of_dir(tmp.path()).unwrap().judge(
                tmp.path(),
                &key,
                JudgeRequest {
                    now: NOW.into(),
                    details: false,
                    rulings: Rulings::default(),
                },
            )
        };
        // Record all but the last move, as earlier runs would have.
        let aside = tempfile::tempdir().unwrap();
        let last: Vec<String> = dir
            .list("moves")
            .unwrap()
            .into_iter()
            .filter(|n| n.starts_with("0011-"))
            .collect();
        for name in &last {
            std::fs::rename(tmp.path().join("moves").join(name), aside.path().join(name)).unwrap();
        }
        let _report = judge().expect("the first ten plies");
        for name in &last {
            std::fs::rename(aside.path().join(name), tmp.path().join("moves").join(name)).unwrap();
        }
        for i in 0..strays {
            std::fs::write(tmp.path().join(format!("moves/junk-{i:06}")), b"").unwrap();
        }
        let t = Instant::now();
        let refused = judge().expect_err("the strays are refused");
        let seconds = t.elapsed().as_secs_f64();
        let record = std::fs::read_to_string(tmp.path().join("record.jsonl")).unwrap();
        assert!(
            record.contains("\"ply\":11"),
            "the real move is taken: {refused}"
        );
        assert_eq!(
            dir.list("moves").unwrap().len(),
            22,
            "every stray is set aside"
        );
        let us = seconds * 1e6 / strays as f64;
        per_stray.push(us);
        println!(
            "judge run with {strays} stray files and one real move: {:.2} s, {us:.1} µs per stray file",
            seconds
        );
    }
    let (lo, hi) = per_stray
        .iter()
        .fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    println!(
        "cost per stray file from 1 000 to 100 000: {:.2}× (goal: within 2×)",
        hi / lo
    );
}
