//! The Xiangqi view model: what the judge publishes for each audience (the same board for
//! everyone), and its text form. Built by the judge (`judge::xiangqi::build_view`).

use qijudge_protocol::files::Player;
use qijudge_rules::EndReason;
use serde::{Deserialize, Serialize};

use qijudge_view::turn_view::TurnView;
pub use qijudge_view::Closing;

qijudge_view::turn_view! {
    /// A published Xiangqi view (the same board for everyone: nothing is hidden).
    pub struct XiangqiView (result: ViewResult) {
        /// Whether the side to move is in check.
        pub check: bool,
        pub fen: String,
        /// Ranks 9 to 0, files a to i: FEN letters, `.` for an empty point.
        pub board: Vec<String>,
        /// The moves so far in ICCS coordinates.
        pub moves: Vec<String>,
        pub last_move: Option<LastMove>,
    }
}

qijudge_view::last_move! {
    /// The last move in every notation.
    pub struct LastMove {
        pub iccs: String,
        pub wxf: String,
        pub chinese: String,
        /// The captured piece's FEN letter.
        pub captured: Option<String>,
    }
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

impl ViewResult {
    /// The result of a game whose first seat is `first` (`1-0` when it wins), with its
    /// ending in words.
    pub fn new(
        winner: &Option<String>,
        first: &str,
        reason: EndReason,
        ending: Option<&impl std::fmt::Display>,
    ) -> ViewResult {
        let score = match winner.as_deref() {
            Some(w) if w == first => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        };
        ViewResult {
            winner: winner.clone(),
            score: score.into(),
            reason,
            detail: ending.map(|e| e.to_string()).unwrap_or_default(),
        }
    }
}

/// A view's `board`: ranks 9 to 0, files a to i, the letter `at` gives each occupied point and
/// `.` for an empty one (Xiangqi's and Jieqi's views).
pub fn board_rows(at: impl Fn(xiangqi_rules::Square) -> Option<char>) -> Vec<String> {
    (0..10u8)
        .rev()
        .map(|rank| {
            (0..9u8)
                .map(|file| {
                    xiangqi_rules::Square::new(file, rank)
                        .and_then(&at)
                        .unwrap_or('.')
                })
                .collect()
        })
        .collect()
}

/// A piece's Chinese character, from its FEN letter (red upper case, black lower case).
pub fn chinese_piece(c: char) -> Option<char> {
    Some(match c {
        'K' => '帥',
        'A' => '仕',
        'B' => '相',
        'N' => '傌',
        'R' => '俥',
        'C' => '炮',
        'P' => '兵',
        'k' => '將',
        'a' => '士',
        'b' => '象',
        'n' => '馬',
        'r' => '車',
        'c' => '砲',
        'p' => '卒',
        _ => return None,
    })
}

/// The mover's comment, as the family's English lines say it.
pub fn comment_line(out: &mut Vec<String>, seat: &str, comment: Option<&String>) {
    if let Some(c) = comment {
        let c = qijudge_view::text::clean(c);
        out.push(format!("{seat}'s comment: \"{c}\""));
    }
}

/// What each of `seats` has taken (`all`: taker and piece letter), in the family's English.
pub fn taken_lines<'a>(
    out: &mut Vec<String>,
    seats: [&str; 2],
    all: impl Iterator<Item = (&'a str, &'a str)> + Clone,
) {
    for seat in seats {
        let taken: Vec<&str> = all.clone().filter(|t| t.0 == seat).map(|t| t.1).collect();
        if !taken.is_empty() {
            out.push(format!("Taken by {seat}: {}", taken.join(" ")));
        }
    }
}

/// The end of the family's English state lines: a closing move, the result or whose turn it
/// is (`check`: in check), a standing draw offer.
pub fn ending_lines(out: &mut Vec<String>, v: &impl TurnView<Result = ViewResult>, check: bool) {
    let v = v.shared();
    if let Some(c) = v.closing {
        out.extend(c.lines());
    }
    match (v.result, v.to_move) {
        (Some(r), _) => out.push(format!("Result: {} ({})", r.score, r.detail)),
        (None, Some(seat)) => {
            let check = if check { ", in check" } else { "" };
            out.push(format!("{seat} to move (ply {}){check}", v.ply + 1));
        }
        (None, None) => {}
    }
    if let Some(seat) = v.draw_offer {
        out.push(format!("{seat} offers a draw."));
    }
}

