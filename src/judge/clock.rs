//! Deadlines: per-move time and grace from the manifest, measured on the judge's clock only
//! (`--now`), from the receipt of the previous move (or the start of play).

use crate::protocol::files::{Clock, Entry, Expiry};
use crate::protocol::record::Record;
use chrono::{DateTime, Duration, Utc};
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

/// The deadline of the next ply: its time starts at the last move's receipt, a forfeit that
/// left the game going (four players), or when play began (the `begin` line's `at`). None without a clock or before play.
pub fn next_deadline(clock: &Clock, record: &Record, now: &str) -> Option<Deadline> {
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
    let due = start + Duration::minutes(clock.move_minutes as i64);
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

/// Whether the expiry rule records a forfeit.
pub fn forfeits(clock: &Clock) -> bool {
    clock.on_expiry == Expiry::Forfeit
}

/// Reads `--clock MOVE_MINUTES[:GRACE_MINUTES[:forfeit|nothing]]`.
pub fn parse_clock(text: &str) -> Result<Clock, String> {
    let mut parts = text.split(':');
    let number = |p: Option<&str>, default: u32| -> Result<u32, String> {
        match p {
            None => Ok(default),
            Some(t) => t
                .parse::<u32>()
                .ok()
                .filter(|n| *n <= 525_600)
                .ok_or_else(|| {
                    format!("--clock {text:?}: minutes must be whole numbers up to a year")
                }),
        }
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
    Ok(Clock {
        move_minutes,
        grace_minutes,
        on_expiry,
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
) -> Option<Option<crate::error::Error>> {
    let clock = clock?;
    let d = next_deadline(clock, record, now)?;
    if d.state != "expired" {
        return None;
    }
    if forfeits(clock) && forfeit.is_none() {
        *forfeit = Some((seat.to_string(), "missed-deadline".to_string()));
    }
    Some(file_waiting.then(|| {
        crate::error::refuse_with(
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
