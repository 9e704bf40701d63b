//! Luzhanqi's judge on both boards: its manifest, its referee in the one pipeline (commitments,
//! setups, the first mover, moves and combats), the views it publishes and the audit.

pub mod audit;
pub mod game;
pub mod outputs;
pub mod precheck;
mod record;
pub mod replay;

pub use audit::*;
pub use game::*;
pub use outputs::*;
pub use record::*;
pub use replay::*;
