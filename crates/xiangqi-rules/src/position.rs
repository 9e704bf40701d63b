//! A validated position: the board, the side to move and the counters of a FEN; move generation,
//! an independent single-move check, check detection and perft.

use super::board::{reachable, Color, Kind, Piece, Square, LEG, LINE, SQUARES, TABLES};
use std::fmt;

/// A move from one point to another. Captures are implied by the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl fmt::Display for Move {
    /// ICCS / UCCI coordinates, `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    NoPiece(Square),
    NotYourPiece(Square),
    OwnPieceOnTarget(Square),
    /// The piece cannot go there (its movement rules, a blocked leg or eye, a missing screen).
    CannotReach {
        kind: Kind,
        from: Square,
        to: Square,
        /// The horse's leg or the elephant's eye that blocks the move, when one does.
        blocked: Option<Square>,
    },
    /// The move would leave the mover's king attacked (flying general included).
    KingLeftInCheck,
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NoPiece(s) => write!(f, "there is no piece on {s}"),
            MoveError::NotYourPiece(s) => write!(f, "the piece on {s} belongs to the opponent"),
            MoveError::OwnPieceOnTarget(s) => {
                write!(f, "{s} is occupied by one of your own pieces")
            }
            MoveError::CannotReach {
                kind,
                from,
                to,
                blocked,
            } => {
                let name = kind.name();
                let article = match name.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    true => "an",
                    false => "a",
                };
                write!(f, "{article} {name} cannot move from {from} to {to}")?;
                match (kind, blocked) {
                    (Kind::Horse, Some(s)) => write!(f, ": its leg at {s} is blocked"),
                    (Kind::Elephant, Some(s)) => write!(f, ": its eye at {s} is blocked"),
                    _ => Ok(()),
                }
            }
            MoveError::KingLeftInCheck => write!(f, "the move leaves your own king in check"),
            MoveError::GameOver => write!(f, "the game is over"),
        }
    }
}

/// The point that blocks a horse's or an elephant's move of the right shape (its leg or its
/// eye), if a piece stands there; none for other pieces and other shapes.
pub fn blocker(
    kind: Kind,
    from: Square,
    to: Square,
    occupied: impl Fn(Square) -> bool,
) -> Option<Square> {
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    let point = match (kind, df.abs(), dr.abs()) {
        (Kind::Horse, 1, 2) => from.offset(0, dr / 2),
        (Kind::Horse, 2, 1) => from.offset(df / 2, 0),
        (Kind::Elephant, 2, 2) => from.offset(df / 2, dr / 2),
        _ => None,
    }?;
    occupied(point).then_some(point)
}

/// Why a FEN does not describe a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    KingCount {
        color: Color,
        count: usize,
    },
    TooMany {
        color: Color,
        kind: Kind,
        count: usize,
    },
    Unreachable {
        piece: char,
        square: Square,
    },
    /// The side that is not to move is in check (flying general included).
    OpponentInCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KingCount { color, count } => {
                write!(f, "{} has {count} kings (exactly 1 needed)", color.name())
            }
            PositionError::TooMany { color, kind, count } => write!(
                f,
                "{} has {count} pieces of kind {} (at most {})",
                color.name(),
                kind.name(),
                kind.max_count()
            ),
            PositionError::Unreachable { piece, square } => {
                write!(f, "piece {piece} can never stand on {square}")
            }
            PositionError::OpponentInCheck => {
                write!(f, "the side not to move is in check")
            }
        }
    }
}

/// A fixed-capacity move list (no allocation in move generation).
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; 128],
}

impl MoveList {
    pub fn new() -> MoveList {
        let zero = Move {
            from: Square::new(0, 0).expect("a0"),
            to: Square::new(0, 0).expect("a0"),
        };
        MoveList {
            len: 0,
            moves: [zero; 128],
        }
    }

