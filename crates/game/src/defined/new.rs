//! `new`: a game folder with its manifest, checked by loading it as a judge will.

use super::Definition;
use crate::report::Report;
use crate::NewGame;
use qijudge_judge::pipeline::Framed;
use qijudge_protocol::error::Result;
use qijudge_store::GameDir;
use std::path::Path;

pub fn run<D: Definition>(dir: &Path, new: NewGame) -> Result<Report> {
    let seats = D::seats_on(new.board)?;
    let seats: Vec<&str> = seats.iter().map(String::as_str).collect();
    let order = match seats.as_slice() {
        [first, second] => format!("{first} first, then {second}"),
        seats => format!("in seat order: {}", seats.join(", ")),
    };
    let players = crate::player_entries(&seats, &new.players, &order)?;
    let text = D::manifest(&new, crate::random_id(), players)?;
    let d = GameDir::new(dir);
    crate::write_manifest_text(&d, &text)?;
    // Refuse what a judge would refuse (the same key twice) before anyone commits, and leave
    // nothing behind.
    let g = match D::load(&d) {
        Ok(g) => g,
        Err(e) => {
            let _ = std::fs::remove_file(d.path("game.toml"));
            return Err(e);
        }
    };
    crate::write_git_files(dir)?;
    Ok(Report::line(format!(
        "created {} game {} in {}",
        D::TITLE,
        g.frame().id,
        dir.display()
    )))
}
