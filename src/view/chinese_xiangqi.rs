//! The captions of the Xiangqi family's pictures in Chinese (`--chinese`): Xiangqi, Jieqi and
//! Banqi, the same facts as their English state lines, from the view alone. Every character is
//! in the pictures' built-in typeface (a test checks it on the shipped samples).

use super::chinese::{reason, seat};
use super::xiangqi::{chinese_piece, Closing, ViewResult};
use crate::games::banqi::view::BanqiView;
use crate::games::jieqi::view::JieqiView;
use crate::games::xiangqi::view::XiangqiView;

/// The first two lines: the game and ply, whose view.
fn heading(game: &str, ply: u32, audience: &str) -> Vec<String> {
    let audience = match audience {
        "public" => "观众".to_string(),
        "full" => "全局（终局后）".to_string(),
        s => seat(s),
    };
    vec![format!("{game} 第{ply}步"), format!("{audience}的视角")]
}

/// A piece by its FEN letter as a character (帥, 車, …); a face-down one as 暗子.
fn piece(letter: &str) -> String {
    match letter.chars().next() {
        Some('X' | 'x') => "暗子".into(),
        Some(c) => chinese_piece(c).map_or_else(|| letter.to_string(), String::from),
        None => String::new(),
    }
}

fn comment(out: &mut Vec<String>, by: &str, text: Option<&String>) {
    if let Some(c) = text {
        out.push(format!("{}留言：「{}」", seat(by), super::text::clean(c)));
    }
}

/// The end of the lines every game of the family shares: a closing move, the result or whose
/// turn it is, a draw offer.
fn ending(
    out: &mut Vec<String>,
    closing: Option<&Closing>,
    result: Option<&ViewResult>,
    to_move: Option<&String>,
    check: bool,
    ply: u32,
    draw_offer: Option<&String>,
) {
    if let Some(c) = closing {
        let verb = match c.action.as_str() {
            "resign" => "认输",
            "accept-draw" => "同意和棋",
            other => other,
        };
        out.push(format!("第{}步：{}{verb}", c.ply, seat(&c.seat)));
        comment(out, &c.seat, c.comment.as_ref());
    }
    match (result, to_move) {
        (Some(r), _) => {
            let why = reason(r.reason);
            out.push(match &r.winner {
                Some(w) => format!("终局：{}胜（{why}）。", seat(w)),
                None => format!("终局：和棋（{why}）。"),
            });
        }
        (None, Some(t)) => {
            let check = if check { "，被将军" } else { "" };
            out.push(format!("轮到{}走（第{}步）{check}。", seat(t), ply + 1));
        }
        (None, None) => {}
    }
    if let Some(s) = draw_offer {
        out.push(format!("{}提议和棋。", seat(s)));
    }
}

/// What each seat has taken: 红方吃子：車 馬.
fn taken<'a>(
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
pub fn xiangqi(v: &XiangqiView) -> Vec<String> {
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
    ending(
        &mut out,
        v.closing.as_ref(),
        v.result.as_ref(),
        v.to_move.as_ref(),
        v.check,
        v.ply,
        v.draw_offer.as_ref(),
    );
    out
}

/// Jieqi: the last move (ICCS), the piece it turned up and what it took, each seat's takings.
pub fn jieqi(v: &JieqiView) -> Vec<String> {
    let mut out = heading(&v.game, v.ply, &v.audience);
    if let Some(m) = &v.last_move {
        let turned = m.revealed.as_deref().map(|r| format!("，翻出{}", piece(r)));
        let took = m.captured.as_deref().map(|c| format!("，吃{}", piece(c)));
        out.push(format!(
            "上一步（第{}步）：{} {}{}{}",
            v.ply,
            seat(&m.seat),
            m.iccs,
            turned.unwrap_or_default(),
            took.unwrap_or_default()
        ));
        comment(&mut out, &m.seat, m.comment.as_ref());
    }
    let all = v.taken.iter().map(|t| (t.by.as_str(), t.piece.as_str()));
    taken(&mut out, ["red", "black"], all);
    ending(
        &mut out,
        v.closing.as_ref(),
        v.result.as_ref(),
        v.to_move.as_ref(),
        v.check,
        v.ply,
        v.draw_offer.as_ref(),
    );
    out
}

/// Banqi: the last turn (a piece turned up, a move, a capture), each seat's colour, takings, the
/// pieces still face down.
pub fn banqi(v: &BanqiView) -> Vec<String> {
    let mut out = heading(&v.game, v.ply, &v.audience);
    if let Some(m) = &v.last_move {
        let what = match (&m.revealed, &m.captured) {
            (Some(r), _) => format!("{}翻出{}", m.action, piece(r)),
            (None, Some(c)) => format!("{}，吃{}", m.action, piece(c)),
            (None, None) => m.action.clone(),
        };
        out.push(format!("上一步（第{}步）：{} {what}", v.ply, seat(&m.seat)));
        comment(&mut out, &m.seat, m.comment.as_ref());
    }
    if v.colours.is_empty() {
        out.push("尚未翻子：先翻出的一子定其颜色。".into());
    } else {
        let colours: Vec<String> = v
            .colours
            .iter()
            .map(|(s, c)| format!("{}执{}", seat(s), if c == "red" { "红" } else { "黑" }))
            .collect();
        out.push(format!("{}。", colours.join("，")));
    }
    let all = v.taken.iter().map(|t| (t.by.as_str(), t.piece.as_str()));
    taken(&mut out, ["first", "second"], all);
    if !v.face_down.is_empty() {
        let pieces: String = v
            .face_down
            .chars()
            .map(|c| chinese_piece(c).unwrap_or(c))
            .collect();
        out.push(format!("未翻：{pieces}"));
    }
    ending(
        &mut out,
        v.closing.as_ref(),
        v.result.as_ref(),
        v.to_move.as_ref(),
        false,
        v.ply,
        None,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sample view's Chinese caption, each character checked against the font.
    #[test]
    fn the_samples_captions_are_chinese_and_drawn_from_the_font() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut checked = 0;
        for (sample, game) in [
            ("games/xiangqi/sample", "xiangqi"),
            ("games/jieqi/sample", "jieqi"),
            ("games/banqi/sample", "banqi"),
        ] {
            for entry in std::fs::read_dir(root.join(sample).join("views")).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "json") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let lines = match game {
                    "xiangqi" => xiangqi(&serde_json::from_str(&text).unwrap()),
                    "jieqi" => jieqi(&serde_json::from_str(&text).unwrap()),
                    _ => banqi(&serde_json::from_str(&text).unwrap()),
                };
                let all = lines.join("\n");
                assert!(all.contains("第") && all.contains("的视角"), "{all}");
                assert!(!all.contains("ply") && !all.contains("move"), "{all}");
                super::super::cjk_font::assert_drawable(&all, &path.display().to_string());
                checked += 1;
            }
        }
        assert!(checked >= 9, "{checked}");
    }

    /// The words only some positions bring (no piece up yet, a check, a draw offer, the simplified
    /// pieces of the notation).
    #[test]
    fn every_word_is_drawn_from_the_font() {
        let words = "尚未翻子：先翻出的一子定其颜色。先手执红，后手执黑。未翻：暗子被将军提议和棋同意和棋认输\
                     帥仕相傌俥炮兵將士象馬車砲卒帅车马进退平前后中";
        super::super::cjk_font::assert_drawable(words, "a caption word");
    }
}
