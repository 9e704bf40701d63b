//! What one viewer knows of a game, folded from the events that viewer may see and nothing else.

use super::board::{Board, Seat, Square};
use super::event::{Event, Fact, GameResult, Outcome, Viewer};
use super::nodeset::NodeSet;
use super::options::{Options, TurnOrder};
use super::piece::Piece;

/// A piece as a viewer sees it: always its owner, its rank only when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    pub seat: Seat,
    pub piece: Option<Piece>,
}

/// The last move, as announced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastMove {
    pub seat: Seat,
    pub from: Square,
    pub to: Square,
    pub outcome: Outcome,
}

/// A viewer's picture of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    pub viewer: Viewer,
    pub cells: Vec<Option<Seen>>,
    pub to_move: Option<Seat>,
    pub plies: u32,
    pub last_move: Option<LastMove>,
    /// Flags whose square is public, by seat.
    pub revealed_flags: Vec<(Seat, Square)>,
    /// Flags being carried: (flag's seat, carrier's square).
    pub carried_flags: Vec<(Seat, Square)>,
    pub resigned: Option<Seat>,
    pub result: Option<GameResult>,
    /// Per seat: out of the game (four-player board).
    pub out: Vec<bool>,
    turn_order: TurnOrder,
}

impl Knowledge {
    pub fn new(viewer: Viewer, nodes: usize, seats: usize) -> Self {
        Knowledge {
            viewer,
            cells: vec![None; nodes],
            to_move: None,
            plies: 0,
            last_move: None,
            revealed_flags: Vec::new(),
            carried_flags: Vec::new(),
            resigned: None,
            result: None,
            out: vec![false; seats],
            turn_order: TurnOrder::default(),
        }
    }

    /// What `viewer` knows at the start of a game on `board` played under `options`.
    pub fn for_game<S: NodeSet>(viewer: Viewer, board: &Board<S>, options: &Options) -> Self {
        let mut k = Knowledge::new(viewer, board.len(), board.seat_names.len());
        k.turn_order = options.turn_order;
        k
    }

    /// The next seat still in after `seat`, in the order of play (public facts only).
    fn next_seat(&self, seat: Seat) -> Seat {
        self.turn_order.next(seat, &self.out)
    }

    /// Learns from the events this viewer may see; the others are skipped here, in one place.
    pub fn observe_all<'a>(&mut self, events: impl IntoIterator<Item = &'a Event>) {
        for e in events {
            if e.audience.includes(self.viewer) {
                self.learn(&e.fact);
            }
        }
    }

    fn learn(&mut self, fact: &Fact) {
        match fact {
            Fact::Begin { first } => self.to_move = Some(*first),
            Fact::Placed { seat, squares } => {
                for &sq in squares {
                    self.cells[sq] = Some(Seen {
                        seat: *seat,
                        piece: None,
                    });
                }
            }
            Fact::Identified { seat, pieces } => {
                for &(sq, piece) in pieces {
                    self.cells[sq] = Some(Seen {
                        seat: *seat,
                        piece: Some(piece),
                    });
                }
            }
            Fact::Moved {
                seat,
                from,
                to,
                outcome,
            } => {
                let moving = self.cells[*from].take();
                match outcome {
                    Outcome::Moved | Outcome::AttackerWon => self.cells[*to] = moving,
                    Outcome::DefenderWon => {}
                    Outcome::BothRemoved => self.cells[*to] = None,
                }
                for (_, c) in self.carried_flags.iter_mut() {
                    if *c == *from && matches!(outcome, Outcome::Moved | Outcome::AttackerWon) {
                        *c = *to;
                    }
                }
                // A revealed flag stands while its own seat still holds the square.
                let cells = &self.cells;
                self.revealed_flags
                    .retain(|(s, sq)| cells[*sq].is_some_and(|c| c.seat == *s));
                self.plies += 1;
                self.last_move = Some(LastMove {
                    seat: *seat,
                    from: *from,
                    to: *to,
                    outcome: *outcome,
                });
                self.to_move = Some(self.next_seat(*seat));
            }
            Fact::FlagRevealed { seat, square } => {
                self.cells[*square] = Some(Seen {
                    seat: *seat,
                    piece: Some(Piece::Flag),
                });
                self.revealed_flags.push((*seat, *square));
            }
            Fact::FlagTaken { seat, carrier } => self.carried_flags.push((*seat, *carrier)),
            Fact::FlagReturned { seat, square } => {
                self.carried_flags.retain(|(s, _)| s != seat);
                self.cells[*square] = Some(Seen {
                    seat: *seat,
                    piece: Some(Piece::Flag),
                });
                self.revealed_flags.push((*seat, *square));
            }
            Fact::Resigned { seat } => self.resigned = Some(*seat),
            Fact::Eliminated { seat, .. } => {
                self.out[seat.index()] = true;
                for cell in self.cells.iter_mut() {
                    if cell.is_some_and(|c| c.seat == *seat) {
                        *cell = None;
                    }
                }
                self.revealed_flags
                    .retain(|(_, sq)| self.cells[*sq].is_some());
                if self.to_move == Some(*seat) {
                    self.to_move = Some(self.next_seat(*seat));
                }
            }
            Fact::GameOver(result) => {
                self.result = Some(*result);
                self.to_move = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A revealed flag that is captured no longer "stands": the square now holds the captor.
    #[test]
    fn a_captured_flag_is_no_longer_said_to_stand() {
        let (south, north) = (Seat(0), Seat(1));
        let mut k = Knowledge::new(Viewer::Seat(north), 60, 2);
        let (flag_square, attacker) = (3, 10);
        k.observe_all(&[
            Event::public(Fact::Begin { first: south }),
            Event::public(Fact::Placed {
                seat: south,
                squares: vec![attacker],
            }),
            Event::public(Fact::FlagRevealed {
                seat: north,
                square: flag_square,
            }),
        ]);
        assert_eq!(k.revealed_flags, vec![(north, flag_square)]);
        k.observe_all(&[Event::public(Fact::Moved {
            seat: south,
            from: attacker,
            to: flag_square,
            outcome: Outcome::AttackerWon,
        })]);
        assert!(k.revealed_flags.is_empty(), "{:?}", k.revealed_flags);
        assert_eq!(k.cells[flag_square].map(|c| c.seat), Some(south));
    }
}
