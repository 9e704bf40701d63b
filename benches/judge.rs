//! What a `qijudge judge` process costs: CPU time (user + system, from the kernel's accounting
//! of the child) on a signed Luzhanqi game of 150, 1 000 and 10 000 plies, for the first run
//! (every file new), a re-run (nothing new) and a run taking one new move, beside `verify` on
//! the same game and the cost of one SSHSIG Ed25519 verification. The fixed cost and the per-ply slope are fitted from the
//! re-runs. Run with `cargo bench --bench judge`; set `QIJUDGE_BIN` to time another build of
//! the binary on the same games (before and after a change, back to back), and
//! `QIJUDGE_BENCH_KEEP=1` to keep the games for a profiler.

use qijudge::games::luzhanqi::referee::load_game;
use qijudge::games::luzhanqi::synth::{long_game, NOW};
use qijudge::protocol::signing::{self, namespace};
use qijudge::store::GameDir;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

mod support;

/// Runs of each kind; the least CPU is reported (the machine's other load only adds).
const ROUNDS: usize = 3;

fn main() {
    let bin = std::env::var("QIJUDGE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_qijudge").into());
    println!("binary: {bin}");
    println!(
        "one SSHSIG Ed25519 verification: {:.1} µs",
        verification_us()
    );
    let mut rerun = Vec::new();
    for plies in [150u32, 1_000, 10_000] {
        let (tmp, last) = game_with_last_move_aside(plies);
        let dir = tmp.path();
        // QIJUDGE_BENCH_KEEP=1 keeps the games (for a profiler), printing where they are.
        if std::env::var_os("QIJUDGE_BENCH_KEEP").is_some() {
            println!("game of {plies} plies kept in {}", dir.display());
        }
        let first = cpu_ms(&bin, "judge", dir, &dir.join("keys/judge"));
        let again = (0..ROUNDS)
            .map(|_| cpu_ms(&bin, "judge", dir, &dir.join("keys/judge")))
            .fold(f64::MAX, f64::min);
        let one_new = (0..ROUNDS)
            .map(|_| {
                // A fresh copy of the game as the re-run left it, then the new move arrives.
                let copy = tempfile::tempdir().unwrap();
                copy_tree(dir, copy.path());
                put_back(copy.path(), &last, true);
                cpu_ms(&bin, "judge", copy.path(), &copy.path().join("keys/judge"))
            })
            .fold(f64::MAX, f64::min);
        println!(
            "judge process at {plies} plies: first run {first:.1} ms CPU, re-run {again:.1} ms, one new ply {one_new:.1} ms"
        );
        rerun.push((plies as f64, again));
        if std::env::var_os("QIJUDGE_BENCH_KEEP").is_some() {
            let _ = tmp.keep();
        }
    }
    rerun_beside_verify(&bin);
    let (p0, t0) = rerun[0];
    let (p2, t2) = rerun[2];
    let slope = (t2 - t0) / (p2 - p0);
    println!(
        "re-run fit: {:.1} ms fixed + {:.1} µs per recorded ply",
        t0 - slope * p0,
        slope * 1e3
    );
}

/// A judge re-run beside `verify` (which audits finished games only) on one finished game of a
/// random bot match, kept as a folder.
fn rerun_beside_verify(bin: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    support::random_match(&out, 1, 5, true);
    let game = out.join("games/game-00001");
    let key = out.join("keys/judge");
    let plies = std::fs::read_dir(game.join("moves")).unwrap().count() / 2;
    let least = |command: &str| {
        (0..ROUNDS)
            .map(|_| cpu_ms(bin, command, &game, &key))
            .fold(f64::MAX, f64::min)
    };
    let (rerun, verify) = (least("judge"), least("verify"));
    println!(
        "finished game of {plies} plies: judge re-run {rerun:.1} ms CPU, verify {verify:.1} ms: re-run {:.2}× verify",
        rerun / verify
    );
}

fn verification_us() -> f64 {
    let tmp = tempfile::tempdir().unwrap();
    let dir = GameDir::new(tmp.path());
    long_game(&dir, 20, 5).expect("a 20-ply game");
    let game = load_game(&dir).unwrap();
    let text = std::fs::read_to_string(tmp.path().join("moves/0010-north.toml")).unwrap();
    let sig = std::fs::read_to_string(tmp.path().join("moves/0010-north.toml.sig")).unwrap();
    let rounds = 2000;
    let t = Instant::now();
    for _ in 0..rounds {
        signing::forget_verified();
        signing::verify(&game.player_keys[1], namespace::MOVE, text.as_bytes(), &sig).unwrap();
    }
    t.elapsed().as_secs_f64() / rounds as f64 * 1e6
}

/// A game of `plies` recorded moves plus one more, that last one's files set aside (under
/// `aside/`), judged by nobody yet.
fn game_with_last_move_aside(plies: u32) -> (tempfile::TempDir, String) {
    let tmp = (5..60)
        .find_map(|seed| {
            let tmp = tempfile::tempdir().unwrap();
            long_game(&GameDir::new(tmp.path()), plies + 1, seed).ok()?;
            Some(tmp)
        })
        .expect("a long random game");
    let last = std::fs::read_dir(tmp.path().join("moves"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .find(|n| n.starts_with(&format!("{:04}-", plies + 1)) && n.ends_with(".toml"))
        .unwrap();
    std::fs::create_dir(tmp.path().join("aside")).unwrap();
    put_back(tmp.path(), &last, false);
    (tmp, last)
}

/// Moves the last move's files between `moves/` and `aside/` (`to_moves`: back into play).
fn put_back(dir: &Path, last: &str, to_moves: bool) {
    for name in [last.to_string(), format!("{last}.sig")] {
        let (from, to) = (dir.join("moves").join(&name), dir.join("aside").join(&name));
        let (from, to) = if to_moves { (to, from) } else { (from, to) };
        std::fs::copy(&from, &to).unwrap();
        std::fs::remove_file(&from).unwrap();
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The CPU time of one `judge` or `verify` process on `dir`, in milliseconds.
fn cpu_ms(bin: &str, command: &str, dir: &Path, key: &Path) -> f64 {
    let before = support::children_cpu_s() * 1e3;
    let mut cmd = Command::new(bin);
    cmd.arg(command).arg(dir);
    if command == "judge" {
        cmd.arg("--key").arg(key).args(["--now", NOW]);
    }
    let out = cmd.output().expect("the qijudge binary runs");
    assert!(
        out.status.success(),
        "{command} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    support::children_cpu_s() * 1e3 - before
}
