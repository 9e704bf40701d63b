//! What every command shares with the terminal: printing (a closed pipe ends quietly), reading
//! a file named on the command line (`-` for standard input), the current time, `--rule`
//! options and the status lines. Used by the command line and by each game's commands.

/// Prints a line on standard output (see [`write_stdout`]).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::console::write_stdout(&format!("{}\n", format_args!($($arg)*)))?
    };
}

/// Prints text on standard output without adding a line feed.
#[macro_export]
macro_rules! say_raw {
    ($($arg:tt)*) => {
        $crate::console::write_stdout(&format!($($arg)*))?
    };
}

use qijudge_protocol::error::{refuse, refuse_with, Error, Result};
use qijudge_protocol::signing;
use qijudge_store::SMALL_FILE_LIMIT;
use std::path::Path;

/// Reads a file given on the command line (`-` for stdin), with a size limit.
pub fn read_arg(path: &std::path::Path, limit: u64) -> Result<String> {
    if path.as_os_str() == "-" {
        return String::from_utf8(read_stdin(limit)?)
            .map_err(|_| qijudge_protocol::error::refuse("<stdin>", None, "not UTF-8 text"));
    }
    if std::fs::symlink_metadata(path).is_err() {
        return Err(Error::Io(format!("{}: no such file", path.display())));
    }
    qijudge_store::read_limited(path, &path.display().to_string(), limit)
}

/// Standard input as bytes, refused (never cut) when it holds more than `limit` bytes: the same
/// limit as a file named on the command line.
pub fn read_stdin(limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::Io(format!("<stdin>: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(qijudge_protocol::error::refuse(
            "<stdin>",
            None,
            format!("larger than {limit} bytes"),
        ));
    }
    Ok(bytes)
}

/// Writes to standard output. A closed pipe (`qijudge … | head`) ends the program quietly with
/// success; any other failure is an I/O error, never a panic.
pub fn write_stdout(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Error::Io(format!("standard output: {e}"))),
    }
}

/// Prints a view in a picture format: the SVG as text, or the PNG rendered from it as bytes
/// (refused on a terminal, where the bytes would garble the screen).
pub fn write_picture(svg: &str, format: &str) -> Result<()> {
    use std::io::{IsTerminal, Write};
    if format != "png" {
        return write_stdout(svg);
    }
    if std::io::stdout().is_terminal() {
        return Err(Error::Io(
            "--format png writes binary data: send it to a file, e.g. `> board.png`".into(),
        ));
    }
    let bytes = qijudge_view::picture::png(svg);
    let mut out = std::io::stdout().lock();
    match out.write_all(&bytes).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Error::Io(format!("standard output: {e}"))),
    }
}

/// Now, as RFC 3339 UTC with seconds, or the given time after checking it.
pub fn now_or(given: Option<String>) -> Result<String> {
    match given {
        Some(t) => chrono::DateTime::parse_from_rfc3339(&t)
            .map(|d| {
                d.with_timezone(&chrono::Utc)
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            })
            .map_err(|_| Error::Io(format!("--now: {t:?} is not an RFC 3339 time"))),
        None => Ok(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
    }
}

/// The clock inputs of `status`.
pub struct StatusClock<'a> {
    pub clock: Option<&'a qijudge_protocol::files::Clock>,
    pub record: &'a qijudge_protocol::record::Record,
    pub now: &'a str,
    pub to_move: Option<&'a str>,
    pub players: &'a [qijudge_protocol::files::Player],
}

