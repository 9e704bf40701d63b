//! Board pictures: SVG drawn from a view, and PNG rendered from that SVG with resvg. Labels are
//! drawn with a built-in 5 × 7 pixel font as rectangles, so nothing (no font) is loaded from
//! disk and the bytes are the same on every machine.

use crate::rules::liubo::Station;
use crate::rules::luzhanqi::nodeset::NodeSet;
use crate::rules::luzhanqi::{cross_four, two_player, NodeKind};
use crate::view::liubo::LiuboView;
use crate::view::xiangqi::XiangqiView;
use crate::view::ViewFile;
use std::fmt::Write;

/// 5 × 7 glyphs: seven rows, the low five bits of each from left (bit 4) to right (bit 0).
const GLYPHS: &[(char, [u8; 7])] = &[
    ('0', [14, 17, 19, 21, 25, 17, 14]),
    ('1', [4, 12, 4, 4, 4, 4, 14]),
    ('2', [14, 17, 1, 2, 4, 8, 31]),
    ('3', [31, 2, 4, 2, 1, 17, 14]),
    ('4', [2, 6, 10, 18, 31, 2, 2]),
    ('5', [31, 16, 30, 1, 1, 17, 14]),
    ('6', [6, 8, 16, 30, 17, 17, 14]),
    ('7', [31, 1, 2, 4, 8, 8, 8]),
    ('8', [14, 17, 17, 14, 17, 17, 14]),
    ('9', [14, 17, 17, 15, 1, 2, 12]),
    ('A', [14, 17, 17, 31, 17, 17, 17]),
    ('B', [30, 17, 17, 30, 17, 17, 30]),
    ('C', [14, 17, 16, 16, 16, 17, 14]),
    ('D', [28, 18, 17, 17, 17, 18, 28]),
    ('E', [31, 16, 16, 30, 16, 16, 31]),
    ('F', [31, 16, 16, 30, 16, 16, 16]),
    ('G', [14, 17, 16, 23, 17, 17, 15]),
    ('H', [17, 17, 17, 31, 17, 17, 17]),
    ('I', [14, 4, 4, 4, 4, 4, 14]),
    ('J', [7, 2, 2, 2, 2, 18, 12]),
    ('K', [17, 18, 20, 24, 20, 18, 17]),
    ('L', [16, 16, 16, 16, 16, 16, 31]),
    ('M', [17, 27, 21, 21, 17, 17, 17]),
    ('N', [17, 17, 25, 21, 19, 17, 17]),
    ('O', [14, 17, 17, 17, 17, 17, 14]),
    ('P', [30, 17, 17, 30, 16, 16, 16]),
    ('Q', [14, 17, 17, 17, 21, 18, 13]),
    ('R', [30, 17, 17, 30, 20, 18, 17]),
    ('S', [15, 16, 16, 14, 1, 1, 30]),
    ('T', [31, 4, 4, 4, 4, 4, 4]),
    ('U', [17, 17, 17, 17, 17, 17, 14]),
    ('V', [17, 17, 17, 17, 17, 10, 4]),
    ('W', [17, 17, 17, 21, 21, 21, 10]),
    ('X', [17, 17, 10, 4, 10, 17, 17]),
    ('Y', [17, 17, 10, 4, 4, 4, 4]),
    ('Z', [31, 1, 2, 4, 8, 16, 31]),
    ('?', [14, 17, 1, 2, 4, 0, 4]),
    ('-', [0, 0, 0, 31, 0, 0, 0]),
];

/// An SVG document being drawn.
struct Svg {
    width: u32,
    height: u32,
    body: String,
}

