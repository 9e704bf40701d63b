//! JSON Schemas of every file format, generated from the Rust types.

use crate::games::luzhanqi::view::ViewFile;
use crate::tournament::protocol::{Reply, Request};
use crate::tournament::runner::MatchState;
use qijudge_judge::schema::{manifest_schema, schema};
use qijudge_protocol::files::{CommitmentFile, ConditionalFile, MoveFile, RecordLine, SetupFile};

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
        (
            "manifest.schema.json".into(),
            manifest_schema::<luzhanqi_rules::Options>("Manifest", None),
        ),
        ("commitment.schema.json".into(), schema::<CommitmentFile>()),
        ("setup.schema.json".into(), schema::<SetupFile>()),
        ("move.schema.json".into(), schema::<MoveFile>()),
        (
            "conditional.schema.json".into(),
            schema::<ConditionalFile>(),
        ),
        (
            "plans.schema.json".into(),
            schema::<qijudge_protocol::files::PlansFile>(),
        ),
        ("record-line.schema.json".into(), schema::<RecordLine>()),
        ("view.schema.json".into(), schema::<ViewFile>()),
        ("bot-request.schema.json".into(), schema::<Request>()),
        ("bot-reply.schema.json".into(), schema::<Reply>()),
        ("match-state.schema.json".into(), schema::<MatchState>()),
    ]
}
