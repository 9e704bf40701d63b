//! The greedy built-in bot's measure of a Luzhanqi move. It knows only its view: its own
//! pieces, where enemy pieces stand, and what the public history says.

use super::view::ViewFile;
use luzhanqi_rules::{Outcome, Piece};
use std::collections::{BTreeMap, BTreeSet};

/// Each legal move's score: take a revealed flag, attack with officers, probe the enemy
/// headquarters, advance.
pub fn greedy_scores(view: &ViewFile, legal: &[String]) -> Vec<i32> {
    let me = view.audience.as_str();
    let at: BTreeMap<&str, (&str, Option<Piece>)> = view
        .pieces
        .iter()
        .map(|p| (p.square.as_str(), (p.seat.as_str(), p.piece)))
        .collect();
    let strong = strong_enemies(view);
    let rank_of = |sq: &str| sq[1..].parse::<i32>().unwrap_or(0);
    let forward = if me == "south" { 1 } else { -1 };
    let enemy_hq: &[&str] = if me == "south" {
        &["b12", "d12"]
    } else {
        &["b1", "d1"]
    };
    legal
        .iter()
        .map(|m| {
            let Some((from, to)) = m.split_once('-') else {
                return -100_000;
            };
            let mine = at.get(from).and_then(|(_, p)| *p);
            let mover = mine.and_then(|p| p.rank()).unwrap_or(0) as i32;
            let deep = if me == "south" {
                rank_of(to) >= 11
            } else {
                rank_of(to) <= 2
            };
            match (at.get(to), mine) {
                (Some((_, Some(Piece::Flag))), _) => 10_000,
                (Some((_, Some(p))), _) if p.rank().is_some_and(|r| (r as i32) < mover) => 300,
                (Some((_, Some(_))), _) => -300,
                // A headquarters holds the flag half the time: probe it with a cheap piece.
                (Some(_), Some(Piece::Bomb)) if enemy_hq.contains(&to) => 400,
                (Some(_), _) if enemy_hq.contains(&to) => 500 - 10 * mover,
                (Some(_), Some(Piece::Bomb)) if strong.contains(to) => 250,
                (Some(_), Some(Piece::Bomb)) => -10,
                (Some(_), Some(Piece::Engineer)) if deep => 60,
                (Some(_), Some(Piece::Engineer)) => -30,
                (Some(_), _) if deep || strong.contains(to) => -40,
                (Some(_), _) => 10 + 3 * mover.min(6),
                (None, _) => (rank_of(to) - rank_of(from)) * forward * 3,
            }
        })
        .collect()
}

/// Squares of enemy pieces that have won a combat (strong officers, or mines), followed through
/// the public history.
fn strong_enemies(view: &ViewFile) -> BTreeSet<String> {
    let mut strong = BTreeSet::new();
    for h in &view.history {
        let Some((from, to)) = h.action.split_once('-') else {
            continue;
        };
        let moved_strong = strong.remove(from);
        let enemy_moved = h.seat != view.audience;
        match h.outcome {
            Some(Outcome::Moved) if moved_strong => {
                strong.insert(to.to_string());
            }
            Some(Outcome::AttackerWon) if enemy_moved => {
                strong.insert(to.to_string());
            }
            Some(Outcome::AttackerWon) => {
                strong.remove(to);
            }
            Some(Outcome::DefenderWon) if !enemy_moved => {
                strong.insert(to.to_string());
            }
            Some(Outcome::BothRemoved) => {
                strong.remove(to);
            }
            _ => {}
        }
    }
    strong
}

/// A random legal army for `seat` on `board`, drawn from `rng` (the built-in bots' answer to a
/// setup request): square name to piece name.
pub fn random_setup(
    board: &str,
    seat: &str,
    rng: &mut qijudge_rules::random::SplitMix64,
) -> qijudge_protocol::error::Result<std::collections::BTreeMap<String, String>> {
    use qijudge_protocol::error::Error;
    let b = super::rules::by_name(board).ok_or(Error::Io(format!("unknown board {board}")))?;
    let s = b
        .seat(seat)
        .ok_or(Error::Io(format!("unknown seat {seat}")))?;
    let setup = super::rules::random::random_setup(b, s, rng);
    Ok(setup
        .pieces
        .iter()
        .map(|(sq, p)| (b.name_of(*sq).to_string(), p.english().to_string()))
        .collect())
}
