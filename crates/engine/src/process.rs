//! Bots: something that plays, and programs run as child processes speaking the line protocol,
//! with a time limit on every answer.

use crate::protocol::{BotFailure, Reply, Request};
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::time::Duration;

/// Something that plays: asked a request, it answers (or fails).
pub trait Bot: Send {
    fn ask(&mut self, request: &Request) -> Result<Reply, BotFailure>;
    /// Tells the end of the game; no answer is read.
    fn tell(&mut self, request: &Request);
    /// Gets ready for a game, before any clock runs (an engine's handshake).
    fn prepare(&mut self) -> Result<(), BotFailure> {
        Ok(())
    }
    /// Whether it reads the view of a move request. One that does not (the built-in random
    /// bot) is sent none, which spares the runner building a view it would throw away.
    fn reads_view(&self) -> bool {
        true
    }
    /// Whether it is an engine kept from game to game.
    fn is_engine(&self) -> bool {
        false
    }
    /// The engine, to keep for the match's next game (only an engine is kept).
    fn into_engine(self: Box<Self>) -> Option<Box<dyn crate::Engine>> {
        None
    }
}

/// How a process bot is started besides its command: in which folder, with which variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Launch {
    /// The folder it starts in (fastchess's `dir=`): relative program paths of the command are
    /// read from there, and with the sandbox on, the folder is visible read-only. Unset, a bot
    /// starts in its own empty folder.
    pub dir: Option<std::path::PathBuf>,
    /// Environment variables set for it besides `PATH`, `HOME`, `TMPDIR` and `LANG`.
    pub env: Vec<(String, String)>,
}

impl Launch {
    /// Reads one `VAR=VALUE`: a portable variable name and a value without NUL.
    pub fn set_env(&mut self, item: &str) -> Result<(), String> {
        let (var, value) = item
            .split_once('=')
            .ok_or_else(|| format!("{item:?}: expected VAR=VALUE"))?;
        let portable = var.chars().next().is_some_and(|c| !c.is_ascii_digit())
            && var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !portable || value.contains('\0') {
            return Err(format!(
                "{var:?}: a variable is named with letters, digits and _ (not first a digit), its \
                 value one string without NUL"
            ));
        }
        self.env.retain(|(v, _)| v != var);
        self.env.push((var.to_string(), value.to_string()));
        Ok(())
    }
}

/// `'text'` for `sh`, whatever the text holds.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A program speaking the protocol on its standard input and output, run with `sh -c`.
pub struct ProcessBot {
    child: Child,
    /// The bot's own folder, confinement and limits (all go when the bot does, after it).
    sandbox: crate::sandbox::Sandbox,
    /// Its standard error, counted against its log limit (and kept with `--bot-logs`).
    log: crate::bot_log::BotLog,
    stdin: Option<ChildStdin>,
    lines: LineReader,
    /// Whether it wants views (until an answer says `"views": false`).
    views: bool,
}

/// The longest answer line read.
const MAX_LINE: usize = 1 << 20;

