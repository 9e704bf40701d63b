//! `reveal`: once the game is over, each seat's secret the judge held into `reveal/` (opened with
//! the judge's key in a sealed game), so anyone can check what the judge did with it.

use super::{current, open, Definition};
use crate::error::{refuse, Error, Result};
use crate::games::report::Report;
use crate::judge::pipeline::Referee;
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
    let state = current::<D>(&d, &g)?;
    let Some(what) = g.secrets_held() else {
        return Err(Error::Io(format!(
            "{}: the judge holds no secret of this game's players (each reveals its own), so it has nothing to reveal",
            D::NAME
        )));
    };
    if !g.is_over(&state) {
        return Err(refuse(
            "record.jsonl",
            None,
            format!("the game is not over: {what} stay secret until the end"),
        ));
    }
    let lines =
        crate::judge::sealing::publish_secrets(&d, &g.frame(), D::sealed(&g), key.as_ref(), what)?;
    Ok(Report::lines(lines))
}
