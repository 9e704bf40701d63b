//! The combat table (rules reference §5) with its options.

use super::event::Outcome;
use super::options::{BombVsFlag, MineRule, Options, WinCondition};
use super::piece::Piece;

/// The outcome of `attacker` moving onto `defender`.
pub fn resolve(attacker: Piece, defender: Piece, options: &Options) -> Outcome {
    use Outcome::*;
    match (attacker, defender) {
        (Piece::Bomb, Piece::Landmine) if options.only_engineers_clear_mines => DefenderWon,
        (Piece::Bomb, Piece::Flag)
            if options.bomb_vs_flag == BombVsFlag::BombOnly
                || options.win == WinCondition::CarryFlag =>
        {
            DefenderWon
        }
        (Piece::Bomb, _) | (_, Piece::Bomb) => BothRemoved,
        (_, Piece::Flag) => AttackerWon,
        (Piece::Engineer, Piece::Landmine) => AttackerWon,
        (_, Piece::Landmine) => match options.mines {
            MineRule::Survive => DefenderWon,
            MineRule::Explode => BothRemoved,
        },
        // Both are officers or engineers here; landmines and flags never attack.
        (a, d) => match (a.rank(), d.rank()) {
            (Some(a), Some(d)) if a > d => AttackerWon,
            (Some(a), Some(d)) if a == d => BothRemoved,
            _ => DefenderWon,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;

    const OFFICERS: [Piece; 8] = [
        Piece::Marshal,
        Piece::General,
        Piece::MajorGeneral,
        Piece::Brigadier,
        Piece::Colonel,
        Piece::Major,
        Piece::Captain,
        Piece::Lieutenant,
    ];

    #[test]
    fn every_cell_of_the_default_table() {
        let o = Options::default();
        for a in OFFICERS {
            for d in OFFICERS {
                let expected = match a.rank().cmp(&d.rank()) {
                    std::cmp::Ordering::Greater => AttackerWon,
                    std::cmp::Ordering::Equal => BothRemoved,
                    std::cmp::Ordering::Less => DefenderWon,
                };
                assert_eq!(resolve(a, d, &o), expected, "{a} × {d}");
            }
            assert_eq!(
                resolve(a, Piece::Engineer, &o),
                AttackerWon,
                "{a} × engineer"
            );
            assert_eq!(resolve(a, Piece::Bomb, &o), BothRemoved, "{a} × bomb");
            assert_eq!(resolve(a, Piece::Landmine, &o), DefenderWon, "{a} × mine");
            assert_eq!(resolve(a, Piece::Flag, &o), AttackerWon, "{a} × flag");
            assert_eq!(
                resolve(Piece::Engineer, a, &o),
                DefenderWon,
                "engineer × {a}"
            );
            assert_eq!(resolve(Piece::Bomb, a, &o), BothRemoved, "bomb × {a}");
        }
        let e = Piece::Engineer;
        assert_eq!(resolve(e, e, &o), BothRemoved);
        assert_eq!(resolve(e, Piece::Bomb, &o), BothRemoved);
        assert_eq!(resolve(e, Piece::Landmine, &o), AttackerWon);
        assert_eq!(resolve(e, Piece::Flag, &o), AttackerWon);
        for d in [Piece::Engineer, Piece::Bomb, Piece::Landmine, Piece::Flag] {
            assert_eq!(resolve(Piece::Bomb, d, &o), BothRemoved, "bomb × {d}");
        }
    }

    #[test]
    fn options_change_their_cells() {
        let explosive = Options {
            mines: MineRule::Explode,
            ..Options::default()
        };
        assert_eq!(
            resolve(Piece::Marshal, Piece::Landmine, &explosive),
            BothRemoved
        );
        assert_eq!(
            resolve(Piece::Engineer, Piece::Landmine, &explosive),
            AttackerWon
        );
        let engineers_only = Options {
            only_engineers_clear_mines: true,
            ..Options::default()
        };
        assert_eq!(
            resolve(Piece::Bomb, Piece::Landmine, &engineers_only),
            DefenderWon
        );
        let bomb_only = Options {
            bomb_vs_flag: BombVsFlag::BombOnly,
            ..Options::default()
        };
        assert_eq!(resolve(Piece::Bomb, Piece::Flag, &bomb_only), DefenderWon);
        let carry = Options {
            win: WinCondition::CarryFlag,
            ..Options::default()
        };
        assert_eq!(resolve(Piece::Bomb, Piece::Flag, &carry), DefenderWon);
        assert_eq!(resolve(Piece::Colonel, Piece::Flag, &carry), AttackerWon);
    }
}
