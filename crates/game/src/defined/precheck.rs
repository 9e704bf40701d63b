//! `precheck`: the move files beyond the record checked without the judge's key (signature,
//! binding, turn and legality), one line per file.

use super::{current, open, Answers, Definition};
use crate::report::Report;
use qijudge_judge::pipeline::Framed;
use qijudge_protocol::error::Result;
use std::path::Path;

pub fn run<D: Definition>(dir: &Path) -> Result<Report> {
    let (d, g) = open::<D>(dir)?;
    let state = current::<D>(&d, &g)?;
    let (next, head) = g.next_move_in(&state);
    let next = next.max(g.plies_in(&state) as u32 + 1);
    let to_move = || Ok(g.to_move_in(&state));
    let lines = qijudge_judge::precheck_files::precheck_moves(
        &d,
        &g.frame(),
        next,
        &head,
        to_move,
        |path, _, file| {
            g.filed_action(&state, path, &file.action)?;
            Ok(", legal".into())
        },
    )?;
    // Conditional answers waiting for the next ply: signed by their seat, bound to this record
    // head, every line readable (what the judge checks when they come).
    let frame = g.frame();
    let waits = g
        .to_move_in(&state)
        .and_then(|s| frame.seats.iter().position(|x| *x == s))
        .map(|seat| (next, seat));
    let takes = frame.seats.len() == 2 && D::CONDITIONALS;
    let record = qijudge_judge::pipeline::Recorded::record(&state);
    if let Some(refused) =
        qijudge_judge::conditional::leftover(&d, &frame, record, waits, takes, None)?
            .into_iter()
            .next()
    {
        return Err(refused);
    }
    Ok(Report::lines(lines))
}
