//! The arguments of `qijudge match`, as the command line reads them.

use std::path::PathBuf;

/// The registered games, as `--help` lists them and the parser checks them.
fn game_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(qijudge_registry::registry::names())
}

/// `qijudge match`: bots, games and where they go.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The game (each registered game is listed below).
    #[arg(long, default_value = qijudge_registry::registry::DEFAULT_GAME, value_parser = game_names())]
    pub game: String,
    /// The Luzhanqi board: 2p, or cross4 (four seats: four bots a table, or two bots
    /// each playing a team).
    #[arg(long, default_value = "2p")]
    pub board: String,
    /// A bot: builtin:random, builtin:greedy, a command speaking qijudge-bot/1
    /// ([NAME=]COMMAND), a Xiangqi engine speaking UCI ([NAME=]uci:COMMAND) or UCCI
    /// ([NAME=]ucci:COMMAND), a Jieqi engine over UCI, or a Luzhanqi competition program
    /// ([NAME=]ccgc:COMMAND); two or more.
    /// With more than two, every pair meets (round-robin) unless --gauntlet.
    #[arg(long = "bot", required = true)]
    pub bots: Vec<String>,
    /// Games per encounter: per pair of bots, or per table of four on the cross board.
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// The first bot meets each of the others, who do not meet each other.
    #[arg(long)]
    pub gauntlet: bool,
    /// An opening book (Xiangqi: one FEN or EPD position a line, or a .pgn file whose games'
    /// final positions are the openings; Luzhanqi: a TOML file of [[opening]] tables, each
    /// `rows = [...]` for every seat's army or one array per seat, as in a setup file): each
    /// opening is played twice
    /// in an encounter, the colours reversed (so --games is even), and the result is reported
    /// as pairs too (pentanomial counts and the Elo from pairs).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// The order the book's openings are played in: as written, or shuffled by --seed.
    #[arg(long, default_value = "sequential", value_parser = ["sequential", "random"])]
    pub book_order: String,
    /// Play the book from this opening on (1 = the first line or game of the file), as a fleet
    /// hands a worker its part of a book.
    #[arg(long, value_name = "N")]
    pub book_start: Option<usize>,
    /// A PGN book's games are played up to this many plies each (fastchess's `-openings
    /// plies=`); other books are positions already.
    #[arg(long, value_name = "N")]
    pub book_plies: Option<usize>,
    /// Play this many openings of the book (from --book-start).
    #[arg(long, value_name = "N")]
    pub book_count: Option<usize>,
    /// The book's SHA-256 (hex): the match is refused when the file has another.
    #[arg(long, value_name = "HEX")]
    pub book_sha256: Option<String>,
    /// Two bots: write the result summary (games, wins, losses, draws, points, Ptnml with a
    /// book, the test's LLR with --sprt) as JSON to FILE; it is also printed on standard error
    /// in fastchess's words.
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
    /// Keep each finished game as a folder, OUT/games/game-NNNNN/, instead of one packed file
    /// OUT/games/game-NNNNN.tar.gz (the default; `verify` and `tournament` read either).
    #[arg(long)]
    pub folders: bool,
    /// Each finished game as one packed file: the default, accepted for older scripts.
    #[arg(long, hide = true, conflicts_with = "folders")]
    pub pack: bool,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Time for each answer of a bot, in milliseconds.
    #[arg(long, default_value_t = 5000)]
    pub time_ms: u64,
    /// A clock per seat and game: [MOVES/]BASE+INCREMENT in seconds (`60+0.5`; `40/60`: the
    /// base time again after every 40 moves); a bot whose clock runs out loses on time
    /// (bot-timeout). Bots are told every clock; UCI engines get `go wtime … btime … winc …
    /// binc …` (and `movestogo N`), UCCI engines `go time … increment … opptime …`.
    #[arg(long, value_name = "[MOVES/]BASE+INC")]
    pub tc: Option<String>,
    /// A setting of one UCI or UCCI engine, by its bot name: search limits for every move
    /// (`sf:nodes=2000`, `sf:depth=6`, `sf:movetime=100` in ms; with --tc, added to the clock),
    /// an option (`sf:option.Hash=64`), its square names (`sf:ranks=0` as Pikafish and ICCS,
    /// `sf:ranks=1` as Fairy-Stockfish over UCI; detected when not given), its FEN letters
    /// (`sj:letters=RHEAKCP` for Sjaak II), or, over UCCI, `banmoves=on` (the moves that lose
    /// by repetition are banned). Repeat as needed.
    #[arg(long = "engine", value_name = "NAME:KEY=VALUE")]
    pub engines: Vec<String>,
    /// Adjudicate a loss by score (Xiangqi and Jieqi): a side loses when, for its last MOVES
    /// moves, its engine scored at most -CP and the opponent's at least +CP (`3:600`, or as
    /// cutechess-cli writes it, `movecount=3 score=600`). Each move's reported score is in its
    /// signed comment; the ruling is a signed record line.
    #[arg(long, value_name = "MOVES:CP")]
    pub resign: Option<String>,
    /// Adjudicate a draw by score (Xiangqi and Jieqi): from full move FROM, a draw when both
    /// engines scored within ±CP for their last MOVES moves each (`40:8:10`, or as cutechess-cli
    /// writes it, `movenumber=40 movecount=8 score=10`).
    #[arg(long, value_name = "FROM:MOVES:CP")]
    pub draw: Option<String>,
    /// Adjudicate a draw once this many full moves (one ply of every seat) were played, in
    /// every game; 0 for no maximum. A game's own limits (Luzhanqi's max-plies, Liubo's
    /// ply_limit, the quiet-ply limits) still end it first when they come first.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_moves: u32,
    /// Also write every finished game as PGN, in game order, with each engine's score as a
    /// comment and the ending in a Termination tag (Xiangqi), to this file.
    #[arg(long, value_name = "FILE")]
    pub pgn_out: Option<PathBuf>,
    /// With --pgn-out: the moves without their comments (fastchess's `min=true`), for readers
    /// that take no comments.
    #[arg(long, requires = "pgn_out")]
    pub pgn_plain: bool,
    /// Stop once a sequential test decides between the first bot being elo0 or elo1 Elo
    /// stronger than the second (two bots only): elo0=0,elo1=10[,alpha=0.05][,beta=0.05].
    #[arg(long, value_name = "SETTINGS")]
    pub sprt: Option<String>,
    /// Where the games, keys and state go.
    #[arg(long, default_value = "match")]
    pub out: PathBuf,
    /// Play only part of the match: i/n plays games k with (k-1) mod n = i.
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// A rule option as key=value. A match sets what its game needs for random bots' games to
    /// end by rule (Luzhanqi max-plies=1000, Liubo ply_limit=1000, the move limits on) unless
    /// told otherwise; --max-moves ends every game in any case.
    #[arg(long = "rule")]
    pub rules: Vec<String>,
    #[arg(long, default_value = "text", value_parser = ["text", "json", "csv", "markdown"])]
    pub format: String,
    /// Keep each process bot's standard error in OUT/logs/.
    #[arg(long)]
    pub bot_logs: bool,
    /// Keep each process bot's whole conversation in OUT/logs/game-NNNNN-NAME.log, one line per
    /// line, timestamped (UTC, milliseconds): `>` to it, `<` from it, `!` its standard error.
    #[arg(long)]
    pub bot_io_logs: bool,
    /// The folder one process bot starts in, NAME=FOLDER (fastchess's dir=): relative paths
    /// of its command are read from there; with the sandbox on, the folder is visible to the
    /// bots read-only (grant it with --bot-write to let it write there).
    #[arg(long = "bot-dir", value_name = "NAME=FOLDER")]
    pub bot_dirs: Vec<String>,
    /// An environment variable of one process bot, NAME:VAR=VALUE (a wine-hosted program's
    /// WINEPREFIX, say); repeat for more. Bots get PATH, HOME, TMPDIR and LANG besides.
    #[arg(long = "bot-env", value_name = "NAME:VAR=VALUE")]
    pub bot_env: Vec<String>,
    /// What standard output carries: `text` (the standings, in --format, at the end) or
    /// `fastchess`, as engine-testing fleets read it: a `Started game`/`Finished game` line per
    /// game and fastchess's results block every --rating-interval, then `Finished match`.
    #[arg(long, default_value = "text", value_parser = ["text", "fastchess"])]
    pub output: String,
    /// With --output fastchess: the results block after every N pairs (every N games without a
    /// book), and at the end; 0: at the end only.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub rating_interval: u32,
    /// With a book: count, report and test on pairs (pentanomial), as fastchess's
    /// `-report penta=true`, its default; `false`: on games.
    #[arg(long, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set)]
    pub report_penta: bool,
    /// A file or folder process bots may read (their own program files are readable
    /// already); repeat for more. See docs/bots.md.
    #[arg(long = "bot-read", value_name = "PATH")]
    pub bot_read: Vec<PathBuf>,
    /// A file or folder process bots may read and write; repeat for more.
    #[arg(long = "bot-write", value_name = "PATH")]
    pub bot_write: Vec<PathBuf>,
    /// `on`: each process bot and engine runs in its own namespaces (bubblewrap: no other
    /// process, no network, only its folder writable) under Landlock; refused where a layer is
    /// missing. `off`: its own folder and a clean environment only; it can reach what your
    /// user can. See docs/bots.md.
    #[arg(long = "bot-sandbox", default_value = "on", value_parser = ["on", "off"])]
    pub bot_sandbox: String,
    /// What process bots and engines may consume, for every bot (`KEY=VALUE,…`) or one
    /// (`NAME:KEY=VALUE,…`): memory (1G), processes (64, threads included), disk (64M in each
    /// of its folder, /tmp and /dev/shm, and the largest file), files (256 open), log (16M of
    /// standard error a game); `unlimited` lifts one. A bot that reaches one loses the game
    /// (`forfeit (bot-limit-memory)`). See docs/bots.md.
    #[arg(long = "bot-limit", value_name = "[NAME:]KEY=VALUE,…")]
    pub bot_limit: Vec<String>,
}
