//! The crate graph is the architecture (`docs/architecture.md`): read from `cargo metadata`, it
//! must keep its layers. A dependency that runs upward, a game named below the games, or a rules
//! crate that leans on the judge fails here before it lands.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Each workspace crate and the workspace crates it depends on (normal dependencies).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let members: BTreeSet<String> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().unwrap().to_string())
                .filter(|d| members.contains(d))
                .collect();
            (p["name"].as_str().unwrap().to_string(), deps)
        })
        .collect()
}

/// Everything `name` depends on, directly or not.
fn reaches(graph: &BTreeMap<String, BTreeSet<String>>, name: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(n) = todo.pop() {
        for d in &graph[&n] {
            if seen.insert(d.clone()) {
                todo.push(d.clone());
            }
        }
    }
    seen
}

const GAMES: [&str; 5] = ["luzhanqi", "xiangqi", "jieqi", "banqi", "liubo"];

fn is_game_crate(name: &str) -> bool {
    GAMES
        .iter()
        .any(|g| name == format!("qijudge-{g}") || name == format!("{g}-rules"))
}

#[test]
fn the_crate_graph_keeps_its_layers() {
    let graph = graph();
    assert!(graph.len() >= 6, "{:?}", graph.keys());
    for g in GAMES {
        assert!(graph.contains_key(&format!("{g}-rules")), "{g}-rules");
        assert!(graph.contains_key(&format!("qijudge-{g}")), "qijudge-{g}");
    }
    // The trust protocol, storage, the judge and what sits beside them name no game.
    for lower in [
        "qijudge-rules",
        "qijudge-protocol",
        "qijudge-store",
        "qijudge-view",
        "qijudge-engine",
        "qijudge-judge",
        "qijudge-game",
    ] {
        let games: Vec<String> = reaches(&graph, lower)
            .into_iter()
            .filter(|d| is_game_crate(d))
            .collect();
        assert!(games.is_empty(), "{lower} depends on {games:?}");
    }
    // A rules crate is pure: the shared rules and a base game's rules, nothing of the judge, a
    // transport or the command line.
    for g in GAMES {
        let rules = format!("{g}-rules");
        for d in reaches(&graph, &rules) {
            assert!(
                d == "qijudge-rules" || d.ends_with("-rules"),
                "{rules} depends on {d}"
            );
        }
    }
    // A game reaches no transport, the registry or the binary; the transports reach no game
    // but through the registry, and none reaches another.
    let transports = ["qijudge-mail", "qijudge-git", "qijudge-tournament"];
    let above_games = ["qijudge-registry", "qijudge"];
    for g in GAMES {
        let game = format!("qijudge-{g}");
        for d in reaches(&graph, &game) {
            assert!(
                !transports.contains(&d.as_str()) && !above_games.contains(&d.as_str()),
                "{game} depends on {d}"
            );
        }
    }
    for t in transports {
        for d in &graph[t] {
            assert!(!is_game_crate(d), "{t} names the game crate {d}");
            assert!(!transports.contains(&d.as_str()), "{t} depends on {d}");
            assert_ne!(d, "qijudge", "{t} depends on the binary");
        }
    }
    // The club's page sits over the transports' standings: it names no game, and only the
    // binary uses it (the mail judge's `--site` is the command line calling both).
    for d in &graph["qijudge-site"] {
        assert!(!is_game_crate(d), "qijudge-site names the game crate {d}");
    }
    for (name, deps) in &graph {
        if deps.contains("qijudge-site") {
            assert_eq!(name, "qijudge", "{name} depends on qijudge-site");
        }
    }
}

/// Code lines naming a game outside its crates stay few (`scripts/game-names.py`), and the
/// command line stays a parser.
#[test]
fn games_are_named_in_their_crates_and_the_command_line_is_thin() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg("scripts/game-names.py")
        .current_dir(root)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let count: usize = text
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(count <= 20, "{text}");
    let mut lines = 0;
    for entry in std::fs::read_dir(root.join("src/cli")).unwrap() {
        let path = entry.unwrap().path();
        lines += std::fs::read_to_string(&path).unwrap().lines().count();
    }
    assert!(lines <= 1500, "src/cli/ holds {lines} lines");
}
