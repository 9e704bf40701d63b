//! `precheck` of the move files beyond the record, the same for every game: signature,
//! binding and turn, before the game checks legality.

use super::frame::{move_path, Frame};
use super::player_files::{check_binding, read_signed_move};
use super::strays::moves_beyond;
use qijudge_protocol::error::{refuse, Result};
use qijudge_protocol::files::*;
use qijudge_store::GameDir;

/// The move file of `seat` (one of two seats) for `ply`. Taking new files: none while it is not
/// there, and the other seat's file for that ply is refused as out of turn; in a replay the
/// recorded file is read whatever else is there.
pub fn turn_file(
    cx: &super::context::Ctx,
    seats: &[&str],
    seat: usize,
    ply: u32,
) -> Result<Option<String>> {
    let path = move_path(ply, seats[seat]);
    let other = move_path(ply, seats[1 - seat]);
    if cx.is_new() && cx.dir.exists(&other) {
        return Err(refuse(
            &other,
            Some("seat"),
            format!("out of turn: {} moves at ply {ply}", seats[seat]),
        ));
    }
    if cx.is_new() && !cx.dir.exists(&path) {
        return Ok(None);
    }
    Ok(Some(path))
}

/// Checks every move file beyond the record as the judge would, without its key: a seat of
/// this game, the next ply (`next`), the seat to move, the signature and every binding field.
/// `to_move` is asked only when there is a file to check; `legal` adds the game's own check of
/// a file that passed (for seat index `i`) and returns what to add to its line. One line per
/// file checked.
pub fn precheck_moves(
    dir: &GameDir,
    f: &Frame,
    next: u32,
    head: &str,
    to_move: impl FnOnce() -> Result<Option<String>>,
    mut legal: impl FnMut(&str, usize, &MoveFile) -> Result<String>,
) -> Result<Vec<String>> {
    let pending = moves_beyond(dir, next - 1)?;
    if pending.is_empty() {
        return Ok(vec![format!("no move beyond ply {} to check", next - 1)]);
    }
    let to_move = to_move()?;
    let mut lines = Vec::new();
    for (ply, seat) in pending {
        let path = move_path(ply, &seat);
        let i = f
            .seats
            .iter()
            .position(|s| *s == seat)
            .ok_or_else(|| refuse(&path, None, "no such seat in this game"))?;
        if ply != next {
            return Err(refuse(
                &path,
                Some("ply"),
                format!("the next ply is {next}"),
            ));
        }
        match &to_move {
            Some(s) if *s == seat => {}
            Some(_) => return Err(refuse(&path, Some("seat"), "not this seat's turn")),
            None => {
                return Err(refuse(
                    &path,
                    Some("seat"),
                    "nobody is to move: the game is over or waits for the judge",
                ))
            }
        }
        let (file, _) = read_signed_move(dir, f, &path, i)?;
        check_binding(f, &path, &file, ply, i, &[head.to_string()])?;
        let more = legal(&path, i, &file)?;
        lines.push(format!(
            "{path}: signed by {seat}, answers the current record{more}"
        ));
    }
    Ok(lines)
}
