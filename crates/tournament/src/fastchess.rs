//! qijudge where fastchess stands in an engine-testing fleet: its command line, read into a
//! `qijudge match`, and what it prints on standard output, written as it writes it, so that
//! OpenBench's and fishtest's workers read qijudge's results as they read fastchess's.
//!
//! The command line is fastchess's (`app/src/cli/cli.cpp`): options with one dash, some
//! followed by `key=value` words (`-engine cmd=… name=…`), others by one value (`-rounds 8`).
//! Options for qijudge itself (`--game xiangqi`, `--out DIR`, any of `qijudge match`'s) may
//! come first or between them.
//!
//! The output (`app/src/matchmaking/output/output_fastchess.hpp`): `Started game N of M (A vs
//! B)` and `Finished game N (A vs B): 1-0 {reason}` for each game, the results block
//! (`crate::summary`) every rating interval and at the end, then the end of the tournament
//! (`Tournament finished`, or `SPRT ([e0, e1]) completed - H1 was accepted`) and `Finished
//! match` (`app/src/main.cpp`).

use super::runner::Event;
use super::sprt::{Sprt, Verdict};
use super::standings::GameRecord;
use super::summary::{Heading, Scoreboard, Summary};

/// One engine as `-engine` (and `-each`) describe it.
#[derive(Clone, Debug, Default)]
struct EngineSpec {
    cmd: Option<String>,
    name: Option<String>,
    dir: Option<String>,
    args: Option<String>,
    proto: Option<String>,
    tc: Option<String>,
    /// `key=value` settings for `--engine NAME:…` (options, limits, margins, restarts).
    settings: Vec<String>,
    env: Vec<String>,
}

/// One engine of a cutechess `engines.json` (an array of objects): `name`, `command`,
/// `workingDirectory`, `protocol`, `options` (`[{"name", "value" or "default"}]`),
/// `timeMargin`, `restart`, and qijudge's own `env` (`{"VAR": "VALUE"}`).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConfiguredEngine {
    name: String,
    command: String,
    #[serde(default)]
    working_directory: Option<String>,
    #[serde(default)]
    protocol: Option<String>,
    #[serde(default)]
    options: Vec<ConfiguredOption>,
    #[serde(default)]
    time_margin: Option<u64>,
    #[serde(default)]
    restart: Option<String>,
    #[serde(default)]
    env: std::collections::BTreeMap<String, String>,
    #[serde(default)]
    ponder: bool,
    #[serde(default)]
    init_strings: Vec<String>,
}

#[derive(serde::Deserialize)]
struct ConfiguredOption {
    name: String,
    #[serde(default)]
    value: Option<serde_json::Value>,
    #[serde(default)]
    default: Option<serde_json::Value>,
}

/// The engine called `name` in the engines file `file`, as `-engine` settings.
fn configured(file: &std::path::Path, name: &str) -> Result<EngineSpec, String> {
    let shown = file.display();
    let text = std::fs::read_to_string(file).map_err(|e| format!("conf={name}: {shown}: {e}"))?;
    let all: Vec<ConfiguredEngine> =
        serde_json::from_str(&text).map_err(|e| format!("{shown}: {e}"))?;
    let names: Vec<&str> = all.iter().map(|e| e.name.as_str()).collect();
    let e = all.iter().find(|e| e.name == name).ok_or_else(|| {
        format!(
            "conf={name}: {shown} has no engine of that name (it has {})",
            names.join(", ")
        )
    })?;
    if e.ponder {
        return Err(format!(
            "{shown}: {name}: ponder: engines do not ponder in qijudge matches"
        ));
    }
    if !e.init_strings.is_empty() {
        return Err(format!(
            "{shown}: {name}: initStrings: give the options in \"options\" instead"
        ));
    }
    let mut spec = EngineSpec {
        cmd: Some(e.command.clone()),
        name: Some(e.name.clone()),
        dir: e.working_directory.clone().filter(|d| !d.is_empty()),
        proto: e.protocol.clone(),
        ..EngineSpec::default()
    };
    for o in &e.options {
        let value = match o.value.as_ref().or(o.default.as_ref()) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => continue,
        };
        spec.settings.push(format!("option.{}={value}", o.name));
    }
    if let Some(m) = e.time_margin {
        spec.settings.push(format!("timemargin={m}"));
    }
    match e.restart.as_deref() {
        Some("on") => spec.settings.push("restart=on".into()),
        Some("off" | "auto") | None => {}
        Some(other) => {
            return Err(format!(
                "{shown}: {name}: restart {other:?}: on, off or auto"
            ))
        }
    }
    for (var, value) in &e.env {
        spec.env.push(format!("{var}={value}"));
    }
    Ok(spec)
}

