//! The judge's signed record as every game's judge loads it: its signature and chain checked,
//! and refused if rolled back behind a view the judge signed.

use super::frame::Frame;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::record::Record;
use qijudge_protocol::signing::{self, namespace};
use qijudge_store::{GameDir, RECORD_LIMIT, SIGNATURE_LIMIT};

/// Loads the signed record (empty before the first judge run), refusing one that was rolled
/// back: the judge keeps no state besides its files, so every view it signed is its memory, and
/// the record must still hold the head of each (the newest signed head wins).
pub fn load_record(dir: &GameDir, f: &Frame) -> Result<Record> {
    let record = load_signed(dir, f)?;
    check_not_rolled_back(dir, f, record)
}

/// The signed record (empty before the first judge run), its signature and chain checked, but
/// not against the views: what standings need of a finished game, whose record a rollback
/// could only cut short of its result (and whose views they do not read).
pub fn load_signed(dir: &GameDir, f: &Frame) -> Result<Record> {
    let Some(text) = dir.read_optional("record.jsonl", RECORD_LIMIT)? else {
        if dir.exists("record.sig") {
            return Err(refuse(
                "record.jsonl",
                None,
                "missing, but record.sig exists",
            ));
        }
        return Ok(Record::new());
    };
    // The record's first line chains to the manifest it was started with: if that is not the
    // manifest now, game.toml was changed (checked before the signature, whose key game.toml
    // names).
    if let Some(started) = started_from(&text) {
        if started != f.hash {
            return Err(manifest_changed(&started, f.hash));
        }
    }
    let sig = dir.read("record.sig", SIGNATURE_LIMIT)?;
    signing::verify(f.judge_key, namespace::RECORD, text.as_bytes(), &sig).map_err(|e| {
        refuse_with(
            "record.sig",
            None,
            e.to_string(),
            "the record was not signed by this game's judge, or was changed",
        )
    })?;
    Record::parse(&text, f.hash).map_err(|(line, e)| {
        refuse(
            "record.jsonl",
            e.field.as_deref(),
            format!("line {line}: {}", e.reason),
        )
    })
}

/// The manifest hash a record's first line chains to, if it reads as a record line.
fn started_from(text: &str) -> Option<String> {
    let first: serde_json::Value = serde_json::from_str(text.lines().next()?).ok()?;
    (first["seq"] == 0).then(|| first["prev"].as_str().map(str::to_string))?
}

/// The refusal of a game whose `game.toml` is not the one its record or views were made for.
pub fn manifest_changed(made_for: &str, now: &str) -> qijudge_protocol::error::Error {
    refuse_with(
        "game.toml",
        None,
        format!(
            "changed since the game started: the judge's signed files were made for a manifest \
             hashing to {made_for}, and game.toml now hashes to {now}"
        ),
        "a game's manifest never changes once the game is made: restore the game.toml the game \
         began with (from git, or from the judge's mail)",
    )
}

fn check_not_rolled_back(dir: &GameDir, f: &Frame, record: Record) -> Result<Record> {
    for (view, head) in signed_heads(dir, f)? {
        if head != f.hash && !record.contains_head(&head) {
            return Err(refuse_with(
                "record.jsonl",
                None,
                format!(
                    "does not hold the record head of {view}, which the judge signed: the \
                     record was rolled back"
                ),
                "restore the latest record.jsonl and record.sig",
            ));
        }
    }
    Ok(record)
}

/// The record head of every JSON view in `views/` that this game's judge signed (views of
/// another game, unsigned or badly signed files say nothing and are skipped).
pub fn signed_heads(dir: &GameDir, f: &Frame) -> Result<Vec<(String, String)>> {
    let mut heads = Vec::new();
    for name in dir.list("views")? {
        if !name.ends_with(".json") {
            continue;
        }
        let path = format!("views/{name}");
        let (Ok(text), Ok(sig)) = (
            dir.read(&path, RECORD_LIMIT),
            dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT),
        ) else {
            continue;
        };
        if signing::verify(f.judge_key, namespace::VIEW, text.as_bytes(), &sig).is_err() {
            continue;
        }
        // Only the three fields are read; the rest (the whole history) is skipped unparsed.
        let Ok(view) = serde_json::from_str::<ViewHead>(&text) else {
            continue;
        };
        if view.game == f.id && view.manifest == f.hash {
            if let Some(head) = view.record_head {
                heads.push((path, head));
            }
        }
    }
    Ok(heads)
}

/// What [`signed_heads`] reads of a JSON view.
#[derive(serde::Deserialize)]
struct ViewHead {
    game: String,
    manifest: String,
    record_head: Option<String>,
}
