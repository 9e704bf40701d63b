//! What a game gives the judge and the transports: every game behind one contract. The command
//! line, mail, CI and precheck never ask which game a folder holds: they ask the registry
//! (`qijudge-registry`) for the folder's [`Game`] and call it. Names no game.
//!
//! The contracts, one per layer:
//! - [`Commands`] (this file): the commands whose words are a game's own — take a setup or a
//!   move, judge, show a view, report its status and events, reveal, verify, precheck.
//! - [`Game`] (this file): `Commands` and what mail, CI, `match` and `tournament` ask of any
//!   game — make one, its facts and seats, a seat's legal moves and view, a bot's turn, a match
//!   game in one process, the audited result. A game judged through the shared pipeline gets it
//!   from its [`defined::Definition`].
//! - `qijudge_rules::contract::Rules`: the rules every game implements over its judge's own state (seats, whose
//!   turn, legal actions, apply, chance, what a seat may see — the view the judge publishes —
//!   and the outcome), in the manner of OpenSpiel's `State`. The conformance suite runs every
//!   registered game on it.
//!
//! Adding a game: a rules crate (`crates/NAME-rules`, pure), a game crate (`crates/NAME`: the
//! rules' `Rules` binding, its referee, its view, its `Definition`) and one line in the
//! registry's `GAMES`; see `docs/games.md` and `docs/architecture.md`.

#[macro_use]
pub mod console;
pub use qijudge_engine::bot_view;
pub mod defined;
pub mod match_play;
pub mod opening;
pub mod player;
pub mod report;

use bot_view::BotView;
use qijudge_protocol::error::{Error, Result};
use qijudge_protocol::files::{Clock, Player};
use qijudge_store::GameDir;
use rand_core::{OsRng, RngCore};
use ssh_key::PublicKey;
use std::path::{Path, PathBuf};

/// What `new` was told: the players (name, public key line, address), the judge's key line and
/// the options, in the organiser's words.
/// The `--rule key=value` items as (key, value) pairs, refusing an item without `=`.
pub fn rule_pairs(items: &[String]) -> Result<Vec<(&str, &str)>> {
    items
        .iter()
        .map(|item| {
            item.split_once('=')
                .ok_or_else(|| Error::Io(format!("--rule {item:?}: expected key=value")))
        })
        .collect()
}

/// A `--rule` switch's value: `on` or `off` (`true`, `false`).
pub fn on_off(key: &str, value: &str) -> Result<bool> {
    match value {
        "on" | "true" => Ok(true),
        "off" | "false" => Ok(false),
        _ => Err(Error::Io(format!("--rule {key}: on or off"))),
    }
}

pub struct NewGame<'a> {
    /// Name, public key line, e-mail address, and whether the player reads a daily digest.
    pub players: Vec<(String, String, Option<String>, bool)>,
    pub judge_key: String,
    pub rules: &'a [String],
    pub created: String,
    pub sample: bool,
    pub clock: Option<Clock>,
    pub sealed: bool,
    /// The board named by `--board` (`2p` unless given).
    pub board: &'a str,
}

/// What `view` was asked for.
/// Where a chosen setup comes from.
#[derive(Clone, Copy, Debug)]
pub enum SetupSource<'a> {
    /// Nothing given (games whose setup is drawn, not chosen, need nothing).
    None,
    /// A setup file; `-` for standard input.
    File(&'a Path),
    /// A random legal setup: from the system's random source, or from a seed (reproducible,
    /// so only for tests and bots: anyone who guesses the seed can rebuild the setup).
    Random(Option<u64>),
}

pub struct ViewRequest<'a> {
    pub audience: &'a str,
    /// `text`, `json`, `svg` (and `png` where a game draws it).
    pub format: &'a str,
    pub chinese: bool,
    /// A seat's private key, to open a view sealed to it.
    pub key: Option<&'a Path>,
}

