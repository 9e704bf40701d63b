//! `status`: where the game stands, its deadline, as lines or JSON.

use super::{current, open, Answers, Definition};
use crate::error::Result;
use crate::games::report::Report;
use crate::judge::pipeline::Referee;
use std::path::Path;

pub fn run<D: Definition>(dir: &Path, json: bool, now: &str) -> Result<Report> {
    let (d, g) = open::<D>(dir)?;
    let state = current::<D>(&d, &g)?;
    let (fields, first) = g.status_of(&state);
    let headline = if g.record(&state).lines.is_empty() {
        "not opened yet: run the judge".to_string()
    } else {
        g.headline(&state)
    };
    let to_move = g.to_move_in(&state);
    let clock = crate::console::StatusClock {
        clock: g.clock(),
        record: g.record(&state),
        now,
        to_move: to_move.as_deref(),
        players: D::players(&g),
    };
    Ok(crate::console::status_report(
        json,
        fields,
        clock,
        &[first, headline],
    ))
}
