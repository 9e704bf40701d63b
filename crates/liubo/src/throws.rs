//! Fair stick throws for Liubo (`docs/liubo.md`, "Fair throws"): each player commits to the head of a
//! SHA-256 hash chain before play; throw t combines both players' t-th elements, so nobody (the
//! judge included) can bias a throw, and anyone can check each revealed element by hashing it
//! one step back.

use sha2::{Digest, Sha256};
use std::sync::{Arc, Mutex};

/// `u16` big-endian length, then the UTF-8 bytes.
fn enc(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u16).to_be_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The seat letter of a seat index: `A` or `B`.
pub fn letter(seat: usize) -> &'static str {
    if seat == 0 {
        "A"
    } else {
        "B"
    }
}

/// `e[i-1]` from `e[i]`.
pub fn step_back(game_id: &str, player: &str, i: u32, element: &[u8; 32]) -> [u8; 32] {
    let mut m = Vec::with_capacity(80);
    enc(&mut m, "liubo/chain/v1");
    enc(&mut m, game_id);
    enc(&mut m, player);
    m.extend_from_slice(&i.to_be_bytes());
    m.extend_from_slice(element);
    sha256(&m)
}

/// The whole chain `e[0..=n]` from a seed (`e[n]` = the seed).
pub fn chain(game_id: &str, player: &str, seed: &[u8; 32], n: u32) -> Vec<[u8; 32]> {
    let mut out = vec![[0u8; 32]; n as usize + 1];
    out[n as usize] = *seed;
    for i in (1..=n).rev() {
        out[i as usize - 1] = step_back(game_id, player, i, &out[i as usize]);
    }
    out
}

/// A whole chain, shared: [`chain`] remembered for the process's last few chains. A chain costs
/// `n` hashes (65 536 by default, tens of milliseconds) and the judge needs both whole at every
/// replay; a bot match replays its game several times per ply in one process.
pub fn shared_chain(game_id: &str, player: &str, seed: &[u8; 32], n: u32) -> Arc<[[u8; 32]]> {
    type Key = (String, String, [u8; 32], u32);
    type Chain = Arc<[[u8; 32]]>;
    static CHAINS: Mutex<Vec<(Key, Chain)>> = Mutex::new(Vec::new());
    /// Two chains per game, for the games a match plays at once.
    const CAPACITY: usize = 8;
    let key: Key = (game_id.to_string(), player.to_string(), *seed, n);
    let found = CHAINS.lock().ok().and_then(|chains| {
        chains
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, c)| Arc::clone(c))
    });
    if let Some(c) = found {
        return c;
    }
    let c: Chain = chain(game_id, player, seed, n).into();
    if let Ok(mut chains) = CHAINS.lock() {
        if chains.len() >= CAPACITY {
            chains.remove(0);
        }
        chains.push((key, Arc::clone(&c)));
    }
    c
}

/// Whether `element` is `e[i]` of the chain whose `e[j]` (j < i) is `known`.
pub fn extends(
    game_id: &str,
    player: &str,
    i: u32,
    element: &[u8; 32],
    j: u32,
    known: &[u8; 32],
) -> bool {
    if j >= i {
        return false;
    }
    let mut cur = *element;
    for k in (j + 1..=i).rev() {
        cur = step_back(game_id, player, k, &cur);
    }
    cur == *known
}

/// `D_t` of throw t.
pub fn throw_digest(game_id: &str, t: u32, e_a: &[u8; 32], e_b: &[u8; 32]) -> [u8; 32] {
    let mut m = Vec::with_capacity(120);
    enc(&mut m, "liubo/throw/v1");
    enc(&mut m, game_id);
    m.extend_from_slice(&t.to_be_bytes());
    m.extend_from_slice(e_a);
    m.extend_from_slice(e_b);
    sha256(&m)
}

/// The two group values of a throw digest: 1 + the number of yang faces (set bits) in bits
/// 0–2 and in bits 3–5 of its first byte.
pub fn values(digest: &[u8; 32]) -> (u8, u8) {
    let b = digest[0];
    (
        1 + (b & 7).count_ones() as u8,
        1 + ((b >> 3) & 7).count_ones() as u8,
    )
}

/// Who starts: the digest `S` and the seat (0 = A starts iff `S[0] & 1 = 0`).
pub fn first_player(game_id: &str, e_a1: &[u8; 32], e_b1: &[u8; 32]) -> ([u8; 32], usize) {
    let mut m = Vec::with_capacity(100);
    enc(&mut m, "liubo/first/v1");
    enc(&mut m, game_id);
    m.extend_from_slice(e_a1);
    m.extend_from_slice(e_b1);
    let s = sha256(&m);
    (s, (s[0] & 1) as usize)
}