    fn push(&mut self, from: usize, to: usize) {
        // 128 is above the most moves any Xiangqi position has (the known maximum is about 100).
        if self.len < self.moves.len() {
            self.moves[self.len] = Move {
                from: sq(from),
                to: sq(to),
            };
            self.len += 1;
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.as_slice().iter().copied()
    }

    fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

fn sq(i: usize) -> Square {
    Square::from_index(i).expect("square index from the tables")
}

/// The pieces on the board, the side to move and the FEN counters.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; SQUARES],
    side: Color,
    kings: [u8; 2],
    /// Plies since the last capture.
    pub halfmove: u32,
    /// Move number, starting at 1 and increased after Black's move.
    pub fullmove: u32,
}

/// What [`Position::make`] returns so the move can be taken back.
#[derive(Clone, Copy)]
pub struct Undo {
    m: Move,
    captured: Option<Piece>,
    halfmove: u32,
    fullmove: u32,
}

impl Undo {
    pub fn captured(&self) -> Option<Piece> {
        self.captured
    }
}

impl Position {
    /// Builds a position from pieces, checking what makes it legal.
    pub fn from_parts(
        pieces: &[(Square, Piece)],
        side: Color,
        halfmove: u32,
        fullmove: u32,
    ) -> Result<Position, Vec<PositionError>> {
        let mut board = [None; SQUARES];
        let mut problems = Vec::new();
        let mut counts = [[0usize; 7]; 2];
        let mut kings = [0u8; 2];
        for &(square, piece) in pieces {
            board[square.index()] = Some(piece);
            counts[piece.color.index()][piece.kind as usize] += 1;
            if piece.kind == Kind::King {
                kings[piece.color.index()] = square.index() as u8;
            }
            if !reachable(piece, square) {
                problems.push(PositionError::Unreachable {
                    piece: piece.fen_char(),
                    square,
                });
            }
        }
        for color in [Color::Red, Color::Black] {
            for kind in Kind::ALL {
                let count = counts[color.index()][kind as usize];
                if kind == Kind::King && count != 1 {
                    problems.push(PositionError::KingCount { color, count });
                } else if count > kind.max_count() {
                    problems.push(PositionError::TooMany { color, kind, count });
                }
            }
        }
        let position = Position {
            board,
            side,
            kings,
            halfmove,
            fullmove: fullmove.max(1),
        };
        if problems.is_empty() && position.in_check(side.other()) {
            problems.push(PositionError::OpponentInCheck);
        }
        if problems.is_empty() {
            Ok(position)
        } else {
            Err(problems)
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        self.board[s.index()]
    }

    pub fn king_square(&self, color: Color) -> Square {
        sq(self.kings[color.index()] as usize)
    }

    /// Every piece with its square, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..SQUARES).filter_map(|i| self.board[i].map(|p| (sq(i), p)))
    }

    /// Whether `color`'s king is attacked (by a piece, or facing the other king).
    pub fn in_check(&self, color: Color) -> bool {
        let k = self.kings[color.index()] as usize;
        let enemy = color.other();
        let t = &TABLES;
        for ray in &t.rays[k] {
            let mut screened = false;
            for s in ray.iter() {
                if let Some(p) = self.board[s] {
                    if !screened {
                        if p.color == enemy && matches!(p.kind, Kind::Chariot | Kind::King) {
                            return true;
                        }
                        screened = true;
                    } else {
                        if p.color == enemy && p.kind == Kind::Cannon {
                            return true;
                        }
                        break;
                    }
                }
            }
        }
        for (h, leg) in t.horse_to[k].iter() {
            if self.board[leg].is_none() && self.board[h] == Some(Piece::new(enemy, Kind::Horse)) {
                return true;
            }
        }
        let pawn = Some(Piece::new(enemy, Kind::Pawn));
        let kq = sq(k);
        // An enemy pawn attacks from in front of the king (from its point of view, behind) or
        // beside it; next to a palace every enemy pawn has crossed the river.
        [
            kq.offset(0, color.forward()),
            kq.offset(1, 0),
            kq.offset(-1, 0),
        ]
        .into_iter()
        .flatten()
        .any(|s| self.board[s.index()] == pawn)
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.in_check(self.side)
    }

