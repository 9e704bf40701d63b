//! The caption of a Banqi picture in Chinese (`--chinese`): Xiangqi's lines, with each seat's
//! colour and the pieces still face down.

use super::view::BanqiView;
use qijudge_view::chinese::seat;
use qijudge_xiangqi::chinese::{comment, ending, heading, piece, taken};
use qijudge_xiangqi::view::chinese_piece;

/// The text view in Chinese: the board in characters, and the state of play as the picture's
/// caption says it.
pub fn text(players: &[qijudge_protocol::files::Player], v: &BanqiView) -> String {
    super::view::render_text_with(players, v, true, state(v))
}

/// The picture's caption: the game, ply and audience, then [`state`].
pub fn caption(v: &BanqiView) -> Vec<String> {
    let mut out = heading(&v.game, v.ply, &v.audience);
    out.extend(state(v));
    out
}

/// Banqi's state of play: the last turn (a piece turned up, a move, a capture), each seat's
/// colour, takings, the pieces still face down, the end.
pub fn state(v: &BanqiView) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(m) = &v.last_move {
        let what = match (&m.revealed, &m.captured) {
            (Some(r), _) => format!("{}翻出{}", m.action, piece(r)),
            (None, Some(c)) => {
                let then: String = m
                    .also_captured
                    .iter()
                    .map(|c| format!("、{}", piece(c)))
                    .collect();
                format!("{}，吃{}{then}", m.action, piece(c))
            }
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
    ending(&mut out, v, false, false);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text view in Chinese gives the last move and the takings in Chinese, as the
    /// picture's caption does (not in English with piece letters); in English it is English.
    #[test]
    fn the_chinese_text_view_says_the_play_in_chinese() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let text = std::fs::read_to_string(root.join("games/banqi/sample/views/public.json"));
        let v: BanqiView = serde_json::from_str(&text.unwrap()).unwrap();
        assert!(
            v.last_move.is_some() && !v.taken.is_empty(),
            "a sample with takings"
        );
        let chinese = super::text(&[], &v);
        assert!(chinese.contains("上一步"), "{chinese}");
        for english in ["Last move", "takes a", "turned up", "Taken by"] {
            assert!(!chinese.contains(english), "{english}: {chinese}");
        }
        let english = super::super::view::render_text(&[], &v, false);
        assert!(english.contains("Last move"), "{english}");
    }

    /// Every sample view's Chinese caption, each character checked against the font.
    #[test]
    fn the_samples_captions_are_chinese_and_drawn_from_the_font() {
        qijudge_view::chinese::check_sample_captions(
            &["games/banqi/sample"],
            caption,
            qijudge_xiangqi::chinese::check_caption,
            3,
        );
    }

    /// The words only some positions bring (no piece up yet, the colours).
    #[test]
    fn every_word_is_drawn_from_the_font() {
        let words = "尚未翻子：先翻出的一子定其颜色。先手执红，后手执黑。未翻：";
        qijudge_view::cjk_font::assert_drawable(words, "a caption word");
    }
}
