//! Signatures checked in batches and ahead of the judge: the recorded moves of a replay in one
//! batch, and a second thread verifying new move files while the judge takes them.

use super::frame::{move_path, Frame};
use qijudge_protocol::files::*;
use qijudge_protocol::signing::{self, namespace};
use qijudge_store::{GameDir, SIGNATURE_LIMIT, SMALL_FILE_LIMIT};

/// How many recorded move files are read ahead and confirmed in one batch: large enough for
/// the batch to cost little per signature, small enough to keep little in memory.
const CONFIRM_AHEAD: usize = 512;

/// Reads ahead the move files of the next recorded moves (up to [`CONFIRM_AHEAD`] of them, from
/// the start of `lines`) and confirms their signatures in one batch, so that the replay's check
/// of each is a lookup (see `signing::confirm_recorded`). A file that does not confirm is left
/// for the replay to check and refuse by name. Returns how many lines it covered.
pub fn confirm_recorded_moves(dir: &GameDir, f: &Frame, lines: &[RecordLine]) -> usize {
    let mut files = Vec::new();
    let mut covered = 0;
    for line in lines {
        if files.len() == CONFIRM_AHEAD {
            break;
        }
        covered += 1;
        let Entry::Move { ply, seat, .. } = &line.entry else {
            continue;
        };
        let Some(i) = f.seats.iter().position(|s| s == seat) else {
            continue;
        };
        let path = move_path(*ply, seat);
        let text = dir.read_ahead(&path, SMALL_FILE_LIMIT);
        let sig = dir.read_ahead(&format!("{path}.sig"), SIGNATURE_LIMIT);
        if let (Ok(text), Ok(sig)) = (text, sig) {
            files.push((i, text, sig));
        }
    }
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

#[cfg(test)]
mod tests {
    use qijudge_protocol::error::Error;

    use crate::games::luzhanqi::referee::load_game;
    use crate::games::luzhanqi::synth::{long_game, NOW};
    use crate::judge::pipeline::Mode;
    use proptest::prelude::*;
    use qijudge_protocol::signing::{self, forge, namespace};
    use qijudge_store::GameDir;
    use ssh_key::PrivateKey;
    use std::path::Path;

    const PLIES: u32 = 40;

    fn copy_tree(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                copy_tree(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }

    /// A game of [`PLIES`] new signed moves, made once for every case.
    fn game() -> &'static Path {
        static GAME: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
        GAME.get_or_init(|| {
            let tmp = tempfile::tempdir().unwrap();
            long_game(&GameDir::new(tmp.path()), PLIES, 5).unwrap();
            tmp
        })
        .path()
    }

    /// A bad signature of `kind` for the move file `text` whose good signature is `good`.
    fn spoiled(kind: u8, dir: &Path, seat: &str, text: &str, good: &str, other: &str) -> String {
        let read_key = |name: &str| -> PrivateKey {
            let pem = std::fs::read_to_string(dir.join("keys").join(name)).unwrap();
            signing::parse_private_key(&pem).unwrap()
        };
        let key = read_key(seat);
        let sshsig = ssh_key::SshSig::from_pem(good).unwrap();
        let mut bytes: [u8; 64] = sshsig.signature_bytes().try_into().unwrap();
        let data = ssh_key::SshSig::signed_data(
            namespace::MOVE,
            ssh_key::HashAlg::Sha512,
            text.as_bytes(),
        )
        .unwrap();
        match kind {
            // A flipped bit of s.
            0 => bytes[40] ^= 1,
            // s + ℓ: the same point equation, s not in canonical form.
            1 => {
                // ℓ = 2^252 + 27742317777372353535851937790883648493, little-endian.
                let mut order = [0u8; 32];
                order[..16].copy_from_slice(&0x14def9dea2f79cd65812631a5cf5d3ed_u128.to_le_bytes());
                order[31] = 0x10;
                let mut carry = 0u16;
                for (b, o) in bytes[32..].iter_mut().zip(order) {
                    let sum = u16::from(*b) + u16::from(o) + carry;
                    *b = sum as u8;
                    carry = sum >> 8;
                }
            }
            // R with a small-order part of order 2, 4 and 8: the cofactored equation holds.
            2 => bytes = forge::signed_with_torsion(&key, &data, 4, 11),
            3 => bytes = forge::signed_with_torsion(&key, &data, 2, 12),
            4 => bytes = forge::signed_with_torsion(&key, &data, 1, 13),
            // R a small-order point alone.
            5 => bytes = forge::signed_with_torsion(&key, &data, 1, 0),
            // Another move's signature, and the other seat's key.
            6 => return other.to_string(),
            7 => {
                let stranger = read_key(if seat == "south" { "north" } else { "south" });
                return signing::sign(&stranger, namespace::MOVE, text.as_bytes());
            }
            _ => return good.replacen('\n', "\r\n", 1),
        }
        forge::armor(&key, namespace::MOVE, bytes)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Whether the judge verifies new files alone or with a second thread from the end, a
        /// spoiled signature anywhere is refused with the reason one strict check gives it, and
        /// every move before it is taken.
        #[test]
        fn new_files_verified_ahead_get_the_strict_verdict(ply in 1..=PLIES, kind in 0u8..9) {
            let tmp = tempfile::tempdir().unwrap();
            copy_tree(game(), tmp.path());
            let dir = GameDir::new(tmp.path());
            let g = load_game(&dir).unwrap();
            let name = |p: u32| {
                let names = dir.list("moves").unwrap();
                names
                    .into_iter()
                    .find(|n| n.starts_with(&format!("{p:04}-")) && n.ends_with(".toml"))
                    .unwrap()
            };
            let path = format!("moves/{}", name(ply));
            let seat = path.trim_end_matches(".toml").rsplit('-').next().unwrap().to_string();
            let text = std::fs::read_to_string(tmp.path().join(&path)).unwrap();
            let good = std::fs::read_to_string(tmp.path().join(format!("{path}.sig"))).unwrap();
            let other_ply = if ply > 2 { ply - 2 } else { ply + 2 };
            let other = std::fs::read_to_string(
                tmp.path().join(format!("moves/{}.sig", name(other_ply))),
            )
            .unwrap();
            let bad = spoiled(kind, tmp.path(), &seat, &text, &good, &other);
            std::fs::write(tmp.path().join(format!("{path}.sig")), &bad).unwrap();
            let i = if seat == "south" { 0 } else { 1 };
            signing::forget_verified();
            let one_by_one = signing::verify(&g.player_keys[i], namespace::MOVE, text.as_bytes(), &bad)
                .expect_err("every spoiled signature fails the strict check");
            signing::forget_verified();
            let replay = crate::games::luzhanqi::referee::replay(&dir, &g, Mode::Judge, NOW).unwrap();
            prop_assert_eq!(replay.record.last_move_ply(), ply - 1);
            match replay.refusal {
                Some(Error::Refused(r)) => {
                    prop_assert_eq!(r.file, format!("{path}.sig"));
                    prop_assert_eq!(r.reason, one_by_one.to_string());
                }
                other => prop_assert!(false, "{:?}", other.map(|e| e.to_string())),
            }
        }
    }

    /// With every signature good, all the new moves are taken.
    #[test]
    fn every_good_new_file_is_taken_with_the_helper() {
        let dir = GameDir::new(game());
        let g = load_game(&dir).unwrap();
        signing::forget_verified();
        let replay = crate::games::luzhanqi::referee::replay(&dir, &g, Mode::Judge, NOW).unwrap();
        assert!(replay.refusal.is_none());
        assert_eq!(replay.record.last_move_ply(), PLIES);
    }
}
