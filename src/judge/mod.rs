//! The judge: replay protocol files through the rules, keep the record, publish views, audit.

mod audit;
pub mod candidates;
pub mod ci;
pub mod clock;
pub mod common;
mod game;
pub mod jieqi;
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

/// Whether judge runs in this process draw the board pictures (`views/*.png`, `*.svg`). A bot
/// match turns them off: nobody looks at a picture of every ply, and drawing them costs more
/// than judging. Without pictures a run deletes any it finds, so none is ever stale.
static PICTURES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Turns the pictures of judge runs in this process on or off.
pub fn set_pictures(on: bool) {
    PICTURES.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Whether judge runs in this process draw pictures.
pub fn pictures() -> bool {
    PICTURES.load(std::sync::atomic::Ordering::Relaxed)
}
