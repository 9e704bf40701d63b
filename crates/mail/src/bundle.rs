//! A game in one attachment: its public files (manifest, record, commitments, moves, revealed
//! setups, the judge's views for one audience) packed as a ustar archive with fixed metadata and
//! compressed with gzip (no name, no time), so the same game always gives the same bytes.

use qijudge_protocol::error::Result;
use qijudge_store::GameDir;

/// Folders whose files travel in a bundle (never `setups/`, `refused/`, `mail/`, `sealed/`).
const FOLDERS: [&str; 3] = ["commitments", "moves", "reveal"];

/// At most this many files in a bundle (a long game has a few hundred).
pub const MAX_FILES: usize = 20_000;

/// At most this many bytes once decompressed: a small gzip file may inflate a thousandfold.
pub const MAX_UNPACKED: u64 = 64 * 1024 * 1024;

/// Whether these bytes are a bundle: gzip (magic 1f 8b, deflate) or a plain ustar archive.
pub fn is_archive(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b, 0x08])
        || (bytes.len() >= 512 && bytes.get(257..262) == Some(b"ustar"))
}

/// A path a bundle may hold: `game.toml`, the record, a file directly in a folder everyone may
/// read (`qijudge_protocol::kinds::public_folders`), or a view's JSON or text (with signatures)
/// in `views/`.
pub fn allowed_path(path: &str) -> bool {
    use qijudge_protocol::kinds::{plain_name as plain, public_folders};
    match path.split_once('/') {
        None => ["game.toml", "record.jsonl", "record.sig"].contains(&path),
        Some(("views", name)) => {
            plain(name)
                && [".json", ".json.sig", ".txt", ".txt.sig"]
                    .iter()
                    .any(|ext| name.ends_with(ext))
        }
        Some((folder, name)) => public_folders().any(|f| f == folder) && plain(name),
    }
}

/// A bundle as one recipient gets it: the archive, and what the whole bundle holds.
pub struct Bundle {
    /// The archive: the files of [`Bundle::files`] the recipient has not had.
    pub bytes: Vec<u8>,
    /// Every file the game's bundle holds for these audiences, by path, with its SHA-256: what
    /// the recipient holds once it has this one.
    pub files: Had,
    /// The SHA-256 of `files`: the same for the same game, whatever the recipient had.
    pub digest: String,
    /// How many files the recipient lacks that were left for the next message (0: none).
    pub left: usize,
}

/// Files a recipient has had, by path, with their SHA-256.
pub type Had = std::collections::BTreeMap<String, String>;

/// The bundle of a game for the given audiences' views (one seat's, the public and the full one
/// in a game with secrets; every view in a game of perfect information). Signed files a
/// recipient has had (in `had`, with the same SHA-256: moves, reveals and conditional files
/// never change once written) are left out; the manifest, the record, the commitments and the
/// views always travel.
pub fn pack(dir: &GameDir, audiences: &[&str], had: &Had) -> Result<Bundle> {
    pack_within(dir, audiences, had, usize::MAX)
}

