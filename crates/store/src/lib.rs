//! Game directory I/O: bounded reads of regular files, atomic writes, one judge at a time.

use qijudge_protocol::error::{refuse, refuse_with, Error, Result};

pub mod archive;
pub mod git;
pub mod packed;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Largest player file (manifest, commitment, setup, move) read, in bytes.
pub const SMALL_FILE_LIMIT: u64 = 64 * 1024;
/// Largest signature file read, in bytes.
pub const SIGNATURE_LIMIT: u64 = 16 * 1024;
/// Largest sealed file read, in bytes.
pub const SEALED_LIMIT: u64 = 16 * 1024 * 1024;
/// Largest record read, in bytes.
pub const RECORD_LIMIT: u64 = 256 * 1024 * 1024;

/// A game directory.
#[derive(Clone, Debug)]
pub struct GameDir {
    pub root: PathBuf,
    /// Folders already found to be real folders (not links).
    checked: std::cell::RefCell<std::collections::BTreeSet<String>>,
    /// Whether writes are synced to disk before they count (off for scratch directories).
    durable: bool,
    /// A packed game (`game.tar.gz`): its files, read once, or why they cannot be read.
    packed: Option<packed::Shared>,
    /// Files read ahead of their use (see [`GameDir::read_ahead`]), by path.
    ahead: std::cell::RefCell<std::collections::HashMap<String, String>>,
    /// Candidates refused earlier in this judge run: treated as absent, so the run goes on
    /// taking the good files beside them (they are set aside when the run writes).
    held_back: std::cell::RefCell<std::collections::BTreeSet<String>>,
    /// The in-memory copy of the folder a [`MemoryGuard`] holds, shared by
    /// the clones of this value.
    pending: Option<std::sync::Arc<Mutex<Pending>>>,
}

/// Files written to an in-memory game folder and not yet flushed: `None` is a deletion;
/// private files are written readable by their owner only.
#[derive(Debug, Default)]
struct Pending {
    files: std::collections::BTreeMap<String, Option<Vec<u8>>>,
    private: std::collections::BTreeSet<String>,
    /// The files written since the folder was read (what a flush writes).
    dirty: std::collections::BTreeSet<String>,
    /// Every file of the folder was read in at the start: the disk is not looked at again.
    detached: bool,
}

/// Game folders kept in memory for this process (see [`MemoryGuard`]).
type Shared = std::sync::Arc<Mutex<Pending>>;
static MEMORY: Mutex<Vec<(PathBuf, Shared)>> = Mutex::new(Vec::new());

/// While held, every [`GameDir`] of `root` made in this process shares one in-memory copy of
/// the folder: the commands a match runs on a game (judge, reveal, audit) read and write there,
/// and the holder then writes the folder once ([`MemoryGuard::flush`]) or packs it
/// ([`MemoryGuard::files`]) without the files ever being created one by one.
pub struct MemoryGuard {
    root: PathBuf,
    pending: Shared,
}

impl MemoryGuard {
    pub fn new(root: &Path) -> MemoryGuard {
        let pending = std::sync::Arc::new(Mutex::new(read_in(root)));
        MEMORY
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((root.to_path_buf(), pending.clone()));
        MemoryGuard {
            root: root.to_path_buf(),
            pending,
        }
    }

    /// Every file the folder holds, by path, in path order (hidden names left out, as a packed
    /// game leaves them out).
    pub fn files(&self) -> Vec<(String, Vec<u8>)> {
        let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending
            .files
            .iter()
            .filter(|(rel, _)| !rel.split('/').any(|part| part.starts_with('.')))
            .filter_map(|(rel, bytes)| Some((rel.clone(), bytes.clone()?)))
            .collect()
    }

    /// Writes the files changed in memory to the folder on disk (without syncs).
    pub fn flush(&self) -> Result<()> {
        let dir = GameDir {
            pending: Some(self.pending.clone()),
            ..GameDir::new(self.root.clone())
        };
        dir.flush_pending()
    }
}

impl Drop for MemoryGuard {
    fn drop(&mut self) {
        let mut held = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
        held.retain(|(_, p)| !std::sync::Arc::ptr_eq(p, &self.pending));
    }
}

/// The in-memory copy of the folder at `root`: its files read in (none when it does not exist
/// yet), detached from the disk; when it cannot be read whole, an overlay on the disk.
fn read_in(root: &Path) -> Pending {
    match read_tree(root) {
        Ok(files) => Pending {
            files,
            detached: true,
            ..Pending::default()
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Pending {
            detached: true,
            ..Pending::default()
        },
        Err(_) => Pending::default(),
    }
}

/// Every regular file below `root` by its path from `root` (links and the lock file left out).
fn read_tree(root: &Path) -> std::io::Result<std::collections::BTreeMap<String, Option<Vec<u8>>>> {
    fn walk(
        root: &Path,
        dir: &Path,
        out: &mut std::collections::BTreeMap<String, Option<Vec<u8>>>,
    ) -> std::io::Result<()> {
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            let Some(rel) = path
                .strip_prefix(root)
                .ok()
                .and_then(|r| r.to_str())
                .map(str::to_string)
            else {
                continue;
            };
            if kind.is_dir() {
                walk(root, &path, out)?;
            } else if kind.is_file() && rel != LOCK {
                out.insert(rel, Some(fs::read(&path)?));
            }
        }
        Ok(())
    }
    let mut out = std::collections::BTreeMap::new();
    walk(root, root, &mut out)?;
    Ok(out)
}

/// The game locks this process holds, by folder, with how many callers hold each (a command
/// that locks the folder may call the judge, which locks it again).
static HELD: Mutex<Vec<(PathBuf, u32, Option<File>)>> = Mutex::new(Vec::new());

