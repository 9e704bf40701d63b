//! OpenSSH Ed25519 keys and SSHSIG signatures, interchangeable with `ssh-keygen -Y sign/verify`.
//! Verification is strict: the namespace, the key and the algorithm must match, and the
//! Ed25519 signature is checked with `verify_strict` (no malleable or small-order cases). Files
//! the judge's signed record already holds are confirmed again in batches
//! ([`confirm_recorded`]).

use ssh_key::{Algorithm, HashAlg, LineEnding, PrivateKey, PublicKey, SshSig};
use std::fmt;

/// One namespace per purpose, so a signature made for one never verifies as another.
pub mod namespace {
    pub const COMMITMENT: &str = "qijudge-commitment";
    pub const MOVE: &str = "qijudge-move";
    /// Answers written in advance (`conditional/PLY-SEAT.toml`).
    pub const CONDITIONAL: &str = "qijudge-conditional";
    /// What a seat signs to derive its conditional lines' salts: never published.
    pub const PLAN_SALT: &str = "qijudge-plan-salt";
    pub const RECORD: &str = "qijudge-record";
    pub const VIEW: &str = "qijudge-view";
    /// A secret file (setup, seed) inside a sealed envelope, signed before it is encrypted.
    pub const SEALED: &str = "qijudge-sealed";
    /// A sealed secret file as published (`sealed/SEAT.age.sig`): its seat's signature of the
    /// envelope's bytes, so anyone can check who published it without opening it.
    pub const SEALED_FILE: &str = "qijudge-sealed-file";
    /// The judge's statement that it wrote a sealed output (see `judge::sealing`).
    pub const SEALED_OUTPUT: &str = "qijudge-sealed-output";
}

/// Why a key or signature was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureError {
    BadKey(String),
    NotEd25519,
    Encrypted,
    Malformed(String),
    WrongNamespace {
        expected: String,
        found: String,
    },
    WrongKey,
    Invalid,
    /// A small-order public key: one signature would verify for every message.
    WeakKey,
    /// A public key whose encoding is not the canonical one for its point.
    NonCanonicalKey,
    /// ssh-agent could not sign.
    Agent(String),
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureError::BadKey(e) => write!(f, "not an OpenSSH key: {e}"),
            SignatureError::NotEd25519 => write!(f, "only ssh-ed25519 keys are accepted"),
            SignatureError::Encrypted => write!(
                f,
                "the private key is protected by a passphrase: run the command on a terminal to be asked \
                 for it, or load the key into ssh-agent (ssh-add KEY) and give KEY.pub"
            ),
            SignatureError::Agent(e) => write!(f, "ssh-agent: {e}"),
            SignatureError::Malformed(e) => write!(f, "not an SSH signature: {e}"),
            SignatureError::WrongNamespace { expected, found } => {
                write!(f, "signature is for namespace {found:?}, expected {expected:?}")
            }
            SignatureError::WrongKey => write!(f, "signed by a different key than the one this seat registered"),
            SignatureError::Invalid => write!(f, "signature does not match the file's bytes"),
            SignatureError::WeakKey => write!(f, "weak Ed25519 key (small order): refused, make a new key with qijudge keygen"),
            SignatureError::NonCanonicalKey => write!(f, "non-canonical Ed25519 key encoding: refused"),
        }
    }
}

impl std::error::Error for SignatureError {}

/// Parses an `ssh-ed25519 AAAA… comment` line and checks the key's point.
pub fn parse_public_key(line: &str) -> Result<PublicKey, SignatureError> {
    let key =
        PublicKey::from_openssh(line.trim()).map_err(|e| SignatureError::BadKey(e.to_string()))?;
    check_key(&key)?;
    Ok(key)
}

/// Refuses keys other than Ed25519, points that do not decode, small-order points (with which
/// one signature verifies every message, in ed25519-dalek's plain `verify` and in
/// `ssh-keygen -Y verify` alike), and non-canonical encodings of a point.
pub fn check_key(key: &PublicKey) -> Result<(), SignatureError> {
    if key.algorithm() != Algorithm::Ed25519 {
        return Err(SignatureError::NotEd25519);
    }
    let ed = key.key_data().ed25519().ok_or(SignatureError::NotEd25519)?;
    check_key_bytes(&ed.0)
}

/// The point checks of [`check_key`] on the 32 encoded bytes.
pub fn check_key_bytes(bytes: &[u8; 32]) -> Result<(), SignatureError> {
    let vk = ed25519_dalek::VerifyingKey::from_bytes(bytes)
        .map_err(|_| SignatureError::BadKey("not a point on Ed25519".into()))?;
    if vk.is_weak() {
        return Err(SignatureError::WeakKey);
    }
    if vk.to_edwards().compress().to_bytes() != *bytes {
        return Err(SignatureError::NonCanonicalKey);
    }
    Ok(())
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
    check_key(key.public_key())?;
    Ok(key)
}

/// What signs a player's file: a private key in memory, or the agent.
pub trait Sign {
    fn public(&self) -> &PublicKey;
    /// An armored SSHSIG signature of `msg` in `namespace`.
    fn sign_file(&self, namespace: &str, msg: &[u8]) -> Result<String, SignatureError>;
    /// The private key itself, where there is one (opening sealed files needs it).
    fn private(&self) -> Option<&PrivateKey>;
}

