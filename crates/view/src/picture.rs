//! Board pictures: SVG drawn from a view, and PNG rendered from that SVG with resvg. Labels are
//! drawn as paths: Latin letters from a built-in 5 × 7 pixel font, Chinese characters as
//! outlines from a compiled-in typeface ([`super::cjk_font`]), so nothing (no font) is loaded
//! from disk and the bytes are the same on every machine. Every picture carries coordinates, is turned so the viewing
//! seat sits at the bottom, and has a caption: game, ply, audience, players, last move, and
//! whose turn it is or the result.

use super::numbers::push_fixed;
use std::collections::BTreeMap;
use std::fmt::Write;

/// 5 × 7 glyphs (upper and lower case, so a caption reads as it is written): seven rows, the low five bits of each from left (bit 4) to right (bit 0).
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
    // Lower case: x-height five rows; g, j, p, q and y sit one row higher to keep a tail.
    ('a', [0, 0, 14, 1, 15, 17, 15]),
    ('b', [16, 16, 22, 25, 17, 17, 30]),
    ('c', [0, 0, 14, 16, 16, 17, 14]),
    ('d', [1, 1, 13, 19, 17, 17, 15]),
    ('e', [0, 0, 14, 17, 31, 16, 14]),
    ('f', [6, 9, 8, 28, 8, 8, 8]),
    ('g', [0, 15, 17, 17, 15, 1, 14]),
    ('h', [16, 16, 22, 25, 17, 17, 17]),
    ('i', [4, 0, 12, 4, 4, 4, 14]),
    ('j', [2, 0, 6, 2, 2, 18, 12]),
    ('k', [16, 16, 18, 20, 24, 20, 18]),
    ('l', [12, 4, 4, 4, 4, 4, 14]),
    ('m', [0, 0, 26, 21, 21, 17, 17]),
    ('n', [0, 0, 22, 25, 17, 17, 17]),
    ('o', [0, 0, 14, 17, 17, 17, 14]),
    ('p', [0, 30, 17, 17, 30, 16, 16]),
    ('q', [0, 15, 17, 17, 15, 1, 1]),
    ('r', [0, 0, 22, 25, 16, 16, 16]),
    ('s', [0, 0, 14, 16, 14, 1, 30]),
    ('t', [8, 8, 28, 8, 8, 9, 6]),
    ('u', [0, 0, 17, 17, 17, 19, 13]),
    ('v', [0, 0, 17, 17, 17, 10, 4]),
    ('w', [0, 0, 17, 17, 21, 21, 10]),
    ('x', [0, 0, 17, 10, 4, 10, 17]),
    ('y', [0, 17, 17, 17, 15, 1, 14]),
    ('z', [0, 0, 31, 2, 4, 8, 31]),
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
pub struct Svg {
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
    pub fn new(width: u32, height: u32, background: &str) -> Svg {
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

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{color}" stroke-width="{width:.1}"/>"#
        );
    }

    pub fn rect(
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

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str, stroke: Option<(&str, f64)>) {
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
    pub fn label(&mut self, cx: f64, cy: f64, text: &str, scale: f64, color: &str) {
        if text.trim().is_empty() {
            return;
        }
        let key = format!("{text}\u{0}{scale}\u{0}{color}");
        let digest = qijudge_rules::hash::sha256_tagged(key.as_bytes());
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
    pub fn caption(&mut self, top: f64, lines: &[String]) {
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
    pub fn label_left(&mut self, x: f64, y: f64, text: &str, scale: f64, color: &str) {
        let width = text.chars().map(advance).sum::<f64>() - 1.0;
        self.label(x + width * scale / 2.0, y, text, scale, color);
    }

    pub fn path(&mut self, d: &str, color: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<path d="{d}" fill="none" stroke="{color}" stroke-width="{width:.1}"/>"#
        );
    }

    /// Marks where the pieces begin: what is drawn before is the board.
    pub fn pieces_start(&mut self) {
        self.pieces_at = Some(self.body.len());
    }

    pub fn finish(self) -> String {
        let defs: Vec<&str> = self.defs.values().map(String::as_str).collect();
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<defs>\n{}\n</defs>\n{}</svg>\n",
            defs.join("\n"),
            self.body,
            w = self.width,
            h = self.height
        )
    }

    pub fn layers(self) -> Layers {
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
/// as a PNG, losslessly: indexed when there are 256 colours or fewer (every board drawn here),
/// else RGB or RGBA. Deterministic: the same pixels give the same bytes.
fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let pixels = rgba.chunks_exact(4);
    let opaque = pixels.clone().all(|p| p[3] == 255);
    let indexed = if opaque { palette_indices(rgba) } else { None };
    let (color, data, plte) = if let Some((palette, data)) = indexed {
        let plte: Vec<u8> = palette.iter().flat_map(|p| [p[0], p[1], p[2]]).collect();
        (png::ColorType::Indexed, data, Some(plte))
    } else if opaque {
        let data = pixels.flat_map(|p| [p[0], p[1], p[2]]).collect();
        (png::ColorType::Rgb, data, None)
    } else {
        // Back from premultiplied alpha, as PNG stores it.
        let data = pixels
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
    // zlib's default level, and an indexed picture unfiltered. On these flat boards that is
    // smaller than the best level with adaptive filters, and faster: a Luzhanqi view of
    // 440 × 770 is 12.1 kB in 3.0 ms with its palette, against 14.2 kB in 7.8 ms. The fastest
    // level takes 1.1 ms but doubles the file, and the mail's 80 kB messages need small ones.
    encoder.set_compression(png::Compression::Default);
    if let Some(plte) = plte {
        encoder.set_palette(plte);
        encoder.set_filter(png::FilterType::NoFilter);
    } else {
        encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    }
    let written = encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&data));
    written.expect("encoding an in-memory PNG does not fail");
    out
}

