//! A Jieqi position: the Xiangqi board where a piece may lie face down. A face-down piece has
//! never moved, so it stands on a start square and moves as that square's piece (its role);
//! legality therefore depends only on what everyone sees, never on what the hidden pieces are.

use std::fmt;
use xiangqi_rules::position::MoveError;
use xiangqi_rules::{Color, Kind, Move, Square};

const SQUARES: usize = 90;

/// What stands on a point: a piece of a colour, face up (`kind` is what it is) or face down
/// (`kind` is the role it moves as: the piece of its start square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub color: Color,
    pub kind: Kind,
    pub hidden: bool,
}

impl Cell {
    /// The letter in a position text: FEN letters face up, `X` (red) or `x` (black) face down.
    pub fn letter(self) -> char {
        let c = if self.hidden {
            'X'
        } else {
            self.kind.fen_letter()
        };
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

/// The back-rank order of Xiangqi's start, files a to i.
const BACK_RANK: [Kind; 9] = [
    Kind::Chariot,
    Kind::Horse,
    Kind::Elephant,
    Kind::Advisor,
    Kind::King,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Horse,
    Kind::Chariot,
];

/// The piece a square holds in Xiangqi's start position, with its colour.
pub fn start_piece(s: Square) -> Option<(Color, Kind)> {
    let (f, r) = (s.file(), s.rank());
    let (color, own_rank) = if r <= 4 {
        (Color::Red, r)
    } else {
        (Color::Black, 9 - r)
    };
    let kind = match own_rank {
        0 => BACK_RANK[f as usize],
        2 if f == 1 || f == 7 => Kind::Cannon,
        3 if f % 2 == 0 => Kind::Pawn,
        _ => return None,
    };
    Some((color, kind))
}

/// The role of a start square of a face-down piece (every start square but the kings').
pub fn role_of(s: Square) -> Option<(Color, Kind)> {
    start_piece(s).filter(|(_, k)| *k != Kind::King)
}

/// The 15 start squares of `color`'s face-down pieces, in square order.
pub fn hidden_squares(color: Color) -> [Square; 15] {
    let mut out = [Square::new(0, 0).expect("a0"); 15];
    let mut n = 0;
    for i in 0..SQUARES {
        let s = Square::from_index(i).expect("square index");
        if role_of(s).is_some_and(|(c, _)| c == color) {
            out[n] = s;
            n += 1;
        }
    }
    out
}

/// Why a position text is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionTextError(pub String);

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The board, the side to move, the plies since the last capture or reveal, and whether
/// revealed advisors and elephants go anywhere.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Cell>; SQUARES],
    side: Color,
    kings: [u8; 2],
    free: bool,
    /// Plies since the last capture or reveal.
    pub quiet: u32,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.text())
    }
}

/// One point away orthogonally.
const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Horse moves with the leg point that blocks them.
const HORSE: [((i8, i8), (i8, i8)); 8] = [
    ((1, 2), (0, 1)),
    ((-1, 2), (0, 1)),
    ((1, -2), (0, -1)),
    ((-1, -2), (0, -1)),
    ((2, 1), (1, 0)),
    ((2, -1), (1, 0)),
    ((-2, 1), (-1, 0)),
    ((-2, -1), (-1, 0)),
];

