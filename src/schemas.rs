//! JSON Schemas of every file format, generated from the Rust types.

use crate::games::luzhanqi::view::ViewFile;
use crate::tournament::protocol::{Reply, Request};
use crate::tournament::runner::MatchState;
use qijudge_protocol::files::{CommitmentFile, ConditionalFile, MoveFile, RecordLine, SetupFile};

pub(crate) fn schema<T: schemars::JsonSchema>() -> String {
    let mut s = serde_json::to_string_pretty(&schemars::schema_for!(T)).expect("schemas serialise");
    s.push('\n');
    s
}

/// The schema of `game.toml` with rule options `R`, titled `title`; with the game's kind, its
/// game, board, id and number of seats are fixed, and `sealed` is allowed only where the game
/// has secrets to seal.
pub(crate) fn manifest_schema<R: schemars::JsonSchema>(
    title: &str,
    kind: Option<(&crate::judge::manifest::Kind, bool)>,
) -> String {
    let mut v = serde_json::to_value(schemars::schema_for!(
        qijudge_protocol::files::GameManifest<R>
    ))
    .expect("schemas serialise");
    v["title"] = title.into();
    if let Some((kind, sealable)) = kind {
        v["description"] = format!(
            "`game.toml` of a {} game: the frame every manifest shares, with its rule options. \
             Its SHA-256 is bound into every signed file.",
            kind.game
        )
        .into();
        let p = &mut v["properties"];
        p["game"]["const"] = kind.game.into();
        p["board"]["const"] = kind.board.into();
        p["id"]["pattern"] = format!("^{}[0-9a-f]{{32}}$", kind.id_prefix).into();
        p["players"]["minItems"] = kind.seats.len().into();
        p["players"]["maxItems"] = kind.seats.len().into();
        p["players"]["description"] =
            format!("The seats in order: {}.", kind.seats.join(", ")).into();
        if !sealable {
            if let Some(props) = p.as_object_mut() {
                props.remove("sealed");
            }
        }
    }
    let mut s = serde_json::to_string_pretty(&v).expect("schemas serialise");
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
        (
            "manifest.schema.json".into(),
            manifest_schema::<crate::games::luzhanqi::rules::Options>("Manifest", None),
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