/// Held while a command writes into a game folder; the lock is released when the last guard of
/// this process is dropped.
#[derive(Debug)]
pub struct LockGuard {
    folder: PathBuf,
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = held.iter().position(|(f, _, _)| *f == self.folder) {
            held[i].1 -= 1;
            if held[i].1 == 0 {
                held.swap_remove(i); // closing the file releases the lock
            }
        }
    }
}

impl GameDir {
    /// The game at `root`: a folder, or a packed game (a regular file named `*.tar.gz`), which
    /// is read whole and then only read from.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let packed = (packed::is_packed(&root)
            && fs::symlink_metadata(&root).is_ok_and(|m| m.is_file()))
        .then(|| packed::read_shared(&root));
        let durable = !is_scratch(&root);
        let pending = {
            let held = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
            held.iter()
                .find(|(r, _)| *r == root)
                .map(|(_, p)| p.clone())
        };
        GameDir {
            root,
            checked: Default::default(),
            durable,
            packed,
            ahead: Default::default(),
            held_back: Default::default(),
            pending,
        }
    }

    /// Whether this is an in-memory folder that never looks at the disk.
    fn detached(&self) -> bool {
        self.pending
            .as_ref()
            .is_some_and(|p| p.lock().unwrap_or_else(|e| e.into_inner()).detached)
    }

    /// Writes the files changed in memory to the folder on disk (without syncs; see
    /// [`sync_folder`]); nothing for a folder on disk.
    fn flush_pending(&self) -> Result<()> {
        let Some(pending) = &self.pending else {
            return Ok(());
        };
        let mut pending = pending.lock().unwrap_or_else(|e| e.into_inner());
        let dirty = std::mem::take(&mut pending.dirty);
        for rel in dirty {
            let bytes = pending.files.get(&rel).cloned().flatten();
            self.check_folders(&rel)?;
            let path = self.path(&rel);
            match bytes {
                Some(b) if pending.private.contains(&rel) => {
                    write_with_mode(&path, &b, false, 0o600)?
                }
                Some(b) => write_file(&path, &b, false)?,
                None => match fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&path, e)),
                    _ => {}
                },
            }
        }
        Ok(())
    }

    /// What the in-memory writes say of `rel`: `Some(None)` deleted, `Some(Some(bytes))` written.
    fn pending_file(&self, rel: &str) -> Option<Option<Vec<u8>>> {
        let pending = self.pending.as_ref()?;
        let pending = pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.files.get(rel).cloned()
    }

    /// Keeps a write in memory; false for a folder on disk.
    fn keep_pending(&self, rel: &str, bytes: Option<&[u8]>, private: bool) -> bool {
        let Some(pending) = &self.pending else {
            return false;
        };
        let mut pending = pending.lock().unwrap_or_else(|e| e.into_inner());
        pending
            .files
            .insert(rel.to_string(), bytes.map(<[u8]>::to_vec));
        pending.dirty.insert(rel.to_string());
        if private {
            pending.private.insert(rel.to_string());
        }
        true
    }

    /// The files of a packed game; none for a folder.
    fn packed_files(&self) -> Option<Result<&packed::Files>> {
        self.packed.as_ref().map(|p| {
            p.as_ref().as_ref().map_err(|why| {
                refuse_with(
                    self.root.display().to_string(),
                    None,
                    format!("cannot be read as a packed game: {why}"),
                    "a packed game is a .tar.gz file written by `qijudge match --pack` or `qijudge pack`",
                )
            })
        })
    }

    /// Refuses to write into a packed game.
    fn writable(&self) -> Result<()> {
        if self.packed.is_some() {
            return Err(refuse_with(
                self.root.display().to_string(),
                None,
                "is a packed game, which is only read",
                "unpack it into a folder first: mkdir DIR && tar -xzf GAME.tar.gz -C DIR",
            ));
        }
        Ok(())
    }

    /// A packed game's file, within `limit` bytes.
    fn packed_read(&self, files: &packed::Files, rel: &str, limit: u64) -> Result<Vec<u8>> {
        let bytes = files.get(rel).ok_or_else(|| refuse(rel, None, "missing"))?;
        if bytes.len() as u64 > limit {
            return Err(refuse(
                rel,
                None,
                format!("too large: {} bytes, the limit is {limit}", bytes.len()),
            ));
        }
        Ok(bytes.to_vec())
    }

    /// A directory whose writes are not synced one by one: for games a bot match writes and
    /// replays from the start when interrupted, where a sync per move would dominate the cost.
    pub fn scratch(root: impl Into<PathBuf>) -> Self {
        GameDir {
            durable: false,
            ..GameDir::new(root)
        }
    }

    /// The folder on disk, when this is one read straight from the disk (neither packed nor
    /// held in memory): other threads may then read its files by path.
    pub fn plain_folder(&self) -> Option<&Path> {
        (self.packed.is_none() && self.pending.is_none()).then_some(&self.root)
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Whether a regular file exists at `rel`.
    pub fn exists(&self, rel: &str) -> bool {
        if self.is_held_back(rel) {
            return false;
        }
        if self.ahead.borrow().contains_key(rel) {
            return true;
        }
        if let Some(pending) = &self.pending {
            let pending = pending.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(file) = pending.files.get(rel) {
                return file.is_some();
            }
            let folder = format!("{rel}/");
            if pending
                .files
                .range(folder.clone()..)
                .take_while(|(k, _)| k.starts_with(&folder))
                .any(|(_, v)| v.is_some())
            {
                return true;
            }
            if pending.detached {
                return false;
            }
        }
        if let Some(files) = self.packed_files() {
            let folder = format!("{rel}/");
            return files.is_ok_and(|f| {
                f.contains_key(rel)
                    || f.paths_from(&folder)
                        .next()
                        .is_some_and(|k| k.starts_with(&folder))
            });
        }
        fs::symlink_metadata(self.path(rel)).is_ok()
    }

    /// Reads a UTF-8 file of at most `limit` bytes; refuses links and other non-regular files
    /// (in the file and in every folder on its way) before opening, and checks the size before
    /// reading.
    pub fn read(&self, rel: &str, limit: u64) -> Result<String> {
        if self.is_held_back(rel) {
            return Err(refuse(rel, None, "missing"));
        }
        let ahead = self.ahead.borrow_mut().remove(rel);
        if let Some(text) = ahead.filter(|t| t.len() as u64 <= limit) {
            return Ok(text);
        }
        if self.pending.is_some() {
            let bytes = self.read_bytes(rel, limit)?;
            return String::from_utf8(bytes).map_err(|_| refuse(rel, None, "not UTF-8 text"));
        }
        if let Some(files) = self.packed_files() {
            let bytes = self.packed_read(files?, rel, limit)?;
            return String::from_utf8(bytes).map_err(|_| refuse(rel, None, "not UTF-8 text"));
        }
        self.check_folders(rel)?;
        read_limited(&self.path(rel), rel, limit)
    }

    /// Reads a file as [`GameDir::read`] does and keeps a copy for the next `read` of the same
    /// path, which takes it instead of reading again: the judge's replay reads the recorded
    /// moves ahead to check their signatures in batches, then reads each again in its turn.
    /// The copies go at any write and at [`GameDir::forget_read_ahead`].
    pub fn read_ahead(&self, rel: &str, limit: u64) -> Result<String> {
        let text = self.read(rel, limit)?;
        self.ahead
            .borrow_mut()
            .insert(rel.to_string(), text.clone());
        Ok(text)
    }

    /// Keeps `text`, read from this folder on disk by another thread (with [`read_limited`]'s
    /// checks and `limit`), for the next `read` of `rel`, as [`GameDir::read_ahead`] does. Kept
    /// only where `read` itself would read the disk: a plain folder whose path is checked.
    pub fn keep_read(&self, rel: &str, text: String) {
        if self.plain_folder().is_some()
            && !self.is_held_back(rel)
            && self.check_folders(rel).is_ok()
        {
            self.ahead.borrow_mut().insert(rel.to_string(), text);
        }
    }

    /// Treats `rel` as absent for the rest of this value's life (a refused candidate the judge
    /// will set aside: the run takes what else it can without it).
    pub fn hold_back(&self, rel: &str) {
        self.ahead.borrow_mut().remove(rel);
        self.held_back.borrow_mut().insert(rel.to_string());
    }

    fn is_held_back(&self, rel: &str) -> bool {
        let held = self.held_back.borrow();
        !held.is_empty() && held.contains(rel)
    }

    /// Drops every copy [`GameDir::read_ahead`] kept.
    pub fn forget_read_ahead(&self) {
        self.ahead.borrow_mut().clear();
    }

    /// Reads a binary file (a sealed one) of at most `limit` bytes, with the checks of
    /// [`GameDir::read`].
    pub fn read_bytes(&self, rel: &str, limit: u64) -> Result<Vec<u8>> {
        if self.is_held_back(rel) {
            return Err(refuse(rel, None, "missing"));
        }
        match self.pending_file(rel) {
            Some(Some(bytes)) if bytes.len() as u64 > limit => {
                return Err(refuse(
                    rel,
                    None,
                    format!("too large: {} bytes, the limit is {limit}", bytes.len()),
                ))
            }
            Some(Some(bytes)) => return Ok(bytes),
            Some(None) => return Err(refuse(rel, None, "missing")),
            None if self.detached() => return Err(refuse(rel, None, "missing")),
            None => {}
        }
        if let Some(files) = self.packed_files() {
            return self.packed_read(files?, rel, limit);
        }
        self.check_folders(rel)?;
        read_bytes_limited(&self.path(rel), rel, limit)
    }

    /// Refuses a path below the game folder whose folders are links or not folders, so nothing
    /// is read from or written to outside the game.
    pub fn check_folders(&self, rel: &str) -> Result<()> {
        if self.packed.is_some() {
            return Ok(()); // an archive holds plain paths only
        }
        let folder = rel.rsplit_once('/').map_or("", |(f, _)| f);
        if self.checked.borrow().contains(folder) {
            return Ok(());
        }
        let mut at = self.root.clone();
        let parts: Vec<&str> = rel.split('/').collect();
        for part in &parts[..parts.len().saturating_sub(1)] {
            if part.is_empty() || *part == "." || *part == ".." {
                return Err(refuse(rel, None, "not a plain path inside the game folder"));
            }
            at.push(part);
            match fs::symlink_metadata(&at) {
                Ok(m) if m.file_type().is_dir() => {}
                Ok(_) => {
                    return Err(refuse(
                        rel,
                        None,
                        format!("{part}/ is a link or not a folder (refused)"),
                    ))
                }
                Err(_) => return Ok(()), // not there yet: nothing below it exists either
            }
        }
        self.checked.borrow_mut().insert(folder.to_string());
        Ok(())
    }

    /// Reads a file if it exists.
    pub fn read_optional(&self, rel: &str, limit: u64) -> Result<Option<String>> {
        if self.exists(rel) {
            self.read(rel, limit).map(Some)
        } else {
            Ok(None)
        }
    }

    /// File names in a sub-directory, sorted; none when it does not exist.
    pub fn list(&self, sub: &str) -> Result<Vec<String>> {
        if let Some(files) = self.packed_files() {
            let folder = format!("{sub}/");
            let mut names: Vec<String> = files?
                .paths_from(&folder)
                .take_while(|k| k.starts_with(&folder))
                .filter_map(|k| k[folder.len()..].split('/').next().map(str::to_string))
                .collect();
            names.dedup();
            return Ok(names);
        }
        let mut names = match self.detached() {
            true => Vec::new(),
            false => self.list_on_disk(sub)?,
        };
        if let Some(pending) = &self.pending {
            let pending = pending.lock().unwrap_or_else(|e| e.into_inner());
            let folder = format!("{sub}/");
            for (k, v) in pending
                .files
                .range(folder.clone()..)
                .take_while(|(k, _)| k.starts_with(&folder))
            {
                let name = &k[folder.len()..];
                match (v, name.contains('/')) {
                    (Some(_), false) => names.push(name.to_string()),
                    (None, false) => names.retain(|n| n != name),
                    // A file in a sub-folder names the sub-folder.
                    (Some(_), true) => names.push(name.split('/').next().unwrap_or("").to_string()),
                    (None, true) => {}
                }
            }
            names.retain(|n| !self.is_held_back(&format!("{sub}/{n}")));
            names.sort();
            names.dedup();
        }
        Ok(names)
    }

    fn list_on_disk(&self, sub: &str) -> Result<Vec<String>> {
        self.check_folders(&format!("{sub}/x"))?;
        let dir = self.path(sub);
        match fs::symlink_metadata(&dir) {
            Err(_) => return Ok(Vec::new()),
            Ok(m) if !m.is_dir() => return Err(refuse(sub, None, "must be a directory")),
            Ok(_) => {}
        }
        let mut names = Vec::new();
        for entry in fs::read_dir(&dir).map_err(|e| io(&dir, e))? {
            let entry = entry.map_err(|e| io(&dir, e))?;
            match entry.file_name().into_string() {
                Ok(n) if self.is_held_back(&format!("{sub}/{n}")) => {}
                Ok(n) => names.push(n),
                // No file the judge takes has such a name: left where it is, never read (an
                // error here would stop the game for good).
                Err(_) => {}
            }
        }
        names.sort();
        Ok(names)
    }

    /// Writes a file atomically (temporary file, sync, rename); does nothing when the bytes are
    /// already there, so a second run leaves every file untouched.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        self.writable()?;
        self.forget_read_ahead();
        if self.keep_pending(rel, Some(bytes), false) {
            return Ok(());
        }
        write_file(&self.path(rel), bytes, self.durable)
    }

    /// Replaces a set of files as one step: after a crash at any point, every file is either in
    /// its old or its new version, and the next [`GameDir::recover`] completes or drops the step.
    /// Files whose bytes are unchanged are not touched; `None` deletes a file.
    pub fn commit(&self, files: &[(String, Option<Vec<u8>>)]) -> Result<()> {
        self.writable()?;
        self.forget_read_ahead();
        if self.pending.is_some() {
            // In memory the files change together by construction.
            for (rel, bytes) in files {
                self.keep_pending(rel, bytes.as_deref(), false);
            }
            return Ok(());
        }
        // A staging folder left here (by a crash, or by someone else) is dealt with first.
        self.recover()?;
        let staging = self.path(STAGING);
        let mut plan = String::new();
        for (i, (rel, bytes)) in files.iter().enumerate() {
            if !is_judge_output(rel) {
                return Err(Error::Io(format!(
                    "{rel}: not a file a judge commit writes (an error in qijudge)"
                )));
            }
            self.check_folders(rel)?;
            if fs::symlink_metadata(self.path(rel)).is_ok_and(|m| !m.file_type().is_file()) {
                return Err(refuse(
                    rel.as_str(),
                    None,
                    "exists and is not a regular file (refused)",
                ));
            }
            let current = fs::read(self.path(rel)).ok();
            if current.as_deref() == bytes.as_deref() {
                continue;
            }
            match bytes {
                Some(b) => {
                    // Made durable all together below, before the plan commits to them.
                    write_file(&staging.join(i.to_string()), b, false)?;
                    plan.push_str(&format!("put {i} {rel}\n"));
                }
                None => plan.push_str(&format!("delete - {rel}\n")),
            }
        }
        if plan.is_empty() {
            return Ok(());
        }
        // Every staged file durable with one flush of the file system (a sync per file cost a
        // disk flush each, the larger part of a judge run), before the plan names them.
        if self.durable {
            // (The game's folder names the file system: a plan of deletions alone stages
            // nothing, and has no staging folder yet.)
            sync_folder(&self.root)?;
        }
        // The plan's atomic appearance is the commit point.
        write_atomic(&staging.join(PLAN), plan.as_bytes())?;
        self.recover()
    }

    /// Completes a committed step left by an interrupted run, or drops an uncommitted one.
    ///
    /// Anyone who can write into the folder can leave a staging folder, so a plan is followed
    /// only when every line is one the judge writes: `put N PATH` of a staged regular file or
    /// `delete - PATH`, with PATH a plain path to a file the judge's commits write. Anything else
    /// is not followed: the staging folder is set aside in `refused/` and the run is refused.
    pub fn recover(&self) -> Result<()> {
        if self.packed.is_some() {
            return Ok(()); // nothing is ever staged in an archive
        }
        self.forget_read_ahead();
        let staging = self.path(STAGING);
        let Ok(meta) = fs::symlink_metadata(&staging) else {
            return Ok(());
        };
        if !meta.is_dir() {
            return Err(self.foreign_staging("is a link or not a folder"));
        }
        let plan = match read_bytes_limited(&staging.join(PLAN), PLAN, SMALL_FILE_LIMIT) {
            Ok(bytes) => String::from_utf8(bytes)
                .map_err(|_| self.foreign_staging("PLAN is not UTF-8 text"))?,
            Err(Error::Refused(r)) if r.reason == "missing" => String::new(),
            Err(_) => return Err(self.foreign_staging("PLAN is not a small regular file")),
        };
        let mut steps = Vec::new();
        for (n, line) in plan.lines().enumerate() {
            match parse_plan_line(line, &staging) {
                Some(step) if self.check_folders(step.1).is_ok() => steps.push(step),
                _ => {
                    return Err(self.foreign_staging(&format!(
                        "PLAN line {} is not a step the judge writes",
                        n + 1
                    )))
                }
            }
        }
        for (staged, rel) in steps {
            let dest = self.path(rel);
            slow_commit_for_tests();
            if fs::symlink_metadata(&dest).is_ok_and(|m| !m.file_type().is_file()) {
                return Err(refuse(
                    rel,
                    None,
                    "exists and is not a regular file (refused)",
                ));
            }
            match staged {
                Some(src) => {
                    if fs::symlink_metadata(&src).is_ok() {
                        if let Some(parent) = dest.parent() {
                            fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
                        }
                        fs::rename(&src, &dest).map_err(|e| io(&dest, e))?;
                    }
                }
                None => match fs::remove_file(&dest) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&dest, e)),
                    _ => {}
                },
            }
        }
        if self.durable {
            sync_dir(&self.root);
        }
        fs::remove_dir_all(&staging).map_err(|e| io(&staging, e))
    }

    /// Moves a staging folder the judge did not write out of the way (nothing in it is followed
    /// or lost) and says so.
    fn foreign_staging(&self, why: &str) -> Error {
        let to = format!(
            "refused/{STAGING}.{}-{}",
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let moved = fs::create_dir_all(self.path("refused"))
            .and_then(|_| fs::rename(self.path(STAGING), self.path(&to)));
        let whereto = match moved {
            Ok(()) => format!("it was set aside in {to} and nothing in it was followed"),
            Err(e) => format!("nothing in it was followed, and it could not be set aside: {e}"),
        };
        refuse_with(
            STAGING,
            None,
            format!("{why}: not written by qijudge; {whereto}"),
            "run the command again",
        )
    }

    /// Writes a secret file (readable by its owner only).
    pub fn write_private(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        self.writable()?;
        self.forget_read_ahead();
        self.check_folders(rel)?;
        if self.keep_pending(rel, Some(bytes), true) {
            return Ok(());
        }
        write_private(&self.path(rel), bytes)
    }

    /// Takes the game's lock, the one every command that writes into the folder holds; waits
    /// for another qijudge holding it (two messages arriving together are judged one after the
    /// other), and gives up after `QIJUDGE_LOCK_WAIT` seconds (default 120).
    pub fn lock(&self) -> Result<LockGuard> {
        use std::os::unix::fs::OpenOptionsExt;
        self.writable()?;
        let folder = fs::canonicalize(&self.root).map_err(|e| io(&self.root, e))?;
        if let Some(entry) = HELD
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
            .find(|(f, _, _)| *f == folder)
        {
            entry.1 += 1;
            return Ok(LockGuard { folder });
        }
        let path = self.path(LOCK);
        // Not through a link: the lock file must be the game's own.
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&path)
            .map_err(|e| match e.raw_os_error() {
                Some(libc::ELOOP) => refuse(LOCK, None, "is a link (refused)"),
                _ => io(&path, e),
            })?;
        if !file.metadata().map_err(|e| io(&path, e))?.is_file() {
            return Err(refuse(LOCK, None, "is not a regular file (refused)"));
        }
        let wait: u64 = std::env::var("QIJUDGE_LOCK_WAIT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(120);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(wait);
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(Error::Io(format!(
                        "{}: another qijudge has been working on this game for {wait} s; \
                         try again when it has finished",
                        self.root.display()
                    )))
                }
                Err(fs::TryLockError::Error(e)) => return Err(io(&path, e)),
            }
        }
        HELD.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((folder.clone(), 1, Some(file)));
        Ok(LockGuard { folder })
    }
}