/// What `status` reports: the game's own `fields` plus `deadline` and `reminders` (a reminder
/// for a cron job) as JSON, or the deadline line and the game's `lines` as text.
pub fn status_report(
    json: bool,
    mut fields: serde_json::Value,
    c: StatusClock,
    lines: &[String],
) -> crate::report::Report {
    use crate::report::{Out, Report};
    let deadline = match (c.clock, c.to_move) {
        (Some(clock), Some(seat)) => {
            qijudge_judge::clock::next_deadline(clock, c.record, seat, c.now).map(|d| (seat, d))
        }
        _ => None,
    };
    if json {
        let (d, reminders) = match &deadline {
            None => (serde_json::Value::Null, serde_json::json!([])),
            Some((seat, d)) => {
                let email = c
                    .players
                    .iter()
                    .find(|p| p.seat == *seat)
                    .and_then(|p| p.email.clone());
                let message = match d.state {
                    "on-time" => format!("{seat}: your move for ply {} is due by {}", d.ply, d.due),
                    "in-grace" => format!(
                        "{seat}: your move for ply {} was due by {}; the grace ends {}",
                        d.ply, d.due, d.grace_until
                    ),
                    _ => format!(
                        "{seat}: the time for ply {} ran out at {}; the judge's next run applies the expiry rule",
                        d.ply, d.grace_until
                    ),
                };
                (
                    serde_json::json!(d),
                    serde_json::json!([{"seat": seat, "email": email, "state": d.state, "due": d.due, "message": message}]),
                )
            }
        };
        fields["deadline"] = d;
        fields["reminders"] = reminders;
        return Report::of(Out::Json(fields));
    }
    let mut report = Report::default();
    if let Some((_, d)) = &deadline {
        report.say(format!(
            "deadline: {} (grace until {}), {}",
            d.due, d.grace_until, d.state
        ));
    }
    for line in lines {
        report.say(line);
    }
    report
}

/// Reads an OpenSSH private key named on the command line; a passphrase-protected one is opened
/// with the passphrase asked on the terminal.
pub fn load_private_key(path: &Path) -> Result<ssh_key::PrivateKey> {
    let shown = path.display().to_string();
    let text = read_arg(path, SMALL_FILE_LIMIT)?;
    if looks_public(&text) {
        return Err(refuse_with(
            &shown,
            None,
            "is a public key, and this needs your private key",
            format!(
                "give the private key file ({}), not the .pub",
                shown
                    .strip_suffix(".pub")
                    .unwrap_or("the file without .pub")
            ),
        ));
    }
    open_private_key(&shown, &text)
}

/// A key that signs a player's files: a private key file (asking for its passphrase on the
/// terminal if it has one), or a public key (`KEY.pub`) whose private half ssh-agent holds.
pub fn load_signer(path: &Path) -> Result<qijudge_protocol::signer::Signer> {
    let shown = path.display().to_string();
    let text = read_arg(path, SMALL_FILE_LIMIT)?;
    if !looks_public(&text) {
        return Ok(qijudge_protocol::signer::Signer::Key(open_private_key(
            &shown, &text,
        )?));
    }
    let public =
        signing::parse_public_key(&text).map_err(|e| refuse(&shown, None, e.to_string()))?;
    match std::env::var_os("SSH_AUTH_SOCK") {
        Some(socket) if !socket.is_empty() => Ok(qijudge_protocol::signer::Signer::Agent(
            qijudge_protocol::agent::AgentKey::new(public, Path::new(&socket)),
        )),
        _ => Err(refuse_with(
            &shown,
            None,
            "is a public key, and no ssh-agent is running (SSH_AUTH_SOCK is not set)",
            "give your private key file, or start ssh-agent and load the key with ssh-add",
        )),
    }
}

/// Whether a key file holds a public key line rather than a private key.
fn looks_public(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("ssh-") || t.starts_with("ecdsa-") || t.starts_with("sk-")
}

/// Parses a private key, decrypting it with a passphrase asked on the terminal if it has one.
fn open_private_key(shown: &str, text: &str) -> Result<ssh_key::PrivateKey> {
    match signing::parse_private_key(text) {
        Err(signing::SignatureError::Encrypted) => {}
        other => return other.map_err(|e| refuse(shown, None, e.to_string())),
    }
    let key =
        ssh_key::PrivateKey::from_openssh(text).map_err(|e| refuse(shown, None, e.to_string()))?;
    // Three tries, as ssh gives.
    let mut tries = 0;
    let open = loop {
        let passphrase = ask_passphrase(shown)?;
        match key.decrypt(passphrase.as_bytes()) {
            Ok(open) => break open,
            Err(_) if tries < 2 => {
                tries += 1;
                eprintln!("the passphrase does not open {shown}; try again");
            }
            Err(_) => {
                return Err(refuse_with(
                    shown,
                    None,
                    "the passphrase does not open this key (three tries)",
                    format!("check it with `ssh-keygen -y -f {shown}`"),
                ))
            }
        }
    };
    signing::check_key(open.public_key()).map_err(|e| refuse(shown, None, e.to_string()))?;
    Ok(open)
}

