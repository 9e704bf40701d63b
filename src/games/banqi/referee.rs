//! The Banqi judge: both seats' nonce commitments, then their nonces (handed to the judge
//! only), from which the shuffle fixes the layout; then signed turns, each piece turned up (or
//! taken face down by a cannon) named in the public record; one view for everyone, since what
//! lies face down is no seat's to know; and, once the nonces are revealed, an audit that
//! recomputes the whole layout and checks every piece named.

use super::rules::position::Square;
use super::rules::shuffle::{shuffle, Layout};
use super::rules::{Action, Ending, Game, Options};
use super::view::{BanqiView, LastMove, Taken};
use crate::error::{refuse, refuse_with, Error, Result};
use crate::games::xiangqi::rules::Piece;
use crate::judge::frame::seat_number;
use crate::judge::manifest::{Kind, ManifestRules, Seated};
use crate::judge::pipeline::{self, Ctx, Mode, Referee};
use crate::judge::turns::{Asked, MoveLine, TurnFile, Turns};
use crate::judge::Outputs;
use crate::protocol::files::*;
use crate::rules::EndReason;
use crate::store::GameDir;
use ssh_key::PrivateKey;
use std::collections::BTreeMap;

/// The seats, in manifest order: `first` moves first; colours come with the first piece up.
pub const SEATS: [&str; 2] = ["first", "second"];

/// The format of a Banqi view.
pub const VIEW_FORMAT: &str = "qijudge/banqi-view/1";

/// `game.toml` of a Banqi game: the frame every manifest has, with Banqi's options.
pub type BanqiManifest = GameManifest<Options>;

impl ManifestRules for Options {
    /// First, then second.
    const KIND: Kind<'static> = Kind {
        game: "banqi",
        id_prefix: "bq-",
        board: "4x8",
        seats: &SEATS,
    };
    const SEALABLE: bool = true;
}

/// A checked Banqi manifest with its keys.
pub type BanqiGame = Seated<Options>;

/// The rule options from `--rule key=value` items.
pub fn rules_from(items: &[String]) -> Result<Options> {
    let mut rules = Options::default();
    for item in items {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| Error::Io(format!("--rule {item:?}: expected key=value")))?;
        // The key first: a value is judged only against the option it is for.
        let slot = match k {
            "cannon-takes-face-down" => &mut rules.cannon_takes_face_down,
            "move-limit" => &mut rules.move_limit,
            _ => {
                return Err(Error::Io(format!(
                    "--rule {k:?}: Banqi options are cannon-takes-face-down=on|off and \
                     move-limit=on|off"
                )))
            }
        };
        *slot = match v {
            "on" | "true" => true,
            "off" | "false" => false,
            _ => return Err(Error::Io(format!("--rule {k}: on or off"))),
        };
    }
    Ok(rules)
}

#[cfg(test)]
mod option_errors {
    use super::rules_from;

    #[test]
    fn an_unknown_option_is_named_before_its_value_is_judged() {
        let e = rules_from(&["max-plies=300".into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"max-plies\": Banqi options are"), "{e}");
        let e = rules_from(&["move-limit=300".into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("--rule move-limit: on or off"), "{e}");
        assert!(!rules_from(&["move-limit=off".into()]).unwrap().move_limit);
    }
}

/// A seat's commitment and nonce files for a fresh nonce.
pub fn new_nonce(g: &BanqiGame, seat: usize, nonce: [u8; 32]) -> (NonceCommitmentFile, NonceFile) {
    crate::judge::nonces::new_files(&g.frame(), seat, nonce)
}

/// The game as the record and the files say.
#[derive(Clone, Debug)]
pub struct State {
    pub turns: Turns,
    pub game: Game,
    /// The seats' nonces, through the secret contract.
    pub nonces: crate::judge::nonces::NoncePair,
    /// The layout, once both nonces are at hand (the judge, or anyone after the reveal).
    pub layout: Option<Layout>,
    pub comments: Vec<Option<String>>,
}

impl State {
    pub fn head(&self, g: &BanqiGame) -> String {
        self.turns.head(&g.hash)
    }

    /// The seat to move, once play has begun and while it goes on.
    pub fn to_move(&self) -> Option<&'static str> {
        (self.nonces.begun && self.turns.end.is_none()).then(|| SEATS[self.game.position().to_move])
    }

    pub fn plies(&self) -> u32 {
        self.game.played().len() as u32
    }

