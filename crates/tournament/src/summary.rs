//! A two-bot result as engine-testing fleets read it: fastchess's results block (the lines of
//! `output_fastchess.hpp`: `Results of`, `Elo:`/`nElo:`, `LOS:`/`DrawRatio:`/`PairsRatio:`,
//! `Games:`/`Wins:`/…, `Ptnml(0-2):`/`WL/DD Ratio:`, `LLR:`), and the same figures as JSON for
//! a worker to upload.

pub use super::scoreboard::Scoreboard;
use super::sprt::Sprt;
use super::standings::GameRecord;
use super::stats::{fixed, Estimate, Stats};
use serde::Serialize;

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
    /// Of the pairs that scored one point: won and lost, and drawn twice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wl_dd: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtState>,
    #[serde(skip)]
    stats: Stats,
    #[serde(skip)]
    test: Option<Sprt>,
}

/// The sequential test's state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub elo0: f64,
    pub elo1: f64,
    /// `normalized`, `logistic` or `bayesian`.
    pub model: String,
    /// Whether the test counted pairs (pentanomial) or games (trinomial).
    pub counted: String,
    /// `H0`, `H1`, or none while it goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<String>,
}

/// What the `Results of` line says of the match besides the names: the time control, the
/// engines' `Threads` and `Hash` options (`NULL` where not set) and the book's file name.
#[derive(Clone, Debug, Default)]
pub struct Heading {
    pub tc: String,
    pub threads: String,
    pub hash: String,
    pub book: Option<String>,
}

impl Summary {
    /// From finished games between `first` and `second`, in pairs when `pairs`.
    pub fn of(
        first: &str,
        second: &str,
        games: &[GameRecord],
        pairs: bool,
        test: Option<Sprt>,
    ) -> Summary {
        let mut board = Scoreboard::new(first, pairs);
        for g in games {
            if g.players.iter().any(|p| p == first) && g.players.iter().any(|p| p == second) {
                board.add(g);
            }
        }
        Summary::from_board(&board, second, test)
    }

    pub fn from_board(board: &Scoreboard, second: &str, test: Option<Sprt>) -> Summary {
        let s = board.stats;
        let sprt = test.map(|t| {
            let llr = t.llr(&s, board.pairs);
            let (lower, upper) = t.bounds();
            SprtState {
                llr,
                lower,
                upper,
                elo0: t.elo0,
                elo1: t.elo1,
                model: t.model.name().to_string(),
                counted: match board.pairs && t.takes_pairs() {
                    true => "pairs".into(),
                    false => "games".into(),
                },
                accepted: match t.decide(llr) {
                    super::sprt::Verdict::Continue => None,
                    super::sprt::Verdict::H0 => Some("H0".into()),
                    super::sprt::Verdict::H1 => Some("H1".into()),
                },
            }
        });
        Summary {
            first: board.first.clone(),
            second: second.to_string(),
            games: s.games(),
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            points: s.points(),
            ptnml: board.pairs.then(|| s.ptnml()),
            wl_dd: board.pairs.then_some([s.wl, s.dd]),
            sprt,
            stats: s,
            test,
        }
    }

    /// fastchess's results block between its two rules of dashes (`printInterval`), each line
    /// as `output_fastchess.hpp` formats it. With pairs the figures are the pentanomial ones,
    /// as fastchess's `-report penta=true` (its default).
    pub fn fastchess_block(&self, heading: &Heading) -> String {
        let s = &self.stats;
        let pairs = self.ptnml.is_some();
        let e = match pairs {
            true => Estimate::of_pairs(s),
            false => Estimate::of_games(s),
        };
        let rule = "-".repeat(50);
        let book = heading
            .book
            .as_deref()
            .map(|b| format!(", {b}"))
            .unwrap_or_default();
        let mut out = format!(
            "{rule}\nResults of {} vs {} ({}, {}, {}{book}):\n",
            self.first, self.second, heading.tc, heading.threads, heading.hash
        );
        out.push_str(&format!(
            "Elo: {} +/- {}, nElo: {} +/- {}\n",
            fixed(e.elo, 2),
            fixed(e.elo_error, 2),
            fixed(e.nelo, 2),
            fixed(e.nelo_error, 2)
        ));
        let (draws, pairs_ratio) = match pairs {
            true => (
                s.draw_ratio_pairs(),
                format!(", PairsRatio: {}", fixed(s.pairs_ratio(), 2)),
            ),
            false => (s.draw_ratio(), String::new()),
        };
        out.push_str(&format!(
            "LOS: {} %, DrawRatio: {} %{pairs_ratio}\n",
            fixed(e.los, 2),
            fixed(draws, 2)
        ));
        out.push_str(&format!(
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({} %)\n",
            s.games(),
            s.wins,
            s.losses,
            s.draws,
            s.points(),
            fixed(s.points_ratio(), 2)
        ));
        if pairs {
            let p = s.ptnml();
            out.push_str(&format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}\n",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                fixed(s.wl_dd_ratio(), 2)
            ));
        }
        if let Some(t) = &self.test {
            let llr = t.llr(s, pairs);
            let (lower, upper) = t.bounds();
            out.push_str(&format!(
                "LLR: {} ({}%) ({}, {}) [{}, {}]\n",
                fixed(llr, 2),
                fixed(t.fraction(llr) * 100.0, 1),
                fixed(lower, 2),
                fixed(upper, 2),
                fixed(t.elo0, 2),
                fixed(t.elo1, 2)
            ));
        }
        out.push_str(&rule);
        out.push('\n');
        out
    }

    /// The block with a plain heading, and the model the test used: what `match` and
    /// `tournament` print on standard error when not speaking as fastchess.
    pub fn fastchess_text(&self) -> String {
        let mut text = self.fastchess_block(&Heading {
            tc: "-".into(),
            threads: "NULL".into(),
            hash: "NULL".into(),
            book: None,
        });
        if let Some(s) = &self.sprt {
            text.push_str(&format!("SPRT model: {} Elo, on {}\n", s.model, s.counted));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(k: u32, players: [&str; 2], winner: Option<&str>) -> GameRecord {
        GameRecord {
            dir: format!("out/games/game-{k:05}"),
            game: "xiangqi".into(),
            kind: "xiangqi".into(),
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
        // Pairs (1,2): 1.5; (3,4): 0; game 5 has no partner yet and is not counted.
        assert_eq!((s.games, s.wins, s.losses, s.draws), (4, 1, 2, 1));
        assert_eq!(s.ptnml, Some([1, 0, 0, 1, 0]));
        let text = s.fastchess_text();
        assert!(text.contains("Games: 4, Wins: 1, Losses: 2, Draws: 1, Points: 1.5 (37.50 %)\n"));
        assert!(text.contains("Ptnml(0-2): [1, 0, 0, 1, 0], WL/DD Ratio: "));
        assert!(text.contains("LLR: ") && text.contains("(-2.94, 2.94) [0.00, 10.00]\n"));
        assert!(
            text.contains("SPRT model: normalized Elo, on pairs"),
            "{text}"
        );
        assert!(text.starts_with(&format!("{}\nResults of a vs b (", "-".repeat(50))));
        let plain = Summary::of("a", "b", &games, false, None);
        assert_eq!(plain.games, 5);
        assert!(!plain.fastchess_text().contains("Ptnml"));
        assert_eq!(
            serde_json::to_value(&plain).unwrap()["points"],
            serde_json::json!(2.5)
        );
    }
}
