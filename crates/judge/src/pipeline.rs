//! The one judge pipeline every game runs through.
//!
//! A game supplies a [`Referee`]: a step function that gives the next record entries its files
//! allow, plus what differs per game (forfeits, the clock's turn, outputs, views). The pipeline
//! does the rest the same way for every game: it locks the folder and recovers an interrupted
//! run, reads the signed record (refusing a rolled-back one), replays it line by line through the
//! same step function (so judge and audit cannot drift apart), takes new files until one is
//! missing or refused, applies the clock and forfeits, and writes the signed outputs atomically.

use super::candidates;
use super::frame::Frame;
use super::frame::Outputs;
use super::text::describe;
use qijudge_protocol::error::{refuse, refuse_with, Error, Refusal, Result};
use qijudge_protocol::files::Clock;
use qijudge_protocol::files::Entry;
use qijudge_protocol::record::Record;
use qijudge_protocol::signing::{self, namespace};
use qijudge_store::GameDir;
use ssh_key::PrivateKey;

pub use super::context::{Ctx, Mode};

/// A game's checked manifest, as the pipeline needs it.
pub trait Framed {
    /// The game's id, manifest hash, keys and seats.
    fn frame(&self) -> Frame<'_>;
    /// The manifest's clock, if the game has one.
    fn clock(&self) -> Option<&Clock>;
    /// Whether the seats' secrets are sealed to the judge (a game played in public).
    fn sealed(&self) -> bool;
    /// The manifest's players, in seat order.
    fn players(&self) -> &[qijudge_protocol::files::Player];
}

impl<R: crate::manifest::ManifestRules> Framed for crate::manifest::Seated<R> {
    fn frame(&self) -> Frame<'_> {
        crate::manifest::Seated::frame(self)
    }

    fn clock(&self) -> Option<&Clock> {
        self.manifest.clock.as_ref()
    }

    fn sealed(&self) -> bool {
        self.manifest.sealed
    }

    fn players(&self) -> &[qijudge_protocol::files::Player] {
        &self.manifest.players
    }
}

/// A judge's state: it keeps the signed record it was replayed from.
pub trait Recorded {
    fn record(&self) -> &Record;
    fn record_mut(&mut self) -> &mut Record;
}

/// [`Recorded`] for a state that keeps its record in a field (`record` unless named).
#[macro_export]
macro_rules! recorded {
    ($t:ty) => {
        $crate::recorded!($t, record);
    };
    ($t:ty, $($field:ident).+) => {
        impl $crate::pipeline::Recorded for $t {
            fn record(&self) -> &::qijudge_protocol::record::Record {
                &self.$($field).+
            }

            fn record_mut(&mut self) -> &mut ::qijudge_protocol::record::Record {
                &mut self.$($field).+
            }
        }
    };
}

/// What a game's judge does where its rules differ.
pub trait Referee: Framed {
    type State: Recorded;

    /// The state before the record's first line.
    fn initial(&self) -> Self::State;

    /// Before anything is read: refuse folders that hold what no game file is.
    fn check_folders(&self, _dir: &GameDir) -> Result<()> {
        Ok(())
    }

    /// The judge's own preparation after the replay (for instance rebuilding hash chains from
    /// the seeds only the judge holds).
    fn prepare(&self, _state: &mut Self::State, _cx: &Ctx) -> Result<()> {
        Ok(())
    }

    /// The next record entries the files give, or none while the game waits or is over. A
    /// refused file is an error; in a replay, `cx.recorded` holds the line being checked.
    fn step(&self, state: &mut Self::State, cx: &Ctx) -> Result<Option<Vec<Entry>>>;

    /// Bookkeeping once an entry is in the record.
    fn note(&self, _state: &mut Self::State, _entry: &Entry, _cx: &Ctx) -> Result<()> {
        Ok(())
    }

    /// The entries of the judge's forfeit of seat `seat` (the forfeit, and the end if the game
    /// ends with it). In a replay `cx.recorded` holds the forfeit line.
    fn forfeit(
        &self,
        state: &mut Self::State,
        seat: usize,
        reason: &str,
        cx: &Ctx,
    ) -> Result<Vec<Entry>>;

    /// The entries of a match judge's adjudication (the ruling and the end): `winner` wins, or
    /// none for a draw. A game that takes no adjudication refuses it.
    fn adjudicate(
        &self,
        _state: &mut Self::State,
        _winner: Option<usize>,
        _reason: &str,
        _cx: &Ctx,
    ) -> Result<Vec<Entry>> {
        Err(Error::Io(
            "this game takes no adjudication (qijudge match --help names the games that do)".into(),
        ))
    }

    fn is_over(&self, state: &Self::State) -> bool;