impl EngineSpec {
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "cmd" => self.cmd = Some(value.into()),
            "name" => self.name = Some(value.into()),
            "dir" => self.dir = Some(value.into()),
            "args" => self.args = Some(value.into()),
            "proto" => self.proto = Some(value.into()),
            "tc" => self.tc = Some(value.into()),
            "st" => {
                let seconds: f64 = value
                    .trim_end_matches('s')
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| format!("st={value}: seconds a move, like 0.5"))?;
                self.settings
                    .push(format!("movetime={}", (seconds * 1000.0).round() as u64));
            }
            "nodes" | "timemargin" | "restart" => self.settings.push(format!("{key}={value}")),
            // fastchess's `plies=` and `depth=` are one limit.
            "depth" | "plies" => self.settings.push(format!("depth={value}")),
            _ if key.starts_with("option.") => self.settings.push(format!("{key}={value}")),
            _ if key.starts_with("env.") => self.env.push(format!("{}={value}", &key[4..])),
            "ponder" => {
                return Err(
                    "ponder: engines do not think on the opponent's time in qijudge matches".into(),
                )
            }
            _ => {
                return Err(format!(
                    "{key}={value}: an engine takes cmd, name, dir, args, proto, tc, st, nodes, \
                     depth, plies, timemargin, restart, option.NAME, env.VAR and conf"
                ))
            }
        }
        Ok(())
    }
}

/// fastchess's time control (`[MOVES/]TIME[+INC]`, TIME as seconds or `MIN:SEC`, `inf`) in
/// qijudge's words (`[MOVES/]SECONDS+INC`); none for `inf`.
fn time_control(text: &str) -> Result<Option<String>, String> {
    if text == "inf" || text == "infinite" {
        return Ok(None);
    }
    let bad = || format!("tc={text}: like 10+0.1, 40/60 or 1:30+1 (seconds; MIN:SEC)");
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => (Some(m), rest),
        None => (None, text),
    };
    let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
    let seconds = |t: &str| -> Result<f64, String> {
        t.trim_end_matches('s')
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or_else(bad)
    };
    let base = match base.split_once(':') {
        Some((min, sec)) => seconds(min)? * 60.0 + seconds(sec)?,
        None => seconds(base)?,
    };
    let inc = seconds(inc)?;
    Ok(Some(match moves {
        Some(m) if m != "inf" && m != "infinite" => format!("{m}/{base}+{inc}"),
        _ => format!("{base}+{inc}"),
    }))
}

/// The words after an option, up to the next option.
fn words_of(argv: &[String], from: usize) -> Vec<&str> {
    argv[from..]
        .iter()
        .take_while(|w| !is_option(w))
        .map(String::as_str)
        .collect()
}

/// `-rounds`, `--out`: a word that starts an option (a negative number does not).
fn is_option(word: &str) -> bool {
    let rest = word.trim_start_matches('-');
    word.starts_with('-') && rest.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
}

fn key_values<'a>(option: &str, words: &[&'a str]) -> Result<Vec<(&'a str, &'a str)>, String> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .ok_or_else(|| format!("-{option} {w:?}: expected key=value"))
        })
        .collect()
}

fn one_value<'a>(option: &str, words: &[&'a str]) -> Result<&'a str, String> {
    match words {
        [one] => Ok(one),
        _ => Err(format!(
            "-{option}: expected one value, got {}",
            words.len()
        )),
    }
}

/// Which of `qijudge match`'s long options take a value.
fn takes_value(long: &str) -> Option<bool> {
    let command = <super::args::MatchArgs as clap::Args>::augment_args(clap::Command::new("x"));
    let arg = command
        .get_arguments()
        .find(|a| a.get_long() == Some(long))?;
    Some(arg.get_action().takes_values())
}

