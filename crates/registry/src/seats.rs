//! A game folder's seats and keys, whatever its game.

use qijudge_protocol::error::Result;
use qijudge_store::GameDir;
use ssh_key::PublicKey;

/// The seats of a game and their keys, whatever the game.
pub struct Seats {
    pub names: Vec<String>,
    pub keys: Vec<PublicKey>,
    pub judge: PublicKey,
    /// The game's id and its manifest's hash, which every file a player sends carries.
    pub id: String,
    pub hash: String,
}

impl Seats {
    /// The seat names as the judge's [`qijudge_judge::Frame`] takes them.
    pub fn names(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }

    /// The game as the judge sees it, over `names` (from [`Seats::names`]).
    pub fn frame<'a>(&'a self, names: &'a [&'a str]) -> qijudge_judge::Frame<'a> {
        qijudge_judge::Frame {
            id: &self.id,
            hash: &self.hash,
            judge_key: &self.judge,
            seats: names,
            player_keys: &self.keys,
        }
    }
}

/// Reads the seats and keys of any game directory.
pub fn seats(dir: &GameDir) -> Result<Seats> {
    let facts = crate::of_dir(&dir.root)?.facts(dir)?;
    let (names, keys, judge) = (facts.seats, facts.player_keys, facts.judge_key);
    let manifest = dir.read("game.toml", qijudge_store::SMALL_FILE_LIMIT)?;
    let id = qijudge_protocol::files::field_of(&manifest, "id").unwrap_or_default();
    Ok(Seats {
        names,
        keys,
        judge,
        id,
        hash: facts.hash,
    })
}