impl Sign for PrivateKey {
    fn public(&self) -> &PublicKey {
        self.public_key()
    }
    fn sign_file(&self, namespace: &str, msg: &[u8]) -> Result<String, SignatureError> {
        Ok(sign(self, namespace, msg))
    }
    fn private(&self) -> Option<&PrivateKey> {
        Some(self)
    }
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

/// Ed25519 signing keys this process has expanded, by public key: expanding one from its seed
/// costs a scalar multiplication, about as much as the signature itself, and a match signs
/// thousands of moves with a few keys.
static SIGNING_KEYS: std::sync::Mutex<Vec<([u8; 32], ed25519_dalek::SigningKey)>> =
    std::sync::Mutex::new(Vec::new());

/// At most this many expanded keys are kept (a match has one per bot and the judge's).
const SIGNING_KEYS_CAPACITY: usize = 64;

fn signing_key(key: &PrivateKey) -> Option<ed25519_dalek::SigningKey> {
    let pair = key.key_data().ed25519()?;
    let public = pair.public.0;
    let mut keys = SIGNING_KEYS.lock().ok()?;
    if let Some((_, k)) = keys.iter().find(|(p, _)| *p == public) {
        return Some(k.clone());
    }
    let k = ed25519_dalek::SigningKey::from_bytes(&pair.private.to_bytes());
    // A key file whose halves disagree is not used (ssh-key checks the same).
    if k.verifying_key().to_bytes() != public {
        return None;
    }
    if keys.len() >= SIGNING_KEYS_CAPACITY {
        keys.clear();
    }
    keys.push((public, k.clone()));
    Some(k)
}

/// Ed25519 public keys this process has decompressed (a few per game, used for every move).
static VERIFYING_KEYS: std::sync::Mutex<Vec<ed25519_dalek::VerifyingKey>> =
    std::sync::Mutex::new(Vec::new());

fn verifying_key(bytes: &[u8; 32]) -> Option<ed25519_dalek::VerifyingKey> {
    let mut keys = VERIFYING_KEYS.lock().ok()?;
    if let Some(k) = keys.iter().find(|k| k.as_bytes() == bytes) {
        return Some(*k);
    }
    let k = ed25519_dalek::VerifyingKey::from_bytes(bytes).ok()?;
    if keys.len() >= SIGNING_KEYS_CAPACITY {
        keys.clear();
    }
    keys.push(k);
    Some(k)
}

/// Signs `msg` for a namespace; the armored `-----BEGIN SSH SIGNATURE-----` text (byte for byte
/// what `ssh-keygen -Y sign` writes: Ed25519 signatures are deterministic).
pub fn sign(key: &PrivateKey, namespace: &str, msg: &[u8]) -> String {
    use ed25519_dalek::Signer;
    let fast = || -> Option<String> {
        let signing = signing_key(key)?;
        let data = SshSig::signed_data(namespace, HashAlg::Sha512, msg).ok()?;
        let signature =
            ssh_key::Signature::new(Algorithm::Ed25519, signing.sign(&data).to_bytes().to_vec())
                .ok()?;
        let public = key.public_key();
        let pem = SshSig::new(
            public.key_data().clone(),
            namespace,
            HashAlg::Sha512,
            signature,
        )
        .ok()?
        .to_pem(LineEnding::LF)
        .ok()?;
        // A signature made here verifies by construction (`signing_key` takes only a key whose
        // halves agree): remembered, so a match judging the move it has just signed for its
        // bot does not verify it again.
        if !signing.verifying_key().is_weak() {
            remember(verification_digest(public, namespace, msg, &pem));
        }
        Some(pem)
    };
    fast().unwrap_or_else(|| {
        key.sign(namespace, HashAlg::Sha512, msg)
            .and_then(|sig| sig.to_pem(LineEnding::LF))
            .expect("signing with an in-memory Ed25519 key does not fail")
    })
}

/// The canonical armor of a signature whose base64 was re-folded on its way (a mail client
/// wrapping at 64 or 76 columns, CRLF line ends, indentation): the signature bytes are what
/// count, so they are decoded and armored again as ssh-keygen writes them. `None` if the text
/// does not hold a signature.
pub fn canonical_armor(text: &str) -> Option<String> {
    const BEGIN: &str = "-----BEGIN SSH SIGNATURE-----";
    const END: &str = "-----END SSH SIGNATURE-----";
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let (first, rest) = lines.split_first()?;
    let (last, body) = rest.split_last()?;
    if *first != BEGIN || *last != END {
        return None;
    }
    let base64: String = body.concat();
    if !base64
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
    {
        return None;
    }
    let folded: Vec<String> = base64
        .as_bytes()
        .chunks(70)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    let pem = format!("{BEGIN}\n{}\n{END}\n", folded.join("\n"));
    SshSig::from_pem(&pem).ok()?.to_pem(LineEnding::LF).ok()
}

/// Signatures this process has verified, by a digest of everything the verification read (key,
/// namespace, message, armored signature). A pure function's results, remembered so that the
/// same file checked twice in one process (a match's session, then its audit of the finished
/// game) costs a hash, not a second verification. Bounded: cleared when full.
static VERIFIED: std::sync::Mutex<Option<std::collections::HashSet<[u8; 32]>>> =
    std::sync::Mutex::new(None);

/// At most this many remembered verifications (about 3 MB).
const VERIFIED_CAPACITY: usize = 100_000;

thread_local! {
    /// On this thread, while a [`TrustRecorded`] lives: the recorded files taken as the
    /// judge's signed record vouches for them (by [`trust_digest`]). Never shared with
    /// `VERIFIED`, so nothing taken on trust is ever counted as verified.
    static TRUSTED: std::cell::RefCell<Option<std::collections::HashSet<[u8; 32]>>> =
        const { std::cell::RefCell::new(None) };
}

/// While it lives, on this thread, [`confirm_recorded`] checks no signature: each file it is
/// given is one the judge's signed record already holds (its hash in a line the judge signed),
/// and the replay still reads every file and refuses one whose bytes are not the recorded
/// ones; its signature file is not read. Two readers need no more: standings over games whose
/// judge the organiser pins by key, and the judge's own run over the record it signed (the
/// judge checked every signature when it took the file). `verify` and `tournament --audit`
/// check them all. Files that are not in the record (new ones) are verified as always.
/// Scopes nest: an inner one leaves the outer one's trust as it found it.
pub struct TrustRecorded {
    outermost: bool,
}

impl TrustRecorded {
    pub fn enter() -> TrustRecorded {
        let outermost = TRUSTED.with(|t| {
            let mut t = t.borrow_mut();
            let outermost = t.is_none();
            t.get_or_insert_with(Default::default);
            outermost
        });
        TrustRecorded { outermost }
    }
}

impl Drop for TrustRecorded {
    fn drop(&mut self) {
        if self.outermost {
            TRUSTED.with(|t| *t.borrow_mut() = None);
        }
    }
}

/// Whether this thread takes recorded files on trust (see [`TrustRecorded`]).
pub fn trusting() -> bool {
    TRUSTED.with(|t| t.borrow().is_some())
}

/// Whether, on this thread, `msg` is a recorded file taken on trust for `key` in `namespace`
/// (see [`TrustRecorded`]): then its signature file is not even read.
pub fn is_trusted(key: &PublicKey, namespace: &str, msg: &[u8]) -> bool {
    // Nothing taken on trust yet (the record itself is read before its files): no hashing.
    !nothing_trusted() && is_trusted_sha256(key, namespace, &crate::hash::sha256(msg))
}

/// [`is_trusted`] for the file whose SHA-256 is `msg_sha256` (a reader that hashes the file
/// anyway, for its record line, need not hash it twice).
pub fn is_trusted_sha256(key: &PublicKey, namespace: &str, msg_sha256: &[u8; 32]) -> bool {
    if nothing_trusted() {
        return false;
    }
    let digest = trust_digest(key, namespace, msg_sha256);
    TRUSTED.with(|t| t.borrow().as_ref().is_some_and(|s| s.contains(&digest)))
}

fn nothing_trusted() -> bool {
    TRUSTED.with(|t| t.borrow().as_ref().is_none_or(|s| s.is_empty()))
}

/// Takes files on trust by their SHA-256, as [`confirm_recorded`] does while trusting, for a
/// reader that has just hashed each file to match it to its record line. Nothing is taken
/// outside a [`TrustRecorded`] scope.
pub fn trust_recorded(files: &[(&PublicKey, &str, [u8; 32])]) {
    TRUSTED.with(|t| {
        if let Some(set) = t.borrow_mut().as_mut() {
            set.extend(files.iter().map(|(k, ns, sha)| trust_digest(k, ns, sha)));
        }
    });
}

/// What a file taken on trust is remembered by: its key, namespace and bytes (by their
/// SHA-256), not its signature, which the record does not cover and a trusting replay does not
/// read.
fn trust_digest(key: &PublicKey, namespace: &str, msg_sha256: &[u8; 32]) -> [u8; 32] {
    digest_of_parts(key, namespace, msg_sha256, "")
}

fn verification_digest(key: &PublicKey, namespace: &str, msg: &[u8], armored: &str) -> [u8; 32] {
    digest_of_parts(key, namespace, &crate::hash::sha256(msg), armored)
}

fn digest_of_parts(
    key: &PublicKey,
    namespace: &str,
    msg_sha256: &[u8; 32],
    armored: &str,
) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for part in [
        key.key_data().ed25519().map_or(&[][..], |k| &k.0[..]),
        namespace.as_bytes(),
        &msg_sha256[..],
        armored.as_bytes(),
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    h.finalize().into()
}

/// Forgets every remembered verification (benchmarks measure the verification itself).
pub fn forget_verified() {
    if let Ok(mut set) = VERIFIED.lock() {
        *set = None;
    }
}

/// Verifies an armored SSHSIG over `msg` by `key` in `namespace`.
pub fn verify(
    key: &PublicKey,
    namespace: &str,
    msg: &[u8],
    armored: &str,
) -> Result<(), SignatureError> {
    if trusting() && is_trusted(key, namespace, msg) {
        return Ok(());
    }
    let digest = verification_digest(key, namespace, msg, armored);
    if VERIFIED
        .lock()
        .is_ok_and(|set| set.as_ref().is_some_and(|s| s.contains(&digest)))
    {
        return Ok(());
    }
    verify_uncached(key, namespace, msg, armored)?;
    remember(digest);
    Ok(())
}

fn remember(digest: [u8; 32]) {
    if let Ok(mut set) = VERIFIED.lock() {
        let set = set.get_or_insert_with(Default::default);
        if set.len() >= VERIFIED_CAPACITY {
            set.clear();
        }
        set.insert(digest);
    }
}

fn verify_uncached(
    key: &PublicKey,
    namespace: &str,
    msg: &[u8],
    armored: &str,
) -> Result<(), SignatureError> {
    let p = prepare(key, namespace, msg, armored)?;
    let verifying = verifying_key(&p.key).ok_or(SignatureError::WrongKey)?;
    verifying
        .verify_strict(
            &p.signed,
            &ed25519_dalek::Signature::from_bytes(&p.signature),
        )
        .map_err(|_| SignatureError::Invalid)
}

/// What the Ed25519 check of one SSHSIG signature needs, once everything around it (armor,
/// namespace, key, algorithm) has been checked.
struct Prepared {
    key: [u8; 32],
    signature: [u8; 64],
    /// The bytes the Ed25519 signature signs (SSHSIG's blob over the message's SHA-512).
    signed: Vec<u8>,
}

/// The signature in `armored` when the armour is canonical (what `SshSig::to_pem` writes, with
/// LF line ends): the PEM path's result, read without its constant-time base64, which is most of
/// what preparing a small file's signature costs. Any other text is left to the PEM path, which
/// accepts or explains. Canonical because each step is: the header and footer exactly, 70-column
/// lines, base64 decoded strictly (padding, no stray bits), and the decoded bytes exactly the
/// signature's own encoding.
fn canonical_armour(armored: &str) -> Option<SshSig> {
    use base64::Engine;
    use ssh_encoding::{Decode, Encode};
    const WIDTH: usize = 70;
    let body = armored
        .strip_prefix("-----BEGIN SSH SIGNATURE-----\n")?
        .strip_suffix("\n-----END SSH SIGNATURE-----\n")?;
    let lines: Vec<&str> = body.split('\n').collect();
    let (last, full) = lines.split_last()?;
    if full.iter().any(|l| l.len() != WIDTH) || last.is_empty() || last.len() > WIDTH {
        return None;
    }
    let raw = base64::engine::general_purpose::STANDARD
        .decode(lines.concat())
        .ok()?;
    let mut rest = raw.as_slice();
    let sig = SshSig::decode(&mut rest).ok()?;
    let mut again = Vec::with_capacity(raw.len());
    sig.encode(&mut again).ok()?;
    (rest.is_empty() && again == raw).then_some(sig)
}

fn prepare(
    key: &PublicKey,
    namespace: &str,
    msg: &[u8],
    armored: &str,
) -> Result<Prepared, SignatureError> {
    let sig = match canonical_armour(armored) {
        Some(sig) => sig,
        None => {
            let sig =
                SshSig::from_pem(armored).map_err(|e| SignatureError::Malformed(e.to_string()))?;
            // Canonical armor only (as both ssh-keygen and qijudge write it), so no byte of a
            // signature file can change unnoticed.
            if sig.to_pem(LineEnding::LF).ok().as_deref() != Some(armored) {
                return Err(SignatureError::Malformed(
                    "not in canonical form (70-column base64, LF line ends)".into(),
                ));
            }
            sig
        }
    };
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
    let signature: [u8; 64] = sig
        .signature_bytes()
        .try_into()
        .map_err(|_| SignatureError::Invalid)?;
    let signed =
        SshSig::signed_data(namespace, sig.hash_alg(), msg).map_err(|_| SignatureError::Invalid)?;
    Ok(Prepared {
        key: ed.0,
        signature,
        signed,
    })
}

/// One signature for [`confirm_recorded`].
pub struct Recorded<'a> {
    pub key: &'a PublicKey,
    pub namespace: &'a str,
    pub msg: &'a [u8],
    pub armored: &'a str,
}

