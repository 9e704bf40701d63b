//! Xiangqi's board picture, drawn with the shared pieces of [`crate::view::picture`].

use crate::view::picture::*;
use crate::view::xiangqi::XiangqiView;

/// Xiangqi: the grid, the river, the palaces' diagonals; every piece as its Chinese character
/// (red 帥仕相傌俥炮兵, black 將士象馬車砲卒); the last move outlined; files and ranks on all four
/// sides; Black's view turned so Black sits at the bottom.
pub fn xiangqi(view: &XiangqiView) -> String {
    draw_xiangqi(view, Some(false)).finish()
}

/// [`xiangqi`] with its caption in Chinese with `chinese`.
pub fn xiangqi_with(view: &XiangqiView, chinese: bool) -> String {
    draw_xiangqi(view, Some(chinese)).finish()
}

/// The Xiangqi picture in layers (no caption), for the replay page.
pub fn xiangqi_layers(view: &XiangqiView) -> Layers {
    draw_xiangqi(view, None).layers()
}

/// The picture; its caption in English, in Chinese (`Some(true)`), or none.
fn draw_xiangqi(view: &XiangqiView, caption: Option<bool>) -> Svg {
    let caption = match caption {
        Some(true) => super::chinese::caption(view),
        Some(false) => {
            let mut lines = vec![
                format!("{} ply {}", view.game, view.ply),
                format!("view for {}", view.audience),
            ];
            lines.extend(crate::view::xiangqi::state_lines(view));
            lines
        }
        None => Vec::new(),
    };
    let last = view.last_move.as_ref().map(|m| m.iccs.as_str());
    draw_nine_by_ten(&view.audience, &view.board, last, &caption)
}
