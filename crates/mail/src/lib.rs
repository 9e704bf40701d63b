//! Play by e-mail: files out of incoming messages (`inbox`), views into outgoing ones
//! (`outbox`). The game directory stays the only state; a message can be processed again.

#[macro_use]
extern crate qijudge_game;

pub mod bundle;
pub mod club;
pub mod command;
pub mod digest;
pub mod inbox;
pub mod outbox;
pub mod route;

use qijudge_judge::Outputs;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::signing::{self, namespace};
use qijudge_store::GameDir;

/// Files for one `GameDir::commit`: each path with its new bytes.
type Writes = Outputs;

pub use qijudge_registry::seats::{seats, Seats};

/// Where a found file belongs, and what its signature must be made for.
struct Placed {
    path: String,
    seat: String,
    namespace: Option<&'static str>,
    secret: bool,
}

use qijudge_protocol::files::field_of as field;

fn place(text: &str, shown: &str) -> Result<Placed> {
    let format = field(text, "format").unwrap_or_default();
    let seat = field(text, "seat")
        .filter(|s| s.chars().all(|c| c.is_ascii_lowercase()) && !s.is_empty() && s.len() <= 16)
        .ok_or_else(|| refuse(shown, Some("seat"), "missing or not a seat name"))?;
    // Only a kind declared in the protocol's table is read.
    let kinds = &qijudge_protocol::kinds::KINDS;
    if format == "qijudge/conditional/1" {
        return Err(refuse_with(
            shown,
            Some("format"),
            "conditional answers of format 1 showed their plans and are no longer taken",
            "write them again with this version's qijudge move --if (format 2) and send the \
             conditional file, its .sig and its plans",
        ));
    }
    let kind = qijudge_protocol::kinds::by_format(&format).ok_or_else(|| {
        let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
        refuse(
            shown,
            Some("format"),
            format!("not a file players send ({})", names.join(", ")),
        )
    })?;
    let ply: u32 = match kind.binds.contains(&qijudge_protocol::kinds::Bound::Ply) {
        true => field(text, "ply")
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| refuse(shown, Some("ply"), "missing or not a number"))?,
        false => 0,
    };
    let (path, namespace, secret) = (kind.path(&seat, ply), kind.namespace(), kind.secret());
    Ok(Placed {
        path,
        seat,
        namespace,
        secret,
    })
}

/// A conditional file replaces the one the judge holds for its seat and ply only when its
/// version is newer: an older or repeated one (a withdrawn plan mailed again, or two versions
/// arriving out of order) is refused, whatever the order of arrival.
fn newer_conditional(dir: &GameDir, path: &str, bytes: &[u8], shown: &str) -> Result<()> {
    let Some(held) = dir.read_optional(path, qijudge_store::SMALL_FILE_LIMIT)? else {
        return Ok(());
    };
    if held.as_bytes() == bytes {
        return Ok(());
    }
    let seq = |text: &str| parse_toml::<ConditionalFile>(text).map(|f| f.seq).ok();
    let new = std::str::from_utf8(bytes).ok().and_then(seq);
    match (seq(&held), new) {
        (Some(held), Some(new)) if new > held => Ok(()),
        (held, new) => Err(refuse_with(
            shown,
            Some("seq"),
            format!(
                "{path} is version {}, not newer than version {} the judge holds: an older \
                 conditional file never comes back",
                new.map_or("?".into(), |n| n.to_string()),
                held.map_or("?".into(), |n| n.to_string()),
            ),
            "write your conditional answers again with qijudge move --if (it numbers the new \
             version) and send that",
        )),
    }
}

