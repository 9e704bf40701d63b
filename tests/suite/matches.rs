//! Bot matches: every game is a signed, verifiable game directory; misbehaving bots lose with
//! the reason recorded; interrupted matches resume; shards merge; bots see only their view.
//! The Python bots need python3 (`.ci/run` installs it).

use super::helpers::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn match_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "match", "--game", "luzhanqi", "--out", out, "--format", "json",
    ];
    v.extend_from_slice(extra);
    v
}

fn standings(json: &str) -> (serde_json::Value, serde_json::Value) {
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    (v["standings"].clone(), v["crosstable"].clone())
}

/// (winner name, reason, plies) per game, in game order.
fn results(json: &str) -> Vec<(serde_json::Value, serde_json::Value, serde_json::Value)> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["winner"].clone(), g["reason"].clone(), g["plies"].clone()))
        .collect()
}

#[test]
fn a_match_between_builtin_bots_verifies_game_by_game() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let r = ok(&match_args(
        &out,
        &[
            "--bot",
            "builtin:random",
            "--bot",
            "builtin:greedy",
            "--games",
            "4",
            "--concurrency",
            "2",
        ],
    ));
    let games: Vec<PathBuf> = (1..=4)
        .map(|k| Path::new(&out).join(format!("games/game-{k:05}")))
        .collect();
    for g in &games {
        let v = ok(&["verify", &g.to_string_lossy()]);
        assert!(v.stdout.starts_with("verified game"), "{v:?}");
        let manifest = std::fs::read_to_string(g.join("game.toml")).unwrap();
        assert!(manifest.contains("name = \"random\"") && manifest.contains("name = \"greedy\""));
    }
    // Colours alternate.
    let south = |k: usize| {
        std::fs::read_to_string(games[k].join("game.toml"))
            .unwrap()
            .split("[[players]]")
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert_ne!(south(0).contains("random"), south(1).contains("random"));
    // The standings follow from the files alone.
    let t = ok(&[
        "tournament",
        &format!("{out}/games"),
        "--format",
        "json",
        "--threads",
        "3",
    ]);
    assert_eq!(standings(&t.stdout), standings(&r.stdout));
    let v: serde_json::Value = serde_json::from_str(&t.stdout).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 4);
    for f in ["text", "csv", "markdown"] {
        let x = ok(&["tournament", &format!("{out}/games"), "--format", f]);
        assert!(
            x.stdout.contains("greedy") && x.stdout.contains("random"),
            "{f}: {}",
            x.stdout
        );
    }
}

#[test]
fn misbehaving_bots_lose_with_the_reason_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let script = root()
        .join("tests/bots/misbehave.py")
        .to_string_lossy()
        .into_owned();
    for (mode, code) in [
        ("crash", "bot-crashed"),
        ("hang", "bot-timeout"),
        ("garbage", "bot-garbage"),
        ("illegal", "bot-illegal-move"),
        ("badsetup", "bot-bad-setup"),
    ] {
        let out = tmp.path().join(mode).to_string_lossy().into_owned();
        let bad = format!("bad={PYTHON} {script} {mode}");
        let examples = root().join("examples/bots").to_string_lossy().into_owned();
        let start = Instant::now();
        let r = ok(&match_args(
            &out,
            &[
                "--bot",
                "builtin:random",
                "--bot",
                &bad,
                "--games",
                "2",
                "--time-ms",
                "2500",
                // The test bot imports the example bot: a module it is granted to read.
                "--bot-read",
                &examples,
            ],
        ));
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{mode}: the match did not go on"
        );
        for k in 1..=2 {
            let g = Path::new(&out).join(format!("games/game-{k:05}"));
            let record = std::fs::read_to_string(g.join("record.jsonl")).unwrap();
            assert!(
                record.contains("\"kind\":\"forfeit\"")
                    && record.contains(&format!("\"reason\":\"{code}\"")),
                "{mode}: {record}"
            );
            ok(&["verify", &g.to_string_lossy()]);
        }
        let (table, _) = standings(&r.stdout);
        let bad_line = table
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "bad")
            .unwrap();
        assert_eq!(
            (bad_line["losses"].as_u64(), bad_line["wins"].as_u64()),
            (Some(2), Some(0)),
            "{mode}"
        );
    }
}

