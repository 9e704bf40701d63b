//! Commitments and the fair first-mover lot, byte for byte (documented in `docs/protocol.md`).
//!
//! - setup commitment = SHA-256 of the length-prefixed fields
//!   `"qijudge/setup-commitment/v1"`, game id, seat name, 32-byte salt, canonical setup bytes;
//! - lot commitment = SHA-256 of `"qijudge/lot-commitment/v1"`, game id, seat name, 32-byte nonce;
//! - lot draw = SHA-256 of `"qijudge/lot/v1"`, game id, then each seat's nonce in seat order;
//!   the first byte's lowest bit picks the first mover among two seats (0 = the first seat).

use super::hash::hash_fields;

pub const SETUP_TAG: &[u8] = b"qijudge/setup-commitment/v1";
pub const LOT_COMMIT_TAG: &[u8] = b"qijudge/lot-commitment/v1";
pub const LOT_DRAW_TAG: &[u8] = b"qijudge/lot/v1";

/// The commitment to a setup, as `sha256:<hex>`.
pub fn setup_commitment(game_id: &str, seat: &str, salt: &[u8; 32], setup: &[u8]) -> String {
    tagged(hash_fields(&[
        SETUP_TAG,
        game_id.as_bytes(),
        seat.as_bytes(),
        salt,
        setup,
    ]))
}

/// The commitment to a lot nonce, as `sha256:<hex>`.
pub fn lot_commitment(game_id: &str, seat: &str, nonce: &[u8; 32]) -> String {
    tagged(hash_fields(&[
        LOT_COMMIT_TAG,
        game_id.as_bytes(),
        seat.as_bytes(),
        nonce,
    ]))
}

/// The seat index drawn to move first, from every seat's nonce in seat order.
pub fn lot_draw(game_id: &str, nonces: &[[u8; 32]]) -> usize {
    let mut fields: Vec<&[u8]> = vec![LOT_DRAW_TAG, game_id.as_bytes()];
    fields.extend(nonces.iter().map(|n| n.as_slice()));
    let digest = hash_fields(&fields);
    digest[0] as usize % nonces.len().max(1)
}

fn tagged(digest: [u8; 32]) -> String {
    format!("sha256:{}", hex::encode(digest))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "lzq-00112233445566778899aabbccddeeff";

    /// Byte-exact vectors, computed independently (Python hashlib over the documented layout).
    #[test]
    fn vectors() {
        assert_eq!(
            setup_commitment(GAME, "south", &[0x11; 32], b"a1:LM,b1:FL"),
            "sha256:243c60871128c2e610192d7e9bd7bb442a4fa7146e747141dff8e74ff36c6d6d"
        );
        assert_eq!(
            lot_commitment(GAME, "north", &[0x22; 32]),
            "sha256:e7c840f92baff18eaafa5c7ee5d0b0476bde8575d9ee4b723f741ef8a93e6482"
        );
        // Draw digests c65d48…, ff0761…, 870e4f…, 844840…: lowest bit of the first byte.
        assert_eq!(lot_draw(GAME, &[[0x11; 32], [0x22; 32]]), 0);
        assert_eq!(lot_draw(GAME, &[[0x01; 32], [0x02; 32]]), 1);
        assert_eq!(lot_draw(GAME, &[[0x00; 32], [0x00; 32]]), 1);
        assert_eq!(lot_draw(GAME, &[[0x05; 32], [0x06; 32]]), 0);
    }

    #[test]
    fn four_seats_draw_by_the_first_byte_mod_four() {
        let mut seen = [false; 4];
        for k in 0..64u8 {
            let nonces = [[k; 32], [1; 32], [2; 32], [3; 32]];
            let mut fields: Vec<&[u8]> = vec![LOT_DRAW_TAG, GAME.as_bytes()];
            fields.extend(nonces.iter().map(|n| n.as_slice()));
            let expected = hash_fields(&fields)[0] as usize % 4;
            assert_eq!(lot_draw(GAME, &nonces), expected);
            seen[expected] = true;
        }
        assert_eq!(seen, [true; 4], "every seat can be drawn");
    }

    #[test]
    fn every_field_is_bound() {
        let base = setup_commitment(GAME, "south", &[1; 32], b"a1:LM");
        assert_ne!(
            base,
            setup_commitment("lzq-other", "south", &[1; 32], b"a1:LM")
        );
        assert_ne!(base, setup_commitment(GAME, "north", &[1; 32], b"a1:LM"));
        assert_ne!(base, setup_commitment(GAME, "south", &[2; 32], b"a1:LM"));
        assert_ne!(base, setup_commitment(GAME, "south", &[1; 32], b"a1:FL"));
    }
}
