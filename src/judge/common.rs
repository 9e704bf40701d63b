//! What every game's judge does the same way: read the signed record (refusing a rolled-back
//! one), read and bind signed move files, spot stray move files, sign the outputs.

use super::frame::{move_path, Frame};
use super::text::has_control;
use crate::error::{refuse, refuse_with, Error, Result};
use crate::protocol::files::*;
use crate::protocol::hash::sha256_tagged;
use crate::protocol::record::Record;
use crate::protocol::signing::{self, namespace};
use crate::store::{GameDir, RECORD_LIMIT, SIGNATURE_LIMIT, SMALL_FILE_LIMIT};
use serde::de::DeserializeOwned;
use ssh_key::{PrivateKey, PublicKey};

/// Loads the signed record (empty before the first judge run), refusing one that was rolled
/// back: the judge keeps no state besides its files, so every view it signed is its memory, and
/// the record must still hold the head of each (the newest signed head wins).
pub fn load_record(dir: &GameDir, f: &Frame) -> Result<Record> {
    let Some(text) = dir.read_optional("record.jsonl", RECORD_LIMIT)? else {
        if dir.exists("record.sig") {
            return Err(refuse(
                "record.jsonl",
                None,
                "missing, but record.sig exists",
            ));
        }
        return check_not_rolled_back(dir, f, Record::new());
    };
    let sig = dir.read("record.sig", SIGNATURE_LIMIT)?;
    signing::verify(f.judge_key, namespace::RECORD, text.as_bytes(), &sig).map_err(|e| {
        refuse_with(
            "record.sig",
            None,
            e.to_string(),
            "the record was not signed by this game's judge, or was changed",
        )
    })?;
    let record = Record::parse(&text, f.hash).map_err(|(line, e)| {
        refuse(
            "record.jsonl",
            e.field.as_deref(),
            format!("line {line}: {}", e.reason),
        )
    })?;
    check_not_rolled_back(dir, f, record)
}

fn check_not_rolled_back(dir: &GameDir, f: &Frame, record: Record) -> Result<Record> {
    for (view, head) in signed_heads(dir, f)? {
        if head != f.hash && !record.contains_head(&head) {
            return Err(refuse_with(
                "record.jsonl",
                None,
                format!(
                    "does not hold the record head of {view}, which the judge signed: the \
                     record was rolled back"
                ),
                "restore the latest record.jsonl and record.sig",
            ));
        }
    }
    Ok(record)
}

/// Whether the file at `path` is as the judge wrote it: its signature (`path.sig`) is the
/// judge's, or for a sealed file its tag statement (`path.tag`) is the judge's about its bytes.
pub fn judge_signed(dir: &GameDir, game: &str, judge: &PublicKey, path: &str) -> bool {
    if path.ends_with(".age") {
        return super::sealing::written_by_judge(dir, game, path, judge);
    }
    match (
        dir.read_bytes(path, RECORD_LIMIT),
        dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT),
    ) {
        (Ok(bytes), Ok(sig)) => signing::verify(judge, namespace::VIEW, &bytes, &sig).is_ok(),
        _ => false,
    }
}

/// The audit of everything else in `views/`: each signature there (pictures, notes) and each
/// sealed file's tag statement is the judge's over its file.
pub fn check_view_signatures(dir: &GameDir, f: &Frame) -> Result<()> {
    for name in dir.list("views")? {
        let path = format!("views/{name}");
        let Some(file) = path
            .strip_suffix(".sig")
            .or_else(|| path.strip_suffix(".tag"))
        else {
            continue;
        };
        if !judge_signed(dir, f.hash, f.judge_key, file) {
            return Err(refuse_with(
                &path,
                None,
                format!("is not the judge's signature over {file}"),
                "the file was not signed by this game's judge, or was changed",
            ));
        }
    }
    Ok(())
}

