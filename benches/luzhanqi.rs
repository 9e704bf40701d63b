//! Luzhanqi rules speed, each figure beside its target: legal-move generations per second on
//! mid-game positions, and random-playout plies per second (each ply = generate + choose +
//! apply + end check), on the two-player board with its 64-bit node set, on the same board
//! with the 192-bit set (as the judge, bots and matches play it), and on the four-player cross
//! board. Run with `cargo bench --bench luzhanqi`.

use qijudge::games::luzhanqi::rules::board::{two_player_wide, Board};
use qijudge::games::luzhanqi::rules::nodeset::NodeSet;
use qijudge::games::luzhanqi::rules::random::{random_setup, SplitMix64};
use qijudge::games::luzhanqi::rules::{cross_four, two_player, Move, Options, Position, Seat};
use std::hint::black_box;
use std::time::Instant;

fn start<S: NodeSet>(board: &'static Board<S>, rng: &mut SplitMix64) -> Position<S> {
    let setups: Vec<_> = board.seats().map(|s| random_setup(board, s, rng)).collect();
    Position::start(board, Options::default(), &setups, Seat(0)).0
}

/// Positions reached after 20 to 60 (two seats) or 40 to 120 (four seats) random plies.
fn mid_game_positions<S: NodeSet>(board: &'static Board<S>, count: usize) -> Vec<Position<S>> {
    let mut rng = SplitMix64::new(42);
    let (least, spread) = if board.seats().count() == 2 {
        (20, 41)
    } else {
        (40, 81)
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = start(board, &mut rng);
        for _ in 0..least + rng.below(spread) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.apply_unchecked(moves[rng.below(moves.len())], &mut Vec::new());
        }
        if p.result().is_none() {
            out.push(p);
        }
    }
    out
}

/// Prints both figures for one board and set type, with their targets (million per second).
fn measure<S: NodeSet>(label: &str, board: &'static Board<S>, targets: (f64, f64)) {
    let positions = mid_game_positions(board, 1000);
    let mut buf: Vec<Move> = Vec::with_capacity(256);
    let rounds = 1000;
    let t = Instant::now();
    let mut total_moves = 0;
    for _ in 0..rounds {
        for p in &positions {
            buf.clear();
            black_box(p).legal_moves_into(&mut buf);
            total_moves += buf.len();
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let gens = (rounds * positions.len()) as f64;
    println!(
        "{label} movegen: {:.2} M legal-move generations/s (target ≥ {} M; {:.0} ns each, {:.1} moves per position)",
        gens / secs / 1e6,
        targets.0,
        secs / gens * 1e9,
        total_moves as f64 / gens
    );

    let mut rng = SplitMix64::new(7);
    let mut events = Vec::with_capacity(16);
    let (mut plies, mut games) = (0u64, 0u64);
    let t = Instant::now();
    let mut setup_time = 0.0;
    while t.elapsed().as_secs_f64() < 3.0 {
        let s = Instant::now();
        let mut p = start(board, &mut rng);
        setup_time += s.elapsed().as_secs_f64();
        while p.result().is_none() && p.ply() < 4000 {
            buf.clear();
            p.legal_moves_into(&mut buf);
            let m = buf[rng.below(buf.len())];
            events.clear();
            p.apply_unchecked(m, &mut events);
            plies += 1;
        }
        games += 1;
    }
    let secs = t.elapsed().as_secs_f64() - setup_time;
    println!(
        "{label} playout: {:.2} M plies/s (target ≥ {} M; {} games, {:.0} plies per game)",
        plies as f64 / secs / 1e6,
        targets.1,
        games,
        plies as f64 / games as f64
    );
}

fn main() {
    measure("2p (64-bit set)", two_player(), (2.0, 3.0));
    measure("2p (192-bit set, as judged)", two_player_wide(), (2.0, 3.0));
    // No movegen target is set for four players; the playout target is 1.5 M.
    measure("cross4", cross_four(), (0.0, 1.5));
}
