//! The commands on a game folder, for the command line and the transports alike: new, judge,
//! view, status, reveal, verify, events, moves, pgn. Each asks the registry for the folder's
//! game and hands over what the user asked.

use crate::{JudgeRequest, NewGame, ViewRequest};
use qijudge_game::console::{now_or, print_report, read_arg};
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::signing;
use qijudge_store::{GameDir, RECORD_LIMIT, SMALL_FILE_LIMIT};
use std::path::Path;

/// The options of `new` besides the players, keys and rules.
pub struct NewOptions {
    pub now: Option<String>,
    pub sample: bool,
    pub clock: Option<String>,
    pub sealed: bool,
    /// Luzhanqi board name (`2p`, `cross4`).
    pub board: String,
}

pub fn new(
    game: &str,
    dir: &Path,
    players: &[String],
    judge_key: &Path,
    rules: &[String],
    opts: NewOptions,
) -> Result<()> {
    let game = crate::by_name(game)?;
    let clock = opts
        .clock
        .map(|c| qijudge_judge::clock::parse_clock(&c))
        .transpose()
        .map_err(Error::Io)?;
    let read_key = |path: &Path| -> Result<String> {
        let shown = path.display().to_string();
        let text = read_arg(path, SMALL_FILE_LIMIT)?;
        if text.trim_start().starts_with("-----BEGIN") {
            return Err(qijudge_protocol::error::refuse_with(
                &shown,
                None,
                "is a private key; a game lists public keys",
                format!("give {shown}.pub (the public half, one line starting ssh-ed25519)"),
            ));
        }
        let kind = text.split_whitespace().next().unwrap_or_default();
        let ssh_key = ["ssh-", "ecdsa-", "sk-"]
            .iter()
            .any(|p| kind.starts_with(p));
        if ssh_key && kind != "ssh-ed25519" {
            return Err(qijudge_protocol::error::refuse_with(
                &shown,
                None,
                format!("is an SSH key of type {kind}; qijudge signs with Ed25519 keys only"),
                "make one with `ssh-keygen -t ed25519` (or `qijudge keygen`) and give its .pub",
            ));
        }
        let key =
            signing::parse_public_key(&text).map_err(|e| refuse(&shown, None, e.to_string()))?;
        Ok(signing::public_key_line(&key))
    };
    let mut entries = Vec::new();
    for spec in players {
        let (name, key_file, email, digest) = player_spec(spec)?;
        entries.push((
            name.to_string(),
            read_key(Path::new(key_file))?,
            email,
            digest,
        ));
    }
    let new = NewGame {
        players: entries,
        judge_key: read_key(judge_key)?,
        rules,
        created: now_or(opts.now)?,
        sample: opts.sample,
        clock,
        sealed: opts.sealed,
        board: &opts.board,
    };
    print_report(game.new_game(dir, new)?)
}

/// `NAME=PUBLIC_KEY_FILE[=EMAIL[=digest]]` from `--player`.
fn player_spec(spec: &str) -> Result<(&str, &str, Option<String>, bool)> {
    let (spec_rest, digest) = match spec.strip_suffix("=digest") {
        Some(rest) if rest.matches('=').count() >= 2 => (rest, true),
        _ => (spec, false),
    };
    let mut parts = spec_rest.splitn(3, '=');
    let (Some(name), Some(key_file)) = (parts.next(), parts.next()) else {
        return Err(Error::Io(format!(
            "--player {spec:?}: expected NAME=PUBLIC_KEY_FILE[=EMAIL[=digest]]"
        )));
    };
    if name.is_empty() || name.chars().any(|c| c.is_control()) {
        return Err(Error::Io(format!(
            "--player {spec:?}: the name must be non-empty, without control characters"
        )));
    }
    let email = parts.next().map(str::to_string);
    if let Some(e) = &email {
        if !qijudge_protocol::files::valid_address(e) {
            return Err(Error::Io(format!(
                "--player {spec:?}: {e:?} is not a plain e-mail address (local@domain)"
            )));
        }
    }
    Ok((name, key_file, email, digest))
}