/// The record head of every JSON view in `views/` that this game's judge signed (views of
/// another game, unsigned or badly signed files say nothing and are skipped).
pub fn signed_heads(dir: &GameDir, f: &Frame) -> Result<Vec<(String, String)>> {
    let mut heads = Vec::new();
    for name in dir.list("views")? {
        if !name.ends_with(".json") {
            continue;
        }
        let path = format!("views/{name}");
        let (Ok(text), Ok(sig)) = (
            dir.read(&path, RECORD_LIMIT),
            dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT),
        ) else {
            continue;
        };
        if signing::verify(f.judge_key, namespace::VIEW, text.as_bytes(), &sig).is_err() {
            continue;
        }
        // Only the three fields are read; the rest (the whole history) is skipped unparsed.
        let Ok(view) = serde_json::from_str::<ViewHead>(&text) else {
            continue;
        };
        if view.game == f.id && view.manifest == f.hash {
            if let Some(head) = view.record_head {
                heads.push((path, head));
            }
        }
    }
    Ok(heads)
}

/// What [`signed_heads`] reads of a JSON view.
#[derive(serde::Deserialize)]
struct ViewHead {
    game: String,
    manifest: String,
    record_head: Option<String>,
}

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
        let read = |rel: &str, limit| crate::store::read_limited(&self.root.join(rel), rel, limit);
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

/// A signed player file, read and checked against the seat's key, with its SHA-256.
pub fn read_signed<T: DeserializeOwned + serde::Serialize>(
    dir: &GameDir,
    f: &Frame,
    path: &str,
    seat: usize,
    ns: &str,
) -> Result<(T, String)> {
    let text = read_signed_text(dir, f, path, seat, ns)?;
    let file: T = parse_toml(&text).map_err(|e| refuse(path, e.field.as_deref(), e.reason))?;
    Ok((file, sha256_tagged(text.as_bytes())))
}

/// A seat's signed move file, as [`read_signed`] reads it but through the move file's own
/// canonical reader (the judge reads one per recorded ply at every run).
pub fn read_signed_move(
    dir: &GameDir,
    f: &Frame,
    path: &str,
    seat: usize,
) -> Result<(MoveFile, String)> {
    let text = read_signed_text(dir, f, path, seat, namespace::MOVE)?;
    let file = MoveFile::parse(&text).map_err(|e| refuse(path, e.field.as_deref(), e.reason))?;
    Ok((file, sha256_tagged(text.as_bytes())))
}

/// The text of a signed player file whose signature by the seat's key holds.
fn read_signed_text(dir: &GameDir, f: &Frame, path: &str, seat: usize, ns: &str) -> Result<String> {
    let text = dir.read(path, SMALL_FILE_LIMIT)?;
    let sig_path = format!("{path}.sig");
    let sig = dir
        .read_optional(&sig_path, SIGNATURE_LIMIT)?
        .ok_or_else(|| {
            refuse(
                &sig_path,
                None,
                "missing: every player file needs its signature",
            )
        })?;
    signing::verify(&f.player_keys[seat], ns, text.as_bytes(), &sig).map_err(|e| {
        refuse_with(
            &sig_path,
            None,
            e.to_string(),
            format!(
                "the file must be signed by {}'s key from game.toml",
                f.seats[seat]
            ),
        )
    })?;
    Ok(text)
}

