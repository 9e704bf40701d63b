//! Banqi's own words: where the game stands, what its audit checked, and its replay page.

use super::referee::{self as bq, BanqiGame};
use super::view::BanqiView;
use qijudge_protocol::error::Result;
use qijudge_store::GameDir;

pub fn summary(g: &BanqiGame, state: &bq::State) -> String {
    use qijudge_judge::pipeline::Referee;
    match (state.game.ending(), g.waiting(state)) {
        (Some(e), _) => format!("game over: {e}"),
        (None, Some(w)) => w,
        (None, None) => String::new(),
    }
}

/// The replay page of one audience (all see the same board).
pub fn html(d: &GameDir, g: &BanqiGame, audience: &str) -> Result<String> {
    use qijudge_view::html;
    qijudge_game::check_audience(&bq::SEATS, &["public"], audience)?;
    let state = qijudge_judge::turn_referee::current(d, g)?;
    let views: Vec<_> = (0..=state.plies() as usize)
        .map(|ply| bq::view_at(g, &state, audience, ply))
        .collect();
    let moved = |v: &BanqiView| {
        Some(format!(
            "{} {}",
            v.last_move.as_ref()?.seat,
            v.moves.last()?
        ))
    };
    let frame = |v: &BanqiView| html::Frame {
        ply: v.ply,
        heading: match moved(v) {
            Some(m) => format!("ply {}: {m}", v.ply),
            None => "before the first turn".to_string(),
        },
        lines: super::view::state_lines(v),
        picture: super::picture::banqi_layers(v),
    };
    let title = format!("Banqi {}: replay for {audience}", g.manifest.id);
    let note = " A plain brown disc is a piece lying face down.";
    let about = html::about(&g.manifest.players, note, &state.turns.head(&g.hash));
    Ok(html::replay(&title, &about, &views, frame, moved))
}

/// What the audit checked: every piece named against the revealed layout.
pub fn audited(g: &BanqiGame, state: &bq::State) -> Vec<String> {
    let named = state
        .game
        .played()
        .iter()
        .filter(|p| p.revealed.is_some() || p.captured_face_down)
        .count();
    match &state.dealt.layout {
        Some(layout) => vec![
            format!(
                "verified Banqi game {}: {} plies, every signature, turn and view checked; both revealed nonces match their commitments, and the layout they give matches all {named} pieces turned up",
                g.manifest.id,
                state.turns.record.last_move_ply()
            ),
            format!("layout: {}", layout.describe()),
        ],
        None => vec![format!(
            "verified Banqi game {}: {} plies, every signature, turn and view checked; the {named} pieces turned up are checked against the layout once the nonces are revealed (qijudge reveal)",
            g.manifest.id,
            state.turns.record.last_move_ply()
        )],
    }
}
