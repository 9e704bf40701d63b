//! A process bot's standard error, read by a thread of the runner: kept in the game's log file
//! (`--bot-logs`) up to the bot's log limit, counted in every case (whether logs are kept must
//! not change a game's result), and past the limit cut, with a last line saying how much.
//!
//! An I/O log (`--bot-io-logs`) keeps the whole conversation instead, one line per line, each
//! stamped with the time (UTC, milliseconds) and its direction: `>` to the bot, `<` from it, `!`
//! its standard error, so a misread protocol line can be found without a logging wrapper.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A game's log file, and whether it keeps the whole conversation.
#[derive(Debug, Default)]
pub struct LogFile {
    pub file: Option<std::fs::File>,
    pub io: bool,
}

impl LogFile {
    pub fn none() -> LogFile {
        LogFile::default()
    }
}

/// `2026-12-02T07:08:38.123Z`.
fn stamp() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// Where a bot's standard error goes, for the game it plays now.
pub struct BotLog {
    state: Arc<Mutex<State>>,
    over: Arc<AtomicBool>,
    /// Whether this game's log keeps the conversation (read without the lock: most matches
    /// keep none, and an engine writes many lines a move).
    io: AtomicBool,
}

struct State {
    file: Option<std::fs::File>,
    io: bool,
    limit: Option<u64>,
    written: u64,
    cut: u64,
}

impl State {
    /// Closes this game's log: the line saying how much was cut, if anything was.
    fn finish(&mut self) {
        if let (Some(file), Some(limit)) = (&mut self.file, self.limit) {
            if self.cut > 0 {
                let _ = writeln!(
                    file,
                    "\n[qijudge: {} more bytes of standard error cut at the log limit of {limit} \
                     bytes]",
                    self.cut
                );
            }
        }
        self.file = None;
    }
}

impl BotLog {
    /// Reads `stderr` until the bot closes it, into `file` (if given) up to `limit` bytes a game.
    pub fn start(stderr: std::process::ChildStderr, file: LogFile, limit: Option<u64>) -> BotLog {
        let io = file.io;
        let state = Arc::new(Mutex::new(State {
            file: file.file,
            io,
            limit,
            written: 0,
            cut: 0,
        }));
        let over = Arc::new(AtomicBool::new(false));
        let log = BotLog {
            io: AtomicBool::new(io),
            state: state.clone(),
            over: over.clone(),
        };
        let reader = move || read_all(stderr, &state, &over);
        // A thread that cannot start leaves the pipe unread: the bot then blocks on a full
        // pipe and loses on time, which the organiser sees; nothing is lost.
        let _ = std::thread::Builder::new()
            .name("bot-stderr".into())
            .stack_size(64 * 1024)
            .spawn(reader);
        log
    }

    /// Whether the bot wrote more than its limit in this game.
    pub fn over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    /// The next game's log (a kept engine plays several): the last one is closed, the count
    /// starts again.
    pub fn next_game(&self, file: LogFile) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.finish();
        self.io
            .store(file.io && file.file.is_some(), Ordering::Relaxed);
        s.file = file.file;
        s.io = file.io;
        s.written = 0;
        s.cut = 0;
        self.over.store(false, Ordering::Relaxed);
    }
}

impl BotLog {
    /// A line the runner wrote to the bot (I/O logs only).
    pub fn sent(&self, line: &str) {
        self.conversation('>', line);
    }

    /// A line the bot wrote on its standard output (I/O logs only).
    pub fn received(&self, line: &str) {
        self.conversation('<', line);
    }

    fn conversation(&self, direction: char, line: &str) {
        if !self.io.load(Ordering::Relaxed) {
            return;
        }
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(file) = &mut s.file {
            let _ = writeln!(
                file,
                "{} {direction} {}",
                stamp(),
                line.trim_end_matches('\n')
            );
        }
    }
}

fn read_all(mut stderr: std::process::ChildStderr, state: &Mutex<State>, over: &AtomicBool) {
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match stderr.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        let room = match s.limit {
            Some(limit) => limit.saturating_sub(s.written).min(n as u64) as usize,
            None => n,
        };
        if room > 0 {
            let io = s.io;
            if let Some(file) = &mut s.file {
                match io {
                    true => {
                        let text = String::from_utf8_lossy(&chunk[..room]);
                        for line in text.lines() {
                            let _ = writeln!(file, "{} ! {line}", stamp());
                        }
                    }
                    false => {
                        let _ = file.write_all(&chunk[..room]);
                    }
                }
            }
            s.written += room as u64;
        }
        if room < n {
            s.cut += (n - room) as u64;
            over.store(true, Ordering::Relaxed);
        }
    }
    state.lock().unwrap_or_else(|e| e.into_inner()).finish();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    fn flood(bytes: usize, limit: Option<u64>) -> (String, bool) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("log");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("head -c {bytes} /dev/zero | tr '\\0' x >&2"))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = BotLog::start(
            child.stderr.take().unwrap(),
            LogFile {
                file: Some(std::fs::File::create(&path).unwrap()),
                io: false,
            },
            limit,
        );
        child.wait().unwrap();
        // The reader finishes once the pipe closes.
        for _ in 0..200 {
            if log.state.lock().unwrap().file.is_none() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        (std::fs::read_to_string(&path).unwrap(), log.over())
    }

    #[test]
    fn a_flood_is_kept_up_to_the_limit_and_the_cut_is_said() {
        let (text, over) = flood(300_000, Some(100_000));
        assert!(over);
        let (kept, note) = text.split_at(100_000);
        assert!(kept.bytes().all(|b| b == b'x'));
        assert_eq!(
            note,
            "\n[qijudge: 200000 more bytes of standard error cut at the log limit of 100000 \
             bytes]\n"
        );
        // Under the limit, all of it and nothing more.
        let (text, over) = flood(1000, Some(100_000));
        assert!(!over);
        assert_eq!(text.len(), 1000);
    }
}
