//! Batch commands: tournament, match, bot.

use crate::live::Live;
use crate::runner::{run_match, BotEntry, Event, MatchConfig, Stopped};
use crate::schedule::Pairing;
use crate::sprt::{Sprt, Tally};
use crate::standings::{by_kind, collect, render, render_kinds, report, Checked, Format, Judges};
use qijudge_protocol::error::{Error, Result};
use qijudge_store::packed::{self, is_packed};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A progress line on a terminal; silent otherwise.
fn progress(label: &'static str) -> impl Fn(usize, usize) + Sync {
    let tty = std::io::stderr().is_terminal();
    move |done, total| {
        if tty && total > 0 {
            let width = 30;
            let filled = done * width / total;
            let end = if done == total { "\n" } else { "" };
            let bar = format!(
                "\r{label} [{}{}] {done}/{total}{end}",
                "#".repeat(filled),
                " ".repeat(width - filled)
            );
            // Progress is a courtesy: a closed standard error must not stop the work.
            let _ = std::io::Write::write_all(&mut std::io::stderr(), bar.as_bytes());
        }
    }
}

fn format_of(name: &str) -> Format {
    match name {
        "json" => Format::Json,
        "csv" => Format::Csv,
        "markdown" => Format::Markdown,
        _ => Format::Text,
    }
}

/// The reasons games are invalid, for the closing error (which may be all a user sees when the
/// report goes to a file): each distinct first line with how many games it holds for, the
/// most common first, at most three.
fn first_reasons(invalid: &[crate::standings::Invalid]) -> String {
    let mut count: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for i in invalid {
        *count
            .entry(i.error.lines().next().unwrap_or(""))
            .or_default() += 1;
    }
    let mut reasons: Vec<(&str, usize)> = count.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = reasons
        .iter()
        .take(3)
        .map(|(why, n)| format!("{n} game(s): {why}"))
        .collect();
    let more = match reasons.len() {
        n if n > 3 => format!("; and {} other reason(s)", n - 3),
        _ => String::new(),
    };
    format!("{}{more}", shown.join("; "))
}

/// Whether `path` is a game: a folder with a game.toml, or a packed game file.
fn is_game(path: &Path) -> bool {
    path.join("game.toml").is_file() || (is_packed(path) && path.is_file())
}

/// Games: each DIR that is a game (a folder with a game.toml, or a packed `.tar.gz`), else every
/// game below it (two levels deep); sorted, each with the index of the DIR it was found under.
fn game_dirs(dirs: &[PathBuf]) -> Result<Vec<(PathBuf, usize)>> {
    let mut out: Vec<(PathBuf, usize)> = Vec::new();
    for (i, d) in dirs.iter().enumerate() {
        if is_game(d) {
            out.push((d.clone(), i));
            continue;
        }
        let mut found = Vec::new();
        for level1 in read_entries(d)? {
            if is_game(&level1) {
                found.push(level1);
            } else if level1.is_dir() {
                found.extend(read_entries(&level1)?.into_iter().filter(|p| is_game(p)));
            }
        }
        if found.is_empty() {
            return Err(Error::Io(format!(
                "{}: no game directories here",
                d.display()
            )));
        }
        out.extend(found.into_iter().map(|g| (g, i)));
    }
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    Ok(out)
}

/// The judge key of the match DIR belongs to (DIR is a match's OUT, with its `match.json`, or
/// OUT/games): `OUT/keys/judge.pub`, or the public half of `OUT/keys/judge`.
fn match_judge(dir: &Path) -> Option<(String, PathBuf)> {
    let out = match_out(dir)?;
    let public = out.join("keys/judge.pub");
    if let Ok(line) = std::fs::read_to_string(&public) {
        return Some((line, public));
    }
    let private = out.join("keys/judge");
    let key =
        qijudge_protocol::signing::parse_private_key(&std::fs::read_to_string(&private).ok()?)
            .ok()?;
    Some((
        qijudge_protocol::signing::public_key_line(key.public_key()),
        private,
    ))
}

