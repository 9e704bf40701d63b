//! The position file: a whole position as JSON, for `qijudge moves` and for tests.

use super::board::{two_player, Seat};
use super::nodeset::NodeSet;
use super::options::Options;
use super::piece::Piece;
use super::position::{Position, Unit};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Format tag of position files.
pub const POSITION_FORMAT: &str = "qijudge/luzhanqi-position/1";

/// A position as written to and read from disk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionFile {
    /// Always `qijudge/luzhanqi-position/1`.
    pub format: String,
    /// The board (`2p`).
    pub board: String,
    pub rules: Options,
    /// The seat to move (`south` or `north`).
    pub to_move: String,
    #[serde(default)]
    pub ply: u32,
    #[serde(default)]
    pub plies_without_combat: u32,
    /// Per seat, square → piece.
    pub pieces: BTreeMap<String, BTreeMap<String, Piece>>,
    /// Flag-carrier variant: per seat whose flag is carried, the carrier's square.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub carried_flags: BTreeMap<String, String>,
    /// Flag-carrier variant: per seat, the headquarters its flag returns to.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub flag_homes: BTreeMap<String, String>,
}

impl PositionFile {
    /// Describes a position.
    pub fn from_position(pos: &Position) -> Self {
        let b = pos.board();
        let mut pieces: BTreeMap<String, BTreeMap<String, Piece>> = BTreeMap::new();
        let mut carried_flags = BTreeMap::new();
        let mut flag_homes = BTreeMap::new();
        for seat in b.seats() {
            let name = b.seat_name(seat).to_string();
            let mine = pos
                .occupied_by(seat)
                .iter()
                .filter_map(|sq| Some((b.name_of(sq).to_string(), pos.at(sq)?.piece)));
            pieces.insert(name.clone(), mine.collect());
            if let Some(c) = pos.carrier(seat) {
                carried_flags.insert(name.clone(), b.name_of(c).to_string());
                if let Some(h) = pos.flag_home(seat) {
                    flag_homes.insert(name, b.name_of(h).to_string());
                }
            }
        }
        PositionFile {
            format: POSITION_FORMAT.to_string(),
            board: b.name.clone(),
            rules: pos.options().clone(),
            to_move: b.seat_name(pos.to_move()).to_string(),
            ply: pos.ply(),
            plies_without_combat: pos.plies_without_combat(),
            pieces,
            carried_flags,
            flag_homes,
        }
    }

    /// Builds the position, refusing unknown boards, seats, squares and doubly occupied squares.
    pub fn to_position(&self) -> Result<Position, String> {
        if self.format != POSITION_FORMAT {
            return Err(format!(
                "format: expected {POSITION_FORMAT:?}, found {:?}",
                self.format
            ));
        }
        let b = two_player();
        if self.board != b.name {
            return Err(format!("board: unknown board {:?} (known: 2p)", self.board));
        }
        let seat = |name: &str, field: &str| {
            b.seat(name)
                .ok_or_else(|| format!("{field}: unknown seat {name:?}"))
        };
        let square = |name: &str, field: &str| {
            b.square(name)
                .ok_or_else(|| format!("{field}: no square {name:?}"))
        };
        let mut pos = Position::empty(b, self.rules.clone());
        pos.set_to_move(seat(&self.to_move, "to_move")?);
        pos.set_counters(self.ply, self.plies_without_combat);
        for (seat_name, pieces) in &self.pieces {
            let s: Seat = seat(seat_name, "pieces")?;
            for (sq_name, piece) in pieces {
                let sq = square(sq_name, &format!("pieces.{seat_name}"))?;
                if pos.at(sq).is_some() {
                    return Err(format!(
                        "pieces.{seat_name}.{sq_name}: square already occupied"
                    ));
                }
                pos.put(
                    sq,
                    Unit {
                        seat: s,
                        piece: *piece,
                    },
                );
            }
        }
        for (seat_name, carrier) in &self.carried_flags {
            let s = seat(seat_name, "carried_flags")?;
            let home = self
                .flag_homes
                .get(seat_name)
                .ok_or(format!("flag_homes.{seat_name}: missing"))?;
            pos.set_flag_state(
                s,
                Some(square(home, "flag_homes")?),
                Some(square(carrier, "carried_flags")?),
            );
        }
        Ok(pos)
    }
}
