//! The match runner. Each game is played by two bots through the same files a human game has:
//! keys per bot, a manifest, committed setups, signed moves, the judge's record and views, the
//! reveal; an in-process judge [`Session`] checks every move as it is written, and the finished
//! directory must pass the audit. A bot is only ever shown its own view.

use super::schedule::{self, Pairing};
use super::standings::{from_summary, GameRecord};
use super::timecontrol::{Clocks, TimeControl};
use qijudge_engine::protocol::{BotFailure, BotView, Reply, Request, PROTOCOL};
use qijudge_engine::Engine;
use qijudge_engine::{Bot, ProcessBot};
use qijudge_protocol::error::{Error, Result};
use qijudge_protocol::signing;
use qijudge_rules::random::SplitMix64;
use qijudge_store::write_atomic;
use serde::{Deserialize, Serialize};
use ssh_key::PrivateKey;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Whether a command's first word runs a script (`/usr/bin/python3.11`, `node`, `bash`): the
/// script is then what names the bot and what must exist.
fn is_interpreter(word: &str) -> bool {
    let stem = Path::new(word)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let s = stem.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    [
        "python", "pypy", "node", "nodejs", "sh", "bash", "ruby", "perl", "deno", "bun",
    ]
    .contains(&s)
}

/// How a bot is run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    /// A built-in bot, in-process (`builtin:random`, `builtin:greedy`).
    Builtin(String),
    /// A program, run with `sh -c`.
    Command(String),
    /// A program speaking a game's engine protocol (`uci`, `ucci`, `ccgc`: each game's
    /// definition names its own), run with `sh -c`: the protocol and the command.
    Engine(String, String),
}

/// A bot and the name it plays under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotEntry {
    pub name: String,
    pub spec: BotSpec,
}

impl BotEntry {
    /// Reads `[NAME=]builtin:random` or `[NAME=]COMMAND`.
    pub fn parse(text: &str) -> BotEntry {
        let (name, spec) = match text.split_once('=') {
            Some((n, s))
                if !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
            {
                (Some(n), s)
            }
            _ => (None, text),
        };
        let spec = if let Some(b) = spec.strip_prefix("builtin:") {
            BotSpec::Builtin(b.to_string())
        } else if let Some((protocol, c)) = spec
            .split_once(':')
            .filter(|(p, _)| qijudge_registry::registry::engine_protocols().contains(p))
        {
            BotSpec::Engine(protocol.to_string(), c.to_string())
        } else {
            BotSpec::Command(spec.to_string())
        };
        let name = name.map(str::to_string).unwrap_or_else(|| match &spec {
            BotSpec::Builtin(b) => b.clone(),
            BotSpec::Command(c) | BotSpec::Engine(_, c) => {
                // The program's name: the script an interpreter runs (`/usr/bin/python3
                // bots/mybot.py` is `mybot`), else the command's first word.
                let mut words = c.split_whitespace().filter(|w| !w.contains('='));
                let mut first = words.next().unwrap_or("bot");
                if is_interpreter(first) {
                    if let Some(script) = words.find(|w| !w.starts_with('-')) {
                        first = script;
                    }
                }
                let base = Path::new(first)
                    .file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_default();
                base.chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                    .collect()
            }
        });
        BotEntry { name, spec }
    }
}

/// A match between bots.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game (`luzhanqi`, `xiangqi`, `liubo`) and, for Luzhanqi, the board (`2p`, `cross4`).
    pub game: String,
    pub board: String,
    pub bots: Vec<BotEntry>,
    /// Round-robin or gauntlet.
    pub pairing: Pairing,
    /// Games per encounter (per pair of bots, or per table of four).
    pub games: u32,
    pub concurrency: usize,
    pub seed: u64,
    /// Time for each answer.
    pub time: Duration,
    pub out: PathBuf,
    /// (i, n): play only the games k with (k - 1) mod n = i.
    pub shard: (u32, u32),
    /// The options of every game, `key=value` as `--rule` takes them (the game's match rules
    /// unless given).
    pub rule_texts: Vec<String>,
    /// Creation time written into every manifest (and receipt time of every move).
    pub now: String,
    /// Keep each process bot's standard error in `OUT/logs/`.
    pub logs: bool,
    /// What process bots may reach besides their own folder and the system's.
    pub sandbox: qijudge_engine::sandbox::Grants,
    /// What process bots may consume (`--bot-limit`).
    pub limits: qijudge_engine::limits::MatchLimits,
    /// Pack each finished game into one file (`game-NNNNN.tar.gz`) instead of a folder.
    pub pack: bool,
    /// A clock per seat and game (`--tc`), besides the time per answer.
    pub tc: Option<TimeControl>,
    /// Openings (`--book`): each played twice in an encounter, the colours reversed.
    pub book: Option<super::book::Book>,
    /// Per UCI engine, by bot name: search limits, options, dialect (`--engine`).
    pub engines: BTreeMap<String, qijudge_engine::EngineSettings>,
    /// Resign and draw by the engines' scores, maximum length (`--resign`, `--draw`,
    /// `--max-moves`).
    pub adjudication: super::adjudication::Adjudication,
    /// The process's count of interrupts (Ctrl-C): at 1 no game starts any more and those in
    /// flight are finished, at 2 they are dropped.
    pub interrupts: Option<&'static std::sync::atomic::AtomicU8>,
    /// Per process bot, by name: the folder it starts in and its variables (`--bot-dir`,
    /// `--bot-env`).
    pub launch: BTreeMap<String, qijudge_engine::process::Launch>,
    /// Keep each process bot's whole conversation, timestamped, in `OUT/logs/`.
    pub io_logs: bool,
}

impl MatchConfig {
    /// The book opening of game `k`, if the match has a book: games go round by round through
    /// the encounters, and each encounter's rounds go in pairs.
    pub fn opening(&self, k: u32) -> Result<Option<&super::book::Opening>> {
        let Some(book) = &self.book else {
            return Ok(None);
        };
        let seats = qijudge_registry::by_name(&self.game)?
            .seats(&self.board)?
            .len();
        let encounters = schedule::encounters(self.bots.len(), seats, self.pairing)
            .map_err(|e| Error::Io(format!("--bot: {e}")))?
            .len() as u32;
        Ok(Some(book.opening((k - 1) / encounters.max(1))))
    }

