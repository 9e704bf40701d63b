//! Xiangqi (象棋) under the Asian Xiangqi Federation rules: the board, legal moves, endings,
//! perpetual check and chase, and every common notation.
//! Reference: `shared/rules/xiangqi.md`.

pub mod board;
pub mod fen;
pub mod position;

pub use board::{Color, Kind, Piece, Square};
pub use position::{Move, MoveError, MoveList, Position, PositionError};

#[cfg(test)]
mod tests;
