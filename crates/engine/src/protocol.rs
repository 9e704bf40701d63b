//! The bot protocol, `qijudge-bot/1`: one JSON object per line on the bot's standard input,
//! one JSON object per line in answer on its standard output. A bot only ever receives its own
//! view (as the judge writes it for its seat) and the moves it may legally make, which follow
//! from its view alone. Documented in `docs/bots.md`.

pub use crate::bot_view::BotView;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const PROTOCOL: &str = "qijudge-bot/1";

/// What the judge sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Answer with `{"setup": {"a1": "landmine", …}}` for your seat's half.
    Setup {
        protocol: String,
        game: String,
        seat: String,
        /// The Luzhanqi board (`cross4`); absent for the two-player board.
        #[serde(
            default = "two_player_board",
            skip_serializing_if = "is_two_player_board"
        )]
        board: String,
        /// The game's rule options, as its manifest's `rules` table holds them.
        rules: serde_json::Value,
        seed: u64,
        time_ms: u64,
        /// Every seat's clock as the game starts, in a match with a time control (`--tc`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<ClockInfo>,
    },
    /// Answer with `{"move": "a6-a7"}` (one of `legal`), `{"move": "resign"}`, or, where the
    /// opponent's draw offer stands, `{"move": "accept-draw"}`.
    Move {
        view: BotView,
        legal: Vec<String>,
        /// Time for this answer: the time per move, or what is left on the bot's clock if less.
        time_ms: u64,
        /// Every seat's clock, in a match with a time control (`--tc`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<ClockInfo>,
    },
    /// The game is over; no answer. Standard input closes next.
    End { view: BotView },
}

/// The clocks of a game played with a time control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockInfo {
    /// Time left by seat, in milliseconds.
    pub remaining_ms: BTreeMap<String, u64>,
    /// Time added after each move.
    pub increment_ms: u64,
    /// With moves to go (`--tc 40/60`): by seat, its moves left until its clock gains the base
    /// time again.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub moves_to_go: BTreeMap<String, u64>,
}

fn two_player_board() -> String {
    "2p".into()
}

fn is_two_player_board(board: &str) -> bool {
    board == "2p"
}

/// What a bot answers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reply {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<BTreeMap<String, String>>,
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// `false`: this bot never reads its view, so its later move requests carry `"view": null`
    /// and the runner spares building and sending one; `true` asks for views again. Any answer
    /// may say it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<bool>,
    /// `true`: the move comes with a draw offer, which the opponent may accept with
    /// `{"move": "accept-draw"}` on its turn (its view's `draw_offer` names the seat that
    /// offered). Taken in the games whose views carry `draw_offer` (Xiangqi, Jieqi, Banqi);
    /// ignored in the others and from a bot that waived its views.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_draw: Option<bool>,
    /// The bot's evaluation of its move, from its own side (`{"cp": 35}`, `{"mate": -3}`):
    /// written in the move's comment, and what adjudication by score reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<crate::score::Score>,
    /// The search depth the score comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

/// How a bot failed; each is a loss for that bot, recorded with its reason code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotFailure {
    /// The process exited or closed its output.
    Crashed,
    /// No answer within the time limit.
    Timeout,
    /// An answer that is not a valid reply.
    Garbage(String),
    /// A setup that breaks the rules.
    BadSetup(String),
    /// A move that is not legal.
    IllegalMove(String),
    /// It reached one of its limits (memory, processes, disk, log).
    Limit(crate::limits::LimitKind),
}

impl std::fmt::Display for BotFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            BotFailure::Crashed => f.write_str("the bot exited or closed its output"),
            BotFailure::Timeout => f.write_str("the bot did not answer in time"),
            BotFailure::Garbage(why) => write!(f, "the bot's answer is not valid: {why}"),
            BotFailure::BadSetup(why) => write!(f, "the bot's setup breaks the rules: {why}"),
            BotFailure::IllegalMove(why) => write!(f, "the bot's move is not legal: {why}"),
            BotFailure::Limit(kind) => f.write_str(kind.describe()),
        }
    }
}

impl BotFailure {
    /// The reason code written into the record.
    pub fn code(&self) -> &'static str {
        match self {
            BotFailure::Crashed => "bot-crashed",
            BotFailure::Timeout => "bot-timeout",
            BotFailure::Garbage(_) => "bot-garbage",
            BotFailure::BadSetup(_) => "bot-bad-setup",
            BotFailure::IllegalMove(_) => "bot-illegal-move",
            BotFailure::Limit(kind) => kind.code(),
        }
    }
}