    /// Where and with what variables the bot called `name` starts.
    pub fn launch_of(&self, name: &str) -> qijudge_engine::process::Launch {
        self.launch.get(name).cloned().unwrap_or_default()
    }

    /// The `--engine` settings of the bot called `name` (none set: the defaults).
    pub fn engine_settings(&self, name: &str) -> qijudge_engine::EngineSettings {
        self.engines.get(name).cloned().unwrap_or_default()
    }

    /// A match of `game` on its first board between `bots`, into `out`, with the defaults of
    /// `qijudge match` (two games an encounter, round-robin, one at a time, seed 1, 5 s an
    /// answer, the game's match rules); set the fields to change them.
    pub fn new(game: &str, bots: Vec<BotEntry>, out: &Path) -> Result<MatchConfig> {
        let kind = qijudge_registry::by_name(game)?;
        let rule_texts: Vec<String> = kind.match_rules().iter().map(|r| r.to_string()).collect();
        Ok(MatchConfig {
            game: game.to_string(),
            board: "2p".into(),
            bots,
            pairing: Pairing::RoundRobin,
            games: 2,
            concurrency: 1,
            seed: 1,
            time: Duration::from_secs(5),
            out: out.to_path_buf(),
            shard: (0, 1),
            rule_texts,
            now: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            logs: false,
            sandbox: Default::default(),
            limits: Default::default(),
            pack: false,
            tc: None,
            engines: Default::default(),
            adjudication: Default::default(),
            book: None,
            interrupts: None,
            launch: Default::default(),
            io_logs: false,
        })
    }
}

/// `OUT/match.json`: what this match is and which games are done, so an interrupted match
/// continues where it stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchState {
    format: String,
    #[serde(default = "default_game", skip_serializing_if = "is_default_game")]
    game: String,
    #[serde(
        default = "two_player_board",
        skip_serializing_if = "is_two_player_board"
    )]
    board: String,
    bots: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    gauntlet: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pack: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tc: Option<String>,
    /// The book's SHA-256 and order (`--book`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    book: Option<String>,
    /// `--engine` settings per engine, as given.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    engines: BTreeMap<String, Vec<String>>,
    /// `--resign`, `--draw` and `--max-moves`, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    adjudication: Option<String>,
    games: u32,
    seed: u64,
    shard: String,
    completed: BTreeSet<u32>,
}

const STATE_FORMAT: &str = "qijudge/match-state/1";

// Matches of the default game on its first board keep the state file they always had.
fn default_game() -> String {
    qijudge_registry::registry::DEFAULT_GAME.into()
}
fn is_default_game(game: &str) -> bool {
    game == qijudge_registry::registry::DEFAULT_GAME
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn two_player_board() -> String {
    "2p".into()
}
fn is_two_player_board(board: &str) -> bool {
    board == "2p"
}

/// The seating of every game of the match (game k at index k - 1): bot indices by seat.
pub fn seatings(cfg: &MatchConfig) -> Result<Vec<Vec<usize>>> {
    let seats = qijudge_registry::by_name(&cfg.game)?
        .seats(&cfg.board)?
        .len();
    let encounters = schedule::encounters(cfg.bots.len(), seats, cfg.pairing)
        .map_err(|e| Error::Io(format!("--bot: {e}")))?;
    Ok(schedule::games(&encounters, seats, cfg.games))
}

/// The games of this shard, 1-based, of `total`.
pub fn shard_games(cfg: &MatchConfig, total: usize) -> Vec<u32> {
    // With a book, the unit is a pair (an opening with each colour, in one encounter), so
    // every shard's pairs are whole; else a game.
    let encounters = match &cfg.book {
        Some(_) => seatings(cfg).map_or(1, |s| {
            let n = s.len() as u32 / cfg.games.max(1);
            n.max(1)
        }),
        None => 0,
    };
    (1..=total as u32)
        .filter(|k| {
            let unit = match encounters {
                0 => k - 1,
                e => {
                    let (encounter, round) = ((k - 1) % e, (k - 1) / e);
                    (round / 2) * e + encounter
                }
            };
            unit % cfg.shard.1 == cfg.shard.0
        })
        .collect()
}

/// The seed of game k: every game gets its own, whatever shard or order it is played in.
pub fn game_seed(seed: u64, k: u32) -> u64 {
    SplitMix64::new(seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

/// The number k of a game from its folder or packed file (`…/game-00012`, `game-00012.tar.gz`).
pub fn game_number(dir: &str) -> Option<u32> {
    dir.trim_end_matches(qijudge_store::packed::EXTENSION)
        .rsplit("game-")
        .next()?
        .parse()
        .ok()
}

pub fn game_dir(out: &Path, k: u32) -> PathBuf {
    out.join("games").join(format!("game-{k:05}"))
}

/// Where game k is kept once finished: its folder, or its packed file.
pub fn finished_game(out: &Path, k: u32, pack: bool) -> PathBuf {
    if pack {
        out.join("games")
            .join(format!("game-{k:05}{}", qijudge_store::packed::EXTENSION))
    } else {
        game_dir(out, k)
    }
}

/// Packs game k's folder into its file (written atomically), then removes the folder.
fn pack_game(out: &Path, k: u32) -> Result<PathBuf> {
    let dir = game_dir(out, k);
    let bytes = qijudge_store::packed::pack(&dir)?;
    let file = finished_game(out, k, true);
    write_atomic(&file, &bytes)?;
    std::fs::remove_dir_all(&dir).map_err(|e| Error::Io(format!("{}: {e}", dir.display())))?;
    Ok(file)
}

/// Removes what an unfinished game k left: its folder, and a packed file the match state
/// does not count.
fn clear_game(out: &Path, k: u32) -> Result<()> {
    let dir = game_dir(out, k);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| Error::Io(format!("{}: {e}", dir.display())))?;
    }
    let file = finished_game(out, k, true);
    if file.exists() {
        std::fs::remove_file(&file).map_err(|e| Error::Io(format!("{}: {e}", file.display())))?;
    }
    Ok(())
}

/// What the runner tells its caller as the match goes.
pub enum Event<'a> {
    /// Play begins: `done` of `total` games were finished before (their records given).
    Started {
        done: usize,
        total: usize,
        earlier: &'a [GameRecord],
    },
    /// Game k begins, its bots named in seat order.
    Began { k: u32, players: &'a [String] },
    /// Game k is finished and counted.
    Finished { k: u32, record: &'a GameRecord },
    /// An interrupt was seen: no game starts any more; the `in_flight` ones are finished, or,
    /// with `dropping`, stopped and removed.
    Stopping { in_flight: usize, dropping: bool },
}

/// What a run of the match did.
pub struct Played {
    /// The finished games of this shard, in game order.
    pub games: Vec<GameRecord>,
    /// How many games this shard has in all.
    pub total: usize,
    /// Why play stopped before every game was played, if it did.
    pub stopped: Option<Stopped>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Ctrl-C (SIGINT) or SIGTERM.
    Interrupted,
    /// The caller's observer said the result is decided (a sequential test).
    Decided,
}

/// Play goes on (0), finishes the games in flight and starts none (1), or drops them (2).
struct StopLevel<'a> {
    level: std::sync::atomic::AtomicU8,
    interrupts: Option<&'a std::sync::atomic::AtomicU8>,
}

impl StopLevel<'_> {
    fn get(&self) -> u8 {
        let asked = self
            .interrupts
            .map_or(0, |i| i.load(Ordering::SeqCst).min(2));
        self.level.load(Ordering::SeqCst).max(asked)
    }
}