    /// What the record is waiting for before play, in words.
    fn waiting_before_play(&self) -> Option<String> {
        self.nonces.waiting(&SEATS)
    }
}

/// The record's reason and winner for an ending.
fn end_of(ending: Ending) -> (Option<String>, EndReason) {
    let reason = match ending {
        Ending::AllTaken { .. } => EndReason::NoPiecesInPlay,
        Ending::NoLegalMove { .. } => EndReason::NoLegalMove,
        Ending::MoveLimit => EndReason::MoveLimit,
        Ending::Resignation { .. } => EndReason::Resignation,
        Ending::Agreement => EndReason::Agreement,
        Ending::Forfeit { .. } => EndReason::Forfeit,
    };
    (ending.winner().map(|w| SEATS[w].to_string()), reason)
}

fn end_entry(turns: &mut Turns, ending: Ending) -> Entry {
    let (winner, reason) = end_of(ending);
    turns.end(winner, reason)
}

/// A piece's letter as the record names it: upper case red, lower case black.
fn piece_of_letter(text: &str) -> Option<Piece> {
    let mut chars = text.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(())?;
    c.is_ascii_alphabetic().then_some(())?;
    Piece::from_fen_char(c).filter(|p| p.fen_char() == c)
}

/// The step function's inputs.
struct Step<'a> {
    g: &'a BanqiGame,
    cx: &'a Ctx<'a>,
}

