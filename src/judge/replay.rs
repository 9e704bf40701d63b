//! Replay: every file checked against the manifest, the keys, the commitments and the rules,
//! the record rebuilt line by line. `judge` may append what is new; `verify` must reproduce the
//! published record exactly; a [`Session`] advances ply by ply for in-process play.

use super::*;
use crate::error::{private_to, refuse, refuse_with, Error, Result};
use crate::protocol::commitment::{lot_commitment, lot_draw, setup_commitment};
use crate::protocol::files::*;
use crate::protocol::hash::{hex32, is_sha256_tagged, sha256_tagged};
use crate::protocol::record::Record;
use crate::protocol::signing::{self, namespace};
use crate::rules::luzhanqi::nodeset::Wide;
use crate::rules::luzhanqi::options::FirstMover;
use crate::rules::luzhanqi::*;
use crate::store::{GameDir, SIGNATURE_LIMIT, SMALL_FILE_LIMIT};
use crate::view::SignedFile;
use ssh_key::{PrivateKey, PublicKey};

/// Where the secret setups come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The judge: setups from `setups/`, new files appended to the record.
    Judge,
    /// The audit: setups from `reveal/`, nothing new allowed.
    Audit,
}

/// The result of a replay.
pub struct Replay {
    pub record: Record,
    pub position: Option<Position<Wide>>,
    pub events: Vec<Event>,
    /// Per seat, its last accepted move file and signature.
    pub last_moves: Vec<Option<SignedFile>>,
    /// What became new in this run, one line each.
    pub accepted: Vec<String>,
    /// The first refused new file, if any (everything before it was accepted).
    pub refusal: Option<Error>,
    /// What the game waits for.
    pub waiting: Option<String>,
    /// The result, once the game is over.
    pub outcome: Option<GameResult>,
}

/// A folder, the test its file names must pass, and the pattern in words.
type NameRule<'a> = (&'a str, &'a dyn Fn(&str) -> bool, &'a str);

struct Replayer<'a> {
    dir: &'a GameDir,
    /// A move refused as late (past its deadline's grace): reported after the expiry rule ran.
    late: Option<Error>,
    /// Judge mode: a seat to forfeit after the last accepted move, with a reason code.
    forfeit: Option<(String, String)>,
    /// The names in `moves/`, listed once per pass.
    move_names: std::collections::BTreeSet<String>,
    /// The ply whose move comes next.
    next_ply: u32,
    game: &'a Game,
    mode: Mode,
    /// The judge's key, to open sealed setups (judge mode of a sealed game).
    opener: Option<&'a PrivateKey>,
    now: String,
    old: Record,
    out: Replay,
}

