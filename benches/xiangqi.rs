//! Xiangqi move generation speed: perft 5 from the start position (133 312 995 leaves), single
//! thread, best of three runs; then, with `PIKAFISH=/path/to/pikafish`, five pairs of whole
//! processes (start-up included), `qijudge perft xiangqi 5` against Pikafish's `go perft 5`,
//! alternated, each pair's ratio printed. Run with `cargo bench --bench xiangqi`.

use qijudge::games::xiangqi::rules::{fen, Position};
use std::hint::black_box;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

const START_LEAVES: u64 = 133_312_995;

fn main() {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let mut position = Position::start();
        let t = Instant::now();
        let nodes = black_box(&mut position).perft(5);
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(nodes, START_LEAVES, "perft 5 of the start position");
        best = best.min(secs);
    }
    println!(
        "perft 5 (start): {:.2} s, {:.1} M leaves/s (target: ≤ 1.0× Pikafish, paired below)",
        best,
        START_LEAVES as f64 / best / 1e6
    );
    // A middle-game position with more pieces in play.
    let mut middle =
        fen::parse("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1")
            .expect("valid FEN");
    let t = Instant::now();
    let nodes = middle.perft(5);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(nodes, 53_112_976);
    println!(
        "perft 5 (cpw2 middle game): {:.2} s, {:.1} M leaves/s",
        secs,
        nodes as f64 / secs / 1e6
    );
    match std::env::var_os("PIKAFISH") {
        Some(pikafish) => paired(std::path::Path::new(&pikafish)),
        None => println!("(set PIKAFISH=/path/to/pikafish to pair with Pikafish)"),
    }
}

/// Five pairs of whole processes, qijudge then Pikafish, each checked for the right count.
fn paired(pikafish: &std::path::Path) {
    let qijudge = env!("CARGO_BIN_EXE_qijudge");
    let mut ratios = Vec::new();
    for pair in 1..=5 {
        let t = Instant::now();
        let ours = Command::new(qijudge)
            .args(["perft", "xiangqi", "5"])
            .stderr(Stdio::null())
            .output()
            .expect("qijudge runs");
        let ours_s = t.elapsed().as_secs_f64();
        assert!(String::from_utf8_lossy(&ours.stdout).contains(&START_LEAVES.to_string()));
        let t = Instant::now();
        let mut child = Command::new(pikafish)
            .current_dir(pikafish.parent().unwrap_or(std::path::Path::new(".")))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Pikafish runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"position startpos\ngo perft 5\nquit\n")
            .expect("Pikafish reads its commands");
        let theirs = child.wait_with_output().expect("Pikafish ends");
        let theirs_s = t.elapsed().as_secs_f64();
        let text = String::from_utf8_lossy(&theirs.stdout);
        assert!(
            text.contains(&format!("Nodes searched: {START_LEAVES}")),
            "Pikafish said: {text}"
        );
        let ratio = ours_s / theirs_s;
        ratios.push(ratio);
        println!(
            "pair {pair}: qijudge {ours_s:.2} s, Pikafish {theirs_s:.2} s = {ratio:.2}× (target ≤ 1.0×)"
        );
    }
    ratios.sort_by(f64::total_cmp);
    println!("median of 5 pairs: {:.2}× Pikafish", ratios[2]);
}
