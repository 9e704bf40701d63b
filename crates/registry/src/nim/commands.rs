//! Nim's replay page.

use super::referee::{self, NimGame};
use super::view::{layers, state_lines, NimView};
use qijudge_protocol::error::Result;
use qijudge_store::GameDir;

/// The replay page: Nim hides nothing, so any copy of the game can make it at any time.
pub fn html(d: &GameDir, g: &NimGame, audience: &str) -> Result<String> {
    use qijudge_view::html;
    qijudge_game::check_audience(&referee::SEATS, &["public"], audience)?;
    let state = qijudge_judge::turn_referee::current(d, g)?;
    let views: Vec<NimView> = (0..=state.takes.len())
        .map(|ply| referee::view_at(g, &state, audience, ply))
        .collect();
    let frame = |v: &NimView| html::Frame {
        ply: v.ply,
        heading: match &v.last_take {
            Some(t) => format!("ply {}: {} took {}", v.ply, t.seat, t.took),
            None => "before the first ply".to_string(),
        },
        lines: state_lines(v),
        picture: layers(v),
    };
    let moved = |v: &NimView| {
        v.last_take
            .as_ref()
            .map(|t| format!("{} {}", t.seat, t.took))
    };
    let title = format!("Nim {}: replay for {audience}", g.manifest.id);
    let head = state.turns.record.head_or(&g.hash);
    Ok(html::replay(
        &title,
        &html::about(&g.manifest.players, "", &head),
        &views,
        frame,
        moved,
    ))
}
