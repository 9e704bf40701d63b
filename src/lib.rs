//! qijudge: an auditable judge for board games played by signed turn files.

pub mod error;
pub mod protocol;
pub mod store;
pub mod view;
pub mod rules;
