//! A sequential probability ratio test on a two-bot match, as engine-testing fleets run it, so
//! that a fleet stopping on qijudge's figures stops where it would on fastchess's: H0, the first
//! bot is `elo0` stronger than the second, against H1, it is `elo1` stronger; the test stops
//! when the log-likelihood ratio leaves (ln(β/(1−α)), ln((1−β)/α)).
//!
//! The ratio is the generalised one of fastchess's `sprt.cpp` (after Michel Van den Bergh's
//! notes for fishtest): the maximum-likelihood distributions of the results under each
//! hypothesis, found by a root search (the ITP method of Oliveira and Takahashi, 2020), compared
//! on the observed frequencies, with every empty cell counted as 0.001. Three models of what
//! the Elo bounds mean:
//! - `normalized` (the default, as fastchess's): bounds in normalized Elo, a score difference in
//!   standard deviations of the per-game score;
//! - `logistic`: bounds in logistic Elo (the score 1/(1+10^(−elo/400)));
//! - `bayesian`: BayesElo with the draw rate read from the results (games only, not pairs).
//!
//! Games played in pairs (a book) are tested on the pairs' pentanomial counts.

use super::stats::Stats;

/// How the Elo bounds are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    Normalized,
    Logistic,
    Bayesian,
}

impl Model {
    pub fn name(self) -> &'static str {
        match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
            Model::Bayesian => "bayesian",
        }
    }
}

/// The test's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: Model,
}

/// What the test concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// `elo0=0,elo1=10[,alpha=0.05][,beta=0.05][,model=normalized]` (commas or spaces).
    fn from_str(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Normalized,
        };
        let bad = |why: &str| {
            format!(
                "--sprt {text:?}: {why}; like elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized"
            )
        };
        for part in text.split([',', ' ']).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| bad("expected key=value"))?;
            if key.trim() == "model" {
                s.model = match value.trim() {
                    "normalized" => Model::Normalized,
                    "logistic" => Model::Logistic,
                    "bayesian" => Model::Bayesian,
                    other => {
                        return Err(bad(&format!(
                            "model {other:?}: normalized, logistic or bayesian"
                        )))
                    }
                };
                continue;
            }
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
        if !(0.0 < s.alpha && s.alpha < 1.0 && 0.0 < s.beta && s.beta < 1.0) {
            return Err(bad("alpha and beta lie between 0 and 1"));
        }
        if s.alpha + s.beta >= 1.0 {
            return Err(bad("alpha and beta must add up to less than 1"));
        }
        Ok(s)
    }
}