impl Step<'_> {
    fn before_play(&self, state: &mut State) -> Result<Option<Vec<Entry>>> {
        let g = self.g;
        let clock = g.manifest.clock.is_some();
        let entries = state
            .nonces
            .step(self.cx, &g.frame(), g.manifest.sealed, clock)?;
        if let Some((first, second)) = state.nonces.both().filter(|_| state.nonces.begun) {
            state.layout = Some(shuffle(&g.manifest.id, &first, &second));
        }
        Ok(entries)
    }

    /// Checks the turn's move file and reads the turn it asks for.
    fn check_move_file(
        &self,
        state: &State,
        turn: &TurnFile,
        ply: u32,
        seat: usize,
    ) -> Result<Asked<Action>> {
        let position = state.game.position();
        state.turns.check_move_file(&self.g.frame(), turn, ply, seat, |text| {
            let action = Action::parse(text).ok_or_else(|| {
                format!(
                    "{text:?} is not a turn: write a square to turn its piece up (c2), a move (c2c3), or resign"
                )
            })?;
            position.check(action).map_err(|e| e.to_string())?;
            Ok(action)
        })
    }

    /// What the face-down piece on `square` is: from the layout (checked against the record in
    /// a replay), else from the recorded line (an audit before the reveal).
    fn identity(&self, state: &State, square: Square, recorded: Option<&str>) -> Result<Piece> {
        let ply = state.plies() + 1;
        if let Some(layout) = &state.layout {
            let piece = layout.at(square);
            if let Some(text) = recorded.filter(|t| piece_of_letter(t) != Some(piece)) {
                return Err(refuse_with(
                    "record.jsonl",
                    Some("revealed"),
                    format!(
                        "ply {ply}: the record names {text} on {square}, but the nonces put {} there",
                        piece.fen_char()
                    ),
                    "the record or the revealed nonces were changed",
                ));
            }
            return Ok(piece);
        }
        match recorded {
            Some(text) => piece_of_letter(text).ok_or_else(|| {
                refuse(
                    "record.jsonl",
                    Some("revealed"),
                    format!("ply {ply}: {text:?} is not a piece letter"),
                )
            }),
            None => Err(refuse_with(
                "record.jsonl",
                None,
                format!("the judge cannot turn up the piece on {square}: it lacks a nonce"),
                "the judge needs both players' nonces (setups/first.toml, setups/second.toml)",
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
        asked: Asked<Action>,
    ) -> Result<Vec<Entry>> {
        let recorded = match self.cx.recorded() {
            Some(Entry::Move {
                revealed, notices, ..
            }) => revealed.clone().or_else(|| {
                notices.iter().find_map(|n| match n {
                    Notice::Uncovered { piece, .. } => Some(piece.clone()),
                    _ => None,
                })
            }),
            _ => None,
        };
        let mut notices = Vec::new();
        let mut revealed = None;
        let (text, ending) = match asked {
            Asked::Play(action) => {
                let identity = match action {
                    _ if !state.game.needs_identity(action) => None,
                    Action::Flip(s) | Action::Move(_, s) => {
                        Some(self.identity(state, s, recorded.as_deref())?)
                    }
                };
                match (action, identity) {
                    (Action::Flip(_), Some(p)) => revealed = Some(p.fen_char().to_string()),
                    (Action::Move(_, to), Some(p)) => notices.push(Notice::Uncovered {
                        square: to.to_string(),
                        piece: p.fen_char().to_string(),
                    }),
                    _ => {}
                }
                let ending = state
                    .game
                    .play(action, identity)
                    .map_err(|e| refuse("record.jsonl", Some("revealed"), e.to_string()))?;
                state.comments.push(file.comment.clone());
                (action.to_string(), ending)
            }
            Asked::Resign => {
                let ending = Ending::Resignation { loser: seat };
                state.game.end(ending);
                ("resign".to_string(), Some(ending))
            }
            Asked::AcceptDraw => {
                state.game.end(Ending::Agreement);
                ("accept-draw".to_string(), Some(Ending::Agreement))
            }
        };
        let line = MoveLine {
            action: text,
            received: self.cx.received(),
            notices,
            revealed,
        };
        let mut entries = vec![state.turns.take(&SEATS, ply, seat, file, hash, line)];
        if let Some(ending) = ending {
            entries.push(end_entry(&mut state.turns, ending));
        }
        Ok(entries)
    }
}

/// The judge's state at the start of play on `layout` (the nonces' shuffle, for the contract).
pub fn contract_start(g: &BanqiGame, layout: Layout) -> State {
    let mut state = g.initial();
    state.nonces.begin();
    state.layout = Some(layout);
    state
}

/// Plays one legal action through the judge's own step code (the rules contract's `apply`);
/// an illegal one changes nothing.
pub fn contract_play(g: &BanqiGame, state: &mut State, action: Action) {
    let unread = GameDir::new(std::path::Path::new(""));
    let cx = Ctx::taking_new(&unread, crate::games::rules::CONTRACT_CREATED, None);
    let ply = state.plies() + 1;
    let seat = state.game.position().to_move;
    let file = crate::games::rules::contract_move_file(
        &g.manifest.id,
        &g.hash,
        ply,
        SEATS[seat],
        action.to_string(),
    );
    let _ = Step { g, cx: &cx }.play(state, ply, seat, &file, String::new(), Asked::Play(action));
}

crate::judge::pipeline::recorded!(State, turns.record);

impl Referee for BanqiGame {
    type State = State;

    fn initial(&self) -> State {
        State {
            turns: Turns::default(),
            game: Game::new(self.manifest.rules),
            nonces: Default::default(),
            layout: None,
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
        if state.turns.end.is_some() {
            return Ok(None);
        }
        let seat = state.game.position().to_move;
        let ply = state.plies() + 1;
        let Some(turn) = Turns::next_file(cx, &frame, seat, ply)? else {
            return Ok(None);
        };
        let asked = step.check_move_file(state, &turn, ply, seat)?;
        let (file, hash) = (&turn.file, turn.hash.clone());
        step.play(state, ply, seat, file, hash, asked).map(Some)
    }

    fn forfeit(&self, state: &mut State, seat: usize, reason: &str, _: &Ctx) -> Result<Vec<Entry>> {
        state.game.end(Ending::Forfeit { loser: seat });
        let winner = Some(SEATS[1 - seat].to_string());
        Ok(state.turns.forfeit(&SEATS, seat, reason, winner))
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
            |v| super::view::render_text(&self.manifest.players, v, false),
            super::picture::banqi,
            key,
        ))
    }

    fn check_views(&self, dir: &GameDir, state: &State) -> Result<()> {
        for audience in [SEATS[0], SEATS[1], "public"] {
            let want = build_view(self, state, audience);
            match read_view(dir, self, audience)? {
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
            let text = super::view::render_text(&self.manifest.players, &want, false);
            crate::judge::published::check_text_view(dir, &self.frame(), audience, &text)?;
        }
        Ok(())
    }
}

/// Builds one audience's view now.
pub fn build_view(g: &BanqiGame, state: &State, audience: &str) -> BanqiView {
    view_at(g, state, audience, state.plies() as usize)
}

/// The view of `audience` after the first `ply` turns (the replay page). Every audience is
/// shown the same: the board with face-down pieces as `?`, each piece as it was turned up or
/// taken, and the colours once decided. What lies face down is in no view; this is the one
/// place that decides it.
pub fn view_at(g: &BanqiGame, state: &State, audience: &str, ply: usize) -> BanqiView {
    let played = state.game.played();
    let ply = ply.min(played.len());
    let latest = ply == played.len();
    let position = &state.game.positions()[ply];
    let letter = |p: Piece| p.fen_char().to_string();
    let moves = played[..ply]
        .iter()
        .map(|p| {
            let up = p.revealed.map(|r| format!("={}", r.fen_char()));
            let took = p.captured.map(|c| format!("x{}", c.fen_char()));
            format!(
                "{}{}{}",
                p.action,
                up.unwrap_or_default(),
                took.unwrap_or_default()
            )
        })
        .collect();
    let taken = played[..ply]
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let c = p.captured?;
            let Action::Move(_, to) = p.action else {
                return None;
            };
            Some(Taken {
                ply: i as u32 + 1,
                by: SEATS[p.seat].into(),
                square: to.to_string(),
                piece: letter(c),
                face_down: p.captured_face_down,
            })
        })
        .collect();
    let last_move = (ply > 0).then(|| {
        let p = &played[ply - 1];
        LastMove {
            seat: SEATS[p.seat].into(),
            action: p.action.to_string(),
            revealed: p.revealed.map(letter),
            captured: p.captured.map(letter),
            comment: state.comments.get(ply - 1).cloned().flatten(),
        }
    });
    let mut face_down: Vec<char> = state
        .game
        .face_down_after(ply)
        .iter()
        .map(|p| p.fen_char())
        .collect();
    face_down.sort_unstable();
    let colours: BTreeMap<String, String> = position
        .colours
        .map(|c| {
            (0..2)
                .map(|i| (SEATS[i].to_string(), c[i].name().to_string()))
                .collect()
        })
        .unwrap_or_default();
    let result = state
        .turns
        .end
        .as_ref()
        .filter(|_| latest)
        .map(|(winner, reason)| super::view::result(winner, *reason, state.game.ending()));
    let (draw_offer, closing) = state.turns.shown(&SEATS, latest);
    BanqiView {
        format: VIEW_FORMAT.into(),
        game: g.manifest.id.clone(),
        manifest: g.hash.clone(),
        audience: audience.into(),
        record_head: state.head(g),
        ply: ply as u32,
        to_move: match latest {
            true => state.to_move().map(str::to_string),
            false => Some(SEATS[position.to_move].to_string()),
        },
        colours,
        position: position.text(),
        board: position.rows(),
        moves,
        last_move,
        taken,
        face_down: face_down.into_iter().collect(),
        quiet_plies: position.quiet,
        draw_offer,
        closing,
        result,
    }
}

