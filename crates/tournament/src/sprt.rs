//! A sequential probability ratio test on a two-bot match, as engine testers use it to stop a
//! match once it has shown what it was run to show: H0, the first bot is `elo0` stronger than
//! the second, against H1, it is `elo1` stronger (logistic Elo). After each game the
//! log-likelihood ratio is estimated from the wins, draws and losses, with the usual normal
//! approximation of the generalised SPRT (the score's mean and variance per game); the test
//! stops when it leaves the interval (ln(β/(1−α)), ln((1−β)/α)).

use super::runner::Event;
use super::standings::GameRecord;

/// The test's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test concludes so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Keep playing.
    Continue,
    /// H0 accepted: not `elo1` stronger.
    H0,
    /// H1 accepted: `elo1` stronger (or more).
    H1,
}

impl std::str::FromStr for Sprt {
    type Err = String;

    /// `elo0=0,elo1=10[,alpha=0.05][,beta=0.05]`.
    fn from_str(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        let bad =
            |why: &str| format!("--sprt {text:?}: {why}; like elo0=0,elo1=10,alpha=0.05,beta=0.05");
        for part in text.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| bad("expected key=value"))?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| bad(&format!("{key}: not a number")))?;
            match key.trim() {
                "elo0" => s.elo0 = value,
                "elo1" => s.elo1 = value,
                "alpha" => s.alpha = value,
                "beta" => s.beta = value,
                other => return Err(bad(&format!("unknown setting {other:?}"))),
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err(bad("elo0 and elo1 are needed"));
        }
        if s.elo1 <= s.elo0 {
            return Err(bad("elo1 must be more than elo0"));
        }
        if !(0.0 < s.alpha && s.alpha < 0.5 && 0.0 < s.beta && s.beta < 0.5) {
            return Err(bad("alpha and beta lie between 0 and 0.5"));
        }
        Ok(s)
    }
}

/// The test run on a match: the first bot's wins, draws and losses as games finish, or, for a
/// match played in pairs (a book), its pairs' totals (the pentanomial model, as fastchess).
pub struct Tally {
    test: Sprt,
    first: String,
    wdl: [u32; 3],
    /// Played in pairs: each pair's points so far, by pair (games 2i+1 and 2i+2).
    pairs: Option<std::collections::BTreeMap<u32, Vec<f64>>>,
}

impl Tally {
    pub fn new(test: Sprt, first: &str) -> Tally {
        Tally {
            test,
            first: first.to_string(),
            wdl: [0; 3],
            pairs: None,
        }
    }

    /// A test on pairs of games (a two-bot match with a book): decided on the pentanomial
    /// counts of finished pairs.
    pub fn on_pairs(test: Sprt, first: &str) -> Tally {
        Tally {
            pairs: Some(Default::default()),
            ..Tally::new(test, first)
        }
    }

    /// Counts what the match reports; true once the test is decided.
    pub fn on(&mut self, event: &Event) -> bool {
        match event {
            Event::Started { earlier, .. } => earlier.iter().for_each(|r| {
                let k = super::runner::game_number(&r.dir);
                self.count(k, r)
            }),
            Event::Finished { k, record } => self.count(Some(*k), record),
            Event::Stopping { .. } => {}
        }
        self.verdict() != Verdict::Continue
    }

    fn verdict(&self) -> Verdict {
        match &self.pairs {
            Some(_) => self.test.verdict_pairs(self.pentanomial()),
            None => {
                let [w, d, l] = self.wdl;
                self.test.verdict(w, d, l)
            }
        }
    }

    /// The finished pairs' totals: how many scored 0, ½, 1, 1½ and 2.
    fn pentanomial(&self) -> [u32; 5] {
        let mut counts = [0; 5];
        for points in self.pairs.iter().flat_map(|p| p.values()) {
            if points.len() == 2 {
                let i = ((points.iter().sum::<f64>() * 2.0).round() as usize).min(4);
                counts[i] += 1;
            }
        }
        counts
    }

