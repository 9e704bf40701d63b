//! What happens in a game, as facts with their audience. Views are built from these events only,
//! so deciding an event's audience here is deciding who may know it.

use super::board::{Seat, Square};
use super::piece::Piece;

/// Who may know a fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Players and spectators.
    Everyone,
    /// One seat only.
    Seat(Seat),
}

/// Who is looking: a seat, a spectator, or anyone after the game when every setup is revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Seat(Seat),
    Public,
    Full,
}

impl Audience {
    /// The single rule that decides whether a viewer may learn a fact.
    pub fn includes(self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (_, Viewer::Full) | (Audience::Everyone, _) => true,
            (Audience::Seat(a), Viewer::Seat(b)) => a == b,
            (Audience::Seat(_), Viewer::Public) => false,
        }
    }
}

pub use qijudge_rules::end::EndReason;
pub use qijudge_rules::outcome::Outcome;

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winning seat, or none for a draw. On a board with teams: the first seat of the winning
    /// team, which wins with all its allies.
    pub winner: Option<Seat>,
    pub reason: EndReason,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// The game starts; `first` moves first.
    Begin {
        first: Seat,
    },
    /// Where a seat's pieces stand (not what they are).
    Placed {
        seat: Seat,
        squares: Vec<Square>,
    },
    /// What some of a seat's pieces are.
    Identified {
        seat: Seat,
        pieces: Vec<(Square, Piece)>,
    },
    /// A move and its outcome. Only from and to are told, never the path.
    Moved {
        seat: Seat,
        from: Square,
        to: Square,
        outcome: Outcome,
    },
    /// A seat's flag stands here (after its marshal died).
    FlagRevealed {
        seat: Seat,
        square: Square,
    },
    /// A seat's flag was taken by the piece now on `carrier` (flag-carrier variant).
    FlagTaken {
        seat: Seat,
        carrier: Square,
    },
    /// A seat's flag went back to its headquarters when its carrier died.
    FlagReturned {
        seat: Seat,
        square: Square,
    },
    /// A seat resigned.
    Resigned {
        seat: Seat,
    },
    /// Four-player board: a seat is out (its flag taken, no legal move, resigned or forfeited);
    /// all its pieces left the board.
    Eliminated {
        seat: Seat,
        reason: EndReason,
    },
    GameOver(GameResult),
}

/// A fact and who may know it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub audience: Audience,
    pub fact: Fact,
}

impl Event {
    pub fn public(fact: Fact) -> Event {
        Event {
            audience: Audience::Everyone,
            fact,
        }
    }
    pub fn to_seat(seat: Seat, fact: Fact) -> Event {
        Event {
            audience: Audience::Seat(seat),
            fact,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_sees_its_own_and_public_facts_only() {
        let (s, n) = (Seat(0), Seat(1));
        assert!(Audience::Seat(s).includes(Viewer::Seat(s)));
        assert!(!Audience::Seat(s).includes(Viewer::Seat(n)));
        assert!(!Audience::Seat(s).includes(Viewer::Public));
        assert!(Audience::Seat(s).includes(Viewer::Full));
        assert!(Audience::Everyone.includes(Viewer::Public));
    }
}
