//! A game can always go on: files that can never be accepted are refused without stopping the
//! game, and what a player can know is wrong is never written.

use super::helpers::*;
use qijudge::protocol::signing::namespace;
use std::path::Path;

/// Writes `text` signed by `signer` as `moves/NAME` and its `.sig`, as a tool that skips the
/// player's own check would (the judge is what is tried).
fn plant_signed(dir: &Path, keys: &Keys, name: &str, text: &str, signer: &str) {
    std::fs::write(dir.join(format!("moves/{name}")), text).unwrap();
    std::fs::write(
        dir.join(format!("moves/{name}.sig")),
        sign_as(keys, signer, namespace::MOVE, text),
    )
    .unwrap();
}

/// A signed move for ply 10000 used to stop every later run ("unexpected file name"), so no
/// move and no deadline could ever be judged again. Now it is refused and play goes on.
#[test]
fn a_far_future_move_does_not_stop_the_game() {
    let g = TestGame::started(&[]);
    g.send("south", "a6-a7");
    let real = g.read("moves/0001-south.toml");
    plant_signed(
        &g.dir,
        &g.keys,
        "10000-south.toml",
        &real.replace("ply = 1\n", "ply = 10000\n"),
        "alice",
    );
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("moves/10000-south.toml"), "{r:?}");
    assert!(r.stdout.contains("ply 1: south a6-a7"), "{r:?}");
    // North moves; the judge takes it although the stray file is still there.
    g.send("north", "e7-e6");
    let r = g.judge();
    assert!(r.stdout.contains("ply 2: north"), "{r:?}");
    // And the judge can still end the game.
    let r = g.judge_with(&["--forfeit", "south:missed-deadline"]);
    assert!(r.stdout.contains("south forfeits"), "{r:?}");
    assert!(g.read("record.jsonl").contains("\"reason\":\"forfeit\""));
    // The audit checks what the record accepted; a file it never accepted is no part of it.
    ok(&["reveal", &g.d()]);
    ok(&["verify", &g.d()]);
}

/// The Liubo-only chain fields in a Luzhanqi move are refused (a 60 kB field used to ride into
/// the seat views and freeze a sealed game); the seat sends the move again without them.
#[test]
fn a_luzhanqi_move_with_chain_fields_is_refused() {
    let g = TestGame::started(&[]);
    g.send("south", "a6-a7");
    let real = g.read("moves/0001-south.toml");
    let padded = format!("{real}chain = \"{}\"\n", "ab".repeat(30_000));
    std::fs::remove_file(g.dir.join("moves/0001-south.toml.sig")).unwrap();
    plant_signed(&g.dir, &g.keys, "0001-south.toml", &padded, "alice");
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("moves/0001-south.toml") && r.stderr.contains("field chain"),
        "{r:?}"
    );
    assert!(!g.read("record.jsonl").contains("\"ply\":1"));
}

/// A comment beyond the limit is refused in every game, Xiangqi included (every accepted file
/// must fit a padded sealed view).
#[test]
fn an_overlong_comment_is_refused_in_xiangqi_too() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("xq").to_string_lossy().into_owned();
    new_game("xiangqi", d.as_ref(), &keys, &[]);
    let judge = || qj(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW]);
    assert_eq!(judge().code, 0);
    let long = "x".repeat(1001);
    ok(&[
        "move",
        &d,
        "--as",
        "red",
        "--key",
        &keys.path("alice"),
        "h2e2",
        "--comment",
        &long,
        "--no-check",
    ]);
    let r = judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("field comment"), "{r:?}");
}

/// Liubo in self mode: element 1 chooses who starts, so `move … reveal` refuses to publish it
/// before both commitments are on the record (the opponent could otherwise pick its seed to
/// choose the start); once they are, the reveal is written and accepted.
#[test]
fn a_self_mode_reveal_waits_for_both_commitments() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("game").to_string_lossy().into_owned();
    new_game("liubo", d.as_ref(), &keys, &["--rule", "dice-mode=self"]);
    let judge_run = || ok(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW]);
    ok(&["setup", &d, "--as", "a", "--key", &keys.path("alice")]);
    judge_run();
    let early = qj(&[
        "move",
        &d,
        "--as",
        "a",
        "--key",
        &keys.path("alice"),
        "reveal",
    ]);
    assert_ne!(early.code, 0, "{early:?}");
    assert!(early.stderr.contains("commitments"), "{early:?}");
    assert!(!tmp.path().join("game/moves/0000-a.toml").exists());
    ok(&["setup", &d, "--as", "b", "--key", &keys.path("bob")]);
    judge_run();
    ok(&[
        "move",
        &d,
        "--as",
        "a",
        "--key",
        &keys.path("alice"),
        "reveal",
    ]);
    let r = judge_run();
    assert!(r.stdout.contains("ply 0: a reveal"), "{r:?}");
}

