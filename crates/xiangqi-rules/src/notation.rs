//! Move notations: ICCS / UCCI coordinates, WXF and Chinese (the descriptive notations).
//!
//! Descriptive moves are parsed context-free into a [`Description`], then resolved against the
//! position: the piece, which one (file or front/rear), the direction and the number must all
//! match exactly one legal move.

use super::board::{Color, Kind, Square};
use super::position::{Move, MoveError, Position};
use std::fmt;

/// Why a move text is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not a move in any notation we read.
    Syntax { text: String, why: String },
    /// Well formed, but no piece of the side to move fits it.
    NoSuchMove { text: String },
    /// Several legal moves fit it.
    Ambiguous { text: String, moves: Vec<Move> },
    /// It names a move the rules forbid.
    Illegal { text: String, error: MoveError },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax { text, why } => write!(f, "{text:?} is not a move: {why}"),
            NotationError::NoSuchMove { text } => {
                write!(f, "{text:?} does not match any move of the side to move")
            }
            NotationError::Ambiguous { text, moves } => {
                let list: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                write!(f, "{text:?} is ambiguous: {}", list.join(", "))
            }
            NotationError::Illegal { text, error } => write!(f, "{text:?} is illegal: {error}"),
        }
    }
}

impl std::error::Error for NotationError {}

fn syntax(text: &str, why: impl Into<String>) -> NotationError {
    NotationError::Syntax {
        text: text.to_string(),
        why: why.into(),
    }
}

/// The notations a move can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

impl Notation {
    pub fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }
}

/// Writes a legal move in a notation.
pub fn write(position: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => m.to_string(),
        Notation::Wxf => describe(position, m).wxf(),
        Notation::Chinese => describe(position, m).chinese(),
    }
}

/// Reads a move in any notation (ICCS, WXF or Chinese) and checks it is legal.
pub fn parse(position: &Position, text: &str) -> Result<Move, NotationError> {
    // ICCS or WXF typed with a Chinese input method's full-width forms (`Ｈ２－Ｅ２`): read as
    // ASCII. Chinese notation keeps its full-width digits (black's files), so only a text with
    // no other character is converted.
    let ascii = half_width(text.trim());
    let t = without_annotations(ascii.as_deref().unwrap_or(text.trim()));
    let iccs = parse_iccs(t).or_else(|| parse_iccs(t.strip_suffix('+')?));
    if let Some(m) = iccs {
        return position
            .check_move(m)
            .map(|()| m)
            .map_err(|error| NotationError::Illegal {
                text: t.to_string(),
                error,
            });
    }
    let parsed = if !t.is_ascii() {
        Description::parse_chinese(t.strip_suffix('+').unwrap_or(t))?
    } else if t.chars().count() == 5 && t.ends_with('+') {
        // A check mark after a WXF move (`R4+6+`).
        Description::parse_wxf(&t[..4])?
    } else {
        Description::parse_wxf(t)?
    };
    parsed.resolve(position, t)
}

/// A text made of ASCII and full-width ASCII forms (U+FF01–U+FF5E, and the ideographic space)
/// only, in ASCII; none for any other text.
fn half_width(text: &str) -> Option<String> {
    if text.is_ascii() {
        return None;
    }
    text.chars()
        .map(|c| match c {
            '\u{3000}' => Some(' '),
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
            c if c.is_ascii() => Some(c),
            _ => None,
        })
        .collect()
}

/// The move without the marks annotators add after it: `!`, `?`, `!!`, `?!`, `#` (mate), in
/// ASCII or full width (`！`, `？`). A check mark `+` is left to each notation, where `+` can
/// also be part of the move.
fn without_annotations(text: &str) -> &str {
    text.trim_end_matches(['!', '?', '#', '！', '？'])
        .trim_end()
}