impl Replayer<'_> {
    fn genesis(&self) -> &str {
        &self.game.hash
    }

    /// Appends an entry; an existing record line at this place must say exactly the same.
    fn push(&mut self, entry: Entry) -> Result<()> {
        let k = self.out.record.len();
        match self.old.lines.get(k) {
            Some(old) if old.entry != entry => {
                return Err(refuse_with(
                    "record.jsonl",
                    None,
                    format!(
                    "line {} disagrees with the files: the record says {:?}, the files give {:?}",
                    k + 1,
                    old.entry,
                    entry
                ),
                    "an accepted file was changed, or the record was edited",
                ))
            }
            Some(_) => {}
            None if self.mode == Mode::Audit => {
                return Err(refuse_with(
                    "record.jsonl",
                    None,
                    format!("has no line {} for {entry:?}", k + 1),
                    "the judge has not judged every file yet",
                ))
            }
            None => self.out.accepted.push(describe(&entry)),
        }
        self.out.record.append(entry, &self.game.hash);
        Ok(())
    }

    /// The entry at the current place of the existing record, if any.
    fn recorded(&self) -> Option<&Entry> {
        self.old.lines.get(self.out.record.len()).map(|l| &l.entry)
    }

    fn seat_names(&self) -> Vec<String> {
        self.game
            .manifest
            .players
            .iter()
            .map(|p| p.seat.clone())
            .collect()
    }

    /// Reads a signed file and its `.sig`, verifying the signature with `key`.
    fn signed(&self, path: &str, key: &PublicKey, ns: &str) -> Result<(String, String)> {
        let text = self.dir.read(path, SMALL_FILE_LIMIT)?;
        let sig_path = format!("{path}.sig");
        let sig = self.dir.read(&sig_path, SIGNATURE_LIMIT)?;
        signing::verify(key, ns, text.as_bytes(), &sig).map_err(|e| {
            refuse_with(
                &sig_path,
                None,
                e.to_string(),
                "sign the file with the key registered for this seat in game.toml",
            )
        })?;
        Ok((text, sig))
    }

    /// Checks the fields every player file shares.
    fn check_binding(
        &self,
        path: &str,
        format: (&str, &str),
        game: &str,
        manifest: &str,
        seat: (&str, &str),
    ) -> Result<()> {
        if format.0 != format.1 {
            return Err(refuse(
                path,
                Some("format"),
                format!("expected {:?}", format.1),
            ));
        }
        if game != self.game.manifest.id {
            return Err(refuse_with(
                path,
                Some("game"),
                "made for another game",
                "make the file again for this game's id",
            ));
        }
        if manifest != self.game.hash {
            return Err(refuse_with(
                path,
                Some("manifest"),
                "made under a different game.toml",
                "game.toml changed, or the file belongs to another game",
            ));
        }
        if seat.0 != seat.1 {
            return Err(refuse(
                path,
                Some("seat"),
                format!("the file name says {} but the file says {}", seat.1, seat.0),
            ));
        }
        Ok(())
    }

    fn commitment(&self, seat: usize) -> Result<(CommitmentFile, String)> {
        let name = &self.game.manifest.players[seat].seat;
        let path = format!("commitments/{name}.toml");
        let (text, _) = self.signed(&path, &self.game.player_keys[seat], namespace::COMMITMENT)?;
        let file: CommitmentFile = parse_toml(&text)
            .map_err(|e| private_to(refuse(&path, e.field.as_deref(), e.reason), name))?;
        self.check_binding(
            &path,
            (&file.format, COMMITMENT_FORMAT),
            &file.game,
            &file.manifest,
            (&file.seat, name),
        )?;
        for (field, value) in [("setup", &file.setup), ("lot", &file.lot)] {
            if !is_sha256_tagged(value) {
                return Err(refuse(
                    &path,
                    Some(field),
                    "expected sha256: and 64 hex digits",
                ));
            }
        }
        Ok((file, sha256_tagged(text.as_bytes())))
    }

    /// Reads a seat's secret setup (or its reveal), checks it against the commitment and the rules.
    fn setup(&self, seat: usize, commitment: &CommitmentFile) -> Result<(Setup, [u8; 32])> {
        let name = &self.game.manifest.players[seat].seat;
        let path = self.secret_path(name);
        let text = if self.mode == Mode::Judge && self.game.manifest.sealed {
            self.open_sealed_setup(seat, &path)?
        } else {
            self.dir.read(&path, SMALL_FILE_LIMIT)?
        };
        let file: SetupFile =
            parse_toml(&text).map_err(|e| refuse(&path, e.field.as_deref(), e.reason))?;
        self.check_binding(
            &path,
            (&file.format, SETUP_FORMAT),
            &file.game,
            &file.manifest,
            (&file.seat, name),
        )?;
        let salt = hex32(&file.salt)
            .ok_or_else(|| refuse(&path, Some("salt"), "expected 64 lower-case hex digits"))?;
        let nonce = hex32(&file.lot_nonce).ok_or_else(|| {
            refuse(
                &path,
                Some("lot_nonce"),
                "expected 64 lower-case hex digits",
            )
        })?;
        if setup_commitment(&file.game, name, &salt, file.setup.as_bytes()) != commitment.setup {
            return Err(refuse_with(
                &path,
                Some("setup"),
                "does not match the published commitment",
                "hand over exactly the setup file that qijudge setup wrote",
            ));
        }
        if lot_commitment(&file.game, name, &nonce) != commitment.lot {
            return Err(refuse(
                &path,
                Some("lot_nonce"),
                "does not match the published commitment",
            ));
        }
        let board = self.game.board;
        let seat_id = Seat(seat as u8);
        let setup = parse_canonical_setup(&file.setup, board, seat_id)
            .map_err(|e| refuse(&path, Some("setup"), e))?;
        if setup.canonical_bytes(board) != file.setup.as_bytes() {
            return Err(refuse(&path, Some("setup"), "not in canonical form"));
        }
        Ok((setup, nonce))
    }

    /// Where a seat's secret setup is read: sealed to the judge (a sealed game), `setups/`
    /// (the judge) or `reveal/` (the audit).
    fn secret_path(&self, name: &str) -> String {
        match self.mode {
            Mode::Judge if self.game.manifest.sealed => sealed_setup_path(name),
            Mode::Judge => format!("setups/{name}.toml"),
            Mode::Audit => format!("reveal/{name}.toml"),
        }
    }

    /// Opens the sealed setup at `path` with the judge's key: the setup file, signed by the
    /// seat, padded to the fixed size.
    fn open_sealed_setup(&self, seat: usize, path: &str) -> Result<String> {
        let key = self.opener.ok_or_else(|| {
            refuse_with(
                path,
                None,
                "a sealed setup, and no judge key to open it",
                "run the judge with --key",
            )
        })?;
        let name = &self.game.manifest.players[seat].seat;
        super::sealing::open_seat_secret(self.dir, name, key, &self.game.player_keys[seat])
    }

    /// Records the judge's forfeit of a seat and ends the game (before play begins too).
    fn forfeit(
        &mut self,
        position: Option<&mut Position<Wide>>,
        seat: &str,
        reason: &str,
    ) -> Result<()> {
        let seats = self.seat_names();
        let i = seats
            .iter()
            .position(|s| s == seat)
            .ok_or_else(|| Error::Io(format!("--forfeit: no seat {seat:?}")))?;
        let valid = !reason.is_empty()
            && reason.len() <= 64
            && reason
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !valid {
            return Err(Error::Io(format!(
                "--forfeit: the reason code {reason:?} must be lower-case letters, digits and -"
            )));
        }
        // On the four-player board the game may go on: with a clock, the next player's time
        // starts at the forfeit (as recorded, or now).
        let at = match self.recorded() {
            Some(Entry::Forfeit { at, .. }) => at.clone(),
            _ => (self.game.board.has_teams()
                && self.game.manifest.clock.is_some()
                && position.is_some())
            .then(|| self.now.clone()),
        };
        self.push(Entry::Forfeit {
            seat: seat.to_string(),
            reason: reason.to_string(),
            at,
        })?;
        let result = match position {
            Some(p) => {
                let events = p
                    .concede(Seat(i as u8), EndReason::Forfeit)
                    .map_err(|e| Error::Io(e.to_string()))?;
                self.out.events.extend(events);
                p.result()
            }
            // Before play a forfeit ends the game: the next seat's team wins.
            None => Some(GameResult {
                winner: Some(self.game.board.team_of(Seat(((i + 1) % seats.len()) as u8))[0]),
                reason: EndReason::Forfeit,
            }),
        };
        if let Some(r) = result {
            self.push(self.end_entry(r))?;
            self.out.outcome = Some(r);
        }
        Ok(())
    }

    /// The record's end line: the winner and, on the four-player board, its allies.
    fn end_entry(&self, r: GameResult) -> Entry {
        let board = self.game.board;
        let name = |s: Seat| board.seat_name(s).to_string();
        Entry::End {
            winner: r.winner.map(name),
            allies: r
                .winner
                .map(|w| {
                    board
                        .team_of(w)
                        .into_iter()
                        .filter(|&a| a != w)
                        .map(name)
                        .collect()
                })
                .unwrap_or_default(),
            reason: r.reason,
        }
    }

    /// A file that is not yet in the record was refused: keep what was accepted before it and
    /// report the refusal. A refused file the record already holds means tampering: an error.
    fn refuse_new(&mut self, e: Error) -> Result<()> {
        if self.mode == Mode::Judge && self.recorded().is_none() {
            self.out.refusal = Some(e);
            self.out.waiting = None;
            return Ok(());
        }
        Err(e)
    }

    /// Every file in the game's folders must have a name of its folder's pattern.
    fn check_names(&mut self) -> Result<()> {
        let seats = self.seat_names();
        let is_seat = |s: &str| seats.iter().any(|x| x == s);
        let seat_file = |n: &str, sig: bool| {
            let base = n.strip_suffix(".sig").filter(|_| sig).unwrap_or(n);
            base.strip_suffix(".toml").is_some_and(is_seat)
        };
        let move_file = |n: &str| {
            let base = n.strip_suffix(".sig").unwrap_or(n);
            let Some(stem) = base.strip_suffix(".toml") else {
                return false;
            };
            let Some((ply, seat)) = stem.split_once('-') else {
                return false;
            };
            ply.len() == 4 && ply.bytes().all(|b| b.is_ascii_digit()) && is_seat(seat)
        };
        let rules: [NameRule; 4] = [
            ("moves", &move_file, "NNNN-SEAT.toml and NNNN-SEAT.toml.sig"),
            (
                "commitments",
                &|n| seat_file(n, true),
                "SEAT.toml and SEAT.toml.sig",
            ),
            ("setups", &|n| seat_file(n, false), "SEAT.toml"),
            ("reveal", &|n| seat_file(n, false), "SEAT.toml"),
        ];
        for (folder, ok, pattern) in rules {
            let names = self.dir.list(folder)?;
            if folder == "moves" {
                self.move_names = names.iter().cloned().collect();
            }
            if let Some(bad) = names
                .into_iter()
                .find(|n| !ok(n) && !n.starts_with(".qijudge"))
            {
                let shown: String = bad.escape_debug().collect();
                return Err(refuse_with(
                    format!("{folder}/{shown}"),
                    None,
                    format!("unexpected file name in {folder}/"),
                    format!("{folder}/ holds only {pattern}; move other files elsewhere"),
                ));
            }
        }
        Ok(())
    }

    fn run(&mut self) -> Result<()> {
        self.check_names()?;
        let seats = self.seat_names();
        self.push(Entry::Start {
            format: RECORD_FORMAT.into(),
            game: self.game.manifest.id.clone(),
            manifest: self.game.hash.clone(),
        })?;

        // Phase 1: commitments, in the order they were recorded, then any new ones in seat order.
        let mut commitments: Vec<Option<CommitmentFile>> = vec![None; seats.len()];
        loop {
            let next = match self.recorded() {
                Some(Entry::Commitment { seat, .. }) => seats.iter().position(|s| s == seat),
                Some(_) => None,
                None if self.mode == Mode::Judge => (0..seats.len()).find(|&i| {
                    commitments[i].is_none()
                        && self.dir.exists(&format!("commitments/{}.toml", seats[i]))
                }),
                None => None,
            };
            let Some(i) = next else { break };
            if commitments[i].is_some() {
                return Err(refuse(
                    "record.jsonl",
                    None,
                    format!("commits {} twice", seats[i]),
                ));
            }
            let (file, hash) = match self.commitment(i) {
                Ok(c) => c,
                Err(e) => return self.refuse_new(e),
            };
            self.push(Entry::Commitment {
                seat: seats[i].clone(),
                file: hash,
            })?;
            commitments[i] = Some(file);
        }
        let Some(commitments) = commitments.into_iter().collect::<Option<Vec<_>>>() else {
            return self.before_play("waiting for every seat's commitment");
        };

        // Phase 2: secrets are handed over only after every commitment is recorded.
        let mut setups: Vec<Option<(Setup, [u8; 32])>> = vec![None; seats.len()];
        loop {
            let next = match self.recorded() {
                Some(Entry::SetupAccepted { seat }) => seats.iter().position(|s| s == seat),
                Some(_) => None,
                None if self.mode == Mode::Judge => (0..seats.len()).find(|&i| {
                    setups[i].is_none() && self.dir.exists(&self.secret_path(&seats[i]))
                }),
                None => None,
            };
            let Some(i) = next else { break };
            if setups[i].is_some() {
                return Err(refuse(
                    "record.jsonl",
                    None,
                    format!("accepts {}'s setup twice", seats[i]),
                ));
            }
            // A refused secret is described to its owner only (in the audit it is public).
            setups[i] = Some(match (self.setup(i, &commitments[i]), self.mode) {
                (Ok(s), _) => s,
                (Err(e), Mode::Judge) => return self.refuse_new(private_to(e, &seats[i])),
                (Err(e), Mode::Audit) => return Err(e),
            });
            self.push(Entry::SetupAccepted {
                seat: seats[i].clone(),
            })?;
        }
        let Some(setups) = setups.into_iter().collect::<Option<Vec<_>>>() else {
            return self.before_play("waiting for every seat's setup");
        };

        // Phase 3: the first mover, by option or by lot from the committed nonces.
        let options = self.game.manifest.rules.clone();
        let named = options.first_mover.seat_name();
        let (first, lot_nonces) = match options.first_mover {
            FirstMover::South | FirstMover::North => (
                named
                    .and_then(|n| self.game.board.seat(n))
                    .map_or(0, Seat::index),
                Default::default(),
            ),
            FirstMover::Lot => {
                let nonces: Vec<[u8; 32]> = setups.iter().map(|(_, n)| *n).collect();
                let shown = seats
                    .iter()
                    .cloned()
                    .zip(nonces.iter().map(hex::encode))
                    .collect();
                (lot_draw(&self.game.manifest.id, &nonces), shown)
            }
        };
        let at = match self.recorded() {
            Some(Entry::Begin { at, .. }) => at.clone(),
            _ => self.game.manifest.clock.as_ref().map(|_| self.now.clone()),
        };
        self.push(Entry::Begin {
            first: seats[first].clone(),
            lot_nonces,
            at,
        })?;
        let board = self.game.board;
        let placed: Vec<Setup> = setups.into_iter().map(|(s, _)| s).collect();
        let (position, events) = Position::start(board, options, &placed, Seat(first as u8));
        self.out.events = events;

        self.out.position = Some(position);
        self.next_ply = 1;
        self.play_moves()?;
        self.finish()
    }

    /// Phase 4: moves from `next_ply` on, while their files are there.
    fn play_moves(&mut self) -> Result<()> {
        let Some(mut position) = self.out.position.take() else {
            return Ok(());
        };
        let result = self.play_moves_on(&mut position);
        self.out.position = Some(position);
        result
    }

    fn play_moves_on(&mut self, position: &mut Position<Wide>) -> Result<()> {
        let seats = self.seat_names();
        while position.result().is_none() {
            let ply = self.next_ply;
            let recorded = match self.recorded() {
                Some(Entry::Move { seat, received, .. }) => Some((seat.clone(), received.clone())),
                Some(Entry::Forfeit { seat, reason, .. }) => {
                    let (seat, reason) = (seat.clone(), reason.clone());
                    self.forfeit(Some(position), &seat, &reason)?;
                    // On the four-player board the others play on.
                    continue;
                }
                Some(other) => {
                    return Err(refuse(
                        "record.jsonl",
                        None,
                        format!("expected the move of ply {ply}, found {}", describe(other)),
                    ))
                }
                None => None,
            };
            let candidates: Vec<usize> = (0..seats.len())
                .filter(|&i| {
                    let name = move_path(ply, &seats[i]);
                    self.move_names.contains(name.trim_start_matches("moves/"))
                })
                .collect();
            let (seat, received) = match (recorded, candidates.as_slice()) {
                (Some((seat, received)), _) => {
                    let i = seats
                        .iter()
                        .position(|s| *s == seat)
                        .ok_or_else(|| refuse("record.jsonl", Some("seat"), "unknown seat"))?;
                    (i, received)
                }
                (None, []) => {
                    // Nobody moved: past the grace, the expiry rule applies.
                    if let (Some(clock), Mode::Judge) = (&self.game.manifest.clock, self.mode) {
                        let expired =
                            super::clock::next_deadline(clock, &self.out.record, &self.now)
                                .is_some_and(|d| d.state == "expired");
                        if expired && super::clock::forfeits(clock) && self.forfeit.is_none() {
                            let mover = seats[position.to_move().index()].clone();
                            self.forfeit = Some((mover, "missed-deadline".into()));
                        }
                    }
                    break;
                }
                (None, _) if self.mode == Mode::Audit => break,
                (None, [only]) => (*only, self.now.clone()),
                (None, several) => {
                    // Both seats sent a file for this ply: the one whose turn it is goes first,
                    // the other is refused as out of turn (unless it resigns).
                    let turn = several
                        .iter()
                        .copied()
                        .find(|&i| i == position.to_move().index())
                        .unwrap_or(several[0]);
                    (turn, self.now.clone())
                }
            };
            let new = self.recorded().is_none();
            // The judge's clock: a move past its deadline's grace is refused, and the expiry
            // rule of the manifest applies to the seat to move.
            if new && self.mode == Mode::Judge {
                if let Some(clock) = &self.game.manifest.clock {
                    if let Some(d) = super::clock::next_deadline(clock, &self.out.record, &self.now)
                    {
                        if d.state == "expired" {
                            self.late = Some(refuse_with(
                                move_path(ply, &seats[seat]),
                                None,
                                format!("late: received {}, after the deadline {} and its grace until {}", self.now, d.due, d.grace_until),
                                "moves must reach the judge before the deadline",
                            ));
                            if super::clock::forfeits(clock) {
                                let mover = seats[position.to_move().index()].clone();
                                self.forfeit = Some((mover, "missed-deadline".into()));
                            }
                            break;
                        }
                    }
                }
            }
            match self.one_move(position, ply, seat, &received) {
                Ok(()) => {}
                Err(e) if new => {
                    self.out.refusal = Some(with_move_hint(e));
                    break;
                }
                Err(e) => return Err(e),
            }
            self.next_ply += 1;
        }
        Ok(())
    }

    /// After the moves: a requested forfeit, the end entry, what the game waits for, stray files
    /// and a record longer than the files support.
    fn finish(&mut self) -> Result<()> {
        let seats = self.seat_names();
        let ply = self.next_ply;
        let live = self
            .out
            .position
            .as_ref()
            .is_some_and(|p| p.result().is_none());
        if let (Some((seat, reason)), true, Mode::Judge, None) =
            (self.forfeit.clone(), live, self.mode, &self.out.refusal)
        {
            let mut position = self.out.position.take();
            let r = self.forfeit(position.as_mut(), &seat, &reason);
            self.out.position = position;
            r?;
        }
        if let Some(late) = self.late.take() {
            self.out.refusal = Some(late);
        }
        let result = self.out.position.as_ref().and_then(|p| p.result());
        match (result, self.out.outcome) {
            (Some(r), None) => {
                self.push(self.end_entry(r))?;
                self.out.outcome = Some(r);
            }
            (None, None) if self.out.refusal.is_none() => {
                if let Some(p) = &self.out.position {
                    self.out.waiting = Some(format!(
                        "{} to move (ply {ply})",
                        seats[p.to_move().index()]
                    ));
                }
            }
            _ => {}
        }
        // Files for plies beyond the game are not silently ignored.
        if self.out.refusal.is_none() && self.mode == Mode::Judge {
            if let Some(stray) = self
                .move_names
                .iter()
                .find(|n| n.ends_with(".toml") && stray_ply(n).is_some_and(|p| p >= ply))
            {
                let reason = match self.out.outcome {
                    Some(_) => "the game is over".to_string(),
                    None => format!("ply {ply} is next"),
                };
                self.out.refusal = Some(refuse(format!("moves/{stray}"), Some("ply"), reason));
            }
        }
        if self.old.len() > self.out.record.len() {
            return Err(refuse_with(
                "record.jsonl",
                None,
                format!(
                    "has {} lines but the files support only {}",
                    self.old.len(),
                    self.out.record.len()
                ),
                "an accepted file is missing or was changed",
            ));
        }
        Ok(())
    }

    /// Before play begins the game can only wait, or end by a forfeit (a judge's forfeit, or
    /// one the record already holds).
    fn before_play(&mut self, waiting: &str) -> Result<()> {
        let recorded = match self.recorded() {
            Some(Entry::Forfeit { seat, reason, .. }) => Some((seat.clone(), reason.clone())),
            _ => None,
        };
        let requested = self
            .forfeit
            .clone()
            .filter(|_| self.mode == Mode::Judge && self.out.refusal.is_none());
        match recorded.or(requested) {
            Some((seat, reason)) => {
                self.forfeit(None, &seat, &reason)?;
                self.finish()
            }
            None => {
                if self.out.refusal.is_none() {
                    self.out.waiting = Some(waiting.to_string());
                }
                self.finish()
            }
        }
    }

    fn one_move(
        &mut self,
        position: &mut Position<Wide>,
        ply: u32,
        seat: usize,
        received: &str,
    ) -> Result<()> {
        let seats = self.seat_names();
        let path = move_path(ply, &seats[seat]);
        let (text, sig) = self.signed(&path, &self.game.player_keys[seat], namespace::MOVE)?;
        // Details that quote the file or name the mover's pieces go to the mover only.
        let owner = seats[seat].as_str();
        let file: MoveFile = parse_toml(&text)
            .map_err(|e| private_to(refuse(&path, e.field.as_deref(), e.reason), owner))?;
        self.check_binding(
            &path,
            (&file.format, MOVE_FORMAT),
            &file.game,
            &file.manifest,
            (&file.seat, &seats[seat]),
        )?;
        if file
            .comment
            .as_deref()
            .is_some_and(|c| has_control(c) || c.chars().count() > 1000)
        {
            return Err(refuse(
                &path,
                Some("comment"),
                "at most 1000 characters, no control or bidirectional-override characters",
            ));
        }
        if file.ply != ply {
            return Err(refuse(
                &path,
                Some("ply"),
                format!(
                    "the file name says ply {ply} but the file says {}",
                    file.ply
                ),
            ));
        }
        let head = self.out.record.head_or(self.genesis());
        if file.answers != head {
            return Err(refuse_with(
                &path,
                Some("answers"),
                "answers an old record head",
                "fetch the current record and make the move again",
            ));
        }
        let board = self.game.board;
        let seat_id = Seat(seat as u8);
        if file.offer_draw && (file.action == "resign" || file.action == "accept-draw") {
            return Err(refuse(
                &path,
                Some("offer_draw"),
                "a draw is offered with a move, not with resign or accept-draw",
            ));
        }
        let (events, outcome) = if file.action == "accept-draw" {
            // The side to move accepts when every other player still in offered the draw with
            // its latest move, and those are the last moves played (two players: the opponent's
            // last move).
            let others = board
                .seats()
                .filter(|&s| s != seat_id && !position.is_out(s))
                .count();
            let latest: Vec<(&String, bool)> = self
                .out
                .record
                .lines
                .iter()
                .rev()
                .filter_map(|l| match &l.entry {
                    Entry::Move {
                        seat: s,
                        draw_offered,
                        ..
                    } => Some((s, *draw_offered)),
                    _ => None,
                })
                .take(others)
                .collect();
            let offered = latest.len() == others
                && latest.iter().all(|(s, o)| *o && **s != seats[seat])
                && others > 0;
            if position.to_move() != seat_id || !offered {
                return Err(refuse_with(
                    &path,
                    Some("move"),
                    "there is no draw offer to accept: the last moves of the other players did not all offer one",
                    "play a move, or offer a draw with --offer-draw",
                ));
            }
            let events = position
                .agree_draw()
                .map_err(|e| refuse(&path, Some("move"), e.to_string()))?;
            (events, None)
        } else if file.action == "resign" {
            let events = position
                .concede(seat_id, EndReason::Resignation)
                .map_err(|e| refuse(&path, Some("move"), e.to_string()))?;
            (events, None)
        } else {
            if position.to_move() != seat_id {
                return Err(refuse_with(
                    &path,
                    Some("seat"),
                    format!(
                        "out of turn: {} is to move",
                        seats[position.to_move().index()]
                    ),
                    "wait for your turn",
                ));
            }
            let mv = Move::parse(&file.action, board)
                .map_err(|e| private_to(refuse(&path, Some("move"), e.to_string()), owner))?;
            let events = position
                .play(mv)
                .map_err(|e| private_to(refuse(&path, Some("move"), e.to_string()), owner))?;
            let outcome = events.iter().find_map(|e| match e.fact {
                Fact::Moved { outcome, .. } => Some(outcome),
                _ => None,
            });
            (events, outcome)
        };
        let notices = events
            .iter()
            .filter(|e| e.audience == Audience::Everyone)
            .filter_map(|e| notice(board, &e.fact))
            .collect();
        self.push(Entry::Move {
            ply,
            seat: seats[seat].clone(),
            file: sha256_tagged(text.as_bytes()),
            received: received.to_string(),
            action: file.action.clone(),
            outcome,
            notices,
            draw_offered: file.offer_draw,
        })?;
        self.out.events.extend(events);
        self.out.last_moves[seat] = Some(SignedFile {
            file: text,
            signature: sig,
        });
        Ok(())
    }
}

