//! Organiser and judge commands: new, judge, view, status, reveal, verify, events, moves. Each
//! asks the registry for the folder's game and hands over what the user asked.

use super::{now_or, read_arg};
use crate::error::{refuse, Error, Result};
use crate::games::{self, JudgeRequest, NewGame, ViewRequest};
use crate::protocol::signing;
use crate::rules::luzhanqi::PositionFile;
use crate::store::SMALL_FILE_LIMIT;
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
    let game = games::by_name(game)?;
    let clock = opts
        .clock
        .map(|c| crate::judge::clock::parse_clock(&c))
        .transpose()
        .map_err(Error::Io)?;
    let read_key = |path: &Path| -> Result<String> {
        let shown = path.display().to_string();
        let text = read_arg(path, SMALL_FILE_LIMIT)?;
        let key =
            signing::parse_public_key(&text).map_err(|e| refuse(&shown, None, e.to_string()))?;
        Ok(signing::public_key_line(&key))
    };
    let mut entries = Vec::new();
    for spec in players {
        let (name, key_file, email) = player_spec(spec)?;
        entries.push((name.to_string(), read_key(Path::new(key_file))?, email));
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
    game.new_game(dir, new)
}

/// `NAME=PUBLIC_KEY_FILE[=EMAIL]` from `--player`.
fn player_spec(spec: &str) -> Result<(&str, &str, Option<String>)> {
    let mut parts = spec.splitn(3, '=');
    let (Some(name), Some(key_file)) = (parts.next(), parts.next()) else {
        return Err(Error::Io(format!(
            "--player {spec:?}: expected NAME=PUBLIC_KEY_FILE[=EMAIL]"
        )));
    };
    if name.is_empty() || name.chars().any(|c| c.is_control()) {
        return Err(Error::Io(format!(
            "--player {spec:?}: the name must be non-empty, without control characters"
        )));
    }
    let email = parts.next().map(str::to_string);
    if let Some(e) = &email {
        if !crate::mail::outbox::valid_address(e) {
            return Err(Error::Io(format!(
                "--player {spec:?}: {e:?} is not a plain e-mail address (local@domain)"
            )));
        }
    }
    Ok((name, key_file, email))
}

pub fn judge(
    dir: &Path,
    key_path: &Path,
    now: Option<String>,
    details: bool,
    forfeit: Option<String>,
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
    let run = JudgeRequest {
        now: now_or(now)?,
        details,
        forfeit,
    };
    games::of_dir(dir)?.judge(dir, key_path, run)
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
    games::of_dir(dir)?.view(dir, request)
}

pub fn status(dir: &Path, json: bool, now: Option<String>) -> Result<()> {
    let now = now_or(now)?;
    games::of_dir(dir)?.status(dir, json, &now)
}

pub fn reveal(dir: &Path, key: Option<&Path>) -> Result<()> {
    games::of_dir(dir)?.reveal(dir, key)
}

pub fn verify(dir: &Path) -> Result<()> {
    games::of_dir(dir)?.verify(dir)
}

pub fn events(dir: &Path, audience: &str) -> Result<()> {
    games::of_dir(dir)?.events(dir, audience)
}

/// `moves DIR --as SEAT [--key K]`, or `moves luzhanqi POSITION`.
pub fn moves(
    target: &Path,
    position: Option<&Path>,
    seat: Option<&str>,
    key: Option<&Path>,
) -> Result<()> {
    let lines =
        match (position, seat) {
            (Some(position), None) => position_moves(&target.to_string_lossy(), position)?,
            (None, Some(seat)) => games::of_dir(target)?.legal_moves(target, seat, key)?,
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

/// The sorted legal moves of a Luzhanqi position file.
fn position_moves(game: &str, path: &Path) -> Result<Vec<String>> {
    if game != "luzhanqi" {
        return Err(Error::Io(format!(
            "unknown game {game:?} for a position file; known: luzhanqi"
        )));
    }
    let shown = path.display().to_string();
    let text = read_arg(path, SMALL_FILE_LIMIT)?;
    let file: PositionFile = serde_json::from_str(&text)
        .map_err(|e| refuse(&shown, None, format!("not a position file: {e}")))?;
    let pos = file.to_position().map_err(|e| refuse(&shown, None, e))?;
    let b = pos.board();
    let mut lines: Vec<String> = pos.legal_moves().iter().map(|m| m.display(b)).collect();
    lines.sort();
    Ok(lines)
}