/// The end of the family's text view: the state `lines`, how the seat to move (when it is
/// the audience) lists and plays its `turns` (`turn`: how one is written), and `last`.
pub fn text_tail(
    out: &mut String,
    v: &impl TurnView,
    lines: Vec<String>,
    (turns, turn): (&str, &str),
    last: String,
) {
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    let v = v.shared();
    if let (None, Some(seat)) = (v.result, v.to_move) {
        if seat == v.audience {
            out.push_str(&format!(
                "Your legal {turns}: qijudge moves GAME --as {seat}; play one with qijudge move GAME --as {seat} --key KEY {turn}.\n"
            ));
        }
    }
    out.push_str(&last);
    out.push('\n');
}

/// The state of play in sentences: the last move in every notation and its comment, whose turn
/// it is (and check) or the result, a standing draw offer. For the text view, captions and the
/// replay page.
pub fn state_lines(v: &XiangqiView) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(m) = &v.last_move {
        let captured = m
            .captured
            .as_ref()
            .map(|c| format!(", takes {c}"))
            .unwrap_or_default();
        out.push(format!(
            "Last move (ply {}): {} {} = {} = {}{captured}",
            v.ply, m.seat, m.iccs, m.wxf, m.chinese
        ));
        comment_line(&mut out, &m.seat, m.comment.as_ref());
    }
    ending_lines(&mut out, v, v.check);
    out
}

/// The text form of a view: a board diagram (Black's view turned so Black sits at the bottom)
/// and the state of play. With `chinese`, pieces are their characters (full width).
pub fn render_text(players: &[Player], v: &XiangqiView, chinese: bool) -> String {
    let title = format!("Xiangqi {}  ply {}", v.game, v.ply);
    let mut out = qijudge_view::text::header(&title, players, &v.audience, &v.record_head);
    let marked: Vec<&str> = v
        .last_move
        .iter()
        .flat_map(|m| [m.iccs.get(..2).unwrap_or(""), m.iccs.get(2..).unwrap_or("")])
        .collect();
    out.push_str(&board_diagram(
        players,
        &v.board,
        &v.audience,
        &marked,
        chinese,
    ));
    if chinese {
        out.push_str("Key: red 帥仕相傌俥炮兵, black 將士象馬車砲卒; * the last move's points.\n");
    } else {
        out.push_str(
            "Key: red upper case, black lower case: K general, A advisor, B elephant, N horse, \
             R chariot, C cannon, P soldier; . empty; * the last move's points.\n",
        );
    }
    out.push_str("Points: file a-i from red's left, rank 0 (red's back rank) to 9.\n\n");
    let fen = format!("FEN: {}", v.fen);
    text_tail(&mut out, v, state_lines(v), ("moves", "MOVE"), fen);
    out
}

