//! OpenSSH Ed25519 keys and SSHSIG signatures, interchangeable with `ssh-keygen -Y sign/verify`.
//! Verification is strict: the namespace, the key and the algorithm must match, and the
//! Ed25519 signature is checked with `verify_strict` (no malleable or small-order cases).

use ssh_key::{Algorithm, HashAlg, LineEnding, PrivateKey, PublicKey, SshSig};
use std::fmt;

/// One namespace per purpose, so a signature made for one never verifies as another.
pub mod namespace {
    pub const COMMITMENT: &str = "qijudge-commitment";
    pub const MOVE: &str = "qijudge-move";
    pub const RECORD: &str = "qijudge-record";
    pub const VIEW: &str = "qijudge-view";
}

/// Why a key or signature was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureError {
    BadKey(String),
    NotEd25519,
    Encrypted,
    Malformed(String),
    WrongNamespace { expected: String, found: String },
    WrongKey,
    Invalid,
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureError::BadKey(e) => write!(f, "not an OpenSSH key: {e}"),
            SignatureError::NotEd25519 => write!(f, "only ssh-ed25519 keys are accepted"),
            SignatureError::Encrypted => write!(
                f,
                "the private key is protected by a passphrase; remove it on a copy (ssh-keygen -p -f COPY) \
                 or sign with ssh-keygen -Y sign"
            ),
            SignatureError::Malformed(e) => write!(f, "not an SSH signature: {e}"),
            SignatureError::WrongNamespace { expected, found } => {
                write!(f, "signature is for namespace {found:?}, expected {expected:?}")
            }
            SignatureError::WrongKey => write!(f, "signed by a different key than the one this seat registered"),
            SignatureError::Invalid => write!(f, "signature does not match the file's bytes"),
        }
    }
}

impl std::error::Error for SignatureError {}

/// Parses an `ssh-ed25519 AAAA… comment` line.
pub fn parse_public_key(line: &str) -> Result<PublicKey, SignatureError> {
    let key =
        PublicKey::from_openssh(line.trim()).map_err(|e| SignatureError::BadKey(e.to_string()))?;
    if key.algorithm() != Algorithm::Ed25519 {
        return Err(SignatureError::NotEd25519);
    }
    Ok(key)
}

/// The key as written in a manifest: `ssh-ed25519 <base64>` without its comment.
pub fn public_key_line(key: &PublicKey) -> String {
    let mut k = key.clone();
    k.set_comment("");
    k.to_openssh()
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// Parses an unencrypted OpenSSH Ed25519 private key.
pub fn parse_private_key(pem: &str) -> Result<PrivateKey, SignatureError> {
    let key = PrivateKey::from_openssh(pem).map_err(|e| SignatureError::BadKey(e.to_string()))?;
    if key.is_encrypted() {
        return Err(SignatureError::Encrypted);
    }
    if key.algorithm() != Algorithm::Ed25519 {
        return Err(SignatureError::NotEd25519);
    }
    Ok(key)
}

/// A new key pair.
pub fn generate(comment: &str) -> PrivateKey {
    let mut key = PrivateKey::random(&mut rand_core::OsRng, Algorithm::Ed25519)
        .expect("Ed25519 key generation does not fail with the OS random source");
    key.set_comment(comment);
    key
}

/// The private key in OpenSSH format.
pub fn private_key_pem(key: &PrivateKey) -> String {
    key.to_openssh(LineEnding::LF)
        .map(|s| s.to_string())
        .unwrap_or_default()
}

/// Signs `msg` for a namespace; the armored `-----BEGIN SSH SIGNATURE-----` text.
pub fn sign(key: &PrivateKey, namespace: &str, msg: &[u8]) -> String {
    key.sign(namespace, HashAlg::Sha512, msg)
        .and_then(|sig| sig.to_pem(LineEnding::LF))
        .expect("signing with an in-memory Ed25519 key does not fail")
}

/// Verifies an armored SSHSIG over `msg` by `key` in `namespace`.
pub fn verify(
    key: &PublicKey,
    namespace: &str,
    msg: &[u8],
    armored: &str,
) -> Result<(), SignatureError> {
    let sig = SshSig::from_pem(armored).map_err(|e| SignatureError::Malformed(e.to_string()))?;
    // Canonical armor only (as both ssh-keygen and qijudge write it), so no byte of a signature
    // file can change unnoticed.
    if sig.to_pem(LineEnding::LF).ok().as_deref() != Some(armored) {
        return Err(SignatureError::Malformed(
            "not in canonical form (70-column base64, LF line ends)".into(),
        ));
    }
    if sig.namespace() != namespace {
        return Err(SignatureError::WrongNamespace {
            expected: namespace.into(),
            found: sig.namespace().into(),
        });
    }
    if sig.public_key() != key.key_data() {
        return Err(SignatureError::WrongKey);
    }
    if sig.algorithm() != Algorithm::Ed25519 {
        return Err(SignatureError::NotEd25519);
    }
    let ed = key.key_data().ed25519().ok_or(SignatureError::NotEd25519)?;
    let verifying =
        ed25519_dalek::VerifyingKey::from_bytes(&ed.0).map_err(|_| SignatureError::WrongKey)?;
    let bytes: [u8; 64] = sig
        .signature_bytes()
        .try_into()
        .map_err(|_| SignatureError::Invalid)?;
    let signed =
        SshSig::signed_data(namespace, sig.hash_alg(), msg).map_err(|_| SignatureError::Invalid)?;
    verifying
        .verify_strict(&signed, &ed25519_dalek::Signature::from_bytes(&bytes))
        .map_err(|_| SignatureError::Invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_and_verify_round_trip_with_strict_checks() {
        let key = generate("alice");
        let other = generate("bob");
        let sig = sign(&key, namespace::MOVE, b"hello");
        let public = key.public_key();
        assert_eq!(verify(public, namespace::MOVE, b"hello", &sig), Ok(()));
        assert_eq!(
            verify(public, namespace::MOVE, b"hellO", &sig),
            Err(SignatureError::Invalid)
        );
        assert!(matches!(
            verify(public, namespace::COMMITMENT, b"hello", &sig),
            Err(SignatureError::WrongNamespace { .. })
        ));
        assert_eq!(
            verify(other.public_key(), namespace::MOVE, b"hello", &sig),
            Err(SignatureError::WrongKey)
        );
        assert!(matches!(
            verify(public, namespace::MOVE, b"hello", "garbage"),
            Err(SignatureError::Malformed(_))
        ));
        let crlf = sig.replace('\n', "\r\n");
        assert!(matches!(
            verify(public, namespace::MOVE, b"hello", &crlf),
            Err(SignatureError::Malformed(_))
        ));
        assert!(matches!(
            verify(public, namespace::MOVE, b"hello", sig.trim_end()),
            Err(SignatureError::Malformed(_))
        ));
    }

    #[test]
    fn keys_round_trip_through_openssh_text() {
        let key = generate("carol");
        let back = parse_private_key(&private_key_pem(&key)).unwrap();
        assert_eq!(back.public_key().key_data(), key.public_key().key_data());
        let line = public_key_line(key.public_key());
        assert!(line.starts_with("ssh-ed25519 ") && !line.contains("carol"));
        assert_eq!(
            parse_public_key(&line).unwrap().key_data(),
            key.public_key().key_data()
        );
        assert!(parse_public_key("ssh-rsa AAAA").is_err());
    }
}
