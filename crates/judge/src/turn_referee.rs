//! The referee of a two-seat game played one signed move file a turn ([`TurnReferee`]): a game
//! gives its position, how a move is read and played, how an off-board ending lands on its
//! board, and its view; this module makes the judge's whole [`Referee`] from them (the step,
//! forfeit, adjudication, clock, waiting text, published files and their check).

use super::context::Ctx;
use super::face_down::Deal;
use super::pipeline::{Framed, Recorded, Referee};
use super::turns::{Asked, MoveLine, Turns};
use super::Outputs;
use qijudge_protocol::error::Result;
use qijudge_protocol::files::{Entry, MoveFile};
use qijudge_protocol::record::Record;
use qijudge_rules::EndReason;
use qijudge_store::GameDir;
use qijudge_view::turn_view::ViewHead;
use serde::de::DeserializeOwned;
use serde::Serialize;
use ssh_key::PrivateKey;

/// An ending decided off the board, which the game notes on its own board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffBoard {
    Resignation {
        loser: usize,
    },
    Agreement,
    Forfeit {
        loser: usize,
    },
    /// A match judge's ruling: the winning seat, or none for a draw.
    Adjudicated {
        winner: Option<usize>,
    },
}

/// The end the rules gave: the winning seat (none: a draw) and the record's reason.
pub type RulesEnd = (Option<usize>, EndReason);

/// What a move on the board gave: its record line (the judge fills in when it came) and the
/// end, if the rules ended the game with it.
pub struct Played {
    pub line: MoveLine,
    pub end: Option<RulesEnd>,
}

impl Played {
    /// A move that makes nothing public beyond itself.
    pub fn plain(action: impl ToString, end: Option<RulesEnd>) -> Played {
        Played {
            line: MoveLine::plain(action.to_string(), String::new()),
            end,
        }
    }
}

/// The judge's state of a turn-by-turn game: its [`Turns`] and, for a game dealt face down,
/// the deal ([`turn_state!`] writes it for a state with a `turns` field).
pub trait TurnState {
    fn turns(&self) -> &Turns;
    fn turns_mut(&mut self) -> &mut Turns;
    fn deal(&self) -> Option<&dyn Deal> {
        None
    }
    fn deal_mut(&mut self) -> Option<&mut dyn Deal> {
        None
    }
}

impl<T: TurnState> Recorded for T {
    fn record(&self) -> &Record {
        &self.turns().record
    }

    fn record_mut(&mut self) -> &mut Record {
        &mut self.turns_mut().record
    }
}

/// [`TurnState`] for a state with a `turns` field, and a deal of the given layout in the named
/// field if any.
#[macro_export]
macro_rules! turn_state {
    ($t:ty) => {
        $crate::turn_state!($t, {});
    };
    ($t:ty, $deal:ident: $layout:ty) => {
        impl $crate::turn_referee::Dealt<$layout> for $t {
            fn face_down(&mut self) -> &mut $crate::face_down::FaceDown<$layout> {
                &mut self.$deal
            }
        }

        $crate::turn_state!($t, {
            fn deal(&self) -> Option<&dyn $crate::face_down::Deal> {
                Some(&self.$deal)
            }

            fn deal_mut(&mut self) -> Option<&mut dyn $crate::face_down::Deal> {
                Some(&mut self.$deal)
            }
        });
    };
    ($t:ty, { $($deal:tt)* }) => {
        impl $crate::turn_referee::TurnState for $t {
            fn turns(&self) -> &$crate::turns::Turns {
                &self.turns
            }

            fn turns_mut(&mut self) -> &mut $crate::turns::Turns {
                &mut self.turns
            }

            $($deal)*
        }
    };
}

/// A two-seat game whose judge keeps its record in [`Turns`] and takes one move file a turn.
pub trait TurnReferee: Framed {
    type State: TurnState;
    /// A move on the board, as the game parses it from a move file.
    type Move: Copy + std::fmt::Display;
    /// The published view, one per seat and one for the public.
    type View: Serialize + DeserializeOwned + PartialEq;

    /// Whether a match judge may adjudicate the game.
    const ADJUDICATED: bool = false;

    /// The state before the record's first line.
    fn start_state(&self) -> Self::State;
    /// The seat whose turn it is on the board.
    fn seat_to_move(&self, state: &Self::State) -> usize;
    /// Moves played on the board.
    fn plies(state: &Self::State) -> u32;