/// Plans (`text`, for `path`) are taken only beside the signed conditional file they belong
/// to, in the same message or already held, and only if every line matches its commitment: a
/// stranger's plans never replace a seat's. What is wrong is not quoted (it is a seat's plan).
fn check_plans(
    dir: &GameDir,
    path: &str,
    text: &str,
    found: &[inbox::Found],
    shown: &str,
) -> Result<()> {
    let statement = path
        .strip_prefix("plans/")
        .map(|name| format!("conditional/{name}"))
        .unwrap_or_default();
    // The signed file beside it in the message, else the one the judge holds.
    let signed = match found
        .iter()
        .find(|f| place(&f.text, shown).is_ok_and(|p| p.path == statement))
    {
        Some(f) => Some(f.text.clone()),
        None => dir.read_optional(&statement, qijudge_store::SMALL_FILE_LIMIT)?,
    };
    let refused = |why: String| {
        refuse_with(
            shown,
            Some("lines"),
            format!("{path} {why}"),
            "send the plans qijudge move --if wrote, with the conditional file and its .sig",
        )
    };
    let signed = signed
        .and_then(|t| parse_toml::<ConditionalFile>(&t).ok())
        .ok_or_else(|| refused(format!("comes without {statement}")))?;
    qijudge_judge::conditional::check_plans(&signed, text)
        .map(|_| ())
        .map_err(|(field, _)| {
            refused(format!(
                "does not match {statement} (field {})",
                field.unwrap_or("format")
            ))
        })
}

/// Whether the record names the conditional file `path` as one the judge played from.
fn fired(dir: &GameDir, path: &str) -> bool {
    let Ok(Some(record)) = dir.read_optional("record.jsonl", qijudge_store::RECORD_LIMIT) else {
        return false;
    };
    let found = qijudge_judge::conditional::fired_paths(&record).any(|p| p == path);
    found
}

/// The seat that signed a file of a message, if one did: the only sender the judge may answer
/// (a From header proves nothing).
pub fn signed_sender(dir: &GameDir, found: &[inbox::Found]) -> Option<usize> {
    let seats = seats(dir).ok()?;
    found.iter().find_map(|f| {
        let p = place(&f.text, "").ok()?;
        let index = seats.names.iter().position(|s| *s == p.seat)?;
        let sig = f.signature.as_deref()?;
        signing::verify(&seats.keys[index], p.namespace?, f.text.as_bytes(), sig)
            .is_ok()
            .then_some(index)
    })
}

/// Whether a found file is one the judge writes (its record or a view), not a player's.
fn is_judges(f: &inbox::Found) -> bool {
    f.text.starts_with("{\"seq\":0,") || f.text.starts_with("{\n  \"format\": \"qijudge/")
}