impl Position {
    /// Jieqi's start: the kings face up on e0 and e9, every other piece face down on its
    /// Xiangqi start square; red to move.
    pub fn start(free: bool) -> Position {
        let mut board = [None; SQUARES];
        for (i, cell) in board.iter_mut().enumerate() {
            let s = Square::from_index(i).expect("square index");
            *cell = start_piece(s).map(|(color, kind)| Cell {
                color,
                kind,
                hidden: kind != Kind::King,
            });
        }
        Position {
            board,
            side: Color::Red,
            kings: [4, 85],
            free,
            quiet: 0,
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    pub fn free(&self) -> bool {
        self.free
    }

    pub fn set_free(&mut self, free: bool) {
        self.free = free;
    }

    pub fn cell(&self, s: Square) -> Option<Cell> {
        self.board[s.index()]
    }

    /// Every piece with its square, in square order.
    pub fn cells(&self) -> impl Iterator<Item = (Square, Cell)> + '_ {
        (0..SQUARES).filter_map(|i| {
            self.board[i].map(|c| (Square::from_index(i).expect("square index"), c))
        })
    }

    pub fn king_square(&self, color: Color) -> Square {
        Square::from_index(self.kings[color.index()] as usize).expect("king square")
    }

    /// Ranks 9 to 0 separated by `/` (digits count empty points), then `w` (red) or `b`.
    pub fn text(&self) -> String {
        let mut out = xiangqi_rules::fen::placement(|s| self.cell(s).map(Cell::letter));
        out.push_str(match self.side {
            Color::Red => " w",
            Color::Black => " b",
        });
        out
    }

    /// Reads [`Position::text`]. A face-down piece must stand on a start square of its colour.
    pub fn parse(text: &str, free: bool) -> Result<Position, PositionTextError> {
        let bad = |why: String| PositionTextError(format!("position {text:?}: {why}"));
        let (placement, side) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| bad("expected the board, a space and w or b".into()))?;
        let side = match side.trim() {
            "w" | "r" => Color::Red,
            "b" => Color::Black,
            other => return Err(bad(format!("side {other:?}: expected w or b"))),
        };
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return Err(bad(format!("{} ranks, expected 10", ranks.len())));
        }
        let mut board = [None; SQUARES];
        let mut kings = [None, None];
        for (i, row) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file = file.saturating_add(d as u8);
                    if file > 9 {
                        return Err(bad(format!("rank {rank} has more than 9 points")));
                    }
                    continue;
                }
                let s = Square::new(file, rank)
                    .ok_or_else(|| bad(format!("rank {rank} has more than 9 points")))?;
                let color = if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                let cell = if c.eq_ignore_ascii_case(&'x') {
                    match role_of(s) {
                        Some((c, kind)) if c == color => Cell {
                            color,
                            kind,
                            hidden: true,
                        },
                        _ => {
                            return Err(bad(format!(
                            "a face-down {} piece on {s}, which is not one of its start squares",
                            color.name()
                        )))
                        }
                    }
                } else {
                    let kind = Kind::from_fen_letter(c)
                        .ok_or_else(|| bad(format!("{c:?} is not a piece letter")))?;
                    Cell {
                        color,
                        kind,
                        hidden: false,
                    }
                };
                if cell.kind == Kind::King && !cell.hidden {
                    if !s.in_palace_of(color) || kings[color.index()].is_some() {
                        return Err(bad(format!("the {} king on {s}", color.name())));
                    }
                    kings[color.index()] = Some(s.index() as u8);
                }
                board[s.index()] = Some(cell);
                file += 1;
            }
            if file != 9 {
                return Err(bad(format!("rank {rank} has {file} points, expected 9")));
            }
        }
        let (Some(red), Some(black)) = (kings[0], kings[1]) else {
            return Err(bad("each side needs exactly one king".into()));
        };
        Ok(Position {
            board,
            side,
            kings: [red, black],
            free,
            quiet: 0,
        })
    }

    /// Whether `cell`'s movement confines it: kings always; advisors and elephants while face
    /// down, or always under the confined option.
    fn confined(&self, cell: Cell) -> bool {
        match cell.kind {
            Kind::King => true,
            Kind::Advisor | Kind::Elephant => cell.hidden || !self.free,
            _ => false,
        }
    }

    /// Targets of the piece on `from` by its movement rules (not whose turn it is, not the
    /// safety of its king), pushed as moves.
    pub fn piece_moves(&self, from: Square, out: &mut Vec<Move>) {
        let Some(cell) = self.cell(from) else {
            return;
        };
        let own = cell.color;
        let empty = |s: Option<Square>| s.is_some_and(|s| self.cell(s).is_none());
        let mut push = |to: Option<Square>| {
            if let Some(to) = to {
                if self.cell(to).is_none_or(|c| c.color != own) {
                    out.push(Move { from, to });
                }
            }
        };
        let confined = self.confined(cell);
        match cell.kind {
            Kind::King => {
                for (df, dr) in ORTHOGONAL {
                    push(from.offset(df, dr).filter(|s| s.in_palace_of(own)));
                }
            }
            Kind::Advisor => {
                for (df, dr) in DIAGONAL {
                    push(
                        from.offset(df, dr)
                            .filter(|s| !confined || s.in_palace_of(own)),
                    );
                }
            }
            Kind::Elephant => {
                for (df, dr) in DIAGONAL {
                    if empty(from.offset(df, dr)) {
                        push(
                            from.offset(2 * df, 2 * dr)
                                .filter(|s| !confined || s.on_side_of(own)),
                        );
                    }
                }
            }
            Kind::Horse => {
                for ((df, dr), (lf, lr)) in HORSE {
                    if empty(from.offset(lf, lr)) {
                        push(from.offset(df, dr));
                    }
                }
            }
            Kind::Pawn => {
                push(from.offset(0, own.forward()));
                if !from.on_side_of(own) {
                    push(from.offset(1, 0));
                    push(from.offset(-1, 0));
                }
            }
            Kind::Chariot | Kind::Cannon => {
                for (df, dr) in ORTHOGONAL {
                    let mut screened = false;
                    let mut at = from.offset(df, dr);
                    while let Some(s) = at {
                        match (self.cell(s), screened, cell.kind) {
                            (None, false, _) => push(Some(s)),
                            (None, true, _) => {}
                            (Some(_), false, Kind::Chariot) | (Some(_), true, _) => {
                                push(Some(s));
                                break;
                            }
                            (Some(_), false, _) => screened = true,
                        }
                        at = s.offset(df, dr);
                    }
                }
            }
        }
    }

    /// Moves of the side to move by the movement rules; some may leave its king attacked.
    pub fn pseudo_legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        for (s, c) in self.cells() {
            if c.color == self.side {
                self.piece_moves(s, &mut out);
            }
        }
        out
    }

    /// Whether the piece on `from` could move to `to` by its movement rules alone: the
    /// geometry written out, independently of the generator (the tests hold the two equal).
    pub fn reaches(&self, from: Square, to: Square) -> bool {
        let Some(cell) = self.cell(from) else {
            return false;
        };
        if from == to || self.cell(to).is_some_and(|c| c.color == cell.color) {
            return false;
        }
        let occupied = |s: Square| self.cell(s).is_some();
        let confined = self.confined(cell);
        xiangqi_rules::position::shape_reaches(cell.kind, cell.color, from, to, confined, occupied)
    }

    /// Whether `color`'s king is attacked: by a piece moving as it shows (a face-down piece as
    /// its role), or by the other king on an open file.
    pub fn in_check(&self, color: Color) -> bool {
        let k = self.king_square(color);
        let other = self.king_square(color.other());
        if k.file() == other.file() {
            let (lo, hi) = (k.rank().min(other.rank()), k.rank().max(other.rank()));
            let open = (lo + 1..hi)
                .all(|r| Square::new(k.file(), r).is_some_and(|s| self.cell(s).is_none()));
            if open {
                return true;
            }
        }
        self.cells()
            .any(|(s, c)| c.color != color && c.kind != Kind::King && self.reaches(s, k))
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.in_check(self.side)
    }

    /// Moves the piece without any check; a face-down piece keeps its role (legality does not
    /// depend on what it is).
    #[inline]
    fn put(&mut self, m: Move) -> Option<Cell> {
        let king = |c: &Cell| (c.kind == Kind::King).then_some(c.color);
        xiangqi_rules::position::shift(&mut self.board, &mut self.kings, m, king)
    }

    fn keeps_king_safe(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.put(m);
        !after.in_check(self.side)
    }

    /// Legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = self.pseudo_legal_moves();
        moves.retain(|&m| self.keeps_king_safe(m));
        moves
    }

    pub fn has_legal_move(&self) -> bool {
        self.pseudo_legal_moves()
            .into_iter()
            .any(|m| self.keeps_king_safe(m))
    }

    /// Checks one move of the side to move.
    pub fn check_move(&self, m: Move) -> Result<(), MoveError> {
        let cell = self.cell(m.from).ok_or(MoveError::NoPiece(m.from))?;
        if cell.color != self.side {
            return Err(MoveError::NotYourPiece(m.from));
        }
        if self.cell(m.to).is_some_and(|c| c.color == cell.color) {
            return Err(MoveError::OwnPieceOnTarget(m.to));
        }
        if !self.reaches(m.from, m.to) {
            return Err(MoveError::CannotReach {
                kind: cell.kind,
                from: m.from,
                to: m.to,
                blocked: xiangqi_rules::position::blocker(cell.kind, m.from, m.to, |s| {
                    self.cell(s).is_some()
                }),
            });
        }
        if !self.keeps_king_safe(m) {
            return Err(MoveError::KingLeftInCheck);
        }
        Ok(())
    }

    /// Plays a checked move; a face-down mover turns into `revealed`. Returns what was on the
    /// target (a face-down capture keeps its role: what it was is not the board's to know).
    pub fn make(&mut self, m: Move, revealed: Option<Kind>) -> Option<Cell> {
        let was_hidden = self.cell(m.from).is_some_and(|c| c.hidden);
        let captured = self.put(m);
        if let (true, Some(kind), Some(cell)) =
            (was_hidden, revealed, &mut self.board[m.to.index()])
        {
            cell.kind = kind;
            cell.hidden = false;
        }
        self.quiet = if captured.is_some() || was_hidden {
            0
        } else {
            self.quiet + 1
        };
        self.side = self.side.other();
        captured
    }

    /// The board and the side to move, for repetition.
    pub fn key(&self) -> ([Option<Cell>; SQUARES], Color) {
        (self.board, self.side)
    }
}
