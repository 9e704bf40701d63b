//! What a move did, as everyone may see it: it moved, or a combat had this result. Part of
//! the record's move lines in every game with combats (Luzhanqi, Banqi).

/// The public result of a move.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The destination was empty.
    Moved,
    /// The attacker removed the defender and moved in.
    AttackerWon,
    /// The attacker was removed.
    DefenderWon,
    /// Both pieces were removed.
    BothRemoved,
}

impl Outcome {
    /// Every outcome.
    pub const ALL: [Outcome; 4] = [
        Outcome::Moved,
        Outcome::AttackerWon,
        Outcome::DefenderWon,
        Outcome::BothRemoved,
    ];

    /// Its name in the record and in conditional lines (`defender_won`), as serde writes it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Moved => "moved",
            Outcome::AttackerWon => "attacker_won",
            Outcome::DefenderWon => "defender_won",
            Outcome::BothRemoved => "both_removed",
        }
    }

    /// The outcome named `name`, if any.
    pub fn named(name: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Outcome;

    #[test]
    fn names_are_serdes_and_read_back() {
        for o in Outcome::ALL {
            assert_eq!(
                serde_json::to_string(&o).unwrap(),
                format!("\"{}\"", o.name())
            );
            assert_eq!(Outcome::named(o.name()), Some(o));
        }
        assert_eq!(Outcome::named("lost"), None);
    }
}
