//! Luzhanqi programs of the Chinese computer-game competitions (CCGC), over the competition's
//! 2012 protocol: one line a message on standard input and output.
//!
//! - `INFO 1.0` → `NAME …`
//! - `START F TTTT SS` (F 0 when the engine moves first, else 1; TTTT its time in seconds;
//!   SS the attack-wait limit) → `ARRAY` and 25 piece letters, its army from G0 to L4 row by
//!   row, the camps left out
//! - `GO MOVE R FF` (the opponent's last move, its result and the opponent's flag square, or
//!   `0000 0 00` before the first move) → `BESTMOVE MOVE`
//! - `RESULT R FF` after the engine's own move; `END` at the end.
//!
//! Rows `A`–`L` top to bottom and columns `0`–`4` left to right, each engine seeing its own
//! army on rows G–L: the board is turned for the top seat. Piece letters `a`…`l` (marshal …
//! flag). Results are the mover's: 0 it died, 1 it won, 2 both removed, 3 a plain move. The
//! flag square is the opponent's, once its marshal has died (`00` until then). Everything told
//! comes from the seat's own view: ranks are never told, as the judge tells no seat.

use crate::view::ViewFile;
use luzhanqi_rules::{Outcome, Piece};
use qijudge_engine::protocol::{BotFailure, Reply, Request};
use qijudge_engine::{Bot, Engine, ProcessBot};
use qijudge_protocol::files::Notice;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Time an engine has to answer `INFO` (and, with its setup time, `START`).
const START_TIME: Duration = Duration::from_secs(10);

/// The letters of the protocol, `a` (marshal) to `l` (flag).
const LETTERS: [(char, Piece); 12] = [
    ('a', Piece::Marshal),
    ('b', Piece::General),
    ('c', Piece::MajorGeneral),
    ('d', Piece::Brigadier),
    ('e', Piece::Colonel),
    ('f', Piece::Major),
    ('g', Piece::Captain),
    ('h', Piece::Lieutenant),
    ('i', Piece::Engineer),
    ('j', Piece::Landmine),
    ('k', Piece::Bomb),
    ('l', Piece::Flag),
];

/// The camps of an engine's own half (no piece stands in one at the start).
const CAMPS: [(u8, u8); 5] = [(7, 1), (7, 3), (8, 2), (9, 1), (9, 3)];

/// The 25 points of an engine's army in `ARRAY` order: rows G to L, columns 0 to 4, camps left
/// out.
pub fn array_points() -> Vec<(u8, u8)> {
    (6..12u8)
        .flat_map(|row| (0..5u8).map(move |col| (row, col)))
        .filter(|p| !CAMPS.contains(p))
        .collect()
}

/// A protocol point (row 0 = `A` … 11 = `L`, column 0–4) as the square qijudge names it on the
/// two-player board, for the seat whose frame it is in (south sees the board as qijudge draws
/// it; north's frame is turned half round).
pub fn to_square(south: bool, (row, col): (u8, u8)) -> Option<String> {
    if row > 11 || col > 4 {
        return None;
    }
    let (file, rank) = match south {
        true => (col, 12 - row),
        false => (4 - col, row + 1),
    };
    Some(format!("{}{rank}", (b'a' + file) as char))
}

/// A qijudge square (`b1`) as the seat's protocol point.
pub fn to_point(south: bool, square: &str) -> Option<(u8, u8)> {
    let mut chars = square.chars();
    let file = chars.next().filter(|c| ('a'..='e').contains(c))? as u8 - b'a';
    let rank: u8 = chars
        .as_str()
        .parse()
        .ok()
        .filter(|r| (1..=12).contains(r))?;
    Some(match south {
        true => (12 - rank, file),
        false => (rank - 1, 4 - file),
    })
}

/// A point as the protocol writes it (`G4`).
fn point_text((row, col): (u8, u8)) -> String {
    format!("{}{col}", (b'A' + row) as char)
}

