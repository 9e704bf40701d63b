//! A finished game packed into one file: every regular file of its folder in a ustar archive
//! with fixed metadata, compressed with gzip (no name, no time), so the same folder always gives
//! the same bytes. `tar -xzf game.tar.gz -C DIR` unpacks it with standard tools; qijudge reads it
//! in place (`verify`, `tournament`), as read-only, from memory.

use super::archive;
use qijudge_protocol::error::{Error, Result};
use std::collections::BTreeMap;
use std::io::Read;
use std::ops::{Bound, Range};
use std::path::Path;

/// The file name ending of a packed game.
pub const EXTENSION: &str = ".tar.gz";

/// At most this many bytes in the file and once decompressed (a gzip stream may inflate a
/// thousandfold).
pub const MAX_UNPACKED: u64 = 512 * 1024 * 1024;

/// At most this many files in a packed game (a 1 000-ply game has a few thousand).
pub const MAX_FILES: usize = 200_000;

/// What a game folder holds at its top: the judge's files, and the folders of players' files,
/// views, reveals, set-aside files, keys and the mail judge's logs. A packed game holds nothing
/// else.
pub const GAME_NAMES: &[&str] = &[
    "game.toml",
    "record.jsonl",
    "record.sig",
    "README.md",
    "commitments",
    "sealed",
    "setups",
    "plans",
    "moves",
    "conditional",
    "reveal",
    "views",
    "refused",
    "keys",
    "mail",
];

/// Why `path` cannot be in a packed game, if it cannot: its first part is none of
/// [`GAME_NAMES`] (a file at the top, or a folder's file).
fn outside_game(path: &str) -> Option<String> {
    let (top, below) = match path.split_once('/') {
        Some((top, _)) => (top, true),
        None => (path, false),
    };
    let known = GAME_NAMES
        .iter()
        .any(|n| *n == top && n.contains('.') != below);
    (!known).then(|| {
        format!(
            "{path} is no part of a game folder (which holds {})",
            GAME_NAMES.join(", ")
        )
    })
}

/// The bytes a pack of `packed` bytes may unpack to: a game's text compresses five to ten
/// times, so thirty-two times and a mebibyte more is room enough, and a small pack cannot make
/// a reader hold hundreds of mebibytes before it is refused.
pub fn unpack_limit(packed: usize) -> u64 {
    (1u64 << 20)
        .saturating_add((packed as u64).saturating_mul(32))
        .min(MAX_UNPACKED)
}

/// The files of a packed game, by path inside the game folder: its tar, inflated once, and
/// where each file lies in it (a game of a thousand plies has thousands of small files, none
/// copied out until read).
#[derive(Debug)]
pub struct Files {
    tar: Vec<u8>,
    at: BTreeMap<String, Range<usize>>,
}

impl Files {
    /// The bytes of the file at `path`.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.at.get(path).map(|at| &self.tar[at.clone()])
    }

    /// Whether the pack holds a file at `path`.
    pub fn contains_key(&self, path: &str) -> bool {
        self.at.contains_key(path)
    }

    /// The paths, in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.at.keys()
    }

    /// The paths from `from` on, in order.
    pub fn paths_from(&self, from: &str) -> impl Iterator<Item = &String> {
        self.at
            .range::<str, _>((Bound::Included(from), Bound::Unbounded))
            .map(|(k, _)| k)
    }
}

/// Whether `path` names a packed game (by its name: it is not read).
pub fn is_packed(path: &Path) -> bool {
    path.to_str().is_some_and(|p| p.ends_with(EXTENSION))
}

/// A path an archive may hold: relative, plain parts, no hidden or temporary files.
fn plain_path(path: &str) -> bool {
    !path.is_empty()
        && path.split('/').all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-@+".contains(&b))
        })
}

/// Packs the game folder `dir`: every regular file below it but hidden ones (locks, temporary
/// files), in path order. Links and other special files are refused.
/// Packs files given by path (sorted, as [`pack`] orders a folder's).
pub fn pack_files(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>> {
    archive::write(files, flate2::Compression::default())
}

pub fn pack(dir: &Path) -> Result<Vec<u8>> {
    let mut paths = Vec::new();
    walk(dir, "", &mut paths)?;
    paths.sort();
    let mut files = Vec::with_capacity(paths.len());
    for rel in paths {
        let bytes = std::fs::read(dir.join(&rel)).map_err(|e| Error::Io(format!("{rel}: {e}")))?;
        files.push((rel, bytes));
    }
    archive::write(&files, flate2::Compression::default())
}

fn walk(root: &Path, prefix: &str, out: &mut Vec<String>) -> Result<()> {
    let at = root.join(prefix);
    let entries =
        std::fs::read_dir(&at).map_err(|e| Error::Io(format!("{}: {e}", at.display())))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::Io(format!("{}: {e}", at.display())))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        let kind = entry
            .file_type()
            .map_err(|e| Error::Io(format!("{rel}: {e}")))?;
        if kind.is_dir() {
            walk(root, &rel, out)?;
        } else if kind.is_file() && plain_path(&rel) {
            if let Some(why) = outside_game(&rel) {
                return Err(Error::Io(format!("{}: {why}", root.display())));
            }
            out.push(rel);
        } else {
            return Err(Error::Io(format!(
                "{}: {rel} is not a plain file; a game folder to pack holds only files and folders",
                root.display()
            )));
        }
    }
    Ok(())
}

