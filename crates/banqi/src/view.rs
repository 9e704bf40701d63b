//! The Banqi view model: what the judge publishes for each audience (the same for all: nobody
//! is shown what lies face down), and its text form. Built by the judge
//! (`referee::view_at`).

use qijudge_protocol::files::Player;
use std::collections::BTreeMap;

pub use qijudge_view::turn_view::Taken;
use qijudge_xiangqi::view::{comment_line, ending_lines, taken_lines, text_tail};
pub use qijudge_xiangqi::view::{Closing, ViewResult};

qijudge_view::turn_view! {
    /// A published Banqi view.
    pub struct BanqiView (result: ViewResult) {
        /// Each seat's colour (`red`, `black`), once the first piece is turned up; empty before.
        pub colours: BTreeMap<String, String>,
        /// The position: ranks 4 to 1 separated by `/`, FEN letters for face-up pieces (red upper
        /// case), `?` for face-down ones, digits for empty squares; the seat to move (`0` first, `1`
        /// second); the colours of first and second (`rb`, `br`, or `-` before the first turn-up).
        pub position: String,
        /// Ranks 4 to 1, files a to h: as in `position`, `.` for an empty square.
        pub board: Vec<String>,
        /// The turns so far: a square turned up with what it was (`c2=R`), or a move, with what it
        /// took (`c2c4xp`).
        pub moves: Vec<String>,
        pub last_move: Option<LastMove>,
        /// Every piece taken so far, in order.
        pub taken: Vec<Taken>,
        /// The pieces still face down, as everyone can count them (FEN letters, sorted); where
        /// each lies is in no view.
        pub face_down: String,
        /// Plies since the last capture or piece turned up (the move limit counts them).
        pub quiet_plies: u32,
    }
}

qijudge_view::last_move! {
    /// The last turn.
    pub struct LastMove {
        /// `c2` (turned up) or `c2c3` (moved).
        pub action: String,
        /// What the piece turned up was.
        pub revealed: Option<String>,
        /// What the move took (a chain of captures: its first).
        pub captured: Option<String>,
        /// What a chain of captures took after its first, in order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub also_captured: Vec<String>,
    }
}

/// `red chariot` for `R`.
fn piece_name(letter: &str) -> String {
    letter
        .chars()
        .next()
        .and_then(xiangqi_rules::Piece::from_fen_char)
        .map(super::rules::position::piece_name)
        .unwrap_or_else(|| "piece".into())
}

/// The pieces still face down (FEN letters) by colour and kind, counted: `red: 1 general,
/// 2 advisors, …; black: …` (16 letters in a row are hard to count).
fn face_down_words(letters: &str) -> String {
    use xiangqi_rules::{Color, Kind, Piece};
    let mut sides = Vec::new();
    for color in [Color::Red, Color::Black] {
        let mut kinds: Vec<(Kind, usize)> = Vec::new();
        for p in letters.chars().filter_map(Piece::from_fen_char) {
            if p.color != color {
                continue;
            }
            match kinds.iter_mut().find(|(k, _)| *k == p.kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((p.kind, 1)),
            }
        }
        if kinds.is_empty() {
            continue;
        }
        let counted: Vec<String> = kinds
            .iter()
            .map(|(k, n)| {
                let name = super::rules::position::kind_name(*k);
                match n {
                    1 => format!("1 {name}"),
                    _ => format!("{n} {name}s"),
                }
            })
            .collect();
        sides.push(format!("{}: {}", color.name(), counted.join(", ")));
    }
    sides.join("; ")
}

/// The state of play in sentences, for the text view, captions and the replay page.
pub fn state_lines(v: &BanqiView) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(m) = &v.last_move {
        let what = match (&m.revealed, &m.captured) {
            (Some(r), _) => format!("turned up a {} on {}", piece_name(r), m.action),
            (None, Some(c)) => {
                let then: String = m
                    .also_captured
                    .iter()
                    .map(|c| format!(", then a {}", piece_name(c)))
                    .collect();
                format!("{}, takes a {}{then}", m.action, piece_name(c))
            }
            (None, None) => m.action.clone(),
        };
        out.push(format!("Last move (ply {}): {} {what}", v.ply, m.seat));
        comment_line(&mut out, &m.seat, m.comment.as_ref());
    }
    if v.colours.is_empty() {
        out.push(
            "No piece is up yet: the first piece turned up gives its turner that colour.".into(),
        );
    } else {
        let c: Vec<String> = v
            .colours
            .iter()
            .map(|(s, c)| format!("{s} plays {c}"))
            .collect();
        out.push(format!("{}.", c.join(", ")));
    }
    let all = v.taken.iter().map(|t| (t.by.as_str(), t.piece.as_str()));
    taken_lines(&mut out, ["first", "second"], all);
    if !v.face_down.is_empty() {
        out.push(format!(
            "Still face down: {}",
            face_down_words(&v.face_down)
        ));
    }
    ending_lines(&mut out, v, false);
    out
}

