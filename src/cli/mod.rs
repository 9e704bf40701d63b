//! The command line: argument parsing and one function per subcommand. Commands call the
//! library and print; they decide nothing about rules or trust themselves.

mod player;

use clap::{Args, Parser, Subcommand};
use qijudge_protocol::error::{Error, Result};
use std::path::{Path, PathBuf};

/// qijudge: an auditable judge for board games played by signed turn files.
///
/// Exit codes: 0 success, 1 refused input (the reason on stderr names the file and field),
/// 2 usage or I/O error.
#[derive(Parser, Debug)]
#[command(name = "qijudge", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Make an OpenSSH Ed25519 key pair (NAME and NAME.pub), for players who have none.
    ///
    /// Example: qijudge keygen alice
    Keygen {
        /// Path of the private key; the public key goes to NAME.pub.
        name: PathBuf,
    },
    /// Create a game directory with its manifest (game.toml).
    ///
    /// Example: qijudge new luzhanqi game1 --player alice=alice.pub --player bob=bob.pub
    ///   --judge judge.pub --rule mines=explode
    New {
        /// The game (each registered game is listed below).
        #[arg(value_parser = game_names())]
        game: String,
        /// The game directory.
        dir: PathBuf,
        /// NAME=PUBLIC_KEY_FILE or NAME=PUBLIC_KEY_FILE=EMAIL (the address the club mail judge
        /// answers; EMAIL=digest: one mail a day for this game, a digest), once per seat in seat order (luzhanqi: south, north; on the cross board:
        /// south, east, north, west; xiangqi: red, black; liubo: a, b; jieqi: red, black;
        /// banqi: first, second).
        #[arg(long = "player", required = true)]
        players: Vec<String>,
        /// The judge's public key file.
        #[arg(long)]
        judge: PathBuf,
        /// A rule option as key=value; repeat as needed. luzhanqi: docs/rules.md (every
        /// option and its default; an unknown key lists them); xiangqi: start=FEN,
        /// move-limit=on; jieqi: captured=both|captor|nobody, advisors-elephants=free|confined,
        /// move-limit=on; liubo: dice_mode=escrow|self, ply_limit=N, chain_length=N,
        /// stones_capture_stones, extra_throw_on_doubles, turn_at_x_for_stones,
        /// release_on_reach (docs/liubo.md); banqi: move-limit=on|off|N, repetition=on|off,
        /// cannon-takes-face-down, chariot-runs, chain-captures, cannon-takes-adjacent,
        /// long-chase (each on|off), ranking=standard|hong-kong (docs/banqi.md).
        #[arg(long = "rule")]
        rules: Vec<String>,
        /// Creation time to record (RFC 3339); default now.
        #[arg(long)]
        now: Option<String>,
        /// Mark the game as a shipped sample whose keys are public.
        #[arg(long, hide = true)]
        sample: bool,
        /// Deadlines: MOVE[:GRACE[:forfeit|nothing[:VACATION_DAYS]]] per move, MOVE and GRACE in
        /// minutes or with a unit (`3d:1d`, `12h`, `90m`), on the judge's clock from the receipt
        /// of the previous move; VACATION_DAYS: the days of vacation each seat may take (mail
        /// command `vacation GAME DAYS`, or `judge --vacation`).
        #[arg(long)]
        clock: Option<String>,
        /// Play in public (git): setups arrive sealed to the judge and each seat's view is
        /// published sealed to that seat's key (age, ssh-ed25519): every game whose players
        /// hold secrets (docs/git.md).
        #[arg(long)]
        sealed: bool,
        /// Luzhanqi board: 2p (two players) or cross4 (four players in two teams, 四国军棋).
        #[arg(long, default_value = "2p")]
        board: String,
    },
    /// Validate a setup, salt it, commit to it and sign the commitment.
    ///
    /// Writes commitments/SEAT.toml(.sig), to publish, and setups/SEAT.toml, the secret to hand
    /// to the judge once every seat's commitment is recorded.
    /// Example: qijudge setup game1 --as south --key alice my-setup.toml
    Setup {
        /// The game directory.
        dir: PathBuf,
        /// Your seat (south, north, east, west; red, black; a, b), in any case.
        #[arg(long = "as", value_parser = seat_name)]
        seat: String,
        /// Your private key (OpenSSH Ed25519; asks for its passphrase on a terminal), or your
        /// public key (KEY.pub) to sign with the key held in ssh-agent.
        #[arg(long, required_unless_present = "template")]
        key: Option<PathBuf>,
        /// Your setup in TOML: squares as keys (a1 = "landmine") or rows = [...]; - for stdin.
        /// Not for Liubo, where `setup` makes the throw chain and its signed commitment.
        #[arg(conflicts_with_all = ["random", "template"])]
        setup: Option<PathBuf>,
        /// Print a commented setup to start from (Luzhanqi), and write nothing:
        /// `qijudge setup GAME --as south --template > my-setup.toml`.
        #[arg(long, conflicts_with = "random")]
        template: bool,
        /// Commit to a random legal setup (Luzhanqi), printed for you. With SEED the setup is
        /// reproducible, and so anyone who guesses SEED can rebuild it: for tests and bots only.
        #[arg(long, value_name = "SEED", num_args = 0..=1, default_missing_value = "")]
        random: Option<String>,
        /// Seal the setup to the judge's key (sealed/SEAT.age) instead of writing it in clear;
        /// the default in a game created with `new --sealed`.
        #[arg(long)]
        seal: bool,
    },
    /// Write a signed move for the next ply, answering the current record head.
    ///
    /// Example: qijudge move game1 --as south --key alice a5-a6
    Move {
        /// The game directory.
        dir: PathBuf,
        /// Your seat (south, north, east, west; red, black; first, second; a, b), in any case.
        #[arg(long = "as", value_parser = seat_name)]
        seat: String,
        /// Your private key (OpenSSH Ed25519; asks for its passphrase on a terminal), or your
        /// public key (KEY.pub) to sign with the key held in ssh-agent.
        #[arg(long)]
        key: PathBuf,
        /// Luzhanqi: from-to (a6-a9, A6-A7 or a6a7; sa6-ma1 on the cross board). Xiangqi and
        /// Jieqi: any notation (h2e2, h2-e2, C2.5, 炮二平五; annotations like ! and + ignored).
        /// Banqi: a square to turn up (c2) or a move (c2c3). Liubo: a turn, its moves separated
        /// by commas, each VALUE:PATH ("3:in-3, 2:6-8"; an owl with its whole path, 2:owl:X-C-D;
        /// ^ promotes a stone ending on X, 1:B-X^), or reveal (self mode: your chain element).
        /// Every game: resign; where draws are offered, accept-draw after the opponent's offer.
        /// `qijudge moves GAME --as SEAT` lists your moves. Leave it out with --if.
        #[arg(required_unless_present_any = ["if_lines", "withdraw_if"])]
        action: Option<String>,
        /// While your opponent is to move: your answer to a reply you expect, written in
        /// advance, as REPLY=ANSWER, several plies deep as REPLY=ANSWER,REPLY=ANSWER (e6-e5=a6-a5;
        /// in Luzhanqi a reply may name its outcome, e6-e5/defender_won). Give --if once per
        /// line; the judge plays the first line that matches. Replaces your earlier ones.
        #[arg(long = "if", value_name = "REPLY=ANSWER,…", conflicts_with = "action")]
        if_lines: Vec<String>,
        /// Withdraw your conditional answers (writes a conditional file with no line).
        #[arg(long, conflicts_with_all = ["action", "if_lines"])]
        withdraw_if: bool,
        /// Offer a draw with this move; the opponent may answer accept-draw.
        #[arg(long)]
        offer_draw: bool,
        /// A comment for the opponent.
        #[arg(long)]
        comment: Option<String>,
        /// Write the file without checking the move against your view (the judge still
        /// decides): for a view you believe is wrong, or to test a judge.
        #[arg(long)]
        no_check: bool,
        /// Your file for this ply is still here and the judge refused it (its notice says so):
        /// set it aside into refused/ and write this one. Without it an existing file is never
        /// replaced.
        #[arg(long)]
        replace: bool,
    },
    /// Verify and replay every file, append what is new to the record, write signed views.
    ///
    /// Example: qijudge judge game1 --key judge
    Judge {
        /// The game directory.
        dir: PathBuf,
        /// The judge's private key.
        #[arg(long)]
        key: PathBuf,
        /// Receipt time for new moves (RFC 3339); default now.
        #[arg(long)]
        now: Option<String>,
        /// Print a refusal's private details on stderr (for a judge whose output nobody else
        /// reads). Without it, stderr shows only the file, the field and a reason code, and the
        /// details go to views/SEAT.refusal.txt.
        #[arg(long)]
        details: bool,
        /// End the game now: SEAT forfeits, with a reason code (`north:missed-deadline`); a game
        /// already over keeps its result.
        #[arg(long, value_name = "SEAT:REASON")]
        forfeit: Option<String>,
        /// Grant SEAT a vacation of DAYS days from now, within the allowance of the game's clock
        /// (`--clock M:G:forfeit:DAYS` at `new`): SEAT's deadlines stop meanwhile. Recorded in
        /// the signed record; players ask by mail with `vacation GAME DAYS`.
        #[arg(long, value_name = "SEAT:DAYS")]
        vacation: Option<String>,
        /// CI mode for a game in a git repository: first check that the change
        /// since --base only adds player files, changes nothing published and only grows the
        /// record, then judge; outputs are left ready to commit. Exit 1 on any refusal.
        #[arg(long, conflicts_with_all = ["details", "forfeit", "vacation"])]
        ci: bool,
        /// With --ci: the revision the change starts from (the branch's last judged commit).
        #[arg(long, requires = "ci")]
        base: Option<String>,
        /// With --ci: the revision to check against --base (default HEAD; a pre-receive hook
        /// gives the pushed commit).
        #[arg(long, requires = "base")]
        head: Option<String>,
        /// With --ci: `github` prints refusals and accepted moves as workflow annotations.
        #[arg(long, default_value = "text", value_parser = ["text", "github"], requires = "ci")]
        format: String,
        /// With --ci: the change is the judge's own commit, which alone may set refused files
        /// aside into refused/ (a self-hosted server's judge job; see docs/git.md).
        #[arg(long, requires = "ci")]
        judge_commit: bool,
    },
    /// The rules on a change to a repository of games (CI, hooks): for every game of --base and
    /// of the new tree, no game is deleted, moved, nested or changed, games hold regular files
    /// only, nothing outside them changes but what .qijudge-allow permits, and each touched
    /// game's change only adds player files and grows its record. Then, with --key, each touched
    /// game is judged (outputs left ready to commit); without, each new file is prechecked.
    /// Exit 0 all kept, 1 a refusal (every game is still handled), 2 usage or I/O error.
    ///
    /// Example: qijudge ci . --base origin/main --head HEAD
    Ci {
        /// Any folder of the repository (default: the current one).
        #[arg(default_value = ".")]
        repo: PathBuf,
        /// The revision the change starts from (the branch's last judged commit; git's empty
        /// tree 4b825dc… when the change creates the repository).
        #[arg(long)]
        base: String,
        /// The revision to check (a pushed commit); without it, the index (a pre-commit check).
        #[arg(long)]
        head: Option<String>,
        /// The judge's private key: judge every game the change touches.
        #[arg(long)]
        key: Option<PathBuf>,
        /// Receipt time for new moves (RFC 3339); default now.
        #[arg(long, requires = "key")]
        now: Option<String>,
        /// The change is the judge's own commit, which alone may set refused files aside.
        #[arg(long)]
        judge_commit: bool,
        /// The change is the repository owner's (a server hook that knows its pusher): files
        /// outside the games may change, .qijudge-allow included, and games may be created
        /// anywhere; each game's own rules still hold.
        #[arg(long)]
        owner_change: bool,
        /// `github` also prints refusals as workflow annotations.
        #[arg(long, default_value = "text", value_parser = ["text", "github"])]
        format: String,
    },
    /// Check new move files before committing them (a pre-commit hook; every game): signature,
    /// game, ply, turn and the record head they answer, against the judge's signed record;
    /// with your key, the move's legality on your own view. With --staged, also the rules on
    /// what a commit may change (as the judge's CI mode applies them).
    ///
    /// Example: qijudge precheck game1 --key alice --staged
    Precheck {
        /// The game directory.
        dir: PathBuf,
        /// Your private key: also check legality on your view.
        #[arg(long)]
        key: Option<PathBuf>,
        /// Check what the git index adds or changes under DIR since HEAD.
        #[arg(long)]
        staged: bool,
    },
    /// Print one audience's view, after checking the judge's signature on it.
    ///
    /// Example: qijudge view game1 --as south --format text
    View {
        /// The game directory.
        dir: PathBuf,
        /// Whose view: a seat (south, north; east, west on the cross board; red, black; a, b),
        /// public (spectators) or full (Luzhanqi, after the game).
        #[arg(long = "as", value_parser = seat_name)]
        audience: String,
        /// text, json, svg or png (the board picture, drawn from the view; png as bytes, so
        /// send it to a file: `> board.png`).
        #[arg(long, default_value = "text", value_parser = ["text", "json", "svg", "png"])]
        format: String,
        /// Chinese piece labels (军长, 車) in the text view and in pictures.
        #[arg(long)]
        chinese: bool,
        /// Your private key, to open your sealed view (games created with --sealed).
        #[arg(long)]
        key: Option<PathBuf>,
    },
    /// Write the replay page: one self-contained HTML file that steps through the game move by
    /// move as one audience saw it (board, move list, what happened), for a browser.
    ///
    /// Made after the game from the revealed setups (or by the judge from its own folder).
    /// Example: qijudge html game1 --as public --out replay.html
    Html {
        /// The game directory.
        dir: PathBuf,
        /// Whose replay: a seat, public (spectators) or full (after the game).
        #[arg(long = "as", value_parser = seat_name, default_value = "public")]
        audience: String,
        /// Chinese piece labels.
        #[arg(long)]
        chinese: bool,
        /// Where to write the page (written whole, then renamed into place); default: standard
        /// output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print the events one audience may see, one JSON object per line (qijudge/luzhanqi-event/1).
    ///
    /// A judge's tool for disputes and bot authors: it replays the game from the judge's files
    /// (secret setups included) and prints only what the audience may know. `full` is refused
    /// before the game is over.
    /// Example: qijudge events game1 --as south
    Events {
        /// The game directory.
        dir: PathBuf,
        /// A seat (south, north; east, west on the cross board), public or full.
        #[arg(long = "as", value_parser = seat_name)]
        audience: String,
    },
    /// Every game under a folder, whose turn it is and by when: the player's own turns first
    /// with --key or --address. A game that cannot be read is listed with why.
    /// Example: qijudge games club/ --key ~/.ssh/id_ed25519.pub
    Games {
        /// A folder of game folders (searched below, not into a game).
        root: PathBuf,
        /// Only the games of the player with this public key file; its turns first.
        #[arg(long)]
        key: Option<PathBuf>,
        /// Only the games of the player with this e-mail address in game.toml.
        #[arg(long)]
        address: Option<String>,
        #[arg(long)]
        json: bool,
        /// The clock for the deadlines (RFC 3339); default now.
        #[arg(long)]
        now: Option<String>,
    },
    /// The club's page: a static site of every game under a folder (an index of the games in
    /// play and finished, a page per game with its public replay, a page per player, standings
    /// per kind, an Atom feed), made only from what the public may read. Run it again after
    /// each judge run: only what changed is read and written (docs/site.md).
    ///
    /// Example: qijudge site club/ --out site/ --judge judge.pub
    Site {
        /// A folder of game folders (searched below, not into a game).
        root: PathBuf,
        /// The site's folder (outside every game).
        #[arg(long)]
        out: PathBuf,
        /// The judge whose games count in the standings (its public key file); repeat for
        /// several. Without it no game is counted.
        #[arg(long = "judge")]
        judges: Vec<PathBuf>,
        /// Pages in Chinese.
        #[arg(long)]
        chinese: bool,
        /// The club's name, for the titles.
        #[arg(long)]
        title: Option<String>,
        /// The site's address (https://club.example.org/games), for the feed's links.
        #[arg(long)]
        url: Option<String>,
        /// The clock for the statuses (RFC 3339); default now.
        #[arg(long)]
        now: Option<String>,
    },
    /// Whose turn it is, and the result when the game is over.
    Status {
        /// The game directory.
        dir: PathBuf,
        #[arg(long)]
        json: bool,
        /// The judge's clock for the deadline (RFC 3339); default now.
        #[arg(long)]
        now: Option<String>,
    },
    /// Publish the setups after the game (setups/ to reveal/), so anyone can verify.
    Reveal {
        dir: PathBuf,
        /// Sealed games: the judge's key (opens every setup) or a seat's key (its own).
        #[arg(long)]
        key: Option<PathBuf>,
    },
    /// Audit a finished game from its public files and revealed setups.
    ///
    /// Re-checks the manifest, every signature and commitment, every move and combat, the
    /// record, and every published view.
    Verify { dir: PathBuf },
    /// Pack finished games, each into one file DIR.tar.gz that `verify` and `tournament` read.
    ///
    /// Each game is verified, packed, and read back from the archive with the same result
    /// before anything else happens; the folder is kept unless --remove.
    /// Example: qijudge pack match/games/game-00001 --remove
    Pack {
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Remove each folder once its archive is written and checked.
        #[arg(long)]
        remove: bool,
    },
    /// Audit many game directories and print standings, crosstable and Elo.
    ///
    /// Each DIR is a game directory or a folder of them (e.g. a match's OUT/games). Games are
    /// audited in parallel; an invalid game is listed and counted, and the exit code is 1.
    /// Only games judged by a trusted key count: each --judge key, or, without --judge, the key
    /// of the match each DIR belongs to (OUT/keys/judge.pub, beside OUT/games). Pool others'
    /// shards with --judge.
    /// Example: qijudge tournament results/ --format markdown
    /// Example: qijudge tournament shard-*/games --judge organiser-judge.pub
    Tournament {
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// A judge's public key file (`ssh-ed25519 AAAA…`) whose games count; repeat for
        /// several. `--judge any` counts games of every judge (each listed by its key).
        #[arg(long = "judge", value_name = "KEY")]
        judges: Vec<PathBuf>,
        #[arg(long, default_value = "text", value_parser = ["text", "json", "csv", "markdown"])]
        format: String,
        /// Games audited at once.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// With two players: a sequential test over every counted game (pooled shards
        /// included), `elo0=0,elo1=10[,alpha=0.05][,beta=0.05]`, as `match --sprt`.
        #[arg(long, value_name = "SETTINGS")]
        sprt: Option<String>,
        /// With two players: the games came in pairs, an opening with each colour (a match
        /// with --book): the summary counts pairs (Ptnml) and the test is decided on them.
        #[arg(long)]
        pairs: bool,
        /// With two players: the player the summary and the test are about (default: the
        /// first seat's in the lowest-numbered game, the match's first --bot).
        #[arg(long, value_name = "NAME")]
        first: Option<String>,
        /// With two players: also write the summary as JSON to FILE.
        #[arg(long, value_name = "FILE")]
        summary_json: Option<PathBuf>,
        /// Check every file of every game, as verify does: every player's signature and every
        /// view. Without it, a game judged by a pinned judge is checked through its record,
        /// which that judge signed: one signature, the hash chain and the rules' replay of
        /// every recorded file (with --judge any, every game is audited).
        #[arg(long)]
        audit: bool,
    },
    /// Play bots against each other; every game is written as an ordinary signed game directory.
    ///
    /// A bot is `[NAME=]builtin:random`, `[NAME=]builtin:greedy`, `[NAME=]COMMAND` (run with
    /// sh -c; it speaks qijudge-bot/1), `[NAME=]uci:COMMAND` or `[NAME=]ucci:COMMAND` (a Xiangqi
    /// engine over UCI or UCCI, or a Jieqi engine over UCI), `[NAME=]ccgc:COMMAND` (a two-player
    /// Luzhanqi program of the CCGC competitions); see
    /// docs/bots.md. Two bots meet --games times; more meet pair by pair (or --gauntlet); on
    /// the cross board, four or more play tables of four. Seats change every game. A bot that
    /// crashes, hangs, answers garbage or an illegal move, runs out of its --tc clock or reaches
    /// one of its --bot-limit limits loses that game. Progress goes to standard error; Ctrl-C
    /// finishes the games in flight (twice: drops them) and exits 130; the same command again
    /// resumes from OUT/match.json.
    ///
    /// Example: qijudge match --game luzhanqi --bot builtin:random --bot "python3 examples/bots/random_bot.py" --games 10
    ///
    /// Example: qijudge match --game xiangqi --bot a=builtin:greedy --bot b=builtin:random --bot c=builtin:random --games 4
    Match(Box<qijudge_tournament::args::MatchArgs>),
    /// Play a match from fastchess's command line, printing what fastchess prints.
    ///
    /// Engine-testing fleets (OpenBench, fishtest) start fastchess with `-engine cmd=… name=…`,
    /// `-each`, `-openings`, `-rounds`, `-games`, `-sprt`, … and read its standard output; put
    /// qijudge there with a two-line script. qijudge's own options (--game, --out, any of
    /// `match`'s) may come among them. See docs/bots.md, "Fleets".
    ///
    /// Example: qijudge fastchess --out m -engine cmd=builtin:greedy name=a proto=bot -engine cmd=builtin:random name=b proto=bot -rounds 2 -repeat
    Fastchess {
        /// fastchess's options, and qijudge match's.
        #[arg(allow_hyphen_values = true, trailing_var_arg = true, num_args = 1.., value_name = "ARGS")]
        args: Vec<String>,
    },
    /// Run a built-in bot (random or greedy) on standard input and output, speaking qijudge-bot/1.
    Bot {
        #[arg(value_parser = ["random", "greedy"])]
        name: String,
        #[arg(long, default_value = qijudge_registry::registry::DEFAULT_GAME, value_parser = game_names())]
        game: String,
    },
    /// Inside the bot sandbox (run by bwrap, never by hand): applies Landlock and runs the bot.
    #[command(hide = true)]
    SandboxExec {
        #[arg(long)]
        read: Vec<PathBuf>,
        #[arg(long)]
        write: Vec<PathBuf>,
        #[arg(long)]
        rlimit: Vec<String>,
        #[arg(last = true, required = true)]
        argv: Vec<std::ffi::OsString>,
    },
    /// Count the leaf nodes of the legal-move tree (perft), for checking move generation.
    ///
    /// The total is the last line of standard output; timing goes to standard error.
    /// Example: qijudge perft xiangqi 4 --divide
    Perft {
        /// The game: xiangqi.
        game: String,
        depth: u32,
        /// Start from this FEN instead of the standard start.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each first move before the total.
        #[arg(long)]
        divide: bool,
    },
    /// Check recorded games (PGN) move by move: the first illegal move, or the final status and
    /// the result the rules force, and whether the Result tag agrees.
    ///
    /// Moves may be in ICCS (H2-E2), WXF (C2.5) or Chinese (炮二平五). Exit code 1 when any game
    /// has an illegal move.
    /// Example: qijudge check xiangqi games.pgn --json
    Check {
        /// The game: xiangqi.
        game: String,
        /// PGN files; - for standard input.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON object per game on standard output.
        #[arg(long)]
        json: bool,
        /// Apply the optional move limit (120 plies without a capture).
        #[arg(long)]
        move_limit: bool,
    },
    /// Take moves, setups and commitments out of e-mail, judge, and write the outgoing mail.
    ///
    /// MESSAGE is an .eml file, an mbox, or - for standard input. Files come as attachments or
    /// pasted into a text/plain body (quoted replies are ignored); the sender is whoever signed
    /// them. A refused message changes nothing and can be sent again.
    /// With --games ROOT, one address serves every game under ROOT: each message goes to the
    /// game its signed files name (or, without files, the game it replies to or names in its
    /// subject), and a message for no game gets a short help reply (one a day per address).
    ///
    /// Example: qijudge inbox game1 msg.eml --key judge --outbox out/ --from judge@example.org
    /// Example: qijudge inbox --games club/ --maildir ~/Maildir --key judge --sendmail 'sendmail -t' --from judge@example.org
    Inbox {
        /// The game directory (without --games).
        #[arg(required_unless_present = "games")]
        dir: Option<PathBuf>,
        /// Messages or mboxes (`-` for standard input), at most 32 MiB each.
        #[arg(required_unless_present_any = ["maildir", "games"], conflicts_with = "maildir")]
        messages: Vec<PathBuf>,
        /// Serve every game under this folder (game folders up to three levels down) from one
        /// address; every positional argument is then a message.
        #[arg(long, value_name = "ROOT")]
        games: Option<PathBuf>,
        /// Read the new messages of this Maildir (from procmail, fetchmail or an MTA); each is
        /// handled once, then moved to cur/.
        #[arg(long)]
        maildir: Option<PathBuf>,
        /// The judge's private key. Without it (a player's copy), the files are only taken in:
        /// the judge's record and views from its mail, or a finished game's bundle, or moves;
        /// nothing is judged or sent.
        #[arg(long)]
        key: Option<PathBuf>,
        /// The judge's clock (RFC 3339); default now. The sender's Date header never counts.
        #[arg(long)]
        now: Option<String>,
        #[command(flatten)]
        mail: MailArgs,
        /// Addresses that get the public view (with --games: of every game).
        #[arg(long = "spectator")]
        spectators: Vec<String>,
        /// More spectators, one address a line (`#` starts a comment), read at every run: a
        /// club adds one without touching its cron line.
        #[arg(long = "spectators", value_name = "FILE")]
        spectators_file: Option<PathBuf>,
        /// With --games: bring the club's page in this folder up to date after the run
        /// (`qijudge site ROOT --out SITE`, the judge's games counted; docs/site.md).
        #[arg(long, value_name = "SITE", requires = "games")]
        site: Option<PathBuf>,
    },
    /// Invite the players by e-mail: to each seat with an address, the manifest, its seat and
    /// the steps to a first move (a setup template for Luzhanqi). Sent once.
    ///
    /// Example: qijudge invite game1 --from judge@example.org --outbox out/
    Invite {
        /// The game directory.
        dir: PathBuf,
        /// The judge's clock (RFC 3339) for the Date header; default now.
        #[arg(long)]
        now: Option<String>,
        #[command(flatten)]
        mail: MailArgs,
    },
    /// Remind the seat to move by e-mail when its deadline is near or its grace is running;
    /// once per ply and state. For a cron job, beside `judge`.
    ///
    /// Example: qijudge remind game1 --from judge@example.org --sendmail "msmtp -t"
    ///
    /// Example: qijudge remind --games club --from judge@example.org --sendmail "msmtp -t"
    Remind {
        /// The game directory (without --games).
        #[arg(required_unless_present = "games", conflicts_with = "games")]
        dir: Option<PathBuf>,
        /// Remind in every game under this folder (a club: one cron line for all its games);
        /// a game that cannot be read is named and the others go on.
        #[arg(long, value_name = "ROOT")]
        games: Option<PathBuf>,
        /// The judge's clock (RFC 3339); default now.
        #[arg(long)]
        now: Option<String>,
        /// Remind when the move is due within this many minutes.
        #[arg(long, default_value_t = 720)]
        before: u32,
        #[command(flatten)]
        mail: MailArgs,
    },
    /// Print a judged Xiangqi game as PGN.
    ///
    /// Example: qijudge pgn game1 --notation chinese > game1.pgn
    Pgn {
        /// The game directory.
        dir: PathBuf,
        /// `chinese` prints traditional characters (炮二平五, 馬８進７), `chinese-simplified`
        /// simplified ones (马８进７), as mainland books do.
        #[arg(
            long,
            default_value = "iccs",
            value_parser = ["iccs", "wxf", "chinese", "chinese-simplified"]
        )]
        notation: String,
    },
    /// Print legal moves, one per line, sorted: a seat's moves in a game directory, worked out
    /// from that seat's own view (sealed games: opened with --key), or the moves of a Luzhanqi
    /// position file.
    ///
    /// Example: qijudge moves game1 --as south
    /// Example: qijudge moves luzhanqi position.json
    Moves {
        /// A game directory, or the game name `luzhanqi` followed by a position file.
        target: PathBuf,
        /// A position file (JSON, see schemas/luzhanqi-position.schema.json); - for stdin.
        position: Option<PathBuf>,
        /// The seat whose moves to list (with a game directory).
        #[arg(long = "as", value_name = "SEAT", value_parser = seat_name)]
        seat: Option<String>,
        /// The seat's private key, to open its sealed view.
        #[arg(long)]
        key: Option<PathBuf>,
    },
}