/// Reads `h2e2`, `H2-E2` or `h2-e2` (context-free; legality is checked by the caller).
pub fn parse_iccs(text: &str) -> Option<Move> {
    let t: String = text.chars().filter(|&c| c != '-').collect();
    if t.len() != 4 || !t.is_ascii() {
        return None;
    }
    Some(Move {
        from: Square::parse(&t[..2])?,
        to: Square::parse(&t[2..])?,
    })
}

/// The direction of a descriptive move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Back,
    Sideways,
}

/// Which of several pieces of one kind on one file, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// WXF `+`: the front one of two or three, the second of four or five.
    Plus,
    /// WXF `-`: the rear one of two or three, the fourth of four or five.
    Minus,
    /// The middle one of three or five (中; WXF writes its file instead).
    Middle,
    /// The n-th from the front (前 / 二 / 三 …, WXF `++`).
    Nth(u8),
    /// The rearmost (後, WXF `--`).
    Last,
}

impl Mark {
    /// Which of `count` pieces (0 = front) this mark names.
    fn index(self, count: usize) -> Option<usize> {
        match (self, count) {
            (_, 0 | 1) => None,
            (Mark::Plus, 2 | 3) => Some(0),
            (Mark::Plus, _) => Some(1),
            (Mark::Minus, 2 | 3) => Some(count - 1),
            (Mark::Minus, _) => Some(count - 2),
            (Mark::Middle, c) if c % 2 == 1 => Some(c / 2),
            (Mark::Middle, _) => None,
            (Mark::Nth(n), c) => (n as usize >= 1 && n as usize <= c).then(|| n as usize - 1),
            (Mark::Last, c) => Some(c - 1),
        }
    }
}

/// Which piece moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Locator {
    /// The piece on this file (1–9, counted from the mover's right); with three or five pawns on
    /// it, the middle one.
    File(u8),
    /// One of several on a file (the only file with several).
    Mark(Mark),
    /// One of several pawns on this file, when pawns stand in tandem on two files.
    FileMark(u8, Mark),
}

/// A descriptive move: piece, locator, direction and number, as WXF and Chinese write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    pub color: Color,
    pub kind: Kind,
    pub locator: Locator,
    pub direction: Direction,
    /// Points moved (straight moves of K, R, C, P) or the destination file.
    pub number: u8,
    /// How many pieces of this kind stand on the mover's file (for writing marks).
    pub file_count: u8,
    /// The mover's index among them, front first.
    pub file_index: u8,
}

/// File number of a square for a side: counted 1–9 from that side's right.
fn file_number(color: Color, square: Square) -> u8 {
    match color {
        Color::Red => 9 - square.file(),
        Color::Black => square.file() + 1,
    }
}

/// Pieces of this kind and colour on a file, front first (from the side's point of view).
fn on_file(position: &Position, color: Color, kind: Kind, file: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = (0..10)
        .filter_map(|r| Square::new(file, r))
        .filter(|&s| {
            position
                .piece_at(s)
                .is_some_and(|p| p.color == color && p.kind == kind)
        })
        .collect();
    if color == Color::Red {
        squares.reverse();
    }
    squares
}

