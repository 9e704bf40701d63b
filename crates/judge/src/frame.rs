//! The game a judge works on, as every layer of the judge sees it: its id, manifest hash and
//! keys, and where its files are named.

use ssh_key::PublicKey;

/// The game a judge works on: its id, manifest hash, judge key and seats with keys.
pub struct Frame<'a> {
    pub id: &'a str,
    pub hash: &'a str,
    pub judge_key: &'a PublicKey,
    pub seats: &'a [&'a str],
    pub player_keys: &'a [PublicKey],
}

/// The files a judge run writes: each name with its new bytes, or none to delete it.
pub type Outputs = Vec<(String, Option<Vec<u8>>)>;

/// The number of the seat `name` among `seats`, if it is one.
pub fn seat_number(seats: &[&str], name: &str) -> Option<usize> {
    seats.iter().position(|s| *s == name)
}

/// File name of a move: `moves/0007-south.toml`.
pub fn move_path(ply: u32, seat: &str) -> String {
    format!("moves/{ply:04}-{seat}.toml")
}
