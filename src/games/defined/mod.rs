//! The game definition of a game judged through the shared pipeline (Xiangqi, Jieqi, Liubo):
//! what such a game supplies — its name, seats and options, how its folder loads, its secret,
//! how a typed move is read and checked, how a view is drawn — and, written once for all of
//! them, every command (one per file in this folder) and the rest of the [`Game`] contract: the
//! facts mail and CI read, seats, whose turn, a seat's legal moves and view, a bot's turn, an
//! in-process match game and the audited summary. The per-state questions (whose turn, legal
//! moves, a seat's view, plies, the end, how a move reads) are the loaded game's [`Answers`],
//! from which its [`SessionGame`] (the judge's in-process session) follows too.

mod judge;
pub(crate) mod make_move;
mod new;
pub(crate) mod precheck;
mod reveal;
mod setup;
mod status;
mod verify;
mod view;

pub use make_move::check_turn;

use super::match_play::{MatchPlay, MatchStep, SessionGame};
use super::report::Report;
use super::{
    Commands, Game, GameFacts, GameSummary, JudgeRequest, MoveRequest, NewGame, SetupSource, Turn,
    ViewRequest,
};
use crate::error::Result;
use crate::judge::pipeline::{self, Mode, Referee};
use crate::rules::EndReason;
use crate::store::GameDir;
use crate::tournament::protocol::BotView;
use std::path::{Path, PathBuf};

/// What a loaded pipeline game answers from the judge's state.
pub trait Answers: Referee {
    /// The seat to move (or throw), none once the game is over or before play.
    fn to_move_in(&self, state: &Self::State) -> Option<String>;
    /// The legal moves of `seat`, sorted; refused when it is not that seat's turn.
    fn legal_in(&self, dir: &GameDir, state: &Self::State, seat: &str) -> Result<Vec<String>>;
    /// A seat's own view, as JSON: what a bot playing it is shown.
    fn view_in(&self, dir: &GameDir, state: &Self::State, seat: &str) -> Result<serde_json::Value>;
    /// The plies played.
    fn plies_in(&self, state: &Self::State) -> usize;
    /// The recorded end: the winning seat (none for a draw) and why.
    fn end_in(&self, state: &Self::State) -> Option<(Option<String>, EndReason)>;
    /// The ply of the next move and the record head it answers.
    fn next_move_in(&self, state: &Self::State) -> (u32, String);
    /// The game's id and manifest hash, which every move file carries.
    fn binding_of(&self) -> (&str, &str);
    /// One line on where the game stands (`red to move (ply 7)`, `game over: …`), which
    /// `judge` prints last.
    fn headline(&self, state: &Self::State) -> String;
    /// A move as the player typed it, read and checked against what the seat sees once it is
    /// its turn: the action as it is stored (`resign`, `accept-draw` and moves in the game's
    /// notation).
    fn typed_action(
        &self,
        dir: &GameDir,
        state: &Self::State,
        seat: &str,
        text: &str,
    ) -> Result<String>;
    /// A filed move's action checked against the state (`precheck`); `path` names the file.
    fn filed_action(&self, state: &Self::State, path: &str, action: &str) -> Result<()>;
    /// What `status` shows: the public fields (as JSON) and the first line.
    fn status_of(&self, state: &Self::State) -> (serde_json::Value, String);
    /// What `verify` says it checked (the headline follows).
    fn audited(&self, dir: &GameDir, state: &Self::State) -> Vec<String>;
}

