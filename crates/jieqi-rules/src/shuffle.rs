//! The fair shuffle: which piece lies face down on which start square, fixed by both players'
//! nonces and the game id, so that neither player alone (nor the judge, who adds nothing) can
//! choose it, and anyone can recompute it once the nonces are revealed.
//!
//! The algorithm (`docs/jieqi.md` states it for other implementers):
//! - A stream of 32-bit words: block `i` (from 0) is SHA-256 over the fields `SHUFFLE_DOMAIN`,
//!   the game id, red's nonce, black's nonce and `i` as 8 bytes big-endian, each field preceded
//!   by its length as 8 bytes big-endian ([`hash_fields`]); each block gives eight words, read
//!   as 4-byte big-endian integers in order.
//! - A number below `n`: take words until one is below `2^32 - (2^32 mod n)`, answer it mod `n`
//!   (rejection, so every answer is equally likely).
//! - Red's 15 pieces, listed in the order of Xiangqi's start (the piece of each face-down start
//!   square, squares in index order `rank * 9 + file`), are shuffled by Fisher–Yates from the
//!   last place down: for `i` from 14 to 1, swap places `i` and `below(i + 1)`. Then black's,
//!   continuing the same stream. Place `k` of a side's list is the piece face down on that
//!   side's `k`-th start square.

use super::position::{hidden_squares, role_of};
use qijudge_rules::hash::hash_fields;
use xiangqi_rules::{Color, Kind, Square};

/// The domain of the shuffle's hash stream.
pub const SHUFFLE_DOMAIN: &str = "qijudge/jieqi-shuffle/1";

/// What lies face down on every start square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Per colour (red, black), the piece on each of its 15 start squares in square order.
    pub kinds: [[Kind; 15]; 2],
}

impl Layout {
    /// The unshuffled layout: every piece on its own Xiangqi square.
    pub fn standard() -> Layout {
        let side = |color| hidden_squares(color).map(|s| role_of(s).expect("start square").1);
        Layout {
            kinds: [side(Color::Red), side(Color::Black)],
        }
    }

    /// The piece lying face down on `s` at the start, if `s` is a face-down start square.
    pub fn at(&self, s: Square) -> Option<Kind> {
        let (color, _) = role_of(s)?;
        let k = hidden_squares(color).iter().position(|&h| h == s)?;
        Some(self.kinds[color.index()][k])
    }

    /// The layout as text, `a0=R b0=P …` in square order (red's squares, then black's).
    pub fn describe(&self) -> String {
        let mut out = Vec::new();
        for color in [Color::Red, Color::Black] {
            for (k, s) in hidden_squares(color).iter().enumerate() {
                let letter = self.kinds[color.index()][k].fen_letter();
                let letter = match color {
                    Color::Red => letter,
                    Color::Black => letter.to_ascii_lowercase(),
                };
                out.push(format!("{s}={letter}"));
            }
        }
        out.join(" ")
    }
}

/// The hash stream the shuffle draws from (Banqi's shuffle draws from one too, under its own
/// domain).
pub struct Stream<'a> {
    domain: &'a str,
    game: &'a str,
    nonces: [&'a [u8]; 2],
    block: u64,
    words: [u32; 8],
    next: usize,
}

impl<'a> Stream<'a> {
    pub fn new(game: &'a str, red: &'a [u8], black: &'a [u8]) -> Stream<'a> {
        Stream::in_domain(SHUFFLE_DOMAIN, game, red, black)
    }

    /// A stream under another `domain`, so that no two games' shuffles share one.
    pub fn in_domain(
        domain: &'a str,
        game: &'a str,
        first: &'a [u8],
        second: &'a [u8],
    ) -> Stream<'a> {
        Stream {
            domain,
            game,
            nonces: [first, second],
            block: 0,
            words: [0; 8],
            next: 8,
        }
    }

    pub fn word(&mut self) -> u32 {
        if self.next == 8 {
            let digest = hash_fields(&[
                self.domain.as_bytes(),
                self.game.as_bytes(),
                self.nonces[0],
                self.nonces[1],
                &self.block.to_be_bytes(),
            ]);
            for (w, chunk) in self.words.iter_mut().zip(digest.chunks_exact(4)) {
                *w = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            }
            self.block += 1;
            self.next = 0;
        }
        self.next += 1;
        self.words[self.next - 1]
    }

    /// A number below `n` (1 ≤ n), every one equally likely.
    pub fn below(&mut self, n: u32) -> u32 {
        let n64 = u64::from(n.max(1));
        let limit = (1u64 << 32) - (1u64 << 32) % n64;
        loop {
            let w = u64::from(self.word());
            if w < limit {
                return (w % n64) as u32;
            }
        }
    }
}

/// The layout that the game id and both nonces fix.
pub fn shuffle(game: &str, red: &[u8], black: &[u8]) -> Layout {
    let mut stream = Stream::new(game, red, black);
    let mut layout = Layout::standard();
    for side in layout.kinds.iter_mut() {
        for i in (1..side.len()).rev() {
            let j = stream.below(i as u32 + 1) as usize;
            side.swap(i, j);
        }
    }
    layout
}