/// Runs (or resumes) a match; `observe` hears each event and may answer `true` to start no
/// more games (the result is decided). Returns the results of this shard's finished games, each
/// as the audit of its finished directory established it.
pub fn run_match(cfg: &MatchConfig, observe: &(dyn Fn(Event) -> bool + Sync)) -> Result<Played> {
    for (i, bot) in cfg.bots.iter().enumerate() {
        if cfg.bots[..i].iter().any(|b| b.name == bot.name) {
            return Err(Error::Io(format!(
                "--bot: two bots are named {:?}; name them with NAME=…",
                bot.name
            )));
        }
    }
    let seatings = seatings(cfg)?;
    if cfg.shard.1 == 0 || cfg.shard.0 >= cfg.shard.1 {
        return Err(Error::Io("--shard: expected i/n with i < n".into()));
    }
    let state_path = cfg.out.join("match.json");
    let game = qijudge_registry::by_name(&cfg.game)?;
    let fresh = MatchState {
        format: STATE_FORMAT.into(),
        game: cfg.game.clone(),
        board: cfg.board.clone(),
        bots: cfg.bots.iter().map(|b| b.name.clone()).collect(),
        gauntlet: cfg.pairing == Pairing::Gauntlet,
        pack: cfg.pack,
        tc: cfg.tc.map(|t| t.to_string()),
        book: cfg.book.as_ref().map(|b| b.identity.clone()),
        engines: cfg
            .engines
            .iter()
            .map(|(name, s)| (name.clone(), s.describe()))
            .collect(),
        adjudication: cfg.adjudication.describe(),
        games: cfg.games,
        seed: cfg.seed,
        shard: format!("{}/{}", cfg.shard.0, cfg.shard.1),
        completed: BTreeSet::new(),
    };
    let state = match std::fs::read_to_string(&state_path) {
        Ok(text) => {
            let old: MatchState = serde_json::from_str(&text)
                .map_err(|e| Error::Io(format!("{}: {e}", state_path.display())))?;
            let differs = settings_differ(&old, &fresh);
            if !differs.is_empty() {
                return Err(Error::Io(format!(
                    "{}: holds a different match ({}); resume with the same settings, or use another --out",
                    cfg.out.display(),
                    differs.join("; ")
                )));
            }
            MatchState {
                games: fresh.games,
                ..old
            }
        }
        Err(_) => fresh,
    };
    let pool = EnginePool::default();
    check_bots(cfg, &pool, game)?;
    // A game's files are synced once, when it is counted (an unfinished game is replayed).
    let games_folder = cfg.out.join("games");
    std::fs::create_dir_all(&games_folder)
        .map_err(|e| Error::Io(format!("{}: {e}", games_folder.display())))?;
    let _scratch = qijudge_store::ScratchGuard::new(&games_folder);
    let keys = Keys::load_or_make(&cfg.out)?;
    // Finished games are kept (and re-audited); the others are played from the start.
    let mut results = std::collections::BTreeMap::new();
    let mut todo = Vec::new();
    for k in shard_games(cfg, seatings.len()) {
        let dir = finished_game(&cfg.out, k, cfg.pack);
        match game.summary(&dir) {
            Ok(a) if state.completed.contains(&k) => {
                results.insert(k, from_summary(&dir.display().to_string(), &a));
            }
            _ => todo.push(k),
        }
    }
    let total = shard_games(cfg, seatings.len()).len();
    let earlier: Vec<GameRecord> = results.values().cloned().collect();
    // The observer may find the result decided by the games already played.
    let decided_before = observe(Event::Started {
        done: total - todo.len(),
        total,
        earlier: &earlier,
    });
    let results = Mutex::new(results);
    let state = Mutex::new(state);
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<Error>> = Mutex::new(None);
    let stop = StopLevel {
        level: Default::default(),
        interrupts: cfg.interrupts,
    };
    let decided = std::sync::atomic::AtomicBool::new(decided_before);
    if decided_before {
        stop.level.store(1, Ordering::SeqCst);
    }
    let in_flight = AtomicUsize::new(0);
    let workers = AtomicUsize::new(cfg.concurrency.max(1));
    let dropped = || stop.get() >= 2;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1) {
            scope.spawn(|| {
                // Nobody looks at a picture of every ply of a bot match.
                qijudge_judge::set_pictures(false);
                loop {
                    if failed.lock().map(|f| f.is_some()).unwrap_or(true) || stop.get() > 0 {
                        break;
                    }
                    in_flight.fetch_add(1, Ordering::SeqCst);
                    let Some(&k) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        in_flight.fetch_sub(1, Ordering::SeqCst);
                        break;
                    };
                    let seated: Vec<String> = seatings[k as usize - 1]
                        .iter()
                        .map(|&b| cfg.bots[b].name.clone())
                        .collect();
                    observe(Event::Began {
                        k,
                        players: &seated,
                    });
                    let outcome = play_one(
                        cfg,
                        &pool,
                        game,
                        &keys,
                        k,
                        &seatings[k as usize - 1],
                        &dropped,
                    );
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                    match outcome {
                        Ok(record) => {
                            let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
                            s.completed.insert(k);
                            let text = serde_json::to_string_pretty(&*s).unwrap_or_default() + "\n";
                            let written = qijudge_store::sync_folder(&games_folder)
                                .and_then(|()| write_atomic(&state_path, text.as_bytes()));
                            if let Err(e) = written {
                                *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                            }
                            if observe(Event::Finished { k, record: &record }) {
                                decided.store(true, Ordering::SeqCst);
                                stop.level.fetch_max(1, Ordering::SeqCst);
                            }
                            drop(s);
                            results
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .insert(k, record);
                        }
                        // A game dropped on a second interrupt leaves nothing behind.
                        Err(_) if dropped() => {
                            let _ = clear_game(&cfg.out, k);
                        }
                        Err(e) => *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e),
                    }
                }
                workers.fetch_sub(1, Ordering::SeqCst);
            });
        }
        // Watch for interrupts while the workers play, and say what happens to the games in
        // flight once, for each level.
        let mut said = 0;
        let tell = |said: &mut u8| {
            let asked = cfg
                .interrupts
                .map_or(0, |i| i.load(Ordering::SeqCst).min(2));
            if asked > *said {
                *said = asked;
                observe(Event::Stopping {
                    in_flight: in_flight.load(Ordering::SeqCst),
                    dropping: asked >= 2,
                });
            }
        };
        while workers.load(Ordering::SeqCst) > 0 {
            tell(&mut said);
            std::thread::sleep(Duration::from_millis(20));
        }
        // The workers may stop (a second interrupt drops their games at once) between two looks:
        // what was asked is still said.
        tell(&mut said);
    });
    // The engines kept for another game are done.
    pool.close();
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let games: Vec<GameRecord> = results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_values()
        .collect();
    let stopped = (games.len() < total).then(|| {
        if decided.load(Ordering::SeqCst) {
            Stopped::Decided
        } else {
            Stopped::Interrupted
        }
    });
    Ok(Played {
        games,
        total,
        stopped,
    })
}