/// The expected score of a player `elo` stronger (logistic Elo).
fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The expected score under BayesElo with the given draw Elo.
fn bayes_score(elo: f64, drawelo: f64) -> f64 {
    let win = 1.0 / (1.0 + 10f64.powf((-elo + drawelo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((elo + drawelo) / 400.0));
    win + 0.5 * (1.0 - win - loss)
}

/// An empty cell counts as a thousandth of a result (fastchess's regularisation).
fn cell(count: u32) -> f64 {
    match count {
        0 => 1e-3,
        n => f64::from(n),
    }
}

/// One normalized-Elo unit in score standard deviations: 800 / ln 10.
fn nelo_unit() -> f64 {
    800.0 / 10f64.ln()
}

impl Sprt {
    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Whether this test can be run on pairs (the Bayesian model reads games only).
    pub fn takes_pairs(&self) -> bool {
        self.model != Model::Bayesian
    }

    /// The log-likelihood ratio of H1 against H0, on the pairs (`pairs`) or the games.
    pub fn llr(&self, s: &Stats, pairs: bool) -> f64 {
        if pairs && self.takes_pairs() {
            self.llr_pairs(s)
        } else {
            self.llr_games(s)
        }
    }

    fn llr_games(&self, s: &Stats) -> f64 {
        let (l, d, w) = (cell(s.losses), cell(s.draws), cell(s.wins));
        let total = l + d + w;
        let probs = [l / total, d / total, w / total];
        let scores = [0.0, 0.5, 1.0];
        match self.model {
            Model::Normalized => {
                let (t0, t1) = (self.elo0 / nelo_unit(), self.elo1 / nelo_unit());
                total * normalized_llr(&scores, &probs, t0, t1)
            }
            Model::Bayesian => {
                if s.wins == 0 || s.losses == 0 {
                    return 0.0;
                }
                let (l, w) = (probs[0], probs[2]);
                let drawelo = 200.0 * ((1.0 - l) / l * (1.0 - w) / w).log10();
                let (s0, s1) = (
                    bayes_score(self.elo0, drawelo),
                    bayes_score(self.elo1, drawelo),
                );
                total * logistic_llr(&scores, &probs, s0, s1)
            }
            Model::Logistic => {
                let (s0, s1) = (logistic_score(self.elo0), logistic_score(self.elo1));
                total * logistic_llr(&scores, &probs, s0, s1)
            }
        }
    }

    fn llr_pairs(&self, s: &Stats) -> f64 {
        let counts = [
            cell(s.ll),
            cell(s.ld),
            cell(s.dd + s.wl),
            cell(s.wd),
            cell(s.ww),
        ];
        let total: f64 = counts.iter().sum();
        let probs = counts.map(|c| c / total);
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        match self.model {
            Model::Normalized => {
                let k = 2f64.sqrt() / nelo_unit();
                total * normalized_llr(&scores, &probs, k * self.elo0, k * self.elo1)
            }
            _ => {
                let (s0, s1) = (logistic_score(self.elo0), logistic_score(self.elo1));
                total * logistic_llr(&scores, &probs, s0, s1)
            }
        }
    }

    /// How far the ratio has gone towards the bound it heads for (fastchess's percentage).
    pub fn fraction(&self, llr: f64) -> f64 {
        let (lower, upper) = self.bounds();
        if llr >= 0.0 {
            llr / upper
        } else {
            -llr / lower
        }
    }

    pub fn decide(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    /// The test's state in one line, naming its model and what it counted.
    pub fn describe(&self, first: &str, s: &Stats, pairs: bool) -> String {
        let (lower, upper) = self.bounds();
        let on_pairs = pairs && self.takes_pairs();
        let llr = self.llr(s, pairs);
        let counted = if on_pairs {
            let p = s.ptnml();
            format!(
                "on pairs (pentanomial {} {} {} {} {})",
                p[0], p[1], p[2], p[3], p[4]
            )
        } else {
            format!("on games ({} {} {})", s.wins, s.draws, s.losses)
        };
        let verdict = match self.decide(llr) {
            Verdict::Continue => "undecided".to_string(),
            Verdict::H0 => format!("H0 accepted: {first} is not {} Elo stronger", self.elo1),
            Verdict::H1 => format!("H1 accepted: {first} is {} Elo stronger or more", self.elo1),
        };
        format!(
            "SPRT {counted} model={} elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}), {verdict}",
            self.model.name(),
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            llr,
            lower,
            upper
        )
    }
}

fn mean(x: &[f64], p: &[f64]) -> f64 {
    x.iter().zip(p).map(|(x, p)| x * p).sum()
}

/// The mean log-likelihood ratio per sample when the bounds are expected scores `s0` and `s1`:
/// the distributions nearest the observed one with those means (Van den Bergh, "Comparing the
/// approximations for the generalized log likelihood ratio", proposition 1.1).
fn logistic_llr(scores: &[f64], probs: &[f64], s0: f64, s1: f64) -> f64 {
    let nearest = |s: f64| -> Vec<f64> {
        let n = scores.len();
        let theta = itp(
            |x| {
                scores
                    .iter()
                    .zip(probs)
                    .map(|(a, p)| p * (a - s) / (1.0 + x * (a - s)))
                    .sum()
            },
            (-1.0 / (scores[n - 1] - s), -1.0 / (scores[0] - s)),
            1e-3,
        );
        scores
            .iter()
            .zip(probs)
            .map(|(a, p)| p / (1.0 + theta * (a - s)))
            .collect()
    };
    log_ratio(&nearest(s0), &nearest(s1), probs)
}

/// The same for bounds in normalized Elo, t = (mean − ½) / standard deviation: the nearest
/// distribution is found by a fixed-point iteration from the uniform one (Van den Bergh,
/// "Comments on normalized Elo", section 4.1).
fn normalized_llr(scores: &[f64], probs: &[f64], t0: f64, t1: f64) -> f64 {
    let nearest = |t: f64| -> Vec<f64> {
        let n = scores.len();
        let mut p = vec![1.0 / n as f64; n];
        for _ in 0..10 {
            let mu = mean(scores, &p);
            let var: f64 = scores
                .iter()
                .zip(&p)
                .map(|(a, p)| p * (a - mu) * (a - mu))
                .sum();
            let sigma = var.sqrt();
            let phi: Vec<f64> = scores
                .iter()
                .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
                .collect();
            let lowest = phi.iter().copied().fold(f64::INFINITY, f64::min);
            let highest = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let theta = itp(
                |x| {
                    probs
                        .iter()
                        .zip(&phi)
                        .map(|(p, f)| p * f / (1.0 + x * f))
                        .sum()
                },
                (-1.0 / highest, -1.0 / lowest),
                1e-7,
            );
            let mut change: f64 = 0.0;
            for i in 0..n {
                let next = probs[i] / (1.0 + theta * phi[i]);
                change = change.max((next - p[i]).abs());
                p[i] = next;
            }
            if change < 1e-4 {
                break;
            }
        }
        p
    };
    log_ratio(&nearest(t0), &nearest(t1), probs)
}

/// The observed mean of ln(p1/p0).
fn log_ratio(p0: &[f64], p1: &[f64], probs: &[f64]) -> f64 {
    let lpr: Vec<f64> = p0.iter().zip(p1).map(|(a, b)| b.ln() - a.ln()).collect();
    mean(&lpr, probs)
}

/// A root of the increasing `f` on (a, b), to within `epsilon`, by interpolation, truncation
/// and projection (Oliveira and Takahashi, ACM TOMS 47:1, 2020), with fastchess's constants
/// (κ1 0.1, κ2 2, n0 0.99) and its start: the ends' values taken as −∞ and +∞, so the first
/// step bisects.
fn itp(f: impl Fn(f64) -> f64, (lo, hi): (f64, f64), epsilon: f64) -> f64 {
    let (k1, k2, n0) = (0.1, 2.0, 0.99);
    // fastchess passes f(lo) = +∞ and f(hi) = −∞, then swaps the ends so that the negative
    // one comes first: a is hi, b is lo.
    let (mut a, mut b, mut fa, mut fb) = (hi, lo, f64::NEG_INFINITY, f64::INFINITY);
    let n_max = ((b - a).abs() / (2.0 * epsilon)).log2().ceil() + n0;
    let mut i = 0u32;
    while (b - a).abs() > 2.0 * epsilon {
        let half = (a + b) / 2.0;
        let r = epsilon * 2f64.powf(n_max - f64::from(i)) - (b - a) / 2.0;
        let delta = k1 * (b - a).powf(k2);
        let regula = (fb * a - fa * b) / (fb - fa);
        let sigma = (half - regula) / (half - regula).abs();
        let towards = if delta <= (half - regula).abs() {
            regula + sigma * delta
        } else {
            half
        };
        let x = if (towards - half).abs() <= r {
            towards
        } else {
            half - sigma * r
        };
        let fx = f(x);
        if fx == 0.0 {
            (a, b) = (x, x);
        } else if fx.is_sign_negative() {
            (a, fa) = (x, fx);
        } else {
            (b, fb) = (x, fx);
        }
        i += 1;
    }
    (a + b) / 2.0
}

/// The test run on a match as games finish.
pub struct Tally {
    test: Sprt,
    board: super::scoreboard::Scoreboard,
}

impl Tally {
    /// A test on the first bot's games, or, `pairs`, on its pairs (a match with a book).
    pub fn new(test: Sprt, first: &str, pairs: bool) -> Tally {
        Tally {
            test,
            board: super::scoreboard::Scoreboard::new(first, pairs),
        }
    }

    /// Counts what the match reports; true once the test is decided.
    pub fn on(&mut self, event: &super::runner::Event) -> bool {
        self.board.on(event);
        self.verdict() != Verdict::Continue
    }

    fn verdict(&self) -> Verdict {
        self.test
            .decide(self.test.llr(&self.board.stats, self.board.pairs))
    }

    /// The test's state in one line.
    pub fn describe(&self) -> String {
        self.test
            .describe(&self.board.first, &self.board.stats, self.board.pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(w: u32, d: u32, l: u32) -> Stats {
        Stats {
            wins: w,
            draws: d,
            losses: l,
            ..Stats::default()
        }
    }

    fn pairs(c: [u32; 6]) -> Stats {
        let [ll, ld, wl, dd, wd, ww] = c;
        Stats {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
            ..Stats::default()
        }
    }

    #[test]
    fn settings_are_read_and_checked() {
        let s: Sprt = "elo0=0,elo1=10".parse().unwrap();
        assert_eq!((s.alpha, s.beta, s.model), (0.05, 0.05, Model::Normalized));
        let (lo, hi) = s.bounds();
        assert!((hi - 2.944).abs() < 0.001 && (lo + 2.944).abs() < 0.001);
        let s: Sprt = "elo0=0 elo1=5 alpha=0.1 model=logistic".parse().unwrap();
        assert_eq!((s.alpha, s.model), (0.1, Model::Logistic));
        for bad in [
            "",
            "elo0=0",
            "elo0=5,elo1=5",
            "elo0=0,elo1=10,alpha=1.2",
            "elo0=0,elo1=10,alpha=0.6,beta=0.5",
            "elo0=x,elo1=1",
            "gamma=1",
            "elo0=0,elo1=5,model=gaussian",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    /// fastchess's own cases (app/tests/sprt_test.cpp), with its tolerance (doctest's
    /// `Approx(x).epsilon(0.01)`: 1 % of 1 + the larger value).
    #[test]
    fn fastchess_unit_cases() {
        let t = |text: &str| text.parse::<Sprt>().unwrap();
        let close = |got: f64, want: f64| {
            let room = 0.01 * (1.0 + got.abs().max(want.abs()));
            assert!((got - want).abs() < room, "{got} vs {want}")
        };
        close(
            t("elo0=0,elo1=2").llr(&games(36433, 68692, 36027), false),
            0.92,
        );
        close(
            t("elo0=-1.75,elo1=0.25").llr(&games(10871, 20431, 10650), false),
            2.30,
        );
        close(t("elo0=0,elo1=10").llr(&games(4250, 0, 0), false), 120.56);
        close(
            t("elo0=0.5,elo1=2.5,model=logistic").llr(&games(21404, 40708, 21184), false),
            -1.57,
        );
        close(
            t("elo0=0,elo1=2,model=bayesian").llr(&games(68965, 128429, 68526), false),
            -1.26,
        );
        close(
            t("elo0=0,elo1=2").llr(&pairs([365, 16618, 36029, 200, 16974, 390]), true),
            2.25,
        );
        close(
            t("elo0=0,elo1=5").llr(&pairs([0, 0, 0, 0, 0, 5550]), true),
            111.82,
        );
        close(
            t("elo0=0,elo1=2,model=logistic")
                .llr(&pairs([871, 26175, 55003, 980, 26678, 821]), true),
            -4.98,
        );
    }

    #[test]
    fn a_clear_difference_is_decided_and_an_even_match_is_not_soon() {
        let s: Sprt = "elo0=0,elo1=50".parse().unwrap();
        let llr = |w, d, l| s.llr(&games(w, d, l), false);
        assert_eq!(s.decide(llr(0, 0, 0)), Verdict::Continue);
        assert_eq!(
            s.decide(llr(5, 0, 0)),
            Verdict::Continue,
            "too few games yet"
        );
        assert_eq!(s.decide(llr(80, 0, 20)), Verdict::H1);
        assert_eq!(s.decide(llr(30, 0, 70)), Verdict::H0);
        assert_eq!(s.decide(llr(10, 0, 10)), Verdict::Continue);
        assert!(llr(160, 0, 40) > llr(80, 0, 20));
        let line = s.describe("a", &games(80, 0, 20), false);
        assert!(line.contains("H1 accepted: a is 50 Elo stronger"), "{line}");
        assert!(line.contains("model=normalized"), "{line}");
    }

    #[test]
    fn the_bayesian_model_reads_games_even_from_pairs() {
        let s: Sprt = "elo0=0,elo1=5,model=bayesian".parse().unwrap();
        assert!(!s.takes_pairs());
        let mut st = pairs([0, 0, 0, 0, 0, 40]);
        st.wins = 80;
        // No loss: BayesElo's draw rate is undefined and the ratio is 0, as fastchess has it.
        assert_eq!(s.llr(&st, true), 0.0);
        assert!(s.describe("a", &st, true).contains("on games (80 0 0)"));
    }
}
