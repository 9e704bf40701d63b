//! A two-bot result as engine testers count it: the first bot's wins, losses and draws, and,
//! for games played in pairs (one opening, each colour once), the pentanomial counts of pairs
//! split as fastchess splits them (a won-and-lost pair apart from two draws). The Elo figures
//! read from them follow fastchess's `elo_wdl.cpp` and `elo_pentanomial.cpp`: logistic Elo and
//! normalized Elo, each with a 95 % interval, and the likelihood of superiority.

/// What the first bot scored against the second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Finished pairs by what the first bot made of them: lost both, lost and drew, won and
    /// lost, drew both, won and drew, won both.
    pub ll: u32,
    pub ld: u32,
    pub wl: u32,
    pub dd: u32,
    pub wd: u32,
    pub ww: u32,
}

/// One game's result for the first bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    pub fn points(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }
}

impl Stats {
    /// Counts one game.
    pub fn add_game(&mut self, score: Score) {
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
    }

    /// Counts one finished pair (its games are counted apart, with `add_game`).
    pub fn add_pair(&mut self, a: Score, b: Score) {
        use Score::*;
        match (a, b) {
            (Win, Win) => self.ww += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Draw, Loss) | (Loss, Draw) => self.ld += 1,
            (Loss, Loss) => self.ll += 1,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    pub fn pairs(&self) -> u32 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The five counts fastchess prints as `Ptnml(0-2)`: pairs that scored 0, ½, 1, 1½, 2.
    pub fn ptnml(&self) -> [u32; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Percent of the points (`Points: 2.5 (50.00 %)`).
    pub fn points_ratio(&self) -> f64 {
        self.points() / f64::from(self.games()) * 100.0
    }

    pub fn draw_ratio(&self) -> f64 {
        100.0 * f64::from(self.draws) / f64::from(self.games())
    }

    /// Percent of pairs that scored one point (won and lost, or two draws).
    pub fn draw_ratio_pairs(&self) -> f64 {
        f64::from(self.wl + self.dd) / f64::from(self.pairs()) * 100.0
    }

    /// Pairs won (WW, WD) to pairs lost (LD, LL).
    pub fn pairs_ratio(&self) -> f64 {
        f64::from(self.ww + self.wd) / f64::from(self.ld + self.ll)
    }

    pub fn wl_dd_ratio(&self) -> f64 {
        f64::from(self.wl) / f64::from(self.dd)
    }
}

/// The z-score of a two-sided 95 % interval.
const Z95: f64 = 1.959963984540054;

/// Elo and normalized Elo read from a result, each with the half-width of its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub elo: f64,
    pub elo_error: f64,
    pub nelo: f64,
    pub nelo_error: f64,
    /// Likelihood of superiority, in percent.
    pub los: f64,
}

fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Estimate {
    /// From the games, one by one (the trinomial model).
    pub fn of_games(s: &Stats) -> Estimate {
        let n = f64::from(s.games());
        let outcomes = [
            (f64::from(s.wins) / n, 1.0),
            (f64::from(s.draws) / n, 0.5),
            (f64::from(s.losses) / n, 0.0),
        ];
        Estimate::of(&outcomes, n, 1.0)
    }

    /// From the pairs (the pentanomial model): each pair's score per game.
    pub fn of_pairs(s: &Stats) -> Estimate {
        let n = f64::from(s.pairs());
        let outcomes = [
            (f64::from(s.ww) / n, 1.0),
            (f64::from(s.wd) / n, 0.75),
            (f64::from(s.wl + s.dd) / n, 0.5),
            (f64::from(s.ld) / n, 0.25),
            (f64::from(s.ll) / n, 0.0),
        ];
        Estimate::of(&outcomes, n, 2.0)
    }

    /// `outcomes`: (frequency, score) of each kind of sample; `n` samples; `k`: games a
    /// sample (normalized Elo is per game, so a pair's variance counts twice).
    fn of(outcomes: &[(f64, f64)], n: f64, k: f64) -> Estimate {
        let score: f64 = outcomes.iter().map(|(p, a)| p * a).sum();
        let variance: f64 = outcomes.iter().map(|(p, a)| p * (a - score).powi(2)).sum();
        let per_sample = variance / n;
        let (upper, lower) = (
            score + Z95 * per_sample.sqrt(),
            score - Z95 * per_sample.sqrt(),
        );
        let nelo_of = |s: f64| (s - 0.5) / (k * variance).sqrt() * (800.0 / 10f64.ln());
        Estimate {
            elo: score_to_elo(score),
            elo_error: (score_to_elo(upper) - score_to_elo(lower)) / 2.0,
            nelo: nelo_of(score),
            nelo_error: (nelo_of(upper) - nelo_of(lower)) / 2.0,
            los: (1.0 - libm::erf(-(score - 0.5) / (2.0 * per_sample).sqrt())) / 2.0 * 100.0,
        }
    }
}

/// A number as C++'s fmt writes `{:.Nf}`: `nan` and `-nan` for the undefined, `inf` for the
/// infinite (Rust writes `NaN`).
pub fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    format!("{x:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block fishtest's worker quotes from a real fastchess run (worker/games.py):
    /// `Elo: -9.20 +/- 20.93, nElo: -11.50 +/- 26.11`, `LOS: 19.41 %, DrawRatio: 42.35 %,
    /// PairsRatio: 0.88`, `Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: 4.76`.
    #[test]
    fn fishtests_quoted_block_is_reproduced() {
        let s = Stats {
            wins: 248,
            losses: 266,
            draws: 166,
            ll: 43,
            ld: 61,
            wl: 119,
            dd: 25,
            wd: 55,
            ww: 37,
        };
        let e = Estimate::of_pairs(&s);
        let shown = [e.elo, e.elo_error, e.nelo, e.nelo_error, e.los].map(|x| fixed(x, 2));
        assert_eq!(shown, ["-9.20", "20.93", "-11.50", "26.11", "19.41"]);
        assert_eq!(fixed(s.draw_ratio_pairs(), 2), "42.35");
        assert_eq!(fixed(s.pairs_ratio(), 2), "0.88");
        assert_eq!(fixed(s.wl_dd_ratio(), 2), "4.76");
        assert_eq!(s.ptnml(), [43, 61, 144, 55, 37]);
    }

    #[test]
    fn a_one_sided_result_is_written_as_fastchess_writes_it() {
        let mut s = Stats::default();
        for _ in 0..4 {
            s.add_game(Score::Win);
        }
        s.add_pair(Score::Win, Score::Win);
        s.add_pair(Score::Win, Score::Win);
        let e = Estimate::of_games(&s);
        assert_eq!(fixed(e.elo, 2), "inf");
        // inf − inf: the hardware's NaN, which fmt writes with its sign.
        assert!(fixed(e.elo_error, 2).ends_with("nan"));
        assert_eq!(fixed(s.wl_dd_ratio(), 2).trim_start_matches('-'), "nan");
        assert_eq!(fixed(s.pairs_ratio(), 2), "inf");
    }

    #[test]
    fn games_and_pairs_count_apart() {
        let mut s = Stats::default();
        for (a, b) in [
            (Score::Win, Score::Loss),
            (Score::Draw, Score::Draw),
            (Score::Win, Score::Draw),
        ] {
            s.add_game(a);
            s.add_game(b);
            s.add_pair(a, b);
        }
        assert_eq!((s.wins, s.draws, s.losses), (2, 3, 1));
        assert_eq!(s.ptnml(), [0, 0, 2, 1, 0]);
        assert_eq!((s.wl, s.dd), (1, 1));
        assert_eq!(s.points(), 3.5);
    }
}
