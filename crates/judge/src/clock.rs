//! Deadlines: per-move time and grace from the manifest, measured on the judge's clock only
//! (`--now`), from the receipt of the previous move (or the start of play).

use chrono::{DateTime, Duration, Utc};
use qijudge_protocol::files::{Clock, Entry, Expiry};
use qijudge_protocol::record::Record;
use serde::Serialize;

/// Where the player to move stands against the clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Deadline {
    pub ply: u32,
    /// When the time for this ply began (RFC 3339).
    pub started: String,
    /// The move is due by then.
    pub due: String,
    /// After this the move is refused and the expiry rule applies.
    pub grace_until: String,
    /// `on-time`, `in-grace` or `expired`.
    pub state: &'static str,
}

fn time(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

fn show(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The deadline of the next ply, `seat`'s: its time starts at the last move's receipt, a
/// forfeit that left the game going (four players), or when play began (the `begin` line's
/// `at`), and `seat`'s vacations stop it (the part of each after that start). None without a
/// clock or before play.
pub fn next_deadline(clock: &Clock, record: &Record, seat: &str, now: &str) -> Option<Deadline> {
    let mut ply = None;
    let mut started = None;
    for line in record.lines.iter().rev() {
        match &line.entry {
            Entry::End { .. } => return None,
            Entry::Move {
                ply: p, received, ..
            } => {
                ply = ply.or(Some(p + 1));
                started = started.or_else(|| Some(received.clone()));
            }
            // Four players: after a forfeit the next player's time starts then.
            Entry::Forfeit { at: Some(at), .. } => started = started.or_else(|| Some(at.clone())),
            Entry::Begin { at, .. } if started.is_none() => started = at.clone(),
            _ => {}
        }
    }
    let ply = ply.unwrap_or(1);
    let start = time(&started?)?;
    let away = vacation_after(record, seat, start);
    let due = start + Duration::minutes(clock.move_minutes as i64) + away;
    let grace = due + Duration::minutes(clock.grace_minutes as i64);
    let now = time(now)?;
    let state = if now <= due {
        "on-time"
    } else if now <= grace {
        "in-grace"
    } else {
        "expired"
    };
    Some(Deadline {
        ply,
        started: show(start),
        due: show(due),
        grace_until: show(grace),
        state,
    })
}

/// How much of `seat`'s vacations lies after `start`.
fn vacation_after(record: &Record, seat: &str, start: DateTime<Utc>) -> Duration {
    let mut away = Duration::zero();
    for line in &record.lines {
        if let Entry::Vacation { seat: s, days, at } = &line.entry {
            let Some(from) = time(at).filter(|_| s == seat) else {
                continue;
            };
            let until = from + Duration::days(i64::from(*days));
            if until > start {
                away += until - from.max(start);
            }
        }
    }
    away
}

/// Days of vacation `seat` has taken in this game.
pub fn vacation_taken(record: &Record, seat: &str) -> u32 {
    record
        .lines
        .iter()
        .filter_map(|l| match &l.entry {
            Entry::Vacation { seat: s, days, .. } if s == seat => Some(*days),
            _ => None,
        })
        .sum()
}

/// Whether `seat` may take `days` more days of vacation at `now`: within the manifest's
/// allowance, and before its current deadline has run out (`to_move`: the seat to move).
pub fn may_take_vacation(
    clock: Option<&Clock>,
    record: &Record,
    seat: &str,
    days: u32,
    to_move: Option<&str>,
    now: &str,
) -> std::result::Result<(), String> {
    let Some(clock) = clock.filter(|c| c.vacation_days > 0) else {
        return Err(
            "this game allows no vacation (its manifest's clock has no vacation_days)".into(),
        );
    };
    if days == 0 {
        return Err("a vacation is at least one day".into());
    }
    let taken = vacation_taken(record, seat);
    let left = clock.vacation_days.saturating_sub(taken);
    if days > left {
        return Err(format!(
            "{seat} may take {} days of vacation in this game and has taken {taken}: {left} left, {days} asked",
            clock.vacation_days
        ));
    }
    if to_move == Some(seat) {
        if let Some(d) = next_deadline(clock, record, seat, now).filter(|d| d.state == "expired") {
            return Err(format!(
                "the time for ply {} ran out at {}: a vacation cannot bring it back",
                d.ply, d.grace_until
            ));
        }
    }
    Ok(())
}

/// Whether the expiry rule records a forfeit.
pub fn forfeits(clock: &Clock) -> bool {
    clock.on_expiry == Expiry::Forfeit
}

/// A number of minutes in words a player reads: `3 days`, `12 hours`, `90 minutes`.
pub fn duration_words(minutes: u32) -> String {
    let (n, unit) = match minutes {
        0 => (0, "minute"),
        m if m % 1440 == 0 => (m / 1440, "day"),
        m if m % 60 == 0 => (m / 60, "hour"),
        m => (m, "minute"),
    };
    match n {
        1 => format!("1 {unit}"),
        n => format!("{n} {unit}s"),
    }
}

/// Reads `--clock MOVE[:GRACE[:forfeit|nothing[:VACATION_DAYS]]]`, MOVE and GRACE in minutes,
/// or with a unit: `3d`, `12h`, `90m`.
pub fn parse_clock(text: &str) -> Result<Clock, String> {
    let mut parts = text.split(':');
    let number = |p: Option<&str>, default: u32| -> Result<u32, String> {
        let Some(t) = p else { return Ok(default) };
        let (digits, per) = match t.char_indices().last() {
            Some((at, 'd')) => (&t[..at], 1440),
            Some((at, 'h')) => (&t[..at], 60),
            Some((at, 'm')) => (&t[..at], 1),
            _ => (t, 1),
        };
        digits
            .parse::<u32>()
            .ok()
            .and_then(|n| n.checked_mul(per))
            .filter(|n| *n <= 525_600)
            .ok_or_else(|| {
                format!(
                    "--clock {text:?}: times are whole minutes, or with a unit (3d, 12h, 90m), \
                     up to a year"
                )
            })
    };
    let move_minutes = number(parts.next(), 0)?;
    if move_minutes == 0 {
        return Err(format!(
            "--clock {text:?}: the time per move must be at least a minute"
        ));
    }
    let grace_minutes = number(parts.next(), 0)?;
    let on_expiry = match parts.next() {
        None | Some("forfeit") => Expiry::Forfeit,
        Some("nothing") => Expiry::Nothing,
        Some(other) => return Err(format!("--clock: on expiry {other:?}: forfeit or nothing")),
    };
    let vacation_days = match parts.next() {
        None => 0,
        Some(t) => t.parse::<u32>().ok().filter(|n| *n <= 365).ok_or_else(|| {
            format!("--clock {text:?}: the vacation allowance is whole days up to 365")
        })?,
    };
    if parts.next().is_some() {
        return Err(format!(
            "--clock {text:?}: MOVE[:GRACE[:forfeit|nothing[:VACATION_DAYS]]]"
        ));
    }
    Ok(Clock {
        move_minutes,
        grace_minutes,
        on_expiry,
        vacation_days,
    })
}

/// The judge's check before taking the next move of `seat` (file `path`): past the grace, the
/// expiry rule sets a forfeit (unless one is already asked for) and a waiting move file is
/// refused as late. `None` while the clock has not run out.
pub fn check(
    clock: Option<&Clock>,
    record: &Record,
    now: &str,
    path: &str,
    file_waiting: bool,
    seat: &str,
    forfeit: &mut Option<(String, String)>,
) -> Option<Option<qijudge_protocol::error::Error>> {
    let clock = clock?;
    let d = next_deadline(clock, record, seat, now)?;
    if d.state != "expired" {
        return None;
    }
    if forfeits(clock) && forfeit.is_none() {
        *forfeit = Some((seat.to_string(), "missed-deadline".to_string()));
    }
    Some(file_waiting.then(|| {
        qijudge_protocol::error::refuse_with(
            path,
            None,
            format!(
                "late: received {now}, after the deadline {} and its grace until {}",
                d.due, d.grace_until
            ),
            "moves must reach the judge before the deadline",
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_option_reads_an_optional_vacation_allowance() {
        assert_eq!(parse_clock("60:30").unwrap().vacation_days, 0);
        let c = parse_clock("60:30:forfeit:14").unwrap();
        assert_eq!((c.move_minutes, c.vacation_days), (60, 14));
        assert!(parse_clock("60:30:forfeit:400").is_err());
        assert!(parse_clock("60:30:forfeit:3:9").is_err());
    }

    #[test]
    fn clock_times_take_units_and_are_said_in_words() {
        let c = parse_clock("3d:12h").unwrap();
        assert_eq!((c.move_minutes, c.grace_minutes), (3 * 1440, 12 * 60));
        assert_eq!(parse_clock("90m:90").unwrap().move_minutes, 90);
        for bad in ["3w", "d", "400d", "-1h", "1.5d"] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
        assert_eq!(duration_words(3 * 1440), "3 days");
        assert_eq!(duration_words(1440), "1 day");
        assert_eq!(duration_words(720), "12 hours");
        assert_eq!(duration_words(90), "90 minutes");
        assert_eq!(duration_words(1), "1 minute");
    }

    #[test]
    fn only_the_part_of_a_vacation_after_the_ply_began_counts() {
        let mut record = Record::new();
        for (at, days) in [("2026-01-01T00:00:00Z", 2), ("2026-01-10T00:00:00Z", 1)] {
            let seat = "red".into();
            let at = at.into();
            record.append(Entry::Vacation { seat, days, at }, "genesis");
        }
        let start = time("2026-01-02T12:00:00Z").unwrap();
        // Half a day left of the first; all of the second.
        assert_eq!(vacation_after(&record, "red", start), Duration::hours(36));
        assert_eq!(vacation_after(&record, "black", start), Duration::zero());
        assert_eq!(vacation_taken(&record, "red"), 3);
    }
}
