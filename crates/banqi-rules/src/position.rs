//! The board, its pieces (face down or up), the moves a seat may make, and their effect.
//!
//! A square is `rank * 8 + file`: files a–h, ranks 1–4 (`a1` … `h4`). Seat 0 moves first; the
//! seats have no colour until the first piece is turned up.

use super::{ChariotRuns, Options, Ranking};
use std::fmt;
use xiangqi_rules::{Color, Kind, Piece};

pub const FILES: u8 = 8;
pub const RANKS: u8 = 4;
pub const SQUARES: usize = 32;

/// A square of the 4 × 8 board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < FILES && rank < RANKS).then_some(Square(rank * FILES + file))
    }

    pub fn from_index(i: usize) -> Option<Square> {
        (i < SQUARES).then_some(Square(i as u8))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn file(self) -> u8 {
        self.0 % FILES
    }

    pub fn rank(self) -> u8 {
        self.0 / FILES
    }

    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        ((0..FILES as i8).contains(&f) && (0..RANKS as i8).contains(&r))
            .then(|| Square((r * FILES as i8 + f) as u8))
    }

    /// `a1` … `h4`, either case.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().checked_sub(b'a')?;
        let rank = b[1].checked_sub(b'1')?;
        Square::new(file, rank)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// A piece lying face down: nobody at the board knows what it is.
    Down,
    Up(Piece),
}

impl Cell {
    /// `?` face down, else the FEN letter (red upper case).
    pub fn letter(self) -> char {
        match self {
            Cell::Down => '?',
            Cell::Up(p) => p.fen_char(),
        }
    }
}

/// A turn: turn a face-down piece up, move a face-up piece (a capture if the target is
/// occupied), or, with the chain-captures option, take several pieces in a row with one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Flip(Square),
    Move(Square, Square),
    Chain(Chain),
}

/// The squares of a chain of captures: where the piece starts, then each square it takes on
/// (two or more).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chain {
    squares: [Square; MAX_CHAIN],
    len: u8,
}

/// A chain's squares at most: the start and every enemy piece.
const MAX_CHAIN: usize = 17;

impl Chain {
    /// A chain from its squares: the start and two or more captures.
    pub fn new(squares: &[Square]) -> Option<Chain> {
        if !(3..=MAX_CHAIN).contains(&squares.len()) {
            return None;
        }
        let mut all = [Square(0); MAX_CHAIN];
        all[..squares.len()].copy_from_slice(squares);
        Some(Chain {
            squares: all,
            len: squares.len() as u8,
        })
    }

    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    /// The chain's moves in order, each from one square to the next.
    pub fn steps(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        self.squares().windows(2).map(|w| (w[0], w[1]))
    }
}

impl Action {
    /// Where the piece moved from and where it ended (none for a turn-up).
    pub fn from_to(&self) -> Option<(Square, Square)> {
        match self {
            Action::Flip(_) => None,
            Action::Move(a, b) => Some((*a, *b)),
            Action::Chain(c) => Some((c.squares()[0], c.squares()[c.len as usize - 1])),
        }
    }

    /// The square a turn-up turns, or the last square a move takes on: where a face-down
    /// piece's identity is needed, if any is.
    pub fn last_square(&self) -> Square {
        match self {
            Action::Flip(s) | Action::Move(_, s) => *s,
            Action::Chain(c) => c.squares()[c.len as usize - 1],
        }
    }

    /// The moves of a move or a chain, in order.
    pub fn steps(&self) -> Vec<(Square, Square)> {
        match self {
            Action::Flip(_) => Vec::new(),
            Action::Move(a, b) => vec![(*a, *b)],
            Action::Chain(c) => c.steps().collect(),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Flip(s) => write!(f, "{s}"),
            Action::Move(a, b) => write!(f, "{a}{b}"),
            Action::Chain(c) => c.squares().iter().try_for_each(|s| write!(f, "{s}")),
        }
    }
}

