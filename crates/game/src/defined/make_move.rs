//! `move`: the player's move written and signed, after checking what the player can know (see
//! [`super::Known`]): its key is its seat's, it is its turn, and the move reads and is legal on
//! what it sees.

use super::{open, Answers, Definition};
use crate::report::Report;
use crate::MoveRequest;
use qijudge_judge::pipeline::Recorded;
use qijudge_protocol::error::{refuse, refuse_with, Error, Result};
use std::path::Path;

pub fn run<D: Definition>(
    dir: &Path,
    seat: &str,
    key_path: &Path,
    request: MoveRequest,
) -> Result<Report> {
    let MoveRequest {
        action,
        offer_draw,
        comment,
        check,
        replace,
    } = request;
    if offer_draw && !D::DRAW_OFFERS {
        return Err(Error::Io(format!(
            "--offer-draw: {} has no draw offers (resign, or play on)",
            D::TITLE
        )));
    }
    if comment.as_deref().is_some_and(qijudge_judge::has_control) {
        return Err(Error::Io(
            "--comment: no control or bidirectional-override characters".into(),
        ));
    }
    let key = crate::console::load_signer(key_path)?;
    let (d, g) = open::<D>(dir)?;
    let _lock = d.lock()?;
    crate::seat_of_key(&qijudge_judge::pipeline::Framed::frame(&g), seat, &key)?;
    let known = D::known(&d, &g)?;
    // The seat to move has written its move, and the judge has not recorded it yet: this
    // seat's turn comes after that, bound to the record the judge writes then.
    if let Some((path, other, ply)) = super::written_not_judged(&d, known.as_ref()) {
        if other != seat && check {
            return Err(refuse_with(
                path,
                None,
                format!("{other}'s move for ply {ply} is written and waits for the judge"),
                "write yours once the judge has recorded it (git pull after the judge's commit, \
                 or take in the judge's next message)",
            ));
        }
    }
    let action = known.action(seat, key_path, action, check)?;
    let (ply, head) = known.next_move();
    let (id, manifest) = g.binding_of();
    let mv = crate::player::NewMove {
        ply,
        answers: &head,
        action: &action,
        offer_draw,
        comment,
        chain: None,
        replace,
    };
    let path = crate::player::write_move(&d, id, manifest, seat, &key, mv)?;
    Ok(Report::line(format!(
        "wrote {path} ({action}) and its signature"
    )))
}

/// Refuses a move before play has begun (saying what the game waits for), after the end, or
/// out of turn.
pub fn check_turn<G: Answers>(g: &G, state: &G::State, seat: &str) -> Result<()> {
    let to_move = g.to_move_in(state);
    check_to_move(g.is_over(state), to_move.as_deref(), seat, || {
        match state.record().lines.is_empty() {
            true => "the judge has not opened the game yet: wait for its first run".to_string(),
            false => g
                .waiting(state)
                .unwrap_or_else(|| "wait for the judge".to_string()),
        }
    })
}

/// Refuses a move by `seat` after the end, out of turn, or before play has begun (`waiting`:
/// what play waits for), from what the seat knows: whether the game is over and who is to move.
pub fn check_to_move(
    over: bool,
    to_move: Option<&str>,
    seat: &str,
    waiting: impl FnOnce() -> String,
) -> Result<()> {
    if over {
        return Err(refuse("record.jsonl", None, "the game is over"));
    }
    match to_move {
        Some(s) if s == seat => Ok(()),
        Some(s) => Err(refuse(
            "--as",
            None,
            format!("it is {s}'s move, not {seat}'s"),
        )),
        None => Err(refuse_with(
            "record.jsonl",
            None,
            "play has not begun",
            waiting(),
        )),
    }
}
