//! Luzhanqi's board pictures: the two-player board and the cross board, with their captions.

use super::view::ViewFile;
use luzhanqi_rules::nodeset::NodeSet;
use luzhanqi_rules::{cross_four, two_player, NodeKind};
use qijudge_view::picture::*;

/// The caption of a Luzhanqi picture: what the text view says around its board (in Chinese
/// with `chinese`).
fn luzhanqi_caption(view: &ViewFile, colours: &[(&str, &str)], chinese: bool) -> Vec<String> {
    if chinese {
        return super::chinese::caption(view, colours);
    }
    let players: Vec<String> = view
        .players
        .iter()
        .map(|p| {
            let colour = qijudge_view::text::colour_of(colours, &p.seat);
            format!(
                "{} ({}) {colour}",
                p.seat,
                qijudge_view::text::clean(&p.name)
            )
        })
        .collect();
    let mut lines = vec![
        format!("{} ply {}", view.game, view.ply),
        format!("view for {}", super::text::audience_label(view)),
        players.join(", "),
    ];
    lines.extend(super::text::state_lines(view));
    lines
}

/// Luzhanqi: roads, railways (thick), camps (circles), headquarters (boxes), the mountains
/// between the halves; known pieces labelled (codes, or Chinese characters), unknown pieces as
/// blank tiles; the last move's squares outlined in red; files and ranks on all four sides.
pub fn luzhanqi(view: &ViewFile) -> String {
    luzhanqi_with(view, false)
}

/// [`luzhanqi`] with a choice of labels: Chinese characters with `chinese`.
pub fn luzhanqi_with(view: &ViewFile, chinese: bool) -> String {
    draw_luzhanqi(view, chinese, true).finish()
}

/// The Luzhanqi picture in layers (no caption), for the replay page.
pub fn luzhanqi_layers(view: &ViewFile, chinese: bool) -> Layers {
    draw_luzhanqi(view, chinese, false).layers()
}

fn draw_luzhanqi(view: &ViewFile, chinese: bool, with_caption: bool) -> Svg {
    if view.board == "cross4" {
        return luzhanqi_cross(view, chinese, with_caption);
    }
    let board = two_player();
    let turned = view.audience == "north";
    let (cell_w, cell_h, margin) = (90.0, 52.0, 40.0);
    let pos = |name: &str| -> (f64, f64) {
        let file = name.as_bytes()[0].saturating_sub(b'a') as f64;
        let rank: f64 = name[1..].parse().unwrap_or(1.0);
        let (file, rank) = if turned {
            (4.0 - file, 13.0 - rank)
        } else {
            (file, rank)
        };
        // Rank 12 at the top; a gap between ranks 6 and 7 for the mountains.
        let gap = if rank >= 7.0 { 0.0 } else { cell_h * 0.6 };
        (
            margin + file * cell_w,
            margin + (12.0 - rank) * cell_h + gap,
        )
    };
    let colours = [("south", "#1d4e89"), ("north", "#8c1c13")];
    let caption = match with_caption {
        true => luzhanqi_caption(view, &[("south", "blue"), ("north", "red")], chinese),
        false => Vec::new(),
    };
    let width = margin * 2.0 + 4.0 * cell_w;
    let board_height = margin * 2.0 + 11.0 * cell_h + cell_h * 0.6;
    let mut svg = Svg::new(
        width as u32,
        (board_height + caption_height(width, &caption) + 10.0) as u32,
        PAPER,
    );
    for (i, node) in board.nodes.iter().enumerate() {
        for j in board.adjacent[i].iter() {
            if j <= i {
                continue;
            }
            let (a, b) = (pos(&node.name), pos(&board.nodes[j].name));
            let rail = board.rail_adjacent[i].contains(j);
            svg.line(a.0, a.1, b.0, b.1, INK, if rail { 4.0 } else { 1.2 });
        }
    }
    let (_, y6) = pos("a6");
    let (_, y7) = pos("a7");
    let front = if chinese { "前线" } else { "FRONT" };
    svg.label(margin + 2.0 * cell_w, (y6 + y7) / 2.0, front, 2.0, INK);
    // Coordinates: files above and below, ranks at both sides.
    for f in ['a', 'b', 'c', 'd', 'e'] {
        let (x, top) = pos(&format!("{f}{}", if turned { 1 } else { 12 }));
        let (_, bottom) = pos(&format!("{f}{}", if turned { 12 } else { 1 }));
        svg.label(x, top - 26.0, &f.to_string(), 1.6, INK);
        svg.label(x, bottom + 26.0, &f.to_string(), 1.6, INK);
    }
    for rank in 1..=12 {
        let (left, y) = pos(&format!("{}{rank}", if turned { 'e' } else { 'a' }));
        let (right, _) = pos(&format!("{}{rank}", if turned { 'a' } else { 'e' }));
        svg.label(left - 32.0, y, &rank.to_string(), 1.6, INK);
        svg.label(right + 32.0, y, &rank.to_string(), 1.6, INK);
    }
    for node in &board.nodes {
        let (x, y) = pos(&node.name);
        match node.kind {
            NodeKind::Camp => svg.circle(x, y, 20.0, PAPER, Some((INK, 1.5))),
            NodeKind::Hq => svg.rect(x - 26.0, y - 16.0, 52.0, 32.0, PAPER, Some((INK, 1.5))),
            _ => svg.rect(x - 22.0, y - 12.0, 44.0, 24.0, PAPER, Some((INK, 1.0))),
        }
    }
    let colour = |seat: &str| {
        colours
            .iter()
            .find(|(s, _)| *s == seat)
            .map_or(INK, |(_, c)| c)
    };
    svg.pieces_start();
    for p in &view.pieces {
        let (x, y) = pos(&p.square);
        svg.rect(
            x - 20.0,
            y - 11.0,
            40.0,
            22.0,
            colour(&p.seat),
            Some(("#ffffff", 1.0)),
        );
        if let Some(piece) = p.piece {
            if chinese {
                let glyph = super::text::chinese_label(piece);
                svg.label(x, y, glyph, 2.2, "#ffffff");
            } else {
                svg.label(x, y, piece.code(), 2.0, "#ffffff");
            }
        }
    }
    if let Some(m) = &view.last_move {
        for sq in [&m.from, &m.to] {
            let (x, y) = pos(sq);
            svg.rect(x - 25.0, y - 15.0, 50.0, 30.0, "none", Some((MARK, 3.0)));
        }
    }
    svg.caption(board_height + 2.0, &caption);
    svg
}

