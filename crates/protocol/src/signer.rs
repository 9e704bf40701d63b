//! A player's signing key, wherever its private half is: in a key file, or in ssh-agent.

use crate::agent::AgentKey;
use crate::signing::{sign, Sign, SignatureError};
use ssh_key::{PrivateKey, PublicKey};

/// A player's signing key: a private key file (opened with its passphrase if it has one), or a
/// public key whose private half ssh-agent holds.
#[derive(Clone, Debug)]
pub enum Signer {
    Key(PrivateKey),
    Agent(AgentKey),
}

impl Sign for Signer {
    fn public(&self) -> &PublicKey {
        match self {
            Signer::Key(k) => k.public_key(),
            Signer::Agent(a) => &a.public,
        }
    }
    fn sign_file(&self, namespace: &str, msg: &[u8]) -> Result<String, SignatureError> {
        match self {
            Signer::Key(k) => Ok(sign(k, namespace, msg)),
            Signer::Agent(a) => a.sign(namespace, msg),
        }
    }
    fn private(&self) -> Option<&PrivateKey> {
        match self {
            Signer::Key(k) => Some(k),
            Signer::Agent(_) => None,
        }
    }
}