/// Engines kept between the games of a match (UCI ones), by bot name, as fastchess keeps them:
/// an engine that finished a game without failing plays the next game it is needed in (after
/// `ucinewgame`); one that failed is stopped, and a new one started when needed.
#[derive(Default)]
pub struct EnginePool {
    idle: Mutex<BTreeMap<String, Vec<Box<dyn Engine>>>>,
    /// Engine processes started in this run.
    pub started: AtomicUsize,
}

impl EnginePool {
    /// A kept engine that is still running (one that died since its last game is dropped).
    fn take(&self, name: &str) -> Option<Box<dyn Engine>> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        let kept = idle.get_mut(name)?;
        while let Some(mut engine) = kept.pop() {
            if engine.is_running() {
                return Some(engine);
            }
        }
        None
    }

    fn keep(&self, name: &str, engine: Box<dyn Engine>) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        idle.entry(name.to_string()).or_default().push(engine);
    }

    /// Stops every kept engine (`quit`, then the process is ended).
    fn close(&self) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        for engine in idle.values_mut().flat_map(|v| v.iter_mut()) {
            engine.tell(&Request::End {
                view: BotView::Json(serde_json::Value::Null),
            });
        }
        idle.clear();
    }
}

/// Plays game k from its start and keeps it (packed, with `--pack`); `dropped` says when to give
/// up the game at once.
fn play_one(
    cfg: &MatchConfig,
    pool: &EnginePool,
    game: &dyn qijudge_game::Game,
    keys: &Keys,
    k: u32,
    seating: &[usize],
    dropped: &dyn Fn() -> bool,
) -> Result<GameRecord> {
    clear_game(&cfg.out, k)?;
    let record = match play_through_contract(cfg, pool, game, keys, k, seating, dropped) {
        Ok(record) => record,
        Err(e) => {
            // A dropped game leaves nothing behind (its manifest was written before play).
            if dropped() {
                let _ = clear_game(&cfg.out, k);
            }
            return Err(e);
        }
    };
    if !cfg.pack {
        return Ok(record);
    }
    // Packed (from memory by the players above), the game is named by its file.
    let mut file = finished_game(&cfg.out, k, true);
    if !file.exists() {
        file = pack_game(&cfg.out, k)?;
    }
    Ok(GameRecord {
        dir: file.display().to_string(),
        ..record
    })
}

/// The match's judge key, kept in `OUT/keys/` so a resumed match signs with the same key (each
/// seat's key is kept there too, made when a game first needs it).
struct Keys {
    judge: PrivateKey,
}

/// The key `OUT/keys/NAME`, made on first use.
fn load_or_make_key(out: &Path, name: &str) -> Result<PrivateKey> {
    let path = out.join("keys").join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => signing::parse_private_key(&text)
            .map_err(|e| Error::Io(format!("{}: {e}", path.display()))),
        Err(_) => {
            let key = signing::generate(name);
            qijudge_store::write_private(&path, signing::private_key_pem(&key).as_bytes())?;
            Ok(key)
        }
    }
}

impl Keys {
    fn load_or_make(out: &Path) -> Result<Keys> {
        let one = |name: &str| load_or_make_key(out, name);
        let judge = one("judge")?;
        // The judge's public key, for `tournament` to count this match's games by.
        let public = out.join("keys/judge.pub");
        let line = format!("{}\n", signing::public_key_line(judge.public_key()));
        if std::fs::read_to_string(&public).ok().as_deref() != Some(line.as_str()) {
            qijudge_store::write_atomic(&public, line.as_bytes())?;
        }
        Ok(Keys { judge })
    }
}