/// Puts the files of one message into the game directory: each signed by the key of the seat
/// it names (setups are checked against their commitment by the judge), none replacing a
/// different file, at most one per path. Returns the paths written (or already there).
///
/// On a player's copy (`copy`), the judge's files come in too: its record (signed by this game's
/// judge, extending the one here), the views of the current record head (signed by the judge),
/// and a finished game's bundle. On the judge's own folder they are ignored: the judge writes
/// its own.
pub fn import(
    dir: &GameDir,
    message: &inbox::Extracted,
    shown: &str,
    copy: bool,
) -> Result<Vec<String>> {
    let seats = seats(dir)?;
    let (judges, found): (Vec<&inbox::Found>, Vec<&inbox::Found>) =
        message.files.iter().partition(|f| is_judges(f));
    let found: Vec<inbox::Found> = found.into_iter().cloned().collect();
    let mut taken = Vec::new();
    if copy {
        // A daily digest carries several games' bundles: each copy takes its own.
        let several = message.archives.len() > 1;
        for archive in &message.archives {
            match import_bundle(dir, &seats, archive, shown) {
                Ok(files) => taken.extend(files),
                Err(qijudge_protocol::error::Error::Refused(r))
                    if several && r.reason.starts_with("holds another game") => {}
                Err(e) => return Err(e),
            }
        }
        let (records, views): (Vec<&inbox::Found>, Vec<&inbox::Found>) = judges
            .into_iter()
            .partition(|f| f.text.starts_with("{\"seq\":0,"));
        for r in records {
            if let Some(path) = import_record(dir, &seats, r, shown)? {
                taken.push(path);
            }
        }
        for v in views {
            if let Some(path) = import_view(dir, &seats, v, shown)? {
                taken.push(path);
            }
        }
    }
    // Two different files for one place: refused before anything else.
    let mut places: Vec<(String, &str)> = Vec::new();
    for f in &found {
        let p = place(&f.text, shown)?;
        if let Some((_, earlier)) = places.iter().find(|(path, _)| *path == p.path) {
            if *earlier != f.text {
                return Err(refuse(
                    shown,
                    None,
                    format!(
                        "holds two different files for {}: send one move per message",
                        p.path
                    ),
                ));
            }
        }
        places.push((p.path, &f.text));
    }
    let mut files: Vec<(String, Vec<u8>, bool)> = Vec::new();
    for f in &found {
        let p = place(&f.text, shown)?;
        // A file of another game (a player's key used in two games) is not this game's, even
        // signed: taken, it would stand in the way of this game's own files.
        let game = field(&f.text, "game");
        let manifest = field(&f.text, "manifest");
        if game.as_deref() != Some(seats.id.as_str()) || manifest.as_deref() != Some(&seats.hash) {
            return Err(refuse_with(
                shown,
                Some("game"),
                format!(
                    "{} belongs to another game ({}), not {}",
                    p.path,
                    game.as_deref().unwrap_or("none named"),
                    seats.id
                ),
                "send each game's files to that game",
            ));
        }
        let Some(index) = seats.names.iter().position(|s| *s == p.seat) else {
            return Err(refuse(
                shown,
                Some("seat"),
                format!("no seat {:?} in this game", p.seat),
            ));
        };
        if let Some(ns) = p.namespace {
            let sig = f.signature.as_deref().ok_or_else(|| {
                refuse_with(
                    shown,
                    Some("signature"),
                    format!("{} comes without its signature", p.path),
                    "send the .sig file with it (attached, or pasted below the file)",
                )
            })?;
            // The sender is whoever signed, never the From header.
            if signing::verify(&seats.keys[index], ns, f.text.as_bytes(), sig).is_err() {
                return Err(refuse_with(
                    shown,
                    Some("signature"),
                    format!("{} is not signed by {}'s key", p.path, p.seat),
                    "sign with the key named for your seat in game.toml",
                ));
            }
            files.push((format!("{}.sig", p.path), sig.as_bytes().to_vec(), false));
        }
        if let Some((_, earlier, _)) = files.iter().find(|(path, _, _)| *path == p.path) {
            if earlier != f.text.as_bytes() {
                return Err(refuse(
                    shown,
                    None,
                    format!(
                        "holds two different files for {}: send one move per message",
                        p.path
                    ),
                ));
            }
            continue;
        }
        if p.path.starts_with(qijudge_judge::conditional::PLANS_FOLDER) {
            // Plans come unsigned: the conditional file the seat signed commits to each line.
            check_plans(dir, &p.path, &f.text, &found, shown)?;
        } else if p.secret {
            // Setups come unsigned: only the commitment the seat signed says whose they are.
            check_secret(dir, &seats, index, &f.text, &found, shown)?;
        }
        files.push((p.path, f.text.as_bytes().to_vec(), p.secret));
    }
    // Never replace what is there: an accepted file stays as it was. A seat's conditional
    // answers are replaced by its newer ones until they fire (the judge then refuses a
    // replacement for a ply already played).
    for (path, bytes, _) in &files {
        if path.starts_with("conditional/") && path.ends_with(".toml") {
            newer_conditional(dir, path, bytes, shown)?;
        }
        if (path.starts_with("conditional/") || path.starts_with("plans/")) && !fired(dir, path) {
            continue;
        }
        if let Ok(existing) = std::fs::read(dir.path(path)) {
            if existing != *bytes {
                return Err(refuse(
                    shown,
                    None,
                    format!("{path} exists with other content; a sent file is never replaced"),
                ));
            }
        }
    }
    for (path, bytes, secret) in &files {
        if *secret {
            dir.write_private(path, bytes)?;
        }
    }
    let public: Writes = files
        .iter()
        .filter(|(_, _, secret)| !secret)
        .map(|(p, b, _)| (p.clone(), Some(b.clone())))
        .collect();
    dir.commit(&public)?;
    taken.extend(
        files
            .into_iter()
            .filter(|(p, _, _)| !p.ends_with(".sig"))
            .map(|(p, _, _)| p),
    );
    Ok(taken)
}

/// The judge's record from its mail: signed by the game's judge, chained from this manifest, and
/// extending the record already here (an older one changes nothing).
fn import_record(
    dir: &GameDir,
    seats: &Seats,
    found: &inbox::Found,
    shown: &str,
) -> Result<Option<String>> {
    let Some(writes) = check_record(dir, seats, found, shown)? else {
        return Ok(None);
    };
    dir.commit(&writes)?;
    Ok(Some("record.jsonl".to_string()))
}

