//! Xiangqi engines as bots, over UCI as Pikafish and Fairy-Stockfish speak it, or over UCCI
//! (the Chinese Chess Computer Interface; its own lines are built in [`crate::ucci`]). Over UCI
//! the engine is told the game from its start (`position fen … moves …`), so it sees the whole
//! history, and its clock (`go wtime … btime … winc … binc …`) or its time for the move (`go
//! movetime`); over UCCI, the position after the last capture and the moves since, and `go` in
//! seconds unless it takes milliseconds. The judge, not the engine, decides repetitions
//! (perpetual check and chase by the AXF rules); an organiser may have the moves that would
//! lose by them banned (`banmoves`, UCCI only).
//!
//! Square names: Pikafish and UCCI engines count ranks from 0 as ICCS does (`h2e2`);
//! Fairy-Stockfish over UCI, which plays many variants and offers the option `UCI_Variant`,
//! counts them from 1 (`h3e3`, `a10`), as Sjaak II does over both protocols. A UCI engine that
//! offers `UCI_Variant` is spoken to with ranks from 1 unless the organiser says otherwise.

use crate::ucci;
use qijudge_engine::protocol::{BotFailure, BotView, ClockInfo, Reply, Request};
use qijudge_engine::{Bot, Engine, EngineSettings, ProcessBot};
use std::time::{Duration, Instant};
use xiangqi_rules::fen::START;

/// The protocol an engine speaks (`uci:COMMAND`, `ucci:COMMAND`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ucci,
}

impl Dialect {
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "UCI",
            Dialect::Ucci => "UCCI",
        }
    }
}

/// How a variant's engine is told the position from a seat's view (Jieqi's UCI dialect), with
/// ranks counted from 1 or 0 (the number is the first rank's).
pub type PositionLine = fn(&serde_json::Value, u32) -> Result<String, String>;

/// The standard FEN letters of chariot, horse, elephant, advisor, king, cannon and pawn.
const STANDARD_LETTERS: [char; 7] = ['R', 'N', 'B', 'A', 'K', 'C', 'P'];

/// Time an engine has to start and answer `uci` and `isready`: at least this, or the time per
/// answer when longer (loading a network takes a moment).
const START_TIME: Duration = Duration::from_secs(10);

/// A UCI or UCCI engine playing one Xiangqi game.
pub struct UciBot {
    process: ProcessBot,
    dialect: Dialect,
    settings: EngineSettings,
    /// The game's start position (a book opening, or Xiangqi's start).
    start: String,
    /// Time for the handshake.
    start_time: Duration,
    ready: bool,
    /// Ranks counted from 1 (Fairy-Stockfish over UCI, Sjaak II) rather than 0 (ICCS).
    ranks_from_one: bool,
    /// UCCI: the engine took `usemillisec` (times in milliseconds, else in seconds).
    millis: bool,
    /// UCCI: the engine offers the `newgame` button.
    newgame_button: bool,
    /// UCCI: the game replayed so far (for the position after the last capture).
    replay: ucci::Replay,
    new_game_sent: bool,
    /// A variant's own `position` line from the view (Xiangqi's is built here).
    position_line: Option<PositionLine>,
}

impl UciBot {
    pub fn new(
        process: ProcessBot,
        dialect: Dialect,
        time: Duration,
        settings: EngineSettings,
    ) -> UciBot {
        UciBot {
            process,
            dialect,
            settings,
            start: START.to_string(),
            start_time: time.max(START_TIME),
            ready: false,
            ranks_from_one: false,
            millis: false,
            newgame_button: false,
            replay: ucci::Replay::default(),
            new_game_sent: false,
            position_line: None,
        }
    }

    /// A variant's engine, told the position by `line` from the seat's view.
    pub fn telling_positions_by(mut self, line: PositionLine) -> UciBot {
        self.position_line = Some(line);
        self
    }

    /// Where the engine's standard error goes from now on (the next game's log).
    pub fn log_to(&self, file: qijudge_engine::bot_log::LogFile) {
        self.process.log_to(file);
    }

    /// Whether the engine's process is still running (a kept engine may have died since).
    pub fn is_running(&mut self) -> bool {
        self.process.exited_within(Duration::ZERO).is_none()
    }

