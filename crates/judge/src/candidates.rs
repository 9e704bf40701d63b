//! Intake versus acceptance: a file a player (or anyone) puts in a game folder is a candidate;
//! only the judge's record accepts it. A refused candidate must not hold its place (the seat
//! could never send a corrected move there), so the judge moves it, byte for byte and with its
//! signature, into `refused/`, and tells its seat why.

use qijudge_protocol::error::{Error, Result};
use qijudge_rules::hash::sha256_tagged;
use std::fs;

/// The folders candidates arrive in. Anything the judge writes lives elsewhere.
const CANDIDATE_FOLDERS: [&str; 5] = [
    "moves/",
    "commitments/",
    "setups/",
    "sealed/",
    "conditional/",
];

/// Where refused candidates are kept.
pub const REFUSED: &str = "refused";

/// The candidate a refused path names (its `.sig` stripped), if the path is one.
pub fn candidate(file: &str) -> Option<&str> {
    let base = file.strip_suffix(".sig").unwrap_or(file);
    let (folder, name) = base.split_at(base.find('/')? + 1);
    let plain = !name.is_empty()
        && !name.contains('/')
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    (CANDIDATE_FOLDERS.contains(&folder) && plain).then_some(base)
}

/// The seat a candidate belongs to by its name (`moves/NNNN-SEAT.toml`,
/// `conditional/NNNN-SEAT.toml`, `FOLDER/SEAT.ext`).
pub fn owner(file: &str, seats: &[&str]) -> Option<usize> {
    let base = candidate(file)?;
    let name = base.rsplit('/').next()?;
    let stem = name.split('.').next()?;
    let seat = match base.starts_with("moves/") || base.starts_with("conditional/") {
        true => stem.split_once('-')?.1,
        false => stem,
    };
    seats.iter().position(|s| *s == seat)
}

/// Where a refused candidate goes: `refused/<folder>/<stem>.<12 hex digits>.<ext>`, the digits
/// from the file and its signature, so two different refused files never share a name and the
/// same one sent twice does.
fn destination(base: &str, body: &[u8], sig: &[u8]) -> String {
    let mut both = body.to_vec();
    both.push(0);
    both.extend_from_slice(sig);
    let digest = sha256_tagged(&both);
    let short = &digest.trim_start_matches("sha256:")[..12];
    match base.rsplit_once('/').map(|(_, n)| n.split_once('.')) {
        Some(Some((stem, ext))) => {
            let folder = &base[..base.rfind('/').unwrap_or(0)];
            format!("{REFUSED}/{folder}/{stem}.{short}.{ext}")
        }
        _ => format!("{REFUSED}/{base}.{short}"),
    }
}

