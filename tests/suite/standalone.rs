//! The repository stands on its own: nothing in it reads or names the team's folder that sits
//! beside the checkout on developers' machines (users never have it), and the test data it
//! needs is inside, with its attribution.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every file of the repository's own tree: build outputs, git's folder and lock files (their
/// package names are not ours to choose) left out.
fn repository_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap();
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            if matches!(name.as_str(), "target" | ".git" | "artifacts") {
                continue;
            }
            repository_files(&path, out);
        } else if kind.is_file() && name != "Cargo.lock" {
            out.push(path);
        }
    }
}

/// The ways a file could point at the team folder. Built at run time so this file does not
/// match itself.
fn forbidden_names() -> Vec<String> {
    let team = "shared";
    let mut names = vec![format!("../{team}"), format!("..\\{team}")];
    for inside in ["rules", "data", "DESIGN", "STYLE", "hooks", "README"] {
        names.push(format!("{team}/{inside}"));
    }
    names
}

#[test]
fn nothing_in_the_repository_reads_or_names_the_team_folder() {
    let mut files = Vec::new();
    repository_files(root(), &mut files);
    assert!(files.len() > 100, "walked only {} files", files.len());
    let names = forbidden_names();
    let mut hits = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for (number, line) in text.lines().enumerate() {
            if names.iter().any(|name| line.contains(name.as_str())) {
                let shown = file.strip_prefix(root()).unwrap().display();
                hits.push(format!("{shown}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "files that point outside the repository (copy what is needed into it):\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_xiangqi_test_data_is_inside_with_its_attribution() {
    let data = root().join("tests/data/xiangqi");
    for name in [
        "perft.txt",
        "repetition.json",
        "games.pgn",
        "games-zh.pgn",
        "games-expected.jsonl",
    ] {
        let meta = std::fs::metadata(data.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(meta.len() > 1000, "{name} is nearly empty");
    }
    let readme = std::fs::read_to_string(data.join("README.md")).unwrap();
    assert!(readme.contains("Yu-Han Tseng"), "{readme}");
    assert!(readme.contains("licensed CC BY 4.0"), "{readme}");
}

#[test]
fn the_checker_finds_a_planted_reference() {
    // The walk above must be able to fail: a line naming the folder is caught.
    let line = format!("see ../{}/data/xiangqi", "shared");
    assert!(forbidden_names().iter().any(|n| line.contains(n.as_str())));
}