/// The writes that take a record from the judge's mail in (None: nothing new), after the
/// checks of [`import_record`]; nothing is written.
fn check_record(
    dir: &GameDir,
    seats: &Seats,
    found: &inbox::Found,
    shown: &str,
) -> Result<Option<Writes>> {
    let sig = found.signature.as_deref().ok_or_else(|| {
        refuse(
            shown,
            Some("record.sig"),
            "the record comes without the judge's signature",
        )
    })?;
    signing::verify(&seats.judge, namespace::RECORD, found.text.as_bytes(), sig).map_err(|_| {
        refuse(
            shown,
            Some("record.sig"),
            "the record is not signed by this game's judge",
        )
    })?;
    let manifest = dir.read("game.toml", qijudge_store::SMALL_FILE_LIMIT)?;
    let genesis = qijudge_rules::hash::sha256_tagged(manifest.as_bytes());
    qijudge_protocol::record::Record::parse(&found.text, &genesis).map_err(|(line, e)| {
        refuse(
            shown,
            Some("record.jsonl"),
            format!("line {line}: {}", e.reason),
        )
    })?;
    let here = dir
        .read_optional("record.jsonl", qijudge_store::RECORD_LIMIT)?
        .unwrap_or_default();
    if here.starts_with(&found.text) {
        return Ok(None);
    }
    if !found.text.starts_with(&here) {
        return Err(refuse(
            shown,
            Some("record.jsonl"),
            "does not extend the record here: another game's, or a forked record",
        ));
    }
    Ok(Some(vec![
        ("record.sig".to_string(), Some(sig.as_bytes().to_vec())),
        (
            "record.jsonl".to_string(),
            Some(found.text.as_bytes().to_vec()),
        ),
    ]))
}

/// The head of the record in a game folder (the manifest's hash before the first line).
fn record_head(dir: &GameDir) -> Result<String> {
    let manifest = dir.read("game.toml", qijudge_store::SMALL_FILE_LIMIT)?;
    let genesis = qijudge_rules::hash::sha256_tagged(manifest.as_bytes());
    let here = dir
        .read_optional("record.jsonl", qijudge_store::RECORD_LIMIT)?
        .unwrap_or_default();
    let record = qijudge_protocol::record::Record::parse(&here, &genesis)
        .map_err(|(line, e)| refuse("record.jsonl", None, format!("line {line}: {}", e.reason)))?;
    Ok(record.head_or(&genesis))
}

/// A view from the judge's mail, for a player's copy: signed by this game's judge and made for
/// the record here now (an older view, from a message read late, changes nothing).
fn import_view(
    dir: &GameDir,
    seats: &Seats,
    found: &inbox::Found,
    shown: &str,
) -> Result<Option<String>> {
    let view: serde_json::Value = serde_json::from_str(&found.text)
        .map_err(|_| refuse(shown, Some("view"), "not a JSON view"))?;
    let audience = view
        .get("audience")
        .and_then(|a| a.as_str())
        .filter(|a| !a.is_empty() && a.len() <= 16 && a.bytes().all(|b| b.is_ascii_lowercase()))
        .ok_or_else(|| refuse(shown, Some("audience"), "missing or not an audience"))?;
    let path = format!("views/{audience}.json");
    let sig = found.signature.as_deref().ok_or_else(|| {
        refuse(
            shown,
            Some("view"),
            format!("{path} comes without the judge's signature"),
        )
    })?;
    if signing::verify(&seats.judge, namespace::VIEW, found.text.as_bytes(), sig).is_err() {
        return Err(refuse(
            shown,
            Some("view"),
            format!("{path} is not signed by this game's judge"),
        ));
    }
    if view.get("record_head").and_then(|h| h.as_str()) != Some(record_head(dir)?.as_str()) {
        return Ok(None);
    }
    if dir
        .read_optional(&path, qijudge_store::RECORD_LIMIT)?
        .as_deref()
        == Some(found.text.as_str())
    {
        return Ok(None);
    }
    dir.commit(&[
        (path.clone(), Some(found.text.as_bytes().to_vec())),
        (format!("{path}.sig"), Some(sig.as_bytes().to_vec())),
    ])?;
    Ok(Some(path))
}

