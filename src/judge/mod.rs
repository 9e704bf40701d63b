//! The judge: replay protocol files through the rules, keep the record, publish views, audit.

mod audit;
pub mod clock;
pub mod common;
mod game;
pub mod liubo;
mod outputs;
mod record;
mod replay;
pub mod xiangqi;

pub use audit::*;
pub use game::*;
pub use outputs::*;
pub use record::*;
pub use replay::*;
