//! The record: an append-only chain of JSON lines. Each line names the SHA-256 of the line
//! before it (the first names the manifest hash); the head is the SHA-256 of the last line.

use super::files::{parse_json_line, Entry, FormatError, RecordLine};
use super::hash::sha256_tagged;
use super::record_line::{read_plain_move_line, record_line_text};

/// A parsed, chain-checked record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub lines: Vec<RecordLine>,
    /// The exact text of each line.
    texts: Vec<String>,
    /// SHA-256 of each line: the head after it.
    heads: Vec<String>,
}

impl Record {
    /// An empty record.
    pub fn new() -> Self {
        Record::default()
    }

    /// The first `n` lines (all of them if there are fewer).
    pub fn prefix(&self, n: usize) -> Record {
        let n = n.min(self.lines.len());
        Record {
            lines: self.lines[..n].to_vec(),
            texts: self.texts[..n].to_vec(),
            heads: self.heads[..n].to_vec(),
        }
    }

    /// Parses `record.jsonl` and checks the chain against the manifest hash.
    /// Errors name the 1-based line.
    pub fn parse(text: &str, manifest_hash: &str) -> Result<Record, (usize, FormatError)> {
        let mut record = Record::new();
        if text.is_empty() {
            return Ok(record);
        }
        let Some(body) = text.strip_suffix('\n') else {
            return Err((
                text.lines().count(),
                FormatError {
                    field: None,
                    reason: "must end with a line feed".into(),
                },
            ));
        };
        let lines = body.bytes().filter(|&b| b == b'\n').count() + 1;
        record.lines.reserve_exact(lines);
        record.heads.reserve_exact(lines);
        record.texts.reserve_exact(lines);
        for (i, line) in body.split('\n').enumerate() {
            let parsed: RecordLine = match read_plain_move_line(line) {
                Some(parsed) => parsed,
                None => parse_json_line(line).map_err(|e| (i + 1, e))?,
            };
            let expected_prev = record.heads.last().map_or(manifest_hash, String::as_str);
            if parsed.seq != i as u64 {
                return Err((
                    i + 1,
                    FormatError {
                        field: Some("seq".into()),
                        reason: format!("expected {i}"),
                    },
                ));
            }
            if parsed.prev != expected_prev {
                return Err((
                    i + 1,
                    FormatError {
                        field: Some("prev".into()),
                        reason: "does not chain to the line before".into(),
                    },
                ));
            }
            record.lines.push(parsed);
            record.heads.push(sha256_tagged(line.as_bytes()));
            record.texts.push(line.to_string());
        }
        Ok(record)
    }

    /// The head: SHA-256 of the last line, or `genesis` (the manifest hash) when empty.
    pub fn head_or(&self, genesis: &str) -> String {
        self.heads
            .last()
            .cloned()
            .unwrap_or_else(|| genesis.to_string())
    }

