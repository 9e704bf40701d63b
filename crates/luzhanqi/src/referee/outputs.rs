//! What the judge publishes: the signed record and one signed view per audience.

use crate::referee::*;
use crate::text;
use crate::view::{self, HistoryItem, SeatName, ViewFile};
use luzhanqi_rules::*;
use qijudge_judge::Outputs;
use qijudge_judge::*;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::signing::{self, namespace};
use qijudge_store::{GameDir, RECORD_LIMIT, SIGNATURE_LIMIT};
use ssh_key::PrivateKey;

/// The audiences that get a view: each seat and the public; everyone after the end.
pub fn viewers(game: &Game, replay: &Replay) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = game.board.seats().map(Viewer::Seat).collect();
    v.push(Viewer::Public);
    if replay.outcome.is_some() {
        v.push(Viewer::Full);
    }
    v
}

/// The players by seat, as views name them.
fn seat_names(game: &Game) -> Vec<SeatName> {
    game.manifest
        .players
        .iter()
        .map(|p| SeatName {
            seat: p.seat.clone(),
            name: p.name.clone(),
        })
        .collect()
}

/// The accepted moves of a record, as views list them.
fn history_items(record: &qijudge_protocol::record::Record) -> Vec<HistoryItem> {
    record
        .lines
        .iter()
        .filter_map(|l| match &l.entry {
            Entry::Move {
                ply,
                seat,
                action,
                outcome,
                notices,
                draw_offered,
                ..
            } => Some(HistoryItem {
                ply: *ply,
                seat: seat.clone(),
                action: action.clone(),
                outcome: *outcome,
                notices: notices.clone(),
                draw_offered: *draw_offered,
            }),
            _ => None,
        })
        .collect()
}

/// One audience's view before the first move and after every ply, folded from the events that
/// audience may see (the same fold as its published view), for the replay page. Comments come
/// from the move files, which are public.
pub fn views_by_ply(dir: &GameDir, game: &Game, replay: &Replay, viewer: Viewer) -> Vec<ViewFile> {
    let board = game.board;
    let history = history_items(&replay.record);
    let head = replay.record.head_or(&game.hash);
    let players = seat_names(game);
    // A view holds the history up to the item it follows: frame k shows the first k items
    // (board moves, and resignations, which on the four-player board do not end the game).
    let snapshot = |k: &Knowledge, played: usize| {
        let played = played.min(history.len());
        let comment_of = |h: &HistoryItem| {
            let text = dir
                .read_optional(&move_path(h.ply, &h.seat), RECORD_LIMIT)
                .ok()??;
            MoveFile::parse(&text).ok()?.comment
        };
        let shown = &history[..played];
        let comment = shown
            .iter()
            .rev()
            .find(|h| view::on_board(&h.action))
            .and_then(comment_of);
        let header = view::Header {
            game: &game.manifest.id,
            manifest: &game.hash,
            record_head: &head,
            players: players.clone(),
            history: shown.to_vec(),
            closing_comment: shown
                .last()
                .filter(|h| !view::on_board(&h.action))
                .and_then(comment_of),
        };
        view::build(board, k, &header, None, comment)
    };
    let mut k = Knowledge::for_game(viewer, board, &game.manifest.rules);
    let mut views = Vec::new();
    // Each board move and each resignation is an item of the history and a frame of its own:
    // the view before it is pushed as it starts.
    let mut items = 0;
    for e in &replay.events {
        let starts_item = match &e.fact {
            Fact::Moved { .. } | Fact::Resigned { .. } => true,
            // On the four-player board a resignation puts its seat out (a forfeit does too, but
            // a forfeit is the judge's line, not a signed move of the history).
            Fact::Eliminated { reason, .. } => *reason == EndReason::Resignation,
            _ => false,
        };
        if starts_item {
            views.push(snapshot(&k, items));
            items += 1;
        }
        k.observe_all(std::iter::once(e));
    }
    // At the end everything: an accepted draw or a last resignation after the last board move.
    views.push(snapshot(&k, history.len()));
    views
}

/// The comment of the last signed move when it was no move on the board (from its signed file,
/// public like the file).
fn closing_comment(replay: &Replay, history: &[HistoryItem]) -> Option<String> {
    let last = history.last().filter(|h| !view::on_board(&h.action))?;
    replay
        .last_moves
        .iter()
        .flatten()
        .filter_map(|f| MoveFile::parse(&f.file).ok())
        .find(|m| m.ply == last.ply && m.seat == last.seat)?
        .comment
}

/// Builds the JSON view of one audience.
pub fn build_view(game: &Game, replay: &Replay, viewer: Viewer) -> ViewFile {
    let board = game.board;
    let mut k = Knowledge::for_game(viewer, board, &game.manifest.rules);
    k.observe_all(&replay.events);
    let history = history_items(&replay.record);
    let header = view::Header {
        game: &game.manifest.id,
        manifest: &game.hash,
        record_head: &replay.record.head_or(&game.hash),
        players: seat_names(game),
        closing_comment: closing_comment(replay, &history),
        history,
    };
    // The signed file of the last move another player made, so the viewer can check it.
    let opponent = match viewer {
        Viewer::Seat(s) => replay
            .record
            .lines
            .iter()
            .rev()
            .find_map(|l| match &l.entry {
                Entry::Move { seat, .. } if *seat != board.seat_name(s) => board.seat(seat),
                _ => None,
            })
            .and_then(|other| replay.last_moves.get(other.index()).cloned().flatten()),
        _ => None,
    };
    // The last move's comment, from the mover's signed file (public, like the file itself).
    // (Only while that file is still its seat's last: a later resignation has its own line.)
    let comment = k.last_move.and_then(|m| {
        let file = replay.last_moves.get(m.seat.index())?.as_ref()?;
        let file = MoveFile::parse(&file.file).ok()?;
        view::on_board(&file.action).then_some(file.comment)?
    });
    view::build(board, &k, &header, opponent, comment)
}

