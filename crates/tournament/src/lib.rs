//! Tournaments and bot matches: the bot line protocol, built-in and process bots, the match
//! runner (every game an ordinary signed game directory), and standings computed from game
//! directories alone.

#[macro_use]
extern crate qijudge_game;

pub mod adjudication;
pub mod args;
pub mod book;
pub use qijudge_engine::{bot_log, cgroup, limits, protocol, sandbox};
pub mod bots;
pub mod commands;
pub mod fastchess;
pub mod interrupt;
pub mod live;
pub mod runner;
pub mod schedule;
pub mod scoreboard;
pub mod sprt;
pub mod standings;
pub mod stats;
pub mod summary;
pub mod timecontrol;