impl Action {
    /// `a1` (turn up), `a1a2`, `a1-a2` or `a1xa2` (move), `a1a3c3` or `a1xa3xc3` (a chain of
    /// captures), either case.
    pub fn parse(text: &str) -> Option<Action> {
        let t = text.trim();
        if let Some(s) = Square::parse(t) {
            return Some(Action::Flip(s));
        }
        let t: String = t
            .chars()
            .filter(|c| !matches!(c, '-' | 'x' | 'X'))
            .collect();
        if t.len() < 4 || !t.len().is_multiple_of(2) || !t.is_ascii() {
            return None;
        }
        let squares = (0..t.len())
            .step_by(2)
            .map(|i| Square::parse(&t[i..i + 2]))
            .collect::<Option<Vec<Square>>>()?;
        match squares[..] {
            [from, to] => Some(Action::Move(from, to)),
            _ => Chain::new(&squares).map(Action::Chain),
        }
    }
}

/// Banqi's ranks in the standard order: general 6, advisor 5, elephant 4, chariot 3, horse 2,
/// cannon 1, soldier 0.
pub fn rank_of(kind: Kind) -> u8 {
    rank_in(Ranking::Standard, kind)
}

/// A kind's rank in `ranking`, 6 highest.
pub const fn rank_in(ranking: Ranking, kind: Kind) -> u8 {
    match (ranking, kind) {
        (_, Kind::King) => 6,
        (_, Kind::Pawn) => 0,
        (Ranking::Standard, Kind::Advisor) => 5,
        (Ranking::Standard, Kind::Elephant) => 4,
        (Ranking::Standard, Kind::Chariot) => 3,
        (Ranking::Standard, Kind::Horse) => 2,
        (Ranking::Standard, Kind::Cannon) => 1,
        (Ranking::HongKong, Kind::Chariot) => 5,
        (Ranking::HongKong, Kind::Horse) => 4,
        (Ranking::HongKong, Kind::Cannon) => 3,
        (Ranking::HongKong, Kind::Elephant) => 2,
        (Ranking::HongKong, Kind::Advisor) => 1,
    }
}

/// `a horse`, `an elephant`.
fn with_article(name: &str) -> String {
    match name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        true => format!("an {name}"),
        false => format!("a {name}"),
    }
}

/// Banqi's names of the kinds.
pub fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::King => "general",
        Kind::Pawn => "soldier",
        other => other.name(),
    }
}

/// Whether `attacker` may take `target` by stepping onto it under the standard rules (a cannon
/// takes only by its jump): a higher or equal rank, except that the soldier takes the general
/// and the general does not take the soldier.
pub fn takes(attacker: Kind, target: Kind) -> bool {
    takes_under(&Options::default(), attacker, target)
}

/// Whether `attacker` may take `target` by stepping onto it (or, for a running chariot, by
/// running onto it) under `rules`.
pub fn takes_under(rules: &Options, attacker: Kind, target: Kind) -> bool {
    // Looked up: this is asked for every neighbour of every piece whenever turns are listed.
    TAKES[table_of(rules)][attacker as usize][target as usize]
}

/// The take tables: by ranking (standard, Hong Kong) and the older cannon (off, on), the
/// attacker's kind, the target's kind.
const TAKES: [[[bool; 7]; 7]; 4] = {
    let mut t = [[[false; 7]; 7]; 4];
    let mut i = 0;
    while i < 4 {
        let ranking = if i < 2 {
            Ranking::Standard
        } else {
            Ranking::HongKong
        };
        let adjacent_cannon = i % 2 == 1;
        let mut a = 0;
        while a < 7 {
            let mut b = 0;
            while b < 7 {
                t[i][a][b] = takes_rule(ranking, adjacent_cannon, Kind::ALL[a], Kind::ALL[b]);
                b += 1;
            }
            a += 1;
        }
        i += 1;
    }
    t
};