    /// What the judge held secret for the seats (`nonces`, `seeds`), which `verify` of a
    /// finished game requires revealed; none for a game without such secrets.
    fn secrets_held(&self) -> Option<&'static str> {
        None
    }

    /// Once play has begun and while it goes on: the seat whose clock runs and the ply it owes.
    fn clock_turn(&self, state: &Self::State) -> Option<(usize, u32)>;

    /// What the game waits for, in words, while it goes on.
    fn waiting(&self, state: &Self::State) -> Option<String>;

    /// After the judge took what it could with no refusal: every file that can never be taken
    /// (a far-future ply, a stray name, a move after the end) is refused rather than ignored,
    /// all found in one listing, so a folder of strays costs one pass.
    fn leftover(&self, state: &Self::State, cx: &Ctx) -> Result<Vec<Error>> {
        let (stray_from, next) = stray_from(self, state);
        let frame = self.frame();
        let mut refused =
            crate::strays::stray_move(cx.dir, &frame, state.record(), stray_from, next)?;
        let waits = self.clock_turn(state).map(|(seat, ply)| (ply, seat));
        refused.extend(crate::conditional::leftover(
            cx.dir,
            &frame,
            state.record(),
            waits,
            true,
            cx.key,
        )?);
        Ok(refused)
    }

    /// Everything a judge run writes but the refusal notes: record, views, pictures.
    fn outputs(&self, dir: &GameDir, state: &Self::State, key: &PrivateKey) -> Result<Outputs>;

    /// Where seat `seat`'s private refusal note lives.
    fn refusal_note_path(&self, seat: usize) -> String {
        format!("views/{}.refusal.txt", self.frame().seats[seat])
    }

    /// The files of seat `seat`'s refusal note saying `text`: the note and the judge's signature
    /// on it (a sealed game seals it to the seat, with the judge's tag file).
    fn refusal_note(
        &self,
        _dir: &GameDir,
        seat: usize,
        text: &str,
        key: &PrivateKey,
    ) -> Result<Outputs> {
        Ok(plain_refusal_note(self, seat, text, key))
    }

    /// The audit of the published views: each must be what the record gives.
    fn check_views(&self, dir: &GameDir, state: &Self::State) -> Result<()>;
}

/// Files to write (`None`: delete), by path in the game folder.
type Files = Outputs;

/// What one pass of the judge did.
pub struct Run<S> {
    pub state: S,
    /// One line per new record entry.
    pub said: Vec<String>,
    /// The refusal that stopped the pass, after what came before it was accepted.
    pub refusal: Option<Error>,
    /// What the game waits for, when nothing was refused and it goes on.
    pub waiting: Option<String>,
}

/// The seat a record entry was made for, if it is a seat's own file.
/// The first ply at which a move file can never be taken, and the next ply: past the next ply
/// while the game goes on; past the last recorded move once it is over (a move after the end);
/// none before play begins (a move filed early waits).
pub fn stray_from<R: Referee + ?Sized>(r: &R, state: &R::State) -> (u32, Option<u32>) {
    let next = r.clock_turn(state).map(|(_, ply)| ply);
    let from = match (next, r.is_over(state)) {
        (Some(n), _) => n.saturating_add(1),
        (None, true) => state.record().last_move_ply() + 1,
        (None, false) => u32::MAX,
    };
    (from, next)
}

fn entry_seat(entry: &Entry) -> Option<&str> {
    match entry {
        Entry::Commitment { seat, .. }
        | Entry::SetupAccepted { seat }
        | Entry::Move { seat, .. }
        | Entry::Throw { seat, .. } => Some(seat),
        _ => None,
    }
}

/// Loads the signed record, refusing one that was rolled back behind a signed view.
pub fn load_record<R: Referee>(r: &R, dir: &GameDir) -> Result<Record> {
    crate::signed_record::load_record(dir, &r.frame())
}

fn seat_of<R: Referee>(r: &R, name: &str) -> Option<usize> {
    r.frame().seats.iter().position(|s| *s == name)
}

fn append<R: Referee>(r: &R, state: &mut R::State, entry: Entry, cx: &Ctx) -> Result<()> {
    let hash = r.frame().hash.to_string();
    state.record_mut().append(entry.clone(), &hash);
    r.note(state, &entry, cx)
}

/// Replays a record against the files: every line must be exactly what the step function gives
/// (a forfeit line is the judge's own act and is replayed as one).
pub fn replay<R: Referee>(
    r: &R,
    dir: &GameDir,
    record: &Record,
    mode: Mode,
    key: Option<&PrivateKey>,
) -> Result<R::State> {
    replay_observed(r, dir, record, mode, key, &mut |_, _| {})
}

