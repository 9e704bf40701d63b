//! What every registered game must do, run for each game the registry lists (a game added to
//! the registry is checked here with no line written for it): its shipped samples verify, a
//! second judge run changes no byte, and where the judge held secrets the audit of a finished
//! game needs them revealed.

use super::helpers::*;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped sample games of `game` (see [`samples_of`]).
fn samples(game: &str) -> Vec<PathBuf> {
    samples_of(game).iter().map(|s| root().join(s)).collect()
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
        assert!(!samples.is_empty(), "{game}: no sample");
        for sample in samples {
            let tmp = tempfile::tempdir().unwrap();
            let d = copy(&sample, tmp.path());
            ok(&["verify", &d]);
            let before = snapshot(Path::new(&d));
            let key = format!("{d}/keys/judge");
            ok(&["judge", &d, "--key", &key]);
            assert_same_files(&before, &snapshot(Path::new(&d)), game);
        }
    }
}

#[test]
fn a_finished_game_with_secrets_verifies_only_once_they_are_revealed() {
    for game in qijudge::games::registry::names() {
        for sample in samples(game) {
            let tmp = tempfile::tempdir().unwrap();
            let d = copy(&sample, tmp.path());
            let facts = qijudge::games::by_name(game)
                .unwrap()
                .facts(&qijudge::store::GameDir::new(&d))
                .unwrap();
            let holds = facts.judge_holds_secrets;
            let reveal = Path::new(&d).join("reveal");
            assert_eq!(
                reveal.is_dir(),
                holds,
                "{game}: a finished sample has reveal/ exactly when its judge held secrets"
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
    let code = std::fs::read_to_string(root().join("crates/judge/src/pipeline.rs")).unwrap();
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

/// Every registered game, under every board and option that changes who sees what
/// (`Game::variants`: Luzhanqi on both boards, Jieqi under each `captured` rule, …), plays a
/// bot match whose games each verify, judge again to the same bytes, refuse `verify` without
/// their reveal where the judge held secrets, and count in `tournament`.
#[test]
fn every_game_and_variant_plays_a_match_that_passes_the_contract() {
    for game in qijudge::games::registry::names() {
        let g = qijudge::games::by_name(game).unwrap();
        for (board, rules) in g.variants() {
            let what = format!("{game} {board} {rules:?}");
            let tmp = tempfile::tempdir().unwrap();
            let out = tmp.path().join("m");
            let o = out.to_string_lossy().into_owned();
            let mut args = vec![
                "match",
                "--folders",
                "--game",
                game,
                "--board",
                board,
                "--out",
                &o,
                "--bot",
                "r=builtin:random",
                "--bot",
                "g=builtin:greedy",
                "--games",
                "2",
            ];
            for r in rules.iter() {
                args.extend(["--rule", r]);
            }
            let played = qj(&args);
            assert_eq!(played.code, 0, "{what}: {played:?}");
            let mut dirs: Vec<PathBuf> = std::fs::read_dir(out.join("games"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            dirs.sort();
            assert_eq!(dirs.len(), 2, "{what}");
            for dir in &dirs {
                let d = dir.to_string_lossy().into_owned();
                let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
                for r in rules.iter() {
                    let (key, value) = r.split_once('=').unwrap();
                    // A switch (`on`, `off`) is a TOML boolean, a number an integer; other
                    // values are strings.
                    let written = match value {
                        "on" => format!("{key} = true"),
                        "off" => format!("{key} = false"),
                        _ if value.parse::<u64>().is_ok() => format!("{key} = {value}"),
                        _ => format!("{key} = \"{value}\""),
                    };
                    assert!(
                        manifest.contains(&written),
                        "{what}: {key} not in the manifest"
                    );
                }
                ok(&["verify", &d]);
                // A match's judge draws no pictures; the first command-line run may add them,
                // and from then on a run changes nothing.
                let key = out.join("keys/judge").to_string_lossy().into_owned();
                ok(&["judge", &d, "--key", &key]);
                let before = snapshot(dir);
                ok(&["judge", &d, "--key", &key]);
                assert_same_files(&before, &snapshot(dir), &what);
                if g.has_secrets() {
                    let copy = tmp.path().join("unrevealed");
                    copy_dir(dir, &copy);
                    std::fs::remove_dir_all(copy.join("reveal")).unwrap();
                    let r = qj(&["verify", &copy.to_string_lossy()]);
                    assert_eq!(r.code, 1, "{what}: {r:?}");
                    std::fs::remove_dir_all(&copy).unwrap();
                }
            }
            let t = ok(&["tournament", &format!("{o}/games"), "--format", "json"]);
            let v: serde_json::Value = serde_json::from_str(&t.stdout).unwrap();
            assert_eq!(
                v["games"].as_array().unwrap().len(),
                2,
                "{what}: {}",
                t.stdout
            );
        }
    }
}

/// Both snapshots hold the same files with the same bytes; else the files that differ, by name.
fn assert_same_files(
    before: &std::collections::BTreeMap<String, Vec<u8>>,
    after: &std::collections::BTreeMap<String, Vec<u8>>,
    what: &str,
) {
    let differ: Vec<&String> = before
        .keys()
        .chain(after.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert!(
        differ.is_empty(),
        "{what}: a second judge run changed {differ:?}"
    );
}