/// The index of `rules` in [`TAKES`].
fn table_of(rules: &Options) -> usize {
    2 * (rules.ranking == Ranking::HongKong) as usize + rules.cannon_takes_adjacent as usize
}

/// The rule [`TAKES`] tabulates.
const fn takes_rule(ranking: Ranking, adjacent_cannon: bool, attacker: Kind, target: Kind) -> bool {
    let (a, t) = (rank_in(ranking, attacker), rank_in(ranking, target));
    match (ranking, attacker, target) {
        (_, Kind::Pawn, Kind::King) => true,
        // The standard cannon takes by its jump; the older table lets it step onto a piece of
        // rank 1 or lower as well.
        (Ranking::Standard, Kind::Cannon, _) => adjacent_cannon && t <= 1,
        (Ranking::Standard, Kind::King, Kind::Pawn) => false,
        _ => a >= t,
    }
}

/// Whether a cannon takes by jumping over one piece under `rules` (the standard ranking's
/// cannon; the Hong Kong ranking's cannon steps like every piece).
fn cannon_jumps(rules: &Options) -> bool {
    rules.ranking == Ranking::Standard
}

/// Why an action is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

const STEPS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// A position: the squares, the seat to move and each seat's colour once the first piece is up.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    cells: [Option<Cell>; SQUARES],
    /// The seat to move: 0 or 1.
    pub to_move: usize,
    /// Each seat's colour, from the first piece turned up on.
    pub colours: Option<[Color; 2]>,
    /// Plies since the last capture or piece turned up.
    pub quiet: u32,
    /// How many pieces of each colour (red, black) have been taken.
    pub taken: [u8; 2],
    /// The rules the game was made with (how pieces move and take).
    pub rules: Options,
}

impl Position {
    /// Every square holds a face-down piece; seat 0 to move.
    pub fn start(rules: Options) -> Position {
        Position {
            cells: [Some(Cell::Down); SQUARES],
            to_move: 0,
            colours: None,
            quiet: 0,
            taken: [0, 0],
            rules,
        }
    }

    /// Whether two positions repeat each other: the same pieces on the same squares and the
    /// same seat to move (colours and the taken pieces cannot change without a turn-up or a
    /// capture, which no repetition crosses).
    pub fn repeats(&self, other: &Position) -> bool {
        self.to_move == other.to_move && self.cells == other.cells
    }

    /// A position drawn as ranks 4 to 1 (`rows[0]` is rank 4), files a to h: a FEN letter,
    /// `?` face down, `.` empty. For tests written from the rule texts' diagrams.
    #[cfg(test)]
    pub fn from_rows(
        rows: [&str; 4],
        to_move: usize,
        colours: [Color; 2],
        rules: Options,
    ) -> Position {
        let mut p = Position::start(rules);
        for (r, row) in rows.iter().enumerate() {
            for (f, c) in row.chars().enumerate() {
                let s = Square::new(f as u8, 3 - r as u8).expect("a square of the board");
                p.cells[s.index()] = match c {
                    '.' => None,
                    '?' => Some(Cell::Down),
                    c => Some(Cell::Up(Piece::from_fen_char(c).expect("a piece letter"))),
                };
            }
        }
        p.to_move = to_move;
        p.colours = Some(colours);
        p
    }

    pub fn cell(&self, s: Square) -> Option<Cell> {
        self.cells[s.index()]
    }

    /// The colour of `seat`, once decided.
    pub fn colour_of(&self, seat: usize) -> Option<Color> {
        self.colours.map(|c| c[seat])
    }