#[test]
fn an_interrupted_match_resumes_to_the_same_result_and_shards_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = [
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:greedy",
        "--games",
        "6",
        "--seed",
        "7",
    ];
    let whole = tmp.path().join("whole").to_string_lossy().into_owned();
    let a = ok(&match_args(&whole, &bots));

    // Interrupt a second run once two games are done, then run it again.
    let resumed = tmp.path().join("resumed");
    let r = resumed.to_string_lossy().into_owned();
    let mut child = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(match_args(&r, &bots))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let completed = || {
        std::fs::read_to_string(resumed.join("match.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .map(|v| v["completed"].as_array().map(|a| a.len()).unwrap_or(0))
            .unwrap_or(0)
    };
    let start = Instant::now();
    while completed() < 2 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        completed() < 6,
        "the match finished before it could be interrupted"
    );
    let b = ok(&match_args(&r, &bots));
    assert_eq!(results(&b.stdout), results(&a.stdout));
    assert_eq!(standings(&b.stdout), standings(&a.stdout));

    // Two shards, merged by tournament, give the unsharded standings.
    let s0 = tmp.path().join("s0").to_string_lossy().into_owned();
    let s1 = tmp.path().join("s1").to_string_lossy().into_owned();
    let mut args0 = bots.to_vec();
    args0.extend(["--shard", "0/2"]);
    let mut args1 = bots.to_vec();
    args1.extend(["--shard", "1/2"]);
    ok(&match_args(&s0, &args0));
    ok(&match_args(&s1, &args1));
    let merged = ok(&[
        "tournament",
        &format!("{s0}/games"),
        &format!("{s1}/games"),
        "--format",
        "json",
    ]);
    assert_eq!(standings(&merged.stdout), standings(&a.stdout));
    // A different match in the same folder is refused.
    let clash = qj(&match_args(
        &whole,
        &[
            "--bot",
            "builtin:random",
            "--bot",
            "builtin:greedy",
            "--games",
            "3",
        ],
    ));
    assert_eq!(clash.code, 2, "{clash:?}");
}

/// The interpreter for Python bots, by its absolute path in a system folder (a sandboxed bot
/// reads only system folders and what it is granted; `.ci/run` installs it).
const PYTHON: &str = "/usr/bin/python3";

#[test]
fn a_process_bot_cannot_reach_the_match_folder_or_any_key() {
    let tmp = tempfile::tempdir().unwrap();
    let report = tmp.path().join("report");
    std::fs::create_dir(&report).unwrap();
    let out = tmp.path().join("m");
    let bot = format!(
        "snoop={PYTHON} {} {} {} {}",
        root().join("tests/bots/snoop.py").display(),
        report.display(),
        out.display(),
        root().join("examples/bots/random_bot.py").display()
    );
    let o = out.to_string_lossy().into_owned();
    ok(&match_args(
        &o,
        &[
            "--bot",
            "builtin:random",
            "--bot",
            &bot,
            "--games",
            "2",
            "--bot-write",
            &report.to_string_lossy(),
        ],
    ));
    let mut attempts = 0;
    for f in std::fs::read_dir(&report).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        for line in text.lines() {
            attempts += 1;
            if line.starts_with("own folder") {
                assert!(line.ends_with("SUCCEEDED"), "{line}");
            } else {
                assert!(line.contains("denied"), "the bot got through: {line}");
            }
        }
    }
    // Started three times: the check before the first game, then once per game.
    assert_eq!(
        attempts,
        3 * 6,
        "each start of the bot reported every attempt"
    );
    assert!(!out.join("planted.txt").exists());
    // The match itself went on as usual and verifies.
    ok(&["verify", &out.join("games/game-00001").to_string_lossy()]);
}

