//! Jieqi game directories: new, nonce commitments (`setup`), moves, judge, view, replay page,
//! status, reveal and verify.

use crate::error::{refuse, Error, Result};
use crate::judge::jieqi::{self as jq, JieqiGame};
use crate::protocol::files::to_toml;
use crate::protocol::signing::{namespace, Signer};
use crate::rules::xiangqi::notation::parse_iccs;
use crate::store::GameDir;
use rand_core::{OsRng, RngCore};
use std::path::Path;

pub(super) fn load(dir: &Path) -> Result<(GameDir, JieqiGame)> {
    let d = GameDir::new(dir);
    let g = jq::load(&d)?;
    Ok((d, g))
}

// One argument per `new` option.
#[allow(clippy::too_many_arguments)]
pub fn new(
    dir: &Path,
    players: &[(String, String, Option<String>)],
    judge: String,
    rules: &[String],
    created: String,
    sample: bool,
    clock: Option<crate::protocol::files::Clock>,
    sealed: bool,
) -> Result<()> {
    use crate::protocol::files::JudgeEntry;
    let entries = super::super::player_entries(&jq::SEATS, players, "red first, then black")?;
    let mut items = rules.to_vec();
    // A sealed game publishes every view: unless told otherwise, captured pieces stay unknown.
    if sealed && !rules.iter().any(|r| r.starts_with("captured=")) {
        items.push("captured=nobody".into());
    }
    let options = jq::rules_from(&items)?;
    if sealed && options.captured == crate::rules::jieqi::Captured::Captor {
        return Err(jq::sealed_captor_refusal());
    }
    let manifest = jq::new_manifest(
        super::super::random_id(),
        created,
        sample,
        options,
        clock,
        JudgeEntry { key: judge },
        entries,
    );
    let manifest = crate::protocol::files::JieqiManifest { sealed, ..manifest };
    super::super::write_manifest(dir, &manifest, |g| jq::load(g).map(|_| ()))?;
    super::super::write_git_files(dir)?;
    say!("created Jieqi game {} in {}", manifest.id, dir.display());
    Ok(())
}

/// Draws the player's shuffle nonce: the nonce itself (for the judge only) and the signed
/// commitment to it (for everyone).
pub fn commit(dir: &Path, seat: &str, key: &Signer) -> Result<()> {
    let (d, g) = load(dir)?;
    let _lock = d.lock()?;
    let i = crate::games::seat_of_key(&g.frame(), seat, key)?;
    let commitment_path = format!("commitments/{seat}.toml");
    if d.exists(&commitment_path) {
        return Err(Error::Io(format!(
            "{commitment_path}: already exists; a seat commits once"
        )));
    }
    let mut nonce = [0u8; 32];
    OsRng.fill_bytes(&mut nonce);
    let (commitment, secret) = jq::new_nonce(&g, i, nonce);
    let text = to_toml(&commitment);
    if g.manifest.sealed {
        let owner = crate::player::key_for_sealing(key)?;
        crate::judge::sealing::write_sealed_secret(
            &d,
            seat,
            &to_toml(&secret),
            owner,
            &g.judge_key,
        )?;
    } else {
        d.write_private(&format!("setups/{seat}.toml"), to_toml(&secret).as_bytes())?;
    }
    d.write(
        &format!("{commitment_path}.sig"),
        crate::player::signed(key, namespace::COMMITMENT, text.as_bytes())?.as_bytes(),
    )?;
    d.write(&commitment_path, text.as_bytes())?;
    say!("wrote {commitment_path} and its signature: publish them");
    if g.manifest.sealed {
        say!(
            "wrote {}: your nonce sealed to the judge (and to you); publish it once the record lists both commitments",
            crate::judge::sealed_setup_path(seat)
        );
    } else {
        say!("wrote setups/{seat}.toml: your nonce; hand it to the judge only, once the record lists both commitments");
    }
    Ok(())
}

