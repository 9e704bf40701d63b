//! The frame the rules contract (`qijudge_rules::contract`) judges a game in: fixed keys, a
//! fixed creation time and unsigned move files, so that a game's own judge code runs on it.

use qijudge_protocol::files::{JudgeEntry, MoveFile, Player, MOVE_FORMAT};
use qijudge_protocol::signing::public_key_line;
use ssh_key::PublicKey;

/// The frame a contract game is judged in: fixed keys for every seat and for the judge (the
/// judge's view builders read a manifest; the contract signs nothing, so any key will do).
pub struct ContractFrame {
    pub players: Vec<Player>,
    pub player_keys: Vec<PublicKey>,
    pub judge: JudgeEntry,
    pub judge_key: PublicKey,
}

/// The contract frame for `seats`, in order.
pub fn contract_frame(seats: &[&str]) -> ContractFrame {
    let key = |i: usize| {
        let pair = ssh_key::private::Ed25519Keypair::from_seed(&[i as u8 + 1; 32]);
        PublicKey::from(pair.public)
    };
    let player_keys: Vec<PublicKey> = (0..seats.len()).map(key).collect();
    let judge_key = key(seats.len());
    ContractFrame {
        players: seats
            .iter()
            .zip(&player_keys)
            .map(|(seat, k)| Player {
                seat: seat.to_string(),
                name: format!("{seat}-player"),
                key: public_key_line(k),
                email: None,
                digest: false,
            })
            .collect(),
        player_keys,
        judge: JudgeEntry {
            key: public_key_line(&judge_key),
        },
        judge_key,
    }
}

/// The creation time of every contract game (a view does not show it; the manifest needs one).
pub const CONTRACT_CREATED: &str = "2026-01-01T00:00:00Z";

/// The move file a contract game's judge reads for `action` (its signature is not the step's
/// concern).
pub fn contract_move_file(id: &str, hash: &str, ply: u32, seat: &str, action: String) -> MoveFile {
    MoveFile {
        format: MOVE_FORMAT.into(),
        game: id.into(),
        manifest: hash.into(),
        ply,
        seat: seat.into(),
        answers: String::new(),
        action,
        offer_draw: false,
        comment: None,
        chain_index: None,
        chain: None,
    }
}