impl Command {
    /// The game folder the command works on, as typed.
    fn folder(&self) -> Option<&Path> {
        match self {
            Command::Setup { dir, .. }
            | Command::Move { dir, .. }
            | Command::Judge { dir, .. }
            | Command::Precheck { dir, .. }
            | Command::View { dir, .. }
            | Command::Html { dir, .. }
            | Command::Events { dir, .. }
            | Command::Status { dir, .. }
            | Command::Reveal { dir, .. }
            | Command::Pgn { dir, .. }
            | Command::Verify { dir } => Some(dir),
            Command::Moves {
                target,
                position: None,
                ..
            } => Some(target),
            _ => None,
        }
    }
}

fn remember_folder(command: &Command) {
    if let Some(dir) = command.folder() {
        qijudge_game::console::remember_folder(dir);
    }
}

/// The registered games, as `--help` lists them and the parser checks them.
fn game_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(qijudge_registry::registry::names())
}

/// Runs a parsed command line.
/// A seat or audience name as typed: every game's names are lower case, so `South` is `south`.
fn seat_name(text: &str) -> std::result::Result<String, String> {
    let name = text.trim().to_lowercase();
    if name.is_empty() {
        return Err("give a seat name (south, north, red, black, a, b, …)".into());
    }
    Ok(name)
}

