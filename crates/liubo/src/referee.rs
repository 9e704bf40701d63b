//! The Liubo judge: chain commitments, the escrowed seeds, the first player and every throw from
//! the hash chains (`games::liubo::throws`), signed turns checked against their throw, the record,
//! and views with the chain elements that made each throw.
//!
//! One step function gives the next record entries from the files; the judge appends what it
//! gives, and a replay (the judge's own start, `verify`) demands that every recorded line is
//! exactly what it gives, so the judge and the audit cannot drift apart.

pub use super::manifest::SEATS;
use super::manifest::*;
use crate::throws;
use liubo_rules::notation::{parse_turn, write_turn};
use liubo_rules::{self as liubo, DiceMode, EndReason as LiuboEnd, Place, Position};
use qijudge_judge::frame::seat_number;
use qijudge_judge::move_path;
use qijudge_judge::pipeline::{self, Ctx, Mode, Referee};
use qijudge_judge::Frame;
use qijudge_judge::Outputs;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::record::Record;
use qijudge_rules::EndReason;
use qijudge_store::GameDir;
use ssh_key::PrivateKey;

pub use crate::view::{LastTurn, LiuboResult, LiuboView, ThrowView};
use std::collections::BTreeMap;

qijudge_judge::seated_game! {
    /// A checked Liubo manifest with its keys.
    pub struct LiuboGame(crate::Liubo);
}

impl LiuboGame {
    fn chain_length(&self) -> u32 {
        self.manifest.rules.chain_length
    }
}

/// A player's secret: a fresh seed, its chain head, and the two files that carry them.
pub fn new_chain(g: &LiuboGame, seat: usize, seed: [u8; 32]) -> (ChainCommitmentFile, SeedFile) {
    // Shared: a judge in the same process (a bot match) rebuilds this very chain.
    let head = throws::shared_chain(
        &g.manifest.id,
        throws::letter(seat),
        &seed,
        g.chain_length(),
    )[0];
    (
        ChainCommitmentFile {
            format: CHAIN_COMMITMENT_FORMAT.into(),
            game: g.manifest.id.clone(),
            manifest: g.hash.clone(),
            seat: SEATS[seat].into(),
            chain: hex::encode(head),
            length: g.chain_length(),
        },
        SeedFile {
            format: SEED_FORMAT.into(),
            game: g.manifest.id.clone(),
            manifest: g.hash.clone(),
            seat: SEATS[seat].into(),
            seed: hex::encode(seed),
        },
    )
}

/// The game as the record and the files say.
#[derive(Clone, Debug)]
pub struct State {
    pub record: Record,
    pub position: Option<Position>,
    /// Chain heads `e[0]` from the commitments.
    pub heads: [Option<[u8; 32]>; 2],
    pub accepted: [bool; 2],
    /// Whole chains, when the seeds are at hand (the judge, or anyone after the reveal).
    chains: [Option<std::sync::Arc<[[u8; 32]]>>; 2],
    /// The highest chain element made public per seat, with its index.
    known: [Option<(u32, [u8; 32])>; 2],
    /// The throw being played: t, seat, values.
    pub throw: Option<(u32, usize, (u8, u8))>,
    pub last_turn: Option<(usize, String, Vec<String>)>,
    /// The comment in the last turn's move file (public, like the file).
    pub last_comment: Option<String>,
    /// The signed turn that ended the game off the board (a resignation).
    pub closing: Option<qijudge_view::Closing>,
    pub end: Option<(Option<String>, EndReason)>,
}

impl State {
    fn new() -> State {
        State {
            record: Record::new(),
            position: None,
            heads: [None, None],
            accepted: [false, false],
            chains: [None, None],
            known: [None, None],
            throw: None,
            last_turn: None,
            last_comment: None,
            closing: None,
            end: None,
        }
    }

    pub fn head(&self, g: &LiuboGame) -> String {
        self.record.head_or(&g.hash)
    }

    /// The seat to move, while the game goes on.
    pub fn to_move(&self) -> Option<&'static str> {
        if self.end.is_some() {
            return None;
        }
        match (self.throw, &self.position) {
            (Some((_, seat, _)), _) => Some(SEATS[seat]),
            (None, Some(p)) => Some(SEATS[p.to_move]),
            (None, None) => None,
        }
    }

    /// The highest chain element of `seat` made public, with its index.
    pub fn known(&self, seat: usize) -> Option<(u32, [u8; 32])> {
        self.known[seat]
    }
}

