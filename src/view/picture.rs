//! Board pictures: SVG drawn from a view, and PNG rendered from that SVG with resvg. Labels are
//! drawn as paths: Latin letters from a built-in 5 × 7 pixel font, Chinese characters as
//! outlines from a compiled-in typeface ([`super::cjk_font`]), so nothing (no font) is loaded
//! from disk and the bytes are the same on every machine. Every picture carries coordinates, is turned so the viewing
//! seat sits at the bottom, and has a caption: game, ply, audience, players, last move, and
//! whose turn it is or the result.

use crate::rules::luzhanqi::nodeset::NodeSet;
use crate::rules::luzhanqi::{cross_four, two_player, NodeKind};
use crate::view::ViewFile;
use std::collections::BTreeMap;
use std::fmt::Write;

pub use crate::games::banqi::picture::{banqi, banqi_with};
pub use crate::games::jieqi::picture::{jieqi, jieqi_layers, jieqi_with};
pub use crate::games::liubo::picture::{liubo, liubo_in, liubo_layers, liubo_with};
pub use crate::games::xiangqi::picture::{xiangqi, xiangqi_layers, xiangqi_with};

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
    (':', [0, 12, 12, 0, 12, 12, 0]),
    ('.', [0, 0, 0, 0, 0, 12, 12]),
    (',', [0, 0, 0, 0, 12, 4, 8]),
    ('(', [2, 4, 8, 8, 8, 4, 2]),
    (')', [8, 4, 2, 2, 2, 4, 8]),
    ('/', [1, 1, 2, 4, 8, 16, 16]),
    ('+', [0, 4, 4, 31, 4, 4, 0]),
    ('=', [0, 0, 31, 0, 31, 0, 0]),
    ('\'', [4, 4, 8, 0, 0, 0, 0]),
    ('!', [4, 4, 4, 4, 4, 0, 4]),
    ('_', [0, 0, 0, 0, 0, 0, 31]),
    ('*', [0, 4, 21, 14, 21, 4, 0]),
    (';', [0, 12, 12, 0, 12, 4, 8]),
    ('^', [4, 10, 17, 0, 0, 0, 0]),
    ('>', [8, 4, 2, 1, 2, 4, 8]),
    ('<', [2, 4, 8, 16, 8, 4, 2]),
    ('#', [10, 10, 31, 10, 31, 10, 10]),
    ('&', [12, 18, 20, 8, 21, 18, 13]),
    ('%', [24, 25, 2, 4, 8, 19, 3]),
    ('"', [10, 10, 10, 0, 0, 0, 0]),
];

/// How many dots a character advances: Latin 6 (5 and a gap), Chinese 17 at half the dot size.
fn advance(c: char) -> f64 {
    if is_wide(c) {
        17.0 * 0.5
    } else {
        6.0
    }
}

fn is_wide(c: char) -> bool {
    (c as u32) >= 0x2e80
}

/// An SVG document being drawn. Each distinct label is drawn once, as a path in `<defs>`, and
/// placed with `<use>`: a board repeats the same few labels many times.
pub(crate) struct Svg {
    width: u32,
    height: u32,
    body: String,
    /// Label paths by id.
    defs: BTreeMap<String, String>,
    /// Where the pieces begin in `body` (what changes from move to move), once drawn.
    pieces_at: Option<usize>,
}

/// A picture in parts, for a page that shows many positions on one board: the labels, the
/// board that stays, and the pieces of this position.
pub struct Layers {
    pub width: u32,
    pub height: u32,
    pub defs: BTreeMap<String, String>,
    pub board: String,
    pub pieces: String,
}

impl Svg {
    pub(crate) fn new(width: u32, height: u32, background: &str) -> Svg {
        let mut s = Svg {
            width,
            height,
            body: String::new(),
            defs: BTreeMap::new(),
            pieces_at: None,
        };
        s.rect(0.0, 0.0, width as f64, height as f64, background, None);
        s
    }

