//! The third-party audit of a finished game from its public files and revealed setups.

use crate::referee::*;
use crate::{text, view};
use luzhanqi_rules::*;
use qijudge_protocol::error::{refuse, refuse_with, Error, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::signing::{self, namespace};
use qijudge_store::{GameDir, RECORD_LIMIT, SIGNATURE_LIMIT};

/// What an audit established.
pub struct Audit {
    pub game: String,
    /// (seat, name) in seat order.
    pub players: Vec<(String, String)>,
    /// The winning seat, or none for a draw.
    pub winner: Option<String>,
    pub reason: EndReason,
    /// The forfeit's reason code (`bot-crashed`), when the game ended by one.
    pub forfeit: Option<String>,
    pub moves: usize,
    pub record_lines: usize,
    pub head: String,
    pub views: usize,
}

/// Audits a finished game from public files and revealed setups: manifest, signatures,
/// commitments, every move and combat, the record, and every published view byte for byte.
pub fn audit(dir: &GameDir) -> Result<Audit> {
    let game = load_game(dir)?;
    let (replay, views) = audited_replay(dir, &game)?;
    let outcome = replay
        .outcome
        .ok_or_else(|| Error::Io("audit without an outcome".into()))?;
    let seats = game
        .manifest
        .players
        .iter()
        .map(|p| p.seat.clone())
        .collect::<Vec<_>>();
    Ok(Audit {
        game: game.manifest.id.clone(),
        players: game
            .manifest
            .players
            .iter()
            .map(|p| (p.seat.clone(), p.name.clone()))
            .collect(),
        winner: outcome.winner.map(|w| seats[w.index()].clone()),
        reason: outcome.reason,
        forfeit: qijudge_game::forfeit_code(&replay.record),
        moves: signed_moves(&replay.record),
        record_lines: replay.record.len(),
        head: replay.record.head_or(&game.hash),
        views,
    })
}

/// The moves signed by players in a record.
pub fn signed_moves(record: &qijudge_protocol::record::Record) -> usize {
    record
        .lines
        .iter()
        .filter(|l| matches!(l.entry, Entry::Move { .. }))
        .count()
}

/// The audit's replay of a finished game (setups from `reveal/`), with every published view
/// checked against it, and how many view files were checked.
pub fn audited_replay(dir: &GameDir, game: &Game) -> Result<(Replay, usize)> {
    // Too early to audit: say so (and what comes next) before reading files that come later.
    let record = crate::referee::load_record(dir, game)?;
    let over = record
        .lines
        .iter()
        .any(|l| matches!(l.entry, qijudge_protocol::files::Entry::End { .. }));
    if !over {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "the game is not over",
            "verify audits finished games with revealed setups",
        ));
    }
    // A setup that was committed but not revealed: say what publishes it. (The record loaded
    // above is the one replayed: loading it again would check its signature and views again.)
    let replay = replay_loaded(dir, game, &record, Mode::Audit).map_err(|e| match e {
        Error::Refused(r) if r.file.starts_with("reveal/") && r.reason == "missing" => refuse_with(
            r.file,
            None,
            "missing: the setups are not revealed yet",
            "after the game the judge publishes them with `qijudge reveal GAME` (a sealed \
                 game's with the judge's key, `--key JUDGE_KEY`)",
        ),
        other => other,
    })?;
    if replay.outcome.is_none() {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "the game is not over",
            "verify audits finished games with revealed setups",
        ));
    }
    let views = check_published_views(game, dir, &replay)?;
    qijudge_judge::published::check_view_signatures(
        dir,
        &qijudge_judge::pipeline::Framed::frame(game),
    )?;
    Ok((replay, views))
}

/// How many view files of the audiences of `replay` are published (those the audit checks).
pub fn published_views(game: &Game, dir: &GameDir, replay: &Replay) -> usize {
    viewers(game, replay)
        .into_iter()
        .map(|viewer| match viewer {
            Viewer::Seat(s) => game.board.seat_name(s).to_string(),
            Viewer::Public => "public".to_string(),
            Viewer::Full => "full".to_string(),
        })
        .flat_map(|a| [format!("views/{a}.json"), format!("views/{a}.txt")])
        .filter(|path| dir.exists(path))
        .count()
}

/// Checks every published view (signature and bytes) against what the replay gives; a seat's
/// view may be missing (it may stay private to its seat). Returns how many files were checked.
pub fn check_published_views(game: &Game, dir: &GameDir, replay: &Replay) -> Result<usize> {
    let mut views = 0;
    for viewer in viewers(game, replay) {
        let v = build_view(game, replay, viewer);
        let expected = [
            ("json", view::to_json(&v)),
            (
                "txt",
                text::render(&v, text::Labels::Letters, game.manifest.sealed),
            ),
        ];
        for (ext, body) in expected {
            let path = format!("views/{}.{ext}", v.audience);
            let Some(published) = dir.read_optional(&path, RECORD_LIMIT)? else {
                if matches!(viewer, Viewer::Seat(_)) {
                    continue; // a seat's view may stay private to that seat
                }
                return Err(refuse(&path, None, "missing"));
            };
            if published != body {
                return Err(refuse_with(
                    &path,
                    None,
                    "differs from the view the files give",
                    "the judge published a view that does not follow from the game",
                ));
            }
            let sig = dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT)?;
            signing::verify(&game.judge_key, namespace::VIEW, published.as_bytes(), &sig)
                .map_err(|e| refuse(format!("{path}.sig"), None, e.to_string()))?;
            views += 1;
        }
    }
    Ok(views)
}
