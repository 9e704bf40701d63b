//! Judge speed on a long signed game: the cost per ply of `judge` (replaying and verifying every
//! file) against the cost of one SSHSIG Ed25519 verification measured in the same run.
//! Run with `cargo bench --bench judge`.

use qijudge::judge::{self, load_game, Mode};
use qijudge::protocol::commitment::{lot_commitment, setup_commitment};
use qijudge::protocol::files::*;
use qijudge::protocol::hash::sha256_tagged;
use qijudge::protocol::record::Record;
use qijudge::protocol::signing::{self, namespace};
use qijudge::rules::luzhanqi::random::{random_setup, SplitMix64};
use qijudge::rules::luzhanqi::*;
use qijudge::store::GameDir;
use std::time::Instant;

const PLIES: u32 = 1000;
const NOW: &str = "2026-11-21T12:00:00Z";

/// Writes a game of PLIES signed moves, mostly quiet moves so it lasts.
fn build(dir: &GameDir) -> ssh_key::PrivateKey {
    let b = two_player();
    let keys: Vec<_> = ["alice", "bob", "judge"]
        .iter()
        .map(|n| signing::generate(n))
        .collect();
    let manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        game: "luzhanqi".into(),
        id: "lzq-0123456789abcdef0123456789abcdef".into(),
        created: NOW.into(),
        sample: false,
        board: "2p".into(),
        rules: Options::default(),
        judge: JudgeEntry {
            key: signing::public_key_line(keys[2].public_key()),
        },
        players: ["south", "north"]
            .iter()
            .zip(&keys)
            .map(|(s, k)| Player {
                seat: s.to_string(),
                name: s.to_string(),
                key: signing::public_key_line(k.public_key()),
            })
            .collect(),
    };
    let text = to_toml(&manifest);
    dir.write("game.toml", text.as_bytes()).unwrap();
    let hash = sha256_tagged(text.as_bytes());
    let mut rng = SplitMix64::new(5);
    let setups = [
        random_setup(b, Seat(0), &mut rng),
        random_setup(b, Seat(1), &mut rng),
    ];
    for (i, seat) in ["south", "north"].iter().enumerate() {
        let (salt, nonce) = ([i as u8; 32], [9 + i as u8; 32]);
        let canonical = setups[i].canonical_bytes(b);
        let c = CommitmentFile {
            format: COMMITMENT_FORMAT.into(),
            game: manifest.id.clone(),
            manifest: hash.clone(),
            seat: seat.to_string(),
            setup: setup_commitment(&manifest.id, seat, &salt, &canonical),
            lot: lot_commitment(&manifest.id, seat, &nonce),
        };
        let ct = to_toml(&c);
        dir.write(&format!("commitments/{seat}.toml"), ct.as_bytes())
            .unwrap();
        dir.write(
            &format!("commitments/{seat}.toml.sig"),
            signing::sign(&keys[i], namespace::COMMITMENT, ct.as_bytes()).as_bytes(),
        )
        .unwrap();
        let s = SetupFile {
            format: SETUP_FORMAT.into(),
            game: manifest.id.clone(),
            manifest: hash.clone(),
            seat: seat.to_string(),
            salt: hex::encode(salt),
            lot_nonce: hex::encode(nonce),
            setup: String::from_utf8(canonical).unwrap(),
        };
        dir.write(&format!("setups/{seat}.toml"), to_toml(&s).as_bytes())
            .unwrap();
    }
    // Judge the opening to learn the head, then predict each move's record line as the judge will.
    let game = load_game(dir).unwrap();
    let opening = judge::replay(dir, &game, Mode::Judge, NOW).unwrap();
    let mut record: Record = opening.record.clone();
    let (mut pos, _) = Position::start(b, Options::default(), &setups, Seat(0));
    for ply in 1..=PLIES {
        let legal = pos.legal_moves();
        let quiet: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| pos.at(m.to).is_none())
            .collect();
        let pool = if quiet.is_empty() || rng.below(50) == 0 {
            &legal
        } else {
            &quiet
        };
        let m = pool[rng.below(pool.len())];
        let seat = ["south", "north"][pos.to_move().index()];
        let file = MoveFile {
            format: MOVE_FORMAT.into(),
            game: manifest.id.clone(),
            manifest: hash.clone(),
            ply,
            seat: seat.into(),
            answers: record.head_or(&hash),
            action: m.display(b),
            comment: None,
        };
        let t = to_toml(&file);
        let path = judge::move_path(ply, seat);
        dir.write(&path, t.as_bytes()).unwrap();
        dir.write(
            &format!("{path}.sig"),
            signing::sign(&keys[pos.to_move().index()], namespace::MOVE, t.as_bytes()).as_bytes(),
        )
        .unwrap();
        let events = pos.play(m).unwrap();
        let outcome = events.iter().find_map(|e| match e.fact {
            Fact::Moved { outcome, .. } => Some(outcome),
            _ => None,
        });
        let notices = events
            .iter()
            .filter_map(|e| match e.fact {
                Fact::FlagRevealed { seat, square } => Some(Notice::FlagRevealed {
                    seat: b.seat_name(seat).into(),
                    square: b.name_of(square).into(),
                }),
                _ => None,
            })
            .collect();
        record.append(
            Entry::Move {
                ply,
                seat: seat.into(),
                file: sha256_tagged(t.as_bytes()),
                received: NOW.into(),
                action: m.display(b),
                outcome,
                notices,
            },
            &hash,
        );
        assert!(
            pos.result().is_none(),
            "the bench game ended at ply {ply}; pick another seed"
        );
    }
    keys[2].clone()
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = GameDir::new(tmp.path());
    let judge_key = build(&dir);
    let game = load_game(&dir).unwrap();

    // One SSHSIG verification of a move file, as the judge does it.
    let text = std::fs::read_to_string(tmp.path().join("moves/0500-north.toml")).unwrap();
    let sig = std::fs::read_to_string(tmp.path().join("moves/0500-north.toml.sig")).unwrap();
    let rounds = 2000;
    let t = Instant::now();
    for _ in 0..rounds {
        signing::verify(&game.player_keys[1], namespace::MOVE, text.as_bytes(), &sig).unwrap();
    }
    let verify_us = t.elapsed().as_secs_f64() / rounds as f64 * 1e6;

    // Judging all 1000 plies from scratch (every file new), then again (everything recorded).
    let time_judge = |label: &str| {
        let t = Instant::now();
        let replay = judge::replay(&dir, &game, Mode::Judge, NOW).unwrap();
        assert!(
            replay.refusal.is_none(),
            "{:?}",
            replay.refusal.map(|e| e.to_string())
        );
        let replay_s = t.elapsed().as_secs_f64();
        for (name, body) in judge::outputs(&game, &replay, &judge_key) {
            dir.write(&name, body.as_bytes()).unwrap();
        }
        let total_s = t.elapsed().as_secs_f64();
        let per_ply = replay_s / PLIES as f64 * 1e6;
        println!(
            "judge {label}: {:.1} ms total ({:.1} ms replay + {:.1} ms views and signatures); {per_ply:.1} µs per ply = {:.2}× one verification",
            total_s * 1e3,
            replay_s * 1e3,
            (total_s - replay_s) * 1e3,
            per_ply / verify_us
        );
    };
    println!("one SSHSIG Ed25519 verification: {verify_us:.1} µs");
    time_judge("first run (1000 new plies)");
    time_judge("re-run (1000 recorded plies)");
    time_judge("re-run (1000 recorded plies)");
}
