//! Builds the four-player sample game (`games/luzhanqi/sample-4p`) through the real command
//! line: keys, manifest on the cross board, four setups, signed moves judged one by one, the
//! reveal and the audit.
//!
//! Usage: cargo run --example make_4p_sample -- DIR [SEED]
//! The "players" here know every setup, so moves are chosen with full knowledge: take a flag
//! when possible, else win a combat, else move at random. Seeds are tried until the game ends
//! with a team's victory within 200 plies and at least one player out before the end.

use clap::Parser;
use qijudge::cli::{run, Cli};
use qijudge::games::luzhanqi::rules::random::{greedy_move, SplitMix64};
use qijudge::games::luzhanqi::rules::*;
use std::path::Path;

const ROWS: [&str; 2] = [
    "rows = [\n  \"CO CP LT CP BG\",\n  \"MJ . EN . MG\",\n  \"EN LT . CP GN\",\n  \"BM . CO . BM\",\n  \"FM BG MG LT MJ\",\n  \"LM FL LM EN LM\",\n]\n",
    "rows = [\n  \"LT CP MJ CO EN\",\n  \"CP . BG . EN\",\n  \"GN MG . LT CP\",\n  \"BG . BM . MG\",\n  \"LM CO BM LT FM\",\n  \"EN FL LM LM MJ\",\n]\n",
];
/// Seat, player, setup rows.
const SEATS: [(&str, &str, usize); 4] = [
    ("south", "alice", 0),
    ("east", "carol", 1),
    ("north", "bob", 1),
    ("west", "dave", 0),
];

fn cli(args: &[&str]) {
    let mut all = vec!["qijudge"];
    all.extend_from_slice(args);
    if let Err(e) = run(Cli::parse_from(all)) {
        panic!("qijudge {}: {e}", args.join(" "));
    }
}

fn setups() -> Vec<Setup> {
    let b = cross_four();
    SEATS
        .iter()
        .enumerate()
        .map(|(i, (_, _, rows))| {
            let placement = Placement::from_toml(ROWS[*rows], b, Seat(i as u8)).unwrap();
            Setup::validate(b, Seat(i as u8), &placement).unwrap()
        })
        .collect()
}

/// The moves of a game from `seed`, each with its mover.
fn find_seed(mut seed: u64) -> (u64, Vec<(Seat, Move)>) {
    loop {
        let mut rng = SplitMix64::new(seed);
        let (mut p, _) = Position::start(cross_four(), Options::default(), &setups(), Seat(0));
        let mut moves = Vec::new();
        let mut out_before_end = false;
        while p.result().is_none() && p.ply() < 200 {
            let m = greedy_move(&p, &mut rng);
            moves.push((p.to_move(), m));
            p.play(m).unwrap();
            out_before_end |= p.result().is_none() && cross_four().seats().any(|s| p.is_out(s));
        }
        if p.result().is_some_and(|r| r.winner.is_some()) && out_before_end {
            return (seed, moves);
        }
        seed += 1;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = Path::new(args.get(1).expect("usage: make_4p_sample DIR [SEED]"));
    let seed = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(1);
    let (seed, moves) = find_seed(seed);
    eprintln!("seed {seed}: {} plies", moves.len());
    let keys = dir.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let k = |name: &str| keys.join(name).to_string_lossy().to_string();
    // Alice, Bob and the judge keep the keys of the two-player sample.
    let two_player_keys = Path::new("games/luzhanqi/sample/keys");
    for name in ["alice", "bob", "judge"] {
        for ext in ["", ".pub"] {
            std::fs::copy(
                two_player_keys.join(format!("{name}{ext}")),
                keys.join(format!("{name}{ext}")),
            )
            .unwrap();
        }
    }
    for name in ["carol", "dave"] {
        cli(&["keygen", &k(name)]);
    }
    let d = dir.to_string_lossy().to_string();
    let players: Vec<String> = SEATS
        .iter()
        .map(|(_, name, _)| format!("{name}={}.pub", k(name)))
        .collect();
    let judge_pub = format!("{}.pub", k("judge"));
    let mut new = vec!["new", "luzhanqi", &d, "--board", "cross4"];
    for p in &players {
        new.extend(["--player", p.as_str()]);
    }
    new.extend([
        "--judge",
        &judge_pub,
        "--now",
        "2026-11-21T09:00:00Z",
        "--sample",
    ]);
    cli(&new);
    for (seat, key, rows) in SEATS {
        let file = dir.join(format!("{seat}-setup.toml"));
        std::fs::write(&file, ROWS[rows]).unwrap();
        cli(&[
            "setup",
            &d,
            "--as",
            seat,
            "--key",
            &k(key),
            &file.to_string_lossy(),
        ]);
        std::fs::remove_file(&file).unwrap();
    }
    cli(&[
        "judge",
        &d,
        "--key",
        &k("judge"),
        "--now",
        "2026-11-21T09:10:00Z",
    ]);
    let b = cross_four();
    for (i, (seat, m)) in moves.iter().enumerate() {
        let (name, key, _) = SEATS[seat.index()];
        cli(&["move", &d, "--as", name, "--key", &k(key), &m.display(b)]);
        let minute = 11 + i;
        let now = format!("2026-11-21T{:02}:{:02}:00Z", 9 + minute / 60, minute % 60);
        cli(&["judge", &d, "--key", &k("judge"), "--now", &now]);
    }
    cli(&["reveal", &d]);
    cli(&["verify", &d]);
}