/// [`pack`], its archive kept within `budget` bytes where it can be: the manifest, the record,
/// the commitments and the views always travel; of the other files the recipient lacks, the
/// oldest come first (moves in ply order) and those that do not fit wait for the next message.
/// A bundle that left files out says so (`partial`); its `files` are those the recipient then
/// holds, so the next bundle carries the rest, and its digest differs from the whole one's, so
/// the next run sends it.
pub fn pack_within(dir: &GameDir, audiences: &[&str], had: &Had, budget: usize) -> Result<Bundle> {
    let mut paths: Vec<String> = ["game.toml", "record.jsonl", "record.sig"]
        .map(String::from)
        .into();
    for folder in FOLDERS {
        let Ok(entries) = std::fs::read_dir(dir.path(folder)) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().is_ok_and(|t| t.is_file()) {
                paths.push(format!("{folder}/{name}"));
            }
        }
    }
    paths.extend(fired_conditionals(dir));
    for who in audiences {
        for ext in ["json", "json.sig", "txt", "txt.sig"] {
            paths.push(format!("views/{who}.{ext}"));
        }
    }
    paths.sort();
    paths.dedup();
    let all: Vec<(String, Vec<u8>)> = paths
        .into_iter()
        .filter(|p| allowed_path(p))
        .filter_map(|p| std::fs::read(dir.path(&p)).ok().map(|b| (p, b)))
        .collect();
    let files: Had = all
        .iter()
        .map(|(p, b)| (p.clone(), qijudge_rules::hash::sha256_tagged(b)))
        .collect();
    let digest = listing_digest("", &files);
    // The commitments too, few and small: a revealed setup is checked against its seat's.
    let always =
        |p: &str| !p.contains('/') || p.starts_with("views/") || p.starts_with("commitments/");
    let new: Vec<(String, Vec<u8>)> = all
        .into_iter()
        .filter(|(p, _)| always(p) || had.get(p) != files.get(p))
        .collect();
    let bytes = qijudge_store::archive::write(&new, flate2::Compression::best())?;
    if bytes.len() <= budget {
        return Ok(Bundle {
            bytes,
            files,
            digest,
            left: 0,
        });
    }
    // The most of the waiting files (in path order) whose archive fits, found by halving.
    let (fixed, waiting): (Vec<_>, Vec<_>) = new.into_iter().partition(|(p, _)| always(p));
    let archive_of = |k: usize| {
        let mut some = fixed.clone();
        some.extend(waiting[..k].iter().cloned());
        some.sort();
        qijudge_store::archive::write(&some, flate2::Compression::best())
    };
    let (mut lo, mut hi) = (0, waiting.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        match archive_of(mid)?.len() <= budget {
            true => lo = mid,
            false => hi = mid - 1,
        }
    }
    // At least one waiting file, so that every message brings the recipient closer to whole.
    let lo = lo.max(waiting.len().min(1));
    let bytes = archive_of(lo)?;
    // What the recipient holds after this one: all but the files left for later.
    let mut held = files;
    for (p, _) in &waiting[lo..] {
        match had.get(p) {
            Some(h) => held.insert(p.clone(), h.clone()),
            None => held.remove(p),
        };
    }
    // Everything carried after all (one file over the budget): the whole bundle's digest, so
    // that no further message follows.
    let digest = match lo == waiting.len() {
        true => digest,
        false => listing_digest("partial\n", &held),
    };
    Ok(Bundle {
        bytes,
        digest,
        files: held,
        left: waiting.len() - lo,
    })
}

/// The SHA-256 of `head` and a listing of `files` (a line `HASH PATH` each).
fn listing_digest(head: &str, files: &Had) -> String {
    let listing: String = files.iter().map(|(p, h)| format!("{h} {p}\n")).collect();
    qijudge_rules::hash::sha256_tagged(format!("{head}{listing}").as_bytes())
}

/// The files that `record.jsonl` in `dir` names and `dir` lacks (a player's copy that missed
/// a message): each accepted commitment and move file, or the conditional file a move was
/// played from.
pub fn missing_files(dir: &GameDir) -> Vec<String> {
    use qijudge_protocol::files::Entry;
    let Ok(text) = std::fs::read_to_string(dir.path("record.jsonl")) else {
        return Vec::new();
    };
    let mut missing: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<qijudge_protocol::files::RecordLine>(l).ok())
        .filter_map(|l| match l.entry {
            Entry::Commitment { seat, .. } => Some(format!("commitments/{seat}.toml")),
            Entry::Move {
                conditional: Some(fired),
                ..
            } => Some(fired.path),
            Entry::Move { ply, seat, .. } => Some(qijudge_judge::move_path(ply, &seat)),
            _ => None,
        })
        .filter(|p| !dir.path(p).is_file())
        .collect();
    missing.dedup();
    missing
}

/// The conditional files (with signatures) the record says the judge played from: a copy
/// replays those plies from them and the steps the record discloses, as from move files. They
/// show no plan (each line is a salted commitment), so they travel at once in every game;
/// the plans themselves never travel.
fn fired_conditionals(dir: &GameDir) -> Vec<String> {
    let Ok(record) = std::fs::read_to_string(dir.path("record.jsonl")) else {
        return Vec::new();
    };
    qijudge_judge::conditional::fired_paths(&record)
        .flat_map(|p| [format!("{p}.sig"), p])
        .collect()
}

