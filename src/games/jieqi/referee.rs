//! The Jieqi judge: both players' nonce commitments, then their nonces (handed to the judge
//! only), from which the shuffle fixes the hidden layout; then signed moves as in Xiangqi, each
//! face-down mover turned up in the public record; views that show captured face-down pieces
//! exactly as the manifest's `captured` option says; and, once the nonces are revealed, an audit
//! that recomputes the whole layout and checks every piece that turned up.

use super::manifest::*;
use crate::error::{refuse, refuse_with, Error, Result};
use crate::games::jieqi::rules::position::Cell;
use crate::games::jieqi::rules::shuffle::{shuffle, Layout};
use crate::games::jieqi::rules::{AdvisorsElephants, Captured, Game, Options};
use crate::games::xiangqi::referee::{color_of, end_entry, forfeit_entries, seat_of};
use crate::games::xiangqi::rules::notation::parse_iccs;
use crate::games::xiangqi::rules::{Color, Ending, Kind, Move, Square};
use crate::judge::frame::seat_number;
use crate::judge::manifest::Seated;
use crate::judge::pipeline::{self, Ctx, Mode, Referee};
use crate::judge::turns::{Asked, MoveLine, TurnFile, Turns};
use crate::judge::Outputs;
use crate::protocol::files::*;
use crate::store::GameDir;
use ssh_key::PrivateKey;

pub use crate::games::jieqi::view::{Closing, JieqiView, LastMove, Taken, ViewResult};

/// The seats, in manifest order: red moves first.
pub const SEATS: [&str; 2] = crate::games::xiangqi::referee::SEATS;

/// A checked Jieqi manifest with its keys.
pub type JieqiGame = Seated<Options>;

impl JieqiGame {
    pub fn options(&self) -> Options {
        self.manifest.rules
    }
}

pub fn sealed_captor_refusal() -> Error {
    refuse_with(
        "game.toml",
        Some("rules.captured"),
        "captor cannot be kept secret in a sealed game: its views are published for everyone",
        "choose captured = \"both\" or \"nobody\" for a game played in public",
    )
}

/// The rule options from `--rule key=value` items.
pub fn rules_from(items: &[String]) -> Result<Options> {
    let mut rules = Options::default();
    for item in items {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| Error::Io(format!("--rule {item:?}: expected key=value")))?;
        let bad = |allowed: &str| Error::Io(format!("--rule {k}: {allowed}"));
        match k {
            "advisors-elephants" => {
                rules.advisors_elephants = match v {
                    "free" => AdvisorsElephants::Free,
                    "confined" => AdvisorsElephants::Confined,
                    _ => return Err(bad("free or confined")),
                }
            }
            "captured" => {
                rules.captured = match v {
                    "both" => Captured::Both,
                    "captor" => Captured::Captor,
                    "nobody" => Captured::Nobody,
                    _ => return Err(bad("both, captor or nobody")),
                }
            }
            "move-limit" => {
                rules.move_limit = match v {
                    "on" | "true" => true,
                    "off" | "false" => false,
                    _ => return Err(bad("on or off")),
                }
            }
            _ => {
                return Err(Error::Io(format!(
                    "--rule {k:?}: Jieqi options are advisors-elephants=free|confined, \
                     captured=both|captor|nobody and move-limit=on|off"
                )))
            }
        }
    }
    Ok(rules)
}

/// A seat's commitment and nonce files for a fresh nonce.
pub fn new_nonce(g: &JieqiGame, seat: usize, nonce: [u8; 32]) -> (NonceCommitmentFile, NonceFile) {
    crate::judge::nonces::new_files(&g.frame(), seat, nonce)
}

/// A piece taken: when, by whom, where, as it lay, and what it was if known here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    pub ply: u32,
    pub captor: usize,
    pub square: Square,
    pub cell: Cell,
    /// What it was: its kind if face up; if face down, known only from the layout (the judge,
    /// or anyone after the reveal), from the record (captured = both) or from the captor's own
    /// signed view.
    pub identity: Option<Kind>,
}

