//! Builds the Liubo sample game through the real command line: manifest, chain commitments,
//! escrowed seeds, one signed turn per throw, the judge after every turn, the reveal and the
//! audit.
//!
//! Usage: cargo run --release --example make_liubo_sample -- DIR [self]
//! Both players choose among the legal turns: a turn that wins first, then one that takes
//! prisoners or promotes an owl, else one at random (a fixed seed), and never one that loses.
//! With `self`, the game is played in self mode: no escrow; each player reveals its own chain
//! elements, the mover's with its turn and the other's when a throw waits for it.

use clap::Parser;
use qijudge::cli::{run, Cli};
use qijudge::games::liubo::referee as liubo;
use qijudge::games::liubo::rules::notation::write_turn;
use qijudge::games::liubo::rules::Event;
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
        .expect("usage: make_liubo_sample DIR [self]");
    let self_mode = std::env::args().nth(2).as_deref() == Some("self");
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
        "--rule",
        if self_mode {
            "dice_mode=self"
        } else {
            "dice_mode=escrow"
        },
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
    let g = liubo::LiuboGame::load(&d).expect("the manifest");
    if self_mode {
        play_self_mode(&dir, &key, &time, &mut next);
        cli(&["verify", &dir]);
        return;
    }
    loop {
        let state = liubo::current(&d, &g).expect("the game so far");
        let Some((t, seat, _)) = state.throw else {
            break;
        };
        let position = state.position.clone().expect("play has begun");
        let turns = position.legal_turns();
        let score = |moves: &Vec<qijudge::games::liubo::rules::Move>| {
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

/// Self mode: each seat reveals its first element, then the mover plays the turn its own next
/// element throws (a winning turn if there is one), and a seat a throw waits for reveals.
fn play_self_mode(
    dir: &str,
    key: &dyn Fn(&str) -> String,
    time: &dyn Fn(u32) -> String,
    next: &mut dyn FnMut(usize) -> usize,
) {
    use qijudge::games::Game;
    let game = qijudge::games::liubo::Liubo;
    let path = Path::new(dir);
    let player = |seat: &str| if seat == "a" { "alice" } else { "bob" };
    let say = |seat: &str, action: &str| {
        cli(&[
            "move",
            dir,
            "--as",
            seat,
            "--key",
            &key(player(seat)),
            action,
        ]);
    };
    let judge = |t: u32| cli(&["judge", dir, "--key", &key("judge"), "--now", &time(t)]);
    say("a", "reveal");
    say("b", "reveal");
    judge(0);
    for t in 1..400 {
        let d = GameDir::new(dir);
        let g = liubo::LiuboGame::load(&d).expect("the manifest");
        let state = liubo::current(&d, &g).expect("the game so far");
        if state.end.is_some() {
            return;
        }
        let seat = liubo::SEATS[state.position.as_ref().expect("play began").to_move];
        let turns = match game.legal_moves(path, seat, None) {
            Ok(turns) => turns,
            // The throw waits for the other seat's element: it reveals it.
            Err(e) if e.to_string().contains("waiting for") => {
                let other = if seat == "a" { "b" } else { "a" };
                say(other, "reveal");
                judge(t);
                continue;
            }
            Err(e) => panic!("legal turns of {seat}: {e}"),
        };
        let chosen = &turns[next(turns.len())];
        say(seat, chosen);
        judge(t);
    }
    panic!("self-mode sample: no end within 400 turns");
}
