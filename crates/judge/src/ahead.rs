//! Signatures checked in batches and ahead of the judge: the recorded moves of a replay in one
//! batch, and a second thread verifying new move files while the judge takes them.

use super::frame::{move_path, Frame};
use qijudge_protocol::files::*;
use qijudge_protocol::signing::{self, namespace};
use qijudge_rules::hash::untagged;
use qijudge_store::{GameDir, SIGNATURE_LIMIT, SMALL_FILE_LIMIT};

/// How many recorded move files are read ahead and confirmed in one batch: large enough for
/// the batch to cost little per signature, small enough to keep little in memory.
const CONFIRM_AHEAD: usize = 512;

/// Reads ahead the move files of the next recorded moves (up to [`CONFIRM_AHEAD`] of them, from
/// the start of `lines`) and confirms their signatures in one batch, so that the replay's check
/// of each is a lookup (see `signing::confirm_recorded`). A file that does not confirm is left
/// for the replay to check and refuse by name. While recorded files are taken on trust, nothing
/// is read here: each line's file is taken on trust by the SHA-256 the line names, so the
/// replay, hashing the file it reads, takes exactly the recorded bytes on trust (a file changed
/// since hashes otherwise, and is checked in full and refused as already recorded), and reads
/// no signature. Returns how many lines it covered.
pub fn confirm_recorded_moves(dir: &GameDir, f: &Frame, lines: &[RecordLine]) -> usize {
    let mut files = Vec::new();
    let mut covered = 0;
    let trusting = signing::trusting();
    let mut trusted = Vec::new();
    for line in lines {
        if files.len() + trusted.len() == CONFIRM_AHEAD {
            break;
        }
        covered += 1;
        let Entry::Move {
            ply, seat, file, ..
        } = &line.entry
        else {
            continue;
        };
        let Some(i) = f.seats.iter().position(|s| s == seat) else {
            continue;
        };
        if trusting {
            if let Some(sha) = untagged(file) {
                trusted.push((&f.player_keys[i], namespace::MOVE, sha));
            }
            continue;
        }
        let path = move_path(*ply, seat);
        let text = dir.read_ahead(&path, SMALL_FILE_LIMIT);
        let sig = dir.read_ahead(&format!("{path}.sig"), SIGNATURE_LIMIT);
        if let (Ok(text), Ok(sig)) = (text, sig) {
            files.push((i, text, sig));
        }
    }
    signing::trust_recorded(&trusted);
    let items: Vec<signing::Recorded> = files
        .iter()
        .map(|(i, text, sig)| signing::Recorded {
            key: &f.player_keys[*i],
            namespace: namespace::MOVE,
            msg: text.as_bytes(),
            armored: sig,
        })
        .collect();
    signing::confirm_recorded(&items);
    covered
}

/// Fewer new move files than this are verified by the judge alone: a thread would cost more.
const AHEAD_AT_LEAST: usize = 8;

/// At most this many new move files are verified ahead (a bound on what strangers' files cost).
const AHEAD_AT_MOST: usize = 4096;

/// Runs `take` (the judge taking the new move files in order, from ply `next` on) with a second
/// thread reading and verifying the same files' signatures ahead of it. Each file is read and
/// verified once, by whichever thread claims it first: the helper claims them in order, and the
/// judge, about to take a ply (`take` says which through the function it is given) whose files
/// are not done yet, claims the next ones itself rather than wait. The check is the judge's own
/// strict one (`signing::verify`), whose memo keeps only the signatures that hold: the judge's
/// check of each file is then a lookup, and a bad file is still refused by that check, with its
/// reason, as when verifying one by one. Only for a folder on disk holding at least
/// [`AHEAD_AT_LEAST`] new move files, in consecutive plies.
pub fn with_new_moves_verified_ahead<T>(
    dir: &GameDir,
    f: &Frame,
    next: u32,
    take: impl FnOnce(&dyn Fn(u32)) -> T,
) -> T {
    let Some(root) = dir.plain_folder() else {
        return take(&|_| {});
    };
    let files = new_move_files(root, f.seats, next);
    if files.len() < AHEAD_AT_LEAST {
        return take(&|_| {});
    }
    let ahead = Ahead {
        root,
        f,
        next: Default::default(),
        done: files.iter().map(|_| Default::default()).collect(),
        texts: files.iter().map(|_| Default::default()).collect(),
        files,
    };
    std::thread::scope(|scope| {
        scope.spawn(|| while ahead.claim() {});
        let out = take(&|ply| ahead.wait_for(ply, dir));
        ahead.stop();
        out
    })
}

