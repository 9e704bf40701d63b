//! Data-driven tests against `shared/data/xiangqi/`.

use super::*;
use std::path::PathBuf;

/// A file of the shared reference data (the repository is checked out beside `shared/`).
pub(crate) fn shared_data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/xiangqi")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

struct PerftCase {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn perft_cases() -> Vec<PerftCase> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for line in shared_data("perft.txt").lines() {
        let line = line.trim();
        if let Some(id) = line.strip_prefix("id ") {
            cases.push(PerftCase {
                id: id.to_string(),
                fen: String::new(),
                counts: Vec::new(),
            });
        } else if let Some(fen) = line.strip_prefix("fen ") {
            cases.last_mut().expect("id first").fen = fen.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.split_once(' ').expect("perft DEPTH NODES");
            let case = cases.last_mut().expect("id first");
            case.counts.push((d.parse().unwrap(), n.parse().unwrap()));
        }
    }
    assert_eq!(cases.len(), 59, "perft.txt lists 59 positions");
    cases
}

fn run_perft(limit: u64, above: bool) {
    let mut checked = 0;
    for case in perft_cases() {
        let mut position = fen::parse(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, nodes) in &case.counts {
            if (nodes <= limit) == above {
                continue;
            }
            assert_eq!(position.perft(depth), nodes, "{} perft {depth}", case.id);
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn perft_small_depths() {
    run_perft(3_000_000, false);
}

/// The deep counts (up to 5.4 billion nodes): `cargo test --release -- --ignored perft_deep`.
#[test]
#[ignore]
fn perft_deep() {
    run_perft(3_000_000, true);
}

#[test]
fn generation_agrees_with_single_move_check() {
    // Every (from, to) pair of every perft position and the positions one ply after.
    for case in perft_cases() {
        let root = fen::parse(&case.fen).unwrap();
        let mut positions = vec![root.clone()];
        for m in root.legal_moves().iter() {
            let mut p = root.clone();
            p.make(m);
            positions.push(p);
        }
        for p in positions {
            let legal: std::collections::BTreeSet<Move> = p.legal_moves().iter().collect();
            for from in 0..90 {
                for to in 0..90 {
                    let m = Move {
                        from: Square::from_index(from).unwrap(),
                        to: Square::from_index(to).unwrap(),
                    };
                    assert_eq!(
                        p.check_move(m).is_ok(),
                        legal.contains(&m),
                        "{} {m}: {:?}",
                        fen::write(&p),
                        p.check_move(m)
                    );
                }
            }
        }
    }
}

fn parse_iccs(position: &Position, text: &str) -> Move {
    let from = Square::parse(&text[..2]).unwrap();
    let to = Square::parse(&text[2..]).unwrap();
    let _ = position;
    Move { from, to }
}

#[test]
fn repetition_cases() {
    let data: serde_json::Value = serde_json::from_str(&shared_data("repetition.json")).unwrap();
    let mut failures = Vec::new();
    for case in data["cases"].as_array().unwrap() {
        let n = case["n"].as_u64().unwrap();
        let mut game = Game::new(
            fen::parse(case["fen"].as_str().unwrap()).unwrap(),
            Options::default(),
        );
        let moves = case["moves_ucci"].as_array().unwrap();
        let mut ended_at = None;
        for (i, m) in moves.iter().enumerate() {
            let m = parse_iccs(game.position(), m.as_str().unwrap());
            if let Err(e) = game.play(m) {
                panic!("case {n}: move {} {m} refused: {e}", i + 1);
            }
            if game.ending().is_some() && ended_at.is_none() {
                ended_at = Some(i + 1);
                break;
            }
        }
        let got = game.ending().map(|e| e.winner().pgn());
        let want = case["result"].as_str();
        let detail = format!(
            "case {n} ({}): want {want:?}, got {got:?} at ply {ended_at:?} of {} ({:?})",
            case["label"],
            moves.len(),
            game.ending()
        );
        if want.is_some() && got != want {
            failures.push(detail);
        } else {
            eprintln!("ok {detail}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
