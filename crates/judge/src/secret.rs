//! A seat's secret (a Luzhanqi setup, a Jieqi nonce, a Liubo chain seed) and the one rule for
//! where it is read:
//! - the judge (`Mode::Judge`) reads it sealed to its key (`sealed/SEAT.age`, a sealed game
//!   judged with `--key`), else in the clear from `setups/SEAT.toml`, or from `reveal/SEAT.toml`
//!   once published;
//! - an audit (`Mode::Audit`, what `verify` does for anyone) reads only what was published,
//!   `reveal/SEAT.toml`: a secret the judge keeps in `setups/` is not evidence.
//!
//! And the one rule for the end: a finished game whose secrets the judge held verifies only once
//! they are revealed, since until then nothing shows the judge used them honestly.

use super::context::{Ctx, Mode};
use super::frame::Frame;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::files::Entry;
use qijudge_store::SMALL_FILE_LIMIT;

/// Where a seat's published secret lives.
pub fn revealed_path(seat: &str) -> String {
    format!("reveal/{seat}.toml")
}

/// Seat `seat`'s secret file as the rule above finds it: (the path it was read from, its
/// text); none when it is not there (yet). `sealed` is the manifest's.
pub fn read(cx: &Ctx, f: &Frame, sealed: bool, seat: usize) -> Result<Option<(String, String)>> {
    let (seat, signer) = (f.seats[seat], &f.player_keys[seat]);
    if let (Mode::Judge, true, Some(key)) = (cx.mode, sealed, cx.key) {
        let path = super::sealed_setup_path(seat);
        if cx.dir.exists(&path) {
            let text = super::sealing::open_seat_secret(cx.dir, seat, key, signer)?;
            return Ok(Some((path, text)));
        }
    }
    let places = match cx.mode {
        Mode::Judge => vec![format!("setups/{seat}.toml"), revealed_path(seat)],
        Mode::Audit => vec![revealed_path(seat)],
    };
    for path in places {
        if let Some(text) = cx.dir.read_optional(&path, SMALL_FILE_LIMIT)? {
            return Ok(Some((path, text)));
        }
    }
    Ok(None)
}

/// Seat `seat`'s secret of 32 bytes (a Jieqi nonce, a Liubo chain seed) where [`read`] finds
/// it, checked: the file's `format`, that it belongs to this game, manifest and seat, and 64 hex
/// digits in `field`. `parts` gives the file's format, game, manifest, seat and value.
pub fn read_32<T: serde::de::DeserializeOwned + serde::Serialize>(
    cx: &Ctx,
    f: &Frame,
    sealed: bool,
    seat: usize,
    (format, field): (&str, &str),
    parts: impl Fn(&T) -> [&str; 5],
) -> Result<Option<(String, [u8; 32])>> {
    let Some((path, text)) = read(cx, f, sealed, seat)? else {
        return Ok(None);
    };
    let file: T = qijudge_protocol::files::parse_toml(&text)
        .map_err(|e| refuse(&path, e.field.as_deref(), e.reason))?;
    let [found, game, manifest, named, value] = parts(&file);
    let bad = |field: &str, reason: &str| refuse(&path, Some(field), reason);
    if found != format {
        return Err(bad("format", &format!("expected {format}")));
    }
    if game != f.id || manifest != f.hash {
        return Err(bad("game", "belongs to another game or manifest"));
    }
    if named != f.seats[seat] {
        return Err(bad("seat", "names another seat"));
    }
    let bytes = qijudge_rules::hash::hex32(value)
        .ok_or_else(|| bad(field, "expected 64 lowercase hex digits"))?;
    Ok(Some((path, bytes)))
}

/// The commit step: seat `seat`'s signed commitment file, read and checked (`format` and the
/// binding fields `fields` gives, then `take`, which keeps what was committed to), as the record
/// line that says it arrived; none while it has not.
pub fn take_commitment<C: serde::de::DeserializeOwned + serde::Serialize>(
    cx: &Ctx,
    f: &Frame,
    seat: usize,
    format: &str,
    fields: impl Fn(&C) -> [&str; 4],
    take: impl FnOnce(&C, &str) -> Result<()>,
) -> Result<Option<Vec<Entry>>> {
    let read = super::player_files::read_commitment(cx.dir, f, seat, format, fields)?;
    let Some((c, hash, path)) = read else {
        return Ok(None);
    };
    take(&c, &path)?;
    Ok(Some(vec![Entry::Commitment {
        seat: f.seats[seat].into(),
        file: hash,
    }]))
}

/// The hand-over step: seat `seat`'s 32-byte secret where [`read_32`] finds it, checked against
/// its commitment by `take` (which keeps it), as the record line that accepts it. An audit
/// before the reveal has no secret: the record's word is taken, and what the secret decided is
/// checked once it is revealed.
pub fn take_secret_32<T: serde::de::DeserializeOwned + serde::Serialize>(
    cx: &Ctx,
    f: &Frame,
    sealed: bool,
    seat: usize,
    (format, field): (&str, &str),
    parts: impl Fn(&T) -> [&str; 5],
    take: impl FnOnce(&str, [u8; 32]) -> Result<()>,
) -> Result<Option<Vec<Entry>>> {
    let name = f.seats[seat];
    let accepted = || Some(vec![Entry::SetupAccepted { seat: name.into() }]);
    match read_32(cx, f, sealed, seat, (format, field), parts)? {
        Some((path, secret)) => {
            take(&path, secret)?;
            Ok(accepted())
        }
        None if matches!(cx.recorded(), Some(Entry::SetupAccepted { seat: s }) if s == name) => {
            Ok(accepted())
        }
        None => Ok(None),
    }
}

/// Refuses the audit of a finished game while a secret the judge held is unpublished.
pub fn require_revealed(dir: &qijudge_store::GameDir, seats: &[&str], what: &str) -> Result<()> {
    for seat in seats {
        let path = revealed_path(seat);
        if !dir.exists(&path) {
            return Err(refuse_with(
                &path,
                None,
                format!(
                    "missing: the game is over but the {what} are not revealed, so the judge's \
                     use of them cannot be checked"
                ),
                "after the game the judge publishes them with `qijudge reveal GAME` (a sealed \
                 game's with the judge's key, `--key JUDGE_KEY`)",
            ));
        }
    }
    Ok(())
}
