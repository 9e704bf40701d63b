//! Liubo's own words: self mode's moves (each carrying the mover's chain element), what its
//! audit checked, and its replay page.

use crate::referee::{self as lb, LiuboGame};
use liubo_rules::notation::{parse_turn, write_turn};
use qijudge_game::report::Report;
use qijudge_protocol::error::{refuse, refuse_with, Error, Result};
use qijudge_protocol::signer::Signer;
use qijudge_store::GameDir;

/// The replay page: Liubo hides only future throws, so any copy of the game can make it at any
/// time; each position is the view after a turn.
pub fn html(d: &GameDir, g: &LiuboGame, audience: &str) -> Result<String> {
    use super::picture;
    use qijudge_judge::pipeline::{self, Mode};
    use qijudge_protocol::files::Entry;
    use qijudge_view::html;
    qijudge_game::check_audience(&lb::SEATS, &["public"], audience)?;
    let record = pipeline::load_record(g, d)?;
    let mut start = None;
    let mut after_turns = Vec::new();
    pipeline::replay_observed(g, d, &record, Mode::Judge, None, &mut |state, entry| {
        // The view after each turn, and the last one before the first turn. A self-mode
        // reveal (a chain element, no turn) is no position of its own.
        match entry {
            Entry::Move { action, .. } if action != "reveal" => {
                after_turns.push(lb::build_view(g, state, audience))
            }
            // In self mode a turn's throw is recorded with its turn, and observed once both are
            // played: only a view with no turn in it yet is the position before the first.
            _ if after_turns.is_empty() => {
                let view = lb::build_view(g, state, audience);
                if view.last_turn.is_none() {
                    start = Some(view);
                }
            }
            _ => {}
        }
    })?;
    let views: Vec<_> = start.into_iter().chain(after_turns).collect();
    let frames: Vec<html::Frame> = views
        .iter()
        .enumerate()
        .map(|(i, v)| html::Frame {
            ply: i as u32,
            heading: match &v.last_turn {
                Some(t) if i > 0 => format!("turn {i}: {} {}", t.seat, t.turn),
                _ => "before the first turn".to_string(),
            },
            lines: crate::view::state_lines(v),
            picture: picture::liubo_layers(&g.manifest.players, v),
        })
        .collect();
    let moves: Vec<String> = views
        .iter()
        .skip(1)
        .filter_map(|v| {
            v.last_turn
                .as_ref()
                .map(|t| format!("{} {}", t.seat, t.turn))
        })
        .collect();
    let title = format!("Liubo {}: replay for {audience}", g.manifest.id);
    let about = html::about(
        &g.manifest.players,
        " Seat a's pieces blue, b's red; O an owl.",
        &record.head_or(&g.hash),
    );
    Ok(html::page(&title, &about, &frames, &moves, "turn"))
}

/// What the audit checked: every throw recomputed, and the revealed seeds.
pub fn audited(d: &GameDir, g: &LiuboGame, state: &lb::State) -> Vec<String> {
    let throws = state
        .record
        .lines
        .iter()
        .filter(|l| matches!(l.entry, qijudge_protocol::files::Entry::Throw { .. }))
        .count();
    let seeds = lb::SEATS
        .iter()
        .filter(|s| d.exists(&format!("reveal/{s}.toml")))
        .count();
    vec![format!(
        "verified Liubo game {}: {} throws recomputed from the chain elements, every signature, turn and view checked{}",
        g.manifest.id,
        throws,
        if seeds == 2 { "; both revealed seeds rebuild their signed chains" } else { "" }
    )]
}

