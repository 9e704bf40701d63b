//! What the judge of a game dealt face down keeps (Jieqi, Banqi): both seats' nonces through the
//! secret contract, the layout their shuffle fixes once both are at hand, and what each piece
//! turned up is, from the layout or, in an audit before the reveal, from the record.

use super::context::Ctx;
use super::frame::Frame;
use super::nonces::NoncePair;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::files::{Entry, Notice};
use std::fmt::Display;

/// The game's shuffle: the layout the game id and both seats' nonces fix.
pub type Shuffle<L> = fn(&str, &[u8], &[u8]) -> L;

/// The nonces and the layout `L` they fix.
#[derive(Clone, Debug)]
pub struct FaceDown<L> {
    pub nonces: NoncePair,
    /// The layout, once both nonces are at hand (the judge, or anyone after the reveal).
    pub layout: Option<L>,
    shuffle: Shuffle<L>,
}

/// The deal's part in the record's opening, whatever the layout: what the turn referee asks
/// of a game dealt face down.
pub trait Deal {
    /// Whether both nonces are in and play has begun.
    fn begun(&self) -> bool;
    /// What the opening waits for, in words.
    fn waiting(&self, seats: &[&str]) -> Option<String>;
    /// The next record lines after the start line: the commitments, the nonces, the begin
    /// line; the layout is fixed when play begins with both nonces here.
    fn step(
        &mut self,
        cx: &Ctx,
        frame: &Frame,
        sealed: bool,
        clocked: bool,
    ) -> Result<Option<Vec<Entry>>>;
}

impl<L> Deal for FaceDown<L> {
    fn begun(&self) -> bool {
        self.nonces.begun
    }

    fn waiting(&self, seats: &[&str]) -> Option<String> {
        self.nonces.waiting(seats)
    }

    fn step(
        &mut self,
        cx: &Ctx,
        frame: &Frame,
        sealed: bool,
        clocked: bool,
    ) -> Result<Option<Vec<Entry>>> {
        let entries = self.nonces.step(cx, frame, sealed, clocked)?;
        if let Some((first, second)) = self.nonces.both().filter(|_| self.nonces.begun) {
            self.layout = Some((self.shuffle)(frame.id, &first, &second));
        }
        Ok(entries)
    }
}

/// The letters a replayed move line records: the piece the mover turned out to be, and the
/// face-down piece it took, where the record names them.
pub struct RecordedLetters {
    pub revealed: Option<String>,
    pub uncovered: Option<String>,
}

impl RecordedLetters {
    /// The letters of the move line `cx` replays; none when taking new files.
    pub fn of(cx: &Ctx) -> RecordedLetters {
        match cx.recorded() {
            Some(Entry::Move {
                revealed, notices, ..
            }) => RecordedLetters {
                revealed: revealed.clone(),
                uncovered: notices.iter().find_map(|n| match n {
                    Notice::Uncovered { piece, .. } => Some(piece.clone()),
                    _ => None,
                }),
            },
            _ => RecordedLetters {
                revealed: None,
                uncovered: None,
            },
        }
    }
}

/// How a game names its face-down pieces: `P` as the layout holds it.
pub trait Letters<P> {
    /// The letter the record writes for `piece`.
    fn letter(&self, piece: &P) -> String;
    /// The piece a recorded letter names, if it is one.
    fn read(&self, text: &str) -> Option<P>;
}

impl<L> FaceDown<L> {
    /// Before the nonces: the layout `shuffle` will fix.
    pub fn new(shuffle: Shuffle<L>) -> Self {
        FaceDown {
            nonces: NoncePair::default(),
            layout: None,
            shuffle,
        }
    }

    /// Begins play on `layout` (the rules contract's and the tests').
    pub fn deal(&mut self, layout: L) {
        self.nonces.begin();
        self.layout = Some(layout);
    }

    /// What the face-down piece on `square` is, at `ply`: from the layout (checked against the
    /// recorded letter in a replay), else from the recorded letter (an audit before the
    /// reveal); the judge without both nonces cannot say.
    pub fn identity<P: PartialEq, S: Display>(
        &self,
        names: &impl Letters<P>,
        at: impl FnOnce(&L, S) -> Option<P>,
        ply: u32,
        square: S,
        recorded: Option<&str>,
        seats: &[&str],
    ) -> Result<P> {
        let field = Some("revealed");
        let place = square.to_string();
        if let Some(layout) = &self.layout {
            let piece = at(layout, square).ok_or_else(|| {
                refuse("record.jsonl", None, format!("{place} is no start square"))
            })?;
            if let Some(text) = recorded.filter(|t| names.read(t).as_ref() != Some(&piece)) {
                return Err(refuse_with(
                    "record.jsonl",
                    field,
                    format!(
                        "ply {ply}: the record turns up {text} on {place}, but the nonces put {} there",
                        names.letter(&piece)
                    ),
                    "the record or the revealed nonces were changed",
                ));
            }
            return Ok(piece);
        }
        match recorded {
            Some(text) => names.read(text).ok_or_else(|| {
                refuse(
                    "record.jsonl",
                    field,
                    format!("ply {ply}: {text:?} is not a piece letter"),
                )
            }),
            None => Err(refuse_with(
                "record.jsonl",
                None,
                format!("the judge cannot turn up the piece on {place}: it lacks a nonce"),
                format!(
                    "the judge needs both players' nonces (setups/{}.toml, setups/{}.toml)",
                    seats[0], seats[1]
                ),
            )),
        }
    }
}