/// The game as the record and the files say.
#[derive(Clone, Debug)]
pub struct State {
    pub turns: Turns,
    pub game: Game,
    /// The seats' nonces, through the secret contract.
    pub nonces: crate::judge::nonces::NoncePair,
    /// The hidden layout, once both nonces are at hand.
    pub layout: Option<Layout>,
    pub captures: Vec<Capture>,
    pub comments: Vec<Option<String>>,
}

impl State {
    pub fn head(&self, g: &JieqiGame) -> String {
        self.turns.head(&g.hash)
    }

    /// The seat to move, once play has begun and while it goes on.
    pub fn to_move(&self) -> Option<&'static str> {
        (self.nonces.begun && self.turns.end.is_none())
            .then(|| seat_of(self.game.position().side_to_move()))
    }

    pub fn plies(&self) -> u32 {
        self.game.played().len() as u32
    }

    /// What the record is waiting for before play, in words.
    fn waiting_before_play(&self) -> Option<String> {
        self.nonces.waiting(&SEATS)
    }
}

/// Who may see what a piece taken face down was: the one place that decides it.
pub fn shows_identity(options: Options, audience: &str, captor: usize) -> bool {
    match options.captured {
        Captured::Both => true,
        Captured::Captor => audience == SEATS[captor],
        Captured::Nobody => false,
    }
}

fn letter(color: Color, kind: Kind) -> String {
    let c = kind.fen_letter();
    match color {
        Color::Red => c.to_string(),
        Color::Black => c.to_ascii_lowercase().to_string(),
    }
}

fn kind_of_letter(text: &str) -> Option<Kind> {
    let mut chars = text.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    Kind::from_fen_letter(c).filter(|k| *k != Kind::King)
}

/// The step function's inputs.
struct Step<'a> {
    g: &'a JieqiGame,
    cx: &'a Ctx<'a>,
}