/// A board and rule options (`key=value`), as `--board` and `--rule` take them.
pub type Variant = (&'static str, &'static [&'static str]);

/// What every game's manifest says about who plays: enough for mail, CI and precheck.
pub struct GameFacts {
    /// SHA-256 of the manifest: the record's genesis.
    pub hash: String,
    pub seats: Vec<String>,
    pub player_keys: Vec<PublicKey>,
    pub judge_key: PublicKey,
    pub sealed: bool,
    /// Whether the judge holds secrets of this game's players (setups, nonces, escrowed seeds)
    /// that `reveal` publishes after the end; not in a game without secrets, nor in Liubo's
    /// self mode, where each player reveals its own.
    pub judge_holds_secrets: bool,
}

/// The commands whose words are a game's own. Each method is one subcommand and returns what
/// the user should read as a [`report::Report`] (the command line prints it): a refusal is
/// `Err` (exit code 1), or the report's refusal after what was done; an I/O error is exit 2.
pub trait Commands: Sync {
    /// A seat's secret before play: a Luzhanqi setup, a Jieqi nonce, a Liubo chain seed.
    fn setup(
        &self,
        dir: &Path,
        seat: &str,
        key: &Path,
        setup: SetupSource,
        seal: bool,
    ) -> Result<report::Report>;
    /// Writes and signs a move, after checking what the player can know: the turn, the ply and
    /// the move's legality on the player's own view.
    fn make_move(
        &self,
        dir: &Path,
        seat: &str,
        key: &Path,
        mv: MoveRequest,
    ) -> Result<report::Report>;
    /// Judges every new file and writes the signed record and views.
    fn judge(&self, dir: &Path, key: &Path, run: JudgeRequest) -> Result<report::Report>;
    fn view(&self, dir: &Path, request: ViewRequest) -> Result<report::Report>;
    fn status(&self, dir: &Path, json: bool, now: &str) -> Result<report::Report>;
    /// The events one audience may see, as JSON lines.
    fn events(&self, dir: &Path, audience: &str) -> Result<report::Report>;
    /// After the end: the secrets into `reveal/`, and what was written.
    fn reveal(&self, dir: &Path, key: Option<&Path>) -> Result<report::Report>;
    /// The third party's audit, and what it checked.
    fn verify(&self, dir: &Path) -> Result<report::Report>;
    /// Checks move files beyond the record without the judge's key; one line per file.
    fn precheck(&self, dir: &Path, key: Option<&Path>) -> Result<report::Report>;
    /// The replay page of one audience (`qijudge html`), as one self-contained HTML document.
    fn html(&self, dir: &Path, audience: &str, chinese: bool) -> Result<String>;
}

/// A game over a game directory: its [`Commands`], and what mail, CI, `match` and `tournament`
/// ask of any game. Games judged through the shared pipeline get all but the commands from
/// their [`defined::Definition`].
pub trait Game: Commands {
    /// The manifest's `game` value.
    fn name(&self) -> &'static str;
    /// Writes a new `game.toml`.
    fn new_game(&self, dir: &Path, new: NewGame) -> Result<report::Report>;
    /// The manifest's seats, keys and sealing, read and checked once.
    fn facts(&self, dir: &GameDir) -> Result<GameFacts>;
    /// The legal moves of `seat`, from what that seat's own view shows, sorted.
    fn legal_moves(&self, dir: &Path, seat: &str, key: Option<&Path>) -> Result<Vec<String>>;
    /// A conditional line typed by the seat waiting (the opponent's move first, alternating),
    /// read in any notation `move` reads and played out move by move where the seat sees the
    /// whole position: each move in the record's spelling, or why one cannot be played. None
    /// where the seat cannot follow the line on what it sees.
    fn conditional_line(
        &self,
        _dir: &Path,
        _words: &[String],
    ) -> Result<Option<std::result::Result<Vec<String>, String>>> {
        Ok(None)
    }
    /// A move of a conditional line as the record writes it, read from `lower` (the typed
    /// move, lower case, dashes as `-`) without a position; `Err(why)` when it is none.
    fn spell_move(&self, lower: &str) -> std::result::Result<String, String>;
    /// Whether players hold secrets that `reveal` publishes after the end.
    fn has_secrets(&self) -> bool;
    /// Whether `secret` (a file's text, as a seat sent it) opens seat `seat` (`name`)'s signed
    /// `commitment`; `Err(why)` when it is not such a file at all.
    fn secret_opens(
        &self,
        seat: usize,
        name: &str,
        secret: &str,
        commitment: &str,
    ) -> std::result::Result<bool, &'static str>;
    /// Whether a seat chooses its secret (a Luzhanqi setup file) rather than drawing it (a
    /// Liubo chain seed).
    fn setup_is_chosen(&self) -> bool {
        false
    }
    /// The public keys of its shipped samples, which no other game may use.
    fn sample_keys(&self) -> &'static [&'static str];
    /// The game's name in a sentence (`Xiangqi`).
    fn title(&self) -> &'static str;
    /// Its name in Chinese (`象棋`).
    fn chinese_title(&self) -> &'static str;
    /// Whether a match may adjudicate its engine games by their scores (`--resign`, `--draw`);
    /// every game takes the maximum length (`--max-moves`).
    fn adjudicated(&self) -> bool;
    /// The commented setup file a player fills in, for a game whose seats choose a setup.
    fn setup_template(&self) -> Option<&'static str>;
    /// Whether a move may offer a draw (Liubo's may not).
    fn draw_offers(&self) -> bool;
    /// The boards and rule options the contract suite plays the game under, each a board and
    /// `key=value` options: every board, and every option that changes who sees what.
    fn variants(&self) -> &'static [Variant] {
        &[("2p", &[])]
    }
    /// Every board and option set that changes how pieces move or how a game ends: the
    /// variants, and the option sets that turn the game's own limits off.
    fn rule_sets(&self) -> Vec<Variant> {
        self.variants().to_vec()
    }
    /// Options a bot match sets unless told otherwise, so that games between random bots end
    /// by rule (`key=value`, as `--rule` takes them).
    fn match_rules(&self) -> &'static [&'static str];
    /// The JSON Schemas of the game's own file formats, as (file name, JSON text), for
    /// `schemas/` (games added through the definition list theirs here).
    fn schemas(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The seats of a new game on `board`, in order.
    /// The `format` of its views.
    fn view_format(&self) -> &'static str;
    /// Its own tools (`perft`, `check`, `pgn`), answered by the methods of those names.
    fn tools(&self) -> &'static [&'static str];
    /// Whether a seat of a game with `seats` seats may leave conditional answers.
    fn takes_conditionals(&self, seats: usize) -> bool;
    /// Its opening books' format in words, when it takes books (`match --book`).
    fn book_format(&self) -> Option<&'static str>;
    /// The checked openings of a book's text.
    fn book_openings(
        &self,
        text: &str,
        board: &str,
        shown: &str,
        kind: crate::opening::BookText,
    ) -> Result<Vec<crate::opening::Opening>>;
    /// A random legal setup of `seat` on `board` drawn from `rng`, as a bot answers a setup
    /// request (square: piece); refused by a game whose seats choose no setup.
    fn random_setup(
        &self,
        board: &str,
        seat: &str,
        rng: &mut qijudge_rules::random::SplitMix64,
    ) -> Result<std::collections::BTreeMap<String, String>>;
    /// The rule options a bot's setup request carries, from the match's `--rule` items (the
    /// game's own JSON; null for a game whose seats choose no setup).
    fn setup_rules(&self, rules: &[String]) -> Result<serde_json::Value>;
    /// The sorted legal moves of a position file (`moves GAME FILE`).
    fn position_moves(&self, path: &Path, text: &str) -> Result<Vec<String>>;
    fn perft(&self, depth: u32, start: Option<String>, divide: bool) -> Result<()>;
    fn check_records(&self, files: &[PathBuf], json: bool, move_limit: bool) -> Result<()>;
    fn pgn(&self, dir: &Path, notation: &str) -> Result<String>;
    /// The greedy built-in bot's score of each legal move from a seat's view.
    fn greedy_scores(&self, view: &BotView, legal: &[String]) -> Vec<i32>;
    /// The engine protocols its engines speak (`--bot PROTOCOL:COMMAND`), each with what such
    /// an engine plays, in words (`xiangqi`, `two-player luzhanqi`).
    fn engine_protocols(&self) -> &'static [(&'static str, &'static str)];
    /// `process` as an engine speaking `protocol`, playing on `board` with `time` per answer
    /// and the match's `settings` for it; none where the game has no such engines there.
    fn engine(
        &self,
        protocol: &str,
        board: &str,
        process: qijudge_engine::ProcessBot,
        time: std::time::Duration,
        settings: qijudge_engine::EngineSettings,
    ) -> Option<Box<dyn qijudge_engine::Engine>>;
    /// Runs the rules contract's conformance suite on every option set of the game.
    fn conform(&self);
    fn seats(&self, board: &str) -> Result<Vec<String>>;
    /// Every audience the game in `dir` publishes a view for: its seats, `public`, and any
    /// more the game has (Luzhanqi's `full`).
    fn audiences(&self, dir: &Path) -> Result<Vec<String>>;
    /// The seat to move (or throw), none once the game is over or before play.
    fn to_move(&self, dir: &Path) -> Result<Option<String>>;
    /// A seat's own view as JSON: what a bot playing that seat is shown.
    fn seat_view(&self, dir: &Path, seat: &str, key: Option<&Path>) -> Result<serde_json::Value>;
    /// The result of a finished game, after the full audit (`verify`) passed. Prints nothing
    /// (`tournament` and `match` call it for every game).
    fn summary(&self, dir: &Path) -> Result<GameSummary>;
    /// [`Game::summary`] trusting the judge's signed record for the players' signatures and
    /// checking no view: the judge's signature, the hash chain, the rules' replay (see
    /// `pipeline::trust_record`). For standings under a judge the reader pins by key.
    fn summary_trusting_record(&self, dir: &Path) -> Result<GameSummary>;
    /// Plays a bot match game from where it stands to its end in this process, asking `next`
    /// at every turn, and writes the signed outputs once at the end; gives each seat's final
    /// view where `wants_view` asks for it (what the bots are told at the end). None (and
    /// nothing done) for a game without such a session, which the runner then plays through
    /// the commands.
    fn play_match(
        &self,
        _dir: &Path,
        _play: &match_play::MatchPlay,
        _next: &mut dyn FnMut(Turn) -> Result<match_play::MatchStep>,
    ) -> Result<Option<Vec<(String, BotView)>>> {
        Ok(None)
    }
    /// What a bot is shown at its turn: the seat to move, its legal moves and, when `wants_view`
    /// says so for that seat, its view (`key` gives a seat's private key file); none once the
    /// game is over or before play. The same as [`Game::to_move`], [`Game::legal_moves`] and
    /// [`Game::seat_view`], which replay the record each: a game overrides it to replay once.
    fn turn(
        &self,
        dir: &Path,
        key: &dyn Fn(&str) -> PathBuf,
        wants_view: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Turn>> {
        turn_from(
            self.to_move(dir)?,
            wants_view,
            |seat| self.legal_moves(dir, seat, Some(&key(seat))),
            |seat| {
                Ok(BotView::Json(self.seat_view(
                    dir,
                    seat,
                    Some(&key(seat)),
                )?))
            },
        )
    }
}

