//! Liubo game directories: new, chain commitments (`setup`), turns (`move`), judge, view,
//! status, reveal and verify.

use crate::error::{refuse, refuse_with, Error, Result};
use crate::judge::liubo::{self as lb, LiuboGame};
use crate::protocol::files::to_toml;
use crate::protocol::signing::{namespace, Signer};
use crate::rules::liubo::notation::{parse_turn, write_turn};
use crate::store::GameDir;
use rand_core::{OsRng, RngCore};
use std::path::Path;

pub(super) fn load(dir: &Path) -> Result<(GameDir, LiuboGame)> {
    let d = GameDir::new(dir);
    let g = lb::load(&d)?;
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
    let entries = super::super::player_entries(&lb::SEATS, players, "a first, then b")?;
    let mut options = crate::rules::liubo::Options::default();
    for r in rules {
        let (k, v) = r
            .split_once('=')
            .ok_or_else(|| Error::Io(format!("--rule {r:?}: expected key=value")))?;
        options
            .set(k, v)
            .map_err(|e| Error::Io(format!("--rule: {e}")))?;
    }
    let id = super::super::random_id();
    let manifest = lb::new_manifest(
        id,
        created,
        sample,
        options,
        clock,
        JudgeEntry { key: judge },
        entries,
    );
    let manifest = crate::protocol::files::LiuboManifest { sealed, ..manifest };
    if sealed && manifest.rules.dice_mode != crate::rules::liubo::DiceMode::Escrow {
        return Err(Error::Io(
            "--sealed: in self mode no seed is handed over; seal escrow games (--rule dice=escrow)"
                .into(),
        ));
    }
    super::super::write_manifest(dir, &manifest, |g| lb::load(g).map(|_| ()))?;
    super::super::write_git_files(dir)?;
    say!("created Liubo game {} in {}", manifest.id, dir.display());
    Ok(())
}

/// Makes the player's throw chain: a fresh seed (secret) and the signed commitment to its head.
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
    let mut seed = [0u8; 32];
    OsRng.fill_bytes(&mut seed);
    let (commitment, secret) = lb::new_chain(&g, i, seed);
    let text = to_toml(&commitment);
    let sealed_path = crate::judge::sealed_setup_path(seat);
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
        say!("wrote {sealed_path}: your chain seed sealed to the judge (and to you); publish it after the record lists both commitments");
    } else if g.manifest.rules.dice_mode == crate::rules::liubo::DiceMode::Escrow {
        say!("wrote setups/{seat}.toml: your chain seed; hand it to the judge only (escrow)");
    } else {
        say!("wrote setups/{seat}.toml: your chain seed; keep it to yourself (self mode)");
    }
    Ok(())
}

pub fn make_move(
    dir: &Path,
    seat: &str,
    key: &Signer,
    action: &str,
    comment: Option<String>,
    check: bool,
) -> Result<()> {
    let (d, g) = load(dir)?;
    let _lock = d.lock()?;
    crate::games::seat_of_key(&g.frame(), seat, key)?;
    let state = lb::current(&d, &g)?;
    if g.manifest.rules.dice_mode == crate::rules::liubo::DiceMode::SelfReveal {
        let i = lb::SEATS.iter().position(|s| *s == seat).unwrap_or(0);
        return self_mode_move(&d, &g, &state, i, key, action, comment);
    }
    let Some((t, mover, _)) = state.throw else {
        return Err(refuse(
            "record.jsonl",
            None,
            match &state.end {
                Some(_) => "the game is over",
                None => "no throw is waiting: run the judge",
            },
        ));
    };
    if lb::SEATS[mover] != seat {
        return Err(refuse(
            "--as",
            None,
            format!("throw {t} is {}'s", lb::SEATS[mover]),
        ));
    }
    let text = if action == "resign" || !check {
        action.to_string()
    } else {
        let position = state
            .position
            .as_ref()
            .expect("a throw means play has begun");
        let moves = parse_turn(position, action).map_err(|e| Error::Io(format!("move: {e}")))?;
        let mut check = position.clone();
        check
            .play_turn(&moves)
            .map_err(|(_, e)| Error::Io(format!("move: {e}")))?;
        write_turn(&moves)
    };
    if comment.as_deref().is_some_and(crate::judge::has_control) {
        return Err(Error::Io(
            "--comment: no control or bidirectional-override characters".into(),
        ));
    }
    let head = state.head(&g);
    let mv = crate::player::NewMove {
        ply: t,
        answers: &head,
        action: &text,
        offer_draw: false,
        comment,
        chain: None,
    };
    let path = crate::player::write_move(&d, &g.manifest.id, &g.hash, seat, key, mv)?;
    say!("wrote {path} ({text}) and its signature");
    Ok(())
}

