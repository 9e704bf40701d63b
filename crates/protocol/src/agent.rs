//! Signing through `ssh-agent`, where most players keep their keys: the agent holds the private
//! key and signs the SSHSIG blob for us (protocol: draft-miller-ssh-agent, messages
//! SSH_AGENTC_SIGN_REQUEST = 13, SSH_AGENT_SIGN_RESPONSE = 14, SSH_AGENT_FAILURE = 5).
//! The signature is checked against the public key before it is used.

use super::signing::{self, SignatureError};
use ssh_key::{Algorithm, HashAlg, LineEnding, PublicKey, SshSig};
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

const SIGN_REQUEST: u8 = 13;
const SIGN_RESPONSE: u8 = 14;
const FAILURE: u8 = 5;
/// A reply larger than this is not a signature.
const MAX_REPLY: usize = 64 * 1024;

/// A public key whose private half an agent holds, and that agent's socket.
#[derive(Clone, Debug)]
pub struct AgentKey {
    pub public: PublicKey,
    socket: PathBuf,
}

impl AgentKey {
    pub fn new(public: PublicKey, socket: &Path) -> AgentKey {
        AgentKey {
            public,
            socket: socket.to_path_buf(),
        }
    }

    /// An SSHSIG signature (armored, as `ssh-keygen -Y sign` writes it) of `msg` in `namespace`.
    pub fn sign(&self, namespace: &str, msg: &[u8]) -> Result<String, SignatureError> {
        let agent_error = |e: String| SignatureError::Agent(e);
        let data = SshSig::signed_data(namespace, HashAlg::Sha512, msg)
            .map_err(|e| SignatureError::Malformed(e.to_string()))?;
        let blob = self
            .public
            .to_bytes()
            .map_err(|e| SignatureError::BadKey(e.to_string()))?;
        let mut request = vec![SIGN_REQUEST];
        put_string(&mut request, &blob);
        put_string(&mut request, &data);
        request.extend_from_slice(&0u32.to_be_bytes());
        let reply = self.exchange(&request).map_err(agent_error)?;
        let signature = match reply.split_first() {
            Some((&SIGN_RESPONSE, rest)) => {
                let (sig_blob, _) =
                    take_string(rest).ok_or_else(|| agent_error("a truncated reply".into()))?;
                let (algorithm, rest) = take_string(sig_blob)
                    .ok_or_else(|| agent_error("a truncated signature".into()))?;
                let (bytes, _) =
                    take_string(rest).ok_or_else(|| agent_error("a truncated signature".into()))?;
                if algorithm != b"ssh-ed25519" {
                    return Err(SignatureError::NotEd25519);
                }
                ssh_key::Signature::new(Algorithm::Ed25519, bytes.to_vec())
                    .map_err(|e| SignatureError::Malformed(e.to_string()))?
            }
            Some((&FAILURE, _)) => {
                return Err(agent_error(
                    "the agent would not sign with this key: is it loaded (ssh-add -l)?".into(),
                ))
            }
            _ => return Err(agent_error("an answer that is not a signature".into())),
        };
        let pem = SshSig::new(
            self.public.key_data().clone(),
            namespace,
            HashAlg::Sha512,
            signature,
        )
        .and_then(|s| s.to_pem(LineEnding::LF))
        .map_err(|e| SignatureError::Malformed(e.to_string()))?;
        // The agent is another program: its signature must verify before anything uses it.
        signing::verify(&self.public, namespace, msg, &pem)?;
        Ok(pem)
    }

    /// Sends one framed request and reads one framed reply.
    fn exchange(&self, request: &[u8]) -> Result<Vec<u8>, String> {
        let shown = self.socket.display();
        let mut stream = UnixStream::connect(&self.socket)
            .map_err(|e| format!("cannot reach the agent at {shown} (SSH_AUTH_SOCK): {e}"))?;
        // An agent may ask its user to confirm (ssh-add -c): allow time for that, not forever.
        let wait = Some(Duration::from_secs(120));
        let _ = stream.set_read_timeout(wait);
        let _ = stream.set_write_timeout(wait);
        let mut framed = (request.len() as u32).to_be_bytes().to_vec();
        framed.extend_from_slice(request);
        stream
            .write_all(&framed)
            .map_err(|e| format!("writing to the agent: {e}"))?;
        let mut len = [0u8; 4];
        stream
            .read_exact(&mut len)
            .map_err(|e| format!("reading the agent's answer: {e}"))?;
        let len = u32::from_be_bytes(len) as usize;
        if len == 0 || len > MAX_REPLY {
            return Err(format!("an answer of {len} bytes"));
        }
        let mut reply = vec![0u8; len];
        stream
            .read_exact(&mut reply)
            .map_err(|e| format!("reading the agent's answer: {e}"))?;
        Ok(reply)
    }
}

fn put_string(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
    out.extend_from_slice(bytes);
}

/// An SSH `string` (u32 length, bytes) from the front of `input`, and what follows it.
fn take_string(input: &[u8]) -> Option<(&[u8], &[u8])> {
    let len = u32::from_be_bytes(input.get(..4)?.try_into().ok()?) as usize;
    let body = input.get(4..4usize.checked_add(len)?)?;
    Some((body, &input[4 + len..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_read_within_their_bounds() {
        let mut buf = Vec::new();
        put_string(&mut buf, b"ssh-ed25519");
        put_string(&mut buf, &[7; 64]);
        let (a, rest) = take_string(&buf).unwrap();
        assert_eq!(a, b"ssh-ed25519");
        let (b, rest) = take_string(rest).unwrap();
        assert_eq!((b.len(), rest.len()), (64, 0));
        // A length past the end, or the end itself, is not a string.
        assert!(take_string(&[0, 0, 0, 9, 1, 2]).is_none());
        assert!(take_string(&[0, 0]).is_none());
        assert!(take_string(&[0xff, 0xff, 0xff, 0xff]).is_none());
    }

    #[test]
    fn a_missing_agent_is_named() {
        let key = signing::generate("t");
        let agent = AgentKey::new(
            key.public_key().clone(),
            Path::new("/nonexistent/agent.sock"),
        );
        let e = agent.sign("qijudge-move", b"x").unwrap_err().to_string();
        assert!(
            e.contains("cannot reach the agent at /nonexistent/agent.sock"),
            "{e}"
        );
    }
}