/// The files the judge writes: record, record signature, and each view as JSON and text with
/// signatures. Paths relative to the game directory, in a fixed order.
pub fn outputs(game: &Game, replay: &Replay, key: &PrivateKey) -> Vec<(String, String)> {
    let record = replay.record.to_text();
    let mut files = vec![
        (
            "record.sig".to_string(),
            signing::sign(key, namespace::RECORD, record.as_bytes()),
        ),
        ("record.jsonl".to_string(), record),
    ];
    for viewer in viewers(game, replay) {
        let v = build_view(game, replay, viewer);
        let json = view::to_json(&v);
        let text = text::render(&v, text::Labels::Letters, game.manifest.sealed);
        let name = v.audience.clone();
        for (ext, body) in [("json", json), ("txt", text)] {
            files.push((
                format!("views/{name}.{ext}.sig"),
                signing::sign(key, namespace::VIEW, body.as_bytes()),
            ));
            files.push((format!("views/{name}.{ext}"), body));
        }
    }
    files
}

/// Reads a published view and checks the judge's signature on it; none when it is not there.
pub fn read_signed_view(
    dir: &GameDir,
    game: &Game,
    audience: &str,
) -> Result<Option<(ViewFile, String)>> {
    let path = format!("views/{audience}.json");
    let Some(text) = dir.read_optional(&path, RECORD_LIMIT)? else {
        return Ok(None);
    };
    let sig = dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT)?;
    let view = check_signed_view(game, audience, &path, &text, &sig)?;
    Ok(Some((view, text)))
}

/// Checks the judge's signature on a view's JSON (`path` names it in errors), parses it and
/// checks it is the view of this game for `audience`.
pub fn check_signed_view(
    game: &Game,
    audience: &str,
    path: &str,
    text: &str,
    sig: &str,
) -> Result<ViewFile> {
    signing::verify(&game.judge_key, namespace::VIEW, text.as_bytes(), sig).map_err(|e| {
        refuse_with(
            format!("{path}.sig"),
            None,
            e.to_string(),
            "this view was not signed by the game's judge, or was changed",
        )
    })?;
    let view: ViewFile =
        serde_json::from_str(text).map_err(|e| refuse(path, None, format!("not a view: {e}")))?;
    if view.manifest != game.hash {
        return Err(qijudge_judge::signed_record::manifest_changed(
            &view.manifest,
            &game.hash,
        ));
    }
    if view.game != game.manifest.id || view.audience != audience {
        return Err(refuse(
            path,
            Some("audience"),
            format!("is not {audience}'s view of this game"),
        ));
    }
    Ok(view)
}

/// Opens a seat's sealed view (`views/<seat>.age`) with that seat's key (or the judge's) and
/// checks the judge's signature inside.
pub fn read_sealed_view(
    dir: &GameDir,
    game: &Game,
    audience: &str,
    key: &PrivateKey,
) -> Result<(ViewFile, String)> {
    let path = qijudge_judge::sealing::sealed_view_path(audience);
    let bytes = dir.read_bytes(&path, qijudge_store::SEALED_LIMIT)?;
    let files = qijudge_judge::sealing::open_view(&path, &bytes, key)?;
    let inner = format!("views/{audience}.json");
    let find = |name: &str| {
        files
            .iter()
            .find(|(p, _)| p == name)
            .map(|(_, body)| body.as_str())
            .ok_or_else(|| refuse(&path, Some(name), "missing inside the sealed view"))
    };
    let text = find(&inner)?;
    let sig = find(&format!("{inner}.sig"))?;
    let view = check_signed_view(game, audience, &inner, text, sig)?;
    Ok((view, text.to_string()))
}

/// Everything a Luzhanqi judge run writes but the refusal notes: the record and views (sealed
/// to their seats in a sealed game) and a picture per clear view.
pub fn judge_outputs(
    game: &Game,
    dir: &GameDir,
    replay: &Replay,
    key: &PrivateKey,
) -> Result<Outputs> {
    let outputs = outputs(game, replay, key);
    let mut files: Outputs = if game.manifest.sealed {
        qijudge_judge::sealing::seal_outputs(
            dir,
            &qijudge_judge::pipeline::Framed::frame(game),
            key,
            outputs,
        )?
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
            if !qijudge_judge::pictures() {
                pictures.push((format!("views/{audience}.png"), None));
                pictures.push((format!("views/{audience}.svg"), None));
                continue;
            }
            let svg = crate::picture::luzhanqi(&v);
            let stem = format!("views/{audience}");
            let png = qijudge_judge::published::png_for(dir, key.public_key(), &stem, &svg);
            pictures.push((format!("{stem}.png"), Some(png)));
            pictures.push((format!("views/{audience}.svg"), Some(svg.into_bytes())));
        }
    }
    files.extend(pictures);
    Ok(files)
}
