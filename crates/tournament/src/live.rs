//! What a match says while it plays: on a terminal one status line redrawn in place (a bar,
//! games done, the running score, Elo with its error for two bots, games per second, the time
//! left); elsewhere one plain line per finished game, which logs and CI keep.

use super::runner::Event;
use super::standings::{elo_of, GameRecord};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A running tally: wins, draws, losses per bot name.
#[derive(Default)]
pub struct Live {
    tty: bool,
    started: Option<Instant>,
    total: usize,
    done: usize,
    /// Games done when this run began (a resumed match): not counted in the speed.
    done_before: usize,
    tally: BTreeMap<String, [u32; 3]>,
}

impl Live {
    pub fn new(tty: bool) -> Live {
        Live {
            tty,
            ..Live::default()
        }
    }

    /// The match begins with `done` of `total` games already played (`earlier`, their records).
    pub fn start(&mut self, done: usize, total: usize, earlier: &[GameRecord]) {
        self.started = Some(Instant::now());
        self.total = total;
        self.done = done;
        self.done_before = done;
        for r in earlier {
            self.count(r);
        }
    }

    fn count(&mut self, r: &GameRecord) {
        for me in &r.players {
            let mine = r.sides.iter().find(|s| s.contains(me));
            let i = match (&r.winner, mine) {
                (None, _) => 1,
                (Some(w), Some(side)) if side.contains(w) => 0,
                _ => 2,
            };
            self.tally.entry(me.clone()).or_default()[i] += 1;
        }
    }

    /// What to show of an event of the match.
    pub fn on(&mut self, event: &Event) -> String {
        match event {
            Event::Started {
                done,
                total,
                earlier,
            } => {
                self.start(*done, *total, earlier);
                match done {
                    0 => format!("playing {total} games\n"),
                    _ => format!("resuming: {done} of {total} games were played before\n"),
                }
            }
            Event::Finished { k, record } => self.finished(*k, record),
            Event::Began { .. } => String::new(),
            Event::Stopping {
                in_flight,
                dropping: false,
            } => format!(
                "\ninterrupted: no game starts any more; finishing the {in_flight} in flight \
                 (interrupt again to drop them)\n"
            ),
            Event::Stopping { dropping: true, .. } => {
                "\ninterrupted again: dropping the games in flight\n".to_string()
            }
        }
    }

    /// Game `k` finished: the text to show (a whole line, or on a terminal a redrawn one).
    pub fn finished(&mut self, k: u32, r: &GameRecord) -> String {
        self.done += 1;
        self.count(r);
        if self.tty {
            return format!("\r\x1b[2K{}", self.status());
        }
        let result = match &r.winner {
            Some(w) => format!("{w} won ({})", r.reason),
            None => format!("drawn ({})", r.reason),
        };
        format!(
            "game {k} ({}): {result}, {} plies; {}\n",
            r.players.join(" vs "),
            r.plies,
            self.status()
        )
    }

    /// The state of the match in one line.
    pub fn status(&self) -> String {
        let mut parts = Vec::new();
        if self.tty {
            let width = 20;
            let filled = self.done * width / self.total.max(1);
            parts.push(format!(
                "[{}{}]",
                "#".repeat(filled),
                "-".repeat(width - filled)
            ));
        }
        parts.push(format!("{}/{}", self.done, self.total));
        parts.push(self.score());
        if let Some(e) = self.elo() {
            parts.push(e);
        }
        if let Some(s) = self.speed() {
            parts.push(s);
        }
        parts.join("  ")
    }

    /// `greedy 7.5 random 2.5` (points), leaders first.
    fn score(&self) -> String {
        let mut points: Vec<(f64, &String)> = self
            .tally
            .iter()
            .map(|(n, [w, d, _])| (*w as f64 + *d as f64 / 2.0, n))
            .collect();
        points.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        // A redrawn line must fit the terminal: the four leaders there.
        let shown = if self.tty { 4 } else { usize::MAX };
        let mut text = points
            .iter()
            .take(shown)
            .map(|(p, n)| format!("{n} {p}"))
            .collect::<Vec<_>>()
            .join(" ");
        if points.len() > shown {
            text.push_str(&format!(" (+{} more)", points.len() - shown));
        }
        text
    }

