//! What strangers' stray files cost a judge run: 1 000, 10 000 and 100 000 junk files in
//! `moves/` beside one real move. The run takes the move and sets every stray aside; its cost
//! beyond the same run without strays should grow linearly with the files present (a flat cost
//! per stray file). Run with `cargo bench --bench strays`.

use qijudge::games::luzhanqi::synth::{long_game, NOW};
use qijudge::games::{self, JudgeRequest};
use qijudge::judge::pipeline::Rulings;
use qijudge::store::GameDir;
use std::time::Instant;

fn main() {
    // The same run without strays: what every run costs (replay, views, pictures).
    let base = judge_with_strays(0);
    println!("judge run with no stray file and one real move: {base:.3} s");
    let mut per_stray = Vec::new();
    for strays in [1_000usize, 10_000, 100_000] {
        let seconds = judge_with_strays(strays);
        let us = (seconds - base) * 1e6 / strays as f64;
        per_stray.push(us);
        println!(
            "judge run with {strays} stray files and one real move: {seconds:.2} s, {us:.1} µs per stray file beyond the run without"
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

/// One judge run over `strays` junk files in `moves/` beside the game's next move (ply 11 of
/// a synthetic game whose first ten plies are recorded); its seconds.
fn judge_with_strays(strays: usize) -> f64 {
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
    let moves = tmp.path().join("moves");
    for name in &last {
        std::fs::rename(moves.join(name), aside.path().join(name)).unwrap();
    }
    let _report = judge().expect("the first ten plies");
    for name in &last {
        std::fs::rename(aside.path().join(name), moves.join(name)).unwrap();
    }
    for i in 0..strays {
        std::fs::write(moves.join(format!("junk-{i:06}")), b"").unwrap();
    }
    let t = Instant::now();
    let report = judge().expect("the run");
    let seconds = t.elapsed().as_secs_f64();
    let record = std::fs::read_to_string(tmp.path().join("record.jsonl")).unwrap();
    assert!(
        record.contains("\"ply\":11"),
        "the real move is taken: {report:?}"
    );
    assert_eq!(
        dir.list("moves").unwrap().len(),
        22,
        "every stray is set aside"
    );
    seconds
}