/// Checks what binds a move file to its place: format, game, manifest, ply, seat, the record
/// head it answers, and a clean comment.
/// A seat's signed commitment file (`commitments/<seat>.toml`), when there: its signature and
/// its opening fields (`[format, game, manifest, seat]`, as `fields` reads them) checked.
/// Returns the file, its hash and its path.
pub fn read_commitment<T: DeserializeOwned + serde::Serialize>(
    dir: &GameDir,
    f: &Frame,
    seat: usize,
    format: &str,
    fields: impl Fn(&T) -> [&str; 4],
) -> Result<Option<(T, String, String)>> {
    let path = format!("commitments/{}.toml", f.seats[seat]);
    if !dir.exists(&path) {
        return Ok(None);
    }
    let (c, hash): (T, String) = read_signed(dir, f, &path, seat, namespace::COMMITMENT)?;
    let [said_format, game, manifest, said_seat] = fields(&c);
    let bad = |field: &str, reason: String| refuse(&path, Some(field), reason);
    if said_format != format {
        return Err(bad("format", format!("expected {format:?}")));
    }
    if game != f.id {
        return Err(bad("game", "belongs to another game".into()));
    }
    if manifest != f.hash {
        return Err(bad(
            "manifest",
            "was made for another version of game.toml".into(),
        ));
    }
    if said_seat != f.seats[seat] {
        return Err(bad("seat", format!("expected {}", f.seats[seat])));
    }
    Ok(Some((c, hash, path)))
}

pub fn check_binding(
    f: &Frame,
    path: &str,
    m: &MoveFile,
    ply: u32,
    seat: usize,
    heads: &[String],
) -> Result<()> {
    let bad = |field: &str, reason: String| refuse(path, Some(field), reason);
    if m.format != MOVE_FORMAT {
        return Err(bad("format", format!("expected {MOVE_FORMAT:?}")));
    }
    if m.game != f.id {
        return Err(bad("game", "belongs to another game".into()));
    }
    if m.manifest != f.hash {
        return Err(bad(
            "manifest",
            "was made for another version of game.toml".into(),
        ));
    }
    if m.ply != ply {
        return Err(bad(
            "ply",
            format!("says {}, but the file is for ply {ply}", m.ply),
        ));
    }
    if m.seat != f.seats[seat] {
        return Err(bad(
            "seat",
            format!("says {:?}, but the file is {}'s", m.seat, f.seats[seat]),
        ));
    }
    if !heads.contains(&m.answers) {
        return Err(refuse_with(
            path,
            Some("answers"),
            "does not answer the current record head (the move was made on a stale record)",
            "fetch the latest record.jsonl and make the move again",
        ));
    }
    if m.comment
        .as_deref()
        .is_some_and(|c| has_control(c) || c.chars().count() > COMMENT_LIMIT)
    {
        return Err(bad(
            "comment",
            format!("at most {COMMENT_LIMIT} characters, no control or bidirectional-override characters"),
        ));
    }
    Ok(())
}

/// The longest comment a move may carry: every accepted file must fit in a padded sealed view.
pub const COMMENT_LIMIT: usize = 1000;

/// Refuses the Liubo-only chain fields in a game that has no hash chains (the fields would
/// otherwise ride along into views, unchecked).
pub fn no_chain_fields(path: &str, m: &MoveFile) -> Result<()> {
    let field = match (&m.chain, m.chain_index) {
        (Some(_), _) => "chain",
        (None, Some(_)) => "chain_index",
        (None, None) => return Ok(()),
    };
    Err(refuse_with(
        path,
        Some(field),
        "this game has no hash chains: only Liubo moves carry chain elements",
        "make the move again without the field",
    ))
}

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

/// Reads a published JSON view after checking the judge's signature; none when absent.
pub fn read_view<T: DeserializeOwned>(
    dir: &GameDir,
    f: &Frame,
    audience: &str,
) -> Result<Option<T>> {
    let path = format!("views/{audience}.json");
    let Some(text) = dir.read_optional(&path, RECORD_LIMIT)? else {
        return Ok(None);
    };
    let sig = dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT)?;
    signing::verify(f.judge_key, namespace::VIEW, text.as_bytes(), &sig).map_err(|e| {
        refuse_with(
            format!("{path}.sig"),
            None,
            e.to_string(),
            "this view was not signed by the game's judge, or was changed",
        )
    })?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| refuse(&path, None, format!("not a view of this game: {e}")))
}