/// The plan line `put N PATH` or `delete - PATH`, if it is one the judge writes: the staged
/// file's name (none to delete) and the path. Pure, so it can be fuzzed.
pub fn plan_step(line: &str) -> Option<(Option<&str>, &str)> {
    let mut parts = line.splitn(3, ' ');
    let (op, tmp, rel) = (parts.next()?, parts.next()?, parts.next()?);
    if !is_judge_output(rel) {
        return None;
    }
    match op {
        "put" if !tmp.is_empty() && tmp.len() <= 6 && tmp.bytes().all(|b| b.is_ascii_digit()) => {
            Some((Some(tmp), rel))
        }
        "delete" if tmp == "-" => Some((None, rel)),
        _ => None,
    }
}

/// [`plan_step`], with the staged file in `staging`, which must be a regular file if it is
/// still there (missing: already moved by the interrupted run).
fn parse_plan_line<'a>(line: &'a str, staging: &Path) -> Option<(Option<PathBuf>, &'a str)> {
    match plan_step(line)? {
        (Some(tmp), rel) => {
            let src = staging.join(tmp);
            match fs::symlink_metadata(&src) {
                Ok(m) if !m.file_type().is_file() => None,
                _ => Some((Some(src), rel)),
            }
        }
        (None, rel) => Some((None, rel)),
    }
}

