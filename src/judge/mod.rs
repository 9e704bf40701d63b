//! The judge: replay protocol files through the rules, keep the record, publish views, audit.

mod audit;
pub mod candidates;
pub mod ci;
pub mod clock;
pub mod common;
mod game;
pub mod liubo;
mod outputs;
pub mod pipeline;
pub mod precheck;
mod record;
mod replay;
pub mod sealing;
pub mod xiangqi;

pub use audit::*;
pub use game::*;
pub use outputs::*;
pub use record::*;
pub use replay::*;
pub use sealing::sealed_setup_path;