/// Confirms, in batches, the signatures of files that the judge's signed record already holds,
/// and remembers those that hold, so that the replay's [`verify`] of each is a lookup. Returns
/// how many were confirmed; the others are left for [`verify`] to check one by one and explain.
///
/// Why this is sound and stays strict where it decides: a file enters the record only after
/// [`verify`] accepted it (strictly, as `ssh-keygen -Y verify` would), so here the question is
/// only whether the file is still the one its key signed. A batch answers it with ZIP 215's
/// cofactored equation `[8][s]B = [8]R + [8][k]A` (ed25519-zebra, random 128-bit weights from
/// the OS): every strictly valid signature satisfies it, a batch passes exactly when each of its
/// signatures does (but with probability 2⁻¹²⁸), and no one without the private key can make a
/// signature that does. ed25519-dalek's own batch check is not used: it takes the cofactorless
/// equation with weights drawn from the batch itself, so a signature that its signer built with
/// a small-order part in R passes or fails depending on the other files in the batch, and a move
/// the judge accepted could be refused by a later run.
pub fn confirm_recorded(items: &[Recorded]) -> usize {
    if trusting() {
        // Nothing of the signature is checked: the record vouches for the file, whose bytes
        // the replay matches to its line.
        let taken: Vec<_> = items
            .iter()
            .map(|i| (i.key, i.namespace, crate::hash::sha256(i.msg)))
            .collect();
        trust_recorded(&taken);
        return taken.len();
    }
    let mut pending = Vec::with_capacity(items.len());
    {
        let Ok(set) = VERIFIED.lock() else {
            return 0;
        };
        for item in items {
            let digest = verification_digest(item.key, item.namespace, item.msg, item.armored);
            if set.as_ref().is_some_and(|s| s.contains(&digest)) {
                continue;
            }
            // A file that fails the checks around the signature is left for `verify` to name.
            if let Ok(p) = prepare(item.key, item.namespace, item.msg, item.armored) {
                pending.push((digest, p));
            }
        }
    }
    let mut confirmed = Vec::with_capacity(pending.len());
    confirm(&pending, &mut confirmed);
    let count = confirmed.len();
    if let Ok(mut set) = VERIFIED.lock() {
        let set = set.get_or_insert_with(Default::default);
        if set.len() + count > VERIFIED_CAPACITY {
            set.clear();
        }
        set.extend(confirmed);
    }
    count
}

