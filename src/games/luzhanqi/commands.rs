//! Luzhanqi game directories: new, setup, move, judge, view, status, events, reveal, verify.

use crate::console::{load_private_key, read_arg, with_rules};
use crate::error::{refuse, refuse_with, Error, Result};
use crate::games::report::{Out, Report};
use crate::games::{MoveRequest, NewGame};
use crate::judge::{self, load_game, load_record, Mode};
use crate::protocol::files::*;
use crate::rules::luzhanqi::board::BOARD_NAMES;
use crate::rules::luzhanqi::{by_name, Options, Placement, Setup};
use crate::store::{GameDir, SMALL_FILE_LIMIT};
use crate::view::{self, ViewFile};
use std::path::Path;

pub fn new(dir: &Path, new: NewGame) -> Result<Report> {
    let board = by_name(new.board).ok_or_else(|| {
        Error::Io(format!(
            "--board: unknown board {:?}; luzhanqi boards: {}",
            new.board,
            BOARD_NAMES.join(", ")
        ))
    })?;
    if new.players.len() != board.seat_names.len() {
        return Err(Error::Io(format!(
            "--player: give exactly {} players, one per seat in the order {}",
            board.seat_names.len(),
            board.seat_names.join(", ")
        )));
    }
    let mut entries = Vec::new();
    for (seat, (name, key, email)) in board.seat_names.iter().zip(&new.players) {
        entries.push(Player {
            seat: seat.clone(),
            name: name.clone(),
            key: key.clone(),
            email: email.clone(),
        });
    }
    let options = with_rules(Options::default(), new.rules)?;
    options
        .check_for_board(board.has_teams())
        .map_err(|e| Error::Io(format!("--rule {e}")))?;
    let id = super::super::random_id();
    let manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        game: "luzhanqi".into(),
        id: format!("lzq-{}", hex::encode(id)),
        created: new.created,
        sample: new.sample,
        board: board.name.clone(),
        rules: options,
        clock: new.clock,
        sealed: new.sealed,
        judge: JudgeEntry { key: new.judge_key },
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
    super::super::write_git_files(dir)?;
    // Refuse what a judge would refuse (for instance the same key twice) before anyone commits.
    if let Err(e) = load_game(&g) {
        let _ = std::fs::remove_file(g.path("game.toml"));
        return Err(e);
    }
    Ok(Report::line(format!(
        "created {} (game {})",
        g.path("game.toml").display(),
        manifest.id
    )))
}

pub fn judge(
    dir: &Path,
    key_path: &Path,
    now: String,
    details: bool,
    rulings: judge::pipeline::Rulings,
) -> Result<Report> {
    let dir = GameDir::new(dir);
    let game = load_game(&dir)?;
    let key = load_private_key(key_path)?;
    judge::check_judge_key(&game, &key, &key_path.display().to_string())?;
    let run = judge::pipeline::judge(&game, &dir, &key, &now, rulings)?;
    let refusal = match run.refusal {
        Some(Error::Refused(r)) if details => Some(Error::Refused(r.disclosed())),
        other => other,
    };
    Ok(crate::games::run_report(
        &run.said,
        run.waiting.as_deref(),
        refusal,
    ))
}

/// Reads a view and checks the judge's signature on it.
fn signed_view(dir: &GameDir, game: &judge::Game, audience: &str) -> Result<(ViewFile, String)> {
    let seats: Vec<&str> = game.board.seat_names.iter().map(String::as_str).collect();
    crate::games::check_audience(&seats, &["public", "full"], audience)?;
    let path = format!("views/{audience}.json");
    judge::read_signed_view(dir, game, audience)?.ok_or_else(|| match audience {
        "full" => refuse_with(
            &path,
            None,
            "not written yet",
            "the full view, every piece shown, is written when the game is over",
        ),
        _ => refuse_with(
            &path,
            None,
            "not written yet",
            "run `qijudge judge` on the game first",
        ),
    })
}

pub fn view(
    dir: &Path,
    audience: &str,
    format: &str,
    chinese: bool,
    key: Option<&Path>,
) -> Result<Report> {
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
    Ok(Report::of(match format {
        "json" => Out::Text(text),
        "svg" | "png" => Out::Picture {
            svg: crate::view::picture::luzhanqi_with(&v, chinese),
            png: format == "png",
        },
        _ => Out::Text(view::text::render(
            &v,
            match chinese {
                true => view::text::Labels::Chinese,
                false => view::text::Labels::Letters,
            },
        )),
    }))
}