/// Whether `rel` is a plain path inside the game folder to a file a judge commit writes: the
/// record, views, the judge's mail log, or a player file taken from a message.
pub fn is_judge_output(rel: &str) -> bool {
    let plain = !rel.is_empty()
        && rel.len() <= 255
        && rel.split('/').all(|part| {
            !part.is_empty()
                && part != "."
                && part != ".."
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        });
    let (top, rest) = rel.split_once('/').unwrap_or((rel, ""));
    plain
        && match top {
            "record.jsonl" | "record.sig" => rest.is_empty(),
            "views" | "moves" | "conditional" | "commitments" | "sealed" | "mail" => {
                !rest.is_empty() && !rest.contains('/')
            }
            _ => false,
        }
}

/// Debug builds only: `QIJUDGE_SLOW_COMMIT_MS` pauses before each file of a commit, so crash
/// tests can kill the judge in the middle of one.
fn slow_commit_for_tests() {
    if cfg!(debug_assertions) {
        if let Some(ms) = std::env::var("QIJUDGE_SLOW_COMMIT_MS")
            .ok()
            .and_then(|v| v.parse().ok())
        {
            std::thread::sleep(std::time::Duration::from_millis(ms));
        }
    }
}

/// Where a multi-file step is prepared, inside the game directory (same file system).
const STAGING: &str = ".qijudge-staging";
const PLAN: &str = "PLAN";
/// The lock file every writing command holds.
const LOCK: &str = ".qijudge.lock";
/// Makes temporary names unique within a process (the process id makes them unique between).
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Folders whose writes are not synced one by one (see [`ScratchGuard`]).
static SCRATCH: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// While held, every write under `root` (through [`GameDir`] or [`write_atomic`]) skips its
/// syncs: a bot match replays an unfinished game from the start, so a sync per file buys
/// nothing there and costs most of the time on a disk. The holder makes the folder durable with
/// one [`sync_folder`] when it counts a game as finished.
pub struct ScratchGuard {
    root: PathBuf,
}