/// The files of a bundle, or why it cannot be read: only regular files at allowed paths, each
/// at most `limit` bytes, at most [`MAX_FILES`].
pub fn unpack(bytes: &[u8], limit: u64) -> std::result::Result<Vec<(String, Vec<u8>)>, String> {
    let limits = qijudge_store::archive::Limits {
        unpacked: MAX_UNPACKED,
        file: limit,
        files: MAX_FILES,
    };
    qijudge_store::archive::read(bytes, &limits, allowed_path, "a game bundle holds")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bundle held to a budget carries the files that always travel and as many others as
    /// fit, oldest first, at least one each time; its digest differs from the whole bundle's,
    /// and bundle after bundle, each recipient's files logged as held, the whole game arrives.
    #[test]
    fn a_bundle_within_a_budget_carries_the_rest_in_the_next_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        dir.write("game.toml", b"game").unwrap();
        dir.write("record.jsonl", b"record").unwrap();
        dir.write("views/public.json", b"{}").unwrap();
        // Moves that do not compress: each takes its room in the archive.
        let mut seed = 7u64;
        for ply in 1..=6 {
            let noise: Vec<u8> = (0..3000)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    (seed >> 33) as u8
                })
                .collect();
            dir.write(&format!("moves/{ply:04}-red.toml"), &noise)
                .unwrap();
        }
        let whole = pack(&dir, &["public"], &Had::new()).unwrap();
        assert_eq!(whole.left, 0);
        let mut had = Had::new();
        let mut parts = 0;
        loop {
            // Too small for even one move: each part still brings one.
            let part = pack_within(&dir, &["public"], &had, 1_000).unwrap();
            parts += 1;
            assert!(parts <= 6, "the rest never stopped coming");
            let carried = crate::bundle::unpack(&part.bytes, 1 << 20).unwrap();
            let moves: Vec<&String> = carried
                .iter()
                .map(|(p, _)| p)
                .filter(|p| p.starts_with("moves/"))
                .collect();
            assert_eq!(moves.len(), 1, "{moves:?}");
            assert!(carried.iter().any(|(p, _)| p == "record.jsonl"));
            had = part.files.clone();
            if part.left == 0 {
                assert_eq!(
                    part.digest, whole.digest,
                    "complete: the whole bundle's digest"
                );
                break;
            }
            assert_ne!(part.digest, whole.digest);
            assert_eq!(part.left, 6 - parts);
        }
        assert_eq!(had, whole.files);
    }

    #[test]
    fn only_public_game_files_may_travel_in_a_bundle() {
        for ok in [
            "game.toml",
            "record.jsonl",
            "moves/0001-south.toml.sig",
            "reveal/north.toml",
            "views/public.json",
            "views/south.txt.sig",
        ] {
            assert!(allowed_path(ok), "{ok}");
        }
        for bad in [
            "setups/south.toml",
            "../game.toml",
            "moves/../../x",
            "moves/a/b",
            "views/public.png",
            "views/.hidden.json",
            "mail/sent.json",
            "/etc/passwd",
            "moves/",
        ] {
            assert!(!allowed_path(bad), "{bad}");
        }
    }

    #[test]
    fn a_packed_game_unpacks_to_the_same_files_and_packs_to_the_same_bytes() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        std::fs::create_dir_all(tmp.path().join("moves")).unwrap();
        std::fs::create_dir_all(tmp.path().join("setups")).unwrap();
        std::fs::write(tmp.path().join("game.toml"), "id = \"x\"\n").unwrap();
        std::fs::write(tmp.path().join("moves/0001-south.toml"), "m\n").unwrap();
        std::fs::write(tmp.path().join("setups/south.toml"), "secret\n").unwrap();
        let audiences = ["south", "public", "full"];
        let packed = pack(&dir, &audiences, &Had::new()).unwrap();
        assert!(is_archive(&packed.bytes));
        let again = pack(&dir, &audiences, &Had::new()).unwrap();
        assert_eq!(packed.bytes, again.bytes);
        let files = unpack(&packed.bytes, 1024).unwrap();
        let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(names, ["game.toml", "moves/0001-south.toml"]);
        assert!(unpack(&packed.bytes, 4)
            .unwrap_err()
            .contains("larger than 4 bytes"));
        // A recipient that had the move gets the manifest again, not the move; one that had
        // another file at its path gets it; what the bundle stands for is the same.
        let next = pack(&dir, &audiences, &packed.files).unwrap();
        let names: Vec<String> = unpack(&next.bytes, 1024)
            .unwrap()
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(names, ["game.toml"], "the move is not sent twice");
        assert_eq!(next.digest, packed.digest);
        let mut other = packed.files.clone();
        other.insert("moves/0001-south.toml".into(), "sha256:00".into());
        let names = unpack(&pack(&dir, &audiences, &other).unwrap().bytes, 1024).unwrap();
        assert_eq!(names.len(), 2);
    }

    #[test]
    fn a_gzip_bomb_is_refused_once_it_passes_the_limit() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..(MAX_UNPACKED >> 20) + 1 {
            gz.write_all(&zeros).unwrap();
        }
        let bomb = gz.finish().unwrap();
        assert!(bomb.len() < 200_000, "{}", bomb.len());
        assert!(is_archive(&bomb));
        assert!(unpack(&bomb, 1024)
            .unwrap_err()
            .contains("once decompressed"));
    }
}
