//! JSON Schemas generated from the Rust types: one file format's, and a manifest's with a
//! game's rule options.

pub fn schema<T: schemars::JsonSchema>() -> String {
    let mut s = serde_json::to_string_pretty(&schemars::schema_for!(T)).expect("schemas serialise");
    s.push('\n');
    s
}

/// The schema of `game.toml` with rule options `R`, titled `title`; with the game's kind, its
/// game, board, id and number of seats are fixed, and `sealed` is allowed only where the game
/// has secrets to seal.
pub fn manifest_schema<R: schemars::JsonSchema>(
    title: &str,
    kind: Option<(&crate::manifest::Kind, bool)>,
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

/// The schema of a manifest with rule options `R` (`schemas/GAME-manifest.schema.json`).
pub fn schema_of<R: crate::manifest::ManifestRules>(title: &str) -> String
where
    R::Options: schemars::JsonSchema,
{
    manifest_schema::<R::Options>(title, Some((&R::KIND, R::SEALABLE)))
}