/// The match folder (OUT, with its `match.json`) that DIR is, or whose `games/` it is.
fn match_out(dir: &Path) -> Option<&Path> {
    let parent = dir.parent().unwrap_or(Path::new(""));
    if dir.join("match.json").is_file() {
        Some(dir)
    } else if dir.file_name() == Some("games".as_ref()) && parent.join("match.json").is_file() {
        Some(parent)
    } else {
        None
    }
}

/// What a match is, whichever shard of it a folder holds: its `match.json` without the shard
/// and the games done.
fn match_identity(dir: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(match_out(dir)?.join("match.json")).ok()?;
    let mut v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let o = v.as_object_mut()?;
    o.remove("shard");
    o.remove("completed");
    Some(v)
}

/// Who is trusted for the games under each DIR: the `--judge` keys for all, or each DIR's own
/// match judge; `None` trusts every judge (`--judge any`).
fn trusted_judges(dirs: &[PathBuf], given: &[PathBuf]) -> Result<Option<Vec<Judges>>> {
    if given.iter().any(|g| g.as_os_str() == "any") {
        if given.len() > 1 {
            return Err(Error::Io(
                "--judge any counts every judge; give it alone".into(),
            ));
        }
        return Ok(None);
    }
    if !given.is_empty() {
        let mut judges = Judges::default();
        for file in given {
            let text = std::fs::read_to_string(file)
                .map_err(|e| Error::Io(format!("--judge {}: {e}", file.display())))?;
            judges
                .add(&text, &file.display().to_string())
                .map_err(|e| Error::Io(format!("--judge {e}; give the .pub file")))?;
        }
        return Ok(Some(vec![judges; dirs.len()]));
    }
    let mut each: Vec<Judges> = Vec::new();
    for dir in dirs {
        let mut judges = Judges::default();
        if let Some((line, from)) = match_judge(dir) {
            judges
                .add(&line, &from.display().to_string())
                .map_err(Error::Io)?;
            eprintln!("{}: judged by {}", dir.display(), fingerprint(&line));
        }
        each.push(judges);
    }
    // Pooled results mean something only under one judge, or for the shards of one match (each
    // run judges its own games with a key of its own): other folders of different judges are
    // pooled only when the organiser names each judge it trusts.
    let one_match = dirs
        .iter()
        .map(|d| match_identity(d))
        .collect::<Option<Vec<_>>>();
    if one_match.is_some_and(|m| m.windows(2).all(|w| w[0] == w[1])) {
        return Ok(Some(each));
    }
    let mut seen: Vec<(&str, &PathBuf)> = Vec::new();
    for (judges, dir) in each.iter().zip(dirs) {
        for key in judges.lines() {
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k != key) {
                return Err(Error::Io(format!(
                    "{} and {} are judged by different keys ({} and {}): give --judge KEY.pub for \
                     each judge whose games may be pooled",
                    first.display(),
                    dir.display(),
                    fingerprint(seen[0].0),
                    fingerprint(key)
                )));
            }
            seen.push((key, dir));
        }
    }
    Ok(Some(each))
}

/// A public key line's SHA-256 fingerprint, as ssh-keygen -l shows it.
fn fingerprint(line: &str) -> String {
    qijudge_protocol::signing::parse_public_key(line)
        .map(|k| k.fingerprint(ssh_key::HashAlg::Sha256).to_string())
        .unwrap_or_else(|_| line.chars().take(60).collect())
}

/// The folders and packed games in `d`.
fn read_entries(d: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(d).map_err(|e| Error::Io(format!("{}: {e}", d.display())))?;
    let mut v: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir() || is_packed(p))
        .collect();
    v.sort();
    Ok(v)
}

/// What `tournament` says of two players' pooled games: the test and the summary.
pub struct Pooled {
    pub sprt: Option<String>,
    pub pairs: bool,
    pub first: Option<String>,
    pub summary_json: Option<PathBuf>,
}

