//! Jieqi's own words: where the game stands, what its audit checked, and its replay page.

use crate::referee::{self as jq, JieqiGame};
use qijudge_protocol::error::Result;
use qijudge_store::GameDir;

pub fn summary(g: &JieqiGame, state: &jq::State) -> String {
    use qijudge_judge::pipeline::Referee;
    match (state.game.ending(), g.waiting(state)) {
        (Some(e), _) => format!("game over: {e}"),
        (None, Some(w)) => w,
        (None, None) => String::new(),
    }
}

/// The replay page of one audience: each position as that audience was shown it.
pub fn html(d: &GameDir, g: &JieqiGame, audience: &str) -> Result<String> {
    use super::picture;
    use qijudge_view::html;
    qijudge_game::check_audience(&jq::SEATS, &["public"], audience)?;
    let state = qijudge_judge::turn_referee::current(d, g)?;
    let known = jq::known_captures(d, g, &state, audience)?;
    let views: Vec<_> = (0..=state.plies() as usize)
        .map(|ply| jq::view_with(g, &state, &known, audience, ply))
        .collect();
    let frame = |v: &jq::JieqiView| {
        let heading = match &v.last_move {
            Some(m) => {
                let up = m.revealed.as_ref().map(|r| format!(" (turned up {r})"));
                format!(
                    "ply {}: {} {}{}",
                    v.ply,
                    m.seat,
                    m.iccs,
                    up.unwrap_or_default()
                )
            }
            None => "before the first move".to_string(),
        };
        let lines = crate::view::state_lines(v);
        let picture = picture::jieqi_layers(v);
        html::Frame {
            ply: v.ply,
            heading,
            lines,
            picture,
        }
    };
    let moved = |v: &jq::JieqiView| {
        let m = v.last_move.as_ref()?;
        Some(format!("{} {}", m.seat, v.moves.last().unwrap_or(&m.iccs)))
    };
    let title = format!("Jieqi {}: replay for {audience}", g.manifest.id);
    let note = " A plain disc is a piece lying face down.";
    let about = html::about(&g.manifest.players, note, &state.turns.head(&g.hash));
    Ok(html::replay(&title, &about, &views, frame, moved))
}

/// What the audit checked: every piece that turned up against the revealed layout.
pub fn audited(g: &JieqiGame, state: &jq::State) -> Vec<String> {
    let mut lines = Vec::new();
    let turned = state
        .game
        .played()
        .iter()
        .filter(|p| p.revealed.is_some())
        .count();
    match &state.dealt.layout {
        Some(layout) => {
            lines.push(format!(
                "verified Jieqi game {}: {} plies, every signature, move and view checked; both revealed nonces match their commitments, and the layout they give matches all {turned} pieces that turned up",
                g.manifest.id,
                state.turns.record.last_move_ply()
            ));
            lines.push(format!("layout: {}", layout.describe()));
        }
        None => lines.push(format!(
            "verified Jieqi game {}: {} plies, every signature, move and public view checked; the {turned} pieces that turned up are checked against the layout once the nonces are revealed (qijudge reveal)",
            g.manifest.id,
            state.turns.record.last_move_ply()
        )),
    }
    lines
}
