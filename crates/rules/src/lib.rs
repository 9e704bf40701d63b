//! What every game's rules share, with no I/O: the rules contract each game implements, a game
//! line with its history, why a game ends, what a move did in public, a seeded random number
//! generator for tests and bots, and the domain-separated SHA-256 the protocol and the shuffles
//! hash with. Each game's rules are a crate of their own above this one (`luzhanqi-rules`, ...).

pub mod conformance;
pub mod contract;
pub mod end;
pub mod hash;
pub mod line;
pub mod outcome;
pub mod random;

pub use end::EndReason;
pub use outcome::Outcome;
