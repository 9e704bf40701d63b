//! Two seats' shuffle nonces through the secret contract (Jieqi, Banqi): both signed
//! commitments, then both nonces handed to the judge and checked against them, then play
//! begins. The layout the nonces fix is the game's own business.

use super::context::Ctx;
use super::frame::Frame;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::files::*;
use qijudge_rules::hash::{hash_fields, hex32};

/// The commitment to a seat's nonce: SHA-256 over `qijudge/nonce/1`, the game id, the seat and
/// the nonce, each field length-prefixed; 64 hex digits.
pub fn commitment(game: &str, seat: &str, nonce: &[u8; 32]) -> String {
    hex::encode(hash_fields(&[
        NONCE_FORMAT.as_bytes(),
        game.as_bytes(),
        seat.as_bytes(),
        nonce,
    ]))
}

/// A seat's commitment and nonce files for a fresh nonce.
pub fn new_files(frame: &Frame, seat: usize, nonce: [u8; 32]) -> (NonceCommitmentFile, NonceFile) {
    let seat_name = frame.seats[seat];
    (
        NonceCommitmentFile {
            format: NONCE_COMMITMENT_FORMAT.into(),
            game: frame.id.into(),
            manifest: frame.hash.into(),
            seat: seat_name.into(),
            commitment: commitment(frame.id, seat_name, &nonce),
        },
        NonceFile {
            format: NONCE_FORMAT.into(),
            game: frame.id.into(),
            manifest: frame.hash.into(),
            seat: seat_name.into(),
            nonce: hex::encode(nonce),
        },
    )
}

/// Where the two seats stand with their nonces.
#[derive(Clone, Debug, Default)]
pub struct NoncePair {
    commitments: [Option<[u8; 32]>; 2],
    accepted: [bool; 2],
    nonces: [Option<[u8; 32]>; 2],
    /// Play has begun (both nonces accepted, or the record says so).
    pub begun: bool,
}

impl NoncePair {
    /// Both nonces, when the judge (or, after the reveal, the audit) holds them.
    pub fn both(&self) -> Option<([u8; 32], [u8; 32])> {
        Some((self.nonces[0]?, self.nonces[1]?))
    }

    /// Marks play as begun without the nonces (a test's state).
    pub fn begin(&mut self) {
        self.begun = true;
    }

    /// The next record entries before play: a commitment, a nonce accepted, or the `begin` line
    /// once both are in; none while the files wait.
    pub fn step(
        &mut self,
        cx: &Ctx,
        frame: &Frame,
        sealed: bool,
        clock: bool,
    ) -> Result<Option<Vec<Entry>>> {
        let order = self.seat_order(cx, frame);
        for seat in order {
            if self.commitments[seat].is_none() {
                if let Some(entries) = self.take_commitment(cx, frame, seat)? {
                    return Ok(Some(entries));
                }
            }
        }
        if self.commitments.iter().any(Option::is_none) {
            return Ok(None);
        }
        for seat in order {
            if !self.accepted[seat] {
                if let Some(entries) = self.take_nonce(cx, frame, sealed, seat)? {
                    self.accepted[seat] = true;
                    return Ok(Some(entries));
                }
            }
        }
        if !self.accepted.iter().all(|a| *a) {
            return Ok(None);
        }
        self.begun = true;
        let recorded = match cx.recorded() {
            Some(Entry::Begin { at, .. }) => Some(at),
            _ => None,
        };
        Ok(Some(vec![Entry::Begin {
            first: frame.seats[0].into(),
            lot_nonces: Default::default(),
            at: cx.at(recorded, clock),
        }]))
    }

    /// What the record waits for before play, in words.
    pub fn waiting(&self, seats: &[&str]) -> Option<String> {
        if self.begun {
            return None;
        }
        let missing = |done: &dyn Fn(usize) -> bool| -> Vec<&str> {
            (0..2).filter(|&i| !done(i)).map(|i| seats[i]).collect()
        };
        let uncommitted = missing(&|i| self.commitments[i].is_some());
        if !uncommitted.is_empty() {
            return Some(format!(
                "waiting for the nonce commitment of {} (qijudge setup)",
                uncommitted.join(" and ")
            ));
        }
        Some(format!(
            "waiting for the nonce of {}: hand setups/SEAT.toml to the judge now that both commitments are recorded",
            missing(&|i| self.accepted[i]).join(" and ")
        ))
    }