/// The judge's replay of the record it signed (its signature checked under `key`'s public
/// half, which `check_judge` matched to the manifest's judge): every recorded file is read and
/// matched to its line and replayed through the rules, but the players' signatures on them,
/// which the judge checked when it took each file, are taken as the record vouches for them
/// (see `signing::TrustRecorded`). New files are verified in full after the replay.
fn replay_own_record<R: Referee>(
    r: &R,
    dir: &GameDir,
    record: &Record,
    key: &PrivateKey,
) -> Result<R::State> {
    let _trust = qijudge_protocol::signing::TrustRecorded::enter();
    replay(r, dir, record, Mode::Judge, Some(key))
}

/// [`replay`], showing `observe` the state after each record entry is applied (the replay
/// page's positions).
pub fn replay_observed<R: Referee>(
    r: &R,
    dir: &GameDir,
    record: &Record,
    mode: Mode,
    key: Option<&PrivateKey>,
    observe: &mut dyn FnMut(&R::State, &Entry),
) -> Result<R::State> {
    // The audit stops on a file no game has; the judge refuses it after taking what it can
    // (`leftover`), so a stranger's file never stops a game.
    if mode == Mode::Audit {
        r.check_folders(dir)?;
    }
    let _forget = ForgetReadAhead(dir);
    let mut confirmed_to = 0;
    let mut state = r.initial();
    let mut k = 0;
    while k < record.lines.len() {
        if k >= confirmed_to {
            confirmed_to =
                k + crate::ahead::confirm_recorded_moves(dir, &r.frame(), &record.lines[k..]);
        }
        let cx = Ctx {
            dir,
            mode,
            now: "",
            recorded: &record.lines[k..],
            key,
        };
        let line = &record.lines[k].entry;
        let entries = match line {
            Entry::Forfeit { seat, reason, .. } if !r.is_over(&state) => {
                let i = seat_of(r, seat).ok_or_else(|| {
                    refuse(
                        "record.jsonl",
                        Some("seat"),
                        format!("line {}: unknown seat {seat:?}", k + 1),
                    )
                })?;
                r.forfeit(&mut state, i, reason, &cx)?
            }
            Entry::Adjudicated { winner, reason } if !r.is_over(&state) => {
                let winner = adjudicated_winner(r, winner.as_deref()).map_err(|why| {
                    refuse(
                        "record.jsonl",
                        Some("winner"),
                        format!("line {}: {why}", k + 1),
                    )
                })?;
                r.adjudicate(&mut state, winner, reason, &cx)?
            }
            Entry::Vacation { seat, days, at } if !r.is_over(&state) => {
                vacation_entry(r, &state, seat, *days, at).map_err(|why| {
                    refuse(
                        "record.jsonl",
                        Some("days"),
                        format!("line {}: {why}", k + 1),
                    )
                })?
            }
            _ => r.step(&mut state, &cx)?.ok_or_else(|| {
                refuse_with(
                    "record.jsonl",
                    None,
                    format!(
                        "line {}: the files do not give this line: {}",
                        k + 1,
                        describe(line)
                    ),
                    "an accepted file is missing or was changed, or the record was edited",
                )
            })?,
        };
        for entry in entries {
            let Some(recorded) = record.lines.get(k) else {
                return Err(refuse_with(
                    "record.jsonl",
                    None,
                    format!(
                        "ends at line {} before what the files give: {}",
                        k,
                        describe(&entry)
                    ),
                    "the record was cut short",
                ));
            };
            if recorded.entry != entry {
                return Err(refuse_with(
                    "record.jsonl",
                    None,
                    format!(
                        "line {} disagrees with the files: the record says {}, the files give {}",
                        k + 1,
                        describe(&recorded.entry),
                        describe(&entry)
                    ),
                    "an accepted file was changed, or the record was edited",
                ));
            }
            let genesis = r.frame().hash;
            state
                .record_mut()
                .append_as_in(record, k, entry.clone(), genesis);
            r.note(&mut state, &entry, &cx)?;
            observe(&state, &record.lines[k].entry);
            k += 1;
        }
    }
    if state.record() != record {
        return Err(refuse(
            "record.jsonl",
            None,
            "does not match the files it records",
        ));
    }
    Ok(state)
}

/// Drops the files the replay read ahead, however it ends.
struct ForgetReadAhead<'a>(&'a GameDir);

impl Drop for ForgetReadAhead<'_> {
    fn drop(&mut self) {
        self.0.forget_read_ahead();
    }
}