/// A seat's chain element `e[t]` derived from a later public element.
pub fn element_before(
    g: &LiuboGame,
    seat: usize,
    t: u32,
    known: (u32, [u8; 32]),
) -> Option<[u8; 32]> {
    let (j, mut e) = known;
    if j < t {
        return None;
    }
    for k in (t + 1..=j).rev() {
        e = throws::step_back(&g.manifest.id, throws::letter(seat), k, &e);
    }
    Some(e)
}

/// A player's own chain from its seed file (`setups/SEAT.toml`), for self mode.
pub fn own_chain(dir: &GameDir, g: &LiuboGame, seat: usize) -> Result<Vec<[u8; 32]>> {
    let cx = Ctx::taking_new(dir, "", None);
    let (_, seed) = Step { g, cx: &cx }.seed(seat)?.ok_or_else(|| {
        refuse(
            format!("setups/{}.toml", SEATS[seat]),
            None,
            "missing: your chain seed",
        )
    })?;
    Ok(throws::chain(
        &g.manifest.id,
        throws::letter(seat),
        &seed,
        g.chain_length(),
    ))
}

/// The step function's inputs: the files (through the pipeline's context, which also holds the
/// recorded line a replay checks) and the game.
struct Step<'a> {
    g: &'a LiuboGame,
    cx: &'a Ctx<'a>,
}

fn parse_hex32(path: &str, field: &str, text: &str) -> Result<[u8; 32]> {
    throws::parse_element(text).ok_or_else(|| refuse(path, Some(field), "expected 64 hex digits"))
}