/// The new move files shared by the judge's thread and its helper.
struct Ahead<'a> {
    root: &'a std::path::Path,
    f: &'a Frame<'a>,
    /// (ply, seat index), in ply order.
    files: Vec<(u32, usize)>,
    /// The first file nobody has claimed.
    next: std::sync::atomic::AtomicUsize,
    /// Whether each file's turn is over (verified, or found unreadable).
    done: Vec<std::sync::atomic::AtomicBool>,
    /// Each file's text and signature as read, for the judge to take.
    texts: Vec<std::sync::Mutex<Option<(String, String)>>>,
}

impl Ahead<'_> {
    /// Reads and verifies the next unclaimed file; false when none is left.
    fn claim(&self) -> bool {
        use std::sync::atomic::Ordering;
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        let Some(&(ply, seat)) = self.files.get(i) else {
            return false;
        };
        let path = move_path(ply, self.f.seats[seat]);
        let sig_path = format!("{path}.sig");
        let read = |rel: &str, limit| qijudge_store::read_limited(&self.root.join(rel), rel, limit);
        if let (Ok(text), Ok(sig)) = (
            read(&path, SMALL_FILE_LIMIT),
            read(&sig_path, SIGNATURE_LIMIT),
        ) {
            // Only the memo matters here: a failure is the judge's to find and explain.
            let _ = signing::verify(
                &self.f.player_keys[seat],
                namespace::MOVE,
                text.as_bytes(),
                &sig,
            );
            if let Ok(mut slot) = self.texts[i].lock() {
                *slot = Some((text, sig));
            }
        }
        self.done[i].store(true, Ordering::Release);
        true
    }

    /// Returns once the files of `ply` are done (claiming files itself meanwhile), and hands
    /// their texts to `dir`, so the judge does not read them again.
    fn wait_for(&self, ply: u32, dir: &GameDir) {
        use std::sync::atomic::Ordering;
        let first = self.files.partition_point(|(p, _)| *p < ply);
        for i in first..self.files.len() {
            let (p, seat) = self.files[i];
            if p != ply {
                break;
            }
            while !self.done[i].load(Ordering::Acquire) {
                if !self.claim() {
                    std::thread::yield_now();
                }
            }
            let taken = self.texts[i].lock().ok().and_then(|mut slot| slot.take());
            if let Some((text, sig)) = taken {
                let path = move_path(p, self.f.seats[seat]);
                dir.keep_read(&format!("{path}.sig"), sig);
                dir.keep_read(&path, text);
            }
        }
    }

    /// Leaves the files nobody has claimed yet unclaimed for good.
    fn stop(&self) {
        self.next
            .store(self.files.len(), std::sync::atomic::Ordering::Relaxed);
    }
}

/// The move files (ply, seat index) of consecutive plies from `next` on, as the folder on disk
/// holds them, at most [`AHEAD_AT_MOST`].
fn new_move_files(root: &std::path::Path, seats: &[&str], next: u32) -> Vec<(u32, usize)> {
    // A look at the first few plies first: a run with little new spares the folder listing.
    let there = |ply: u32| {
        seats
            .iter()
            .any(|seat| std::fs::symlink_metadata(root.join(move_path(ply, seat))).is_ok())
    };
    if !(next..next + AHEAD_AT_LEAST as u32).all(there) {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(root.join("moves")) else {
        return Vec::new();
    };
    let names: std::collections::HashSet<std::ffi::OsString> =
        entries.filter_map(|e| Some(e.ok()?.file_name())).collect();
    let mut files = Vec::new();
    for ply in next.. {
        let before = files.len();
        for (i, seat) in seats.iter().enumerate() {
            let path = move_path(ply, seat);
            let name = path.trim_start_matches("moves/");
            if names.contains(std::ffi::OsStr::new(name)) {
                files.push((ply, i));
            }
        }
        if files.len() == before || files.len() >= AHEAD_AT_MOST {
            break;
        }
    }
    files
}