pub fn tournament(
    dirs: &[PathBuf],
    judges: &[PathBuf],
    format: &str,
    threads: usize,
    pooled: &Pooled,
    audit: bool,
) -> Result<()> {
    let trusted = trusted_judges(dirs, judges)?;
    // A pinned judge's signed record covers every move its judge checked; with `--judge any`
    // there is no judge to trust, so every file is audited.
    let checked = match audit || trusted.is_none() {
        true => Checked::Audit,
        false => Checked::Record,
    };
    let found = game_dirs(dirs)?;
    let root_of: std::collections::BTreeMap<&Path, usize> =
        found.iter().map(|(g, i)| (g.as_path(), *i)).collect();
    let trust = |game: &Path, judge: &str| -> std::result::Result<(), String> {
        let Some(each) = &trusted else { return Ok(()) };
        let root = root_of.get(game).copied().unwrap_or(0);
        match each.get(root) {
            Some(j) if !j.is_empty() => j.check(judge),
            _ => Err(format!(
                "no judge to trust for {}: give --judge KEY.pub (a match keeps its judge's in \
                 OUT/keys/judge.pub), or --judge any to count every judge",
                dirs[root].display()
            )),
        }
    };
    let dirs: Vec<PathBuf> = found.iter().map(|(g, _)| g.clone()).collect();
    let (games, invalid) = collect(&dirs, threads, &progress("auditing"), &trust, checked);
    let kinds = by_kind(games);
    let invalid = match kinds.len() {
        // One kind of game (the usual case): one table, as always.
        0 | 1 => {
            let games = kinds.into_iter().flat_map(|(_, g)| g).collect::<Vec<_>>();
            let summary = two_player_summary(&games, pooled)?;
            let mut r = report(games, invalid);
            r.checked = Some(checked);
            say_raw!("{}", render(&r, format_of(format)));
            if let Some(s) = summary {
                write_summary(&s, pooled.summary_json.as_deref())?;
            }
            r.invalid
        }
        // A Banqi win is no Xiangqi point: each kind is counted apart.
        _ => {
            if pooled.sprt.is_some() || pooled.summary_json.is_some() {
                let names: Vec<&str> = kinds.iter().map(|(k, _)| k.as_str()).collect();
                return Err(Error::Io(format!(
                    "--sprt and --summary-json compare two players in one kind of game; these \
                     games are of {} kinds ({}): give the folders of one kind",
                    names.len(),
                    names.join("; ")
                )));
            }
            let reports: Vec<(String, crate::standings::Report)> = kinds
                .into_iter()
                .map(|(kind, games)| {
                    let mut r = report(games, Vec::new());
                    r.checked = Some(checked);
                    (kind, r)
                })
                .collect();
            let mut invalid = invalid;
            invalid.sort_by(|a, b| a.dir.cmp(&b.dir));
            say_raw!("{}", render_kinds(&reports, &invalid, format_of(format)));
            invalid
        }
    };
    if !invalid.is_empty() {
        return Err(Error::Refused(qijudge_protocol::error::Refusal {
            file: invalid[0].dir.clone(),
            field: None,
            reason: format!(
                "{} of {} games are invalid, each named with its reason in the report; {}",
                invalid.len(),
                dirs.len(),
                first_reasons(&invalid)
            ),
            hint: None,
            private_to: None,
        }));
    }
    Ok(())
}

