//! `judge`: one run of the pipeline with the judge's key, each new record line said, then where
//! the game stands; a refusal is the exit code 1, after what the run did.

use super::{open, Answers, Definition};
use crate::report::Report;
use crate::JudgeRequest;
use qijudge_judge::pipeline;
use qijudge_protocol::error::Result;
use std::path::Path;

pub fn run<D: Definition>(dir: &Path, key: &Path, run: JudgeRequest) -> Result<Report> {
    let key = crate::console::load_private_key(key)?;
    let (d, g) = open::<D>(dir)?;
    let done = pipeline::judge(&g, &d, &key, &run.now, run.rulings)?;
    let last = g.headline(&done.state);
    // The judge's own terminal may see a refusal's private details.
    let refusal = match done.refusal {
        Some(qijudge_protocol::error::Error::Refused(r)) if run.details => {
            Some(qijudge_protocol::error::Error::Refused(r.disclosed()))
        }
        other => other,
    };
    Ok(crate::run_report(&done.said, Some(&last), refusal))
}
