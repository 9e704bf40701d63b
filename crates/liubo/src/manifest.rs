//! Liubo's files: its manifest (the shared frame with Liubo's options) and the format of its
//! views.

use liubo_rules::Options;
use qijudge_judge::manifest::{Kind, ManifestRules};
use qijudge_protocol::error::{refuse, Result};
use qijudge_protocol::files::GameManifest;

/// `game.toml` of a Liubo game: the shared frame with Liubo's options. Sealed: escrow mode in
/// public, the seeds come sealed to the judge (`sealed/<seat>.age`).
pub type LiuboManifest = GameManifest<Options>;

pub const LIUBO_VIEW_FORMAT: &str = "qijudge/liubo-view/1";

impl ManifestRules for crate::Liubo {
    type Options = Options;
    /// Seat `a` (letter A of the throw protocol), then seat `b`.
    const KIND: Kind<'static> = Kind {
        game: "liubo",
        id_prefix: "lb-",
        board: "29-stations",
        seats: &SEATS,
    };
    const SEALABLE: bool = true;

    fn check(manifest: &LiuboManifest) -> Result<()> {
        if !(4..=1 << 20).contains(&manifest.rules.chain_length) {
            return Err(refuse(
                "game.toml",
                Some("rules.chain_length"),
                "4 to 1048576",
            ));
        }
        Ok(())
    }
}

/// The seats: `a` and `b` are the letters A and B of the throw protocol.
pub const SEATS: [&str; 2] = ["a", "b"];
