//! Time controls for bot games: each seat's clock starts at a base time, runs while its bot
//! thinks, and gains an increment after each move; with moves to go (`40/60+0`, as
//! cutechess-cli writes it), the base time again after every 40 moves of the seat. A bot whose
//! clock runs out loses on time.

use qijudge_engine::protocol::ClockInfo;
use std::time::Duration;

/// `[MOVES/]BASE[+INCREMENT]`, times in seconds (`60+0.5`, `40/60`, `40/60+1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
    /// Each seat's clock gains `base` again after every this many of its moves.
    pub moves: Option<u32>,
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let seconds = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0 && *x < 1e7)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| {
                    format!("--tc {text:?}: expected seconds as BASE+INCREMENT, like 60+0.5")
                })
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m = m.parse::<u32>().ok().filter(|m| *m > 0).ok_or_else(|| {
                    format!("--tc {text:?}: moves to go must be a whole number above 0, like 40/60")
                })?;
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let tc = TimeControl {
            base: seconds(base)?,
            increment: seconds(increment)?,
            moves,
        };
        if tc.base.is_zero() {
            return Err(format!("--tc {text:?}: the base time must be more than 0"));
        }
        Ok(tc)
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// The clocks of one game, by seat.
pub struct Clocks {
    tc: TimeControl,
    seats: Vec<String>,
    left: Vec<Duration>,
    /// Moves each seat has made.
    made: Vec<u32>,
}

impl Clocks {
    pub fn new(tc: TimeControl, seats: &[String]) -> Clocks {
        Clocks {
            tc,
            seats: seats.to_vec(),
            left: vec![tc.base; seats.len()],
            made: vec![0; seats.len()],
        }
    }

    /// How long seat `seat` may take for its next answer: the time per move, or its clock if
    /// that has less.
    pub fn allowed(&self, seat: usize, per_move: Duration) -> Duration {
        per_move.min(self.left[seat])
    }

    /// Charges `used` to seat `seat`'s clock; false when it ran out by more than `margin` (a
    /// loss on time), else the increment is added (to a clock at zero when it ran out within the
    /// margin, as fastchess's `timemargin`).
    pub fn spend(&mut self, seat: usize, used: Duration, margin: Duration) -> bool {
        let left = match self.left[seat].checked_sub(used) {
            None if used <= self.left[seat] + margin => Some(Duration::ZERO),
            other => other,
        };
        match left {
            Some(left) => {
                self.left[seat] = left + self.tc.increment;
                self.made[seat] += 1;
                if self
                    .tc
                    .moves
                    .is_some_and(|m| self.made[seat].is_multiple_of(m))
                {
                    self.left[seat] += self.tc.base;
                }
                true
            }
            None => {
                self.left[seat] = Duration::ZERO;
                false
            }
        }
    }

    /// Every clock, as bots are told.
    pub fn info(&self) -> ClockInfo {
        ClockInfo {
            remaining_ms: self
                .seats
                .iter()
                .zip(&self.left)
                .map(|(s, d)| (s.clone(), d.as_millis() as u64))
                .collect(),
            increment_ms: self.tc.increment.as_millis() as u64,
            moves_to_go: match self.tc.moves {
                Some(m) => self
                    .seats
                    .iter()
                    .zip(&self.made)
                    .map(|(s, made)| (s.clone(), u64::from(m - made % m)))
                    .collect(),
                None => Default::default(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_clocks_run() {
        let tc: TimeControl = "2+0.5".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(2));
        assert_eq!(tc.increment, Duration::from_millis(500));
        assert_eq!(
            "10".parse::<TimeControl>().unwrap().increment,
            Duration::ZERO
        );
        for bad in ["", "0", "x+1", "1+y", "-1+0", "1+2+3"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let seats = ["red".to_string(), "black".to_string()];
        let mut c = Clocks::new(tc, &seats);
        assert_eq!(c.allowed(0, Duration::from_secs(5)), Duration::from_secs(2));
        assert!(c.spend(0, Duration::from_millis(1500), Duration::ZERO));
        // 2 - 1.5 + 0.5 = 1 s left.
        assert_eq!(c.info().remaining_ms["red"], 1000);
        assert_eq!(c.info().remaining_ms["black"], 2000);
        assert_eq!(c.info().increment_ms, 500);
        // Past the clock within the margin: at zero, plus the increment.
        assert!(c.spend(0, Duration::from_millis(1200), Duration::from_millis(250)));
        assert_eq!(c.info().remaining_ms["red"], 500);
        assert!(
            !c.spend(0, Duration::from_millis(501), Duration::ZERO),
            "flag fell"
        );
    }

    #[test]
    fn moves_to_go_give_the_base_time_again() {
        let tc: TimeControl = "2/10+1".parse().unwrap();
        assert_eq!(tc.moves, Some(2));
        assert_eq!(tc.to_string(), "2/10+1");
        for bad in ["0/10", "x/10", "2/", "/10"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let seats = ["red".to_string(), "black".to_string()];
        let mut c = Clocks::new(tc, &seats);
        assert_eq!(c.info().moves_to_go["red"], 2);
        assert!(c.spend(0, Duration::from_secs(4), Duration::ZERO));
        // 10 - 4 + 1 = 7, one move to go.
        assert_eq!(c.info().remaining_ms["red"], 7000);
        assert_eq!(c.info().moves_to_go["red"], 1);
        assert!(c.spend(0, Duration::from_secs(4), Duration::ZERO));
        // 7 - 4 + 1, then the base again: 14, and two moves to go.
        assert_eq!(c.info().remaining_ms["red"], 14000);
        assert_eq!(c.info().moves_to_go["red"], 2);
        assert_eq!(c.info().moves_to_go["black"], 2);
        assert!("60+1".parse::<TimeControl>().unwrap().moves.is_none());
    }
}