/// A refused candidate does not hold its place (the judge moves it into `refused/`): tell its
/// sender what to do.
fn with_move_hint(e: Error) -> Error {
    match e {
        Error::Refused(mut r) if candidates::candidate(&r.file).is_some() => {
            let advice = format!(
                "the judge keeps the refused file apart in {}/ (nothing is lost); send a corrected one",
                candidates::REFUSED
            );
            r.hint = Some(match r.hint {
                Some(h) => format!("{h}; {advice}"),
                None => advice,
            });
            Error::Refused(r)
        }
        other => other,
    }
}

/// Takes new files in order until one is missing or refused; the clock may refuse a late file
/// and ask for a forfeit. Works on a state that already holds the record. The refusals are the
/// one that stopped the taking, or else (with `look_for_leftovers`) every leftover file.
pub fn take_new<R: Referee>(
    r: &R,
    dir: &GameDir,
    state: &mut R::State,
    now: &str,
    key: Option<&PrivateKey>,
    forfeit: &mut Option<(String, String)>,
    look_for_leftovers: bool,
) -> Result<(Vec<String>, Vec<Error>)> {
    let cx = Ctx::taking_new(dir, now, key);
    let mut said = Vec::new();
    let mut refusal = None;
    let frame = r.frame();
    let next = state.record().last_move_ply() + 1;
    let mut coming = next;
    crate::ahead::with_new_moves_verified_ahead(dir, &frame, next, |ready| loop {
        ready(coming);
        if let Some((seat, ply)) = r.clock_turn(state) {
            let name = r.frame().seats[seat].to_string();
            let path = super::frame::move_path(ply, &name);
            if let Some(late) = super::clock::check(
                r.clock(),
                state.record(),
                now,
                &path,
                dir.exists(&path),
                &name,
                forfeit,
            ) {
                refusal = late;
                break Ok(());
            }
        }
        match r.step(state, &cx) {
            Ok(Some(entries)) => {
                for entry in entries {
                    if let Entry::Move { ply, .. } = entry {
                        coming = ply + 1;
                    }
                    said.push(describe(&entry));
                    append(r, state, entry, &cx)?;
                }
            }
            Ok(None) => break Ok(()),
            Err(e) => {
                refusal = Some(with_move_hint(e));
                break Ok(());
            }
        }
    })?;
    let refusals = match refusal {
        Some(e) => vec![e],
        None if look_for_leftovers => r
            .leftover(state, &cx)?
            .into_iter()
            .map(with_move_hint)
            .collect(),
        None => Vec::new(),
    };
    Ok((said, refusals))
}

/// Records the judge's forfeit of `seat` with a reason code.
pub fn forfeit_now<R: Referee>(
    r: &R,
    dir: &GameDir,
    state: &mut R::State,
    now: &str,
    seat: &str,
    reason: &str,
) -> Result<Vec<String>> {
    let seats = r.frame().seats.join(", ");
    let i = seat_of(r, seat)
        .ok_or_else(|| Error::Io(format!("--forfeit: {seat:?} is not a seat ({seats})")))?;
    if !is_reason_code(reason) {
        return Err(Error::Io(format!(
            "--forfeit: the reason code {reason:?} must be lower-case letters, digits and -"
        )));
    }
    if r.is_over(state) {
        return Err(Error::Io("--forfeit: the game is already over".into()));
    }
    let cx = Ctx::taking_new(dir, now, None);
    let mut said = Vec::new();
    for entry in r.forfeit(state, i, reason, &cx)? {
        said.push(describe(&entry));
        append(r, state, entry, &cx)?;
    }
    Ok(said)
}

/// The reason code of a match's maximum game length, a draw every game takes.
pub const MAX_LENGTH: &str = "max-moves";

/// What a game without score rulings takes of a match judge: the draw at the maximum length.
pub fn length_draw_only(winner: Option<usize>, reason: &str) -> Result<()> {
    match (winner, reason) {
        (None, MAX_LENGTH) => Ok(()),
        _ => Err(Error::Io(format!(
            "this game takes only the maximum-length draw ({MAX_LENGTH}) of a match judge, not \
             {reason:?} (qijudge match --help names the games that take score rulings)"
        ))),
    }
}

/// The seat index of an adjudication's winner (none: a draw).
fn adjudicated_winner<R: Referee>(
    r: &R,
    winner: Option<&str>,
) -> std::result::Result<Option<usize>, String> {
    winner
        .map(|w| {
            seat_of(r, w)
                .ok_or_else(|| format!("{w:?} is not a seat ({})", r.frame().seats.join(", ")))
        })
        .transpose()
}

