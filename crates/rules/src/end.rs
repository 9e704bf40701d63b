//! Why a game ended, for every game: the reasons are part of the record's `end` line and of
//! every view, spelled in snake case (`flag_captured`, `checkmate`, `owl_captured`).

/// Why a game ended.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    FlagCaptured,
    FlagCarriedHome,
    NoLegalMove,
    NoMovablePieces,
    PliesWithoutCombat,
    /// Luzhanqi's attack-wait limit (CCGC): the side that had to attack did not in time.
    AttackWait,
    PlyLimit,
    Resignation,
    /// Both players agreed to a draw.
    Agreement,
    Forfeit,
    /// Xiangqi: the side to move is in check and has no legal move.
    Checkmate,
    /// Xiangqi: the side to move has no legal move and is not in check (it loses).
    Stalemate,
    /// Xiangqi: a repetition in which one side checked with every move.
    PerpetualCheck,
    /// Xiangqi: a repetition in which one side chased one piece with every move.
    PerpetualChase,
    /// Xiangqi: a repetition nobody is to blame for (a draw).
    Repetition,
    /// Xiangqi: the optional move limit (a draw).
    MoveLimit,
    /// Liubo: a stone took the loser's owl.
    OwlCaptured,
    /// Liubo: the loser had an owl at the end of its turn and the opponent five stones and none.
    FiveStones,
    /// Liubo: the loser has no stone left in play.
    NoPiecesInPlay,
    /// A match judge's ruling on the engines' own evaluations or the game's length (resign or
    /// draw by score, maximum length), recorded with its reason code.
    Adjudication,
}
