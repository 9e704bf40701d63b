//! The judge's read-ahead of signed files, on long Luzhanqi games.

use qijudge_protocol::error::Error;

use proptest::prelude::*;
use qijudge_judge::pipeline::Mode;
use qijudge_luzhanqi::referee::load_game;
use qijudge_luzhanqi::synth::{long_game, NOW};
use qijudge_protocol::signing::{self, forge, namespace};
use qijudge_store::GameDir;
use ssh_key::PrivateKey;
use std::path::Path;

const PLIES: u32 = 40;

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// A game of [`PLIES`] new signed moves, made once for every case.
fn game() -> &'static Path {
    static GAME: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    GAME.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        long_game(&GameDir::new(tmp.path()), PLIES, 5).unwrap();
        tmp
    })
    .path()
}

/// A bad signature of `kind` for the move file `text` whose good signature is `good`.
fn spoiled(kind: u8, dir: &Path, seat: &str, text: &str, good: &str, other: &str) -> String {
    let read_key = |name: &str| -> PrivateKey {
        let pem = std::fs::read_to_string(dir.join("keys").join(name)).unwrap();
        signing::parse_private_key(&pem).unwrap()
    };
    let key = read_key(seat);
    let sshsig = ssh_key::SshSig::from_pem(good).unwrap();
    let mut bytes: [u8; 64] = sshsig.signature_bytes().try_into().unwrap();
    let data =
        ssh_key::SshSig::signed_data(namespace::MOVE, ssh_key::HashAlg::Sha512, text.as_bytes())
            .unwrap();
    match kind {
        // A flipped bit of s.
        0 => bytes[40] ^= 1,
        // s + ℓ: the same point equation, s not in canonical form.
        1 => {
            // ℓ = 2^252 + 27742317777372353535851937790883648493, little-endian.
            let mut order = [0u8; 32];
            order[..16].copy_from_slice(&0x14def9dea2f79cd65812631a5cf5d3ed_u128.to_le_bytes());
            order[31] = 0x10;
            let mut carry = 0u16;
            for (b, o) in bytes[32..].iter_mut().zip(order) {
                let sum = u16::from(*b) + u16::from(o) + carry;
                *b = sum as u8;
                carry = sum >> 8;
            }
        }
        // R with a small-order part of order 2, 4 and 8: the cofactored equation holds.
        2 => bytes = forge::signed_with_torsion(&key, &data, 4, 11),
        3 => bytes = forge::signed_with_torsion(&key, &data, 2, 12),
        4 => bytes = forge::signed_with_torsion(&key, &data, 1, 13),
        // R a small-order point alone.
        5 => bytes = forge::signed_with_torsion(&key, &data, 1, 0),
        // Another move's signature, and the other seat's key.
        6 => return other.to_string(),
        7 => {
            let stranger = read_key(if seat == "south" { "north" } else { "south" });
            return signing::sign(&stranger, namespace::MOVE, text.as_bytes());
        }
        _ => return good.replacen('\n', "\r\n", 1),
    }
    forge::armor(&key, namespace::MOVE, bytes)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whether the judge verifies new files alone or with a second thread from the end, a
    /// spoiled signature anywhere is refused with the reason one strict check gives it, and
    /// every move before it is taken.
    #[test]
    fn new_files_verified_ahead_get_the_strict_verdict(ply in 1..=PLIES, kind in 0u8..9) {
        let tmp = tempfile::tempdir().unwrap();
        copy_tree(game(), tmp.path());
        let dir = GameDir::new(tmp.path());
        let g = load_game(&dir).unwrap();
        let name = |p: u32| {
            let names = dir.list("moves").unwrap();
            names
                .into_iter()
                .find(|n| n.starts_with(&format!("{p:04}-")) && n.ends_with(".toml"))
                .unwrap()
        };
        let path = format!("moves/{}", name(ply));
        let seat = path.trim_end_matches(".toml").rsplit('-').next().unwrap().to_string();
        let text = std::fs::read_to_string(tmp.path().join(&path)).unwrap();
        let good = std::fs::read_to_string(tmp.path().join(format!("{path}.sig"))).unwrap();
        let other_ply = if ply > 2 { ply - 2 } else { ply + 2 };
        let other = std::fs::read_to_string(
            tmp.path().join(format!("moves/{}.sig", name(other_ply))),
        )
        .unwrap();
        let bad = spoiled(kind, tmp.path(), &seat, &text, &good, &other);
        std::fs::write(tmp.path().join(format!("{path}.sig")), &bad).unwrap();
        let i = if seat == "south" { 0 } else { 1 };
        signing::forget_verified();
        let one_by_one = signing::verify(&g.player_keys[i], namespace::MOVE, text.as_bytes(), &bad)
            .expect_err("every spoiled signature fails the strict check");
        signing::forget_verified();
        let replay = qijudge_luzhanqi::referee::replay(&dir, &g, Mode::Judge, NOW).unwrap();
        prop_assert_eq!(replay.record.last_move_ply(), ply - 1);
        match replay.refusal {
            Some(Error::Refused(r)) => {
                prop_assert_eq!(r.file, format!("{path}.sig"));
                prop_assert_eq!(r.reason, one_by_one.to_string());
            }
            other => prop_assert!(false, "{:?}", other.map(|e| e.to_string())),
        }
    }
}

/// With every signature good, all the new moves are taken.
#[test]
fn every_good_new_file_is_taken_with_the_helper() {
    let dir = GameDir::new(game());
    let g = load_game(&dir).unwrap();
    signing::forget_verified();
    let replay = qijudge_luzhanqi::referee::replay(&dir, &g, Mode::Judge, NOW).unwrap();
    assert!(replay.refusal.is_none());
    assert_eq!(replay.record.last_move_ply(), PLIES);
}
