//! qijudge: an auditable judge for board games played by signed turn files.

#[macro_use]
mod console;
pub mod cli;
pub mod games;
pub mod git_check;
pub mod mail;
pub mod player;
pub mod schemas;
pub mod tournament;

pub use qijudge_judge as judge;
pub use qijudge_protocol as protocol;
pub use qijudge_protocol::error;
pub use qijudge_rules as rules;
pub use qijudge_store as store;
pub use qijudge_view as view;
