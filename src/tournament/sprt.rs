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

/// The test run on a match: the first bot's wins, draws and losses as games finish.
pub struct Tally {
    test: Sprt,
    first: String,
    wdl: [u32; 3],
}

impl Tally {
    pub fn new(test: Sprt, first: &str) -> Tally {
        Tally {
            test,
            first: first.to_string(),
            wdl: [0; 3],
        }
    }

    /// Counts what the match reports; true once the test is decided.
    pub fn on(&mut self, event: &Event) -> bool {
        match event {
            Event::Started { earlier, .. } => earlier.iter().for_each(|r| self.count(r)),
            Event::Finished { record, .. } => self.count(record),
            Event::Stopping { .. } => {}
        }
        let [w, d, l] = self.wdl;
        self.test.verdict(w, d, l) != Verdict::Continue
    }

    fn count(&mut self, r: &GameRecord) {
        let i = match &r.winner {
            None => 1,
            Some(w) if *w == self.first => 0,
            Some(_) => 2,
        };
        self.wdl[i] += 1;
    }

    /// The test's state in one line.
    pub fn describe(&self) -> String {
        let [w, d, l] = self.wdl;
        self.test.describe(&self.first, w, d, l)
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
}