impl ScratchGuard {
    pub fn new(root: &Path) -> ScratchGuard {
        let root = root.to_path_buf();
        SCRATCH
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(root.clone());
        ScratchGuard { root }
    }
}

impl Drop for ScratchGuard {
    fn drop(&mut self) {
        let mut roots = SCRATCH.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = roots.iter().position(|r| *r == self.root) {
            roots.swap_remove(i);
        }
    }
}

fn is_scratch(path: &Path) -> bool {
    let roots = SCRATCH.lock().unwrap_or_else(|e| e.into_inner());
    !roots.is_empty() && roots.iter().any(|r| path.starts_with(r))
}

/// Makes everything written so far on the file system holding `dir` durable (one `syncfs`,
/// where a sync per file would cost one disk flush each).
pub fn sync_folder(dir: &Path) -> Result<()> {
    use std::os::fd::AsRawFd;
    let d = File::open(dir).map_err(|e| io(dir, e))?;
    // SAFETY: `d` is an open descriptor for the call's whole duration.
    if unsafe { libc::syncfs(d.as_raw_fd()) } != 0 {
        return Err(io(dir, std::io::Error::last_os_error()));
    }
    Ok(())
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

fn io(path: &Path, e: std::io::Error) -> Error {
    Error::Io(format!("{}: {e}", path.display()))
}

/// Reads a regular UTF-8 file of at most `limit` bytes, naming it `shown` in errors.
pub fn read_limited(path: &Path, shown: &str, limit: u64) -> Result<String> {
    let bytes = read_bytes_limited(path, shown, limit)?;
    String::from_utf8(bytes).map_err(|_| refuse(shown, None, "not UTF-8 text"))
}

/// Reads a regular file of at most `limit` bytes, naming it `shown` in errors.
pub fn read_bytes_limited(path: &Path, shown: &str, limit: u64) -> Result<Vec<u8>> {
    use std::os::unix::fs::OpenOptionsExt;
    let not_regular = || {
        refuse(
            shown,
            None,
            "not a regular file (links, devices and pipes are refused)",
        )
    };
    // Open without following a link and without blocking (a FIFO cannot stall the judge), then
    // check the opened file itself: nothing can be swapped in between check and use.
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(refuse(shown, None, "missing"))
        }
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(not_regular()),
        Err(e) => return Err(io(path, e)),
    };
    let meta = file.metadata().map_err(|e| io(path, e))?;
    if !meta.file_type().is_file() {
        return Err(not_regular());
    }
    if meta.len() > limit {
        return Err(refuse(
            shown,
            None,
            format!("too large: {} bytes, the limit is {limit}", meta.len()),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(refuse(
            shown,
            None,
            format!("too large: the limit is {limit} bytes"),
        ));
    }
    Ok(bytes)
}

/// Writes `bytes` to `path` atomically and durably; unchanged files are not rewritten.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file(path, bytes, !is_scratch(path))
}

