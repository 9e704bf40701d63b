//! The game definition of a game judged through the shared pipeline (Xiangqi, Jieqi, Liubo):
//! what such a game supplies — its name, seats and options, how its folder loads, its secret,
//! how a typed move is read and checked, how a view is drawn — and, written once for all of
//! them, every command (one per file in this folder) and the rest of the [`Game`] contract: the
//! facts mail and CI read, seats, whose turn, a seat's legal moves and view, a bot's turn, an
//! in-process match game and the audited summary. The per-state questions (whose turn, legal
//! moves, a seat's view, plies, the end, how a move reads) are the loaded game's [`Answers`],
//! from which its [`SessionGame`] (the judge's in-process session) follows too.

mod judge;
pub mod make_move;
mod new;
pub mod precheck;
mod reveal;
mod setup;
mod status;
mod verify;
mod view;

pub use make_move::{check_to_move, check_turn};

use super::match_play::{MatchPlay, MatchStep, SessionGame};
use super::report::Report;
use super::{
    Commands, Game, GameFacts, GameSummary, JudgeRequest, MoveRequest, NewGame, SetupSource, Turn,
    ViewRequest,
};
use crate::bot_view::BotView;
use crate::opening::Opening;
use qijudge_judge::pipeline::{self, Framed, Mode, Recorded, Referee};
use qijudge_protocol::error::{Error, Result};
use qijudge_rules::EndReason;
use qijudge_store::GameDir;

/// The text of a new `game.toml` of a game loaded as a [`qijudge_judge::manifest::Seated`]:
/// `new`'s frame with the rule `options`; `--sealed` is refused by a game with nothing to seal
/// (`title`: its name in the refusal).
pub fn seated_manifest<R>(
    new: &NewGame,
    title: &str,
    id: [u8; 16],
    options: R::Options,
    players: Vec<qijudge_protocol::files::Player>,
) -> Result<String>
where
    R: qijudge_judge::manifest::ManifestRules,
{
    if new.sealed && !R::SEALABLE {
        return Err(Error::Io(format!(
            "--sealed: {title} hides nothing (nothing to seal)"
        )));
    }
    let judge = qijudge_protocol::files::JudgeEntry {
        key: new.judge_key.clone(),
    };
    let (created, clock) = (new.created.clone(), new.clock.clone());
    let manifest = qijudge_judge::manifest::Seated::<R>::new_manifest(
        id, created, new.sample, options, clock, judge, players,
    );
    Ok(qijudge_protocol::files::to_toml(
        &qijudge_protocol::files::GameManifest {
            sealed: new.sealed,
            ..manifest
        },
    ))
}

/// How the greedy bot scores each legal move from a seat's view (JSON).
pub type GreedyScores = fn(&serde_json::Value, &[String]) -> Vec<i32>;
use std::path::{Path, PathBuf};

/// What a loaded pipeline game answers from the judge's state.
pub trait Answers: Referee {
    /// The seat to move (or throw), none once the game is over or before play.
    fn to_move_in(&self, state: &Self::State) -> Option<String>;
    /// A conditional line (see [`Known::line`]) played out on the position, where every seat
    /// sees the whole position; none (the default) where it does not.
    fn line_in(
        &self,
        _state: &Self::State,
        _words: &[String],
    ) -> Option<std::result::Result<Vec<String>, String>> {
        None
    }
    /// The legal moves of `seat`, sorted; refused when it is not that seat's turn.
    fn legal_in(&self, dir: &GameDir, state: &Self::State, seat: &str) -> Result<Vec<String>>;
    /// A seat's own view, as JSON: what a bot playing it is shown.
    fn view_in(&self, dir: &GameDir, state: &Self::State, seat: &str) -> Result<serde_json::Value>;
    /// A seat's own view as a bot reads it (typed where the bot protocol types it).
    fn bot_view_in(&self, dir: &GameDir, state: &Self::State, seat: &str) -> Result<BotView> {
        self.view_in(dir, state, seat).map(BotView::Json)
    }
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
            |seat| self.bot_view_in(dir, state, seat),
        )
    }

    fn next_move(&self, state: &Self::State) -> (u32, String) {
        self.next_move_in(state)
    }

    fn binding(&self) -> (&str, &str) {
        self.binding_of()
    }

    fn final_view(&self, dir: &GameDir, state: &Self::State, seat: &str) -> Result<BotView> {
        self.bot_view_in(dir, state, seat)
    }
}