/// Self mode: the player reveals its own chain elements. `reveal` answers a start or a bonus
/// throw; a turn is checked against the throw made from the player's element t and the
/// opponent's public one, and reveals element t + 1.
pub fn self_mode_move(
    d: &GameDir,
    g: &LiuboGame,
    state: &lb::State,
    seat: usize,
    key: &Signer,
    action: &str,
    comment: Option<String>,
) -> Result<Report> {
    if comment.as_deref().is_some_and(qijudge_judge::has_control) {
        return Err(Error::Io(
            "--comment: no control or bidirectional-override characters".into(),
        ));
    }
    let mut report = Report::default();
    if state.end.is_some() {
        return Err(refuse("record.jsonl", None, "the game is over"));
    }
    let chain = lb::own_chain(d, g, seat)?;
    let name = lb::SEATS[seat];
    let (ply, text, index) = match (&state.position, action) {
        // Element 1 chooses who starts: revealed before the opponent's commitment is on the
        // record, it would let the opponent pick a seed that chooses the start.
        (None, "reveal") if state.heads.iter().any(Option::is_none) => {
            return Err(refuse_with(
                "record.jsonl",
                None,
                "both chain commitments must be on the record before anyone reveals",
                "wait for the judge to record the opponent's commitment, then reveal",
            ))
        }
        (None, "reveal") => (0, "reveal".to_string(), 1),
        (None, _) => {
            return Err(refuse(
                "record.jsonl",
                None,
                "play has not begun: answer `reveal` to start",
            ))
        }
        (Some(p), "reveal") => {
            let t = p.turns + 1;
            if p.to_move == seat || state.known(seat).is_some_and(|(j, _)| j >= t) {
                return Err(refuse(
                    "record.jsonl",
                    None,
                    "nothing of yours to reveal now",
                ));
            }
            (t, "reveal".to_string(), t)
        }
        (Some(p), turn) => {
            let t = p.turns + 1;
            if p.to_move != seat {
                return Err(refuse(
                    "--as",
                    None,
                    format!("throw {t} is {}'s", lb::SEATS[p.to_move]),
                ));
            }
            let values = self_mode_throw(g, state, &chain, seat, t)?;
            if turn == "throw" {
                // Only show the throw: nothing is written.
                let mut check = p.clone();
                check
                    .begin_turn(values)
                    .map_err(|e| Error::Io(format!("move: {e}")))?;
                return Ok(Report::line(format!(
                    "throw {t}: {} and {} ({} legal turns, for example {})",
                    values.0,
                    values.1,
                    check.legal_turns().len(),
                    check
                        .legal_turns()
                        .first()
                        .map(|m| write_turn(m))
                        .unwrap_or_default()
                )));
            }
            let text = if turn == "resign" {
                turn.to_string()
            } else {
                let mut check = p.clone();
                check
                    .begin_turn(values)
                    .map_err(|e| Error::Io(format!("move: {e}")))?;
                let moves = parse_turn(&check, turn).map_err(|e| {
                    Error::Io(format!(
                        "move (throw {t}: {} and {}): {e}",
                        values.0, values.1
                    ))
                })?;
                check
                    .play_turn(&moves)
                    .map_err(|(_, e)| Error::Io(format!("move: {e}")))?;
                write_turn(&moves)
            };
            report.say(format!("throw {t}: {} and {}", values.0, values.1));
            (t, text, t + 1)
        }
    };
    let head = if ply == 0 {
        lb::start_head(state, g)
    } else {
        state.head(g)
    };
    let mv = qijudge_game::player::NewMove {
        ply,
        answers: &head,
        action: &text,
        offer_draw: false,
        comment,
        chain: Some((index, hex::encode(chain[index as usize]))),
        replace: false,
    };
    let path = qijudge_game::player::write_move(d, &g.manifest.id, &g.hash, name, key, mv)?;
    report.say(format!("wrote {path} ({text}) and its signature"));
    Ok(report)
}

/// Self mode: the values of throw `t`, made from the player's own element t (from its chain) and
/// the opponent's published one.
pub fn self_mode_throw(
    g: &LiuboGame,
    state: &lb::State,
    chain: &[[u8; 32]],
    seat: usize,
    t: u32,
) -> Result<(u8, u8)> {
    use crate::throws;
    let other = 1 - seat;
    let theirs = state
        .known(other)
        .and_then(|k| lb::element_before(g, other, t, k))
        .ok_or_else(|| {
            refuse(
                "record.jsonl",
                None,
                format!("waiting for {}'s chain element {t}", lb::SEATS[other]),
            )
        })?;
    let mine = *chain.get(t as usize).ok_or_else(|| {
        refuse(
            "record.jsonl",
            None,
            format!("throw {t} is beyond this game's chain_length"),
        )
    })?;
    let (ea, eb) = if seat == 0 {
        (mine, theirs)
    } else {
        (theirs, mine)
    };
    Ok(throws::values(&throws::throw_digest(
        &g.manifest.id,
        t,
        &ea,
        &eb,
    )))
}