    /// Readies a kept engine for another game: a new game before it, from `fen` (a book
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

    /// `uci` … `uciok` (or `ucci` … `ucciok`), the variant where the engine has the option,
    /// milliseconds where a UCCI engine takes them, the organiser's options, `isready` …
    /// `readyok`.
    pub fn handshake(&mut self) -> Result<(), BotFailure> {
        if self.ready {
            return Ok(());
        }
        let deadline = Instant::now() + self.start_time;
        let (hello, ok) = match self.dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ucci => ("ucci", "ucciok"),
        };
        self.process.send_line(hello)?;
        let mut offered: Vec<String> = Vec::new();
        loop {
            let line = self.line_before(deadline)?;
            // `option name NAME type …` (UCI), `option NAME type …` (UCCI).
            if let Some(rest) = line.strip_prefix("option ") {
                let rest = rest.strip_prefix("name ").unwrap_or(rest);
                let name = rest.split(" type ").next().unwrap_or("").trim();
                offered.push(name.to_string());
            }
            if line == ok {
                break;
            }
        }
        let offers = |name: &str| offered.iter().any(|o| o.eq_ignore_ascii_case(name));
        let variants = offers("UCI_Variant");
        let set = |this: &mut UciBot, name: &str, value: &str| match this.dialect {
            Dialect::Uci => this
                .process
                .send_line(&format!("setoption name {name} value {value}")),
            Dialect::Ucci => this.process.send_line(&format!("setoption {name} {value}")),
        };
        // Fairy-Stockfish over UCI (which has UCI_Variant) counts ranks from 1; UCCI engines
        // count from 0 as the protocol says. The organiser's `ranks=` overrides both.
        self.ranks_from_one = self
            .settings
            .ranks_from_one
            .unwrap_or(self.dialect == Dialect::Uci && variants);
        if variants {
            set(self, "UCI_Variant", "xiangqi")?;
        }
        if self.dialect == Dialect::Ucci {
            // The protocol's advice: an engine that offers milliseconds is told to use them.
            self.millis = offers("usemillisec");
            if self.millis {
                set(self, "usemillisec", "true")?;
            }
            self.newgame_button = offers("newgame");
        }
        for (name, value) in self.settings.options.clone() {
            set(self, &name, &value)?;
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

    /// Our ICCS move (`h2e2`) as the engine names it.
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

    /// ICCS moves as the engine names them.
    fn engine_moves<'a>(&self, moves: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        moves
            .into_iter()
            .filter_map(|m| self.iccs_to_engine(m))
            .collect()
    }

    /// A FEN in the engine's letters.
    fn engine_fen(&self, fen: &str) -> String {
        ucci::with_letters(fen, self.settings.letters.unwrap_or(STANDARD_LETTERS))
    }

    /// The `position` line (and, over UCCI with `banmoves=on`, the `banmoves` line).
    fn position_lines(
        &mut self,
        played: &[&str],
        legal: &[String],
    ) -> Result<Vec<String>, BotFailure> {
        // The kept replay is taken out while the lines borrow the rest.
        let mut replay = std::mem::take(&mut self.replay);
        let lines = self.lines_from(&mut replay, played, legal);
        self.replay = replay;
        lines
    }

    fn lines_from(
        &self,
        replay: &mut ucci::Replay,
        played: &[&str],
        legal: &[String],
    ) -> Result<Vec<String>, BotFailure> {
        let line = |fen: &str, moves: Vec<String>| {
            let mut line = format!("position fen {}", self.engine_fen(fen));
            if !moves.is_empty() {
                line.push_str(" moves ");
                line.push_str(&moves.join(" "));
            }
            line
        };
        Ok(match self.dialect {
            Dialect::Uci => vec![line(&self.start, self.engine_moves(played.iter().copied()))],
            Dialect::Ucci => {
                let game = replay.update(&self.start, played).ok_or_else(|| {
                    BotFailure::Garbage("the view's moves do not replay from the start".into())
                })?;
                let (fen, since) = ucci::since_last_capture(game);
                let mut lines = vec![line(
                    &fen,
                    self.engine_moves(since.iter().map(String::as_str)),
                )];
                if self.settings.banmoves {
                    let banned = ucci::losing_repetitions(game, legal);
                    if !banned.is_empty() {
                        let banned = self.engine_moves(banned.iter().map(String::as_str));
                        lines.push(format!("banmoves {}", banned.join(" ")));
                    }
                }
                lines
            }
        })
    }

