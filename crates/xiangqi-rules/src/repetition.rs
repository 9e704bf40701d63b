//! Perpetual check and perpetual chase (`docs/xiangqi.md`, "Repetition").
//!
//! A move chases a piece when, after it, the mover has a chase-qualifying attack on that piece
//! that it did not have before. Pieces are followed by identity through the moves of the window,
//! so "one enemy piece chased by every move" means the same piece even as it runs.

use super::board::{Color, Kind, SQUARES};
use super::position::{Move, MoveList, Position};
use std::collections::BTreeSet;

/// Which piece is which: an identity per occupied square, carried along by moves.
#[derive(Clone)]
pub struct Identities([u8; SQUARES]);

impl Identities {
    /// Numbers the pieces by their squares in `position`.
    pub fn new(position: &Position) -> Identities {
        let mut ids = [u8::MAX; SQUARES];
        for (square, _) in position.pieces() {
            ids[square.index()] = square.index() as u8;
        }
        Identities(ids)
    }

    pub fn follow(&mut self, m: Move) {
        self.0[m.to.index()] = self.0[m.from.index()];
        self.0[m.from.index()] = u8::MAX;
    }

    fn at(&self, square: usize) -> u8 {
        self.0[square]
    }
}

/// Attacks by `attacker`'s pieces that count as chases if they are new, as (attacker, victim)
/// identity pairs.
pub fn chase_attacks(position: &Position, attacker: Color, ids: &Identities) -> BTreeSet<(u8, u8)> {
    let mut out = BTreeSet::new();
    for (from, piece) in position.pieces() {
        if piece.color != attacker || matches!(piece.kind, Kind::King | Kind::Pawn) {
            continue;
        }
        let mut moves = MoveList::new();
        position.piece_moves(from.index(), &mut moves);
        for m in moves.iter() {
            let Some(victim) = position.piece_at(m.to) else {
                continue;
            };
            let uncrossed_pawn = victim.kind == Kind::Pawn && m.to.on_side_of(victim.color);
            if victim.kind == Kind::King || uncrossed_pawn || !position.keeps_king_safe(m) {
                continue;
            }
            // A chariot standing on the leg of a horse that would otherwise attack its king
            // does not chase that horse (AXF ruling D39, case 22/23 of repetition.json).
            if piece.kind == Kind::Chariot
                && victim.kind == Kind::Horse
                && pinned_by_horse(position, from.index(), m.to.index(), piece.color)
            {
                continue;
            }
            let stronger = match piece.kind {
                Kind::Horse | Kind::Cannon => victim.kind == Kind::Chariot,
                Kind::Advisor | Kind::Elephant => {
                    matches!(victim.kind, Kind::Chariot | Kind::Cannon | Kind::Horse)
                }
                _ => false,
            };
            // Otherwise only an unprotected piece is chased, and a same-kind attack is an
            // exchange unless the victim cannot take back.
            let exchange = victim.kind == piece.kind && can_capture(position, m.to, m.from);
            let chase = stronger || !(is_protected(position, m) || exchange);
            if chase {
                out.insert((ids.at(m.from.index()), ids.at(m.to.index())));
            }
        }
    }
    out
}

/// Whether the piece on `blocker` is the leg of the horse on `horse` toward `color`'s king.
fn pinned_by_horse(position: &Position, blocker: usize, horse: usize, color: Color) -> bool {
    let king = position.king_square(color).index();
    super::board::TABLES.horse[horse]
        .iter()
        .any(|(target, leg)| target == king && leg == blocker)
}

/// Whether the piece on `from` may legally capture on `to` (ignoring whose turn it is).
fn can_capture(position: &Position, from: super::Square, to: super::Square) -> bool {
    let mut list = MoveList::new();
    position.piece_moves(from.index(), &mut list);
    let m = Move { from, to };
    list.iter().any(|x| x == m) && position.keeps_king_safe(m)
}

/// Whether the victim of capture `m` is really protected: after the capture, one of its side's
/// pieces could legally take back (a pinned protector, or a king that would then face the other
/// king, does not count).
fn is_protected(position: &Position, m: Move) -> bool {
    let Some(victim) = position.piece_at(m.to) else {
        return false;
    };
    let mut after = position.clone();
    after.make(m);
    let protectors: Vec<_> = after
        .pieces()
        .filter(|(_, p)| p.color == victim.color)
        .map(|(s, _)| s)
        .collect();
    protectors.into_iter().any(|s| can_capture(&after, s, m.to))
}

/// The verdict of a repetition, from the moves of its window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every move of this side gave check; the other side's did not.
    PerpetualCheck { loser: Color },
    /// Every move of this side chased the piece that started the window on `victim_square`.
    PerpetualChase {
        loser: Color,
        victim: Kind,
        victim_square: super::Square,
    },
    /// Both sides checked, both chased, or neither.
    Draw,
}

/// Decides a repetition: `start` is the position of the key's first occurrence and `moves` the
/// moves played since.
pub fn verdict(start: &Position, moves: &[Move]) -> Verdict {
    let mut position = start.clone();
    let mut ids = Identities::new(start);
    // Per side: did every move check; which identities did every move chase.
    let mut all_check = [true, true];
    let mut chased: [Option<BTreeSet<u8>>; 2] = [None, None];
    for &m in moves {
        let mover = position.side_to_move();
        let before = chase_attacks(&position, mover, &ids);
        position.make(m);
        let mut moved_ids = ids.clone();
        moved_ids.follow(m);
        // Attack pairs are compared by identity, so the moved piece keeps its own.
        let gives_check = position.is_check();
        // A checking move may chase too: it counts for both.
        let after = chase_attacks(&position, mover, &moved_ids);
        let new_victims: BTreeSet<u8> = after.difference(&before).map(|&(_, v)| v).collect();
        ids = moved_ids;
        let side = mover.index();
        all_check[side] &= gives_check;
        chased[side] = Some(match chased[side].take() {
            None => new_victims,
            Some(previous) => previous.intersection(&new_victims).copied().collect(),
        });
    }
    let checks = |c: Color| all_check[c.index()] && chased[c.index()].is_some();
    match (checks(Color::Red), checks(Color::Black)) {
        (true, false) => return Verdict::PerpetualCheck { loser: Color::Red },
        (false, true) => {
            return Verdict::PerpetualCheck {
                loser: Color::Black,
            }
        }
        (true, true) => return Verdict::Draw,
        _ => {}
    }
    let chaser = |c: Color| chased[c.index()].as_ref().and_then(|s| s.first().copied());
    match (chaser(Color::Red), chaser(Color::Black)) {
        (Some(v), None) => chase_verdict(start, Color::Red, v),
        (None, Some(v)) => chase_verdict(start, Color::Black, v),
        _ => Verdict::Draw,
    }
}

fn chase_verdict(start: &Position, loser: Color, id: u8) -> Verdict {
    let victim_square = super::Square::from_index(id as usize).expect("identity is a square");
    let victim = start
        .piece_at(victim_square)
        .map(|p| p.kind)
        .unwrap_or(Kind::Pawn);
    Verdict::PerpetualChase {
        loser,
        victim,
        victim_square,
    }
}
