//! The caption of a Xiangqi picture in Chinese (`--chinese`), and the lines the family's variants
//! (Jieqi, Banqi) share: the heading, pieces by character, comments, takings and the ending. The
//! same facts as the English state lines, from the view alone; every character is in the
//! pictures' built-in typeface (a test checks it on the shipped sample).

use super::view::{chinese_piece, ViewResult, XiangqiView};
use qijudge_view::chinese::{reason, seat};
use qijudge_view::turn_view::TurnView;

/// The first two lines: the game and ply, whose view.
pub fn heading(game: &str, ply: u32, audience: &str) -> Vec<String> {
    let audience = match audience {
        "public" => "观众".to_string(),
        "full" => "全局（终局后）".to_string(),
        s => seat(s),
    };
    vec![format!("{game} 第{ply}步"), format!("{audience}的视角")]
}

/// A piece by its FEN letter as a character (帥, 車, …); a face-down one as 暗子.
pub fn piece(letter: &str) -> String {
    match letter.chars().next() {
        Some('X' | 'x') => "暗子".into(),
        Some(c) => chinese_piece(c).map_or_else(|| letter.to_string(), String::from),
        None => String::new(),
    }
}

pub fn comment(out: &mut Vec<String>, by: &str, text: Option<&String>) {
    if let Some(c) = text {
        out.push(format!(
            "{}留言：「{}」",
            seat(by),
            qijudge_view::text::clean(c)
        ));
    }
}

/// The end of the lines every game of the family shares: a closing move, the result or whose
/// turn it is (`check`: in check), a draw offer if `offers` (a game that has them).
pub fn ending(
    out: &mut Vec<String>,
    v: &impl TurnView<Result = ViewResult>,
    check: bool,
    offers: bool,
) {
    let v = v.shared();
    if let Some(c) = v.closing {
        let verb = match c.action.as_str() {
            "resign" => "认输",
            "accept-draw" => "同意和棋",
            other => other,
        };
        out.push(format!("第{}步：{}{verb}", c.ply, seat(&c.seat)));
        comment(out, &c.seat, c.comment.as_ref());
    }
    match (v.result, v.to_move) {
        (Some(r), _) => {
            let why = reason(r.reason);
            out.push(match &r.winner {
                Some(w) => format!("终局：{}胜（{why}）。", seat(w)),
                None => format!("终局：和棋（{why}）。"),
            });
        }
        (None, Some(t)) => {
            let check = if check { "，被将军" } else { "" };
            out.push(format!("轮到{}走（第{}步）{check}。", seat(t), v.ply + 1));
        }
        (None, None) => {}
    }
    if let Some(s) = v.draw_offer.filter(|_| offers) {
        out.push(format!("{}提议和棋。", seat(s)));
    }
}

/// What each seat has taken: 红方吃子：車 馬.
pub fn taken<'a>(
    out: &mut Vec<String>,
    seats: [&str; 2],
    all: impl Iterator<Item = (&'a str, &'a str)> + Clone,
) {
    for s in seats {
        let pieces: Vec<String> = all
            .clone()
            .filter(|(by, _)| *by == s)
            .map(|(_, p)| piece(p))
            .collect();
        if !pieces.is_empty() {
            out.push(format!("{}吃子：{}", seat(s), pieces.join(" ")));
        }
    }
}

/// Xiangqi: the last move in Chinese notation (炮二平五), what it took, and the state of play.
pub fn caption(v: &XiangqiView) -> Vec<String> {
    let mut out = heading(&v.game, v.ply, &v.audience);
    if let Some(m) = &v.last_move {
        let took = m.captured.as_deref().map(|c| format!("，吃{}", piece(c)));
        out.push(format!(
            "上一步（第{}步）：{} {}{}",
            v.ply,
            seat(&m.seat),
            m.chinese,
            took.unwrap_or_default()
        ));
        comment(&mut out, &m.seat, m.comment.as_ref());
    }
    ending(&mut out, v, v.check, true);
    out
}

/// What every caption of the family (Xiangqi and its variants Jieqi and Banqi) says: the ply
/// and whose view, in Chinese only. (A test helper.)
#[doc(hidden)]
pub fn check_caption(all: &str) {
    assert!(all.contains("第") && all.contains("的视角"), "{all}");
    assert!(!all.contains("ply") && !all.contains("move"), "{all}");
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// Every sample view's Chinese caption, each character checked against the font (Jieqi's
    /// and Banqi's crates check theirs with [`check_caption`]).
    #[test]
    fn the_samples_captions_are_chinese_and_drawn_from_the_font() {
        use qijudge_view::chinese::check_sample_captions as check;
        check(&["games/xiangqi/sample"], caption, check_caption, 3);
    }

    /// The words only some positions bring (a check, a draw offer, the simplified pieces of the
    /// notation).
    #[test]
    fn every_word_is_drawn_from_the_font() {
        let words = "暗子被将军提议和棋同意和棋认输帥仕相傌俥炮兵將士象馬車砲卒帅车马进退平前后中";
        qijudge_view::cjk_font::assert_drawable(words, "a caption word");
    }
}
