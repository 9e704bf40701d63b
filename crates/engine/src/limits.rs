//! What a process bot or engine may consume: memory, processes, disk, open files and standard
//! error. The defaults let a real engine play (Fairy-Stockfish or Pikafish with a 256 MB hash
//! table and a few threads) and stop a hostile program long before the machine runs short;
//! `--bot-limit [NAME:]KEY=VALUE,…` changes them for every bot or for one. A bot that reaches
//! a limit loses the game with the reason code `bot-limit-KEY`. How each limit is enforced is in
//! [`crate::sandbox`] (tmpfs sizes, rlimits) and [`crate::cgroup`] (memory and processes).

use std::collections::BTreeMap;

/// The limits of one bot; `None` is unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of memory of all its processes together (resident, with its tmpfs files).
    pub memory: Option<u64>,
    /// Processes and threads, together.
    pub processes: Option<u64>,
    /// Bytes in each writable place (its folder, `/tmp`, `/dev/shm`), and the largest file.
    pub disk: Option<u64>,
    /// Open files per process.
    pub files: Option<u64>,
    /// Bytes of standard error in one game.
    pub log: Option<u64>,
}

const MIB: u64 = 1 << 20;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory: Some(1024 * MIB),
            processes: Some(64),
            disk: Some(64 * MIB),
            files: Some(256),
            log: Some(16 * MIB),
        }
    }
}

/// The limit a bot reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    Memory,
    Processes,
    Disk,
    Log,
}

impl LimitKind {
    /// The reason code of the forfeit.
    pub fn code(self) -> &'static str {
        match self {
            LimitKind::Memory => "bot-limit-memory",
            LimitKind::Processes => "bot-limit-processes",
            LimitKind::Disk => "bot-limit-disk",
            LimitKind::Log => "bot-limit-log",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            LimitKind::Memory => "the bot used more memory than its limit",
            LimitKind::Processes => "the bot started more processes or threads than its limit",
            LimitKind::Disk => "the bot filled a writable place (or a file) up to its limit",
            LimitKind::Log => "the bot wrote more to its standard error than its limit",
        }
    }
}

const KEYS: &str = "memory, processes, disk, files, log";

impl Limits {
    /// These limits with `memory=2G,processes=128` applied over them.
    pub fn with(mut self, settings: &str) -> Result<Limits, String> {
        for part in settings.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!("{part:?}: expected KEY=VALUE ({KEYS})"));
            };
            // The key first: a value is only judged against the key it is for.
            let slot = match key.trim() {
                "memory" => &mut self.memory,
                "processes" => &mut self.processes,
                "disk" => &mut self.disk,
                "files" => &mut self.files,
                "log" => &mut self.log,
                other => return Err(format!("{other:?}: no such limit ({KEYS})")),
            };
            let bytes = matches!(key.trim(), "memory" | "disk" | "log");
            *slot = parse_value(value.trim(), bytes).map_err(|e| format!("{key}: {e}"))?;
        }
        Ok(self)
    }

    /// `memory=1G,processes=64,…` (as `--bot-limit` reads it).
    pub fn describe(&self) -> String {
        let size = |v: Option<u64>| v.map(format_size).unwrap_or_else(|| "unlimited".into());
        let count = |v: Option<u64>| {
            v.map(|n| n.to_string())
                .unwrap_or_else(|| "unlimited".into())
        };
        format!(
            "memory={},processes={},disk={},files={},log={}",
            size(self.memory),
            count(self.processes),
            size(self.disk),
            count(self.files),
            size(self.log)
        )
    }
}

/// `512M`, `2G`, `65536`, `unlimited`; sizes in binary units (K = 1024).
fn parse_value(text: &str, bytes: bool) -> Result<Option<u64>, String> {
    if text == "unlimited" {
        return Ok(None);
    }
    let (digits, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, ""),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{text:?}: expected a number or unlimited"))?;
    let scale = match (bytes, unit) {
        (_, "") => 1,
        (true, "K" | "k" | "KiB") => 1 << 10,
        (true, "M" | "MiB") => 1 << 20,
        (true, "G" | "GiB") => 1 << 30,
        (true, "T" | "TiB") => 1 << 40,
        (true, _) => return Err(format!("{text:?}: a size is a number with K, M, G or T")),
        (false, _) => return Err(format!("{text:?}: expected a whole number")),
    };
    let value = n
        .checked_mul(scale)
        .ok_or_else(|| format!("{text:?}: too large"))?;
    if value == 0 {
        return Err(format!("{text:?}: must be above zero (or unlimited)"));
    }
    Ok(Some(value))
}

