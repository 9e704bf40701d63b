//! Builds the Banqi sample game through the real command line: manifest, nonce commitments, the
//! nonces handed to the judge, one signed turn per ply with the judge after each, the reveal
//! and the audit.
//!
//! Usage: cargo run --release --example make_banqi_sample -- DIR
//! Both players take the most valuable piece they can, else turn a piece up or move at random
//! (a fixed seed); the move limit is on, so the game ends by rule. DIR's keys come from
//! `games/banqi/sample/keys`.

use clap::Parser;
use qijudge::cli::{run, Cli};
use qijudge::games::banqi::referee as banqi;
use qijudge::games::banqi::rules::{Action, Cell};
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

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: make_banqi_sample DIR");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let keys = root.join("games/banqi/sample/keys");
    let key = |name: &str| keys.join(name).to_string_lossy().into_owned();
    let (alice, bob, judge) = (
        format!("alice={}.pub", key("alice")),
        format!("bob={}.pub", key("bob")),
        format!("{}.pub", key("judge")),
    );
    let time = |ply: u32| format!("2026-11-25T{:02}:{:02}:00Z", 9 + ply / 60, ply % 60);
    cli(&[
        "new",
        "banqi",
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
    cli(&["setup", &dir, "--as", "first", "--key", &key("alice")]);
    cli(&["setup", &dir, "--as", "second", "--key", &key("bob")]);
    cli(&["judge", &dir, "--key", &key("judge"), "--now", &time(0)]);
    let mut rng = 0x6261_6e71_u64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let d = GameDir::new(&dir);
    let g = banqi::BanqiGame::load(&d).expect("the manifest");
    loop {
        let state = qijudge::judge::turn_referee::current(&d, &g).expect("the game so far");
        let Some(seat) = g.to_move(&state).map(|s| banqi::SEATS[s]) else {
            break;
        };
        let position = state.game.position();
        let turns = position.legal_actions();
        // What a turn takes (the sample's rules have no chains: one capture at most).
        let gain = |a: &Action| {
            a.steps()
                .iter()
                .map(|(_, to)| match position.cell(*to) {
                    Some(Cell::Up(p)) => {
                        1 + qijudge::games::banqi::rules::position::rank_of(p.kind)
                    }
                    _ => 0,
                })
                .sum::<u8>()
        };
        let best = turns.iter().map(gain).max().unwrap_or(0);
        let top: Vec<_> = turns.iter().filter(|a| gain(a) == best).collect();
        let chosen = top[next(top.len())].to_string();
        let player = if seat == "first" { "alice" } else { "bob" };
        cli(&["move", &dir, "--as", seat, "--key", &key(player), &chosen]);
        let ply = state.plies() + 1;
        cli(&["judge", &dir, "--key", &key("judge"), "--now", &time(ply)]);
    }
    cli(&["reveal", &dir]);
    cli(&["verify", &dir]);
}
