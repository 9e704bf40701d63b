//! A Jieqi game: the positions since the start, what each move turned up, and how it ended.
//! Endings are Xiangqi's ([`Ending`]): mate and stalemate lose, a position's third occurrence
//! is a loss for a side that gave check with every move since its first (perpetual check) and
//! a draw otherwise, and the optional move limit draws.

use super::position::{Cell, Position};
use super::{Options, MOVE_LIMIT_PLIES};
use qijudge_rules::line::Line;
use std::fmt;
use xiangqi_rules::position::MoveError;
use xiangqi_rules::{Color, Ending, Kind, Move};

/// One move played: what it turned face up, and what it took (as it lay on the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub mv: Move,
    pub revealed: Option<Kind>,
    pub captured: Option<Cell>,
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    Move(MoveError),
    /// A face-down piece moved but no identity was given for it, or a face-up one was given one.
    Reveal(String),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Move(e) => e.fmt(f),
            PlayError::Reveal(why) => f.write_str(why),
        }
    }
}

/// A Jieqi game: the moves since the deal and how it ended.
#[derive(Clone, Debug)]
pub struct Game(Line<Options, Position, Played, Ending>);

/// The line's own accessors (options, positions, turns played, ending) are the game's.
impl std::ops::Deref for Game {
    type Target = Line<Options, Position, Played, Ending>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Game {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Game {
    pub fn new(options: Options) -> Game {
        Game(Line::from_start(options, Position::start(options.free())))
    }

    /// A game from another position (tests, composed problems); `options` decide how
    /// revealed advisors and elephants move.
    pub fn from_position(mut start: Position, options: Options) -> Game {
        start.set_free(options.free());
        Game(Line::from_start(options, start))
    }

    /// How many of `color`'s pieces of `kind` have been turned face up so far.
    fn revealed_count(&self, color: Color, kind: Kind) -> usize {
        self.played()
            .iter()
            .zip(self.positions())
            .filter(|(p, before)| p.revealed == Some(kind) && before.side_to_move() == color)
            .count()
    }

    /// Plays a move; a move of a face-down piece needs the identity it turns out to have.
    pub fn play(&mut self, m: Move, revealed: Option<Kind>) -> Result<Option<&Ending>, PlayError> {
        if self.ending().is_some() {
            return Err(PlayError::Move(MoveError::GameOver));
        }
        let position = self.position();
        position.check_move(m).map_err(PlayError::Move)?;
        let hidden = position.cell(m.from).is_some_and(|c| c.hidden);
        let side = position.side_to_move();
        match (hidden, revealed) {
            (true, None) => {
                return Err(PlayError::Reveal(format!(
                    "the piece on {} is face down: its move turns it up",
                    m.from
                )))
            }
            (false, Some(_)) => {
                return Err(PlayError::Reveal(format!(
                    "the piece on {} is already face up",
                    m.from
                )))
            }
            (true, Some(Kind::King)) => {
                return Err(PlayError::Reveal("no king lies face down".into()))
            }
            (true, Some(kind)) if self.revealed_count(side, kind) >= kind.max_count() => {
                return Err(PlayError::Reveal(format!(
                    "{} has only {} {}s",
                    side.name(),
                    kind.max_count(),
                    kind.name()
                )))
            }
            _ => {}
        }
        let mut next = position.clone();
        let captured = next.make(m, revealed);
        let turn = Played {
            mv: m,
            revealed,
            captured,
        };
        self.0.push(turn, next, |_| None);
        self.judge_after_push();
        Ok(self.ending())
    }

    /// The ending the current position brings, if any.
    /// Ends the game if the position just pushed ends it.
    fn judge_after_push(&mut self) {
        if let Some(ending) = self.judge_position() {
            self.0.end(ending);
        }
    }

    fn judge_position(&self) -> Option<Ending> {
        let now = self.position();
        let side = now.side_to_move();
        if !now.has_legal_move() {
            return Some(match now.is_check() {
                true => Ending::Checkmate { loser: side },
                false => Ending::Stalemate { loser: side },
            });
        }
        // Captures and reveals cannot be undone: only positions since the last one can recur.
        let last = self.positions().len() - 1;
        let window = last - (now.quiet as usize).min(last);
        let key = now.key();
        let same: Vec<usize> = (window..=last)
            .filter(|&i| self.positions()[i].key() == key)
            .collect();
        if same.len() >= 3 {
            return Some(self.repetition_verdict(same[0]));
        }
        if self.options().move_limit && now.quiet >= MOVE_LIMIT_PLIES {
            return Some(Ending::MoveLimit);
        }
        None
    }

    /// The third occurrence of a position first seen before move `first`: a side that gave
    /// check with every one of its moves since then loses, unless both did.
    fn repetition_verdict(&self, first: usize) -> Ending {
        let mut always_check = [true, true];
        let mut moved = [false, false];
        for j in first..self.played().len() {
            let mover = self.positions()[j].side_to_move();
            moved[mover.index()] = true;
            if !self.positions()[j + 1].is_check() {
                always_check[mover.index()] = false;
            }
        }
        let checker = |c: Color| always_check[c.index()] && moved[c.index()];
        match (checker(Color::Red), checker(Color::Black)) {
            (true, false) => Ending::PerpetualCheck { loser: Color::Red },
            (false, true) => Ending::PerpetualCheck {
                loser: Color::Black,
            },
            _ => Ending::Repetition,
        }
    }
}