impl Step<'_> {
    fn before_play(&self, state: &mut State) -> Result<Option<Vec<Entry>>> {
        let g = self.g;
        let clock = g.manifest.clock.is_some();
        let entries = state
            .nonces
            .step(self.cx, &g.frame(), g.manifest.sealed, clock)?;
        if let Some((red, black)) = state.nonces.both().filter(|_| state.nonces.begun) {
            state.layout = Some(shuffle(&g.manifest.id, &red, &black));
        }
        Ok(entries)
    }

    /// Checks the turn's move file and reads the move it asks for.
    fn check_move_file(
        &self,
        state: &State,
        turn: &TurnFile,
        ply: u32,
        seat: usize,
    ) -> Result<Asked<Move>> {
        let position = state.game.position();
        state
            .turns
            .check_move_file(&self.g.frame(), turn, ply, seat, |text| {
                let mv = parse_iccs(text).ok_or_else(|| {
                    format!("{text:?} is not a move: write ICCS coordinates like h2e2, or resign")
                })?;
                position.check_move(mv).map_err(|e| e.to_string())?;
                Ok(mv)
            })
    }

    /// What the face-down piece on `square` is: from the layout, else from the recorded line
    /// (an audit before the reveal).
    fn identity(&self, state: &State, square: Square, recorded: Option<&str>) -> Result<Kind> {
        if let Some(layout) = &state.layout {
            let kind = layout.at(square).ok_or_else(|| {
                refuse("record.jsonl", None, format!("{square} is no start square"))
            })?;
            let color = state.game.position().side_to_move();
            match recorded {
                Some(text) if kind_of_letter(text) != Some(kind) => {
                    return Err(refuse_with(
                        "record.jsonl",
                        Some("revealed"),
                        format!(
                            "ply {}: the record turns up {text} on {square}, but the nonces put {} there",
                            state.plies() + 1,
                            letter(color, kind)
                        ),
                        "the record or the revealed nonces were changed",
                    ))
                }
                _ => return Ok(kind),
            }
        }
        match recorded {
            Some(text) => kind_of_letter(text).ok_or_else(|| {
                refuse(
                    "record.jsonl",
                    Some("revealed"),
                    format!("{text:?} is not a piece letter"),
                )
            }),
            None => Err(refuse_with(
                "record.jsonl",
                None,
                format!("the judge cannot turn up the piece on {square}: it lacks a nonce"),
                "the judge needs both players' nonces (setups/red.toml, setups/black.toml)",
            )),
        }
    }

    fn play(
        &self,
        state: &mut State,
        ply: u32,
        seat: usize,
        file: &MoveFile,
        hash: String,
        action: Asked<Move>,
    ) -> Result<Vec<Entry>> {
        let (rec_revealed, rec_uncovered) = match self.cx.recorded() {
            Some(Entry::Move {
                revealed, notices, ..
            }) => (
                revealed.clone(),
                notices.iter().find_map(|n| match n {
                    Notice::Uncovered { piece, .. } => Some(piece.clone()),
                    _ => None,
                }),
            ),
            _ => (None, None),
        };
        let mut notices = Vec::new();
        let mut revealed_letter = None;
        let (text, ending) = match action {
            Asked::Play(m) => {
                let position = state.game.position();
                let color = position.side_to_move();
                let mover = position.cell(m.from);
                let target = position.cell(m.to);
                let revealed = match mover {
                    Some(c) if c.hidden => {
                        let k = self.identity(state, m.from, rec_revealed.as_deref())?;
                        revealed_letter = Some(letter(color, k));
                        Some(k)
                    }
                    _ => None,
                };
                let identity = match target {
                    Some(c) if c.hidden => match (&state.layout, &rec_uncovered) {
                        (Some(layout), _) => layout.at(m.to),
                        (None, Some(text)) => Some(kind_of_letter(text).ok_or_else(|| {
                            refuse(
                                "record.jsonl",
                                Some("notices"),
                                format!("{text:?} is not a piece letter"),
                            )
                        })?),
                        (None, None) => None,
                    },
                    Some(c) => Some(c.kind),
                    None => None,
                };
                if let (Some(c), Some(k), Captured::Both) =
                    (target, identity, self.g.options().captured)
                {
                    if c.hidden {
                        notices.push(Notice::Uncovered {
                            square: m.to.to_string(),
                            piece: letter(c.color, k),
                        });
                    }
                }
                let ending = state
                    .game
                    .play(m, revealed)
                    .map_err(|e| refuse("record.jsonl", Some("revealed"), e.to_string()))?
                    .cloned();
                if let Some(cell) = target {
                    state.captures.push(Capture {
                        ply,
                        captor: seat,
                        square: m.to,
                        cell,
                        identity,
                    });
                }
                state.comments.push(file.comment.clone());
                (m.to_string(), ending)
            }
            Asked::Resign => {
                let ending = Ending::Resignation {
                    loser: color_of(seat),
                };
                state.game.end(ending.clone());
                ("resign".to_string(), Some(ending))
            }
            Asked::AcceptDraw => {
                state.game.end(Ending::AgreedDraw);
                ("accept-draw".to_string(), Some(Ending::AgreedDraw))
            }
        };
        let line = MoveLine {
            action: text,
            received: self.cx.received(),
            notices,
            revealed: revealed_letter,
        };
        let mut entries = vec![state.turns.take(&SEATS, ply, seat, file, hash, line)];
        if let Some(ending) = ending {
            entries.push(end_entry(&mut state.turns, &ending));
        }
        Ok(entries)
    }
}

/// The judge's state at the start of play on `layout` (the nonces' shuffle, for the contract).
pub fn contract_start(g: &JieqiGame, layout: Layout) -> State {
    let mut state = g.initial();
    state.nonces.begin();
    state.layout = Some(layout);
    state
}

/// Plays one legal move through the judge's own step code (the rules contract's `apply`); an
/// illegal one changes nothing.
pub fn contract_play(g: &JieqiGame, state: &mut State, m: Move) {
    let unread = GameDir::new(std::path::Path::new(""));
    let cx = Ctx::taking_new(&unread, crate::games::rules::CONTRACT_CREATED, None);
    let ply = state.plies() + 1;
    let seat = state.game.position().side_to_move().index();
    let file = crate::games::rules::contract_move_file(
        &g.manifest.id,
        &g.hash,
        ply,
        SEATS[seat],
        m.to_string(),
    );
    let _ = Step { g, cx: &cx }.play(state, ply, seat, &file, String::new(), Asked::Play(m));
}

