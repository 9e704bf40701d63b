//! `setup` of a game whose secret is drawn, not chosen (a Jieqi shuffle nonce, a Liubo chain
//! seed): fresh random bytes, the signed commitment to them (published), and the secret itself,
//! sealed to the judge or written in clear for the player to hand over.

use super::{open, Definition};
use crate::error::{Error, Result};
use crate::games::report::Report;
use crate::judge::pipeline::Referee;
use crate::protocol::signing::namespace;
use rand_core::{OsRng, RngCore};
use std::path::Path;

pub fn run<D: Definition>(dir: &Path, seat: &str, key: &Path) -> Result<Report> {
    if !D::SECRETS {
        // Refused before any key is read: there is nothing to sign.
        return Err(Error::Io(format!(
            "{} has no secret setup: both players start from the position in game.toml",
            D::TITLE
        )));
    }
    let key = crate::console::load_signer(key)?;
    let (d, g) = open::<D>(dir)?;
    let _lock = d.lock()?;
    let i = crate::games::seat_of_key(&g.frame(), seat, &key)?;
    let commitment_path = format!("commitments/{seat}.toml");
    if d.exists(&commitment_path) {
        return Err(Error::Io(format!(
            "{commitment_path}: already exists; a seat commits once"
        )));
    }
    let mut random = [0u8; 32];
    OsRng.fill_bytes(&mut random);
    let (commitment, secret) = D::draw_secret(&g, i, random)?;
    let word = D::SECRET_WORD;
    let secret_line = if D::sealed(&g) {
        let owner = crate::player::key_for_sealing(&key)?;
        crate::judge::sealing::write_sealed_secret(&d, seat, &secret, owner, g.frame().judge_key)?;
        format!(
            "wrote {}: your {word} sealed to the judge (and to you); publish it once the record lists every commitment",
            crate::judge::sealed_setup_path(seat)
        )
    } else {
        d.write_private(&format!("setups/{seat}.toml"), secret.as_bytes())?;
        format!(
            "wrote setups/{seat}.toml: your {word}; {}",
            D::secret_hint(&g)
        )
    };
    d.write(
        &format!("{commitment_path}.sig"),
        crate::player::signed(&key, namespace::COMMITMENT, commitment.as_bytes())?.as_bytes(),
    )?;
    d.write(&commitment_path, commitment.as_bytes())?;
    Ok(Report::lines([
        format!("wrote {commitment_path} and its signature: publish them"),
        secret_line,
    ]))
}
