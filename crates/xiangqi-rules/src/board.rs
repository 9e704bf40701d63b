//! Squares, pieces and the geometry tables of the 9 × 10 board.
//!
//! A square is `rank * 9 + file`: files a–i from Red's left (0–8), ranks 0–9 from Red's side.

use std::fmt;

/// Number of points on the board.
pub const SQUARES: usize = 90;

/// A side. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Red,
    Black,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// The rank step a pawn of this colour moves forward by.
    pub fn forward(self) -> i8 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    /// Lower-case English name, as used in views and results.
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    King,
    Advisor,
    Elephant,
    Horse,
    Chariot,
    Cannon,
    Pawn,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// The FEN letter (upper case), `K A B N R C P`.
    pub fn fen_letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case; also `E` for elephant and `H` for horse.
    pub fn from_fen_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }

    /// The most pieces of this kind one side may have.
    pub fn max_count(self) -> usize {
        match self {
            Kind::King => 1,
            Kind::Pawn => 5,
            _ => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Chariot => "chariot",
            Kind::Cannon => "cannon",
            Kind::Pawn => "pawn",
        }
    }
}

/// A piece: a kind and a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    pub fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// The FEN character: upper case for Red.
    pub fn fen_char(self) -> char {
        let c = self.kind.fen_letter();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = Kind::from_fen_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }
}

/// A point of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 9 && rank < 10).then(|| Square(rank * 9 + file))
    }

    /// The square with this index (0..90).
    pub fn from_index(i: usize) -> Option<Square> {
        (i < SQUARES).then_some(Square(i as u8))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn file(self) -> u8 {
        self.0 % 9
    }

    pub fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if (0..9).contains(&f) && (0..10).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// Whether this point is on `color`'s side of the river.
    pub fn on_side_of(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Whether this point is inside `color`'s palace.
    pub fn in_palace_of(self, color: Color) -> bool {
        let f = self.file();
        (3..=5).contains(&f)
            && match color {
                Color::Red => self.rank() <= 2,
                Color::Black => self.rank() >= 7,
            }
    }

    /// Parses `e2` (files a–i, ranks 0–9), either case.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let f = chars.next()?.to_ascii_lowercase();
        let r = chars.next()?;
        if chars.next().is_some() || !('a'..='i').contains(&f) || !r.is_ascii_digit() {
            return None;
        }
        Square::new(f as u8 - b'a', r as u8 - b'0')
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Whether a piece of this kind and colour can ever stand on `sq` (FEN validation).
pub fn reachable(piece: Piece, sq: Square) -> bool {
    let (f, r) = (sq.file(), sq.rank());
    // Ranks counted from the piece's own back rank.
    let own_rank = match piece.color {
        Color::Red => r,
        Color::Black => 9 - r,
    };
    match piece.kind {
        Kind::King => sq.in_palace_of(piece.color),
        Kind::Advisor => {
            sq.in_palace_of(piece.color) && ((f == 4 && own_rank == 1) || (f != 4 && own_rank != 1))
        }
        Kind::Elephant => matches!(
            (f, own_rank),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        Kind::Pawn => own_rank >= 5 || ((own_rank == 3 || own_rank == 4) && f % 2 == 0),
        Kind::Horse | Kind::Chariot | Kind::Cannon => true,
    }
}

/// Precomputed geometry, built once at compile time.
pub struct Tables {
    /// Rays in the four orthogonal directions (north, south, east, west), nearest first.
    pub rays: [[Ray; 4]; SQUARES],
    /// Horse moves from a square: (target, leg).
    pub horse: [Steps; SQUARES],
    /// Horses that attack a square: (horse square, leg).
    pub horse_to: [Steps; SQUARES],
    /// Elephant moves (target, eye), not across the river.
    pub elephant: [Steps; SQUARES],
    /// Advisor moves inside the palace.
    pub advisor: [Steps; SQUARES],
    /// King moves inside the palace.
    pub king: [Steps; SQUARES],
    /// Pawn moves per colour.
    pub pawn: [[Steps; SQUARES]; 2],
    /// How a square stands to another (a king's): [`LINE`] + the ray direction when they share
    /// a file or a rank, [`LEG`] when it is diagonally next to it (the leg of a horse that
    /// attacks it), 0 otherwise.
    pub toward: [[u8; SQUARES]; SQUARES],
}

/// In [`Tables::toward`]: on a ray of the square (plus the ray's index).
pub const LINE: u8 = 1;
/// In [`Tables::toward`]: diagonally next to the square.
pub const LEG: u8 = 8;

/// Up to nine squares along a line.
#[derive(Clone, Copy)]
pub struct Ray {
    pub len: u8,
    pub squares: [u8; 9],
}

impl Ray {
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.squares[..self.len as usize]
            .iter()
            .map(|&s| s as usize)
    }
}

/// Up to eight (target, via) pairs.
#[derive(Clone, Copy)]
pub struct Steps {
    pub len: u8,
    pub targets: [(u8, u8); 8],
}

impl Steps {
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.targets[..self.len as usize]
            .iter()
            .map(|&(t, v)| (t as usize, v as usize))
    }
}

const EMPTY_RAY: Ray = Ray {
    len: 0,
    squares: [0; 9],
};
const EMPTY_STEPS: Steps = Steps {
    len: 0,
    targets: [(0, 0); 8],
};

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn in_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7) && r >= 0 && r < 10
}

