//! Adjudication of engine games, as engine testers set it in fastchess or cutechess-cli: resign
//! by score (both engines agree one side is lost), draw by score (both agree it is level, after
//! a move number), and a maximum length. Pure: the runner gives the scores the engines reported
//! and records the ruling in the game's signed record.

use qijudge_protocol::error::{Error, Result};

pub use qijudge_engine::score::{parse_info, Score};

/// What ends an engine game early. Moves are full moves (a move of each side), as in fastchess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// (moves, centipawns): a side loses when, for its last `moves` moves, it reported at most
    /// −cp and its opponent at least +cp.
    pub resign: Option<(u32, i32)>,
    /// (from move, moves, centipawns): a draw when, from full move `from` on, both sides reported
    /// within ±cp for their last `moves` moves each.
    pub draw: Option<(u32, u32, i32)>,
    /// A draw once this many full moves were played (a full move is one ply of every seat).
    /// Every game takes it; only Xiangqi and Jieqi take the score rulings.
    pub max_moves: Option<u32>,
}

/// A ruling: the winning seat's index (none: a draw) and its reason code.
pub type Ruling = (Option<usize>, &'static str);

impl Adjudication {
    pub fn is_off(&self) -> bool {
        *self == Adjudication::default()
    }

    /// Whether it rules on the engines' scores (`--resign`, `--draw`), which only games whose
    /// engines report scores take.
    pub fn by_score(&self) -> bool {
        self.resign.is_some() || self.draw.is_some()
    }

    /// `--resign MOVES:CP`, or cutechess-cli's and fastchess's words, `movecount=3 score=600`
    /// (spaces or commas between them). qijudge always waits for both engines' scores to
    /// agree, which is their `twosided=true` (taken; `twosided=false` is refused), where
    /// cutechess-cli's default reads the losing engine's score alone.
    pub fn parse_resign(text: &str) -> Result<(u32, i32)> {
        let bad = || {
            Error::Io(format!(
                "--resign {text:?}: expected MOVES:CP, e.g. 3:600 (a side loses after 3 moves \
                 with both engines' scores beyond 600 centipawns against it), or movecount=3 \
                 score=600"
            ))
        };
        let (moves, cp) = match cutechess_words(text, &["movecount", "score", "twosided"]) {
            Some(words) => {
                if words.get("twosided").is_some_and(|t| *t != "true") {
                    return Err(Error::Io(format!(
                        "--resign {text:?}: twosided=false is not offered: both engines' \
                         scores must agree"
                    )));
                }
                (
                    *words.get("movecount").ok_or_else(bad)?,
                    *words.get("score").ok_or_else(bad)?,
                )
            }
            None => text.split_once(':').ok_or_else(bad)?,
        };
        let moves: u32 = moves.parse().ok().filter(|m| *m > 0).ok_or_else(bad)?;
        let cp: i32 = cp.parse().ok().filter(|c| *c > 0).ok_or_else(bad)?;
        Ok((moves, cp))
    }

    /// `--draw FROM:MOVES:CP`, or cutechess-cli's words, `movenumber=34 movecount=8 score=20`.
    pub fn parse_draw(text: &str) -> Result<(u32, u32, i32)> {
        let bad = || {
            Error::Io(format!(
                "--draw {text:?}: expected FROM:MOVES:CP, e.g. 40:8:10 (from move 40, a draw \
                 after 8 moves with both engines' scores within 10 centipawns), or movenumber=40 \
                 movecount=8 score=10"
            ))
        };
        let (from, moves, cp) = match cutechess_words(text, &["movenumber", "movecount", "score"]) {
            Some(words) => (
                *words.get("movenumber").unwrap_or(&"0"),
                *words.get("movecount").ok_or_else(bad)?,
                *words.get("score").ok_or_else(bad)?,
            ),
            None => {
                let parts: Vec<&str> = text.split(':').collect();
                let [from, moves, cp] = parts[..] else {
                    return Err(bad());
                };
                (from, moves, cp)
            }
        };
        let from: u32 = from.parse().map_err(|_| bad())?;
        let moves: u32 = moves.parse().ok().filter(|m| *m > 0).ok_or_else(bad)?;
        let cp: i32 = cp.parse().ok().filter(|c| *c >= 0).ok_or_else(bad)?;
        Ok((from, moves, cp))
    }

    /// The settings in words, for the match state (a resumed match must use the same).
    pub fn describe(&self) -> Option<String> {
        if self.is_off() {
            return None;
        }
        let mut parts = Vec::new();
        if let Some((m, cp)) = self.resign {
            parts.push(format!("resign {m}:{cp}"));
        }
        if let Some((f, m, cp)) = self.draw {
            parts.push(format!("draw {f}:{m}:{cp}"));
        }
        if let Some(n) = self.max_moves {
            parts.push(format!("max-moves {n}"));
        }
        Some(parts.join(", "))
    }

    /// The ruling, if any, before the next ply, given each ply's mover (seat index 0 or 1) and
    /// the score it reported (none: it reported none) in the order played.
    pub fn rule(&self, plies: &[(usize, Option<Score>)], seats: usize) -> Option<Ruling> {
        let played = plies.len() as u64;
        if let Some(max) = self.max_moves {
            if played >= seats as u64 * u64::from(max) {
                return Some((None, qijudge_judge::pipeline::MAX_LENGTH));
            }
        }
        if let Some((moves, cp)) = self.resign {
            let last = last_scores(plies, moves)?;
            let cp = i64::from(cp);
            for loser in [0, 1] {
                let agreed = last.iter().all(|&(seat, s)| match seat == loser {
                    true => s <= -cp,
                    false => s >= cp,
                });
                if agreed {
                    return Some((Some(1 - loser), "score-resign"));
                }
            }
        }
        if let Some((from, moves, cp)) = self.draw {
            if played >= 2 * u64::from(from) {
                let last = last_scores(plies, moves)?;
                if last.iter().all(|&(_, s)| s.abs() <= i64::from(cp)) {
                    return Some((None, "score-draw"));
                }
            }
        }
        None
    }
}

/// The last `moves` scores of each side (2 × moves plies), in centipawns; none when fewer plies
/// were played or one of them has no score.
fn last_scores(plies: &[(usize, Option<Score>)], moves: u32) -> Option<Vec<(usize, i64)>> {
    let n = 2 * moves as usize;
    let tail = plies.get(plies.len().checked_sub(n)?..)?;
    tail.iter()
        .map(|&(seat, s)| s.map(|s| (seat, s.centipawns())))
        .collect()
}

/// `key=value` words (separated by spaces or commas) with only the given keys, as cutechess-cli
/// writes its adjudication settings; none when the text is not in that form.
fn cutechess_words<'a>(
    text: &'a str,
    keys: &[&str],
) -> Option<std::collections::BTreeMap<&'a str, &'a str>> {
    let mut words = std::collections::BTreeMap::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let (key, value) = word.split_once('=')?;
        if !keys.contains(&key) {
            return None;
        }
        words.insert(key, value);
    }
    (!words.is_empty()).then_some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plies(scores: &[i32]) -> Vec<(usize, Option<Score>)> {
        scores
            .iter()
            .enumerate()
            .map(|(i, &cp)| (i % 2, Some(Score::Cp(cp))))
            .collect()
    }

    #[test]
    fn a_side_resigns_only_when_both_engines_agree_for_enough_moves() {
        let a = Adjudication {
            resign: Some((2, 500)),
            ..Default::default()
        };
        // Seat 1 (black) sees itself lost and red sees itself winning, two moves each.
        assert_eq!(
            a.rule(&plies(&[10, -20, 600, -700, 650, -900]), 2),
            Some((Some(0), "score-resign"))
        );
        // One move is not enough; red not agreeing is not enough.
        assert_eq!(a.rule(&plies(&[10, -20, 30, -700, 650, -900]), 2), None);
        assert_eq!(a.rule(&plies(&[10, -20, 600, -700, 100, -900]), 2), None);
        // A missing score breaks the run.
        let mut p = plies(&[600, -700, 650, -900]);
        p[1].1 = None;
        assert_eq!(a.rule(&p, 2), None);
        // Mates count as beyond any threshold.
        let p = vec![
            (0, Some(Score::Mate(-5))),
            (1, Some(Score::Mate(4))),
            (0, Some(Score::Mate(-4))),
            (1, Some(Score::Mate(3))),
        ];
        assert_eq!(a.rule(&p, 2), Some((Some(1), "score-resign")));
    }

    #[test]
    fn a_draw_by_score_waits_for_its_move_number_and_a_max_length_ends_the_game() {
        let a = Adjudication {
            draw: Some((3, 2, 15)),
            ..Default::default()
        };
        assert_eq!(a.rule(&plies(&[0, 5, -10, 15]), 2), None, "before move 3");
        assert_eq!(
            a.rule(&plies(&[0, 5, -10, 15, 3, 2]), 2),
            Some((None, "score-draw"))
        );
        assert_eq!(a.rule(&plies(&[0, 5, -10, 15, 3, 40]), 2), None);
        let max = Adjudication {
            max_moves: Some(2),
            ..Default::default()
        };
        assert_eq!(max.rule(&plies(&[0, 0, 0]), 2), None);
        assert_eq!(
            max.rule(&plies(&[0, 0, 0, 0]), 2),
            Some((None, "max-moves"))
        );
        assert_eq!(Adjudication::default().rule(&plies(&[0; 400]), 2), None);
    }

    #[test]
    fn settings_and_info_lines_are_read_strictly() {
        assert_eq!(Adjudication::parse_resign("3:600").unwrap(), (3, 600));
        assert!(Adjudication::parse_resign("0:600").is_err());
        assert!(Adjudication::parse_resign("3").is_err());
        assert_eq!(Adjudication::parse_draw("40:8:10").unwrap(), (40, 8, 10));
        // As cutechess-cli and fleets write them.
        assert_eq!(
            Adjudication::parse_resign("movecount=3 score=400").unwrap(),
            (3, 400)
        );
        assert_eq!(
            Adjudication::parse_resign("movecount=3,score=400,twosided=true").unwrap(),
            (3, 400)
        );
        assert!(Adjudication::parse_resign("movecount=3 score=400 twosided=false").is_err());
        assert!(Adjudication::parse_resign("movecount=3").is_err());
        assert_eq!(
            Adjudication::parse_draw("movenumber=34 movecount=8 score=20").unwrap(),
            (34, 8, 20)
        );
        assert!(Adjudication::parse_draw("movenumber=34 moves=8 score=20").is_err());
        assert!(Adjudication::parse_draw("40:8").is_err());
        assert_eq!(parse_info("info depth 6 score 4 upperbound"), None);
        assert_eq!(parse_info("info string score cp"), None);
        assert_eq!(parse_info("bestmove h2e2"), None);
    }
}