/// The palette of RGBA pixels in first-seen order (so it depends only on the pixels) and each
/// pixel's index in it; none when there are more than 256 colours. Runs of one colour, which a
/// board is mostly made of, are looked up once; a lookup is a probe of a small open-addressed
/// table (at most a quarter full while the palette fits).
fn palette_indices(rgba: &[u8]) -> Option<(Vec<[u8; 4]>, Vec<u8>)> {
    const SLOTS: usize = 1024;
    const EMPTY: u16 = u16::MAX;
    let mut keys = [0u32; SLOTS];
    let mut slots = [EMPTY; SLOTS];
    let mut palette: Vec<[u8; 4]> = Vec::new();
    let mut data = Vec::with_capacity(rgba.len() / 4);
    let mut last: Option<(u32, u8)> = None;
    for p in rgba.chunks_exact(4) {
        let key = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
        let i = match last {
            Some((k, i)) if k == key => i,
            _ => {
                let mut slot = (key.wrapping_mul(0x9E37_79B1) >> 22) as usize;
                let i = loop {
                    match slots[slot] {
                        EMPTY => {
                            let i = u8::try_from(palette.len()).ok()?;
                            keys[slot] = key;
                            slots[slot] = u16::from(i);
                            palette.push([p[0], p[1], p[2], p[3]]);
                            break i;
                        }
                        i if keys[slot] == key => break i as u8,
                        _ => slot = (slot + 1) % SLOTS,
                    }
                };
                last = Some((key, i));
                i
            }
        };
        data.push(i);
    }
    Some((palette, data))
}

/// The dots of a label centred on (0, 0), as one path.
fn label_path(text: &str, scale: f64) -> String {
    let chars: Vec<char> = text.chars().collect();
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
        path.push('M');
        push_fixed(path, x, 1);
        path.push(' ');
        push_fixed(path, y, 1);
        path.push('h');
        push_fixed(path, w, 1);
        path.push('v');
        push_fixed(path, dot, 1);
        path.push_str("h-");
        push_fixed(path, w, 1);
        path.push('z');
    }
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word alone).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
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
pub fn caption_height(width: f64, lines: &[String]) -> f64 {
    if lines.is_empty() {
        return 0.0;
    }
    let per_line = ((width - 20.0) / 9.0).max(10.0) as usize;
    let n: usize = lines.iter().map(|l| wrap(l, per_line).len()).sum();
    n as f64 * 13.0 + 12.0
}

pub const INK: &str = "#3b2f2f";
pub const PAPER: &str = "#f3e3bd";
pub const MARK: &str = "#d62828";
/// The names printed on the cross board's centre posts: readable, quieter than the pieces.
pub const CENTRE_NAME: &str = "#8a7a5c";

#[cfg(test)]
mod tests {
    use super::*;

    /// Every letter has its own glyph in both cases: a caption is drawn as written, never
    /// turned into capitals or question marks.
    #[test]
    fn both_cases_of_every_letter_are_drawn() {
        for c in ('a'..='z').chain('A'..='Z') {
            assert!(GLYPHS.iter().any(|(g, _)| *g == c), "{c}");
        }
        let lower = label_path("south", 1.0);
        assert_ne!(lower, label_path("SOUTH", 1.0));
        assert_eq!(lower, label_path("south", 1.0));
        let mut seen = std::collections::BTreeSet::new();
        for (c, rows) in GLYPHS {
            assert!(seen.insert(*rows), "{c} is drawn as another glyph is");
        }
    }

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

    /// A PNG written here decodes (by the PNG crate's decoder) to exactly the pixels drawn,
    /// indexed or not, and the same pixels always give the same bytes.
    #[test]
    fn pictures_decode_to_the_pixels_drawn() {
        let mut svg = Svg::new(120, 60, PAPER);
        svg.label(60.0, 20.0, "Lu 7", 2.0, INK);
        svg.path("M10 50 L110 40", "#a02020", 3.0);
        let tree = resvg::usvg::Tree::from_str(&svg.finish(), &Default::default()).unwrap();
        let mut pixmap = resvg::tiny_skia::Pixmap::new(120, 60).unwrap();
        resvg::render(&tree, Default::default(), &mut pixmap.as_mut());
        // Many colours (no palette) next to the few of the drawing (a palette).
        let mut rainbow = pixmap.clone();
        for (k, p) in rainbow.data_mut().chunks_exact_mut(4).enumerate() {
            p.copy_from_slice(&[(k % 251) as u8, (k / 251) as u8, 7, 255]);
        }
        for pixels in [&pixmap, &rainbow] {
            let bytes = encode_png(120, 60, pixels.data());
            assert_eq!(bytes, encode_png(120, 60, pixels.data()));
            let mut decoder = png::Decoder::new(&bytes[..]);
            decoder.set_transformations(png::Transformations::EXPAND);
            let mut reader = decoder.read_info().unwrap();
            let mut out = vec![0; reader.output_buffer_size()];
            let info = reader.next_frame(&mut out).unwrap();
            assert_eq!((info.width, info.height), (120, 60));
            let rgb: Vec<u8> = pixels
                .data()
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            assert_eq!(&out[..info.buffer_size()], &rgb[..]);
        }
        assert!(palette_indices(pixmap.data()).is_some());
        assert!(palette_indices(rainbow.data()).is_none());
    }
}