impl ProcessBot {
    /// Starts `command` through the shell, in its own empty folder (or `launch.dir`), confined
    /// (see [`crate::sandbox`]) and within `limits`; its standard error goes to `log` when
    /// given, with its whole conversation when `log.io`.
    pub fn spawn(
        command: &str,
        launch: &Launch,
        log: crate::bot_log::LogFile,
        grants: &crate::sandbox::Grants,
        limits: &crate::limits::Limits,
    ) -> std::io::Result<ProcessBot> {
        use std::os::unix::process::CommandExt;
        let base = launch.dir.as_deref().unwrap_or(std::path::Path::new("."));
        let (mut command, programs) = crate::sandbox::program_files_in(command, base);
        let mut grants = grants.clone();
        if let Some(dir) = &launch.dir {
            let dir = std::path::absolute(dir)?;
            if !dir.is_dir() {
                return Err(std::io::Error::other(format!(
                    "{}: no such folder to start in",
                    dir.display()
                )));
            }
            command = format!(
                "cd -- {} || exit 127; {command}",
                shell_quoted(&dir.to_string_lossy())
            );
            if !grants.write.iter().any(|w| dir.starts_with(w)) {
                grants.read.push(dir);
            }
        }
        let sandbox =
            crate::sandbox::prepare(&grants, limits, &programs).map_err(std::io::Error::other)?;
        let mut cmd = sandbox.command(&command);
        cmd.envs(launch.env.iter().map(|(k, v)| (k, v)));
        // A group of its own: Ctrl-C at the terminal reaches the match runner, which finishes
        // the games in flight, and not the bots playing them.
        cmd.process_group(0);
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| std::io::Error::other("no stderr"))?;
        let stdin = child.stdin.take();
        Ok(ProcessBot {
            child,
            sandbox,
            log: crate::bot_log::BotLog::start(stderr, log, limits.log),
            stdin,
            lines: LineReader::new(stdout),
            views: true,
        })
    }

    /// The bot's exit status if it stops within `wait` (a command that cannot run, say).
    pub fn exited_within(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let until = std::time::Instant::now() + wait;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if std::time::Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, request: &Request) -> Result<(), BotFailure> {
        let line =
            serde_json::to_string(request).map_err(|e| BotFailure::Garbage(e.to_string()))?;
        self.send_line(&line)
    }

    /// Writes one line to the bot.
    pub fn send_line(&mut self, line: &str) -> Result<(), BotFailure> {
        self.log.sent(line);
        let stdin = self.stdin.as_mut().ok_or(BotFailure::Crashed)?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .map_err(|_| BotFailure::Crashed)
    }

    /// The bot's next line, within `wait`; past it the bot is stopped and it is a timeout. A
    /// bot that reached one of its limits meanwhile (or by the time it failed) is stopped, and
    /// that is the failure.
    pub fn read_line(&mut self, wait: Duration) -> Result<String, BotFailure> {
        match self.line_within(wait) {
            Ok(Some(line)) => Ok(line),
            Ok(None) => {
                let _ = self.child.kill();
                Err(BotFailure::Timeout)
            }
            Err(f) => Err(f),
        }
    }

    /// The bot's next line within `wait`, or none when it has written none by then (it goes on
    /// running: an engine told to stop still answers). Failures as in [`Self::read_line`].
    pub fn line_within(&mut self, wait: Duration) -> Result<Option<String>, BotFailure> {
        let read = match self.lines.next_line(wait) {
            Ok(line) => {
                self.log.received(&line);
                Ok(Some(line))
            }
            Err(LineError::Garbage) => Err(BotFailure::Garbage(
                "an answer that is not UTF-8 or longer than 1 MiB".into(),
            )),
            Err(LineError::Timeout) => Ok(None),
            Err(LineError::Closed) => Err(BotFailure::Crashed),
        };
        if let Some(kind) = self.limit_reached() {
            let _ = self.child.kill();
            return Err(BotFailure::Limit(kind));
        }
        read
    }

    /// The limit the bot has reached, if any.
    pub fn limit_reached(&mut self) -> Option<crate::limits::LimitKind> {
        if self.log.over() {
            return Some(crate::limits::LimitKind::Log);
        }
        self.sandbox.limit_reached(self.child.id())
    }

    /// Where the bot's standard error goes from now on: the next game's log (a kept engine
    /// plays several games).
    pub fn log_to(&self, file: crate::bot_log::LogFile) {
        self.log.next_game(file);
    }
}

/// Why no line came.
#[derive(Debug, PartialEq)]
enum LineError {
    /// Not UTF-8, or longer than [`MAX_LINE`].
    Garbage,
    Timeout,
    /// The bot closed its output (it stopped).
    Closed,
}

/// Lines from a bot's standard output, read in the caller's thread: `poll` waits with the
/// deadline, each `read` takes whatever the bot has written. No reader thread, so an engine
/// printing dozens of `info` lines a move costs no thread hand-off per line.
struct LineReader {
    out: std::process::ChildStdout,
    /// Bytes read and not yet returned as a line.
    pending: Vec<u8>,
    /// Where the search for the next newline goes on (bytes before it hold none).
    scanned: usize,
    closed: bool,
}

impl LineReader {
    fn new(out: std::process::ChildStdout) -> LineReader {
        LineReader {
            out,
            pending: Vec::new(),
            scanned: 0,
            closed: false,
        }
    }

    fn next_line(&mut self, wait: Duration) -> Result<String, LineError> {
        let until = std::time::Instant::now() + wait;
        loop {
            if let Some(at) = memchr_newline(&self.pending[self.scanned..]) {
                let end = self.scanned + at + 1;
                if end > MAX_LINE {
                    return Err(LineError::Garbage);
                }
                let rest = self.pending.split_off(end);
                let line = std::mem::replace(&mut self.pending, rest);
                self.scanned = 0;
                return String::from_utf8(line).map_err(|_| LineError::Garbage);
            }
            self.scanned = self.pending.len();
            if self.pending.len() > MAX_LINE {
                return Err(LineError::Garbage);
            }
            if self.closed {
                return Err(LineError::Closed);
            }
            let left = until.saturating_duration_since(std::time::Instant::now());
            if !self.readable_within(left)? {
                return Err(LineError::Timeout);
            }
            let mut chunk = [0u8; 16 * 1024];
            match self.out.read(&mut chunk) {
                Ok(0) => self.closed = true,
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => self.closed = true,
            }
        }
    }