fn judge_at(d: &str, keys: &Keys, at: &str) -> Run {
    qj(&["judge", d, "--key", &keys.path("judge"), "--now", at])
}

/// A refused move used to hold its ply for ever: the corrected move could not be sent, and the
/// clock then forfeited the seat. Now the refused file is set aside, the seat learns why (its
/// note, `status`, `view`), sends a corrected move, and the clock keeps running meanwhile.
#[test]
fn a_refused_move_frees_its_ply_and_the_clock_keeps_running() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    // Made at 12:00; 60 minutes a move, 30 of grace.
    let dir = tmp.path().join("xq");
    new_game("xiangqi", &dir, &keys, &["--clock", "60:30"]);
    let d = dir.to_string_lossy().into_owned();
    let dir = dir.as_path();
    assert_eq!(judge_at(&d, &keys, "2026-11-21T12:00:00Z").code, 0);
    let mv = |seat: &str, key: &str, m: &str| {
        ok(&["move", &d, "--as", seat, "--key", &keys.path(key), m]);
    };
    // A legal move written by `move`, then its text replaced and signed again: what a player's
    // own tool could send.
    let send_instead = |seat: &str, key: &str, legal: &str, sent: &str, file: &str| {
        mv(seat, key, legal);
        let text = std::fs::read_to_string(dir.join("moves").join(file)).unwrap();
        std::fs::remove_file(dir.join("moves").join(file)).unwrap();
        plant_signed(dir, &keys, file, &text.replace(legal, sent), key);
    };
    // Red's typo: the rook cannot pass its own pawn.
    send_instead("red", "alice", "h2e2", "a0a5", "0001-red.toml");
    let r = judge_at(&d, &keys, "2026-11-21T12:05:00Z");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("moves/0001-red.toml"), "{r:?}");
    assert_set_aside(dir, "moves/0001-red.toml");
    let note = std::fs::read_to_string(dir.join("views/red.refusal.txt")).unwrap();
    assert!(
        note.contains("moves/0001-red.toml") && note.contains("a0a5"),
        "{note}"
    );
    // Judged again with nothing new: the note stays until red's next file is accepted.
    assert_eq!(judge_at(&d, &keys, "2026-11-21T12:06:00Z").code, 0);
    assert!(dir.join("views/red.refusal.txt").exists());
    let status = ok(&["status", &d, "--now", "2026-11-21T12:06:00Z"]);
    assert!(
        status
            .stdout
            .contains("red: a file was refused and set aside"),
        "{}",
        status.stdout
    );
    let view = ok(&["view", &d, "--as", "red"]);
    assert!(view.stderr.contains("a0a5"), "{view:?}");
    // The corrected move takes the same ply.
    mv("red", "alice", "h2e2");
    let r = judge_at(&d, &keys, "2026-11-21T12:30:00Z");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("ply 1"), "{r:?}");
    assert!(!dir.join("views/red.refusal.txt").exists());
    // Black's illegal answer is set aside too, and black's time goes on running: due 13:30,
    // grace until 14:00, then black forfeits.
    send_instead("black", "bob", "h9g7", "h9h5", "0002-black.toml");
    assert_eq!(judge_at(&d, &keys, "2026-11-21T12:40:00Z").code, 1);
    assert_set_aside(dir, "moves/0002-black.toml");
    let r = judge_at(&d, &keys, "2026-11-21T14:01:00Z");
    assert!(
        r.stdout.contains("black forfeits (missed-deadline)"),
        "{r:?}"
    );
    ok(&["verify", &d]);
}

/// A file for another seat's turn or in a stranger's name is set aside like any refused file:
/// the seat whose name it carries can still send its real move.
#[test]
fn a_strangers_move_in_a_seats_name_does_not_take_its_place() {
    let g = TestGame::started(&[]);
    g.send("south", "a6-a7");
    let real = g.read("moves/0001-south.toml");
    std::fs::remove_file(g.dir.join("moves/0001-south.toml")).unwrap();
    std::fs::remove_file(g.dir.join("moves/0001-south.toml.sig")).unwrap();
    plant_signed(&g.dir, &g.keys, "0001-south.toml", &real, "mallory");
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert_set_aside(&g.dir, "moves/0001-south.toml");
    // South's real move goes in after it.
    g.send("south", "a6-a7");
    let r = g.judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("ply 1: south a6-a7"), "{r:?}");
}