/// Reads 64 hex digits.
pub fn parse_element(text: &str) -> Option<[u8; 32]> {
    let bytes = hex::decode(text).ok()?;
    bytes.try_into().ok()
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_shared_chain_is_the_chain_and_is_built_once() {
        let seed = [7u8; 32];
        let a = shared_chain("lb-shared", "A", &seed, 100);
        assert_eq!(&a[..], &chain("lb-shared", "A", &seed, 100)[..]);
        assert!(Arc::ptr_eq(&a, &shared_chain("lb-shared", "A", &seed, 100)));
        for (game, player, seed, n) in [
            ("lb-other", "A", seed, 100),
            ("lb-shared", "B", seed, 100),
            ("lb-shared", "A", [8u8; 32], 100),
            ("lb-shared", "A", seed, 99),
        ] {
            let other = shared_chain(game, player, &seed, n);
            assert_eq!(&other[..], &chain(game, player, &seed, n)[..]);
            assert_ne!(other[0], a[0]);
        }
    }
    use super::*;

    fn seeds() -> ([u8; 32], [u8; 32]) {
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        for i in 0..32 {
            a[i] = i as u8;
            b[i] = 0x20 + i as u8;
        }
        (a, b)
    }

    /// The test vector of §7.
    #[test]
    fn the_reference_test_vector() {
        let id = "lb-2026-0001";
        let (sa, sb) = seeds();
        let ca = chain(id, "A", &sa, 4);
        let cb = chain(id, "B", &sb, 4);
        assert_eq!(
            hex::encode(ca[0]),
            "b65017d20cc2c3d6e44171634fce7bdd2106e0b2b906f448aa1b92f8c0e3d3b9"
        );
        assert_eq!(
            hex::encode(cb[0]),
            "0becb8a58cad56f5ace31219110865a132d7a39b3d350ed24f79b8a81de5b77e"
        );
        let want = [
            ("b1d0597f", (2, 3)),
            ("ab32fef9", (3, 3)),
            ("9dd28255", (3, 3)),
            ("5990f38a", (2, 3)),
        ];
        for (t, (prefix, vals)) in (1..=4u32).zip(want) {
            let d = throw_digest(id, t, &ca[t as usize], &cb[t as usize]);
            assert!(hex::encode(d).starts_with(prefix), "throw {t}");
            assert_eq!(values(&d), vals, "throw {t}");
        }
        let (s, first) = first_player(id, &ca[1], &cb[1]);
        assert!(hex::encode(s).starts_with("6f0f65ee"));
        assert_eq!(first, 1, "B starts");
        assert!(extends(id, "A", 3, &ca[3], 0, &ca[0]));
        let mut tampered = ca[3];
        tampered[5] ^= 1;
        assert!(!extends(id, "A", 3, &tampered, 0, &ca[0]));
        assert!(
            !extends(id, "A", 3, &ca[3], 0, &cb[0]),
            "another player's chain"
        );
    }

    /// Each group takes 1, 2, 3, 4 with 32/96/96/32 of the 256 bytes.
    #[test]
    fn every_byte_gives_the_exact_distribution() {
        let mut counts = [[0u32; 5]; 2];
        for b in 0..=255u8 {
            let mut d = [0u8; 32];
            d[0] = b;
            let (x, y) = values(&d);
            counts[0][x as usize] += 1;
            counts[1][y as usize] += 1;
        }
        for c in counts {
            assert_eq!(&c[1..], &[32, 96, 96, 32]);
        }
    }

    /// 100 000 throws from fixed seeds: each group's values fit 1/8, 3/8, 3/8, 1/8
    /// (chi-square with 3 degrees of freedom below 16.27, the 0.1 % point).
    #[test]
    fn throws_from_chains_are_fairly_distributed() {
        let id = "lb-chi-square";
        let (sa, sb) = seeds();
        let n = 100_000u32;
        let ca = chain(id, "A", &sa, n);
        let cb = chain(id, "B", &sb, n);
        let mut counts = [[0f64; 4]; 2];
        for t in 1..=n {
            let (x, y) = values(&throw_digest(id, t, &ca[t as usize], &cb[t as usize]));
            counts[0][x as usize - 1] += 1.0;
            counts[1][y as usize - 1] += 1.0;
        }
        let expected = [1.0 / 8.0, 3.0 / 8.0, 3.0 / 8.0, 1.0 / 8.0].map(|p| p * n as f64);
        for c in counts {
            let chi: f64 = c
                .iter()
                .zip(expected)
                .map(|(o, e)| (o - e) * (o - e) / e)
                .sum();
            eprintln!("counts {c:?}, chi-square {chi:.2}");
            assert!(chi < 16.27, "chi-square {chi} for {c:?}");
        }
    }
}
