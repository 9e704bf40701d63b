//! Luzhanqi (陆战棋): boards, setups, movement, combat, options and events.
//! Rules as implemented: `docs/rules.md` and `docs/four-player.md`.

pub mod board;
pub mod combat;
pub mod event;
pub mod event_json;
pub mod knowledge;
pub mod nodeset;
pub mod options;
pub mod piece;
pub mod position;
pub mod position_file;
pub mod random;
pub mod setup;

pub use board::{by_name, cross_four, two_player, two_player_wide, Board, NodeKind, Seat, Square};
pub use event::{Audience, EndReason, Event, Fact, GameResult, Outcome, Viewer};
pub use event_json::EventJson;
pub use knowledge::Knowledge;
pub use options::Options;
pub use piece::Piece;
pub use position::{Move, MoveError, Position, Unit};
pub use position_file::PositionFile;
pub use setup::{Placement, Setup, SetupProblem};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cross;
