//! Reading the judge's record: its signature, its chain, and that it was not rolled back.

use super::*;
use crate::error::Result;
use crate::judge::pipeline::Framed;
use crate::protocol::record::Record;
use crate::store::GameDir;

/// Loads the existing record, checking the judge's signature over it and that it was not
/// rolled back.
pub fn load_record(dir: &GameDir, game: &Game) -> Result<Record> {
    crate::judge::signed_record::load_record(dir, &game.frame())
}
