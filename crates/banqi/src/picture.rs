//! Banqi's board picture, drawn with the shared pieces of [`qijudge_view::picture`]: the 4 × 8
//! board, face-down pieces as plain backs (no colour: nobody knows it), face-up ones with their
//! Chinese names.

use super::view::BanqiView;
use qijudge_view::picture::*;

pub fn banqi(view: &BanqiView) -> String {
    draw(view, Some(false)).finish()
}

/// [`banqi`] with its caption in Chinese with `chinese`.
pub fn banqi_with(view: &BanqiView, chinese: bool) -> String {
    draw(view, Some(chinese)).finish()
}

pub fn banqi_layers(view: &BanqiView) -> Layers {
    draw(view, None).layers()
}

/// The picture; its caption in English, in Chinese (`Some(true)`), or none.
fn draw(view: &BanqiView, caption: Option<bool>) -> Svg {
    let (cell, margin) = (60.0, 40.0);
    let width = margin * 2.0 + 8.0 * cell;
    let board_height = margin * 2.0 + 4.0 * cell;
    let caption: Vec<String> = match caption {
        Some(true) => super::chinese::caption(view),
        Some(false) => {
            let mut c = vec![
                format!("{} ply {}", view.game, view.ply),
                format!("view for {}", view.audience),
            ];
            c.extend(super::view::state_lines(view));
            c
        }
        None => Vec::new(),
    };
    let mut svg = Svg::new(
        width as u32,
        (board_height + caption_height(width, &caption) + 10.0) as u32,
        PAPER,
    );
    // Squares: rank 4 at the top, file a at the left.
    let at = |file: usize, rank: usize| {
        (
            margin + file as f64 * cell + cell / 2.0,
            margin + (3 - rank) as f64 * cell + cell / 2.0,
        )
    };
    for rank in 0..=4 {
        let y = margin + rank as f64 * cell;
        svg.line(margin, y, margin + 8.0 * cell, y, INK, 1.2);
    }
    for file in 0..=8 {
        let x = margin + file as f64 * cell;
        svg.line(x, margin, x, margin + 4.0 * cell, INK, 1.2);
    }
    for file in 0..8 {
        let name = ((b'a' + file as u8) as char).to_string();
        let (x, _) = at(file, 0);
        svg.label(x, margin + 4.0 * cell + 20.0, &name, 1.6, INK);
        svg.label(x, margin - 20.0, &name, 1.6, INK);
    }
    for rank in 0..4 {
        let (_, y) = at(0, rank);
        let n = (rank + 1).to_string();
        svg.label(margin - 20.0, y, &n, 1.6, INK);
        svg.label(margin + 8.0 * cell + 20.0, y, &n, 1.6, INK);
    }
    svg.pieces_start();
    for (i, row) in view.board.iter().enumerate() {
        let rank = 3 - i;
        for (file, c) in row.chars().enumerate() {
            let (x, y) = at(file, rank);
            if c == '?' {
                svg.circle(x, y, 24.0, "#6b4f2a", Some(("#fff8e7", 2.5)));
                svg.circle(x, y, 14.0, "none", Some(("#fff8e7", 1.5)));
                continue;
            }
            let Some(glyph) = qijudge_xiangqi::view::chinese_piece(c) else {
                continue;
            };
            let colour = if c.is_ascii_uppercase() {
                "#b3001b"
            } else {
                "#222222"
            };
            svg.circle(x, y, 24.0, "#fff8e7", Some((colour, 2.5)));
            svg.label(x, y, &glyph.to_string(), 4.0, colour);
        }
    }
    if let Some(m) = &view.last_move {
        // Every square of the turn: a move's two, each square of a chain of captures.
        for sq in (0..m.action.len())
            .step_by(2)
            .filter_map(|i| m.action.get(i..i + 2))
        {
            if let Some(s) = super::rules::Square::parse(sq) {
                let (x, y) = at(s.file() as usize, s.rank() as usize);
                svg.rect(x - 28.0, y - 28.0, 56.0, 56.0, "none", Some((MARK, 3.0)));
            }
        }
    }
    svg.caption(board_height - 4.0, &caption);
    svg
}