/// The description of a legal move.
pub fn describe(position: &Position, m: Move) -> Description {
    let piece = position.piece_at(m.from).expect("a legal move has a piece");
    let color = piece.color;
    let dr = (m.to.rank() as i8 - m.from.rank() as i8) * color.forward();
    let direction = match dr {
        d if d > 0 => Direction::Forward,
        d if d < 0 => Direction::Back,
        _ => Direction::Sideways,
    };
    let straight_counts = matches!(
        piece.kind,
        Kind::King | Kind::Chariot | Kind::Cannon | Kind::Pawn
    );
    let number = if straight_counts && direction != Direction::Sideways {
        dr.unsigned_abs()
    } else {
        file_number(color, m.to)
    };
    let same_file = on_file(position, color, piece.kind, m.from.file());
    let count = same_file.len();
    let index = same_file.iter().position(|&s| s == m.from).unwrap_or(0);
    let file = file_number(color, m.from);
    // The mark a writer uses for the index-th of `count` (the middle one goes by its file).
    let mark = match (count, index) {
        (0 | 1, _) => None,
        (2 | 3, 0) => Some(Mark::Plus),
        (c, i) if c % 2 == 1 && i == c / 2 => None,
        (2 | 3, _) => Some(Mark::Minus),
        (_, 0) => Some(Mark::Nth(1)),
        (_, 1) => Some(Mark::Plus),
        (c, i) if i == c - 1 => Some(Mark::Last),
        _ => Some(Mark::Minus),
    };
    let two_tandem_files = piece.kind == Kind::Pawn && tandem_pawn_files(position, color).len() > 1;
    let locator = match (piece.kind, mark) {
        // WXF writes the middle one of three by its file twice (`33.4`) when two files hold
        // tandem pawns.
        (Kind::Pawn, None) if count >= 3 && two_tandem_files => {
            Locator::FileMark(file, Mark::Middle)
        }
        (Kind::Advisor | Kind::Elephant, _) | (_, None) => Locator::File(file),
        (Kind::Pawn, Some(mark)) if two_tandem_files => Locator::FileMark(file, mark),
        (_, Some(mark)) => Locator::Mark(mark),
    };
    Description {
        color,
        kind: piece.kind,
        locator,
        direction,
        number,
        file_count: count as u8,
        file_index: index as u8,
    }
}

/// Files (0–8) holding two or more pawns of `color`.
fn tandem_pawn_files(position: &Position, color: Color) -> Vec<u8> {
    (0..9)
        .filter(|&f| on_file(position, color, Kind::Pawn, f).len() >= 2)
        .collect()
}

const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn wxf_letter(kind: Kind) -> char {
    match kind {
        Kind::King => 'K',
        Kind::Advisor => 'A',
        Kind::Elephant => 'E',
        Kind::Horse => 'H',
        Kind::Chariot => 'R',
        Kind::Cannon => 'C',
        Kind::Pawn => 'P',
    }
}

fn chinese_piece(kind: Kind, color: Color) -> char {
    match (kind, color) {
        (Kind::King, Color::Red) => '帥',
        (Kind::King, Color::Black) => '將',
        (Kind::Advisor, Color::Red) => '仕',
        (Kind::Advisor, Color::Black) => '士',
        (Kind::Elephant, Color::Red) => '相',
        (Kind::Elephant, Color::Black) => '象',
        (Kind::Horse, _) => '馬',
        (Kind::Chariot, _) => '車',
        (Kind::Cannon, _) => '炮',
        (Kind::Pawn, Color::Red) => '兵',
        (Kind::Pawn, Color::Black) => '卒',
    }
}

fn chinese_kind(c: char) -> Option<Kind> {
    Some(match c {
        '帥' | '帅' | '將' | '将' => Kind::King,
        '仕' | '士' => Kind::Advisor,
        '相' | '象' => Kind::Elephant,
        '馬' | '马' | '傌' | '駒' => Kind::Horse,
        '車' | '车' | '俥' | '伡' => Kind::Chariot,
        '炮' | '砲' | '包' => Kind::Cannon,
        '兵' | '卒' => Kind::Pawn,
        _ => return None,
    })
}

fn chinese_number(c: char) -> Option<u8> {
    if let Some(i) = CHINESE_NUMERALS.iter().position(|&x| x == c) {
        return Some(i as u8 + 1);
    }
    if let Some(i) = FULL_WIDTH_DIGITS.iter().position(|&x| x == c) {
        return Some(i as u8 + 1);
    }
    c.to_digit(10)
        .filter(|d| (1..=9).contains(d))
        .map(|d| d as u8)
}

fn number_char(color: Color, n: u8) -> char {
    let i = (n.clamp(1, 9) - 1) as usize;
    match color {
        Color::Red => CHINESE_NUMERALS[i],
        Color::Black => FULL_WIDTH_DIGITS[i],
    }
}