/// The summary of two players' games (none with other than two players, unless a test or a
/// JSON summary was asked for, which is then refused).
fn two_player_summary(
    games: &[crate::standings::GameRecord],
    pooled: &Pooled,
) -> Result<Option<crate::summary::Summary>> {
    let mut names: Vec<&String> = games.iter().flat_map(|g| &g.players).collect();
    names.sort();
    names.dedup();
    let asked = pooled.sprt.is_some() || pooled.summary_json.is_some();
    if names.len() != 2 {
        return match asked {
            true => Err(Error::Io(format!(
                "--sprt and --summary-json compare two players; these games have {}",
                names.len()
            ))),
            false => Ok(None),
        };
    }
    let sprt: Option<Sprt> = pooled
        .sprt
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(Error::Io)?;
    let lowest = games
        .iter()
        .filter_map(|g| Some((crate::runner::game_number(&g.dir)?, g)))
        .min_by_key(|(k, _)| *k)
        .map(|(_, g)| g.players[0].clone());
    let first = match &pooled.first {
        Some(f) if names.contains(&f) => f.clone(),
        Some(f) => {
            return Err(Error::Io(format!(
                "--first {f:?}: the players are {} and {}",
                names[0], names[1]
            )))
        }
        None => lowest.unwrap_or_else(|| names[0].clone()),
    };
    let second = names.iter().find(|n| ***n != first).map(|n| n.to_string());
    Ok(Some(crate::summary::Summary::of(
        &first,
        &second.unwrap_or_default(),
        games,
        pooled.pairs,
        sprt,
    )))
}

/// The summary on standard error in fastchess's words, and as JSON to `file`.
fn write_summary(summary: &crate::summary::Summary, file: Option<&Path>) -> Result<()> {
    let _ = std::io::Write::write_all(&mut std::io::stderr(), summary.fastchess_text().as_bytes());
    match file {
        Some(file) => write_json(summary, file),
        None => Ok(()),
    }
}

fn write_json(summary: &crate::summary::Summary, file: &Path) -> Result<()> {
    let json = serde_json::to_string_pretty(summary).map_err(|e| Error::Io(e.to_string()))?;
    qijudge_store::write_atomic(file, format!("{json}\n").as_bytes())
}

pub fn run(args: &crate::args::MatchArgs) -> Result<()> {
    run_with(args, &crate::fastchess::Fleet::default())
}

/// `qijudge fastchess ARGS…`: fastchess's command line read into a match, played with
/// fastchess's output.
pub fn fastchess(argv: &[String]) -> Result<()> {
    let (translated, fleet) = crate::fastchess::translate(argv).map_err(Error::Io)?;
    #[derive(clap::Parser)]
    #[command(name = "qijudge fastchess", no_binary_name = true)]
    struct Wrapped {
        #[command(flatten)]
        args: crate::args::MatchArgs,
    }
    let wrapped = <Wrapped as clap::Parser>::try_parse_from(&translated).map_err(|e| {
        Error::Io(format!(
            "{}(read as: qijudge match {})",
            e.render(),
            translated.join(" ")
        ))
    })?;
    for note in &fleet.unused {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!("qijudge: {note}: read, not used\n").as_bytes(),
        );
    }
    run_with(&wrapped.args, &fleet)
}

/// Writes to standard output at once (fleets read it line by line as the match goes); a closed
/// output does not stop the match.
fn print_now(text: &str) {
    if text.is_empty() {
        return;
    }
    let mut out = std::io::stdout().lock();
    let _ = std::io::Write::write_all(&mut out, text.as_bytes());
    let _ = std::io::Write::flush(&mut out);
}

