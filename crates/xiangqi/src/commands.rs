//! Xiangqi's own words: where the game stands, and its replay page.

use crate::referee::{self as xq, XiangqiGame, XiangqiView};
use qijudge_protocol::error::Result;
use qijudge_store::GameDir;

pub fn summary(state: &xq::State) -> String {
    match (state.game.ending(), state.to_move()) {
        (Some(e), _) => format!("game over: {e}"),
        (None, Some(seat)) => format!("{seat} to move (ply {})", state.game.moves().len() + 1),
        (None, None) => String::new(),
    }
}

/// The replay page: Xiangqi hides nothing, so every audience's page is the same game, and any
/// copy of the game can make it at any time.
pub fn html(d: &GameDir, g: &XiangqiGame, audience: &str) -> Result<String> {
    use super::picture;
    use qijudge_view::html;
    qijudge_game::check_audience(&xq::SEATS, &["public"], audience)?;
    let state = qijudge_judge::turn_referee::current(d, g)?;
    let views: Vec<_> = (0..=state.game.moves().len())
        .map(|ply| xq::view_at(g, &state, audience, ply))
        .collect();
    let frame = |v: &XiangqiView| html::Frame {
        ply: v.ply,
        heading: match &v.last_move {
            Some(m) => format!(
                "ply {}: {} {} = {} = {}",
                v.ply, m.seat, m.iccs, m.wxf, m.chinese
            ),
            None => "before the first move".to_string(),
        },
        lines: crate::view::state_lines(v),
        picture: picture::xiangqi_layers(v),
    };
    let moved = |v: &XiangqiView| {
        let m = v.last_move.as_ref()?;
        Some(format!("{} {} {}", m.seat, m.iccs, m.chinese))
    };
    let title = format!("Xiangqi {}: replay for {audience}", g.manifest.id);
    let head = state.turns.record.head_or(&g.hash);
    let about = html::about(&g.manifest.players, "", &head);
    Ok(html::replay(&title, &about, &views, frame, moved))
}

/// A conditional line's move square to square (`h2e2`), as the record writes moves: WXF and
/// Chinese name a piece by where it stands, which depends on the position the line reaches.
pub fn spell_iccs(lower: &str) -> std::result::Result<String, String> {
    let spelled = lower.replace('-', "");
    match xiangqi_rules::notation::parse_iccs(&spelled) {
        Some(m) if m.from != m.to => Ok(spelled),
        Some(_) => Err("it goes nowhere".into()),
        None => Err(
            "a line is written square to square as the record writes moves (h2e2); \
                     WXF and Chinese name a piece by where it stands, which depends on the \
                     position the line reaches"
                .into(),
        ),
    }
}
