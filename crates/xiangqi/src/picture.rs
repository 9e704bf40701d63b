//! Xiangqi's board picture, drawn with the shared pieces of [`qijudge_view::picture`].

use crate::view::XiangqiView;
use qijudge_view::picture::*;

/// Xiangqi: the grid, the river, the palaces' diagonals; every piece as its Chinese character
/// (red 帥仕相傌俥炮兵, black 將士象馬車砲卒); the last move outlined; files and ranks on all four
/// sides; Black's view turned so Black sits at the bottom.
/// Jieqi's too (face-down pieces as plain discs of their side's colour).
pub fn xiangqi(view: &impl NineByTen) -> String {
    draw_xiangqi(view, Some(false)).finish()
}

/// [`xiangqi`] with its caption in Chinese with `chinese`.
pub fn xiangqi_with(view: &impl NineByTen, chinese: bool) -> String {
    draw_xiangqi(view, Some(chinese)).finish()
}

/// The picture in layers (no caption), for the replay page.
pub fn xiangqi_layers(view: &impl NineByTen) -> Layers {
    draw_xiangqi(view, None).layers()
}

/// What the picture of the 9 × 10 board shows of a view (Xiangqi's and Jieqi's).
pub trait NineByTen {
    /// The game, ply and audience.
    fn caption_head(&self) -> (&str, u32, &str);
    /// Ranks 9 to 0 of FEN letters (`X`/`x` face down), `.` for an empty point.
    fn board(&self) -> &[String];
    /// The last move in ICCS coordinates.
    fn last_iccs(&self) -> Option<&str>;
    /// The state of play in sentences, in English or Chinese.
    fn caption_lines(&self, chinese: bool) -> Vec<String>;
}

/// [`NineByTen`] for a view with `game`, `ply`, `audience`, `board` and `last_move.iccs`
/// fields, its captions from the game's `$chinese` (Chinese) and `$lines` (English).
#[macro_export]
macro_rules! nine_by_ten {
    ($view:ty, $chinese:path, $lines:path) => {
        impl $crate::picture::NineByTen for $view {
            fn caption_head(&self) -> (&str, u32, &str) {
                (&self.game, self.ply, &self.audience)
            }

            fn board(&self) -> &[String] {
                &self.board
            }

            fn last_iccs(&self) -> Option<&str> {
                self.last_move.as_ref().map(|m| m.iccs.as_str())
            }

            fn caption_lines(&self, chinese: bool) -> Vec<String> {
                match chinese {
                    true => $chinese(self),
                    false => $lines(self),
                }
            }
        }
    };
}
crate::nine_by_ten!(
    XiangqiView,
    crate::chinese::caption,
    crate::view::state_lines
);

/// The picture; its caption in English, in Chinese (`Some(true)`), or none.
fn draw_xiangqi(view: &impl NineByTen, caption: Option<bool>) -> Svg {
    let (game, ply, audience) = view.caption_head();
    let caption = match caption {
        Some(true) => view.caption_lines(true),
        Some(false) => {
            let mut lines = vec![format!("{game} ply {ply}"), format!("view for {audience}")];
            lines.extend(view.caption_lines(false));
            lines
        }
        None => Vec::new(),
    };
    draw_nine_by_ten(audience, view.board(), view.last_iccs(), &caption)
}

