//! `status`: where the game stands, its deadline, as lines or JSON — from what anyone may
//! know of it (see [`super::Known`]).

use super::{open, Definition};
use crate::report::Report;
use qijudge_protocol::error::Result;
use std::path::Path;

pub fn run<D: Definition>(dir: &Path, json: bool, now: &str) -> Result<Report> {
    let (d, g) = open::<D>(dir)?;
    let known = D::known(&d, &g)?;
    let (mut fields, mut lines) = known.status()?;
    let to_move = known.to_move()?;
    // A move committed (or mailed in) but not judged yet: the game is one judge run behind.
    if let Some((path, seat, ply)) = super::written_not_judged(&d, known.as_ref()) {
        lines.push(format!(
            "{seat}'s move for ply {ply} ({path}) is written and waits for the judge; the next \
             turn comes once the judge records it"
        ));
        fields["awaiting_judge"] = serde_json::Value::String(path);
    }
    // Conditional answers written in advance and still able to fire (the seat's own plans:
    // whoever holds this folder wrote them or is the judge).
    let frame = qijudge_judge::pipeline::Framed::frame(&g);
    for (seat, path, live) in qijudge_judge::conditional::standing(&d, &frame, known.record(), None)
    {
        lines.push(format!(
            "{seat}'s conditional answers ({path}) stand: {}",
            live.join("; ")
        ));
        fields["conditional"][&seat] = serde_json::json!({ "file": path, "lines": live });
    }
    let clock = crate::console::StatusClock {
        clock: qijudge_judge::pipeline::Framed::clock(&g),
        record: known.record(),
        now,
        to_move: to_move.as_deref(),
        players: D::players(&g),
    };
    Ok(crate::console::status_report(json, fields, clock, &lines))
}
