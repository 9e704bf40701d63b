//! The fair shuffle: which piece lies face down on which square, fixed by both seats' nonces
//! and the game id, so that neither seat alone (nor the judge, who adds nothing) can choose it,
//! and anyone can recompute it once the nonces are revealed.
//!
//! The algorithm (`docs/banqi.md` states it for other implementers) is Jieqi's hash stream
//! ([`jieqi_rules::shuffle::Stream`]) under the domain [`SHUFFLE_DOMAIN`], the first
//! seat's nonce then the second's: the 32 pieces listed red then black, each in the order
//! general, advisor ×2, elephant ×2, horse ×2, chariot ×2, cannon ×2, soldier ×5, are shuffled
//! by Fisher–Yates from the last place down (for `i` from 31 to 1, swap places `i` and
//! `below(i + 1)`); place `k` is the piece face down on square `k` (`a1` = 0, `h1` = 7,
//! `a2` = 8, … `h4` = 31).

use super::position::{Square, SQUARES};
use jieqi_rules::shuffle::Stream;
use xiangqi_rules::{Color, Kind, Piece};

/// The domain of the shuffle's hash stream.
pub const SHUFFLE_DOMAIN: &str = "qijudge/banqi-shuffle/1";

/// What lies face down on every square at the start.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub pieces: [Piece; SQUARES],
}

impl Layout {
    /// The unshuffled list: red's 16 pieces then black's, kinds in Xiangqi's order.
    pub fn standard() -> Layout {
        let mut pieces = Vec::with_capacity(SQUARES);
        for color in [Color::Red, Color::Black] {
            for kind in Kind::ALL {
                for _ in 0..kind.max_count() {
                    pieces.push(Piece::new(color, kind));
                }
            }
        }
        Layout {
            pieces: pieces.try_into().expect("32 pieces"),
        }
    }

    pub fn at(&self, s: Square) -> Piece {
        self.pieces[s.index()]
    }

    /// The layout as text, `a1=R b1=p …` in square order.
    pub fn describe(&self) -> String {
        Square::all()
            .map(|s| format!("{s}={}", self.at(s).fen_char()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The layout that the game id and both nonces fix.
pub fn shuffle(game: &str, first: &[u8], second: &[u8]) -> Layout {
    let mut stream = Stream::in_domain(SHUFFLE_DOMAIN, game, first, second);
    let mut layout = Layout::standard();
    for i in (1..SQUARES).rev() {
        let j = stream.below(i as u32 + 1) as usize;
        layout.pieces.swap(i, j);
    }
    layout
}