/// One square of the text board.
fn cell_text(c: char, chinese: bool) -> String {
    match (c, chinese) {
        ('.', false) => " .".into(),
        ('?', false) => " ?".into(),
        (c, false) => format!(" {c}"),
        ('.', true) => "\u{3000}".into(),
        ('?', true) => "暗".into(),
        (c, true) => {
            qijudge_xiangqi::view::chinese_piece(c).map_or_else(|| "？".into(), |g| g.to_string())
        }
    }
}

/// The text form of a view: the board and the state of play.
pub fn render_text(players: &[Player], v: &BanqiView, chinese: bool) -> String {
    render_text_with(players, v, chinese, state_lines(v))
}

/// [`render_text`] with the state of play in `lines` (the Chinese text view's, from its
/// caption: `chinese::text`).
pub fn render_text_with(
    players: &[Player],
    v: &BanqiView,
    chinese: bool,
    lines: Vec<String>,
) -> String {
    let title = format!("Banqi {}  ply {}", v.game, v.ply);
    let mut out = qijudge_view::text::header(&title, players, &v.audience, &v.record_head);
    let files = if chinese {
        "ａｂｃｄｅｆｇｈ"
            .chars()
            .map(String::from)
            .collect::<Vec<_>>()
    } else {
        ('a'..='h').map(|c| format!(" {c}")).collect()
    };
    let header = format!("   {}\n", files.join(""));
    out.push_str(&header);
    for (i, row) in v.board.iter().enumerate() {
        let rank = 4 - i;
        let cells: String = row.chars().map(|c| cell_text(c, chinese)).collect();
        out.push_str(&format!(" {rank} {cells}  {rank}\n"));
    }
    out.push_str(&header);
    if chinese {
        out.push_str("Key: red 帥仕相俥傌炮兵, black 將士象車馬砲卒, 暗 face down.\n");
    } else {
        out.push_str(
            "Key: red upper case, black lower case: K general, A advisor, B elephant, R chariot, \
             N horse, C cannon, P soldier; ? face down; . empty.\n",
        );
    }
    out.push('\n');
    let turn = "TURN (a square to turn up, like c2, or a move like c2c3)";
    let position = format!("Position: {}", v.position);
    text_tail(&mut out, v, lines, ("turns", turn), position);
    out
}

/// The greedy bot's scores: what each legal turn takes ([`capture_worth`]).
pub fn greedy_scores(view: &serde_json::Value, legal: &[String]) -> Vec<i32> {
    legal.iter().map(|turn| capture_worth(view, turn)).collect()
}

/// What a turn takes, by rank (1 a soldier … 7 a general; 0 for a quiet turn), read from a
/// view: the greedy bot's measure.
pub fn capture_worth(view: &serde_json::Value, turn: &str) -> i32 {
    let Some(action) = super::rules::Action::parse(turn) else {
        return 0;
    };
    // A chain takes on every square it goes to.
    action
        .steps()
        .iter()
        .map(|(_, to)| {
            let row = view["board"][3 - to.rank() as usize]
                .as_str()
                .unwrap_or_default();
            row.chars()
                .nth(to.file() as usize)
                .and_then(xiangqi_rules::Piece::from_fen_char)
                .map_or(0, |p| {
                    1 + i32::from(super::rules::position::rank_of(p.kind))
                })
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::face_down_words;

    #[test]
    fn pieces_face_down_are_counted_by_colour_and_kind() {
        assert_eq!(
            face_down_words("AABBCCKNNPPPPPRRp"),
            "red: 2 advisors, 2 elephants, 2 cannons, 1 general, 2 horses, 5 soldiers, \
             2 chariots; black: 1 soldier"
        );
        assert_eq!(face_down_words("k"), "black: 1 general");
    }
}
