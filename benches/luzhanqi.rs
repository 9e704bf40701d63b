//! Luzhanqi rules speed: legal-move generations per second on mid-game positions, and
//! random-playout plies per second, on the two-player board and on the four-player cross board.
//! Run with `cargo bench --bench luzhanqi`.

use qijudge::rules::luzhanqi::nodeset::Wide;
use qijudge::rules::luzhanqi::random::{random_setup, SplitMix64};
use qijudge::rules::luzhanqi::{cross_four, two_player, Move, Options, Position, Seat};
use std::hint::black_box;
use std::time::Instant;

fn start(rng: &mut SplitMix64) -> Position {
    let b = two_player();
    let setups = [random_setup(b, Seat(0), rng), random_setup(b, Seat(1), rng)];
    Position::start(b, Options::default(), &setups, Seat(0)).0
}

/// Positions reached after 20 to 60 random plies of many games.
fn mid_game_positions(count: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(42);
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = start(&mut rng);
        let depth = 20 + rng.below(41);
        for _ in 0..depth {
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

fn main() {
    let positions = mid_game_positions(1000);
    let mut buf: Vec<Move> = Vec::with_capacity(128);
    let rounds = 2000;
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
        "movegen: {:.2} M legal-move generations/s ({:.0} ns each, {:.1} moves per position)",
        gens / secs / 1e6,
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
        let mut p = start(&mut rng);
        setup_time += s.elapsed().as_secs_f64();
        while p.result().is_none() && p.ply() < 2000 {
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
        "playout: {:.2} M plies/s ({} games, {:.0} plies per game; each ply = generate + choose + apply + end check)",
        plies as f64 / secs / 1e6,
        games,
        plies as f64 / games as f64
    );
    cross_board();
}

/// The same two figures on the cross board (129 nodes, four seats, a 192-bit node set).
fn cross_board() {
    let b = cross_four();
    let start = |rng: &mut SplitMix64| -> Position<Wide> {
        let setups: Vec<_> = b.seats().map(|s| random_setup(b, s, rng)).collect();
        Position::start(b, Options::default(), &setups, Seat(0)).0
    };
    let mut rng = SplitMix64::new(42);
    let mut positions = Vec::new();
    while positions.len() < 1000 {
        let mut p = start(&mut rng);
        for _ in 0..40 + rng.below(81) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.apply_unchecked(moves[rng.below(moves.len())], &mut Vec::new());
        }
        if p.result().is_none() {
            positions.push(p);
        }
    }
    let mut buf: Vec<Move> = Vec::with_capacity(256);
    let rounds = 500;
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
        "cross4 movegen: {:.2} M legal-move generations/s ({:.0} ns each, {:.1} moves per position)",
        gens / secs / 1e6,
        secs / gens * 1e9,
        total_moves as f64 / gens
    );
    let (mut plies, mut games) = (0u64, 0u64);
    let mut events = Vec::with_capacity(16);
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < 3.0 {
        let mut p = start(&mut rng);
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
    let secs = t.elapsed().as_secs_f64();
    println!(
        "cross4 playout: {:.2} M plies/s ({} games, {:.0} plies per game, setups included)",
        plies as f64 / secs / 1e6,
        games,
        plies as f64 / games as f64
    );
}