impl Step<'_> {
    fn frame(&self) -> Frame<'_> {
        self.g.frame()
    }

    /// The seats in the order to look at them: a recorded line's seat first (a replay follows
    /// the order things came in), else seat order.
    fn seat_order(&self) -> [usize; 2] {
        let named = match self.cx.recorded() {
            Some(Entry::Commitment { seat, .. } | Entry::SetupAccepted { seat })
            | Some(Entry::Move { seat, .. }) => seat_number(&SEATS, seat),
            _ => None,
        };
        match named {
            Some(1) => [1, 0],
            _ => [0, 1],
        }
    }

    fn self_mode(&self) -> bool {
        self.g.manifest.rules.dice_mode == DiceMode::SelfReveal
    }

    /// Checks a chain element a player revealed in a file, and remembers it.
    fn take_revealed(
        &self,
        state: &mut State,
        path: &str,
        seat: usize,
        m: &MoveFile,
        index: u32,
    ) -> Result<()> {
        let (Some(i), Some(text)) = (m.chain_index, m.chain.as_ref()) else {
            return Err(refuse(
                path,
                Some("chain"),
                format!("self mode: this file must reveal your chain element {index}"),
            ));
        };
        if i != index {
            return Err(refuse(
                path,
                Some("chain_index"),
                format!("must be {index}"),
            ));
        }
        let e = parse_hex32(path, "chain", text)?;
        let (j, known) = state.known[seat].unwrap_or((0, state.heads[seat].unwrap_or_default()));
        if j >= i || !throws::extends(&self.g.manifest.id, throws::letter(seat), i, &e, j, &known) {
            return Err(refuse_with(
                path,
                Some("chain"),
                "does not hash back to your signed chain",
                "reveal the element of the chain you committed to",
            ));
        }
        state.known[seat] = Some((i, e));
        Ok(())
    }

    /// Self mode: a player's reveal file for ply `ply` (0: the start, revealing element 1; t: a
    /// bonus throw's element t).
    fn reveal(&self, state: &mut State, seat: usize, ply: u32) -> Result<Option<Vec<Entry>>> {
        let path = move_path(ply, SEATS[seat]);
        if !self.cx.dir.exists(&path) {
            return Ok(None);
        }
        let (m, hash) =
            qijudge_judge::player_files::read_signed_move(self.cx.dir, &self.frame(), &path, seat)?;
        // Both start reveals answer the head at which both commitments stood, so the players
        // need not wait for each other.
        let heads = if ply == 0 {
            vec![start_head(state, self.g)]
        } else {
            state.record.answerable_heads(&self.g.hash)
        };
        qijudge_judge::player_files::check_binding(&self.frame(), &path, &m, ply, seat, &heads)?;
        if m.action != "reveal" {
            return Err(refuse(
                &path,
                Some("move"),
                "expected reveal: it is not your turn",
            ));
        }
        self.take_revealed(state, &path, seat, &m, ply.max(1))?;
        Ok(Some(vec![Entry::Move {
            ply,
            seat: SEATS[seat].into(),
            file: hash,
            received: self.cx.received(),
            action: "reveal".into(),
            outcome: None,
            notices: Vec::new(),
            draw_offered: false,
            revealed: None,
            conditional: None,
        }]))
    }

    fn commitment(&self, state: &mut State, seat: usize) -> Result<Option<Vec<Entry>>> {
        let length = self.g.chain_length();
        qijudge_judge::secret::take_commitment(
            self.cx,
            &self.frame(),
            seat,
            CHAIN_COMMITMENT_FORMAT,
            |c: &ChainCommitmentFile| [&c.format, &c.game, &c.manifest, &c.seat],
            |c, path| {
                if c.length != length {
                    return Err(refuse(
                        path,
                        Some("length"),
                        format!("the manifest fixes {length}"),
                    ));
                }
                state.heads[seat] = Some(parse_hex32(path, "chain", &c.chain)?);
                Ok(())
            },
        )
    }

    /// The seat's seed file, where [`qijudge_judge::secret::read`] finds it.
    fn seed(&self, seat: usize) -> Result<Option<(String, [u8; 32])>> {
        qijudge_judge::secret::read_32(
            self.cx,
            &self.g.frame(),
            self.g.manifest.sealed,
            seat,
            (SEED_FORMAT, "seed"),
            |s: &SeedFile| [&s.format, &s.game, &s.manifest, &s.seat, &s.seed],
        )
    }

    /// Escrow: the judge rebuilds the seat's chain from its seed; it must reach the signed head.
    fn accept_seed(&self, state: &mut State, seat: usize) -> Result<Option<Vec<Entry>>> {
        let g = self.g;
        qijudge_judge::secret::take_secret_32(
            self.cx,
            &g.frame(),
            g.manifest.sealed,
            seat,
            (SEED_FORMAT, "seed"),
            |s: &SeedFile| [&s.format, &s.game, &s.manifest, &s.seat, &s.seed],
            |path, seed| {
                let chain = throws::shared_chain(
                    &g.manifest.id,
                    throws::letter(seat),
                    &seed,
                    g.chain_length(),
                );
                if Some(chain[0]) != state.heads[seat] {
                    return Err(refuse_with(
                        path,
                        Some("seed"),
                        format!(
                            "the chain of player {} does not reach the head it committed to",
                            SEATS[seat]
                        ),
                        "the seed must be the one the signed commitment was made from",
                    ));
                }
                state.chains[seat] = Some(chain);
                Ok(())
            },
        )
    }

    /// The chain element `e[t]` of a seat: from its chain, or from the recorded line (checked
    /// against what is already known).
    fn element(
        &self,
        state: &mut State,
        seat: usize,
        t: u32,
        recorded: Option<&String>,
    ) -> Result<[u8; 32]> {
        if t > self.g.chain_length() {
            return Err(refuse(
                "record.jsonl",
                None,
                format!(
                    "throw {t} needs fresh chains (chain_length is {}); this version does not renew them",
                    self.g.chain_length()
                ),
            ));
        }
        let known_at_or_after = state.known[seat].filter(|(j, _)| *j >= t);
        let e = match (&state.chains[seat], recorded, known_at_or_after) {
            (Some(chain), _, _) => chain[t as usize],
            (None, Some(text), _) => parse_hex32("record.jsonl", "elements", text)?,
            // Already public (throw 1 is made from the elements that chose the first player).
            (None, None, Some((j, e))) => {
                let mut cur = e;
                for k in (t + 1..=j).rev() {
                    cur = throws::step_back(&self.g.manifest.id, throws::letter(seat), k, &cur);
                }
                cur
            }
            (None, None, None) => {
                return Err(refuse(
                    format!("setups/{}.toml", SEATS[seat]),
                    None,
                    "the judge needs this seed to make the throw",
                ))
            }
        };
        let (j, known) = match state.known[seat] {
            Some(k) => k,
            None => (0, state.heads[seat].unwrap_or_default()),
        };
        if j < t && !throws::extends(&self.g.manifest.id, throws::letter(seat), t, &e, j, &known) {
            return Err(refuse(
                "record.jsonl",
                Some("elements"),
                format!(
                    "element {t} of player {} does not hash back to its signed chain",
                    SEATS[seat]
                ),
            ));
        }
        if j < t {
            state.known[seat] = Some((t, e));
        }
        Ok(e)
    }

    fn throw_entry(&self, state: &mut State, t: u32, seat: usize) -> Result<Entry> {
        let recorded = match self.cx.recorded() {
            Some(Entry::Throw { elements, .. }) => Some(elements.clone()),
            _ => None,
        };
        let ea = self.element(state, 0, t, recorded.as_ref().and_then(|m| m.get("a")))?;
        let eb = self.element(state, 1, t, recorded.as_ref().and_then(|m| m.get("b")))?;
        let values = throws::values(&throws::throw_digest(&self.g.manifest.id, t, &ea, &eb));
        state.throw = Some((t, seat, values));
        if let Some(p) = state.position.as_mut() {
            p.begin_turn(values)
                .map_err(|e| refuse("record.jsonl", None, e.to_string()))?;
        }
        Ok(Entry::Throw {
            t,
            seat: SEATS[seat].into(),
            values: vec![values.0, values.1],
            elements: BTreeMap::from([
                ("a".to_string(), hex::encode(ea)),
                ("b".to_string(), hex::encode(eb)),
            ]),
        })
    }

    fn begin(&self, state: &mut State) -> Result<Vec<Entry>> {
        let recorded = match self.cx.recorded() {
            Some(Entry::Begin { lot_nonces, .. }) => Some(lot_nonces.clone()),
            _ => None,
        };
        let ea = self.element(state, 0, 1, recorded.as_ref().and_then(|m| m.get("a")))?;
        let eb = self.element(state, 1, 1, recorded.as_ref().and_then(|m| m.get("b")))?;
        let (_, first) = throws::first_player(&self.g.manifest.id, &ea, &eb);
        state.position = Some(Position::new(self.g.manifest.rules.clone(), first));
        let at = match self.cx.recorded() {
            Some(Entry::Begin { at, .. }) => at.clone(),
            _ => self
                .g
                .manifest
                .clock
                .as_ref()
                .map(|_| self.cx.now.to_string()),
        };
        Ok(vec![Entry::Begin {
            at,
            first: SEATS[first].into(),
            lot_nonces: BTreeMap::from([
                ("a".to_string(), hex::encode(ea)),
                ("b".to_string(), hex::encode(eb)),
            ]),
        }])
    }

    /// The mover's turn file for throw t.
    fn turn(&self, state: &mut State, t: u32, seat: usize) -> Result<Option<Vec<Entry>>> {
        let path = move_path(t, SEATS[seat]);
        let other = move_path(t, SEATS[1 - seat]);
        let other_revealed = state.record.lines.iter().any(|l| {
            matches!(&l.entry, Entry::Move { ply, seat: s, action, .. } if *ply == t && *s == SEATS[1 - seat] && action == "reveal")
        });
        if self.cx.is_new() && self.cx.dir.exists(&other) && !other_revealed {
            return Err(refuse(
                &other,
                Some("seat"),
                format!("out of turn: {} moves at ply {t}", SEATS[seat]),
            ));
        }
        if !self.cx.dir.exists(&path) {
            return Ok(None);
        }
        let (m, hash) =
            qijudge_judge::player_files::read_signed_move(self.cx.dir, &self.frame(), &path, seat)?;
        let heads = state.record.answerable_heads(&self.g.hash);
        qijudge_judge::player_files::check_binding(&self.frame(), &path, &m, t, seat, &heads)?;
        let mut out = Vec::new();
        if self.self_mode() {
            // The mover reveals its element t + 1, which gives element t for this throw and
            // element t + 1 for the opponent's next one.
            self.take_revealed(state, &path, seat, &m, t + 1)?;
            out.push(self.throw_entry(state, t, seat)?);
        } else if m.chain.is_some() || m.chain_index.is_some() {
            return Err(refuse(
                &path,
                Some("chain"),
                "in escrow mode the judge reveals the chain elements",
            ));
        }
        let position = state.position.as_mut().expect("play has begun");
        let (action, ended) = if m.action == "resign" {
            position.concede(seat, LiuboEnd::Resignation);
            state.closing = Some(qijudge_view::Closing {
                ply: t,
                seat: SEATS[seat].into(),
                action: "resign".into(),
                comment: m.comment.clone(),
            });
            ("resign".to_string(), true)
        } else {
            let moves = parse_turn(position, &m.action)
                .map_err(|e| refuse(&path, Some("move"), e.to_string()))?;
            let text = play_turn(state, seat, &moves, m.comment.clone())
                .map_err(|e| refuse(&path, Some("move"), e))?;
            let ended = state.position.as_ref().is_some_and(|p| p.result.is_some());
            (text, ended)
        };
        let received = self.cx.received();
        out.push(Entry::Move {
            ply: t,
            seat: SEATS[seat].into(),
            file: hash,
            received,
            action,
            outcome: None,
            notices: Vec::new(),
            draw_offered: false,
            revealed: None,
            conditional: None,
        });
        state.throw = None;
        if ended {
            out.push(end_entry(state));
        }
        Ok(Some(out))
    }
}

