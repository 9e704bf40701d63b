//! How one opening of a book starts its games: what a game's definition reads from a book and
//! the match runner plays.

/// How a book's text is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookText {
    /// One opening a line (or the game's own format).
    Positions,
    /// PGN games, each opening the position after its moves, or after its first `plies`
    /// (fastchess's `-openings plies=`).
    Pgn { plies: Option<usize> },
}

/// How one opening starts its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// A Xiangqi position (FEN).
    Position(String),
    /// Luzhanqi armies: each seat's setup, as a setup file's text (`rows = [...]`).
    Armies(std::collections::BTreeMap<String, String>),
}

impl Opening {
    /// The start position, for a game that starts from one.
    pub fn position(&self) -> Option<&str> {
        match self {
            Opening::Position(fen) => Some(fen),
            Opening::Armies(_) => None,
        }
    }

    /// A seat's setup, for a game whose armies the book sets.
    pub fn army(&self, seat: &str) -> Option<&str> {
        match self {
            Opening::Armies(armies) => armies.get(seat).map(String::as_str),
            Opening::Position(_) => None,
        }
    }
}