    /// For two bots: the first's Elo difference with a 95% interval, from its score.
    fn elo(&self) -> Option<String> {
        if self.tally.len() != 2 {
            return None;
        }
        let (name, [w, d, l]) = self.tally.iter().next()?;
        let (diff, err) = elo_of(*w, *d, *l)?;
        // Rounded first, and `+ 0.0` turns -0 into 0.
        Some(format!("Elo {name} {:+} ± {err:.0}", diff.round() + 0.0))
    }

    /// Games per second and the time left, once a game of this run has finished.
    fn speed(&self) -> Option<String> {
        let played = self.done.checked_sub(self.done_before).filter(|&n| n > 0)?;
        let elapsed = self.started?.elapsed();
        let per_game = elapsed / played as u32;
        let left = per_game * (self.total - self.done) as u32;
        Some(format!(
            "{:.2} games/s  ETA {}",
            played as f64 / elapsed.as_secs_f64().max(1e-9),
            clock(left)
        ))
    }
}

/// `1h02m`, `3m05s`, `12s`.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(a: &str, b: &str, winner: Option<&str>) -> GameRecord {
        GameRecord {
            dir: "g".into(),
            game: "id".into(),
            kind: "luzhanqi".into(),
            players: vec![a.into(), b.into()],
            winner: winner.map(str::to_string),
            sides: vec![vec![a.into()], vec![b.into()]],
            reason: "flag captured".into(),
            plies: 12,
        }
    }

    #[test]
    fn plain_lines_carry_the_result_and_the_running_score() {
        let mut live = Live::new(false);
        live.start(0, 4, &[]);
        let line = live.finished(1, &record("g", "r", Some("g")));
        assert!(
            line.starts_with("game 1 (g vs r): g won (flag captured), 12 plies; 1/4  g 1 r 0  "),
            "{line}"
        );
        assert!(line.ends_with('\n') && line.contains("ETA"), "{line}");
        // No Elo while the score is 100%; then the first bot's, by name.
        assert!(!line.contains("Elo"), "{line}");
        let line = live.finished(2, &record("r", "g", None));
        assert!(line.contains("2/4  g 1.5 r 0.5  Elo g +191 ± "), "{line}");
    }

    #[test]
    fn a_terminal_line_is_redrawn_with_a_bar() {
        let mut live = Live::new(true);
        live.start(1, 2, &[record("a", "b", None)]);
        let line = live.finished(2, &record("a", "b", Some("b")));
        assert!(
            line.starts_with("\r\x1b[2K[####################]  2/2  b 1.5 a 0.5"),
            "{line}"
        );
        assert!(!line.contains('\n'));
    }

    #[test]
    fn a_terminal_line_names_the_four_leaders() {
        let mut live = Live::new(true);
        live.start(0, 9, &[]);
        let mut line = String::new();
        for (k, (a, b)) in [("a", "b"), ("c", "d"), ("e", "f")].iter().enumerate() {
            line = live.finished(k as u32 + 1, &record(a, b, Some(a)));
        }
        assert!(line.contains("a 1 c 1 e 1 b 0 (+2 more)"), "{line}");
    }

    #[test]
    fn elo_and_its_interval_follow_the_logistic_formula() {
        let (e, err) = elo_of(30, 0, 10).unwrap();
        assert!((e - 190.8).abs() < 0.1, "{e}");
        assert!((err - 124.3).abs() < 0.5, "{err}");
        assert_eq!(elo_of(5, 0, 5).unwrap().0, 0.0);
        assert!(elo_of(0, 0, 0).is_none());
        assert!(elo_of(4, 0, 0).is_none() && elo_of(0, 0, 3).is_none());
        assert_eq!(clock(Duration::from_secs(3725)), "1h02m");
        assert_eq!(clock(Duration::from_secs(185)), "3m05s");
    }
}
