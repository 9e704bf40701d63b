//! JSON Schemas of every file format, generated from the Rust types.

use qijudge_judge::schema::{manifest_schema, schema};
use qijudge_luzhanqi::view::ViewFile;
use qijudge_protocol::files::{CommitmentFile, ConditionalFile, MoveFile, RecordLine, SetupFile};
use qijudge_tournament::protocol::{Reply, Request};
use qijudge_tournament::runner::MatchState;

/// Every schema as (file name, JSON text): the shared formats, then each registered game's own.
pub fn all() -> Vec<(String, String)> {
    let mut all = shared();
    for game in qijudge_registry::registry::GAMES {
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
        ("bot-request.schema.json".into(), bot_request()),
        ("bot-reply.schema.json".into(), schema::<Reply>()),
        ("match-state.schema.json".into(), schema::<MatchState>()),
    ]
}

/// The bot protocol's request. A view is typed by its game, which this crate knows: the
/// schema shows a Luzhanqi view in full and any other game's as JSON, as bots read them.
fn bot_request() -> String {
    /// The view a bot is shown: its seat's view as the judge writes it for that game.
    #[derive(schemars::JsonSchema)]
    #[serde(untagged)]
    #[allow(dead_code)]
    enum BotView {
        /// A Luzhanqi view (`schemas/luzhanqi-view.schema.json`).
        Luzhanqi(Box<ViewFile>),
        /// Another game's view (Xiangqi, Liubo), as its schema says.
        Other(serde_json::Value),
    }
    let mut views = schemars::gen::SchemaGenerator::default();
    views.subschema_for::<BotView>();
    let mut root = schemars::schema_for!(Request);
    // The request's `BotView` (any JSON, alone) becomes this one, with the definitions it uses.
    root.definitions.extend(views.take_definitions());
    // (Draft 7 allows no keyword beside `$ref`, as the generator writes its root schemas.)
    use schemars::visit::Visitor;
    schemars::visit::RemoveRefSiblings.visit_root_schema(&mut root);
    let mut s = serde_json::to_string_pretty(&root).expect("schemas serialise");
    s.push('\n');
    s
}