/// `G4H3` as two points.
fn parse_points(text: &str) -> Option<((u8, u8), (u8, u8))> {
    let b = text.as_bytes();
    if b.len() != 4 {
        return None;
    }
    let point = |r: u8, c: u8| {
        (r.is_ascii_uppercase() && r <= b'L' && (b'0'..=b'4').contains(&c))
            .then(|| (r - b'A', c - b'0'))
    };
    Some((point(b[0], b[1])?, point(b[2], b[3])?))
}

/// An `ARRAY` line as the seat's setup (square → piece name), or why it is not one.
pub fn read_array(south: bool, line: &str) -> Result<BTreeMap<String, String>, String> {
    let letters = line
        .strip_prefix("ARRAY ")
        .ok_or_else(|| format!("expected ARRAY and 25 letters, got {line:?}"))?
        .trim();
    if letters.chars().count() != 25 {
        return Err(format!("ARRAY needs 25 piece letters, got {letters:?}"));
    }
    let mut setup = BTreeMap::new();
    for (point, letter) in array_points().into_iter().zip(letters.chars()) {
        let piece = LETTERS
            .iter()
            .find(|(l, _)| *l == letter)
            .map(|(_, p)| *p)
            .ok_or_else(|| format!("ARRAY: {letter:?} is not a piece letter (a to l)"))?;
        let square = to_square(south, point).ok_or("ARRAY: off the board")?;
        let name = serde_json::to_value(piece)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        setup.insert(square, name);
    }
    Ok(setup)
}

/// Every `RESULT` and `GO` line a seat is told over the game so far, from its view alone, with
/// the index of the history item it tells: its own moves' results, and the opponent's moves
/// turned into its frame; each with the opponent's flag square once revealed. (Before the first
/// move the first mover is told `GO 0000 0 00`, which tells no item.)
pub fn exchange(view: &ViewFile) -> Vec<(usize, String)> {
    let me = view.audience.as_str();
    let south = me == "south";
    let mut flag = "00".to_string();
    let mut lines = Vec::new();
    for (i, item) in view.history.iter().enumerate() {
        for notice in &item.notices {
            if let Notice::FlagRevealed { seat, square } = notice {
                if seat != me {
                    if let Some(p) = to_point(south, square) {
                        flag = point_text(p);
                    }
                }
            }
        }
        let Some(outcome) = item.outcome else {
            continue;
        };
        let result = match outcome {
            Outcome::DefenderWon => 0,
            Outcome::AttackerWon => 1,
            Outcome::BothRemoved => 2,
            Outcome::Moved => 3,
        };
        if item.seat == me {
            lines.push((i, format!("RESULT {result} {flag}")));
        } else {
            let Some((from, to)) = item.action.split_once('-') else {
                continue;
            };
            let (Some(from), Some(to)) = (to_point(south, from), to_point(south, to)) else {
                continue;
            };
            lines.push((
                i,
                format!("GO {}{} {result} {flag}", point_text(from), point_text(to)),
            ));
        }
    }
    lines
}

/// A CCGC engine playing one two-player Luzhanqi game.
pub struct CcgcBot {
    process: ProcessBot,
    /// The seat it plays (from the setup request): south sees the board as qijudge draws it.
    south: bool,
    /// History items of its view already told.
    told: usize,
    named: bool,
    /// How long past the announced time an answer is still taken (`--engine NAME:timemargin=`):
    /// the programs of the competitions think past the time they are told, and under load more.
    grace: Duration,
}

impl CcgcBot {
    pub fn new(process: ProcessBot) -> CcgcBot {
        CcgcBot {
            process,
            south: true,
            told: 0,
            named: false,
            grace: Duration::ZERO,
        }
    }

    /// The same, taking answers up to `grace` past the announced time.
    pub fn with_grace(process: ProcessBot, grace: Duration) -> CcgcBot {
        CcgcBot {
            grace,
            ..CcgcBot::new(process)
        }
    }