/// Plays a checked turn's moves on the board and notes it as the last turn; the turn as written.
fn play_turn(
    state: &mut State,
    seat: usize,
    moves: &[liubo::Move],
    comment: Option<String>,
) -> std::result::Result<String, String> {
    let position = state.position.as_mut().ok_or("play has not begun")?;
    position.play_turn(moves).map_err(|(_, e)| e.to_string())?;
    let text = write_turn(moves);
    let events = describe_events(position, moves);
    state.last_turn = Some((seat, text.clone(), events));
    state.last_comment = comment;
    Ok(text)
}

/// The record's `end` line for a game whose position has ended, noted in the state.
fn end_entry(state: &mut State) -> Entry {
    let outcome = state
        .position
        .as_ref()
        .and_then(|p| p.result)
        .expect("the game has ended");
    let winner = outcome.winner.map(|w| SEATS[w].to_string());
    let reason = match outcome.reason {
        LiuboEnd::OwlCaptured => EndReason::OwlCaptured,
        LiuboEnd::FiveStones => EndReason::FiveStones,
        LiuboEnd::NoPieces => EndReason::NoPiecesInPlay,
        LiuboEnd::PlyLimit => EndReason::PlyLimit,
        LiuboEnd::Resignation => EndReason::Resignation,
        LiuboEnd::Forfeit => EndReason::Forfeit,
    };
    state.end = Some((winner.clone(), reason));
    Entry::End {
        winner,
        allies: Vec::new(),
        reason,
    }
}

