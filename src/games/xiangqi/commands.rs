//! Xiangqi game directories: new, move, judge, view, status and verify.

use crate::error::{refuse, Error, Result};
use crate::judge::xiangqi::{self as xq, XiangqiGame};
use crate::store::GameDir;
use std::path::Path;

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
    let entries = super::super::player_entries(&xq::SEATS, players, "red first, then black")?;
    let rules = xq::rules_from(rules)?;
    let id = super::super::random_id();
    let manifest = xq::new_manifest(
        id,
        created,
        sample,
        rules,
        clock,
        JudgeEntry { key: judge },
        entries,
    );
    super::super::write_manifest(dir, &manifest, |g| xq::load(g).map(|_| ()))?;
    super::super::write_git_files(dir)?;
    say!("created Xiangqi game {} in {}", manifest.id, dir.display());
    Ok(())
}

pub(crate) fn load(dir: &Path) -> Result<(GameDir, XiangqiGame)> {
    let d = GameDir::new(dir);
    let g = xq::load(&d)?;
    Ok((d, g))
}

pub fn make_move(
    dir: &Path,
    seat: &str,
    key: &crate::protocol::signing::Signer,
    request: crate::games::MoveRequest,
) -> Result<()> {
    let crate::games::MoveRequest {
        action,
        offer_draw,
        comment,
        check,
    } = request;
    use crate::rules::xiangqi::notation;
    let (d, g) = load(dir)?;
    let _lock = d.lock()?;
    crate::games::seat_of_key(&g.frame(), seat, key)?;
    let state = xq::current(&d, &g)?;
    if check {
        check_turn(&state, seat)?;
    }
    // Moves are stored in ICCS whatever notation the player typed (unchecked: as typed).
    let normalised = match action {
        "resign" | "accept-draw" => action.to_string(),
        text if !check => text.to_string(),
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

pub(super) fn summary(state: &xq::State) -> String {
    match (state.game.ending(), state.to_move()) {
        (Some(e), _) => format!("game over: {e}"),
        (None, Some(seat)) => format!("{seat} to move (ply {})", state.game.moves().len() + 1),
        (None, None) => String::new(),
    }
}

pub fn view(dir: &Path, audience: &str, format: &str, chinese: bool) -> Result<()> {
    let (d, g) = load(dir)?;
    crate::games::show_signed_view(
        &d,
        &g.frame(),
        audience,
        format,
        |v: &xq::XiangqiView| crate::view::xiangqi::render_text(&g.manifest.players, v, chinese),
        crate::view::picture::xiangqi,
    )
}

/// The replay page: Xiangqi hides nothing, so every audience's page is the same game, and any
/// copy of the game can make it at any time.
pub fn html(dir: &Path, audience: &str) -> Result<String> {
    use crate::view::{html, picture};
    let (d, g) = load(dir)?;
    crate::games::check_audience(&xq::SEATS, &["public"], audience)?;
    let state = xq::current(&d, &g)?;
    let views: Vec<_> = (0..=state.game.moves().len())
        .map(|ply| xq::view_at(&g, &state, audience, ply))
        .collect();
    let frames: Vec<html::Frame> = views
        .iter()
        .map(|v| html::Frame {
            ply: v.ply,
            heading: match &v.last_move {
                Some(m) => format!(
                    "ply {}: {} {} = {} = {}",
                    v.ply, m.seat, m.iccs, m.wxf, m.chinese
                ),
                None => "before the first move".to_string(),
            },
            lines: crate::view::xiangqi::state_lines(v),
            picture: picture::xiangqi_layers(v),
        })
        .collect();
    let moves: Vec<String> = views
        .iter()
        .filter_map(|v| v.last_move.as_ref())
        .map(|m| format!("{} {} {}", m.seat, m.iccs, m.chinese))
        .collect();
    let title = format!("Xiangqi {}: replay for {audience}", g.manifest.id);
    let about = html::about(&g.manifest.players, "", &state.record.head_or(&g.hash));
    Ok(html::page(&title, &about, &frames, &moves, "ply"))
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
    let clock = crate::console::StatusClock {
        clock: g.manifest.clock.as_ref(),
        record: &state.record,
        now,
        to_move: state.to_move(),
        players: &g.manifest.players,
    };
    crate::console::print_status(json, fields, clock, &lines)
}

/// The audit, as the lines `verify` prints.
pub fn verify(dir: &Path) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let (d, g) = load(dir)?;
    let state = xq::verify(&d, &g)?;
    lines.push(format!(
        "verified Xiangqi game {}: {} plies, every signature, move and view checked",
        g.manifest.id,
        state.game.moves().len()
    ));
    lines.push(summary(&state));
    Ok(lines)
}

/// Refuses a move before the judge opened the game, after its end, or out of turn.
pub(super) fn check_turn(state: &xq::State, seat: &str) -> Result<()> {
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
    Ok(())
}