impl<'a> Replayer<'a> {
    fn new(
        dir: &'a GameDir,
        game: &'a Game,
        mode: Mode,
        now: &str,
        forfeit: Option<(String, String)>,
        opener: Option<&'a PrivateKey>,
    ) -> Result<Replayer<'a>> {
        let old = load_record(dir, game)?;
        let seats = game.manifest.players.len();
        Ok(Replayer {
            late: None,
            dir,
            forfeit,
            move_names: Default::default(),
            next_ply: 1,
            game,
            mode,
            opener,
            now: now.to_string(),
            old,
            out: Replay {
                record: Record::new(),
                position: None,
                events: Vec::new(),
                last_moves: vec![None; seats],
                accepted: Vec::new(),
                refusal: None,
                waiting: None,
                outcome: None,
            },
        })
    }
}

/// A refused move stays where it is (inputs are never changed); tell its sender what to do.
fn with_move_hint(e: Error) -> Error {
    match e {
        Error::Refused(mut r) => {
            let advice = format!(
                "remove {} and its .sig, then send a new move",
                r.file.trim_end_matches(".sig")
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

fn stray_ply(name: &str) -> Option<u32> {
    name.split('-').next()?.parse().ok()
}

/// A public fact as a record notice.
fn notice(board: &Board<Wide>, fact: &Fact) -> Option<Notice> {
    let seat = |s: Seat| board.seat_name(s).to_string();
    let sq = |s: Square| board.name_of(s).to_string();
    match *fact {
        Fact::FlagRevealed { seat: s, square } => Some(Notice::FlagRevealed {
            seat: seat(s),
            square: sq(square),
        }),
        Fact::FlagTaken { seat: s, carrier } => Some(Notice::FlagTaken {
            seat: seat(s),
            carrier: sq(carrier),
        }),
        Fact::FlagReturned { seat: s, square } => Some(Notice::FlagReturned {
            seat: seat(s),
            square: sq(square),
        }),
        Fact::Eliminated { seat: s, reason } => Some(Notice::Eliminated {
            seat: seat(s),
            reason,
        }),
        _ => None,
    }
}

/// One line for a new record entry, as printed by `judge`.
pub fn describe(entry: &Entry) -> String {
    match entry {
        Entry::Start { game, .. } => format!("game {game} opened"),
        Entry::Commitment { seat, .. } => format!("commitment of {seat} recorded"),
        Entry::SetupAccepted { seat } => format!("setup of {seat} accepted"),
        Entry::Begin {
            first, lot_nonces, ..
        } if !lot_nonces.is_empty() => {
            format!("play begins; the lot chose {first} to move first")
        }
        Entry::Begin { first, .. } => format!("play begins; {first} moves first"),
        Entry::Move {
            ply,
            seat,
            action,
            outcome,
            ..
        } => {
            let o = outcome.map(|o| {
                format!(
                    " ({})",
                    serde_json::to_value(o)
                        .ok()
                        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
                        .unwrap_or_default()
                )
            });
            format!("ply {ply}: {seat} {action}{}", o.unwrap_or_default())
        }
        Entry::Throw {
            t, seat, values, ..
        } => format!(
            "throw {t} for {seat}: {}",
            values
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Entry::Forfeit { seat, reason, .. } => format!("{seat} forfeits ({reason})"),
        Entry::End {
            winner: Some(w),
            allies,
            reason,
        } => {
            let team: Vec<&str> = std::iter::once(w.as_str())
                .chain(allies.iter().map(String::as_str))
                .collect();
            let verb = if team.len() > 1 { "win" } else { "wins" };
            format!(
                "game over: {} {verb} ({})",
                team.join(" and "),
                reason_text(*reason)
            )
        }
        Entry::End {
            winner: None,
            reason,
            ..
        } => format!("game over: draw ({})", reason_text(*reason)),
    }
}

/// An incremental judge for a game being played in-process (bot matches): opened once, then
/// advanced ply by ply as move files appear, with the same checks as a full replay.
pub struct Session<'a> {
    inner: Replayer<'a>,
}

impl<'a> Session<'a> {
    /// Replays what is there, as `judge` does.
    pub fn open(dir: &'a GameDir, game: &'a Game, now: &str) -> Result<Session<'a>> {
        let mut inner = Replayer::new(dir, game, Mode::Judge, now, None, None)?;
        inner.run()?;
        Ok(Session { inner })
    }

    /// Judges the move files written since the last pass.
    pub fn advance(&mut self) -> Result<()> {
        self.inner.out.refusal = None;
        self.inner.out.waiting = None;
        // Only the files of the plies to come can be new: look for those instead of listing.
        let seats = self.inner.seat_names();
        let mut ply = self.inner.next_ply;
        loop {
            let found: Vec<String> = seats
                .iter()
                .map(|seat| move_path(ply, seat))
                .filter(|p| self.inner.dir.exists(p))
                .map(|p| p.trim_start_matches("moves/").to_string())
                .collect();
            if found.is_empty() {
                break;
            }
            for name in found {
                self.inner.move_names.insert(format!("{name}.sig"));
                self.inner.move_names.insert(name);
            }
            ply += 1;
        }
        self.inner.play_moves()?;
        self.inner.finish()
    }

    /// Ends the game: `seat` forfeits with a reason code.
    pub fn forfeit(&mut self, seat: &str, reason: &str) -> Result<()> {
        if self.inner.out.outcome.is_some() {
            return Ok(());
        }
        let mut position = self.inner.out.position.take();
        let r = self.inner.forfeit(position.as_mut(), seat, reason);
        self.inner.out.position = position;
        r
    }

    pub fn replay(&self) -> &Replay {
        &self.inner.out
    }
}

/// Replays a game directory.
pub fn replay(dir: &GameDir, game: &Game, mode: Mode, now: &str) -> Result<Replay> {
    replay_with(dir, game, mode, now, None, None)
}

/// Replays, and in judge mode forfeits `forfeit = (seat, reason code)` if the game is still on;
/// `opener` is the judge's key, which opens the setups of a sealed game.
pub fn replay_with(
    dir: &GameDir,
    game: &Game,
    mode: Mode,
    now: &str,
    forfeit: Option<(String, String)>,
    opener: Option<&PrivateKey>,
) -> Result<Replay> {
    let mut r = Replayer::new(dir, game, mode, now, forfeit, opener)?;
    r.run()?;
    Ok(r.out)
}
