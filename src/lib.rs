//! qijudge: an auditable judge for board games played by signed turn files.

#[macro_use]
extern crate qijudge_game;

pub mod cli;
pub mod schemas;

pub use qijudge_game::player;
pub use qijudge_git as git;
pub use qijudge_judge as judge;
pub use qijudge_mail as mail;
pub use qijudge_protocol as protocol;
pub use qijudge_protocol::error;
pub use qijudge_registry as games;
pub use qijudge_rules as rules;
pub use qijudge_store as store;
pub use qijudge_tournament as tournament;
pub use qijudge_view as view;
