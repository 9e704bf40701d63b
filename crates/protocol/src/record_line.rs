//! The record's most common line, a plain move, read and written directly. Every reader of a
//! game parses every line, and the general path (serde's tagged enum, then writing the value
//! again to insist on canonical bytes) cost more than the rules' replay of the move. A line
//! read here is exactly the canonical JSON of what it returns, so it is what the general path
//! would return; any other line (other entries, escapes, optional fields besides the outcome)
//! is left to the general path, which also explains what is wrong with it.

use super::files::{to_json_line, Entry, RecordLine};
use qijudge_rules::Outcome;

/// A string that canonical JSON writes between quotes as it is: printable ASCII without `"`
/// or `\`.
fn is_plain(s: &str) -> bool {
    super::files::plain_ascii(s, b'"')
}

/// Reads a text field by field: each step takes an exact prefix and a value up to a quote or a
/// non-digit.
struct Cursor<'a>(&'a str);

impl<'a> Cursor<'a> {
    fn lit(&mut self, prefix: &str) -> Option<()> {
        self.0 = self.0.strip_prefix(prefix)?;
        Some(())
    }

    /// `prefix` (ending in the opening quote), then a quoted plain string.
    fn string_after(&mut self, prefix: &str) -> Option<&'a str> {
        self.lit(prefix)?;
        self.string()
    }

    /// `prefix`, then a number.
    fn number_after<T: std::str::FromStr>(&mut self, prefix: &str) -> Option<T> {
        self.lit(prefix)?;
        self.number()
    }

    /// A quoted plain string (the opening quote already taken) and its closing quote.
    fn string(&mut self) -> Option<&'a str> {
        let end = self.0.find('"')?;
        let (s, rest) = self.0.split_at(end);
        self.0 = &rest[1..];
        is_plain(s).then_some(s)
    }

    /// A number as canonical JSON writes it: digits, no leading zero.
    fn number<T: std::str::FromStr>(&mut self) -> Option<T> {
        let end = self
            .0
            .bytes()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(self.0.len());
        let (digits, rest) = self.0.split_at(end);
        if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
            return None;
        }
        self.0 = rest;
        digits.parse().ok()
    }
}

/// The line, if it is a plain move line in canonical form; none for any other text.
pub fn read_plain_move_line(line: &str) -> Option<RecordLine> {
    let mut c = Cursor(line);
    let seq = c.number_after("{\"seq\":")?;
    let prev = c.string_after(",\"prev\":\"")?;
    let ply = c.number_after(",\"entry\":{\"kind\":\"move\",\"ply\":")?;
    let seat = c.string_after(",\"seat\":\"")?;
    let file = c.string_after(",\"file\":\"")?;
    let received = c.string_after(",\"received\":\"")?;
    let action = c.string_after(",\"move\":\"")?;
    let outcome = match c.lit(",\"outcome\":\"") {
        Some(()) => Some(Outcome::named(c.string()?)?),
        None => None,
    };
    c.lit("}}")?;
    if !c.0.is_empty() {
        return None;
    }
    Some(RecordLine {
        seq,
        prev: prev.to_string(),
        entry: Entry::Move {
            ply,
            seat: seat.to_string(),
            file: file.to_string(),
            received: received.to_string(),
            action: action.to_string(),
            outcome,
            notices: Vec::new(),
            draw_offered: false,
            revealed: None,
            conditional: None,
        },
    })
}

