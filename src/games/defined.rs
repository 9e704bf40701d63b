//! The game definition of a game judged through the shared pipeline (Xiangqi, Jieqi, Liubo):
//! what such a game supplies — its name, seats and match options, how its folder loads, and the
//! commands whose words are its own — and, written once for all of them, the rest of the
//! [`Game`] contract: the facts mail and CI read, seats, whose turn, a seat's legal moves and
//! view, a bot's turn, an in-process match game and the audited summary. The per-state
//! questions (whose turn, legal moves, a seat's view, plies, the end) are the loaded game's
//! [`Answers`], from which its [`SessionGame`] (the judge's in-process session) follows too.

use super::match_play::{MatchPlay, MatchStep, SessionGame};
use super::{Commands, Game, GameFacts, GameSummary, NewGame, Turn};
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

/// What a pipeline game supplies; [`Game`] follows from it.
pub trait Definition: Commands {
    /// The game as loaded from its folder (manifest, keys): its judge.
    type Loaded: Answers;
    /// The manifest's `game` value.
    const NAME: &'static str;
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
    /// Writes a new `game.toml` (the board already checked).
    fn new_game(&self, dir: &Path, new: NewGame) -> Result<()>;
}

/// The folder and its loaded game.
fn open<D: Definition>(dir: &Path) -> Result<(GameDir, D::Loaded)> {
    let d = GameDir::new(dir);
    let g = D::load(&d)?;
    Ok((d, g))
}

/// The state the signed files give (the judge's view of them, without its key).
fn current<D: Definition>(d: &GameDir, g: &D::Loaded) -> Result<<D::Loaded as Referee>::State> {
    pipeline::current(g, d, Mode::Judge)
}

impl<D: Definition> Game for D {
    fn name(&self) -> &'static str {
        D::NAME
    }

    fn new_game(&self, dir: &Path, new: NewGame) -> Result<()> {
        super::one_board(D::NAME, new.board)?;
        Definition::new_game(self, dir, new)
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

/// `reveal` for a pipeline game: once the game is over, each seat's secret the judge held into
/// `reveal/` (opened with `key` in a sealed game), so anyone can check what the judge did with
/// it. A game whose players hold no secret has nothing to reveal.
pub fn reveal<D: Definition>(dir: &Path, key: Option<&Path>) -> Result<Vec<String>> {
    if !D::SECRETS {
        return Err(crate::error::Error::Io(format!(
            "{}: players hold no secret, so there is nothing to reveal",
            D::NAME
        )));
    }
    let key = key.map(crate::console::load_private_key).transpose()?;
    let (d, g) = open::<D>(dir)?;
    let _lock = d.lock()?;
    let state = current::<D>(&d, &g)?;
    let what = g.secrets_held().unwrap_or("secrets");
    if !g.is_over(&state) {
        return Err(crate::error::refuse(
            "record.jsonl",
            None,
            format!("the game is not over: {what} stay secret until the end"),
        ));
    }
    crate::judge::sealing::publish_secrets(&d, &g.frame(), D::sealed(&g), key.as_ref(), what)
}

/// `judge` for a pipeline game: one run of the pipeline with the judge's key, each new record
/// line said, then where the game stands; a refusal is the exit code 1.
pub fn judge<D: Definition>(dir: &Path, key: &Path, run: super::JudgeRequest) -> Result<()> {
    let key = crate::console::load_private_key(key)?;
    let (d, g) = open::<D>(dir)?;
    let done = pipeline::judge(&g, &d, &key, &run.now, run.forfeit)?;
    let last = g.headline(&done.state);
    super::report_run(&done.said, Some(&last), done.refusal)
}