/// Asks for a key's passphrase on the controlling terminal, without echo. With no terminal
/// (a script, a CI job) there is no one to ask: refused, with the ways that work there.
fn ask_passphrase(shown: &str) -> Result<String> {
    use std::io::{BufRead, Write};
    use std::os::fd::AsRawFd;
    let no_terminal = || {
        refuse_with(
            shown,
            None,
            "is protected by a passphrase and there is no terminal to ask for it",
            "load the key into ssh-agent (ssh-add KEY) and give KEY.pub, or run the command on a terminal",
        )
    };
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .map_err(|_| no_terminal())?;
    let fd = tty.as_raw_fd();
    // SAFETY: termios is plain data filled by tcgetattr on an open descriptor.
    let mut saved: libc::termios = unsafe { std::mem::zeroed() };
    // SAFETY: fd is the open terminal; saved is a valid termios to fill.
    if unsafe { libc::tcgetattr(fd, &mut saved) } != 0 {
        return Err(no_terminal());
    }
    let mut quiet = saved;
    quiet.c_lflag &= !libc::ECHO;
    quiet.c_lflag |= libc::ECHONL;
    // Echo goes off before the prompt is shown, so nothing typed after the prompt is echoed.
    // SAFETY: as above; the settings are restored below whatever the read gives.
    unsafe { libc::tcsetattr(fd, libc::TCSANOW, &quiet) };
    let mut writer = &tty;
    let _ = write!(writer, "Enter passphrase for {shown}: ");
    let _ = writer.flush();
    let mut line = String::new();
    let read = std::io::BufReader::new(&tty).read_line(&mut line);
    // SAFETY: restores the settings read above on the same descriptor.
    unsafe { libc::tcsetattr(fd, libc::TCSANOW, &saved) };
    read.map_err(|e| Error::Io(format!("reading the passphrase: {e}")))?;
    Ok(line.trim_end_matches(['\n', '\r']).to_string())
}

/// The game folder of this process's command, for [`name_folder`].
static FOLDER: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Where a message shows a command to type on "GAME" (`qijudge moves GAME --as south`), the
/// game folder as the player typed it instead; quoted for the shell when it needs to be.
pub fn name_folder(text: &str) -> String {
    let Some(folder) = FOLDER.get() else {
        return text.to_string();
    };
    let mut out = text.to_string();
    for command in [
        "moves", "move", "reveal", "judge", "view", "setup", "status", "verify", "html",
    ] {
        out = out.replace(
            &format!("qijudge {command} GAME"),
            &format!("qijudge {command} {folder}"),
        );
    }
    out
}

/// Remembers the game folder the command was given, as the user typed it (quoted for the shell
/// when it needs to be), for [`name_folder`].
pub fn remember_folder(dir: &Path) {
    let typed = dir.to_string_lossy();
    let plain = typed
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"._/-+:@".contains(&b));
    let shown = match plain && !typed.is_empty() {
        true => typed.into_owned(),
        false => format!("'{}'", typed.replace('\'', "'\\''")),
    };
    let _ = FOLDER.set(shown);
}

/// Writes a command's report to standard output, then returns its refusal, if any (exit 1).
pub fn print_report(report: crate::report::Report) -> Result<()> {
    for out in &report.out {
        match out {
            crate::report::Out::Line(line) => say!("{}", name_folder(line)),
            crate::report::Out::Text(text) => say_raw!("{}", name_folder(text)),
            crate::report::Out::Json(value) => say!(
                "{}",
                serde_json::to_string_pretty(value).map_err(|e| Error::Io(e.to_string()))?
            ),
            crate::report::Out::Note(note) => eprintln!("{}", name_folder(note)),
            crate::report::Out::Picture { svg, png } => {
                write_picture(svg, if *png { "png" } else { "svg" })?
            }
        }
    }
    report.refusal.map_or(Ok(()), Err)
}
