//! The Xiangqi view model: what the judge publishes for each audience (the same board for
//! everyone), and its text form. Built by the judge (`judge::xiangqi::build_view`).

use crate::protocol::files::Player;
use crate::rules::luzhanqi::EndReason;
use serde::{Deserialize, Serialize};

/// A published Xiangqi view (the same board for everyone: nothing is hidden).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct XiangqiView {
    /// Always `qijudge/xiangqi-view/1`.
    pub format: String,
    pub game: String,
    pub manifest: String,
    /// `red`, `black` or `public`.
    pub audience: String,
    /// The record head this view was made at.
    pub record_head: String,
    /// Plies played on the board.
    pub ply: u32,
    /// The seat to move, while the game goes on.
    pub to_move: Option<String>,
    /// Whether the side to move is in check.
    pub check: bool,
    pub fen: String,
    /// Ranks 9 to 0, files a to i: FEN letters, `.` for an empty point.
    pub board: Vec<String>,
    /// The moves so far in ICCS coordinates.
    pub moves: Vec<String>,
    pub last_move: Option<LastMove>,
    /// The seat whose draw offer stands.
    pub draw_offer: Option<String>,
    pub result: Option<ViewResult>,
}

/// The last move in every notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LastMove {
    pub seat: String,
    pub iccs: String,
    pub wxf: String,
    pub chinese: String,
    /// The captured piece's FEN letter.
    pub captured: Option<String>,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewResult {
    /// The winning seat; none for a draw.
    pub winner: Option<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub score: String,
    /// A reason code (`checkmate`, `perpetual_chase`, …).
    pub reason: EndReason,
    /// The reason in words (`perpetual chase of the red horse … by black`).
    pub detail: String,
}

/// The text form of a view: a board diagram and the state of play.
pub fn render_text(players: &[Player], v: &XiangqiView) -> String {
    let mut out = format!("Xiangqi {} — view for {}\n", v.game, v.audience);
    for p in players {
        out.push_str(&format!("{}: {}\n", p.seat, p.name));
    }
    out.push('\n');
    for (i, row) in v.board.iter().enumerate() {
        let rank = 9 - i;
        let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
        out.push_str(&format!("{rank}  {}\n", cells.join(" ")));
        if rank == 5 {
            out.push_str("   ~~~~~ river ~~~~~\n");
        }
    }
    out.push_str("   a b c d e f g h i\n\n");
    out.push_str("Red is upper case (K A B N R C P), black lower case.\n");
    if let Some(m) = &v.last_move {
        let captured = m
            .captured
            .as_ref()
            .map(|c| format!(", takes {c}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "Last move (ply {}): {} {} = {} = {}{captured}\n",
            v.ply, m.seat, m.iccs, m.wxf, m.chinese
        ));
    }
    match (&v.result, &v.to_move) {
        (Some(r), _) => out.push_str(&format!("Result: {} ({})\n", r.score, r.detail)),
        (None, Some(seat)) => {
            let check = if v.check { ", in check" } else { "" };
            out.push_str(&format!("{seat} to move (ply {}){check}\n", v.ply + 1));
        }
        (None, None) => {}
    }
    if let Some(seat) = &v.draw_offer {
        out.push_str(&format!("{seat} offers a draw.\n"));
    }
    out.push_str(&format!("FEN: {}\n", v.fen));
    out
}
