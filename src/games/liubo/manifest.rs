//! Liubo's files: its manifest (the shared frame with Liubo's options) and the format of its
//! views.

use crate::protocol::files::{is_false, manifest_frame, Clock, JudgeEntry, Player};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `game.toml` of a Liubo game: the same frame as [`Manifest`], with Liubo's options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LiuboManifest {
    /// Always `qijudge/manifest/1`.
    pub format: String,
    /// Always `liubo`.
    pub game: String,
    /// Random game id: `lb-` and 32 hex digits (128 random bits).
    pub id: String,
    /// When the game was created (RFC 3339, UTC).
    pub created: String,
    /// True only for the shipped sample games, whose keys are public.
    pub sample: bool,
    /// The board: `29-stations`.
    pub board: String,
    pub rules: crate::games::liubo::rules::Options,
    /// Deadlines, when the game has any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Played in public (git), escrow mode: seeds come sealed to the judge
    /// (`sealed/<seat>.age`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub sealed: bool,
    pub judge: JudgeEntry,
    /// Seat `a` (letter A of the throw protocol), then seat `b`.
    pub players: Vec<Player>,
}

pub const LIUBO_VIEW_FORMAT: &str = "qijudge/liubo-view/1";

manifest_frame!(LiuboManifest);