/// Records a match judge's adjudication: `winner` (none: a draw) wins for `reason`, a reason
/// code as a forfeit's.
pub fn adjudicate_now<R: Referee>(
    r: &R,
    dir: &GameDir,
    state: &mut R::State,
    now: &str,
    winner: Option<&str>,
    reason: &str,
) -> Result<Vec<String>> {
    let winner =
        adjudicated_winner(r, winner).map_err(|why| Error::Io(format!("adjudication: {why}")))?;
    if !is_reason_code(reason) {
        return Err(Error::Io(format!(
            "adjudication: the reason code {reason:?} must be lower-case letters, digits and -"
        )));
    }
    if r.is_over(state) {
        return Err(Error::Io("adjudication: the game is already over".into()));
    }
    let cx = Ctx::taking_new(dir, now, None);
    let mut said = Vec::new();
    for entry in r.adjudicate(state, winner, reason, &cx)? {
        said.push(describe(&entry));
        append(r, state, entry, &cx)?;
    }
    Ok(said)
}

/// A reason code: 1 to 64 lower-case letters, digits and `-`.
fn is_reason_code(reason: &str) -> bool {
    !reason.is_empty()
        && reason.len() <= 64
        && reason
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The record line of a vacation `seat` asks for at `at`, if the clock allows it.
fn vacation_entry<R: Referee>(
    r: &R,
    state: &R::State,
    seat: &str,
    days: u32,
    at: &str,
) -> std::result::Result<Vec<Entry>, String> {
    if seat_of(r, seat).is_none() {
        return Err(format!(
            "{seat:?} is not a seat ({})",
            r.frame().seats.join(", ")
        ));
    }
    let seats = r.frame().seats;
    let to_move = r.clock_turn(state).map(|(i, _)| seats[i]);
    super::clock::may_take_vacation(r.clock(), state.record(), seat, days, to_move, at)?;
    Ok(vec![Entry::Vacation {
        seat: seat.to_string(),
        days,
        at: at.to_string(),
    }])
}

/// Records a vacation of `days` days for `seat`, asked for now.
pub fn vacation_now<R: Referee>(
    r: &R,
    dir: &GameDir,
    state: &mut R::State,
    now: &str,
    seat: &str,
    days: u32,
) -> Result<Vec<String>> {
    if r.is_over(state) {
        return Err(Error::Io("--vacation: the game is already over".into()));
    }
    let entries = vacation_entry(r, state, seat, days, now)
        .map_err(|why| Error::Io(format!("--vacation: {why}")))?;
    let cx = Ctx::taking_new(dir, now, None);
    let mut said = Vec::new();
    for entry in entries {
        said.push(describe(&entry));
        append(r, state, entry, &cx)?;
    }
    Ok(said)
}

/// What the judge rules on its own authority in a run, besides taking files.
#[derive(Clone, Debug, Default)]
pub struct Rulings {
    /// A seat that forfeits, with a reason code.
    pub forfeit: Option<(String, String)>,
    /// A seat's vacation, in days (the seat asked; the manifest allows it).
    pub vacation: Option<(String, u32)>,
    /// A match's adjudication: the winning seat (none: a draw) and a reason code.
    pub adjudicate: Option<(Option<String>, String)>,
}

/// Every file the judge writes under `views/` carries its signature (pictures included), so a
/// file there that is not signed by the judge is known not to be the judge's.
fn sign_views(mut files: Outputs, key: &PrivateKey) -> Outputs {
    let has = |files: &[(String, Option<Vec<u8>>)], p: &str| files.iter().any(|(f, _)| f == p);
    let mut sigs = Vec::new();
    for (path, bytes) in &files {
        let signed = path.ends_with(".sig") || path.ends_with(".tag") || path.ends_with(".age");
        let sig = format!("{path}.sig");
        if let (false, true, false) = (signed, path.starts_with("views/"), has(&files, &sig)) {
            // A file deleted takes its signature with it.
            let signature = bytes
                .as_ref()
                .map(|b| signing::sign(key, namespace::VIEW, b).into_bytes());
            sigs.push((sig, signature));
        }
    }
    files.extend(sigs);
    files
}

/// A refusal note in clear, with the judge's signature.
pub fn plain_refusal_note<R: Referee + ?Sized>(
    r: &R,
    seat: usize,
    text: &str,
    key: &PrivateKey,
) -> Outputs {
    let path = r.refusal_note_path(seat);
    let body = format!("{text}\n");
    let sig = signing::sign(key, namespace::VIEW, body.as_bytes());
    vec![
        (format!("{path}.sig"), Some(sig.into_bytes())),
        (path, Some(body.into_bytes())),
    ]
}

/// The companion of a refusal note: the judge's signature, or for a sealed note its tag file.
fn note_companion(path: &str) -> String {
    match path.ends_with(".age") {
        true => super::sealing::tag_path(path),
        false => format!("{path}.sig"),
    }
}

/// Reasons a refusal note lists, at most.
const NOTE_REASONS: usize = 20;

/// The refused seat's note says why (its seat: the one the refusal is private to, else the one
/// the refused file is named for); a note stays until that seat's next file is accepted. Returns
/// the files to write and the pending notes kept as they are.
fn refusal_notes<R: Referee>(
    r: &R,
    dir: &GameDir,
    key: &PrivateKey,
    refused: &[&Refusal],
    moved_on: &[usize],
) -> Result<(Files, Vec<String>)> {
    let owner = |f: &Refusal| match &f.private_to {
        Some(seat) => seat_of(r, seat),
        None => candidates::owner(&f.file, r.frame().seats),
    };
    let (mut notes, mut kept) = (Vec::new(), Vec::new());
    for seat in 0..r.frame().seats.len() {
        let path = r.refusal_note_path(seat);
        let mut reasons: Vec<String> = refused
            .iter()
            .filter(|f| owner(f) == Some(seat))
            .map(|f| f.detailed())
            .collect();
        // A note stays small whatever was dropped in the folder (strays by the thousand).
        if reasons.len() > NOTE_REASONS {
            let more = reasons.len() - NOTE_REASONS;
            reasons.truncate(NOTE_REASONS);
            reasons.push(format!("… and {more} more file(s) refused and set aside"));
        }
        if !reasons.is_empty() {
            notes.extend(r.refusal_note(dir, seat, &reasons.join("\n"), key)?);
        } else if !moved_on.contains(&seat)
            && crate::published::judge_signed(dir, r.frame().hash, r.frame().judge_key, &path)
        {
            kept.push(note_companion(&path));
            kept.push(path);
        }
    }
    Ok((notes, kept))
}

/// What no judge ever writes in `views/` goes before the judge writes there: a folder, a link or
/// any other non-regular file, a name that is not plain ASCII (`views/public.json` made a folder
/// holding a copy of a signed file would otherwise stop every later run). Only the entry itself
/// goes, never what a link points to; `views` itself, if not a real folder, goes too.
fn clear_views_junk(dir: &GameDir) -> Result<()> {
    let io = |e: std::io::Error| Error::Io(format!("views/: {e}"));
    let views = dir.path("views");
    match std::fs::symlink_metadata(&views) {
        Err(_) => return Ok(()),
        Ok(m) if !m.is_dir() => return std::fs::remove_file(&views).map_err(io),
        Ok(_) => {}
    }
    for entry in std::fs::read_dir(&views).map_err(io)? {
        let entry = entry.map_err(io)?;
        let kind = entry.file_type().map_err(io)?;
        let plain = entry
            .file_name()
            .to_str()
            .is_some_and(|n| qijudge_store::is_judge_output(&format!("views/{n}")));
        if kind.is_dir() {
            std::fs::remove_dir_all(entry.path()).map_err(io)?;
        } else if !kind.is_file() || !plain {
            std::fs::remove_file(entry.path()).map_err(io)?;
        }
    }
    Ok(())
}

/// Nothing but the judge writes `views/`: every file there that this run does not write or keep
/// (someone else's, or a note whose seat moved on) is removed.
fn sweep_views(
    dir: &GameDir,
    files: &[(String, Option<Vec<u8>>)],
    kept: &[String],
) -> Result<Outputs> {
    let mut gone = Vec::new();
    for name in dir.list("views")? {
        let path = format!("views/{name}");
        let ours = files.iter().any(|(p, _)| *p == path) || kept.contains(&path);
        if !ours && qijudge_store::is_judge_output(&path) {
            gone.push((path, None));
        }
    }
    Ok(gone)
}

/// One judge run: checks the key, locks the folder, recovers an interrupted run, replays the
/// record, records a vacation asked for, takes what is new, records a forfeit (asked for, or by
/// the clock's expiry rule) and writes everything atomically.
pub fn judge<R: Referee>(
    r: &R,
    dir: &GameDir,
    key: &PrivateKey,
    now: &str,
    rulings: Rulings,
) -> Result<Run<R::State>> {
    let mut forfeit = rulings.forfeit;
    crate::published::check_judge(&r.frame(), key)?;
    let _lock = dir.lock()?;
    dir.recover()?;
    let record = load_record(r, dir)?;
    let mut state = replay_own_record(r, dir, &record, key)?;
    let cx = Ctx::taking_new(dir, now, Some(key));
    r.prepare(&mut state, &cx)?;
    let before = state.record().lines.len();
    // A vacation first: the clock it stops is the one the files are taken against.
    let mut said = match &rulings.vacation {
        Some((seat, days)) => vacation_now(r, dir, &mut state, now, seat, *days)?,
        None => Vec::new(),
    };
    let (taken, refusals) = take_all(r, dir, &mut state, now, Some(key), &mut forfeit)?;
    said.extend(taken);
    let moved_on = moved_on_since(r, &state, before);
    // A game that ended meanwhile keeps its result: a late forfeit (say, from a deadline
    // script) changes nothing.
    if let Some((seat, reason)) = forfeit.filter(|_| !r.is_over(&state)) {
        said.extend(forfeit_now(r, dir, &mut state, now, &seat, &reason)?);
    }
    if let Some((winner, reason)) = rulings.adjudicate.filter(|_| !r.is_over(&state)) {
        said.extend(adjudicate_now(
            r,
            dir,
            &mut state,
            now,
            winner.as_deref(),
            &reason,
        )?);
    }
    let waiting = match (refusals.is_empty(), r.is_over(&state)) {
        (true, false) => r.waiting(&state),
        _ => None,
    };
    publish(r, dir, key, &state, &refusals, &moved_on)?;
    Ok(Run {
        state,
        said,
        refusal: refusals.into_iter().next(),
        waiting,
    })
}

/// [`take_new`] until nothing more can be taken: a refused candidate is held back (it is set
/// aside when the run writes) and the taking goes on without it, so a bad file, a stranger's
/// included, never delays a good one beside it. Returns the refusals in the order they came.
fn take_all<R: Referee>(
    r: &R,
    dir: &GameDir,
    state: &mut R::State,
    now: &str,
    key: Option<&PrivateKey>,
    forfeit: &mut Option<(String, String)>,
) -> Result<(Vec<String>, Vec<Error>)> {
    let (mut said, mut refusals) = (Vec::new(), Vec::new());
    loop {
        let (more, found) = take_new(r, dir, state, now, key, forfeit, true)?;
        said.extend(more);
        // Each pass holds back at least one more file that is there, so the loop ends.
        let mut held_any = false;
        for e in found {
            let held = match &e {
                Error::Refused(f) => candidates::candidate(&f.file)
                    .filter(|c| dir.exists(c) || dir.exists(&format!("{c}.sig")))
                    .map(str::to_string),
                _ => None,
            };
            refusals.push(e);
            if let Some(file) = held {
                dir.hold_back(&format!("{file}.sig"));
                dir.hold_back(&file);
                held_any = true;
            }
        }
        if !held_any {
            break;
        }
    }
    Ok((said, refusals))
}

/// The seats with a record line made for them since line `before` (their old refusal notes
/// are cleared).
fn moved_on_since<R: Referee>(r: &R, state: &R::State, before: usize) -> Vec<usize> {
    let lines = &state.record().lines;
    lines[before.min(lines.len())..]
        .iter()
        .filter_map(|l| entry_seat(&l.entry))
        .filter_map(|s| seat_of(r, s))
        .collect()
}

/// Writes what a judge run publishes for `state` in one commit: the referee's outputs with
/// their signatures, the refusal notes, and the sweep of views no longer written; then sets
/// the refused file aside.
fn publish<R: Referee>(
    r: &R,
    dir: &GameDir,
    key: &PrivateKey,
    state: &R::State,
    refusals: &[Error],
    moved_on: &[usize],
) -> Result<()> {
    let mut files = sign_views(r.outputs(dir, state, key)?, key);
    let refused: Vec<&Refusal> = refusals
        .iter()
        .filter_map(|e| match e {
            Error::Refused(refused) => Some(refused),
            _ => None,
        })
        .collect();
    clear_views_junk(dir)?;
    let (notes, kept) = refusal_notes(r, dir, key, &refused, moved_on)?;
    files.extend(notes);
    files.extend(sweep_views(dir, &files, &kept)?);
    dir.commit(&files)?;
    // Only after the notes are out: the refused candidates leave their places.
    for f in refused {
        candidates::set_aside(dir, &f.file)?;
    }
    Ok(())
}

/// The state from the signed files (the record replayed), for status and players' commands.
pub fn current<R: Referee>(r: &R, dir: &GameDir, mode: Mode) -> Result<R::State> {
    let record = load_record(r, dir)?;
    replay(r, dir, &record, mode, None)
}

/// The audit: the record replayed from the files (secrets from `reveal/`), then every
/// published view checked against what the record gives.
pub fn verify<R: Referee>(r: &R, dir: &GameDir) -> Result<R::State> {
    let state = current(r, dir, Mode::Audit)?;
    if let (true, Some(what)) = (r.is_over(&state), r.secrets_held()) {
        super::secret::require_revealed(dir, r.frame().seats, what)?;
    }
    r.check_views(dir, &state)?;
    crate::published::check_view_signatures(dir, &r.frame())?;
    Ok(state)
}

/// What standings need of a game whose judge the reader pins by key: the judge's signature on
/// the record (whose lines hold every accepted file's hash), the hash chain, and the rules'
/// replay of every recorded file, each read and its hash matched to its line, its player's
/// signature taken as the record vouches for it (see `signing::TrustRecorded`); the revealed
/// secrets of a finished game checked against their commitments. The views are not read, nor
/// the record checked against their heads: [`verify`] is the audit of everything.
pub fn trust_record<R: Referee>(r: &R, dir: &GameDir) -> Result<R::State> {
    let _trust = qijudge_protocol::signing::TrustRecorded::enter();
    let record = crate::signed_record::load_signed(dir, &r.frame())?;
    let state = replay(r, dir, &record, Mode::Audit, None)?;
    if let (true, Some(what)) = (r.is_over(&state), r.secrets_held()) {
        super::secret::require_revealed(dir, r.frame().seats, what)?;
    }
    Ok(state)
}

/// A judge kept open for in-process play (bot matches): the record is replayed once, then each
/// `advance` takes only the files written since, with the same checks as a full run. Nothing is
/// written until `outputs` is asked for.
pub struct Session<'a, R: Referee> {
    pub referee: &'a R,
    pub dir: &'a GameDir,
    pub state: R::State,
    pub now: String,
    /// The refusal of the last pass, if any.
    pub refusal: Option<Error>,
    /// How many record lines the files held when the session opened.
    opened_at: usize,
}

