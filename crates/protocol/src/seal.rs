//! Sealed files for games played in public (git): an envelope of one or more signed files,
//! padded to a size that depends on nothing secret, then encrypted with age to `ssh-ed25519`
//! recipients, so players and judge use the SSH keys they already have.
//!
//! The envelope (the age plaintext) is plain text that standard tools can write and read:
//!
//! ```text
//! qijudge-sealed 1\n
//! file <path> <length>\n<length bytes>\n      (once per file)
//! end\n
//! \n\n\n…                                      (padding: line feeds up to the fixed size)
//! ```
//!
//! Signatures travel inside the envelope (sign, then encrypt): a readable signature over a
//! secret would let anyone confirm a guess of it.

use ssh_key::{PrivateKey, PublicKey};
use std::fmt;

/// The first line of every envelope.
pub const MAGIC: &str = "qijudge-sealed 1";
/// The size of a sealed secret (setup or seed) and of a sealed refusal notice, in bytes.
pub const SECRET_SIZE: usize = 8192;
/// What a sealed seat view may add to the size of the public view of the same ply (ranks of
/// the seat's own pieces, the opponent's last signed move): the padding allows this much.
pub const VIEW_ALLOWANCE: usize = 16 * 1024;
/// Padded sizes are multiples of this.
pub const VIEW_STEP: usize = 4096;

/// Why an envelope could not be made or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealError {
    /// The files do not fit the fixed size (nothing is sealed rather than leak by size).
    TooLarge { needed: usize, size: usize },
    /// The plaintext is not an envelope; the text says where.
    Malformed(String),
    /// The envelope is not padded to the size this file must have.
    WrongSize { found: usize, expected: usize },
    /// No recipient key opens the file, or it is not an age file.
    Decrypt(String),
    /// A key that cannot be used as an age recipient or identity.
    Key(String),
}

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SealError::TooLarge { needed, size } => {
                write!(
                    f,
                    "the envelope needs {needed} bytes, more than its fixed size {size}"
                )
            }
            SealError::Malformed(why) => write!(f, "not a sealed envelope: {why}"),
            SealError::WrongSize { found, expected } => write!(
                f,
                "the envelope is {found} bytes; it must be padded to exactly {expected}"
            ),
            SealError::Decrypt(why) => write!(f, "cannot be opened with this key: {why}"),
            SealError::Key(why) => write!(f, "unusable key: {why}"),
        }
    }
}

impl std::error::Error for SealError {}

/// One file inside an envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// Writes the envelope of `files`, padded with line feeds to exactly `size` bytes.
pub fn pack(files: &[Sealed], size: usize) -> Result<Vec<u8>, SealError> {
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(MAGIC.as_bytes());
    out.push(b'\n');
    for f in files {
        if !valid_path(&f.path) {
            return Err(SealError::Malformed(format!("bad path {:?}", f.path)));
        }
        out.extend_from_slice(format!("file {} {}\n", f.path, f.bytes.len()).as_bytes());
        out.extend_from_slice(&f.bytes);
        out.push(b'\n');
    }
    out.extend_from_slice(b"end\n");
    if out.len() > size {
        return Err(SealError::TooLarge {
            needed: out.len(),
            size,
        });
    }
    out.resize(size, b'\n');
    Ok(out)
}