    /// Whether the output has bytes (or its end) within `wait`.
    fn readable_within(&self, wait: Duration) -> Result<bool, LineError> {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd {
            fd: self.out.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // Rounded up, so a deadline a fraction of a millisecond away is still waited for.
        let ms = wait.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
        loop {
            // SAFETY: one valid pollfd for the duration of the call.
            let n = unsafe { libc::poll(&mut fd, 1, ms) };
            if n >= 0 {
                return Ok(n > 0);
            }
            if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                return Err(LineError::Closed);
            }
        }
    }
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

impl Bot for ProcessBot {
    fn ask(&mut self, request: &Request) -> Result<Reply, BotFailure> {
        // The request says how long this answer may take (a clock may leave less than the
        // time per move); the end of the game has no answer.
        let wait = match request {
            Request::Move { time_ms, .. } | Request::Setup { time_ms, .. } => {
                Duration::from_millis(*time_ms)
            }
            Request::End { .. } => {
                self.tell(request);
                return Ok(Reply::default());
            }
        };
        self.send(request)?;
        let line = self.read_line(wait)?;
        let reply: Reply = serde_json::from_str(line.trim_end())
            .map_err(|e| BotFailure::Garbage(e.to_string()))?;
        if let Some(views) = reply.views {
            self.views = views;
        }
        Ok(reply)
    }

    fn reads_view(&self) -> bool {
        self.views
    }

    fn tell(&mut self, request: &Request) {
        let _ = self.send(request);
        self.stdin = None; // closing standard input ends a well-behaved bot
    }
}

impl Drop for ProcessBot {
    fn drop(&mut self) {
        // The sandbox's init ends once every process in it has: waited for below, so nothing
        // of the bot outlives it (a child it forked, a tmpfs of its own).
        let init = self.sandbox.init_process(self.child.id());
        self.stdin = None;
        // Give a well-behaved bot a moment to exit on its own, then stop it.
        let mut exited = false;
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                exited = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        if !exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(init) = init {
            crate::sandbox::wait_for_end(&init, Duration::from_secs(5));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LineError, LineReader};
    use std::time::Duration;

    fn reader(script: &str) -> (std::process::Child, LineReader) {
        let mut child = std::process::Command::new("sh")
            .args(["-c", script])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        (child, LineReader::new(out))
    }

    #[test]
    fn lines_come_one_at_a_time_however_they_were_written() {
        // Three lines in one write, one in two writes, then an unfinished line and the end.
        let (mut child, mut lines) =
            reader("printf 'a\nbb\nccc\n'; printf 'd'; sleep 0.05; printf 'd\nrest'");
        let wait = Duration::from_secs(5);
        for want in ["a\n", "bb\n", "ccc\n", "dd\n"] {
            assert_eq!(lines.next_line(wait).as_deref(), Ok(want));
        }
        assert_eq!(lines.next_line(wait), Err(LineError::Closed));
        child.wait().unwrap();
    }

    #[test]
    fn a_silent_bot_times_out_and_a_bad_line_is_garbage() {
        let (mut child, mut lines) = reader("sleep 2");
        let started = std::time::Instant::now();
        assert_eq!(
            lines.next_line(Duration::from_millis(50)),
            Err(LineError::Timeout)
        );
        assert!(started.elapsed() < Duration::from_secs(2));
        child.kill().unwrap();
        child.wait().unwrap();

        let (mut child, mut lines) = reader(r"printf 'ok\n\377\n'");
        let wait = Duration::from_secs(5);
        assert_eq!(lines.next_line(wait).as_deref(), Ok("ok\n"));
        assert_eq!(lines.next_line(wait), Err(LineError::Garbage));
        child.wait().unwrap();

        // Past 1 MiB without a newline: refused without reading on.
        let (mut child, mut lines) = reader("head -c 1100000 /dev/zero | tr '\\0' a; sleep 2");
        assert_eq!(lines.next_line(wait), Err(LineError::Garbage));
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