pub fn view(dir: &Path, audience: &str, format: &str) -> Result<()> {
    let (d, g) = load(dir)?;
    crate::games::check_audience(&lb::SEATS, &["public"], audience)?;
    let state = lb::verify(&d, &g)?;
    let v = lb::build_view(&g, &state, audience);
    if format == "svg" || format == "png" {
        let svg = crate::view::picture::liubo_with(&g.manifest.players, &v);
        crate::console::write_picture(&svg, format)?;
    } else if format == "json" {
        say_raw!(
            "{}\n",
            serde_json::to_string_pretty(&v).map_err(|e| Error::Io(e.to_string()))?
        );
    } else {
        say_raw!(
            "{}",
            crate::view::liubo::render_text(&g.manifest.players, &v)
        );
    }
    Ok(())
}

/// The replay page: Liubo hides only future throws, so any copy of the game can make it at any
/// time; each position is the view after a turn.
pub fn html(dir: &Path, audience: &str) -> Result<String> {
    use crate::judge::pipeline::{self, Mode};
    use crate::protocol::files::Entry;
    use crate::view::{html, picture};
    let (d, g) = load(dir)?;
    crate::games::check_audience(&lb::SEATS, &["public"], audience)?;
    let record = pipeline::load_record(&g, &d)?;
    let mut start = None;
    let mut after_turns = Vec::new();
    pipeline::replay_observed(&g, &d, &record, Mode::Judge, None, &mut |state, entry| {
        // The view after each turn, and the last one before the first turn.
        match entry {
            Entry::Move { .. } => after_turns.push(lb::build_view(&g, state, audience)),
            _ if after_turns.is_empty() => start = Some(lb::build_view(&g, state, audience)),
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
            lines: crate::view::liubo::state_lines(v),
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

pub fn status(dir: &Path, json: bool, now: &str) -> Result<()> {
    let (d, g) = load(dir)?;
    let state = lb::current(&d, &g)?;
    let v = lb::build_view(&g, &state, "public");
    let fields = serde_json::json!({
        "game": v.game, "turns": v.turns, "to_move": v.to_move, "throw": v.throw,
        "result": v.result, "record_head": v.record_head, "waiting": v.waiting,
    });
    let lines = [
        format!("game {} after {} turns", v.game, v.turns),
        v.waiting.clone(),
    ];
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
    let state = lb::verify(&d, &g)?;
    let throws = state
        .record
        .lines
        .iter()
        .filter(|l| matches!(l.entry, crate::protocol::files::Entry::Throw { .. }))
        .count();
    let seeds = lb::SEATS
        .iter()
        .filter(|s| d.exists(&format!("reveal/{s}.toml")))
        .count();
    lines.push(format!(
        "verified Liubo game {}: {} throws recomputed from the chain elements, every signature, turn and view checked{}",
        g.manifest.id,
        throws,
        if seeds == 2 { "; both revealed seeds rebuild their signed chains" } else { "" }
    ));
    lines.push(lb::build_view(&g, &state, "public").waiting);
    Ok(lines)
}

/// Self mode: the player reveals its own chain elements. `reveal` answers a start or a bonus
/// throw; a turn is checked against the throw made from the player's element t and the
/// opponent's public one, and reveals element t + 1.
fn self_mode_move(
    d: &GameDir,
    g: &LiuboGame,
    state: &lb::State,
    seat: usize,
    key: &Signer,
    action: &str,
    comment: Option<String>,
) -> Result<()> {
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
                say!(
                    "throw {t}: {} and {} ({} legal turns, for example {})",
                    values.0,
                    values.1,
                    check.legal_turns().len(),
                    check
                        .legal_turns()
                        .first()
                        .map(|m| write_turn(m))
                        .unwrap_or_default()
                );
                return Ok(());
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
            say!("throw {t}: {} and {}", values.0, values.1);
            (t, text, t + 1)
        }
    };
    let head = if ply == 0 {
        lb::start_head(state, g)
    } else {
        state.head(g)
    };
    let mv = crate::player::NewMove {
        ply,
        answers: &head,
        action: &text,
        offer_draw: false,
        comment,
        chain: Some((index, hex::encode(chain[index as usize]))),
    };
    let path = crate::player::write_move(d, &g.manifest.id, &g.hash, name, key, mv)?;
    say!("wrote {path} ({text}) and its signature");
    Ok(())
}

/// Self mode: the values of throw `t`, made from the player's own element t (from its chain) and
/// the opponent's published one.
pub(super) fn self_mode_throw(
    g: &LiuboGame,
    state: &lb::State,
    chain: &[[u8; 32]],
    seat: usize,
    t: u32,
) -> Result<(u8, u8)> {
    use crate::protocol::throws;
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
