//! Banqi (暗棋, "dark chess"): the 32 Xiangqi pieces face down and shuffled on a 4 × 8 board.
//! A turn turns one face-down piece up or moves one of the mover's face-up pieces; the first
//! piece turned up gives its turner that colour. Rules as implemented, with the choices the
//! sources leave open: `docs/banqi.md`.
//!
//! Pieces and colours are Xiangqi's ([`crate::games::xiangqi::rules`]); the board, the ranks, the
//! moves and the endings live here. No I/O.

pub mod binding;
pub mod game;
pub mod position;
pub mod shuffle;
#[cfg(test)]
mod tests;

pub use game::{Ending, Game, Played};
pub use position::{Action, Cell, Position, Square};
pub use shuffle::Layout;

use serde::{Deserialize, Serialize};

/// The rule options of a Banqi game (the manifest's `[rules]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// A cannon may take a face-down piece by its jump (the piece is turned up and taken,
    /// whatever its colour). Off: only face-up enemy pieces can be taken.
    pub cannon_takes_face_down: bool,
    /// Draw after [`MOVE_LIMIT_PLIES`] plies with neither a capture nor a piece turned up.
    pub move_limit: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            cannon_takes_face_down: false,
            move_limit: true,
        }
    }
}

/// Plies without a capture or a piece turned up after which a game with the move limit is drawn.
pub const MOVE_LIMIT_PLIES: u32 = 50;