/// A finished game's bundle, for a player's copy: the same manifest; the record signed by the
/// judge and extending the one here; moves and commitments each signed by the seat they name;
/// revealed setups that open their seat's signed commitment; views signed by the judge (taken
/// when the bundle's record is the one here). Files already here are never replaced, except
/// the judge's views.
fn import_bundle(dir: &GameDir, seats: &Seats, bytes: &[u8], shown: &str) -> Result<Vec<String>> {
    let field = Some("game.tar.gz");
    let files = bundle::unpack(bytes, qijudge_store::RECORD_LIMIT)
        .map_err(|why| refuse(shown, field, why))?;
    let get = |path: &str| {
        files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
    };
    let manifest = dir.read("game.toml", qijudge_store::SMALL_FILE_LIMIT)?;
    if get("game.toml").as_deref() != Some(manifest.as_str()) {
        return Err(refuse(
            shown,
            field,
            "holds another game (its game.toml differs)",
        ));
    }
    // Everything is checked before anything is written: the record goes in with the files.
    let mut taken = Vec::new();
    let mut public: Writes = Vec::new();
    let record = get("record.jsonl");
    if let Some(text) = record.clone() {
        let found = inbox::Found {
            text,
            signature: get("record.sig"),
        };
        if let Some(writes) = check_record(dir, seats, &found, shown)? {
            public.extend(writes);
            taken.push("record.jsonl".to_string());
        }
    }
    // Views are taken when they are of the record the copy will hold.
    let current = public.iter().any(|(p, _)| p == "record.jsonl")
        || dir.read_optional("record.jsonl", qijudge_store::RECORD_LIMIT)? == record;
    // The seats' commitments in the bundle, for opening the revealed setups.
    let commitments: Vec<inbox::Found> = files
        .iter()
        .filter(|(p, _)| p.starts_with("commitments/") && p.ends_with(".toml"))
        .map(|(p, b)| inbox::Found {
            text: String::from_utf8_lossy(b).into_owned(),
            signature: get(&format!("{p}.sig")),
        })
        .collect();
    let mut reveals: Vec<(String, String)> = Vec::new();
    for (path, bytes) in &files {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Err(refuse(shown, field, format!("{path}: not UTF-8 text")));
        };
        let sig_path = format!("{path}.sig");
        let bad = |why: String| refuse(shown, field, format!("{path}: {why}"));
        if ["game.toml", "record.jsonl", "record.sig"].contains(&path.as_str())
            || path.ends_with(".sig")
        {
            continue;
        }
        if let Some(seat) = path
            .strip_prefix("reveal/")
            .and_then(|n| n.strip_suffix(".toml"))
        {
            let index = seats
                .names
                .iter()
                .position(|s| s == seat)
                .ok_or_else(|| bad("no such seat".into()))?;
            check_secret(dir, seats, index, text, &commitments, shown)?;
            reveals.push((path.clone(), text.to_string()));
            continue;
        }
        let sig = get(&sig_path).ok_or_else(|| bad("comes without its signature".into()))?;
        if path.starts_with("views/") {
            if !current {
                continue;
            }
            if signing::verify(&seats.judge, namespace::VIEW, bytes, &sig).is_err() {
                return Err(bad("not signed by this game's judge".into()));
            }
        } else {
            let p = place(text, shown)?;
            if p.path != *path {
                return Err(bad(format!("holds the file for {}", p.path)));
            }
            let index = seats
                .names
                .iter()
                .position(|s| *s == p.seat)
                .ok_or_else(|| bad("no such seat".into()))?;
            let ns = p.namespace.ok_or_else(|| bad("not a signed file".into()))?;
            if signing::verify(&seats.keys[index], ns, bytes, &sig).is_err() {
                return Err(bad(format!("not signed by {}'s key", p.seat)));
            }
            // The judge's bundle holds the conditional file it played from, which replaces
            // one the copy wrote and the judge never had.
            let replaceable = path.starts_with("conditional/");
            for (rel, content) in [(path.as_str(), text), (sig_path.as_str(), sig.as_str())] {
                if replaceable {
                    continue;
                }
                if let Some(existing) = dir.read_optional(rel, qijudge_store::RECORD_LIMIT)? {
                    if existing != content {
                        return Err(bad(format!(
                            "{rel} exists with other content; a sent file is never replaced"
                        )));
                    }
                }
            }
        }
        public.push((path.clone(), Some(bytes.clone())));
        public.push((sig_path, Some(sig.into_bytes())));
        taken.push(path.clone());
    }
    for (path, text) in &reveals {
        if let Some(existing) = dir.read_optional(path, qijudge_store::SMALL_FILE_LIMIT)? {
            if existing != *text {
                return Err(refuse(
                    shown,
                    field,
                    format!("{path} exists with other content; a sent file is never replaced"),
                ));
            }
        }
    }
    dir.commit(&public)?;
    for (path, text) in reveals {
        dir.write(&path, text.as_bytes())?;
        taken.push(path);
    }
    Ok(taken)
}

