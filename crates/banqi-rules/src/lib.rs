//! Banqi (暗棋, "dark chess"): the 32 Xiangqi pieces face down and shuffled on a 4 × 8 board.
//! A turn turns one face-down piece up or moves one of the mover's face-up pieces; the first
//! piece turned up gives its turner that colour. Rules as implemented, with the choices the
//! sources leave open: `docs/banqi.md`.
//!
//! Pieces and colours are Xiangqi's ([`xiangqi_rules`]); the board, the ranks, the
//! moves and the endings live here. No I/O.

pub mod game;
pub mod position;
pub mod shuffle;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod variant_tests;

pub use game::{Ending, Game, Played};
pub use position::{Action, Cell, Position, Square};
pub use shuffle::Layout;

use serde::{Deserialize, Serialize};

/// The rule options of a Banqi game (the manifest's `[rules]`). The variants a game may choose
/// (`docs/banqi.md` names each one's source) are written only when chosen, so a manifest made
/// before they existed reads as the game it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// A cannon may take a face-down piece by its jump (the piece is turned up and taken,
    /// whatever its colour). Off: only face-up enemy pieces can be taken.
    pub cannon_takes_face_down: bool,
    /// The quiet-ply limit: a draw after this many plies with neither a capture nor a piece
    /// turned up. `true` is the default [`MOVE_LIMIT_PLIES`], `false` none, a number that many.
    pub move_limit: QuietLimit,
    /// A draw when a position occurs for the third time (the Computer Olympiad's rule).
    #[serde(default, skip_serializing_if = "is_false")]
    pub repetition: bool,
    /// Chariots run any number of empty squares along a rank or file, as in Xiangqi (車直衝),
    /// and take the first enemy piece they meet: whatever its rank, or as their rank allows.
    #[serde(default, skip_serializing_if = "ChariotRuns::is_off")]
    pub chariot_runs: ChariotRuns,
    /// A piece that has taken may go on taking in the same turn (連吃).
    #[serde(default, skip_serializing_if = "is_false")]
    pub chain_captures: bool,
    /// The order of the ranks.
    #[serde(default, skip_serializing_if = "Ranking::is_standard")]
    pub ranking: Ranking,
    /// The older table: a cannon also takes by stepping, as a piece of rank 1 (an enemy cannon
    /// or soldier beside it).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cannon_takes_adjacent: bool,
    /// At a position's third occurrence, a seat whose every move since its first occurrence
    /// threatened an enemy piece that was not threatened before, while the other seat's did
    /// not, loses (長捉判負).
    #[serde(default, skip_serializing_if = "is_false")]
    pub long_chase: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for Options {
    /// What `qijudge new banqi` chooses: the 50-ply limit and the threefold repetition draw.
    fn default() -> Options {
        Options {
            cannon_takes_face_down: false,
            move_limit: QuietLimit(Some(MOVE_LIMIT_PLIES)),
            repetition: true,
            chariot_runs: ChariotRuns::Off,
            chain_captures: false,
            ranking: Ranking::Standard,
            cannon_takes_adjacent: false,
            long_chase: false,
        }
    }
}

/// Plies without a capture or a piece turned up after which a game with the default move limit
/// is drawn.
pub const MOVE_LIMIT_PLIES: u32 = 50;

/// The longest quiet-ply limit a game may set: with no repetition rule the limit is all that
/// ends a game in which nobody takes or turns up a piece, so it must be a length people play
/// (house rules use 50 to 200), not a number that never comes.
pub const MOVE_LIMIT_MAX: u32 = 1000;

/// The quiet-ply limit: none, or a number of plies. In a manifest `true` stands for the default
/// [`MOVE_LIMIT_PLIES`] and `false` for none (as manifests wrote it before numbers were taken),
/// any other limit as its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QuietLimit(pub Option<u32>);

impl Serialize for QuietLimit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            None => s.serialize_bool(false),
            Some(MOVE_LIMIT_PLIES) => s.serialize_bool(true),
            Some(n) => s.serialize_u32(n),
        }
    }
}

