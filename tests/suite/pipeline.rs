//! One judge pipeline for every game: the same run gives the same answers whatever the game.
//! Every shipped sample of every registered game (Luzhanqi on both boards, Xiangqi, Liubo,
//! Jieqi, and any game added to the registry) goes through the same checks.

use super::helpers::*;
use qijudge::protocol::signing::{self, namespace};
use std::path::Path;

/// Every registered game's samples (see [`samples_of`]), as paths from the repository.
fn samples() -> Vec<String> {
    let mut found = Vec::new();
    for game in qijudge::games::registry::names() {
        let these = samples_of(game);
        assert!(!these.is_empty(), "{game}: no sample");
        found.extend(these);
    }
    found
}

/// The last seat of the game in `dir`, by its manifest's game and board.
fn last_seat(dir: &Path) -> String {
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(dir.join("game.toml")).unwrap()).unwrap();
    let game = manifest["game"].as_str().unwrap();
    let board = manifest
        .get("board")
        .and_then(|b| b.as_str())
        .unwrap_or("2p");
    // A one-board game names its board in the manifest (`9x10`); `--board` speaks of 2p.
    let g = qijudge::games::by_name(game).unwrap();
    let seats = g.seats(board).or_else(|_| g.seats("2p")).unwrap();
    seats.last().unwrap().clone()
}

