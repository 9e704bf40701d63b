//! The caption of a Jieqi picture in Chinese (`--chinese`): Xiangqi's lines, with the piece a
//! move turned up.

use super::view::JieqiView;
use qijudge_view::chinese::seat;
use qijudge_xiangqi::chinese::{comment, ending, heading, piece, taken};

/// Jieqi: the last move (ICCS), the piece it turned up and what it took, each seat's takings.
pub fn caption(v: &JieqiView) -> Vec<String> {
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
    ending(&mut out, v, v.check, true);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sample view's Chinese caption, each character checked against the font.
    #[test]
    fn the_samples_captions_are_chinese_and_drawn_from_the_font() {
        qijudge_view::chinese::check_sample_captions(
            &["games/jieqi/sample"],
            caption,
            qijudge_xiangqi::chinese::check_caption,
            3,
        );
    }
}
