//! Organiser and judge commands: new, judge, view, status, reveal, verify, moves.

use super::player::load_private_key;
use super::{now_or, read_arg};
use crate::error::{refuse, refuse_with, Error, Result};
use crate::judge::{self, load_game, Mode};
use crate::protocol::files::*;
use crate::protocol::signing::{self};
use crate::rules::luzhanqi::board::BOARD_NAMES;
use crate::rules::luzhanqi::{by_name, Options, PositionFile};
use crate::store::{GameDir, SMALL_FILE_LIMIT};
use crate::view::{self, ViewFile};
use rand_core::{OsRng, RngCore};
use std::path::Path;

/// `.gitignore` of a sealed game's folder.
pub const GAME_GITIGNORE: &str = ".qijudge.lock\n.qijudge-staging/\nsetups/\n";

// One argument per `new` option.
#[allow(clippy::too_many_arguments)]
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
    let NewOptions {
        now,
        sample,
        clock,
        sealed,
        board,
    } = opts;
    if board != "2p" && game != "luzhanqi" {
        return Err(Error::Io(format!(
            "--board: {game} has one board; --board is for luzhanqi (2p, cross4)"
        )));
    }
    if sealed && game == "xiangqi" {
        return Err(Error::Io(
            "--sealed: Xiangqi hides nothing (no setups, no seeds)".into(),
        ));
    }
    let clock = clock
        .map(|c| judge::clock::parse_clock(&c))
        .transpose()
        .map_err(Error::Io)?;
    let read_key = |path: &Path| -> Result<String> {
        let shown = path.display().to_string();
        let text = read_arg(path, SMALL_FILE_LIMIT)?;
        let key =
            signing::parse_public_key(&text).map_err(|e| refuse(&shown, None, e.to_string()))?;
        Ok(signing::public_key_line(&key))
    };
    if game == "liubo" {
        let mut entries = Vec::new();
        for spec in players {
            let (name, key_file, email) = player_spec(spec)?;
            entries.push((name.to_string(), read_key(Path::new(key_file))?, email));
        }
        return super::liubo::new(
            dir,
            &entries,
            read_key(judge_key)?,
            rules,
            now_or(now)?,
            sample,
            clock.clone(),
            sealed,
        );
    }
    if game == "xiangqi" {
        let mut entries = Vec::new();
        for spec in players {
            let (name, key_file, email) = player_spec(spec)?;
            entries.push((name.to_string(), read_key(Path::new(key_file))?, email));
        }
        return super::xiangqi::new(
            dir,
            &entries,
            read_key(judge_key)?,
            rules,
            now_or(now)?,
            sample,
            clock.clone(),
        );
    }
    if game != "luzhanqi" {
        return Err(Error::Io(format!(
            "unknown game {game:?}; this version judges: luzhanqi, xiangqi, liubo"
        )));
    }
    let board = by_name(&board).ok_or_else(|| {
        Error::Io(format!(
            "--board: unknown board {board:?}; luzhanqi boards: {}",
            BOARD_NAMES.join(", ")
        ))
    })?;
    if players.len() != board.seat_names.len() {
        return Err(Error::Io(format!(
            "--player: give exactly {} players, one per seat in the order {}",
            board.seat_names.len(),
            board.seat_names.join(", ")
        )));
    }
    let mut entries = Vec::new();
    for (seat, spec) in board.seat_names.iter().zip(players) {
        let (name, key_file, email) = player_spec(spec)?;
        entries.push(Player {
            seat: seat.clone(),
            name: name.into(),
            key: read_key(Path::new(key_file))?,
            email,
        });
    }
    let options = super::with_rules(Options::default(), rules)?;
    options
        .check_for_board(board.has_teams())
        .map_err(|e| Error::Io(format!("--rule {e}")))?;
    let mut id = [0u8; 16];
    OsRng.fill_bytes(&mut id);
    let manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        game: game.into(),
        id: format!("lzq-{}", hex::encode(id)),
        created: now_or(now)?,
        sample,
        board: board.name.clone(),
        rules: options,
        clock,
        sealed,
        judge: JudgeEntry {
            key: read_key(judge_key)?,
        },
        players: entries,
    };
    let g = GameDir::new(dir);
    if g.exists("game.toml") {
        return Err(Error::Io(format!(
            "{}: already holds a game",
            dir.display()
        )));
    }
    let text = to_toml(&manifest);
    g.write("game.toml", text.as_bytes())?;
    if manifest.sealed {
        // Played in a repository: the judge's lock and staging never belong in a commit, nor a
        // setup in clear.
        g.write(".gitignore", GAME_GITIGNORE.as_bytes())?;
    }
    // Refuse what a judge would refuse (for instance the same key twice) before anyone commits.
    if let Err(e) = load_game(&g) {
        let _ = std::fs::remove_file(g.path("game.toml"));
        return Err(e);
    }
    say!(
        "created {} (game {})",
        g.path("game.toml").display(),
        manifest.id
    );
    Ok(())
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
    if super::xiangqi::is_xiangqi(dir) {
        let key = load_private_key(key_path)?;
        return super::xiangqi::judge(dir, &key, now_or(now)?, forfeit);
    }
    if super::liubo::is_liubo(dir) {
        let key = load_private_key(key_path)?;
        return super::liubo::judge(dir, &key, now_or(now)?, forfeit);
    }
    let dir = GameDir::new(dir);
    let _lock = dir.lock()?;
    // Finish or drop a step an interrupted run left behind, before reading anything.
    dir.recover()?;
    let game = load_game(&dir)?;
    let key = load_private_key(key_path)?;
    judge::check_judge_key(&game, &key, &key_path.display().to_string())?;
    let replay = judge::replay_with(&dir, &game, Mode::Judge, &now_or(now)?, forfeit, Some(&key))?;
    let outputs = judge::outputs(&game, &replay, &key);
    // A refusal whose details are private goes to its owner only; stale notices go away.
    let private = match &replay.refusal {
        Some(Error::Refused(r)) => r.private_to.clone().map(|seat| (seat, r.detailed())),
        _ => None,
    };
    let mut files: Vec<(String, Option<Vec<u8>>)> = if game.manifest.sealed {
        let refusal = private.as_ref().map(|(s, t)| (s.as_str(), t.as_str()));
        judge::sealing::seal_outputs(&dir, &game, &key, outputs, refusal)?
    } else {
        outputs
            .into_iter()
            .map(|(name, body)| (name, Some(body.into_bytes())))
            .collect()
    };
    // A picture per clear view, drawn from what that audience may see.
    let mut pictures = Vec::new();
    for (name, body) in &files {
        let Some(audience) = name
            .strip_prefix("views/")
            .and_then(|n| n.strip_suffix(".json"))
        else {
            continue;
        };
        if let Some(v) = body
            .as_ref()
            .and_then(|b| serde_json::from_slice::<ViewFile>(b).ok())
        {
            let svg = crate::view::picture::luzhanqi(&v);
            pictures.push((
                format!("views/{audience}.png"),
                Some(crate::view::picture::png(&svg)),
            ));
            pictures.push((format!("views/{audience}.svg"), Some(svg.into_bytes())));
        }
    }
    files.extend(pictures);
    for p in game
        .manifest
        .players
        .iter()
        .filter(|_| !game.manifest.sealed)
    {
        let path = format!("views/{}.refusal.txt", p.seat);
        let body = match &private {
            Some((seat, text)) if *seat == p.seat => Some(format!("{text}\n").into_bytes()),
            _ => None,
        };
        files.push((path, body));
    }
    dir.commit(&files)?;
    for line in &replay.accepted {
        say!("{line}");
    }
    if replay.accepted.is_empty() {
        say!("nothing new");
    }
    if let Some(w) = &replay.waiting {
        say!("{w}");
    }
    match replay.refusal {
        Some(Error::Refused(r)) if details => Err(Error::Refused(r.disclosed())),
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Reads a view and checks the judge's signature on it.
fn signed_view(dir: &GameDir, game: &judge::Game, audience: &str) -> Result<(ViewFile, String)> {
    let seats = &game.board.seat_names;
    if !(seats.iter().any(|s| s == audience) || ["public", "full"].contains(&audience)) {
        return Err(Error::Io(format!(
            "--as: {audience:?} is not an audience ({}, public, full)",
            seats.join(", ")
        )));
    }
    let path = format!("views/{audience}.json");
    judge::read_signed_view(dir, game, audience)?.ok_or_else(|| refuse(&path, None, "missing"))
}

pub fn view(
    dir: &Path,
    audience: &str,
    format: &str,
    chinese: bool,
    key: Option<&Path>,
) -> Result<()> {
    if super::xiangqi::is_xiangqi(dir) {
        return super::xiangqi::view(dir, audience, format);
    }
    if super::liubo::is_liubo(dir) {
        return super::liubo::view(dir, audience, format);
    }
    let dir = GameDir::new(dir);
    let game = load_game(&dir)?;
    let seat_view = game.manifest.players.iter().any(|p| p.seat == audience);
    let (v, text) = match key {
        Some(key_path) if game.manifest.sealed && seat_view => {
            let key = load_private_key(key_path)?;
            judge::read_sealed_view(&dir, &game, audience, &key)?
        }
        None if game.manifest.sealed && seat_view => {
            return Err(refuse_with(
                judge::sealing::sealed_view_path(audience),
                None,
                "sealed to its seat",
                "give your private key with --key to open it",
            ))
        }
        _ => signed_view(&dir, &game, audience)?,
    };
    if format == "json" {
        say_raw!("{text}");
    } else if format == "svg" {
        say_raw!("{}", crate::view::picture::luzhanqi(&v));
    } else {
        let labels = if chinese {
            view::text::Labels::Chinese
        } else {
            view::text::Labels::Letters
        };
        say_raw!("{}", view::text::render(&v, labels));
    }
    Ok(())
}

pub fn status(dir: &Path, json: bool, now: Option<String>) -> Result<()> {
    let now = now_or(now)?;
    if super::xiangqi::is_xiangqi(dir) {
        return super::xiangqi::status(dir, json, &now);
    }
    if super::liubo::is_liubo(dir) {
        return super::liubo::status(dir, json, &now);
    }
    let dir = GameDir::new(dir);
    let game = load_game(&dir)?;
    let (v, _) = signed_view(&dir, &game, "public")?;
    let record = judge::load_record(&dir, &game)?;
    let fields = serde_json::json!({
        "game": v.game, "ply": v.ply, "to_move": v.to_move, "result": v.result,
        "last_move": v.last_move, "record_head": v.record_head,
    });
    let state_line = match (&v.result, &v.to_move) {
        (Some(r), _) => format!(
            "over: {} ({})",
            match (&r.winner, r.allies.as_slice()) {
                (Some(w), []) => format!("{w} wins"),
                (Some(w), allies) => format!("{w} and {} win", allies.join(" and ")),
                (None, _) => "draw".into(),
            },
            judge::reason_text(r.reason)
        ),
        (None, Some(t)) => format!("{t} to move (ply {})", v.ply + 1),
        (None, None) => "waiting for setups".to_string(),
    };
    let lines = [format!("game {} after {} plies", v.game, v.ply), state_line];
    let clock = super::StatusClock {
        clock: game.manifest.clock.as_ref(),
        record: &record,
        now: &now,
        to_move: v.to_move.as_deref(),
        players: &game.manifest.players,
    };
    super::print_status(json, fields, clock, &lines)
}

pub fn reveal(dir: &Path, key: Option<&Path>) -> Result<()> {
    if super::liubo::is_liubo(dir) {
        let key = key.map(load_private_key).transpose()?;
        return super::liubo::reveal(dir, key.as_ref());
    }
    if super::xiangqi::is_xiangqi(dir) {
        return Err(Error::Io(
            "Xiangqi hides nothing: there are no setups to reveal".into(),
        ));
    }
    let dir = GameDir::new(dir);
    let _lock = dir.lock()?;
    let game = load_game(&dir)?;
    let key =
        match key {
            Some(k) => Some(load_private_key(k)?),
            None if game.manifest.sealed => return Err(Error::Io(
                "--key: setups of a sealed game are opened with the judge's key (all seats) or \
                 a seat's own key (its own setup)"
                    .into(),
            )),
            None => None,
        };
    let record = judge::load_record(&dir, &game)?;
    if !record
        .lines
        .iter()
        .any(|l| matches!(l.entry, Entry::End { .. }))
    {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "the game is not over",
            "setups are revealed only after the end",
        ));
    }
    // Only setups the judge accepted are revealed (a game forfeited early may lack some).
    let mut opened = 0;
    for (i, p) in game.manifest.players.iter().enumerate() {
        let accepted = record
            .lines
            .iter()
            .any(|l| matches!(&l.entry, Entry::SetupAccepted { seat } if *seat == p.seat));
        if !accepted {
            continue;
        }
        let text = match &key {
            Some(key) if game.manifest.sealed => {
                let (signer, judge) = (&game.player_keys[i], &game.judge_key);
                match judge::sealing::reveal_sealed_secret(&dir, &p.seat, key, signer, judge)? {
                    Some(text) => text,
                    None => continue,
                }
            }
            _ => dir.read(&format!("setups/{}.toml", p.seat), SMALL_FILE_LIMIT)?,
        };
        opened += 1;
        dir.write(&format!("reveal/{}.toml", p.seat), text.as_bytes())?;
        say!("wrote reveal/{}.toml", p.seat);
    }
    if opened == 0 && key.is_some() {
        return Err(refuse(
            "sealed/",
            None,
            "this key opens none of the sealed setups",
        ));
    }
    Ok(())
}

