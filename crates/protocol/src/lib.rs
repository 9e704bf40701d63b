//! The trust protocol: hashes, commitments, signatures, canonical file formats and the record.

pub mod agent;
pub mod commitment;
pub mod files;

pub mod error;
pub mod kinds;
pub mod plan;
pub mod record;
mod record_line;
pub mod seal;
pub mod signer;
pub mod signing;

/// The tagged SHA-256 every digest of the protocol is made with (shared with the rules' shuffles).
pub use qijudge_rules::hash;
