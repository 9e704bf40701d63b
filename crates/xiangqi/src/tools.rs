//! Xiangqi's own tools, offered through the game definition (`Definition::TOOLS`): perft,
//! checking PGN records, and a judged game folder as PGN.

use qijudge_game::console::read_arg;
use qijudge_protocol::error::{refuse, Error, Result};
use std::path::{Path, PathBuf};
use xiangqi_rules::{check, fen, pgn, Options};

/// PGN files may hold thousands of games.
const PGN_LIMIT: u64 = 64 * 1024 * 1024;

pub fn perft(depth: u32, fen_text: Option<String>, divide: bool) -> Result<()> {
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

pub fn check_records(files: &[PathBuf], json: bool, move_limit: bool) -> Result<()> {
    let options = Options {
        move_limit,
        ..Options::default()
    };
    let mut illegal = Vec::new();
    let mut empty = Vec::new();
    for path in files {
        let shown = if path.as_os_str() == "-" {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let text = read_arg(path, PGN_LIMIT)?;
        let games = pgn::read(&text)
            .map_err(|e| refuse(&shown, Some(&format!("line {}", e.line)), e.why))?;
        if games.is_empty() {
            say!("{shown}: no game in this file (no tags, no moves)");
            empty.push(shown.clone());
        }
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
    if let Some(first) = illegal.first() {
        return Err(refuse(
            first.clone(),
            None,
            format!(
                "{} game(s) have an illegal move (listed above)",
                illegal.len()
            ),
        ));
    }
    match empty.first() {
        None => Ok(()),
        Some(first) => Err(refuse(first.clone(), None, "holds no game")),
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
        } else if r.status == "bad_notation" {
            s.push_str(&format!(
                "not a move at ply {} {:?}: {}",
                bad.ply, bad.text, bad.reason
            ));
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

/// A Xiangqi game folder (or packed game) as PGN: its moves in `notation`, each move's signed
/// comment (an engine's score in a match) in braces, the ending and any ruling's reason code in
/// the Termination tag.
pub fn pgn_text(dir: &Path, notation: &str) -> Result<String> {
    use xiangqi_rules::notation::Notation;
    let (d, g) = qijudge_game::defined::open::<super::Xiangqi>(dir)?;
    let state = qijudge_judge::turn_referee::current(&d, &g)?;
    let simplified = notation == "chinese-simplified";
    let notation = match notation {
        "wxf" => Notation::Wxf,
        "chinese" | "chinese-simplified" => Notation::Chinese,
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
        let text = match qijudge_game::forfeit_code(&state.turns.record) {
            Some(code) => format!("{e} ({code})"),
            None => e.to_string(),
        };
        tags.push(("Termination".to_string(), text));
    }
    // A move that offered a draw says so in its comment (PGN has no mark of its own for it).
    let offers = state
        .turns
        .record
        .lines
        .iter()
        .filter_map(|l| match &l.entry {
            qijudge_protocol::files::Entry::Move {
                action,
                draw_offered,
                ..
            } if qijudge_view::on_board(action) => Some(*draw_offered),
            _ => None,
        });
    let comments: Vec<Option<String>> = state
        .turns
        .comments
        .iter()
        .zip(offers)
        .map(|(comment, offered)| match (comment, offered) {
            (Some(c), true) => Some(format!("{c}; draw offered")),
            (None, true) => Some("draw offered".to_string()),
            (c, false) => c.clone(),
        })
        .collect();
    let text = pgn::write_commented(&state.game, &tags, notation, score, &comments);
    Ok(match simplified {
        true => xiangqi_rules::notation::simplified(&text),
        false => text,
    })
}