impl Description {
    /// WXF: `C2.5`, `H8+7`, `R+.3`, `++.4`, `3+.4`.
    pub fn wxf(&self) -> String {
        let letter = wxf_letter(self.kind);
        let head = match self.locator {
            Locator::File(f) => format!("{letter}{f}"),
            Locator::Mark(Mark::Plus) => format!("{letter}+"),
            Locator::Mark(Mark::Minus) => format!("{letter}-"),
            Locator::Mark(Mark::Nth(_)) => "++".to_string(),
            Locator::Mark(Mark::Last) => "--".to_string(),
            Locator::Mark(Mark::Middle) => format!("{letter}."),
            Locator::FileMark(f, Mark::Middle) => format!("{f}{f}"),
            Locator::FileMark(f, mark) => {
                let c = match mark {
                    Mark::Plus | Mark::Nth(_) => '+',
                    _ => '-',
                };
                format!("{f}{c}")
            }
        };
        let op = match self.direction {
            Direction::Forward => '+',
            Direction::Back => '-',
            Direction::Sideways => '.',
        };
        format!("{head}{op}{}", self.number)
    }

    /// Chinese: `炮二平五`, `馬８進７`, `前車進一`, `二兵平四`, `前兵三進一`.
    pub fn chinese(&self) -> String {
        let piece = chinese_piece(self.kind, self.color);
        let mark_char = |mark: Mark| -> char {
            let count = self.file_count as usize;
            match mark.index(count) {
                Some(0) => '前',
                Some(i) if i + 1 == count => '後',
                Some(i) => CHINESE_NUMERALS[i],
                None => '前',
            }
        };
        let head = match self.locator {
            // The middle of three or five pawns on a file.
            Locator::File(_)
                if self.kind == Kind::Pawn && self.file_count % 2 == 1 && self.file_count > 1 =>
            {
                format!("中{piece}")
            }
            Locator::FileMark(_, Mark::Middle) => format!("中{piece}"),
            Locator::File(f) => format!("{piece}{}", number_char(self.color, f)),
            Locator::Mark(mark) => format!("{}{piece}", mark_char(mark)),
            Locator::FileMark(f, mark) => {
                format!("{}{piece}{}", mark_char(mark), number_char(self.color, f))
            }
        };
        let op = match self.direction {
            Direction::Forward => '進',
            Direction::Back => '退',
            Direction::Sideways => '平',
        };
        format!("{head}{op}{}", number_char(self.color, self.number))
    }

    /// Parses WXF (context-free).
    pub fn parse_wxf(text: &str) -> Result<Parsed, NotationError> {
        let mut chars: Vec<char> = text.chars().collect();
        // The tandem mark written before the piece (`+R.8` for `R+.8`).
        if chars.len() == 4 && matches!(chars[0], '+' | '-') && chars[1].is_ascii_alphabetic() {
            chars.swap(0, 1);
        }
        if chars.len() != 4 {
            return Err(syntax(
                text,
                "a WXF move has 4 characters, like C2.5, H8+7 or R+.3",
            ));
        }
        let kind_of = |c: char| match c.to_ascii_uppercase() {
            'K' => Some(Kind::King),
            'A' => Some(Kind::Advisor),
            'E' | 'B' => Some(Kind::Elephant),
            'H' | 'N' => Some(Kind::Horse),
            'R' => Some(Kind::Chariot),
            'C' => Some(Kind::Cannon),
            'P' => Some(Kind::Pawn),
            _ => None,
        };
        let digit = |c: char| {
            c.to_digit(10)
                .filter(|d| (1..=9).contains(d))
                .map(|d| d as u8)
        };
        let (kind, locator) = match (chars[0], chars[1], kind_of(chars[0]), digit(chars[1])) {
            ('+', '+', _, _) => (Kind::Pawn, Locator::Mark(Mark::Nth(1))),
            ('-', '-', _, _) => (Kind::Pawn, Locator::Mark(Mark::Last)),
            (_, '+', Some(kind), _) => (kind, Locator::Mark(Mark::Plus)),
            (_, '-', Some(kind), _) => (kind, Locator::Mark(Mark::Minus)),
            (_, _, Some(kind), Some(file)) => (kind, Locator::File(file)),
            // Tandem pawns on two files, the middle one of three: its file twice (`33.4`).
            (f, g, None, Some(file)) if f == g => {
                (Kind::Pawn, Locator::FileMark(file, Mark::Middle))
            }
            (f, '+', None, _) if digit(f).is_some() => (
                Kind::Pawn,
                Locator::FileMark(digit(f).unwrap_or(1), Mark::Plus),
            ),
            (f, '-', None, _) if digit(f).is_some() => (
                Kind::Pawn,
                Locator::FileMark(digit(f).unwrap_or(1), Mark::Minus),
            ),
            _ => {
                return Err(syntax(
                    text,
                    "expected a piece letter (K A E H R C P) then a file 1-9 or + / -",
                ))
            }
        };
        let direction = match chars[2] {
            '+' => Direction::Forward,
            '-' => Direction::Back,
            '.' | '=' => Direction::Sideways,
            _ => return Err(syntax(text, "the third character must be +, - or . (=)")),
        };
        let number =
            digit(chars[3]).ok_or_else(|| syntax(text, "the last character must be 1-9"))?;
        Ok(Parsed {
            kind,
            locator,
            direction,
            number,
        })
    }