/// The judge's state once play has begun with `first` to throw (both seeds in hand).
pub fn contract_start(g: &LiuboGame, first: usize) -> State {
    let mut state = State::new();
    state.heads = [Some([0; 32]); 2];
    state.accepted = [true; 2];
    state.position = Some(Position::new(g.manifest.rules.clone(), first));
    state
}

/// A throw the contract's chance gave, noted as the judge notes one (the contract has no hash
/// chains, so its record line names no chain element).
pub fn contract_throw(g: &LiuboGame, state: &mut State, values: (u8, u8)) {
    let Some(p) = state.position.as_mut() else {
        return;
    };
    let (t, seat) = (p.turns + 1, p.to_move);
    if p.begin_turn(values).is_err() {
        return;
    }
    state.throw = Some((t, seat, values));
    if state.position.as_ref().is_some_and(|p| p.result.is_some()) {
        end_entry(state);
    }
    let entry = Entry::Throw {
        t,
        seat: SEATS[seat].into(),
        values: vec![values.0, values.1],
        elements: BTreeMap::new(),
    };
    state.record.append(entry, &g.hash);
}

/// One legal turn through the judge's own bookkeeping (the rules contract's `apply`); an
/// illegal one changes nothing.
pub fn contract_turn(state: &mut State, moves: &[liubo::Move]) {
    let Some((_, seat, _)) = state.throw else {
        return;
    };
    if play_turn(state, seat, moves, None).is_ok() {
        state.throw = None;
        if state.position.as_ref().is_some_and(|p| p.result.is_some()) {
            end_entry(state);
        }
    }
}

