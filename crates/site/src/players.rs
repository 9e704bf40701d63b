//! The club's players, one per key: a player is the key that signs its moves, whatever name a
//! game gives it. Each has a page whose name is made from its name and its key's digest, so a
//! page keeps its address when other players come and go.

use crate::entry::{key_body, Entry};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Default)]
pub struct Players {
    /// Key body → the names its games give it, and its page's name.
    by_key: BTreeMap<String, (BTreeSet<String>, String)>,
}

impl Players {
    /// The players of the games (their paths, times and seats). A page is named after the name
    /// the player's oldest game gives it, so new games never move it.
    pub fn of(games: &[Entry]) -> Players {
        let mut by_key: BTreeMap<String, (BTreeSet<String>, String)> = BTreeMap::new();
        let mut oldest: BTreeMap<String, (&Option<String>, &String, &String)> = BTreeMap::new();
        for Entry {
            path,
            created,
            players,
            ..
        } in games
        {
            for p in players {
                let key = key_body(&p.key);
                let slot = by_key
                    .entry(key.clone())
                    .or_insert_with(|| (BTreeSet::new(), String::new()));
                slot.0.insert(p.name.clone());
                let this = (created, path, &p.name);
                let first = oldest.entry(key).or_insert(this);
                if this < *first {
                    *first = this;
                }
            }
        }
        for (key, (_, slug)) in by_key.iter_mut() {
            let name = oldest.get(key).map(|o| o.2.as_str()).unwrap_or("");
            *slug = slug_of(name, key);
        }
        Players { by_key }
    }

    /// Every player: key body, names, page name.
    pub fn all(&self) -> impl Iterator<Item = (&String, &BTreeSet<String>, &String)> {
        self.by_key.iter().map(|(k, (n, s))| (k, n, s))
    }

    /// The page name of the player with this key (a key line, comment or not).
    pub fn slug(&self, key: &str) -> String {
        let key = key_body(key);
        self.by_key
            .get(&key)
            .map(|(_, s)| s.clone())
            .unwrap_or_else(|| slug_of("", &key))
    }

    /// The page of the one player called `name`, when only one key has that name.
    pub fn by_name(&self, name: &str) -> Option<&str> {
        let mut found = self.by_key.values().filter(|(n, _)| n.contains(name));
        let first = found.next()?;
        found.next().is_none().then_some(first.1.as_str())
    }
}

/// `alice-1a2b3c4d`: the name's letters and digits (lower case, others as `-`), and the first
/// eight hex digits of the key's SHA-256.
fn slug_of(name: &str, key: &str) -> String {
    let mut base = String::new();
    for c in name.chars().take(24) {
        match c.is_ascii_alphanumeric() {
            true => base.push(c.to_ascii_lowercase()),
            false if !base.ends_with('-') && !base.is_empty() => base.push('-'),
            false => {}
        }
    }
    let base = base.trim_end_matches('-');
    let digest = qijudge_rules::hash::sha256_tagged(key.as_bytes());
    let hex = digest.trim_start_matches("sha256:");
    match base.is_empty() {
        true => format!("p-{}", &hex[..8]),
        false => format!("{base}-{}", &hex[..8]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_name_is_plain_and_keeps_to_its_key() {
        let a = slug_of("Alice B. <x>", "ssh-ed25519 AAAA1");
        assert!(a.starts_with("alice-b-x-"), "{a}");
        assert_eq!(a.len(), "alice-b-x-".len() + 8);
        assert_ne!(a, slug_of("Alice B. <x>", "ssh-ed25519 AAAA2"));
        assert!(slug_of("张三", "k").starts_with("p-"));
    }
}