/// Checks a published text view's signature and content.
pub fn check_text_view(dir: &GameDir, f: &Frame, audience: &str, want: &str) -> Result<()> {
    let path = format!("views/{audience}.txt");
    if let Some(text) = dir.read_optional(&path, RECORD_LIMIT)? {
        let sig = dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT)?;
        signing::verify(f.judge_key, namespace::VIEW, text.as_bytes(), &sig)
            .map_err(|e| refuse(format!("{path}.sig"), None, e.to_string()))?;
        if text != want {
            return Err(refuse(&path, None, "does not show what the record gives"));
        }
    }
    Ok(())
}

/// The judge's signed outputs: the record and each audience's JSON and text view, in a fixed
/// order.
pub fn signed_outputs(
    record: &Record,
    views: Vec<(String, String, String)>,
    key: &PrivateKey,
) -> Vec<(String, Option<Vec<u8>>)> {
    let text = record.to_text();
    let mut files = vec![
        (
            "record.sig".to_string(),
            signing::sign(key, namespace::RECORD, text.as_bytes()),
        ),
        ("record.jsonl".to_string(), text),
    ];
    for (audience, json, txt) in views {
        for (ext, body) in [("json", json), ("txt", txt)] {
            files.push((
                format!("views/{audience}.{ext}.sig"),
                signing::sign(key, namespace::VIEW, body.as_bytes()),
            ));
            files.push((format!("views/{audience}.{ext}"), body));
        }
    }
    files
        .into_iter()
        .map(|(p, b)| (p, Some(b.into_bytes())))
        .collect()
}

/// Refuses a private key that is not the game's judge key.
pub fn check_judge(f: &Frame, key: &PrivateKey) -> Result<()> {
    if key.public_key().key_data() != f.judge_key.key_data() {
        return Err(refuse_with(
            "--key",
            None,
            "is not the judge key named in game.toml",
            "pass the judge's private key with --key",
        ));
    }
    Ok(())
}

/// The outputs of a game that hides nothing: the record, each audience's view (JSON and text,
/// signed) and one board picture (SVG and PNG) for everyone.
pub fn open_outputs<V: serde::Serialize>(
    record: &Record,
    audiences: &[&str],
    view: impl Fn(&str) -> V,
    text: impl Fn(&V) -> String,
    picture: impl Fn(&V) -> String,
    key: &PrivateKey,
) -> Vec<(String, Option<Vec<u8>>)> {
    let views = audiences
        .iter()
        .map(|&audience| {
            let v = view(audience);
            let json = format!(
                "{}\n",
                serde_json::to_string_pretty(&v).expect("views serialise")
            );
            (audience.to_string(), json, text(&v))
        })
        .collect();
    let mut files = signed_outputs(record, views, key);
    if !super::pictures() {
        files.push(("views/board.png".into(), None));
        files.push(("views/board.svg".into(), None));
        return files;
    }
    let svg = picture(&view("public"));
    files.push((
        "views/board.png".into(),
        Some(crate::view::picture::png(&svg)),
    ));
    files.push(("views/board.svg".into(), Some(svg.into_bytes())));
    files
}

/// The text of a published view (`views/<audience>.json`) after checking the judge's signature
/// on it; a view not written yet is refused with what to do.
pub fn signed_view_text(dir: &GameDir, f: &Frame, audience: &str) -> Result<String> {
    use crate::store::{RECORD_LIMIT, SIGNATURE_LIMIT};
    let path = format!("views/{audience}.json");
    let text = dir.read_optional(&path, RECORD_LIMIT)?.ok_or_else(|| {
        crate::error::refuse_with(
            &path,
            None,
            "not written yet",
            "run `qijudge judge` on the game first",
        )
    })?;
    let sig = dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT)?;
    signing::verify(f.judge_key, namespace::VIEW, text.as_bytes(), &sig)
        .map_err(|e| refuse(format!("{path}.sig"), None, e.to_string()))?;
    Ok(text)
}