/// Reads an envelope strictly: the header, whole files, `end`, then nothing but padding.
pub fn unpack(plain: &[u8]) -> Result<Vec<Sealed>, SealError> {
    let bad = |why: &str| SealError::Malformed(why.to_string());
    let mut rest = plain
        .strip_prefix(MAGIC.as_bytes())
        .and_then(|r| r.strip_prefix(b"\n"))
        .ok_or_else(|| bad("the first line must be `qijudge-sealed 1`"))?;
    let mut files = Vec::new();
    loop {
        let nl = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| bad("a line without its line feed"))?;
        let line = std::str::from_utf8(&rest[..nl]).map_err(|_| bad("a header line not UTF-8"))?;
        rest = &rest[nl + 1..];
        if line == "end" {
            break;
        }
        let mut parts = line.split(' ');
        let (Some("file"), Some(path), Some(len), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad("expected `file PATH LENGTH` or `end`"));
        };
        if !valid_path(path) {
            return Err(SealError::Malformed(format!("bad path {path:?}")));
        }
        let len: usize = len
            .parse()
            .ok()
            .filter(|n: &usize| n.to_string() == len)
            .ok_or_else(|| bad("the length must be a decimal number"))?;
        if rest.len() < len + 1 || rest[len] != b'\n' {
            return Err(SealError::Malformed(format!(
                "{path}: shorter than its length or not followed by a line feed"
            )));
        }
        files.push(Sealed {
            path: path.to_string(),
            bytes: rest[..len].to_vec(),
        });
        rest = &rest[len + 1..];
    }
    if rest.iter().any(|&b| b != b'\n') {
        return Err(bad("something other than padding after `end`"));
    }
    Ok(files)
}

/// Paths inside an envelope: relative, plain, printable.
fn valid_path(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 200
        && path
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != "..")
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-/".contains(&b))
}

/// The size a sealed view gets: fixed by the size of the public view of the same ply (which
/// anyone can read) plus an allowance, rounded up; so it says nothing a spectator doesn't know.
pub fn view_size(public_len: usize) -> usize {
    (public_len + VIEW_ALLOWANCE).div_ceil(VIEW_STEP) * VIEW_STEP
}

/// Encrypts `plain` with age to each key (one `ssh-ed25519` stanza per recipient).
pub fn encrypt(plain: &[u8], recipients: &[&PublicKey]) -> Result<Vec<u8>, SealError> {
    let mut keys = Vec::new();
    for key in recipients {
        let line = key
            .to_openssh()
            .map_err(|e| SealError::Key(e.to_string()))?;
        let r: age::ssh::Recipient = line
            .parse()
            .map_err(|_| SealError::Key(format!("{line}: not an age ssh-ed25519 recipient")))?;
        keys.push(r);
    }
    let encryptor = age::Encryptor::with_recipients(keys.iter().map(|r| r as &dyn age::Recipient))
        .map_err(|e| SealError::Key(e.to_string()))?;
    let mut out = Vec::with_capacity(plain.len() + 512);
    let mut writer = encryptor
        .wrap_output(&mut out)
        .map_err(|e| SealError::Key(e.to_string()))?;
    std::io::Write::write_all(&mut writer, plain).map_err(|e| SealError::Key(e.to_string()))?;
    writer.finish().map_err(|e| SealError::Key(e.to_string()))?;
    Ok(out)
}

/// Decrypts an age file with an OpenSSH Ed25519 private key.
pub fn decrypt(cipher: &[u8], key: &PrivateKey) -> Result<Vec<u8>, SealError> {
    let pem = super::signing::private_key_pem(key);
    let identity = age::ssh::Identity::from_buffer(pem.as_bytes(), None)
        .map_err(|e| SealError::Key(e.to_string()))?;
    if !matches!(identity, age::ssh::Identity::Unencrypted(_)) {
        return Err(SealError::Key("not an unencrypted ssh-ed25519 key".into()));
    }
    let decryptor =
        age::Decryptor::new_buffered(cipher).map_err(|e| SealError::Decrypt(e.to_string()))?;
    let mut reader = decryptor
        .decrypt(std::iter::once(&identity as &dyn age::Identity))
        .map_err(|e| SealError::Decrypt(e.to_string()))?;
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut reader, &mut plain)
        .map_err(|e| SealError::Decrypt(e.to_string()))?;
    Ok(plain)
}

/// Packs, pads and encrypts in one step.
pub fn seal(
    files: &[Sealed],
    size: usize,
    recipients: &[&PublicKey],
) -> Result<Vec<u8>, SealError> {
    encrypt(&pack(files, size)?, recipients)
}

