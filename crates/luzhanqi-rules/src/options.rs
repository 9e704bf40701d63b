//! Rule options (rules reference §7). Every option is spelled out in a game's manifest.

use super::board::Seat;
use serde::{Deserialize, Serialize};

/// All rule options of a Luzhanqi game. `Default` gives the majority rule of every option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// What happens to an officer that attacks a landmine.
    pub mines: MineRule,
    /// Only engineers clear mines: a bomb meeting a mine is removed alone.
    pub only_engineers_clear_mines: bool,
    /// Pieces in a headquarters never move again.
    pub headquarters_immobile: bool,
    /// What a bomb attacking the flag does.
    pub bomb_vs_flag: BombVsFlag,
    /// Bombs move like engineers (turns on the railway).
    pub flying_bombs: bool,
    /// How non-engineers move on the railway.
    pub rail_movement: RailMovement,
    /// How the game is won.
    pub win: WinCondition,
    /// A marshal's death reveals its owner's flag square.
    pub reveal_flag_on_marshal_death: bool,
    /// What combat reveals, and to whom.
    pub visibility: Visibility,
    /// The result for a side to move without a legal move.
    pub no_legal_move: NoLegalMove,
    /// Plies without combat after which the game is drawn (0 = off).
    pub max_plies_without_combat: u32,
    /// Total plies after which the game is drawn (0 = off).
    pub max_plies: u32,
    /// The attack-wait limit of the Chinese computer-game competitions (CCGC, 进攻等待限制, 10 to
    /// 31 there; 0 = off, and left out of the manifest): the side that must attack (the one
    /// that did not make the last combat; before the first combat, the first mover) loses once
    /// this many plies pass without a combat. Two-player board only.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub attack_wait: u32,
    /// Who moves first.
    pub first_mover: FirstMover,
    /// The order of play round the four-player board (left out of two-player manifests).
    #[serde(default, skip_serializing_if = "TurnOrder::is_default")]
    pub turn_order: TurnOrder,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mines: MineRule::Survive,
            only_engineers_clear_mines: false,
            headquarters_immobile: true,
            bomb_vs_flag: BombVsFlag::FlagLost,
            flying_bombs: false,
            rail_movement: RailMovement::Straight,
            win: WinCondition::CaptureFlag,
            reveal_flag_on_marshal_death: true,
            visibility: Visibility::Hidden,
            no_legal_move: NoLegalMove::Lose,
            max_plies_without_combat: 0,
            max_plies: 0,
            attack_wait: 0,
            first_mover: FirstMover::South,
            turn_order: TurnOrder::CounterClockwise,
        }
    }
}

/// Officer attacking a landmine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MineRule {
    /// The attacker is removed, the mine stays.
    Survive,
    /// Both are removed ("explosive mines").
    Explode,
}

/// A bomb attacking the flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BombVsFlag {
    /// Both are removed and the flag's side loses.
    FlagLost,
    /// The bomb cannot take the flag: only the bomb is removed.
    BombOnly,
}

/// Railway movement of pieces other than engineers (and flying bombs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RailMovement {
    /// Along one straight line, any distance.
    Straight,
    /// Turns allowed, at most three railway steps (a regional rule).
    Turns3,
}

/// How a game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WinCondition {
    /// Taking the enemy flag wins at once.
    CaptureFlag,
    /// The piece that takes the flag must carry it to one of its own headquarters.
    CarryFlag,
}

/// What players learn from combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Only the outcome of each combat is announced.
    Hidden,
    /// Both ranks are shown to the two combatants (not to spectators).
    Combatants,
    /// 明友: allies see each other's pieces (the four-player board); combats as `hidden`.
    Allies,
    /// 明棋: every piece is visible to everyone.
    Open,
}

/// The order of play round the four-player board.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum TurnOrder {
    /// South, East, North, West.
    #[default]
    CounterClockwise,
    /// South, West, North, East.
    Clockwise,
}

impl TurnOrder {
    fn is_default(&self) -> bool {
        *self == TurnOrder::default()
    }