fn format_size(n: u64) -> String {
    for (unit, scale) in [
        ("T", 1u64 << 40),
        ("G", 1 << 30),
        ("M", 1 << 20),
        ("K", 1 << 10),
    ] {
        if n.is_multiple_of(scale) {
            return format!("{}{unit}", n / scale);
        }
    }
    n.to_string()
}

/// The limits of a match: for every bot, and per bot by name (`--bot-limit`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchLimits {
    pub all: Limits,
    pub by_bot: BTreeMap<String, Limits>,
}

impl MatchLimits {
    /// Reads the `--bot-limit` values in order: `KEY=VALUE,…` for every bot, `NAME:KEY=VALUE,…`
    /// for one (over what applies to every bot, whatever the order given).
    pub fn parse(texts: &[String], bot_names: &[String]) -> Result<MatchLimits, String> {
        let mut all = Limits::default();
        let mut named: Vec<(&str, &str)> = Vec::new();
        for text in texts {
            match text.split_once(':') {
                Some((name, settings)) if !name.contains('=') => {
                    if !bot_names.iter().any(|n| n == name) {
                        return Err(format!(
                            "--bot-limit {text}: no bot is called {name:?} (bots: {})",
                            bot_names.join(", ")
                        ));
                    }
                    named.push((name, settings));
                }
                _ => {
                    all = all
                        .with(text)
                        .map_err(|e| format!("--bot-limit {text}: {e}"))?
                }
            }
        }
        let mut by_bot = BTreeMap::new();
        for (name, settings) in named {
            let base = by_bot.get(name).copied().unwrap_or(all);
            let limits = base
                .with(settings)
                .map_err(|e| format!("--bot-limit {name}:{settings}: {e}"))?;
            by_bot.insert(name.to_string(), limits);
        }
        Ok(MatchLimits { all, by_bot })
    }

    pub fn of(&self, bot: &str) -> Limits {
        self.by_bot.get(bot).copied().unwrap_or(self.all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_apply_over_the_defaults_and_name_their_errors() {
        let l = Limits::default()
            .with("memory=2G, processes=128,disk=unlimited")
            .unwrap();
        assert_eq!(l.memory, Some(2 << 30));
        assert_eq!(l.processes, Some(128));
        assert_eq!(l.disk, None);
        assert_eq!(l.files, Limits::default().files);
        assert_eq!(
            Limits::default().describe(),
            "memory=1G,processes=64,disk=64M,files=256,log=16M"
        );
        // The key is named before its value is judged.
        let e = Limits::default().with("cpu=9X").unwrap_err();
        assert!(e.starts_with("\"cpu\": no such limit"), "{e}");
        for (bad, why) in [
            ("memory=12Q", "a size is a number with K, M, G or T"),
            ("processes=2G", "expected a whole number"),
            ("memory=0", "must be above zero"),
            ("memory", "expected KEY=VALUE"),
            ("log=99999999999999T", "too large"),
        ] {
            let e = Limits::default().with(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn a_named_bot_gets_its_own_limits_over_the_match_ones() {
        let names = ["fsf".to_string(), "rnd".to_string()];
        let m =
            MatchLimits::parse(&["fsf:memory=3G".into(), "processes=8".into()], &names).unwrap();
        assert_eq!(m.of("fsf").memory, Some(3 << 30));
        assert_eq!(m.of("fsf").processes, Some(8));
        assert_eq!(m.of("rnd").memory, Some(1 << 30));
        assert_eq!(m.of("rnd").processes, Some(8));
        let e = MatchLimits::parse(&["nobody:memory=1G".into()], &names).unwrap_err();
        assert!(e.contains("no bot is called \"nobody\""), "{e}");
    }
}
