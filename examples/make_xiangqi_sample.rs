//! Builds the Xiangqi sample game through the real command line: manifest, one signed move per
//! ply in the notation a player might type, the judge after every move, and the audit.
//!
//! Usage: cargo run --example make_xiangqi_sample -- DIR
//! The moves are game ccpd-003 of the Chinese Chess Practical Dataset (© 2026 Yu-Han Tseng,
//! CC BY 4.0; see tests/data/xiangqi/README.md), which ends in checkmate at ply 97. The
//! players type them in turn as Chinese, WXF and ICCS; the files hold ICCS.

use clap::Parser;
use qijudge::cli::{run, Cli};
use qijudge::games::xiangqi::rules::notation::{self, Notation};
use qijudge::games::xiangqi::rules::{Move, Position, Square};
use std::path::Path;

const MOVES: &str = "c3c4 g6g5 b2e2 h9g7 h0i2 h7i7 i0h0 i7i3 h2g2 i3e3 d0e1 g9e7 b0c2 e3b3 c2d4 \
f9e8 c4c5 b3d3 a0b0 b7a7 d4c6 d3e3 b0b3 g7f5 h0h4 g5g4 h4g4 e3a3 g4f4 a3a0 c0a2 f5h6 f4f6 i9h9 \
c6d8 b9c7 b3b7 a9a8 e2e7 e8f9 f6h6 h9h6 d8f7 a8f8 f7h6 a7a2 e7i7 f9e8 i2h4 a2c2 h4g6 f8f3 h6g8 \
e9f9 g2f2 f3g3 i7f7 g3f3 f7h7 f3h3 g6h8 c2c0 b7b0 h3h7 g8f6 f9e9 f6h7 c0f0 b0b7 f0f1 b7c7 a0a3 \
f2e2 a3h3 h8f7 e9f9 e2f2 h3f3 f7d6 f3e3 e0d0 c9e7 h7f6 e8f7 f6g4 e3f3 c7e7 d9e8 d6e8 f1h1 e8g7 \
f9f8 e7f7 f8e8 f7f3 e8e9 f3f9";

fn cli(args: &[&str]) {
    let mut all = vec!["qijudge"];
    all.extend_from_slice(args);
    if let Err(e) = run(Cli::parse_from(all)) {
        panic!("qijudge {}: {e}", args.join(" "));
    }
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: make_xiangqi_sample DIR");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let keys = root.join("games/xiangqi/sample/keys");
    let key = |name: &str| keys.join(name).to_string_lossy().into_owned();
    let (alice, bob, judge) = (
        format!("alice={}.pub", key("alice")),
        format!("bob={}.pub", key("bob")),
        format!("{}.pub", key("judge")),
    );
    let time = |ply: usize| format!("2026-11-21T{:02}:{:02}:00Z", 9 + ply / 60, ply % 60);
    cli(&[
        "new",
        "xiangqi",
        &dir,
        "--player",
        &alice,
        "--player",
        &bob,
        "--judge",
        &judge,
        "--now",
        &time(0),
        "--sample",
    ]);
    cli(&["judge", &dir, "--key", &key("judge"), "--now", &time(0)]);
    let mut position = Position::start();
    for (i, text) in MOVES.split_whitespace().enumerate() {
        let m = Move {
            from: Square::parse(&text[..2]).expect("square"),
            to: Square::parse(&text[2..]).expect("square"),
        };
        let typed = match i % 3 {
            0 => notation::write(&position, m, Notation::Chinese),
            1 => notation::write(&position, m, Notation::Wxf),
            _ => text.to_string(),
        };
        let (seat, player) = if i % 2 == 0 {
            ("red", "alice")
        } else {
            ("black", "bob")
        };
        cli(&["move", &dir, "--as", seat, "--key", &key(player), &typed]);
        cli(&["judge", &dir, "--key", &key("judge"), "--now", &time(i + 1)]);
        position.play(m).expect("the sample moves are legal");
    }
    cli(&["verify", &dir]);
}