crate::judge::pipeline::recorded!(State, turns.record);

impl Referee for JieqiGame {
    type State = State;

    fn initial(&self) -> State {
        State {
            turns: Turns::default(),
            game: Game::new(self.options()),
            nonces: Default::default(),
            layout: None,
            captures: Vec::new(),
            comments: Vec::new(),
        }
    }

    fn step(&self, state: &mut State, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        let frame = self.frame();
        if state.turns.record.lines.is_empty() {
            return Ok(Some(vec![Turns::start_entry(&frame)]));
        }
        let step = Step { g: self, cx };
        if !state.nonces.begun {
            return step.before_play(state);
        }
        let Some(seat_name) = state.to_move() else {
            return Ok(None);
        };
        let seat = seat_number(&SEATS, seat_name).unwrap_or(0);
        let ply = state.plies() + 1;
        let Some(turn) = Turns::next_file(cx, &frame, seat, ply)? else {
            return Ok(None);
        };
        let asked = step.check_move_file(state, &turn, ply, seat)?;
        let (file, hash) = (&turn.file, turn.hash.clone());
        step.play(state, ply, seat, file, hash, asked).map(Some)
    }

    fn forfeit(&self, state: &mut State, seat: usize, reason: &str, _: &Ctx) -> Result<Vec<Entry>> {
        let (ending, lines) = forfeit_entries(&mut state.turns, seat, reason);
        state.game.end(ending);
        Ok(lines)
    }

    fn adjudicate(
        &self,
        state: &mut State,
        winner: Option<usize>,
        reason: &str,
        _: &Ctx,
    ) -> Result<Vec<Entry>> {
        let (ending, lines) =
            crate::games::xiangqi::referee::adjudication_entries(&mut state.turns, winner, reason);
        state.game.end(ending);
        Ok(lines)
    }

    fn secrets_held(&self) -> Option<&'static str> {
        Some("nonces")
    }

    fn is_over(&self, state: &State) -> bool {
        state.turns.end.is_some()
    }

    fn clock_turn(&self, state: &State) -> Option<(usize, u32)> {
        let seat = state.to_move()?;
        Some((seat_number(&SEATS, seat).unwrap_or(0), state.plies() + 1))
    }

    fn waiting(&self, state: &State) -> Option<String> {
        if state.turns.end.is_some() {
            return None;
        }
        if let Some(before) = state.waiting_before_play() {
            return Some(before);
        }
        let seat = state.to_move()?;
        Some(format!("{seat} to move (ply {})", state.plies() + 1))
    }

    fn outputs(&self, _dir: &GameDir, state: &State, key: &PrivateKey) -> Result<Outputs> {
        let audiences = [SEATS[0], SEATS[1], "public"];
        Ok(crate::judge::published::open_outputs(
            &state.turns.record,
            &audiences,
            |audience| build_view(self, state, audience),
            |v| crate::games::jieqi::view::render_text(&self.manifest.players, v, false),
            crate::games::jieqi::picture::jieqi,
            key,
        ))
    }

    fn check_views(&self, dir: &GameDir, state: &State) -> Result<()> {
        for audience in [SEATS[0], SEATS[1], "public"] {
            let published = read_view(dir, self, audience)?;
            let mut known = state.captures.clone();
            // Before the reveal, what a captor was shown cannot be recomputed: it is taken from
            // its own view, and everything else in that view must still be what the record gives.
            if state.layout.is_none() {
                if let Some(v) = &published {
                    learn(&mut known, v);
                }
            }
            let want = view_with(self, state, &known, audience, state.plies() as usize);
            match published {
                Some(v) if v == want => {}
                Some(_) => {
                    return Err(refuse(
                        format!("views/{audience}.json"),
                        None,
                        "does not show what the record gives",
                    ))
                }
                None if state.turns.record.lines.is_empty() => {}
                None => return Err(refuse(format!("views/{audience}.json"), None, "missing")),
            }
            let text = crate::games::jieqi::view::render_text(&self.manifest.players, &want, false);
            crate::judge::published::check_text_view(dir, &self.frame(), audience, &text)?;
        }
        Ok(())
    }
}