/// The files of a packed game, or why it cannot be read. Only regular files at plain paths
/// of a game folder ([`GAME_NAMES`]), each once, within [`unpack_limit`] bytes and
/// [`MAX_FILES`] files.
pub fn unpack(bytes: &[u8]) -> std::result::Result<Files, String> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Err("not a gzip file".into());
    }
    let room = unpack_limit(bytes.len());
    let limits = archive::Limits {
        unpacked: room,
        file: room,
        files: MAX_FILES,
    };
    let (tar, index) = archive::index(bytes, &limits, plain_path, "a packed game holds")?;
    let files = Files {
        tar: tar.into_owned(),
        at: index.into_iter().collect(),
    };
    if let Some(why) = files.keys().find_map(|p| outside_game(p)) {
        return Err(why);
    }
    if !files.contains_key("game.toml") {
        return Err("holds no game.toml: not a packed game".into());
    }
    Ok(files)
}

/// A packed game read and unpacked, shared by every `GameDir` opened on it.
pub type Shared = std::sync::Arc<std::result::Result<Files, String>>;

/// Which file a packed game was read from: its path and the identity and times the kernel
/// keeps for it (a file replaced or written to since has another inode or ctime).
type FileKey = (std::path::PathBuf, u64, u64, u64, i64, i64, i64, i64);

thread_local! {
    /// The packed game this thread read last. A command opens one game several times (to learn
    /// its kind, then to audit it), and unpacking is a fifth of what a `tournament` pays a game.
    static LAST_READ: std::cell::RefCell<Option<(FileKey, Shared)>> =
        const { std::cell::RefCell::new(None) };
}

