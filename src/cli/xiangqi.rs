//! Xiangqi tools that need no game directory: perft and checking PGN records.

use super::read_arg;
use crate::error::{refuse, Error, Result};
use crate::rules::xiangqi::{check, fen, pgn, Options};
use std::path::PathBuf;

/// PGN files may hold thousands of games.
const PGN_LIMIT: u64 = 64 * 1024 * 1024;

fn only_xiangqi(game: &str) -> Result<()> {
    if game == "xiangqi" {
        Ok(())
    } else {
        Err(Error::Io(format!(
            "unknown game {game:?}; known here: xiangqi"
        )))
    }
}

pub fn perft(game: &str, depth: u32, fen_text: Option<String>, divide: bool) -> Result<()> {
    only_xiangqi(game)?;
    let text = fen_text.unwrap_or_else(|| fen::START.to_string());
    let mut position =
        fen::parse(&text).map_err(|e| refuse("--fen", Some("fen"), e.to_string()))?;
    let started = std::time::Instant::now();
    let total = if divide {
        let parts = position.divide(depth);
        for (m, n) in &parts {
            say!("{m} {n}");
        }
        if depth == 0 {
            1
        } else {
            parts.iter().map(|(_, n)| n).sum()
        }
    } else {
        position.perft(depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "perft {depth}: {total} nodes in {seconds:.3} s ({:.1} M nodes/s)",
        total as f64 / seconds.max(1e-9) / 1e6
    );
    say!("{total}");
    Ok(())
}

pub fn check_records(game: &str, files: &[PathBuf], json: bool, move_limit: bool) -> Result<()> {
    only_xiangqi(game)?;
    let options = Options {
        move_limit,
        ..Options::default()
    };
    let mut illegal = Vec::new();
    for path in files {
        let shown = if path.as_os_str() == "-" {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let text = read_arg(path, PGN_LIMIT)?;
        let games = pgn::read(&text)
            .map_err(|e| refuse(&shown, Some(&format!("line {}", e.line)), e.why))?;
        for (i, g) in games.iter().enumerate() {
            let report = check::check_game(i + 1, g, options);
            if report.illegal.is_some() {
                illegal.push(format!("{shown} game {}", report.game));
            }
            if json {
                let mut value =
                    serde_json::to_value(&report).map_err(|e| Error::Io(format!("json: {e}")))?;
                value["file"] = serde_json::Value::String(shown.clone());
                say!("{value}");
            } else {
                say!("{}", describe(&shown, &report));
            }
        }
    }
    match illegal.first() {
        None => Ok(()),
        Some(first) => Err(refuse(
            first.clone(),
            None,
            format!(
                "{} game(s) have an illegal move (listed above)",
                illegal.len()
            ),
        )),
    }
}

fn describe(file: &str, r: &check::GameCheck) -> String {
    let name = r
        .name
        .as_deref()
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    let mut s = format!("{file} game {}{name}: ", r.game);
    if let Some(bad) = &r.illegal {
        if r.status == "bad_start" {
            s.push_str(&format!("invalid FEN tag: {}", bad.reason));
        } else {
            s.push_str(&format!(
                "illegal move at ply {} {:?}: {}",
                bad.ply, bad.text, bad.reason
            ));
        }
        return s;
    }
    s.push_str(&format!("{} plies, ", r.plies));
    match (&r.ending, r.rule_result) {
        (Some(ending), Some(result)) => {
            s.push_str(&format!("{ending}, the rules give {result}"));
            if let Some(tag) = &r.result_tag {
                let verdict = match r.result_agrees {
                    Some(true) => "agrees",
                    Some(false) => "disagrees",
                    None => "records no result",
                };
                s.push_str(&format!("; Result tag {tag} {verdict}"));
            }
        }
        _ => {
            s.push_str("not over by the rules");
            if let Some(tag) = &r.result_tag {
                s.push_str(&format!("; Result tag {tag}"));
            }
        }
    }
    s
}

// ---- Xiangqi game directories -------------------------------------------------------------

use crate::judge::xiangqi::{self as xq, XiangqiGame};
use crate::store::GameDir;
use std::path::Path;

/// Whether `dir` holds a Xiangqi game (its `game.toml` says so).
pub fn is_xiangqi(dir: &Path) -> bool {
    xq::game_kind(&GameDir::new(dir)).is_ok_and(|k| k == "xiangqi")
}

pub fn new(
    dir: &Path,
    players: &[(String, String, Option<String>)],
    judge: String,
    rules: &[String],
    created: String,
    sample: bool,
    clock: Option<crate::protocol::files::Clock>,
) -> Result<()> {
    use crate::protocol::files::JudgeEntry;
    let entries = super::game::player_entries(&xq::SEATS, players, "red first, then black")?;
    let rules = xq::rules_from(rules)?;
    let id = super::game::random_id();
    let manifest = xq::new_manifest(
        id,
        created,
        sample,
        rules,
        clock,
        JudgeEntry { key: judge },
        entries,
    );
    super::game::write_manifest(dir, &manifest, |g| xq::load(g).map(|_| ()))?;
    say!("created Xiangqi game {} in {}", manifest.id, dir.display());
    Ok(())
}

fn load(dir: &Path) -> Result<(GameDir, XiangqiGame)> {
    let d = GameDir::new(dir);
    let g = xq::load(&d)?;
    Ok((d, g))
}

pub fn make_move(
    dir: &Path,
    seat: &str,
    key: &ssh_key::PrivateKey,
    action: &str,
    offer_draw: bool,
    comment: Option<String>,
) -> Result<()> {
    use crate::rules::xiangqi::notation;
    let (d, g) = load(dir)?;
    let Some(index) = xq::SEATS.iter().position(|s| *s == seat) else {
        return Err(Error::Io(format!(
            "--as: {seat:?} is not a seat (red, black)"
        )));
    };
    if key.public_key().key_data() != g.player_keys[index].key_data() {
        return Err(refuse(
            "--key",
            None,
            format!("is not {seat}'s key in game.toml"),
        ));
    }
    let state = xq::current(&d, &g)?;
    if state.record.lines.is_empty() {
        return Err(refuse(
            "record.jsonl",
            None,
            "the judge has not opened the game yet",
        ));
    }
    match state.to_move() {
        None => return Err(refuse("record.jsonl", None, "the game is over")),
        Some(s) if s != seat => {
            return Err(refuse(
                "--as",
                None,
                format!("it is {s}'s move, not {seat}'s"),
            ))
        }
        Some(_) => {}
    }
    // Moves are stored in ICCS whatever notation the player typed.
    let normalised = match action {
        "resign" | "accept-draw" => action.to_string(),
        text => notation::parse(state.game.position(), text)
            .map_err(|e| Error::Io(format!("move: {e}")))?
            .to_string(),
    };
    if comment.as_deref().is_some_and(crate::judge::has_control) {
        return Err(Error::Io(
            "--comment: no control or bidirectional-override characters".into(),
        ));
    }
    let head = state.record.head_or(&g.hash);
    let mv = crate::player::NewMove {
        ply: state.game.moves().len() as u32 + 1,
        answers: &head,
        action: &normalised,
        offer_draw,
        comment,
        chain: None,
    };
    let path = crate::player::write_move(&d, &g.manifest.id, &g.hash, seat, key, mv)?;
    say!("wrote {path} ({normalised}) and its signature");
    Ok(())
}

pub fn judge(
    dir: &Path,
    key: &ssh_key::PrivateKey,
    now: String,
    forfeit: Option<(String, String)>,
) -> Result<()> {
    let (d, g) = load(dir)?;
    let run = xq::judge(&d, &g, key, &now, forfeit)?;
    for path in &run.accepted {
        say!("accepted {path}");
    }
    if run.accepted.is_empty() {
        say!("nothing new");
    }
    say!("{}", summary(&run.state));
    match run.refusal {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn summary(state: &xq::State) -> String {
    match (state.game.ending(), state.to_move()) {
        (Some(e), _) => format!("game over: {e}"),
        (None, Some(seat)) => format!("{seat} to move (ply {})", state.game.moves().len() + 1),
        (None, None) => String::new(),
    }
}

pub fn view(dir: &Path, audience: &str, format: &str) -> Result<()> {
    use crate::protocol::signing::{self, namespace};
    use crate::store::{RECORD_LIMIT, SIGNATURE_LIMIT};
    let (d, g) = load(dir)?;
    if !xq::SEATS.contains(&audience) && audience != "public" {
        return Err(Error::Io(format!(
            "--as: {audience:?} is not an audience (red, black, public)"
        )));
    }
    let path = format!(
        "views/{audience}.{}",
        if format == "text" { "txt" } else { "json" }
    );
    let text = d
        .read_optional(&path, RECORD_LIMIT)?
        .ok_or_else(|| refuse(&path, None, "not written yet: run the judge first"))?;
    let sig = d.read(&format!("{path}.sig"), SIGNATURE_LIMIT)?;
    signing::verify(&g.judge_key, namespace::VIEW, text.as_bytes(), &sig)
        .map_err(|e| refuse(format!("{path}.sig"), None, e.to_string()))?;
    if format == "svg" {
        let v: xq::XiangqiView = serde_json::from_str(&text)
            .map_err(|e| refuse(&path, None, format!("not a view: {e}")))?;
        say_raw!("{}", crate::view::picture::xiangqi(&v));
    } else {
        say_raw!("{text}");
    }
    Ok(())
}

pub fn status(dir: &Path, json: bool, now: &str) -> Result<()> {
    let (d, g) = load(dir)?;
    let state = xq::current(&d, &g)?;
    let v = xq::build_view(&g, &state, "public");
    let fields = serde_json::json!({
        "game": v.game, "ply": v.ply, "to_move": v.to_move, "check": v.check,
        "result": v.result, "last_move": v.last_move, "record_head": v.record_head,
        "fen": v.fen,
    });
    let state_line = if state.record.lines.is_empty() {
        "not opened yet: run the judge".to_string()
    } else {
        summary(&state)
    };
    let lines = [format!("game {} after {} plies", v.game, v.ply), state_line];
    let clock = super::StatusClock {
        clock: g.manifest.clock.as_ref(),
        record: &state.record,
        now,
        to_move: state.to_move(),
        players: &g.manifest.players,
    };
    super::print_status(json, fields, clock, &lines)
}

pub fn verify(dir: &Path) -> Result<()> {
    let (d, g) = load(dir)?;
    let state = xq::verify(&d, &g)?;
    say!(
        "verified Xiangqi game {}: {} plies, every signature, move and view checked",
        g.manifest.id,
        state.game.moves().len()
    );
    say!("{}", summary(&state));
    Ok(())
}

pub fn pgn(dir: &Path, notation: &str) -> Result<()> {
    use crate::rules::xiangqi::notation::Notation;
    let (d, g) = load(dir)?;
    let state = xq::current(&d, &g)?;
    let notation = match notation {
        "wxf" => Notation::Wxf,
        "chinese" => Notation::Chinese,
        _ => Notation::Iccs,
    };
    let score = state.game.ending().map_or("*", |e| e.winner().pgn());
    let names = |seat: &str| {
        g.manifest
            .players
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    };
    let mut tags = vec![
        ("Event".to_string(), format!("qijudge {}", g.manifest.id)),
        (
            "Date".to_string(),
            g.manifest.created.get(..10).unwrap_or("").replace('-', "."),
        ),
        ("Red".to_string(), names("red")),
        ("Black".to_string(), names("black")),
    ];
    if let Some(e) = state.game.ending() {
        tags.push(("Termination".to_string(), e.to_string()));
    }
    say_raw!("{}", pgn::write(&state.game, &tags, notation, score));
    Ok(())
}
