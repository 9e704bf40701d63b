//! A game in progress: where every piece stands, whose turn it is, and how moves change it.
//! Move generation ([`Position::legal_moves`]) and the single-move check
//! ([`Position::check_move`]) are written independently and tested to agree.

use super::board::{Board, NodeKind, RayOrder, Seat, Square};
use super::combat;
use super::event::{EndReason, Event, Fact, GameResult, Outcome};
use super::nodeset::NodeSet;
use super::options::{NoLegalMove, Options, RailMovement, Visibility, WinCondition};
use super::piece::Piece;
use super::setup::Setup;
use std::fmt;

/// A piece and its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub seat: Seat,
    pub piece: Piece,
}

/// A move from one node to another; the path is never part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    /// Reads `from-to` (`a6-a9`); a dash as word processors write it (`a6–a9`, `a6—a9`) or a
    /// space (`a6 a9`) reads the same.
    pub fn parse<S: NodeSet>(text: &str, board: &Board<S>) -> Result<Move, MoveError> {
        let t = text.trim();
        let dashed: String = t
            .chars()
            .map(|c| match c {
                '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
                c => c,
            })
            .collect();
        let split = match dashed.split_once('-') {
            Some(parts) => Some(parts),
            None => dashed
                .split_once(char::is_whitespace)
                .filter(|(_, to)| !to.trim().contains(char::is_whitespace)),
        };
        let (from, to) = split.ok_or(MoveError::Syntax(t.to_string()))?;
        let square = |s: &str| {
            board
                .square(s.trim())
                .ok_or_else(|| MoveError::NoSuchSquare {
                    name: s.trim().to_string(),
                    names: board.naming(),
                })
        };
        let mv = Move {
            from: square(from)?,
            to: square(to)?,
        };
        if mv.from == mv.to {
            return Err(MoveError::Syntax(t.to_string()));
        }
        Ok(mv)
    }

    /// Prints `from-to`.
    pub fn display<S: NodeSet>(self, board: &Board<S>) -> String {
        format!("{}-{}", board.name_of(self.from), board.name_of(self.to))
    }
}