/// What a player's command reads the game from, and where: the record's state where every seat
/// can replay the record (the default, [`Replayed`]), or what the judge showed each seat where the
/// record alone does not give the position (Luzhanqi: the other setups stay with the judge).
/// `move`, `moves`, `status` and a bot's turn through the commands ask it, never the state.
pub trait Known {
    /// The seat to move (or throw); none before play or once the game is over.
    fn to_move(&self) -> Result<Option<String>>;
    /// The legal moves of `seat` (its private key opens what was sealed to it), sorted; refused
    /// unless it is that seat's turn.
    fn legal(&self, seat: &str, key: Option<&Path>) -> Result<Vec<String>>;
    /// What a bot playing `seat` is shown.
    fn view(&self, seat: &str, key: Option<&Path>) -> Result<BotView>;
    /// A move as `seat` typed it, as the record stores it. With `check`, refused unless the seat
    /// can tell that it is its turn and the move legal; without, only what no judge could read.
    fn action(&self, seat: &str, key: &Path, typed: &str, check: bool) -> Result<String>;
    /// The ply of the next move and the record head it answers.
    fn next_move(&self) -> (u32, String);
    /// What `status` shows: the public fields (as JSON) and its lines.
    fn status(&self) -> Result<(serde_json::Value, Vec<String>)>;
    /// The record as the files give it (for the clock).
    fn record(&self) -> &qijudge_protocol::record::Record;
    /// A conditional line as the seat waiting typed it (the opponent's move first, then its
    /// answer, alternating), each move in the record's spelling, checked move by move on the
    /// position the line reaches; none where the seat cannot follow the line (hidden pieces).
    fn line(&self, _words: &[String]) -> Option<std::result::Result<Vec<String>, String>> {
        None
    }
}

/// What every seat knows in a game whose record gives the position: the replayed state.
pub struct Replayed<'a, G: Answers> {
    pub dir: &'a GameDir,
    pub game: &'a G,
    pub state: G::State,
}