    /// The seat whose turn follows `seat`'s: the next one not `out`, in this order. Seat indices
    /// run counter-clockwise on every board.
    pub fn next(self, seat: Seat, out: &[bool]) -> Seat {
        let n = out.len();
        let step = match self {
            TurnOrder::CounterClockwise => 1,
            TurnOrder::Clockwise => n - 1,
        };
        let mut next = seat.index();
        for _ in 0..n {
            next = (next + step) % n;
            if !out[next] {
                break;
            }
        }
        Seat(next as u8)
    }
}

/// The side to move has no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum NoLegalMove {
    Lose,
    Draw,
}

/// Who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FirstMover {
    South,
    North,
    /// Drawn by lot from nonces every player committed to.
    Lot,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl FirstMover {
    /// The seat named by the option; none when it is drawn by lot.
    pub fn seat_name(self) -> Option<&'static str> {
        match self {
            FirstMover::South => Some("south"),
            FirstMover::North => Some("north"),
            FirstMover::Lot => None,
        }
    }
}

impl Options {
    /// Sets one option from `key=value` text, as given on the command line (`--rule mines=explode`).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        // Go through the serialised form so keys and values are exactly those of the manifest.
        let mut table = toml::Table::try_from(&*self).map_err(|e| e.to_string())?;
        // Options left out of the manifest at their default are still settable.
        table
            .entry("turn-order")
            .or_insert_with(|| toml::Value::String("counter-clockwise".into()));
        table
            .entry("attack-wait")
            .or_insert_with(|| toml::Value::Integer(0));
        let old = table
            .get(key)
            .ok_or_else(|| format!("unknown rule option {key:?} (known: {})", Self::keys()))?;
        let new = match old {
            toml::Value::Boolean(_) => value
                .parse::<bool>()
                .map(toml::Value::Boolean)
                .map_err(|_| format!("rule {key}: expected true or false, got {value:?}"))?,
            toml::Value::Integer(_) => value
                .parse::<u32>()
                .map(|v| toml::Value::Integer(v.into()))
                .map_err(|_| format!("rule {key}: expected a whole number, got {value:?}"))?,
            _ => toml::Value::String(value.to_string()),
        };
        table.insert(key.to_string(), new);
        *self = table
            .try_into()
            .map_err(|e: toml::de::Error| format!("rule {key}: {}", e.message()))?;
        Ok(())
    }

    /// Refuses options that do not apply to a board: on the four-player board (teams) the flag is
    /// captured, not carried, and a player without a legal move is out; `allies` visibility and a
    /// turn order need teams.
    pub fn check_for_board(&self, teams: bool) -> Result<(), String> {
        if teams {
            if self.win != WinCondition::CaptureFlag {
                return Err("win: the four-player game is played to capture the flag".into());
            }
            if self.no_legal_move != NoLegalMove::Lose {
                return Err(
                    "no-legal-move: on the four-player board a player without a legal move is out"
                        .into(),
                );
            }
            if self.attack_wait != 0 {
                return Err("attack-wait: a two-player rule (the side that must attack)".into());
            }
        } else {
            if self.visibility == Visibility::Allies {
                return Err("visibility: allies needs the four-player board".into());
            }
            if self.turn_order != TurnOrder::default() {
                return Err("turn-order: applies to the four-player board only".into());
            }
        }
        Ok(())
    }

    fn keys() -> String {
        let all = Options {
            turn_order: TurnOrder::Clockwise,
            attack_wait: 31,
            ..Options::default()
        };
        toml::Table::try_from(all)
            .map(|t| t.keys().cloned().collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_set_by_name() {
        let mut o = Options::default();
        o.set("mines", "explode").unwrap();
        o.set("flying-bombs", "true").unwrap();
        o.set("max-plies", "300").unwrap();
        o.set("turn-order", "clockwise").unwrap();
        o.set("attack-wait", "31").unwrap();
        assert_eq!(o.attack_wait, 31);
        assert_eq!(o.turn_order, TurnOrder::Clockwise);
        assert_eq!(o.mines, MineRule::Explode);
        assert!(o.flying_bombs);
        assert_eq!(o.max_plies, 300);
        assert!(o.set("mines", "sometimes").unwrap_err().contains("mines"));
        assert!(o
            .set("castling", "true")
            .unwrap_err()
            .contains("unknown rule option"));
        assert!(o.set("max-plies", "-3").is_err());
    }
}
