//! qijudge: an auditable judge for board games played by signed turn files.

#[macro_use]
mod console;
pub mod cli;
pub mod error;
pub mod games;
pub mod judge;
pub mod mail;
pub mod player;
pub mod protocol;
pub mod rules;
pub mod schemas;
pub mod store;
pub mod tournament;
pub mod view;
