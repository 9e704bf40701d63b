//! Tournaments and bot matches: the bot line protocol, built-in and process bots, the match
//! runner (every game an ordinary signed game directory), and standings computed from game
//! directories alone.

pub mod adjudication;
pub mod book;
pub mod bot_log;
pub mod bots;
pub mod ccgc;
pub mod cgroup;

pub mod limits;
pub mod live;
pub mod protocol;
pub mod runner;
pub mod sandbox;
pub mod schedule;
pub mod sprt;
pub mod standings;
pub mod summary;
pub mod timecontrol;
pub mod ucci;
pub mod uci;