impl<G: Answers> Known for Replayed<'_, G> {
    fn to_move(&self) -> Result<Option<String>> {
        Ok(self.game.to_move_in(&self.state))
    }

    fn line(&self, words: &[String]) -> Option<std::result::Result<Vec<String>, String>> {
        self.game.line_in(&self.state, words)
    }

    fn legal(&self, seat: &str, _: Option<&Path>) -> Result<Vec<String>> {
        self.game.legal_in(self.dir, &self.state, seat)
    }

    fn view(&self, seat: &str, _: Option<&Path>) -> Result<BotView> {
        self.game.bot_view_in(self.dir, &self.state, seat)
    }

    fn action(&self, seat: &str, _: &Path, typed: &str, check: bool) -> Result<String> {
        if !check {
            // Written as typed, for the judge to refuse.
            return Ok(typed.to_string());
        }
        check_turn(self.game, &self.state, seat)?;
        // A move that does not read or is illegal is refused input (exit code 1).
        self.game
            .typed_action(self.dir, &self.state, seat, typed)
            .map_err(|e| match e {
                qijudge_protocol::error::Error::Io(why) => {
                    let why = why.strip_prefix("move: ").unwrap_or(&why).to_string();
                    qijudge_protocol::error::refuse("move", None, why)
                }
                e => e,
            })
    }

    fn next_move(&self) -> (u32, String) {
        self.game.next_move_in(&self.state)
    }

    fn status(&self) -> Result<(serde_json::Value, Vec<String>)> {
        let (fields, first) = self.game.status_of(&self.state);
        let headline = if self.state.record().lines.is_empty() {
            "not opened yet: run the judge".to_string()
        } else {
            self.game.headline(&self.state)
        };
        Ok((fields, vec![first, headline]))
    }

    fn record(&self) -> &qijudge_protocol::record::Record {
        self.state.record()
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
    /// Its name in Chinese (`象棋`), for pages in Chinese.
    const CHINESE_TITLE: &'static str = Self::TITLE;
    /// What a seat's drawn secret is called (`nonce`, `chain seed`), for games with one.
    const SECRET_WORD: &'static str = "secret";
    /// Whether a move may offer a draw.
    const DRAW_OFFERS: bool = true;
    /// Whether a seat may leave conditional answers, where two seats move one move a turn.
    const CONDITIONALS: bool = true;
    /// The seats, in order, of the game's first board.
    const SEATS: &'static [&'static str];
    /// The commented setup file a player fills in (`setup --template`), where seats choose.
    const SETUP_TEMPLATE: Option<&'static str> = None;
    /// Whether a seat chooses its secret (a Luzhanqi setup) rather than drawing it.
    const SETUP_CHOSEN: bool = false;
    /// Audiences besides the seats and `public` whose views `view` shows (Luzhanqi's `full`).
    const MORE_AUDIENCES: &'static [&'static str] = &[];
    /// Options a bot match sets unless told otherwise (`key=value`).
    const MATCH_RULES: &'static [&'static str];
    /// Whether players hold secrets that `reveal` publishes after the end.
    const SECRETS: bool;
    /// The boards and options the contract suite plays it under ([`Game::variants`]).
    const VARIANTS: &'static [super::Variant] = &[("2p", &[])];
    /// Option sets besides [`Self::VARIANTS`] that change how a game ends or how pieces move:
    /// the "every game ends" test plays each ([`Game::rule_sets`]).
    const MORE_RULE_SETS: &'static [super::Variant] = &[];
    /// The `format` of its views (a bot's view names its game by it).
    const VIEW_FORMAT: &'static str;
    /// Its own tools besides the commands every game has, by command name (`perft`, `check`,
    /// `pgn`): each listed one is answered by the hook of that name below.
    const TOOLS: &'static [&'static str] = &[];
    /// The public keys of its shipped samples (`include_str!` of each `.pub`): published
    /// with their private halves, so refused in every game that is not a sample.
    const SAMPLE_KEYS: &'static [&'static str];
    /// Whether a match may adjudicate its engine games by their scores (`--resign`, `--draw`);
    /// every game takes `--max-moves`.
    const ADJUDICATED: bool = false;
    /// Its opening books' format in words, when `match --book` takes them.
    const BOOK_FORMAT: Option<&'static str> = None;

    /// Reads and checks the folder's manifest and keys.
    fn load(dir: &GameDir) -> Result<Self::Loaded>;
    /// The seats of a new game on `board`, in order; a game of one board refuses the others.
    fn seats_on(board: &str) -> Result<Vec<String>> {
        super::one_board(Self::NAME, board)?;
        Ok(Self::SEATS.iter().map(|s| s.to_string()).collect())
    }
    /// What a player's command reads the game from (see [`Known`]): by default the record's
    /// state, which every seat can replay.
    fn known<'a>(dir: &'a GameDir, g: &'a Self::Loaded) -> Result<Box<dyn Known + 'a>> {
        Ok(Box::new(Replayed {
            dir,
            game: g,
            state: current::<Self>(dir, g)?,
        }))
    }
    /// The text of an audience's signed view (`views/AUDIENCE.json`), checked; `key` opens a
    /// view sealed to its seat, where a game seals them.
    fn view_text(
        dir: &GameDir,
        g: &Self::Loaded,
        audience: &str,
        _key: Option<&Path>,
    ) -> Result<String> {
        qijudge_judge::published::signed_view_text(dir, &g.frame(), audience)
    }
    /// A chosen secret (see [`Definition::SETUP_CHOSEN`]) read from `source` for seat `seat`:
    /// the commitment file (public) and the secret file (for the judge) as TOML, and what to
    /// tell the player first.
    fn chosen_secret(
        _dir: &GameDir,
        _g: &Self::Loaded,
        _seat: usize,
        _source: super::SetupSource,
    ) -> Result<(String, String, Vec<super::report::Out>)> {
        Err(qijudge_protocol::error::Error::Io(format!(
            "{}: a seat draws its secret, it does not choose one",
            Self::TITLE
        )))
    }
    /// The events one audience may see, as JSON lines, for a game that has an event stream.
    fn events(_dir: &GameDir, _g: &Self::Loaded, _audience: &str) -> Result<Report> {
        Err(qijudge_protocol::error::Error::Io(format!(
            "events lists the events of games that hide what a move did; a {} view shows every move (qijudge view)",
            Self::TITLE
        )))
    }
    /// The audit of `verify` (and of a match's result): the state the files give, every
    /// published file checked.
    fn verified(dir: &GameDir, g: &Self::Loaded) -> Result<<Self::Loaded as Referee>::State> {
        pipeline::verify(g, dir)
    }
    /// After the end (`record`: the record, already read): the secrets the judge held into
    /// `reveal/`, and what was written.
    fn reveal(
        dir: &GameDir,
        g: &Self::Loaded,
        _record: &qijudge_protocol::record::Record,
        key: Option<&ssh_key::PrivateKey>,
        what: &str,
    ) -> Result<Vec<String>> {
        qijudge_judge::sealing::publish_secrets(dir, &g.frame(), Self::sealed(g), key, what)
    }
    /// The sides of a finished game, each the seats that win or lose together: one seat each
    /// unless a board has teams.
    fn sides(g: &Self::Loaded) -> Vec<Vec<String>> {
        g.frame()
            .seats
            .iter()
            .map(|s| vec![s.to_string()])
            .collect()
    }
    /// Whether the manifest says the game is played sealed.
    fn sealed(g: &Self::Loaded) -> bool {
        g.sealed()
    }
    /// The manifest's players, in seat order.
    fn players(g: &Self::Loaded) -> &[qijudge_protocol::files::Player] {
        g.players()
    }
    /// Whether a match plays this game in one process (else through the commands).
    fn in_session(_g: &Self::Loaded) -> bool {
        true
    }
    /// The text of a new `game.toml` from `new` (the board already checked), with the id made
    /// from `id` and the players in seat order.
    fn manifest(
        new: &NewGame,
        id: [u8; 16],
        players: Vec<qijudge_protocol::files::Player>,
    ) -> Result<String>;
    /// A seat's secret drawn from `random`: the commitment file (public) and the secret file
    /// (for the judge), as TOML; refused by a game whose players hold no secret.
    fn draw_secret(_g: &Self::Loaded, _seat: usize, _random: [u8; 32]) -> Result<(String, String)> {
        Err(qijudge_protocol::error::Error::Io(format!(
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
    /// The replay page of one audience, as one HTML document (`chinese`: Chinese piece names,
    /// where the page draws pieces by name).
    fn html(dir: &GameDir, g: &Self::Loaded, audience: &str, chinese: bool) -> Result<String>;

    /// `move`, for a game that writes some moves its own way (Liubo's self mode).
    fn make_move(dir: &Path, seat: &str, key: &Path, mv: MoveRequest) -> Result<Report> {
        make_move::run::<Self>(dir, seat, key, mv)
    }
    /// The JSON Schemas of the game's own formats (its manifest, its view), as (file name,
    /// JSON text).
    fn schemas() -> Vec<(String, String)> {
        Vec::new()
    }
    /// `precheck`, for a game that checks some moves its own way (`key`: the judge's, where
    /// the game's moves are checked against what only the judge holds).
    /// Runs the rules contract's conformance suite (`games/conformance.rs`) on the rules of
    /// each option set the game is played under, with a limit that ends every random playout.
    fn conform();
    /// The openings of a book, read as `kind` says, each checked against the rules.
    fn book_openings(
        _text: &str,
        _board: &str,
        shown: &str,
        _kind: crate::opening::BookText,
    ) -> Result<Vec<Opening>> {
        Err(Error::Io(format!(
            "--book {shown}: {} has no opening books",
            Self::NAME
        )))
    }

    /// A random legal setup for a bot's setup request (see [`Game::random_setup`]).
    fn random_setup(
        _board: &str,
        _seat: &str,
        _rng: &mut qijudge_rules::random::SplitMix64,
    ) -> Result<std::collections::BTreeMap<String, String>> {
        Err(Error::Io(format!("{} seats choose no setup", Self::TITLE)))
    }

    /// The rule options of a bot's setup request (see [`Game::setup_rules`]).
    fn setup_rules(_rules: &[String]) -> Result<serde_json::Value> {
        Ok(serde_json::Value::Null)
    }

    /// `moves GAME FILE`: the sorted legal moves of a position file at `path` whose text is
    /// `text` (when `TOOLS` lists `position`).
    fn position_moves(_path: &Path, _text: &str) -> Result<Vec<String>> {
        Err(super::no_tool(Self::NAME, "position"))
    }

    /// `perft`: counts the leaves of the legal-move tree (when `TOOLS` lists it).
    fn perft(_depth: u32, _start: Option<String>, _divide: bool) -> Result<()> {
        Err(super::no_tool(Self::NAME, "perft"))
    }

    /// `check`: checks recorded games move by move (when `TOOLS` lists it).
    fn check_records(_files: &[std::path::PathBuf], _json: bool, _move_limit: bool) -> Result<()> {
        Err(super::no_tool(Self::NAME, "check"))
    }

    /// `pgn`: a judged game folder as PGN in `notation` (when `TOOLS` lists it).
    fn pgn(_dir: &Path, _notation: &str) -> Result<String> {
        Err(super::no_tool(Self::NAME, "pgn"))
    }

    /// The greedy built-in bot's score of each legal move, from the seat's view as JSON
    /// (higher is better; the bot breaks ties at random); none: no move is preferred.
    const GREEDY: Option<GreedyScores> = None;

    /// A conditional line's move in the record's spelling, without a position (see
    /// [`Game::spell_move`]).
    fn spell_move(_lower: &str) -> std::result::Result<String, String> {
        Err("this game reads no move without its position".into())
    }

    /// Whether a seat's secret file opens its signed commitment (see [`Game::secret_opens`]);
    /// a game without secrets has none to open.
    fn secret_opens(
        _seat: usize,
        _name: &str,
        _secret: &str,
        _commitment: &str,
    ) -> std::result::Result<bool, &'static str> {
        Ok(false)
    }

    /// The engine protocols of its engines, with what they play (`--bot PROTOCOL:COMMAND`).
    const ENGINE_PROTOCOLS: &'static [(&'static str, &'static str)] = &[];

    /// `process` as an engine speaking `protocol` on `board` (see [`Game::engine`]).
    fn engine(
        _protocol: &str,
        _board: &str,
        _process: qijudge_engine::ProcessBot,
        _time: std::time::Duration,
        _settings: qijudge_engine::EngineSettings,
    ) -> Option<Box<dyn qijudge_engine::Engine>> {
        None
    }

    /// The greedy bot's scores from the seat's view, by [`Self::GREEDY`].
    fn greedy_scores(view: &BotView, legal: &[String]) -> Vec<i32> {
        match (view, Self::GREEDY) {
            (BotView::Json(v), Some(scores)) => scores(v, legal),
            _ => vec![0; legal.len()],
        }
    }

    fn precheck(dir: &Path, _key: Option<&Path>) -> Result<Report> {
        precheck::run::<Self>(dir)
    }
}

impl<D: Definition> Commands for D {
    fn setup(
        &self,
        dir: &Path,
        seat: &str,
        key: &Path,
        source: SetupSource,
        seal: bool,
    ) -> Result<Report> {
        setup::run::<D>(dir, seat, key, source, seal)
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

    fn events(&self, dir: &Path, audience: &str) -> Result<Report> {
        let (d, g) = open::<D>(dir)?;
        D::events(&d, &g, audience)
    }

    fn reveal(&self, dir: &Path, key: Option<&Path>) -> Result<Report> {
        reveal::run::<D>(dir, key)
    }

    fn verify(&self, dir: &Path) -> Result<Report> {
        verify::run::<D>(dir)
    }

    fn precheck(&self, dir: &Path, key: Option<&Path>) -> Result<Report> {
        D::precheck(dir, key)
    }

    fn html(&self, dir: &Path, audience: &str, chinese: bool) -> Result<String> {
        let (d, g) = open::<D>(dir)?;
        D::html(&d, &g, audience, chinese)
    }
}

/// The move file of the seat to move for the next ply, when it is written (committed, or
/// mailed into this copy) but not judged yet: `(path, seat, ply)`. A copy that has it is one
/// judge run behind, not waiting for that seat.
pub fn written_not_judged(d: &GameDir, known: &dyn Known) -> Option<(String, String, u32)> {
    let seat = known.to_move().ok().flatten()?;
    let (ply, _) = known.next_move();
    let path = qijudge_judge::frame::move_path(ply, &seat);
    d.path(&path).is_file().then_some((path, seat, ply))
}

/// The folder and its loaded game.
pub fn open<D: Definition>(dir: &Path) -> Result<(GameDir, D::Loaded)> {
    let d = GameDir::new(dir);
    let g = D::load(&d)?;
    Ok((d, g))
}

/// A finished game's summary from its replayed state.
fn summary_in<D: Definition>(
    g: &D::Loaded,
    state: &<D::Loaded as Referee>::State,
) -> Result<GameSummary> {
    super::summary_of(
        D::NAME,
        &g.frame(),
        D::players(g),
        g.end_in(state),
        g.plies_in(state),
        state.record(),
        D::sides(g),
    )
}

/// The state the signed files give (the judge's view of them, without its key).
pub fn current<D: Definition>(d: &GameDir, g: &D::Loaded) -> Result<<D::Loaded as Referee>::State> {
    pipeline::current(g, d, Mode::Judge)
}

impl<D: Definition> Game for D {
    fn name(&self) -> &'static str {
        D::NAME
    }

    fn new_game(&self, dir: &Path, new: NewGame) -> Result<Report> {
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

    fn conditional_line(
        &self,
        dir: &Path,
        words: &[String],
    ) -> Result<Option<std::result::Result<Vec<String>, String>>> {
        let (d, g) = open::<D>(dir)?;
        let known = D::known(&d, &g)?;
        Ok(known.line(words))
    }

    fn legal_moves(&self, dir: &Path, seat: &str, key: Option<&Path>) -> Result<Vec<String>> {
        let (d, g) = open::<D>(dir)?;
        super::seat_index(g.frame().seats, seat)?;
        let known = D::known(&d, &g)?;
        known.legal(seat, key)
    }

    fn setup_is_chosen(&self) -> bool {
        D::SETUP_CHOSEN
    }

    fn draw_offers(&self) -> bool {
        D::DRAW_OFFERS
    }

    fn setup_template(&self) -> Option<&'static str> {
        D::SETUP_TEMPLATE
    }

    fn title(&self) -> &'static str {
        D::TITLE
    }

    fn chinese_title(&self) -> &'static str {
        D::CHINESE_TITLE
    }

    fn adjudicated(&self) -> bool {
        D::ADJUDICATED
    }

    fn sample_keys(&self) -> &'static [&'static str] {
        D::SAMPLE_KEYS
    }

    fn has_secrets(&self) -> bool {
        D::SECRETS
    }

    fn variants(&self) -> &'static [super::Variant] {
        D::VARIANTS
    }

    fn rule_sets(&self) -> Vec<super::Variant> {
        D::VARIANTS
            .iter()
            .chain(D::MORE_RULE_SETS)
            .copied()
            .collect()
    }

    fn match_rules(&self) -> &'static [&'static str] {
        D::MATCH_RULES
    }

    fn schemas(&self) -> Vec<(String, String)> {
        D::schemas()
    }

    fn view_format(&self) -> &'static str {
        D::VIEW_FORMAT
    }

    fn tools(&self) -> &'static [&'static str] {
        D::TOOLS
    }

    fn takes_conditionals(&self, seats: usize) -> bool {
        seats == 2 && D::CONDITIONALS
    }

    fn engine_protocols(&self) -> &'static [(&'static str, &'static str)] {
        D::ENGINE_PROTOCOLS
    }

    fn spell_move(&self, lower: &str) -> std::result::Result<String, String> {
        D::spell_move(lower)
    }

    fn secret_opens(
        &self,
        seat: usize,
        name: &str,
        secret: &str,
        commitment: &str,
    ) -> std::result::Result<bool, &'static str> {
        D::secret_opens(seat, name, secret, commitment)
    }

    fn engine(
        &self,
        protocol: &str,
        board: &str,
        process: qijudge_engine::ProcessBot,
        time: std::time::Duration,
        settings: qijudge_engine::EngineSettings,
    ) -> Option<Box<dyn qijudge_engine::Engine>> {
        D::engine(protocol, board, process, time, settings)
    }

    fn book_format(&self) -> Option<&'static str> {
        D::BOOK_FORMAT
    }

    fn book_openings(
        &self,
        text: &str,
        board: &str,
        shown: &str,
        kind: crate::opening::BookText,
    ) -> Result<Vec<Opening>> {
        D::book_openings(text, board, shown, kind)
    }

    fn random_setup(
        &self,
        board: &str,
        seat: &str,
        rng: &mut qijudge_rules::random::SplitMix64,
    ) -> Result<std::collections::BTreeMap<String, String>> {
        D::random_setup(board, seat, rng)
    }

    fn setup_rules(&self, rules: &[String]) -> Result<serde_json::Value> {
        D::setup_rules(rules)
    }

    fn position_moves(&self, path: &Path, text: &str) -> Result<Vec<String>> {
        D::position_moves(path, text)
    }

    fn perft(&self, depth: u32, start: Option<String>, divide: bool) -> Result<()> {
        D::perft(depth, start, divide)
    }

    fn check_records(
        &self,
        files: &[std::path::PathBuf],
        json: bool,
        move_limit: bool,
    ) -> Result<()> {
        D::check_records(files, json, move_limit)
    }

    fn pgn(&self, dir: &Path, notation: &str) -> Result<String> {
        D::pgn(dir, notation)
    }

    fn greedy_scores(&self, view: &BotView, legal: &[String]) -> Vec<i32> {
        D::greedy_scores(view, legal)
    }
    fn conform(&self) {
        D::conform()
    }

    fn seats(&self, board: &str) -> Result<Vec<String>> {
        D::seats_on(board)
    }

    fn audiences(&self, dir: &Path) -> Result<Vec<String>> {
        let (_, g) = open::<D>(dir)?;
        let seats = g.frame().seats.iter().copied();
        Ok(seats
            .chain(view::others::<D>())
            .map(str::to_string)
            .collect())
    }

    fn to_move(&self, dir: &Path) -> Result<Option<String>> {
        let (d, g) = open::<D>(dir)?;
        let known = D::known(&d, &g)?;
        known.to_move()
    }

    fn seat_view(&self, dir: &Path, seat: &str, key: Option<&Path>) -> Result<serde_json::Value> {
        let (d, g) = open::<D>(dir)?;
        super::seat_index(g.frame().seats, seat)?;
        let known = D::known(&d, &g)?;
        let view = known.view(seat, key)?;
        view.into_value().map_err(|e| Error::Io(e.to_string()))
    }

    fn summary(&self, dir: &Path) -> Result<GameSummary> {
        let (d, g) = open::<D>(dir)?;
        let state = D::verified(&d, &g)?;
        summary_in::<D>(&g, &state)
    }

    fn summary_trusting_record(&self, dir: &Path) -> Result<GameSummary> {
        let (d, g) = open::<D>(dir)?;
        let state = pipeline::trust_record(&g, &d)?;
        summary_in::<D>(&g, &state)
    }

    /// What a player's command would read (see [`Known`]), read once for the turn.
    fn turn(
        &self,
        dir: &Path,
        key: &dyn Fn(&str) -> PathBuf,
        wants_view: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Turn>> {
        let (d, g) = open::<D>(dir)?;
        let known = D::known(&d, &g)?;
        super::turn_from(
            known.to_move()?,
            wants_view,
            |seat| known.legal(seat, Some(&key(seat))),
            |seat| known.view(seat, Some(&key(seat))),
        )
    }

    fn play_match(
        &self,
        dir: &Path,
        play: &MatchPlay,
        next: &mut dyn FnMut(Turn) -> Result<MatchStep>,
    ) -> Result<Option<Vec<(String, BotView)>>> {
        let (d, g) = open::<D>(dir)?;
        if !D::in_session(&g) {
            return Ok(None);
        }
        super::match_play::play(&g, &d, play, next).map(Some)
    }
}