pub fn judge(
    dir: &Path,
    key_path: &Path,
    now: Option<String>,
    details: bool,
    forfeit: Option<String>,
    vacation: Option<String>,
) -> Result<()> {
    let forfeit = match forfeit {
        Some(f) => {
            let (seat, reason) = f
                .split_once(':')
                .ok_or_else(|| Error::Io("--forfeit: expected SEAT:REASON".into()))?;
            Some((seat.to_string(), reason.to_string()))
        }
        None => None,
    };
    let vacation = match vacation {
        Some(v) => {
            let (seat, days) = v
                .split_once(':')
                .and_then(|(s, d)| Some((s, d.parse::<u32>().ok()?)))
                .ok_or_else(|| Error::Io("--vacation: expected SEAT:DAYS".into()))?;
            Some((seat.to_string(), days))
        }
        None => None,
    };
    let run = JudgeRequest {
        now: now_or(now)?,
        details,
        rulings: qijudge_judge::pipeline::Rulings {
            forfeit,
            vacation,
            adjudicate: None,
        },
    };
    print_report(crate::of_dir(dir)?.judge(dir, key_path, run)?)
}

pub fn view(
    dir: &Path,
    audience: &str,
    format: &str,
    chinese: bool,
    key: Option<&Path>,
) -> Result<()> {
    let request = ViewRequest {
        audience,
        format,
        chinese,
        key,
    };
    let game = crate::of_dir(dir)?;
    print_report(game.view(dir, request)?)?;
    // A seat's pending refusal, on stderr so that a JSON or SVG view stays what it is.
    if let Some(text) = pending_refusal(dir, audience, key)? {
        eprintln!(
            "your last file was refused and set aside:\n{}",
            text.trim_end()
        );
    }
    Ok(())
}

pub fn html(dir: &Path, audience: &str, chinese: bool, out: Option<&Path>) -> Result<()> {
    let page = crate::of_dir(dir)?.html(dir, audience, chinese)?;
    match out {
        Some(path) => {
            qijudge_store::write_atomic(path, page.as_bytes())?;
            say!("wrote {} ({} bytes)", path.display(), page.len());
        }
        None => say_raw!("{page}"),
    }
    Ok(())
}

/// `games ROOT`: the list of games under a folder.
pub fn games(
    root: &Path,
    key: Option<&Path>,
    address: Option<String>,
    json: bool,
    now: Option<String>,
) -> Result<()> {
    use crate::listing::{lines, list, Whose};
    use qijudge_game::report::{Out, Report};
    let now = now_or(now)?;
    let key = key
        .map(|k| qijudge_game::console::read_arg(k, qijudge_store::SMALL_FILE_LIMIT))
        .transpose()?
        .map(|text| public_half(&text));
    let whose = Whose { key, address };
    let listed = list(root, &whose, &now)?;
    let report = match json {
        true => Report::of(Out::Json(serde_json::json!(listed))),
        false => Report::lines(lines(&listed, &whose)),
    };
    print_report(report)
}

/// A key file's public key line: the file's own line, or, for a private key (passphrase or
/// not: OpenSSH keeps the public half in clear), the public half of it.
fn public_half(text: &str) -> String {
    match ssh_key::PrivateKey::from_openssh(text) {
        Ok(key) => qijudge_protocol::signing::public_key_line(key.public_key()),
        Err(_) => text.to_string(),
    }
}

pub fn status(dir: &Path, json: bool, now: Option<String>) -> Result<()> {
    let now = now_or(now)?;
    let game = crate::of_dir(dir)?;
    print_report(game.status(dir, json, &now)?)?;
    // Who has a pending refusal is public (the refused files are); why is for that seat only.
    let g = GameDir::new(dir);
    for seat in game.facts(&g)?.seats {
        let note = ["txt", "age"]
            .map(|ext| format!("views/{seat}.refusal.{ext}"))
            .into_iter()
            .find(|p| g.exists(p));
        if let Some(note) = note {
            let line = format!("{seat}: a file was refused and set aside; why: {note}");
            match json {
                true => eprintln!("{line}"),
                false => say!("{line}"),
            }
        }
    }
    Ok(())
}