    /// The engine's next line, trimmed; a timeout once `deadline` passes.
    fn line_before(&mut self, deadline: Instant) -> Result<String, BotFailure> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.process.read_line(left).map(|l| l.trim().to_string())
    }

    /// `INFO 1.0` … `NAME …`, once.
    fn hello(&mut self, deadline: Instant) -> Result<(), BotFailure> {
        if self.named {
            return Ok(());
        }
        self.process.send_line("INFO 1.0")?;
        let line = self.line_before(deadline)?;
        if !line.starts_with("NAME") {
            return Err(BotFailure::Garbage(format!(
                "expected NAME after INFO, got {line:?}"
            )));
        }
        self.named = true;
        Ok(())
    }

    fn setup(
        &mut self,
        seat: &str,
        board: &str,
        rules: &serde_json::Value,
        time_ms: u64,
        clock: Option<&qijudge_engine::protocol::ClockInfo>,
    ) -> Result<Reply, BotFailure> {
        if board != "2p" {
            return Err(BotFailure::Garbage(
                "a CCGC engine plays the two-player board".into(),
            ));
        }
        let first = match rules["first-mover"].as_str() {
            Some(s) if s == seat => 0,
            Some("south" | "north") => 1,
            _ => return Err(BotFailure::Garbage(
                "a CCGC engine is told whether it moves first: first-mover must be south or north"
                    .into(),
            )),
        };
        self.south = seat == "south";
        self.told = 0;
        let deadline = Instant::now() + START_TIME.max(Duration::from_millis(time_ms)) + self.grace;
        self.hello(deadline)?;
        // A whole-game clock (`--tc`, as the 2019 platform's 1800 s) is what START announces;
        // else the time for each move.
        let announced = clock
            .and_then(|c| c.remaining_ms.get(seat).copied())
            .unwrap_or(time_ms);
        let seconds = (announced / 1000).min(9999);
        let wait = rules["attack-wait"].as_u64().unwrap_or(0).min(99);
        self.process
            .send_line(&format!("START {first} {seconds:04} {wait:02}"))?;
        let line = self.line_before(deadline)?;
        let setup = read_array(self.south, &line).map_err(BotFailure::Garbage)?;
        Ok(Reply {
            setup: Some(setup),
            ..Reply::default()
        })
    }

    /// Sends what the engine has not been told yet; at the end, results only (a `GO` asks for a
    /// move).
    fn tell_new(&mut self, view: &ViewFile, ending: bool) -> Result<(), BotFailure> {
        for (i, line) in exchange(view) {
            if i < self.told || (ending && line.starts_with("GO ")) {
                continue;
            }
            self.process.send_line(&line)?;
        }
        self.told = view.history.len();
        if view.history.is_empty() && !ending {
            self.process.send_line("GO 0000 0 00")?;
        }
        Ok(())
    }

    fn play(
        &mut self,
        view: &ViewFile,
        legal: &[String],
        time_ms: u64,
    ) -> Result<Reply, BotFailure> {
        let deadline = Instant::now() + Duration::from_millis(time_ms) + self.grace;
        self.tell_new(view, false)?;
        let line = self.line_before(deadline)?;
        let text = line.strip_prefix("BESTMOVE ").ok_or_else(|| {
            BotFailure::Garbage(format!("expected BESTMOVE and a move, got {line:?}"))
        })?;
        let (from, to) = parse_points(text.trim()).ok_or_else(|| {
            BotFailure::Garbage(format!("BESTMOVE {text:?} is not two points A0 to L4"))
        })?;
        let (Some(from), Some(to)) = (to_square(self.south, from), to_square(self.south, to))
        else {
            return Err(BotFailure::Garbage(format!("BESTMOVE {text:?}")));
        };
        let action = format!("{from}-{to}");
        if legal.is_empty() {
            return Ok(Reply {
                action: Some("resign".into()),
                ..Reply::default()
            });
        }
        Ok(Reply {
            action: Some(action),
            ..Reply::default()
        })
    }
}

impl Bot for CcgcBot {
    fn ask(&mut self, request: &Request) -> Result<Reply, BotFailure> {
        match request {
            Request::Setup {
                seat,
                board,
                rules,
                time_ms,
                clock,
                ..
            } => self.setup(seat, board, rules, *time_ms, clock.as_ref()),
            Request::Move {
                view,
                legal,
                time_ms,
                ..
            } => match view.typed::<ViewFile>() {
                Some(view) => self.play(&view, legal, *time_ms),
                None => Err(BotFailure::Garbage(
                    "a CCGC engine is shown another game's view: it plays Luzhanqi".into(),
                )),
            },
            Request::End { .. } => Ok(Reply::default()),
        }
    }

