//! What a referee's step may read besides the files: where the secrets come from, when, the
//! recorded line it checks, the judge's key.

use qijudge_protocol::files::{Entry, RecordLine};
use qijudge_store::GameDir;
use ssh_key::PrivateKey;

/// Where the secret inputs come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The judge: secrets from `setups/` (or sealed to the judge), new files taken.
    Judge,
    /// The audit: secrets from `reveal/`, only what the record holds.
    Audit,
}

/// What a step may read besides the files.
pub struct Ctx<'a> {
    pub dir: &'a GameDir,
    pub mode: Mode,
    /// When new files are received (the judge's time).
    pub now: &'a str,
    /// In a replay, the recorded lines from the one being checked; empty when taking new files.
    pub recorded: &'a [RecordLine],
    /// The judge's key, which opens what players sealed to the judge.
    pub key: Option<&'a PrivateKey>,
}

impl<'a> Ctx<'a> {
    /// The context of a step that takes files the record does not hold yet (the judge's).
    pub fn taking_new(dir: &'a GameDir, now: &'a str, key: Option<&'a PrivateKey>) -> Ctx<'a> {
        Ctx {
            dir,
            mode: Mode::Judge,
            now,
            recorded: &[],
            key,
        }
    }

    /// The recorded line the step is checking, if any.
    pub fn recorded(&self) -> Option<&Entry> {
        self.recorded.first().map(|l| &l.entry)
    }

    /// True while taking files the record does not hold yet.
    pub fn is_new(&self) -> bool {
        self.recorded.is_empty()
    }

    /// When a move file was received: now for new files, the recorded time in a replay (the move
    /// line comes first in its group, or second after a throw line).
    pub fn received(&self) -> String {
        self.recorded
            .iter()
            .take(2)
            .find_map(|l| match &l.entry {
                Entry::Move { received, .. } => Some(received.clone()),
                _ => None,
            })
            .unwrap_or_else(|| self.now.to_string())
    }

    /// The time a judge's line carries (`at` of a begin or forfeit): recorded, or now if the
    /// game has a clock.
    pub fn at(&self, recorded: Option<&Option<String>>, clock: bool) -> Option<String> {
        match recorded {
            Some(at) => at.clone(),
            None if self.is_new() && clock => Some(self.now.to_string()),
            None => None,
        }
    }
}