/// Reads a published view after checking the judge's signature; none when absent.
pub fn read_view(dir: &GameDir, g: &BanqiGame, audience: &str) -> Result<Option<BanqiView>> {
    crate::judge::published::read_view(dir, &g.frame(), audience)
}

/// Audits a game from its files; after the reveal, the whole layout too.
pub fn verify(dir: &GameDir, g: &BanqiGame) -> Result<State> {
    pipeline::verify(g, dir)
}

/// The state of a game from its signed files, for `status` and for players writing moves.
pub fn current(dir: &GameDir, g: &BanqiGame) -> Result<State> {
    pipeline::current(g, dir, Mode::Judge)
}

#[cfg(test)]
mod tests {
    //! Non-interference: what lies face down changes nothing any audience is shown, until it
    //! is turned up; and the judge's step names every piece turned up as the layout says.

    use super::*;
    use crate::rules::random::SplitMix64;

    fn game(options: Options) -> BanqiGame {
        BanqiGame::with_new_keys(options)
    }

    fn move_file(g: &BanqiGame, ply: u32, seat: usize, action: Action) -> MoveFile {
        MoveFile {
            format: MOVE_FORMAT.into(),
            game: g.manifest.id.clone(),
            manifest: g.hash.clone(),
            ply,
            seat: SEATS[seat].into(),
            answers: String::new(),
            action: action.to_string(),
            offer_draw: false,
            comment: None,
            chain_index: None,
            chain: None,
        }
    }

