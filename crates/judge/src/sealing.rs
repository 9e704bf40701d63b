//! Sealed files of a game played in public: secrets sealed to the judge, seat views sealed to
//! their seat. Every sealed file holds signed files (sign, then encrypt) and is padded to a size
//! that depends only on public facts.

use super::frame::Frame;
use super::frame::Outputs;
use qijudge_protocol::error::{refuse, refuse_with, Error, Result};
use qijudge_protocol::seal::{self, Sealed};
use qijudge_protocol::signing::{self, namespace};
use qijudge_store::{GameDir, SEALED_LIMIT};
use ssh_key::{PrivateKey, PublicKey};

/// After the end: each seat's secret into `reveal/<seat>.toml`, from `setups/` in an open game
/// or opened with `key` from `sealed/` in a sealed one (the judge's key opens every seat's, a
/// seat's key its own). `what` names the secrets in messages ("seeds", "nonces").
pub fn publish_secrets(
    dir: &GameDir,
    f: &Frame,
    sealed: bool,
    key: Option<&PrivateKey>,
    what: &str,
) -> Result<Vec<String>> {
    let mut written = Vec::new();
    for (i, seat) in f.seats.iter().enumerate() {
        let from = format!("setups/{seat}.toml");
        let text = match key {
            Some(key) if sealed => {
                match reveal_sealed_secret(dir, seat, key, &f.player_keys[i], f.judge_key)? {
                    Some(text) => text,
                    None => continue,
                }
            }
            _ if sealed => {
                return Err(Error::Io(format!(
                    "--key: the {what} of a sealed game are opened with the judge's key or a seat's own"
                )))
            }
            _ => match dir.read_optional(&from, qijudge_store::SMALL_FILE_LIMIT)? {
                Some(text) => text,
                // Published before (a finished game whose setups were moved out, as a shipped
                // sample's are): `verify` checks it against the commitment like any reveal.
                None if dir
                    .read_optional(&format!("reveal/{seat}.toml"), qijudge_store::SMALL_FILE_LIMIT)?
                    .is_some() =>
                {
                    written.push(format!("reveal/{seat}.toml was published before"));
                    continue;
                }
                None => return Err(refuse(from, None, "missing")),
            },
        };
        dir.write(&format!("reveal/{seat}.toml"), text.as_bytes())?;
        written.push(format!("published {from} as reveal/{seat}.toml"));
    }
    if written.is_empty() {
        return Err(refuse(
            "sealed/",
            None,
            format!("this key opens none of the sealed {what}"),
        ));
    }
    Ok(written)
}

/// Where a seat's sealed setup lives.
pub fn sealed_setup_path(seat: &str) -> String {
    format!("sealed/{seat}.age")
}

/// Where a seat's sealed view lives.
pub fn sealed_view_path(audience: &str) -> String {
    format!("views/{audience}.age")
}

/// Where a seat's sealed refusal notice lives.
pub fn sealed_refusal_path(seat: &str) -> String {
    format!("views/{seat}.refusal.age")
}

/// The path a seat's secret has inside its sealed file.
fn secret_inner(seat: &str) -> String {
    format!("setups/{seat}.toml")
}

/// Writes a seat's secret (setup or seed) signed by its owner and sealed to the judge and to
/// the owner, at the fixed secret size, as `sealed/<seat>.age`, with the owner's signature of
/// the envelope beside it (`.sig`); returns the envelope's path.
pub fn write_sealed_secret(
    dir: &GameDir,
    seat: &str,
    text: &str,
    owner: &PrivateKey,
    judge: &PublicKey,
) -> Result<String> {
    let inner = secret_inner(seat);
    let sig = signing::sign(owner, namespace::SEALED, text.as_bytes());
    let files = [
        Sealed {
            path: inner.clone(),
            bytes: text.as_bytes().to_vec(),
        },
        Sealed {
            path: format!("{inner}.sig"),
            bytes: sig.into_bytes(),
        },
    ];
    let path = sealed_setup_path(seat);
    let sealed = seal::seal(&files, seal::SECRET_SIZE, &[judge, owner.public_key()])
        .map_err(|e| Error::Io(format!("{path}: {e}")))?;
    let outer = signing::sign(owner, namespace::SEALED_FILE, &sealed);
    // The signature first: an envelope never stands without it.
    dir.write(&format!("{path}.sig"), outer.as_bytes())?;
    dir.write(&path, &sealed)?;
    Ok(path)
}

/// Reads and opens a seat's sealed secret (`sealed/<seat>.age`) with `key`, checking it was
/// signed by `signer` (the seat).
pub fn open_seat_secret(
    dir: &GameDir,
    seat: &str,
    key: &PrivateKey,
    signer: &PublicKey,
) -> Result<String> {
    let path = sealed_setup_path(seat);
    let bytes = dir.read_bytes(&path, qijudge_store::SMALL_FILE_LIMIT)?;
    open_sealed_secret(&path, &bytes, key, &secret_inner(seat), signer)
}

