//! A bot match game played in one process: one judge kept open over the game folder
//! ([`pipeline::Session`]) takes each move and forfeit as it comes, and the signed outputs are
//! written once, at the end, from the session's state (what a judge run would write); a match
//! keeps the whole folder in memory meanwhile ([`qijudge_store::MemoryGuard`]). Playing through
//! the contract's commands instead costs a replay of the whole record per command, so a ply
//! costs more the longer the game.

use super::Turn;
use crate::bot_view::BotView;
use qijudge_judge::pipeline::{self, Referee, Session};
use qijudge_protocol::error::{Error, Result};
use qijudge_protocol::signer::Signer;
use qijudge_store::GameDir;
use std::path::{Path, PathBuf};

/// What a match's driver answers at a turn.
pub enum MatchStep {
    /// The seat plays this move (one of the turn's legal moves, `resign`, or `accept-draw`
    /// where a draw offer stands), with a comment (an engine's score), perhaps offering a draw.
    Move {
        action: String,
        comment: Option<String>,
        offer_draw: bool,
    },
    /// The judge forfeits the seat with this reason code (the bot failed).
    Forfeit(String),
    /// The judge adjudicates the game: the winning seat (none: a draw) and a reason code.
    Adjudicate {
        winner: Option<String>,
        reason: String,
    },
}

/// What a game needs to play a match game in one process.
pub struct MatchPlay<'a> {
    pub judge_key: &'a Path,
    /// A seat's private key file.
    pub seat_key: &'a dyn Fn(&str) -> PathBuf,
    pub now: &'a str,
    /// Whether the bot of a seat reads its view.
    pub wants_view: &'a dyn Fn(&str) -> bool,
}

/// What a game gives [`play`]: its turn and its next move file, from the judge's state.
pub trait SessionGame: Referee {
    /// The turn as [`super::Game::turn`] gives it, from the state.
    fn turn_in(
        &self,
        dir: &GameDir,
        state: &Self::State,
        wants_view: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Turn>>;
    /// The ply of the next move and the record head it answers.
    fn next_move(&self, state: &Self::State) -> (u32, String);
    /// The game's id and manifest hash, which every move file carries.
    fn binding(&self) -> (&str, &str);
    /// A seat's view from the state (what its bot is told at the end).
    fn final_view(&self, dir: &GameDir, state: &Self::State, seat: &str) -> Result<BotView>;
}

/// [`super::Game::turn`] for a game with a session: one replay of the record, then the turn.
pub fn turn<G: SessionGame>(
    game: &G,
    dir: &GameDir,
    wants_view: &dyn Fn(&str) -> bool,
) -> Result<Option<Turn>> {
    let state = pipeline::current(game, dir, pipeline::Mode::Judge)?;
    game.turn_in(dir, &state, wants_view)
}

/// Plays the game in `dir` from where it stands to its end, asking `next` at every turn; gives
/// the final view of each seat whose bot reads views.
pub fn play<G: SessionGame>(
    game: &G,
    dir: &GameDir,
    play: &MatchPlay,
    next: &mut dyn FnMut(Turn) -> Result<MatchStep>,
) -> Result<Vec<(String, BotView)>> {
    let judge_key = crate::console::load_private_key(play.judge_key)?;
    let mut signers: Vec<(String, Signer)> = Vec::new();
    let mut session = Session::open_with(game, dir, play.now, Some(&judge_key))?;
    loop {
        if let Some(e) = session.refusal.take() {
            return Err(Error::Io(format!(
                "the judge refused a move the runner checked: {e}"
            )));
        }
        let Some(turn) = game.turn_in(dir, session.state(), play.wants_view)? else {
            break;
        };
        let seat = turn.seat.clone();
        match next(turn)? {
            MatchStep::Move {
                action,
                comment,
                offer_draw,
            } => {
                // Each seat's key is read once a game.
                let i = match signers.iter().position(|(s, _)| *s == seat) {
                    Some(i) => i,
                    None => {
                        let signer = crate::console::load_signer(&(play.seat_key)(&seat))?;
                        signers.push((seat.clone(), signer));
                        signers.len() - 1
                    }
                };
                let signer = &signers[i].1;
                let (ply, head) = game.next_move(session.state());
                let (id, hash) = game.binding();
                let mut mv = crate::player::NewMove::plain(ply, &head, &action);
                mv.comment = comment;
                mv.offer_draw = offer_draw;
                crate::player::write_move(dir, id, hash, &seat, signer, mv)?;
                session.advance()?;
            }
            // On the four-player board the game may go on without the seat.
            MatchStep::Forfeit(code) => session.forfeit(&seat, &code)?,
            MatchStep::Adjudicate { winner, reason } => {
                session.adjudicate(winner.as_deref(), &reason)?
            }
        }
    }
    // The game is over: the bots' last views from the session's state, then the session
    // writes the record and views, as a judge run would.
    let mut views = Vec::new();
    for seat in game.frame().seats {
        if (play.wants_view)(seat) {
            views.push((
                seat.to_string(),
                game.final_view(dir, session.state(), seat)?,
            ));
        }
    }
    session.publish(&judge_key)?;
    Ok(views)
}