    /// The seats in the order to look at them: a recorded line's seat first, else seat order.
    fn seat_order(&self, cx: &Ctx, frame: &Frame) -> [usize; 2] {
        match cx.recorded() {
            Some(Entry::Commitment { seat, .. } | Entry::SetupAccepted { seat })
                if frame.seats.get(1) == Some(&seat.as_str()) =>
            {
                [1, 0]
            }
            _ => [0, 1],
        }
    }

    fn take_commitment(
        &mut self,
        cx: &Ctx,
        frame: &Frame,
        seat: usize,
    ) -> Result<Option<Vec<Entry>>> {
        let commitments = &mut self.commitments;
        super::secret::take_commitment(
            cx,
            frame,
            seat,
            NONCE_COMMITMENT_FORMAT,
            |c: &NonceCommitmentFile| [&c.format, &c.game, &c.manifest, &c.seat],
            |c, path| {
                let digest = hex32(&c.commitment)
                    .ok_or_else(|| refuse(path, Some("commitment"), "expected 64 hex digits"))?;
                commitments[seat] = Some(digest);
                Ok(())
            },
        )
    }

    /// The judge takes a nonce only once both commitments are recorded, and only the one the
    /// seat committed to.
    fn take_nonce(
        &mut self,
        cx: &Ctx,
        frame: &Frame,
        sealed: bool,
        seat: usize,
    ) -> Result<Option<Vec<Entry>>> {
        let want = self.commitments[seat].map(hex::encode);
        let nonces = &mut self.nonces;
        super::secret::take_secret_32(
            cx,
            frame,
            sealed,
            seat,
            (NONCE_FORMAT, "nonce"),
            |n: &NonceFile| [&n.format, &n.game, &n.manifest, &n.seat, &n.nonce],
            |path, nonce| {
                let name = frame.seats[seat];
                if want.as_deref() != Some(commitment(frame.id, name, &nonce).as_str()) {
                    return Err(refuse_with(
                        path,
                        Some("nonce"),
                        format!("does not match the commitment {name} signed"),
                        "the nonce must be the one the signed commitment was made from",
                    ));
                }
                nonces[seat] = Some(nonce);
                Ok(())
            },
        )
    }
}

/// Whether a secret file's text opens seat `name`'s signed nonce commitment (its text): false
/// for a file of another format, `Err` when a nonce file or the commitment does not read.
pub fn opens(
    name: &str,
    secret: &str,
    commitment: &str,
) -> std::result::Result<bool, &'static str> {
    use qijudge_protocol::files::{field_of, parse_toml, NonceCommitmentFile, NonceFile};
    if field_of(secret, "format").as_deref() != Some(NONCE_FORMAT) {
        return Ok(false);
    }
    let (Ok(n), Ok(c)) = (
        parse_toml::<NonceFile>(secret),
        parse_toml::<NonceCommitmentFile>(commitment),
    ) else {
        return Err("is not a nonce file");
    };
    Ok(qijudge_rules::hash::hex32(&n.nonce)
        .is_some_and(|nonce| self::commitment(&c.game, name, &nonce) == c.commitment))
}

#[cfg(test)]
mod tests {
    use super::*;
    use qijudge_protocol::files::to_toml;

    /// A nonce file opens its seat's commitment and no other; a file of another format opens
    /// nothing; a nonce file that does not read is refused as such.
    #[test]
    fn a_nonce_opens_its_own_seat_s_commitment_only() {
        let keys = crate::contract::contract_frame(&["red", "black"]);
        let frame = Frame {
            id: "jq-0123456789abcdef0123456789abcdef",
            hash: "sha256:00",
            judge_key: &keys.judge_key,
            seats: &["red", "black"],
            player_keys: &keys.player_keys,
        };
        let (commitment, nonce) = new_files(&frame, 0, [5; 32]);
        let (commitment, nonce) = (to_toml(&commitment), to_toml(&nonce));
        assert_eq!(opens("red", &nonce, &commitment), Ok(true));
        assert_eq!(opens("black", &nonce, &commitment), Ok(false));
        let (_, other) = new_files(&frame, 0, [6; 32]);
        assert_eq!(opens("red", &to_toml(&other), &commitment), Ok(false));
        assert_eq!(
            opens("red", "format = \"qijudge/setup/1\"\n", &commitment),
            Ok(false)
        );
        let broken = format!("format = \"{NONCE_FORMAT}\"\n");
        assert_eq!(
            opens("red", &broken, &commitment),
            Err("is not a nonce file")
        );
    }
}
