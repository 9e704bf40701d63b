//! What a move did, as everyone may see it: it moved, or a combat had this result. Part of
//! the record's move lines in every game with combats (Luzhanqi, Banqi).

/// The public result of a move.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The destination was empty.
    Moved,
    /// The attacker removed the defender and moved in.
    AttackerWon,
    /// The attacker was removed.
    DefenderWon,
    /// Both pieces were removed.
    BothRemoved,
}
