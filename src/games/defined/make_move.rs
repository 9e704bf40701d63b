//! `move`: the player's move written and signed, after checking what the player can know: its
//! key is its seat's, it is its turn, and the move reads and is legal on what it sees.

use super::{current, open, Answers, Definition};
use crate::error::{refuse, refuse_with, Error, Result};
use crate::games::report::Report;
use crate::games::MoveRequest;
use crate::judge::pipeline::Referee;
use std::path::Path;

pub fn run<D: Definition>(
    dir: &Path,
    seat: &str,
    key: &Path,
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
    if comment.as_deref().is_some_and(crate::judge::has_control) {
        return Err(Error::Io(
            "--comment: no control or bidirectional-override characters".into(),
        ));
    }
    let key = crate::console::load_signer(key)?;
    let (d, g) = open::<D>(dir)?;
    let _lock = d.lock()?;
    crate::games::seat_of_key(&g.frame(), seat, &key)?;
    let state = current::<D>(&d, &g)?;
    // Unchecked (`--no-check`): written as typed, for the judge to refuse.
    let action = match check {
        true => {
            check_turn(&g, &state, seat)?;
            // A move that does not read or is illegal is refused input (exit code 1).
            g.typed_action(&d, &state, seat, action)
                .map_err(|e| match e {
                    Error::Io(why) => {
                        let why = why.strip_prefix("move: ").unwrap_or(&why).to_string();
                        refuse("move", None, why)
                    }
                    e => e,
                })?
        }
        false => action.to_string(),
    };
    let (ply, head) = g.next_move_in(&state);
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
    if g.is_over(state) {
        return Err(refuse("record.jsonl", None, "the game is over"));
    }
    match g.to_move_in(state) {
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
            match g.record(state).lines.is_empty() {
                true => "the judge has not opened the game yet: wait for its first run".to_string(),
                false => g
                    .waiting(state)
                    .unwrap_or_else(|| "wait for the judge".to_string()),
            },
        )),
    }
}
