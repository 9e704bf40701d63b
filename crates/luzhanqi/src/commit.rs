//! A Luzhanqi player's setup: salted, committed, signed, and the secret kept for the judge
//! (or sealed to it). Used by `setup` and by the bot match runner, so both write the same bytes.

use crate::referee::Game;
use luzhanqi_rules::Setup;
use qijudge_game::player::{key_for_sealing, random32, signed};
use qijudge_protocol::commitment::{lot_commitment, setup_commitment};
use qijudge_protocol::error::{Error, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::signing::namespace;
use qijudge_protocol::signing::Sign;
use qijudge_store::GameDir;

/// Salts a validated setup with 32 random bytes, commits to it and to a fresh lot nonce, signs
/// the commitment, and writes `commitments/SEAT.toml` (+ `.sig`) and the secret
/// `setups/SEAT.toml`.
pub fn commit_setup(
    dir: &GameDir,
    game: &Game,
    seat: &str,
    key: &(impl Sign + ?Sized),
    setup: &Setup,
) -> Result<()> {
    let commitment_path = format!("commitments/{seat}.toml");
    if dir.exists(&commitment_path) {
        return Err(Error::Io(format!(
            "{commitment_path}: already exists; a seat commits once"
        )));
    }
    let (text, secret_text) = setup_files(game, seat, setup);
    if game.manifest.sealed {
        // Sealed to the judge (and to the seat itself, so it can reveal): safe to publish.
        let owner = key_for_sealing(key)?;
        qijudge_judge::sealing::write_sealed_secret(
            dir,
            seat,
            &secret_text,
            owner,
            &game.judge_key,
        )?;
    } else {
        dir.write_private(&format!("setups/{seat}.toml"), secret_text.as_bytes())?;
    }
    dir.write(
        &format!("{commitment_path}.sig"),
        signed(key, namespace::COMMITMENT, text.as_bytes())?.as_bytes(),
    )?;
    dir.write(&commitment_path, text.as_bytes())
}

/// A validated setup salted with 32 fresh random bytes and committed, with a fresh lot nonce:
/// the commitment file (public) and the secret setup file (for the judge), as TOML.
pub fn setup_files(game: &Game, seat: &str, setup: &Setup) -> (String, String) {
    let (salt, nonce) = (random32(), random32());
    let canonical = setup.canonical_bytes(game.board);
    let id = &game.manifest.id;
    let secret = SetupFile {
        format: SETUP_FORMAT.into(),
        game: id.clone(),
        manifest: game.hash.clone(),
        seat: seat.into(),
        salt: hex::encode(salt),
        lot_nonce: hex::encode(nonce),
        setup: String::from_utf8_lossy(&canonical).into_owned(),
    };
    let commitment = CommitmentFile {
        format: COMMITMENT_FORMAT.into(),
        game: id.clone(),
        manifest: game.hash.clone(),
        seat: seat.into(),
        setup: setup_commitment(id, seat, &salt, &canonical),
        lot: lot_commitment(id, seat, &nonce),
    };
    (to_toml(&commitment), to_toml(&secret))
}
