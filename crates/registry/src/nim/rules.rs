//! Nim's pure rules, no I/O: one pile of stones, each ply takes one or two, and whoever takes
//! the last stone wins (the opponent is left without a move).

use std::fmt;

/// A ply: the stones taken (one or two).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Take(pub u32);

/// The most stones one ply may take.
pub const MOST: u32 = 2;

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Take {
    /// A ply as a player writes it: `1` or `2`.
    pub fn parse(text: &str) -> Result<Take, String> {
        match text.trim() {
            "1" => Ok(Take(1)),
            "2" => Ok(Take(2)),
            other => Err(format!(
                "{other:?} is not a ply: write 1 or 2 (the stones to take)"
            )),
        }
    }
}

/// The pile and whose ply it is (0 the first seat, 1 the second).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pile {
    pub stones: u32,
    pub to_move: usize,
}

impl Pile {
    pub fn start(stones: u32) -> Pile {
        Pile { stones, to_move: 0 }
    }

    /// The plies the seat to move may play, fewest stones first; none once the pile is empty.
    pub fn legal(&self) -> Vec<Take> {
        (1..=MOST.min(self.stones)).map(Take).collect()
    }

    /// Why `take` may not be played here, if it may not.
    pub fn check(&self, take: Take) -> Result<(), String> {
        if !(1..=MOST).contains(&take.0) {
            return Err(format!("a ply takes 1 or 2 stones, not {}", take.0));
        }
        if take.0 > self.stones {
            return Err(format!(
                "takes {} stones, but {} left",
                take.0,
                match self.stones {
                    1 => "only 1 is".to_string(),
                    n => format!("only {n} are"),
                }
            ));
        }
        Ok(())
    }

    /// Plays a checked ply.
    pub fn play(&mut self, take: Take) {
        self.stones -= take.0.min(self.stones);
        self.to_move = 1 - self.to_move;
    }

    /// The seat that took the last stone, once the pile is empty.
    pub fn winner(&self) -> Option<usize> {
        (self.stones == 0).then_some(1 - self.to_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seat_that_takes_the_last_stone_wins() {
        let mut p = Pile::start(3);
        assert_eq!(p.legal(), vec![Take(1), Take(2)]);
        p.play(Take(2));
        assert_eq!(p.legal(), vec![Take(1)]);
        assert_eq!(
            p.check(Take(2)),
            Err("takes 2 stones, but only 1 is left".into())
        );
        assert_eq!(p.winner(), None);
        p.play(Take(1));
        assert_eq!(p.winner(), Some(1));
        assert!(p.legal().is_empty());
    }

    #[test]
    fn a_ply_reads_only_as_one_or_two() {
        assert_eq!(Take::parse("2"), Ok(Take(2)));
        assert!(Take::parse("3").is_err());
        assert!(Take::parse("two").is_err());
    }
}