/// Reads a regular file's bytes (links and folders are moved by name, unread).
fn bytes_of(path: &std::path::Path) -> Vec<u8> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_file() && m.len() <= qijudge_store::SEALED_LIMIT => {
            fs::read(path).unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// Moves the refused candidate `file` (and its `.sig`) into `refused/` by renaming, so its bytes
/// and permissions stay as they were. Returns where it went; none when it is no candidate or is
/// already gone.
pub fn set_aside(dir: &qijudge_store::GameDir, file: &str) -> Result<Option<String>> {
    let Some(base) = candidate(file) else {
        return Ok(None);
    };
    let sig = format!("{base}.sig");
    // On disk, not through `dir.exists`: a refused candidate is held back from the run.
    let there = |rel: &str| fs::symlink_metadata(dir.path(rel)).is_ok();
    if !there(base) && !there(&sig) {
        return Ok(None);
    }
    dir.check_folders(base)?;
    let to = destination(base, &bytes_of(&dir.path(base)), &bytes_of(&dir.path(&sig)));
    let folder = to.rsplit_once('/').map_or(REFUSED, |(f, _)| f);
    let io = |e: std::io::Error| Error::Io(format!("{to}: {e}"));
    clear_way(dir, folder).map_err(io)?;
    fs::create_dir_all(dir.path(folder)).map_err(io)?;
    for target in [to.clone(), format!("{to}.sig")] {
        // Anyone may put something at the destination: only a regular file (the same refused
        // file set aside before) is left to be replaced.
        if fs::symlink_metadata(dir.path(&target)).is_ok_and(|m| m.is_dir()) {
            fs::remove_dir_all(dir.path(&target)).map_err(io)?;
        }
    }
    // The signature first: a crash between the two leaves an unsigned file, refused next time.
    for (from, to) in [
        (sig.clone(), format!("{to}.sig")),
        (base.to_string(), to.clone()),
    ] {
        if there(&from) {
            fs::rename(dir.path(&from), dir.path(&to)).map_err(io)?;
        }
    }
    // A conditional file's sealed plans go with it: alone they could never be used.
    if let (Some(stem), Some(to_stem)) = (
        base.strip_prefix("conditional/")
            .and_then(|b| b.strip_suffix(".toml")),
        to.strip_suffix(".toml"),
    ) {
        let sealed = format!("conditional/{stem}.age");
        if fs::symlink_metadata(dir.path(&sealed)).is_ok_and(|m| m.is_file()) {
            fs::rename(dir.path(&sealed), dir.path(&format!("{to_stem}.age"))).map_err(io)?;
        }
    }
    Ok(Some(to))
}

/// Removes whatever stands on the way to `folder` (`refused/moves`) that is not a real folder: a
/// link (so nothing is ever moved out of the game folder through it) or a file. Only the link or
/// file itself goes, never what a link points to.
fn clear_way(dir: &qijudge_store::GameDir, folder: &str) -> std::io::Result<()> {
    let mut at = String::new();
    for part in folder.split('/') {
        at = if at.is_empty() {
            part.to_string()
        } else {
            format!("{at}/{part}")
        };
        match fs::symlink_metadata(dir.path(&at)) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => fs::remove_file(dir.path(&at))?,
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_player_files_only() {
        assert_eq!(
            candidate("moves/0007-north.toml.sig"),
            Some("moves/0007-north.toml")
        );
        assert_eq!(candidate("setups/south.toml"), Some("setups/south.toml"));
        assert_eq!(candidate("sealed/south.age"), Some("sealed/south.age"));
        for not in [
            "record.jsonl",
            "views/south.json",
            "game.toml",
            "moves/",
            "moves/a/b.toml",
            "moves/..",
            "refused/moves/x.toml",
        ] {
            assert_eq!(candidate(not), None, "{not}");
        }
    }

    #[test]
    fn the_owner_is_the_seat_the_name_gives() {
        let seats = ["south", "north"];
        assert_eq!(owner("moves/0007-north.toml", &seats), Some(1));
        assert_eq!(owner("moves/10000-south.toml.sig", &seats), Some(0));
        assert_eq!(owner("setups/north.toml", &seats), Some(1));
        assert_eq!(owner("moves/0007-east.toml", &seats), None);
        assert_eq!(owner("moves/junk", &seats), None);
    }

    #[test]
    fn a_refused_file_moves_with_its_signature_and_the_same_one_twice_lands_once() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = qijudge_store::GameDir::new(tmp.path());
        let put = |rel: &str, body: &str| {
            fs::create_dir_all(dir.path(rel).parent().unwrap()).unwrap();
            fs::write(dir.path(rel), body).unwrap();
        };
        put("moves/0007-north.toml", "move");
        put("moves/0007-north.toml.sig", "sig");
        // Named by its signature file, as a bad-signature refusal names it.
        let to = set_aside(&dir, "moves/0007-north.toml.sig")
            .unwrap()
            .unwrap();
        assert!(!dir.exists("moves/0007-north.toml") && !dir.exists("moves/0007-north.toml.sig"));
        assert_eq!(fs::read_to_string(dir.path(&to)).unwrap(), "move");
        assert_eq!(
            fs::read_to_string(dir.path(&format!("{to}.sig"))).unwrap(),
            "sig"
        );
        // Sent again, refused again: the same place, one copy.
        put("moves/0007-north.toml", "move");
        put("moves/0007-north.toml.sig", "sig");
        assert_eq!(set_aside(&dir, "moves/0007-north.toml").unwrap(), Some(to));
        assert_eq!(fs::read_dir(dir.path("refused/moves")).unwrap().count(), 2);
        // Nothing there, or not a candidate: nothing moves.
        assert_eq!(set_aside(&dir, "moves/0007-north.toml").unwrap(), None);
        put("record.jsonl", "r");
        assert_eq!(set_aside(&dir, "record.jsonl").unwrap(), None);
        assert!(dir.exists("record.jsonl"));
    }

    #[test]
    fn different_files_go_to_different_places() {
        let a = destination("moves/0007-north.toml", b"a", b"s");
        let b = destination("moves/0007-north.toml", b"b", b"s");
        let c = destination("moves/0007-north.toml", b"a", b"t");
        assert!(a.starts_with("refused/moves/0007-north.") && a.ends_with(".toml"));
        assert!(a != b && a != c && b != c);
        assert_eq!(a, destination("moves/0007-north.toml", b"a", b"s"));
        assert!(destination("moves/junk", b"", b"").starts_with("refused/moves/junk."));
    }
}
