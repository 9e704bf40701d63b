//! A Liubo position: where every stone is, whose throw it is, the turn in progress; move
//! generation, an independently written single-move check, captures, releases and the end.

use super::board::{neighbours, Line, Station};
use super::options::Options;
use std::fmt;

/// Stones per player.
pub const STONES: usize = 6;

/// Where a stone is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Reserve,
    On(Station),
    /// Held by the opponent.
    Prisoner,
}

/// One stone and what it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stone {
    pub place: Place,
    pub owl: bool,
    /// On X: the line the stone arrived by (it goes on along it).
    pub heading: Option<Line>,
    /// The owner's turn number in which this stone may take the cross (it ended on 6 or 11).
    pub right_turn: Option<u32>,
}

const RESERVE_STONE: Stone = Stone {
    place: Place::Reserve,
    owl: false,
    heading: None,
    right_turn: None,
};

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A stone took the loser's owl.
    OwlCaptured,
    /// The loser had an owl at the end of its turn, the opponent none and five stones on the board.
    FiveStones,
    /// The loser has no stone in play.
    NoPieces,
    PlyLimit,
    Resignation,
    Forfeit,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winning seat (0 = A, 1 = B); none for a draw.
    pub winner: Option<usize>,
    pub reason: EndReason,
}

/// One value moving one piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub value: u8,
    /// The start station; none for an entry from the reserve.
    pub from: Option<Station>,
    /// The piece is the mover's owl.
    pub owl: bool,
    /// The stations passed and reached, `value` of them.
    pub path: Vec<Station>,
    /// A stone ending on X becomes the owl.
    pub promote: bool,
}

impl Move {
    pub fn to(&self) -> Station {
        *self.path.last().expect("a move has at least one step")
    }
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    NoTurn,
    GameOver,
    ValueNotThrown(u8),
    NoSuchPiece,
    /// The path does not follow the piece's movement rules.
    BadPath(String),
    /// The second value must move another piece.
    SamePiece,
    CannotPromote(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NoTurn => write!(f, "no throw is waiting to be played"),
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::ValueNotThrown(v) => write!(f, "no value {v} is left to play this turn"),
            MoveError::NoSuchPiece => write!(f, "no such piece of the player to move there"),
            MoveError::BadPath(why) => write!(f, "{why}"),
            MoveError::SamePiece => write!(
                f,
                "the second value must move another piece (the same piece moves twice only when it is the only one in play, or an owl)"
            ),
            MoveError::CannotPromote(why) => write!(f, "cannot promote: {why}"),
        }
    }
}

/// Something that happened, for views and the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `seat` took `count` enemy stones prisoner on `at`.
    Prisoners {
        seat: usize,
        count: usize,
        at: Station,
    },
    /// `seat`'s owl on `at` was demoted to its reserve.
    Demoted {
        seat: usize,
        at: Station,
    },
    /// One of `seat`'s prisoners went back to its reserve.
    Released {
        seat: usize,
    },
    /// `seat`'s stone on X became its owl.
    Promoted {
        seat: usize,
    },
    /// `seat`'s owl was taken by a stone on `at`.
    OwlCaptured {
        seat: usize,
        at: Station,
    },
    Ended(Outcome),
}

/// The turn in progress.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct TurnState {
    throw: (u8, u8),
    values_left: Vec<u8>,
    /// The stone that took the first value, and whether it was an owl then.
    first: Option<(usize, bool)>,
    /// The last edge that stone moved along.
    last_edge: Option<(Station, Station)>,
}

/// The whole game state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub options: Options,
    pub stones: [[Stone; STONES]; 2],
    pub to_move: usize,
    /// Turns (throws) played.
    pub turns: u32,
    /// Turns each seat has begun.
    pub own_turns: [u32; 2],
    pub result: Option<Outcome>,
    turn: Option<TurnState>,
}