#[test]
fn a_bot_never_sees_an_enemy_rank() {
    let tmp = tempfile::tempdir().unwrap();
    // The spy writes its log where the organiser lets it (--bot-write).
    let spy = tmp.path().join("spy");
    std::fs::create_dir(&spy).unwrap();
    let log = spy.join("received.jsonl");
    let bot = format!(
        "spy={PYTHON} {} --log {}",
        root().join("examples/bots/random_bot.py").display(),
        log.display()
    );
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    ok(&match_args(
        &out,
        &[
            "--bot",
            "builtin:greedy",
            "--bot",
            &bot,
            "--games",
            "2",
            "--rule",
            "reveal-flag-on-marshal-death=false",
            "--bot-write",
            &spy.to_string_lossy(),
        ],
    ));
    let text = std::fs::read_to_string(&log).unwrap();
    let mut moves = 0;
    for line in text.lines() {
        let msg: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(view) = msg.get("view") else {
            assert_eq!(msg["type"], "setup");
            continue;
        };
        let me = view["audience"].as_str().unwrap();
        assert!(me == "south" || me == "north", "a bot got the {me} view");
        for p in view["pieces"].as_array().unwrap() {
            if p["seat"] != me {
                assert!(p["piece"].is_null(), "the spy saw an enemy rank: {p}");
            }
        }
        assert!(view["opponent_last_move"]["file"]
            .as_str()
            .is_none_or(|f| !f.contains("salt")));
        moves += usize::from(msg["type"] == "move");
    }
    assert!(moves > 10, "{moves}");
}

#[test]
fn tournaments_count_invalid_games_and_ignore_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let exe = env!("CARGO_BIN_EXE_qijudge");
    // Built-in bots behind the line protocol, as child processes.
    let (a, b) = (format!("r={exe} bot random"), format!("g={exe} bot greedy"));
    ok(&match_args(
        &out,
        &["--bot", &a, "--bot", &b, "--games", "4"],
    ));
    let games = format!("{out}/games");
    let one = ok(&["tournament", &games, "--threads", "1", "--format", "json"]);
    let three = ok(&["tournament", &games, "--threads", "3", "--format", "json"]);
    assert_eq!(one.stdout, three.stdout);
    // A copy of a game (a hand-merged shard) counts once, and the report says so.
    let copy = Path::new(&games).join("game-00001-copy");
    copy_dir(&Path::new(&games).join("game-00001"), &copy);
    let merged = ok(&["tournament", &games, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&merged.stdout).unwrap();
    let once: serde_json::Value = serde_json::from_str(&one.stdout).unwrap();
    assert_eq!(
        v["standings"], once["standings"],
        "the copy changes no standing"
    );
    assert_eq!(v["duplicates"].as_array().unwrap().len(), 1, "{v}");
    assert!(v["duplicates"][0]["dir"]
        .as_str()
        .unwrap()
        .ends_with("game-00001-copy"));
    let text = ok(&["tournament", &games]).stdout;
    assert!(text.contains("1 duplicate copy counted once"), "{text}");
    std::fs::remove_dir_all(&copy).unwrap();
    // Tamper with one game: it is listed as invalid, the others still count, exit code 1.
    let victim = Path::new(&games).join("game-00002/record.jsonl");
    let text = std::fs::read_to_string(&victim).unwrap();
    std::fs::write(&victim, text.replacen("\"seq\":1", "\"seq\":1 ", 1)).unwrap();
    let r = qj(&["tournament", &games, "--format", "json"]);
    assert_eq!(r.code, 1, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 3);
    assert_eq!(v["invalid"].as_array().unwrap().len(), 1);
    assert!(v["invalid"][0]["dir"]
        .as_str()
        .unwrap()
        .ends_with("game-00002"));
}

#[test]
fn greedy_beats_random() {
    use qijudge::tournament::runner::{run_match, BotEntry, MatchConfig};
    let tmp = tempfile::tempdir().unwrap();
    let bots = vec![
        BotEntry::parse("builtin:greedy"),
        BotEntry::parse("builtin:random"),
    ];
    let mut cfg = MatchConfig::new("luzhanqi", bots, tmp.path()).unwrap();
    cfg.games = 16;
    cfg.concurrency = 2;
    cfg.seed = 11;
    cfg.now = NOW.into();
    let games = run_match(&cfg, &|_, _| {}).unwrap();
    assert_eq!(games.len(), 16);
    let greedy = games
        .iter()
        .filter(|g| g.winner.as_deref() == Some("greedy"))
        .count();
    assert!(greedy >= 11, "greedy won only {greedy} of 16");
}

