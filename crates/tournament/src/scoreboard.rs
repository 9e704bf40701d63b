//! The first bot's games and pairs, counted as games finish, as fastchess's scoreboard counts
//! them: what the summary, the sequential test and the fleets' blocks are computed from.

use super::runner::Event;
use super::standings::GameRecord;
use super::stats::{Score, Stats};
use std::collections::BTreeMap;

/// The first bot's games and pairs, counted as games finish. Games 2i+1 and 2i+2 (by their
/// folders' numbers) make pair i; in pairs, a game counts once its pair is finished, as
/// fastchess's scoreboard counts it (so every block's games are twice its pairs).
#[derive(Clone, Debug)]
pub struct Scoreboard {
    pub first: String,
    /// Whether the games are played in pairs (a book).
    pub pairs: bool,
    pub stats: Stats,
    /// The first game of each pair still waiting for its second.
    waiting: BTreeMap<u32, Score>,
}

impl Scoreboard {
    pub fn new(first: &str, pairs: bool) -> Scoreboard {
        Scoreboard {
            first: first.to_string(),
            pairs,
            stats: Stats::default(),
            waiting: BTreeMap::new(),
        }
    }

    /// Counts the games an event of the match reports.
    pub fn on(&mut self, event: &Event) {
        match event {
            Event::Started { earlier, .. } => earlier.iter().for_each(|r| {
                self.add(r);
            }),
            Event::Finished { record, .. } => {
                self.add(record);
            }
            Event::Began { .. } | Event::Stopping { .. } => {}
        }
    }

    /// Counts one finished game between the first bot and another; true when it finished its
    /// pair.
    pub fn add(&mut self, r: &GameRecord) -> bool {
        let score = match &r.winner {
            None => Score::Draw,
            Some(w) if *w == self.first => Score::Win,
            Some(_) => Score::Loss,
        };
        let number = super::runner::game_number(&r.dir).filter(|_| self.pairs);
        let Some(k) = number else {
            self.stats.add_game(score);
            return false;
        };
        let pair = (k - 1) / 2;
        match self.waiting.remove(&pair) {
            Some(other) => {
                self.stats.add_game(other);
                self.stats.add_game(score);
                self.stats.add_pair(other, score);
                true
            }
            None => {
                self.waiting.insert(pair, score);
                false
            }
        }
    }
}