impl Step<'_> {
    /// The next record entries the files give, or none while waiting.
    fn next(&self, state: &mut State) -> Result<Option<Vec<Entry>>> {
        if state.end.is_some() {
            return Ok(None);
        }
        if state.record.lines.is_empty() {
            return Ok(Some(vec![Entry::Start {
                format: RECORD_FORMAT.into(),
                game: self.g.manifest.id.clone(),
                manifest: self.g.hash.clone(),
            }]));
        }
        for seat in self.seat_order() {
            if state.heads[seat].is_none() {
                if let Some(e) = self.commitment(state, seat)? {
                    return Ok(Some(e));
                }
            }
        }
        if state.heads.iter().any(Option::is_none) {
            return Ok(None);
        }
        if self.self_mode() {
            // Each player reveals element 1 in a signed start file.
            for seat in self.seat_order() {
                if state.known[seat].is_none() {
                    if let Some(e) = self.reveal(state, seat, 0)? {
                        return Ok(Some(e));
                    }
                }
            }
            if state.known.iter().any(Option::is_none) {
                return Ok(None);
            }
        } else {
            for seat in self.seat_order() {
                if !state.accepted[seat] {
                    if let Some(e) = self.accept_seed(state, seat)? {
                        return Ok(Some(e));
                    }
                }
            }
            if !state.accepted.iter().all(|a| *a) {
                return Ok(None);
            }
        }
        let Some(position) = &state.position else {
            let mut out = self.begin(state)?;
            if !self.self_mode() {
                let first = state.position.as_ref().map_or(0, |p| p.to_move);
                out.push(self.throw_entry(state, 1, first)?);
            }
            return Ok(Some(out));
        };
        if position.awaiting_throw() {
            let t = position.turns + 1;
            let seat = position.to_move;
            if !self.self_mode() {
                return Ok(Some(vec![self.throw_entry(state, t, seat)?]));
            }
            // The opponent's element t must be public first (a bonus throw waits for a reveal).
            let other = 1 - seat;
            if state.known[other].is_none_or(|(j, _)| j < t) {
                return self.reveal(state, other, t);
            }
            return self.turn(state, t, seat);
        }
        let (t, seat, _) = state.throw.expect("a throw is being played");
        self.turn(state, t, seat)
    }
}

/// The record head once both commitments were recorded: what start reveals answer.
pub fn start_head(state: &State, g: &LiuboGame) -> String {
    let n = state
        .record
        .lines
        .iter()
        .rposition(|l| matches!(l.entry, Entry::Commitment { .. }))
        .map_or(0, |i| i + 1);
    state.record.head_after(n, &g.hash)
}

/// Words for what a turn did, for views.
fn describe_events(position: &Position, moves: &[liubo::Move]) -> Vec<String> {
    let _ = position;
    moves
        .iter()
        .map(liubo_rules::notation::write_move)
        .collect()
}

/// Applies one recorded entry's bookkeeping to the state (acceptance, end).
fn note(state: &mut State, entry: &Entry) -> Result<()> {
    match entry {
        Entry::SetupAccepted { seat } => {
            let i = seat_number(&SEATS, seat)
                .ok_or_else(|| refuse("record.jsonl", None, "unknown seat"))?;
            state.accepted[i] = true;
        }
        Entry::End { winner, reason, .. } => state.end = Some((winner.clone(), *reason)),
        _ => {}
    }
    Ok(())
}

qijudge_judge::recorded!(State);

impl Referee for LiuboGame {
    type State = State;

    fn initial(&self) -> State {
        State::new()
    }

    /// The judge holds the seeds: it rebuilds the chains a replay could not know about.
    fn prepare(&self, state: &mut State, cx: &Ctx) -> Result<()> {
        for seat in 0..2 {
            if state.chains[seat].is_none() && state.accepted[seat] {
                if let Some((_, seed)) = (Step { g: self, cx }).seed(seat)? {
                    state.chains[seat] = Some(throws::shared_chain(
                        &self.manifest.id,
                        throws::letter(seat),
                        &seed,
                        self.chain_length(),
                    ));
                }
            }
        }
        Ok(())
    }

    fn step(&self, state: &mut State, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        Step { g: self, cx }.next(state)
    }

    fn note(&self, state: &mut State, entry: &Entry, _: &Ctx) -> Result<()> {
        note(state, entry)
    }

    /// A match's maximum length: a draw, the only ruling this game takes.
    fn adjudicate(
        &self,
        state: &mut State,
        winner: Option<usize>,
        reason: &str,
        _: &Ctx,
    ) -> Result<Vec<Entry>> {
        qijudge_judge::pipeline::length_draw_only(winner, reason)?;
        if state.position.is_none() {
            return Err(qijudge_protocol::error::Error::Io(
                "a maximum-length draw is ruled in play, and this game is before play".into(),
            ));
        }
        state.throw = None;
        Ok(vec![
            Entry::Adjudicated {
                winner: None,
                reason: reason.into(),
            },
            Entry::End {
                winner: None,
                allies: Vec::new(),
                reason: EndReason::Adjudication,
            },
        ])
    }

    fn forfeit(&self, state: &mut State, seat: usize, reason: &str, _: &Ctx) -> Result<Vec<Entry>> {
        if let Some(p) = state.position.as_mut() {
            p.concede(seat, LiuboEnd::Forfeit);
        }
        state.throw = None;
        Ok(vec![
            Entry::Forfeit {
                seat: SEATS[seat].into(),
                reason: reason.into(),
                at: None,
            },
            Entry::End {
                winner: Some(SEATS[1 - seat].to_string()),
                allies: Vec::new(),
                reason: EndReason::Forfeit,
            },
        ])
    }

