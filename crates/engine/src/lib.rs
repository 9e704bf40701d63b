//! Engines and bots as qijudge runs them, whatever the game: the bot protocol (`qijudge-bot/1`)
//! and the views it carries, programs run as child processes in a sandbox with limits and
//! logs, what a match sets for an engine, and what engines report for adjudication. Each
//! game's engine protocols (UCI, UCCI, CCGC) live with that game and reach the match runner as
//! an [`Engine`] through the game's definition. Names no game.

pub mod bot_log;
pub mod bot_view;
pub mod cgroup;
pub mod limits;
pub mod process;
pub mod protocol;
pub mod sandbox;
pub mod score;
pub mod settings;

pub use process::{Bot, ProcessBot};
pub use settings::EngineSettings;

use protocol::BotFailure;

/// A program speaking a game's engine protocol, through the game's adapter.
pub trait Engine: Bot {
    /// Whether the match keeps it from one game to the next (a UCI engine, as fastchess keeps
    /// them), once its handshake is done.
    fn kept(&self) -> bool;
    /// Its handshake, before the match's first game.
    fn handshake(&mut self) -> Result<(), BotFailure>;
    /// Whether its process still runs (a kept engine may have died since).
    fn is_running(&mut self) -> bool;
    /// Where its standard error goes from now on (the next game's log).
    fn log_to(&self, file: crate::bot_log::LogFile);
    /// Readied for a game from `start` (an opening's position), or from the game's own start.
    fn for_game(self: Box<Self>, start: Option<&str>) -> Box<dyn Engine>;
}