/// Batch-verifies `items`; where a batch fails, its halves are tried apart, so a few bad files
/// among many cost a few extra batches and the good ones are still confirmed.
fn confirm(items: &[([u8; 32], Prepared)], confirmed: &mut Vec<[u8; 32]>) {
    use ed25519_zebra::{batch, Signature, VerificationKey, VerificationKeyBytes};
    match items {
        [] => {}
        [(digest, p)] => {
            let holds = VerificationKey::try_from(p.key).is_ok_and(|k| {
                k.verify(&Signature::from_bytes(&p.signature), &p.signed)
                    .is_ok()
            });
            if holds {
                confirmed.push(*digest);
            }
        }
        _ => {
            let mut verifier = batch::Verifier::new();
            for (_, p) in items {
                verifier.queue((
                    VerificationKeyBytes::from(p.key),
                    Signature::from_bytes(&p.signature),
                    &p.signed,
                ));
            }
            if verifier.verify(rand_core::OsRng).is_ok() {
                confirmed.extend(items.iter().map(|(d, _)| *d));
            } else {
                let (left, right) = items.split_at(items.len() / 2);
                confirm(left, confirmed);
                confirm(right, confirmed);
            }
        }
    }
}

/// Signatures no honest signer makes, built by hand for tests of what the checks refuse
/// (the `forge` feature: for tests only).
#[cfg(any(test, feature = "forge"))]
pub mod forge {
    use super::*;