/// The text of a seat's pending refusal note: in clear, or sealed and opened with `key`.
fn pending_refusal(dir: &Path, seat: &str, key: Option<&Path>) -> Result<Option<String>> {
    let g = GameDir::new(dir);
    let clear = format!("views/{seat}.refusal.txt");
    if let Some(text) = g.read_optional(&clear, qijudge_store::SMALL_FILE_LIMIT)? {
        return Ok(Some(text));
    }
    let sealed = qijudge_judge::sealing::sealed_refusal_path(seat);
    let (Some(key), true) = (key, g.exists(&sealed)) else {
        return Ok(None);
    };
    let key = qijudge_game::console::load_private_key(key)?;
    let bytes = g.read_bytes(&sealed, qijudge_store::SEALED_LIMIT)?;
    let files = qijudge_judge::sealing::open_view(&sealed, &bytes, &key)?;
    Ok(files.into_iter().find(|(p, _)| *p == clear).map(|(_, t)| t))
}

pub fn reveal(dir: &Path, key: Option<&Path>) -> Result<()> {
    print_report(crate::of_dir(dir)?.reveal(dir, key)?)
}

pub fn verify(dir: &Path) -> Result<()> {
    print_report(crate::of_dir(dir)?.verify(dir)?)
}

pub fn events(dir: &Path, audience: &str) -> Result<()> {
    print_report(crate::of_dir(dir)?.events(dir, audience)?)
}

/// `moves DIR --as SEAT [--key K]`, or `moves GAME POSITION`.
pub fn moves(
    target: &Path,
    position: Option<&Path>,
    seat: Option<&str>,
    key: Option<&Path>,
) -> Result<()> {
    let lines =
        match (position, seat) {
            (Some(position), None) => position_moves(&target.to_string_lossy(), position)?,
            (None, Some(seat)) => crate::of_dir(target)?.legal_moves(target, seat, key)?,
            (Some(_), Some(_)) => return Err(Error::Io(
                "moves: give a game directory with --as SEAT, or a game name and a position file"
                    .into(),
            )),
            (None, None) => return Err(Error::Io(
                "moves: --as SEAT is needed with a game directory (qijudge moves DIR --as SEAT)"
                    .into(),
            )),
        };
    let mut out = lines.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    say_raw!("{out}");
    Ok(())
}

/// `moves GAME POSITION`: the sorted legal moves of a position file, for a game whose tools
/// include `position`.
fn position_moves(game: &str, path: &Path) -> Result<Vec<String>> {
    let text = read_arg(path, SMALL_FILE_LIMIT)?;
    crate::with_tool(game, "position")?.position_moves(path, &text)
}

/// The game's record as PGN, for games that have the tool.
pub fn pgn_text(dir: &Path, notation: &str) -> Result<String> {
    let game = crate::of_dir(dir)?;
    if !game.tools().contains(&"pgn") {
        return Err(Error::Io(format!(
            "{}; {} holds a {} game (its record: qijudge view, or record.jsonl)",
            crate::registry::no_tool_text(game.name(), "pgn"),
            dir.display(),
            game.name()
        )));
    }
    game.pgn(dir, notation)
}

/// Reveals the setups once the game is over (games with secrets), so that the judge's last
/// messages carry everything `verify` needs. Whether that is so now.
pub fn reveal_when_over(game: &GameDir, key: &Path) -> Result<bool> {
    let Some(view) = game.read_optional("views/public.json", RECORD_LIMIT)? else {
        return Ok(false);
    };
    let over = serde_json::from_str::<serde_json::Value>(&view)
        .ok()
        .and_then(|v| v.get("result").cloned())
        .is_some_and(|r| !r.is_null());
    if !over {
        return Ok(false);
    }
    let rules = crate::of_dir(&game.root)?;
    if !rules.facts(game)?.judge_holds_secrets {
        return Ok(true);
    }
    let _ = rules.reveal(&game.root, Some(key))?;
    Ok(true)
}
