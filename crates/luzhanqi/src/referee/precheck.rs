//! A player's check of a move before it is committed (a pre-commit hook): everything the judge
//! checks that does not need the judge's secrets. The signature and every binding field against
//! the judge's signed record and public view; with the player's key, the move's legality against
//! the player's own view (a seat's moves depend only on its own pieces and on where the others
//! stand, which the view shows).

use super::{load_record, read_sealed_view, read_signed_view, Game};
use crate::view::ViewFile;
use luzhanqi_rules::nodeset::Wide;
use luzhanqi_rules::{Move, Piece, Position, Seat, Unit};
use qijudge_judge::precheck_files::precheck_moves;
use qijudge_judge::Frame;
use qijudge_protocol::error::{refuse, Result};
use qijudge_store::GameDir;
use ssh_key::PrivateKey;

/// Checks every move file beyond the record; returns one line per file checked.
pub fn precheck(dir: &GameDir, game: &Game, key: Option<&PrivateKey>) -> Result<Vec<String>> {
    let record = load_record(dir, game)?;
    let head = record.head_or(&game.hash);
    let last = record.last_move_ply();
    let seats: Vec<&str> = game
        .manifest
        .players
        .iter()
        .map(|p| p.seat.as_str())
        .collect();
    let frame = Frame {
        id: &game.manifest.id,
        hash: &game.hash,
        judge_key: &game.judge_key,
        seats: &seats,
        player_keys: &game.player_keys,
    };
    // The seat to move, from the judge's signed public view of this very record.
    let to_move = || -> Result<Option<String>> {
        let public = read_signed_view(dir, game, "public")?
            .ok_or_else(|| refuse("views/public.json", None, "missing: the judge has not run"))?
            .0;
        if public.record_head != head {
            return Err(refuse(
                "views/public.json",
                Some("record_head"),
                "is not the view of the current record",
            ));
        }
        Ok(public.to_move)
    };
    precheck_moves(dir, &frame, last + 1, &head, to_move, |path, i, file| {
        let Some(key) = key.filter(|k| k.public_key().key_data() == game.player_keys[i].key_data())
        else {
            return Ok(String::new());
        };
        let seat = seats[i];
        let own = if game.manifest.sealed {
            read_sealed_view(dir, game, seat, key)?.0
        } else {
            read_signed_view(dir, game, seat)?
                .ok_or_else(|| refuse(format!("views/{seat}.json"), None, "missing"))?
                .0
        };
        check_legal(game, &own, Seat(i as u8), path, &file.action)?;
        Ok(", legal on your view".into())
    })
}

/// Checks a move on a position rebuilt from the mover's own view.
fn check_legal(game: &Game, view: &ViewFile, seat: Seat, path: &str, action: &str) -> Result<()> {
    if action == "resign" || action == "accept-draw" {
        return Ok(());
    }
    let pos = position_from_view(game, view, seat)?;
    let mv =
        Move::parse(action, game.board).map_err(|e| refuse(path, Some("move"), e.to_string()))?;
    pos.check_move(mv)
        .map_err(|e| refuse(path, Some("move"), e.to_string()))
}

/// The position a seat can rebuild from its own view, with that seat to move: its own pieces
/// with their ranks, every other piece as an obstacle of unknown rank. A seat's legal moves
/// depend only on its own pieces and on where the others stand, so they are exactly the legal
/// moves of this position.
pub fn position_from_view(game: &Game, view: &ViewFile, seat: Seat) -> Result<Position<Wide>> {
    let board = game.board;
    let mut pos = Position::empty(board, game.manifest.rules.clone());
    for p in &view.pieces {
        let (Some(sq), Some(owner)) = (
            board.square(&p.square),
            game.manifest.players.iter().position(|s| s.seat == p.seat),
        ) else {
            return Err(refuse(
                format!("views/{}.json", view.audience),
                Some("pieces"),
                "unknown square or seat",
            ));
        };
        // Any movable rank stands for an unknown piece: only its place and owner matter.
        let piece = match p.piece {
            Some(piece) if owner == seat.index() => piece,
            _ => Piece::Captain,
        };
        if pos.at(sq).is_none() {
            pos.put(
                sq,
                Unit {
                    seat: Seat(owner as u8),
                    piece,
                },
            );
        }
    }
    pos.set_to_move(seat);
    Ok(pos)
}