pub fn verify(dir: &Path) -> Result<()> {
    if super::xiangqi::is_xiangqi(dir) {
        return super::xiangqi::verify(dir);
    }
    if super::liubo::is_liubo(dir) {
        return super::liubo::verify(dir);
    }
    let a = judge::audit(&GameDir::new(dir))?;
    say!(
        "verified game {}: manifest, commitments and reveals, {} signed moves, record of {} lines (head {}), {} signed views",
        a.game, a.moves, a.record_lines, a.head, a.views
    );
    Ok(())
}

pub fn moves(game: &str, path: &Path) -> Result<()> {
    if game != "luzhanqi" {
        return Err(Error::Io(format!("unknown game {game:?}; known: luzhanqi")));
    }
    let shown = path.display().to_string();
    let text = read_arg(path, SMALL_FILE_LIMIT)?;
    let file: PositionFile = serde_json::from_str(&text)
        .map_err(|e| refuse(&shown, None, format!("not a position file: {e}")))?;
    let pos = file.to_position().map_err(|e| refuse(&shown, None, e))?;
    let b = pos.board();
    let mut lines: Vec<String> = pos.legal_moves().iter().map(|m| m.display(b)).collect();
    lines.sort();
    let mut out = lines.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    say_raw!("{out}");
    Ok(())
}

