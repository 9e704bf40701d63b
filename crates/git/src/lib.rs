//! Play through git: the rules a pushed change to a game must follow (`changes`), and the judge
//! as CI and server hooks run it on a repository of games (`ci`). Knows games through the
//! registry.

#[macro_use]
extern crate qijudge_game;

pub mod changes;
pub mod ci;
