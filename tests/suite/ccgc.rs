//! Luzhanqi programs of the Chinese computer-game competitions (`ccgc:COMMAND`): a real child
//! process written from the 2012 protocol's text (`tests/bots/ccgc_engine.py`), which checks
//! every message against the protocol's fixed format and every opponent move against the board
//! turned into its own frame; the competition's attack-wait limit as a rule.

use super::helpers::*;
use super::matches::{results, root};
use std::path::Path;

const PYTHON: &str = "/usr/bin/python3";

fn engine(name: &str, extra: &str) -> String {
    format!(
        "{name}=ccgc:{PYTHON} {} {extra}",
        root().join("tests/bots/ccgc_engine.py").display()
    )
}

/// Two CCGC programs play two games (colours reversed): the first mover attacks at once and
/// wins the combat (RESULT 1), then both step in and out of a camp; with the attack-wait limit
/// at 10 the side that had to attack loses at ply 11. Every game verifies; the exchange the
/// first program saw is the protocol's, field widths included.
#[test]
fn ccgc_programs_play_luzhanqi_through_the_protocol() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("a.log");
    let a = engine("a", &format!("log={}", log.display()));
    let b = engine("b", "");
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "luzhanqi",
        "--bot",
        &a,
        "--bot",
        &b,
        "--games",
        "2",
        "--rule",
        "attack-wait=10",
        "--bot-write",
        &tmp.path().to_string_lossy(),
        "--out",
        &out,
        "--format",
        "json",
    ]);
    // Game 1: a is south and moves first; game 2: b does.
    assert_eq!(
        results(&r.stdout),
        [
            ("a".into(), "attack wait".into(), 11.into()),
            ("b".into(), "attack wait".into(), 11.into())
        ],
        "{}",
        r.stdout
    );
    for k in 1..=2 {
        let dir = Path::new(&out).join(format!("games/game-{k:05}"));
        ok(&["verify", &dir.to_string_lossy()]);
        let record = std::fs::read_to_string(dir.join("record.jsonl")).unwrap();
        assert!(record.contains("\"reason\":\"attack_wait\""), "{record}");
    }
    let told = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = told.lines().collect();
    // The check before the match, then game 1 as south (first), then game 2 as north.
    assert_eq!(&lines[..2], ["INFO 1.0", "START 0 0005 10"]);
    assert_eq!(
        &lines[2..5],
        ["INFO 1.0", "START 0 0005 10", "GO 0000 0 00"]
    );
    assert_eq!(lines[5], "RESULT 1 00", "{told}");
    assert_eq!(lines[6], "GO E4E3 3 00", "{told}");
    let second = lines.iter().rposition(|l| l.starts_with("START ")).unwrap();
    assert_eq!(lines[second], "START 1 0005 10");
    // North is told south's G0F0 turned half round: F4G4, a won combat.
    assert_eq!(lines[second + 1], "GO F4G4 1 00", "{told}");
    assert_eq!(lines.iter().filter(|l| **l == "END").count(), 2, "{told}");
}

/// An ARRAY that breaks the setup rules (the flag outside a headquarters) is refused as any
/// setup is: the program loses the game as `bot-bad-setup` before play.
#[test]
fn a_ccgc_array_is_checked_as_any_setup() {
    let tmp = tempfile::tempdir().unwrap();
    // The log's layout with the flag (L1) and the lieutenant on G2 exchanged.
    let bad = engine("bad", "array=cdlghkecebikifgjaijgjhfhd");
    let good = engine("good", "");
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "luzhanqi",
        "--bot",
        &good,
        "--bot",
        &bad,
        "--games",
        "1",
        "--out",
        &out,
        "--format",
        "json",
    ]);
    assert_eq!(
        results(&r.stdout),
        [("good".into(), "forfeit (bot-bad-setup)".into(), 0.into())],
        "{}",
        r.stdout
    );
    ok(&[
        "verify",
        &Path::new(&out).join("games/game-00001").to_string_lossy(),
    ]);
}

/// A program that thinks past the time it is announced (600 ms for 300) loses on time, unless
/// the organiser gives it a grace (`--engine NAME:timemargin=MS`, the announced time unchanged);
/// with a whole-game clock (`--tc 1800`, as the 2019 platform ran it) START announces the
/// clock's 1800 s.
#[test]
fn a_slow_ccgc_program_gets_its_grace_and_the_whole_game_clock_is_announced() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("slow.log");
    let slow = engine("slow", &format!("log={} think=600", log.display()));
    let quick = engine("quick", "");
    let play = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "match",
            "--folders",
            "--game",
            "luzhanqi",
            "--bot",
            &slow,
            "--bot",
            &quick,
            "--games",
            "1",
            "--rule",
            "attack-wait=4",
            "--time-ms",
            "300",
            "--bot-write",
        ];
        let write = tmp.path().to_string_lossy().into_owned();
        args.push(&write);
        args.extend(["--out", out, "--format", "json"]);
        args.extend(extra);
        let r = qj(&args);
        assert_eq!(r.code, 0, "{r:?}");
        results(&r.stdout)
    };
    let dir = |name: &str| tmp.path().join(name).to_string_lossy().into_owned();
    let without = play(&dir("without"), &[]);
    assert_eq!(without[0].1, "forfeit (bot-timeout)", "{without:?}");
    let with = play(&dir("with"), &["--engine", "slow:timemargin=1000"]);
    assert_eq!(with[0].1, "attack wait", "{with:?}");
    // The announced time stays the time a move: 300 ms, written as 0 whole seconds.
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.contains("START 0 0000 04\n"), "{told}");
    let clocked = play(
        &dir("clocked"),
        &["--engine", "slow:timemargin=1000", "--tc", "1800"],
    );
    assert_eq!(clocked[0].1, "attack wait", "{clocked:?}");
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.contains("START 0 1800 04\n"), "{told}");
}