pub fn events(dir: &Path, audience: &str) -> Result<()> {
    if super::xiangqi::is_xiangqi(dir) {
        return Err(Error::Io(
            "events is for hidden-information games; a Xiangqi view shows everything (qijudge view)"
                .into(),
        ));
    }
    use crate::rules::luzhanqi::{EventJson, Viewer};
    let dir = GameDir::new(dir);
    let game = load_game(&dir)?;
    let board = game.board;
    let viewer = match audience {
        "public" => Viewer::Public,
        "full" => Viewer::Full,
        seat => Viewer::Seat(board.seat(seat).ok_or_else(|| {
            Error::Io(format!(
                "--as: {seat:?} is not an audience ({}, public, full)",
                board.seat_names.join(", ")
            ))
        })?),
    };
    let replay = judge::replay(&dir, &game, Mode::Judge, &now_or(None)?)?;
    if !replay.accepted.is_empty() || replay.refusal.is_some() {
        return Err(Error::Io(format!(
            "{} file(s) are not judged yet: run qijudge judge first",
            replay.accepted.len()
        )));
    }
    if viewer == Viewer::Full && replay.outcome.is_none() {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "the game is not over",
            "the full event stream is public only after the end",
        ));
    }
    for e in replay.events.iter().filter(|e| e.audience.includes(viewer)) {
        let line = serde_json::to_string(&EventJson::from_event(board, e))
            .map_err(|e| Error::Io(e.to_string()))?;
        say!("{line}");
    }
    Ok(())
}