    /// Escrow: the judge holds the seeds it throws with. Self mode: each player reveals its
    /// own chain elements in play, and no seed is handed to the judge.
    fn secrets_held(&self) -> Option<&'static str> {
        (self.manifest.rules.dice_mode != DiceMode::SelfReveal).then_some("seeds")
    }

    fn is_over(&self, state: &State) -> bool {
        state.end.is_some()
    }

    /// Both seats file reveals for one ply in self mode, so no ply is closed by the other's file.
    fn leftover(&self, state: &State, cx: &Ctx) -> Result<Vec<qijudge_protocol::error::Error>> {
        let (stray_from, next) = pipeline::stray_from(self, state);
        let mut refused = qijudge_judge::strays::stray_move_shared_plies(
            cx.dir,
            &self.frame(),
            stray_from,
            next,
        )?;
        // Turns of throws and moves: no conditional answers.
        refused.extend(qijudge_judge::conditional::leftover(
            cx.dir,
            &self.frame(),
            &state.record,
            None,
            false,
            cx.key,
        )?);
        Ok(refused)
    }

    fn clock_turn(&self, state: &State) -> Option<(usize, u32)> {
        match (&state.position, &state.end) {
            (Some(p), None) => Some((p.to_move, p.turns + 1)),
            _ => None,
        }
    }

    fn waiting(&self, state: &State) -> Option<String> {
        Some(build_view(self, state, "public").waiting)
    }

    fn outputs(&self, dir: &GameDir, state: &State, key: &PrivateKey) -> Result<Outputs> {
        Ok(outputs(self, dir, state, key))
    }

    fn check_views(&self, dir: &GameDir, state: &State) -> Result<()> {
        qijudge_judge::published::check_views(dir, &self.frame(), &state.record, |a, _| {
            let v = build_view(self, state, a);
            let text = crate::view::render_text(&self.manifest.players, &v);
            (v, text)
        })
    }
}

/// The state from the signed files, for `status` and players writing turns.
pub fn current(dir: &GameDir, g: &LiuboGame) -> Result<State> {
    pipeline::current(g, dir, Mode::Judge)
}

/// Audits a game: record, every signature, commitment, throw (elements hashed back to the signed
/// heads, values recomputed), turn and view; with the seeds revealed, the whole chains too.
pub fn verify(dir: &GameDir, g: &LiuboGame) -> Result<State> {
    pipeline::verify(g, dir)
}

