//! A game: the positions since the start, and how it ended.

use super::board::Color;
use super::position::{Move, MoveError, Position};
use super::repetition::{self, Verdict};
use std::fmt;

/// Rule options of a Xiangqi game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Draw after 120 plies without a capture, not counting checks beyond 10 per side (§4).
    pub move_limit: bool,
    /// Replaying a record rather than judging: a repetition does not end the game when it
    /// happens, only [`Game::finish_record`] judges the last position (records of games played
    /// elsewhere often go on past a repetition nobody claimed).
    pub record: bool,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Side(Color),
    Draw,
}

impl Winner {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            Winner::Side(Color::Red) => "1-0",
            Winner::Side(Color::Black) => "0-1",
            Winner::Draw => "1/2-1/2",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is in check and has no legal move.
    Checkmate {
        loser: Color,
    },
    /// The side to move is not in check and has no legal move (it loses too).
    Stalemate {
        loser: Color,
    },
    PerpetualCheck {
        loser: Color,
    },
    PerpetualChase {
        loser: Color,
        victim: super::Kind,
        victim_square: super::Square,
    },
    /// A position occurred for the third time with no side to blame.
    Repetition,
    MoveLimit,
    Resignation {
        loser: Color,
    },
    AgreedDraw,
    /// Decided outside the rules of play (a deadline, a judge's ruling).
    Forfeit {
        loser: Color,
    },
    /// A match judge's ruling on the engines' scores or the game's length (none: a draw).
    Adjudicated {
        winner: Option<Color>,
    },
}

impl Ending {
    pub fn winner(&self) -> Winner {
        match self {
            Ending::Checkmate { loser }
            | Ending::Stalemate { loser }
            | Ending::PerpetualCheck { loser }
            | Ending::PerpetualChase { loser, .. }
            | Ending::Resignation { loser }
            | Ending::Forfeit { loser } => Winner::Side(loser.other()),
            Ending::Repetition | Ending::MoveLimit | Ending::AgreedDraw => Winner::Draw,
            Ending::Adjudicated { winner: Some(c) } => Winner::Side(*c),
            Ending::Adjudicated { winner: None } => Winner::Draw,
        }
    }

    /// A stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Ending::Checkmate { .. } => "checkmate",
            Ending::Stalemate { .. } => "stalemate",
            Ending::PerpetualCheck { .. } => "perpetual-check",
            Ending::PerpetualChase { .. } => "perpetual-chase",
            Ending::Repetition => "repetition",
            Ending::MoveLimit => "move-limit",
            Ending::Resignation { .. } => "resignation",
            Ending::AgreedDraw => "agreed-draw",
            Ending::Forfeit { .. } => "forfeit",
            Ending::Adjudicated { .. } => "adjudication",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Checkmate { loser } => write!(f, "checkmate: {} is mated", loser.name()),
            Ending::Stalemate { loser } => {
                write!(f, "stalemate: {} has no legal move and loses", loser.name())
            }
            Ending::PerpetualCheck { loser } => write!(f, "perpetual check by {}", loser.name()),
            Ending::PerpetualChase {
                loser,
                victim,
                victim_square,
            } => write!(
                f,
                "perpetual chase of the {} {} (on {victim_square} when the repetition began) by {}",
                loser.other().name(),
                victim.name(),
                loser.name()
            ),
            Ending::Repetition => write!(f, "repetition: draw"),
            Ending::MoveLimit => write!(f, "move limit: draw"),
            Ending::Resignation { loser } => write!(f, "{} resigned", loser.name()),
            Ending::AgreedDraw => write!(f, "draw agreed"),
            Ending::Forfeit { loser } => write!(f, "{} forfeits", loser.name()),
            Ending::Adjudicated { winner: Some(c) } => write!(f, "adjudicated: {} wins", c.name()),
            Ending::Adjudicated { winner: None } => write!(f, "adjudicated: draw"),
        }
    }
}

/// A game from a start position, move by move.
#[derive(Clone, Debug)]
pub struct Game {
    options: Options,
    /// Positions before each move and after the last: `positions[i]` is before move `i`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    ending: Option<Ending>,
}

impl Game {
    /// A game from `start`; a start without legal moves is already over.
    pub fn new(start: Position, options: Options) -> Game {
        let mut game = Game {
            options,
            positions: vec![start],
            moves: Vec::new(),
            ending: None,
        };
        game.ending = game.no_move_ending();
        game
    }

    pub fn position(&self) -> &Position {
        self.positions.last().expect("at least the start")
    }

    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    pub fn options(&self) -> Options {
        self.options
    }

    /// Plays a move, or refuses it with the reason (the game is unchanged).
    pub fn play(&mut self, m: Move) -> Result<Option<&Ending>, MoveError> {
        if self.ending.is_some() {
            return Err(MoveError::GameOver);
        }
        let mut next = self.position().clone();
        next.play(m)?;
        self.positions.push(next);
        self.moves.push(m);
        self.ending = self
            .no_move_ending()
            .or_else(|| {
                if self.options.record {
                    None
                } else {
                    self.repetition_ending()
                }
            })
            .or_else(|| self.move_limit_ending());
        Ok(self.ending.as_ref())
    }

    /// At the end of a record: judges a repetition at the last position, if there is one.
    pub fn finish_record(&mut self) -> Option<&Ending> {
        if self.ending.is_none() {
            self.ending = self.repetition_ending();
        }
        self.ending.as_ref()
    }

    /// Ends the game by resignation, agreement or forfeit.
    pub fn end(&mut self, ending: Ending) {
        if self.ending.is_none() {
            self.ending = Some(ending);
        }
    }

    fn no_move_ending(&self) -> Option<Ending> {
        let p = self.position();
        if p.has_legal_move() {
            return None;
        }
        let loser = p.side_to_move();
        Some(if p.is_check() {
            Ending::Checkmate { loser }
        } else {
            Ending::Stalemate { loser }
        })
    }

    /// The index of the first position since the last capture.
    fn since_capture(&self) -> usize {
        let now = self.positions.len() - 1;
        now - (self.position().halfmove as usize).min(now)
    }

    fn repetition_ending(&self) -> Option<Ending> {
        let now = self.positions.len() - 1;
        let key = self.position().key();
        let earlier: Vec<usize> = (self.since_capture()..now)
            .filter(|&i| self.positions[i].key() == key)
            .collect();
        if earlier.len() < 2 {
            return None;
        }
        let first = earlier[earlier.len() - 2];
        Some(
            match repetition::verdict(&self.positions[first], &self.moves[first..]) {
                Verdict::PerpetualCheck { loser } => Ending::PerpetualCheck { loser },
                Verdict::PerpetualChase {
                    loser,
                    victim,
                    victim_square,
                } => Ending::PerpetualChase {
                    loser,
                    victim,
                    victim_square,
                },
                Verdict::Draw => Ending::Repetition,
            },
        )
    }

    fn move_limit_ending(&self) -> Option<Ending> {
        if !self.options.move_limit {
            return None;
        }
        let from = self.since_capture();
        let mut checks = [0u32; 2];
        for i in from + 1..self.positions.len() {
            let p = &self.positions[i];
            if p.is_check() {
                checks[p.side_to_move().other().index()] += 1;
            }
        }
        let plies = (self.positions.len() - 1 - from) as u32;
        let uncounted = checks[0].saturating_sub(10) + checks[1].saturating_sub(10);
        (plies - uncounted.min(plies) >= 120).then_some(Ending::MoveLimit)
    }
}