    /// The judge's state after `turns`, played through its own step code on `layout`.
    fn played(g: &BanqiGame, layout: &Layout, turns: &[Action]) -> (State, Vec<Vec<Entry>>) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        let cx = Ctx::taking_new(&dir, "2026-11-25T00:00:00Z", None);
        let step = Step { g, cx: &cx };
        let mut state = g.initial();
        state.nonces.begin();
        state.layout = Some(layout.clone());
        let mut entries = Vec::new();
        for (i, &a) in turns.iter().enumerate() {
            let ply = i as u32 + 1;
            let seat = state.game.position().to_move;
            let file = move_file(g, ply, seat, a);
            let hash = format!("sha256:{i:064x}");
            entries.push(
                step.play(&mut state, ply, seat, &file, hash, Asked::Play(a))
                    .unwrap(),
            );
        }
        (state, entries)
    }

    /// A random game on `layout`: its turns, and the squares still face down after them.
    fn random_game(
        options: Options,
        layout: &Layout,
        seed: u64,
        plies: usize,
    ) -> (Vec<Action>, Vec<Square>) {
        let mut rng = SplitMix64::new(seed);
        let mut g = Game::new(options);
        let mut turns = Vec::new();
        while turns.len() < plies && g.ending().is_none() {
            let legal = g.position().legal_actions();
            let a = legal[rng.below(legal.len())];
            let id = g.needs_identity(a).then(|| match a {
                Action::Flip(s) | Action::Move(_, s) => layout.at(s),
            });
            g.play(a, id).unwrap();
            turns.push(a);
        }
        let still = Square::all()
            .filter(|&s| g.position().cell(s) == Some(super::super::rules::Cell::Down))
            .collect();
        (turns, still)
    }

    /// Everything an audience is shown: the JSON at every ply, the text (both scripts) and the
    /// picture.
    fn shown(g: &BanqiGame, state: &State, audience: &str) -> Vec<String> {
        let mut out: Vec<String> = (0..=state.plies() as usize)
            .map(|ply| serde_json::to_string(&view_at(g, state, audience, ply)).unwrap())
            .collect();
        let v = build_view(g, state, audience);
        for chinese in [false, true] {
            out.push(super::super::view::render_text(
                &g.manifest.players,
                &v,
                chinese,
            ));
        }
        out.push(super::super::picture::banqi(&v));
        out
    }

    #[test]
    fn rearranging_what_is_still_face_down_changes_no_view() {
        for (seed, options) in [
            (1u64, Options::default()),
            (2, Options::default()),
            (
                3,
                Options {
                    cannon_takes_face_down: true,
                    ..Options::default()
                },
            ),
        ] {
            let g = game(options);
            let layout = shuffle(&g.manifest.id, &seed.to_be_bytes(), &[9; 32]);
            let (turns, still) = random_game(options, &layout, seed, 40);
            assert!(still.len() >= 2, "seed {seed}: pieces left face down");
            // Exchange two face-down pieces that differ.
            let (a, b) = still
                .iter()
                .flat_map(|&a| still.iter().map(move |&b| (a, b)))
                .find(|(a, b)| layout.at(*a) != layout.at(*b))
                .unwrap();
            let mut other = layout.clone();
            other.pieces.swap(a.index(), b.index());
            let (sa, _) = played(&g, &layout, &turns);
            let (sb, _) = played(&g, &other, &turns);
            for audience in ["first", "second", "public"] {
                assert_eq!(
                    shown(&g, &sa, audience),
                    shown(&g, &sb, audience),
                    "seed {seed}: {audience} learns what lies face down"
                );
            }
            // And every audience is shown the same but for its name.
            let public = serde_json::to_value(build_view(&g, &sa, "public")).unwrap();
            for seat in SEATS {
                let mut v = serde_json::to_value(build_view(&g, &sa, seat)).unwrap();
                v["audience"] = "public".into();
                assert_eq!(v, public);
            }
        }
    }

    #[test]
    fn the_record_names_each_piece_turned_up_as_the_layout_says() {
        let g = game(Options::default());
        let layout = shuffle(&g.manifest.id, &[1; 32], &[2; 32]);
        let turns = [Action::Flip(Square::new(2, 1).unwrap())];
        let (_, entries) = played(&g, &layout, &turns);
        let Entry::Move {
            revealed, action, ..
        } = &entries[0][0]
        else {
            panic!("{entries:?}");
        };
        assert_eq!(action, "c2");
        assert_eq!(
            revealed.as_deref(),
            Some(
                layout
                    .at(Square::new(2, 1).unwrap())
                    .fen_char()
                    .to_string()
                    .as_str()
            )
        );
    }
}
