//! Jieqi's board picture, drawn with the shared pieces of [`crate::view::picture`].

use crate::view::jieqi::JieqiView;
use crate::view::picture::*;

/// Jieqi: the Xiangqi board, face-down pieces as plain discs of their side's colour.
pub fn jieqi(view: &JieqiView) -> String {
    draw_jieqi(view, true).finish()
}

pub fn jieqi_layers(view: &JieqiView) -> Layers {
    draw_jieqi(view, false).layers()
}

fn draw_jieqi(view: &JieqiView, with_caption: bool) -> Svg {
    let mut caption = vec![
        format!("{} ply {}", view.game, view.ply),
        format!("view for {}", view.audience),
    ];
    caption.extend(crate::view::jieqi::state_lines(view));
    if !with_caption {
        caption.clear();
    }
    let last = view.last_move.as_ref().map(|m| m.iccs.as_str());
    draw_nine_by_ten(&view.audience, &view.board, last, &caption)
}
