//! A two-bot result as engine-testing fleets read it: fastchess's summary lines (`Games: N,
//! Wins: W, Losses: L, Draws: D, Points: P (X %)`, `Ptnml(0-2): [..]`, `LLR: x (lo, hi)
//! [elo0, elo1]`), and the same figures as JSON for a worker to upload.

use super::sprt::Sprt;
use super::standings::GameRecord;
use serde::Serialize;
use std::collections::BTreeMap;

/// The first bot's result against the second.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub first: String,
    pub second: String,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub points: f64,
    /// Pairs of games (an opening played with each colour) that scored 0, ½, 1, 1½, 2 points;
    /// none when the games were not played in pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ptnml: Option<[u32; 5]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtState>,
}

/// The sequential test's state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub elo0: f64,
    pub elo1: f64,
    /// `H0`, `H1`, or none while it goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<String>,
}

impl Summary {
    /// From finished games between `first` and `second` (numbered `k`, from their folders'
    /// names, for pairs: games 2i+1 and 2i+2 make pair i when `pairs`).
    pub fn of(
        first: &str,
        second: &str,
        games: &[GameRecord],
        pairs: bool,
        sprt: Option<Sprt>,
    ) -> Summary {
        let (mut wins, mut losses, mut draws) = (0, 0, 0);
        let mut by_pair: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
        for g in games {
            if !(g.players.iter().any(|p| p == first) && g.players.iter().any(|p| p == second)) {
                continue;
            }
            let points = match &g.winner {
                None => {
                    draws += 1;
                    0.5
                }
                Some(w) if w == first => {
                    wins += 1;
                    1.0
                }
                Some(_) => {
                    losses += 1;
                    0.0
                }
            };
            if let Some(k) = super::runner::game_number(&g.dir) {
                by_pair.entry((k - 1) / 2).or_default().push(points);
            }
        }
        let ptnml = pairs.then(|| {
            let mut counts = [0u32; 5];
            for p in by_pair.values().filter(|p| p.len() == 2) {
                counts[((p[0] + p[1]) * 2.0).round() as usize] += 1;
            }
            counts
        });
        let sprt = sprt.map(|t| {
            let llr = match ptnml {
                Some(counts) => t.llr_pairs(counts),
                None => t.llr(wins, draws, losses),
            };
            let (lower, upper) = t.bounds();
            let accepted = if llr >= upper {
                Some("H1".to_string())
            } else if llr <= lower {
                Some("H0".to_string())
            } else {
                None
            };
            SprtState {
                llr,
                lower,
                upper,
                elo0: t.elo0,
                elo1: t.elo1,
                accepted,
            }
        });
        Summary {
            first: first.to_string(),
            second: second.to_string(),
            games: wins + losses + draws,
            wins,
            losses,
            draws,
            points: f64::from(wins) + f64::from(draws) / 2.0,
            ptnml,
            sprt,
        }
    }

    /// The summary in fastchess's words, one figure a line.
    pub fn fastchess_text(&self) -> String {
        let percent = match self.games {
            0 => 0.0,
            n => 100.0 * self.points / f64::from(n),
        };
        let mut out = format!(
            "Results of {} vs {}:\nGames: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)\n",
            self.first, self.second, self.games, self.wins, self.losses, self.draws, self.points, percent
        );
        if let Some(p) = self.ptnml {
            out.push_str(&format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}]\n",
                p[0], p[1], p[2], p[3], p[4]
            ));
        }
        if let Some(s) = &self.sprt {
            out.push_str(&format!(
                "LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]\n",
                s.llr, s.lower, s.upper, s.elo0, s.elo1
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(k: u32, players: [&str; 2], winner: Option<&str>) -> GameRecord {
        GameRecord {
            dir: format!("out/games/game-{k:05}"),
            game: "xiangqi".into(),
            players: players.map(String::from).to_vec(),
            winner: winner.map(String::from),
            sides: players.map(|p| vec![p.to_string()]).to_vec(),
            reason: "checkmate".into(),
            plies: 40,
        }
    }

    #[test]
    fn a_summary_reads_as_fastchess_writes_it() {
        let games = [
            game(1, ["a", "b"], Some("a")),
            game(2, ["b", "a"], None),
            game(3, ["a", "b"], Some("b")),
            game(4, ["b", "a"], Some("b")),
            game(5, ["a", "b"], Some("a")),
        ];
        let test: Sprt = "elo0=0,elo1=10".parse().unwrap();
        let s = Summary::of("a", "b", &games, true, Some(test));
        assert_eq!((s.games, s.wins, s.losses, s.draws), (5, 2, 2, 1));
        // Pairs (1,2): 1.5; (3,4): 0; game 5 has no partner yet.
        assert_eq!(s.ptnml, Some([1, 0, 0, 1, 0]));
        let text = s.fastchess_text();
        assert!(text.contains("Games: 5, Wins: 2, Losses: 2, Draws: 1, Points: 2.5 (50.00 %)\n"));
        assert!(text.contains("Ptnml(0-2): [1, 0, 0, 1, 0]\n"));
        assert!(
            text.contains("LLR: ") && text.contains("(-2.94, 2.94) [0.00, 10.00]"),
            "{text}"
        );
        let plain = Summary::of("a", "b", &games, false, None);
        assert!(!plain.fastchess_text().contains("Ptnml"));
        assert_eq!(
            serde_json::to_value(&plain).unwrap()["points"],
            serde_json::json!(2.5)
        );
    }
}
