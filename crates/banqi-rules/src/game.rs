//! A Banqi game: the positions since the start, what each turn turned up or took, and how it
//! ended. A seat loses when all its pieces are taken or when it has no legal action on its
//! turn; with the move limit, [`MOVE_LIMIT_PLIES`] quiet plies draw.

use super::position::{kind_name, Action, Position, Refused, Square};
use super::Options;
use qijudge_rules::line::Line;
use std::fmt;
use xiangqi_rules::{Kind, Piece};

/// One turn played: what it turned up (a flip) and what it took, as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub action: Action,
    pub seat: usize,
    /// The piece a flip turned up.
    pub revealed: Option<Piece>,
    /// The piece a move took (a chain's first).
    pub captured: Option<Piece>,
    /// What a chain of captures took after its first, in order.
    pub chained: [Option<Piece>; 15],
    /// The last piece taken lay face down (a cannon's jump, with the option).
    pub captured_face_down: bool,
}

impl Played {
    /// Every piece the turn took, in order.
    pub fn captures(&self) -> impl Iterator<Item = Piece> + '_ {
        self.captured
            .iter()
            .chain(self.chained.iter().flatten())
            .copied()
    }

    /// The piece taken face down, if the turn took one (always its last capture).
    pub fn taken_face_down(&self) -> Option<Piece> {
        self.captures().last().filter(|_| self.captured_face_down)
    }
}

/// How a game ended; seats are 0 (moved first) and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every piece of the loser's colour was taken.
    AllTaken {
        loser: usize,
    },
    /// The loser had no legal action on its turn.
    NoLegalMove {
        loser: usize,
    },
    /// The quiet-ply limit (this many plies): a draw.
    MoveLimit {
        plies: u32,
    },
    /// A position occurred for the third time: a draw.
    Repetition,
    /// At a third occurrence, the loser had threatened a new piece with every move since the
    /// first (the long-chase option).
    LongChase {
        loser: usize,
    },
    Resignation {
        loser: usize,
    },
    Agreement,
    /// A match judge's draw at the match's maximum length.
    Adjudicated,
    Forfeit {
        loser: usize,
    },
}