/// Writes `bytes` to `path` atomically, without syncing: for many files made durable together
/// afterwards by one [`sync_folder`]. Unchanged files are not rewritten; says whether it wrote.
pub fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> Result<bool> {
    write_changed(path, bytes, false, 0o666)
}

/// Writes atomically (temporary file, rename); with `durable`, synced before and after the rename.
fn write_file(path: &Path, bytes: &[u8], durable: bool) -> Result<()> {
    write_with_mode(path, bytes, durable, 0o666)
}

/// Writes a secret (a private key, a setup) atomically, readable by its owner only from the
/// first byte on.
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<()> {
    write_with_mode(path, bytes, !is_scratch(path), 0o600)
}

fn write_with_mode(path: &Path, bytes: &[u8], durable: bool, mode: u32) -> Result<()> {
    write_changed(path, bytes, durable, mode).map(|_| ())
}

/// [`write_with_mode`], saying whether the file was written (false: it held `bytes` already).
fn write_changed(path: &Path, bytes: &[u8], durable: bool, mode: u32) -> Result<bool> {
    if fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let tmp = dir.join(format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        use std::os::unix::fs::OpenOptionsExt;
        // A leftover from a killed run with the same process id and count would block create_new.
        let _ = fs::remove_file(&tmp);
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&tmp)?;
        f.write_all(bytes)?;
        if durable {
            f.sync_all()?;
        }
        fs::rename(&tmp, path)?;
        if durable {
            sync_dir(dir);
        }
        Ok(())
    })();
    result.map(|()| true).map_err(|e: std::io::Error| {
        let _ = fs::remove_file(&tmp);
        io(path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsynced_write_says_whether_it_wrote_and_leaves_no_temporary_file() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("a/page.html");
        assert!(write_atomic_unsynced(&path, b"one").unwrap());
        assert!(!write_atomic_unsynced(&path, b"one").unwrap());
        assert!(write_atomic_unsynced(&path, b"two").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let left: Vec<_> = std::fs::read_dir(t.path().join("a")).unwrap().collect();
        assert_eq!(left.len(), 1);
    }

    #[test]
    fn a_folder_in_memory_is_shared_read_once_and_put_on_disk_at_flush() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let on_disk = GameDir::new(t.path());
        on_disk.write("moves/0001-red.toml", b"one").unwrap();
        on_disk.write("views/old.json", b"old").unwrap();
        let memory = MemoryGuard::new(t.path());
        // Every folder value made while the guard is held shares the copy.
        let g = GameDir::new(t.path());
        g.write("moves/0002-black.toml", b"two").unwrap();
        g.write_private("secret/key", b"s").unwrap();
        g.write(".hidden", b"h").unwrap();
        GameDir::new(t.path())
            .commit(&[
                ("views/old.json".into(), None),
                ("views/red.json".into(), Some(b"{}".to_vec())),
            ])
            .unwrap();
        // Nothing new on disk yet, and the disk is not looked at again.
        std::fs::write(t.path().join("moves/0003-red.toml"), "late").unwrap();
        assert!(!t.path().join("moves/0002-black.toml").exists());
        assert!(t.path().join("views/old.json").exists());
        assert_eq!(
            g.list("moves").unwrap(),
            ["0001-red.toml", "0002-black.toml"]
        );
        assert_eq!(g.list("views").unwrap(), ["red.json"]);
        assert_eq!(g.read("moves/0002-black.toml", 10).unwrap(), "two");
        assert!(g.read("moves/0002-black.toml", 2).is_err(), "limits hold");
        assert!(!g.exists("views/old.json") && g.read("views/old.json", 10).is_err());
        assert!(!g.exists("moves/0003-red.toml"));
        assert!(g.exists("secret") && g.exists("moves/0001-red.toml"));
        // Packed files leave hidden names out, as packing the folder does.
        let names: Vec<String> = memory.files().into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "moves/0001-red.toml",
                "moves/0002-black.toml",
                "secret/key",
                "views/red.json"
            ]
        );
        memory.flush().unwrap();
        drop(memory);
        let after = GameDir::new(t.path());
        assert_eq!(
            after.list("moves").unwrap(),
            ["0001-red.toml", "0002-black.toml", "0003-red.toml"]
        );
        assert_eq!(after.list("views").unwrap(), ["red.json"]);
        let mode = fs::metadata(t.path().join("secret/key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "a private file stays private on disk");
    }

    #[test]
    fn a_file_read_ahead_is_read_once_and_forgotten_at_a_write() {
        let t = tempfile::tempdir().unwrap();
        let g = GameDir::new(t.path());
        g.write("a.toml", b"first").unwrap();
        assert_eq!(g.read_ahead("a.toml", 10).unwrap(), "first");
        std::fs::write(t.path().join("a.toml"), "second").unwrap();
        // The copy serves the next read (the bytes the batch check saw), then the disk does.
        assert_eq!(g.read("a.toml", 10).unwrap(), "first");
        assert_eq!(g.read("a.toml", 10).unwrap(), "second");
        // A smaller limit is still enforced on a copy.
        g.read_ahead("a.toml", 10).unwrap();
        assert!(g.read("a.toml", 3).is_err());
        // Any write drops the copies, as does forgetting them.
        g.read_ahead("a.toml", 10).unwrap();
        g.write("b.toml", b"x").unwrap();
        std::fs::write(t.path().join("a.toml"), "third").unwrap();
        assert_eq!(g.read("a.toml", 10).unwrap(), "third");
        g.read_ahead("a.toml", 10).unwrap();
        g.forget_read_ahead();
        std::fs::write(t.path().join("a.toml"), "fourth").unwrap();
        assert_eq!(g.read("a.toml", 10).unwrap(), "fourth");
    }

    #[test]
    fn reads_are_bounded_and_regular_only() {
        let t = tempfile::tempdir().unwrap();
        let g = GameDir::new(t.path());
        g.write("a.toml", b"hello").unwrap();
        assert_eq!(g.read("a.toml", 10).unwrap(), "hello");
        assert!(g
            .read("a.toml", 3)
            .unwrap_err()
            .to_string()
            .contains("too large"));
        assert!(g
            .read("missing.toml", 10)
            .unwrap_err()
            .to_string()
            .contains("missing"));
        std::os::unix::fs::symlink(t.path().join("a.toml"), t.path().join("link.toml")).unwrap();
        assert!(g
            .read("link.toml", 10)
            .unwrap_err()
            .to_string()
            .contains("not a regular file"));
        fs::write(t.path().join("bin"), [0xff, 0xfe]).unwrap();
        assert!(g.read("bin", 10).unwrap_err().to_string().contains("UTF-8"));
    }

    #[test]
    fn a_commit_interrupted_after_its_plan_is_completed_by_recovery() {
        let t = tempfile::tempdir().unwrap();
        let g = GameDir::new(t.path());
        g.write("views/a", b"old a").unwrap();
        g.write("views/gone", b"x").unwrap();
        // Simulate a crash right after the plan was written: stage by hand, do not recover.
        let staging = t.path().join(STAGING);
        write_atomic(&staging.join("0"), b"new a").unwrap();
        write_atomic(&staging.join("1"), b"new b").unwrap();
        write_atomic(
            &staging.join(PLAN),
            b"put 0 views/a\nput 1 mail/b\ndelete - views/gone\n",
        )
        .unwrap();
        assert_eq!(fs::read(t.path().join("views/a")).unwrap(), b"old a");
        g.recover().unwrap();
        assert_eq!(fs::read(t.path().join("views/a")).unwrap(), b"new a");
        assert_eq!(fs::read(t.path().join("mail/b")).unwrap(), b"new b");
        assert!(!t.path().join("views/gone").exists() && !staging.exists());
        // Without a plan the staged files are dropped and nothing changes.
        write_atomic(&staging.join("0"), b"newer a").unwrap();
        g.recover().unwrap();
        assert_eq!(fs::read(t.path().join("views/a")).unwrap(), b"new a");
        // A normal commit.
        g.commit(&[
            ("views/a".into(), Some(b"third".to_vec())),
            ("views/c".into(), Some(b"c".to_vec())),
        ])
        .unwrap();
        assert_eq!(fs::read(t.path().join("views/a")).unwrap(), b"third");
        assert!(!staging.exists());
    }

    #[test]
    fn linked_folders_are_refused_for_reading_and_writing() {
        let t = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("0001-south.toml"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path(), t.path().join("moves")).unwrap();
        std::os::unix::fs::symlink(outside.path(), t.path().join("views")).unwrap();
        let g = GameDir::new(t.path());
        assert!(g
            .read("moves/0001-south.toml", 100)
            .unwrap_err()
            .to_string()
            .contains("moves/ is a link"));
        assert!(g.list("moves").is_err());
        assert!(g
            .commit(&[("views/x.json".into(), Some(b"y".to_vec()))])
            .is_err());
        assert!(!outside.path().join("x.json").exists());
        assert!(g.read("../etc/passwd", 100).is_err());
    }

    #[test]
    fn secrets_are_private_from_the_start() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let g = GameDir::new(t.path());
        g.write_private("setups/south.toml", b"secret").unwrap();
        let mode = fs::metadata(t.path().join("setups/south.toml"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn the_lock_is_reentrant_within_a_process() {
        let t = tempfile::tempdir().unwrap();
        let g = GameDir::new(t.path());
        let outer = g.lock().unwrap();
        // The judge called by a command that holds the lock takes it again.
        let inner = GameDir::new(t.path()).lock().unwrap();
        drop(inner);
        assert!(HELD.lock().unwrap().iter().any(|(_, n, _)| *n == 1));
        drop(outer);
        assert!(!HELD
            .lock()
            .unwrap()
            .iter()
            .any(|(f, _, _)| *f == fs::canonicalize(t.path()).unwrap()));
    }

    #[test]
    fn a_foreign_plan_is_not_followed_and_set_aside() {
        let t = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("precious"), "keep").unwrap();
        let g = GameDir::new(t.path());
        let staging = t.path().join(STAGING);
        let victim = outside.path().join("precious");
        for plan in [
            format!("delete - {}\n", victim.display()),
            "delete - ../precious\n".to_string(),
            "put 0 ../../etc/x\n".to_string(),
            "put 0 game.toml\n".to_string(),
            "put ../0 views/public.json\n".to_string(),
            "delete - views/../../x\n".to_string(),
            "chmod - views/public.json\n".to_string(),
        ] {
            write_atomic(&staging.join("0"), b"evil").unwrap();
            write_atomic(&staging.join(PLAN), plan.as_bytes()).unwrap();
            let e = g.recover().unwrap_err().to_string();
            assert!(e.contains("not written by qijudge"), "{plan}: {e}");
            assert!(!staging.exists(), "{plan}: set aside");
            assert_eq!(fs::read(&victim).unwrap(), b"keep");
            assert!(!t.path().join("game.toml").exists());
        }
        let aside = fs::read_dir(t.path().join("refused")).unwrap().count();
        assert_eq!(aside, 7, "each foreign staging folder kept apart");
        // A staged link is not followed either.
        fs::create_dir(&staging).unwrap();
        std::os::unix::fs::symlink(&victim, staging.join("0")).unwrap();
        write_atomic(&staging.join(PLAN), b"put 0 views/public.json\n").unwrap();
        assert!(g.recover().is_err());
        assert!(!t.path().join("views/public.json").exists());
        // A staging folder that is a link is set aside, never written through.
        std::os::unix::fs::symlink(outside.path(), &staging).unwrap();
        assert!(g
            .commit(&[("views/a.txt".into(), Some(b"a".to_vec()))])
            .is_err());
        assert!(!outside.path().join("0").exists());
        g.commit(&[("views/a.txt".into(), Some(b"a".to_vec()))])
            .unwrap();
        assert_eq!(fs::read(t.path().join("views/a.txt")).unwrap(), b"a");
    }

    #[test]
    fn judge_outputs_are_plain_paths_to_judge_files() {
        for ok in [
            "record.jsonl",
            "record.sig",
            "views/south.json",
            "moves/0001-south.toml.sig",
            "mail/sent.json",
        ] {
            assert!(is_judge_output(ok), "{ok}");
        }
        for bad in [
            "",
            "game.toml",
            "/etc/passwd",
            "../x",
            "views/../game.toml",
            "views/",
            "views/a/b",
            "views//a",
            "keys/judge",
            "setups/south.toml",
            "record.jsonl/x",
            "views/a b",
            "views/a\nb",
        ] {
            assert!(!is_judge_output(bad), "{bad:?}");
        }
    }
}
