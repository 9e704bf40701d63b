//! Player commands: keygen, setup, move.

use super::read_arg;
use crate::error::{refuse, refuse_with, Error, Result};
use crate::judge::{load_game, load_record};
use crate::protocol::files::*;
use crate::protocol::signing;
use crate::rules::luzhanqi::{Placement, Setup};
use crate::store::{write_atomic, GameDir, SMALL_FILE_LIMIT};
use std::path::Path;

pub fn keygen(name: &Path) -> Result<()> {
    let public = name.with_extension(match name.extension() {
        Some(e) => format!("{}.pub", e.to_string_lossy()),
        None => "pub".into(),
    });
    for p in [name, public.as_path()] {
        if p.exists() {
            return Err(Error::Io(format!(
                "{}: already exists; qijudge never overwrites a key",
                p.display()
            )));
        }
    }
    let comment = name
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let key = signing::generate(&comment);
    crate::store::write_private(name, signing::private_key_pem(&key).as_bytes())?;
    let line = key
        .public_key()
        .to_openssh()
        .map_err(|e| Error::Io(e.to_string()))?;
    write_atomic(&public, format!("{line}\n").as_bytes())?;
    say!(
        "wrote {} (private, keep it) and {} (public)",
        name.display(),
        public.display()
    );
    Ok(())
}

/// Loads a private key file given with --key.
pub fn load_private_key(path: &Path) -> Result<ssh_key::PrivateKey> {
    let shown = path.display().to_string();
    let text = read_arg(path, SMALL_FILE_LIMIT)?;
    signing::parse_private_key(&text).map_err(|e| refuse(&shown, None, e.to_string()))
}

/// Finds a seat and checks that the key is that seat's key.
fn seat_and_key(
    dir: &GameDir,
    seat: &str,
    key_path: &Path,
) -> Result<(crate::judge::Game, usize, ssh_key::PrivateKey)> {
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
    let key = load_private_key(key_path)?;
    if key.public_key().key_data() != game.player_keys[i].key_data() {
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
    setup_path: Option<&Path>,
    seal: bool,
) -> Result<()> {
    if super::liubo::is_liubo(dir) {
        let key = load_private_key(key_path)?;
        return super::liubo::commit(dir, seat, &key);
    }
    let setup_path = setup_path
        .ok_or_else(|| Error::Io("give the setup file (TOML; - for standard input)".into()))?;
    let dir = GameDir::new(dir);
    let (game, i, key) = seat_and_key(&dir, seat, key_path)?;
    if seal && !game.manifest.sealed {
        return Err(Error::Io(
            "--seal: this game's judge reads setups in clear (game.toml has no `sealed = true`); \
             hand setups/SEAT.toml over privately"
                .into(),
        ));
    }
    let shown = setup_path.display().to_string();
    let text = read_arg(setup_path, SMALL_FILE_LIMIT)?;
    let board = game.board;
    let seat_id = crate::rules::luzhanqi::Seat(i as u8);
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
    say!("wrote {commitment_path} and its signature: publish them");
    if game.manifest.sealed {
        say!(
            "wrote {}: your setup sealed to the judge (and to you); publish it only after the record lists every commitment",
            crate::judge::sealed_setup_path(seat)
        );
    } else {
        say!("wrote setups/{seat}.toml: your secret; hand it to the judge only after both commitments are recorded");
    }
    Ok(())
}

pub fn make_move(
    dir: &Path,
    seat: &str,
    key_path: &Path,
    action: &str,
    offer_draw: bool,
    comment: Option<String>,
) -> Result<()> {
    if super::xiangqi::is_xiangqi(dir) {
        let key = load_private_key(key_path)?;
        return super::xiangqi::make_move(dir, seat, &key, action, offer_draw, comment);
    }
    if super::liubo::is_liubo(dir) {
        let key = load_private_key(key_path)?;
        return super::liubo::make_move(dir, seat, &key, action, comment);
    }
    let dir = GameDir::new(dir);
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
            "wait until the judge has both setups",
        ));
    }
    let last_ply = record
        .lines
        .iter()
        .filter_map(|l| match l.entry {
            Entry::Move { ply, .. } => Some(ply),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let ply = last_ply + 1;
    if action != "resign" && action != "accept-draw" {
        crate::rules::luzhanqi::Move::parse(action, game.board)
            .map_err(|e| Error::Io(format!("move: {e}")))?;
    }
    if comment.as_deref().is_some_and(crate::judge::has_control) {
        return Err(Error::Io(
            "--comment: no control or bidirectional-override characters".into(),
        ));
    }
    let head = record.head_or(&game.hash);
    let mv = crate::player::NewMove {
        ply,
        answers: &head,
        action,
        offer_draw,
        comment,
        chain: None,
    };
    let path = crate::player::write_move(&dir, &game.manifest.id, &game.hash, seat, &key, mv)?;
    say!("wrote {path} and its signature");
    Ok(())
}
