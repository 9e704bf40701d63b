//! The Luzhanqi judge as a [`Referee`] of the one pipeline: commitments, then the secret setups
//! (handed over only after every commitment is recorded), the first mover (by option or by lot
//! from the committed nonces), then one signed move file per ply. `judge` appends what the files
//! give; `verify` demands that every recorded line is exactly what they give.

use crate::referee::*;
use crate::view::SignedFile;
use luzhanqi_rules::nodeset::Wide;
use luzhanqi_rules::options::FirstMover;
use luzhanqi_rules::*;
use qijudge_judge::conditional::{self, Answer};
use qijudge_judge::pipeline::{self, Ctx, Framed, Referee};
use qijudge_judge::Outputs;
use qijudge_judge::*;
use qijudge_protocol::commitment::{lot_commitment, lot_draw, setup_commitment};
use qijudge_protocol::error::{private_to, refuse, refuse_with, Error, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::record::Record;
use qijudge_protocol::signing::{self, namespace};
use qijudge_rules::hash::{hex32, is_sha256_tagged, sha256_tagged};
use qijudge_store::{GameDir, SIGNATURE_LIMIT, SMALL_FILE_LIMIT};
use ssh_key::{PrivateKey, PublicKey};

/// The forfeit reason of a seat whose committed setup the rules refuse.
pub const ILLEGAL_SETUP: &str = "illegal-setup";

pub use qijudge_judge::pipeline::Mode;

/// The game as the record and the files say (the Luzhanqi referee's state).
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
    commitments: Vec<Option<CommitmentFile>>,
    setups: Vec<Option<(Setup, [u8; 32])>>,
    /// The ply whose move comes next.
    next_ply: u32,
}

/// A folder, the test its file names must pass, and the pattern in words.
type NameRule<'a> = (&'a str, &'a dyn Fn(&str) -> bool, &'a str);

/// The files of one game, read the way the mode says.
struct Files<'a> {
    dir: &'a GameDir,
    game: &'a Game,
    mode: Mode,
    /// The judge's key, to open sealed setups (judge mode of a sealed game).
    opener: Option<&'a PrivateKey>,
    /// In a replay, the recorded lines from the one being checked on.
    recorded: &'a [RecordLine],
}

/// Whether, while recorded files are taken on trust, the seat `seat` moves again after the
/// first of `recorded` (the line being replayed). The scan stops at that seat's next move,
/// so a replay scans each line about once per seat.
fn moves_again(recorded: &[RecordLine], seat: &str) -> bool {
    signing::trusting()
        && recorded
            .iter()
            .skip(1)
            .any(|l| matches!(&l.entry, Entry::Move { seat: s, .. } if s == seat))
}