impl<G: Answers> SessionGame for G {
    fn turn_in(
        &self,
        dir: &GameDir,
        state: &Self::State,
        wants_view: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Turn>> {
        super::turn_from(
            self.to_move_in(state),
            wants_view,
            |seat| self.legal_in(dir, state, seat),
            |seat| self.view_in(dir, state, seat).map(BotView::Other),
        )
    }

    fn next_move(&self, state: &Self::State) -> (u32, String) {
        self.next_move_in(state)
    }

    fn binding(&self) -> (&str, &str) {
        self.binding_of()
    }
}

/// What a pipeline game supplies; its [`Commands`] and [`Game`] follow from it.
pub trait Definition: Sync + Sized {
    /// The game as loaded from its folder (manifest, keys): its judge.
    type Loaded: Answers;
    /// What an audience is shown (`views/AUDIENCE.json`).
    type View: serde::de::DeserializeOwned;
    /// The manifest's `game` value.
    const NAME: &'static str;
    /// The game's name in a sentence (`Xiangqi`).
    const TITLE: &'static str;
    /// What a seat's drawn secret is called (`nonce`, `chain seed`), for games with one.
    const SECRET_WORD: &'static str = "secret";
    /// Whether a move may offer a draw.
    const DRAW_OFFERS: bool = true;
    /// The seats, in order (one board).
    const SEATS: &'static [&'static str];
    /// Options a bot match sets unless told otherwise (`key=value`).
    const MATCH_RULES: &'static [&'static str];
    /// Whether players hold secrets that `reveal` publishes after the end.
    const SECRETS: bool;
    /// The boards and options the contract suite plays it under ([`Game::variants`]).
    const VARIANTS: &'static [super::Variant] = &[("2p", &[])];

    /// Reads and checks the folder's manifest and keys.
    fn load(dir: &GameDir) -> Result<Self::Loaded>;
    /// Whether the manifest says the game is played sealed.
    fn sealed(g: &Self::Loaded) -> bool;
    /// The manifest's players, in seat order.
    fn players(g: &Self::Loaded) -> &[crate::protocol::files::Player];
    /// Whether a match plays this game in one process (else through the commands).
    fn in_session(_g: &Self::Loaded) -> bool {
        true
    }
    /// The text of a new `game.toml` from `new` (the board already checked), with the id made
    /// from `id` and the players in seat order.
    fn manifest(
        new: &NewGame,
        id: [u8; 16],
        players: Vec<crate::protocol::files::Player>,
    ) -> Result<String>;
    /// A seat's secret drawn from `random`: the commitment file (public) and the secret file
    /// (for the judge), as TOML; refused by a game whose players hold no secret.
    fn draw_secret(_g: &Self::Loaded, _seat: usize, _random: [u8; 32]) -> Result<(String, String)> {
        Err(crate::error::Error::Io(format!(
            "{} has no secret setup: both players start from the position in game.toml",
            Self::TITLE
        )))
    }
    /// What the player does with the secret file of an unsealed game.
    fn secret_hint(_g: &Self::Loaded) -> &'static str {
        "hand it to the judge only, once the record lists every commitment"
    }
    /// A view drawn as text (`chinese`: with Chinese piece names, where the game has them).
    fn text_view(g: &Self::Loaded, view: &Self::View, chinese: bool) -> String;
    /// A view drawn as an SVG picture.
    fn picture(g: &Self::Loaded, view: &Self::View, chinese: bool) -> String;
    /// The replay page of one audience, as one HTML document.
    fn html(dir: &GameDir, g: &Self::Loaded, audience: &str) -> Result<String>;

    /// `move`, for a game that writes some moves its own way (Liubo's self mode).
    fn make_move(dir: &Path, seat: &str, key: &Path, mv: MoveRequest) -> Result<Report> {
        make_move::run::<Self>(dir, seat, key, mv)
    }
    /// The JSON Schemas of the game's own formats (its manifest, its view), as (file name,
    /// JSON text).
    fn schemas() -> Vec<(String, String)> {
        Vec::new()
    }
    /// `precheck`, for a game that checks some moves its own way.
    fn precheck(dir: &Path) -> Result<Report> {
        precheck::run::<Self>(dir)
    }
}

impl<D: Definition> Commands for D {
    fn setup(&self, dir: &Path, seat: &str, key: &Path, _: SetupSource, _: bool) -> Result<Report> {
        setup::run::<D>(dir, seat, key)
    }

    fn make_move(&self, dir: &Path, seat: &str, key: &Path, mv: MoveRequest) -> Result<Report> {
        D::make_move(dir, seat, key, mv)
    }

    fn judge(&self, dir: &Path, key: &Path, run: JudgeRequest) -> Result<Report> {
        judge::run::<D>(dir, key, run)
    }

    fn view(&self, dir: &Path, request: ViewRequest) -> Result<Report> {
        view::run::<D>(dir, request)
    }

    fn status(&self, dir: &Path, json: bool, now: &str) -> Result<Report> {
        status::run::<D>(dir, json, now)
    }

    fn events(&self, _: &Path, _: &str) -> Result<Report> {
        Err(crate::error::Error::Io(format!(
            "events lists Luzhanqi's hidden-information events; a {} view shows every move (qijudge view)",
            D::TITLE
        )))
    }

