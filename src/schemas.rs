//! JSON Schemas of every file format, generated from the Rust types.

use crate::games::luzhanqi::view::ViewFile;
use crate::protocol::files::{CommitmentFile, Manifest, MoveFile, RecordLine, SetupFile};
use crate::tournament::protocol::{Reply, Request};
use crate::tournament::runner::MatchState;

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
        ("bot-request.schema.json".into(), schema::<Request>()),
        ("bot-reply.schema.json".into(), schema::<Reply>()),
        ("match-state.schema.json".into(), schema::<MatchState>()),
    ]
}
