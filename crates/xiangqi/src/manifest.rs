//! Xiangqi's files: its manifest (the shared frame with Xiangqi's rule options) and the
//! format of its views.

use qijudge_judge::manifest::{Kind, ManifestRules};
use qijudge_protocol::error::{refuse, Result};
use qijudge_protocol::files::GameManifest;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use xiangqi_rules::fen;

pub const XIANGQI_VIEW_FORMAT: &str = "qijudge/xiangqi-view/1";

/// `game.toml` of a Xiangqi game: the shared frame with Xiangqi's rules.
pub type XiangqiManifest = GameManifest<XiangqiRules>;

/// The rule options of a Xiangqi game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct XiangqiRules {
    /// The start position as FEN (the standard start unless the organiser chose another).
    pub start: String,
    /// Draw after 120 plies without a capture, not counting checks beyond 10 per side.
    pub move_limit: bool,
}

impl ManifestRules for crate::Xiangqi {
    type Options = XiangqiRules;
    /// Red, then black.
    const KIND: Kind<'static> = Kind {
        game: "xiangqi",
        id_prefix: "xq-",
        board: "9x10",
        seats: &SEATS,
    };
    const SEALABLE: bool = false;

    fn check(manifest: &XiangqiManifest) -> Result<()> {
        let bad = |reason: String| refuse("game.toml", Some("rules.start"), reason);
        let start = fen::parse(&manifest.rules.start).map_err(|e| bad(e.to_string()))?;
        if !start.has_legal_move() {
            return Err(bad("the side to move has no legal move".into()));
        }
        Ok(())
    }
}

/// The seats, in manifest order: Red moves first from the standard start.
pub const SEATS: [&str; 2] = ["red", "black"];