pub fn status(dir: &Path, json: bool, now: &str) -> Result<Report> {
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
    let clock = crate::console::StatusClock {
        clock: game.manifest.clock.as_ref(),
        record: &record,
        now,
        to_move: v.to_move.as_deref(),
        players: &game.manifest.players,
    };
    Ok(crate::console::status_report(json, fields, clock, &lines))
}

/// After the end: each accepted setup into `reveal/`; what was written, as lines.
pub fn reveal(dir: &Path, key: Option<&Path>) -> Result<Report> {
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
    let mut written = Vec::new();
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
        dir.write(&format!("reveal/{}.toml", p.seat), text.as_bytes())?;
        written.push(format!("wrote reveal/{}.toml", p.seat));
    }
    if written.is_empty() && key.is_some() {
        return Err(refuse(
            "sealed/",
            None,
            "this key opens none of the sealed setups",
        ));
    }
    Ok(Report::lines(written))
}

/// The audit, as the lines `verify` prints.
pub fn verify(dir: &Path) -> Result<Report> {
    let a = judge::audit(&GameDir::new(dir))?;
    Ok(Report::line(format!(
        "verified game {}: manifest, commitments and reveals, {} signed moves, record of {} lines (head {}), {} signed views",
        a.game, a.moves, a.record_lines, a.head, a.views
    )))
}