    /// Pieces of `color` still in play, face up or (for the judge, who knows) face down: the
    /// face-up ones here; face-down ones are counted by [`super::Game`].
    pub fn face_up_of(&self, color: Color) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c, Some(Cell::Up(p)) if p.color == color))
            .count()
    }

    pub fn face_down(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c, Some(Cell::Down)))
            .count()
    }

    /// The square a cannon on `from` takes in direction `(df, dr)`: the first occupied square
    /// after exactly one occupied square (the screen).
    fn jump_target(&self, from: Square, (df, dr): (i8, i8)) -> Option<Square> {
        let mut s = from;
        let mut screened = false;
        while let Some(next) = s.offset(df, dr) {
            s = next;
            if self.cell(s).is_some() {
                if screened {
                    return Some(s);
                }
                screened = true;
            }
        }
        None
    }

    /// Every legal action of the seat to move, flips first, in square order.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out: Vec<Action> = Square::all()
            .filter(|&s| self.cell(s) == Some(Cell::Down))
            .map(Action::Flip)
            .collect();
        for from in Square::all() {
            for to in self.targets(from) {
                out.push(Action::Move(from, to));
                if self.rules.chain_captures && matches!(self.cell(to), Some(Cell::Up(_))) {
                    let mut after = self.clone();
                    after.step(from, to);
                    let start = [from, to];
                    after.extend_chains(&start, &mut out);
                }
            }
        }
        out
    }

    /// With the piece that took on `path`'s last square, every further capture (a face-up
    /// enemy piece; a face-down one ends the chain) as a longer chain, depth first.
    fn extend_chains(&self, path: &[Square], out: &mut Vec<Action>) {
        let at = path[path.len() - 1];
        for to in self.targets(at) {
            let Some(taken) = self.cell(to) else {
                continue;
            };
            let mut longer = path.to_vec();
            longer.push(to);
            let Some(chain) = Chain::new(&longer) else {
                continue;
            };
            out.push(Action::Chain(chain));
            if taken != Cell::Down {
                let mut after = self.clone();
                after.step(at, to);
                after.extend_chains(&longer, out);
            }
        }
    }

    /// Moves the piece on `from` to `to` (the mover stays the same: a chain's next step).
    fn step(&mut self, from: Square, to: Square) {
        self.cells[to.index()] = self.cells[from.index()].take();
    }

    /// Whether the seat to move has any legal action.
    pub fn has_legal_action(&self) -> bool {
        self.face_down() > 0 || Square::all().any(|s| !self.targets(s).is_empty())
    }

    /// Where the mover's face-up piece on `from` may go.
    fn targets(&self, from: Square) -> Vec<Square> {
        let Some(Cell::Up(p)) = self.cell(from) else {
            return Vec::new();
        };
        if Some(p.color) != self.colour_of(self.to_move) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let runs = p.kind == Kind::Chariot && self.rules.chariot_runs.runs();
        for step in STEPS {
            let mut at = from;
            while let Some(to) = at.offset(step.0, step.1) {
                match self.cell(to) {
                    None => out.push(to),
                    Some(Cell::Up(t)) if self.can_take(p, t) => {
                        out.push(to);
                        break;
                    }
                    _ => break,
                }
                if !runs {
                    break;
                }
                at = to;
            }
            if p.kind == Kind::Cannon && cannon_jumps(&self.rules) {
                match self.jump_target(from, step).map(|s| (s, self.cell(s))) {
                    Some((to, Some(Cell::Up(t)))) if t.color != p.color => out.push(to),
                    Some((to, Some(Cell::Down))) if self.rules.cannon_takes_face_down => {
                        out.push(to)
                    }
                    _ => {}
                }
            }
        }
        // A cannon's jump lands two or more squares away, never on a step's square.
        out.sort();
        out
    }

    /// Where the piece on `from` may go if its seat were to move (the long-chase rule's
    /// threats).
    pub fn targets_of(&self, from: Square) -> Vec<Square> {
        self.targets(from)
    }

    /// Whether `p` takes the face-up `t` by stepping (or running) onto it: a running chariot
    /// of the house rule takes any enemy piece, the others as their rank allows.
    fn can_take(&self, p: Piece, t: Piece) -> bool {
        let free = p.kind == Kind::Chariot && self.rules.chariot_runs == ChariotRuns::Free;
        t.color != p.color && (free || takes_under(&self.rules, p.kind, t.kind))
    }

    /// The enemy face-up pieces the seat `seat`'s pieces could take if it were to move: the
    /// squares they stand on.
    pub fn threatened_by(&self, seat: usize) -> Vec<Square> {
        let mut as_mover = self.clone();
        as_mover.to_move = seat;
        let mut out: Vec<Square> = Square::all()
            .flat_map(|s| as_mover.targets(s))
            .filter(|&t| matches!(self.cell(t), Some(Cell::Up(_))))
            .collect();
        // A cannon's jump lands two or more squares away, never on a step's square.
        out.sort();
        out
    }

    /// Checks an action against the rules, with the reason it is refused.
    pub fn check(&self, action: Action) -> Result<(), Refused> {
        let no = |why: String| Err(Refused(why));
        match action {
            Action::Chain(chain) => {
                if !self.rules.chain_captures {
                    return no(format!(
                        "{action}: one move a turn (the rule option chain-captures is off)"
                    ));
                }
                let mut now = self.clone();
                let steps: Vec<(Square, Square)> = chain.steps().collect();
                for (i, &(from, to)) in steps.iter().enumerate() {
                    now.check(Action::Move(from, to))
                        .map_err(|e| Refused(format!("{from}{to}: {e}")))?;
                    match now.cell(to) {
                        None => {
                            return no(format!(
                                "{from}{to}: every move of a chain takes a piece, and {to} is empty"
                            ))
                        }
                        Some(Cell::Down) if i + 1 < steps.len() => {
                            return no(format!(
                                "{from}{to}: a chain ends with a face-down piece taken"
                            ))
                        }
                        _ => {}
                    }
                    now.step(from, to);
                }
                Ok(())
            }
            Action::Flip(s) => match self.cell(s) {
                Some(Cell::Down) => Ok(()),
                Some(Cell::Up(_)) => no(format!("the piece on {s} is already face up")),
                None => no(format!("there is no piece on {s} to turn up")),
            },
            Action::Move(from, to) => {
                let p = match self.cell(from) {
                    None => return no(format!("there is no piece on {from}")),
                    Some(Cell::Down) => {
                        return no(format!(
                            "the piece on {from} is face down: turn it up first (write {from})"
                        ))
                    }
                    Some(Cell::Up(p)) => p,
                };
                if Some(p.color) != self.colour_of(self.to_move) {
                    return no(format!("the {} on {from} is not yours", piece_name(p)));
                }
                if self.targets(from).contains(&to) {
                    return Ok(());
                }
                let adjacent = STEPS
                    .iter()
                    .any(|&(df, dr)| from.offset(df, dr) == Some(to));
                let why = match self.cell(to) {
                    _ if from == to => "a piece must move".to_string(),
                    Some(Cell::Up(t)) if t.color == p.color => {
                        format!("{to} holds your own {}", kind_name(t.kind))
                    }
                    Some(Cell::Down) if p.kind == Kind::Cannon => {
                        "a face-down piece cannot be taken (the rule option cannon-takes-face-down is off)".to_string()
                    }
                    Some(Cell::Down) => "a face-down piece cannot be taken".to_string(),
                    Some(Cell::Up(t)) if p.kind == Kind::Cannon && adjacent => format!(
                        "a cannon takes only by jumping over exactly one piece, not the {} beside it",
                        piece_name(t)
                    ),
                    Some(Cell::Up(t)) if p.kind == Kind::Cannon => format!(
                        "a cannon takes by jumping over exactly one piece: not so from {from} to the {} on {to}",
                        piece_name(t)
                    ),
                    Some(Cell::Up(t)) if adjacent || self.runs_to(from, to) => format!(
                        "{} cannot take {}{}",
                        with_article(kind_name(p.kind)),
                        with_article(kind_name(t.kind)),
                        match self.rules.ranking {
                            Ranking::Standard => "",
                            Ranking::HongKong => " (the Hong Kong ranking)",
                        }
                    ),
                    _ if p.kind == Kind::Chariot && self.rules.chariot_runs.runs() => format!(
                        "a chariot runs along a rank or file over empty squares: not so from {from} to {to}"
                    ),
                    _ => format!(
                        "a {} moves one square up, down, left or right",
                        kind_name(p.kind)
                    ),
                };
                no(why)
            }
        }
    }

    /// Whether a running chariot on `from` reaches `to` along a rank or file over empty squares.
    fn runs_to(&self, from: Square, to: Square) -> bool {
        if !(self.rules.chariot_runs.runs()
            && matches!(self.cell(from), Some(Cell::Up(p)) if p.kind == Kind::Chariot))
        {
            return false;
        }
        STEPS.iter().any(|&(df, dr)| {
            let mut s = from;
            while let Some(next) = s.offset(df, dr) {
                if next == to {
                    return true;
                }
                if self.cell(next).is_some() {
                    return false;
                }
                s = next;
            }
            false
        })
    }

    /// Plays a checked action. A flip, and a cannon taking a face-down piece, need what the
    /// piece is (`identity`). Returns what was taken, as it was, in order.
    pub fn apply(&mut self, action: Action, identity: Option<Piece>) -> Vec<Piece> {
        let mut captured = Vec::new();
        match action {
            Action::Chain(chain) => {
                for (from, to) in chain.steps() {
                    captured.extend(match self.cell(to) {
                        Some(Cell::Up(p)) => Some(p),
                        Some(Cell::Down) => identity,
                        None => None,
                    });
                    self.step(from, to);
                }
            }
            Action::Flip(s) => {
                let p = identity.expect("a flip needs the piece's identity");
                self.cells[s.index()] = Some(Cell::Up(p));
                if self.colours.is_none() {
                    let mine = p.color;
                    let mut c = [mine, mine.other()];
                    if self.to_move == 1 {
                        c.swap(0, 1);
                    }
                    self.colours = Some(c);
                }
            }
            Action::Move(from, to) => {
                captured.extend(match self.cell(to) {
                    Some(Cell::Up(p)) => Some(p),
                    Some(Cell::Down) => identity,
                    None => None,
                });
                self.step(from, to);
            }
        }
        for p in &captured {
            self.taken[p.color as usize] += 1;
        }
        let reset = matches!(action, Action::Flip(_)) || !captured.is_empty();
        self.quiet = if reset { 0 } else { self.quiet + 1 };
        self.to_move = 1 - self.to_move;
        captured
    }

    /// The board as text: ranks 4 to 1 separated by `/`, `?` face down, letters, digits for
    /// empty squares; then the seat to move (`0` or `1`) and the colours (`rb`, `br` or `-`).
    pub fn text(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..RANKS).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..FILES {
                match Square::new(file, rank).and_then(|s| self.cell(s)) {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(c.letter());
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let colours = match self.colours {
            None => "-".to_string(),
            Some(c) => c.iter().map(|c| &c.name()[..1]).collect(),
        };
        format!("{} {} {colours}", rows.join("/"), self.to_move)
    }

    /// Ranks 4 to 1, files a to h: a cell's letter, `.` for an empty square.
    pub fn rows(&self) -> Vec<String> {
        (0..RANKS)
            .rev()
            .map(|rank| {
                (0..FILES)
                    .map(|file| {
                        Square::new(file, rank)
                            .and_then(|s| self.cell(s))
                            .map_or('.', Cell::letter)
                    })
                    .collect()
            })
            .collect()
    }
}

/// `red general`, `black soldier`.
pub fn piece_name(p: Piece) -> String {
    format!("{} {}", p.color.name(), kind_name(p.kind))
}