impl<'a, R: Referee> Session<'a, R> {
    pub fn open(referee: &'a R, dir: &'a GameDir, now: &str) -> Result<Session<'a, R>> {
        Session::open_with(referee, dir, now, None)
    }

    /// [`Session::open`] for a judge whose key the referee's own preparation needs (as a full
    /// run gives it: Liubo's judge rebuilds the chains from the seeds).
    pub fn open_with(
        referee: &'a R,
        dir: &'a GameDir,
        now: &str,
        key: Option<&PrivateKey>,
    ) -> Result<Session<'a, R>> {
        let record = load_record(referee, dir)?;
        let mut state = match key {
            Some(key) => replay_own_record(referee, dir, &record, key)?,
            None => replay(referee, dir, &record, Mode::Judge, None)?,
        };
        if key.is_some() {
            let cx = Ctx::taking_new(dir, now, key);
            referee.prepare(&mut state, &cx)?;
        }
        let opened_at = state.record().lines.len();
        let mut s = Session {
            referee,
            dir,
            state,
            now: now.to_string(),
            refusal: None,
            opened_at,
        };
        s.advance()?;
        Ok(s)
    }

    /// The game as judged so far.
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// Judges the files written since the last pass.
    pub fn advance(&mut self) -> Result<Vec<String>> {
        let mut forfeit = None;
        let (said, refusals) = take_new(
            self.referee,
            self.dir,
            &mut self.state,
            &self.now,
            None,
            &mut forfeit,
            // In-process play writes only the files of the next ply: no listing per move.
            false,
        )?;
        self.refusal = refusals.into_iter().next();
        Ok(said)
    }

    /// Writes what a judge run over the folder would write now (the record, views, notes), from
    /// the session's state rather than a replay: the files are the same, as the session took
    /// what that run would take, with the same checks.
    pub fn publish(&self, key: &PrivateKey) -> Result<()> {
        crate::published::check_judge(&self.referee.frame(), key)?;
        let _lock = self.dir.lock()?;
        let moved_on = moved_on_since(self.referee, &self.state, self.opened_at);
        let refusals: Vec<Error> = self.refusal.iter().cloned().collect();
        publish(
            self.referee,
            self.dir,
            key,
            &self.state,
            &refusals,
            &moved_on,
        )
    }

    /// The match judge adjudicates the game (nothing if it is already over): `winner` wins, or
    /// none for a draw.
    pub fn adjudicate(&mut self, winner: Option<&str>, reason: &str) -> Result<()> {
        if self.referee.is_over(&self.state) {
            return Ok(());
        }
        adjudicate_now(
            self.referee,
            self.dir,
            &mut self.state,
            &self.now,
            winner,
            reason,
        )
        .map(|_| ())
    }

    /// `seat` forfeits with a reason code (nothing if the game is already over): the game ends,
    /// or on the four-player board goes on without the seat.
    pub fn forfeit(&mut self, seat: &str, reason: &str) -> Result<()> {
        if self.referee.is_over(&self.state) {
            return Ok(());
        }
        forfeit_now(
            self.referee,
            self.dir,
            &mut self.state,
            &self.now,
            seat,
            reason,
        )
        .map(|_| ())
    }
}
