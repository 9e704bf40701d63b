//! A game can always go on: files that can never be accepted are refused without stopping the
//! game, and what a player can know is wrong is never written.

use super::helpers::*;
use qijudge::protocol::signing::{self, namespace};

fn private_key(g: &TestGame, name: &str) -> ssh_key::PrivateKey {
    ssh_key::PrivateKey::read_openssh_file(std::path::Path::new(&g.keys.path(name))).unwrap()
}

/// Writes `text` signed by `signer` as `moves/NAME` and its `.sig`.
fn plant_signed(g: &TestGame, name: &str, text: &str, signer: &str) {
    let key = private_key(g, signer);
    g.write(&format!("moves/{name}"), text);
    g.write(
        &format!("moves/{name}.sig"),
        &signing::sign(&key, namespace::MOVE, text.as_bytes()),
    );
}

/// A signed move for ply 10000 used to stop every later run ("unexpected file name"), so no
/// move and no deadline could ever be judged again. Now it is refused and play goes on.
#[test]
fn a_far_future_move_does_not_stop_the_game() {
    let g = TestGame::started(&[]);
    g.send("south", "a6-a7");
    let real = g.read("moves/0001-south.toml");
    plant_signed(
        &g,
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
    plant_signed(&g, "0001-south.toml", &padded, "alice");
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