impl<'de> Deserialize<'de> for QuietLimit {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<QuietLimit, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Flag(bool),
            Plies(u32),
        }
        match Written::deserialize(d)? {
            Written::Flag(on) => Ok(QuietLimit(on.then_some(MOVE_LIMIT_PLIES))),
            Written::Plies(n) if n == 0 || n > MOVE_LIMIT_MAX => {
                Err(serde::de::Error::custom(format!(
                    "move-limit: a number of plies from 1 to {MOVE_LIMIT_MAX}, or false for none"
                )))
            }
            Written::Plies(n) => Ok(QuietLimit(Some(n))),
        }
    }
}

impl schemars::JsonSchema for QuietLimit {
    fn schema_name() -> String {
        "QuietLimit".into()
    }

    fn json_schema(_: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        let written = serde_json::json!({
            "description": "true: 50 plies; false: none; a number: that many plies",
            "oneOf": [{"type": "boolean"}, {"type": "integer", "minimum": 1}]
        });
        serde_json::from_value(written).unwrap_or(schemars::schema::Schema::Bool(true))
    }
}

/// Whether chariots run (車直衝), and what a run takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ChariotRuns {
    /// A chariot steps like every piece.
    #[default]
    Off,
    /// It runs, and takes the first face-up enemy piece it meets along its rank or file,
    /// whatever that piece's rank: the house rule as its texts give it.
    Free,
    /// It runs, and takes only what its rank allows (the reading qijudge first gave the
    /// option; games recorded with it keep it).
    Ranked,
}

impl ChariotRuns {
    pub fn is_off(&self) -> bool {
        *self == ChariotRuns::Off
    }

    pub fn runs(self) -> bool {
        self != ChariotRuns::Off
    }
}

/// In a manifest: `false` off; `"free"` (the house rule); `true` the ranked reading, as
/// manifests wrote the option before it had two readings, so that their games replay as
/// they were played.
impl Serialize for ChariotRuns {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ChariotRuns::Off => s.serialize_bool(false),
            ChariotRuns::Free => s.serialize_str("free"),
            ChariotRuns::Ranked => s.serialize_bool(true),
        }
    }
}

impl<'de> Deserialize<'de> for ChariotRuns {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ChariotRuns, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Flag(bool),
            Word(String),
        }
        match Written::deserialize(d)? {
            Written::Flag(false) => Ok(ChariotRuns::Off),
            Written::Flag(true) => Ok(ChariotRuns::Ranked),
            Written::Word(w) if w == "free" => Ok(ChariotRuns::Free),
            Written::Word(w) if w == "ranked" => Ok(ChariotRuns::Ranked),
            Written::Word(w) => Err(serde::de::Error::custom(format!(
                "chariot-runs: false, \"free\" or true (ranked), not {w:?}"
            ))),
        }
    }
}

impl schemars::JsonSchema for ChariotRuns {
    fn schema_name() -> String {
        "ChariotRuns".into()
    }

    fn json_schema(_: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        let written = serde_json::json!({
            "description": "false: chariots step; \"free\": they run and take any piece; true or \"ranked\": they run and take as their rank allows",
            "oneOf": [{"type": "boolean"}, {"enum": ["free", "ranked"]}]
        });
        serde_json::from_value(written).unwrap_or(schemars::schema::Schema::Bool(true))
    }
}

/// The order of the ranks, highest first.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Ranking {
    /// General, advisor, elephant, chariot, horse, cannon, soldier; the soldier takes the
    /// general and the general does not take the soldier; the cannon takes only by its jump.
    #[default]
    Standard,
    /// General, chariot, horse, cannon, elephant, advisor, soldier; every piece, the cannon
    /// included, takes by stepping onto a piece of its rank or lower, and the soldier also
    /// takes the general.
    HongKong,
}

impl Ranking {
    pub fn is_standard(&self) -> bool {
        *self == Ranking::Standard
    }
}

/// The seats, in manifest order: `first` moves first; colours come with the first piece up.
pub const SEATS: [&str; 2] = ["first", "second"];