/// Takes what a seat's own signed view shows of the pieces it took face down.
fn learn(captures: &mut [Capture], view: &JieqiView) {
    for taken in &view.taken {
        if !taken.face_down || taken.by != view.audience {
            continue;
        }
        if let Some(c) = captures
            .iter_mut()
            .find(|c| c.ply == taken.ply && c.identity.is_none())
        {
            c.identity = kind_of_letter(&taken.piece);
        }
    }
}

/// Builds one audience's view now.
pub fn build_view(g: &JieqiGame, state: &State, audience: &str) -> JieqiView {
    view_with(g, state, &state.captures, audience, state.plies() as usize)
}

/// The captures as `audience` may know them: the state's, plus, when the layout is not at hand
/// (a player's copy), what the audience's own signed view showed it of the pieces it took face
/// down.
pub fn known_captures(
    dir: &GameDir,
    g: &JieqiGame,
    state: &State,
    audience: &str,
) -> Result<Vec<Capture>> {
    let mut known = state.captures.clone();
    if state.layout.is_none() {
        if let Some(v) = read_view(dir, g, audience)? {
            learn(&mut known, &v);
        }
    }
    Ok(known)
}

/// The view of `audience` after the first `ply` moves (the replay page), with the captures
/// as known.
pub fn view_with(
    g: &JieqiGame,
    state: &State,
    captures: &[Capture],
    audience: &str,
    ply: usize,
) -> JieqiView {
    let played = state.game.played();
    let ply = ply.min(played.len());
    let latest = ply == played.len();
    let position = &state.game.positions()[ply];
    let board = crate::games::xiangqi::view::board_rows(|s| position.cell(s).map(Cell::letter));
    let shown = |c: &Capture| -> String {
        match (c.cell.hidden, c.identity) {
            (false, _) => c.cell.letter().to_string(),
            (true, Some(k)) if shows_identity(g.options(), audience, c.captor) => {
                letter(c.cell.color, k)
            }
            (true, _) => c.cell.letter().to_string(),
        }
    };
    let taken: Vec<Taken> = captures
        .iter()
        .filter(|c| (c.ply as usize) <= ply)
        .map(|c| Taken {
            ply: c.ply,
            by: SEATS[c.captor].into(),
            square: c.square.to_string(),
            piece: shown(c),
            face_down: c.cell.hidden,
        })
        .collect();
    let moves = played[..ply]
        .iter()
        .zip(state.game.positions())
        .map(|(p, before)| match p.revealed {
            Some(k) => format!("{}={}", p.mv, letter(before.side_to_move(), k)),
            None => p.mv.to_string(),
        })
        .collect();
    let last_move = (ply > 0).then(|| {
        let p = &played[ply - 1];
        let before = &state.game.positions()[ply - 1];
        LastMove {
            seat: seat_of(before.side_to_move()).into(),
            iccs: p.mv.to_string(),
            revealed: p.revealed.map(|k| letter(before.side_to_move(), k)),
            captured: captures.iter().find(|c| c.ply as usize == ply).map(&shown),
            comment: state.comments.get(ply - 1).cloned().flatten(),
        }
    });
    let result = state
        .turns
        .end
        .as_ref()
        .filter(|_| latest)
        .map(|(winner, reason)| ViewResult::new(winner, *reason, state.game.ending()));
    let (draw_offer, closing) = state.turns.shown(&SEATS, latest);
    JieqiView {
        format: JIEQI_VIEW_FORMAT.into(),
        game: g.manifest.id.clone(),
        manifest: g.hash.clone(),
        audience: audience.into(),
        record_head: state.head(g),
        ply: ply as u32,
        to_move: match latest {
            true => state.to_move().map(str::to_string),
            false => Some(seat_of(position.side_to_move()).to_string()),
        },
        check: position.is_check(),
        position: position.text(),
        board,
        moves,
        last_move,
        taken,
        draw_offer,
        closing,
        result,
    }
}