const fn push(steps: &mut Steps, target: i32, via: i32) {
    steps.targets[steps.len as usize] = (target as u8, via as u8);
    steps.len += 1;
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        rays: [[EMPTY_RAY; 4]; SQUARES],
        horse: [EMPTY_STEPS; SQUARES],
        horse_to: [EMPTY_STEPS; SQUARES],
        elephant: [EMPTY_STEPS; SQUARES],
        advisor: [EMPTY_STEPS; SQUARES],
        king: [EMPTY_STEPS; SQUARES],
        pawn: [[EMPTY_STEPS; SQUARES]; 2],
        toward: [[0; SQUARES]; SQUARES],
    };
    let dirs: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let diags: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut sq = 0;
    while sq < SQUARES {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = dirs[d];
            let (mut x, mut y) = (f + df, r + dr);
            while on_board(x, y) {
                let ray = &mut t.rays[sq][d];
                ray.squares[ray.len as usize] = (y * 9 + x) as u8;
                ray.len += 1;
                t.toward[sq][(y * 9 + x) as usize] = LINE + d as u8;
                x += df;
                y += dr;
            }
            // King: one orthogonal step in the palace.
            if in_palace(f, r) && in_palace(f + df, r + dr) {
                push(&mut t.king[sq], (r + dr) * 9 + f + df, 0);
            }
            // Horse: leg one step orthogonally, then diagonally outward.
            let (lf, lr) = (f + df, r + dr);
            if on_board(lf, lr) {
                let mut side = -1;
                while side <= 1 {
                    // Perpendicular offset.
                    let (tf, tr) = (lf + df + side * dr.abs(), lr + dr + side * df.abs());
                    if on_board(tf, tr) {
                        push(&mut t.horse[sq], tr * 9 + tf, lr * 9 + lf);
                    }
                    side += 2;
                }
            }
            d += 1;
        }
        d = 0;
        while d < 4 {
            let (df, dr) = diags[d];
            // Horses attacking this square: the leg is diagonal to it.
            let (lf, lr) = (f + df, r + dr);
            if on_board(lf, lr) {
                t.toward[sq][(lr * 9 + lf) as usize] = LEG;
                if on_board(lf + df, lr) {
                    push(&mut t.horse_to[sq], lr * 9 + lf + df, lr * 9 + lf);
                }
                if on_board(lf, lr + dr) {
                    push(&mut t.horse_to[sq], (lr + dr) * 9 + lf, lr * 9 + lf);
                }
            }
            // Advisor: one diagonal step in the palace.
            if in_palace(f, r) && in_palace(f + df, r + dr) {
                push(&mut t.advisor[sq], (r + dr) * 9 + f + df, 0);
            }
            // Elephant: two diagonal steps, same side of the river.
            let (ef, er) = (f + 2 * df, r + 2 * dr);
            if on_board(ef, er) && ((r <= 4) == (er <= 4)) {
                push(&mut t.elephant[sq], er * 9 + ef, (r + dr) * 9 + f + df);
            }
            d += 1;
        }
        // Pawns: forward, and sideways once across the river.
        let mut c = 0;
        while c < 2 {
            let fwd = if c == 0 { 1 } else { -1 };
            if on_board(f, r + fwd) {
                push(&mut t.pawn[c][sq], (r + fwd) * 9 + f, 0);
            }
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if crossed {
                if f > 0 {
                    push(&mut t.pawn[c][sq], r * 9 + f - 1, 0);
                }
                if f < 8 {
                    push(&mut t.pawn[c][sq], r * 9 + f + 1, 0);
                }
            }
            c += 1;
        }
        sq += 1;
    }
    t
}

/// The geometry tables.
pub static TABLES: Tables = build_tables();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_counts() {
        let t = &TABLES;
        let e4 = Square::new(4, 4).unwrap().index();
        assert_eq!(t.horse[e4].len, 8);
        assert_eq!(t.horse_to[e4].len, 8);
        let a0 = 0;
        assert_eq!(t.horse[a0].len, 2);
        assert_eq!(t.horse_to[a0].len, 2);
        // Every forward horse move appears reversed in horse_to with a leg next to the target.
        for s in 0..SQUARES {
            for (to, _) in t.horse[s].iter() {
                assert!(t.horse_to[to].iter().any(|(h, _)| h == s));
            }
        }
        let e1 = Square::new(4, 1).unwrap().index();
        assert_eq!(t.advisor[e1].len, 4);
        assert_eq!(t.king[e1].len, 4);
        let c0 = Square::new(2, 0).unwrap().index();
        assert_eq!(t.elephant[c0].len, 2);
        let c4 = Square::new(2, 4).unwrap().index();
        assert_eq!(t.elephant[c4].len, 2, "no crossing the river");
        assert_eq!(t.rays[0][0].len, 9);
        assert_eq!(t.rays[0][2].len, 8);
    }

    #[test]
    fn reachable_points() {
        let count = |p: Piece| {
            (0..SQUARES)
                .filter(|&i| reachable(p, Square(i as u8)))
                .count()
        };
        for color in [Color::Red, Color::Black] {
            assert_eq!(count(Piece::new(color, Kind::King)), 9);
            assert_eq!(count(Piece::new(color, Kind::Advisor)), 5);
            assert_eq!(count(Piece::new(color, Kind::Elephant)), 7);
            assert_eq!(count(Piece::new(color, Kind::Pawn)), 45 + 10);
        }
    }
}
