//! The daily digest. A player who asks for it (the mail command `digest on`, or `digest = true`
//! for the seat in `game.toml`) gets at most one mail a day for their games at the judge's
//! address, instead of a mail per move: the list of those games (whose turn, deadlines) and the
//! judge's latest message of each game that changed, attached whole, so that each copy takes in
//! its own game. What cannot wait still goes at once (see [`crate::outbox::Outgoing`]'s
//! `urgent`).

use qijudge_protocol::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// What each address asked for, and when its last digest went (`digest.json` in the judge's
/// mail folder: a club's `.qijudge-mail/`, a single game's `mail/`).
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct Digests(BTreeMap<String, Wish>);

#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Wish {
    /// `digest on|off` for every game of the address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    all: Option<bool>,
    /// `digest GAME on|off`, by game id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    games: BTreeMap<String, bool>,
    /// The day (UTC, `YYYY-MM-DD`) of the last digest sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last: Option<String>,
}

const FILE: &str = "digest.json";

/// The time of day (UTC) a digest goes, at the first run at or after it.
pub const DEFAULT_AT: &str = "07:00";

impl Digests {
    /// The wishes kept in `spool`; a damaged file counts as none (mail then goes at once).
    pub fn read(spool: &Path) -> Digests {
        std::fs::read_to_string(spool.join(FILE))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    pub fn save(&self, spool: &Path) -> Result<()> {
        let text =
            serde_json::to_string_pretty(&self.0).map_err(|e| Error::Io(format!("{FILE}: {e}")))?;
        std::fs::create_dir_all(spool)
            .map_err(|e| Error::Io(format!("{}: {e}", spool.display())))?;
        qijudge_store::write_atomic(&spool.join(FILE), format!("{text}\n").as_bytes())
    }

    /// `address` asks for the digest (`on`) or mail per move for `game`, or for all its games.
    pub fn set(&mut self, address: &str, game: Option<&str>, on: bool) {
        let wish = self.0.entry(address.to_ascii_lowercase()).or_default();
        match game {
            Some(g) => {
                wish.games.insert(g.to_string(), on);
            }
            None => {
                wish.all = Some(on);
                wish.games.clear();
            }
        }
    }

    /// Whether `address` reads `game` in the digest: its word for the game, else for all its
    /// games, else what the manifest says for its seat (`by_manifest`).
    pub fn wants(&self, address: &str, game: &str, by_manifest: bool) -> bool {
        let wish = self.0.get(&address.to_ascii_lowercase());
        wish.and_then(|w| w.games.get(game).copied())
            .or(wish.and_then(|w| w.all))
            .unwrap_or(by_manifest)
    }

    /// Whether a digest for `address` may go at `now`: none went today, and the time of day is
    /// `at` (`HH:MM`) or later.
    pub fn due(&self, address: &str, now: &str, at: &str) -> bool {
        let day = now.get(..10).unwrap_or(now);
        let time = now.get(11..16).unwrap_or("");
        let sent_today = self
            .0
            .get(&address.to_ascii_lowercase())
            .and_then(|w| w.last.as_deref())
            == Some(day);
        !sent_today && time >= at
    }

    /// Records that a digest went to `address` at `now`.
    pub fn sent(&mut self, address: &str, now: &str) {
        let day = now.get(..10).unwrap_or(now).to_string();
        self.0.entry(address.to_ascii_lowercase()).or_default().last = Some(day);
    }
}

/// Reads `--digest-at HH:MM`.
pub fn parse_at(text: &str) -> std::result::Result<String, String> {
    let ok = text.len() == 5
        && text.as_bytes()[2] == b':'
        && text[..2].parse::<u8>().is_ok_and(|h| h < 24)
        && text[3..].parse::<u8>().is_ok_and(|m| m < 60);
    match ok {
        true => Ok(text.to_string()),
        false => Err(format!("{text:?}: a time of day HH:MM (UTC), like 07:00")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_word_overrides_the_addresss_which_overrides_the_manifest() {
        let mut d = Digests::default();
        assert!(!d.wants("a@example.org", "g1", false));
        assert!(d.wants("a@example.org", "g1", true));
        d.set("A@example.org", None, true);
        assert!(d.wants("a@example.org", "g1", false));
        d.set("a@example.org", Some("g1"), false);
        assert!(!d.wants("a@example.org", "g1", true));
        assert!(d.wants("a@example.org", "g2", false));
        // `digest off` for all games forgets the per-game words.
        d.set("a@example.org", None, false);
        assert!(!d.wants("a@example.org", "g2", true));
    }

    #[test]
    fn one_digest_a_day_from_the_hour_on() {
        let mut d = Digests::default();
        assert!(!d.due("a@example.org", "2026-11-21T06:59:00Z", "07:00"));
        assert!(d.due("a@example.org", "2026-11-21T07:00:00Z", "07:00"));
        d.sent("a@example.org", "2026-11-21T07:00:00Z");
        assert!(!d.due("a@example.org", "2026-11-21T23:00:00Z", "07:00"));
        assert!(!d.due("a@example.org", "2026-11-22T06:00:00Z", "07:00"));
        assert!(d.due("a@example.org", "2026-11-22T08:00:00Z", "07:00"));
    }

    #[test]
    fn the_hour_is_checked() {
        assert_eq!(parse_at("18:30").unwrap(), "18:30");
        for bad in ["24:00", "7:00", "07:60", "0700", "noon"] {
            assert!(parse_at(bad).is_err(), "{bad}");
        }
    }
}