/// Decrypts and unpacks, requiring the envelope to be exactly `size` bytes when given.
pub fn open(
    cipher: &[u8],
    key: &PrivateKey,
    size: Option<usize>,
) -> Result<Vec<Sealed>, SealError> {
    let plain = decrypt(cipher, key)?;
    if let Some(expected) = size {
        if plain.len() != expected {
            return Err(SealError::WrongSize {
                found: plain.len(),
                expected,
            });
        }
    }
    unpack(&plain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signing;

    fn files() -> Vec<Sealed> {
        vec![
            Sealed {
                path: "setups/south.toml".into(),
                bytes: b"a = 1\n".to_vec(),
            },
            Sealed {
                path: "setups/south.toml.sig".into(),
                bytes: b"-----BEGIN SSH SIGNATURE-----\n".to_vec(),
            },
        ]
    }

    #[test]
    fn envelopes_round_trip_at_their_fixed_size() {
        let plain = pack(&files(), 512).unwrap();
        assert_eq!(plain.len(), 512);
        assert_eq!(unpack(&plain).unwrap(), files());
        let long = vec![Sealed {
            path: "x".into(),
            bytes: vec![b'y'; 600],
        }];
        assert!(matches!(pack(&long, 512), Err(SealError::TooLarge { .. })));
    }

    #[test]
    fn malformed_envelopes_are_refused() {
        let plain = pack(&files(), 512).unwrap();
        let cases: Vec<Vec<u8>> = vec![
            plain[1..].to_vec(),
            {
                let mut p = plain.clone();
                *p.last_mut().unwrap() = b'x';
                p
            },
            plain[..60].to_vec(),
            b"qijudge-sealed 1\nfile ../x 1\na\nend\n".to_vec(),
            b"qijudge-sealed 1\nfile x 01\na\nend\n".to_vec(),
            b"qijudge-sealed 1\nfile x 5\na\nend\n".to_vec(),
            b"qijudge-sealed 1\n".to_vec(),
        ];
        for c in cases {
            assert!(unpack(&c).is_err(), "{:?}", String::from_utf8_lossy(&c));
        }
    }

    #[test]
    fn only_a_recipient_opens_a_sealed_file_and_sizes_are_fixed() {
        let a = signing::generate("a");
        let b = signing::generate("b");
        let c = signing::generate("c");
        let sealed = seal(&files(), 1024, &[a.public_key(), b.public_key()]).unwrap();
        assert_eq!(open(&sealed, &a, Some(1024)).unwrap(), files());
        assert_eq!(open(&sealed, &b, None).unwrap(), files());
        assert!(matches!(
            open(&sealed, &c, None),
            Err(SealError::Decrypt(_))
        ));
        assert!(matches!(
            open(&sealed, &a, Some(2048)),
            Err(SealError::WrongSize { .. })
        ));
        // Different contents, same padded size: same payload length. (The header's length
        // varies at random: age adds a "grease" stanza of random size to every file.)
        let other = vec![Sealed {
            path: "v".into(),
            bytes: vec![b'z'; 700],
        }];
        let sealed2 = seal(&other, 1024, &[a.public_key(), b.public_key()]).unwrap();
        assert_eq!(payload_len(&sealed), payload_len(&sealed2));
        let mut tampered = sealed.clone();
        let n = tampered.len() - 20;
        tampered[n] ^= 1;
        assert!(open(&tampered, &a, None).is_err());
    }

    /// Bytes after the age header (which ends with the `--- MAC` line).
    pub fn payload_len(cipher: &[u8]) -> usize {
        let mac = cipher.windows(5).position(|w| w == b"\n--- ").unwrap() + 1;
        let end = mac + cipher[mac..].iter().position(|&b| b == b'\n').unwrap() + 1;
        cipher.len() - end
    }

    #[test]
    fn view_sizes_step_with_the_public_view_only() {
        assert_eq!(view_size(0), VIEW_ALLOWANCE);
        assert_eq!(view_size(1), VIEW_ALLOWANCE + VIEW_STEP);
        assert_eq!(view_size(VIEW_STEP), VIEW_ALLOWANCE + VIEW_STEP);
    }
}
