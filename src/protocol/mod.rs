//! The trust protocol: hashes, commitments, signatures, canonical file formats and the record.

pub mod agent;
pub mod commitment;
pub mod files;
pub mod hash;
pub mod kinds;
pub mod plan;
pub mod record;
pub mod seal;
pub mod signing;
