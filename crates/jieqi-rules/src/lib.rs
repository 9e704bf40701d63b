//! Jieqi (揭棋): Xiangqi with every piece but the kings starting face down on a shuffled
//! start square. A face-down piece moves as the piece whose start square it stands on and is
//! turned face up by its first move. Rules as implemented, with sources: `docs/jieqi.md`.
//!
//! Board geometry, pieces, squares and move notation come from [`xiangqi_rules`]; what
//! differs (face-down pieces, advisors and elephants free once revealed, the fair shuffle) lives
//! here. No I/O.

pub mod game;
pub mod position;
pub mod shuffle;

#[cfg(test)]
mod tests;

pub use game::{Game, Played};
pub use position::{Cell, Position};
pub use shuffle::Layout;

use serde::{Deserialize, Serialize};

/// How far revealed advisors and elephants may go.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum AdvisorsElephants {
    /// Anywhere on the board once revealed (the common rules): advisors one point diagonally,
    /// elephants two (eye rule kept), across the river and out of the palace.
    #[default]
    Free,
    /// As in Xiangqi: advisors in their palace, elephants on their own side.
    Confined,
}

/// Who learns what a face-down piece was when it is captured face down.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Captured {
    /// Everyone: the captured piece is turned over for all to see.
    Both,
    /// Only the player who captured it (the rule of most online servers); its owner and the
    /// public never learn it during the game.
    #[default]
    Captor,
    /// Nobody until the game is over and the layout is revealed.
    Nobody,
}

impl Captured {
    pub fn name(self) -> &'static str {
        match self {
            Captured::Both => "both",
            Captured::Captor => "captor",
            Captured::Nobody => "nobody",
        }
    }
}

/// The rule options of a Jieqi game (the manifest's `[rules]`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// How far revealed advisors and elephants may go: `free` or `confined`.
    pub advisors_elephants: AdvisorsElephants,
    /// Who learns the identity of a piece captured face down: `both`, `captor` or `nobody`.
    pub captured: Captured,
    /// Draw after 120 plies with neither a capture nor a reveal.
    pub move_limit: bool,
}

impl Options {
    /// Whether revealed advisors and elephants go anywhere.
    pub fn free(self) -> bool {
        self.advisors_elephants == AdvisorsElephants::Free
    }
}

/// Plies without a capture or a reveal after which a game with the move limit is drawn.
pub const MOVE_LIMIT_PLIES: u32 = 120;