impl Ending {
    /// The winning seat; none for a draw.
    pub fn winner(self) -> Option<usize> {
        match self {
            Ending::AllTaken { loser }
            | Ending::NoLegalMove { loser }
            | Ending::LongChase { loser }
            | Ending::Resignation { loser }
            | Ending::Forfeit { loser } => Some(1 - loser),
            Ending::MoveLimit { .. }
            | Ending::Repetition
            | Ending::Agreement
            | Ending::Adjudicated => None,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seat = |i: usize| crate::SEATS[i];
        match self {
            Ending::AllTaken { loser } => write!(f, "every piece of {} was taken", seat(*loser)),
            Ending::NoLegalMove { loser } => write!(f, "{} has no legal move", seat(*loser)),
            Ending::MoveLimit { plies } => write!(
                f,
                "draw: {plies} plies without a capture or a piece turned up"
            ),
            Ending::Repetition => write!(f, "draw: the same position for the third time"),
            Ending::LongChase { loser } => write!(
                f,
                "{} chased with every move of a repetition (long chase)",
                seat(*loser)
            ),
            Ending::Resignation { loser } => write!(f, "{} resigned", seat(*loser)),
            Ending::Agreement => write!(f, "draw by agreement"),
            Ending::Adjudicated => write!(f, "adjudicated: a draw at the match's maximum length"),
            Ending::Forfeit { loser } => write!(f, "{} forfeited", seat(*loser)),
        }
    }
}

/// A Banqi game: the turns since the deal and how it ended.
#[derive(Clone, Debug)]
pub struct Game(Line<Options, Position, Played, Ending>);

/// The line's own accessors (options, positions, turns played, ending) are the game's.
impl std::ops::Deref for Game {
    type Target = Line<Options, Position, Played, Ending>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Game {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Game {
    pub fn new(options: Options) -> Game {
        Game(Line::from_start(options, Position::start(options)))
    }

    /// A game from another position (tests, composed problems).
    pub fn from_position(options: Options, start: Position) -> Game {
        Game(Line::from_start(options, start))
    }

    /// Whether the action needs the identity of a face-down piece: a flip, or a cannon
    /// taking a face-down piece.
    pub fn needs_identity(&self, action: Action) -> bool {
        match action {
            Action::Flip(_) => true,
            Action::Move(..) | Action::Chain(_) => {
                self.position().cell(action.last_square()) == Some(super::Cell::Down)
            }
        }
    }

    /// How many of `piece` have been seen (turned up, or taken face down).
    fn seen(&self, piece: Piece) -> usize {
        seen_in(self.played(), piece)
    }

    /// The pieces still face down after the first `n` turns, as a multiset everyone can work
    /// out: all 32 less those seen.
    pub fn face_down_after(&self, n: usize) -> Vec<Piece> {
        let played = &self.played()[..n.min(self.played().len())];
        let mut out = Vec::new();
        for color in [xiangqi_rules::Color::Red, xiangqi_rules::Color::Black] {
            for kind in Kind::ALL {
                let p = Piece::new(color, kind);
                for _ in seen_in(played, p)..kind.max_count() {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Pieces of `color` taken so far.
    fn taken_of(&self, color: xiangqi_rules::Color) -> usize {
        self.position().taken[color as usize] as usize
    }

    /// Plays a turn; a flip, and a cannon taking a face-down piece, need what the piece is.
    pub fn play(
        &mut self,
        action: Action,
        identity: Option<Piece>,
    ) -> Result<Option<Ending>, Refused> {
        if self.ending().is_some() {
            return Err(Refused("the game is over".into()));
        }
        let position = self.position();
        position.check(action)?;
        let seat = position.to_move;
        match (self.needs_identity(action), identity) {
            (true, None) => {
                return Err(Refused(format!(
                    "{action}: what the face-down piece is was not given"
                )))
            }
            (false, Some(_)) => {
                return Err(Refused(format!(
                    "{action}: no face-down piece is turned up"
                )))
            }
            (true, Some(p)) if self.seen(p) >= p.kind.max_count() => {
                return Err(Refused(format!(
                    "{action}: {} has only {} {}{}",
                    p.color.name(),
                    p.kind.max_count(),
                    kind_name(p.kind),
                    if p.kind.max_count() > 1 { "s" } else { "" }
                )))
            }
            _ => {}
        }
        let face_down_target = !matches!(action, Action::Flip(_)) && identity.is_some();
        let mut next = position.clone();
        let captured = next.apply(action, identity);
        let mut chained = [None; 15];
        for (slot, p) in chained.iter_mut().zip(captured.iter().skip(1)) {
            *slot = Some(*p);
        }
        let turn = Played {
            action,
            seat,
            revealed: identity.filter(|_| matches!(action, Action::Flip(_))),
            captured: captured.first().copied(),
            chained,
            captured_face_down: face_down_target,
        };
        self.0.push(turn, next, |_| None);
        self.judge_after_push();
        Ok(self.ending().copied())
    }

    /// The ending the current position brings, if any, checked in this order (`docs/banqi.md`):
    /// a colour with no piece left, no legal turn for the seat to move, a third occurrence
    /// (long chase, then the repetition draw), the quiet-ply limit.
    /// Ends the game if the position just pushed ends it.
    fn judge_after_push(&mut self) {
        if let Some(ending) = self.judge_position() {
            self.0.end(ending);
        }
    }

    fn judge_position(&self) -> Option<Ending> {
        let now = self.position();
        if let Some(colours) = now.colours {
            for seat in [now.to_move, 1 - now.to_move] {
                if self.taken_of(colours[seat]) >= 16 {
                    return Some(Ending::AllTaken { loser: seat });
                }
            }
        }
        if !now.has_legal_action() {
            return Some(Ending::NoLegalMove { loser: now.to_move });
        }
        let options = self.options();
        if options.repetition || options.long_chase {
            if let Some(first) = self.third_occurrence() {
                if let Some(loser) = self.long_chaser(first).filter(|_| options.long_chase) {
                    return Some(Ending::LongChase { loser });
                }
                if options.repetition {
                    return Some(Ending::Repetition);
                }
            }
        }
        match options.move_limit.0 {
            Some(plies) if now.quiet >= plies => Some(Ending::MoveLimit { plies }),
            _ => None,
        }
    }

    /// When the current position occurs for the third time: the index of its first occurrence
    /// among the positions. Only the quiet stretch is searched: a turn-up or a capture makes
    /// every earlier position unreachable.
    fn third_occurrence(&self) -> Option<usize> {
        let positions = self.positions();
        let now = positions.len() - 1;
        let since = now.saturating_sub(positions[now].quiet as usize);
        let mut seen = 0;
        let mut first = None;
        // Two plies at a time: a repetition has the same seat to move.
        let mut i = now;
        while i >= since + 2 {
            i -= 2;
            if positions[i].repeats(&positions[now]) {
                seen += 1;
                first = Some(i);
            }
        }
        (seen >= 2).then_some(first).flatten()
    }

    /// The seat that chased with every one of its turns from position `first` on, while the
    /// other did not: a turn chases when after it the mover threatens an enemy face-up piece it
    /// did not threaten before.
    fn long_chaser(&self, first: usize) -> Option<usize> {
        let positions = self.positions();
        let played = self.played();
        let mut every = [true, true];
        for (i, turn) in played.iter().enumerate().skip(first) {
            let before = positions[i].threatened_by(turn.seat);
            let after = positions[i + 1].threatened_by(turn.seat);
            let Some((_, to)) = turn.action.from_to() else {
                every[turn.seat] = false;
                continue;
            };
            // The threat must be the moved piece's own: a piece revealed by the move elsewhere
            // is not chased.
            let mut mover = positions[i + 1].clone();
            mover.to_move = turn.seat;
            let own: Vec<Square> = mover.targets_of(to);
            let chases = after.iter().any(|s| !before.contains(s) && own.contains(s));
            every[turn.seat] &= chases;
        }
        match every {
            [true, false] => Some(0),
            [false, true] => Some(1),
            _ => None,
        }
    }
}

/// How many of `piece` the turns `played` turned up or took face down.
fn seen_in(played: &[Played], piece: Piece) -> usize {
    played
        .iter()
        .filter(|p| p.revealed == Some(piece) || p.taken_face_down() == Some(piece))
        .count()
}