/// [`open_seat_secret`] for a reveal: the judge's key opens every seat's secret; a seat's key
/// opens its own and gives none for the others (which are not sealed to it).
pub fn reveal_sealed_secret(
    dir: &GameDir,
    seat: &str,
    key: &PrivateKey,
    signer: &PublicKey,
    judge: &PublicKey,
) -> Result<Option<String>> {
    match open_seat_secret(dir, seat, key, signer) {
        Ok(text) => Ok(Some(text)),
        Err(_) if key.public_key().key_data() != judge.key_data() && signer != key.public_key() => {
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Opens a sealed secret: exactly `inner` and `inner.sig`, signed by `signer`, at the fixed
/// size. Errors name the sealed file (`shown`) and never quote its content.
fn open_sealed_secret(
    shown: &str,
    bytes: &[u8],
    key: &PrivateKey,
    inner: &str,
    signer: &PublicKey,
) -> Result<String> {
    let files = seal::open(bytes, key, Some(seal::SECRET_SIZE)).map_err(|e| {
        refuse_with(
            shown,
            None,
            e.to_string(),
            "seal it with qijudge setup --seal (to the judge's key in game.toml)",
        )
    })?;
    let (file, sig) = match files.as_slice() {
        [file, sig] if file.path == inner && sig.path == format!("{inner}.sig") => (file, sig),
        _ => {
            return Err(refuse(
                shown,
                None,
                format!("must hold exactly {inner} and {inner}.sig"),
            ))
        }
    };
    let text = String::from_utf8(file.bytes.clone())
        .map_err(|_| refuse(shown, Some(inner), "not UTF-8 text"))?;
    let sig_text = String::from_utf8(sig.bytes.clone())
        .map_err(|_| refuse(shown, Some(&format!("{inner}.sig")), "not UTF-8 text"))?;
    signing::verify(signer, namespace::SEALED, text.as_bytes(), &sig_text)
        .map_err(|e| refuse(shown, Some(&format!("{inner}.sig")), e.to_string()))?;
    Ok(text)
}

/// Opens a sealed view with the seat's key: the files inside, by path.
pub fn open_view(shown: &str, bytes: &[u8], key: &PrivateKey) -> Result<Vec<(String, String)>> {
    let files = seal::open(bytes, key, None).map_err(|e| {
        refuse_with(
            shown,
            None,
            e.to_string(),
            "give the private key of the seat this view is for",
        )
    })?;
    files
        .into_iter()
        .map(|f| {
            let body = String::from_utf8(f.bytes)
                .map_err(|_| refuse(shown, Some(&f.path), "not UTF-8 text"))?;
            Ok((f.path, body))
        })
        .collect()
}

/// Where the judge's signed statement about a sealed output lives.
pub fn tag_path(path: &str) -> String {
    format!("{path}.tag")
}

/// The judge's private tag of a sealed output: HMAC-SHA-256 of its game (the manifest's hash),
/// path and plaintext under a key derived from the judge's private key. Only the judge can compute it, so publishing it says
/// nothing about the plaintext, and the judge can tell whether a sealed file it wrote still says
/// what it would say now without opening it.
fn output_tag(judge: &PrivateKey, game: &str, path: &str, plain: &[u8]) -> Result<String> {
    use hmac::Mac;
    let ed = judge
        .key_data()
        .ed25519()
        .ok_or_else(|| Error::Io("the judge's key must be Ed25519".into()))?;
    let mut key = [0u8; 32];
    hkdf::Hkdf::<sha2::Sha256>::new(Some(b"qijudge"), &ed.private.to_bytes())
        .expand(b"sealed-output tag v2", &mut key)
        .map_err(|e| Error::Io(format!("tag key: {e}")))?;
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(&key)
        .map_err(|e| Error::Io(format!("tag key: {e}")))?;
    for part in [game.as_bytes(), path.as_bytes()] {
        mac.update(part);
        mac.update(&[0]);
    }
    mac.update(plain);
    Ok(hex::encode(mac.finalize().into_bytes()))
}

/// The statement the judge signs for a sealed output: its game (the manifest's hash), its path,
/// the digest of its bytes, its tag. A statement of one game never vouches for a file in another.
fn tag_statement(game: &str, path: &str, sealed: &[u8], tag: &str) -> String {
    format!(
        "qijudge sealed output v2\ngame {game}\npath {path}\nsealed {}\ntag {tag}\n",
        qijudge_rules::hash::sha256_tagged(sealed)
    )
}

/// The tag of the sealed file at `path` with bytes `sealed`, if its tag file is a statement the
/// judge signed about exactly these bytes; none for anything the judge did not write.
pub fn judges_tag(
    dir: &GameDir,
    game: &str,
    path: &str,
    sealed: &[u8],
    judge: &PublicKey,
) -> Option<String> {
    let text = dir
        .read(&tag_path(path), qijudge_store::SIGNATURE_LIMIT)
        .ok()?;
    let at = text.find("-----BEGIN SSH SIGNATURE-----")?;
    let (statement, sig) = text.split_at(at);
    let tag = statement.lines().find_map(|l| l.strip_prefix("tag "))?;
    let valid = statement == tag_statement(game, path, sealed, tag)
        && signing::verify(judge, namespace::SEALED_OUTPUT, statement.as_bytes(), sig).is_ok();
    valid.then(|| tag.to_string())
}

/// Whether the sealed file at `path` and its tag file are as the judge wrote them.
pub fn written_by_judge(dir: &GameDir, game: &str, path: &str, judge: &PublicKey) -> bool {
    dir.read_bytes(path, SEALED_LIMIT)
        .is_ok_and(|bytes| judges_tag(dir, game, path, &bytes, judge).is_some())
}

/// Encrypts `plain` to `recipients` and signs a statement about it (`path.tag`). When `path`
/// already holds a sealed file whose tag file the judge signed with the same tag, both are kept,
/// so judging twice changes nothing; the decision never opens a file found in the folder (anyone
/// may put one there).
fn seal_stable(
    dir: &GameDir,
    game: &str,
    path: &str,
    plain: &[u8],
    recipients: &[&PublicKey],
    judge: &PrivateKey,
) -> Result<Outputs> {
    let tag = output_tag(judge, game, path, plain)?;
    let old = dir.read_bytes(path, SEALED_LIMIT).ok();
    let sealed = match old {
        Some(old)
            if judges_tag(dir, game, path, &old, judge.public_key()).as_ref() == Some(&tag) =>
        {
            old
        }
        _ => seal::encrypt(plain, recipients).map_err(|e| Error::Io(format!("{path}: {e}")))?,
    };
    let statement = tag_statement(game, path, &sealed, &tag);
    let sig = signing::sign(judge, namespace::SEALED_OUTPUT, statement.as_bytes());
    Ok(vec![
        (path.to_string(), Some(sealed)),
        (
            tag_path(path),
            Some(format!("{statement}{sig}").into_bytes()),
        ),
    ])
}

/// The judge's outputs of a sealed game: each seat's view files (JSON and text with their
/// signatures) become one `views/<seat>.age`, sealed to the seat and the judge and padded to a
/// size fixed by the public view. Everything else is published as it is.
pub fn seal_outputs(
    dir: &GameDir,
    game: &Frame,
    judge: &PrivateKey,
    files: Vec<(String, String)>,
) -> Result<Outputs> {
    let public_len: usize = files
        .iter()
        .filter(|(p, _)| p.starts_with("views/public."))
        .map(|(_, b)| b.len())
        .sum();
    let size = seal::view_size(public_len);
    let mut out = Vec::new();
    let mut per_seat: Vec<Vec<(String, String)>> = vec![Vec::new(); game.seats.len()];
    for (path, body) in files {
        let seat = game
            .seats
            .iter()
            .position(|s| path.starts_with(&format!("views/{s}.")));
        match seat {
            Some(i) => per_seat[i].push((path, body)),
            None => out.push((path, Some(body.into_bytes()))),
        }
    }
    for (i, seat) in game.seats.iter().enumerate() {
        let recipients = [&game.player_keys[i], judge.public_key()];
        let path = sealed_view_path(seat);
        let sealed: Vec<Sealed> = per_seat[i]
            .iter()
            .map(|(path, body)| Sealed {
                path: path.clone(),
                bytes: body.as_bytes().to_vec(),
            })
            .collect();
        // Too large for its padded size: refuse to publish rather than leak by size.
        let plain = seal::pack(&sealed, size).map_err(|e| Error::Io(format!("{path}: {e}")))?;
        out.extend(seal_stable(
            dir,
            game.hash,
            &path,
            &plain,
            &recipients,
            judge,
        )?);
    }
    Ok(out)
}

/// Seat `seat`'s refusal notice saying `text`, sealed to the seat and the judge at the fixed
/// secret size, with its tag file (both kept byte for byte when the text is the same).
pub fn seal_refusal(
    dir: &GameDir,
    game: &Frame,
    judge: &PrivateKey,
    seat: usize,
    text: &str,
) -> Result<Outputs> {
    let name = game.seats[seat];
    let path = sealed_refusal_path(name);
    let recipients = [&game.player_keys[seat], judge.public_key()];
    let plain = refusal_envelope(name, text).map_err(|e| Error::Io(format!("{path}: {e}")))?;
    seal_stable(dir, game.hash, &path, &plain, &recipients, judge)
}

/// The envelope of a refusal notice: the text, cut (at a character boundary) to fit the fixed
/// secret size.
fn refusal_envelope(seat: &str, text: &str) -> std::result::Result<Vec<u8>, seal::SealError> {
    let text: String = text.chars().take(seal::SECRET_SIZE / 8).collect();
    seal::pack(
        &[Sealed {
            path: format!("views/{seat}.refusal.txt"),
            bytes: format!("{text}\n").into_bytes(),
        }],
        seal::SECRET_SIZE,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusal_notices_fit_their_size_whatever_the_text() {
        for text in ["short", &"將".repeat(5000), &"x".repeat(20_000)] {
            let plain = refusal_envelope("south", text).unwrap();
            assert_eq!(plain.len(), seal::SECRET_SIZE);
            let files = seal::unpack(&plain).unwrap();
            let body = String::from_utf8(files[0].bytes.clone()).unwrap();
            assert!(text.starts_with(body.trim_end()));
        }
    }
}