/// A new player list: one entry per seat from `--player` specs (name, key line, address).
pub(crate) fn player_entries(
    seats: &[&str],
    players: &[(String, String, Option<String>)],
    order: &str,
) -> Result<Vec<Player>> {
    if players.len() != seats.len() {
        return Err(Error::Io(format!(
            "--player: give exactly {} players ({order})",
            seats.len()
        )));
    }
    Ok(seats
        .iter()
        .zip(players)
        .map(|(seat, (name, key, email))| Player {
            seat: seat.to_string(),
            name: name.clone(),
            key: key.clone(),
            email: email.clone(),
        })
        .collect())
}

/// 16 random bytes for a new game id.
pub(crate) fn random_id() -> [u8; 16] {
    let mut id = [0u8; 16];
    OsRng.fill_bytes(&mut id);
    id
}

/// Writes a new `game.toml` (never over an existing game), then loads it exactly as a judge will.
pub(crate) fn write_manifest<T: serde::Serialize>(
    dir: &Path,
    manifest: &T,
    load: impl Fn(&GameDir) -> Result<()>,
) -> Result<()> {
    let g = GameDir::new(dir);
    if g.exists("game.toml") {
        return Err(Error::Io(format!(
            "{}: already holds a game",
            dir.display()
        )));
    }
    g.write("game.toml", to_toml(manifest).as_bytes())?;
    load(&g)
}