    /// Whether the record's opening is over and moves are taken.
    fn begun(&self, state: &Self::State) -> bool {
        match state.deal() {
            Some(deal) => deal.begun(),
            None => state.turns().record.lines.len() >= 2,
        }
    }

    /// The record's next opening lines, before the first move; none while they wait: the
    /// start line, then the deal's lines if the game is dealt face down, then the begin line
    /// naming the seat to move.
    fn before_play(&self, state: &mut Self::State, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        let (frame, clocked) = (self.frame(), self.clock().is_some());
        if state.turns().record.lines.is_empty() {
            return Ok(Some(vec![Turns::start_entry(&frame)]));
        }
        if let Some(deal) = state.deal_mut() {
            return deal.step(cx, &frame, self.sealed(), clocked);
        }
        let first = frame.seats[self.seat_to_move(state)];
        Ok(state
            .turns()
            .opening(cx, &frame, || first, clocked)
            .map(|line| vec![line]))
    }

    /// What the opening waits for, in words.
    fn waiting_before_play(&self, state: &Self::State) -> Option<String> {
        state.deal()?.waiting(self.frame().seats)
    }

    /// What the judge holds secret for the seats (see [`Referee::secrets_held`]): a game
    /// dealt face down holds the seats' nonces.
    fn held_secrets(&self) -> Option<&'static str> {
        self.start_state().deal().map(|_| "nonces")
    }

    /// Reads a move on the board and checks it is legal now; the error is the refusal's reason.
    fn parse(&self, state: &Self::State, text: &str) -> std::result::Result<Self::Move, String>;

    /// Plays a legal move by `seat` at `ply` (`cx.recorded()` holds its line in a replay).
    fn play(
        &self,
        state: &mut Self::State,
        cx: &Ctx,
        ply: u32,
        seat: usize,
        mv: Self::Move,
    ) -> Result<Played>;

    /// Notes an ending decided off the board on the game's board.
    fn end_off_board(&self, state: &mut Self::State, how: OffBoard);

    /// The view of `audience` now.
    fn view(&self, state: &Self::State, audience: &str) -> Self::View;

    /// The view `audience` must have been published, given the one that was (a game whose
    /// seats learn from their own signed views checks the rest of it against the record).
    fn view_to_check(
        &self,
        state: &Self::State,
        audience: &str,
        _published: Option<&Self::View>,
    ) -> Self::View {
        self.view(state, audience)
    }

    /// A view's text form (English).
    fn text(&self, view: &Self::View) -> String;

    /// A view's board picture (SVG).
    fn picture(&self, view: &Self::View) -> String;

    /// The seat to move, once play has begun and while it goes on.
    fn to_move(&self, state: &Self::State) -> Option<usize> {
        (self.begun(state) && state.turns().end.is_none()).then(|| self.seat_to_move(state))
    }
}

/// A judge's state that holds a deal of layout `L` ([`turn_state!`]
/// writes it).
pub trait Dealt<L> {
    fn face_down(&mut self) -> &mut super::face_down::FaceDown<L>;
}

/// The judge's state at the start of play on `layout`, as the nonces' shuffle would give it
/// (the rules contract's start, and the tests').
pub fn contract_start<G, L>(g: &G, layout: L) -> G::State
where
    G: TurnReferee,
    G::State: Dealt<L>,
{
    let mut state = g.start_state();
    state.face_down().deal(layout);
    state
}

/// Takes one checked move file: plays it (or its answer off the board) and gives its record
/// lines, the end line too if the game ended.
pub fn take<G: TurnReferee>(
    g: &G,
    state: &mut G::State,
    cx: &Ctx,
    ply: u32,
    file: &MoveFile,
    hash: String,
    asked: Asked<G::Move>,
) -> Result<Vec<Entry>> {
    let seat = g.seat_to_move(state);
    let off_board = |how, text: &str, end| (Some(how), Played::plain(text, Some(end)));
    let (how, mut played) = match asked {
        Asked::Play(mv) => {
            let played = g.play(state, cx, ply, seat, mv)?;
            state.turns_mut().comments.push(file.comment.clone());
            (None, played)
        }
        Asked::Resign => off_board(
            OffBoard::Resignation { loser: seat },
            "resign",
            (Some(1 - seat), EndReason::Resignation),
        ),
        Asked::AcceptDraw => off_board(
            OffBoard::Agreement,
            "accept-draw",
            (None, EndReason::Agreement),
        ),
    };
    if let Some(how) = how {
        g.end_off_board(state, how);
    }
    played.line.received = cx.received();
    let seats = g.frame().seats;
    let turns = state.turns_mut();
    let mut entries = vec![turns.take(seats, ply, seat, file, hash, played.line)];
    if let Some((winner, reason)) = played.end {
        entries.push(turns.end(winner.map(|w| seats[w].to_string()), reason));
    }
    Ok(entries)
}