/// The four-player cross board on its grid (North at the top): railways thick, the four curves
/// drawn round the centre's corners, camps and headquarters as on the two-player board; each
/// seat in its own colour (allies in shades of one hue), unknown pieces as blank tiles.
fn luzhanqi_cross(view: &ViewFile, chinese: bool, with_caption: bool) -> Svg {
    let board = cross_four();
    let (cell, margin) = (48.0, 110.0);
    // Quarter turns clockwise that bring the viewer's arm to the bottom.
    let turns = match view.audience.as_str() {
        "east" => 1,
        "north" => 2,
        "west" => 3,
        _ => 0,
    };
    let turn = |x: f64, y: f64| {
        let (mut x, mut y) = (x, y);
        for _ in 0..turns {
            (x, y) = (16.0 - y, x);
        }
        (margin + x * cell, margin + y * cell)
    };
    let grid = |sq: usize| {
        let (x, y) = board.nodes[sq].grid.unwrap_or((0, 0));
        (x as f64, y as f64)
    };
    let at = |sq: usize| {
        let (x, y) = grid(sq);
        turn(x, y)
    };
    let colours = [
        ("south", "#1d4e89", "dark blue"),
        ("north", "#3f8ec9", "light blue"),
        ("east", "#8c1c13", "dark red"),
        ("west", "#c8581b", "orange"),
    ];
    let names: Vec<(&str, &str)> = colours.iter().map(|(s, _, n)| (*s, *n)).collect();
    let caption = match with_caption {
        true => luzhanqi_caption(view, &names, chinese),
        false => Vec::new(),
    };
    let size = margin * 2.0 + 16.0 * cell;
    let mut svg = Svg::new(
        size as u32,
        (size + caption_height(size, &caption)) as u32,
        PAPER,
    );
    for i in 0..board.len() {
        for j in board.adjacent[i].iter().filter(|&j| j > i) {
            let (a, b) = (at(i), at(j));
            let rail = board.rail_adjacent[i].contains(j);
            let curve = (a.0 - b.0).abs() == cell && (a.1 - b.1).abs() == cell && rail;
            if curve {
                // Bend round the centre's corner: the control point sits where the two straight
                // lines the curve joins would meet.
                let corner = |v: f64, w: f64| {
                    if (v - margin - 8.0 * cell).abs() > (w - margin - 8.0 * cell).abs() {
                        w
                    } else {
                        v
                    }
                };
                let (cx, cy) = (corner(a.0, b.0), corner(a.1, b.1));
                let d = format!(
                    "M{:.1} {:.1}Q{cx:.1} {cy:.1} {:.1} {:.1}",
                    a.0, a.1, b.0, b.1
                );
                svg.path(&d, INK, 4.0);
            } else {
                svg.line(a.0, a.1, b.0, b.1, INK, if rail { 4.0 } else { 1.2 });
            }
        }
    }
    for (sq, node) in board.nodes.iter().enumerate() {
        let (x, y) = at(sq);
        match node.kind {
            NodeKind::Camp => svg.circle(x, y, 16.0, PAPER, Some((INK, 1.5))),
            NodeKind::Hq => svg.rect(x - 19.0, y - 15.0, 38.0, 30.0, PAPER, Some((INK, 1.5))),
            _ => svg.rect(x - 17.0, y - 11.0, 34.0, 22.0, PAPER, Some((INK, 1.0))),
        }
        // The centre's nine posts belong to no arm, so no rank or file beside the board names
        // them: each carries its name (ma1 … me3), under any piece standing there.
        if node.seat.is_none() {
            svg.label(x, y, &node.name, 1.2, CENTRE_NAME);
        }
    }
    let colour = |seat: &str| {
        colours
            .iter()
            .find(|(s, ..)| *s == seat)
            .map_or(INK, |c| c.1)
    };
    // Coordinates, as in the text view: ranks beside each arm's a-file, files behind rank 1.
    let beyond = |from: &str, towards: &str| -> Option<(f64, f64)> {
        let (a, b) = (grid(board.square(from)?), grid(board.square(towards)?));
        Some(turn(2.0 * a.0 - b.0, 2.0 * a.1 - b.1))
    };
    for arm in ["s", "e", "n", "w"] {
        for rank in 1..=6 {
            if let Some((x, y)) = beyond(&format!("{arm}a{rank}"), &format!("{arm}b{rank}")) {
                svg.label(x, y, &format!("{arm}{rank}"), 1.4, INK);
            }
        }
        for file in ['a', 'b', 'c', 'd', 'e'] {
            if let Some((x, y)) = beyond(&format!("{arm}{file}1"), &format!("{arm}{file}2")) {
                svg.label(x, y, &file.to_string(), 1.4, INK);
            }
        }
    }
    svg.pieces_start();
    for p in &view.pieces {
        let Some(sq) = board.square(&p.square) else {
            continue;
        };
        let (x, y) = at(sq);
        svg.rect(
            x - 16.0,
            y - 10.0,
            32.0,
            20.0,
            colour(&p.seat),
            Some(("#ffffff", 1.0)),
        );
        if let Some(piece) = p.piece {
            if chinese {
                svg.label(x, y, super::text::chinese_label(piece), 1.8, "#ffffff");
            } else {
                svg.label(x, y, piece.code(), 1.6, "#ffffff");
            }
        }
    }
    if let Some(m) = &view.last_move {
        for name in [&m.from, &m.to] {
            if let Some(sq) = board.square(name) {
                let (x, y) = at(sq);
                svg.rect(x - 21.0, y - 14.0, 42.0, 28.0, "none", Some((MARK, 3.0)));
            }
        }
    }
    // Each seat's name behind its files.
    for (arm, name) in [("s", "south"), ("e", "east"), ("n", "north"), ("w", "west")] {
        // In the words the rest of the picture uses.
        let seat = match chinese {
            true => qijudge_view::chinese::seat(name),
            false => name.to_ascii_uppercase(),
        };
        let (Some(a), Some(b)) = (
            board.square(&format!("{arm}c1")),
            board.square(&format!("{arm}c2")),
        ) else {
            continue;
        };
        let (a, b) = (grid(a), grid(b));
        let (x, y) = turn(a.0 + 1.8 * (a.0 - b.0), a.1 + 1.8 * (a.1 - b.1));
        svg.label(x, y, &seat, 1.5, INK);
    }
    svg.caption(size - 6.0, &caption);
    svg
}