/// What the fleet's command line asks of the match, besides `qijudge match`'s own options.
#[derive(Debug, Default)]
pub struct Fleet {
    /// `-crc32 pgn=true`: say the PGN file's CRC-32 once written, as fastchess does.
    pub pgn_crc32: bool,
    /// Options read and not used, each with why (said once on standard error).
    pub unused: Vec<String>,
}

/// Reads fastchess's command line (qijudge's own `--options` among it) into the arguments of
/// `qijudge match`.
pub fn translate(argv: &[String]) -> Result<(Vec<String>, Fleet), String> {
    let mut out: Vec<String> = Vec::new();
    let mut fleet = Fleet::default();
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let (mut rounds, mut games): (Option<u64>, Option<u64>) = (None, None);
    let mut game_given = false;
    let mut report_penta = true;
    let mut engines_file = std::path::PathBuf::from("engines.json");
    let mut i = 0;
    while i < argv.len() {
        let word = &argv[i];
        if word == "--engines-file" {
            engines_file = argv
                .get(i + 1)
                .ok_or("--engines-file: expected a file")?
                .into();
            i += 2;
            continue;
        }
        if let Some(long) = word.strip_prefix("--").filter(|l| l.len() > 1) {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let Some(valued) = takes_value(name) else {
                return Err(format!(
                    "{word}: not an option of qijudge match (see qijudge match --help)"
                ));
            };
            game_given |= name == "game";
            out.push(word.clone());
            i += 1;
            if valued && inline.is_none() {
                let value = argv
                    .get(i)
                    .ok_or_else(|| format!("{word}: expected a value"))?;
                out.push(value.clone());
                i += 1;
            }
            continue;
        }
        if !is_option(word) {
            return Err(format!(
                "{word:?}: expected an option (-engine, -rounds, …) before it"
            ));
        }
        let option = word.trim_start_matches('-');
        let words = words_of(argv, i + 1);
        i += 1 + words.len();
        let pass = |out: &mut Vec<String>, flag: &str, value: &str| {
            out.push(flag.to_string());
            out.push(value.to_string());
        };
        match option {
            "engine" => {
                let pairs = key_values(option, &words)?;
                // `conf=NAME` first (cutechess's engines file), the other words on top of it.
                let mut e = match pairs.iter().find(|(k, _)| *k == "conf") {
                    Some((_, name)) => configured(&engines_file, name)?,
                    None => EngineSpec::default(),
                };
                for (k, v) in pairs.iter().filter(|(k, _)| *k != "conf") {
                    e.set(k, v).map_err(|why| format!("-engine {why}"))?;
                }
                engines.push(e);
            }
            "each" => {
                for (k, v) in key_values(option, &words)? {
                    each.push((k.to_string(), v.to_string()));
                }
            }
            "rounds" => rounds = Some(number(option, one_value(option, &words)?)?),
            "games" => games = Some(number(option, one_value(option, &words)?)?),
            "repeat" => {
                games = Some(match words.as_slice() {
                    [n] => number(option, n)?,
                    _ => 2,
                })
            }
            "concurrency" => pass(&mut out, "--concurrency", one_value(option, &words)?),
            "srand" => pass(&mut out, "--seed", one_value(option, &words)?),
            "ratinginterval" => pass(&mut out, "--rating-interval", one_value(option, &words)?),
            "maxmoves" => pass(&mut out, "--max-moves", one_value(option, &words)?),
            "resign" => pass(&mut out, "--resign", &words.join(" ")),
            "draw" => pass(&mut out, "--draw", &words.join(" ")),
            "sprt" => {
                key_values(option, &words)?;
                pass(&mut out, "--sprt", &words.join(","))
            }
            "openings" => {
                for (k, v) in key_values(option, &words)? {
                    match k {
                        "file" => pass(&mut out, "--book", v),
                        "order" => pass(&mut out, "--book-order", v),
                        "start" => pass(&mut out, "--book-start", v),
                        "plies" => pass(&mut out, "--book-plies", v),
                        // The book's kind is read from the file itself.
                        "format" if v == "epd" || v == "pgn" => {}
                        "policy" if v == "round" => {}
                        _ => {
                            return Err(format!(
                                "-openings {k}={v}: qijudge takes file, format (epd, pgn), \
                                 order, start, plies and policy=round"
                            ))
                        }
                    }
                }
            }
            "pgnout" => {
                let mut file = None;
                for (k, v) in key_values(option, &words)? {
                    match (k, v) {
                        ("file", _) => file = Some(v.to_string()),
                        // fastchess's minimal PGN: the moves without their comments.
                        ("min", "true") => out.push("--pgn-plain".into()),
                        ("min", "false") => {}
                        // The moves' scores, depths and times are always written.
                        _ => fleet.unused.push(format!("-pgnout {k}={v}")),
                    }
                }
                let file = file.unwrap_or_else(|| {
                    format!(
                        "fastchess_{}.pgn",
                        chrono::Utc::now().format("%Y%m%d_%H%M%S")
                    )
                });
                pass(&mut out, "--pgn-out", &file);
            }
            "report" => {
                for (k, v) in key_values(option, &words)? {
                    match (k, v) {
                        ("penta", "true") => report_penta = true,
                        ("penta", "false") => report_penta = false,
                        _ => return Err(format!("-report {k}={v}: penta=true or penta=false")),
                    }
                }
            }
            "log" => {
                // The conversation of every engine, per game, in OUT/logs/.
                for (k, v) in key_values(option, &words)? {
                    if k != "engine" && k != "file" && k != "level" && k != "append" {
                        return Err(format!("-log {k}={v}: file, level, engine, append"));
                    }
                }
                out.push("--bot-io-logs".into());
                fleet
                    .unused
                    .push("-log file=: each game's engine logs are in OUT/logs/".into());
            }
            "variant" => {
                let v = one_value(option, &words)?;
                let game = match v {
                    "standard" => qijudge_registry::registry::DEFAULT_ENGINE_GAME,
                    other => other,
                };
                if !game_given {
                    pass(&mut out, "--game", game);
                    game_given = true;
                }
            }
            "tournament" => match one_value(option, &words)? {
                "gauntlet" => out.push("--gauntlet".into()),
                "roundrobin" => {}
                other => return Err(format!("-tournament {other}: roundrobin or gauntlet")),
            },
            "crc32" => {
                for (k, v) in key_values(option, &words)? {
                    match (k, v) {
                        ("pgn", b) => fleet.pgn_crc32 = b == "true",
                        _ => return Err(format!("-crc32 {k}={v}: pgn=true or pgn=false")),
                    }
                }
            }
            // A crashed engine always loses its game and a new process plays the next.
            "recover" => {}
            "scoreinterval" | "autosaveinterval" | "event" | "site" | "wait" => {
                fleet.unused.push(format!("-{option} {}", words.join(" ")))
            }
            "testEnv" | "check-mate-pvs" | "show-latency" | "force-concurrency" | "strict"
            | "use-affinity" => fleet.unused.push(format!("-{option}")),
            "tb" | "tbpieces" | "tbignore50" | "tbadjudicate" => {
                return Err(format!(
                    "-{option}: there are no endgame tablebases for these games"
                ))
            }
            "version" | "v" => out.push("--version".into()),
            _ => {
                return Err(format!(
                    "-{option}: not an option qijudge reads (it reads -engine, -each, \
                     -openings, -rounds, -games, -repeat, -concurrency, -srand, -pgnout, \
                     -ratinginterval, -sprt, -report, -recover, -log, -variant, -resign, \
                     -draw, -maxmoves, -tournament, -crc32 and fleets' settings)"
                ))
            }
        }
    }
    for e in &mut engines {
        for (k, v) in &each {
            e.set(k, v).map_err(|why| format!("-each {why}"))?;
        }
    }
    if !game_given {
        pass_game(&mut out);
    }
    engine_args(&engines, &mut out)?;
    let per_encounter = rounds.unwrap_or(2) * games.unwrap_or(2);
    out.push("--games".into());
    out.push(per_encounter.to_string());
    out.push("--report-penta".into());
    out.push(report_penta.to_string());
    out.push("--output".into());
    out.push("fastchess".into());
    Ok((out, fleet))
}