/// Builds one audience's view.
pub fn build_view(g: &LiuboGame, state: &State, audience: &str) -> LiuboView {
    let mut stations: BTreeMap<String, String> = BTreeMap::new();
    let mut reserve = BTreeMap::new();
    let mut prisoners_held = BTreeMap::new();
    let mut rights = Vec::new();
    let mut on_x = Vec::new();
    if let Some(p) = &state.position {
        for seat in 0..2 {
            let mut in_reserve = 0u8;
            for stone in &p.stones[seat] {
                match stone.place {
                    Place::On(s) => {
                        let c = match (seat, stone.owl) {
                            (0, false) => 'a',
                            (0, true) => 'A',
                            (_, false) => 'b',
                            (_, true) => 'B',
                        };
                        stations.entry(s.to_string()).or_default().push(c);
                        if s == liubo_rules::Station::X {
                            let line = stone
                                .heading
                                .unwrap_or(liubo_rules::board::Line::SixToSixteen);
                            let end = line.stations()[6];
                            on_x.push(crate::view::OnX {
                                piece: c.to_string(),
                                towards: end.to_string(),
                            });
                        }
                        // Rights are for a next turn: none once the game is over.
                        if stone.right_turn == Some(p.usable_turn(seat))
                            && !stone.owl
                            && state.end.is_none()
                        {
                            rights.push(s.to_string());
                        }
                    }
                    Place::Reserve => in_reserve += 1,
                    Place::Prisoner => {
                        *prisoners_held
                            .entry(SEATS[1 - seat].to_string())
                            .or_insert(0u8) += 1
                    }
                }
            }
            reserve.insert(SEATS[seat].to_string(), in_reserve);
        }
        for v in stations.values_mut() {
            let mut chars: Vec<char> = v.chars().collect();
            chars.sort_unstable();
            *v = chars.into_iter().collect();
        }
    }
    for seat in SEATS {
        prisoners_held.entry(seat.to_string()).or_insert(0);
    }
    let throw = state
        .record
        .lines
        .iter()
        .rev()
        .find_map(|l| match &l.entry {
            Entry::Throw {
                t,
                seat,
                values,
                elements,
            } => Some(ThrowView {
                t: *t,
                seat: seat.clone(),
                values: values.clone(),
                elements: elements.clone(),
            }),
            _ => None,
        });
    let throw = throw.filter(|_| state.throw.is_some());
    let waiting = if let Some((winner, reason)) = &state.end {
        match winner {
            Some(w) => format!("game over: {w} wins ({})", reason_words(*reason)),
            None => format!("game over: draw ({})", reason_words(*reason)),
        }
    } else if let Some((t, seat, v)) = state.throw {
        format!("{} to play throw {t}: {} and {}", SEATS[seat], v.0, v.1)
    } else if state.heads.iter().any(Option::is_none) {
        "waiting for both signed chain commitments".to_string()
    } else if g.manifest.rules.dice_mode == DiceMode::SelfReveal
        && state.known.iter().any(Option::is_none)
    {
        "waiting for both players' start reveals (chain element 1): each player runs qijudge move GAME --as SEAT --key KEY reveal".to_string()
    } else if g.manifest.rules.dice_mode == DiceMode::SelfReveal {
        match (&state.position, state.to_move()) {
            (Some(p), Some(seat)) => {
                let t = p.turns + 1;
                let other = 1 - p.to_move;
                if state.known[other].is_none_or(|(j, _)| j < t) {
                    format!(
                        "waiting for {}'s reveal of chain element {t} (a bonus throw): {} runs qijudge move GAME --as {} --key KEY reveal",
                        SEATS[other], SEATS[other], SEATS[other]
                    )
                } else {
                    format!(
                        "{seat} to throw {t} (self mode: the turn file reveals {seat}'s chain element {}): qijudge moves GAME --as {seat} lists the turns, qijudge move GAME --as {seat} --key KEY TURN plays one",
                        t + 1
                    )
                }
            }
            _ => String::new(),
        }
    } else if !state.accepted.iter().all(|a| *a) {
        "waiting for the escrowed seeds".to_string()
    } else {
        String::new()
    };
    LiuboView {
        format: LIUBO_VIEW_FORMAT.into(),
        game: g.manifest.id.clone(),
        manifest: g.hash.clone(),
        audience: audience.into(),
        record_head: state.head(g),
        turns: state.position.as_ref().map_or(0, |p| p.turns),
        waiting,
        to_move: state.to_move().map(str::to_string),
        throw,
        stations,
        reserve,
        prisoners_held,
        shortcut_rights: rights,
        on_x,
        last_turn: state.last_turn.as_ref().map(|(seat, turn, _)| LastTurn {
            seat: SEATS[*seat].into(),
            turn: turn.clone(),
            comment: state.last_comment.clone(),
        }),
        closing: state.closing.clone(),
        result: state.end.as_ref().map(|(w, r)| LiuboResult {
            winner: w.clone(),
            reason: *r,
        }),
    }
}

/// The signed outputs: record, each audience's view, the board picture.
pub fn outputs(g: &LiuboGame, dir: &GameDir, state: &State, key: &PrivateKey) -> Outputs {
    let audiences = [SEATS[0], SEATS[1], "public"];
    qijudge_judge::published::open_outputs(
        dir,
        &state.record,
        &audiences,
        |audience| build_view(g, state, audience),
        |v| crate::view::render_text(&g.manifest.players, v),
        crate::picture::liubo,
        key,
    )
}

/// Why a Liubo game ended, in the game's own words: the record's `no_pieces_in_play` (a code
/// Banqi shares) is "no stone in play" here, as the rules say it.
fn reason_words(reason: EndReason) -> String {
    match reason {
        EndReason::NoPiecesInPlay => "no stone in play".into(),
        other => qijudge_judge::reason_text(other),
    }
}

#[cfg(test)]
mod reason_tests {
    use super::*;

    #[test]
    fn a_liubo_ending_is_said_in_the_game_s_words() {
        assert_eq!(reason_words(EndReason::NoPiecesInPlay), "no stone in play");
        assert_eq!(reason_words(EndReason::OwlCaptured), "owl captured");
        assert_eq!(reason_words(EndReason::FiveStones), "five stones");
    }
}
