//! The Jieqi view model: what the judge publishes for each audience, and its text form. Built by
//! the judge (`judge::jieqi::build_view`); what each audience may know is decided there, in one
//! function.

use qijudge_protocol::files::Player;

pub use qijudge_view::turn_view::Taken;
use qijudge_xiangqi::view::{comment_line, ending_lines, taken_lines, text_tail};
pub use qijudge_xiangqi::view::{Closing, ViewResult};

qijudge_view::turn_view! {
    /// A published Jieqi view.
    pub struct JieqiView (result: ViewResult) {
        /// Whether the side to move is in check.
        pub check: bool,
        /// The position: ranks 9 to 0 separated by `/`, FEN letters for face-up pieces, `X` (red)
        /// and `x` (black) for face-down ones, digits for empty points; then `w` or `b`.
        pub position: String,
        /// Ranks 9 to 0, files a to i: as in `position`, `.` for an empty point.
        pub board: Vec<String>,
        /// The moves so far in ICCS coordinates, `=` and the letter of what a face-down mover
        /// turned out to be (`b0c2=R`).
        pub moves: Vec<String>,
        pub last_move: Option<LastMove>,
        /// Every piece taken so far, in order.
        pub taken: Vec<Taken>,
    }
}

qijudge_view::last_move! {
    /// The last move.
    pub struct LastMove {
        pub iccs: String,
        /// What the moving piece turned out to be, when it moved face down.
        pub revealed: Option<String>,
        /// What it took, as this audience may know it (`x`/`X`: face down and unknown).
        pub captured: Option<String>,
    }
}

fn piece_name(letter: &str) -> String {
    let c = letter.chars().next().unwrap_or('?');
    let side = if c.is_ascii_uppercase() {
        "red"
    } else {
        "black"
    };
    let kind = match c.to_ascii_uppercase() {
        'X' => "face-down piece",
        'K' => "general",
        'A' => "advisor",
        'B' => "elephant",
        'N' => "horse",
        'R' => "chariot",
        'C' => "cannon",
        'P' => "soldier",
        _ => "piece",
    };
    format!("{side} {kind}")
}

/// The state of play in sentences, for the text view, captions and the replay page.
pub fn state_lines(v: &JieqiView) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(m) = &v.last_move {
        let revealed = m
            .revealed
            .as_ref()
            .map(|r| format!(", turned up a {}", piece_name(r)))
            .unwrap_or_default();
        let captured = m
            .captured
            .as_ref()
            .map(|c| format!(", takes a {}", piece_name(c)))
            .unwrap_or_default();
        out.push(format!(
            "Last move (ply {}): {} {}{revealed}{captured}",
            v.ply, m.seat, m.iccs
        ));
        comment_line(&mut out, &m.seat, m.comment.as_ref());
    }
    let all = v.taken.iter().map(|t| (t.by.as_str(), t.piece.as_str()));
    taken_lines(&mut out, ["red", "black"], all);
    ending_lines(&mut out, v, v.check);
    out
}

/// The text form of a view: the board (black's view turned) and the state of play.
pub fn render_text(players: &[Player], v: &JieqiView, chinese: bool) -> String {
    let title = format!("Jieqi {}  ply {}", v.game, v.ply);
    let mut out = qijudge_view::text::header(&title, players, &v.audience, &v.record_head);
    let marked: Vec<&str> = v
        .last_move
        .iter()
        .flat_map(|m| [m.iccs.get(..2).unwrap_or(""), m.iccs.get(2..).unwrap_or("")])
        .collect();
    out.push_str(&qijudge_xiangqi::view::board_diagram(
        players,
        &v.board,
        &v.audience,
        &marked,
        chinese,
    ));
    if chinese {
        out.push_str("Key: red 帥仕相傌俥炮兵, black 將士象馬車砲卒, 暗 face down; * the last move's points.\n");
    } else {
        out.push_str(
            "Key: red upper case, black lower case: K general, A advisor, B elephant, N horse, \
             R chariot, C cannon, P soldier; X face down (moves as the piece of its start point); \
             . empty; * the last move's points.\n",
        );
    }
    out.push_str("Points: file a-i from red's left, rank 0 (red's back rank) to 9.\n\n");
    let position = format!("Position: {}", v.position);
    text_tail(&mut out, v, state_lines(v), ("moves", "MOVE"), position);
    out
}