    /// Moves of the piece on `from` by its movement rules, ignoring whose turn it is and the
    /// safety of its king.
    pub fn piece_moves(&self, from: usize, out: &mut MoveList) {
        let Some(piece) = self.board[from] else {
            return;
        };
        let t = &TABLES;
        let own = piece.color;
        let free = |s: usize| self.board[s].is_none_or(|p| p.color != own);
        match piece.kind {
            Kind::King => {
                for (s, _) in t.king[from].iter() {
                    if free(s) {
                        out.push(from, s);
                    }
                }
            }
            Kind::Advisor => {
                for (s, _) in t.advisor[from].iter() {
                    if free(s) {
                        out.push(from, s);
                    }
                }
            }
            Kind::Elephant => {
                for (s, eye) in t.elephant[from].iter() {
                    if self.board[eye].is_none() && free(s) {
                        out.push(from, s);
                    }
                }
            }
            Kind::Horse => {
                for (s, leg) in t.horse[from].iter() {
                    if self.board[leg].is_none() && free(s) {
                        out.push(from, s);
                    }
                }
            }
            Kind::Pawn => {
                for (s, _) in t.pawn[own.index()][from].iter() {
                    if free(s) {
                        out.push(from, s);
                    }
                }
            }
            Kind::Chariot => {
                for ray in &t.rays[from] {
                    for s in ray.iter() {
                        match self.board[s] {
                            None => out.push(from, s),
                            Some(p) => {
                                if p.color != own {
                                    out.push(from, s);
                                }
                                break;
                            }
                        }
                    }
                }
            }
            Kind::Cannon => {
                for ray in &t.rays[from] {
                    let mut screened = false;
                    for s in ray.iter() {
                        match (self.board[s], screened) {
                            (None, false) => out.push(from, s),
                            (None, true) => {}
                            (Some(_), false) => screened = true,
                            (Some(p), true) => {
                                if p.color != own {
                                    out.push(from, s);
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Moves of the side to move by the movement rules, some of which may leave the king attacked.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        for from in 0..SQUARES {
            if self.board[from].is_some_and(|p| p.color == self.side) {
                self.piece_moves(from, &mut out);
            }
        }
        out
    }

    /// Whether making `m` (by the colour of the piece on its `from`) keeps that colour's king safe.
    pub fn keeps_king_safe(&self, m: Move) -> bool {
        let Some(piece) = self.board[m.from.index()] else {
            return false;
        };
        let mut after = self.clone();
        after.put(m);
        !after.in_check(piece.color)
    }

    /// Legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = self.pseudo_legal_moves();
        let mut scratch = self.clone();
        let in_check = self.in_check(self.side);
        list.retain(|m| scratch.is_safe(m, in_check));
        list
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let list = self.pseudo_legal_moves();
        let mut scratch = self.clone();
        let in_check = self.in_check(self.side);
        let found = list.iter().any(|m| scratch.is_safe(m, in_check));
        found
    }

    /// Checks one move, written independently of the generator: the conformance tests hold the
    /// two equal.
    pub fn check_move(&self, m: Move) -> Result<(), MoveError> {
        let piece = self.piece_at(m.from).ok_or(MoveError::NoPiece(m.from))?;
        if piece.color != self.side {
            return Err(MoveError::NotYourPiece(m.from));
        }
        let target = self.piece_at(m.to);
        if target.is_some_and(|p| p.color == piece.color) {
            return Err(MoveError::OwnPieceOnTarget(m.to));
        }
        let occupied = |s: Square| self.piece_at(s).is_some();
        let reach = shape_reaches(piece.kind, piece.color, m.from, m.to, true, occupied);
        if !reach {
            return Err(MoveError::CannotReach {
                kind: piece.kind,
                from: m.from,
                to: m.to,
                blocked: blocker(piece.kind, m.from, m.to, |s| self.piece_at(s).is_some()),
            });
        }
        let mut after = self.clone();
        after.put(m);
        if after.in_check(piece.color) {
            return Err(MoveError::KingLeftInCheck);
        }
        Ok(())
    }

    /// Moves the piece without any check (the side to move is not changed).
    #[inline]
    fn put(&mut self, m: Move) -> Option<Piece> {
        let king = |p: &Piece| (p.kind == Kind::King).then_some(p.color);
        shift(&mut self.board, &mut self.kings, m, king)
    }

    /// Plays a move assumed legal and returns what [`Position::unmake`] needs.
    pub fn make(&mut self, m: Move) -> Undo {
        let undo = Undo {
            m,
            captured: self.board[m.to.index()],
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        };
        self.put(m);
        self.halfmove = if undo.captured.is_some() {
            0
        } else {
            self.halfmove + 1
        };
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.other();
        undo
    }

    /// Takes back a move made with [`Position::make`].
    pub fn unmake(&mut self, undo: Undo) {
        self.side = self.side.other();
        let m = undo.m;
        let piece = self.board[m.to.index()];
        self.board[m.from.index()] = piece;
        self.board[m.to.index()] = undo.captured;
        if let Some(p) = piece {
            if p.kind == Kind::King {
                self.kings[p.color.index()] = m.from.index() as u8;
            }
        }
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
    }

    /// Plays a legal move, or returns why it is refused (the position is unchanged).
    pub fn play(&mut self, m: Move) -> Result<Undo, MoveError> {
        self.check_move(m)?;
        Ok(self.make(m))
    }

    /// Whether the pseudo-legal move `m` of the side to move leaves its own king unattacked.
    /// Out of check, and for a king move, by trying the move; otherwise by looking only where
    /// a move of another piece can open an attack on its king: along the king's rank or file
    /// through the point it leaves (a chariot, the other king, a cannon behind) or the point it
    /// takes (a new cannon screen), and from the horses whose leg is the point it leaves.
    pub fn is_safe(&mut self, m: Move, in_check: bool) -> bool {
        let side = self.side;
        let king = self.kings[side.index()] as usize;
        let (from, to) = (m.from.index(), m.to.index());
        if in_check || from == king {
            let undo = self.make(m);
            let safe = !self.in_check(side);
            self.unmake(undo);
            return safe;
        }
        let toward = &TABLES.toward[king];
        let (from_way, to_way) = (toward[from], toward[to]);
        if from_way == 0 && (to_way == 0 || to_way == LEG) {
            return true;
        }
        let line = |way: u8| (LINE..LEG).contains(&way).then(|| usize::from(way - LINE));
        let from_line = line(from_way);
        let to_line = line(to_way).filter(|d| Some(*d) != from_line);
        let leg = from_way == LEG;
        let captured = self.board[to];
        self.board[to] = self.board[from];
        self.board[from] = None;
        let enemy = side.other();
        let safe = from_line.is_none_or(|d| !self.attacked_along(king, d, enemy))
            && to_line.is_none_or(|d| !self.attacked_along(king, d, enemy))
            && !(leg && self.horse_through(king, from, enemy));
        self.board[from] = self.board[to];
        self.board[to] = captured;
        safe
    }

    /// Whether `enemy` attacks `king` along the ray in direction `d` from it: the first piece
    /// an enemy chariot or king (the flying general), the second an enemy cannon.
    fn attacked_along(&self, king: usize, d: usize, enemy: Color) -> bool {
        let mut screened = false;
        for s in TABLES.rays[king][d].iter() {
            if let Some(p) = self.board[s] {
                if screened {
                    return p.color == enemy && p.kind == Kind::Cannon;
                }
                if p.color == enemy && matches!(p.kind, Kind::Chariot | Kind::King) {
                    return true;
                }
                screened = true;
            }
        }
        false
    }

    /// Whether an enemy horse attacks `king` with its leg on `leg` (now empty).
    fn horse_through(&self, king: usize, leg: usize, enemy: Color) -> bool {
        let horse = Some(Piece::new(enemy, Kind::Horse));
        TABLES.horse_to[king]
            .iter()
            .any(|(h, l)| l == leg && self.board[h] == horse)
    }

    /// Counts the leaf nodes of the legal-move tree `depth` plies deep.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.pseudo_legal_moves();
        let in_check = self.in_check(self.side);
        let mut nodes = 0;
        for m in moves.iter() {
            if !self.is_safe(m, in_check) {
                continue;
            }
            nodes += match depth {
                1 => 1,
                _ => {
                    let undo = self.make(m);
                    let below = self.perft(depth - 1);
                    self.unmake(undo);
                    below
                }
            };
        }
        nodes
    }

    /// Perft split by first move, in move order.
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let moves = self.legal_moves();
        moves
            .iter()
            .map(|m| {
                let undo = self.make(m);
                let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
                self.unmake(undo);
                (m, n)
            })
            .collect()
    }

    /// The board and side to move, for repetition (the counters are not part of it).
    pub fn key(&self) -> ([Option<Piece>; SQUARES], Color) {
        (self.board, self.side)
    }
}

/// Whether a piece of `kind` and `color` reaches `to` from `from` by the shape of its move
/// alone (`occupied`: whether a point holds a piece; `confined`: advisors and elephants keep
/// to their palace and side, as in Xiangqi): the geometry written out, independently of the
/// move generator (Xiangqi's and Jieqi's; the tests hold the two equal).
pub fn shape_reaches(
    kind: Kind,
    color: Color,
    from: Square,
    to: Square,
    confined: bool,
    occupied: impl Fn(Square) -> bool,
) -> bool {
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    let empty = |df: i8, dr: i8| from.offset(df, dr).is_some_and(|s| !occupied(s));
    let between = || -> usize {
        let steps = df.abs().max(dr.abs());
        let (sf, sr) = (df.signum(), dr.signum());
        (1..steps).filter(|&i| !empty(sf * i, sr * i)).count()
    };
    match kind {
        Kind::King => df.abs() + dr.abs() == 1 && to.in_palace_of(color),
        Kind::Advisor => df.abs() == 1 && dr.abs() == 1 && (!confined || to.in_palace_of(color)),
        Kind::Elephant => {
            df.abs() == 2
                && dr.abs() == 2
                && empty(df / 2, dr / 2)
                && (!confined || to.on_side_of(color))
        }
        Kind::Horse => {
            (df.abs() == 1 && dr.abs() == 2 && empty(0, dr / 2))
                || (df.abs() == 2 && dr.abs() == 1 && empty(df / 2, 0))
        }
        Kind::Chariot => (df == 0) != (dr == 0) && between() == 0,
        Kind::Cannon => {
            (df == 0) != (dr == 0)
                && if occupied(to) {
                    between() == 1
                } else {
                    between() == 0
                }
        }
        Kind::Pawn => {
            (df == 0 && dr == color.forward())
                || (dr == 0 && df.abs() == 1 && !from.on_side_of(color))
        }
    }
}

/// Moves what stands on `m.from` to `m.to` without any check, keeping the kings' points
/// (`king`: the colour of a king); gives what stood on `m.to` (Xiangqi's and Jieqi's boards).
#[inline]
pub fn shift<T>(
    board: &mut [Option<T>; SQUARES],
    kings: &mut [u8; 2],
    m: Move,
    king: impl Fn(&T) -> Option<Color>,
) -> Option<T> {
    let piece = board[m.from.index()].take();
    if let Some(color) = piece.as_ref().and_then(&king) {
        kings[color.index()] = m.to.index() as u8;
    }
    std::mem::replace(&mut board[m.to.index()], piece)
}