/// With no move file of the seat to move: its conditional answer, if one matches the record
/// (see [`super::conditional`]). An answer the rules refuse where it falls is not played: the
/// game waits for the seat's own move.
fn take_conditional<G: TurnReferee>(
    g: &G,
    state: &mut G::State,
    cx: &Ctx,
    ply: u32,
    seat: usize,
) -> Result<Option<Vec<Entry>>> {
    let frame = g.frame();
    let Some(answer) = super::conditional::answer(cx, &frame, &state.turns().record, seat, ply)?
    else {
        return Ok(None);
    };
    let mut file = crate::contract::contract_move_file(
        frame.id,
        frame.hash,
        ply,
        frame.seats[seat],
        answer.action.clone(),
    );
    file.answers = state.turns().head(frame.hash);
    let turn = super::turns::TurnFile {
        path: answer.fired.path.clone(),
        file,
        hash: answer.hash.clone(),
    };
    let asked = state
        .turns()
        .check_move_file(&frame, &turn, ply, seat, |text| g.parse(state, text));
    let taken = asked.and_then(|asked| take(g, state, cx, ply, &turn.file, turn.hash, asked));
    let mut entries = match taken {
        Ok(entries) => entries,
        Err(_) if cx.is_new() => return Ok(None),
        Err(e) => return Err(e),
    };
    if let Some(Entry::Move { conditional, .. }) = entries.first_mut() {
        *conditional = Some(answer.fired);
    }
    Ok(Some(entries))
}

/// Plays one move through the judge's own step code, as the next move file would (the rules
/// contract's `apply`, and the games' own tests): the record lines it gave.
pub fn play_move<G: TurnReferee>(
    g: &G,
    state: &mut G::State,
    cx: &Ctx,
    mv: G::Move,
) -> Result<Vec<Entry>> {
    let frame = g.frame();
    let ply = G::plies(state) + 1;
    let seat = frame.seats[g.seat_to_move(state)];
    let file = crate::contract::contract_move_file(frame.id, frame.hash, ply, seat, mv.to_string());
    take(g, state, cx, ply, &file, String::new(), Asked::Play(mv))
}

/// The rules contract's `apply`: one legal move played through the judge's step code with the
/// contract's fixed time. An illegal one changes nothing: a game's `play` refuses before it
/// changes the state.
pub fn contract_play<G: TurnReferee>(g: &G, state: &mut G::State, mv: G::Move) {
    let unread = GameDir::new(std::path::Path::new(""));
    let cx = Ctx::taking_new(&unread, crate::contract::CONTRACT_CREATED, None);
    let _ = play_move(g, state, &cx, mv);
}

/// The shared fields of `audience`'s view after the first `ply` moves (`format`: the game's
/// view format; `seat_then`: the seat to move at that ply). The draw offer, closing move and
/// end belong to the last position only.
pub fn view_head<G: TurnReferee>(
    g: &G,
    state: &G::State,
    format: &str,
    audience: &str,
    ply: usize,
    seat_then: usize,
) -> ViewHead {
    let (frame, turns) = (g.frame(), state.turns());
    let latest = ply == G::plies(state) as usize;
    let seat = |s: usize| frame.seats[s].to_string();
    let (draw_offer, closing) = turns.shown(frame.seats, latest);
    ViewHead {
        format: format.into(),
        game: frame.id.into(),
        manifest: frame.hash.into(),
        audience: audience.into(),
        record_head: turns.head(frame.hash),
        ply: ply as u32,
        to_move: match latest {
            true => g.to_move(state).map(seat),
            false => Some(seat(seat_then)),
        },
        draw_offer,
        closing,
        end: turns.end.clone().filter(|_| latest),
    }
}