    /// Parses Chinese notation (context-free).
    pub fn parse_chinese(text: &str) -> Result<Parsed, NotationError> {
        let mut chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        // The tandem mark written after the piece (`車前平八` for `前車平八`).
        if chars.len() == 4
            && chinese_kind(chars[0]).is_some()
            && matches!(chars[1], '前' | '後' | '后' | '中')
        {
            chars.swap(0, 1);
        }
        let bad = |why: &str| syntax(text, why);
        let mut i = 0;
        let mark = match chars.first() {
            Some('前') => Some(Mark::Nth(1)),
            Some('後') | Some('后') => Some(Mark::Last),
            Some('中') => Some(Mark::Middle),
            Some(&c) if chars.get(1).is_some_and(|&n| chinese_kind(n).is_some()) => {
                match CHINESE_NUMERALS.iter().position(|&x| x == c) {
                    Some(n) if n < 5 => Some(Mark::Nth(n as u8 + 1)),
                    _ => None,
                }
            }
            _ => None,
        };
        if mark.is_some() {
            i += 1;
        }
        let kind = chars.get(i).and_then(|&c| chinese_kind(c));
        if kind.is_some() {
            i += 1;
        }
        let op_at = chars
            .iter()
            .position(|&c| matches!(c, '進' | '进' | '退' | '平'))
            .ok_or_else(|| bad("no direction: 進 (进), 退 or 平"))?;
        let file = match op_at - i {
            0 => None,
            1 => Some(chinese_number(chars[i]).ok_or_else(|| bad("the file must be 1-9"))?),
            _ => return Err(bad("expected [前/後/中] piece file direction number")),
        };
        let direction = match chars[op_at] {
            '進' | '进' => Direction::Forward,
            '退' => Direction::Back,
            _ => Direction::Sideways,
        };
        if chars.len() != op_at + 2 {
            return Err(bad("one number 1-9 must follow the direction"));
        }
        let number =
            chinese_number(chars[op_at + 1]).ok_or_else(|| bad("the number must be 1-9"))?;
        let (kind, locator) = match (mark, kind, file) {
            (None, Some(kind), Some(f)) => (kind, Locator::File(f)),
            (Some(mark), Some(kind), None) => (kind, Locator::Mark(mark)),
            (Some(mark), kind, Some(f)) => (kind.unwrap_or(Kind::Pawn), Locator::FileMark(f, mark)),
            _ => return Err(bad("expected a piece and a file, or 前/後/中 and a piece")),
        };
        Ok(Parsed {
            kind,
            locator,
            direction,
            number,
        })
    }
}

