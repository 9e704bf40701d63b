//! What a match sets for one engine: search limits, options and square names.

/// What a match sets for one engine (`--engine NAME:KEY=VALUE`): search limits for every
/// `go` (as fastchess's `nodes=`, `depth=`, `st=`), UCI options, and the square dialect where
/// detection is not wanted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSettings {
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
    /// Ranks counted from 1 (`true`) or 0 (`false`); detected from `UCI_Variant` when unset.
    pub ranks_from_one: Option<bool>,
    /// The engine's FEN letters for chariot, horse, elephant, advisor, king, cannon, pawn
    /// (`RHEAKCP` for Sjaak II); the standard `RNBAKCP` when unset.
    pub letters: Option<[char; 7]>,
    /// UCCI: forbid the moves that would lose by perpetual check or chase (`banmoves`).
    pub banmoves: bool,
    /// `setoption name NAME value VALUE`, in the order given.
    pub options: Vec<(String, String)>,
    /// How far past its clock the engine may answer without losing, in milliseconds
    /// (fastchess's `timemargin`): the clock then stands at zero, plus the increment.
    pub timemargin_ms: Option<u64>,
    /// A new process for every game (fastchess's `restart=on`), instead of one kept from game
    /// to game.
    pub restart: bool,
    /// Jieqi: how many fields the engine's FEN has (6, or 5 as the Pikafish Jieqi branch
    /// reads it, without the half-move clock).
    pub fen_fields: Option<u8>,
}

impl EngineSettings {
    /// Reads one `KEY=VALUE`: `nodes`, `depth`, `movetime` (ms), `ranks` (`0` or `1`),
    /// `letters` (seven FEN letters), `banmoves` (`on` or `off`), or `option.NAME`.
    pub fn set(&mut self, item: &str) -> Result<(), String> {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("{item:?}: expected KEY=VALUE"))?;
        let number = |what: &str| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{key}={value}: {what} must be a whole number above 0"))
        };
        match key {
            "nodes" => self.nodes = Some(number("nodes")?),
            "depth" => {
                self.depth = Some(
                    u32::try_from(number("depth")?)
                        .ok()
                        .filter(|d| *d <= 255)
                        .ok_or("depth: at most 255")?,
                )
            }
            "movetime" => self.movetime_ms = Some(number("movetime (milliseconds)")?),
            "ranks" => {
                self.ranks_from_one = Some(match value {
                    "0" => false,
                    "1" => true,
                    _ => {
                        return Err(format!(
                            "ranks={value}: 0 (Pikafish, ICCS) or 1 (Fairy-Stockfish)"
                        ))
                    }
                })
            }
            "letters" => {
                let letters: Vec<char> = value.chars().collect();
                let distinct = letters
                    .iter()
                    .all(|c| letters.iter().filter(|d| *d == c).count() == 1);
                match <[char; 7]>::try_from(letters) {
                    Ok(l) if distinct && l.iter().all(char::is_ascii_uppercase) => {
                        self.letters = Some(l)
                    }
                    _ => {
                        return Err(format!(
                            "letters={value}: seven distinct capital letters for chariot, horse, \
                             elephant, advisor, king, cannon and pawn (RNBAKCP; Sjaak II: RHEAKCP)"
                        ))
                    }
                }
            }
            "banmoves" => {
                self.banmoves = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("banmoves={value}: on or off")),
                }
            }
            "timemargin" => {
                self.timemargin_ms = Some(value.parse().map_err(|_| {
                    format!("timemargin={value}: milliseconds, a whole number (0 or more)")
                })?)
            }
            "restart" => {
                self.restart = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("restart={value}: on or off")),
                }
            }
            "fen-fields" => {
                self.fen_fields = Some(match value {
                    "5" => 5,
                    "6" => 6,
                    _ => return Err(format!("fen-fields={value}: 5 or 6")),
                })
            }
            _ => {
                let Some(name) = key.strip_prefix("option.").filter(|n| !n.is_empty()) else {
                    return Err(format!(
                        "{key:?}: an engine setting is nodes=N, depth=N, movetime=MS, ranks=0|1, \
                         letters=RNBAKCP, banmoves=on|off, timemargin=MS, restart=on|off, \
                         fen-fields=5|6 or option.NAME=VALUE"
                    ));
                };
                // One line to the engine each: no line breaks, and nothing the protocol reads
                // as its own word.
                let clean = |t: &str| !t.chars().any(char::is_control);
                if !clean(name) || !clean(value) || name.contains(" value ") {
                    return Err(format!("{key}: names and values are one line of text"));
                }
                self.options.push((name.to_string(), value.to_string()));
            }
        }
        Ok(())
    }

    /// The settings as given, for the match's state and report.
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(n) = self.nodes {
            out.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            out.push(format!("depth={d}"));
        }
        if let Some(t) = self.movetime_ms {
            out.push(format!("movetime={t}"));
        }
        if let Some(r) = self.ranks_from_one {
            out.push(format!("ranks={}", u8::from(r)));
        }
        if let Some(l) = self.letters {
            out.push(format!("letters={}", l.iter().collect::<String>()));
        }
        if self.banmoves {
            out.push("banmoves=on".into());
        }
        if let Some(t) = self.timemargin_ms {
            out.push(format!("timemargin={t}"));
        }
        if self.restart {
            out.push("restart=on".into());
        }
        if let Some(f) = self.fen_fields {
            out.push(format!("fen-fields={f}"));
        }
        for (k, v) in &self.options {
            out.push(format!("option.{k}={v}"));
        }
        out
    }

    /// The search limits of a `go` line (`nodes 2000 depth 6`), if any is set.
    pub fn limits(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime_ms {
            parts.push(format!("movetime {t}"));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_settings_read_limits_options_and_the_dialect() {
        let mut s = EngineSettings::default();
        for item in [
            "nodes=2000",
            "depth=6",
            "option.Hash=64",
            "option.Threads=1",
            "ranks=0",
            "timemargin=250",
            "restart=on",
        ] {
            s.set(item).unwrap();
        }
        assert_eq!((s.timemargin_ms, s.restart), (Some(250), true));
        assert_eq!(s.limits().as_deref(), Some("nodes 2000 depth 6"));
        assert_eq!(
            s.describe(),
            [
                "nodes=2000",
                "depth=6",
                "ranks=0",
                "timemargin=250",
                "restart=on",
                "option.Hash=64",
                "option.Threads=1"
            ]
        );
        for bad in [
            "nodes=0",
            "depth=x",
            "ranks=2",
            "colour=red",
            "option.=1",
            "option.A=b\nquit",
            "timemargin=-1",
            "restart=yes",
            "fen-fields=4",
        ] {
            assert!(EngineSettings::default().set(bad).is_err(), "{bad}");
        }
    }
}