/// A seat's signed commitment: sent in the same message, or already in the game directory.
fn signed_commitment(
    dir: &GameDir,
    seats: &Seats,
    seat: usize,
    found: &[inbox::Found],
) -> Result<Option<String>> {
    let name = &seats.names[seat];
    let signed_by_seat = |text: &str, sig: &str| {
        signing::verify(
            &seats.keys[seat],
            namespace::COMMITMENT,
            text.as_bytes(),
            sig,
        )
        .is_ok()
    };
    for f in found {
        let is_commitment = matches!(
            field(&f.text, "format").as_deref(),
            Some(COMMITMENT_FORMAT | CHAIN_COMMITMENT_FORMAT | NONCE_COMMITMENT_FORMAT)
        );
        if is_commitment
            && field(&f.text, "seat").as_deref() == Some(name.as_str())
            && f.signature
                .as_deref()
                .is_some_and(|sig| signed_by_seat(&f.text, sig))
        {
            return Ok(Some(f.text.clone()));
        }
    }
    let path = format!("commitments/{name}.toml");
    let (Some(text), Some(sig)) = (
        dir.read_optional(&path, qijudge_store::SMALL_FILE_LIMIT)?,
        dir.read_optional(&format!("{path}.sig"), qijudge_store::SIGNATURE_LIMIT)?,
    ) else {
        return Ok(None);
    };
    Ok(signed_by_seat(&text, &sig).then_some(text))
}

/// Stores a secret (a setup, a chain seed, a nonce: the game says how each opens) only if it
/// opens the seat's signed commitment: a stranger's file never takes a seat's place.
fn check_secret(
    dir: &GameDir,
    seats: &Seats,
    seat: usize,
    text: &str,
    found: &[inbox::Found],
    shown: &str,
) -> Result<()> {
    let name = &seats.names[seat];
    let wrong = |why: &str| {
        refuse_with(
            shown,
            Some("setup"),
            format!("the secret for {name} {why}"),
            "send the file `qijudge setup` wrote, with or after your signed commitment",
        )
    };
    let commitment = signed_commitment(dir, seats, seat, found)?
        .ok_or_else(|| wrong("comes before its seat's signed commitment"))?;
    let game = qijudge_registry::of_dir(&dir.root)?;
    let opens = game
        .secret_opens(seat, name, text, &commitment)
        .map_err(wrong)?;
    if opens {
        Ok(())
    } else {
        Err(wrong("does not open the seat's signed commitment"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_placed_by_the_table_of_kinds_and_old_conditionals_are_refused_with_a_hint() {
        let placed = place(
            "format = \"qijudge/plans/1\"\nseat = \"red\"\nply = 2\n",
            "m.eml",
        )
        .unwrap();
        assert_eq!(placed.path, "plans/0002-red.toml");
        assert!(placed.secret && placed.namespace.is_none());
        let placed = place(
            "format = \"qijudge/conditional/2\"\nseat = \"red\"\nply = 2\n",
            "m.eml",
        )
        .unwrap();
        assert_eq!(placed.path, "conditional/0002-red.toml");
        assert_eq!(placed.namespace, Some(namespace::CONDITIONAL));
        let old = place(
            "format = \"qijudge/conditional/1\"\nseat = \"red\"\nply = 2\n",
            "m.eml",
        )
        .err()
        .unwrap()
        .to_string();
        assert!(old.contains("format 2"), "{old}");
        let unknown = place("format = \"qijudge/other/1\"\nseat = \"red\"\n", "m.eml")
            .err()
            .unwrap()
            .to_string();
        assert!(unknown.contains("conditional, plans"), "{unknown}");
    }
}
