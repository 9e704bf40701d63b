//! What Nim shows: the view file, its text, its picture and its replay page.

use qijudge_protocol::files::Player;
use qijudge_rules::EndReason;
use qijudge_view::picture::{caption_height, Layers, Svg, INK, MARK, PAPER};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

qijudge_view::turn_view! {
    /// `views/AUDIENCE.json` of a Nim game.
    pub struct NimView (result: NimResult) {
        /// The stones at the start.
        pub start: u32,
        /// The stones left.
        pub stones: u32,
        /// The stones each ply took, in order.
        pub moves: Vec<String>,
        pub last_take: Option<LastTake>,
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LastTake {
    pub seat: String,
    pub took: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NimResult {
    /// The winning seat; none for a draw.
    pub winner: Option<String>,
    pub reason: EndReason,
}

/// Where the game stands, in sentences (the text view, the caption, the replay page).
pub fn state_lines(v: &NimView) -> Vec<String> {
    let mut lines = vec![format!("{} of {} stones left", v.stones, v.start)];
    if let Some(t) = &v.last_take {
        lines.push(format!("last move: {} took {}", t.seat, t.took));
        if let Some(c) = &t.comment {
            lines.push(format!("{} says: {c}", t.seat));
        }
    }
    if let Some(c) = &v.closing {
        lines.extend(c.lines());
    }
    if let Some(seat) = &v.draw_offer {
        lines.push(format!("{seat} offers a draw"));
    }
    match (&v.result, &v.to_move) {
        (Some(r), _) => lines.push(match &r.winner {
            Some(w) if r.reason == EndReason::NoLegalMove => {
                format!("game over: {w} wins (took the last stone)")
            }
            Some(w) => format!("game over: {w} wins ({})", words(r.reason)),
            None => format!("game over: a draw ({})", words(r.reason)),
        }),
        (None, Some(seat)) => lines.push(format!("{seat} to move (ply {})", v.ply + 1)),
        (None, None) => {}
    }
    lines
}

/// A reason code in words (`no_legal_move`: `no legal move`).
fn words(reason: EndReason) -> String {
    let code = serde_json::to_value(reason).unwrap_or_default();
    code.as_str().unwrap_or_default().replace('_', " ")
}

/// The view as text: who plays, the pile, where the game stands.
pub fn render_text(players: &[Player], v: &NimView) -> String {
    let names: Vec<String> = players
        .iter()
        .map(|p| format!("{} {}", p.seat, p.name))
        .collect();
    let mut out = format!(
        "Nim {} after ply {}, view for {}\n",
        v.game, v.ply, v.audience
    );
    out.push_str(&format!("Players: {}\n", names.join(", ")));
    out.push_str(&format!(
        "{}\nKey: o a stone\n",
        "o".repeat(v.stones as usize)
    ));
    for line in state_lines(v) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The picture: the stones left in rows of ten, the ones the last ply took marked.
pub fn picture(v: &NimView, caption: bool) -> String {
    draw(v, caption).finish()
}

pub fn layers(v: &NimView) -> Layers {
    draw(v, false).layers()
}

fn draw(v: &NimView, caption: bool) -> Svg {
    let (cell, margin) = (40.0, 30.0);
    let width = margin * 2.0 + 10.0 * cell;
    let rows = v.start.div_ceil(10) as f64;
    let board_height = margin * 2.0 + rows * cell;
    let mut lines = Vec::new();
    if caption {
        lines.push(format!("{} ply {}", v.game, v.ply));
        lines.push(format!("view for {}", v.audience));
        lines.extend(state_lines(v));
    }
    let mut svg = Svg::new(
        width as u32,
        (board_height + caption_height(width, &lines) + 10.0) as u32,
        PAPER,
    );
    svg.pieces_start();
    let took = v.last_take.as_ref().map_or(0, |t| t.took);
    for i in 0..v.start {
        let x = margin + (i % 10) as f64 * cell + cell / 2.0;
        let y = margin + (i / 10) as f64 * cell + cell / 2.0;
        if i < v.stones {
            svg.circle(x, y, 15.0, INK, None);
        } else if i < v.stones + took {
            svg.circle(x, y, 15.0, "none", Some((MARK, 2.5)));
        }
    }
    svg.caption(board_height - 4.0, &lines);
    svg
}