    /// An SSHSIG armor around raw Ed25519 signature bytes over `msg`.
    pub fn armor(key: &PrivateKey, ns: &str, bytes: [u8; 64]) -> String {
        let signature = ssh_key::Signature::new(Algorithm::Ed25519, bytes.to_vec()).unwrap();
        SshSig::new(
            key.public_key().key_data().clone(),
            ns,
            HashAlg::Sha512,
            signature,
        )
        .unwrap()
        .to_pem(LineEnding::LF)
        .unwrap()
    }

    /// An Ed25519 signature whose R carries a small-order point of the given order index (with
    /// nonce 0, R is that point alone): only the key's holder can make one (s needs the private
    /// scalar). The cofactorless equation
    /// fails by that point; the cofactored one holds.
    pub fn signed_with_torsion(
        key: &PrivateKey,
        data: &[u8],
        torsion: usize,
        nonce: u64,
    ) -> [u8; 64] {
        use curve25519_dalek::{constants, scalar::Scalar};
        use sha2::{Digest, Sha512};
        let signing = signing_key(key).unwrap();
        let r = Scalar::from(nonce);
        let big_r = (&r * constants::ED25519_BASEPOINT_TABLE + constants::EIGHT_TORSION[torsion])
            .compress();
        let hash = Sha512::new()
            .chain_update(big_r.as_bytes())
            .chain_update(signing.verifying_key().as_bytes())
            .chain_update(data)
            .finalize();
        let k = Scalar::from_bytes_mod_order_wide(&hash.into());
        let s = r + k * signing.to_scalar();
        let mut bytes = [0u8; 64];
        bytes[..32].copy_from_slice(big_r.as_bytes());
        bytes[32..].copy_from_slice(s.as_bytes());
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::forge::*;
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

    /// What a trust scope takes on the record's word stays in the scope and on its thread:
    /// once it ends, and on any other thread meanwhile, the same bad signature is refused, and
    /// it never counts as verified in the process.
    #[test]
    fn a_trust_scope_takes_recorded_files_only_while_it_lives_and_only_on_its_thread() {
        let key = generate("alice");
        let sig = sign(&key, namespace::MOVE, b"the recorded move");
        let public = key.public_key();
        // Signed over other bytes: the file changed, or the signature was damaged.
        let msg = b"another move";
        let bad = || verify(public, namespace::MOVE, msg, &sig);
        assert_eq!(bad(), Err(SignatureError::Invalid));
        let item = Recorded {
            key: public,
            namespace: namespace::MOVE,
            msg,
            armored: &sig,
        };
        {
            let _trust = TrustRecorded::enter();
            assert_eq!(confirm_recorded(std::slice::from_ref(&item)), 1);
            assert_eq!(bad(), Ok(()), "taken on the record's word");
            let elsewhere = std::thread::scope(|s| {
                s.spawn(|| verify(public, namespace::MOVE, msg, &sig))
                    .join()
                    .unwrap()
            });
            assert_eq!(elsewhere, Err(SignatureError::Invalid));
        }
        assert_eq!(bad(), Err(SignatureError::Invalid), "the scope ended");
        // Without a scope, the batch checks it and it stays refused.
        assert_eq!(confirm_recorded(std::slice::from_ref(&item)), 0);
        assert_eq!(bad(), Err(SignatureError::Invalid));
    }

    /// An OpenSSH public key line for 32 raw key bytes.
    fn key_line(bytes: [u8; 32]) -> String {
        let data = ssh_key::public::KeyData::Ed25519(ssh_key::public::Ed25519PublicKey(bytes));
        PublicKey::new(data, "").to_openssh().unwrap()
    }

    #[test]
    fn weak_and_non_canonical_keys_are_refused() {
        // The identity point (y = 1) has order 1: a small-order key.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        assert_eq!(
            parse_public_key(&key_line(identity)).unwrap_err(),
            SignatureError::WeakKey
        );
        // Why: with that key, R = identity and S = 0 verify for every message under plain
        // (non-strict) verification.
        use ed25519_dalek::Verifier;
        let weak = ed25519_dalek::VerifyingKey::from_bytes(&identity).unwrap();
        let mut forged = [0u8; 64];
        forged[0] = 1;
        let forged = ed25519_dalek::Signature::from_bytes(&forged);
        assert!(weak.verify(b"any message", &forged).is_ok());
        assert!(weak.verify(b"any other message", &forged).is_ok());
        assert!(weak.verify_strict(b"any message", &forged).is_err());
        // y = 0 has order 4.
        assert_eq!(
            parse_public_key(&key_line([0u8; 32])).unwrap_err(),
            SignatureError::WeakKey
        );
        let mut minus_zero = identity;
        minus_zero[31] |= 0x80;
        assert!(parse_public_key(&key_line(minus_zero)).is_err());
        // Non-canonical: y + p for every small y whose point exists (p = 2^255 - 19).
        let mut found = 0;
        for y in 0u8..19 {
            let mut bytes = [0xffu8; 32];
            bytes[0] = 0xed + y;
            bytes[31] = 0x7f;
            if ed25519_dalek::VerifyingKey::from_bytes(&bytes).is_ok() {
                let e = check_key_bytes(&bytes).unwrap_err();
                assert!(
                    matches!(e, SignatureError::NonCanonicalKey | SignatureError::WeakKey),
                    "{e:?}"
                );
                found += usize::from(e == SignatureError::NonCanonicalKey);
            }
        }
        assert!(found > 0, "some y + p decodes to a proper point");
        let good = generate("x");
        assert!(parse_public_key(&public_key_line(good.public_key())).is_ok());
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

    #[test]
    fn refolded_armor_is_put_back_in_canonical_form() {
        let key = generate("t");
        let sig = sign(&key, "qijudge-move", b"m");
        let lines: Vec<&str> = sig.lines().collect();
        let body: String = lines[1..lines.len() - 1].concat();
        for width in [64, 76] {
            let folded: Vec<String> = body
                .as_bytes()
                .chunks(width)
                .map(|c| format!("  {}", String::from_utf8_lossy(c)))
                .collect();
            let text = format!(
                "{}\r\n{}\r\n{}\r\n",
                lines[0],
                folded.join("\r\n"),
                lines[lines.len() - 1]
            );
            assert!(verify(key.public_key(), "qijudge-move", b"m", &text).is_err());
            let canonical = canonical_armor(&text).unwrap();
            assert_eq!(canonical, sig);
            verify(key.public_key(), "qijudge-move", b"m", &canonical).unwrap();
        }
        assert_eq!(
            canonical_armor("-----BEGIN SSH SIGNATURE-----\n!!\n-----END SSH SIGNATURE-----\n"),
            None
        );
        assert_eq!(canonical_armor("hello"), None);
    }

    #[test]
    fn a_remembered_verification_counts_only_for_the_same_key_namespace_message_and_signature() {
        let (key, other) = (generate("a"), generate("b"));
        let sig = sign(&key, "qijudge-move", b"m");
        for _ in 0..2 {
            verify(key.public_key(), "qijudge-move", b"m", &sig).unwrap();
        }
        assert!(verify(key.public_key(), "qijudge-move", b"n", &sig).is_err());
        assert!(verify(key.public_key(), "qijudge-view", b"m", &sig).is_err());
        assert!(verify(other.public_key(), "qijudge-move", b"m", &sig).is_err());
        let resigned = sign(&other, "qijudge-move", b"m");
        assert!(verify(key.public_key(), "qijudge-move", b"m", &resigned).is_err());
        forget_verified();
        verify(key.public_key(), "qijudge-move", b"m", &sig).unwrap();
    }

    #[test]
    fn a_key_file_whose_halves_disagree_is_refused_when_read() {
        use ssh_key::private::{Ed25519Keypair, KeypairData};
        // Signing with such a key would sign in b's name with a's key; the signatures the
        // process makes are remembered as verified only because this cannot happen.
        let (a, b) = (generate("a"), generate("b"));
        let (Some(pa), Some(pb)) = (a.key_data().ed25519(), b.key_data().ed25519()) else {
            panic!("Ed25519 keys");
        };
        let mixed = PrivateKey::new(
            KeypairData::Ed25519(Ed25519Keypair {
                public: pb.public,
                private: pa.private.clone(),
            }),
            "mixed",
        )
        .unwrap();
        let text = mixed.to_openssh(LineEnding::LF).unwrap();
        assert!(parse_private_key(&text).is_err());
        assert!(signing_key(&mixed).is_none());
    }

    #[test]
    fn the_fast_signature_is_the_one_ssh_key_makes() {
        let key = generate("t");
        for (ns, msg) in [
            ("qijudge-move", &b"m"[..]),
            ("qijudge-view", &[0u8; 1000][..]),
        ] {
            let expected = key
                .sign(ns, HashAlg::Sha512, msg)
                .unwrap()
                .to_pem(LineEnding::LF)
                .unwrap();
            assert_eq!(sign(&key, ns, msg), expected);
            assert_eq!(sign(&key, ns, msg), expected, "from the expanded-key cache");
        }
    }

    #[test]
    fn recorded_signatures_are_confirmed_in_batches_and_bad_ones_are_left_to_verify() {
        let (key, other) = (generate("batch"), generate("stranger"));
        let msgs: Vec<String> = (0..40).map(|i| format!("batch move {i}\n")).collect();
        let mut sigs: Vec<String> = msgs
            .iter()
            .map(|m| sign(&key, "qijudge-move", m.as_bytes()))
            .collect();
        // Three bad ones, spread out: another file's signature, a stranger's, a flipped s.
        sigs[3] = sigs[4].clone();
        sigs[20] = sign(&other, "qijudge-move", msgs[20].as_bytes());
        let pem = SshSig::from_pem(&sigs[37]).unwrap();
        let mut bytes: [u8; 64] = pem.signature_bytes().try_into().unwrap();
        bytes[40] ^= 1;
        sigs[37] = armor(&key, "qijudge-move", bytes);
        let items: Vec<Recorded> = msgs
            .iter()
            .zip(&sigs)
            .map(|(m, s)| Recorded {
                key: key.public_key(),
                namespace: "qijudge-move",
                msg: m.as_bytes(),
                armored: s,
            })
            .collect();
        forget_verified(); // the signatures made above are remembered as verified
        assert_eq!(confirm_recorded(&items), 37);
        // The bad ones are still checked one by one, and explained.
        for (i, (m, s)) in msgs.iter().zip(&sigs).enumerate() {
            let result = verify(key.public_key(), "qijudge-move", m.as_bytes(), s);
            match i {
                3 | 37 => assert_eq!(result, Err(SignatureError::Invalid), "{i}"),
                20 => assert_eq!(result, Err(SignatureError::WrongKey), "{i}"),
                _ => assert_eq!(result, Ok(()), "{i}"),
            }
        }
    }

    /// Under trust, a recorded file's bytes are taken without their signature (any armor, even
    /// none), other bytes are verified as always; nothing taken on trust is remembered as
    /// verified, and trust ends with the outermost scope.
    #[test]
    fn a_trusted_file_is_taken_by_its_bytes_and_trust_ends_with_the_outermost_scope() {
        let key = generate("trust");
        let (recorded, other) = (b"recorded move\n", b"another move\n");
        let bad = sign(&key, "qijudge-move", other);
        let outer = TrustRecorded::enter();
        let item = Recorded {
            key: key.public_key(),
            namespace: "qijudge-move",
            msg: recorded,
            armored: "",
        };
        assert_eq!(confirm_recorded(&[item]), 1);
        assert!(is_trusted(key.public_key(), "qijudge-move", recorded));
        assert!(!is_trusted(
            key.public_key(),
            "qijudge-commitment",
            recorded
        ));
        assert_eq!(
            verify(key.public_key(), "qijudge-move", recorded, &bad),
            Ok(())
        );
        assert_eq!(
            verify(key.public_key(), "qijudge-move", other, &bad),
            Ok(()),
            "the other file, signed, verifies"
        );
        let inner = TrustRecorded::enter();
        drop(inner);
        assert!(trusting() && is_trusted(key.public_key(), "qijudge-move", recorded));
        drop(outer);
        assert!(!trusting());
        assert_eq!(
            verify(key.public_key(), "qijudge-move", recorded, &bad),
            Err(SignatureError::Invalid)
        );
    }

    /// Files taken on trust by their SHA-256 are the files `confirm_recorded` takes, and
    /// nothing is taken outside a scope.
    #[test]
    fn files_trusted_by_their_sha256_are_trusted_by_their_bytes() {
        let key = generate("trust-sha");
        let (recorded, other) = (b"recorded move\n", b"another move\n");
        let sha = crate::hash::sha256(recorded);
        trust_recorded(&[(key.public_key(), "qijudge-move", sha)]);
        let scope = TrustRecorded::enter();
        assert!(!is_trusted(key.public_key(), "qijudge-move", recorded));
        trust_recorded(&[(key.public_key(), "qijudge-move", sha)]);
        assert!(is_trusted(key.public_key(), "qijudge-move", recorded));
        assert!(is_trusted_sha256(key.public_key(), "qijudge-move", &sha));
        assert!(!is_trusted(key.public_key(), "qijudge-move", other));
        assert!(!is_trusted(key.public_key(), "qijudge-view", recorded));
        drop(scope);
        assert!(!is_trusted_sha256(key.public_key(), "qijudge-move", &sha));
    }

    #[test]
    fn a_batch_decides_a_signers_small_order_part_the_same_way_in_every_company() {
        use ed25519_dalek::Signer as _;
        let key = generate("torsion");
        let signing = signing_key(&key).unwrap();
        let verifying = signing.verifying_key();
        let data = SshSig::signed_data("qijudge-move", HashAlg::Sha512, b"m").unwrap();
        // Order 2 (index 4 of the eight-torsion table): dalek's batch weights catch it half the time.
        let odd = ed25519_dalek::Signature::from_bytes(&signed_with_torsion(&key, &data, 4, 7));
        assert!(
            verifying.verify_strict(&data, &odd).is_err(),
            "strict refuses it"
        );
        let odd_armor = armor(&key, "qijudge-move", odd.to_bytes());
        assert_eq!(
            verify(key.public_key(), "qijudge-move", b"m", &odd_armor),
            Err(SignatureError::Invalid),
            "so a new file signed so is refused"
        );
        let (mut dalek_yes, mut dalek_no) = (0, 0);
        for company in 1..=16usize {
            let others: Vec<Vec<u8>> = (0..company)
                .map(|i| format!("other {i}").into_bytes())
                .collect();
            let mut msgs: Vec<&[u8]> = others.iter().map(|m| &m[..]).collect();
            let mut sigs: Vec<_> = others.iter().map(|m| signing.sign(m)).collect();
            msgs.push(&data);
            sigs.push(odd);
            match ed25519_dalek::verify_batch(&msgs, &sigs, &vec![verifying; msgs.len()]) {
                Ok(()) => dalek_yes += 1,
                Err(_) => dalek_no += 1,
            }
            // The cofactored batch (what `confirm_recorded` uses) gives one answer whatever
            // the company: the same as checking the signature alone.
            let other_armor: Vec<String> = others
                .iter()
                .map(|m| sign(&key, "qijudge-move", m))
                .collect();
            let mut items: Vec<Recorded> = others
                .iter()
                .zip(&other_armor)
                .map(|(m, s)| Recorded {
                    key: key.public_key(),
                    namespace: "qijudge-move",
                    msg: m,
                    armored: s,
                })
                .collect();
            items.push(Recorded {
                key: key.public_key(),
                namespace: "qijudge-move",
                msg: b"m",
                armored: &odd_armor,
            });
            forget_verified();
            assert_eq!(
                confirm_recorded(&items),
                company + 1,
                "company of {company}"
            );
        }
        assert!(
            dalek_yes > 0 && dalek_no > 0,
            "dalek's batch: {dalek_yes} passed, {dalek_no} failed"
        );
        forget_verified();
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// The batch confirms exactly the signatures that strict verification accepts, whatever
        /// bytes of which signatures were changed.
        #[test]
        fn the_batch_confirms_exactly_what_strict_verification_accepts(
            changes in proptest::collection::vec((0usize..12, 0usize..64, 1u8..=255), 0..4)
        ) {
            let key = generate("prop");
            let msgs: Vec<String> = (0..12).map(|i| format!("prop move {i}\n")).collect();
            let mut raw: Vec<[u8; 64]> = msgs
                .iter()
                .map(|m| {
                    let pem = SshSig::from_pem(sign(&key, "qijudge-move", m.as_bytes())).unwrap();
                    pem.signature_bytes().try_into().unwrap()
                })
                .collect();
            for (which, byte, flip) in changes {
                raw[which][byte] ^= flip;
            }
            let armored: Vec<String> = raw.iter().map(|b| armor(&key, "qijudge-move", *b)).collect();
            let strict = msgs
                .iter()
                .zip(&raw)
                .filter(|(m, b)| {
                    let data = SshSig::signed_data("qijudge-move", HashAlg::Sha512, m.as_bytes()).unwrap();
                    signing_key(&key)
                        .unwrap()
                        .verifying_key()
                        .verify_strict(&data, &ed25519_dalek::Signature::from_bytes(b))
                        .is_ok()
                })
                .count();
            let items: Vec<Recorded> = msgs
                .iter()
                .zip(&armored)
                .map(|(m, s)| Recorded { key: key.public_key(), namespace: "qijudge-move", msg: m.as_bytes(), armored: s })
                .collect();
            forget_verified(); // the signatures made above are remembered as verified
            proptest::prop_assert_eq!(confirm_recorded(&items), strict);
        }

        /// The fast armour reader takes a text only when the PEM path takes it as canonical,
        /// and reads the same signature: whatever characters of a real armour are changed,
        /// inserted or removed.
        #[test]
        fn the_fast_armour_reader_takes_only_what_the_pem_path_takes(
            edits in proptest::collection::vec((0usize..400, 0u8..4, proptest::sample::select(b"A/+=\n\r -0".to_vec())), 0..3)
        ) {
            let key = generate("armour");
            let mut text = sign(&key, "qijudge-move", b"a move\n").into_bytes();
            for (at, how, byte) in edits {
                let at = at % (text.len() + 1);
                match how {
                    0 if at < text.len() => text[at] = byte,
                    1 => text.insert(at, byte),
                    2 if at < text.len() => { text.remove(at); }
                    _ => {}
                }
            }
            let Ok(text) = String::from_utf8(text) else { return Ok(()) };
            let pem = SshSig::from_pem(&text)
                .ok()
                .filter(|s| s.to_pem(LineEnding::LF).ok().as_deref() == Some(text.as_str()));
            proptest::prop_assert_eq!(canonical_armour(&text), pem);
        }
    }

    /// Real signatures are read by the fast reader; a rewrapped or CRLF one is not.
    #[test]
    fn canonical_armour_is_read_fast_and_other_layouts_are_left_to_the_pem_reader() {
        let key = generate("armour");
        let sig = sign(&key, namespace::MOVE, b"hello");
        assert!(canonical_armour(&sig).is_some());
        assert_eq!(canonical_armour(&sig), SshSig::from_pem(&sig).ok());
        for other in [
            sig.replace('\n', "\r\n"),
            sig.replacen("\n", "\n\n", 2),
            sig.replacen('A', "\nA", 1),
            format!("{sig}\n"),
        ] {
            assert_eq!(canonical_armour(&other), None, "{other}");
        }
    }
}
