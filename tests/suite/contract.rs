//! What every registered game must do, run for each game the registry lists (a game added to
//! the registry is checked here with no line written for it): its shipped samples verify, a
//! second judge run changes no byte, and where the judge held secrets the audit of a finished
//! game needs them revealed.

use super::helpers::*;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped sample games of `game`: `games/GAME/sample*`.
fn samples(game: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root().join("games").join(game))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.join("game.toml").is_file()
                        && p.file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with("sample"))
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

fn copy(sample: &Path, tmp: &Path) -> String {
    let dir = tmp.join(sample.file_name().unwrap());
    copy_dir(sample, &dir);
    dir.to_string_lossy().into_owned()
}

#[test]
fn every_registered_game_ships_a_sample_that_verifies_and_rejudges_to_the_same_bytes() {
    for game in qijudge::games::registry::names() {
        let samples = samples(game);
        assert!(!samples.is_empty(), "{game}: no games/{game}/sample*");
        for sample in samples {
            let tmp = tempfile::tempdir().unwrap();
            let d = copy(&sample, tmp.path());
            ok(&["verify", &d]);
            let before = snapshot(Path::new(&d));
            let key = format!("{d}/keys/judge");
            ok(&["judge", &d, "--key", &key]);
            assert_eq!(
                snapshot(Path::new(&d)),
                before,
                "{game}: judging {} again changed files",
                sample.display()
            );
        }
    }
}

#[test]
fn a_finished_game_with_secrets_verifies_only_once_they_are_revealed() {
    for game in qijudge::games::registry::names() {
        let holds = qijudge::games::by_name(game).unwrap().has_secrets();
        for sample in samples(game) {
            let tmp = tempfile::tempdir().unwrap();
            let d = copy(&sample, tmp.path());
            let reveal = Path::new(&d).join("reveal");
            assert_eq!(
                reveal.is_dir(),
                holds,
                "{game}: a finished sample has reveal/ exactly when its rules hold secrets"
            );
            if !holds {
                continue;
            }
            std::fs::remove_dir_all(&reveal).unwrap();
            let r = qj(&["verify", &d]);
            assert_eq!(r.code, 1, "{game}: {r:?}");
            assert!(
                r.stderr.contains("reveal/") && r.stderr.contains("qijudge reveal"),
                "{game}: {r:?}"
            );
        }
    }
}

/// The methods a trait declares in `source` (the text of `pub trait NAME { … }`), sorted.
fn trait_methods(source: &str, name: &str) -> Vec<String> {
    let start = source
        .find(&format!("pub trait {name}"))
        .unwrap_or_else(|| panic!("no trait {name}"));
    let body = &source[start..];
    let end = body.find("\n}").unwrap();
    let mut names: Vec<String> = body[..end]
        .split("fn ")
        .skip(1)
        .map(|rest| rest.split(['(', '<']).next().unwrap().trim().to_string())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The referee contract as `docs/games.md` shows it is the one in the code: a method added,
/// renamed or removed fails here until the page says so.
#[test]
fn the_documented_referee_contract_is_the_code_s() {
    let code = std::fs::read_to_string(root().join("src/judge/pipeline.rs")).unwrap();
    let doc = std::fs::read_to_string(root().join("docs/games.md")).unwrap();
    assert_eq!(
        trait_methods(&doc, "Referee"),
        trait_methods(&code, "Referee")
    );
}

/// `new --help` names every registered game and each board's seats in order, and `match
/// --help` every game: a game added to the registry shows up, or this fails.
#[test]
fn help_names_every_registered_game_and_its_seats() {
    let new = ok(&["new", "--help"]).stdout;
    let matches = ok(&["match", "--help"]).stdout;
    for game in qijudge::games::registry::names() {
        let g = qijudge::games::by_name(game).unwrap();
        assert!(new.contains(game) && matches.contains(game), "{game}");
        for board in ["2p", "cross4"] {
            if let Ok(seats) = g.seats(board) {
                let listed = seats.join(", ");
                let flat = new.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    flat.contains(&format!("{listed})")) || flat.contains(&format!("{listed};")),
                    "{game} {board}: seats {listed} not in new --help"
                );
            }
        }
    }
}