    pub(crate) fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{color}" stroke-width="{width:.1}"/>"#
        );
    }

    pub(crate) fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: &str,
        stroke: Option<(&str, f64)>,
    ) {
        let stroke = stroke.map_or(String::new(), |(c, w)| {
            format!(r#" stroke="{c}" stroke-width="{w:.1}""#)
        });
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}"{stroke}/>"#
        );
    }

    pub(crate) fn circle(
        &mut self,
        cx: f64,
        cy: f64,
        r: f64,
        fill: &str,
        stroke: Option<(&str, f64)>,
    ) {
        let stroke = stroke.map_or(String::new(), |(c, w)| {
            format!(r#" stroke="{c}" stroke-width="{w:.1}""#)
        });
        let _ = writeln!(
            self.body,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"{stroke}/>"#
        );
    }

    /// Text centred on (cx, cy) in the pixel fonts, `scale` pixels per Latin dot (Chinese
    /// characters at half that per dot, 16 dots high). Letters are drawn in capitals; a
    /// character neither font has is drawn as `?`.
    pub(crate) fn label(&mut self, cx: f64, cy: f64, text: &str, scale: f64, color: &str) {
        if text.trim().is_empty() {
            return;
        }
        let key = format!("{text}\u{0}{scale}\u{0}{color}");
        let digest = crate::protocol::hash::sha256_tagged(key.as_bytes());
        let id = format!("t{}", &digest.trim_start_matches("sha256:")[..12]);
        if !self.defs.contains_key(&id) {
            let path = label_path(text, scale);
            self.defs.insert(
                id.clone(),
                format!(r#"<path id="{id}" d="{path}" fill="{color}"/>"#),
            );
        }
        let _ = writeln!(
            self.body,
            r##"<use href="#{id}" x="{cx:.1}" y="{cy:.1}"/>"##
        );
    }

    /// The caption under the board: `lines` in the pixel font, broken to fit the width.
    pub(crate) fn caption(&mut self, top: f64, lines: &[String]) {
        let scale = 1.5;
        let per_line = ((self.width as f64 - 20.0) / (6.0 * scale)).max(10.0) as usize;
        let mut y = top + 8.0;
        for line in lines {
            for part in wrap(line, per_line) {
                self.label_left(10.0, y, &part, scale, INK);
                y += 13.0;
            }
        }
    }

    /// Text starting at x, centred on y.
    pub(crate) fn label_left(&mut self, x: f64, y: f64, text: &str, scale: f64, color: &str) {
        let width = text.chars().map(advance).sum::<f64>() - 1.0;
        self.label(x + width * scale / 2.0, y, text, scale, color);
    }

    pub(crate) fn path(&mut self, d: &str, color: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<path d="{d}" fill="none" stroke="{color}" stroke-width="{width:.1}"/>"#
        );
    }

    /// Marks where the pieces begin: what is drawn before is the board.
    pub(crate) fn pieces_start(&mut self) {
        self.pieces_at = Some(self.body.len());
    }

    pub(crate) fn finish(self) -> String {
        let defs: Vec<&str> = self.defs.values().map(String::as_str).collect();
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<defs>\n{}\n</defs>\n{}</svg>\n",
            defs.join("\n"),
            self.body,
            w = self.width,
            h = self.height
        )
    }

    pub(crate) fn layers(self) -> Layers {
        let at = self.pieces_at.unwrap_or(self.body.len());
        Layers {
            width: self.width,
            height: self.height,
            defs: self.defs,
            board: self.body[..at].to_string(),
            pieces: self.body[at..].to_string(),
        }
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
    encode_png(size.width(), size.height(), pixmap.data())
}

/// Encodes RGBA pixels (premultiplied, as tiny-skia holds them; an opaque picture's are plain)
/// as a PNG, losslessly: indexed when there are 256 colours or fewer, else RGB or RGBA, at the
/// best compression with adaptive filters. Deterministic: the same pixels give the same bytes.
fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    use std::collections::BTreeMap;
    let pixels: Vec<[u8; 4]> = rgba
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    let opaque = pixels.iter().all(|p| p[3] == 255);
    // Colours in first-seen order, so the palette (and the file) depends only on the pixels.
    let mut index: BTreeMap<[u8; 4], u8> = BTreeMap::new();
    let mut palette: Vec<[u8; 4]> = Vec::new();
    let mut indexed = opaque;
    for p in &pixels {
        if !indexed {
            break;
        }
        if !index.contains_key(p) {
            match u8::try_from(palette.len()) {
                Ok(i) => {
                    index.insert(*p, i);
                    palette.push(*p);
                }
                Err(_) => indexed = false,
            }
        }
    }
    let (color, data, plte) = if indexed {
        let data: Vec<u8> = pixels.iter().map(|p| index[p]).collect();
        let plte: Vec<u8> = palette.iter().flat_map(|p| [p[0], p[1], p[2]]).collect();
        (png::ColorType::Indexed, data, Some(plte))
    } else if opaque {
        let data = pixels.iter().flat_map(|p| [p[0], p[1], p[2]]).collect();
        (png::ColorType::Rgb, data, None)
    } else {
        // Back from premultiplied alpha, as PNG stores it.
        let data = pixels
            .iter()
            .flat_map(|p| {
                let un = |c: u8| match p[3] {
                    0 => 0,
                    a => ((u32::from(c) * 255 + u32::from(a) / 2) / u32::from(a)).min(255) as u8,
                };
                [un(p[0]), un(p[1]), un(p[2]), p[3]]
            })
            .collect();
        (png::ColorType::Rgba, data, None)
    };
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    if let Some(plte) = plte {
        encoder.set_palette(plte);
    }
    let written = encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&data));
    written.expect("encoding an in-memory PNG does not fail");
    out
}

