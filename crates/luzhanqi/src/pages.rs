//! Luzhanqi's pages and streams of a game folder: the replay page of an audience (`html`) and
//! the events it may see (`events`), both made from a replay.

use super::text;
use luzhanqi_rules::Viewer;
use qijudge_game::report::Report;
use qijudge_judge::pipeline::Mode;
use qijudge_protocol::error::{refuse_with, Error, Result};
use qijudge_store::GameDir;

/// The viewer an `--as` names: a seat, `public` or `full`.
fn viewer_of<S: luzhanqi_rules::nodeset::NodeSet>(
    board: &luzhanqi_rules::Board<S>,
    audience: &str,
) -> Result<luzhanqi_rules::Viewer> {
    Ok(match audience {
        "public" => Viewer::Public,
        "full" => Viewer::Full,
        seat => Viewer::Seat(board.seat(seat).ok_or_else(|| {
            Error::Io(format!(
                "--as: {seat:?} is not an audience ({}, public, full)",
                board.seat_names.join(", ")
            ))
        })?),
    })
}

/// The replay page of one audience: every position that audience saw, move by move. Made from
/// the revealed setups after the game, or from the judge's own folder (its setups) at any time.
pub fn html(
    dir: &GameDir,
    game: &crate::referee::Game,
    audience: &str,
    chinese: bool,
) -> Result<String> {
    let board = game.board;
    let viewer = viewer_of(board, audience)?;
    let revealed = game
        .manifest
        .players
        .iter()
        .all(|p| dir.exists(&format!("reveal/{}.toml", p.seat)));
    let mode = if revealed { Mode::Audit } else { Mode::Judge };
    // The record as the judge signed it: a move written but not judged yet waits for the
    // judge's next run, and the page shows what was recorded until then.
    let replay = crate::referee::replay_recorded(dir, game, mode).map_err(|e| {
        match e {
            Error::Refused(r) if r.file.starts_with("setups/") || r.file.starts_with("sealed/") => {
                refuse_with(
                    r.file,
                    None,
                    "the setups are not at hand",
                    "the replay page is made after the game, once `qijudge reveal` has published the setups, or by the judge from its own folder",
                )
            }
            other => other,
        }
    })?;
    if viewer == Viewer::Full && replay.outcome.is_none() {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "the game is not over",
            "the full replay, every piece shown, is for after the game",
        ));
    }
    let views = crate::referee::views_by_ply(dir, game, &replay, viewer);
    let frames: Vec<qijudge_view::html::Frame> = views
        .iter()
        .map(|v| qijudge_view::html::Frame {
            ply: v.ply,
            // A frame follows one item of the history: a board move, or a resignation or an
            // accepted draw, which move no piece.
            heading: match (v.history.last(), &v.last_move) {
                (Some(h), _) if !qijudge_view::on_board(&h.action) => {
                    format!("ply {}: {} {}", h.ply, h.seat, off_board_words(&h.action))
                }
                (_, Some(m)) => format!("ply {}: {} {}-{}", v.ply, m.seat, m.from, m.to),
                (_, None) => "before the first move".to_string(),
            },
            lines: text::state_lines(v),
            picture: crate::picture::luzhanqi_layers(v, chinese),
        })
        .collect();
    let last = views
        .last()
        .ok_or_else(|| Error::Io("a replay has one position at least".into()))?;
    // The moving piece is named where this audience's view of the position before the move
    // shows it (a seat's own pieces; every piece on the full page); the views decide.
    let moving_piece = |ply: u32, action: &str| -> Option<String> {
        let from = action.split_once('-')?.0;
        let before = views.iter().rev().find(|v| v.ply < ply)?;
        let piece = before.pieces.iter().find(|p| p.square == from)?.piece?;
        Some(match chinese {
            true => text::chinese_label(piece).to_string(),
            false => piece.code().to_string(),
        })
    };
    let moves: Vec<String> = last
        .history
        .iter()
        .map(|h| {
            let outcome = h
                .outcome
                .and_then(|o| serde_json::to_value(o).ok())
                .and_then(|v| v.as_str().map(|s| format!(" ({})", s.replace('_', " "))))
                .unwrap_or_default();
            match moving_piece(h.ply, &h.action) {
                Some(piece) => format!("{} {piece} {}{outcome}", h.seat, h.action),
                None => format!("{} {}{outcome}", h.seat, h.action),
            }
        })
        .collect();
    let players: Vec<String> = last
        .players
        .iter()
        .map(|p| format!("{} ({})", p.seat, p.name))
        .collect();
    let title = format!(
        "Luzhanqi {}: replay for {}",
        game.manifest.id,
        text::audience_label(last)
    );
    let about = vec![
        format!("Players: {}.", players.join(", ")),
        format!(
            "Made by qijudge from the signed record (head {}); it shows {}, move by move. Keys: arrows, Home, End.",
            last.record_head,
            match audience {
                "full" => "every piece".to_string(),
                "public" => "what spectators saw".to_string(),
                seat => format!("what {seat} saw"),
            }
        ),
    ];
    Ok(qijudge_view::html::page(
        &title, &about, &frames, &moves, "ply",
    ))
}

/// A signed move that moves no piece, in words: `resigns`, `accepts the draw`.
fn off_board_words(action: &str) -> String {
    match action {
        "resign" => "resigns".into(),
        "accept-draw" => "accepts the draw".into(),
        other => other.into(),
    }
}

pub fn events(dir: &GameDir, game: &crate::referee::Game, audience: &str) -> Result<Report> {
    use luzhanqi_rules::EventJson;
    let board = game.board;
    let viewer = viewer_of(board, audience)?;
    // What the judge recorded: a move not judged yet is in no stream until it is.
    let replay = crate::referee::replay_recorded(dir, game, Mode::Judge)?;
    if viewer == Viewer::Full && replay.outcome.is_none() {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "the game is not over",
            "the full event stream is public only after the end",
        ));
    }
    let mut report = Report::default();
    for e in replay.events.iter().filter(|e| e.audience.includes(viewer)) {
        let line = serde_json::to_string(&EventJson::from_event(board, e))
            .map_err(|e| Error::Io(e.to_string()))?;
        report.say(line);
    }
    Ok(report)
}
