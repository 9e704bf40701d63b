//! Builds the Jieqi sample game through the real command line: manifest, nonce commitments, the
//! nonces handed to the judge, one signed move per ply with the judge after each, the reveal
//! and the audit.
//!
//! Usage: cargo run --release --example make_jieqi_sample -- DIR
//! Both players take the most valuable piece they can (a face-down one counts as a horse), else
//! move at random (a fixed seed); the move limit is on, so the game ends by rule.

use clap::Parser;
use qijudge::cli::{run, Cli};
use qijudge::games::jieqi::referee as jieqi;
use qijudge::games::xiangqi::rules::Kind;
use qijudge::judge::turn_referee::TurnReferee;
use qijudge::store::GameDir;
use std::path::Path;

fn cli(args: &[&str]) {
    let mut all = vec!["qijudge"];
    all.extend_from_slice(args);
    if let Err(e) = run(Cli::parse_from(all)) {
        panic!("qijudge {}: {e}", args.join(" "));
    }
}

fn worth(kind: Kind) -> u32 {
    match kind {
        Kind::King => 100,
        Kind::Chariot => 9,
        Kind::Cannon => 5,
        Kind::Horse => 4,
        Kind::Advisor | Kind::Elephant => 2,
        Kind::Pawn => 1,
    }
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: make_jieqi_sample DIR");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let keys = root.join("games/jieqi/sample/keys");
    let key = |name: &str| keys.join(name).to_string_lossy().into_owned();
    let (alice, bob, judge) = (
        format!("alice={}.pub", key("alice")),
        format!("bob={}.pub", key("bob")),
        format!("{}.pub", key("judge")),
    );
    let time = |ply: u32| format!("2026-11-24T{:02}:{:02}:00Z", 9 + ply / 60, ply % 60);
    cli(&[
        "new",
        "jieqi",
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
        "--rule",
        "move-limit=on",
    ]);
    cli(&["setup", &dir, "--as", "red", "--key", &key("alice")]);
    cli(&["setup", &dir, "--as", "black", "--key", &key("bob")]);
    cli(&["judge", &dir, "--key", &key("judge"), "--now", &time(0)]);
    let mut rng = 0x6a69_6571_u64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let d = GameDir::new(&dir);
    let g = jieqi::JieqiGame::load(&d).expect("the manifest");
    loop {
        let state = qijudge::judge::turn_referee::current(&d, &g).expect("the game so far");
        let Some(seat) = g.to_move(&state).map(|s| jieqi::SEATS[s]) else {
            break;
        };
        let position = state.game.position();
        let moves = position.legal_moves();
        let gain = |m: &qijudge::games::xiangqi::rules::Move| {
            position.cell(m.to).map_or(0, |c| {
                if c.hidden {
                    worth(Kind::Horse)
                } else {
                    worth(c.kind)
                }
            })
        };
        let best = moves.iter().map(gain).max().unwrap_or(0);
        let top: Vec<_> = moves.iter().filter(|m| gain(m) == best).collect();
        let chosen = top[next(top.len())].to_string();
        let player = if seat == "red" { "alice" } else { "bob" };
        cli(&["move", &dir, "--as", seat, "--key", &key(player), &chosen]);
        let ply = state.plies() + 1;
        cli(&["judge", &dir, "--key", &key("judge"), "--now", &time(ply)]);
    }
    cli(&["reveal", &dir]);
    cli(&["verify", &dir]);
}