    fn reveal(&self, dir: &Path, key: Option<&Path>) -> Result<Report> {
        reveal::run::<D>(dir, key)
    }

    fn verify(&self, dir: &Path) -> Result<Report> {
        verify::run::<D>(dir)
    }

    fn precheck(&self, dir: &Path, _key: Option<&Path>) -> Result<Report> {
        D::precheck(dir)
    }

    fn html(&self, dir: &Path, audience: &str, _chinese: bool) -> Result<String> {
        let (d, g) = open::<D>(dir)?;
        D::html(&d, &g, audience)
    }
}

/// The folder and its loaded game.
pub(crate) fn open<D: Definition>(dir: &Path) -> Result<(GameDir, D::Loaded)> {
    let d = GameDir::new(dir);
    let g = D::load(&d)?;
    Ok((d, g))
}

/// The state the signed files give (the judge's view of them, without its key).
pub(crate) fn current<D: Definition>(
    d: &GameDir,
    g: &D::Loaded,
) -> Result<<D::Loaded as Referee>::State> {
    pipeline::current(g, d, Mode::Judge)
}

impl<D: Definition> Game for D {
    fn name(&self) -> &'static str {
        D::NAME
    }

    fn new_game(&self, dir: &Path, new: NewGame) -> Result<Report> {
        super::one_board(D::NAME, new.board)?;
        new::run::<D>(dir, new)
    }

    fn facts(&self, dir: &GameDir) -> Result<GameFacts> {
        let g = D::load(dir)?;
        let f = g.frame();
        Ok(GameFacts {
            hash: f.hash.to_string(),
            seats: f.seats.iter().map(|s| s.to_string()).collect(),
            player_keys: f.player_keys.to_vec(),
            judge_key: f.judge_key.clone(),
            sealed: D::sealed(&g),
            judge_holds_secrets: g.secrets_held().is_some(),
        })
    }

    /// Nothing a seat may not see decides legality in these games (a face-down Jieqi piece
    /// moves as its square), so the record's state answers for every seat.
    fn legal_moves(&self, dir: &Path, seat: &str, _key: Option<&Path>) -> Result<Vec<String>> {
        let (d, g) = open::<D>(dir)?;
        super::seat_index(D::SEATS, seat)?;
        let state = current::<D>(&d, &g)?;
        g.legal_in(&d, &state, seat)
    }

    fn has_secrets(&self) -> bool {
        D::SECRETS
    }

    fn variants(&self) -> &'static [super::Variant] {
        D::VARIANTS
    }

    fn match_rules(&self) -> &'static [&'static str] {
        D::MATCH_RULES
    }

    fn schemas(&self) -> Vec<(String, String)> {
        D::schemas()
    }

    fn seats(&self, board: &str) -> Result<Vec<String>> {
        super::one_board(D::NAME, board)?;
        Ok(D::SEATS.iter().map(|s| s.to_string()).collect())
    }

    fn to_move(&self, dir: &Path) -> Result<Option<String>> {
        let (d, g) = open::<D>(dir)?;
        Ok(g.to_move_in(&current::<D>(&d, &g)?))
    }

    fn seat_view(&self, dir: &Path, seat: &str, _key: Option<&Path>) -> Result<serde_json::Value> {
        let (d, g) = open::<D>(dir)?;
        super::seat_index(D::SEATS, seat)?;
        let state = current::<D>(&d, &g)?;
        g.view_in(&d, &state, seat)
    }

    fn summary(&self, dir: &Path) -> Result<GameSummary> {
        let (d, g) = open::<D>(dir)?;
        let state = pipeline::verify(&g, &d)?;
        super::one_side_each_summary(
            &g.frame(),
            D::players(&g),
            g.end_in(&state),
            g.plies_in(&state),
            g.record(&state),
        )
    }

    fn turn(
        &self,
        dir: &Path,
        _key: &dyn Fn(&str) -> PathBuf,
        wants_view: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Turn>> {
        let (d, g) = open::<D>(dir)?;
        super::match_play::turn(&g, &d, wants_view)
    }

    fn play_match(
        &self,
        dir: &Path,
        play: &MatchPlay,
        next: &mut dyn FnMut(Turn) -> Result<MatchStep>,
    ) -> Result<bool> {
        let (d, g) = open::<D>(dir)?;
        if !D::in_session(&g) {
            return Ok(false);
        }
        super::match_play::play(&g, &d, play, next)?;
        Ok(true)
    }
}