pub fn make_move(
    dir: &Path,
    seat: &str,
    key: &Signer,
    request: crate::games::MoveRequest,
) -> Result<()> {
    let crate::games::MoveRequest {
        action,
        offer_draw,
        comment,
        check,
    } = request;
    let (d, g) = load(dir)?;
    let _lock = d.lock()?;
    crate::games::seat_of_key(&g.frame(), seat, key)?;
    let state = jq::current(&d, &g)?;
    if check {
        check_turn(&state, seat)?;
    }
    // Moves are stored in ICCS as `h2e2` (unchecked: as typed).
    let normalised = match action {
        "resign" | "accept-draw" => action.to_string(),
        text if !check => text.to_string(),
        text => {
            let m = parse_iccs(text).ok_or_else(|| {
                Error::Io(format!(
                    "move: {text:?} is not a move; write ICCS coordinates like h2e2 (from, to), or resign"
                ))
            })?;
            state
                .game
                .position()
                .check_move(m)
                .map_err(|e| Error::Io(format!("move {m}: {e}")))?;
            m.to_string()
        }
    };
    if comment.as_deref().is_some_and(crate::judge::has_control) {
        return Err(Error::Io(
            "--comment: no control or bidirectional-override characters".into(),
        ));
    }
    let head = state.head(&g);
    let mv = crate::player::NewMove {
        ply: state.plies() + 1,
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

/// Refuses a move before play has begun, after the end, or out of turn.
pub(super) fn check_turn(state: &jq::State, seat: &str) -> Result<()> {
    if state.end.is_some() {
        return Err(refuse("record.jsonl", None, "the game is over"));
    }
    match state.to_move() {
        None => Err(refuse(
            "record.jsonl",
            None,
            "play has not begun: both nonces must be committed and handed to the judge",
        )),
        Some(s) if s != seat => Err(refuse(
            "--as",
            None,
            format!("it is {s}'s move, not {seat}'s"),
        )),
        Some(_) => Ok(()),
    }
}

pub(super) fn summary(g: &JieqiGame, state: &jq::State) -> String {
    use crate::judge::pipeline::Referee;
    match (state.game.ending(), g.waiting(state)) {
        (Some(e), _) => format!("game over: {e}"),
        (None, Some(w)) => w,
        (None, None) => String::new(),
    }
}

/// Shows the judge's signed view of an audience (a seat's view may hold what only that seat
/// was shown, so it is read, never recomputed).
pub fn view(dir: &Path, audience: &str, format: &str, chinese: bool) -> Result<()> {
    let (d, g) = load(dir)?;
    crate::games::show_signed_view(
        &d,
        &g.frame(),
        audience,
        format,
        |v: &jq::JieqiView| crate::view::jieqi::render_text(&g.manifest.players, v, chinese),
        crate::view::picture::jieqi,
    )
}

/// The replay page of one audience: each position as that audience was shown it.
pub fn html(dir: &Path, audience: &str) -> Result<String> {
    use crate::view::{html, picture};
    let (d, g) = load(dir)?;
    crate::games::check_audience(&jq::SEATS, &["public"], audience)?;
    let state = jq::current(&d, &g)?;
    let known = jq::known_captures(&d, &g, &state, audience)?;
    let views: Vec<_> = (0..=state.plies() as usize)
        .map(|ply| jq::view_with(&g, &state, &known, audience, ply))
        .collect();
    let frames: Vec<html::Frame> = views
        .iter()
        .map(|v| html::Frame {
            ply: v.ply,
            heading: match &v.last_move {
                Some(m) => format!(
                    "ply {}: {} {}{}",
                    v.ply,
                    m.seat,
                    m.iccs,
                    m.revealed
                        .as_ref()
                        .map(|r| format!(" (turned up {r})"))
                        .unwrap_or_default()
                ),
                None => "before the first move".to_string(),
            },
            lines: crate::view::jieqi::state_lines(v),
            picture: picture::jieqi_layers(v),
        })
        .collect();
    let moves: Vec<String> = views
        .iter()
        .filter_map(|v| v.last_move.as_ref().map(|m| (v, m)))
        .map(|(v, m)| format!("{} {}", m.seat, v.moves.last().unwrap_or(&m.iccs)))
        .collect();
    let title = format!("Jieqi {}: replay for {audience}", g.manifest.id);
    let about = html::about(
        &g.manifest.players,
        " A plain disc is a piece lying face down.",
        &state.head(&g),
    );
    Ok(html::page(&title, &about, &frames, &moves, "ply"))
}

pub fn status(dir: &Path, json: bool, now: &str) -> Result<()> {
    let (d, g) = load(dir)?;
    let state = jq::current(&d, &g)?;
    let v = jq::build_view(&g, &state, "public");
    let fields = serde_json::json!({
        "game": v.game, "ply": v.ply, "to_move": v.to_move, "check": v.check,
        "result": v.result, "last_move": v.last_move, "record_head": v.record_head,
        "position": v.position,
    });
    let state_line = if state.record.lines.is_empty() {
        "not opened yet: run the judge".to_string()
    } else {
        summary(&g, &state)
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
    let state = jq::verify(&d, &g)?;
    let turned = state
        .game
        .played()
        .iter()
        .filter(|p| p.revealed.is_some())
        .count();
    match &state.layout {
        Some(layout) => {
            lines.push(format!(
                "verified Jieqi game {}: {} plies, every signature, move and view checked; both revealed nonces match their commitments, and the layout they give matches all {turned} pieces that turned up",
                g.manifest.id,
                state.plies()
            ));
            lines.push(format!("layout: {}", layout.describe()));
        }
        None => lines.push(format!(
            "verified Jieqi game {}: {} plies, every signature, move and public view checked; the {turned} pieces that turned up are checked against the layout once the nonces are revealed (qijudge reveal)",
            g.manifest.id,
            state.plies()
        )),
    }
    lines.push(summary(&g, &state));
    Ok(lines)
}
