//! Builds a complete sample game through the real command line: keys, manifest, setups,
//! signed moves, judging after every move, the reveal and the audit.
//!
//! Usage: cargo run --example make_sample -- DIR [SEED]
//! Both "players" here know both setups, so moves are chosen with full knowledge: take the
//! flag when possible, else win a combat, else move at random. Seeds are tried until a game
//! ends by flag capture within 160 plies.

use clap::Parser;
use qijudge::cli::{run, Cli};
use qijudge::games::luzhanqi::rules::random::{greedy_move, SplitMix64};
use qijudge::games::luzhanqi::rules::*;
use std::path::Path;

const SOUTH: &str = "rows = [\n  \"CO CP LT CP BG\",\n  \"MJ . EN . MG\",\n  \"EN LT . CP GN\",\n  \"BM . CO . BM\",\n  \"FM BG MG LT MJ\",\n  \"LM FL LM EN LM\",\n]\n";
const NORTH: &str = "rows = [\n  \"LT CP MJ CO EN\",\n  \"CP . BG . EN\",\n  \"GN MG . LT CP\",\n  \"BG . BM . MG\",\n  \"LM CO BM LT FM\",\n  \"EN FL LM LM MJ\",\n]\n";

fn cli(args: &[&str]) {
    let mut all = vec!["qijudge"];
    all.extend_from_slice(args);
    if let Err(e) = run(Cli::parse_from(all)) {
        panic!("qijudge {}: {e}", args.join(" "));
    }
}

fn setups() -> Vec<Setup> {
    let b = two_player();
    [SOUTH, NORTH]
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let placement = Placement::from_toml(text, b, Seat(i as u8)).unwrap();
            Setup::validate(b, Seat(i as u8), &placement).unwrap()
        })
        .collect()
}

fn find_seed(mut seed: u64) -> (u64, Vec<Move>) {
    loop {
        let mut rng = SplitMix64::new(seed);
        let (mut p, _) = Position::start(two_player(), Options::default(), &setups(), Seat(0));
        let mut moves = Vec::new();
        while p.result().is_none() && p.ply() < 160 {
            let m = greedy_move(&p, &mut rng);
            moves.push(m);
            p.play(m).unwrap();
        }
        if p.result().map(|r| r.reason) == Some(EndReason::FlagCaptured) {
            return (seed, moves);
        }
        seed += 1;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = Path::new(args.get(1).expect("usage: make_sample DIR [SEED]"));
    let seed = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(1);
    let (seed, moves) = find_seed(seed);
    eprintln!("seed {seed}: {} plies", moves.len());
    let keys = dir.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let k = |name: &str| keys.join(name).to_string_lossy().to_string();
    for name in ["alice", "bob", "judge"] {
        cli(&["keygen", &k(name)]);
    }
    let d = dir.to_string_lossy().to_string();
    let alice = format!("alice={}.pub", k("alice"));
    let bob = format!("bob={}.pub", k("bob"));
    let judge_pub = format!("{}.pub", k("judge"));
    cli(&[
        "new",
        "luzhanqi",
        &d,
        "--player",
        &alice,
        "--player",
        &bob,
        "--judge",
        &judge_pub,
        "--now",
        "2026-11-21T09:00:00Z",
        "--sample",
    ]);
    for (seat, key, text) in [("south", "alice", SOUTH), ("north", "bob", NORTH)] {
        let file = dir.join(format!("{seat}-setup.toml"));
        std::fs::write(&file, text).unwrap();
        cli(&[
            "setup",
            &d,
            "--as",
            seat,
            "--key",
            &k(key),
            &file.to_string_lossy(),
        ]);
    }
    cli(&[
        "judge",
        &d,
        "--key",
        &k("judge"),
        "--now",
        "2026-11-21T09:10:00Z",
    ]);
    let b = two_player();
    for (i, m) in moves.iter().enumerate() {
        let (seat, key) = if i % 2 == 0 {
            ("south", "alice")
        } else {
            ("north", "bob")
        };
        cli(&["move", &d, "--as", seat, "--key", &k(key), &m.display(b)]);
        let minute = 11 + i;
        let now = format!("2026-11-21T{:02}:{:02}:00Z", 9 + minute / 60, minute % 60);
        cli(&["judge", &d, "--key", &k("judge"), "--now", &now]);
    }
    cli(&["reveal", &d]);
    cli(&["verify", &d]);
}
