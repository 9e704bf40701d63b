//! What standings cost: `qijudge tournament` over packed Luzhanqi games made by a bot match,
//! trusting the pinned judge's record (the default) and with `--audit`, beside the floor of
//! the audit (every player's signature once, in batches, on the same threads). Prints CPU and
//! wall time a game and a ply, and the audit's ratio to its floor. Run with
//! `cargo bench --bench tournament`; `QIJUDGE_BENCH_GAMES` sets how many games (400 unless
//! told), `QIJUDGE_BIN` times another build of the binary on the same games (before and after
//! a change, back to back).

use qijudge::protocol::signing::{self, namespace, Recorded};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

mod support;

const THREADS: usize = 2;

fn main() {
    let bin = std::env::var("QIJUDGE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_qijudge").into());
    let games: usize = std::env::var("QIJUDGE_BENCH_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(400);
    println!("binary: {bin}");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let made = support::random_match(&out, games, 11, false);
    let plies = plies_of(&String::from_utf8_lossy(&made.stderr));
    println!(
        "{games} packed games, {plies} plies ({:.0} a game)",
        plies as f64 / games as f64
    );
    let floor = signature_floor_s(&out, plies);
    for (label, audit) in [("record (default)", false), ("--audit", true)] {
        let (cpu, wall) = tournament(&bin, &out.join("games"), audit);
        println!(
            "tournament, {label}: {wall:.2} s wall, {cpu:.2} s CPU on {THREADS} threads; {:.2} ms CPU a game, {:.1} µs a ply",
            cpu * 1e3 / games as f64,
            cpu * 1e6 / plies as f64
        );
        if audit {
            println!(
                "  audit against its floor ({floor:.2} s wall: every signature once, batched, on {THREADS} threads): {:.2}×",
                wall / floor
            );
        }
    }
}

/// The plies of the match, from its progress lines ("game 7 (a vs b): …, 354 plies; …").
fn plies_of(progress: &str) -> usize {
    progress
        .lines()
        .filter_map(|l| l.split_once(" plies;"))
        .filter_map(|(before, _)| before.rsplit(' ').next()?.parse::<usize>().ok())
        .sum()
}

/// The least wall time in which `plies` signatures can be checked on [`THREADS`] threads: one
/// game's move files, verified in one batch (as the audit does), timed and scaled.
fn signature_floor_s(out: &Path, plies: usize) -> f64 {
    let pem = std::fs::read_to_string(out.join("keys/judge")).unwrap();
    let key = signing::parse_private_key(&pem).unwrap();
    let text = b"format = \"qijudge-move/1\"\n".repeat(12);
    let armored = signing::sign(&key, namespace::MOVE, &text);
    let public = key.public_key().clone();
    let batch = 512;
    let items: Vec<Recorded> = (0..batch)
        .map(|_| Recorded {
            key: &public,
            namespace: namespace::MOVE,
            msg: &text,
            armored: &armored,
        })
        .collect();
    let rounds = 8;
    let t = Instant::now();
    for _ in 0..rounds {
        // The same signature 512 times: a batch costs what as many different ones cost.
        signing::forget_verified();
        assert_eq!(signing::confirm_recorded(&items), batch);
    }
    let per_signature = t.elapsed().as_secs_f64() / (rounds * batch) as f64;
    println!(
        "one signature in a batch of {batch}: {:.1} µs",
        per_signature * 1e6
    );
    per_signature * plies as f64 / THREADS as f64
}

/// CPU (user + system) and wall seconds of one `tournament` process.
fn tournament(bin: &str, games: &Path, audit: bool) -> (f64, f64) {
    let before = support::children_cpu_s();
    let t = Instant::now();
    let mut cmd = Command::new(bin);
    cmd.arg("tournament")
        .arg(games)
        .args(["--threads", &THREADS.to_string()]);
    if audit {
        cmd.arg("--audit");
    }
    let out = cmd.output().expect("the qijudge binary runs");
    let wall = t.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "tournament failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (support::children_cpu_s() - before, wall)
}