impl<'a> Files<'a> {
    fn of(game: &'a Game, cx: &'a Ctx) -> Files<'a> {
        Files {
            dir: cx.dir,
            game,
            mode: cx.mode,
            opener: cx.key,
            recorded: cx.recorded,
        }
    }

    /// Reads a signed file and its `.sig`, verifying the signature with `key`.
    fn signed(&self, path: &str, key: &PublicKey, ns: &str) -> Result<(String, String)> {
        let text = self.dir.read(path, SMALL_FILE_LIMIT)?;
        let sig = self.signature_of(path, key, ns, &text)?;
        Ok((text, sig))
    }

    /// Reads the `.sig` of the file at `path`, whose text is `text`, and verifies it with `key`.
    fn signature_of(&self, path: &str, key: &PublicKey, ns: &str, text: &str) -> Result<String> {
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
        Ok(sig)
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

    /// Reads a seat's secret setup (or its reveal) and checks it against the commitment; the
    /// inner result is the rules' verdict on a setup that opens the commitment.
    fn setup(&self, seat: usize, commitment: &CommitmentFile) -> Result<Result<(Setup, [u8; 32])>> {
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
        let setup = match parse_canonical_setup(&file.setup, board, seat_id) {
            Ok(s) => s,
            Err(e) => return Ok(Err(refuse(&path, Some("setup"), e))),
        };
        if setup.canonical_bytes(board) != file.setup.as_bytes() {
            return Ok(Err(refuse(&path, Some("setup"), "not in canonical form")));
        }
        Ok(Ok((setup, nonce)))
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
        qijudge_judge::sealing::open_seat_secret(self.dir, name, key, &self.game.player_keys[seat])
    }

    /// Every file in the game's folders must have a name of its folder's pattern.
    fn check_names(&self) -> Result<()> {
        match self.bad_names()?.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Every file of the game's folders whose name is not of its folder's pattern, refused: all
    /// of them from one listing per folder.
    fn bad_names(&self) -> Result<Vec<Error>> {
        let seats = &self.game.seats;
        let is_seat = |s: &str| seats.contains(&s);
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
            ply.len() >= 4 && ply.bytes().all(|b| b.is_ascii_digit()) && is_seat(seat)
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
        let mut bad = Vec::new();
        for (folder, ok, pattern) in rules {
            for name in self.dir.list(folder)? {
                if ok(&name) || name.starts_with(".qijudge") {
                    continue;
                }
                let shown: String = name.escape_debug().collect();
                bad.push(refuse_with(
                    format!("{folder}/{shown}"),
                    None,
                    format!("unexpected file name in {folder}/"),
                    format!("{folder}/ holds only {pattern}; move other files elsewhere"),
                ));
            }
        }
        Ok(bad)
    }

    fn one_move(
        &self,
        st: &mut Replay,
        position: &mut Position<Wide>,
        ply: u32,
        seat: usize,
        received: &str,
        answer: Option<&Answer>,
    ) -> Result<Entry> {
        let seats = &self.game.seats;
        // Details that quote the file or name the mover's pieces go to the mover only.
        let owner = seats[seat];
        let (path, file, hash, signed) = match answer {
            None => {
                let path = move_path(ply, seats[seat]);
                let key = &self.game.player_keys[seat];
                let text = self.dir.read(&path, SMALL_FILE_LIMIT)?;
                // The views carry each seat's last move file with its signature. A recorded
                // file taken on trust whose seat moves again later in the record is never a
                // last move: its signature file need not even be read.
                let sha = qijudge_rules::hash::sha256(text.as_bytes());
                let superseded = moves_again(self.recorded, seats[seat])
                    && signing::is_trusted_sha256(key, namespace::MOVE, &sha);
                let signature = match superseded {
                    true => None,
                    false => Some(self.signature_of(&path, key, namespace::MOVE, &text)?),
                };
                let file = MoveFile::parse(&text)
                    .map_err(|e| private_to(refuse(&path, e.field.as_deref(), e.reason), owner))?;
                let signed = signature.map(|signature| SignedFile {
                    file: text,
                    signature,
                });
                (path, file, qijudge_rules::hash::tagged(&sha), signed)
            }
            // A conditional answer: its file stays with the judge (its other lines are the
            // seat's own plans), so no view carries it.
            Some(a) => {
                let mut file = qijudge_judge::contract::contract_move_file(
                    &self.game.manifest.id,
                    &self.game.hash,
                    ply,
                    owner,
                    a.action.clone(),
                );
                file.answers = st.record.head_or(&self.game.hash);
                (a.fired.path.clone(), file, a.hash.clone(), None)
            }
        };
        self.check_binding(
            &path,
            (&file.format, MOVE_FORMAT),
            &file.game,
            &file.manifest,
            (&file.seat, seats[seat]),
        )?;
        if file.comment.as_deref().is_some_and(|c| {
            has_control(c) || c.chars().count() > qijudge_judge::player_files::COMMENT_LIMIT
        }) {
            return Err(refuse(
                &path,
                Some("comment"),
                format!(
                    "at most {} characters, no control or bidirectional-override characters",
                    qijudge_judge::player_files::COMMENT_LIMIT
                ),
            ));
        }
        qijudge_judge::player_files::no_chain_fields(&path, &file)?;
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
        if !st
            .record
            .answerable_heads(&self.game.hash)
            .contains(&file.answers)
        {
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
            // its latest move, made since the accepter's own last move (two players: the
            // opponent's last move). An eliminated seat's old offer counts for nothing.
            let others: Vec<&str> = board
                .seats()
                .filter(|&s| s != seat_id && !position.is_out(s))
                .map(|s| seats[s.index()])
                .collect();
            let mut latest: std::collections::BTreeMap<&str, bool> = Default::default();
            for line in st.record.lines.iter().rev() {
                if let Entry::Move {
                    seat: s,
                    draw_offered,
                    ..
                } = &line.entry
                {
                    if *s == seats[seat] {
                        break;
                    }
                    latest.entry(s.as_str()).or_insert(*draw_offered);
                }
            }
            let offered = !others.is_empty() && others.iter().all(|s| latest.get(s) == Some(&true));
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
        let entry = Entry::Move {
            ply,
            seat: seats[seat].to_string(),
            file: hash,
            received: received.to_string(),
            action: file.action.clone(),
            outcome,
            notices,
            draw_offered: file.offer_draw,
            revealed: None,
            conditional: answer.map(|a| a.fired.clone()),
        };
        st.events.extend(events);
        st.last_moves[seat] = signed;
        Ok(entry)
    }
}

impl Replay {
    /// The judge's replay of a game played in the rules contract: its position and events,
    /// with no signed file (the contract signs nothing).
    pub fn contract(seats: usize, position: Position<Wide>, events: Vec<Event>) -> Replay {
        Replay {
            position: Some(position),
            events,
            ..Replay::new(seats)
        }
    }

    fn new(seats: usize) -> Replay {
        Replay {
            record: Record::new(),
            position: None,
            events: Vec::new(),
            last_moves: vec![None; seats],
            accepted: Vec::new(),
            refusal: None,
            waiting: None,
            outcome: None,
            commitments: vec![None; seats],
            setups: vec![None; seats],
            next_ply: 1,
        }
    }

    /// The ply whose move comes next.
    pub fn next_ply(&self) -> u32 {
        self.next_ply
    }
}

/// The seat a recorded line names, or the next seat (in seat order) whose file is there.
fn next_seat(
    cx: &Ctx,
    seats: &[&str],
    recorded: Option<&String>,
    open: impl Fn(usize) -> bool,
    file_of: impl Fn(&str) -> String,
) -> Option<usize> {
    match (cx.recorded(), recorded) {
        (_, Some(seat)) => seats.iter().position(|s| s == seat),
        (Some(_), None) => None,
        (None, None) => (0..seats.len()).find(|&i| open(i) && cx.dir.exists(&file_of(seats[i]))),
    }
}

impl Game {
    /// The record's end line: the winner and, on the four-player board, its allies.
    fn end_entry(&self, r: GameResult) -> Entry {
        let board = self.board;
        let name = |s: Seat| board.seat_name(s).to_string();
        Entry::End {
            winner: r.winner.map(name),
            allies: r
                .winner
                .map(|w| board.allies_of(w).into_iter().map(name).collect())
                .unwrap_or_default(),
            reason: r.reason,
        }
    }

    /// Phase 1: a seat's commitment.
    fn step_commitment(&self, st: &mut Replay, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        let f = Files::of(self, cx);
        let seats = &self.seats;
        let recorded = match cx.recorded() {
            Some(Entry::Commitment { seat, .. }) => Some(seat),
            _ => None,
        };
        let next = next_seat(
            cx,
            seats,
            recorded,
            |i| st.commitments[i].is_none(),
            |s| format!("commitments/{s}.toml"),
        );
        let Some(i) = next else { return Ok(None) };
        if st.commitments[i].is_some() {
            return Err(refuse(
                "record.jsonl",
                None,
                format!("commits {} twice", seats[i]),
            ));
        }
        let (file, hash) = f.commitment(i)?;
        st.commitments[i] = Some(file);
        Ok(Some(vec![Entry::Commitment {
            seat: seats[i].to_string(),
            file: hash,
        }]))
    }

    /// Phase 2: a seat's secret setup, checked against its commitment.
    fn step_setup(&self, st: &mut Replay, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        let f = Files::of(self, cx);
        let seats = &self.seats;
        let recorded = match cx.recorded() {
            Some(Entry::SetupAccepted { seat }) => Some(seat),
            _ => None,
        };
        let next = next_seat(
            cx,
            seats,
            recorded,
            |i| st.setups[i].is_none(),
            |s| f.secret_path(s),
        );
        let Some(i) = next else { return Ok(None) };
        if st.setups[i].is_some() {
            return Err(refuse(
                "record.jsonl",
                None,
                format!("accepts {}'s setup twice", seats[i]),
            ));
        }
        let Some(commitment) = &st.commitments[i] else {
            return Ok(None);
        };
        // A refused secret is described to its owner only (in the audit it is public).
        let setup = match f.setup(i, commitment) {
            Ok(Ok(s)) => s,
            // The seat committed to a setup the rules refuse: no other file can ever open its
            // commitment, so the game cannot wait for one. The seat forfeits.
            Ok(Err(_)) if cx.mode == Mode::Judge && cx.is_new() => {
                return self.forfeit(st, i, ILLEGAL_SETUP, cx).map(Some);
            }
            Ok(Err(e)) | Err(e) if cx.mode == Mode::Judge => return Err(private_to(e, seats[i])),
            Ok(Err(e)) | Err(e) => return Err(e),
        };
        st.setups[i] = Some(setup);
        Ok(Some(vec![Entry::SetupAccepted {
            seat: seats[i].to_string(),
        }]))
    }

    /// Phase 3: the first mover, by option or by lot from the committed nonces.
    fn step_begin(&self, st: &mut Replay, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        let seats = &self.seats;
        let setups: Vec<(Setup, [u8; 32])> = st.setups.iter().flatten().cloned().collect();
        let options = self.manifest.rules.clone();
        let named = options.first_mover.seat_name();
        let (first, lot_nonces) = match options.first_mover {
            FirstMover::South | FirstMover::North => (
                named
                    .and_then(|n| self.board.seat(n))
                    .map_or(0, Seat::index),
                Default::default(),
            ),
            FirstMover::Lot => {
                let nonces: Vec<[u8; 32]> = setups.iter().map(|(_, n)| *n).collect();
                let shown = seats
                    .iter()
                    .map(|s| s.to_string())
                    .zip(nonces.iter().map(hex::encode))
                    .collect();
                (lot_draw(&self.manifest.id, &nonces), shown)
            }
        };
        let recorded = match cx.recorded() {
            Some(Entry::Begin { at, .. }) => Some(at),
            _ => None,
        };
        let mut out = vec![Entry::Begin {
            first: seats[first].to_string(),
            lot_nonces,
            at: cx.at(recorded, self.manifest.clock.is_some()),
        }];
        let placed: Vec<Setup> = setups.into_iter().map(|(s, _)| s).collect();
        let (position, events) = Position::start(self.board, options, &placed, Seat(first as u8));
        st.events = events;
        if let Some(r) = position.result() {
            out.push(self.finish(st, r));
        }
        st.position = Some(position);
        Ok(Some(out))
    }

    /// Phase 4: the move file of the next ply.
    fn step_move(&self, st: &mut Replay, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        let f = Files::of(self, cx);
        let seats = &self.seats;
        let Some(mut position) = st.position.take() else {
            return Ok(None);
        };
        let ply = st.next_ply;
        let seat = match cx.recorded() {
            Some(Entry::Move { seat, .. }) => seats.iter().position(|s| s == seat),
            Some(_) => None,
            None => {
                let candidates: Vec<usize> = (0..seats.len())
                    .filter(|&i| cx.dir.exists(&move_path(ply, seats[i])))
                    .collect();
                // Several seats sent a file for this ply: the one whose turn it is goes first,
                // the others are refused as out of turn (unless they resign).
                candidates
                    .iter()
                    .copied()
                    .find(|&i| i == position.to_move().index())
                    .or(candidates.first().copied())
            }
        };
        let answer = match seat {
            Some(seat) if conditional::replaying_one(cx) => {
                conditional::answer(cx, &self.frame(), &st.record, seat, ply)?
            }
            _ => None,
        };
        let result = match seat {
            Some(seat) => f
                .one_move(
                    st,
                    &mut position,
                    ply,
                    seat,
                    &cx.received(),
                    answer.as_ref(),
                )
                .map(Some),
            // No move file: the conditional answer of the seat to move, if one matches. One the
            // rules refuse where it falls is not played: the seat moves itself.
            None if !self.board.has_teams() => {
                let seat = position.to_move().index();
                match conditional::answer(cx, &self.frame(), &st.record, seat, ply)? {
                    Some(a) => Ok(f
                        .one_move(st, &mut position, ply, seat, &cx.received(), Some(&a))
                        .ok()),
                    None => Ok(None),
                }
            }
            None => Ok(None),
        };
        let ended = position.result();
        st.position = Some(position);
        let Some(entry) = result? else {
            return Ok(None);
        };
        st.next_ply += 1;
        let mut out = vec![entry];
        if let Some(r) = ended {
            out.push(self.finish(st, r));
        }
        Ok(Some(out))
    }

    /// The end line of a result, noted as the outcome.
    fn finish(&self, st: &mut Replay, r: GameResult) -> Entry {
        st.outcome = Some(r);
        self.end_entry(r)
    }
}

impl qijudge_judge::pipeline::Framed for Game {
    fn frame(&self) -> qijudge_judge::Frame<'_> {
        qijudge_judge::Frame {
            id: &self.manifest.id,
            hash: &self.hash,
            judge_key: &self.judge_key,
            seats: &self.seats,
            player_keys: &self.player_keys,
        }
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

qijudge_judge::recorded!(Replay);

impl Referee for Game {
    type State = Replay;

    fn initial(&self) -> Replay {
        Replay::new(self.manifest.players.len())
    }

    fn check_folders(&self, dir: &GameDir) -> Result<()> {
        Files {
            dir,
            game: self,
            mode: Mode::Judge,
            opener: None,
            recorded: &[],
        }
        .check_names()
    }

    fn step(&self, st: &mut Replay, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        if st.outcome.is_some() {
            return Ok(None);
        }
        if st.record.lines.is_empty() {
            return Ok(Some(vec![Entry::Start {
                format: RECORD_FORMAT.into(),
                game: self.manifest.id.clone(),
                manifest: self.hash.clone(),
            }]));
        }
        if st.commitments.iter().any(Option::is_none) {
            return self.step_commitment(st, cx);
        }
        if st.setups.iter().any(Option::is_none) {
            return self.step_setup(st, cx);
        }
        if st.position.is_none() {
            return self.step_begin(st, cx);
        }
        self.step_move(st, cx)
    }

    /// Records the judge's forfeit of a seat (before play begins too).
    /// A match's maximum length: a draw, the only ruling this game takes.
    fn adjudicate(
        &self,
        st: &mut Replay,
        winner: Option<usize>,
        reason: &str,
        _: &Ctx,
    ) -> Result<Vec<Entry>> {
        qijudge_judge::pipeline::length_draw_only(winner, reason)?;
        let ruling = Entry::Adjudicated {
            winner: None,
            reason: reason.to_string(),
        };
        let Some(p) = st.position.as_mut() else {
            return Err(Error::Io(
                "a maximum-length draw is ruled in play, and this game is before play".into(),
            ));
        };
        let events = p.adjudicate_draw().map_err(|e| Error::Io(e.to_string()))?;
        st.events.extend(events);
        let end = self.finish(
            st,
            GameResult {
                winner: None,
                reason: EndReason::Adjudication,
            },
        );
        Ok(vec![ruling, end])
    }

    fn forfeit(&self, st: &mut Replay, i: usize, reason: &str, cx: &Ctx) -> Result<Vec<Entry>> {
        let seats = &self.manifest.players;
        // On the four-player board the game may go on: with a clock, the next player's time
        // starts at the forfeit (as recorded, or now).
        let recorded = match cx.recorded() {
            Some(Entry::Forfeit { at, .. }) => Some(at),
            _ => None,
        };
        let runs_on = self.board.has_teams() && st.position.is_some();
        let at = cx.at(recorded, runs_on && self.manifest.clock.is_some());
        let mut out = vec![Entry::Forfeit {
            seat: seats[i].seat.clone(),
            reason: reason.to_string(),
            at,
        }];
        let result = match st.position.as_mut() {
            Some(p) => {
                let events = p
                    .concede(Seat(i as u8), EndReason::Forfeit)
                    .map_err(|e| Error::Io(e.to_string()))?;
                st.events.extend(events);
                p.result()
            }
            // Before play a forfeit ends the game: the next seat's team wins.
            None => Some(GameResult {
                winner: Some(self.board.team_of(Seat(((i + 1) % seats.len()) as u8))[0]),
                reason: EndReason::Forfeit,
            }),
        };
        if let Some(r) = result {
            out.push(self.finish(st, r));
        }
        Ok(out)
    }

    fn is_over(&self, st: &Replay) -> bool {
        st.outcome.is_some()
    }

    fn secrets_held(&self) -> Option<&'static str> {
        Some("setups")
    }

    fn clock_turn(&self, st: &Replay) -> Option<(usize, u32)> {
        let p = st.position.as_ref().filter(|_| st.outcome.is_none())?;
        Some((p.to_move().index(), st.next_ply))
    }

    fn waiting(&self, st: &Replay) -> Option<String> {
        if st.outcome.is_some() {
            return None;
        }
        Some(match &st.position {
            Some(p) => format!(
                "{} to move (ply {})",
                self.manifest.players[p.to_move().index()].seat,
                st.next_ply
            ),
            None => {
                let seats = self.frame().seats;
                let missing = |have: &dyn Fn(usize) -> bool| -> Vec<&str> {
                    (0..seats.len())
                        .filter(|&i| !have(i))
                        .map(|i| seats[i])
                        .collect()
                };
                waiting_before_play(
                    &missing(&|i| st.commitments[i].is_some()),
                    &missing(&|i| st.setups[i].is_some()),
                )
            }
        })
    }

    /// Files that can never be taken are refused, not ignored: a name no game file has (the
    /// judge refuses it and goes on; only the audit stops on it), a ply beyond the game.
    fn leftover(&self, st: &Replay, cx: &Ctx) -> Result<Vec<Error>> {
        let bad = Files {
            dir: cx.dir,
            game: self,
            mode: Mode::Judge,
            opener: None,
            recorded: &[],
        }
        .bad_names()?;
        if !bad.is_empty() {
            return Ok(bad);
        }
        // A file at the next ply or later still here was not taken (another seat's).
        let next = st.outcome.is_none().then_some(st.next_ply);
        let frame = self.frame();
        let mut refused =
            qijudge_judge::strays::stray_move(cx.dir, &frame, &st.record, st.next_ply, next)?;
        refused.extend(qijudge_judge::conditional::leftover(
            cx.dir,
            &frame,
            &st.record,
            self.clock_turn(st).map(|(seat, ply)| (ply, seat)),
            !self.board.has_teams(),
            cx.key,
        )?);
        Ok(refused)
    }

    fn outputs(&self, dir: &GameDir, st: &Replay, key: &PrivateKey) -> Result<Outputs> {
        judge_outputs(self, dir, st, key)
    }

    fn refusal_note_path(&self, seat: usize) -> String {
        match self.manifest.sealed {
            true => qijudge_judge::sealing::sealed_refusal_path(self.seats[seat]),
            false => format!("views/{}.refusal.txt", self.seats[seat]),
        }
    }

    fn refusal_note(
        &self,
        dir: &GameDir,
        seat: usize,
        text: &str,
        key: &PrivateKey,
    ) -> Result<Outputs> {
        match self.manifest.sealed {
            true => qijudge_judge::sealing::seal_refusal(dir, &self.frame(), key, seat, text),
            false => Ok(pipeline::plain_refusal_note(self, seat, text, key)),
        }
    }

    fn check_views(&self, dir: &GameDir, st: &Replay) -> Result<()> {
        check_published_views(self, dir, st).map(|_| ())
    }
}

/// Replays a game directory; in judge mode the files not yet recorded are taken too (nothing
/// is written).
pub fn replay(dir: &GameDir, game: &Game, mode: Mode, now: &str) -> Result<Replay> {
    replay_with(dir, game, mode, now, None, None)
}

/// Replays the signed record alone, taking no new file and applying no deadline: what the
/// judge has recorded so far (a player's replay page and event stream, which a move written but
/// not yet judged must not block).
pub fn replay_recorded(dir: &GameDir, game: &Game, mode: Mode) -> Result<Replay> {
    replay_loaded(dir, game, &pipeline::load_record(game, dir)?, mode)
}

/// [`replay_recorded`] of a record its caller has loaded (and so checked) already.
pub fn replay_loaded(dir: &GameDir, game: &Game, record: &Record, mode: Mode) -> Result<Replay> {
    let mut st = pipeline::replay(game, dir, record, mode, None)?;
    st.waiting = game.waiting(&st);
    Ok(st)
}

/// Replays, and in judge mode takes the new files and forfeits `forfeit = (seat, reason code)`
/// if the game is still on; `opener` is the judge's key, which opens the setups of a sealed game.
pub fn replay_with(
    dir: &GameDir,
    game: &Game,
    mode: Mode,
    now: &str,
    mut forfeit: Option<(String, String)>,
    opener: Option<&PrivateKey>,
) -> Result<Replay> {
    let record = pipeline::load_record(game, dir)?;
    let mut st = pipeline::replay(game, dir, &record, mode, opener)?;
    if mode == Mode::Judge {
        let (said, refusals) =
            pipeline::take_new(game, dir, &mut st, now, opener, &mut forfeit, true)?;
        st.accepted = said;
        st.refusal = refusals.into_iter().next();
        if let Some((seat, reason)) = forfeit.filter(|_| st.outcome.is_none()) {
            let said = pipeline::forfeit_now(game, dir, &mut st, now, &seat, &reason)?;
            st.accepted.extend(said);
        }
    }
    if st.refusal.is_none() {
        st.waiting = game.waiting(&st);
    }
    Ok(st)
}

/// An incremental judge for a game played in-process (bot matches).
pub type Session<'a> = pipeline::Session<'a, Game>;

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

/// What a game waits for before play, in the same words for the judge and for `status`: every
/// seat's commitment first, then every seat's setup, naming the seats still to send theirs.
pub fn waiting_before_play(no_commitment: &[&str], no_setup: &[&str]) -> String {
    match (no_commitment, no_setup) {
        ([], missing) => format!(
            "waiting for every seat's setup (still to come: {})",
            missing.join(", ")
        ),
        (missing, _) => format!(
            "waiting for every seat's commitment (still to come: {})",
            missing.join(", ")
        ),
    }
}
