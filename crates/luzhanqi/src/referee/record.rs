//! Reading the judge's record: its signature, its chain, and that it was not rolled back.

use super::*;
use qijudge_judge::pipeline::Framed;
use qijudge_protocol::error::Result;
use qijudge_protocol::record::Record;
use qijudge_store::GameDir;

/// Loads the existing record, checking the judge's signature over it and that it was not
/// rolled back.
pub fn load_record(dir: &GameDir, game: &Game) -> Result<Record> {
    qijudge_judge::signed_record::load_record(dir, &game.frame())
}
