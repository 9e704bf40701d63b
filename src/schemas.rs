//! JSON Schemas of every file format, generated from the Rust types.

use crate::protocol::files::{
    ChainCommitmentFile, CommitmentFile, JieqiManifest, LiuboManifest, Manifest, MoveFile,
    NonceCommitmentFile, NonceFile, RecordLine, SeedFile, SetupFile, XiangqiManifest,
};
use crate::rules::luzhanqi::{EventJson, PositionFile};
use crate::rules::xiangqi::check::GameCheck;
use crate::tournament::protocol::{Reply, Request};
use crate::tournament::runner::MatchState;
use crate::view::jieqi::JieqiView;
use crate::view::liubo::LiuboView;
use crate::view::xiangqi::XiangqiView;
use crate::view::ViewFile;

pub(crate) fn schema<T: schemars::JsonSchema>() -> String {
    let mut s = serde_json::to_string_pretty(&schemars::schema_for!(T)).expect("schemas serialise");
    s.push('\n');
    s
}

/// Every schema as (file name, JSON text): the shared formats, then each registered game's own.
pub fn all() -> Vec<(String, String)> {
    let mut all = shared();
    for game in crate::games::registry::GAMES {
        all.extend(game.schemas());
    }
    all
}

fn shared() -> Vec<(String, String)> {
    vec![
        ("manifest.schema.json".into(), schema::<Manifest>()),
        ("commitment.schema.json".into(), schema::<CommitmentFile>()),
        ("setup.schema.json".into(), schema::<SetupFile>()),
        ("move.schema.json".into(), schema::<MoveFile>()),
        ("record-line.schema.json".into(), schema::<RecordLine>()),
        ("view.schema.json".into(), schema::<ViewFile>()),
        (
            "luzhanqi-position.schema.json".into(),
            schema::<PositionFile>(),
        ),
        ("luzhanqi-event.schema.json".into(), schema::<EventJson>()),
        (
            "xiangqi-manifest.schema.json".into(),
            schema::<XiangqiManifest>(),
        ),
        ("xiangqi-view.schema.json".into(), schema::<XiangqiView>()),
        ("xiangqi-check.schema.json".into(), schema::<GameCheck>()),
        (
            "liubo-manifest.schema.json".into(),
            schema::<LiuboManifest>(),
        ),
        (
            "liubo-chain-commitment.schema.json".into(),
            schema::<ChainCommitmentFile>(),
        ),
        ("liubo-seed.schema.json".into(), schema::<SeedFile>()),
        ("liubo-view.schema.json".into(), schema::<LiuboView>()),
        (
            "jieqi-manifest.schema.json".into(),
            schema::<JieqiManifest>(),
        ),
        (
            "jieqi-nonce-commitment.schema.json".into(),
            schema::<NonceCommitmentFile>(),
        ),
        ("jieqi-nonce.schema.json".into(), schema::<NonceFile>()),
        ("jieqi-view.schema.json".into(), schema::<JieqiView>()),
        ("bot-request.schema.json".into(), schema::<Request>()),
        ("bot-reply.schema.json".into(), schema::<Reply>()),
        ("match-state.schema.json".into(), schema::<MatchState>()),
    ]
}
