//! Files in `moves/` the judge can never take (a stranger's name, a far-future ply, a move
//! after the end, a lone signature), found in one listing and refused by name.

use super::frame::Frame;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::record::Record;
use qijudge_store::GameDir;

/// A file in `moves/` the judge can never take, once it has taken what it could: a name no
/// move file has, a signature without its move file (a stranger's `.sig` squatting a later
/// slot), a file for a ply the record already filled with another seat's, or for ply
/// `stray_from` or later (`next`: the ply the game waits for, none once it is over). Such a file
/// is refused (and set aside), never left holding a place. One listing of the folder.
pub fn stray_move(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    stray_from: u32,
    next: Option<u32>,
) -> Result<Vec<Error>> {
    stray_files(dir, f, Some(record), stray_from, next)
}

/// [`stray_move`] for a game where seats may file for the same ply (Liubo's self-mode reveals):
/// no ply counts as filled by another seat's file.
pub fn stray_move_shared_plies(
    dir: &GameDir,
    f: &Frame,
    stray_from: u32,
    next: Option<u32>,
) -> Result<Vec<Error>> {
    stray_files(dir, f, None, stray_from, next)
}

/// Every file of `moves/` that can never be taken, refused, from one listing.
fn stray_files(
    dir: &GameDir,
    f: &Frame,
    record: Option<&Record>,
    stray_from: u32,
    next: Option<u32>,
) -> Result<Vec<Error>> {
    let mut strays = Vec::new();
    let names = dir.list("moves")?;
    // The seats whose moves the record holds, by ply: built once, so a run stays linear in the
    // number of files however long the game.
    let mut played: std::collections::HashMap<u32, Vec<&str>> = Default::default();
    for l in record.map(|r| &r.lines[..]).unwrap_or_default() {
        if let Entry::Move { ply, seat, .. } = &l.entry {
            played.entry(*ply).or_default().push(seat);
        }
    }
    for name in &names {
        let stem = name.strip_suffix(".sig").unwrap_or(name);
        let parsed = stem
            .strip_suffix(".toml")
            .and_then(|s| s.split_once('-'))
            // One spelling per ply (as `move_path` writes it): `00001-south.toml` is not ply 1's.
            .filter(|(n, _)| {
                n.bytes().all(|b| b.is_ascii_digit())
                    && (n.len() == 4 || (n.len() > 4 && !n.starts_with('0')))
            })
            .and_then(|(n, seat)| Some((n.parse::<u32>().ok()?, seat)))
            .filter(|(_, seat)| f.seats.contains(seat));
        let path = format!("moves/{name}");
        let refusal = match parsed {
            None => Some((
                None,
                format!(
                    "is not a move file name (NNNN-SEAT.toml and .sig; seats: {})",
                    f.seats.join(", ")
                ),
            )),
            Some(_)
                if name.ends_with(".sig")
                    && names.binary_search_by(|n| n.as_str().cmp(stem)).is_err() =>
            {
                Some((
                    None,
                    "a signature without its move file: a move is the file and its .sig together"
                        .to_string(),
                ))
            }
            Some((ply, _)) if ply >= stray_from => Some((
                Some("ply"),
                match next {
                    Some(n) => format!("ply {n} is next"),
                    None => "the game is over".to_string(),
                },
            )),
            Some((ply, seat)) => match played.get(&ply) {
                Some(seats) if !seats.contains(&seat) => Some((
                    Some("ply"),
                    format!("ply {ply} was already played by {}", seats[0]),
                )),
                _ => None,
            },
        };
        if let Some((field, why)) = refusal {
            strays.push(refuse(path, field, why));
        }
    }
    Ok(strays)
}

/// The move files beyond ply `last`, as (ply, seat), in ply order: what a precheck checks.
pub fn moves_beyond(dir: &GameDir, last: u32) -> Result<Vec<(u32, String)>> {
    let mut pending = Vec::new();
    for name in dir.list("moves")? {
        let Some((ply, seat)) = name
            .strip_suffix(".toml")
            .and_then(|stem| stem.split_once('-'))
        else {
            continue;
        };
        if let Ok(ply) = ply.parse::<u32>() {
            if ply > last {
                pending.push((ply, seat.to_string()));
            }
        }
    }
    pending.sort();
    Ok(pending)
}
