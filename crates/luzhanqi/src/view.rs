//! Luzhanqi's view: what one audience sees, as JSON. A view is built from that audience's
//! [`Knowledge`] (itself folded only from the events it may see) and the public record; the
//! text rendering (`text`) reads nothing but the JSON view.

use luzhanqi_rules::nodeset::NodeSet;
use luzhanqi_rules::{Board, EndReason, Knowledge, Outcome, Piece, Viewer};
use qijudge_protocol::files::{Notice, VIEW_FORMAT};
pub use qijudge_view::{on_board, to_json, Closing};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `views/<audience>.json`, signed by the judge (namespace `qijudge-view`) over its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewFile {
    /// Always `qijudge/view/1`.
    pub format: String,
    pub game: String,
    /// SHA-256 of `game.toml`.
    pub manifest: String,
    /// `south`, `north`, `public` (spectators) or `full` (after the game, everything).
    pub audience: String,
    /// Plies played: every signed move, a resignation or an accepted draw included.
    pub ply: u32,
    /// The record head this view was made at.
    pub record_head: String,
    pub board: String,
    /// Players by seat, in seat order.
    pub players: Vec<SeatName>,
    pub to_move: Option<String>,
    pub result: Option<ResultView>,
    /// Every piece the audience knows to be on the board; `piece` only where its rank is known.
    pub pieces: Vec<PieceView>,
    pub last_move: Option<MoveView>,
    pub revealed_flags: Vec<FlagView>,
    pub carried_flags: Vec<FlagView>,
    /// Seats out of the game (the four-player board), in seat order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out: Vec<String>,
    /// Every accepted move so far, as the public record tells it.
    pub history: Vec<HistoryItem>,
    /// The opponent's last signed move file and signature, so players can compare what the
    /// judge showed them (seat views only).
    pub opponent_last_move: Option<SignedFile>,
    /// The last signed move when it was no move on the board (a resignation, an accepted
    /// draw), with its comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closing: Option<qijudge_view::Closing>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatName {
    pub seat: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultView {
    pub winner: Option<String>,
    /// The winner's allies, who win with it (the four-player board).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allies: Vec<String>,
    pub reason: EndReason,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieceView {
    pub square: String,
    pub seat: String,
    pub piece: Option<Piece>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveView {
    pub seat: String,
    pub from: String,
    pub to: String,
    pub outcome: Outcome,
    /// The mover's comment in its signed move file (public, like the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagView {
    pub seat: String,
    pub square: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryItem {
    pub ply: u32,
    pub seat: String,
    #[serde(rename = "move")]
    pub action: String,
    pub outcome: Option<Outcome>,
    pub notices: Vec<Notice>,
    /// This move offered a draw.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub draw_offered: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SignedFile {
    pub file: String,
    pub signature: String,
}

/// Public facts about the game that every view carries.
pub struct Header<'a> {
    pub game: &'a str,
    pub manifest: &'a str,
    pub record_head: &'a str,
    pub players: Vec<SeatName>,
    pub history: Vec<HistoryItem>,
    /// The comment of the last signed move when it was no move on the board.
    pub closing_comment: Option<String>,
}

/// The audience name of a viewer.
pub fn audience_name<S: NodeSet>(board: &Board<S>, viewer: Viewer) -> String {
    match viewer {
        Viewer::Seat(s) => board.seat_name(s).to_string(),
        Viewer::Public => "public".into(),
        Viewer::Full => "full".into(),
    }
}

/// Builds a view from one audience's knowledge.
pub fn build<S: NodeSet>(
    board: &Board<S>,
    k: &Knowledge,
    header: &Header,
    opponent_last_move: Option<SignedFile>,
    last_comment: Option<String>,
) -> ViewFile {
    let seat = |s| board.seat_name(s).to_string();
    let square = |sq| board.name_of(sq).to_string();
    ViewFile {
        format: VIEW_FORMAT.into(),
        game: header.game.into(),
        manifest: header.manifest.into(),
        audience: audience_name(board, k.viewer),
        ply: header
            .history
            .last()
            .map_or(k.plies, |h| h.ply.max(k.plies)),
        record_head: header.record_head.into(),
        board: board.name.clone(),
        players: header.players.clone(),
        to_move: k.to_move.map(seat),
        result: k.result.map(|r| ResultView {
            winner: r.winner.map(seat),
            allies: r
                .winner
                .map(|w| board.allies_of(w).into_iter().map(seat).collect())
                .unwrap_or_default(),
            reason: r.reason,
        }),
        pieces: k
            .cells
            .iter()
            .enumerate()
            .filter_map(|(sq, c)| {
                c.map(|c| PieceView {
                    square: square(sq),
                    seat: seat(c.seat),
                    piece: c.piece,
                })
            })
            .collect(),
        last_move: k.last_move.map(|m| MoveView {
            seat: seat(m.seat),
            from: square(m.from),
            to: square(m.to),
            outcome: m.outcome,
            comment: last_comment,
        }),
        revealed_flags: k
            .revealed_flags
            .iter()
            .map(|&(s, sq)| FlagView {
                seat: seat(s),
                square: square(sq),
            })
            .collect(),
        carried_flags: k
            .carried_flags
            .iter()
            .map(|&(s, sq)| FlagView {
                seat: seat(s),
                square: square(sq),
            })
            .collect(),
        out: board
            .seats()
            .filter(|s| k.out[s.index()])
            .map(seat)
            .collect(),
        history: header.history.clone(),
        opponent_last_move,
        closing: header
            .history
            .last()
            .filter(|h| !on_board(&h.action))
            .map(|h| qijudge_view::Closing {
                ply: h.ply,
                seat: h.seat.clone(),
                action: h.action.clone(),
                comment: header.closing_comment.clone(),
            }),
    }
}

/// The bot protocol carries a seat's view typed, for the built-in bots and the CCGC adapter.
impl qijudge_game::bot_view::TypedView for ViewFile {
    fn format(&self) -> &str {
        &self.format
    }

    fn to_json(&self) -> String {
        serde_json::to_string(self).expect("views serialise")
    }
}