/// A turn from the seat to move (none: no turn), its legal moves and, when wanted, its view.
pub fn turn_from(
    seat: Option<String>,
    wants_view: &dyn Fn(&str) -> bool,
    legal: impl FnOnce(&str) -> Result<Vec<String>>,
    view: impl FnOnce(&str) -> Result<BotView>,
) -> Result<Option<Turn>> {
    let Some(seat) = seat else {
        return Ok(None);
    };
    let legal = legal(&seat)?;
    let view = match wants_view(&seat) {
        true => Some(view(&seat)?),
        false => None,
    };
    Ok(Some(Turn { seat, legal, view }))
}

/// Moves in their notation, sorted (the order bots and `moves` are given them in).
pub fn sorted_moves<M: std::fmt::Display>(moves: impl IntoIterator<Item = M>) -> Vec<String> {
    let mut names: Vec<String> = moves.into_iter().map(|m| m.to_string()).collect();
    names.sort();
    names
}

/// A seat's turn as a bot sees it (see [`Game::turn`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub seat: String,
    /// Sorted, as [`Game::legal_moves`] gives them.
    pub legal: Vec<String>,
    /// Typed for a Luzhanqi view, which an in-process bot then reads as it is.
    pub view: Option<BotView>,
}

/// A finished, audited game's result.
pub struct GameSummary {
    pub id: String,
    /// The game's kind, whose games are counted together: its name (`xiangqi`), with the
    /// number of seats where there are more than two (`luzhanqi, 4 seats`).
    pub kind: String,
    /// (seat, player name) in seat order.
    pub players: Vec<(String, String)>,
    /// The winning seat (on a board with teams, the first seat of the winning team); none for
    /// a draw.
    pub winner: Option<String>,
    pub reason: String,
    pub plies: usize,
    /// The sides, each a list of seats that win or lose together: one seat each, but for
    /// the teams of the four-player board.
    pub sides: Vec<Vec<String>>,
    /// The manifest's judge key line: the key the record and views were verified with.
    pub judge: String,
}