fn run_with(args: &crate::args::MatchArgs, fleet: &crate::fastchess::Fleet) -> Result<()> {
    let kind = qijudge_registry::by_name(&args.game)?;
    kind.seats(&args.board)?;
    if args.bots.len() < 2 {
        return Err(Error::Io("--bot: give two bots or more".into()));
    }
    let shard = args
        .shard
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)))
        .ok_or_else(|| Error::Io(format!("--shard {:?}: expected i/n, like 0/4", args.shard)))?;
    // Random bots can wander for ever: each game's match defaults bound a game's length
    // (Luzhanqi: 1000 plies) unless the same option is given.
    let mut rule_texts: Vec<String> = kind
        .match_rules()
        .iter()
        .filter(|d| {
            let key = d.split('=').next().unwrap_or("");
            !args.rules.iter().any(|r| r.split('=').next() == Some(key))
        })
        .map(|d| d.to_string())
        .collect();
    rule_texts.extend(args.rules.iter().cloned());
    let bots: Vec<BotEntry> = args.bots.iter().map(|b| BotEntry::parse(b)).collect();
    let mut engines: std::collections::BTreeMap<String, qijudge_engine::EngineSettings> =
        Default::default();
    for item in &args.engines {
        let (name, setting) = item
            .split_once(':')
            .ok_or_else(|| Error::Io(format!("--engine {item:?}: expected NAME:KEY=VALUE")))?;
        // (Engines' settings: `go` limits, options, square names, margins, restarts.)
        let is_engine = bots
            .iter()
            .any(|b| b.name == name && matches!(&b.spec, crate::runner::BotSpec::Engine(..)));
        if !is_engine {
            return Err(Error::Io(format!(
                "--engine {item:?}: no engine is called {name:?} (--bot {name}=uci:COMMAND, \
                 {name}=ucci:COMMAND or {name}=ccgc:COMMAND)"
            )));
        }
        engines
            .entry(name.to_string())
            .or_default()
            .set(setting)
            .map_err(|e| Error::Io(format!("--engine {name}: {e}")))?;
    }
    let names: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
    let limits = crate::limits::MatchLimits::parse(&args.bot_limit, &names).map_err(Error::Io)?;
    if bots
        .iter()
        .any(|b| !matches!(b.spec, crate::runner::BotSpec::Builtin(_)))
    {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            limits_line(&limits, &bots).as_bytes(),
        );
    }
    let book = match &args.book {
        None => None,
        Some(_) if args.games % 2 == 1 => {
            return Err(Error::Io(format!(
                "--book: each opening is played twice, the colours reversed: --games {} is odd",
                args.games
            )))
        }
        Some(path) => Some(crate::book::Book::read(
            path,
            &args.game,
            &args.board,
            args.book_order == "random",
            args.seed,
            &crate::book::Slice {
                start: args.book_start,
                count: args.book_count,
                sha256: args.book_sha256.clone(),
                plies: args.book_plies,
            },
        )?),
    };
    let adjudication = crate::adjudication::Adjudication {
        resign: args
            .resign
            .as_deref()
            .map(crate::adjudication::Adjudication::parse_resign)
            .transpose()?,
        draw: args
            .draw
            .as_deref()
            .map(crate::adjudication::Adjudication::parse_draw)
            .transpose()?,
        max_moves: (args.max_moves > 0).then_some(args.max_moves),
    };
    let kind = qijudge_registry::by_name(&args.game)?;
    if args.pgn_out.is_some() && !kind.tools().contains(&"pgn") {
        return Err(Error::Io(format!(
            "--pgn-out: {}",
            qijudge_registry::registry::no_tool_text(&args.game, "pgn")
        )));
    }
    if adjudication.by_score() && !kind.adjudicated() {
        let with: Vec<&str> = qijudge_registry::registry::GAMES
            .iter()
            .filter(|g| g.adjudicated())
            .map(|g| g.title())
            .collect();
        return Err(Error::Io(format!(
            "--resign and --draw adjudicate engine games by their scores, in {}, not {}",
            with.join(" and "),
            args.game
        )));
    }
    let cfg = MatchConfig {
        book,
        engines,
        adjudication,
        game: args.game.clone(),
        board: args.board.clone(),
        bots,
        pairing: if args.gauntlet {
            Pairing::Gauntlet
        } else {
            Pairing::RoundRobin
        },
        games: args.games,
        concurrency: args.concurrency,
        seed: args.seed,
        time: Duration::from_millis(args.time_ms),
        out: args.out.clone(),
        shard,
        pack: !args.folders,
        tc: args
            .tc
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(Error::Io)?,
        interrupts: Some(crate::interrupt::catch()),
        rule_texts,
        now: qijudge_game::console::now_or(None)?,
        logs: args.bot_logs,
        sandbox: crate::sandbox::Grants {
            read: granted(&args.bot_read, "--bot-read")?,
            write: granted(&args.bot_write, "--bot-write")?,
            off: args.bot_sandbox == "off",
            launcher: None,
        },
        limits,
        launch: launches(&args.bot_dirs, &args.bot_env, &names)?,
        io_logs: args.bot_io_logs,
    };
    let sprt: Option<Sprt> = args
        .sprt
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(Error::Io)?;
    if sprt.is_some() && cfg.bots.len() != 2 {
        return Err(Error::Io(
            "--sprt: a sequential test compares two bots; give two".into(),
        ));
    }
    if args.summary_json.is_some() && cfg.bots.len() != 2 {
        return Err(Error::Io(
            "--summary-json: a summary compares two bots; give two".into(),
        ));
    }
    // With a book the games come in pairs, and the test is decided on pairs (pentanomial),
    // unless told to report games.
    let pairs = cfg.book.is_some() && args.report_penta;
    let tally = std::sync::Mutex::new(sprt.map(|t| Tally::new(t, &cfg.bots[0].name, pairs)));
    let fastchess = args.output == "fastchess";
    let printer = std::sync::Mutex::new(fastchess.then(|| {
        crate::fastchess::Printer::new(
            &cfg.bots[0].name,
            &cfg.bots.get(1).map(|b| b.name.clone()).unwrap_or_default(),
            pairs,
            sprt,
            crate::fastchess::heading(&cfg, args.book.as_deref()),
            match cfg.bots.len() {
                2 => args.rating_interval,
                _ => 0,
            },
        )
    }));
    let live = std::sync::Mutex::new(Live::new(std::io::stderr().is_terminal()));
    let observe = |event: Event| -> bool {
        if let Some(p) = printer.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            // Fleets read standard output line by line, and count words like "on time" in
            // every line of both outputs: the plain progress lines would count twice.
            print_now(&p.on(&event));
        } else {
            let text = live.lock().unwrap_or_else(|e| e.into_inner()).on(&event);
            // Progress is a courtesy: a closed standard error must not stop the match.
            let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
        }
        let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
        tally.as_mut().is_some_and(|t| t.on(&event))
    };
    let played = run_match(&cfg, &observe)?;
    if std::io::stderr().is_terminal() && !fastchess {
        let _ = std::io::Write::write_all(&mut std::io::stderr(), b"\n");
    }
    let done = played.games.len();
    if let Some(file) = &args.pgn_out {
        // Every finished game, in game order (GameRecord.dir names its folder or packed file).
        let mut text = String::new();
        for g in &played.games {
            let game = qijudge_registry::commands::pgn_text(Path::new(&g.dir), "iccs")?;
            match args.pgn_plain {
                true => text.push_str(&without_comments(&game)),
                false => text.push_str(&game),
            }
        }
        qijudge_store::write_atomic(file, text.as_bytes())?;
        if fleet.pgn_crc32 {
            // As fastchess says it once the file is closed; fishtest reads the last word.
            print_now(&format!(
                "File {} has CRC32: {:#x}\n",
                file.display(),
                crc32fast::hash(text.as_bytes())
            ));
        }
    }
    let pair_text = match cfg.book {
        Some(_) if !fastchess => pair_lines(&cfg, &played.games)?,
        _ => Vec::new(),
    };
    // Two bots: the fleet's summary (fastchess's words, and JSON with --summary-json).
    let summary = (cfg.bots.len() == 2).then(|| {
        crate::summary::Summary::of(
            &cfg.bots[0].name,
            &cfg.bots[1].name,
            &played.games,
            pairs,
            sprt,
        )
    });
    match printer.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(mut p) => {
            if let (Some(summary), Some(file)) = (&summary, &args.summary_json) {
                write_json(summary, file)?;
            }
            print_now(&p.end());
        }
        None => {
            say_raw!(
                "{}",
                render(&report(played.games, Vec::new()), format_of(&args.format))
            );
            // The pairs, on standard error beside the progress (standard output keeps its
            // format).
            for line in pair_text {
                let _ = std::io::Write::write_all(
                    &mut std::io::stderr(),
                    format!("{line}\n").as_bytes(),
                );
            }
            if let Some(summary) = &summary {
                write_summary(summary, args.summary_json.as_deref())?;
            }
        }
    }
    // The verdict last, under the standings it decides on.
    if let Some(t) = tally.into_inner().unwrap_or_else(|e| e.into_inner()) {
        let mut line = t.describe();
        if played.stopped == Some(Stopped::Decided) {
            line.push_str(&format!("; stopped after {done} of {} games", played.total));
        }
        let _ = std::io::Write::write_all(&mut std::io::stderr(), format!("{line}\n").as_bytes());
    }
    match played.stopped {
        Some(Stopped::Interrupted) => Err(Error::Interrupted(format!(
            "{done} of {} games played and kept; run the same command again to play the other {}",
            played.total,
            played.total - done
        ))),
        _ => Ok(()),
    }
}