fn pass_game(out: &mut Vec<String>) {
    out.push("--game".into());
    out.push(qijudge_registry::registry::DEFAULT_ENGINE_GAME.into());
}

fn number(option: &str, text: &str) -> Result<u64, String> {
    text.parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("-{option} {text}: a whole number above 0"))
}

/// Each engine as `--bot`, `--bot-dir`, `--bot-env` and `--engine`; one `--tc` for all.
fn engine_args(engines: &[EngineSpec], out: &mut Vec<String>) -> Result<(), String> {
    if engines.len() < 2 {
        return Err("-engine: give two engines or more".into());
    }
    let mut tcs = Vec::new();
    for (n, e) in engines.iter().enumerate() {
        let cmd = e
            .cmd
            .as_deref()
            .ok_or_else(|| format!("-engine number {}: cmd= is needed", n + 1))?;
        let name = e.name.clone().unwrap_or_else(|| {
            let program = cmd.split_whitespace().next().unwrap_or(cmd);
            let stem = std::path::Path::new(program)
                .file_stem()
                .unwrap_or_default();
            stem.to_string_lossy().into_owned()
        });
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "-engine name={name}: a bot's name is letters, digits, - and _ (it is a word of \
                 every Finished game line, which fleets split at spaces)"
            ));
        }
        let proto = e.proto.as_deref().unwrap_or("uci");
        let mut command = cmd.to_string();
        if let Some(args) = &e.args {
            command = format!("{command} {args}");
        }
        let spec = match proto {
            "bot" => command,
            p => format!("{p}:{command}"),
        };
        out.push("--bot".into());
        out.push(format!("{name}={spec}"));
        if let Some(dir) = &e.dir {
            out.push("--bot-dir".into());
            out.push(format!("{name}={dir}"));
        }
        for v in &e.env {
            out.push("--bot-env".into());
            out.push(format!("{name}:{v}"));
        }
        for s in &e.settings {
            out.push("--engine".into());
            out.push(format!("{name}:{s}"));
        }
        tcs.push(e.tc.as_deref().map(time_control).transpose()?.flatten());
    }
    if tcs.windows(2).any(|w| w[0] != w[1]) {
        return Err(format!(
            "tc=: every engine plays the same clock in a qijudge match; these differ ({})",
            tcs.iter()
                .map(|t| t.as_deref().unwrap_or("inf").to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(Some(tc)) = tcs.first() {
        out.push("--tc".into());
        out.push(tc.clone());
    }
    Ok(())
}

/// What fastchess prints on standard output as a two-engine match goes.
pub struct Printer {
    board: Scoreboard,
    second: String,
    test: Option<Sprt>,
    heading: Heading,
    /// Blocks every this many pairs (games without pairs); 0: at the end only.
    interval: u32,
    total: usize,
    /// Whether the last thing printed is a block of the current counts.
    fresh_block: bool,
}

impl Printer {
    pub fn new(
        first: &str,
        second: &str,
        pairs: bool,
        test: Option<Sprt>,
        heading: Heading,
        interval: u32,
    ) -> Printer {
        Printer {
            board: Scoreboard::new(first, pairs),
            second: second.to_string(),
            test,
            heading,
            interval,
            total: 0,
            fresh_block: false,
        }
    }

    /// What to print of an event.
    pub fn on(&mut self, event: &Event) -> String {
        match event {
            Event::Started { total, earlier, .. } => {
                self.total = *total;
                for r in earlier.iter() {
                    self.board.add(r);
                }
                String::new()
            }
            Event::Began { k, players } => format!(
                "Started game {k} of {} ({})\n",
                self.total,
                players.join(" vs ")
            ),
            Event::Finished { k, record } => {
                let mut text = format!(
                    "Finished game {k} ({}): {} {{{}}}\n",
                    record.players.join(" vs "),
                    result(record),
                    annotation(record)
                );
                let paired = self.board.add(record);
                self.fresh_block = false;
                // As fastchess: with pairs, when this game finishes its pair, by the pair's own
                // number (whatever other pairs are still being played); else by games counted.
                let index = match self.board.pairs {
                    true => paired.then_some((*k).div_ceil(2)),
                    false => Some(self.board.stats.games()),
                };
                if index.is_some_and(|n| self.interval > 0 && n % self.interval == 0) {
                    text.push_str(&self.block());
                }
                text
            }
            Event::Stopping { .. } => String::new(),
        }
    }

    fn block(&mut self) -> String {
        self.fresh_block = true;
        Summary::from_board(&self.board, &self.second, self.test).fastchess_block(&self.heading)
    }

    /// The last block (unless just printed) and the end of the match.
    pub fn end(&mut self) -> String {
        let mut text = match self.fresh_block {
            true => String::new(),
            false => self.block(),
        };
        let verdict = self
            .test
            .map(|t| t.decide(t.llr(&self.board.stats, self.board.pairs)));
        match (verdict, &self.test) {
            (Some(v @ (Verdict::H0 | Verdict::H1)), Some(t)) => text.push_str(&format!(
                "SPRT ([{:.2}, {:.2}]) completed - {} was accepted\n",
                t.elo0,
                t.elo1,
                if v == Verdict::H0 { "H0" } else { "H1" }
            )),
            _ => text.push_str("Tournament finished\n"),
        }
        text.push_str("Finished match\n");
        text
    }
}

/// `1-0`, `0-1` or `1/2-1/2`, as the first seat sees it.
fn result(r: &GameRecord) -> &'static str {
    match &r.winner {
        None => "1/2-1/2",
        Some(w) if r.sides.first().is_some_and(|s| s.contains(w)) => "1-0",
        Some(_) => "0-1",
    }
}

/// Why the game ended, in the words fleets look for: a loser `loses on time`, `disconnects`
/// (it crashed), `makes an illegal move`; otherwise the record's reason. No colon: OpenBench
/// reads the reason as the text after the line's first colon.
fn annotation(r: &GameRecord) -> String {
    let loser = r
        .winner
        .as_ref()
        .and_then(|w| r.players.iter().find(|p| *p != w))
        .cloned()
        .unwrap_or_default();
    let reason = r.reason.replace(':', ";");
    if reason.contains("bot-timeout") {
        format!("{loser} loses on time")
    } else if reason.contains("bot-crashed") {
        format!("{loser} disconnects")
    } else if reason.contains("bot-illegal-move") {
        format!("{loser} makes an illegal move")
    } else {
        reason
    }
}

/// `10+0.1`, `40/60`, `0.5/move`, `1000 nodes`, `8 plies`: one engine's limits as fastchess
/// names them in a block's heading (`getTime`).
pub fn time_text(
    tc: Option<&super::timecontrol::TimeControl>,
    s: &qijudge_engine::EngineSettings,
) -> String {
    if let Some(tc) = tc {
        let moves = tc.moves.map(|m| format!("{m}/")).unwrap_or_default();
        let inc = tc.increment.as_secs_f64();
        let inc = match inc > 0.0 {
            true => format!("+{}", two_significant(inc)),
            false => String::new(),
        };
        return format!("{moves}{}{inc}", tc.base.as_secs_f64());
    }
    if let Some(ms) = s.movetime_ms {
        return format!("{}/move", ms as f64 / 1000.0);
    }
    if let Some(d) = s.depth {
        return format!("{d} plies");
    }
    if let Some(n) = s.nodes {
        return format!("{n} nodes");
    }
    String::new()
}

/// A number with two significant digits, trailing zeros dropped (C's `%.2g` for the values a
/// time increment takes).
fn two_significant(x: f64) -> String {
    if x >= 100.0 {
        return format!("{:.1e}", x).replace('e', "e+0");
    }
    let decimals = (1 - x.log10().floor() as i32).max(0) as usize;
    let text = format!("{x:.decimals$}");
    match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.').to_string(),
        false => text,
    }
}

/// The heading of the blocks: each engine's limits, `Threads` and `Hash` (`NULL` when not
/// set), the book's file name; two different values are written `a - b`.
pub fn heading(cfg: &super::runner::MatchConfig, book: Option<&std::path::Path>) -> Heading {
    let both = |f: &dyn Fn(&str) -> String| {
        let (a, b) = (f(&cfg.bots[0].name), f(&cfg.bots[1].name));
        match a == b {
            true => a,
            false => format!("{a} - {b}"),
        }
    };
    let option = |name: &str, option: &str, unit: &str| {
        cfg.engine_settings(name)
            .options
            .iter()
            .find(|(k, _)| k == option)
            .map(|(_, v)| format!("{v}{unit}"))
            .unwrap_or_else(|| "NULL".into())
    };
    Heading {
        tc: both(&|n| time_text(cfg.tc.as_ref(), &cfg.engine_settings(n))),
        threads: both(&|n| option(n, "Threads", "t")),
        hash: both(&|n| option(n, "Hash", "MB")),
        book: book
            .and_then(|b| b.file_name())
            .map(|f| f.to_string_lossy().into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn openbenchs_command_line_is_read() {
        let (out, _) = translate(&args(
            "-recover -variant standard -testEnv -concurrency 2 -rounds 4 -games 2 \
             -engine dir=Engines/ cmd=./dev proto=uci tc=8.0+0.08 option.Hash=16 name=x-dev \
             -engine dir=Engines/ cmd=./base proto=uci tc=8.0+0.08 option.Hash=16 name=x-base \
             -openings file=Books/b.epd format=epd order=random start=3 -srand 77 \
             -pgnout file=out.pgn seldepth=true nodes=true match_line=^info",
        ))
        .unwrap();
        let text = out.join(" ");
        for want in [
            "--game xiangqi",
            "--concurrency 2",
            "--bot x-dev=uci:./dev",
            "--bot-dir x-dev=Engines/",
            "--engine x-dev:option.Hash=16",
            "--tc 8+0.08",
            "--book Books/b.epd",
            "--book-order random",
            "--book-start 3",
            "--seed 77",
            "--pgn-out out.pgn",
            "--games 8",
            "--output fastchess",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
    }

    #[test]
    fn fishtests_command_line_is_read() {
        let (out, fleet) = translate(&args(
            "--out m -testEnv -recover -repeat -games 2 -rounds 3 -ratinginterval 1 \
             -scoreinterval 1 -autosaveinterval 0 -report penta=true -pgnout file=p.pgn \
             -crc32 pgn=true -srand 5 -resign movecount=3 score=600 -draw movenumber=34 \
             movecount=8 score=20 -variant xiangqi -concurrency 1 -check-mate-pvs \
             -engine name=New-abc tc=10+0.1 cmd=new dir=. option.Threads=1 \
             -engine name=Base-abc tc=10+0.1 cmd=base dir=. option.Threads=1 -each proto=uci \
             -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic",
        ))
        .unwrap();
        let text = out.join(" ");
        for want in [
            "--out m",
            "--games 6",
            "--rating-interval 1",
            "--resign movecount=3 score=600",
            "--draw movenumber=34 movecount=8 score=20",
            "--game xiangqi",
            "--bot New-abc=uci:new",
            "--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05,model=logistic",
            "--tc 10+0.1",
            "--report-penta true",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
        assert!(fleet.pgn_crc32);
    }

    #[test]
    fn what_qijudge_cannot_do_is_refused_by_name() {
        for (line, said) in [
            (
                "-engine cmd=a tc=10+0.1 -engine cmd=b tc=20+0.1",
                "these differ",
            ),
            ("-engine cmd=a ponder=on -engine cmd=b", "ponder"),
            ("-engine cmd=a -engine cmd=b -tb /syzygy", "tablebases"),
            ("-engine cmd=a -engine cmd=b -quick cmd=a", "-quick"),
            ("-engine cmd=a", "two engines"),
            ("--nosuch -engine cmd=a -engine cmd=b", "--nosuch"),
            (
                "-engine cmd=a -engine cmd=b -openings file=x.pgn depth=8",
                "depth=8",
            ),
        ] {
            let err = translate(&args(line)).unwrap_err();
            assert!(err.contains(said), "{line}: {err}");
        }
    }

    #[test]
    fn an_engines_file_names_engines_as_cutechess_does() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("engines.json");
        std::fs::write(
            &file,
            r#"[{"name": "ccgc-sword", "command": "wine sword.exe", "protocol": "ccgc",
                 "workingDirectory": "/srv/sword", "timeMargin": 20000,
                 "env": {"WINEPREFIX": "/srv/wine"}},
                {"name": "fsf", "command": "fairy-stockfish", "protocol": "uci",
                 "options": [{"name": "Hash", "type": "spin", "default": 16, "value": 64},
                             {"name": "UCI_Variant", "default": "xiangqi"}]}]"#,
        )
        .unwrap();
        let f = file.display().to_string();
        let (out, _) = translate(&args(&format!(
            "--engines-file {f} -variant luzhanqi -engine conf=ccgc-sword -engine conf=fsf \
             name=other"
        )))
        .unwrap();
        let text = out.join(" ");
        for want in [
            "--bot ccgc-sword=ccgc:wine sword.exe",
            "--bot-dir ccgc-sword=/srv/sword",
            "--bot-env ccgc-sword:WINEPREFIX=/srv/wine",
            "--engine ccgc-sword:timemargin=20000",
            "--bot other=uci:fairy-stockfish",
            "--engine other:option.Hash=64",
            "--engine other:option.UCI_Variant=xiangqi",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
        let err = translate(&args(&format!("--engines-file {f} -engine conf=nosuch"))).unwrap_err();
        assert!(err.contains("ccgc-sword, fsf"), "{err}");
    }

    fn record(k: u32, players: [&str; 2], winner: Option<&str>, reason: &str) -> GameRecord {
        GameRecord {
            dir: format!("m/games/game-{k:05}"),
            game: "xiangqi".into(),
            kind: "xiangqi".into(),
            players: players.map(String::from).to_vec(),
            winner: winner.map(String::from),
            sides: players.map(|p| vec![p.to_string()]).to_vec(),
            reason: reason.into(),
            plies: 30,
        }
    }

    /// A block when a game finishes its pair, by the pair's number, whatever order the games
    /// of different pairs finish in (two at once); each block counts finished pairs only.
    #[test]
    fn blocks_come_as_pairs_finish() {
        let test: Sprt = "elo0=0,elo1=5".parse().unwrap();
        let mut p = Printer::new("a", "b", true, Some(test), Heading::default(), 1);
        let mut out = p.on(&Event::Started {
            done: 0,
            total: 4,
            earlier: &[],
        });
        let seated = ["a".to_string(), "b".to_string()];
        out += &p.on(&Event::Began {
            k: 1,
            players: &seated,
        });
        let games = [
            record(1, ["a", "b"], Some("a"), "checkmate"),
            record(3, ["a", "b"], Some("b"), "forfeit (bot-timeout)"),
            record(2, ["b", "a"], None, "repetition"),
            record(4, ["b", "a"], Some("b"), "forfeit (bot-crashed)"),
        ];
        for r in &games {
            let k = crate::runner::game_number(&r.dir).unwrap();
            out += &p.on(&Event::Finished { k, record: r });
        }
        out += &p.end();
        assert!(out.starts_with("Started game 1 of 4 (a vs b)\n"), "{out}");
        assert!(out.contains("Finished game 1 (a vs b): 1-0 {checkmate}\n"));
        assert!(out.contains("Finished game 3 (a vs b): 0-1 {a loses on time}\n"));
        assert!(out.contains("Finished game 4 (b vs a): 1-0 {a disconnects}\n"));
        // Game 3 finishes no pair; game 2 finishes pair 1, game 4 pair 2.
        let blocks: Vec<&str> = out.split("Results of ").skip(1).collect();
        assert_eq!(blocks.len(), 2, "{out}");
        assert!(blocks[0].contains("Games: 2, Wins: 1, Losses: 0, Draws: 1,"));
        assert!(blocks[0].contains("Ptnml(0-2): [0, 0, 0, 1, 0], WL/DD Ratio: "));
        assert!(blocks[1].contains("Games: 4, Wins: 1, Losses: 2, Draws: 1,"));
        assert!(blocks[1].contains("Ptnml(0-2): [1, 0, 0, 1, 0], "));
        assert!(
            out.ends_with("Tournament finished\nFinished match\n"),
            "{out}"
        );
    }

    #[test]
    fn time_controls_read_as_fastchess_reads_them() {
        assert_eq!(time_control("1:30+1").unwrap().as_deref(), Some("90+1"));
        assert_eq!(time_control("40/60").unwrap().as_deref(), Some("40/60+0"));
        assert_eq!(time_control("inf").unwrap(), None);
        assert!(time_control("x+1").is_err());
        assert_eq!(two_significant(0.1), "0.1");
        assert_eq!(two_significant(0.08), "0.08");
        assert_eq!(two_significant(1.0), "1");
        assert_eq!(two_significant(0.25), "0.25");
    }
}