/// Checks every published view (signature and content) against what the record gives; views
/// may be missing only before the first judge run.
pub fn check_views<V: DeserializeOwned + PartialEq>(
    dir: &GameDir,
    f: &Frame,
    audiences: &[&str],
    before_first_run: bool,
    want: impl Fn(&str) -> (V, String),
) -> Result<()> {
    for &audience in audiences {
        let (view, text) = want(audience);
        match read_view::<V>(dir, f, audience)? {
            Some(v) if v == view => {}
            Some(_) => {
                return Err(refuse(
                    format!("views/{audience}.json"),
                    None,
                    "does not show what the record gives",
                ))
            }
            None if before_first_run => {}
            None => return Err(refuse(format!("views/{audience}.json"), None, "missing")),
        }
        check_text_view(dir, f, audience, &text)?;
    }
    Ok(())
}

/// The move file of `seat` (one of two seats) for `ply`. Taking new files: none while it is not
/// there, and the other seat's file for that ply is refused as out of turn; in a replay the
/// recorded file is read whatever else is there.
pub fn turn_file(
    cx: &super::context::Ctx,
    seats: &[&str],
    seat: usize,
    ply: u32,
) -> Result<Option<String>> {
    let path = move_path(ply, seats[seat]);
    let other = move_path(ply, seats[1 - seat]);
    if cx.is_new() && cx.dir.exists(&other) {
        return Err(refuse(
            &other,
            Some("seat"),
            format!("out of turn: {} moves at ply {ply}", seats[seat]),
        ));
    }
    if cx.is_new() && !cx.dir.exists(&path) {
        return Ok(None);
    }
    Ok(Some(path))
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

/// Checks every move file beyond the record as the judge would, without its key: a seat of
/// this game, the next ply (`next`), the seat to move, the signature and every binding field.
/// `to_move` is asked only when there is a file to check; `legal` adds the game's own check of
/// a file that passed (for seat index `i`) and returns what to add to its line. One line per
/// file checked.
pub fn precheck_moves(
    dir: &GameDir,
    f: &Frame,
    next: u32,
    head: &str,
    to_move: impl FnOnce() -> Result<Option<String>>,
    mut legal: impl FnMut(&str, usize, &MoveFile) -> Result<String>,
) -> Result<Vec<String>> {
    let pending = moves_beyond(dir, next - 1)?;
    if pending.is_empty() {
        return Ok(vec![format!("no move beyond ply {} to check", next - 1)]);
    }
    let to_move = to_move()?;
    let mut lines = Vec::new();
    for (ply, seat) in pending {
        let path = move_path(ply, &seat);
        let i = f
            .seats
            .iter()
            .position(|s| *s == seat)
            .ok_or_else(|| refuse(&path, None, "no such seat in this game"))?;
        if ply != next {
            return Err(refuse(
                &path,
                Some("ply"),
                format!("the next ply is {next}"),
            ));
        }
        match &to_move {
            Some(s) if *s == seat => {}
            Some(_) => return Err(refuse(&path, Some("seat"), "not this seat's turn")),
            None => {
                return Err(refuse(
                    &path,
                    Some("seat"),
                    "nobody is to move: the game is over or waits for the judge",
                ))
            }
        }
        let (file, _) = read_signed_move(dir, f, &path, i)?;
        check_binding(f, &path, &file, ply, i, &[head.to_string()])?;
        let more = legal(&path, i, &file)?;
        lines.push(format!(
            "{path}: signed by {seat}, answers the current record{more}"
        ));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use crate::error::Error;
    use crate::judge::{self, load_game, Mode};
    use crate::protocol::signing::{self, forge, namespace};
    use crate::store::GameDir;
    use crate::synth::{long_game, NOW};
    use proptest::prelude::*;
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
            let replay = judge::replay(&dir, &g, Mode::Judge, NOW).unwrap();
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
        let replay = judge::replay(&dir, &g, Mode::Judge, NOW).unwrap();
        assert!(replay.refusal.is_none());
        assert_eq!(replay.record.last_move_ply(), PLIES);
    }
}