/// The viewer an `--as` names: a seat, `public` or `full`.
fn viewer_of<S: crate::rules::luzhanqi::nodeset::NodeSet>(
    board: &crate::rules::luzhanqi::Board<S>,
    audience: &str,
) -> Result<crate::rules::luzhanqi::Viewer> {
    use crate::rules::luzhanqi::Viewer;
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
pub fn html(dir: &Path, audience: &str, chinese: bool) -> Result<String> {
    use crate::rules::luzhanqi::Viewer;
    let dir = GameDir::new(dir);
    let game = load_game(&dir)?;
    let board = game.board;
    let viewer = viewer_of(board, audience)?;
    let revealed = game
        .manifest
        .players
        .iter()
        .all(|p| dir.exists(&format!("reveal/{}.toml", p.seat)));
    let mode = if revealed { Mode::Audit } else { Mode::Judge };
    let replay = judge::replay(&dir, &game, mode, &crate::console::now_or(None)?).map_err(|e| {
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
    if !replay.accepted.is_empty() || replay.refusal.is_some() {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "does not yet hold everything in the game's folder",
            "run `qijudge judge` on the game first",
        ));
    }
    if viewer == Viewer::Full && replay.outcome.is_none() {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "the game is not over",
            "the full replay, every piece shown, is for after the game",
        ));
    }
    let views = judge::views_by_ply(&dir, &game, &replay, viewer);
    let frames: Vec<view::html::Frame> = views
        .iter()
        .map(|v| view::html::Frame {
            ply: v.ply,
            heading: match &v.last_move {
                Some(m) => format!("ply {}: {} {}-{}", v.ply, m.seat, m.from, m.to),
                None => "before the first move".to_string(),
            },
            lines: view::text::state_lines(v),
            picture: crate::view::picture::luzhanqi_layers(v, chinese),
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
            true => view::text::chinese_label(piece).to_string(),
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
        view::text::audience_label(last)
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
    Ok(view::html::page(&title, &about, &frames, &moves, "ply"))
}

pub fn events(dir: &Path, audience: &str) -> Result<Report> {
    use crate::rules::luzhanqi::{EventJson, Viewer};
    let dir = GameDir::new(dir);
    let game = load_game(&dir)?;
    let board = game.board;
    let viewer = viewer_of(board, audience)?;
    let replay = judge::replay(&dir, &game, Mode::Judge, &crate::console::now_or(None)?)?;
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
    let mut report = Report::default();
    for e in replay.events.iter().filter(|e| e.audience.includes(viewer)) {
        let line = serde_json::to_string(&EventJson::from_event(board, e))
            .map_err(|e| Error::Io(e.to_string()))?;
        report.say(line);
    }
    Ok(report)
}

/// Finds a seat and checks that the key is that seat's key.
fn seat_and_key(
    dir: &GameDir,
    seat: &str,
    key_path: &Path,
) -> Result<(crate::judge::Game, usize, crate::protocol::signing::Signer)> {
    let game = load_game(dir)?;
    let i = game
        .manifest
        .players
        .iter()
        .position(|p| p.seat == seat)
        .ok_or_else(|| {
            Error::Io(format!(
                "--as: no seat {seat:?} in this game (seats: south, north)"
            ))
        })?;
    let key = crate::console::load_signer(key_path)?;
    let public = crate::protocol::signing::Sign::public(&key);
    if public.key_data() != game.player_keys[i].key_data() {
        return Err(refuse_with(
            key_path.display().to_string(),
            None,
            format!("is not the key registered for {seat} in game.toml"),
            "use the key you gave the organiser",
        ));
    }
    Ok((game, i, key))
}

pub fn setup(
    dir: &Path,
    seat: &str,
    key_path: &Path,
    source: crate::games::SetupSource,
    seal: bool,
) -> Result<Report> {
    use crate::games::SetupSource;
    let mut report = Report::default();
    let dir = GameDir::new(dir);
    let _lock = dir.lock()?;
    let (game, i, key) = seat_and_key(&dir, seat, key_path)?;
    if seal && !game.manifest.sealed {
        return Err(Error::Io(
            "--seal: this game's judge reads setups in clear (game.toml has no `sealed = true`); \
             hand setups/SEAT.toml over privately"
                .into(),
        ));
    }
    let board = game.board;
    let seat_id = crate::rules::luzhanqi::Seat(i as u8);
    let (shown, text) = match source {
        SetupSource::File(path) => (path.display().to_string(), read_arg(path, SMALL_FILE_LIMIT)?),
        SetupSource::Random(seed) => {
            use rand_core::RngCore;
            if seed.is_some() {
                report.out.push(Out::Note(
                    "note: a setup drawn from a seed can be rebuilt by anyone who guesses the seed; \
                     for a real game use --random without one"
                        .into(),
                ));
            }
            let seed = seed.unwrap_or_else(|| rand_core::OsRng.next_u64());
            let mut rng = crate::rules::luzhanqi::random::SplitMix64::new(seed);
            let drawn = crate::rules::luzhanqi::random::random_setup(board, seat_id, &mut rng);
            let rows = drawn.to_rows_toml(board, seat_id);
            report.out.push(Out::Text(format!(
                "your random setup (keep it to yourself):\n{rows}"
            )));
            ("--random".to_string(), rows)
        }
        SetupSource::None => {
            return Err(refuse_with(
                "setup",
                None,
                "no setup given",
                format!(
                    "start from the template (qijudge setup {} --as {seat} --template > my-setup.toml), \
                     or let qijudge draw one (--random)",
                    dir.root.display()
                ),
            ))
        }
    };
    let setup = Placement::from_toml(&text, board, seat_id)
        .and_then(|p| Setup::validate(board, seat_id, &p))
        .map_err(|problems| {
            let list: Vec<String> = problems.iter().map(|p| format!("  - {p}")).collect();
            refuse(
                &shown,
                None,
                format!(
                    "the setup breaks {} rule(s):\n{}",
                    problems.len(),
                    list.join("\n")
                ),
            )
        })?;
    crate::player::commit_setup(&dir, &game, seat, &key, &setup)?;
    let commitment_path = format!("commitments/{seat}.toml");
    report.say(format!(
        "wrote {commitment_path} and its signature: publish them"
    ));
    report.say(match game.manifest.sealed {
        true => format!(
            "wrote {}: your setup sealed to the judge (and to you); publish it only after the record lists every commitment",
            crate::judge::sealed_setup_path(seat)
        ),
        false => format!("wrote setups/{seat}.toml: your secret; hand it to the judge only after every commitment is recorded"),
    });
    Ok(report)
}

/// A move as a player types it, in the record's form: any case (`A6-A7`), and the compact form
/// without the dash (`a6a7`, `sa6ma1`) split where a square's digits end.
fn typed_move(text: &str) -> String {
    let t = text.trim().to_lowercase();
    if t.contains('-') || t == "resign" || t == "accept-draw" {
        return t;
    }
    let bytes = t.as_bytes();
    let split =
        (1..bytes.len()).find(|&i| bytes[i - 1].is_ascii_digit() && bytes[i].is_ascii_alphabetic());
    match split {
        Some(i) => format!("{}-{}", &t[..i], &t[i..]),
        None => t,
    }
}

pub fn make_move(dir: &Path, seat: &str, key_path: &Path, request: MoveRequest) -> Result<Report> {
    let MoveRequest {
        action,
        offer_draw,
        comment,
        check,
        replace,
    } = request;
    let dir = GameDir::new(dir);
    let _lock = dir.lock()?;
    let (game, _, key) = seat_and_key(&dir, seat, key_path)?;
    let record = load_record(&dir, &game)?;
    if record
        .lines
        .iter()
        .any(|l| matches!(l.entry, Entry::End { .. }))
    {
        return Err(refuse("record.jsonl", None, "the game is over"));
    }
    if !record
        .lines
        .iter()
        .any(|l| matches!(l.entry, Entry::Begin { .. }))
    {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "play has not begun",
            "wait until the judge has every seat's setup",
        ));
    }
    let ply = record.last_move_ply() + 1;
    if comment.as_deref().is_some_and(crate::judge::has_control) {
        return Err(Error::Io(
            "--comment: no control or bidirectional-override characters".into(),
        ));
    }
    let head = record.head_or(&game.hash);
    let typed = typed_move(action);
    let action = typed.as_str();
    if action != "resign" && action != "accept-draw" {
        crate::rules::luzhanqi::Move::parse(action, game.board)
            .map_err(|e| refuse("move", None, e.to_string()))?;
    }
    if check && action != "resign" && action != "accept-draw" {
        check_on_own_view(&dir, &game, seat, key_path, action, &head)?;
    }
    let mv = crate::player::NewMove {
        ply,
        answers: &head,
        action,
        offer_draw,
        comment,
        chain: None,
        replace,
    };
    let path = crate::player::write_move(&dir, &game.manifest.id, &game.hash, seat, &key, mv)?;
    Ok(Report::line(format!("wrote {path} and its signature")))
}