/// Why a move is refused. Every reason rests on public facts or the mover's own pieces, so
/// telling it to the mover reveals nothing the mover did not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    Syntax(String),
    /// A name that is none of the board's, and how the board's squares are named.
    NoSuchSquare {
        name: String,
        names: String,
    },
    GameOver,
    /// A seat that is out of the four-player game.
    Out {
        seat: String,
    },
    NotYourPiece {
        from: String,
    },
    Immobile {
        from: String,
        piece: Piece,
    },
    InHeadquarters {
        from: String,
    },
    OwnPiece {
        to: String,
    },
    AllyPiece {
        to: String,
    },
    OccupiedCamp {
        to: String,
    },
    ReservedHeadquarters {
        to: String,
    },
    Unreachable {
        from: String,
        to: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(t) => write!(f, "{t:?} is not a move: write from-to, like a6-a9"),
            MoveError::NoSuchSquare { name, names } => {
                write!(
                    f,
                    "{name:?} is not a square of this board (its squares: {names})"
                )
            }
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::Out { seat } => write!(f, "{seat} is out of the game"),
            MoveError::NotYourPiece { from } => write!(f, "there is no piece of yours on {from}"),
            MoveError::Immobile { from, piece } => write!(f, "your {piece} on {from} never moves"),
            MoveError::InHeadquarters { from } => {
                write!(
                    f,
                    "the piece on {from} stands in a headquarters and can no longer move"
                )
            }
            MoveError::OwnPiece { to } => write!(f, "{to} holds a piece of yours"),
            MoveError::AllyPiece { to } => {
                write!(
                    f,
                    "{to} holds a piece of your ally, which you may not attack"
                )
            }
            MoveError::OccupiedCamp { to } => {
                write!(f, "{to} is an occupied camp, which cannot be attacked")
            }
            MoveError::ReservedHeadquarters { to } => {
                write!(
                    f,
                    "{to} is the headquarters a carried flag returns to; no piece may enter it"
                )
            }
            MoveError::Unreachable { from, to } => {
                write!(f, "the piece on {from} cannot reach {to} in one move")
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// How a piece travels on the railway.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RailMode {
    Straight,
    Turning { max_steps: u32 },
}

/// A game position. Built from validated setups, or read from a position file.
#[derive(Clone, Debug)]
pub struct Position<S: NodeSet = u64> {
    board: &'static Board<S>,
    options: Options,
    cells: Vec<Option<Unit>>,
    occupied: Vec<S>,
    to_move: Seat,
    ply: u32,
    plies_without_combat: u32,
    /// Per seat: where its flag stood at the start (flag-carrier variant).
    flag_home: Vec<Option<Square>>,
    /// Per seat: the square of the enemy piece carrying its flag.
    carrier: Vec<Option<Square>>,
    /// Per seat: out of the game (four-player board): no pieces, no turns.
    out: Vec<bool>,
    result: Option<GameResult>,
}

impl<S: NodeSet> Position<S> {
    /// Starts a game from one validated setup per seat. Returns the position and the start events:
    /// where everyone stands (public) and each side's own pieces (to that side, or to everyone
    /// when the game is played open).
    pub fn start(
        board: &'static Board<S>,
        options: Options,
        setups: &[Setup],
        first: Seat,
    ) -> (Self, Vec<Event>) {
        let mut pos = Position::empty(board, options);
        pos.to_move = first;
        let mut events = vec![Event::public(Fact::Begin { first })];
        for setup in setups {
            for &(sq, piece) in &setup.pieces {
                pos.put(
                    sq,
                    Unit {
                        seat: setup.seat,
                        piece,
                    },
                );
            }
            let squares = setup.pieces.iter().map(|(sq, _)| *sq).collect();
            events.push(Event::public(Fact::Placed {
                seat: setup.seat,
                squares,
            }));
            let fact = Fact::Identified {
                seat: setup.seat,
                pieces: setup.pieces.clone(),
            };
            match pos.options.visibility {
                Visibility::Open => events.push(Event::public(fact)),
                Visibility::Allies => {
                    for seat in board.team_of(setup.seat) {
                        events.push(Event::to_seat(seat, fact.clone()));
                    }
                }
                _ => events.push(Event::to_seat(setup.seat, fact)),
            }
        }
        (pos, events)
    }

    /// A position with no pieces, the first mover of the options (South for a lot) to move.
    pub fn empty(board: &'static Board<S>, options: Options) -> Self {
        let seats = board.seat_names.len();
        let to_move = options
            .first_mover
            .seat_name()
            .and_then(|name| board.seat(name))
            .unwrap_or(Seat(0));
        Position {
            board,
            options,
            cells: vec![None; board.len()],
            occupied: vec![S::default(); seats],
            to_move,
            ply: 0,
            plies_without_combat: 0,
            flag_home: vec![None; seats],
            carrier: vec![None; seats],
            out: vec![false; seats],
            result: None,
        }
    }

    /// Puts a unit on an empty square (used to build positions). The first flag put for a seat
    /// marks its home.
    pub fn put(&mut self, sq: Square, unit: Unit) {
        debug_assert!(self.cells[sq].is_none());
        if unit.piece == Piece::Flag && self.flag_home[unit.seat.index()].is_none() {
            self.flag_home[unit.seat.index()] = Some(sq);
        }
        self.cells[sq] = Some(unit);
        self.occupied[unit.seat.index()] = self.occupied[unit.seat.index()].with(sq);
    }

    fn take(&mut self, sq: Square) -> Option<Unit> {
        let unit = self.cells[sq].take()?;
        self.occupied[unit.seat.index()] = self.occupied[unit.seat.index()].without(sq);
        Some(unit)
    }

    pub fn board(&self) -> &'static Board<S> {
        self.board
    }
    pub fn options(&self) -> &Options {
        &self.options
    }
    pub fn at(&self, sq: Square) -> Option<Unit> {
        self.cells[sq]
    }
    pub fn to_move(&self) -> Seat {
        self.to_move
    }
    pub fn set_to_move(&mut self, seat: Seat) {
        self.to_move = seat;
    }
    pub fn ply(&self) -> u32 {
        self.ply
    }
    pub fn plies_without_combat(&self) -> u32 {
        self.plies_without_combat
    }
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }
    pub fn occupied_by(&self, seat: Seat) -> S {
        self.occupied[seat.index()]
    }
    /// Where each seat's flag started, and where a carried flag is (flag-carrier variant).
    pub fn flag_home(&self, seat: Seat) -> Option<Square> {
        self.flag_home[seat.index()]
    }
    pub fn carrier(&self, seat: Seat) -> Option<Square> {
        self.carrier[seat.index()]
    }
    /// Restores counters and flag state (for position files).
    pub fn set_counters(&mut self, ply: u32, plies_without_combat: u32) {
        self.ply = ply;
        self.plies_without_combat = plies_without_combat;
    }
    pub fn set_flag_state(&mut self, seat: Seat, home: Option<Square>, carrier: Option<Square>) {
        self.flag_home[seat.index()] = home;
        self.carrier[seat.index()] = carrier;
    }

    fn all(&self) -> S {
        self.occupied.iter().fold(S::default(), |a, s| a.union(*s))
    }

    /// Whether a seat is out of the game (four-player board).
    pub fn is_out(&self, seat: Seat) -> bool {
        self.out[seat.index()]
    }

    /// The seat whose turn follows `seat`'s: the next seat still in, in the turn order.
    pub fn next_seat(&self, seat: Seat) -> Seat {
        self.options.turn_order.next(seat, &self.out)
    }

    /// The pieces a move of `seat` may not end on: its own and its allies'. (A hot path: no
    /// allocation, unlike `Board::team_of`.)
    fn friendly(&self, seat: Seat) -> S {
        let team = self.board.teams[seat.index()];
        self.occupied
            .iter()
            .zip(&self.board.teams)
            .filter(|(_, t)| **t == team)
            .fold(S::default(), |s, (o, _)| s.union(*o))
    }

    /// Where no move of `seat` may end, given every occupied node `all`: friendly pieces,
    /// occupied camps and the headquarters reserved for carried flags. The same for every piece
    /// of the seat, so move generation works it out once.
    fn blocked_for(&self, seat: Seat, all: S) -> S {
        self.friendly(seat)
            .union(self.board.camps.and(all))
            .union(self.reserved())
    }

    fn hq_freezes(&self) -> bool {
        self.options.headquarters_immobile && self.options.win == WinCondition::CaptureFlag
    }

    /// Headquarters a carried flag will return to: no piece may enter them.
    fn reserved(&self) -> S {
        self.carrier
            .iter()
            .zip(&self.flag_home)
            .filter(|(c, _)| c.is_some())
            .filter_map(|(_, h)| *h)
            .fold(S::default(), |s, h| s.with(h))
    }

    fn rail_mode(&self, piece: Piece) -> RailMode {
        let turns = piece == Piece::Engineer || (piece == Piece::Bomb && self.options.flying_bombs);
        match (turns, self.options.rail_movement) {
            (true, _) => RailMode::Turning {
                max_steps: u32::MAX,
            },
            (false, RailMovement::Straight) => RailMode::Straight,
            (false, RailMovement::Turns3) => RailMode::Turning { max_steps: 3 },
        }
    }

    fn can_move(&self, sq: Square, unit: Unit) -> bool {
        unit.piece.is_mobile() && !(self.hq_freezes() && self.board.headquarters.contains(sq))
    }

    /// Every node the piece on `from` may move to, attacks included.
    pub fn targets(&self, from: Square) -> S {
        let Some(unit) = self.cells[from] else {
            return S::default();
        };
        let all = self.all();
        self.targets_of(from, unit, all, self.blocked_for(unit.seat, all))
    }

    /// [`Position::targets`] with the occupied nodes and the seat's blocked nodes given.
    fn targets_of(&self, from: Square, unit: Unit, all: S, blocked: S) -> S {
        if !self.can_move(from, unit) {
            return S::default();
        }
        let b = self.board;
        let mut reach = b.adjacent[from];
        if b.rail_nodes.contains(from) {
            reach = reach.union(match self.rail_mode(unit.piece) {
                RailMode::Straight => {
                    // Each ray up to and including its first occupied node.
                    let mut r = S::default();
                    for (k, ray) in b.straight[from].iter().enumerate() {
                        let hit = all.and(ray.nodes);
                        r = r.union(match ray.order {
                            _ if hit.is_empty() => ray.nodes,
                            RayOrder::Rising => hit
                                .first()
                                .map_or(ray.nodes, |near| ray.nodes.and(S::below(near + 1))),
                            RayOrder::Falling => hit
                                .last()
                                .map_or(ray.nodes, |near| ray.nodes.minus(S::below(near))),
                            RayOrder::Mixed => {
                                let stop = b.rays[from][k]
                                    .iter()
                                    .position(|&sq| all.contains(sq))
                                    .unwrap_or(0);
                                b.ray_prefixes[from][k][stop]
                            }
                        });
                    }
                    r
                }
                RailMode::Turning { max_steps } => {
                    // Breadth-first over the rail network, continuing only through empty nodes.
                    let (mut seen, mut frontier, mut r) =
                        (S::single(from), S::single(from), S::default());
                    let mut steps = 0;
                    while !frontier.is_empty() && steps < max_steps {
                        let mut next = S::default();
                        for x in frontier.iter() {
                            next = next.union(b.rail_adjacent[x]);
                        }
                        next = next.minus(seen);
                        seen = seen.union(next);
                        r = r.union(next);
                        frontier = next.minus(all);
                        steps += 1;
                    }
                    r
                }
            });
        }
        reach.minus(blocked)
    }

    /// Appends every legal move of the side to move, in ascending (from, to) order.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        if self.result.is_some() {
            return;
        }
        let seat = self.to_move;
        let all = self.all();
        let blocked = self.blocked_for(seat, all);
        for from in self.occupied[seat.index()].iter() {
            let Some(unit) = self.cells[from] else {
                continue;
            };
            for to in self.targets_of(from, unit, all, blocked).iter() {
                out.push(Move { from, to });
            }
        }
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.legal_moves_into(&mut v);
        v
    }

    /// Whether `seat` has any legal move (ignoring whose turn it is).
    pub fn has_legal_move(&self, seat: Seat) -> bool {
        let all = self.all();
        let blocked = self.blocked_for(seat, all);
        self.occupied[seat.index()].iter().any(|from| {
            self.cells[from]
                .is_some_and(|unit| !self.targets_of(from, unit, all, blocked).is_empty())
        })
    }

    /// Checks one move for the side to move, by searching for a path from `from` to `to`.
    /// Written apart from [`Position::targets`] so the two can be tested against each other.
    pub fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        let b = self.board;
        let name = |sq: Square| b.name_of(sq).to_string();
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let unit = match self.cells[mv.from] {
            Some(u) if u.seat == self.to_move => u,
            _ => {
                return Err(MoveError::NotYourPiece {
                    from: name(mv.from),
                })
            }
        };
        if !unit.piece.is_mobile() {
            return Err(MoveError::Immobile {
                from: name(mv.from),
                piece: unit.piece,
            });
        }
        if self.hq_freezes() && b.nodes[mv.from].kind == NodeKind::Hq {
            return Err(MoveError::InHeadquarters {
                from: name(mv.from),
            });
        }
        if let Some(target) = self.cells[mv.to] {
            if target.seat == unit.seat {
                return Err(MoveError::OwnPiece { to: name(mv.to) });
            }
            if b.allies(target.seat, unit.seat) {
                return Err(MoveError::AllyPiece { to: name(mv.to) });
            }
            if b.nodes[mv.to].kind == NodeKind::Camp {
                return Err(MoveError::OccupiedCamp { to: name(mv.to) });
            }
        }
        if self
            .flag_home
            .iter()
            .zip(&self.carrier)
            .any(|(h, c)| c.is_some() && *h == Some(mv.to))
        {
            return Err(MoveError::ReservedHeadquarters { to: name(mv.to) });
        }
        let reachable = b.adjacent[mv.from].contains(mv.to)
            || (b.nodes[mv.from].kind == NodeKind::Rail
                && b.nodes[mv.to].kind == NodeKind::Rail
                && match self.rail_mode(unit.piece) {
                    RailMode::Straight => self.straight_path(mv),
                    RailMode::Turning { max_steps } => self.turning_path(mv, max_steps),
                });
        if reachable {
            Ok(())
        } else {
            Err(MoveError::Unreachable {
                from: name(mv.from),
                to: name(mv.to),
            })
        }
    }

    /// Whether some straight line holds `from` and `to` with only empty nodes between them.
    fn straight_path(&self, mv: Move) -> bool {
        self.board.rays[mv.from]
            .iter()
            .any(|ray| match ray.iter().position(|&s| s == mv.to) {
                Some(k) => ray[..k].iter().all(|&s| self.cells[s].is_none()),
                None => false,
            })
    }

    /// Whether a railway path of at most `max_steps` edges leads from `from` to `to`
    /// through empty nodes (depth-first with the best depth per node).
    fn turning_path(&self, mv: Move, max_steps: u32) -> bool {
        let b = self.board;
        let mut best = vec![u32::MAX; b.len()];
        let mut stack = vec![(mv.from, 0u32)];
        best[mv.from] = 0;
        while let Some((node, depth)) = stack.pop() {
            if depth == max_steps {
                continue;
            }
            for next in b.rail_adjacent[node].iter() {
                if next == mv.to {
                    return true;
                }
                if self.cells[next].is_none() && best[next] > depth + 1 {
                    best[next] = depth + 1;
                    stack.push((next, depth + 1));
                }
            }
        }
        false
    }

    /// Plays a move for the side to move, or refuses it and leaves the position unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Vec<Event>, MoveError> {
        let mut events = Vec::new();
        self.play_into(mv, &mut events)?;
        Ok(events)
    }

    /// Like [`Position::play`], appending the events to `events`.
    pub fn play_into(&mut self, mv: Move, events: &mut Vec<Event>) -> Result<(), MoveError> {
        self.check_move(mv)?;
        self.apply_unchecked(mv, events);
        Ok(())
    }

    /// Applies a move known to be legal (from [`Position::legal_moves`]).
    pub fn apply_unchecked(&mut self, mv: Move, events: &mut Vec<Event>) {
        let mover = self.to_move;
        let Some(attacker) = self.take(mv.from) else {
            return;
        };
        let defender = self.cells[mv.to];
        let outcome = match defender {
            None => Outcome::Moved,
            Some(d) => combat::resolve(attacker.piece, d.piece, &self.options),
        };
        if let (Some(d), Visibility::Combatants) = (defender, self.options.visibility) {
            events.push(Event::to_seat(
                d.seat,
                Fact::Identified {
                    seat: mover,
                    pieces: vec![(mv.from, attacker.piece)],
                },
            ));
            events.push(Event::to_seat(
                mover,
                Fact::Identified {
                    seat: d.seat,
                    pieces: vec![(mv.to, d.piece)],
                },
            ));
        }
        events.push(Event::public(Fact::Moved {
            seat: mover,
            from: mv.from,
            to: mv.to,
            outcome,
        }));
        // Flags carried by the two pieces, decided before anything moves.
        let carried_by = |sq: Square| self.carrier.iter().position(|c| *c == Some(sq));
        let (attacker_carries, defender_carries) = (carried_by(mv.from), carried_by(mv.to));
        let attacker_survives = matches!(outcome, Outcome::Moved | Outcome::AttackerWon);
        let defender_dies = matches!(outcome, Outcome::AttackerWon | Outcome::BothRemoved);
        let mut removed = Vec::new();
        if defender_dies {
            removed.extend(self.take(mv.to));
        }
        if attacker_survives {
            self.put(mv.to, attacker);
        } else {
            removed.push(attacker);
        }
        for flag_seat in [attacker_carries, defender_carries].into_iter().flatten() {
            match (
                Some(flag_seat) == attacker_carries,
                attacker_survives,
                defender_dies,
            ) {
                (true, true, _) => self.carrier[flag_seat] = Some(mv.to),
                (true, false, _) | (false, _, true) => self.return_flag(flag_seat, events),
                _ => {}
            }
        }
        let mut flag_lost = None;
        for unit in removed {
            if unit.piece == Piece::Flag && self.board.has_teams() {
                flag_lost = Some(unit.seat);
            } else {
                self.on_removed(unit, mv, events);
            }
        }
        self.ply += 1;
        self.plies_without_combat = if defender.is_some() {
            0
        } else {
            self.plies_without_combat + 1
        };
        if self.board.has_teams() {
            if let Some(seat) = flag_lost {
                self.eliminate(seat, EndReason::FlagCaptured, events);
            }
            self.to_move = self.next_seat(mover);
            self.settle_teams(events);
            if self.result.is_none() {
                self.result = self.end_by_limits();
            }
        } else {
            self.to_move = self.next_seat(mover);
            if self.result.is_none() {
                self.result = self.carried_home().or_else(|| self.end_by_position(mover));
            }
        }
        if let Some(r) = self.result {
            events.push(Event::public(Fact::GameOver(r)));
        }
    }

    /// Consequences of a piece leaving the board in combat.
    fn on_removed(&mut self, unit: Unit, mv: Move, events: &mut Vec<Event>) {
        let owner = unit.seat.index();
        match unit.piece {
            Piece::Flag if self.options.win == WinCondition::CarryFlag => {
                self.carrier[owner] = Some(mv.to);
                events.push(Event::public(Fact::FlagTaken {
                    seat: unit.seat,
                    carrier: mv.to,
                }));
            }
            Piece::Flag => {
                self.result = Some(GameResult {
                    winner: Some(self.to_move),
                    reason: EndReason::FlagCaptured,
                });
            }
            Piece::Marshal if self.options.reveal_flag_on_marshal_death => {
                let flag = self.occupied[owner]
                    .iter()
                    .find(|&s| self.cells[s].map(|u| u.piece) == Some(Piece::Flag));
                if let Some(square) = flag {
                    events.push(Event::public(Fact::FlagRevealed {
                        seat: unit.seat,
                        square,
                    }));
                }
            }
            _ => {}
        }
    }

    /// A carrier died: its flag goes back to the headquarters it was taken from.
    fn return_flag(&mut self, flag_seat: usize, events: &mut Vec<Event>) {
        self.carrier[flag_seat] = None;
        if let Some(home) = self.flag_home[flag_seat] {
            let seat = Seat(flag_seat as u8);
            self.put(
                home,
                Unit {
                    seat,
                    piece: Piece::Flag,
                },
            );
            events.push(Event::public(Fact::FlagReturned { seat, square: home }));
        }
    }

    /// Flag-carrier variant: a carrier standing in one of its own headquarters wins.
    fn carried_home(&self) -> Option<GameResult> {
        self.carrier.iter().flatten().find_map(|&sq| {
            let unit = self.cells[sq]?;
            let node = &self.board.nodes[sq];
            (node.kind == NodeKind::Hq && node.seat == Some(unit.seat)).then_some(GameResult {
                winner: Some(unit.seat),
                reason: EndReason::FlagCarriedHome,
            })
        })
    }

    /// Endings decided by the position after `mover` moved: no legal move, ply limits.
    fn end_by_position(&self, mover: Seat) -> Option<GameResult> {
        let next = self.to_move;
        if !self.has_legal_move(next) {
            let mover_stuck = !self.has_legal_move(mover);
            return Some(match (mover_stuck, self.options.no_legal_move) {
                (true, _) => GameResult {
                    winner: None,
                    reason: EndReason::NoMovablePieces,
                },
                (false, NoLegalMove::Lose) => GameResult {
                    winner: Some(mover),
                    reason: EndReason::NoLegalMove,
                },
                (false, NoLegalMove::Draw) => GameResult {
                    winner: None,
                    reason: EndReason::NoLegalMove,
                },
            });
        }
        self.end_by_limits()
    }

    /// The optional limits by ply counts: the attack-wait limit (a loss), then the draws.
    fn end_by_limits(&self) -> Option<GameResult> {
        let limit = |n: u32, count: u32| n > 0 && count >= n;
        if limit(self.options.attack_wait, self.plies_without_combat) {
            // The side that must attack is the one that did not make the last combat (before
            // any, the first mover): after an even number of quiet plies it is the side to move.
            let to_move = self.to_move;
            let waiting = match self.plies_without_combat % 2 {
                0 => to_move,
                _ => self.next_seat(to_move),
            };
            return Some(GameResult {
                winner: Some(self.next_seat(waiting)),
                reason: EndReason::AttackWait,
            });
        }
        if limit(
            self.options.max_plies_without_combat,
            self.plies_without_combat,
        ) {
            return Some(GameResult {
                winner: None,
                reason: EndReason::PliesWithoutCombat,
            });
        }
        if limit(self.options.max_plies, self.ply) {
            return Some(GameResult {
                winner: None,
                reason: EndReason::PlyLimit,
            });
        }
        None
    }

    /// Four-player board: `seat` is out; all its pieces leave the board.
    fn eliminate(&mut self, seat: Seat, reason: EndReason, events: &mut Vec<Event>) {
        if self.out[seat.index()] {
            return;
        }
        self.out[seat.index()] = true;
        for sq in self.occupied[seat.index()].iter() {
            self.take(sq);
        }
        events.push(Event::public(Fact::Eliminated { seat, reason }));
    }

    /// Four-player board, after a change: seats to move without a legal move are out, and the
    /// game ends when one team is left (or nobody still in can move: a draw).
    fn settle_teams(&mut self, events: &mut Vec<Event>) {
        loop {
            let live: Vec<Seat> = self.board.seats().filter(|&s| !self.is_out(s)).collect();
            let teams_left: std::collections::BTreeSet<u8> =
                live.iter().map(|s| self.board.teams[s.index()]).collect();
            if teams_left.len() <= 1 {
                let reason = events
                    .iter()
                    .rev()
                    .find_map(|e| match e.fact {
                        Fact::Eliminated { reason, .. } => Some(reason),
                        _ => None,
                    })
                    .unwrap_or(EndReason::NoMovablePieces);
                let winner = live.first().map(|&s| self.board.team_of(s)[0]);
                self.result = Some(GameResult { winner, reason });
                return;
            }
            if !live.iter().any(|&s| self.has_legal_move(s)) {
                self.result = Some(GameResult {
                    winner: None,
                    reason: EndReason::NoMovablePieces,
                });
                return;
            }
            let next = self.to_move;
            if self.has_legal_move(next) {
                return;
            }
            self.eliminate(next, EndReason::NoLegalMove, events);
            self.to_move = self.next_seat(next);
        }
    }

    /// Ends the game drawn by agreement.
    pub fn agree_draw(&mut self) -> Result<Vec<Event>, MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let result = GameResult {
            winner: None,
            reason: EndReason::Agreement,
        };
        self.result = Some(result);
        Ok(vec![Event::public(Fact::GameOver(result))])
    }

    /// Ends the game with `seat` resigning (or forfeiting on time); the other side wins.
    /// Ends the game drawn by a match judge's ruling (the match's maximum length).
    pub fn adjudicate_draw(&mut self) -> Result<Vec<Event>, MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let result = GameResult {
            winner: None,
            reason: EndReason::Adjudication,
        };
        self.result = Some(result);
        Ok(vec![Event::public(Fact::GameOver(result))])
    }

    pub fn concede(&mut self, seat: Seat, reason: EndReason) -> Result<Vec<Event>, MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        if self.board.has_teams() {
            // Four players: the seat is out and the others play on.
            if self.is_out(seat) {
                return Err(MoveError::Out {
                    seat: self.board.seat_name(seat).to_string(),
                });
            }
            let mut events = Vec::new();
            self.eliminate(seat, reason, &mut events);
            if self.to_move == seat {
                self.to_move = self.next_seat(seat);
            }
            self.settle_teams(&mut events);
            if let Some(r) = self.result {
                events.push(Event::public(Fact::GameOver(r)));
            }
            return Ok(events);
        }
        let result = GameResult {
            winner: Some(self.next_seat(seat)),
            reason,
        };
        self.result = Some(result);
        let mut events = Vec::new();
        if reason == EndReason::Resignation {
            events.push(Event::public(Fact::Resigned { seat }));
        }
        events.push(Event::public(Fact::GameOver(result)));
        Ok(events)
    }
}
