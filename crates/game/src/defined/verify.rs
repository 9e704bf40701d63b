//! `verify`: the third party's audit of the whole folder, and what it checked.

use super::{open, Answers, Definition};
use crate::report::Report;
use qijudge_protocol::error::Result;
use std::path::Path;

pub fn run<D: Definition>(dir: &Path) -> Result<Report> {
    let (d, g) = open::<D>(dir)?;
    let state = D::verified(&d, &g)?;
    let mut report = Report::lines(g.audited(&d, &state));
    report.say(g.headline(&state));
    Ok(report)
}
