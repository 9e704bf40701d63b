//! The rule options of §6, every one spelled out in the manifest.

use serde::{Deserialize, Serialize};

/// How throws are made fair (§7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DiceMode {
    /// Each player gives its chain seed to the judge, who reveals the elements of each throw.
    Escrow,
    /// Each player reveals its own chain elements in its signed files.
    #[serde(rename = "self")]
    SelfReveal,
}

/// All rule options of a Liubo game. `Default` gives the reference defaults.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// A stone ending on enemy stones takes them prisoner.
    pub stones_capture_stones: bool,
    /// A throw of 1-1 or 4-4 gives the same player another throw (a new turn).
    pub extra_throw_on_doubles: bool,
    /// A stone passing or leaving X may turn onto the other line.
    pub turn_at_x_for_stones: bool,
    /// Reaching station 1 frees a prisoner, not only passing it.
    pub release_on_reach: bool,
    /// Draw after this many turns without a result; 0 = no limit.
    pub ply_limit: u32,
    pub dice_mode: DiceMode,
    /// Elements in each player's hash chain (throws before fresh chains are needed).
    pub chain_length: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            stones_capture_stones: false,
            extra_throw_on_doubles: false,
            turn_at_x_for_stones: false,
            release_on_reach: true,
            ply_limit: 0,
            dice_mode: DiceMode::Escrow,
            chain_length: 65_536,
        }
    }
}

impl Options {
    /// Sets an option from `key=value` text (`--rule`).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let flag = || match value {
            "on" | "true" => Ok(true),
            "off" | "false" => Ok(false),
            _ => Err(format!("{key}: expected on or off")),
        };
        let number = || {
            value
                .parse::<u32>()
                .map_err(|_| format!("{key}: expected a whole number"))
        };
        match key.replace('-', "_").as_str() {
            "stones_capture_stones" => self.stones_capture_stones = flag()?,
            "extra_throw_on_doubles" => self.extra_throw_on_doubles = flag()?,
            "turn_at_x_for_stones" => self.turn_at_x_for_stones = flag()?,
            "release_on_reach" => self.release_on_reach = flag()?,
            "ply_limit" => self.ply_limit = number()?,
            "chain_length" => {
                let n = number()?;
                if !(4..=1 << 20).contains(&n) {
                    return Err("chain_length: 4 to 1048576".into());
                }
                self.chain_length = n;
            }
            "dice_mode" => {
                self.dice_mode = match value {
                    "escrow" => DiceMode::Escrow,
                    "self" => DiceMode::SelfReveal,
                    _ => return Err("dice_mode: escrow or self".into()),
                }
            }
            _ => {
                return Err(format!(
                    "unknown option {key:?}; Liubo options: stones_capture_stones, \
                     extra_throw_on_doubles, turn_at_x_for_stones, release_on_reach, ply_limit, \
                     dice_mode, chain_length"
                ))
            }
        }
        Ok(())
    }
}
