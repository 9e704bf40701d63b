//! SHA-256 as used in every file: `sha256:` followed by 64 lower-case hex digits, and the
//! length-prefixed field hashing of commitments, lots and other bound values.

use sha2::{Digest, Sha256};

/// `sha256:<hex>` of some bytes.
pub fn sha256_tagged(bytes: &[u8]) -> String {
    tagged(&sha256(bytes))
}

/// The SHA-256 of some bytes.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// `sha256:<hex>` of a SHA-256 digest.
pub fn tagged(digest: &[u8; 32]) -> String {
    // Written into one buffer of the final size: the judge tags every line and file it reads.
    let mut out = *b"sha256:0000000000000000000000000000000000000000000000000000000000000000";
    hex::encode_to_slice(digest, &mut out[7..]).expect("64 digits for 32 bytes");
    String::from_utf8(out.to_vec()).expect("ASCII")
}

/// SHA-256 over fields, each preceded by its length as 8 bytes big-endian, so no two different
/// field lists hash the same bytes.
pub fn hash_fields(fields: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for f in fields {
        h.update((f.len() as u64).to_be_bytes());
        h.update(f);
    }
    h.finalize().into()
}

/// Whether a string is of the form `sha256:<64 lower-case hex digits>`.
pub fn is_sha256_tagged(s: &str) -> bool {
    s.strip_prefix("sha256:").is_some_and(|h| {
        h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// Decodes exactly 32 bytes from 64 lower-case hex digits.
pub fn hex32(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 || s.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let mut out = [0u8; 32];
    hex::decode_to_slice(s, &mut out).ok()?;
    Some(out)
}

/// The digest a `sha256:<hex>` string names ([`tagged`] undone); none for any other string.
pub fn untagged(s: &str) -> Option<[u8; 32]> {
    hex32(s.strip_prefix("sha256:")?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untagged_undoes_tagged_and_nothing_else() {
        let digest = sha256(b"a move");
        assert_eq!(untagged(&tagged(&digest)), Some(digest));
        let t = tagged(&digest);
        for other in [
            t.to_uppercase(),
            t.replace("sha256:", "sha512:"),
            t[..t.len() - 1].to_string(),
            format!("{t}0"),
            t.replace("sha256:", ""),
            t.replacen(|c: char| c.is_ascii_digit(), "g", 1),
        ] {
            assert_eq!(untagged(&other), None, "{other}");
        }
    }

    #[test]
    fn tagged_hash_vector() {
        // SHA-256 of the empty string.
        assert_eq!(
            sha256_tagged(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert!(is_sha256_tagged(&sha256_tagged(b"x")));
        assert!(!is_sha256_tagged("sha256:E3B0"));
    }

    #[test]
    fn field_boundaries_matter() {
        assert_ne!(hash_fields(&[b"ab", b"c"]), hash_fields(&[b"a", b"bc"]));
        assert_ne!(hash_fields(&[b"abc"]), hash_fields(&[b"abc", b""]));
    }

    #[test]
    fn hex32_is_strict() {
        assert!(hex32(&"ab".repeat(32)).is_some());
        assert!(hex32(&"AB".repeat(32)).is_none());
        assert!(hex32(&"ab".repeat(31)).is_none());
    }
}
