//! Jieqi's board picture, drawn with the shared pieces of [`crate::view::picture`].

use crate::games::jieqi::view::JieqiView;
use crate::games::xiangqi::picture::draw_nine_by_ten;
use crate::view::picture::*;

/// Jieqi: the Xiangqi board, face-down pieces as plain discs of their side's colour.
pub fn jieqi(view: &JieqiView) -> String {
    draw_jieqi(view, Some(false)).finish()
}

/// [`jieqi`] with its caption in Chinese with `chinese`.
pub fn jieqi_with(view: &JieqiView, chinese: bool) -> String {
    draw_jieqi(view, Some(chinese)).finish()
}

pub fn jieqi_layers(view: &JieqiView) -> Layers {
    draw_jieqi(view, None).layers()
}

/// The picture; its caption in English, in Chinese (`Some(true)`), or none.
fn draw_jieqi(view: &JieqiView, caption: Option<bool>) -> Svg {
    let caption = match caption {
        Some(true) => super::chinese::caption(view),
        Some(false) => {
            let mut lines = vec![
                format!("{} ply {}", view.game, view.ply),
                format!("view for {}", view.audience),
            ];
            lines.extend(crate::games::jieqi::view::state_lines(view));
            lines
        }
        None => Vec::new(),
    };
    let last = view.last_move.as_ref().map(|m| m.iccs.as_str());
    draw_nine_by_ten(&view.audience, &view.board, last, &caption)
}
