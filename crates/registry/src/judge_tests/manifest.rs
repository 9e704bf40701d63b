//! The judge's manifest checks, on every registered game.

use qijudge_judge::manifest::*;
use qijudge_protocol::error::Result;
use qijudge_protocol::files::*;
use ssh_key::PublicKey;

mod sample_key_tests {
    use super::*;

    /// Every key of every shipped sample is refused in a game that is not a sample.
    #[test]
    fn every_game_s_sample_keys_are_refused_outside_the_samples() {
        let mut seen = 0;
        for game in crate::registry::GAMES {
            for line in game.sample_keys() {
                let key = PublicKey::from_openssh(line.trim()).expect("a sample key parses");
                assert!(is_sample_key(&key), "{}: {line}", game.name());
                seen += 1;
            }
            assert!(!game.sample_keys().is_empty(), "{}", game.name());
        }
        assert!(seen >= 12, "{seen}");
        let fresh = ssh_key::private::Ed25519Keypair::from_seed(&[7; 32]);
        assert!(!is_sample_key(&PublicKey::from(fresh.public)));
    }
}

mod seated_tests {
    use super::*;
    use jieqi_rules::{Captured, Options as JieqiOptions};
    use qijudge_jieqi::Jieqi;
    use qijudge_store::GameDir;
    use qijudge_xiangqi::manifest::XiangqiRules;
    use qijudge_xiangqi::Xiangqi;

    fn load_written<R: ManifestRules>(manifest: &GameManifest<R::Options>) -> Result<Seated<R>> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("game.toml"), to_toml(manifest)).unwrap();
        Seated::load(&GameDir::new(dir.path()))
    }

    /// A manifest made by `new_manifest` loads back with the same hash; `sealed` is refused
    /// where the game has nothing to seal, naming the field, and kept where it has.
    #[test]
    fn sealed_is_refused_where_there_is_nothing_to_seal() {
        let xiangqi = Seated::<Xiangqi>::with_new_keys(XiangqiRules {
            start: xiangqi_rules::fen::START.into(),
            move_limit: false,
        });
        let loaded = load_written::<Xiangqi>(&xiangqi.manifest).unwrap();
        assert_eq!(loaded.hash, xiangqi.hash);
        let mut sealed = xiangqi.manifest.clone();
        sealed.sealed = true;
        let refused = load_written::<Xiangqi>(&sealed)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            refused.contains("sealed") && refused.contains("xiangqi has no secrets to seal"),
            "{refused}"
        );

        let jieqi = Seated::<Jieqi>::with_new_keys(JieqiOptions {
            captured: Captured::Both,
            ..JieqiOptions::default()
        });
        let mut sealed = jieqi.manifest.clone();
        sealed.sealed = true;
        assert!(load_written::<Jieqi>(&sealed).unwrap().manifest.sealed);
    }

    /// A game's own checks of its options run on load and name their field: Xiangqi's start
    /// position must leave the side to move a legal move, Nim's pile must hold 2 to 99 stones.
    #[test]
    fn a_game_s_own_checks_refuse_naming_the_field() {
        let mut xiangqi = Seated::<Xiangqi>::with_new_keys(XiangqiRules {
            start: xiangqi_rules::fen::START.into(),
            move_limit: false,
        })
        .manifest;
        xiangqi.rules.start = "4k4/4r4/9/9/9/9/9/9/r8/3K5 w - - 0 1".into();
        let refused = load_written::<Xiangqi>(&xiangqi)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            refused.contains("rules.start") && refused.contains("no legal move"),
            "{refused}"
        );

        use crate::nim::referee::NimOptions;
        let mut nim = Seated::<crate::nim::Nim>::with_new_keys(NimOptions { stones: 21 }).manifest;
        assert!(load_written::<crate::nim::Nim>(&nim).is_ok());
        nim.rules.stones = 1;
        let refused = load_written::<crate::nim::Nim>(&nim)
            .err()
            .expect("refused")
            .to_string();
        assert!(refused.contains("rules.stones"), "{refused}");
    }
}
