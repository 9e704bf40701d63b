//! Xiangqi engines as bots, over UCI as Pikafish and Fairy-Stockfish speak it. The engine is
//! told the game from its start (`position fen … moves …`), so it sees the whole history, and
//! its clock (`go wtime … btime … winc … binc …`) or its time for the move (`go movetime`); the
//! judge, not the engine, decides repetitions (perpetual check and chase by the AXF rules).
//!
//! Square names: Pikafish counts ranks from 0 as ICCS does (`h2e2`); Fairy-Stockfish, which
//! plays many variants and offers the option `UCI_Variant`, counts them from 1 (`h3e3`, `a10`).
//! An engine that offers `UCI_Variant` is set to `xiangqi` and spoken to with ranks from 1.

use super::bots::{Bot, ProcessBot};
use super::protocol::{BotFailure, BotView, Reply, Request};
use crate::games::xiangqi::rules::fen::START;
use std::time::{Duration, Instant};

/// Time an engine has to start and answer `uci` and `isready`: at least this, or the time per
/// answer when longer (loading a network takes a moment).
const START_TIME: Duration = Duration::from_secs(10);

/// What a match sets for one engine (`--engine NAME:KEY=VALUE`): search limits for every
/// `go` (as fastchess's `nodes=`, `depth=`, `st=`), UCI options, and the square dialect where
/// detection is not wanted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSettings {
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
    /// Ranks counted from 1 (`true`) or 0 (`false`); detected from `UCI_Variant` when unset.
    pub ranks_from_one: Option<bool>,
    /// `setoption name NAME value VALUE`, in the order given.
    pub options: Vec<(String, String)>,
}