/// The settings of a stored match that differ from this one, each as `name: stored, given`.
fn settings_differ(old: &MatchState, new: &MatchState) -> Vec<String> {
    let mut out = Vec::new();
    let mut compare = |name: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name}: {a} there, {b} now"));
        }
    };
    compare("--game", old.game.clone(), new.game.clone());
    compare("--board", old.board.clone(), new.board.clone());
    compare("--bot names", old.bots.join(", "), new.bots.join(", "));
    let pairing = |g: bool| if g { "gauntlet" } else { "round-robin" }.to_string();
    compare("pairing", pairing(old.gauntlet), pairing(new.gauntlet));
    let store = |p: bool| if p { "--pack" } else { "folders" }.to_string();
    compare("storage", store(old.pack), store(new.pack));
    let tc = |t: &Option<String>| t.clone().unwrap_or_else(|| "none".into());
    compare("--tc", tc(&old.tc), tc(&new.tc));
    let engines = |e: &BTreeMap<String, Vec<String>>| {
        let all: Vec<String> = e
            .iter()
            .map(|(n, s)| format!("{n}:{}", s.join(",")))
            .collect();
        match all.is_empty() {
            true => "none".to_string(),
            false => all.join(" "),
        }
    };
    compare("--engine", engines(&old.engines), engines(&new.engines));
    let book = |b: &Option<String>| b.clone().unwrap_or_else(|| "none".into());
    compare("--book", book(&old.book), book(&new.book));
    compare(
        "adjudication",
        book(&old.adjudication),
        book(&new.adjudication),
    );
    // More games extend a match (games are numbered round by round, so the games played keep
    // their numbers); fewer would drop games played.
    if new.games < old.games {
        compare("--games", old.games.to_string(), new.games.to_string());
    }
    compare("--seed", old.seed.to_string(), new.seed.to_string());
    compare("--shard", old.shard.clone(), new.shard.clone());
    compare("format", old.format.clone(), new.format.clone());
    out
}

/// Before the first game: each program bot must start, and where players choose a setup
/// (Luzhanqi) answer the first request a game sends, its setup, within the time per answer;
/// otherwise the match would be a series of losses by `bot-crashed` with no word of why.
/// Elsewhere the first request needs a game in progress: the bot must still be running.
fn check_bots(cfg: &MatchConfig, pool: &EnginePool, game: &dyn qijudge_game::Game) -> Result<()> {
    for entry in &cfg.bots {
        let (cmd, protocol) = match &entry.spec {
            BotSpec::Builtin(_) => continue,
            BotSpec::Command(cmd) => (cmd, None),
            BotSpec::Engine(protocol, cmd) => (cmd, Some(protocol.as_str())),
        };
        let refused = |why: String| {
            Error::Io(format!(
                "--bot {}: {why}; try the command by hand: {cmd}",
                entry.name
            ))
        };
        if let Some(why) = missing_program(cmd, cfg.launch_of(&entry.name).dir.as_deref()) {
            return Err(Error::Io(format!("--bot {}: {why}", entry.name)));
        }
        // The start and the handshake (a kept engine's first game begins after them).
        let process = ProcessBot::spawn(
            cmd,
            &cfg.launch_of(&entry.name),
            log_file(cfg, &format!("start-{}", entry.name))?,
            &cfg.sandbox,
            &cfg.limits.of(&entry.name),
        )
        .map_err(|e| refused(format!("does not start ({e})")));
        let mut bot: Box<dyn Bot> = match protocol {
            None if game.setup_is_chosen() => Box::new(process?),
            None => {
                // No request before a game is under way: the program must still be running.
                if let Some(status) = process?.exited_within(Duration::from_millis(300)) {
                    return Err(refused(format!(
                        "stopped before its first request ({status})"
                    )));
                }
                continue;
            }
            Some(protocol) => {
                let plays = game.engine_protocols().iter().any(|(p, _)| *p == protocol);
                let engine = match plays {
                    true => game.engine(
                        protocol,
                        &cfg.board,
                        process?,
                        cfg.time,
                        cfg.engine_settings(&entry.name),
                    ),
                    false => None,
                };
                let Some(mut engine) = engine else {
                    return Err(Error::Io(format!(
                        "--bot {}: {} engines play {}; bots of other games speak \
                         qijudge-bot/1 (docs/bots.md)",
                        entry.name,
                        protocol.to_uppercase(),
                        qijudge_registry::registry::engines_play(protocol)
                    )));
                };
                if engine.kept() {
                    pool.started.fetch_add(1, Ordering::SeqCst);
                    engine.handshake().map_err(|f| {
                        refused(format!(
                            "did not answer {protocol} and isready ({})",
                            f.code()
                        ))
                    })?;
                    // Checked, it plays the first game it is needed in.
                    pool.keep(&entry.name, engine);
                    continue;
                }
                engine
            }
        };
        if game.setup_is_chosen() {
            let request = Request::Setup {
                protocol: PROTOCOL.into(),
                game: cfg.game.clone(),
                seat: game.seats(&cfg.board)?.swap_remove(0),
                board: cfg.board.clone(),
                rules: game.setup_rules(&cfg.rule_texts)?,
                seed: cfg.seed,
                time_ms: cfg.time.as_millis() as u64,
                clock: None,
            };
            // An engine is asked through its own protocol (a CCGC program's INFO, START … ARRAY).
            match bot.ask(&request) {
                Ok(Reply { setup: Some(_), .. }) => {}
                Ok(_) => return Err(refused("answered its setup request without a setup".into())),
                Err(f) => {
                    return Err(refused(format!(
                        "did not answer its setup request ({})",
                        f.code()
                    )))
                }
            }
        }
    }
    Ok(())
}

/// Why `command`'s program cannot start, if it plainly cannot: its first word is no file (a
/// path) or no program in `PATH` (a bare name), or the script an interpreter is given is no
/// file. Said before the match, in those words, not later as a crash.
fn missing_program(command: &str, dir: Option<&Path>) -> Option<String> {
    // Only a plain command is judged: what the shell makes of the others is the shell's.
    let shell = command.contains(|c: char| ";&|$`(){}<>*?'\"\\".contains(c));
    let mut words = command.split_whitespace();
    let first = words.next()?;
    let builtin = [
        "exec", "cd", "export", "ulimit", "umask", "set", "command", "builtin", ".",
    ];
    if shell || first.contains('=') || builtin.contains(&first) {
        return None;
    }
    let base = dir.unwrap_or(Path::new("."));
    let exists = |w: &str| base.join(w).exists();
    if first.contains('/') && !exists(first) {
        return Some(format!(
            "{first}: no such file (the command is run from {})",
            base.display()
        ));
    }
    let in_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(first).is_file()));
    if !first.contains('/') && !in_path {
        let hint = match exists(first) {
            true => {
                format!("; a file of that name is here: write ./{first}, or its interpreter first")
            }
            false => String::new(),
        };
        return Some(format!("{first}: no such program in PATH{hint}"));
    }
    // An interpreter's script (`python3 bot.py`): the first word that is no option.
    let interpreter = is_interpreter(first);
    if interpreter {
        if let Some(script) = words.find(|w| !w.starts_with('-')) {
            let looks_like_file = script.contains('.') || script.contains('/');
            if looks_like_file && !exists(script) {
                return Some(format!(
                    "{script}: no such file for {first} to run (the command is run from {})",
                    base.display()
                ));
            }
        }
    }
    None
}

