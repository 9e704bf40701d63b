//! Xiangqi (象棋) under the Asian Xiangqi Federation rules: the board, legal moves, endings,
//! perpetual check and chase, and every common notation.
//! Rules as implemented: `docs/xiangqi.md`.

pub mod board;
pub mod check;
pub mod fen;
pub mod game;
pub mod notation;
pub mod pgn;
pub mod position;
pub mod repetition;

pub use board::{Color, Kind, Piece, Square};
pub use game::{Ending, Game, Options, Winner};
pub use position::{Move, MoveError, MoveList, Position, PositionError};

#[cfg(test)]
mod tests;