fn judge(dir: &Path, extra: &[&str]) -> Run {
    let key = dir.join("keys/judge");
    let mut args = vec![
        "judge",
        dir.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    qj(&args)
}

/// A finished game judged again: nothing new, not a byte changed, and a late forfeit (from a
/// deadline script, say) leaves the result alone.
#[test]
fn every_game_rejudges_byte_for_byte() {
    for sample in samples() {
        let (_tmp, dir) = sample_copy_of(&sample);
        let before = snapshot(&dir);
        let r = judge(&dir, &[]);
        assert_eq!(r.code, 0, "{sample}: {r:?}");
        assert!(r.stdout.contains("nothing new"), "{sample}: {r:?}");
        let forfeit = format!("{}:missed-deadline", last_seat(&dir));
        let r = judge(&dir, &["--forfeit", &forfeit]);
        assert_eq!(r.code, 0, "{sample}: {r:?}");
        assert!(r.stdout.contains("nothing new"), "{sample}: {r:?}");
        assert!(before == snapshot(&dir), "{sample}: a re-run changed files");
        ok(&["verify", dir.to_str().unwrap()]);
    }
}

/// A record cut short and signed again with the judge's own key (a restored backup) is refused
/// as rolled back, by every game's judge and audit, and nothing is written.
#[test]
fn every_game_refuses_a_rolled_back_record() {
    for sample in samples() {
        let (_tmp, dir) = sample_copy_of(&sample);
        let text = std::fs::read_to_string(dir.join("record.jsonl")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let cut: String = lines[..lines.len() - 3]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect();
        let key = ssh_key::PrivateKey::read_openssh_file(&dir.join("keys/judge")).unwrap();
        std::fs::write(dir.join("record.jsonl"), &cut).unwrap();
        std::fs::write(
            dir.join("record.sig"),
            signing::sign(&key, namespace::RECORD, cut.as_bytes()),
        )
        .unwrap();
        let before = snapshot(&dir);
        let r = judge(&dir, &[]);
        assert_eq!(r.code, 1, "{sample}: {r:?}");
        assert!(
            r.stderr.contains("record.jsonl") && r.stderr.contains("rolled back"),
            "{sample}: {r:?}"
        );
        assert!(
            before == snapshot(&dir),
            "{sample}: a refused run wrote files"
        );
        let v = qj(&["verify", dir.to_str().unwrap()]);
        assert_eq!(v.code, 1, "{sample}: {v:?}");
        assert!(v.stderr.contains("rolled back"), "{sample}: {v:?}");
    }
}

/// Both the judge and the audit refuse the game (exit 1) with every one of `needles` said.
fn judge_and_audit_refuse(dir: &Path, sample: &str, needles: &[&str]) {
    for cmd in ["judge", "verify"] {
        let r = match cmd {
            "judge" => judge(dir, &[]),
            _ => qj(&["verify", dir.to_str().unwrap()]),
        };
        assert_eq!(r.code, 1, "{sample} {cmd}: {r:?}");
        assert!(
            needles.iter().all(|n| r.stderr.contains(n)),
            "{sample} {cmd}: {r:?}"
        );
    }
}

/// An accepted move file changed afterwards is refused with its name, by judge and audit alike.
#[test]
fn every_game_refuses_a_changed_accepted_move() {
    for sample in samples() {
        let (_tmp, dir) = sample_copy_of(&sample);
        let name = std::fs::read_dir(dir.join("moves"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("0003-") && n.ends_with(".toml"))
            .min()
            .unwrap_or_else(|| panic!("{sample}: no move file for ply 3"));
        let path = dir.join("moves").join(&name);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("ply = 3", "ply = 3 ", 1)).unwrap();
        judge_and_audit_refuse(&dir, &sample, &[&format!("moves/{name}")]);
    }
}

/// A recorded move whose signature was swapped for another move's of the same seat is refused
/// by the signature file's name by the audit (the recorded moves' signatures are checked in
/// batches; a batch that fails must still name the file). The judge's own run trusts the record
/// it signed for the players' signatures it checked when it took each file: the game goes on.
#[test]
fn every_game_audit_refuses_a_recorded_move_with_another_moves_signature() {
    for sample in samples() {
        let (_tmp, dir) = sample_copy_of(&sample);
        let names: Vec<String> = std::fs::read_dir(dir.join("moves"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .collect();
        let ply_file = |ply: u32| {
            let mut found: Vec<&String> = names
                .iter()
                .filter(|n| n.starts_with(&format!("{ply:04}-")))
                .collect();
            found.sort();
            found[0].clone()
        };
        // The same seat moves again two plies later in a two-seat game, four in Luzhanqi's four.
        let step = if sample.contains("4p") { 4 } else { 2 };
        let (victim, donor) = (ply_file(7), ply_file(7 + step));
        assert_eq!(
            victim.split_once('-').unwrap().1,
            donor.split_once('-').unwrap().1,
            "{sample}"
        );
        let moves = dir.join("moves");
        std::fs::copy(
            moves.join(format!("{donor}.sig")),
            moves.join(format!("{victim}.sig")),
        )
        .unwrap();
        let sig = format!("moves/{victim}.sig");
        let audit = qj(&["verify", dir.to_str().unwrap()]);
        assert_eq!(audit.code, 1, "{sample}: {audit:?}");
        assert!(
            audit.stderr.contains(&sig) && audit.stderr.contains("signature does not match"),
            "{sample}: {audit:?}"
        );
        let run = judge(&dir, &[]);
        assert!(run.code == 0 || run.code == 3, "{sample}: {run:?}");
    }
}

/// A forfeit with an unknown seat or a reason code that is not lower-case letters, digits and
/// `-` is a usage error (exit 2) in every game, and nothing is written.
#[test]
fn every_game_refuses_a_malformed_forfeit() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    for game in qijudge::games::registry::names() {
        let dir = tmp.path().join(game);
        new_game(game, &dir, &keys, &[]);
        let seat = last_seat(&dir);
        let d = dir.to_string_lossy().into_owned();
        let judge = |forfeit: &str| {
            qj(&[
                "judge",
                &d,
                "--key",
                &keys.path("judge"),
                "--now",
                NOW,
                "--forfeit",
                forfeit,
            ])
        };
        let before = snapshot(&dir);
        for (forfeit, needle) in [
            (format!("{seat}:Bad Reason"), "reason code"),
            ("nobody:left".to_string(), "not a seat"),
        ] {
            let r = judge(&forfeit);
            assert_eq!(r.code, 2, "{game} {forfeit}: {r:?}");
            assert!(r.stderr.contains(needle), "{game} {forfeit}: {r:?}");
            assert!(
                before == snapshot(&dir),
                "{game}: a refused forfeit wrote files"
            );
        }
        let r = judge(&format!("{seat}:missed-deadline"));
        assert_eq!(r.code, 0, "{game}: {r:?}");
        assert!(
            r.stdout.contains(&format!("{seat} forfeits")),
            "{game}: {r:?}"
        );
    }
}

/// A move after the end, signed by its seat, is refused with the reason, set aside into
/// `refused/` (so nothing is left to refuse again) and the game still verifies.
#[test]
fn every_game_sets_aside_a_move_after_the_end() {
    for sample in samples() {
        let (_tmp, dir) = sample_copy_of(&sample);
        let seat = last_seat(&dir);
        let last = std::fs::read_dir(dir.join("moves"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .max()
            .unwrap_or_else(|| panic!("{sample}: no move"));
        let ply: u32 = last[..4].parse().unwrap();
        let rel = format!("moves/{:04}-{seat}.toml", ply + 1);
        // Signed by the seat's own key, bound to the game and the record's head: only the end
        // makes it late (a player's tool would refuse to write it).
        let key = dir.join(format!("keys/{}", key_name(&dir, &seat)));
        let key = signing::parse_private_key(&std::fs::read_to_string(key).unwrap()).unwrap();
        let g = qijudge::store::GameDir::new(&dir);
        let facts = qijudge::games::of_dir(&dir).unwrap().facts(&g).unwrap();
        let head = qijudge::protocol::record::Record::parse(
            &std::fs::read_to_string(dir.join("record.jsonl")).unwrap(),
            &facts.hash,
        )
        .unwrap()
        .head_or(&facts.hash);
        let manifest: toml::Table =
            toml::from_str(&std::fs::read_to_string(dir.join("game.toml")).unwrap()).unwrap();
        let mv = qijudge::player::NewMove {
            ply: ply + 1,
            answers: &head,
            action: "resign",
            offer_draw: false,
            comment: None,
            chain: None,
            replace: false,
        };
        let id = manifest["id"].as_str().unwrap();
        let written = qijudge::player::write_move(&g, id, &facts.hash, &seat, &key, mv).unwrap();
        assert_eq!(written, rel, "{sample}");
        let run = judge(&dir, &[]);
        assert_eq!(run.code, 1, "{sample}: {run:?}");
        assert!(run.stderr.contains(&rel), "{sample}: {run:?}");
        assert_set_aside(&dir, &rel);
        let again = judge(&dir, &[]);
        assert_eq!(again.code, 0, "{sample}: {again:?}");
        assert!(again.stdout.contains("nothing new"), "{sample}: {again:?}");
        let verify = qj(&["verify", dir.to_str().unwrap()]);
        assert_eq!(verify.code, 0, "{sample}: {verify:?}");
    }
}

/// The key file of `seat` in a sample's `keys/`: the one whose public half the manifest lists.
fn key_name(dir: &Path, seat: &str) -> String {
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(dir.join("game.toml")).unwrap()).unwrap();
    let players = manifest["players"].as_array().unwrap();
    let line = players
        .iter()
        .find(|p| p["seat"].as_str() == Some(seat))
        .unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    std::fs::read_dir(dir.join("keys"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pub"))
        .find(|n| {
            let text = std::fs::read_to_string(dir.join("keys").join(n)).unwrap();
            text.split_whitespace().nth(1) == line.split_whitespace().nth(1)
        })
        .map(|n| n.trim_end_matches(".pub").to_string())
        .unwrap_or_else(|| panic!("no key of {seat} in keys/"))
}