/// `OUT/logs/STEM.log` when logs are kept (standard error, or with `--bot-io-logs` the whole
/// conversation); none otherwise.
fn log_file(cfg: &MatchConfig, stem: &str) -> Result<qijudge_engine::bot_log::LogFile> {
    if !cfg.logs && !cfg.io_logs {
        return Ok(Default::default());
    }
    let path = cfg.out.join("logs").join(format!("{stem}.log"));
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
        .map_err(|e| Error::Io(e.to_string()))?;
    let file =
        std::fs::File::create(&path).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    Ok(qijudge_engine::bot_log::LogFile {
        file: Some(file),
        io: cfg.io_logs,
    })
}

fn start_bot(
    cfg: &MatchConfig,
    game: &dyn qijudge_game::Game,
    pool: &EnginePool,
    entry: &BotEntry,
    k: u32,
    seat: usize,
) -> Result<Box<dyn Bot>> {
    let log = || log_file(cfg, &format!("game-{k:05}-{}", entry.name));
    let start = cfg.opening(k)?.and_then(super::book::Opening::position);
    if let BotSpec::Engine(..) = entry.spec {
        if let Some(engine) = pool.take(&entry.name) {
            // A kept engine's standard error goes to this game's log from now on.
            engine.log_to(log()?);
            return Ok(engine.for_game(start));
        }
    }
    match &entry.spec {
        // Each game and seat its own seed, so games without a setup (Xiangqi) differ too.
        BotSpec::Builtin(name) => {
            super::bots::builtin_seeded(name, game_seed(cfg.seed, k) ^ (seat as u64 + 1))
                .ok_or_else(|| {
                    Error::Io(format!("--bot: no built-in bot {name:?} (random, greedy)"))
                })
        }
        BotSpec::Command(cmd) | BotSpec::Engine(_, cmd) => {
            let log = log()?;
            let process = ProcessBot::spawn(
                cmd,
                &cfg.launch_of(&entry.name),
                log,
                &cfg.sandbox,
                &cfg.limits.of(&entry.name),
            )
            .map_err(|e| Error::Io(format!("--bot {cmd:?}: {e}")))?;
            pool.started.fetch_add(1, Ordering::SeqCst);
            Ok(match &entry.spec {
                BotSpec::Engine(protocol, _) => game
                    .engine(
                        protocol,
                        &cfg.board,
                        process,
                        cfg.time,
                        cfg.engine_settings(&entry.name),
                    )
                    .ok_or_else(|| {
                        Error::Io(format!("--bot {}: no {protocol} engines here", entry.name))
                    })?
                    .for_game(start),
                _ => Box::new(process),
            })
        }
    }
}