/// The dots of a label centred on (0, 0), as one path.
fn label_path(text: &str, scale: f64) -> String {
    let chars: Vec<char> = text.chars().map(|c| c.to_ascii_uppercase()).collect();
    let width = chars.iter().map(|&c| advance(c)).sum::<f64>() - 1.0;
    let mut x = -width * scale / 2.0;
    let mut path = String::new();
    for &c in &chars {
        // A Chinese character fills 16 half-dots, from the typeface.
        match super::cjk_font::outline(c, x, 8.0 * scale) {
            Some(outline) => path.push_str(&outline),
            None => {
                let known = c == ' ' || GLYPHS.iter().any(|(g, _)| *g == c);
                let shown = if known { c } else { '?' };
                let left = if is_wide(c) { x + 1.5 * scale } else { x };
                let rows = GLYPHS
                    .iter()
                    .find(|(g, _)| *g == shown)
                    .map_or([0; 7], |(_, r)| *r);
                for (row, bits) in rows.iter().enumerate() {
                    let y = -3.5 * scale + row as f64 * scale;
                    runs(&mut path, left, y, u32::from(*bits), 5, scale);
                }
            }
        }
        x += advance(c) * scale;
    }
    path
}

/// One row of a glyph, `width` dots wide (the leftmost the highest bit), as one rectangle per
/// run of set dots.
fn runs(path: &mut String, x0: f64, y: f64, bits: u32, width: u32, dot: f64) {
    let mut col = 0;
    while col < width {
        if bits >> (width - 1 - col) & 1 == 0 {
            col += 1;
            continue;
        }
        let start = col;
        while col < width && bits >> (width - 1 - col) & 1 == 1 {
            col += 1;
        }
        let (x, w) = (x0 + start as f64 * dot, (col - start) as f64 * dot);
        let _ = write!(path, "M{x:.1} {y:.1}h{w:.1}v{dot:.1}h-{w:.1}z");
    }
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word alone).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().expect("one line at least");
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

/// How many caption lines `lines` take in a picture `width` pixels wide.
pub(crate) fn caption_height(width: f64, lines: &[String]) -> f64 {
    if lines.is_empty() {
        return 0.0;
    }
    let per_line = ((width - 20.0) / 9.0).max(10.0) as usize;
    let n: usize = lines.iter().map(|l| wrap(l, per_line).len()).sum();
    n as f64 * 13.0 + 12.0
}

pub(crate) const INK: &str = "#3b2f2f";
pub(crate) const PAPER: &str = "#f3e3bd";
pub(crate) const MARK: &str = "#d62828";
/// The names printed on the cross board's centre posts: readable, quieter than the pieces.
const CENTRE_NAME: &str = "#8a7a5c";

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
            let colour = super::text::colour_of(colours, &p.seat);
            format!("{} ({}) {colour}", p.seat, super::text::clean(&p.name))
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
    for (arm, seat) in [("s", "SOUTH"), ("e", "EAST"), ("n", "NORTH"), ("w", "WEST")] {
        let (Some(a), Some(b)) = (
            board.square(&format!("{arm}c1")),
            board.square(&format!("{arm}c2")),
        ) else {
            continue;
        };
        let (a, b) = (grid(a), grid(b));
        let (x, y) = turn(a.0 + 1.8 * (a.0 - b.0), a.1 + 1.8 * (a.1 - b.1));
        svg.label(x, y, seat, 1.5, INK);
    }
    svg.caption(size - 6.0, &caption);
    svg
}

/// The 9 × 10 board of Xiangqi and Jieqi with its pieces (`board`: ranks 9 to 0 of FEN
/// letters, `X`/`x` face down), the last move's points marked, and a caption.
pub(crate) fn draw_nine_by_ten(
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
            let Some(glyph) = crate::view::xiangqi::chinese_piece(c) else {
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
