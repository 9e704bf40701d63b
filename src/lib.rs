//! qijudge: an auditable judge for board games played by signed turn files.

pub mod protocol;
pub mod rules;
