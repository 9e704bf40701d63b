//! `setup`: a seat's secret before play — chosen (a Luzhanqi setup, from a file or drawn at
//! random) or drawn (a Jieqi shuffle nonce, a Liubo chain seed) — its signed commitment
//! (published), and the secret itself, sealed to the judge or written in clear for the player to
//! hand over.

use super::{open, Definition};
use crate::report::Report;
use crate::SetupSource;
use qijudge_judge::pipeline::Framed;
use qijudge_protocol::error::{Error, Result};
use qijudge_protocol::signing::namespace;
use rand_core::{OsRng, RngCore};
use std::path::Path;

pub fn run<D: Definition>(
    dir: &Path,
    seat: &str,
    key: &Path,
    source: SetupSource,
    seal: bool,
) -> Result<Report> {
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
    let i = crate::seat_of_key(&g.frame(), seat, &key)?;
    if seal && !D::sealed(&g) {
        return Err(Error::Io(format!(
            "--seal: this game's judge reads {}s in clear (game.toml has no `sealed = true`); \
             hand setups/SEAT.toml over privately",
            D::SECRET_WORD
        )));
    }
    let commitment_path = format!("commitments/{seat}.toml");
    if d.exists(&commitment_path) {
        return Err(Error::Io(format!(
            "{commitment_path}: already exists; a seat commits once"
        )));
    }
    let (commitment, secret, told) = match D::SETUP_CHOSEN {
        true => D::chosen_secret(&d, &g, i, source)?,
        false => {
            let mut random = [0u8; 32];
            OsRng.fill_bytes(&mut random);
            let (commitment, secret) = D::draw_secret(&g, i, random)?;
            (commitment, secret, Vec::new())
        }
    };
    let word = D::SECRET_WORD;
    let secret_line = if D::sealed(&g) {
        let owner = crate::player::key_for_sealing(&key)?;
        qijudge_judge::sealing::write_sealed_secret(&d, seat, &secret, owner, g.frame().judge_key)?;
        format!(
            "wrote {}: your {word} sealed to the judge (and to you); publish it once the record lists every commitment",
            qijudge_judge::sealed_setup_path(seat)
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
    let mut report = Report::default();
    report.out.extend(told);
    report.say(format!(
        "wrote {commitment_path} and its signature: publish them"
    ));
    report.say(secret_line);
    Ok(report)
}
