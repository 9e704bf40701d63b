//! Players' signed files (moves, commitments): read within their size limit, the seat's
//! signature checked, and bound to their place (game, manifest, ply, seat, record head).

use super::frame::Frame;
use super::text::has_control;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::signing::{self, namespace};
use qijudge_rules::hash::sha256_tagged;
use qijudge_store::{GameDir, SIGNATURE_LIMIT, SMALL_FILE_LIMIT};
use serde::de::DeserializeOwned;

/// A signed player file, read and checked against the seat's key, with its SHA-256.
pub fn read_signed<T: DeserializeOwned + serde::Serialize>(
    dir: &GameDir,
    f: &Frame,
    path: &str,
    seat: usize,
    ns: &str,
) -> Result<(T, String)> {
    let text = read_signed_text(dir, f, path, seat, ns)?;
    let file: T = parse_toml(&text).map_err(|e| refuse(path, e.field.as_deref(), e.reason))?;
    Ok((file, sha256_tagged(text.as_bytes())))
}

/// A seat's signed move file, as [`read_signed`] reads it but through the move file's own
/// canonical reader (the judge reads one per recorded ply at every run).
pub fn read_signed_move(
    dir: &GameDir,
    f: &Frame,
    path: &str,
    seat: usize,
) -> Result<(MoveFile, String)> {
    let text = read_signed_text(dir, f, path, seat, namespace::MOVE)?;
    let file = MoveFile::parse(&text).map_err(|e| refuse(path, e.field.as_deref(), e.reason))?;
    Ok((file, sha256_tagged(text.as_bytes())))
}

/// The text of a signed player file whose signature by the seat's key holds.
fn read_signed_text(dir: &GameDir, f: &Frame, path: &str, seat: usize, ns: &str) -> Result<String> {
    let text = dir.read(path, SMALL_FILE_LIMIT)?;
    if signing::is_trusted(&f.player_keys[seat], ns, text.as_bytes()) {
        return Ok(text);
    }
    let sig_path = format!("{path}.sig");
    let sig = dir
        .read_optional(&sig_path, SIGNATURE_LIMIT)?
        .ok_or_else(|| {
            refuse(
                &sig_path,
                None,
                "missing: every player file needs its signature",
            )
        })?;
    signing::verify(&f.player_keys[seat], ns, text.as_bytes(), &sig).map_err(|e| {
        // The seat's own signature over other bytes: the file was edited after signing.
        let hint = match e {
            signing::SignatureError::Invalid => format!(
                "{path} was changed after {} signed it (or the .sig is another file's): write \
                 it again with qijudge, which signs what it writes",
                f.seats[seat]
            ),
            _ => format!(
                "the file must be signed by {}'s key from game.toml",
                f.seats[seat]
            ),
        };
        refuse_with(&sig_path, None, e.to_string(), hint)
    })?;
    Ok(text)
}

/// A seat's signed commitment file (`commitments/<seat>.toml`), when there: its signature and
/// its opening fields (`[format, game, manifest, seat]`, as `fields` reads them) checked.
/// Returns the file, its hash and its path.
pub fn read_commitment<T: DeserializeOwned + serde::Serialize>(
    dir: &GameDir,
    f: &Frame,
    seat: usize,
    format: &str,
    fields: impl Fn(&T) -> [&str; 4],
) -> Result<Option<(T, String, String)>> {
    let path = format!("commitments/{}.toml", f.seats[seat]);
    if !dir.exists(&path) {
        return Ok(None);
    }
    let (c, hash): (T, String) = read_signed(dir, f, &path, seat, namespace::COMMITMENT)?;
    let [said_format, game, manifest, said_seat] = fields(&c);
    let bad = |field: &str, reason: String| refuse(&path, Some(field), reason);
    if said_format != format {
        return Err(bad("format", format!("expected {format:?}")));
    }
    if game != f.id {
        return Err(bad("game", "belongs to another game".into()));
    }
    if manifest != f.hash {
        return Err(bad(
            "manifest",
            "was made for another version of game.toml".into(),
        ));
    }
    if said_seat != f.seats[seat] {
        return Err(bad("seat", format!("expected {}", f.seats[seat])));
    }
    Ok(Some((c, hash, path)))
}

/// Checks what binds a move file to its place: format, game, manifest, ply, seat, the record
/// head it answers, and a clean comment.
pub fn check_binding(
    f: &Frame,
    path: &str,
    m: &MoveFile,
    ply: u32,
    seat: usize,
    heads: &[String],
) -> Result<()> {
    let bad = |field: &str, reason: String| refuse(path, Some(field), reason);
    if m.format != MOVE_FORMAT {
        return Err(bad("format", format!("expected {MOVE_FORMAT:?}")));
    }
    if m.game != f.id {
        return Err(bad("game", "belongs to another game".into()));
    }
    if m.manifest != f.hash {
        return Err(bad(
            "manifest",
            "was made for another version of game.toml".into(),
        ));
    }
    if m.ply != ply {
        return Err(bad(
            "ply",
            format!("says {}, but the file is for ply {ply}", m.ply),
        ));
    }
    if m.seat != f.seats[seat] {
        return Err(bad(
            "seat",
            format!("says {:?}, but the file is {}'s", m.seat, f.seats[seat]),
        ));
    }
    if !heads.contains(&m.answers) {
        return Err(refuse_with(
            path,
            Some("answers"),
            "does not answer the current record head (the move was made on a stale record)",
            "fetch the latest record.jsonl and make the move again",
        ));
    }
    if m.comment
        .as_deref()
        .is_some_and(|c| has_control(c) || c.chars().count() > COMMENT_LIMIT)
    {
        return Err(bad(
            "comment",
            format!("at most {COMMENT_LIMIT} characters, no control or bidirectional-override characters"),
        ));
    }
    Ok(())
}

/// The longest comment a move may carry: every accepted file must fit in a padded sealed view.
pub const COMMENT_LIMIT: usize = 1000;

/// Refuses the Liubo-only chain fields in a game that has no hash chains (the fields would
/// otherwise ride along into views, unchecked).
pub fn no_chain_fields(path: &str, m: &MoveFile) -> Result<()> {
    let field = match (&m.chain, m.chain_index) {
        (Some(_), _) => "chain",
        (None, Some(_)) => "chain_index",
        (None, None) => return Ok(()),
    };
    Err(refuse_with(
        path,
        Some(field),
        "this game has no hash chains: its moves carry no chain elements",
        "make the move again without the field",
    ))
}