/// Reads a published view after checking the judge's signature; none when absent.
pub fn read_view(dir: &GameDir, g: &JieqiGame, audience: &str) -> Result<Option<JieqiView>> {
    crate::judge::published::read_view(dir, &g.frame(), audience)
}

/// Audits a game from its files; after the reveal, the whole layout too.
pub fn verify(dir: &GameDir, g: &JieqiGame) -> Result<State> {
    pipeline::verify(g, dir)
}

/// The state of a game from its signed files, for `status` and for players writing moves.
pub fn current(dir: &GameDir, g: &JieqiGame) -> Result<State> {
    pipeline::current(g, dir, Mode::Judge)
}

#[cfg(test)]
mod tests {
    //! Non-interference: what lies face down changes nothing any audience is shown until it
    //! turns up, and a piece taken face down is shown exactly as the `captured` option says.

    use super::*;
    use crate::games::jieqi::rules::position::hidden_squares;
    use crate::rules::random::SplitMix64;

    fn game(captured: Captured) -> JieqiGame {
        JieqiGame::with_new_keys(Options {
            captured,
            ..Options::default()
        })
    }

    /// A signed move file's content for ply `ply` (the signature is not the step's concern).
    fn move_file(g: &JieqiGame, ply: u32, seat: usize, m: Move) -> MoveFile {
        MoveFile {
            format: MOVE_FORMAT.into(),
            game: g.manifest.id.clone(),
            manifest: g.hash.clone(),
            ply,
            seat: SEATS[seat].into(),
            answers: String::new(),
            action: m.to_string(),
            offer_draw: false,
            comment: None,
            chain_index: None,
            chain: None,
        }
    }