impl Svg {
    fn new(width: u32, height: u32, background: &str) -> Svg {
        let mut s = Svg {
            width,
            height,
            body: String::new(),
        };
        s.rect(0.0, 0.0, width as f64, height as f64, background, None);
        s
    }

    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{color}" stroke-width="{width:.1}"/>"#
        );
    }

    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: Option<(&str, f64)>) {
        let stroke = stroke.map_or(String::new(), |(c, w)| {
            format!(r#" stroke="{c}" stroke-width="{w:.1}""#)
        });
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}"{stroke}/>"#
        );
    }

    fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str, stroke: Option<(&str, f64)>) {
        let stroke = stroke.map_or(String::new(), |(c, w)| {
            format!(r#" stroke="{c}" stroke-width="{w:.1}""#)
        });
        let _ = writeln!(
            self.body,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"{stroke}/>"#
        );
    }

    /// Text centred on (cx, cy) in the pixel font, `scale` pixels per font dot.
    fn label(&mut self, cx: f64, cy: f64, text: &str, scale: f64, color: &str) {
        let chars: Vec<char> = text.chars().map(|c| c.to_ascii_uppercase()).collect();
        let width = chars.len() as f64 * 6.0 - 1.0;
        let (x0, y0) = (cx - width * scale / 2.0, cy - 3.5 * scale);
        let mut path = String::new();
        for (i, c) in chars.iter().enumerate() {
            let rows = GLYPHS
                .iter()
                .find(|(g, _)| g == c)
                .map_or([0; 7], |(_, r)| *r);
            for (row, bits) in rows.iter().enumerate() {
                for col in 0..5 {
                    if bits >> (4 - col) & 1 == 1 {
                        let x = x0 + (i as f64 * 6.0 + col as f64) * scale;
                        let y = y0 + row as f64 * scale;
                        let _ = write!(path, "M{x:.1} {y:.1}h{scale:.1}v{scale:.1}h-{scale:.1}z");
                    }
                }
            }
        }
        if !path.is_empty() {
            let _ = writeln!(self.body, r#"<path d="{path}" fill="{color}"/>"#);
        }
    }

    fn path(&mut self, d: &str, color: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<path d="{d}" fill="none" stroke="{color}" stroke-width="{width:.1}"/>"#
        );
    }

    fn finish(self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n{}</svg>\n",
            self.body,
            w = self.width,
            h = self.height
        )
    }
}

/// Renders an SVG made here to PNG (deterministic bytes).
pub fn png(svg: &str) -> Vec<u8> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .expect("the pictures drawn here are valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("pictures have a size");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .expect("encoding an in-memory PNG does not fail")
}

const INK: &str = "#3b2f2f";
const PAPER: &str = "#f3e3bd";
const MARK: &str = "#d62828";

/// Luzhanqi: roads, railways (thick), camps (circles), headquarters (boxes), the mountains
/// between the halves; own pieces labelled, unknown enemies as blank tiles; the last move's
/// squares outlined in red.
pub fn luzhanqi(view: &ViewFile) -> String {
    if view.board == "cross4" {
        return luzhanqi_cross(view);
    }
    let board = two_player();
    let (cell_w, cell_h, margin) = (90.0, 52.0, 40.0);
    let pos = |name: &str| -> (f64, f64) {
        let file = name.as_bytes()[0].saturating_sub(b'a') as f64;
        let rank: f64 = name[1..].parse().unwrap_or(1.0);
        // Rank 12 at the top; a gap between ranks 6 and 7 for the mountains.
        let gap = if rank >= 7.0 { 0.0 } else { cell_h * 0.6 };
        (
            margin + file * cell_w,
            margin + (12.0 - rank) * cell_h + gap,
        )
    };
    let height = (margin * 2.0 + 11.0 * cell_h + cell_h * 0.6) as u32;
    let mut svg = Svg::new((margin * 2.0 + 4.0 * cell_w) as u32, height, PAPER);
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
    let (my, _) = pos("a6");
    let (_, y6) = pos("a6");
    let (_, y7) = pos("a7");
    let _ = my;
    svg.label(margin + 2.0 * cell_w, (y6 + y7) / 2.0, "FRONT", 2.0, INK);
    for node in &board.nodes {
        let (x, y) = pos(&node.name);
        match node.kind {
            NodeKind::Camp => svg.circle(x, y, 20.0, PAPER, Some((INK, 1.5))),
            NodeKind::Hq => svg.rect(x - 26.0, y - 16.0, 52.0, 32.0, PAPER, Some((INK, 1.5))),
            _ => svg.rect(x - 22.0, y - 12.0, 44.0, 24.0, PAPER, Some((INK, 1.0))),
        }
    }
    let colour = |seat: &str| {
        if seat == view.players.first().map_or("south", |p| p.seat.as_str()) {
            "#1d4e89"
        } else {
            "#8c1c13"
        }
    };
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
            svg.label(x, y, piece.code(), 2.0, "#ffffff");
        }
    }
    if let Some(m) = &view.last_move {
        for sq in [&m.from, &m.to] {
            let (x, y) = pos(sq);
            svg.rect(x - 25.0, y - 15.0, 50.0, 30.0, "none", Some((MARK, 3.0)));
        }
    }
    svg.finish()
}

