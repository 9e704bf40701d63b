//! Jieqi's files: its manifest (the shared frame with Jieqi's options) and the format of its
//! views.

use jieqi_rules::{Captured, Options};
use qijudge_judge::manifest::{Kind, ManifestRules};
use qijudge_protocol::files::GameManifest;

/// `game.toml` of a Jieqi game: the shared frame with Jieqi's options.
pub type JieqiManifest = GameManifest<Options>;

pub const JIEQI_VIEW_FORMAT: &str = "qijudge/jieqi-view/1";

impl ManifestRules for crate::Jieqi {
    type Options = Options;
    const KIND: Kind<'static> = Kind {
        game: "jieqi",
        id_prefix: "jq-",
        board: "9x10",
        seats: &qijudge_xiangqi::referee::SEATS,
    };
    const SEALABLE: bool = true;

    fn check(manifest: &JieqiManifest) -> qijudge_protocol::error::Result<()> {
        if manifest.sealed && manifest.rules.captured == Captured::Captor {
            return Err(sealed_captor_refusal());
        }
        Ok(())
    }
}

/// Why a sealed game cannot keep `captured = "captor"`.
pub fn sealed_captor_refusal() -> qijudge_protocol::error::Error {
    qijudge_protocol::error::refuse_with(
        "game.toml",
        Some("rules.captured"),
        "captor cannot be kept secret in a sealed game: its views are published for everyone",
        "choose captured = \"both\" or \"nobody\" for a game played in public",
    )
}
