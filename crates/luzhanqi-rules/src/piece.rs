//! Pieces, their ranks and every name people write them with.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A Luzhanqi piece. Officers are ordered by rank.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    Marshal,
    General,
    MajorGeneral,
    Brigadier,
    Colonel,
    Major,
    Captain,
    Lieutenant,
    Engineer,
    Bomb,
    Landmine,
    Flag,
}

impl Piece {
    /// Every piece, strongest officer first.
    pub const ALL: [Piece; 12] = [
        Piece::Marshal,
        Piece::General,
        Piece::MajorGeneral,
        Piece::Brigadier,
        Piece::Colonel,
        Piece::Major,
        Piece::Captain,
        Piece::Lieutenant,
        Piece::Engineer,
        Piece::Bomb,
        Piece::Landmine,
        Piece::Flag,
    ];

    /// How many of this piece a side has.
    pub fn count(self) -> usize {
        match self {
            Piece::Marshal | Piece::General | Piece::Flag => 1,
            Piece::MajorGeneral
            | Piece::Brigadier
            | Piece::Colonel
            | Piece::Major
            | Piece::Bomb => 2,
            Piece::Captain | Piece::Lieutenant | Piece::Engineer | Piece::Landmine => 3,
        }
    }

    /// Combat rank of officers and engineers (marshal 9 … engineer 1); none for the others.
    pub fn rank(self) -> Option<u8> {
        match self {
            Piece::Marshal => Some(9),
            Piece::General => Some(8),
            Piece::MajorGeneral => Some(7),
            Piece::Brigadier => Some(6),
            Piece::Colonel => Some(5),
            Piece::Major => Some(4),
            Piece::Captain => Some(3),
            Piece::Lieutenant => Some(2),
            Piece::Engineer => Some(1),
            Piece::Bomb | Piece::Landmine | Piece::Flag => None,
        }
    }

    /// Flag and landmines never move.
    pub fn is_mobile(self) -> bool {
        !matches!(self, Piece::Landmine | Piece::Flag)
    }

    /// The short code used in setups and canonical bytes.
    pub fn code(self) -> &'static str {
        self.names().0
    }

    /// The English name, as serialised.
    pub fn english(self) -> &'static str {
        self.names().1
    }

    /// The simplified Chinese name.
    pub fn chinese(self) -> &'static str {
        self.names().2
    }

    fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Piece::Marshal => ("FM", "marshal", "司令"),
            Piece::General => ("GN", "general", "军长"),
            Piece::MajorGeneral => ("MG", "major_general", "师长"),
            Piece::Brigadier => ("BG", "brigadier", "旅长"),
            Piece::Colonel => ("CO", "colonel", "团长"),
            Piece::Major => ("MJ", "major", "营长"),
            Piece::Captain => ("CP", "captain", "连长"),
            Piece::Lieutenant => ("LT", "lieutenant", "排长"),
            Piece::Engineer => ("EN", "engineer", "工兵"),
            Piece::Bomb => ("BM", "bomb", "炸弹"),
            Piece::Landmine => ("LM", "landmine", "地雷"),
            Piece::Flag => ("FL", "flag", "军旗"),
        }
    }

    /// How pieces may be named, for a message: every code, then every English name.
    pub fn naming() -> String {
        let codes: Vec<&str> = Piece::ALL.iter().map(|p| p.names().0).collect();
        let english: Vec<&str> = Piece::ALL.iter().map(|p| p.names().1).collect();
        format!(
            "a code ({}), an English name ({}) or a Chinese one (司令, 军长, …)",
            codes.join(" "),
            english.join(", ")
        )
    }

    /// Reads a piece name: code (`FM`), English (`marshal`, `field marshal`, `major-general`),
    /// simplified or traditional Chinese (`司令`, `軍旗`), any letter case.
    pub fn from_name(name: &str) -> Option<Piece> {
        let folded: String = name
            .trim()
            .to_lowercase()
            .chars()
            .map(|c| if c == '-' || c == ' ' { '_' } else { c })
            .collect();
        let aliases: &[(&str, Piece)] = &[
            ("field_marshal", Piece::Marshal),
            ("mine", Piece::Landmine),
            ("land_mine", Piece::Landmine),
            ("sapper", Piece::Engineer),
            ("軍長", Piece::General),
            ("師長", Piece::MajorGeneral),
            ("團長", Piece::Colonel),
            ("營長", Piece::Major),
            ("連長", Piece::Captain),
            ("炸彈", Piece::Bomb),
            ("軍旗", Piece::Flag),
        ];
        Piece::ALL
            .into_iter()
            .find(|p| {
                let (code, english, chinese) = p.names();
                folded == code.to_lowercase() || folded == english || folded == chinese
            })
            .or_else(|| aliases.iter().find(|(a, _)| *a == folded).map(|(_, p)| *p))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.english())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_five_pieces_per_side() {
        assert_eq!(Piece::ALL.iter().map(|p| p.count()).sum::<usize>(), 25);
    }

    #[test]
    fn every_name_reads_back() {
        for p in Piece::ALL {
            assert_eq!(Piece::from_name(p.code()), Some(p));
            assert_eq!(Piece::from_name(p.english()), Some(p));
            assert_eq!(Piece::from_name(p.chinese()), Some(p));
        }
        assert_eq!(Piece::from_name("Field Marshal"), Some(Piece::Marshal));
        assert_eq!(Piece::from_name("major-general"), Some(Piece::MajorGeneral));
        assert_eq!(Piece::from_name("軍旗"), Some(Piece::Flag));
        assert_eq!(Piece::from_name("mine"), Some(Piece::Landmine));
        assert_eq!(Piece::from_name("queen"), None);
    }
}