/// The state of a game from its signed files, for `status`, the replay page and players
/// writing moves.
pub fn current<G: TurnReferee>(dir: &GameDir, g: &G) -> Result<G::State> {
    super::pipeline::current(g, dir, super::context::Mode::Judge)
}

/// Plays `moves` in turn through the judge's step code with the contract's fixed time (the
/// games' own tests): the record lines each gave.
pub fn play_all<G: TurnReferee>(
    g: &G,
    state: &mut G::State,
    moves: &[G::Move],
) -> Result<Vec<Vec<Entry>>> {
    let unread = GameDir::new(std::path::Path::new(""));
    let cx = Ctx::taking_new(&unread, crate::contract::CONTRACT_CREATED, None);
    moves
        .iter()
        .map(|&mv| play_move(g, state, &cx, mv))
        .collect()
}

impl<G: TurnReferee> Referee for G {
    type State = G::State;

    fn initial(&self) -> G::State {
        self.start_state()
    }

    fn step(&self, state: &mut G::State, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        if !self.begun(state) {
            return self.before_play(state, cx);
        }
        let Some(seat) = TurnReferee::to_move(self, state) else {
            return Ok(None);
        };
        let frame = self.frame();
        let ply = G::plies(state) + 1;
        let turn = match super::conditional::replaying_one(cx) {
            true => None,
            false => Turns::next_file(cx, &frame, seat, ply)?,
        };
        let Some(turn) = turn else {
            return take_conditional(self, state, cx, ply, seat);
        };
        let asked = state
            .turns()
            .check_move_file(&frame, &turn, ply, seat, |text| self.parse(state, text))?;
        take(self, state, cx, ply, &turn.file, turn.hash, asked).map(Some)
    }

    fn forfeit(
        &self,
        state: &mut G::State,
        seat: usize,
        reason: &str,
        _: &Ctx,
    ) -> Result<Vec<Entry>> {
        self.end_off_board(state, OffBoard::Forfeit { loser: seat });
        let seats = self.frame().seats;
        let winner = Some(seats[1 - seat].to_string());
        Ok(state.turns_mut().forfeit(seats, seat, reason, winner))
    }

    fn adjudicate(
        &self,
        state: &mut G::State,
        winner: Option<usize>,
        reason: &str,
        _: &Ctx,
    ) -> Result<Vec<Entry>> {
        if !G::ADJUDICATED {
            crate::pipeline::length_draw_only(winner, reason)?;
        }
        self.end_off_board(state, OffBoard::Adjudicated { winner });
        Ok(state
            .turns_mut()
            .adjudicate(self.frame().seats, winner, reason))
    }

    fn is_over(&self, state: &G::State) -> bool {
        state.turns().end.is_some()
    }

    fn secrets_held(&self) -> Option<&'static str> {
        self.held_secrets()
    }

    fn clock_turn(&self, state: &G::State) -> Option<(usize, u32)> {
        let seat = TurnReferee::to_move(self, state)?;
        Some((seat, G::plies(state) + 1))
    }

    fn waiting(&self, state: &G::State) -> Option<String> {
        if state.turns().end.is_some() {
            return None;
        }
        if let Some(before) = self.waiting_before_play(state) {
            return Some(before);
        }
        let seat = self.frame().seats[TurnReferee::to_move(self, state)?];
        Some(format!("{seat} to move (ply {})", G::plies(state) + 1))
    }

    fn outputs(&self, dir: &GameDir, state: &G::State, key: &PrivateKey) -> Result<Outputs> {
        let frame = self.frame();
        let audiences: Vec<&str> = frame.seats.iter().copied().chain(["public"]).collect();
        Ok(super::published::open_outputs(
            dir,
            &state.turns().record,
            &audiences,
            |audience| self.view(state, audience),
            |v| self.text(v),
            |v| self.picture(v),
            key,
        ))
    }

    fn check_views(&self, dir: &GameDir, state: &G::State) -> Result<()> {
        let record = &state.turns().record;
        super::published::check_views(dir, &self.frame(), record, |audience, published| {
            let v = self.view_to_check(state, audience, published);
            let text = self.text(&v);
            (v, text)
        })
    }
}
