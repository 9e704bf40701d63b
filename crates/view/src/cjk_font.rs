//! Chinese characters for the board pictures, drawn as outlines from a real typeface: Noto Serif
//! CJK SC Bold cut down to the characters the pictures use (`crates/view/assets/fonts/board-cjk.otf`, SIL
//! Open Font License 1.1, copyright 2017-2022 Adobe; made by `scripts/cjk-font.py`). The font
//! is compiled in, so pictures need no font on the machine and their bytes are the same
//! everywhere.

use std::sync::OnceLock;

const FONT: &[u8] = include_bytes!("../assets/fonts/board-cjk.otf");

/// The family name the font carries, which a page's style names.
pub const FAMILY: &str = "qijudge board CJK";

/// The font as a `data:` address, for a page that shows Chinese text on machines without a CJK
/// font (the replay page's move list).
pub fn data_uri() -> &'static str {
    static URI: OnceLock<String> = OnceLock::new();
    URI.get_or_init(|| {
        let encoded = mail_builder::encoders::base64::base64_encode(FONT).unwrap_or_default();
        format!("data:font/otf;base64,{}", String::from_utf8_lossy(&encoded))
    })
}

fn face() -> Option<&'static ttf_parser::Face<'static>> {
    static FACE: OnceLock<Option<ttf_parser::Face<'static>>> = OnceLock::new();
    FACE.get_or_init(|| ttf_parser::Face::parse(FONT, 0).ok())
        .as_ref()
}

/// The outline of `c` as SVG path data, `size` pixels to the em, its em box's left edge at `x`
/// and its centre at height 0; `None` for a character the font does not have.
pub fn outline(c: char, x: f64, size: f64) -> Option<String> {
    let face = face()?;
    let glyph = face.glyph_index(c)?;
    let em = f64::from(face.units_per_em());
    // The ideographic em box runs from the descender to the ascender (-120 to 880 in Noto CJK):
    // its middle is the line the labels are centred on.
    let middle = f64::from(face.ascender() + face.descender()) / 2.0;
    let mut path = Path {
        d: String::new(),
        x,
        scale: size / em,
        middle,
    };
    face.outline_glyph(glyph, &mut path)?;
    Some(path.d)
}

struct Path {
    d: String,
    x: f64,
    scale: f64,
    middle: f64,
}

impl Path {
    fn point(&mut self, x: f32, y: f32) {
        let px = self.x + f64::from(x) * self.scale;
        let py = (self.middle - f64::from(y)) * self.scale;
        super::numbers::push_fixed(&mut self.d, px, 2);
        self.d.push(' ');
        super::numbers::push_fixed(&mut self.d, py, 2);
    }
}

impl ttf_parser::OutlineBuilder for Path {
    fn move_to(&mut self, x: f32, y: f32) {
        self.d.push('M');
        self.point(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.d.push('L');
        self.point(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.d.push('Q');
        self.point(x1, y1);
        self.d.push(' ');
        self.point(x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.d.push('C');
        self.point(x1, y1);
        self.d.push(' ');
        self.point(x2, y2);
        self.d.push(' ');
        self.point(x, y);
    }
    fn close(&mut self) {
        self.d.push('Z');
    }
}

/// Fails naming `what` and the character when a Chinese character of `text` is not in the font.
/// (A test helper, for each game's captions too.)
#[doc(hidden)]
pub fn assert_drawable(text: &str, what: &str) {
    for c in text.chars().filter(|&c| c as u32 >= 0x2e80) {
        assert!(
            outline(c, 0.0, 16.0).is_some(),
            "{what}: {c} is not in crates/view/assets/fonts/board-cjk.otf: add it to scripts/cjk-font.py"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_the_pictures_draw_is_in_the_font() {
        // Luzhanqi pieces (engineer: 工), Xiangqi pieces and river, Liubo, file numbers.
        for c in "司军师旅团营连排工兵炸雷旗帥仕相傌俥炮將士象馬車砲卒楚河漢界梟散一二三四五六七八九前线１２３４５６７８９".chars() {
            let d = outline(c, 0.0, 16.0).unwrap_or_default();
            assert!(d.starts_with('M') && d.ends_with('Z'), "{c}: {d}");
        }
        assert!(outline('x', 0.0, 16.0).is_none() && outline('龍', 0.0, 16.0).is_none());
        assert!(std::panic::catch_unwind(|| assert_drawable("车龍", "a test")).is_err());
        assert_drawable("车马x", "a test");
    }

    #[test]
    fn an_outline_fills_its_em_box_around_the_centre_line() {
        let d = outline('中', 10.0, 20.0).unwrap();
        let numbers: Vec<f64> = d
            .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
            .filter_map(|n| n.parse().ok())
            .collect();
        let (xs, ys): (Vec<f64>, Vec<f64>) = numbers.chunks(2).map(|p| (p[0], p[1])).unzip();
        assert!(xs.iter().all(|&x| (10.0..=30.0).contains(&x)), "{xs:?}");
        // Within the em box, give or take a stroke that reaches below it (中's stem).
        assert!(ys.iter().all(|&y| (-11.0..=11.0).contains(&y)), "{ys:?}");
        // 中 reaches well above and below the centre line.
        assert!(
            ys.iter().any(|&y| y < -6.0) && ys.iter().any(|&y| y > 6.0),
            "{ys:?}"
        );
    }
}