    fn count(&mut self, k: Option<u32>, r: &GameRecord) {
        let i = match &r.winner {
            None => 1,
            Some(w) if *w == self.first => 0,
            Some(_) => 2,
        };
        self.wdl[i] += 1;
        if let (Some(pairs), Some(k)) = (self.pairs.as_mut(), k) {
            pairs
                .entry((k - 1) / 2)
                .or_default()
                .push([1.0, 0.5, 0.0][i]);
        }
    }

    /// The test's state in one line.
    pub fn describe(&self) -> String {
        match &self.pairs {
            Some(_) => self.test.describe_pairs(&self.first, self.pentanomial()),
            None => {
                let [w, d, l] = self.wdl;
                self.test.describe(&self.first, w, d, l)
            }
        }
    }
}

/// The expected score of a player `elo` stronger.
fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after w wins, d draws and l losses of the
    /// first bot; 0 while the scores do not vary (no game, or all alike).
    pub fn llr(&self, w: u32, d: u32, l: u32) -> f64 {
        let n = (w + d + l) as f64;
        if n == 0.0 {
            return 0.0;
        }
        let moments = |w: f64, d: f64, l: f64| {
            let m = w + d + l;
            let mean = (w + d / 2.0) / m;
            let var = (w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)) / m;
            (mean, var)
        };
        let (mut mean, mut var) = moments(w as f64, d as f64, l as f64);
        if var <= 0.0 {
            // Every game the same result (40-0): the sample variance is 0 and the LLR would be
            // undefined. Half a win and half a loss more regularise it (a Jeffreys-like prior),
            // so a one-sided match is decided rather than left at 0 for ever.
            (mean, var) = moments(w as f64 + 0.5, d as f64, l as f64 + 0.5);
        }
        let (s0, s1) = (expected(self.elo0), expected(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The log-likelihood ratio from pairs: `counts[i]` pairs scored i/2 points (0 … 2). The
    /// same normal approximation as for games, on each pair's score per game (0, ¼, ½, ¾, 1),
    /// with half a pair added at each end.
    pub fn llr_pairs(&self, counts: [u32; 5]) -> f64 {
        let n: u32 = counts.iter().sum();
        if n == 0 {
            return 0.0;
        }
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let moments = |c: &[f64; 5]| {
            let total: f64 = c.iter().sum();
            let mean = c.iter().zip(scores).map(|(n, s)| n * s).sum::<f64>() / total;
            let var = c
                .iter()
                .zip(scores)
                .map(|(n, s)| n * (s - mean).powi(2))
                .sum::<f64>()
                / total;
            (mean, var)
        };
        // Half a pair at each end, always: a few pairs alike would otherwise show almost no
        // variance and decide at once; a one-sided match still decides.
        let mut c = counts.map(f64::from);
        c[0] += 0.5;
        c[4] += 0.5;
        let (mean, var) = moments(&c);
        let (s0, s1) = (expected(self.elo0), expected(self.elo1));
        f64::from(n) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn verdict_pairs(&self, counts: [u32; 5]) -> Verdict {
        self.decide(self.llr_pairs(counts))
    }

    /// The test's state on pairs in one line, with the pentanomial counts.
    pub fn describe_pairs(&self, first: &str, counts: [u32; 5]) -> String {
        let (lower, upper) = self.bounds();
        let verdict = self.words(first, self.verdict_pairs(counts));
        let c = counts;
        format!(
            "SPRT on pairs (pentanomial {} {} {} {} {}) elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}), {verdict}",
            c[0], c[1], c[2], c[3], c[4],
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.llr_pairs(counts),
            lower,
            upper
        )
    }

    fn words(&self, first: &str, v: Verdict) -> String {
        match v {
            Verdict::Continue => "undecided".to_string(),
            Verdict::H0 => format!("H0 accepted: {first} is not {} Elo stronger", self.elo1),
            Verdict::H1 => format!("H1 accepted: {first} is {} Elo stronger or more", self.elo1),
        }
    }

    fn decide(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    pub fn verdict(&self, w: u32, d: u32, l: u32) -> Verdict {
        let llr = self.llr(w, d, l);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    /// `SPRT elo0=0 elo1=10: LLR 1.23 (-2.94, 2.94)` and the verdict in words.
    pub fn describe(&self, first: &str, w: u32, d: u32, l: u32) -> String {
        let (lower, upper) = self.bounds();
        let verdict = match self.verdict(w, d, l) {
            Verdict::Continue => "undecided".to_string(),
            Verdict::H0 => format!("H0 accepted: {first} is not {} Elo stronger", self.elo1),
            Verdict::H1 => format!("H1 accepted: {first} is {} Elo stronger or more", self.elo1),
        };
        format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}), {verdict}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.llr(w, d, l),
            lower,
            upper
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_and_checked() {
        let s: Sprt = "elo0=0,elo1=10".parse().unwrap();
        assert_eq!((s.alpha, s.beta), (0.05, 0.05));
        let (lo, hi) = s.bounds();
        assert!((hi - 2.944).abs() < 0.001 && (lo + 2.944).abs() < 0.001);
        for bad in [
            "",
            "elo0=0",
            "elo0=5,elo1=5",
            "elo0=0,elo1=10,alpha=0.7",
            "elo0=x,elo1=1",
            "gamma=1",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_clear_difference_is_decided_and_an_even_match_is_not_soon() {
        let s: Sprt = "elo0=0,elo1=50".parse().unwrap();
        assert_eq!(s.verdict(0, 0, 0), Verdict::Continue);
        assert_eq!(s.verdict(5, 0, 0), Verdict::Continue, "too few games yet");
        // 80 % over 100 games is far above 50 Elo (57 %): H1.
        assert_eq!(s.verdict(80, 0, 20), Verdict::H1);
        // 30 % over 100 games is far below: H0.
        assert_eq!(s.verdict(30, 0, 70), Verdict::H0);
        // Even after 20 games: undecided.
        assert_eq!(s.verdict(10, 0, 10), Verdict::Continue);
        // The LLR grows with the number of games at the same score.
        assert!(s.llr(160, 0, 40) > s.llr(80, 0, 20));
        assert!(s
            .describe("a", 80, 0, 20)
            .contains("H1 accepted: a is 50 Elo stronger"));
    }

    #[test]
    fn a_one_sided_match_is_decided() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(s.verdict(40, 0, 0), Verdict::H1, "llr {}", s.llr(40, 0, 0));
        assert_eq!(s.verdict(0, 0, 40), Verdict::H0, "llr {}", s.llr(0, 0, 40));
        assert_eq!(s.verdict(1, 0, 0), Verdict::Continue);
        // All draws: no evidence either way for a few games, and an even score stays in.
        assert_eq!(s.verdict(0, 10, 0), Verdict::Continue);
    }

    #[test]
    fn pairs_decide_on_their_pentanomial_counts() {
        let s: Sprt = "elo0=0,elo1=50".parse().unwrap();
        assert_eq!(s.verdict_pairs([0; 5]), Verdict::Continue);
        // Forty pairs won outright: H1; forty lost: H0.
        assert_eq!(s.verdict_pairs([0, 0, 0, 0, 40]), Verdict::H1);
        assert_eq!(s.verdict_pairs([40, 0, 0, 0, 0]), Verdict::H0);
        // Even pairs (each colour wins its game): undecided after three, and after twenty
        // evidence that the first bot is not 50 Elo stronger.
        assert_eq!(s.verdict_pairs([0, 0, 3, 0, 0]), Verdict::Continue);
        assert_eq!(s.verdict_pairs([0, 0, 20, 0, 0]), Verdict::H0);
        // Mostly won-and-drawn pairs: evidence for the first bot.
        assert!(s.llr_pairs([0, 2, 6, 20, 2]) > 0.0);
        assert!(s
            .describe_pairs("a", [0, 0, 0, 0, 40])
            .contains("pentanomial 0 0 0 0 40"));
    }
}