pub fn run(cli: Cli) -> Result<()> {
    remember_folder(&cli.command);
    match cli.command {
        Command::Tournament {
            dirs,
            judges,
            format,
            threads,
            sprt,
            pairs,
            first,
            summary_json,
            audit,
        } => qijudge_tournament::commands::tournament(
            &dirs,
            &judges,
            &format,
            threads,
            &qijudge_tournament::commands::Pooled {
                sprt,
                pairs,
                first,
                summary_json,
            },
            audit,
        ),
        Command::Match(args) => qijudge_tournament::commands::run(&args),
        Command::Fastchess { args } => qijudge_tournament::commands::fastchess(&args),
        Command::Bot { name, game } => qijudge_tournament::commands::bot(&name, &game),
        Command::SandboxExec {
            read,
            write,
            rlimit,
            argv,
        } => Err(qijudge_protocol::error::Error::Io(
            qijudge_engine::sandbox::exec_confined(&read, &write, &rlimit, &argv),
        )),
        Command::Events { dir, audience } => qijudge_registry::commands::events(&dir, &audience),
        Command::Keygen { name } => player::keygen(&name),
        Command::New {
            game,
            dir,
            players,
            judge,
            rules,
            now,
            sample,
            clock,
            sealed,
            board,
        } => qijudge_registry::commands::new(
            &game,
            &dir,
            &players,
            &judge,
            &rules,
            qijudge_registry::commands::NewOptions {
                now,
                sample,
                clock,
                sealed,
                board,
            },
        ),
        Command::Setup {
            dir,
            seat,
            key,
            setup,
            seal,
            template,
            random,
        } => {
            let source = match (&setup, random.as_deref()) {
                (Some(file), _) => qijudge_game::SetupSource::File(file),
                (None, Some("")) => qijudge_game::SetupSource::Random(None),
                (None, Some(seed)) => {
                    qijudge_game::SetupSource::Random(Some(seed.parse().map_err(|_| {
                        qijudge_protocol::error::Error::Io(format!(
                            "--random: {seed:?} is not a seed (a whole number from 0 to 2^64-1)"
                        ))
                    })?))
                }
                (None, None) => qijudge_game::SetupSource::None,
            };
            player::setup(&dir, &seat, key.as_deref(), source, seal, template)
        }
        Command::Move {
            dir,
            seat,
            key,
            action,
            offer_draw,
            comment,
            no_check,
            replace,
            if_lines,
            withdraw_if,
        } => match action {
            _ if withdraw_if || !if_lines.is_empty() => qijudge_game::console::print_report(
                qijudge_registry::conditional::write(&dir, &seat, &key, &if_lines)?,
            ),
            None => Err(Error::Io("move: give the move, or --if".into())),
            Some(action) => player::make_move(
                &dir,
                &seat,
                &key,
                qijudge_game::MoveRequest {
                    action: &action,
                    offer_draw,
                    comment,
                    check: !no_check,
                    replace,
                },
            ),
        },
        Command::Judge {
            dir,
            key,
            now,
            details,
            forfeit,
            vacation,
            ci,
            base,
            head,
            format,
            judge_commit,
        } => {
            if ci {
                let range = base
                    .as_deref()
                    .map(|b| (b, head.as_deref().unwrap_or("HEAD")));
                qijudge_git::ci::judge(&dir, &key, now, range, judge_commit, format == "github")
            } else {
                qijudge_registry::commands::judge(&dir, &key, now, details, forfeit, vacation)
            }
        }
        Command::Precheck { dir, key, staged } => {
            qijudge_git::ci::precheck(&dir, key.as_deref(), staged)
        }
        Command::Ci {
            repo,
            base,
            head,
            key,
            now,
            judge_commit,
            owner_change,
            format,
        } => qijudge_git::ci::repo(qijudge_git::ci::RepoRun {
            repo: &repo,
            base: &base,
            head: head.as_deref(),
            key: key.as_deref(),
            now,
            judge_commit,
            owner: owner_change,
            github: format == "github",
        }),
        Command::View {
            dir,
            audience,
            format,
            chinese,
            key,
        } => qijudge_registry::commands::view(&dir, &audience, &format, chinese, key.as_deref()),
        Command::Html {
            dir,
            audience,
            chinese,
            out,
        } => qijudge_registry::commands::html(&dir, &audience, chinese, out.as_deref()),
        Command::Status { dir, json, now } => qijudge_registry::commands::status(&dir, json, now),
        Command::Site {
            root,
            out,
            judges,
            chinese,
            title,
            url,
            now,
        } => qijudge_site::command(&qijudge_site::Options {
            root: &root,
            out: &out,
            chinese,
            judges: &judges,
            title: title.as_deref(),
            url: url.as_deref(),
            now: &qijudge_game::console::now_or(now)?,
        }),
        Command::Games {
            root,
            key,
            address,
            json,
            now,
        } => qijudge_registry::commands::games(&root, key.as_deref(), address, json, now),
        Command::Reveal { dir, key } => qijudge_registry::commands::reveal(&dir, key.as_deref()),
        Command::Verify { dir } => qijudge_registry::commands::verify(&dir),
        Command::Pack { dirs, remove } => qijudge_tournament::commands::pack(&dirs, remove),
        Command::Moves {
            target,
            position,
            seat,
            key,
        } => qijudge_registry::commands::moves(
            &target,
            position.as_deref(),
            seat.as_deref(),
            key.as_deref(),
        ),
        Command::Perft {
            game,
            depth,
            fen,
            divide,
        } => qijudge_registry::with_tool(&game, "perft")?.perft(depth, fen, divide),
        Command::Pgn { dir, notation } => pgn(&dir, &notation),
        Command::Inbox {
            dir,
            mut messages,
            maildir,
            games,
            key,
            now,
            mail: m,
            mut spectators,
            spectators_file,
            site,
        } => {
            if let Some(file) = &spectators_file {
                spectators.extend(qijudge_mail::club::spectators_from(file)?);
            }
            // With --games every positional argument is a message.
            let dir = match games {
                Some(_) => {
                    messages.splice(0..0, dir);
                    if maildir.is_none() && messages.is_empty() {
                        return Err(qijudge_protocol::error::Error::Io(
                            "inbox --games: give messages or --maildir".into(),
                        ));
                    }
                    None
                }
                None => dir,
            };
            let source = match &maildir {
                Some(m) => qijudge_mail::club::Source::Maildir(m),
                None => qijudge_mail::club::Source::Files(&messages),
            };
            let (key, out) = (key.as_deref(), m.outgoing(spectators));
            match (games, site) {
                (Some(root), Some(site)) => {
                    let clock = qijudge_game::console::now_or(now.clone())?;
                    let judged = qijudge_mail::club::inbox_games(&root, source, key, now, out);
                    // The page follows whatever the run did, a refused message included.
                    let judges: Vec<PathBuf> = key.map(Path::to_path_buf).into_iter().collect();
                    qijudge_site::command(&qijudge_site::Options {
                        root: &root,
                        out: &site,
                        chinese: false,
                        judges: &judges,
                        title: None,
                        url: None,
                        now: &clock,
                    })?;
                    judged
                }
                (Some(root), None) => qijudge_mail::club::inbox_games(&root, source, key, now, out),
                (None, _) => {
                    qijudge_mail::club::inbox(&dir.unwrap_or_default(), source, key, now, out)
                }
            }
        }
        Command::Invite { dir, now, mail: m } => {
            qijudge_mail::club::invite(&dir, now, m.outgoing(Vec::new()))
        }
        Command::Remind {
            dir,
            games,
            now,
            before,
            mail: m,
        } => match (games, dir) {
            (Some(root), _) => {
                qijudge_mail::club::remind_club(&root, now, before, m.outgoing(Vec::new()))
            }
            (None, Some(dir)) => {
                qijudge_mail::club::remind(&dir, now, before, m.outgoing(Vec::new()))
            }
            (None, None) => Err(qijudge_protocol::error::Error::Io(
                "remind: give a game folder, or --games ROOT".into(),
            )),
        },
        Command::Check {
            game,
            files,
            json,
            move_limit,
        } => qijudge_registry::with_tool(&game, "check")?.check_records(&files, json, move_limit),
    }
}