/// The four-player cross board on its grid (North at the top): railways thick, the four curves
/// drawn round the centre's corners, camps and headquarters as on the two-player board; each
/// seat in its own colour (allies in shades of one hue), unknown pieces as blank tiles.
fn luzhanqi_cross(view: &ViewFile) -> String {
    let board = cross_four();
    let (cell, margin) = (48.0, 50.0);
    let at = |sq: usize| {
        let (x, y) = board.nodes[sq].grid.unwrap_or((0, 0));
        (margin + x as f64 * cell, margin + y as f64 * cell)
    };
    let size = (margin * 2.0 + 16.0 * cell) as u32;
    let mut svg = Svg::new(size, size, PAPER);
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
    }
    let colour = |seat: &str| match seat {
        "south" => "#1d4e89",
        "north" => "#3f8ec9",
        "east" => "#8c1c13",
        _ => "#c8581b",
    };
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
            svg.label(x, y, piece.code(), 1.6, "#ffffff");
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
    for (seat, x, y) in [
        ("SOUTH", 8.0, 16.6),
        ("NORTH", 8.0, -0.6),
        ("WEST", 2.5, 3.0),
        ("EAST", 13.5, 3.0),
    ] {
        svg.label(margin + x * cell, margin + y * cell, seat, 2.0, INK);
    }
    svg.finish()
}

