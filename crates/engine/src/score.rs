//! What an engine reports of its move: its evaluation (centipawns or mate) and the depth.

/// A score an engine reported for its move, from the mover's side: centipawns, or mate in N
/// moves (negative: being mated).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    /// As centipawns; a mate counts as far beyond any evaluation.
    pub fn centipawns(self) -> i64 {
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n >= 0 => 1_000_000 - i64::from(n),
            Score::Mate(n) => -1_000_000 - i64::from(n),
        }
    }

    /// As cutechess and fastchess write it in a PGN comment: pawns with a sign (`+0.35`), or
    /// `+M3` / `-M3` for a mate.
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(n) if n >= 0 => format!("+M{n}"),
            Score::Mate(n) => format!("-M{}", -i64::from(n)),
        }
    }

    /// As UCI writes it: `cp 35`, `mate -3`.
    pub fn uci(self) -> String {
        match self {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        }
    }
}

/// The score in a UCI `info` line (`info depth 12 score cp -35 nodes …`), with its depth.
pub fn parse_info(line: &str) -> Option<(Score, Option<u32>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let at = words.iter().position(|w| *w == "score")?;
    // `score cp 35`, `score mate -3` (UCI); `score 35` (UCCI 3.0's own form, in centipawns).
    let (score, next) = match *words.get(at + 1)? {
        "cp" => (Score::Cp(words.get(at + 2)?.parse().ok()?), at + 3),
        "mate" => (Score::Mate(words.get(at + 2)?.parse().ok()?), at + 3),
        bare => (Score::Cp(bare.parse().ok()?), at + 2),
    };
    // A bound is not the engine's evaluation of its move.
    if matches!(words.get(next), Some(&"lowerbound") | Some(&"upperbound")) {
        return None;
    }
    let depth = words
        .iter()
        .position(|w| *w == "depth")
        .and_then(|i| words.get(i + 1)?.parse().ok());
    Some((score, depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read_strictly() {
        assert_eq!(
            parse_info("info depth 12 seldepth 15 score cp -35 nodes 1000 pv h2e2"),
            Some((Score::Cp(-35), Some(12)))
        );
        assert_eq!(
            parse_info("info depth 3 score mate 2 pv a0a1"),
            Some((Score::Mate(2), Some(3)))
        );
        assert_eq!(parse_info("info depth 9 score cp 20 lowerbound"), None);
        // UCCI's own form: the score in centipawns, no unit word.
        assert_eq!(
            parse_info("info depth 6 score 4 pv b0c2 b9c7"),
            Some((Score::Cp(4), Some(6)))
        );
    }
}