/// A PGN game without its `{comments}` (they hold no brace of their own), each line's spaces
/// closed up where a comment was.
fn without_comments(pgn: &str) -> String {
    let mut out = String::with_capacity(pgn.len());
    let mut inside = false;
    for c in pgn.chars() {
        match (c, inside) {
            ('{', false) => inside = true,
            ('}', true) => inside = false,
            (_, true) => {}
            (c, false) => out.push(c),
        }
    }
    out.lines()
        .map(|l| {
            l.split(' ')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Per encounter, its first bot's pairs: the two games of each book opening, colours reversed.
fn pair_lines(cfg: &MatchConfig, games: &[crate::standings::GameRecord]) -> Result<Vec<String>> {
    use crate::stats::{Estimate, Score, Stats};
    let seats = qijudge_registry::by_name(&cfg.game)?
        .seats(&cfg.board)?
        .len();
    let encounters =
        crate::schedule::encounters(cfg.bots.len(), seats, cfg.pairing).map_err(Error::Io)?;
    let e = encounters.len() as u32;
    // (encounter, pair) → the first bot's result in each game of it.
    let mut pairs: std::collections::BTreeMap<(u32, u32), Vec<Score>> = Default::default();
    for g in games {
        let Some(k) = crate::runner::game_number(&g.dir) else {
            continue;
        };
        let (encounter, round) = ((k - 1) % e, (k - 1) / e);
        let first = &cfg.bots[encounters[encounter as usize][0]].name;
        let score = match &g.winner {
            Some(w) if w == first => Score::Win,
            Some(_) => Score::Loss,
            None => Score::Draw,
        };
        pairs.entry((encounter, round / 2)).or_default().push(score);
    }
    let mut lines = Vec::new();
    for (i, enc) in encounters.iter().enumerate() {
        let mut s = Stats::default();
        for ((_, _), scores) in pairs.range((i as u32, 0)..(i as u32 + 1, 0)) {
            if let [a, b] = scores[..] {
                s.add_game(a);
                s.add_game(b);
                s.add_pair(a, b);
            }
        }
        let (a, b) = (&cfg.bots[enc[0]].name, &cfg.bots[enc[1]].name);
        let p = s.ptnml();
        let mut line = format!(
            "pairs for {a}: {} (LL {}, LD {}, DD+WL {}, WD {}, WW {})",
            s.pairs(),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        );
        // The Elo from pairs where it is defined (not for a one-sided result).
        let e = Estimate::of_pairs(&s);
        if e.elo.is_finite() && e.elo_error.is_finite() {
            line.push_str(&format!(
                "; score {:.1}%, Elo {:+.1} ± {:.1} (95%, from pairs)",
                s.points_ratio(),
                e.elo,
                e.elo_error
            ));
        }
        lines.push(format!("{line} (against {b})"));
    }
    Ok(lines)
}

/// `qijudge pack`: each finished game verified, packed into DIR.tar.gz, read back with the same
/// result; the folder removed only then, and only with `remove`.
pub fn pack(dirs: &[PathBuf], remove: bool) -> Result<()> {
    for dir in dirs {
        let shown = dir.display().to_string().trim_end_matches('/').to_string();
        let game = qijudge_registry::of_dir(dir)?;
        let before = game.summary(dir)?;
        let file = PathBuf::from(format!("{shown}{}", packed::EXTENSION));
        qijudge_store::write_atomic(&file, &packed::pack(dir)?)?;
        let after = game.summary(&file)?;
        if (&after.id, &after.winner, after.plies) != (&before.id, &before.winner, before.plies) {
            let _ = std::fs::remove_file(&file);
            return Err(Error::Io(format!(
                "{shown}: the packed game does not read back the same; nothing was removed"
            )));
        }
        if remove {
            std::fs::remove_dir_all(dir).map_err(|e| Error::Io(format!("{shown}: {e}")))?;
        }
        let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        say!("packed {} ({size} bytes)", file.display());
    }
    Ok(())
}

pub fn bot(name: &str, game: &str) -> Result<()> {
    // The built-in bots play every game: they read the game from what they are sent.
    qijudge_registry::by_name(game)?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    crate::bots::serve(name, stdin, stdout).map_err(|e| Error::Io(format!("bot: {e}")))
}

/// The folders or files given to bots, as full paths (a bot runs in a folder of its own, where
/// a relative path would name nothing); each must exist.
fn granted(paths: &[PathBuf], flag: &str) -> Result<Vec<PathBuf>, Error> {
    paths
        .iter()
        .map(|path| {
            if !path.exists() {
                return Err(Error::Io(format!(
                    "{flag} {}: no such file or folder",
                    path.display()
                )));
            }
            std::path::absolute(path)
                .map_err(|e| Error::Io(format!("{flag} {}: {e}", path.display())))
        })
        .collect()
}

/// Each named bot's folder and variables, from `--bot-dir NAME=FOLDER` and `--bot-env
/// NAME:VAR=VALUE`.
fn launches(
    dirs: &[String],
    env: &[String],
    names: &[String],
) -> Result<std::collections::BTreeMap<String, qijudge_engine::process::Launch>> {
    let mut out: std::collections::BTreeMap<String, qijudge_engine::process::Launch> =
        Default::default();
    let known = |flag: &str, item: &str, name: &str| -> Result<()> {
        match names.iter().any(|n| n == name) {
            true => Ok(()),
            false => Err(Error::Io(format!(
                "{flag} {item:?}: no bot is called {name:?} (the bots: {})",
                names.join(", ")
            ))),
        }
    };
    for item in dirs {
        let (name, dir) = item
            .split_once('=')
            .ok_or_else(|| Error::Io(format!("--bot-dir {item:?}: expected NAME=FOLDER")))?;
        known("--bot-dir", item, name)?;
        if !Path::new(dir).is_dir() {
            return Err(Error::Io(format!(
                "--bot-dir {item:?}: {dir}: no such folder"
            )));
        }
        out.entry(name.to_string()).or_default().dir = Some(PathBuf::from(dir));
    }
    for item in env {
        let (name, setting) = item
            .split_once(':')
            .ok_or_else(|| Error::Io(format!("--bot-env {item:?}: expected NAME:VAR=VALUE")))?;
        known("--bot-env", item, name)?;
        out.entry(name.to_string())
            .or_default()
            .set_env(setting)
            .map_err(|e| Error::Io(format!("--bot-env {name}: {e}")))?;
    }
    Ok(out)
}

/// What process bots may consume and what enforces it, said once before the first game.
fn limits_line(limits: &crate::limits::MatchLimits, bots: &[BotEntry]) -> String {
    let mut text = format!("bot limits: {}", limits.all.describe());
    for b in bots {
        if let Some(own) = limits.by_bot.get(&b.name) {
            text.push_str(&format!("; {}: {}", b.name, own.describe()));
        }
    }
    match crate::cgroup::hierarchy() {
        Ok(h) => text.push_str(&format!(
            "\n  memory and processes bounded per bot by a {}\n",
            h.describe()
        )),
        Err(why) => text.push_str(&format!(
            "\n  no cgroup for the bots ({why}): memory and processes are bounded per process \
             only (and processes not at all for root); see docs/bots.md\n"
        )),
    }
    text
}