/// The 9 × 10 board as text lines (black's audience sees it turned), with the seats' names
/// above and below and `*` beside the `marked` points. Xiangqi's and Jieqi's views share it.
pub fn board_diagram(
    players: &[Player],
    board: &[String],
    audience: &str,
    marked: &[&str],
    chinese: bool,
) -> String {
    let name = |seat: &str| qijudge_view::text::seat_label(players, seat);
    let mut out = String::new();
    let turned = audience == "black";
    let files: Vec<char> = if turned {
        "ihgfedcba".chars().collect()
    } else {
        "abcdefghi".chars().collect()
    };
    let ranks: Vec<usize> = if turned {
        (0..10).collect()
    } else {
        (0..10).rev().collect()
    };
    let file_line = |out: &mut String| {
        let letters: Vec<String> = files
            .iter()
            .map(|f| {
                if chinese {
                    format!("{f} ")
                } else {
                    f.to_string()
                }
            })
            .collect();
        out.push_str(&format!("   {}\n", letters.join(" ").trim_end()));
    };
    // Each side numbers the files from its own right, 1 to 9 (red in Chinese numerals on a
    // Chinese board, as its moves are written: 炮二平五).
    let numbers_line = |out: &mut String, side: &str| {
        let numbers: Vec<String> = files
            .iter()
            .map(|f| {
                let from_a = (*f as u8 - b'a') as usize;
                let n = if side == "red" {
                    9 - from_a
                } else {
                    from_a + 1
                };
                match (chinese, side) {
                    (true, "red") => "一二三四五六七八九"
                        .chars()
                        .nth(n - 1)
                        .unwrap_or('?')
                        .to_string(),
                    (true, _) => "１２３４５６７８９"
                        .chars()
                        .nth(n - 1)
                        .unwrap_or('?')
                        .to_string(),
                    (false, _) => n.to_string(),
                }
            })
            .collect();
        out.push_str(&format!("   {}\n", numbers.join(" ")));
    };
    let top = if turned { "red" } else { "black" };
    let bottom = if turned { "black" } else { "red" };
    out.push_str(&format!("   {}\n", name(top)));
    numbers_line(&mut out, top);
    file_line(&mut out);
    for (i, &rank) in ranks.iter().enumerate() {
        let row: Vec<char> = board
            .get(9 - rank)
            .map(|r| r.chars().collect())
            .unwrap_or_default();
        let mut line = format!("{rank}  ");
        for f in &files {
            let c = row.get((*f as u8 - b'a') as usize).copied().unwrap_or('.');
            let square = format!("{f}{rank}");
            let mark = if marked.contains(&square.as_str()) {
                '*'
            } else {
                ' '
            };
            match chinese_piece(c) {
                Some(h) if chinese => line.push(h),
                None if chinese && c.eq_ignore_ascii_case(&'x') => line.push('暗'),
                // An empty point is a crossing of the grid, as wide as a piece.
                _ if chinese => line.push('＋'),
                _ => line.push(c),
            }
            line.push(mark);
        }
        out.push_str(&format!("{}  {rank}\n", line.trim_end_matches(' ')));
        if i == 4 {
            match chinese {
                true => out.push_str("   ～～ 楚河 ～～～ 汉界 ～～\n"),
                false => out.push_str("   ~~~~~~~ river ~~~~~~~\n"),
            }
        }
    }
    file_line(&mut out);
    numbers_line(&mut out, bottom);
    out.push_str(&format!("   {}\n\n", name(bottom)));
    out
}

#[cfg(test)]
mod tests {
    use super::board_diagram;

    /// Columns in a terminal: full-width forms and CJK characters take two.
    fn width(line: &str) -> usize {
        line.chars()
            .map(|c| match c as u32 {
                0x3000..=0x9FFF | 0xFF01..=0xFF60 => 2,
                _ => 1,
            })
            .sum()
    }

    /// The Chinese text board: every point a piece or a crossing of the grid (＋), the river
    /// named 楚河 汉界, and the board's lines as wide as each other in a terminal.
    #[test]
    fn the_chinese_text_board_has_its_grid_and_river() {
        let board: Vec<String> = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
            .split('/')
            .map(|row| {
                row.chars()
                    .map(|c| match c.to_digit(10) {
                        Some(n) => ".".repeat(n as usize),
                        None => c.to_string(),
                    })
                    .collect()
            })
            .collect();
        let text = board_diagram(&[], &board, "red", &[], true);
        assert!(text.contains("楚河") && text.contains("汉界"), "{text}");
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert_eq!(rows.len(), 10, "{text}");
        for row in &rows {
            assert_eq!(
                row.chars().filter(|&c| c == '＋').count()
                    + row
                        .chars()
                        .filter(|c| "車馬象士將砲卒俥傌相仕帥炮兵".contains(*c))
                        .count(),
                9,
                "{row}"
            );
        }
        let widths: Vec<usize> = rows.iter().map(|r| width(r.trim_end())).collect();
        assert!(
            widths.windows(2).all(|w| w[0] == w[1]),
            "{widths:?}\n{text}"
        );
        let river = text.lines().find(|l| l.contains("楚河")).unwrap();
        assert!(width(river) <= widths[0], "{river}\n{text}");
    }
}
