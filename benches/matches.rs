//! Bot matches: games per second for random-vs-random with in-process bots and with process
//! bots (`qijudge bot random`), and the judge's own cost per ply (in-process bots cost next to
//! nothing, so the in-process time per ply is the runner and judge overhead).
//! Run with `cargo bench --bench matches` (builds the release binary first).

use qijudge::tournament::runner::{run_match, BotEntry, MatchConfig};
use std::time::Instant;

fn config(out: &std::path::Path, bots: [BotEntry; 2], games: u32) -> MatchConfig {
    let mut cfg = MatchConfig::new("luzhanqi", bots.to_vec(), out).unwrap();
    cfg.games = games;
    cfg.seed = 3;
    cfg.now = "2026-11-21T12:00:00Z".into();
    cfg
}

fn plies(games: &[qijudge::tournament::standings::GameRecord]) -> usize {
    games.iter().map(|g| g.plies).sum()
}

fn main() {
    let exe = std::env::current_exe().unwrap();
    let qijudge = exe
        .parent()
        .and_then(|p| p.parent())
        .map(|p| p.join("qijudge"))
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let games = 20;
    let t = Instant::now();
    let inproc = run_match(
        &config(
            &tmp.path().join("a"),
            [
                BotEntry::parse("a=builtin:random"),
                BotEntry::parse("b=builtin:random"),
            ],
            games,
        ),
        &|_, _| {},
    )
    .unwrap();
    let secs = t.elapsed().as_secs_f64();
    let n = plies(&inproc);
    println!(
        "in-process random vs random: {:.2} games/s ({games} games, {n} plies, {:.0} µs per ply of runner and judge; target ≤ 150 µs)",
        games as f64 / secs,
        secs / n as f64 * 1e6
    );
    if qijudge.exists() {
        let cmd = |name: &str| BotEntry::parse(&format!("{name}={} bot random", qijudge.display()));
        let t = Instant::now();
        let procs = run_match(
            &config(&tmp.path().join("b"), [cmd("a"), cmd("b")], games),
            &|_, _| {},
        )
        .unwrap();
        let secs = t.elapsed().as_secs_f64();
        let n = plies(&procs);
        println!(
            "process random vs random: {:.2} games/s ({games} games, {n} plies, {:.0} µs per ply; target ≤ 300 µs)",
            games as f64 / secs,
            secs / n as f64 * 1e6
        );
    } else {
        println!("process bots: build the binary first (cargo build --release)");
    }
}