/// The summary of an audited game from its frame, players, recorded end, length and sides;
/// refused while the game goes on.
fn summary_of(
    name: &str,
    frame: &qijudge_judge::Frame,
    players: &[Player],
    end: Option<(Option<String>, qijudge_rules::EndReason)>,
    plies: usize,
    record: &qijudge_protocol::record::Record,
    sides: Vec<Vec<String>>,
) -> Result<GameSummary> {
    let Some((winner, reason)) = end else {
        return Err(qijudge_protocol::error::refuse(
            "record.jsonl",
            None,
            "the game is not over",
        ));
    };
    let kind = match frame.seats.len() {
        2 => name.to_string(),
        n => format!("{name}, {n} seats"),
    };
    Ok(GameSummary {
        id: frame.id.to_string(),
        kind,
        judge: qijudge_protocol::signing::public_key_line(frame.judge_key),
        players: players
            .iter()
            .map(|p| (p.seat.clone(), p.name.clone()))
            .collect(),
        winner,
        reason: ending_text(reason, forfeit_code(record).as_deref()),
        plies,
        sides,
    })
}

/// The reason code of the record's last forfeit (`bot-crashed`, `missed-deadline`) or
/// adjudication (`score-resign`), if any.
pub fn forfeit_code(record: &qijudge_protocol::record::Record) -> Option<String> {
    record.lines.iter().rev().find_map(|l| match &l.entry {
        qijudge_protocol::files::Entry::Forfeit { reason, .. }
        | qijudge_protocol::files::Entry::Adjudicated { reason, .. } => Some(reason.clone()),
        _ => None,
    })
}