/// A match of `game` (with extra arguments) between the built-in bots: every game directory
/// passes `verify`, and `tournament` counts them all from the files alone.
fn match_of_every_game_kind(game: &str, extra: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let mut args = vec![
        "match",
        "--game",
        game,
        "--bot",
        "g=builtin:greedy",
        "--bot",
        "r=builtin:random",
        "--games",
        "2",
        "--out",
        &out,
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let r = ok(&args);
    let games = results(&r.stdout);
    assert_eq!(games.len(), 2, "{}", r.stdout);
    for k in 1..=2 {
        let dir = Path::new(&out).join(format!("games/game-{k:05}"));
        let v = ok(&["verify", &dir.to_string_lossy()]);
        assert!(v.stdout.starts_with("verified"), "{v:?}");
    }
    let t = ok(&[
        "tournament",
        &Path::new(&out).join("games").to_string_lossy(),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&t.stdout).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 2, "{}", t.stdout);
    assert!(v["invalid"].as_array().unwrap().is_empty(), "{}", t.stdout);
    // Resuming a finished match plays nothing again and gives the same standings.
    let again = ok(&args);
    assert_eq!(again.stdout, r.stdout);
}

#[test]
fn a_xiangqi_match_between_builtin_bots_verifies() {
    match_of_every_game_kind("xiangqi", &[]);
}

#[test]
fn a_liubo_match_between_builtin_bots_verifies() {
    match_of_every_game_kind("liubo", &[]);
}

#[test]
fn a_four_player_match_between_builtin_bots_verifies() {
    // Each bot plays a team; a ply limit keeps the test short.
    match_of_every_game_kind("luzhanqi", &["--board", "cross4", "--rule", "max-plies=40"]);
}

#[test]
fn a_liubo_match_in_self_mode_is_refused_with_its_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let r = qj(&[
        "match",
        "--game",
        "liubo",
        "--bot",
        "builtin:random",
        "--bot",
        "g=builtin:greedy",
        "--games",
        "1",
        "--rule",
        "dice_mode=self",
        "--out",
        &out,
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("dice_mode=self"), "{}", r.stderr);
}

/// A bot that cannot run is refused before the first game, with the command to try by hand;
/// no game is played. A resume with other settings names the settings that differ.
#[test]
fn a_dead_bot_is_refused_before_the_start_and_a_mismatch_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dead = format!("dead={PYTHON} /nonexistent/bot.py");
    for (game, why) in [
        ("luzhanqi", "did not answer its setup request (bot-crashed)"),
        ("xiangqi", "stopped before its first request"),
    ] {
        let out = tmp.path().join(game).to_string_lossy().into_owned();
        let r = qj(&[
            "match",
            "--game",
            game,
            "--out",
            &out,
            "--bot",
            "builtin:random",
            "--bot",
            &dead,
        ]);
        assert_eq!(r.code, 2, "{game}: {r:?}");
        assert!(
            r.stderr.contains(&format!("--bot dead: {why}"))
                && r.stderr.contains("try the command by hand"),
            "{game}: {r:?}"
        );
        assert!(
            !Path::new(&out).join("games").exists(),
            "{game}: no game played"
        );
    }
    // A match, then the same folder with another seed and game count.
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let bots = ["--bot", "builtin:random", "--bot", "builtin:greedy"];
    let mut first = match_args(&out, &bots);
    first.extend(["--games", "1", "--seed", "7"]);
    ok(&first);
    let mut other = match_args(&out, &bots);
    other.extend(["--games", "2", "--seed", "8"]);
    let r = qj(&other);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("--games: 1 there, 2 now") && r.stderr.contains("--seed: 7 there, 8 now"),
        "{r:?}"
    );
}
