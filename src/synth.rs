//! Synthetic signed games: a long, valid game directory made in-process, for benchmarks and
//! crash tests. The moves are random and mostly quiet so the game lasts; every file is signed
//! and bound exactly as the players' commands would write it.

use crate::error::Result;
use crate::judge::{self, load_game, Mode};
use crate::protocol::commitment::{lot_commitment, setup_commitment};
use crate::protocol::files::*;
use crate::protocol::hash::sha256_tagged;
use crate::protocol::signing::{self, namespace};
use crate::rules::luzhanqi::random::{random_setup, SplitMix64};
use crate::rules::luzhanqi::*;
use crate::store::GameDir;

/// The receipt time written for every synthetic move.
pub const NOW: &str = "2026-11-21T12:00:00Z";

/// Writes a game of `plies` signed moves into `dir` (manifest, keys, commitments, setups,
/// moves; no record) and returns the judge's private key, also saved as `keys/judge`.
/// Fails if the random game ends early; try another seed.
pub fn long_game(dir: &GameDir, plies: u32, seed: u64) -> Result<ssh_key::PrivateKey> {
    let b = two_player();
    let keys: Vec<_> = ["alice", "bob", "judge"]
        .iter()
        .map(|n| signing::generate(n))
        .collect();
    dir.write_private("keys/judge", signing::private_key_pem(&keys[2]).as_bytes())?;
    let manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        game: "luzhanqi".into(),
        id: format!("lzq-{:032x}", seed as u128 + 1),
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
    dir.write("game.toml", text.as_bytes())?;
    let hash = sha256_tagged(text.as_bytes());
    let mut rng = SplitMix64::new(seed);
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
        dir.write(&format!("commitments/{seat}.toml"), ct.as_bytes())?;
        dir.write(
            &format!("commitments/{seat}.toml.sig"),
            signing::sign(&keys[i], namespace::COMMITMENT, ct.as_bytes()).as_bytes(),
        )?;
        let s = SetupFile {
            format: SETUP_FORMAT.into(),
            game: manifest.id.clone(),
            manifest: hash.clone(),
            seat: seat.to_string(),
            salt: hex::encode(salt),
            lot_nonce: hex::encode(nonce),
            setup: String::from_utf8_lossy(&canonical).into_owned(),
        };
        dir.write(&format!("setups/{seat}.toml"), to_toml(&s).as_bytes())?;
    }
    // The opening's record head, then each move's record line predicted as the judge writes it.
    let game = load_game(dir)?;
    let mut record = judge::replay(dir, &game, Mode::Judge, NOW)?.record;
    let (mut pos, _) = Position::start(b, Options::default(), &setups, Seat(0));
    for ply in 1..=plies {
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
            offer_draw: false,
            comment: None,
        };
        let t = to_toml(&file);
        let path = judge::move_path(ply, seat);
        dir.write(&path, t.as_bytes())?;
        dir.write(
            &format!("{path}.sig"),
            signing::sign(&keys[pos.to_move().index()], namespace::MOVE, t.as_bytes()).as_bytes(),
        )?;
        let events = pos
            .play(m)
            .map_err(|e| crate::error::Error::Io(e.to_string()))?;
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
        let entry = Entry::Move {
            ply,
            seat: seat.into(),
            file: sha256_tagged(t.as_bytes()),
            received: NOW.into(),
            action: m.display(b),
            outcome,
            notices,
            draw_offered: false,
        };
        record.append(entry, &hash);
        if pos.result().is_some() {
            return Err(crate::error::Error::Io(format!(
                "the synthetic game ended at ply {ply}; try another seed"
            )));
        }
    }
    Ok(keys[2].clone())
}
