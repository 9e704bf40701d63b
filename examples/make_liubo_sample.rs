//! Builds the Liubo sample game through the real command line: manifest, chain commitments,
//! escrowed seeds, one signed turn per throw, the judge after every turn, the reveal and the
//! audit.
//!
//! Usage: cargo run --release --example make_liubo_sample -- DIR
//! Both players choose among the legal turns: a turn that wins first, then one that takes
//! prisoners or promotes an owl, else one at random (a fixed seed), and never one that loses.

use clap::Parser;
use qijudge::cli::{run, Cli};
use qijudge::judge::liubo;
use qijudge::rules::liubo::notation::write_turn;
use qijudge::rules::liubo::Event;
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
        .expect("usage: make_liubo_sample DIR");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let keys = root.join("games/liubo/sample/keys");
    let key = |name: &str| keys.join(name).to_string_lossy().into_owned();
    let (alice, bob, judge) = (
        format!("alice={}.pub", key("alice")),
        format!("bob={}.pub", key("bob")),
        format!("{}.pub", key("judge")),
    );
    let time = |turn: u32| format!("2026-11-21T{:02}:{:02}:00Z", 9 + turn / 60, turn % 60);
    cli(&[
        "new",
        "liubo",
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
        "ply_limit=400",
    ]);
    cli(&["setup", &dir, "--as", "a", "--key", &key("alice")]);
    cli(&["setup", &dir, "--as", "b", "--key", &key("bob")]);
    cli(&["judge", &dir, "--key", &key("judge"), "--now", &time(0)]);
    let mut rng = 0x5eed_u64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let d = GameDir::new(&dir);
    let g = liubo::load(&d).expect("the manifest");
    loop {
        let state = liubo::current(&d, &g).expect("the game so far");
        let Some((t, seat, _)) = state.throw else {
            break;
        };
        let position = state.position.clone().expect("play has begun");
        let turns = position.legal_turns();
        let score = |moves: &Vec<qijudge::rules::liubo::Move>| {
            let mut p = position.clone();
            let events = p.play_turn(moves).unwrap_or_default();
            if p.result.is_some_and(|r| r.winner == Some(seat)) {
                3
            } else if p.result.is_some() {
                -1
            } else if events.iter().any(|e| {
                matches!(
                    e,
                    Event::Prisoners { .. } | Event::Promoted { .. } | Event::Demoted { .. }
                )
            }) {
                2
            } else {
                0
            }
        };
        let best = turns.iter().map(score).max().unwrap_or(0);
        let top: Vec<&Vec<_>> = turns.iter().filter(|m| score(m) == best).collect();
        let chosen = write_turn(top[next(top.len())]);
        let player = if seat == 0 { "alice" } else { "bob" };
        cli(&[
            "move",
            &dir,
            "--as",
            liubo::SEATS[seat],
            "--key",
            &key(player),
            &chosen,
        ]);
        cli(&["judge", &dir, "--key", &key("judge"), "--now", &time(t)]);
    }
    cli(&["reveal", &dir]);
    cli(&["verify", &dir]);
}