/// Where the judge's mail goes, as `inbox`, `invite` and `remind` take it.
#[derive(Args, Debug)]
pub struct MailArgs {
    /// Write each outgoing message (.eml) into this folder.
    #[arg(long)]
    outbox: Option<PathBuf>,
    /// The judge's address, for From (where the players send their files).
    #[arg(long)]
    from: Option<String>,
    /// Pipe each outgoing message to this command (`sendmail -t`, `msmtp -t`).
    #[arg(long)]
    sendmail: Option<String>,
    /// The time of day (UTC) daily digests go, at the first run at or after it.
    #[arg(long, value_name = "HH:MM", default_value = qijudge_mail::digest::DEFAULT_AT,
          value_parser = qijudge_mail::digest::parse_at)]
    digest_at: String,
}

impl MailArgs {
    fn outgoing(self, spectators: Vec<String>) -> qijudge_mail::club::Outgoing {
        qijudge_mail::club::Outgoing {
            outbox: self.outbox,
            from: self.from,
            sendmail: self.sendmail,
            spectators,
            digest_at: self.digest_at,
            digest_spool: None,
        }
    }
}

/// A judged game folder (or packed game) as PGN, for the games that have one.
fn pgn(dir: &Path, notation: &str) -> Result<()> {
    say_raw!("{}", qijudge_registry::commands::pgn_text(dir, notation)?);
    Ok(())
}
