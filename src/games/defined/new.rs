//! `new`: a game folder with its manifest, checked by loading it as a judge will.

use super::Definition;
use crate::error::Result;
use crate::games::report::Report;
use crate::games::NewGame;
use crate::judge::pipeline::Referee;
use crate::store::GameDir;
use std::path::Path;

pub fn run<D: Definition>(dir: &Path, new: NewGame) -> Result<Report> {
    let order = match D::SEATS {
        [first, second] => format!("{first} first, then {second}"),
        seats => format!("in seat order: {}", seats.join(", ")),
    };
    let players = crate::games::player_entries(D::SEATS, &new.players, &order)?;
    let text = D::manifest(&new, crate::games::random_id(), players)?;
    let d = GameDir::new(dir);
    crate::games::write_manifest_text(&d, &text)?;
    let g = D::load(&d)?;
    crate::games::write_git_files(dir)?;
    Ok(Report::line(format!(
        "created {} game {} in {}",
        D::TITLE,
        g.frame().id,
        dir.display()
    )))
}