/// Xiangqi: the grid, the river, the palaces' diagonals; every piece labelled with its FEN
/// letter (red upper case, black lower case); the last move outlined.
pub fn xiangqi(view: &XiangqiView) -> String {
    let (cell, margin) = (50.0, 40.0);
    let pos = |file: usize, rank: usize| {
        (
            margin + file as f64 * cell,
            margin + (9 - rank) as f64 * cell,
        )
    };
    let mut svg = Svg::new(
        (margin * 2.0 + 8.0 * cell) as u32,
        (margin * 2.0 + 9.0 * cell) as u32,
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
    for (r0, r1) in [(0, 4), (5, 9)] {
        for file in [0, 8] {
            let (a, b) = (pos(file, r0), pos(file, r1));
            svg.line(a.0, a.1, b.0, b.1, INK, 1.2);
        }
    }
    let (_, river) = pos(0, 4);
    for file in [0usize, 8] {
        let (a, b) = (pos(file, 4), pos(file, 5));
        svg.line(a.0, a.1, b.0, b.1, INK, 1.2);
    }
    svg.label(margin + 4.0 * cell, river - cell / 2.0, "RIVER", 2.0, INK);
    for (r0, r1) in [(0, 2), (7, 9)] {
        for (f0, f1) in [(3, 5), (5, 3)] {
            let (a, b) = (pos(f0, r0), pos(f1, r1));
            svg.line(a.0, a.1, b.0, b.1, INK, 1.0);
        }
    }
    for (i, row) in view.board.iter().enumerate() {
        let rank = 9 - i;
        for (file, c) in row.chars().enumerate() {
            if c == '.' {
                continue;
            }
            let (x, y) = pos(file, rank);
            let red = c.is_ascii_uppercase();
            svg.circle(
                x,
                y,
                20.0,
                "#fff8e7",
                Some((if red { "#b3001b" } else { "#222222" }, 2.5)),
            );
            svg.label(
                x,
                y,
                &c.to_string(),
                3.0,
                if red { "#b3001b" } else { "#222222" },
            );
        }
    }
    if let Some(m) = &view.last_move {
        for sq in [&m.iccs[..2], &m.iccs[2..]] {
            let file = (sq.as_bytes()[0] - b'a') as usize;
            let rank = (sq.as_bytes()[1] - b'0') as usize;
            let (x, y) = pos(file, rank);
            svg.rect(x - 24.0, y - 24.0, 48.0, 48.0, "none", Some((MARK, 3.0)));
        }
    }
    svg.finish()
}

/// Liubo: the rim and the cross with their stations; stones as discs (seat a blue, seat b red),
/// owls as larger discs marked O; the count on each station.
pub fn liubo(view: &LiuboView) -> String {
    let (cell, margin) = (70.0, 45.0);
    let place = |s: Station| {
        let (c, r) = crate::view::liubo::grid_place(s);
        (margin + c as f64 * cell, margin + r as f64 * cell)
    };
    let mut svg = Svg::new(
        (margin * 2.0 + 6.0 * cell) as u32,
        (margin * 2.0 + 6.0 * cell) as u32,
        PAPER,
    );
    for (a, b) in crate::rules::liubo::board::edges() {
        let (p, q) = (place(a), place(b));
        // The rim's corners: go round them.
        if p.0 != q.0 && p.1 != q.1 {
            let corner = if (p.1 - margin).abs() < 1.0 || (p.1 - margin - 6.0 * cell).abs() < 1.0 {
                (q.0, p.1)
            } else {
                (p.0, q.1)
            };
            svg.line(p.0, p.1, corner.0, corner.1, INK, 2.0);
            svg.line(corner.0, corner.1, q.0, q.1, INK, 2.0);
        } else {
            svg.line(p.0, p.1, q.0, q.1, INK, 2.0);
        }
    }
    for s in Station::all() {
        let (x, y) = place(s);
        let cardinal = matches!(s.rim_number(), Some(1 | 6 | 11 | 16)) || s == Station::X;
        svg.circle(
            x,
            y,
            if cardinal { 24.0 } else { 20.0 },
            PAPER,
            Some((INK, if cardinal { 2.5 } else { 1.5 })),
        );
        let pieces = view.stations.get(&s.to_string());
        match pieces {
            None => svg.label(x, y, &s.to_string(), 2.0, INK),
            Some(p) => {
                svg.label(x, y - 29.0, &s.to_string(), 1.5, INK);
                let a = p.chars().filter(|c| *c == 'a').count();
                let b = p.chars().filter(|c| *c == 'b').count();
                let mut slot = 0.0;
                for (count, owl, colour) in [
                    (a, p.contains('A'), "#1d4e89"),
                    (b, p.contains('B'), "#8c1c13"),
                ] {
                    if owl {
                        svg.circle(x - 8.0 + slot, y, 11.0, colour, Some(("#ffffff", 1.5)));
                        svg.label(x - 8.0 + slot, y, "O", 1.5, "#ffffff");
                        slot += 16.0;
                    }
                    if count > 0 {
                        svg.circle(x - 8.0 + slot, y, 8.0, colour, None);
                        if count > 1 {
                            svg.label(x - 8.0 + slot, y, &count.to_string(), 1.5, "#ffffff");
                        }
                        slot += 16.0;
                    }
                }
            }
        }
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_has_seven_rows_of_five_dots() {
        for (c, rows) in GLYPHS {
            assert!(rows.iter().all(|r| *r < 32), "{c}");
        }
        let s = {
            let mut svg = Svg::new(100, 40, PAPER);
            svg.label(50.0, 20.0, "MJ 40", 2.0, INK);
            svg.finish()
        };
        assert_eq!(png(&s)[..8], [0x89, b'P', b'N', b'G', 13, 10, 26, 10]);
    }
}