/// The 9 × 10 board of Xiangqi and Jieqi with its pieces (`board`: ranks 9 to 0 of FEN
/// letters, `X`/`x` face down), the last move's points marked, and a caption.
pub fn draw_nine_by_ten(
    audience: &str,
    board: &[String],
    last: Option<&str>,
    caption: &[String],
) -> Svg {
    let (cell, margin) = (50.0, 64.0);
    let turned = audience == "black";
    let pos = |file: usize, rank: usize| {
        let (file, rank) = if turned {
            (8 - file, 9 - rank)
        } else {
            (file, rank)
        };
        (
            margin + file as f64 * cell,
            margin + (9 - rank) as f64 * cell,
        )
    };
    let width = margin * 2.0 + 8.0 * cell;
    let board_height = margin * 2.0 + 9.0 * cell;
    let mut svg = Svg::new(
        width as u32,
        (board_height + caption_height(width, caption) + 10.0) as u32,
        PAPER,
    );
    for rank in 0..10 {
        let (a, b) = (pos(0, rank), pos(8, rank));
        svg.line(a.0, a.1, b.0, b.1, INK, 1.2);
    }
    for file in 0..9 {
        for (r0, r1) in [(0, 4), (5, 9)] {
            let (a, b) = (pos(file, r0), pos(file, r1));
            svg.line(a.0, a.1, b.0, b.1, INK, 1.2);
        }
    }
    for file in [0usize, 8] {
        let (a, b) = (pos(file, 4), pos(file, 5));
        svg.line(a.0, a.1, b.0, b.1, INK, 1.2);
    }
    let (_, y4) = pos(0, 4);
    let (_, y5) = pos(0, 5);
    let river = (y4 + y5) / 2.0;
    svg.label(margin + 2.0 * cell, river, "楚河", 2.4, INK);
    svg.label(margin + 6.0 * cell, river, "漢界", 2.4, INK);
    for (r0, r1) in [(0, 2), (7, 9)] {
        for (f0, f1) in [(3, 5), (5, 3)] {
            let (a, b) = (pos(f0, r0), pos(f1, r1));
            svg.line(a.0, a.1, b.0, b.1, INK, 1.0);
        }
    }
    // Each side's file numbers beyond the letters, as Chinese boards print them and the Chinese
    // notation counts them: red's 一 to 九 and black's 1 to 9, each from its own right.
    const RED_FILES: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
    for (file, red_number) in RED_FILES.into_iter().enumerate() {
        let name = ((b'a' + file as u8) as char).to_string();
        let (x, red_edge) = pos(file, 0);
        let (_, black_edge) = pos(file, 9);
        let out = |edge: f64, by: f64| {
            if edge > black_edge.min(red_edge) {
                edge + by
            } else {
                edge - by
            }
        };
        svg.label(x, out(red_edge, 28.0), &name, 1.6, INK);
        svg.label(x, out(black_edge, 28.0), &name, 1.6, INK);
        svg.label(x, out(red_edge, 50.0), red_number, 2.0, INK);
        svg.label(x, out(black_edge, 50.0), &(file + 1).to_string(), 1.6, INK);
    }
    for rank in 0..10 {
        let (left, y) = pos(if turned { 8 } else { 0 }, rank);
        let (right, _) = pos(if turned { 0 } else { 8 }, rank);
        svg.label(left - 32.0, y, &rank.to_string(), 1.6, INK);
        svg.label(right + 32.0, y, &rank.to_string(), 1.6, INK);
    }
    svg.pieces_start();
    for (i, row) in board.iter().enumerate() {
        let rank = 9 - i;
        for (file, c) in row.chars().enumerate() {
            let colour = if c.is_ascii_uppercase() {
                "#b3001b"
            } else {
                "#222222"
            };
            let (x, y) = pos(file, rank);
            if c.eq_ignore_ascii_case(&'x') {
                // Face down: the back of a piece, in its side's colour.
                svg.circle(x, y, 21.0, colour, Some(("#fff8e7", 2.5)));
                svg.circle(x, y, 12.0, "none", Some(("#fff8e7", 1.5)));
                continue;
            }
            let Some(glyph) = crate::view::chinese_piece(c) else {
                continue;
            };
            svg.circle(x, y, 21.0, "#fff8e7", Some((colour, 2.5)));
            svg.label(x, y, &glyph.to_string(), 4.0, colour);
        }
    }
    if let Some(m) = last {
        for sq in [m.get(..2), m.get(2..4)].into_iter().flatten() {
            let b = sq.as_bytes();
            if b.len() == 2 && (b'a'..=b'i').contains(&b[0]) && b[1].is_ascii_digit() {
                let (x, y) = pos((b[0] - b'a') as usize, (b[1] - b'0') as usize);
                svg.rect(x - 24.0, y - 24.0, 48.0, 48.0, "none", Some((MARK, 3.0)));
            }
        }
    }
    svg.caption(board_height - 4.0, caption);
    svg
}
