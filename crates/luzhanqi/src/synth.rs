//! Synthetic signed games: a long, valid game directory made in-process, for benchmarks and
//! crash tests. The moves are random and mostly quiet so the game lasts; every file is signed
//! and bound by the same code the players' commands use, and checked by the judge as it is written.

use crate::commit::commit_setup;
use crate::referee::{load_game, Manifest, Session};
use luzhanqi_rules::random::{random_setup, SplitMix64};
use luzhanqi_rules::*;
use qijudge_game::player::{write_move, NewMove};
use qijudge_protocol::error::{Error, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::signing;
use qijudge_store::GameDir;

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
    // The players' keys too, for tests that sign a file of their own in the game.
    for (key, name) in keys.iter().zip(["south", "north", "judge"]) {
        dir.write_private(
            &format!("keys/{name}"),
            signing::private_key_pem(key).as_bytes(),
        )?;
    }
    let manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        game: "luzhanqi".into(),
        id: format!("lzq-{:032x}", seed as u128 + 1),
        created: NOW.into(),
        sample: false,
        board: "2p".into(),
        rules: Options::default(),
        clock: None,
        sealed: false,
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
                email: None,
                digest: false,
            })
            .collect(),
    };
    let text = to_toml(&manifest);
    dir.write("game.toml", text.as_bytes())?;
    let game = load_game(dir)?;
    let mut rng = SplitMix64::new(seed);
    let seats = ["south", "north"];
    for (i, seat) in seats.iter().enumerate() {
        commit_setup(
            dir,
            &game,
            seat,
            &keys[i],
            &random_setup(b, Seat(i as u8), &mut rng),
        )?;
    }
    // The judge's own incremental session checks every move and keeps the record head.
    let mut session = Session::open(&game, dir, NOW)?;
    for ply in 1..=plies {
        let (m, mover, head) = {
            let replay = session.state();
            let pos = replay
                .position
                .as_ref()
                .ok_or_else(|| Error::Io("play did not begin".into()))?;
            let legal = pos.legal_moves();
            let quiet: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.at(m.to).is_none())
                .collect();
            // Now and then a combat, in the first 1 000 plies (after that, armies that kept
            // fighting would be gone long before a 10 000-ply game ends).
            let pool = if quiet.is_empty() || (ply <= 1000 && rng.below(50) == 0) {
                &legal
            } else {
                &quiet
            };
            (
                pool[rng.below(pool.len())],
                pos.to_move().index(),
                replay.record.head_or(&game.hash),
            )
        };
        let action = m.display(b);
        let mv = NewMove::plain(ply, &head, &action);
        write_move(
            dir,
            &game.manifest.id,
            &game.hash,
            seats[mover],
            &keys[mover],
            mv,
        )?;
        session.advance()?;
        if let Some(e) = &session.refusal {
            return Err(Error::Io(format!(
                "the synthetic move of ply {ply} was refused: {e}"
            )));
        }
        if session.state().outcome.is_some() {
            return Err(Error::Io(format!(
                "the synthetic game ended at ply {ply}; try another seed"
            )));
        }
    }
    Ok(keys[2].clone())
}
