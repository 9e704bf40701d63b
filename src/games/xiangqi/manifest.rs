//! Xiangqi's files: its manifest (the shared frame with Xiangqi's rule options) and the
//! format of its views.

use crate::protocol::files::{manifest_frame, Clock, JudgeEntry, Player};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const XIANGQI_VIEW_FORMAT: &str = "qijudge/xiangqi-view/1";

/// `game.toml` of a Xiangqi game: the same frame as [`Manifest`], with Xiangqi's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct XiangqiManifest {
    /// Always `qijudge/manifest/1`.
    pub format: String,
    /// Always `xiangqi`.
    pub game: String,
    /// Random game id: `xq-` and 32 hex digits (128 random bits).
    pub id: String,
    /// When the game was created (RFC 3339, UTC).
    pub created: String,
    /// True only for the shipped sample games, whose keys are public.
    pub sample: bool,
    /// The board: `9x10`.
    pub board: String,
    pub rules: XiangqiRules,
    /// Deadlines, when the game has any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    pub judge: JudgeEntry,
    /// Red, then black.
    pub players: Vec<Player>,
}

/// The rule options of a Xiangqi game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct XiangqiRules {
    /// The start position as FEN (the standard start unless the organiser chose another).
    pub start: String,
    /// Draw after 120 plies without a capture, not counting checks beyond 10 per side.
    pub move_limit: bool,
}

manifest_frame!(XiangqiManifest);
