//! The judge's words: record entries and end reasons as it says them, and the check that text
//! a player wrote holds nothing that could forge a line where it is shown.

use qijudge_protocol::files::Entry;
use qijudge_rules::EndReason;

/// Control characters (line breaks, escapes) and bidirectional overrides, which could forge
/// lines in a terminal, a log or a mail header.
pub fn has_control(s: &str) -> bool {
    s.chars()
        .any(|c| c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'))
}

/// An end reason in words (`flag captured`).
pub fn reason_text(reason: EndReason) -> String {
    serde_json::to_value(reason)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
        .unwrap_or_default()
}

/// One line for a new record entry, as printed by `judge`.
pub fn describe(entry: &Entry) -> String {
    match entry {
        Entry::Start { game, .. } => format!("game {game} opened"),
        Entry::Commitment { seat, .. } => format!("commitment of {seat} recorded"),
        Entry::SetupAccepted { seat } => format!("setup of {seat} accepted"),
        Entry::Begin {
            first, lot_nonces, ..
        } if !lot_nonces.is_empty() => {
            format!("play begins; the lot chose {first} to move first")
        }
        Entry::Begin { first, .. } => format!("play begins; {first} moves first"),
        Entry::Move {
            ply,
            seat,
            action,
            outcome,
            revealed,
            ..
        } => {
            let turned = revealed
                .as_ref()
                .map(|r| format!(" (turned up {r})"))
                .unwrap_or_default();
            let o = outcome.map(|o| {
                format!(
                    " ({})",
                    serde_json::to_value(o)
                        .ok()
                        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
                        .unwrap_or_default()
                )
            });
            format!(
                "ply {ply}: {seat} {action}{turned}{}",
                o.unwrap_or_default()
            )
        }
        Entry::Throw {
            t, seat, values, ..
        } => format!(
            "throw {t} for {seat}: {}",
            values
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Entry::Forfeit { seat, reason, .. } => format!("{seat} forfeits ({reason})"),
        Entry::Adjudicated {
            winner: Some(w),
            reason,
        } => format!("adjudicated: {w} wins ({reason})"),
        Entry::Adjudicated {
            winner: None,
            reason,
        } => format!("adjudicated: a draw ({reason})"),
        Entry::Vacation { seat, days, .. } => {
            format!(
                "{seat} takes {days} day{} of vacation",
                if *days == 1 { "" } else { "s" }
            )
        }
        Entry::End {
            winner: Some(w),
            allies,
            reason,
        } => {
            let team: Vec<&str> = std::iter::once(w.as_str())
                .chain(allies.iter().map(String::as_str))
                .collect();
            let verb = if team.len() > 1 { "win" } else { "wins" };
            format!(
                "game over: {} {verb} ({})",
                team.join(" and "),
                reason_text(*reason)
            )
        }
        Entry::End {
            winner: None,
            reason,
            ..
        } => format!("game over: draw ({})", reason_text(*reason)),
    }
}
