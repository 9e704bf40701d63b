//! `reveal`: once the game is over, each seat's secret the judge held into `reveal/` (opened with
//! the judge's key, or a seat's own, in a sealed game), so anyone can check what the judge did
//! with it.

use super::{open, Definition};
use crate::report::Report;
use qijudge_judge::pipeline::{self, Referee};
use qijudge_protocol::error::{refuse_with, Error, Result};
use qijudge_protocol::files::Entry;
use std::path::Path;

pub fn run<D: Definition>(dir: &Path, key: Option<&Path>) -> Result<Report> {
    if !D::SECRETS {
        return Err(Error::Io(format!(
            "{}: players hold no secret, so there is nothing to reveal",
            D::NAME
        )));
    }
    let key = key.map(crate::console::load_private_key).transpose()?;
    let (d, g) = open::<D>(dir)?;
    let _lock = d.lock()?;
    let Some(what) = g.secrets_held() else {
        return Err(Error::Io(format!(
            "{}: the judge holds no secret of this game's players (each reveals its own), so it has nothing to reveal",
            D::NAME
        )));
    };
    // The record says whether the game is over: a seat revealing its own sealed secret has
    // nobody else's, so nothing is replayed.
    let record = pipeline::load_record(&g, &d)?;
    if !record
        .lines
        .iter()
        .any(|l| matches!(l.entry, Entry::End { .. }))
    {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "the game is not over",
            format!("the {what} stay secret until the end"),
        ));
    }
    let lines = D::reveal(&d, &g, &record, key.as_ref(), what)?;
    Ok(Report::lines(lines))
}