impl Position {
    /// All stones in reserve; `first` throws first.
    pub fn new(options: Options, first: usize) -> Position {
        Position {
            options,
            stones: [[RESERVE_STONE; STONES]; 2],
            to_move: first,
            turns: 0,
            own_turns: [0, 0],
            result: None,
            turn: None,
        }
    }

    /// Whether the player to move is waiting for a throw.
    pub fn awaiting_throw(&self) -> bool {
        self.result.is_none() && self.turn.is_none()
    }

    /// The throw being played and the values still to play.
    pub fn current_throw(&self) -> Option<((u8, u8), &[u8])> {
        self.turn
            .as_ref()
            .map(|t| (t.throw, t.values_left.as_slice()))
    }

    /// Starts the mover's turn with a throw.
    pub fn begin_turn(&mut self, throw: (u8, u8)) -> Result<(), MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        if self.turn.is_some() {
            return Err(MoveError::BadPath("a turn is already in progress".into()));
        }
        self.own_turns[self.to_move] += 1;
        let mut values = vec![throw.0, throw.1];
        values.sort_unstable();
        self.turn = Some(TurnState {
            throw,
            values_left: values,
            first: None,
            last_edge: None,
        });
        Ok(())
    }

    fn owl_of(&self, seat: usize) -> Option<usize> {
        self.stones[seat]
            .iter()
            .position(|s| s.owl && matches!(s.place, Place::On(_)))
    }

    /// Pieces of `seat` in play: on the board or in reserve.
    pub fn in_play(&self, seat: usize) -> usize {
        self.stones[seat]
            .iter()
            .filter(|s| s.place != Place::Prisoner)
            .count()
    }

    /// Stones of `seat` on the 29 stations.
    pub fn on_board(&self, seat: usize) -> usize {
        self.stones[seat]
            .iter()
            .filter(|s| matches!(s.place, Place::On(_)))
            .count()
    }

    /// The own-turn number in which `seat` plays next: the turn in progress once its throw is
    /// made (a right earned for that turn is usable now), else the one after its last.
    pub fn usable_turn(&self, seat: usize) -> u32 {
        match self.turn.is_some() && self.to_move == seat {
            true => self.own_turns[seat],
            false => self.own_turns[seat] + 1,
        }
    }

    fn right_valid(&self, seat: usize, stone: &Stone) -> bool {
        stone.right_turn == Some(self.own_turns[seat]) && !stone.owl
    }

    /// Whether the mover may move stone `i` with the next value (the different-piece rule).
    fn may_move(&self, i: usize) -> bool {
        let Some(t) = &self.turn else { return false };
        match t.first {
            Some((first, was_owl)) if first == i => was_owl || self.in_play(self.to_move) == 1,
            _ => true,
        }
    }

    /// The routes a plain stone can follow from where it is: each a list of stations ahead.
    fn stone_routes(&self, seat: usize, stone: &Stone, value: u8) -> Vec<Vec<Station>> {
        let n = value as usize;
        let rim_from = |s: Station, count: usize| -> Vec<Station> {
            let mut out = Vec::new();
            let mut cur = s;
            for _ in 0..count {
                cur = cur.rim_next();
                out.push(cur);
            }
            out
        };
        // Along a line from an index, then round the rim.
        let along = |line: Line, from_index: usize, count: usize| -> Vec<Station> {
            let stations = line.stations();
            let mut out: Vec<Station> = stations[from_index + 1..].to_vec();
            let end = stations[6];
            if out.len() < count {
                out.extend(rim_from(end, count - out.len()));
            }
            out.truncate(count);
            out
        };
        // With turning allowed, a route that passes X may leave by the other line instead.
        let with_turns = |line: Line, from_index: usize| -> Vec<Vec<Station>> {
            let mut routes = vec![along(line, from_index, n)];
            if self.options.turn_at_x_for_stones && from_index <= 3 {
                let other = line.other();
                let mut r: Vec<Station> = line.stations()[from_index + 1..=3].to_vec();
                let rest = n.saturating_sub(r.len());
                r.extend(along(other, 3, rest));
                r.truncate(n);
                if r.len() == n && !routes.contains(&r) {
                    routes.push(r);
                }
            }
            routes
        };
        match stone.place {
            Place::Reserve => vec![(1..=value).map(Station::rim).collect()],
            Place::Prisoner => Vec::new(),
            Place::On(s) if s == Station::X => {
                let line = stone.heading.unwrap_or(Line::SixToSixteen);
                with_turns(line, 3)
            }
            Place::On(s) => {
                if let Some(line) = Line::of(s) {
                    let i = line.stations().iter().position(|&x| x == s).unwrap_or(0);
                    return with_turns(line, i);
                }
                let mut routes = vec![rim_from(s, n)];
                if self.right_valid(seat, stone) {
                    if let Some(line) = Line::starting_at(s) {
                        routes.extend(with_turns(line, 0));
                    }
                }
                routes
            }
        }
    }

    /// Owl paths of `value` edges from `from`, never straight back, not starting back along
    /// `last_edge`.
    fn owl_paths(
        from: Station,
        value: u8,
        last_edge: Option<(Station, Station)>,
    ) -> Vec<Vec<Station>> {
        fn walk(
            path: &mut Vec<Station>,
            previous: Option<Station>,
            left: u8,
            out: &mut Vec<Vec<Station>>,
        ) {
            if left == 0 {
                out.push(path[1..].to_vec());
                return;
            }
            let cur = *path.last().expect("path starts with the owl's station");
            for next in neighbours(cur) {
                if Some(next) == previous {
                    continue;
                }
                path.push(next);
                walk(path, Some(cur), left - 1, out);
                path.pop();
            }
        }
        let mut out = Vec::new();
        // The edge just used may not be taken straight back.
        let previous = last_edge.filter(|(_, to)| *to == from).map(|(f, _)| f);
        walk(&mut vec![from], previous, value, &mut out);
        out
    }

    /// Legal moves for the next value of the turn in progress.
    pub fn legal_moves(&self) -> Vec<Move> {
        let Some(t) = &self.turn else {
            return Vec::new();
        };
        if self.result.is_some() {
            return Vec::new();
        }
        let seat = self.to_move;
        let mut values = t.values_left.clone();
        values.dedup();
        let has_owl = self.owl_of(seat).is_some();
        let mut out: Vec<Move> = Vec::new();
        for &value in &values {
            for (i, stone) in self.stones[seat].iter().enumerate() {
                if stone.place == Place::Prisoner || !self.may_move(i) {
                    continue;
                }
                let from = match stone.place {
                    Place::On(s) => Some(s),
                    _ => None,
                };
                if stone.owl {
                    let Some(start) = from else { continue };
                    let last = match t.first {
                        Some((f, _)) if f == i => t.last_edge,
                        _ => None,
                    };
                    for path in Self::owl_paths(start, value, last) {
                        out.push(Move {
                            value,
                            from,
                            owl: true,
                            path,
                            promote: false,
                        });
                    }
                    continue;
                }
                for path in self.stone_routes(seat, stone, value) {
                    let ends_on_x = path.last() == Some(&Station::X);
                    for promote in [false, true] {
                        if promote && (has_owl || !ends_on_x) {
                            continue;
                        }
                        out.push(Move {
                            value,
                            from,
                            owl: false,
                            path: path.clone(),
                            promote,
                        });
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Checks one move step by step, written apart from the generator.
    pub fn check_move(&self, m: &Move) -> Result<(), MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let t = self.turn.as_ref().ok_or(MoveError::NoTurn)?;
        if !t.values_left.contains(&m.value) {
            return Err(MoveError::ValueNotThrown(m.value));
        }
        let seat = self.to_move;
        let candidates: Vec<usize> = (0..STONES)
            .filter(|&i| {
                let s = &self.stones[seat][i];
                s.owl == m.owl
                    && match m.from {
                        None => s.place == Place::Reserve,
                        Some(st) => s.place == Place::On(st),
                    }
            })
            .collect();
        if candidates.is_empty() {
            return Err(MoveError::NoSuchPiece);
        }
        let allowed: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| self.may_move(i))
            .collect();
        if allowed.is_empty() {
            return Err(MoveError::SamePiece);
        }
        if m.path.len() != m.value as usize {
            return Err(MoveError::BadPath(format!(
                "a value of {} moves {} steps, the path has {}",
                m.value,
                m.value,
                m.path.len()
            )));
        }
        let mut last_error = MoveError::NoSuchPiece;
        for i in allowed {
            match self.check_path(seat, i, m) {
                Ok(()) => {
                    if m.promote {
                        if m.owl || m.to() != Station::X {
                            return Err(MoveError::CannotPromote(
                                "only a plain stone ending its move on X is promoted".into(),
                            ));
                        }
                        if self.owl_of(seat).is_some() {
                            return Err(MoveError::CannotPromote(
                                "the player already has an owl".into(),
                            ));
                        }
                    }
                    return Ok(());
                }
                Err(e) => last_error = e,
            }
        }
        Err(last_error)
    }

    fn check_path(&self, seat: usize, i: usize, m: &Move) -> Result<(), MoveError> {
        let stone = &self.stones[seat][i];
        let bad = |why: String| Err(MoveError::BadPath(why));
        if stone.owl {
            let Some(mut prev) = m.from else {
                return bad("an owl is on the board".into());
            };
            let t = self.turn.as_ref().ok_or(MoveError::NoTurn)?;
            let mut before = match t.first {
                Some((f, _)) if f == i => t.last_edge.filter(|(_, to)| *to == prev).map(|(f, _)| f),
                _ => None,
            };
            for &next in &m.path {
                if !neighbours(prev).contains(&next) {
                    return bad(format!("{prev} and {next} are not joined by a line"));
                }
                if Some(next) == before {
                    return bad(format!(
                        "the owl may not go straight back from {prev} to {next}"
                    ));
                }
                before = Some(prev);
                prev = next;
            }
            return Ok(());
        }
        // A plain stone: entering counts station 1 as the first step.
        let Some(start) = m.from else {
            let want: Vec<Station> = (1..=m.value).map(Station::rim).collect();
            return if m.path == want {
                Ok(())
            } else {
                bad(format!("a stone enters at 1 and goes on to {}", m.value))
            };
        };
        // Which line the stone travels on, if any.
        let mut line: Option<Line> = match start {
            s if s == Station::X => stone.heading.or(Some(Line::SixToSixteen)),
            s => Line::of(s),
        };
        let mut cur = start;
        for (k, &next) in m.path.iter().enumerate() {
            let step_ok = match line {
                None => {
                    if next == cur.rim_next() {
                        true
                    } else if k == 0
                        && self.right_valid(seat, stone)
                        && Line::starting_at(cur).is_some_and(|l| l.stations()[1] == next)
                    {
                        line = Line::starting_at(cur);
                        true
                    } else {
                        false
                    }
                }
                Some(l) => {
                    let stations = l.stations();
                    let idx = stations.iter().position(|&s| s == cur);
                    match idx {
                        Some(6) | None => {
                            // Off the end of the line: round the rim.
                            line = None;
                            next == cur.rim_next()
                        }
                        Some(i) if stations[i + 1] == next => true,
                        Some(3)
                            if self.options.turn_at_x_for_stones
                                && l.other().stations()[4] == next =>
                        {
                            line = Some(l.other());
                            true
                        }
                        _ => false,
                    }
                }
            };
            if !step_ok {
                return bad(format!("a stone on {cur} cannot go on to {next}"));
            }
            cur = next;
        }
        Ok(())
    }

    /// Plays one move of the turn in progress.
    pub fn play(&mut self, m: &Move) -> Result<Vec<Event>, MoveError> {
        self.check_move(m)?;
        Ok(self.apply(m))
    }

    /// Picks the stone a checked move moves: among equal candidates, one without a shortcut
    /// right first (so a rim move does not waste a right another stone could use).
    fn stone_for(&self, m: &Move) -> usize {
        let seat = self.to_move;
        let mut candidates: Vec<usize> = (0..STONES)
            .filter(|&i| {
                let s = &self.stones[seat][i];
                s.owl == m.owl
                    && match m.from {
                        None => s.place == Place::Reserve,
                        Some(st) => s.place == Place::On(st),
                    }
                    && self.may_move(i)
                    && self.check_path(seat, i, m).is_ok()
            })
            .collect();
        candidates.sort_by_key(|&i| (self.right_valid(seat, &self.stones[seat][i]), i));
        candidates[0]
    }

    fn apply(&mut self, m: &Move) -> Vec<Event> {
        let seat = self.to_move;
        let enemy = 1 - seat;
        let i = self.stone_for(m);
        let mut events = Vec::new();
        let start = m.from;
        let to = m.to();
        // The last edge travelled.
        let before_last = if m.path.len() >= 2 {
            Some(m.path[m.path.len() - 2])
        } else {
            start
        };
        let was_owl = self.stones[seat][i].owl;
        {
            let t = self.turn.as_mut().expect("checked: a turn is in progress");
            if let Some(pos) = t.values_left.iter().position(|&v| v == m.value) {
                t.values_left.remove(pos);
            }
            if t.first.is_none() {
                t.first = Some((i, was_owl));
            }
            t.last_edge = before_last.map(|b| (b, to));
        }
        // Release: a plain stone arriving on 1 from 20 or from U, not by entering.
        if let (false, Some(mut prev)) = (was_owl, start) {
            for (k, &s) in m.path.iter().enumerate() {
                let arrives =
                    s == Station::rim(1) && (prev == Station::rim(20) || prev == Station::U);
                let counts = self.options.release_on_reach || k + 1 < m.path.len();
                if arrives && counts {
                    if let Some(p) = self.stones[seat]
                        .iter()
                        .position(|x| x.place == Place::Prisoner)
                    {
                        self.stones[seat][p] = RESERVE_STONE;
                        events.push(Event::Released { seat });
                    }
                    break;
                }
                prev = s;
            }
        }
        // Move the stone; a right is lost when it leaves, and earned by ending on 6 or 11.
        let arrival_line = match to {
            s if s == Station::X => m
                .path
                .len()
                .checked_sub(2)
                .map(|k| m.path[k])
                .or(start)
                .and_then(|p| Line::of(p).or(Line::starting_at(p))),
            _ => None,
        };
        {
            let stone = &mut self.stones[seat][i];
            stone.place = Place::On(to);
            stone.heading = arrival_line;
            stone.right_turn = None;
            if !stone.owl && !m.promote && Line::starting_at(to).is_some() {
                stone.right_turn = Some(self.own_turns[seat] + 1);
            }
        }
        // Captures: only the piece that ends the move acts.
        let enemy_owl = self
            .owl_of(enemy)
            .filter(|&o| self.stones[enemy][o].place == Place::On(to));
        if !was_owl {
            if let Some(_o) = enemy_owl {
                events.push(Event::OwlCaptured {
                    seat: enemy,
                    at: to,
                });
                self.finish(
                    Outcome {
                        winner: Some(seat),
                        reason: EndReason::OwlCaptured,
                    },
                    &mut events,
                );
                return events;
            }
            if self.options.stones_capture_stones && !m.promote {
                let n = self.take_prisoners(enemy, to);
                if n > 0 {
                    events.push(Event::Prisoners {
                        seat,
                        count: n,
                        at: to,
                    });
                }
            }
        } else {
            if let Some(o) = enemy_owl {
                self.stones[enemy][o] = RESERVE_STONE;
                events.push(Event::Demoted {
                    seat: enemy,
                    at: to,
                });
            }
            let n = self.take_prisoners(enemy, to);
            if n > 0 {
                events.push(Event::Prisoners {
                    seat,
                    count: n,
                    at: to,
                });
            }
        }
        if m.promote {
            self.stones[seat][i].owl = true;
            self.stones[seat][i].right_turn = None;
            events.push(Event::Promoted { seat });
        }
        for s in [enemy, seat] {
            if self.in_play(s) == 0 {
                self.finish(
                    Outcome {
                        winner: Some(1 - s),
                        reason: EndReason::NoPieces,
                    },
                    &mut events,
                );
                return events;
            }
        }
        if self.turn.as_ref().is_some_and(|t| t.values_left.is_empty()) {
            self.end_turn(&mut events);
        }
        events
    }

    fn take_prisoners(&mut self, enemy: usize, at: Station) -> usize {
        let mut n = 0;
        for s in self.stones[enemy].iter_mut() {
            if s.place == Place::On(at) && !s.owl {
                *s = Stone {
                    place: Place::Prisoner,
                    ..RESERVE_STONE
                };
                n += 1;
            }
        }
        n
    }

    fn finish(&mut self, outcome: Outcome, events: &mut Vec<Event>) {
        self.result = Some(outcome);
        self.turn = None;
        self.turns += 1;
        events.push(Event::Ended(outcome));
    }

    fn end_turn(&mut self, events: &mut Vec<Event>) {
        let seat = self.to_move;
        let t = self.turn.take().expect("a turn in progress");
        self.turns += 1;
        // The five-stones check, at the end of the owl owner's own turn.
        if self.owl_of(seat).is_some()
            && self.owl_of(1 - seat).is_none()
            && self.on_board(1 - seat) >= 5
        {
            self.finish_after_turn(
                Outcome {
                    winner: Some(1 - seat),
                    reason: EndReason::FiveStones,
                },
                events,
            );
            return;
        }
        if self.options.ply_limit > 0 && self.turns >= self.options.ply_limit {
            self.finish_after_turn(
                Outcome {
                    winner: None,
                    reason: EndReason::PlyLimit,
                },
                events,
            );
            return;
        }
        let doubles = t.throw == (1, 1) || t.throw == (4, 4);
        if !(self.options.extra_throw_on_doubles && doubles) {
            self.to_move = 1 - seat;
        }
    }

    fn finish_after_turn(&mut self, outcome: Outcome, events: &mut Vec<Event>) {
        self.result = Some(outcome);
        events.push(Event::Ended(outcome));
    }

    /// Ends the game by resignation or forfeit of `loser`.
    pub fn concede(&mut self, loser: usize, reason: EndReason) {
        if self.result.is_none() {
            self.result = Some(Outcome {
                winner: Some(1 - loser),
                reason,
            });
            self.turn = None;
        }
    }

    /// Every complete turn from the start of the turn in progress (one move when the first ends
    /// the game).
    pub fn legal_turns(&self) -> Vec<Vec<Move>> {
        let mut out = Vec::new();
        for first in self.legal_moves() {
            let mut next = self.clone();
            next.apply(&first);
            if next.result.is_some() || next.turn.is_none() {
                out.push(vec![first]);
                continue;
            }
            for second in next.legal_moves() {
                out.push(vec![first.clone(), second]);
            }
        }
        out
    }

    /// Plays a whole turn: every move checked, all or nothing.
    pub fn play_turn(&mut self, moves: &[Move]) -> Result<Vec<Event>, (usize, MoveError)> {
        let mut next = self.clone();
        let mut events = Vec::new();
        for (k, m) in moves.iter().enumerate() {
            if next.turn.is_none() {
                return Err((
                    k,
                    if next.result.is_some() {
                        MoveError::GameOver
                    } else {
                        MoveError::NoTurn
                    },
                ));
            }
            events.extend(next.play(m).map_err(|e| (k, e))?);
        }
        if next.turn.is_some() {
            return Err((
                moves.len(),
                MoveError::BadPath("both values must be played".into()),
            ));
        }
        *self = next;
        Ok(events)
    }
}