    /// The ply of the last recorded move (0 before the first).
    pub fn last_move_ply(&self) -> u32 {
        self.lines
            .iter()
            .filter_map(|l| match l.entry {
                Entry::Move { ply, .. } => Some(ply),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// The head after the first `lines` lines (`genesis` for none).
    pub fn head_after(&self, lines: usize, genesis: &str) -> String {
        match lines {
            0 => genesis.to_string(),
            n => self
                .heads
                .get(n - 1)
                .cloned()
                .unwrap_or_else(|| self.head_or(genesis)),
        }
    }

    /// The heads a new move may answer: the current one, and each head before a run of
    /// judge-only lines at the end (a vacation), so that a line the judge adds on its own never
    /// makes a move already signed stale.
    pub fn answerable_heads(&self, genesis: &str) -> Vec<String> {
        let mut heads = vec![self.head_or(genesis)];
        let mut n = self.lines.len();
        while n > 0 && matches!(self.lines[n - 1].entry, Entry::Vacation { .. }) {
            n -= 1;
            heads.push(self.head_after(n, genesis));
        }
        heads
    }

    /// Appends an entry, chaining it to the current head.
    pub fn append(&mut self, entry: Entry, genesis: &str) {
        let line = RecordLine {
            seq: self.lines.len() as u64,
            prev: self.head_or(genesis),
            entry,
        };
        let text = record_line_text(&line);
        self.heads.push(sha256_tagged(text.as_bytes()));
        self.texts.push(text);
        self.lines.push(line);
    }

    /// Appends line `k` of `parsed` as it stands, when this record holds exactly `parsed`'s
    /// first `k` lines and that line's entry is `entry`: the line [`Record::append`] would
    /// make, without serialising and hashing it again (a parsed record's texts are canonical).
    /// Otherwise appends `entry` as [`Record::append`] does.
    pub fn append_as_in(&mut self, parsed: &Record, k: usize, entry: Entry, genesis: &str) {
        let k_prev = match k.checked_sub(1) {
            None => Some(genesis),
            Some(j) => parsed.heads.get(j).map(String::as_str),
        };
        let same_so_far = self.lines.len() == k
            && k_prev == Some(self.heads.last().map_or(genesis, String::as_str))
            && parsed.lines.get(k).is_some_and(|l| l.entry == entry);
        if !same_so_far {
            return self.append(entry, genesis);
        }
        self.lines.push(parsed.lines[k].clone());
        self.texts.push(parsed.texts[k].clone());
        self.heads.push(parsed.heads[k].clone());
    }

    /// The record as file bytes.
    pub fn to_text(&self) -> String {
        self.texts.iter().map(|t| format!("{t}\n")).collect()
    }

    /// Whether some line of the record hashes to `head`.
    pub fn contains_head(&self, head: &str) -> bool {
        self.heads.iter().any(|h| h == head)
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_move_may_answer_the_head_before_trailing_vacations_only() {
        let vacation = |seat: &str| Entry::Vacation {
            seat: seat.into(),
            days: 1,
            at: "2026-11-21T10:00:00Z".into(),
        };
        let begin = || Entry::Begin {
            first: "red".into(),
            lot_nonces: Default::default(),
            at: None,
        };
        let mut r = Record::new();
        r.append(begin(), "g");
        let before = r.head_or("g");
        r.append(vacation("black"), "g");
        let after_one = r.head_or("g");
        r.append(vacation("red"), "g");
        assert_eq!(
            r.answerable_heads("g"),
            vec![r.head_or("g"), after_one.clone(), before.clone()]
        );
        r.append(begin(), "g");
        assert_eq!(r.answerable_heads("g"), vec![r.head_or("g")]);
    }

    /// A replay copying a parsed record's lines builds the record `append` builds; an entry
    /// that is not the parsed line's, or a record that is not its prefix, is appended anew.
    #[test]
    fn appending_as_in_a_parsed_record_is_appending() {
        let vacation = |seat: &str, days| Entry::Vacation {
            seat: seat.into(),
            days,
            at: "2026-11-21T10:00:00Z".into(),
        };
        let mut made = Record::new();
        for (seat, days) in [("red", 1), ("black", 2), ("red", 3)] {
            made.append(vacation(seat, days), "g");
        }
        let parsed = Record::parse(&made.to_text(), "g").unwrap();
        let mut copied = Record::new();
        for (k, line) in parsed.lines.iter().enumerate() {
            copied.append_as_in(&parsed, k, line.entry.clone(), "g");
        }
        assert_eq!(copied, made);
        // Another entry at line 1: the record appends it, chained as `append` chains it.
        let mut other = parsed.prefix(1);
        other.append_as_in(&parsed, 1, vacation("black", 9), "g");
        let mut want = parsed.prefix(1);
        want.append(vacation("black", 9), "g");
        assert_eq!(other, want);
        // Line 2 after that other line 1 does not chain to it: appended anew.
        other.append_as_in(&parsed, 2, vacation("red", 3), "g");
        want.append(vacation("red", 3), "g");
        assert_eq!(other, want);
        assert_ne!(other.head_or("g"), parsed.head_or("g"));
    }

    use super::*;
    use qijudge_rules::EndReason;

    /// Byte-exact head vector (computed independently with Python hashlib).
    #[test]
    fn head_vector() {
        let genesis = format!("sha256:{}", "0".repeat(64));
        let mut r = Record::new();
        r.append(
            Entry::SetupAccepted {
                seat: "south".into(),
            },
            &genesis,
        );
        let line0 = format!("{{\"seq\":0,\"prev\":\"{genesis}\",\"entry\":{{\"kind\":\"setup_accepted\",\"seat\":\"south\"}}}}");
        assert_eq!(r.to_text(), format!("{line0}\n"));
        assert_eq!(r.head_or(&genesis), sha256_tagged(line0.as_bytes()));
        assert_eq!(
            r.head_or(&genesis),
            "sha256:ab46a7ea34900aa8bf3da0342916a92ce02251580c266aab65467fbd030ca927"
        );
        r.append(
            Entry::End {
                winner: None,
                allies: Vec::new(),
                reason: EndReason::PlyLimit,
            },
            &genesis,
        );
        let parsed = Record::parse(&r.to_text(), &genesis).unwrap();
        assert_eq!(parsed, r);
    }

    #[test]
    fn broken_chains_are_refused() {
        let genesis = format!("sha256:{}", "0".repeat(64));
        let mut r = Record::new();
        r.append(
            Entry::SetupAccepted {
                seat: "south".into(),
            },
            &genesis,
        );
        r.append(
            Entry::SetupAccepted {
                seat: "north".into(),
            },
            &genesis,
        );
        let text = r.to_text();
        let edited = text.replacen("south", "north", 1);
        assert_eq!(Record::parse(&edited, &genesis).unwrap_err().0, 2);
        let other_manifest = format!("sha256:{}", "1".repeat(64));
        assert_eq!(Record::parse(&text, &other_manifest).unwrap_err().0, 1);
        let dropped_first: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(Record::parse(&dropped_first, &genesis).is_err());
        assert!(Record::parse(text.trim_end(), &genesis).is_err());
    }
}
