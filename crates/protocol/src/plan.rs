//! Conditional answers committed line by line, so that publishing the part of one line that
//! was played says nothing of the seat's other lines, nor of the rest of that line.
//!
//! A line is a list of steps, each the opponent's reply and the seat's answer
//! (`"h9g7 h0g2"`). Its commitment is a hash chain from the end, over per-step salts derived
//! from the line's own 32-byte salt (length-prefixed fields, see [`hash_fields`]):
//!
//! - `s_k` = H(`"qijudge/plan-step-salt/v1"`, line salt, k as 4 bytes big-endian), k = 1, 2, …
//! - `d_{m+1}` = H(`"qijudge/plan-end/v1"`, `s_{m+1}`) for a line of m steps;
//! - `d_k` = H(`"qijudge/plan-step/v1"`, `s_k`, step k's text, `d_{k+1}`);
//! - the line's commitment is `d_1`, written `sha256:<hex>`.
//!
//! When step j fires, the judge discloses steps 1..=j, their salts and `d_{j+1}` (an
//! [`Opening`]); anyone recomputes `d_1`. What stays hidden is behind `s_{j+1}`, which only the
//! line's salt gives: the rest of the line, and even whether it goes on, cannot be guessed.

use super::hash::{hash_fields, hex32};
use serde::{Deserialize, Serialize};

pub const STEP_SALT_TAG: &[u8] = b"qijudge/plan-step-salt/v1";
pub const END_TAG: &[u8] = b"qijudge/plan-end/v1";
pub const STEP_TAG: &[u8] = b"qijudge/plan-step/v1";

/// The salt of step `k` (1 = the first) of a line salted with `salt`.
pub fn step_salt(salt: &[u8; 32], k: u32) -> [u8; 32] {
    hash_fields(&[STEP_SALT_TAG, salt, &k.to_be_bytes()])
}

fn link(step_salt: &[u8; 32], step: &str, next: &[u8; 32]) -> [u8; 32] {
    hash_fields(&[STEP_TAG, step_salt, step.as_bytes(), next])
}

/// The digest that follows step `steps.len()` of a line: the end marker when the line stops
/// there, else the chain of the steps after it (`after` holds them).
fn chain(salt: &[u8; 32], from: u32, after: &[String]) -> [u8; 32] {
    let end = hash_fields(&[END_TAG, &step_salt(salt, from + after.len() as u32 + 1)]);
    after.iter().enumerate().rev().fold(end, |next, (i, step)| {
        link(&step_salt(salt, from + i as u32 + 1), step, &next)
    })
}

/// The commitment to a line of `steps`, salted with `salt`.
pub fn line_commitment(salt: &[u8; 32], steps: &[String]) -> String {
    format!("sha256:{}", hex::encode(chain(salt, 0, steps)))
}

/// The first `j` steps of a line disclosed: their texts and salts, and the digest of what
/// follows them (which says nothing of it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Opening {
    /// The steps played, each `REPLY ANSWER` as the line wrote them.
    pub steps: Vec<String>,
    /// Each step's salt, 64 hex digits.
    pub salts: Vec<String>,
    /// The digest after the last disclosed step, 64 hex digits.
    pub rest: String,
}

/// Discloses the first `j` steps of a line of `steps` salted with `salt` (j ≥ 1, at most the
/// line's length).
pub fn open(salt: &[u8; 32], steps: &[String], j: usize) -> Opening {
    let j = j.min(steps.len());
    Opening {
        steps: steps[..j].to_vec(),
        salts: (1..=j as u32)
            .map(|k| hex::encode(step_salt(salt, k)))
            .collect(),
        rest: hex::encode(chain(salt, j as u32, &steps[j..])),
    }
}

/// The line commitment an opening discloses the start of, or why it is not one.
pub fn opened_commitment(o: &Opening) -> Result<String, String> {
    if o.steps.is_empty() || o.steps.len() != o.salts.len() {
        return Err("an opening discloses one salt for each of at least one step".into());
    }
    let rest = hex32(&o.rest).ok_or("rest is not 64 lower-case hex digits")?;
    let mut next = rest;
    for (step, salt) in o.steps.iter().zip(&o.salts).rev() {
        let salt = hex32(salt).ok_or("a salt is not 64 lower-case hex digits")?;
        next = link(&salt, step, &next);
    }
    Ok(format!("sha256:{}", hex::encode(next)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn every_prefix_opens_to_the_line_commitment() {
        let line = steps(&["h9g7 h0g2", "i9h9 i0h0", "b9c7 b0c2"]);
        let salt = [7; 32];
        let c = line_commitment(&salt, &line);
        for j in 1..=3 {
            let o = open(&salt, &line, j);
            assert_eq!(o.steps.len(), j);
            assert_eq!(opened_commitment(&o).unwrap(), c, "prefix {j}");
        }
    }

    #[test]
    fn an_opening_binds_its_steps_and_salts() {
        let line = steps(&["h9g7 h0g2", "i9h9 i0h0"]);
        let salt = [9; 32];
        let c = line_commitment(&salt, &line);
        let o = open(&salt, &line, 1);
        let mut other = o.clone();
        other.steps[0] = "h9g7 h0i2".into();
        assert_ne!(opened_commitment(&other).unwrap(), c);
        let mut other = o.clone();
        other.salts[0] = hex::encode([0u8; 32]);
        assert_ne!(opened_commitment(&other).unwrap(), c);
        // A shorter line with the same first step has another commitment: the rest hides even
        // whether the line goes on.
        let short = line_commitment(&salt, &line[..1]);
        assert_ne!(short, c);
        assert_ne!(open(&salt, &line[..1], 1).rest, o.rest);
        assert!(opened_commitment(&Opening {
            steps: vec![],
            salts: vec![],
            rest: o.rest.clone()
        })
        .is_err());
    }

    /// Byte-exact vector, computed independently over the documented layout.
    #[test]
    fn vector() {
        assert_eq!(
            line_commitment(&[0x11; 32], &steps(&["h9g7 h0g2"])),
            LINE_VECTOR
        );
    }

    const LINE_VECTOR: &str =
        "sha256:d8fc09cbb747047d63798a8fe37fb47462544bef4816133059e3f0f53e17dede";
}
