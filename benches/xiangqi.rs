//! Xiangqi move generation speed: perft 5 from the start position (133 312 995 leaves), single
//! thread, best of three runs. Run with `cargo bench --bench xiangqi`.

use qijudge::rules::xiangqi::{fen, Position};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let mut position = Position::start();
        let t = Instant::now();
        let nodes = black_box(&mut position).perft(5);
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(nodes, 133_312_995, "perft 5 of the start position");
        best = best.min(secs);
    }
    println!(
        "perft 5 (start): {:.2} s, {:.1} M leaves/s (target: ≤ 1.9 s, faster than Pikafish's 2.4–2.7 s wall on this machine)",
        best,
        133_312_995.0 / best / 1e6
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
}