/// Plays game k of any game through the game contract alone: the same commands a person uses
/// (`new`, `setup`, `move`, `judge`, `reveal`, `verify`), each bot shown only its seat's view
/// and its legal moves; a game with an in-process session (`Game::play_match`) plays its moves
/// there instead of a judge run per move. With two bots on four seats, each bot plays a team.
fn play_through_contract(
    cfg: &MatchConfig,
    pool: &EnginePool,
    game: &dyn qijudge_game::Game,
    keys: &Keys,
    k: u32,
    seating: &[usize],
    dropped: &dyn Fn() -> bool,
) -> Result<GameRecord> {
    use qijudge_game::match_play::{MatchPlay, MatchStep};
    use qijudge_registry::{JudgeRequest, MoveRequest, NewGame, Turn};
    let path = game_dir(&cfg.out, k);
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
        .map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    let seats = game.seats(&cfg.board)?;
    let bot_of = |j: usize| seating[j];
    // Every seat signs with a key of its own (a bot playing a team holds two), kept in
    // `OUT/keys/` so a resumed match signs with the same keys.
    let mut seat_keys = Vec::new();
    for (j, seat) in seats.iter().enumerate() {
        let name = format!("{}@{seat}", cfg.bots[bot_of(j)].name);
        let key = load_or_make_key(&cfg.out, &name)?;
        seat_keys.push((cfg.out.join("keys").join(&name), key));
    }
    let key_file = |j: usize| seat_keys[j].0.clone();
    let judge_file = cfg.out.join("keys").join("judge");
    // A book opening is the game's start position.
    let mut rules = cfg.rule_texts.clone();
    let opening = cfg.opening(k)?;
    if let Some(fen) = opening.and_then(super::book::Opening::position) {
        rules.retain(|r| !r.starts_with("start="));
        rules.push(format!("start={fen}"));
    }
    let new = NewGame {
        players: (0..seats.len())
            .map(|j| {
                let line = signing::public_key_line(seat_keys[j].1.public_key());
                (cfg.bots[bot_of(j)].name.clone(), line, None, false)
            })
            .collect(),
        judge_key: signing::public_key_line(keys.judge.public_key()),
        rules: &rules,
        created: cfg.now.clone(),
        sample: false,
        clock: None,
        sealed: false,
        board: &cfg.board,
    };
    // The game's folder lives in memory from its manifest on: every command below (`new`, the
    // setups, each judge run, the reveal, the audit) works there, and it is written once at
    // the end, as a folder or packed. On disk there is only the empty folder, for the lock.
    std::fs::create_dir_all(&path).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    let memory = qijudge_store::MemoryGuard::new(&path);
    let _ = game.new_game(&path, new)?;
    let seed = game_seed(cfg.seed, k);
    let time_ms = cfg.time.as_millis() as u64;
    let mut bots: Vec<Box<dyn Bot>> = (0..seats.len())
        .map(|j| start_bot(cfg, game, pool, &cfg.bots[bot_of(j)], k, j))
        .collect::<Result<_>>()?;
    let judge = |rulings: qijudge_judge::pipeline::Rulings| {
        let run = JudgeRequest {
            now: cfg.now.clone(),
            details: false,
            rulings,
        };
        // What a run says is for a terminal; a refusal stops the match game.
        game.judge(&path, &judge_file, run)?.into_result().map(drop)
    };
    let mut failure: Option<(String, &'static str)> = None;
    if game.has_secrets() {
        for (j, seat) in seats.iter().enumerate() {
            let key = key_file(j);
            if !game.setup_is_chosen() {
                let _ = game.setup(&path, seat, &key, qijudge_game::SetupSource::None, false)?;
                continue;
            }
            let request = Request::Setup {
                protocol: PROTOCOL.into(),
                game: cfg.game.clone(),
                seat: seat.clone(),
                board: cfg.board.clone(),
                rules: game.setup_rules(&cfg.rule_texts)?,
                seed: seed ^ j as u64,
                time_ms,
                clock: cfg.tc.map(|tc| Clocks::new(tc, &seats).info()),
            };
            // A book's army is the seat's setup; the bot is not asked for one.
            let answer = match opening.and_then(|o| o.army(seat)) {
                Some(army) => Ok(army.to_string()),
                None => bots[j].ask(&request).and_then(|reply| match reply {
                    Reply {
                        setup: Some(map), ..
                    } => Ok(map
                        .iter()
                        .map(|(sq, piece)| format!("{} = {}\n", toml_key(sq), toml_string(piece)))
                        .collect::<String>()),
                    _ => Err(BotFailure::Garbage(String::new())),
                }),
            };
            let text = match answer {
                Ok(text) => text,
                Err(f) => {
                    failure = Some((seat.clone(), f.code()));
                    break;
                }
            };
            let file = path.join(format!(".bot-setup-{seat}.toml"));
            write_atomic(&file, text.as_bytes())?;
            let taken = game.setup(
                &path,
                seat,
                &key,
                qijudge_game::SetupSource::File(&file),
                false,
            );
            let _ = std::fs::remove_file(&file);
            if taken.is_err() {
                failure = Some((seat.clone(), BotFailure::BadSetup(String::new()).code()));
                break;
            }
        }
    }
    // Engines start before the clocks do; one that cannot forfeits.
    for (j, seat) in seats.iter().enumerate() {
        if failure.is_none() {
            if let Err(f) = bots[j].prepare() {
                failure = Some((seat.clone(), f.code()));
            }
        }
    }
    // The seats whose bot failed (its engine is not kept for another game).
    let failed = std::cell::RefCell::new(
        seats
            .iter()
            .map(|s| failure.as_ref().is_some_and(|(f, _)| f == s))
            .collect::<Vec<bool>>(),
    );
    let forfeit = |seat: String, code: String| qijudge_judge::pipeline::Rulings {
        forfeit: Some((seat, code)),
        ..Default::default()
    };
    // A game with a session opens it with its first judge run; a forfeit before play needs one.
    let mut opened = false;
    if let Some((seat, code)) = &failure {
        judge(Default::default())?;
        judge(forfeit(seat.clone(), code.to_string()))?;
        opened = true;
    }
    let mut clocks = cfg.tc.map(|tc| Clocks::new(tc, &seats));
    // Per seat: how far past its clock its engine may answer, and whether its moves carry
    // their time (a program's; a built-in bot's time is the runner's own).
    let margins: Vec<Duration> = (0..seats.len())
        .map(|j| {
            let name = &cfg.bots[bot_of(j)].name;
            Duration::from_millis(cfg.engine_settings(name).timemargin_ms.unwrap_or(0))
        })
        .collect();
    let timed: Vec<bool> = (0..seats.len())
        .map(|j| !matches!(cfg.bots[bot_of(j)].spec, BotSpec::Builtin(_)))
        .collect();
    let seat_index = |seat: &str| seats.iter().position(|s| s == seat).unwrap_or(0);
    let seat_key = |seat: &str| key_file(seat_index(seat));
    // Whether each seat's bot reads its view (a bot may waive its views in any answer).
    let reads = std::cell::RefCell::new(bots.iter().map(|b| b.reads_view()).collect::<Vec<_>>());
    let reads_view = |seat: &str| reads.borrow()[seat_index(seat)];
    // Each ply's mover and the score its engine reported, for adjudication.
    let mut scores: Vec<(usize, Option<super::adjudication::Score>)> = Vec::new();
    // Each seat's last view, from the session, for the bots that read views.
    let mut final_views: Vec<(String, BotView)> = Vec::new();
    {
        // A turn asked of the seat's bot, within its time: its move, or its forfeit; or the
        // judge's adjudication before it, on the scores so far.
        let mut next = |turn: Turn| -> Result<MatchStep> {
            if dropped() {
                return Err(Error::Io(format!("game {k}: dropped")));
            }
            if let Some((winner, reason)) = cfg.adjudication.rule(&scores, seats.len()) {
                return Ok(MatchStep::Adjudicate {
                    winner: winner.map(|w| seats[w].clone()),
                    reason: reason.to_string(),
                });
            }
            let j = seat_index(&turn.seat);
            let view = turn.view.unwrap_or(BotView::Json(serde_json::Value::Null));
            // The games whose views carry a standing offer (Xiangqi, Jieqi, Banqi) take draw
            // offers from bots; one of the opponent's that stands may be accepted.
            let (offers, offer_stands) = match &view {
                BotView::Json(v) => (
                    v.get("draw_offer").is_some(),
                    v["draw_offer"]
                        .as_str()
                        .is_some_and(|offered_by| offered_by != turn.seat),
                ),
                BotView::Typed(_) => (false, false),
            };
            let asked = ask_move(
                &mut *bots[j],
                view,
                turn.legal.clone(),
                cfg.time,
                &mut clocks,
                j,
                margins[j],
            );
            reads.borrow_mut()[j] = bots[j].reads_view();
            let failed = |f: BotFailure| {
                failed.borrow_mut()[j] = true;
                MatchStep::Forfeit(f.code().to_string())
            };
            Ok(match asked {
                Ok((
                    Reply {
                        action: Some(a),
                        score,
                        depth,
                        offer_draw,
                        ..
                    },
                    took,
                )) if a == "resign"
                    || (a == "accept-draw" && offer_stands)
                    || turn.legal.contains(&a) =>
                {
                    scores.push((j, score));
                    MatchStep::Move {
                        offer_draw: offers && offer_draw == Some(true) && turn.legal.contains(&a),
                        action: a,
                        comment: move_comment(score, depth, timed[j].then_some(took)),
                    }
                }
                Ok((
                    Reply {
                        action: Some(_), ..
                    },
                    _,
                )) => failed(BotFailure::IllegalMove(String::new())),
                Ok(_) => failed(BotFailure::Garbage(String::new())),
                Err(f) => failed(f),
            })
        };
        let play = MatchPlay {
            judge_key: &judge_file,
            seat_key: &seat_key,
            now: &cfg.now,
            wants_view: &reads_view,
        };
        // In one process where the game has a session; else through the commands, a judge run
        // per ply (a game of the rules' own length ends far below the bound).
        let played = game.play_match(&path, &play, &mut next)?;
        if let Some(views) = &played {
            final_views.clone_from(views);
        }
        if played.is_none() {
            if !opened {
                judge(Default::default())?;
            }
            for ply in 0..100_000 {
                let Some(turn) = game.turn(&path, &seat_key, &reads_view)? else {
                    if ply == 0 && failure.is_none() && game.summary(&path).is_err() {
                        return Err(Error::Io(format!(
                            "game {k}: play does not begin by itself: a game that waits for \
                             players' reveals (Liubo with dice_mode=self) cannot be played by match"
                        )));
                    }
                    break;
                };
                let seat = turn.seat.clone();
                match next(turn)? {
                    MatchStep::Move {
                        action,
                        comment,
                        offer_draw,
                    } => {
                        let mv = MoveRequest {
                            action: &action,
                            offer_draw,
                            comment,
                            check: true,
                            replace: false,
                        };
                        let _ = game.make_move(&path, &seat, &seat_key(&seat), mv)?;
                        judge(Default::default()).map_err(|e| {
                            Error::Io(format!(
                                "game {k}: the judge refused a move the runner checked: {e}"
                            ))
                        })?;
                    }
                    MatchStep::Forfeit(code) => judge(forfeit(seat, code))?,
                    MatchStep::Adjudicate { winner, reason } => {
                        judge(qijudge_judge::pipeline::Rulings {
                            adjudicate: Some((winner, reason)),
                            ..Default::default()
                        })?
                    }
                }
            }
        }
    }
    let failed = failed.into_inner();
    for (j, (seat, mut bot)) in seats.iter().zip(bots).enumerate() {
        // An engine that played the game through plays on in the next; the others are told
        // the end and stopped.
        let restart = cfg.engine_settings(&cfg.bots[bot_of(j)].name).restart;
        if !failed[j] && !restart && bot.is_engine() {
            if let Some(engine) = bot.into_engine() {
                pool.keep(&cfg.bots[bot_of(j)].name, engine);
            }
            continue;
        }
        // A bot that reads no views is told the end without one; the others get their view
        // from the session, or else from the game's files.
        let kept = final_views
            .iter()
            .find(|(s, _)| s == seat)
            .map(|(_, v)| v.clone());
        let view = match (reads.borrow()[j], kept) {
            (_, Some(view)) => Ok(view),
            (true, None) => game
                .seat_view(&path, seat, Some(&key_file(j)))
                .map(bot_view),
            (false, None) => Ok(BotView::Json(serde_json::Value::Null)),
        };
        if let Ok(view) = view {
            bot.tell(&Request::End { view });
        }
    }
    if game.has_secrets() {
        let _ = game.reveal(&path, None)?;
    }
    let summary = game.summary(&path)?;
    if !cfg.pack {
        memory.flush()?;
        return Ok(from_summary(&path.display().to_string(), &summary));
    }
    // Packed straight from memory: one file, and the few files written before play removed.
    let file = finished_game(&cfg.out, k, true);
    write_atomic(&file, &qijudge_store::packed::pack_files(&memory.files())?)?;
    drop(memory);
    std::fs::remove_dir_all(&path).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    Ok(from_summary(&path.display().to_string(), &summary))
}

/// Asks seat `seat`'s bot for its move, within the time per move or what its clock has left,
/// and charges the time it took to its clock: a bot whose clock runs out loses on time.
fn ask_move(
    bot: &mut dyn Bot,
    view: BotView,
    legal: Vec<String>,
    per_move: Duration,
    clocks: &mut Option<Clocks>,
    seat: usize,
    margin: Duration,
) -> std::result::Result<(Reply, Duration), BotFailure> {
    let allowed = clocks
        .as_ref()
        .map_or(per_move, |c| c.allowed(seat, per_move));
    let request = Request::Move {
        view,
        legal,
        time_ms: allowed.as_millis() as u64,
        clock: clocks.as_ref().map(Clocks::info),
    };
    let started = std::time::Instant::now();
    let reply = bot.ask(&request)?;
    let took = started.elapsed();
    let in_time = clocks.as_mut().is_none_or(|c| c.spend(seat, took, margin));
    if in_time {
        Ok((reply, took))
    } else {
        Err(BotFailure::Timeout)
    }
}

/// A move's comment, as cutechess and fastchess write it in PGN: the engine's score from the
/// mover's side and its depth when it reported them (`+0.35/12`), then the time the move took
/// (`0.123s`) for a program's move. It is signed with the move, so the record keeps each move's
/// own time.
fn move_comment(
    score: Option<super::adjudication::Score>,
    depth: Option<u32>,
    took: Option<Duration>,
) -> Option<String> {
    let time = took.map(|t| format!("{:.3}s", t.as_secs_f64()));
    let score = score.map(|s| match depth {
        Some(d) => format!("{}/{d}", s.pgn()),
        None => s.pgn(),
    });
    match (score, time) {
        (Some(s), Some(t)) => Some(format!("{s} {t}")),
        (one, other) => one.or(other),
    }
}

/// A view as bots receive it.
fn bot_view(view: serde_json::Value) -> BotView {
    BotView::Json(view)
}

/// A square name as a TOML key (bare when it can be).
fn toml_key(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        name.to_string()
    } else {
        toml_string(name)
    }
}

fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_is_named_by_its_name_its_script_or_its_program() {
        let name = |t: &str| BotEntry::parse(t).name;
        assert_eq!(name("fast=uci:/opt/pikafish"), "fast");
        assert_eq!(name("builtin:greedy"), "greedy");
        assert_eq!(
            name("/usr/bin/python3 examples/bots/random_bot.py"),
            "random_bot"
        );
        assert_eq!(name("python3.12 -u mybot.py --depth 3"), "mybot");
        assert_eq!(name("uci:/usr/bin/node engine.js"), "engine");
        assert_eq!(name("/opt/engines/pikafish-avx2"), "pikafish-avx2");
        assert_eq!(name("uci:/usr/bin/node"), "node");
    }
}
