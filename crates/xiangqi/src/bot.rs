//! The greedy built-in bot's measure of a Xiangqi move: the most valuable capture.

use xiangqi_rules::notation::parse_iccs;
use xiangqi_rules::{fen, Kind};

/// What a greedy bot thinks a piece is worth (Jieqi's bot counts the same).
pub fn worth(kind: Kind) -> i32 {
    match kind {
        Kind::King => 1000,
        Kind::Chariot => 90,
        Kind::Cannon => 45,
        Kind::Horse => 40,
        Kind::Advisor | Kind::Elephant => 20,
        Kind::Pawn => 10,
    }
}

/// Each legal move's score from the seat's view: the worth of what it takes.
pub fn greedy_scores(view: &serde_json::Value, legal: &[String]) -> Vec<i32> {
    let Some(position) = view["fen"].as_str().and_then(|f| fen::parse(f).ok()) else {
        return vec![0; legal.len()];
    };
    legal
        .iter()
        .map(|m| {
            parse_iccs(m)
                .and_then(|m| position.piece_at(m.to))
                .map_or(0, |p| worth(p.kind))
        })
        .collect()
}