/// Refuses what the player can tell is wrong from its own view: a move out of turn, on a stale
/// view, or illegal where the pieces stand (the ranks of others play no part in legality).
fn check_on_own_view(
    dir: &GameDir,
    game: &judge::Game,
    seat: &str,
    key_path: &Path,
    action: &str,
    head: &str,
) -> Result<()> {
    let mv = crate::rules::luzhanqi::Move::parse(action, game.board)
        .map_err(|e| Error::Io(format!("move: {e}")))?;
    // A copy of the game without the seat's view (a player's mail copy), or with a view older
    // than the record, tells the player nothing to check against: the judge decides.
    let published = if game.manifest.sealed {
        dir.exists(&judge::sealing::sealed_view_path(seat))
    } else {
        dir.exists(&format!("views/{seat}.json"))
    };
    if !published {
        return Ok(());
    }
    let (view, index) = super::own_view(dir, game, seat, Some(key_path))?;
    if view.record_head != head {
        return Ok(());
    }
    super::seat_to_move(&view, seat)?;
    let position = judge::precheck::position_from_view(
        game,
        &view,
        crate::rules::luzhanqi::Seat(index as u8),
    )?;
    position.check_move(mv).map_err(|e| {
        refuse(
            "move",
            None,
            format!("{action}: {e} (checked on your view; --no-check writes it anyway)"),
        )
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn moves_are_read_as_players_type_them() {
        for (typed, read) in [
            ("a6-a7", "a6-a7"),
            ("A6-A7", "a6-a7"),
            ("a6a7", "a6-a7"),
            (" A10a11 ", "a10-a11"),
            ("sa6ma1", "sa6-ma1"),
            ("SA6-MA1", "sa6-ma1"),
            ("Resign", "resign"),
            ("ACCEPT-DRAW", "accept-draw"),
            ("a6", "a6"),
        ] {
            assert_eq!(super::typed_move(typed), read, "{typed}");
        }
    }
}
