//! Reading the judge's record: its signature, its chain, and that it was not rolled back.

use super::*;
use crate::error::{refuse, refuse_with, Result};
use crate::protocol::record::Record;
use crate::protocol::signing::{self, namespace};
use crate::store::{GameDir, RECORD_LIMIT, SIGNATURE_LIMIT};

/// Loads the existing record, checking the judge's signature over it.
pub fn load_record(dir: &GameDir, game: &Game) -> Result<Record> {
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
    let sig = dir.read("record.sig", SIGNATURE_LIMIT)?;
    signing::verify(&game.judge_key, namespace::RECORD, text.as_bytes(), &sig).map_err(|e| {
        refuse_with(
            "record.sig",
            None,
            e.to_string(),
            "the record was not signed by this game's judge, or was changed",
        )
    })?;
    let record = Record::parse(&text, &game.hash).map_err(|(line, e)| {
        refuse(
            "record.jsonl",
            e.field.as_deref(),
            format!("line {line}: {}", e.reason),
        )
    })?;
    check_not_rolled_back(dir, game, &record)?;
    Ok(record)
}

/// The judge keeps no state besides its files, so its signed public view is its memory: the
/// record must still contain the head that view was made at, or it was rolled back.
fn check_not_rolled_back(dir: &GameDir, game: &Game, record: &Record) -> Result<()> {
    let Some((published, _)) = read_signed_view(dir, game, "public")? else {
        return Ok(());
    };
    if published.record_head != game.hash && !record.contains_head(&published.record_head) {
        return Err(refuse_with(
            "record.jsonl",
            None,
            "does not extend the head of the judge's last signed public view: the record was rolled back",
            "restore the latest record.jsonl and record.sig",
        ));
    }
    Ok(())
}