    /// The results it was not told, then `END`.
    fn tell(&mut self, request: &Request) {
        if let Request::End { view } = request {
            if let Some(view) = view.typed::<ViewFile>() {
                let _ = self.tell_new(&view, true);
            }
        }
        let _ = self.process.send_line("END");
    }
}

/// A CCGC program is not kept between games: each game starts it anew, as the platform did.
impl Engine for CcgcBot {
    fn kept(&self) -> bool {
        false
    }

    fn handshake(&mut self) -> Result<(), BotFailure> {
        Ok(())
    }

    fn is_running(&mut self) -> bool {
        self.process.exited_within(Duration::ZERO).is_none()
    }

    fn log_to(&self, file: qijudge_engine::bot_log::LogFile) {
        self.process.log_to(file);
    }

    fn for_game(self: Box<Self>, _start: Option<&str>) -> Box<dyn Engine> {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_is_turned_for_the_top_seat_point_by_point() {
        // Every point maps to a distinct square for each seat, and back.
        for south in [true, false] {
            let mut seen = std::collections::BTreeSet::new();
            for row in 0..12u8 {
                for col in 0..5u8 {
                    let square = to_square(south, (row, col)).unwrap();
                    assert_eq!(to_point(south, &square), Some((row, col)), "{square}");
                    assert!(seen.insert(square));
                }
            }
            assert_eq!(seen.len(), 60);
        }
        // Each seat's headquarters are its L1 and L3; its front row is G, the opponent's F.
        for (south, l1, l3, g0, f0) in [
            (true, "b1", "d1", "a6", "a7"),
            (false, "d12", "b12", "e7", "e6"),
        ] {
            assert_eq!(to_square(south, (11, 1)).as_deref(), Some(l1));
            assert_eq!(to_square(south, (11, 3)).as_deref(), Some(l3));
            assert_eq!(to_square(south, (6, 0)).as_deref(), Some(g0));
            assert_eq!(to_square(south, (5, 0)).as_deref(), Some(f0));
        }
        // A point is the same square to both seats only after the half turn: south's A0 is
        // north's L4.
        assert_eq!(to_square(true, (0, 0)), to_square(false, (11, 4)));
        assert_eq!(to_point(true, "f1"), None);
        assert_eq!(to_point(true, "a13"), None);
    }

    #[test]
    fn an_array_is_the_army_row_by_row_without_the_camps() {
        // A layout from a 2019 competition log: the flag on L1, mines on K0, K3 and L0.
        let setup = read_array(true, "ARRAY cdhghkecebikifgjaijgjlfhd").unwrap();
        assert_eq!(setup.len(), 25);
        assert_eq!(setup["b1"], "flag");
        assert_eq!(setup["a2"], "landmine");
        assert_eq!(setup["a1"], "landmine");
        assert_eq!(setup["a6"], "major_general");
        assert_eq!(setup["a5"], "bomb");
        // North's L1 is d12.
        let north = read_array(false, "ARRAY cdhghkecebikifgjaijgjlfhd").unwrap();
        assert_eq!(north["d12"], "flag");
        for bad in [
            "ARRAY cdhghkecebikifgjaijgjlfh",
            "ARRAY cdhghkecebikifgjaijgjlfhz",
            "BESTMOVE G0F0",
        ] {
            assert!(read_array(true, bad).is_err(), "{bad}");
        }
        assert_eq!(array_points().len(), 25);
    }

    #[test]
    fn moves_are_read_as_two_points() {
        assert_eq!(parse_points("G4H3"), Some(((6, 4), (7, 3))));
        for bad in ["G5H3", "M0A0", "g4h3", "G4H", "0000"] {
            assert_eq!(parse_points(bad), None, "{bad}");
        }
    }
}
