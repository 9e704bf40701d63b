//! Tampering with the shipped sample game is detected by the audit.

use super::helpers::*;
use qijudge::games::luzhanqi::referee::audit;
use qijudge::games::luzhanqi::rules::random::SplitMix64;
use qijudge::store::GameDir;
use std::path::Path;

/// Files whose bytes are covered by a signature, a commitment or the record.
fn signed_files(dir: &Path) -> Vec<String> {
    snapshot(dir)
        .into_keys()
        .filter(|f| {
            !f.starts_with("keys/")
                && !f.starts_with("setups/")
                && (f.ends_with(".toml")
                    || f.ends_with(".sig")
                    || f.ends_with(".jsonl")
                    || f.ends_with(".json")
                    || f.ends_with(".txt"))
        })
        .collect()
}

#[test]
fn flipping_any_byte_of_a_signed_file_is_detected() {
    let (_t, dir) = sample_copy();
    let g = GameDir::new(&dir);
    audit(&g).expect("the sample verifies");
    let files = signed_files(&dir);
    assert!(files.len() > 170, "{}", files.len());
    let mut rng = SplitMix64::new(99);
    let mut trials = 0;
    for f in &files {
        let path = dir.join(f);
        let original = std::fs::read(&path).unwrap();
        // Every byte of the manifest, a commitment, one move and its signature; a sample of the rest.
        let every = [
            "game.toml",
            "commitments/north.toml",
            "moves/0042-north.toml",
            "moves/0042-north.toml.sig",
        ]
        .contains(&f.as_str());
        let positions: Vec<usize> = if every {
            (0..original.len()).collect()
        } else {
            let mut p = vec![0, original.len() - 1];
            p.extend((0..3).map(|_| rng.below(original.len())));
            p
        };
        for pos in positions {
            let mut bytes = original.clone();
            bytes[pos] ^= 1 << rng.below(8);
            std::fs::write(&path, &bytes).unwrap();
            assert!(
                audit(&g).is_err(),
                "flipping byte {pos} of {f} went unnoticed"
            );
            trials += 1;
        }
        std::fs::write(&path, &original).unwrap();
    }
    audit(&g).expect("restored");
    assert!(trials > 2000, "{trials}");
}

#[test]
fn swapped_moves_edited_manifest_and_rolled_back_record_are_detected() {
    let (_t, dir) = sample_copy();
    let g = GameDir::new(&dir);
    let swap = |a: &str, b: &str| {
        for ext in ["", ".sig"] {
            let (pa, pb) = (dir.join(format!("{a}{ext}")), dir.join(format!("{b}{ext}")));
            let (x, y) = (std::fs::read(&pa).unwrap(), std::fs::read(&pb).unwrap());
            std::fs::write(&pa, y).unwrap();
            std::fs::write(&pb, x).unwrap();
        }
    };
    swap("moves/0003-south.toml", "moves/0005-south.toml");
    let e = audit(&g).err().expect("swapped moves").to_string();
    assert!(e.contains("moves/0003-south.toml"), "{e}");
    swap("moves/0003-south.toml", "moves/0005-south.toml");
    audit(&g).unwrap();

    let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
    std::fs::write(
        dir.join("game.toml"),
        manifest.replace("visibility = \"hidden\"", "visibility = \"open\""),
    )
    .unwrap();
    assert!(audit(&g).is_err(), "edited manifest");
    std::fs::write(dir.join("game.toml"), &manifest).unwrap();

    let record = std::fs::read_to_string(dir.join("record.jsonl")).unwrap();
    let shorter: String = record.lines().take(50).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("record.jsonl"), shorter).unwrap();
    assert!(audit(&g).is_err(), "rolled-back record");
}

/// The recorded moves' signatures are confirmed in batches of 512: a signature swapped far past
/// the first batch is still refused by its file's name when the judge replays the record.
#[test]
fn a_swapped_signature_past_the_first_batch_is_refused_by_name() {
    use qijudge::games::luzhanqi::referee::load_game;
    use qijudge::games::luzhanqi::synth::{long_game, NOW};
    use qijudge::judge::pipeline::Mode;
    let tmp = tempfile::tempdir().unwrap();
    let g = GameDir::new(tmp.path());
    let judge_key = long_game(&g, 600, 5).expect("a 600-ply game");
    let game = load_game(&g).unwrap();
    let replay = qijudge::games::luzhanqi::referee::replay(&g, &game, Mode::Judge, NOW).unwrap();
    assert!(replay.refusal.is_none());
    for (name, body) in qijudge::games::luzhanqi::referee::outputs(&game, &replay, &judge_key) {
        g.write(&name, body.as_bytes()).unwrap();
    }
    let again = qijudge::games::luzhanqi::referee::replay(&g, &game, Mode::Judge, NOW)
        .expect("the record replays");
    assert_eq!(again.record, replay.record);
    let name = |ply: u32| {
        let prefix = format!("{ply:04}-");
        std::fs::read_dir(tmp.path().join("moves"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .find(|n| n.starts_with(&prefix) && n.ends_with(".toml"))
            .unwrap()
    };
    let (victim, donor) = (name(577), name(579));
    let moves = tmp.path().join("moves");
    std::fs::copy(
        moves.join(format!("{donor}.sig")),
        moves.join(format!("{victim}.sig")),
    )
    .unwrap();
    let needle = format!("moves/{victim}.sig");
    let e = qijudge::games::luzhanqi::referee::replay(&g, &game, Mode::Judge, NOW)
        .err()
        .expect("the judge refuses it")
        .to_string();
    assert!(
        e.contains(&needle) && e.contains("signature does not match"),
        "{e}"
    );
}

/// A `game.toml` edited after the start (a name, a deadline, a rule) is named as the cause by
/// every command that reads the game, in every game, instead of a record that "does not chain";
/// and the published views are not shown as if nothing had changed.
#[test]
fn an_edited_manifest_is_named_as_the_cause() {
    let registry_games: Vec<&str> = qijudge::games::registry::names().to_vec();
    for game in registry_games {
        for sample in samples_of(game) {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("g");
            copy_dir(&root_path().join(&sample), &dir);
            let manifest = dir.join("game.toml");
            let text = std::fs::read_to_string(&manifest).unwrap();
            // A player's name changed, in canonical form: only the hash tells.
            let edited = text.replacen("name = \"", "name = \"x", 1);
            assert_ne!(edited, text, "{sample}: a name to edit");
            std::fs::write(&manifest, edited).unwrap();
            let d = dir.to_string_lossy().into_owned();
            let key = root_path().join(&sample).join("keys/judge");
            let key = key.to_string_lossy().into_owned();
            for args in [
                vec!["status", d.as_str()],
                vec!["verify", d.as_str()],
                vec!["view", d.as_str(), "--as", "public"],
                vec!["judge", d.as_str(), "--key", key.as_str()],
            ] {
                let r = qj(&args);
                assert_ne!(r.code, 0, "{sample} {args:?}: {r:?}");
                assert!(
                    r.stderr
                        .contains("game.toml: changed since the game started")
                        && r.stderr.contains("restore the game.toml"),
                    "{sample} {args:?}: {}",
                    r.stderr
                );
                assert!(!r.stderr.contains("does not chain"), "{sample} {args:?}");
            }
        }
    }
}

fn root_path() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