    /// The judge's state after `moves`, played through its own step code on `layout`, with
    /// the record entries each move gave.
    fn played_with_entries(
        g: &JieqiGame,
        layout: &Layout,
        moves: &[Move],
    ) -> (State, Vec<Vec<Entry>>) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        let cx = Ctx::taking_new(&dir, "2026-11-24T00:00:00Z", None);
        let step = Step { g, cx: &cx };
        let mut state = g.initial();
        state.nonces.begin();
        state.layout = Some(layout.clone());
        let mut entries = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            let (ply, seat) = (i as u32 + 1, i % 2);
            let file = move_file(g, ply, seat, m);
            let hash = format!("sha256:{i:064x}");
            entries.push(
                step.play(&mut state, ply, seat, &file, hash, Asked::Play(m))
                    .unwrap(),
            );
        }
        (state, entries)
    }

    fn played(g: &JieqiGame, layout: &Layout, moves: &[Move]) -> State {
        played_with_entries(g, layout, moves).0
    }

    /// A random game on `layout`: its moves, and the start squares still face down at the end.
    fn random_game(layout: &Layout, seed: u64, plies: usize) -> (Vec<Move>, Vec<Square>) {
        let mut rng = SplitMix64::new(seed);
        let mut g = Game::new(Options::default());
        let mut moves = Vec::new();
        while moves.len() < plies && g.ending().is_none() {
            let legal = g.position().legal_moves();
            let m = legal[rng.below(legal.len())];
            let revealed = g
                .position()
                .cell(m.from)
                .filter(|c| c.hidden)
                .and_then(|_| layout.at(m.from));
            g.play(m, revealed).unwrap();
            moves.push(m);
        }
        let still: Vec<Square> = g
            .position()
            .cells()
            .filter(|(_, c)| c.hidden)
            .map(|(s, _)| s)
            .collect();
        (moves, still)
    }

    /// `layout` with the pieces on two start squares of one side exchanged.
    fn swapped(layout: &Layout, a: Square, b: Square) -> Layout {
        let color = crate::games::jieqi::rules::position::role_of(a).unwrap().0;
        let squares = hidden_squares(color);
        let (i, j) = (
            squares.iter().position(|s| *s == a).unwrap(),
            squares.iter().position(|s| *s == b).unwrap(),
        );
        let mut out = layout.clone();
        out.kinds[color.index()].swap(i, j);
        out
    }

    /// Everything an audience is shown: the JSON, the text and the picture, at every ply.
    fn shown(g: &JieqiGame, state: &State, audience: &str) -> Vec<String> {
        let mut out = Vec::new();
        for ply in 0..=state.plies() as usize {
            let v = view_with(g, state, &state.captures, audience, ply);
            out.push(serde_json::to_string(&v).unwrap());
        }
        let v = build_view(g, state, audience);
        out.push(crate::games::jieqi::view::render_text(
            &g.manifest.players,
            &v,
            true,
        ));
        out.push(crate::games::jieqi::picture::jieqi(&v));
        out
    }

    #[test]
    fn rearranging_what_is_still_face_down_changes_no_view() {
        let mut compared = 0;
        for seed in 0..40u64 {
            let g = game([Captured::Both, Captured::Captor, Captured::Nobody][seed as usize % 3]);
            let a = shuffle(&g.manifest.id, &[seed as u8; 32], &[9; 32]);
            let (moves, still) = random_game(&a, seed, 80);
            // Two face-down pieces of one side, of different kinds, that never moved.
            let pair = still.iter().enumerate().find_map(|(i, &x)| {
                still[i + 1..]
                    .iter()
                    .copied()
                    .find(|&y| {
                        crate::games::jieqi::rules::position::role_of(x).unwrap().0
                            == crate::games::jieqi::rules::position::role_of(y).unwrap().0
                            && a.at(x) != a.at(y)
                    })
                    .map(|y| (x, y))
            });
            let Some((x, y)) = pair else { continue };
            let b = swapped(&a, x, y);
            assert_ne!(a, b);
            let (sa, sb) = (played(&g, &a, &moves), played(&g, &b, &moves));
            for audience in ["red", "black", "public"] {
                assert_eq!(
                    shown(&g, &sa, audience),
                    shown(&g, &sb, audience),
                    "seed {seed}: {audience} sees the swap of {x} and {y}"
                );
            }
            compared += 1;
        }
        assert!(compared >= 30, "only {compared} games compared");
    }

    #[test]
    fn a_piece_taken_face_down_is_shown_as_the_option_says() {
        // Red's face-down piece on b2 moves as a cannon: over b7's screen it takes black's
        // face-down piece on b9.
        let moves: Vec<Move> = ["b2b9", "e9e8"]
            .iter()
            .map(|m| parse_iccs(m).unwrap())
            .collect();
        for captured in [Captured::Both, Captured::Captor, Captured::Nobody] {
            let g = game(captured);
            let a = shuffle(&g.manifest.id, &[1; 32], &[2; 32]);
            // Another layout where b9 holds something else (a9's piece), the rest the same.
            let b9 = Square::parse("b9").unwrap();
            let other = [Square::parse("a9").unwrap(), Square::parse("c9").unwrap()]
                .into_iter()
                .find(|s| a.at(*s) != a.at(b9))
                .unwrap();
            let b = swapped(&a, b9, other);
            let (sa, sb) = (played(&g, &a, &moves), played(&g, &b, &moves));
            let differs = |audience| shown(&g, &sa, audience) != shown(&g, &sb, audience);
            let want = match captured {
                Captured::Both => [true, true, true],
                Captured::Captor => [true, false, false],
                Captured::Nobody => [false, false, false],
            };
            assert_eq!(
                [differs("red"), differs("black"), differs("public")],
                want,
                "captured = {}",
                captured.name()
            );
            // The captor's view names the piece exactly when it may.
            let v = build_view(&g, &sa, "red");
            let piece = &v.taken[0].piece;
            let real = letter(Color::Black, a.at(b9).unwrap());
            assert_eq!(
                piece == &real,
                captured != Captured::Nobody,
                "{piece} {real}"
            );
            // Under both, the record says it too, so an audit without the nonces agrees.
            let (_, entries) = played_with_entries(&g, &a, &moves);
            let Some(Entry::Move { notices, .. }) = entries[0].first() else {
                panic!("a move entry")
            };
            assert_eq!(!notices.is_empty(), captured == Captured::Both);
        }
    }
}