/// [`read`], reusing this thread's last read of the same unchanged file.
pub fn read_shared(path: &Path) -> Shared {
    use std::os::unix::fs::MetadataExt;
    let key = std::fs::metadata(path).ok().map(|m| {
        (
            path.to_path_buf(),
            m.dev(),
            m.ino(),
            m.len(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec(),
        )
    });
    let cached = LAST_READ.with(|last| match (&*last.borrow(), &key) {
        (Some((k, files)), Some(key)) if k == key => Some(files.clone()),
        _ => None,
    });
    if let Some(files) = cached {
        return files;
    }
    let files = std::sync::Arc::new(read(path));
    if let Some(key) = key {
        LAST_READ.with(|last| *last.borrow_mut() = Some((key, files.clone())));
    }
    files
}

/// Reads and unpacks the packed game at `path`.
pub fn read(path: &Path) -> std::result::Result<Files, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_UNPACKED + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_UNPACKED {
        return Err(format!("larger than {MAX_UNPACKED} bytes"));
    }
    unpack(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A second read of the same file is the first one; a file written since is read again.
    #[test]
    fn a_packed_game_is_unpacked_once_until_its_file_changes() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("game.toml"), "game = \"x\"\n").unwrap();
        let file = tmp.path().join("g.tar.gz");
        std::fs::write(&file, pack(&dir).unwrap()).unwrap();
        let first = read_shared(&file);
        assert!(std::sync::Arc::ptr_eq(&first, &read_shared(&file)));
        std::fs::write(dir.join("game.toml"), "game = \"y\"\n").unwrap();
        let other = tmp.path().join("other.tar.gz");
        std::fs::write(&other, pack(&dir).unwrap()).unwrap();
        std::fs::rename(&other, &file).unwrap();
        let again = read_shared(&file);
        assert!(!std::sync::Arc::ptr_eq(&first, &again));
        assert_eq!(
            again.as_ref().as_ref().unwrap().get("game.toml"),
            Some(&b"game = \"y\"\n"[..])
        );
    }

    /// A pack of a few kilobytes that would inflate to a mebibyte and more is refused at its
    /// own bound (a mebibyte and 32 times its size), long before the 512 MiB ceiling.
    #[test]
    fn a_small_pack_cannot_make_a_reader_hold_much() {
        let zeros = vec![0u8; 3 << 20];
        let bytes = pack_files(&[
            ("game.toml".into(), b"game = \"x\"\n".to_vec()),
            ("moves/0001-red.toml".into(), zeros),
        ])
        .unwrap();
        assert!(bytes.len() < 20_000, "{}", bytes.len());
        let room = unpack_limit(bytes.len());
        assert!(room < (2 << 20), "{room}");
        let why = unpack(&bytes).unwrap_err();
        assert_eq!(why, format!("more than {room} bytes once decompressed"));
        assert_eq!(unpack_limit(usize::MAX), MAX_UNPACKED);
    }

    /// A member outside a game folder's names is refused by name, in a pack and when packing.
    #[test]
    fn a_member_outside_the_game_is_refused_by_name() {
        for stray in ["run.sh", "notes/todo.txt", "views", "game.toml/x"] {
            let bytes = pack_files(&[
                ("game.toml".into(), b"game = \"x\"\n".to_vec()),
                (stray.into(), b"x".to_vec()),
            ])
            .unwrap();
            let why = unpack(&bytes).unwrap_err();
            assert!(
                why.starts_with(&format!(
                    "{stray} is no part of a game folder (which holds game.toml, "
                )),
                "{stray}: {why}"
            );
        }
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g");
        std::fs::create_dir_all(dir.join("moves")).unwrap();
        std::fs::write(dir.join("game.toml"), "game = \"x\"\n").unwrap();
        std::fs::write(dir.join("moves/0001-red.toml"), "m").unwrap();
        assert!(unpack(&pack(&dir).unwrap()).is_ok());
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        let e = pack(&dir).unwrap_err().to_string();
        assert!(e.contains("notes.txt is no part of a game folder"), "{e}");
    }

    #[test]
    fn packs_a_folder_deterministically_and_reads_it_back() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g");
        std::fs::create_dir_all(dir.join("moves")).unwrap();
        std::fs::write(dir.join("game.toml"), "game = \"x\"\n").unwrap();
        std::fs::write(dir.join("moves/001-south.toml"), "ply = 1\n").unwrap();
        std::fs::write(dir.join(".lock"), "").unwrap();
        let a = pack(&dir).unwrap();
        assert_eq!(pack(&dir).unwrap(), a, "same folder, same bytes");
        let files = unpack(&a).unwrap();
        let names: Vec<&str> = files.keys().map(String::as_str).collect();
        assert_eq!(names, ["game.toml", "moves/001-south.toml"]);
        assert_eq!(files.get("moves/001-south.toml"), Some(&b"ply = 1\n"[..]));
    }

    /// A packed game that lies: two gzip members (this reader would see game A, `tar -xzf` game
    /// B over it), or bytes after the tar's end marker, is refused by name.
    #[test]
    fn a_packed_game_is_one_gzip_member_and_one_tar_with_nothing_after() {
        let tmp = tempfile::tempdir().unwrap();
        let pack_of = |name: &str, game: &str| {
            let dir = tmp.path().join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("game.toml"), game).unwrap();
            pack(&dir).unwrap()
        };
        let a = pack_of("a", "game = \"a\"\n");
        let b = pack_of("b", "game = \"b\"\n");
        assert!(unpack(&a).is_ok());
        let two = [a.clone(), b].concat();
        assert!(unpack(&two).unwrap_err().contains("one member only"));
        let mut junk = a.clone();
        junk.push(0);
        assert!(unpack(&junk).unwrap_err().contains("one member only"));
        // The tar inside, with a file's worth of data after its end marker.
        let mut tar = Vec::new();
        flate2::read::GzDecoder::new(&a[..])
            .read_to_end(&mut tar)
            .unwrap();
        tar.extend_from_slice(&[b'x'; 512]);
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&tar).unwrap();
        let trailing = e.finish().unwrap();
        assert!(unpack(&trailing).unwrap_err().contains("end marker"));
    }

    #[test]
    fn refuses_what_a_packed_game_cannot_hold() {
        let gz = |tar: Vec<u8>| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(&tar).unwrap();
            e.finish().unwrap()
        };
        let archive = |entries: &[(&str, tar::EntryType)]| {
            let mut b = tar::Builder::new(Vec::new());
            for (name, kind) in entries {
                let mut h = tar::Header::new_gnu();
                h.set_entry_type(*kind);
                h.set_size(0);
                // Names are written raw: the builder's own checks would refuse `..`.
                h.as_gnu_mut().unwrap().name[..name.len()].copy_from_slice(name.as_bytes());
                h.set_cksum();
                b.append(&h, std::io::empty()).unwrap();
            }
            gz(b.into_inner().unwrap())
        };
        let reg = tar::EntryType::Regular;
        assert!(unpack(b"plain text").unwrap_err().contains("gzip"));
        assert!(unpack(&archive(&[("game.toml", reg), ("../x", reg)]))
            .unwrap_err()
            .contains("../x: not a file a packed game holds"));
        assert!(unpack(&archive(&[("game.toml", tar::EntryType::Symlink)]))
            .unwrap_err()
            .contains("not a regular file"));
        assert!(unpack(&archive(&[("game.toml", reg), ("game.toml", reg)]))
            .unwrap_err()
            .contains("twice"));
        assert!(unpack(&archive(&[("record.jsonl", reg)]))
            .unwrap_err()
            .contains("no game.toml"));
        assert!(unpack(&archive(&[("game.toml", reg)])).is_ok());
    }
}
