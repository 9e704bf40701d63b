//! The games this version judges, and the registry that finds a folder's game: the one
//! crate that names every game. The transports (mail, git, matches) know games through it.

#[macro_use]
extern crate qijudge_game;

pub use qijudge_banqi as banqi;
pub mod commands;
pub mod conditional;
pub use qijudge_jieqi as jieqi;
#[cfg(test)]
mod judge_tests;
pub mod listing;
pub use qijudge_liubo as liubo;
pub use qijudge_luzhanqi as luzhanqi;
#[cfg(any(test, feature = "toy-game"))]
pub mod nim;
pub mod registry;
pub mod seats;
pub use qijudge_xiangqi as xiangqi;

pub use qijudge_game::*;
pub use registry::{by_name, of_dir, with_tool};

/// Every registered game passes the rules contract's conformance suite.
#[test]
fn every_registered_game_conforms() {
    for game in registry::GAMES {
        game.conform();
    }
}