/// An ending in words for standings: `checkmate`, and for a forfeit its cause, `forfeit
/// (bot-crashed)`.
pub fn ending_text(reason: qijudge_rules::EndReason, forfeit: Option<&str>) -> String {
    let text = qijudge_judge::reason_text(reason);
    match (reason, forfeit) {
        (
            qijudge_rules::EndReason::Forfeit | qijudge_rules::EndReason::Adjudication,
            Some(code),
        ) => {
            format!("{text} ({code})")
        }
        _ => text,
    }
}

pub fn to_json<T: serde::Serialize>(value: &T) -> Result<serde_json::Value> {
    serde_json::to_value(value).map_err(|e| Error::Io(e.to_string()))
}

/// What `move` was asked to write.
pub struct MoveRequest<'a> {
    pub action: &'a str,
    pub offer_draw: bool,
    pub comment: Option<String>,
    /// Check the move against the player's own view before writing it (`--no-check`: no).
    pub check: bool,
    /// Set aside the seat's own earlier file for this ply (which the judge refused) first.
    pub replace: bool,
}

/// What `judge` was asked to do.
pub struct JudgeRequest {
    pub now: String,
    /// Show private refusal details on stderr (the judge's own terminal).
    pub details: bool,
    /// What the judge rules besides taking files: a forfeit, a vacation.
    pub rulings: qijudge_judge::pipeline::Rulings,
}

/// `.gitignore` of a game's folder: the judge's lock and staging never belong in a commit, nor
/// a setup or conditional plans in clear.
pub const GAME_GITIGNORE: &str = ".qijudge.lock\n.qijudge-staging/\nsetups/\nplans/\n";

/// `.gitattributes` of a game's folder: every file is kept byte for byte, so a checkout with
/// `core.autocrlf=true` (Git for Windows' default) or under a root `* text eol=crlf` still has
/// the LF files that were signed.
pub const GAME_GITATTRIBUTES: &str = "* -text\n";

/// Writes the two git files every new game folder has, played in a repository or not.
pub fn write_git_files(dir: &Path) -> Result<()> {
    let g = GameDir::new(dir);
    g.write(".gitignore", GAME_GITIGNORE.as_bytes())?;
    g.write(".gitattributes", GAME_GITATTRIBUTES.as_bytes())
}

