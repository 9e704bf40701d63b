//! Seeded randomness for playouts, tests, benchmarks and bots. Not for anything secret.

use super::board::{Board, NodeKind, Seat};
use super::combat::resolve;
use super::event::Outcome;
use super::nodeset::NodeSet;
use super::piece::Piece;
use super::position::{Move, Position};
use super::setup::Setup;

pub use qijudge_rules::random::SplitMix64;

/// A move chosen with full knowledge of every piece (for sample games, not for play): take a
/// flag when possible, else win a combat, each three times in four; otherwise any legal move.
/// Panics on a position without a legal move.
pub fn greedy_move<S: NodeSet>(p: &Position<S>, rng: &mut SplitMix64) -> Move {
    let moves = p.legal_moves();
    let score = |m: &Move| match (p.at(m.from), p.at(m.to)) {
        (_, Some(d)) if d.piece == Piece::Flag => 3,
        (Some(a), Some(d)) if resolve(a.piece, d.piece, p.options()) == Outcome::AttackerWon => 2,
        _ => 0,
    };
    let best = moves.iter().map(score).max().unwrap_or(0);
    let top: Vec<Move> = moves.iter().copied().filter(|m| score(m) == best).collect();
    if best > 0 && rng.below(4) > 0 {
        top[rng.below(top.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}

/// A random legal setup for `seat`.
pub fn random_setup<S: NodeSet>(board: &Board<S>, seat: Seat, rng: &mut SplitMix64) -> Setup {
    let half = board.halves[seat.index()].minus(board.camps);
    let front = half.iter().map(|sq| board.nodes[sq].row).max().unwrap_or(0);
    let mut free: Vec<usize> = half.iter().collect();
    let mut pieces = Vec::new();
    let mut place = |free: &mut Vec<usize>,
                     piece: Piece,
                     allowed: &dyn Fn(usize) -> bool,
                     rng: &mut SplitMix64| {
        let choices: Vec<usize> = free.iter().copied().filter(|&sq| allowed(sq)).collect();
        let sq = choices[rng.below(choices.len())];
        free.retain(|&s| s != sq);
        pieces.push((sq, piece));
    };
    place(
        &mut free,
        Piece::Flag,
        &|sq| board.nodes[sq].kind == NodeKind::Hq,
        rng,
    );
    for _ in 0..Piece::Landmine.count() {
        place(
            &mut free,
            Piece::Landmine,
            &|sq| board.nodes[sq].row <= 1,
            rng,
        );
    }
    for _ in 0..Piece::Bomb.count() {
        place(
            &mut free,
            Piece::Bomb,
            &|sq| board.nodes[sq].row != front,
            rng,
        );
    }
    let mut rest: Vec<Piece> = Piece::ALL
        .into_iter()
        .filter(|p| !matches!(p, Piece::Flag | Piece::Landmine | Piece::Bomb))
        .flat_map(|p| std::iter::repeat_n(p, p.count()))
        .collect();
    rng.shuffle(&mut rest);
    pieces.extend(free.into_iter().zip(rest));
    pieces.sort();
    Setup { seat, pieces }
}