/// The canonical JSON of `line` (what [`to_json_line`] writes), written directly when it is a
/// plain move line.
pub fn record_line_text(line: &RecordLine) -> String {
    match &line.entry {
        Entry::Move {
            ply,
            seat,
            file,
            received,
            action,
            outcome,
            notices,
            draw_offered: false,
            revealed: None,
            conditional: None,
        } if notices.is_empty()
            && [&line.prev, seat, file, received, action]
                .iter()
                .all(|s| is_plain(s)) =>
        {
            let outcome =
                outcome.map_or(String::new(), |o| format!(",\"outcome\":\"{}\"", o.name()));
            format!(
                "{{\"seq\":{},\"prev\":\"{}\",\"entry\":{{\"kind\":\"move\",\"ply\":{ply},\"seat\":\"{seat}\",\"file\":\"{file}\",\"received\":\"{received}\",\"move\":\"{action}\"{outcome}}}}}",
                line.seq, line.prev
            )
        }
        _ => to_json_line(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::parse_json_line;
    use proptest::prelude::*;

    fn move_line(seq: u64, strings: [String; 5], outcome: Option<Outcome>) -> RecordLine {
        let [prev, seat, file, received, action] = strings;
        RecordLine {
            seq,
            prev,
            entry: Entry::Move {
                ply: (seq % 1000) as u32,
                seat,
                file,
                received,
                action,
                outcome,
                notices: Vec::new(),
                draw_offered: false,
                revealed: None,
                conditional: None,
            },
        }
    }

    fn outcome() -> impl Strategy<Value = Option<Outcome>> {
        prop_oneof![
            Just(None),
            Just(Some(Outcome::Moved)),
            Just(Some(Outcome::AttackerWon)),
            Just(Some(Outcome::DefenderWon)),
            Just(Some(Outcome::BothRemoved)),
        ]
    }

    proptest! {
        /// Any move line, plain or not: the direct writer writes what serde writes, and the
        /// direct reader reads back the same line or leaves it to the general path.
        #[test]
        fn the_direct_path_is_the_general_path(
            seq in any::<u64>(),
            strings in proptest::array::uniform5("[ -~é\\\\\"\\n]{0,12}"),
            outcome in outcome(),
        ) {
            let line = move_line(seq, strings, outcome);
            let text = to_json_line(&line);
            prop_assert_eq!(record_line_text(&line), text.clone());
            if let Some(read) = read_plain_move_line(&text) {
                prop_assert_eq!(read, line);
            }
        }

        /// Any text the direct reader takes is canonical, and the general path reads it alike.
        #[test]
        fn what_the_direct_reader_takes_the_general_path_takes(
            text in "(([a-z0-9 _,:{}\\\\-]|\"outcome\"|\"moved\"|\")){0,16}",
        ) {
            for candidate in [
                text.clone(),
                format!("{{\"seq\":1,\"prev\":\"p\",\"entry\":{{\"kind\":\"move\",\"ply\":2,\"seat\":\"s\",\"file\":\"f\",\"received\":\"r\",\"move\":\"{text}"),
            ] {
                if let Some(read) = read_plain_move_line(&candidate) {
                    prop_assert_eq!(parse_json_line::<RecordLine>(&candidate).ok(), Some(read));
                }
            }
        }
    }

    #[test]
    fn plain_lines_are_read_directly_and_others_are_left() {
        let plain = move_line(
            7,
            [
                "sha256:ab",
                "south",
                "sha256:cd",
                "2026-12-02T12:00:00Z",
                "a3-b3",
            ]
            .map(String::from),
            Some(Outcome::DefenderWon),
        );
        let text = to_json_line(&plain);
        assert_eq!(read_plain_move_line(&text), Some(plain.clone()));
        for other in [
            text.replace(":7,", ":07,"),
            text.replace(":7,", ": 7,"),
            text.replace("defender_won", "lost"),
            text.replace("}}", "}} "),
            text.replace("a3-b3", "a3\\u002db3"),
            text.replace("\"outcome\"", "\"notices\":[],\"outcome\""),
        ] {
            assert_eq!(read_plain_move_line(&other), None, "{other}");
        }
        let mut drew = plain;
        if let Entry::Move { draw_offered, .. } = &mut drew.entry {
            *draw_offered = true;
        }
        let text = record_line_text(&drew);
        assert_eq!(text, to_json_line(&drew));
        assert_eq!(read_plain_move_line(&text), None);
        assert_eq!(parse_json_line::<RecordLine>(&text).unwrap(), drew);
    }
}