/// A new player list: one entry per seat from `--player` specs (name, key line, address).
pub fn player_entries(
    seats: &[&str],
    players: &[(String, String, Option<String>, bool)],
    order: &str,
) -> Result<Vec<Player>> {
    if players.len() != seats.len() {
        return Err(Error::Io(format!(
            "--player: give exactly {} players ({order})",
            seats.len()
        )));
    }
    Ok(seats
        .iter()
        .zip(players)
        .map(|(seat, (name, key, email, digest))| Player {
            seat: seat.to_string(),
            name: name.clone(),
            key: key.clone(),
            email: email.clone(),
            digest: *digest,
        })
        .collect())
}

/// 16 random bytes for a new game id.
pub fn random_id() -> [u8; 16] {
    let mut id = [0u8; 16];
    OsRng.fill_bytes(&mut id);
    id
}

/// Writes a new `game.toml` (never over an existing game); the caller then loads it exactly as
/// a judge will.
pub fn write_manifest_text(g: &GameDir, text: &str) -> Result<()> {
    if g.exists("game.toml") {
        return Err(Error::Io(format!(
            "{}: already holds a game",
            g.root.display()
        )));
    }
    g.write("game.toml", text.as_bytes())
}

/// Refuses `--board` for games with a single board.
pub fn one_board(game: &str, board: &str) -> Result<()> {
    if board == "2p" {
        Ok(())
    } else {
        Err(Error::Io(format!(
            "--board: {game} has one board; --board is for luzhanqi (2p, cross4)"
        )))
    }
}

/// The index of `seat` among `seats`, or a usage error that lists them.
/// The refusal of a tool a game does not have (the registry names the games that have it
/// before a game is asked).
pub fn no_tool(game: &str, tool: &str) -> Error {
    Error::Io(format!("{tool} is not a tool of {game}"))
}

pub fn seat_index(seats: &[&str], seat: &str) -> Result<usize> {
    seats.iter().position(|s| *s == seat).ok_or_else(|| {
        Error::Io(format!(
            "--as: {seat:?} is not a seat ({})",
            seats.join(", ")
        ))
    })
}

/// The index of `seat` in the game's frame, once `key` is shown to be that seat's key in
/// `game.toml` (what a player's command checks before it signs anything for the seat).
pub fn seat_of_key(
    f: &qijudge_judge::Frame,
    seat: &str,
    key: &qijudge_protocol::signer::Signer,
) -> Result<usize> {
    let i = seat_index(f.seats, seat)?;
    let given = qijudge_protocol::signing::Sign::public(key);
    if given.key_data() != f.player_keys[i].key_data() {
        let fingerprint = |k: &ssh_key::PublicKey| k.fingerprint(ssh_key::HashAlg::Sha256);
        // Whose key it is, when it is another seat's: `--as` may be the mistake, not the key.
        let hint = match f
            .player_keys
            .iter()
            .position(|k| k.key_data() == given.key_data())
        {
            Some(other) => format!(
                "this key is {}'s in game.toml: play as {} (--as {}), or give {seat}'s key",
                f.seats[other], f.seats[other], f.seats[other]
            ),
            None => format!(
                "give the private key whose public half game.toml names for {seat} ({}); \
                 this one is {}",
                fingerprint(&f.player_keys[i]),
                fingerprint(given)
            ),
        };
        return Err(qijudge_protocol::error::refuse_with(
            "--key",
            None,
            format!("is not {seat}'s key in game.toml"),
            hint,
        ));
    }
    Ok(i)
}

/// Refuses an `--as` that is none of `seats` and none of `others` (`public`, `full`).
pub fn check_audience(seats: &[&str], others: &[&str], audience: &str) -> Result<()> {
    if seats.contains(&audience) || others.contains(&audience) {
        return Ok(());
    }
    let all: Vec<&str> = seats.iter().chain(others).copied().collect();
    Err(Error::Io(format!(
        "--as: {audience:?} is not an audience ({})",
        all.join(", ")
    )))
}

/// What a judge run did, the same for every game: one line per new record entry (or "nothing
/// new"), then `last` (what the game waits for, or how it ended), and the refusal that stopped
/// the run.
pub fn run_report(said: &[String], last: Option<&str>, refusal: Option<Error>) -> report::Report {
    let mut report = report::Report::lines(said.iter().cloned());
    // (A run that refused a file did something: it says what, below.)
    if said.is_empty() && refusal.is_none() {
        report.say("nothing new");
    }
    if let Some(last) = last {
        report.say(last);
    }
    report.refusal = refusal;
    report
}
