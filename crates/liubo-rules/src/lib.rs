//! Liubo (六博): the 29-station board, stones and owls, captures, releases and the end, as
//! reconstructed by J.-L. Cazaux (rules as implemented: `docs/liubo.md`). Throws come from `games::liubo::throws`.

pub mod board;
pub mod notation;
pub mod options;
pub mod position;

pub use board::{Line, Station};
pub use options::{DiceMode, Options};
pub use position::{EndReason, Event, Move, MoveError, Outcome, Place, Position, Stone};

#[cfg(test)]
mod tests;
