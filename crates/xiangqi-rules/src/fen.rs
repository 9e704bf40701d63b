//! FEN: read (with reasons for every refusal) and write.

use super::board::{Color, Piece, Square};
use super::position::{Position, PositionError};
use std::fmt;

/// The standard starting position.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is not a FEN: what is wrong and where.
    Syntax(String),
    /// The FEN is well formed but the position cannot occur.
    Position(Vec<PositionError>),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax(why) => write!(f, "invalid FEN: {why}"),
            FenError::Position(problems) => {
                let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                write!(f, "illegal position: {}", list.join("; "))
            }
        }
    }
}

impl std::error::Error for FenError {}

fn syntax(why: impl Into<String>) -> FenError {
    FenError::Syntax(why.into())
}

/// Parses a FEN. The side, counters and the `- -` fields may be left out (Red to move, 0, 1).
pub fn parse(text: &str) -> Result<Position, FenError> {
    let mut fields = text.split_whitespace();
    let placement = fields.next().ok_or_else(|| syntax("empty"))?;
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 10 {
        return Err(syntax(format!("{} ranks, 10 needed", ranks.len())));
    }
    let mut pieces = Vec::new();
    for (i, row) in ranks.iter().enumerate() {
        let rank = 9 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(syntax(format!("rank {rank}: empty count 0")));
                }
                file += d as u8;
            } else {
                let piece = Piece::from_fen_char(c)
                    .ok_or_else(|| syntax(format!("rank {rank}: unknown piece letter {c:?}")))?;
                let square = Square::new(file, rank)
                    .ok_or_else(|| syntax(format!("rank {rank}: more than 9 files")))?;
                pieces.push((square, piece));
                file += 1;
            }
            if file > 9 {
                return Err(syntax(format!("rank {rank}: more than 9 files")));
            }
        }
        if file != 9 {
            return Err(syntax(format!("rank {rank}: {file} files, 9 needed")));
        }
    }
    let side = match fields.next() {
        None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
        Some("b") | Some("B") => Color::Black,
        Some(other) => return Err(syntax(format!("side to move {other:?} (w, r or b)"))),
    };
    let rest: Vec<&str> = fields.collect();
    // Optional "- -" before the counters.
    let counters: Vec<&str> = rest.iter().copied().filter(|f| *f != "-").collect();
    if rest.len() > 4 || counters.len() > 2 {
        return Err(syntax("too many fields"));
    }
    let number = |i: usize, default: u32, what: &str| -> Result<u32, FenError> {
        match counters.get(i) {
            None => Ok(default),
            Some(t) => t
                .parse::<u32>()
                .map_err(|_| syntax(format!("{what} {t:?} is not a number"))),
        }
    };
    let halfmove = number(0, 0, "halfmove clock")?;
    let fullmove = number(1, 1, "move number")?;
    if fullmove == 0 {
        return Err(syntax("move number 0 (counting starts at 1)"));
    }
    Position::from_parts(&pieces, side, halfmove, fullmove).map_err(FenError::Position)
}

/// The placement field of a FEN: ranks 9 to 0 separated by `/`, the letter `at` gives each
/// occupied point, digits counting empty ones (Jieqi's position text writes it too).
pub fn placement(at: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match Square::new(file, rank).and_then(&at) {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Writes the FEN of a position (`w` for Red, `- -` for the unused fields).
pub fn write(position: &Position) -> String {
    let out = placement(|s| position.piece_at(s).map(|p| p.fen_char()));
    let side = match position.side_to_move() {
        Color::Red => 'w',
        Color::Black => 'b',
    };
    format!(
        "{out} {side} - - {} {}",
        position.halfmove, position.fullmove
    )
}

/// A position shows as its FEN.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", write(self))
    }
}

impl Position {
    /// The standard starting position.
    pub fn start() -> Position {
        parse(START).expect("the start FEN is valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let p = parse(START).unwrap();
        assert_eq!(write(&p), START);
        assert_eq!(p.legal_moves().len(), 44);
    }

    #[test]
    fn aliases_are_accepted() {
        let p = parse("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
        assert_eq!(write(&p), START);
    }

    #[test]
    fn refusals_name_the_problem() {
        let cases = [
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
                "ranks",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                "more than 9",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
                "8 files",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
                "unknown piece",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                "side to move",
            ),
            (
                "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                "black has 0 kings",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNRAKABNR w",
                "at most 2",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2A2C1/9/RNB1KABNR w",
                "A can never stand on e2",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/1P7/2P1P1P1P/1C5C1/9/RNBAKABNR w",
                "P can never stand on b4",
            ),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", "not to move is in check"),
            ("4k4/9/9/9/9/9/9/9/4R4/3K5 w", "not to move is in check"),
        ];
        for (fen, needle) in cases {
            let err = match parse(fen) {
                Ok(p) => panic!("{fen} accepted: {p:?}"),
                Err(e) => e.to_string(),
            };
            assert!(err.contains(needle), "{fen}: {err}");
        }
    }
}