    /// The `go` line: the clock, else the organiser's limits, else the time for the move.
    fn go_line(
        &self,
        view: &serde_json::Value,
        time_ms: u64,
        clock: Option<&ClockInfo>,
        draw_offered: bool,
    ) -> String {
        let mover = view.get("to_move").and_then(|s| s.as_str()).unwrap_or("");
        // Keep a tenth (at most 100 ms) for the engine to answer and us to read it.
        let thinking = time_ms - (time_ms / 10).min(100);
        match self.dialect {
            Dialect::Uci => {
                let limits = self.settings.limits();
                match (clock, limits) {
                    (Some(c), limits) => {
                        let ms = |seat: &str| c.remaining_ms.get(seat).copied().unwrap_or(time_ms);
                        let mut go = format!(
                            "go wtime {} btime {} winc {inc} binc {inc}",
                            ms("red"),
                            ms("black"),
                            inc = c.increment_ms
                        );
                        // Moves to go are the side to move's.
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
                    (None, None) => format!("go movetime {thinking}"),
                }
            }
            Dialect::Ucci => {
                // One mode a `go`: the clock first, then depth, nodes, time a move.
                let s = &self.settings;
                let limit = match clock {
                    Some(c) => {
                        let opponent = if mover == "red" { "black" } else { "red" };
                        let ms = |seat: &str| c.remaining_ms.get(seat).copied().unwrap_or(time_ms);
                        let plies = view
                            .get("moves")
                            .and_then(|m| m.as_array())
                            .map_or(0, Vec::len);
                        ucci::Limit::Clock {
                            time_ms: ms(mover),
                            increment_ms: c.increment_ms,
                            moves_to_go: c.moves_to_go.get(mover).copied(),
                            opponent_ms: ms(opponent),
                            own_moves: plies as u64 / 2,
                        }
                    }
                    None => match (s.depth, s.nodes, s.movetime_ms) {
                        (Some(d), _, _) => ucci::Limit::Depth(d),
                        (None, Some(n), _) => ucci::Limit::Nodes(n),
                        (None, None, Some(t)) => ucci::Limit::MoveTime(t.min(thinking)),
                        (None, None, None) => ucci::Limit::MoveTime(thinking),
                    },
                };
                ucci::go_line(&limit, draw_offered, self.millis)
            }
        }
    }

    fn play(
        &mut self,
        view: &serde_json::Value,
        legal: &[String],
        time_ms: u64,
        clock: Option<&ClockInfo>,
    ) -> Result<Reply, BotFailure> {
        let now = Instant::now();
        // At this point the engine is told to stop, and answers before the announced time; it
        // may answer later by its time margin (fastchess's `timemargin`).
        let stop_at = now + Duration::from_millis(time_ms - (time_ms / 10).min(100));
        let margin = Duration::from_millis(self.settings.timemargin_ms.unwrap_or(0));
        let deadline = now + Duration::from_millis(time_ms) + margin;
        self.prepare()?;
        let played: Vec<&str> = view
            .get("moves")
            .and_then(|m| m.as_array())
            .ok_or_else(|| BotFailure::Garbage("a view without moves (not Xiangqi)".into()))?
            .iter()
            .filter_map(|m| m.as_str())
            .collect();
        // A draw offer of the opponent's stands (UCCI tells the engine with `go draw`).
        let mover = view.get("to_move").and_then(|s| s.as_str());
        let offer = view.get("draw_offer").and_then(|s| s.as_str());
        let draw_offered = offer.is_some() && offer != mover;
        let lines = match (self.position_line, self.dialect) {
            // A variant's UCI dialect (Jieqi's), from the seat's own view.
            (Some(line), Dialect::Uci) => {
                vec![line(view, u32::from(self.ranks_from_one))
                    .map_err(|e| BotFailure::Garbage(format!("the view cannot be told: {e}")))?]
            }
            (Some(_), Dialect::Ucci) => {
                return Err(BotFailure::Garbage(
                    "a UCCI engine is shown a variant's view: variants speak UCI".into(),
                ))
            }
            (None, _) => self.position_lines(&played, legal)?,
        };
        for line in lines {
            self.process.send_line(&line)?;
        }
        let go = self.go_line(
            view,
            time_ms,
            clock,
            draw_offered && self.dialect == Dialect::Ucci,
        );
        self.process.send_line(&go)?;
        // The last score the search reported: its evaluation of the move it plays.
        let mut reported = None;
        let mut stopped = false;
        let answer = loop {
            let line = if stopped {
                self.line_before(deadline)?
            } else {
                let left = stop_at.saturating_duration_since(Instant::now());
                match self.process.line_within(left)? {
                    Some(line) => line.trim().to_string(),
                    None => {
                        self.process.send_line("stop")?;
                        stopped = true;
                        continue;
                    }
                }
            };
            match ucci::answer(&line) {
                Some(answer) => break answer,
                None => {
                    if let Some(info) = qijudge_engine::score::parse_info(&line) {
                        reported = Some(info);
                    }
                }
            }
        };
        let resign = Reply {
            action: Some("resign".into()),
            ..Reply::default()
        };
        let (text, draw) = match answer {
            ucci::Answer::NoMove => return Ok(resign),
            ucci::Answer::Best { resign: true, .. } => return Ok(resign),
            ucci::Answer::Best { text, draw, .. } => (text, draw),
        };
        if text == "(none)" || text == "0000" || legal.is_empty() {
            return Ok(resign);
        }
        // Over UCCI, `draw` accepts an offer that stands, else offers one with the move.
        if draw && draw_offered {
            return Ok(Reply {
                action: Some("accept-draw".into()),
                ..Reply::default()
            });
        }
        // A Jieqi engine may write letters after the squares (what it expects to turn up or
        // take); the judge, not the engine, says what a piece is.
        let squares = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let iccs = self.engine_to_iccs(squares).ok_or_else(|| {
            BotFailure::Garbage(format!("bestmove {text:?} is not a move on the board"))
        })?;
        Ok(Reply {
            action: Some(iccs),
            offer_draw: draw.then_some(true),
            score: reported.map(|(s, _)| s),
            depth: reported.and_then(|(_, d)| d),
            ..Reply::default()
        })
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
                view: BotView::Json(view),
                legal,
                time_ms,
                clock,
            } => self.play(view, legal, *time_ms, clock.as_ref()),
            Request::Move { .. } => Err(BotFailure::Garbage(format!(
                "a {} engine is shown a Luzhanqi view: it plays Xiangqi (and Jieqi over UCI)",
                self.dialect.name()
            ))),
            Request::Setup { .. } => Err(BotFailure::Garbage(format!(
                "a {} engine is asked for a setup: it plays Xiangqi (and Jieqi over UCI)",
                self.dialect.name()
            ))),
            Request::End { .. } => Ok(Reply::default()),
        }
    }

    fn tell(&mut self, _: &Request) {
        let _ = self.process.send_line("quit");
    }

    fn is_engine(&self) -> bool {
        true
    }

    fn into_engine(self: Box<Self>) -> Option<Box<dyn Engine>> {
        Some(self)
    }

    /// The handshake and a new game (`ucinewgame`; over UCCI `setoption newgame` where the
    /// engine offers it), within the start time.
    fn prepare(&mut self) -> Result<(), BotFailure> {
        self.handshake()?;
        if !self.new_game_sent {
            match self.dialect {
                Dialect::Uci => self.process.send_line("ucinewgame")?,
                Dialect::Ucci if self.newgame_button => {
                    self.process.send_line("setoption newgame")?
                }
                Dialect::Ucci => {}
            }
            self.wait_ready(Instant::now() + self.start_time)?;
            self.new_game_sent = true;
        }
        Ok(())
    }
}

impl Engine for UciBot {
    fn kept(&self) -> bool {
        true
    }

    fn handshake(&mut self) -> Result<(), BotFailure> {
        UciBot::handshake(self)
    }

    fn is_running(&mut self) -> bool {
        UciBot::is_running(self)
    }

    fn log_to(&self, file: qijudge_engine::bot_log::LogFile) {
        UciBot::log_to(self, file)
    }

    fn for_game(self: Box<Self>, start: Option<&str>) -> Box<dyn Engine> {
        Box::new(UciBot::for_game(*self, start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