impl EngineSettings {
    /// Reads one `KEY=VALUE`: `nodes`, `depth`, `movetime` (ms), `ranks` (`0` or `1`), or
    /// `option.NAME`.
    pub fn set(&mut self, item: &str) -> Result<(), String> {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("{item:?}: expected KEY=VALUE"))?;
        let number = |what: &str| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{key}={value}: {what} must be a whole number above 0"))
        };
        match key {
            "nodes" => self.nodes = Some(number("nodes")?),
            "depth" => {
                self.depth = Some(
                    u32::try_from(number("depth")?)
                        .ok()
                        .filter(|d| *d <= 255)
                        .ok_or("depth: at most 255")?,
                )
            }
            "movetime" => self.movetime_ms = Some(number("movetime (milliseconds)")?),
            "ranks" => {
                self.ranks_from_one = Some(match value {
                    "0" => false,
                    "1" => true,
                    _ => {
                        return Err(format!(
                            "ranks={value}: 0 (Pikafish, ICCS) or 1 (Fairy-Stockfish)"
                        ))
                    }
                })
            }
            _ => {
                let Some(name) = key.strip_prefix("option.").filter(|n| !n.is_empty()) else {
                    return Err(format!(
                        "{key:?}: an engine setting is nodes=N, depth=N, movetime=MS, ranks=0|1 or option.NAME=VALUE"
                    ));
                };
                // One line to the engine each: no line breaks, and nothing the protocol reads
                // as its own word.
                let clean = |t: &str| !t.chars().any(char::is_control);
                if !clean(name) || !clean(value) || name.contains(" value ") {
                    return Err(format!("{key}: names and values are one line of text"));
                }
                self.options.push((name.to_string(), value.to_string()));
            }
        }
        Ok(())
    }

    /// The settings as given, for the match's state and report.
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(n) = self.nodes {
            out.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            out.push(format!("depth={d}"));
        }
        if let Some(t) = self.movetime_ms {
            out.push(format!("movetime={t}"));
        }
        if let Some(r) = self.ranks_from_one {
            out.push(format!("ranks={}", u8::from(r)));
        }
        for (k, v) in &self.options {
            out.push(format!("option.{k}={v}"));
        }
        out
    }

    /// The search limits of a `go` line (`nodes 2000 depth 6`), if any is set.
    fn limits(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime_ms {
            parts.push(format!("movetime {t}"));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// A UCI engine playing one Xiangqi game.
pub struct UciBot {
    process: ProcessBot,
    settings: EngineSettings,
    /// The game's start position (a book opening, or Xiangqi's start).
    start: String,
    /// Time for the handshake.
    start_time: Duration,
    ready: bool,
    /// Ranks counted from 1 (Fairy-Stockfish) rather than 0 (Pikafish, ICCS).
    ranks_from_one: bool,
    new_game_sent: bool,
}

impl UciBot {
    pub fn new(process: ProcessBot, time: Duration, settings: EngineSettings) -> UciBot {
        UciBot {
            process,
            settings,
            start: START.to_string(),
            start_time: time.max(START_TIME),
            ready: false,
            ranks_from_one: false,
            new_game_sent: false,
        }
    }

    /// Where the engine's standard error goes from now on (the next game's log).
    pub fn log_to(&self, file: Option<std::fs::File>) {
        self.process.log_to(file);
    }

    /// Whether the engine's process is still running (a kept engine may have died since).
    pub fn is_running(&mut self) -> bool {
        self.process.exited_within(Duration::ZERO).is_none()
    }

    /// Readies a kept engine for another game: `ucinewgame` before it, from `fen` (a book
    /// opening) or Xiangqi's start.
    pub fn for_game(mut self, fen: Option<&str>) -> UciBot {
        self.new_game_sent = false;
        self.start = fen.unwrap_or(START).to_string();
        self
    }

    /// The game starts from `fen` (an opening of the match's book).
    pub fn starting_from(mut self, fen: &str) -> UciBot {
        self.start = fen.to_string();
        self
    }

    /// `uci` … `uciok`, the variant where the engine has the option, `isready` … `readyok`.
    pub fn handshake(&mut self) -> Result<(), BotFailure> {
        if self.ready {
            return Ok(());
        }
        let deadline = Instant::now() + self.start_time;
        self.process.send_line("uci")?;
        let mut variants = false;
        loop {
            let line = self.line_before(deadline)?;
            if line.starts_with("option name UCI_Variant ") {
                variants = true;
            }
            if line == "uciok" {
                break;
            }
        }
        // Fairy-Stockfish (which has UCI_Variant) counts ranks from 1, unless told otherwise.
        self.ranks_from_one = self.settings.ranks_from_one.unwrap_or(variants);
        if variants {
            self.process
                .send_line("setoption name UCI_Variant value xiangqi")?;
        }
        for (name, value) in &self.settings.options {
            self.process
                .send_line(&format!("setoption name {name} value {value}"))?;
        }
        self.wait_ready(deadline)?;
        self.ready = true;
        Ok(())
    }

    fn wait_ready(&mut self, deadline: Instant) -> Result<(), BotFailure> {
        self.process.send_line("isready")?;
        while self.line_before(deadline)? != "readyok" {}
        Ok(())
    }

    /// The engine's next line, trimmed; a timeout once `deadline` passes.
    fn line_before(&mut self, deadline: Instant) -> Result<String, BotFailure> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.process.read_line(left).map(|l| l.trim().to_string())
    }

    /// Our ICCS square (`h2`) as the engine names it.
    fn iccs_to_engine(&self, iccs: &str) -> Option<String> {
        let (from, to) = split_move(iccs)?;
        let shift =
            |(file, rank): (char, u32)| format!("{file}{}", rank + u32::from(self.ranks_from_one));
        Some(format!("{}{}", shift(from), shift(to)))
    }

    /// The engine's move as ICCS, or none when it is not a move on the board.
    fn engine_to_iccs(&self, text: &str) -> Option<String> {
        let (from, to) = split_move(text)?;
        let shift = |(file, rank): (char, u32)| {
            let rank = rank.checked_sub(u32::from(self.ranks_from_one))?;
            (rank <= 9).then(|| format!("{file}{rank}"))
        };
        Some(format!("{}{}", shift(from)?, shift(to)?))
    }

    fn play(
        &mut self,
        view: &serde_json::Value,
        legal: &[String],
        time_ms: u64,
        clock: Option<&super::protocol::ClockInfo>,
    ) -> Result<Reply, BotFailure> {
        let deadline = Instant::now() + Duration::from_millis(time_ms);
        self.prepare()?;
        let moves: Vec<String> = view
            .get("moves")
            .and_then(|m| m.as_array())
            .ok_or_else(|| BotFailure::Garbage("a view without moves (not Xiangqi)".into()))?
            .iter()
            .filter_map(|m| m.as_str().and_then(|m| self.iccs_to_engine(m)))
            .collect();
        let mut position = format!("position fen {}", self.start);
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.process.send_line(&position)?;
        let limits = self.settings.limits();
        let go = match (clock, limits) {
            (Some(c), limits) => {
                let ms = |seat: &str| c.remaining_ms.get(seat).copied().unwrap_or(time_ms);
                let mut go = format!(
                    "go wtime {} btime {} winc {inc} binc {inc}",
                    ms("red"),
                    ms("black"),
                    inc = c.increment_ms
                );
                // Moves to go are the side to move's (the view says whose turn it is).
                let mover = view.get("to_move").and_then(|s| s.as_str()).unwrap_or("");
                if let Some(n) = c.moves_to_go.get(mover) {
                    go.push_str(&format!(" movestogo {n}"));
                }
                if let Some(l) = limits {
                    go.push(' ');
                    go.push_str(&l);
                }
                go
            }
            // Fixed nodes, depth or time a move: the answer's time limit still holds.
            (None, Some(l)) => format!("go {l}"),
            // Keep a tenth (at most 100 ms) for the engine to answer and us to read it.
            (None, None) => format!("go movetime {}", time_ms - (time_ms / 10).min(100)),
        };
        self.process.send_line(&go)?;
        // The last score the search reported: its evaluation of the move it plays.
        let mut reported = None;
        loop {
            let line = self.line_before(deadline)?;
            let Some(best) = line.strip_prefix("bestmove") else {
                if let Some(info) = super::adjudication::parse_info(&line) {
                    reported = Some(info);
                }
                continue;
            };
            let best = best.split_whitespace().next().unwrap_or("");
            if best == "(none)" || best == "0000" || legal.is_empty() {
                return Ok(Reply {
                    action: Some("resign".into()),
                    ..Reply::default()
                });
            }
            let iccs = self.engine_to_iccs(best).ok_or_else(|| {
                BotFailure::Garbage(format!("bestmove {best:?} is not a move on the board"))
            })?;
            return Ok(Reply {
                action: Some(iccs),
                score: reported.map(|(s, _)| s),
                depth: reported.and_then(|(_, d)| d),
                ..Reply::default()
            });
        }
    }
}

/// `h2e2` (or `a10a9`) as ((file, rank), (file, rank)); none when it is not two squares.
fn split_move(text: &str) -> Option<((char, u32), (char, u32))> {
    let mut chars = text.char_indices().peekable();
    let mut square = || -> Option<(char, u32)> {
        let (_, file) = chars.next()?;
        if !('a'..='i').contains(&file) {
            return None;
        }
        let mut digits = String::new();
        while let Some((_, c)) = chars.peek().filter(|(_, c)| c.is_ascii_digit()) {
            digits.push(*c);
            chars.next();
        }
        (!digits.is_empty() && digits.len() <= 2)
            .then(|| digits.parse().ok())
            .flatten()
            .map(|rank| (file, rank))
    };
    let from = square()?;
    let to = square()?;
    chars.next().is_none().then_some((from, to))
}

impl Bot for UciBot {
    fn ask(&mut self, request: &Request) -> Result<Reply, BotFailure> {
        match request {
            Request::Move {
                view: BotView::Other(view),
                legal,
                time_ms,
                clock,
            } => self.play(view, legal, *time_ms, clock.as_ref()),
            Request::Move { .. } => Err(BotFailure::Garbage(
                "a UCI engine is shown a Luzhanqi view: it plays Xiangqi only".into(),
            )),
            Request::Setup { .. } => Err(BotFailure::Garbage(
                "a UCI engine is asked for a setup: it plays Xiangqi only".into(),
            )),
            Request::End { .. } => Ok(Reply::default()),
        }
    }

    fn tell(&mut self, _: &Request) {
        let _ = self.process.send_line("quit");
    }

    fn is_engine(&self) -> bool {
        true
    }

    fn into_engine(self: Box<Self>) -> Option<UciBot> {
        Some(*self)
    }

    /// The handshake and `ucinewgame`, within the start time.
    fn prepare(&mut self) -> Result<(), BotFailure> {
        self.handshake()?;
        if !self.new_game_sent {
            self.process.send_line("ucinewgame")?;
            self.wait_ready(Instant::now() + self.start_time)?;
            self.new_game_sent = true;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_settings_read_limits_options_and_the_dialect() {
        let mut s = EngineSettings::default();
        for item in [
            "nodes=2000",
            "depth=6",
            "option.Hash=64",
            "option.Threads=1",
            "ranks=0",
        ] {
            s.set(item).unwrap();
        }
        assert_eq!(s.limits().as_deref(), Some("nodes 2000 depth 6"));
        assert_eq!(
            s.describe(),
            [
                "nodes=2000",
                "depth=6",
                "ranks=0",
                "option.Hash=64",
                "option.Threads=1"
            ]
        );
        for bad in [
            "nodes=0",
            "depth=x",
            "ranks=2",
            "colour=red",
            "option.=1",
            "option.A=b\nquit",
        ] {
            assert!(EngineSettings::default().set(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn squares_are_read_with_one_or_two_digit_ranks() {
        assert_eq!(split_move("h2e2"), Some((('h', 2), ('e', 2))));
        assert_eq!(split_move("a10a9"), Some((('a', 10), ('a', 9))));
        assert_eq!(split_move("e1e10"), Some((('e', 1), ('e', 10))));
        for bad in ["", "h2", "h2e", "j2e2", "h2e2x", "h123e2", "0000"] {
            assert_eq!(split_move(bad), None, "{bad}");
        }
    }
}