/// How much a refusal tells about a described move that names a piece of the side to move but
/// no legal move (higher tells more).
fn telling(e: &MoveError) -> u8 {
    match e {
        MoveError::KingLeftInCheck => 4,
        MoveError::CannotReach {
            blocked: Some(_), ..
        } => 3,
        MoveError::OwnPieceOnTarget(_) => 2,
        MoveError::CannotReach { .. } => 1,
        _ => 0,
    }
}

/// A descriptive move as read, before the position says which piece it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub kind: Kind,
    pub locator: Locator,
    pub direction: Direction,
    pub number: u8,
}

impl Parsed {
    /// Finds the one legal move this description names.
    pub fn resolve(&self, position: &Position, text: &str) -> Result<Move, NotationError> {
        let color = position.side_to_move();
        let mut legal = Vec::new();
        let mut illegal = None;
        for (from, piece) in position.pieces() {
            if piece.color != color || piece.kind != self.kind || !self.locates(position, from) {
                continue;
            }
            for to in (0..90).filter_map(Square::from_index) {
                let m = Move { from, to };
                if !self.fits(color, m) {
                    continue;
                }
                match position.check_move(m) {
                    Ok(()) => legal.push(m),
                    // The reason a player most needs to hear when nothing fits: a check first,
                    // then a blocked leg or eye, an own piece on the point, a path not clear.
                    Err(e) if illegal.as_ref().is_none_or(|i| telling(&e) > telling(i)) => {
                        illegal = Some(e)
                    }
                    Err(_) => {}
                }
            }
        }
        match legal.len() {
            1 => Ok(legal[0]),
            0 => Err(match illegal {
                Some(error) => NotationError::Illegal {
                    text: text.to_string(),
                    error,
                },
                None => NotationError::NoSuchMove {
                    text: text.to_string(),
                },
            }),
            _ => Err(NotationError::Ambiguous {
                text: text.to_string(),
                moves: legal,
            }),
        }
    }

    /// Whether the piece on `from` is the one the locator names.
    fn locates(&self, position: &Position, from: Square) -> bool {
        let color = position.side_to_move();
        let same_file = on_file(position, color, self.kind, from.file());
        let count = same_file.len();
        let index = same_file.iter().position(|&s| s == from);
        let file = file_number(color, from);
        match self.locator {
            Locator::File(f) => {
                f == file
                    && (self.kind != Kind::Pawn
                        || count.is_multiple_of(2)
                        || index == Mark::Middle.index(count).or(Some(0)))
            }
            Locator::Mark(mark) => index.is_some() && mark.index(count) == index,
            Locator::FileMark(f, mark) => f == file && mark.index(count) == index,
        }
    }

    /// Whether move `m` goes the way the direction and number say.
    fn fits(&self, color: Color, m: Move) -> bool {
        let dr = (m.to.rank() as i8 - m.from.rank() as i8) * color.forward();
        let straight_counts = matches!(
            self.kind,
            Kind::King | Kind::Chariot | Kind::Cannon | Kind::Pawn
        );
        match self.direction {
            Direction::Sideways => dr == 0 && file_number(color, m.to) == self.number,
            Direction::Forward | Direction::Back => {
                let sign_ok = if self.direction == Direction::Forward {
                    dr > 0
                } else {
                    dr < 0
                };
                sign_ok
                    && if straight_counts {
                        m.from.file() == m.to.file() && dr.unsigned_abs() == self.number
                    } else {
                        file_number(color, m.to) == self.number
                    }
            }
        }
    }
}

/// Chinese notation in simplified characters, as mainland books and sites print it (`马８进７`,
/// `车一平二`, `后炮进四`): every traditional form of this notation mapped to its simplified one.
pub fn simplified(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '車' | '俥' => '车',
            '馬' | '傌' => '马',
            '帥' => '帅',
            '將' => '将',
            '砲' => '炮',
            '進' => '进',
            '後' => '后',
            other => other,
        })
        .collect()
}
