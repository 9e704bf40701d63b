//! What of a game folder the public may read, decided here once for the site: the files of the
//! player file kinds everyone may read (`qijudge_protocol::kinds`), the manifest, the judge's
//! record, the public view and picture, and the setups the judge revealed. A game's pages are
//! made from a copy holding only these, so a secret in the judge's folder (a setup, a seat's
//! view, a plan) is never at hand when a page is written.

use qijudge_protocol::error::{Error, Result};
use qijudge_protocol::kinds::{plain_name, public_folders};
use qijudge_store::{read_bytes_limited, RECORD_LIMIT};
use std::path::Path;

/// Files at the top of a game folder that everyone may read.
const TOP: [&str; 3] = ["game.toml", "record.jsonl", "record.sig"];

/// The judge's outputs for everyone: the public view, and the one picture of a game that
/// draws a board for everyone.
const PUBLIC_VIEWS: [&str; 6] = [
    "public.json",
    "public.txt",
    "public.png",
    "public.svg",
    "board.png",
    "board.svg",
];

/// Whether the public may read the file at `path` (relative to a game folder, `/`-separated).
pub fn may_read(path: &str) -> bool {
    match path.split_once('/') {
        None => TOP.contains(&path),
        Some(("views", name)) => PUBLIC_VIEWS
            .iter()
            .any(|v| name == *v || name.strip_suffix(".sig") == Some(v)),
        // A sealed plan (`.age`) is ciphertext no page needs.
        Some((folder, name)) => {
            public_folders().any(|f| f == folder) && plain_name(name) && !name.ends_with(".age")
        }
    }
}

/// Every file of the game folder `dir` the public may read, by path, sorted.
pub fn files(dir: &Path) -> Vec<String> {
    files_in(dir, public_folders())
}

/// The public files at the top of `dir`, in `views/`, and in `folders`.
fn files_in<'a>(dir: &Path, folders: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = TOP.iter().map(|p| p.to_string()).collect();
    out.extend(
        PUBLIC_VIEWS
            .iter()
            .flat_map(|v| [format!("views/{v}"), format!("views/{v}.sig")]),
    );
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(dir.join(folder)) else {
            continue;
        };
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_file()) {
                out.push(format!("{folder}/{}", e.file_name().to_string_lossy()));
            }
        }
    }
    out.retain(|p| may_read(p) && dir.join(p).is_file());
    out.sort();
    out
}

/// What a game's pages are made from, as one digest: the manifest, the record and its
/// signature, the public view and picture, and the revealed setups. The record names every
/// move by its hash, so a move file is covered once judged; one not judged yet changes no page.
pub fn fingerprint(dir: &Path) -> Result<String> {
    let mut listing = String::new();
    for path in files(dir) {
        let covered =
            !path.contains('/') || path.starts_with("views/") || path.starts_with("reveal/");
        if !covered {
            continue;
        }
        let bytes = read_bytes_limited(&dir.join(&path), &path, RECORD_LIMIT)?;
        listing.push_str(&format!(
            "{} {path}\n",
            qijudge_rules::hash::sha256_tagged(&bytes)
        ));
    }
    Ok(qijudge_rules::hash::sha256_tagged(listing.as_bytes()))
}

/// Copies the public files of `dir` into the empty folder `to`.
pub fn copy(dir: &Path, to: &Path) -> Result<()> {
    for path in files(dir) {
        let bytes = read_bytes_limited(&dir.join(&path), &path, RECORD_LIMIT)?;
        let target = to.join(&path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Error::Io(format!("{}: {e}", parent.display())))?;
        }
        std::fs::write(&target, bytes)
            .map_err(|e| Error::Io(format!("{}: {e}", target.display())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_everyone_may_read_is_public() {
        for ok in [
            "game.toml",
            "record.jsonl",
            "record.sig",
            "moves/0001-south.toml",
            "moves/0001-south.toml.sig",
            "commitments/north.toml.sig",
            "conditional/0004-south.toml",
            "reveal/north.toml",
            "views/public.json",
            "views/public.png.sig",
            "views/board.svg",
        ] {
            assert!(may_read(ok), "{ok}");
        }
        for secret in [
            "setups/south.toml",
            "sealed/south.age",
            "plans/0004-south.toml",
            "conditional/0004-south.age",
            "views/south.json",
            "views/south.refusal.txt",
            "views/full.png",
            "refused/x.toml",
            "mail/sent.json",
            "moves/../setups/south.toml",
            "moves/.hidden",
            "keys/judge",
        ] {
            assert!(!may_read(secret), "{secret}");
        }
    }

    #[test]
    fn a_copy_holds_no_secret_and_the_fingerprint_ignores_moves_not_judged() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g");
        for (p, b) in [
            ("game.toml", "id = 1\n"),
            ("record.jsonl", "{}\n"),
            ("setups/south.toml", "secret\n"),
            ("views/south.json", "{}\n"),
            ("views/public.json", "{}\n"),
        ] {
            std::fs::create_dir_all(dir.join(p).parent().unwrap()).unwrap();
            std::fs::write(dir.join(p), b).unwrap();
        }
        let before = fingerprint(&dir).unwrap();
        std::fs::create_dir_all(dir.join("moves")).unwrap();
        std::fs::write(dir.join("moves/0001-south.toml"), "m\n").unwrap();
        assert_eq!(fingerprint(&dir).unwrap(), before);
        std::fs::write(dir.join("record.jsonl"), "{}\n{}\n").unwrap();
        assert_ne!(fingerprint(&dir).unwrap(), before);
        let to = tmp.path().join("copy");
        copy(&dir, &to).unwrap();
        assert!(to.join("moves/0001-south.toml").is_file());
        assert!(to.join("views/public.json").is_file());
        assert!(!to.join("setups").exists() && !to.join("views/south.json").exists());
    }
}
