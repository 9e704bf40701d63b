//! Bot matches: every game is a signed, verifiable game directory; misbehaving bots lose with
//! the reason recorded; interrupted matches resume; shards merge; bots see only their view.
//! The Python bots need python3 (`.ci/run` installs it).

use super::helpers::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub(super) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn match_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "match",
        "--folders",
        "--game",
        "luzhanqi",
        "--out",
        out,
        "--format",
        "json",
    ];
    v.extend_from_slice(extra);
    v
}

fn standings(json: &str) -> (serde_json::Value, serde_json::Value) {
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    (v["standings"].clone(), v["crosstable"].clone())
}

/// (winner name, reason, plies) per game, in game order.
pub(super) fn results(
    json: &str,
) -> Vec<(serde_json::Value, serde_json::Value, serde_json::Value)> {
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

/// A bot that says it reads no views gets none: its move requests carry `"view": null` (the
/// test bot crashes on any view, which would end its games as `bot-crashed`).
#[test]
fn a_bot_that_waives_its_views_is_sent_none() {
    let tmp = tempfile::tempdir().unwrap();
    let script = root()
        .join("tests/bots/misbehave.py")
        .to_string_lossy()
        .into_owned();
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let lean = format!("lean={PYTHON} {script} noviews");
    let examples = root().join("examples/bots").to_string_lossy().into_owned();
    ok(&match_args(
        &out,
        &[
            "--bot",
            "builtin:random",
            "--bot",
            &lean,
            "--games",
            "2",
            "--bot-read",
            &examples,
        ],
    ));
    for k in 1..=2 {
        let g = Path::new(&out).join(format!("games/game-{k:05}"));
        let record = std::fs::read_to_string(g.join("record.jsonl")).unwrap();
        assert!(!record.contains("\"kind\":\"forfeit\""), "{record}");
        assert!(record.contains("\"kind\":\"end\""), "{record}");
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
        // The ending names the failure, as the record does.
        for (_, reason, _) in results(&r.stdout) {
            assert_eq!(reason, format!("forfeit ({code})"), "{mode}");
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
            "--tc",
            "600+1",
        ],
    ));
    let text = std::fs::read_to_string(&log).unwrap();
    // Every request follows the published schema (the clock included), and so does the
    // match state.
    let compiled = |name: &str| {
        let text = qijudge::schemas::all()
            .into_iter()
            .find(|(n, _)| n == name)
            .unwrap()
            .1;
        jsonschema::JSONSchema::compile(&serde_json::from_str(&text).unwrap()).unwrap()
    };
    let requests = compiled("bot-request.schema.json");
    for line in text.lines() {
        let msg: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(requests.is_valid(&msg), "{line}");
    }
    assert!(
        text.contains("\"clock\":{\"remaining_ms\":{\"north\":"),
        "{text}"
    );
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(&out).join("match.json")).unwrap())
            .unwrap();
    assert!(
        compiled("match-state.schema.json").is_valid(&state),
        "{state}"
    );
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
    let games = run_match(&cfg, &|_| false).unwrap().games;
    assert_eq!(games.len(), 16);
    let greedy = games
        .iter()
        .filter(|g| g.winner.as_deref() == Some("greedy"))
        .count();
    assert!(greedy >= 11, "greedy won only {greedy} of 16");
}

/// A match of `game` (with extra arguments) between built-in bots, one game per encounter:
/// every game passes `verify`, `tournament` counts them all from the files alone, and a resume
/// of the finished match plays nothing again. Returns the match's JSON report and its folder.
fn match_of_every_game_kind(
    tmp: &Path,
    game: &str,
    bots: &[&str],
    extra: &[&str],
) -> (serde_json::Value, PathBuf) {
    let out = tmp.join("m").to_string_lossy().into_owned();
    let mut args = vec![
        "match",
        "--folders",
        "--game",
        game,
        "--out",
        &out,
        "--format",
        "json",
    ];
    if !extra.contains(&"--games") {
        args.extend(["--games", "1"]);
    }
    for b in bots {
        args.extend(["--bot", b]);
    }
    args.extend_from_slice(extra);
    let r = ok(&args);
    let report: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let n = report["games"].as_array().unwrap().len();
    for k in 1..=n {
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
    assert_eq!(v["games"].as_array().unwrap().len(), n, "{}", t.stdout);
    assert!(v["invalid"].as_array().unwrap().is_empty(), "{}", t.stdout);
    assert_eq!(standings(&t.stdout), standings(&r.stdout));
    // Resuming a finished match plays nothing again and gives the same standings.
    let again = ok(&args);
    assert_eq!(again.stdout, r.stdout);
    (report, PathBuf::from(out))
}

/// The players of each game, as (seat, name) in seat order, from the manifests.
fn seatings(out: &Path, n: usize) -> Vec<Vec<(String, String)>> {
    (1..=n)
        .map(|k| {
            let text =
                std::fs::read_to_string(out.join(format!("games/game-{k:05}/game.toml"))).unwrap();
            let m: toml::Table = toml::from_str(&text).unwrap();
            m["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p["seat"].as_str().unwrap().to_string(),
                        p["name"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .collect()
}

/// Three bots, every pair meeting once: three games, each bot in two of them.
fn round_robin_of_three(game: &str, extra: &[&str]) {
    let bots = ["a=builtin:greedy", "b=builtin:random", "c=builtin:greedy"];
    let tmp = tempfile::tempdir().unwrap();
    let (report, out) = match_of_every_game_kind(tmp.path(), game, &bots, extra);
    let pairs: Vec<Vec<String>> = seatings(&out, 3)
        .into_iter()
        .map(|s| {
            let mut names: Vec<String> = s.into_iter().map(|(_, n)| n).collect();
            names.sort();
            names.dedup();
            names
        })
        .collect();
    assert_eq!(
        pairs,
        [vec!["a", "b"], vec!["a", "c"], vec!["b", "c"]],
        "{game}"
    );
    for s in report["standings"].as_array().unwrap() {
        assert_eq!(s["games"], 2, "{game}: {s}");
    }
}

#[test]
fn a_round_robin_of_three_bots_at_xiangqi_verifies() {
    round_robin_of_three("xiangqi", &[]);
}

#[test]
fn a_round_robin_of_three_bots_at_jieqi_verifies() {
    round_robin_of_three("jieqi", &[]);
}

#[test]
fn a_round_robin_of_three_bots_at_banqi_verifies() {
    round_robin_of_three("banqi", &[]);
}

#[test]
fn a_round_robin_of_three_bots_at_liubo_verifies() {
    round_robin_of_three("liubo", &[]);
}

#[test]
fn a_round_robin_of_three_bots_at_luzhanqi_verifies() {
    round_robin_of_three("luzhanqi", &[]);
}

#[test]
fn a_four_player_match_of_two_teams_verifies() {
    // Each of two bots plays a team; a ply limit keeps the test short.
    let bots = ["g=builtin:greedy", "r=builtin:random"];
    let args = ["--board", "cross4", "--rule", "max-plies=40"];
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = match_of_every_game_kind(tmp.path(), "luzhanqi", &bots, &args);
    let seats = &seatings(&out, 1)[0];
    let names: Vec<&str> = seats.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["g", "r", "g", "r"], "opposite seats are one team");
}

#[test]
fn a_four_player_table_rotates_seats_and_partners() {
    let bots = [
        "a=builtin:greedy",
        "b=builtin:random",
        "c=builtin:random",
        "d=builtin:greedy",
    ];
    let args = [
        "--board",
        "cross4",
        "--rule",
        "max-plies=24",
        "--games",
        "3",
    ];
    let tmp = tempfile::tempdir().unwrap();
    let (report, out) = match_of_every_game_kind(tmp.path(), "luzhanqi", &bots, &args);
    // --games 3: three games of the one table of four.
    assert_eq!(report["games"].as_array().unwrap().len(), 3);
    let tables = seatings(&out, 3);
    let order = |t: &Vec<(String, String)>| t.iter().map(|(_, n)| n.as_str()).collect::<String>();
    // Each game turns the table one seat (south, east, north, west).
    assert_eq!(
        tables.iter().map(order).collect::<Vec<_>>(),
        ["abcd", "bcda", "cdab"]
    );
    for s in report["standings"].as_array().unwrap() {
        assert_eq!(s["games"], 3, "{s}");
    }
    // A team game counts against both opponents and not against the partner: a and c hold
    // opposite seats (partners) in the first three games, and never meet.
    let cross = &report["crosstable"];
    assert!(cross["a"].get("c").is_none(), "{cross}");
    assert_eq!(cross["a"]["b"][1], 3, "{cross}");
}

#[test]
fn a_gauntlet_plays_the_first_bot_against_each_other_only() {
    let bots = [
        "champion=builtin:greedy",
        "x=builtin:random",
        "y=builtin:random",
    ];
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--gauntlet", "--games", "2"];
    let (report, out) = match_of_every_game_kind(tmp.path(), "luzhanqi", &bots, &args);
    let games = seatings(&out, 4);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(g.iter().any(|(_, n)| n == "champion"), "{g:?}");
    }
    // Colours alternate within each encounter: the champion is South in games 1 and 2, North
    // in 3 and 4 (round by round).
    let south: Vec<&str> = games.iter().map(|g| g[0].1.as_str()).collect();
    assert_eq!(south, ["champion", "champion", "x", "y"]);
    let cross = &report["crosstable"];
    assert!(cross["x"].get("y").is_none(), "x and y never meet: {cross}");
}

#[test]
fn a_liubo_match_in_self_mode_is_refused_with_its_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let r = qj(&[
        "match",
        "--folders",
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
    // A program that starts and ends at once.
    let dead = "dead=/bin/false".to_string();
    for (game, why) in [
        ("luzhanqi", "did not answer its setup request (bot-crashed)"),
        ("xiangqi", "stopped before its first request"),
    ] {
        let out = tmp.path().join(game).to_string_lossy().into_owned();
        let r = qj(&[
            "match",
            "--folders",
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
    // A program that is not there is said to be missing, not to crash.
    for (bot, why) in [
        (
            "nosuch_bot.py",
            "--bot nosuch_bot: nosuch_bot.py: no such program in PATH",
        ),
        (
            &format!("dead={PYTHON} /nonexistent/bot.py") as &str,
            "--bot dead: /nonexistent/bot.py: no such file for /usr/bin/python3 to run",
        ),
        ("./nosuch", "--bot nosuch: ./nosuch: no such file"),
    ] {
        let out = tmp.path().join("missing").to_string_lossy().into_owned();
        let r = qj(&[
            "match",
            "--out",
            &out,
            "--bot",
            "builtin:random",
            "--bot",
            bot,
        ]);
        assert_eq!(r.code, 2, "{bot}: {r:?}");
        assert!(r.stderr.contains(why), "{bot}: {r:?}");
        assert!(!r.stderr.contains("crashed"), "{bot}: {r:?}");
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
    assert!(r.stderr.contains("--seed: 7 there, 8 now"), "{r:?}");
    // More games extend the match: the game played is kept as it is, one more is played.
    let game1 = Path::new(&out).join("games/game-00001/record.jsonl");
    let before = std::fs::read(&game1).unwrap();
    let mut more = match_args(&out, &bots);
    more.extend(["--games", "2", "--seed", "7"]);
    let r = ok(&more);
    assert_eq!(results(&r.stdout).len(), 2, "{}", r.stdout);
    assert_eq!(std::fs::read(&game1).unwrap(), before);
    // Fewer would drop a game played.
    let r = qj(&first);
    assert!(
        r.code == 2 && r.stderr.contains("--games: 2 there, 1 now"),
        "{r:?}"
    );
}

/// The game folders and packed games a match left in OUT/games, by name.
fn kept_games(out: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(out.join("games"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The games OUT/match.json counts as finished.
fn completed(out: &Path) -> Vec<u64> {
    std::fs::read_to_string(out.join("match.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| {
            v["completed"]
                .as_array()
                .map(|a| a.iter().filter_map(|x| x.as_u64()).collect())
        })
        .unwrap_or_default()
}

/// Starts a match in a process group of its own, as a terminal runs a command, interrupts it
/// like Ctrl-C (SIGINT to the whole group, the bots included, unless they have their own) once
/// a game is done, `times` times 100 ms apart, and returns its exit code and standard error.
fn interrupted_match(args: &[&str], out: &Path, times: usize) -> (i32, String) {
    use std::os::unix::process::CommandExt;
    let child = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(args)
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while completed(out).is_empty() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    for _ in 0..times {
        // SAFETY: a plain kill(2) on the child's process group.
        unsafe { libc::kill(-(child.id() as i32), libc::SIGINT) };
        std::thread::sleep(Duration::from_millis(100));
    }
    let done = child.wait_with_output().unwrap();
    (
        done.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&done.stderr).into_owned(),
    )
}

fn slow_match_args(out: &str) -> Vec<String> {
    let slow = format!(
        "slow={PYTHON} {} slow",
        root().join("tests/bots/misbehave.py").display()
    );
    let examples = root().join("examples/bots").to_string_lossy().into_owned();
    [
        "match",
        "--folders",
        "--out",
        out,
        "--format",
        "json",
        "--bot",
        "builtin:greedy",
        "--bot",
        &slow,
        "--games",
        "4",
        "--concurrency",
        "2",
        "--seed",
        "5",
        "--bot-read",
        &examples,
    ]
    .map(String::from)
    .to_vec()
}

/// Ctrl-C lets the games in flight finish (their bots, in a process group of their own, do not
/// receive it), keeps every finished game and nothing half-written, exits 130 saying how to go
/// on; running the same command again completes the match with the result of a run never
/// interrupted.
#[test]
fn ctrl_c_finishes_the_games_in_flight_and_a_resume_equals_an_uninterrupted_run() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole").to_string_lossy().into_owned();
    let args = slow_match_args(&whole);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let a = ok(&args);

    let cut = tmp.path().join("cut");
    let args = slow_match_args(&cut.to_string_lossy());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stderr) = interrupted_match(&args, &cut, 1);
    assert_eq!(code, 130, "{stderr}");
    assert!(
        stderr.contains("interrupted: no game starts any more; finishing the")
            && stderr.contains("run the same command again to play the other"),
        "{stderr}"
    );
    let done = completed(&cut);
    assert!(done.len() < 4, "interrupted before the end: {done:?}");
    let names: Vec<String> = done.iter().map(|k| format!("game-{k:05}")).collect();
    assert_eq!(kept_games(&cut), names, "only finished games are kept");
    // No game lost by a bot killed by the interrupt.
    let partial: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cut.join("match.json")).unwrap()).unwrap();
    assert!(partial["completed"].is_array());

    let b = ok(&args);
    assert_eq!(results(&b.stdout), results(&a.stdout));
    assert_eq!(standings(&b.stdout), standings(&a.stdout));
    assert!(b.stderr.contains("resuming:"), "{}", b.stderr);
}

/// A second Ctrl-C drops the games in flight: their folders are removed, the finished ones
/// kept, and the match resumes from there.
#[test]
fn a_second_ctrl_c_drops_the_games_in_flight() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let args = slow_match_args(&out.to_string_lossy());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stderr) = interrupted_match(&args, &out, 2);
    assert_eq!(code, 130, "{stderr}");
    assert!(
        stderr.contains("interrupted again: dropping the games in flight"),
        "{stderr}"
    );
    let names: Vec<String> = completed(&out)
        .iter()
        .map(|k| format!("game-{k:05}"))
        .collect();
    assert_eq!(kept_games(&out), names, "dropped games leave nothing");
    let r = ok(&args);
    assert_eq!(results(&r.stdout).len(), 4);
}

/// By default a match keeps each game as one .tar.gz that `verify` and `tournament` read as it
/// is; the standings equal those of the same match with `--folders`; a game both packed and unpacked is
/// counted once; a packed game is never written to.
#[test]
fn packed_and_unpacked_games_give_equal_standings() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = [
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:greedy",
        "--games",
        "4",
        "--seed",
        "9",
    ];
    let folders = tmp.path().join("f").to_string_lossy().into_owned();
    let packed = tmp.path().join("p").to_string_lossy().into_owned();
    let a = ok(&match_args(&folders, &bots));
    // Packed is the default: the same match without `--folders`.
    let by_default: Vec<&str> = match_args(&packed, &bots)
        .into_iter()
        .filter(|a| *a != "--folders")
        .collect();
    let b = ok(&by_default);
    assert_eq!(standings(&a.stdout), standings(&b.stdout));
    assert_eq!(results(&a.stdout), results(&b.stdout));
    let files = kept_games(Path::new(&packed));
    assert_eq!(
        files,
        (1..=4)
            .map(|k| format!("game-{k:05}.tar.gz"))
            .collect::<Vec<_>>()
    );
    let one = format!("{packed}/games/game-00001.tar.gz");
    let v = ok(&["verify", &one]);
    assert!(v.stdout.starts_with("verified game"), "{v:?}");
    // Commands that only read take it too.
    let view = ok(&["view", &one, "--as", "public"]);
    assert!(view.stdout.contains("view for public"), "{view:?}");
    // The archive is an ordinary gzip-compressed tar file.
    let listing = Command::new("tar").args(["-tzf", &one]).output().unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    assert!(
        listing.lines().any(|l| l == "game.toml") && listing.contains("moves/"),
        "{listing}"
    );
    // tournament reads packed games, alone or beside folders.
    let t = ok(&["tournament", &format!("{packed}/games"), "--format", "json"]);
    assert_eq!(standings(&t.stdout), standings(&a.stdout));
    // Without the match's keys beside them, every game is named with why it does not count,
    // in the report and in the closing error.
    let alone = tmp.path().join("alone");
    std::fs::create_dir(&alone).unwrap();
    for k in 1..=4 {
        let name = format!("game-{k:05}.tar.gz");
        std::fs::copy(format!("{packed}/games/{name}"), alone.join(&name)).unwrap();
    }
    let t = qj(&["tournament", &alone.to_string_lossy()]);
    assert_eq!(t.code, 1, "{t:?}");
    assert_eq!(
        t.stdout.matches("invalid: ").count(),
        4,
        "each game named: {t:?}"
    );
    assert!(
        t.stderr
            .contains("4 of 4 games are invalid, each named with its reason in the report; 4 game(s): no judge to trust"),
        "{t:?}"
    );
    // `qijudge pack` on a folder: the copy and its archive count once.
    let g1 = Path::new(&folders).join("games/game-00001");
    let g1_copy = tmp.path().join("g1");
    copy_dir(&g1, &g1_copy);
    let p = ok(&["pack", &g1_copy.to_string_lossy()]);
    assert!(p.stdout.starts_with("packed "), "{p:?}");
    // A folder that is no finished game is not packed.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let r = qj(&["pack", &empty.to_string_lossy()]);
    assert_ne!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("game.toml"), "{r:?}");
    assert!(!tmp.path().join("empty.tar.gz").exists());
    // Outside their match folder, the games count once their judge is named.
    let both = ok(&[
        "tournament",
        &g1_copy.to_string_lossy(),
        &format!("{}.tar.gz", g1_copy.display()),
        "--format",
        "json",
        "--judge",
        &format!("{folders}/keys/judge.pub"),
    ]);
    let v: serde_json::Value = serde_json::from_str(&both.stdout).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 1, "{}", both.stdout);
    assert_eq!(
        v["duplicates"].as_array().unwrap().len(),
        1,
        "{}",
        both.stdout
    );
    // Written to, a packed game refuses and stays as it was.
    let before = std::fs::read(&one).unwrap();
    let j = qj(&["judge", &one, "--key", &format!("{packed}/keys/judge")]);
    assert_eq!(j.code, 1, "{j:?}");
    assert!(
        j.stderr.contains("is a packed game, which is only read"),
        "{j:?}"
    );
    assert_eq!(std::fs::read(&one).unwrap(), before);
    // A damaged archive is refused by name.
    let bad = tmp.path().join("bad.tar.gz");
    std::fs::write(&bad, &before[..before.len() / 2]).unwrap();
    let r = qj(&["verify", &bad.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("cannot be read as a packed game"),
        "{r:?}"
    );
}

/// The ICCS moves of the shipped Xiangqi sample game, in a file a test engine plays from.
pub(super) fn sample_xiangqi_script(dir: &Path) -> (PathBuf, Vec<String>) {
    let moves = recorded_moves(&root().join("games/xiangqi/sample"));
    let path = dir.join("script.txt");
    std::fs::write(&path, moves.join("\n") + "\n").unwrap();
    (path, moves)
}

/// Two UCI engines, one naming squares as Fairy-Stockfish does (ranks 1-10, after
/// `UCI_Variant xiangqi`), one as Pikafish does (ranks 0-9), play the sample game move for
/// move through the adapter with a clock; the judge's record is that game and it verifies.
#[test]
fn uci_engines_play_xiangqi_through_the_adapter() {
    let tmp = tempfile::tempdir().unwrap();
    let (script, moves) = sample_xiangqi_script(tmp.path());
    let engine = root().join("tests/bots/uci_engine.py");
    let fsf = format!(
        "fsf=uci:{PYTHON} {} one {} clock",
        engine.display(),
        script.display()
    );
    let pika = format!(
        "pika=uci:{PYTHON} {} zero {} clock",
        engine.display(),
        script.display()
    );
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &fsf,
        "--bot",
        &pika,
        "--games",
        "1",
        "--tc",
        "60+1",
        "--out",
        &out,
        "--format",
        "json",
    ]);
    let games = results(&r.stdout);
    assert_eq!(
        games,
        [("fsf".into(), "checkmate".into(), moves.len().into())],
        "{}",
        r.stdout
    );
    let dir = Path::new(&out).join("games/game-00001");
    assert_eq!(recorded_moves(&dir), moves);
    ok(&["verify", &dir.to_string_lossy()]);

    // Moves to go (`--tc 1/60`: the base time again after every move): every `go` must say
    // `movestogo 1`, or the engines resign.
    let with = |name: &str, mode: &str| {
        format!(
            "{name}=uci:{PYTHON} {} {mode} {} clock expect-go=movestogo,1",
            engine.display(),
            script.display()
        )
    };
    let out = tmp.path().join("mtg").to_string_lossy().into_owned();
    let (fsf, pika) = (with("fsf", "one"), with("pika", "zero"));
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &fsf,
        "--bot",
        &pika,
        "--games",
        "1",
        "--tc",
        "1/60",
        "--out",
        &out,
        "--format",
        "json",
    ]);
    assert_eq!(
        results(&r.stdout),
        [("fsf".into(), "checkmate".into(), moves.len().into())],
        "{}",
        r.stdout
    );
}

/// A UCI engine lives for the whole match, as in fastchess: one process per engine for four
/// games (`ucinewgame` between them); an engine that fails a game is stopped and a new one
/// plays the next.
#[test]
fn an_engine_plays_every_game_of_a_match_in_one_process() {
    let tmp = tempfile::tempdir().unwrap();
    let (script, moves) = sample_xiangqi_script(tmp.path());
    let engine = root().join("tests/bots/uci_engine.py");
    let starts = tmp.path().join("starts.txt");
    std::fs::write(&starts, "").unwrap();
    let spec = |name: &str, mode: &str| {
        format!(
            "{name}=uci:{PYTHON} {} {mode} {} starts={}",
            engine.display(),
            script.display(),
            starts.display()
        )
    };
    let (fsf, pika) = (spec("fsf", "one"), spec("pika", "zero"));
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let s = starts.to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &fsf,
        "--bot",
        &pika,
        "--games",
        "4",
        "--out",
        &out,
        "--format",
        "json",
        "--bot-write",
        &s,
    ]);
    let games = results(&r.stdout);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(
            (&g.1, &g.2),
            (&"checkmate".into(), &moves.len().into()),
            "{games:?}"
        );
    }
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert_eq!(started, 2, "one process per engine for the match");
    // An engine that runs out of time each game is replaced each game.
    std::fs::write(&starts, "").unwrap();
    let slow = spec("slow", "slow");
    let out = tmp.path().join("m2").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &slow,
        "--bot",
        "builtin:random",
        "--games",
        "2",
        "--tc",
        "1+0",
        "--out",
        &out,
        "--format",
        "json",
        "--bot-write",
        &s,
    ]);
    for g in results(&r.stdout) {
        assert_eq!(g.1, "forfeit (bot-timeout)", "{}", r.stdout);
    }
    // The one checked before the match plays game 1 and fails; a new one plays game 2.
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert_eq!(started, 2, "a failed engine is not kept");
    // An engine whose process ended after a game (here: each one after playing the mating
    // move) is not handed the next game: a new one is started, and no game is lost for it.
    std::fs::write(&starts, "").unwrap();
    let quits = |name: &str, mode: &str| format!("{} exit-after-last", spec(name, mode));
    let (fsf, pika) = (quits("fsf", "one"), quits("pika", "zero"));
    let out = tmp.path().join("m3").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &fsf,
        "--bot",
        &pika,
        "--games",
        "4",
        "--out",
        &out,
        "--format",
        "json",
        "--bot-write",
        &s,
    ]);
    for g in results(&r.stdout) {
        assert_eq!(g.1, "checkmate", "{}", r.stdout);
    }
    // Two checked, then the mating side's engine anew for games 2, 3 and 4.
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert_eq!(started, 5, "a dead engine is replaced");
    // `restart=on` (fastchess's): a new process for every game, the others kept.
    std::fs::write(&starts, "").unwrap();
    let (fsf, pika) = (spec("fsf", "one"), spec("pika", "zero"));
    let out = tmp.path().join("m4").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &fsf,
        "--bot",
        &pika,
        "--engine",
        "fsf:restart=on",
        "--games",
        "4",
        "--out",
        &out,
        "--format",
        "json",
        "--bot-write",
        &s,
    ]);
    assert_eq!(results(&r.stdout).len(), 4);
    // fsf checked, then anew for games 2, 3 and 4; pika once.
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert_eq!(started, 5, "restart=on starts an engine for each game");
}

/// A book: every opening played twice in an encounter, the colours reversed, as each game's
/// start position; the result reported as pairs; an odd --games, another game or a bad line
/// refused.
#[test]
fn a_book_plays_each_opening_twice_with_colours_reversed() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book.epd");
    let openings = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - -",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RNBAKABNR b - -",
    ];
    std::fs::write(&book, format!("# two openings\n{}\n", openings.join("\n"))).unwrap();
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let b = book.to_string_lossy().into_owned();
    let args = |games: &str, game: &str| -> Vec<String> {
        [
            "match",
            "--folders",
            "--game",
            game,
            "--bot",
            "g=builtin:greedy",
            "--bot",
            "r=builtin:random",
            "--games",
            games,
            "--book",
            &b,
            "--out",
            &out,
        ]
        .map(str::to_string)
        .to_vec()
    };
    let run = |a: Vec<String>| qj(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let r = run(args("4", "xiangqi"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("pairs for g: 2 ("), "{}", r.stderr);
    let game = |k: u32| {
        let dir = Path::new(&out).join(format!("games/game-{k:05}"));
        let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
        let red = manifest
            .split("[[players]]")
            .nth(1)
            .and_then(|p| p.lines().find_map(|l| l.strip_prefix("name = ")))
            .unwrap()
            .to_string();
        ok(&["verify", &dir.to_string_lossy()]);
        (manifest, red)
    };
    for (k, opening) in [(1, 0), (2, 0), (3, 1), (4, 1)] {
        let (manifest, _) = game(k);
        assert!(manifest.contains(openings[opening]), "game {k}: {manifest}");
    }
    // The two games of a pair are played with the colours reversed.
    assert_ne!(game(1).1, game(2).1);
    assert_ne!(game(3).1, game(4).1);
    let out2 = tmp.path().join("odd").to_string_lossy().into_owned();
    let mut odd = args("3", "xiangqi");
    *odd.last_mut().unwrap() = out2.clone();
    let r = run(odd);
    assert!(r.code != 0 && r.stderr.contains("is odd"), "{r:?}");
    let mut other = args("2", "jieqi");
    *other.last_mut().unwrap() = out2;
    let r = run(other);
    assert!(
        r.code != 0 && r.stderr.contains("jieqi has no opening books"),
        "{r:?}"
    );
    // With a book a sequential test is decided on pairs, and stops the match.
    let out3 = tmp.path().join("sprt").to_string_lossy().into_owned();
    let mut sprt = args("40", "xiangqi");
    *sprt.last_mut().unwrap() = out3;
    sprt.extend(["--sprt".to_string(), "elo0=0,elo1=100".to_string()]);
    let r = run(sprt);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains("SPRT on pairs (pentanomial")
            && r.stderr.contains("H1 accepted: g is 100 Elo stronger")
            && r.stderr.contains("stopped after"),
        "{}",
        r.stderr
    );
}

/// `--engine` settings reach the engine: fixed nodes and depth in every `go`, UCI options by
/// `setoption`, and a forced square dialect; an engine not given what it expects resigns.
#[test]
fn engine_settings_reach_the_engine() {
    let tmp = tempfile::tempdir().unwrap();
    let (script, moves) = sample_xiangqi_script(tmp.path());
    let engine = root().join("tests/bots/uci_engine.py");
    let fsf = format!(
        "fsf=uci:{PYTHON} {} one {} expect-go=nodes,500 expect-option=Hash,64",
        engine.display(),
        script.display()
    );
    let pika = format!(
        "pika=uci:{PYTHON} {} zero {} expect-go=depth,3 expect-go=movetime,40",
        engine.display(),
        script.display()
    );
    let play = |out: &str, settings: &[&str]| {
        let mut args = vec![
            "match",
            "--folders",
            "--game",
            "xiangqi",
            "--bot",
            &fsf,
            "--bot",
            &pika,
            "--games",
            "1",
            "--out",
            out,
            "--format",
            "json",
        ];
        for s in settings {
            args.extend(["--engine", s]);
        }
        results(&ok(&args).stdout)
    };
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let settings = [
        "fsf:nodes=500",
        "fsf:option.Hash=64",
        "pika:depth=3",
        "pika:movetime=40",
        "pika:ranks=0",
    ];
    assert_eq!(
        play(&out, &settings),
        [("fsf".into(), "checkmate".into(), moves.len().into())]
    );
    let state = std::fs::read_to_string(Path::new(&out).join("match.json")).unwrap();
    assert!(state.contains("option.Hash=64"), "{state}");
    // Without its option the engine resigns at once; the match says so.
    let out = tmp.path().join("m2").to_string_lossy().into_owned();
    let games = play(&out, &settings[1..]);
    assert_eq!(games[0].1, "resignation", "{games:?}");
    // Another --engine is another match; an unknown name or key is refused.
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let mut args = vec![
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &fsf,
        "--bot",
        &pika,
    ];
    args.extend(["--games", "1", "--out", &out, "--engine", "fsf:nodes=600"]);
    let r = qj(&args);
    assert!(r.stderr.contains("--engine: fsf:nodes=500"), "{r:?}");
    for (bad, says) in [
        ("ghost:nodes=5", "no engine is called"),
        ("fsf:speed=5", "an engine setting is"),
        ("fsf:nodes=0", "above 0"),
    ] {
        let mut args = vec![
            "match",
            "--folders",
            "--game",
            "xiangqi",
            "--bot",
            &fsf,
            "--bot",
            &pika,
        ];
        args.extend(["--out", &out, "--engine", bad]);
        let r = qj(&args);
        assert!(r.code != 0 && r.stderr.contains(says), "{bad}: {r:?}");
    }
}

/// An engine that thinks past its clock loses on time; one that does not answer `uci` is
/// refused before the match; UCI is for Xiangqi only.
#[test]
fn a_uci_engine_loses_on_time_and_a_broken_one_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (script, _) = sample_xiangqi_script(tmp.path());
    let engine = root().join("tests/bots/uci_engine.py");
    let slow = format!(
        "slow=uci:{PYTHON} {} slow {}",
        engine.display(),
        script.display()
    );
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &slow,
        "--bot",
        "builtin:random",
        "--games",
        "1",
        "--tc",
        "1+0",
        "--out",
        &out,
        "--format",
        "json",
    ]);
    let record =
        std::fs::read_to_string(Path::new(&out).join("games/game-00001/record.jsonl")).unwrap();
    assert!(
        record.contains("\"kind\":\"forfeit\"") && record.contains("\"reason\":\"bot-timeout\""),
        "{record}"
    );
    assert_eq!(results(&r.stdout)[0].0, "random");
    // Not an engine at all: the example bot waits for JSON and never says uciok.
    let mute = format!(
        "mute=uci:{PYTHON} {}",
        root().join("examples/bots/random_bot.py").display()
    );
    let r = qj(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &mute,
        "--bot",
        "builtin:random",
        "--time-ms",
        "500",
        "--out",
        &tmp.path().join("n").to_string_lossy(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("--bot mute: did not answer uci and isready"),
        "{r:?}"
    );
    let r = qj(&[
        "match",
        "--folders",
        "--game",
        "luzhanqi",
        "--bot",
        &slow,
        "--bot",
        "builtin:random",
        "--out",
        &tmp.path().join("o").to_string_lossy(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("UCI engines play xiangqi"), "{r:?}");
}

/// A sequential test stops a long match once it is decided; run again, the match sees the test
/// decided by the games it kept and plays no more.
#[test]
fn a_sequential_test_stops_the_match_once_decided() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let o = out.to_string_lossy().into_owned();
    let args = match_args(
        &o,
        &[
            "--bot",
            "builtin:greedy",
            "--bot",
            "builtin:random",
            "--games",
            "200",
            "--sprt",
            "elo0=0,elo1=100",
        ],
    );
    let r = ok(&args);
    let n = results(&r.stdout).len();
    assert!(n < 200, "decided early: {n}");
    assert!(
        r.stderr.contains(&format!(
            "H1 accepted: greedy is 100 Elo stronger or more; stopped after {n} of 200 games"
        )),
        "{}",
        r.stderr
    );
    assert_eq!(kept_games(&out).len(), n);
    let again = ok(&args);
    assert_eq!(results(&again.stdout).len(), n, "nothing more played");
    // Three bots cannot be tested so.
    let r = qj(&match_args(
        &tmp.path().join("x").to_string_lossy(),
        &[
            "--bot",
            "builtin:greedy",
            "--bot",
            "builtin:random",
            "--bot",
            "r2=builtin:random",
            "--sprt",
            "elo0=0,elo1=5",
        ],
    ));
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("--sprt: a sequential test compares two bots"),
        "{r:?}"
    );
}

/// What a match shows a bot at its turn, from one replay (`Game::turn`), is exactly what the
/// three separate contract calls say (seat to move, legal moves, the seat's view), at every ply
/// of a game of each game played through the contract.
#[test]
fn a_turn_is_what_to_move_legal_moves_and_seat_view_say() {
    use qijudge::games::{by_name, JudgeRequest, MoveRequest, SetupSource};
    for (name, setup) in [
        ("xiangqi", false),
        ("jieqi", true),
        ("banqi", true),
        ("liubo", true),
        ("luzhanqi", true),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let dir = tmp.path().join(name);
        let extra: &[&str] = match name {
            "liubo" => &["--rule", "ply_limit=1000"],
            "luzhanqi" => &["--rule", "max-plies=1000"],
            _ => &["--rule", "move-limit=on"],
        };
        new_game(name, &dir, &keys, extra);
        let game = by_name(name).unwrap();
        let seats = game.seats("2p").unwrap();
        let key_of = |seat: &str| {
            let i = seats.iter().position(|s| s == seat).unwrap();
            PathBuf::from(keys.path(["alice", "bob"][i]))
        };
        let judge = || {
            let run = JudgeRequest {
                now: NOW.to_string(),
                details: false,
                rulings: Default::default(),
            };
            game.judge(&dir, Path::new(&keys.path("judge")), run)
                .unwrap()
                .into_result()
                .unwrap();
        };
        if setup {
            for (i, seat) in seats.iter().enumerate() {
                let source = match game.setup_is_chosen() {
                    true => SetupSource::Random(Some(i as u64)),
                    false => SetupSource::None,
                };
                let _ = game
                    .setup(&dir, seat, &key_of(seat), source, false)
                    .unwrap();
            }
        }
        judge();
        let (mut plies, mut ended) = (0, false);
        for ply in 0..40 {
            // Every other ply without the view, as for a bot that waives it.
            let wants = |_: &str| ply % 2 == 0;
            let Some(turn) = game.turn(&dir, &key_of, &wants).unwrap() else {
                ended = true;
                break;
            };
            let seat = game.to_move(&dir).unwrap().unwrap();
            let key = key_of(&seat);
            assert_eq!(turn.seat, seat, "{name} ply {ply}");
            assert_eq!(
                turn.legal,
                game.legal_moves(&dir, &seat, Some(&key)).unwrap(),
                "{name} ply {ply}"
            );
            let view = game.seat_view(&dir, &seat, Some(&key)).unwrap();
            assert_eq!(
                turn.view.map(|v| serde_json::to_value(v).unwrap()),
                (ply % 2 == 0).then_some(view),
                "{name} ply {ply}"
            );
            assert!(!turn.legal.is_empty(), "{name} ply {ply}");
            let action = &turn.legal[ply % turn.legal.len()];
            let mv = MoveRequest {
                action,
                offer_draw: false,
                comment: None,
                check: true,
                replace: false,
            };
            let _ = game.make_move(&dir, &seat, &key, mv).unwrap();
            judge();
            plies += 1;
        }
        // A Liubo race can end early: its throws come from random seeds (9 plies was seen).
        let short_race = name == "liubo" && ended;
        assert!(plies >= 10 || short_race, "{name}: {plies} plies");
    }
}

/// A sealed Luzhanqi game is not played in one process (no test compares its session's sealed
/// files with the commands'): `play_match` declines, touches nothing, and asks no bot.
#[test]
fn a_sealed_game_stays_on_the_commands() {
    use qijudge::games::match_play::MatchPlay;
    let g = TestGame::sealed();
    ok(&[
        "judge",
        &g.d(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        NOW,
    ]);
    let before = snapshot(&g.dir);
    let judge_key = PathBuf::from(g.keys.path("judge"));
    let key_of = |seat: &str| PathBuf::from(g.keys.path(TestGame::key_of(seat)));
    let wants = |_: &str| true;
    let play = MatchPlay {
        judge_key: &judge_key,
        seat_key: &key_of,
        now: NOW,
        wants_view: &wants,
    };
    let mut asked = 0;
    let mut next = |_| {
        asked += 1;
        Err(qijudge::error::Error::Io("no bot here".into()))
    };
    let game = qijudge::games::by_name("luzhanqi").unwrap();
    assert!(game.play_match(&g.dir, &play, &mut next).unwrap().is_none());
    assert_eq!(asked, 0);
    assert!(snapshot(&g.dir) == before, "the folder changed");
}

/// A game played in one process (`Game::play_match`: one judge kept open, outputs written at
/// the end) shows the bots the same turns and leaves exactly the files that the same moves
/// played through the commands leave (a judge run per ply), to the byte; so does a game with a
/// forfeit, which on the four-player board goes on without the seat that failed.
#[test]
fn a_game_played_in_one_process_leaves_the_files_the_commands_leave() {
    use qijudge::games::match_play::{MatchPlay, MatchStep};
    use qijudge::games::{by_name, JudgeRequest, MoveRequest, SetupSource, Turn};
    // A Jieqi game here runs 40 turns, then its bot fails (the game's own end is the same code).
    for (name, board, forfeit_at) in [
        ("xiangqi", "2p", None),
        ("xiangqi", "2p", Some(7)),
        ("jieqi", "2p", Some(40)),
        ("banqi", "2p", None),
        ("banqi", "2p", Some(30)),
        ("liubo", "2p", None),
        ("liubo", "2p", Some(8)),
        ("luzhanqi", "2p", None),
        ("luzhanqi", "cross4", Some(9)),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let (session_dir, commands_dir) = (tmp.path().join("a"), tmp.path().join("b"));
        let game = by_name(name).unwrap();
        let seats = game.seats(board).unwrap();
        let players = &["alice", "bob", "carol", "dave"][..seats.len()];
        let mut args: Vec<String> = ["new", name, &session_dir.to_string_lossy()]
            .map(String::from)
            .to_vec();
        for p in players {
            if !Path::new(&keys.path(p)).exists() {
                ok(&["keygen", &keys.path(p)]);
            }
            args.extend(["--player".into(), format!("{p}={}.pub", keys.path(p))]);
        }
        // Luzhanqi games are cut short: the commands half runs a judge per ply.
        let rule = match name {
            "luzhanqi" => "max-plies=60",
            _ => game.match_rules()[0],
        };
        args.extend(["--judge".into(), format!("{}.pub", keys.path("judge"))]);
        args.extend(["--now", NOW, "--board", board, "--rule", rule].map(String::from));
        ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let key_of = |seat: &str| {
            let i = seats.iter().position(|s| s == seat).unwrap();
            PathBuf::from(keys.path(players[i]))
        };
        let judge_key = PathBuf::from(keys.path("judge"));
        let judge = |dir: &Path, forfeit: Option<(String, String)>| {
            let run = JudgeRequest {
                now: NOW.to_string(),
                details: false,
                rulings: qijudge::judge::pipeline::Rulings {
                    forfeit,
                    ..Default::default()
                },
            };
            game.judge(dir, &judge_key, run)
                .unwrap()
                .into_result()
                .unwrap();
        };
        if game.has_secrets() {
            for (i, seat) in seats.iter().enumerate() {
                let source = match game.setup_is_chosen() {
                    true => SetupSource::Random(Some(i as u64)),
                    false => SetupSource::None,
                };
                let _ = game
                    .setup(&session_dir, seat, &key_of(seat), source, false)
                    .unwrap();
            }
        }
        judge(&session_dir, None);
        for (rel, bytes) in snapshot(&session_dir) {
            let to = commands_dir.join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::write(to, bytes).unwrap();
        }
        // The same choices on both sides: the (ply mod count)-th legal move.
        let choose = |ply: usize, turn: &Turn| match forfeit_at {
            Some(at) if ply == at => MatchStep::Forfeit("bot-crashed".into()),
            _ => MatchStep::Move {
                action: turn.legal[(ply * 7) % turn.legal.len()].clone(),
                comment: None,
                offer_draw: false,
            },
        };
        let mut seen = Vec::new();
        let mut next = |turn: Turn| {
            let step = choose(seen.len(), &turn);
            seen.push(turn);
            Ok(step)
        };
        let wants = |_: &str| true;
        let play = MatchPlay {
            judge_key: &judge_key,
            seat_key: &key_of,
            now: NOW,
            wants_view: &wants,
        };
        assert!(game
            .play_match(&session_dir, &play, &mut next)
            .unwrap()
            .is_some());
        let mut shown = Vec::new();
        while let Some(turn) = game.turn(&commands_dir, &key_of, &wants).unwrap() {
            let seat = turn.seat.clone();
            match choose(shown.len(), &turn) {
                MatchStep::Move { action, .. } => {
                    let mv = MoveRequest {
                        action: &action,
                        offer_draw: false,
                        comment: None,
                        check: true,
                        replace: false,
                    };
                    let _ = game
                        .make_move(&commands_dir, &seat, &key_of(&seat), mv)
                        .unwrap();
                    judge(&commands_dir, None);
                }
                MatchStep::Forfeit(code) => judge(&commands_dir, Some((seat, code))),
                MatchStep::Adjudicate { .. } => unreachable!("the test never adjudicates"),
            }
            shown.push(turn);
        }
        let what = format!("{name} {board} {forfeit_at:?}");
        assert_eq!(seen.len(), shown.len(), "{what}");
        for (ply, (a, b)) in seen.iter().zip(&shown).enumerate() {
            assert!(a == b, "{what}: turn {ply} differs:\n{a:?}\n{b:?}");
        }
        // (A Liubo game's length depends on its throws, drawn from fresh seeds: it may end
        // before the forfeit comes.)
        let turns = shown.len();
        assert!(turns > 7 || name == "liubo" && turns > 0, "{what}: {turns}");
        let (a, b) = (snapshot(&session_dir), snapshot(&commands_dir));
        assert_eq!(
            a.keys().collect::<Vec<_>>(),
            b.keys().collect::<Vec<_>>(),
            "{what}"
        );
        for (file, bytes) in &a {
            assert!(b[file] == *bytes, "{what}: {file} differs");
        }
        if game.has_secrets() {
            let _ = game.reveal(&session_dir, None).unwrap();
        }
        let _ = game.verify(&session_dir).unwrap();
        if let Some(at) = forfeit_at.filter(|_| board == "cross4") {
            // The forfeit did not end the four-player game: the others played on.
            assert!(turns > at + 4, "{what}: {turns}");
            let record = std::fs::read_to_string(session_dir.join("record.jsonl")).unwrap();
            assert!(record.contains("\"kind\":\"forfeit\""), "{what}");
        }
    }
}

/// A Xiangqi game claiming `id`, between `a` (red) and `b` (black), judged by `judge` (a
/// private key file; its `.pub` beside it) and ended at once by red's resignation.
fn forged_game(dir: &Path, keys: &Keys, judge: &str, id: Option<&str>) {
    let d = dir.to_string_lossy().into_owned();
    let (a, b, j) = (
        format!("a={}.pub", keys.path("alice")),
        format!("b={}.pub", keys.path("bob")),
        format!("{judge}.pub"),
    );
    ok(&[
        "new", "xiangqi", &d, "--player", &a, "--player", &b, "--judge", &j, "--now", NOW,
    ]);
    if let Some(id) = id {
        // Before anything is signed over the manifest: the forger's own, consistent game.
        let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
        let old = manifest
            .lines()
            .find(|l| l.starts_with("id = "))
            .unwrap()
            .to_string();
        std::fs::write(
            dir.join("game.toml"),
            manifest.replace(&old, &format!("id = \"{id}\"")),
        )
        .unwrap();
    }
    ok(&["judge", &d, "--key", judge, "--now", NOW]);
    ok(&[
        "move",
        &d,
        "resign",
        "--as",
        "red",
        "--key",
        &keys.path("alice"),
    ]);
    ok(&["judge", &d, "--key", judge, "--now", NOW]);
    ok(&["verify", &d]);
}

#[test]
fn a_tournament_counts_only_trusted_judges_and_names_conflicts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let o = out.to_string_lossy().into_owned();
    let real = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--out",
        &o,
        "--format",
        "json",
        "--bot",
        "a=builtin:greedy",
        "--bot",
        "b=builtin:random",
        "--games",
        "2",
    ]);
    let games = out.join("games");
    let g = games.to_string_lossy().into_owned();
    let manifest = std::fs::read_to_string(games.join("game-00001/game.toml")).unwrap();
    let id = manifest
        .lines()
        .find_map(|l| l.strip_prefix("id = \""))
        .unwrap()
        .trim_end_matches('"')
        .to_string();
    // A forger's games dropped into the match folder: one reusing a real game's id with
    // another result, one with a new id; both verify, signed by the forger's judge.
    let keys = Keys::new(tmp.path());
    forged_game(
        &games.join("forged-same-id"),
        &keys,
        &keys.path("judge"),
        Some(&id),
    );
    forged_game(
        &games.join("forged-new-id"),
        &keys,
        &keys.path("judge"),
        None,
    );
    // A pack of two gzip members (read as one game here, unpacked as another by tar -xzf).
    ok(&["pack", &games.join("forged-new-id").to_string_lossy()]);
    let two = [
        std::fs::read(games.join("forged-new-id.tar.gz")).unwrap(),
        std::fs::read(games.join("forged-new-id.tar.gz")).unwrap(),
    ]
    .concat();
    std::fs::remove_file(games.join("forged-new-id.tar.gz")).unwrap();
    std::fs::write(games.join("two-members.tar.gz"), two).unwrap();

    let check = |args: &[&str]| {
        let r = qj(args);
        assert_eq!(r.code, 1, "{r:?}");
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        let invalid: Vec<(String, String)> = v["invalid"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                let dir = i["dir"].as_str().unwrap();
                let name = Path::new(dir).file_name().unwrap().to_string_lossy();
                (name.into_owned(), i["error"].as_str().unwrap().to_string())
            })
            .collect();
        (v, invalid)
    };
    // Trusting the match's own judge (found in OUT/keys/judge.pub), or naming it: the forged
    // games are named and not counted, the real ones count as the match counted them.
    let judge_pub = out.join("keys/judge.pub").to_string_lossy().into_owned();
    for args in [
        vec!["tournament", &g, "--format", "json"],
        vec!["tournament", &g, "--format", "json", "--judge", &judge_pub],
    ] {
        let (v, invalid) = check(&args);
        assert_eq!(standings(&v.to_string()), standings(&real.stdout), "{v}");
        assert_eq!(v["games"].as_array().unwrap().len(), 2);
        let names: Vec<&str> = invalid.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["forged-new-id", "forged-same-id", "two-members.tar.gz"],
            "{invalid:?}"
        );
        for (name, error) in &invalid[..2] {
            assert!(
                error.contains("judged by SHA256:") && error.contains("not a judge trusted here"),
                "{name}: {error}"
            );
        }
        assert!(invalid[2].1.contains("gzip member"), "{:?}", invalid[2]);
    }
    // A match folder from before `keys/judge.pub` was written: its judge is the public half of
    // `keys/judge`, and the same games count.
    let public = std::fs::read(out.join("keys/judge.pub")).unwrap();
    std::fs::remove_file(out.join("keys/judge.pub")).unwrap();
    let (v, invalid) = check(&["tournament", &g, "--format", "json"]);
    assert_eq!(standings(&v.to_string()), standings(&real.stdout), "{v}");
    assert_eq!(invalid.len(), 3, "{invalid:?}");
    std::fs::write(out.join("keys/judge.pub"), public).unwrap();
    // Trusting every judge: the same id with two results is named as a conflict.
    let (_, invalid) = check(&["tournament", &g, "--format", "json", "--judge", "any"]);
    let conflicts: Vec<&String> = invalid
        .iter()
        .filter(|(_, e)| e.starts_with(&format!("conflict: game {id}")))
        .map(|(n, _)| n)
        .collect();
    assert_eq!(conflicts, ["forged-same-id", "game-00001"], "{invalid:?}");
    // Pooled folders with no match beside them need a judge named.
    let pool = tmp.path().join("pool");
    std::fs::create_dir(&pool).unwrap();
    copy_dir(&games.join("game-00002"), &pool.join("game-00002"));
    let p = pool.to_string_lossy().into_owned();
    let (_, invalid) = check(&["tournament", &p, "--format", "json"]);
    assert!(invalid[0].1.contains("give --judge KEY.pub"), "{invalid:?}");
    let named = ok(&["tournament", &p, "--format", "json", "--judge", &judge_pub]);
    assert!(named.stdout.contains("\"invalid\": []"), "{named:?}");
    // `any` trusts every judge, so it is not mixed with named keys.
    let r = qj(&["tournament", &p, "--judge", "any", "--judge", &judge_pub]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("give it alone"), "{r:?}");
    // A private key given as --judge is refused with what to give.
    let r = qj(&[
        "tournament",
        &p,
        "--judge",
        &out.join("keys/judge").to_string_lossy(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("give the .pub file"), "{r:?}");
}

/// Random bots play different games in one match, even where nothing is drawn before play
/// (Xiangqi): each game and seat starts its bot from its own seed.
#[test]
fn a_random_xiangqi_match_plays_different_games() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        "r1=builtin:random",
        "--bot",
        "r2=builtin:random",
        "--games",
        "4",
        "--seed",
        "5",
        "--out",
        &out.to_string_lossy(),
    ]);
    let mut moves = std::collections::BTreeSet::new();
    for k in 1..=4 {
        let dir = out.join(format!("games/game-{k:05}/moves"));
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .map(|p| {
                let t = std::fs::read_to_string(p).unwrap();
                t.lines()
                    .find(|l| l.starts_with("move ="))
                    .unwrap()
                    .to_string()
            })
            .collect();
        names.sort();
        moves.insert(names);
    }
    assert_eq!(moves.len(), 4, "four different games");
}

/// Adjudication as engine testers set it: a loss when both engines' scores agree for enough
/// moves (`--resign`), a draw by score after a move number (`--draw`), a maximum length
/// (`--max-moves`). Each ruling is a signed record line the audit replays, each move carries
/// its engine's score in its signed comment, and `--pgn-out` writes the games with both.
#[test]
fn engine_games_are_adjudicated_by_score_and_length_in_the_signed_record() {
    let tmp = tempfile::tempdir().unwrap();
    let (script, moves) = sample_xiangqi_script(tmp.path());
    let engine = root().join("tests/bots/uci_engine.py");
    let bot = |name: &str, score: i32| {
        format!(
            "{name}=uci:{PYTHON} {} zero {} score={score}",
            engine.display(),
            script.display()
        )
    };
    let play = |out: &str, bots: [&str; 2], adjudication: &[&str]| {
        let mut args = vec![
            "match",
            "--folders",
            "--game",
            "xiangqi",
            "--games",
            "2",
            "--out",
            out,
        ];
        args.extend(["--format", "json", "--bot", bots[0], "--bot", bots[1]]);
        args.extend(adjudication);
        results(&ok(&args).stdout)
    };
    // `gloomy` always sees itself lost, `sunny` always winning: after two moves each, whoever
    // plays red, gloomy loses; the game ends before ply 5, whose move is never asked.
    let (gloomy, sunny) = (bot("gloomy", -700), bot("sunny", 700));
    let out = tmp.path().join("resign").to_string_lossy().into_owned();
    let pgn = tmp.path().join("games.pgn");
    let pgn_arg = pgn.to_string_lossy().into_owned();
    let games = play(
        &out,
        [&gloomy, &sunny],
        &["--resign", "2:500", "--pgn-out", &pgn_arg],
    );
    assert_eq!(
        games,
        vec![
            (
                "sunny".into(),
                "adjudication (score-resign)".into(),
                4.into()
            );
            2
        ]
    );
    for k in [1, 2] {
        let dir = Path::new(&out).join(format!("games/game-0000{k}"));
        ok(&["verify", &dir.to_string_lossy()]);
        let record = std::fs::read_to_string(dir.join("record.jsonl")).unwrap();
        let winner = if k == 1 { "black" } else { "red" };
        assert!(
            record.contains(&format!(
                r#"{{"kind":"adjudicated","winner":"{winner}","reason":"score-resign"}}"#
            )),
            "{record}"
        );
        let first = std::fs::read_to_string(dir.join("moves/0001-red.toml")).unwrap();
        let red_score = if k == 1 { "-7.00" } else { "+7.00" };
        // The score and depth as cutechess writes them, then the move's own time.
        assert!(
            first.contains(&format!("comment = \"{red_score}/2 0.")) && first.contains("s\"\n"),
            "{first}"
        );
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"adjudicated:").count(),
        2,
        "{text}"
    );
    assert!(text.contains("(score-resign)\"]"), "{text}");
    assert!(
        text.contains("{-7.00/2 0.") && text.contains("1... "),
        "{text}"
    );
    // The PGN reads back: two games of four plies.
    let checked = ok(&["check", "xiangqi", &pgn_arg]).stdout;
    assert_eq!(checked.matches(": 4 plies").count(), 2, "{checked}");

    // Level scores: a draw from move 3 after two moves each within 10 centipawns; a maximum of
    // 4 moves comes first when it is shorter. Without a rule the game is the whole script.
    let (level, even) = (bot("level", 0), bot("even", -5));
    let out = tmp.path().join("draw").to_string_lossy().into_owned();
    let games = play(&out, [&level, &even], &["--draw", "3:2:10"]);
    assert_eq!(
        games,
        vec![
            (
                serde_json::Value::Null,
                "adjudication (score-draw)".into(),
                6.into()
            );
            2
        ]
    );
    let out = tmp.path().join("max").to_string_lossy().into_owned();
    let games = play(
        &out,
        [&level, &even],
        &["--draw", "3:2:10", "--max-moves", "2"],
    );
    assert_eq!(
        games,
        vec![
            (
                serde_json::Value::Null,
                "adjudication (max-moves)".into(),
                4.into()
            );
            2
        ]
    );
    ok(&["verify", &format!("{out}/games/game-00002")]);
    let out = tmp.path().join("none").to_string_lossy().into_owned();
    let games = play(&out, [&level, &even], &[]);
    assert_eq!(games[0].2, moves.len());

    // Settings are checked; a resumed match keeps its rules; other games refuse them.
    for (flag, bad) in [("--resign", "3"), ("--resign", "0:500"), ("--draw", "40:8")] {
        let r = qj(&[
            "match",
            "--folders",
            "--game",
            "xiangqi",
            "--bot",
            &level,
            "--bot",
            &even,
            "--out",
            &out,
            flag,
            bad,
        ]);
        assert!(
            r.stderr.contains(flag) && r.stderr.contains("expected"),
            "{r:?}"
        );
    }
    let r = qj(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &level,
        "--bot",
        &even,
        "--games",
        "2",
        "--out",
        &out,
        "--max-moves",
        "9",
    ]);
    assert!(r.stderr.contains("max-moves 9"), "{r:?}");
    let r = qj(&[
        "match",
        "--folders",
        "--game",
        "luzhanqi",
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:greedy",
        "--out",
        &out,
        "--resign",
        "3:600",
    ]);
    assert!(r.stderr.contains("Xiangqi and Jieqi"), "{r:?}");
}

/// The judge's adjudication refuses what no ruling can be: a winner that is no seat, a reason
/// that is no code, a game already over, a score ruling in a game that takes only the
/// maximum-length draw (Luzhanqi), that draw before play; a good one ends
/// the game with its record line, and `verify` replays it.
#[test]
fn an_adjudication_is_refused_unless_it_names_a_seat_a_code_and_a_game_that_goes_on() {
    use qijudge::games::{by_name, JudgeRequest};
    use qijudge::judge::pipeline::Rulings;
    let tmp = tempfile::tempdir().unwrap();
    let key = |name: &str| tmp.path().join(name).to_string_lossy().into_owned();
    for name in ["red", "black", "judge"] {
        ok(&["keygen", &key(name)]);
    }
    let make = |game: &str, seats: [&str; 2]| {
        let dir = tmp.path().join(game).to_string_lossy().into_owned();
        let (a, b) = (
            format!("{}={}.pub", seats[0], key("red")),
            format!("{}={}.pub", seats[1], key("black")),
        );
        ok(&[
            "new",
            game,
            &dir,
            "--player",
            &a,
            "--player",
            &b,
            "--judge",
            &format!("{}.pub", key("judge")),
            "--now",
            NOW,
        ]);
        dir
    };
    let rule = |game: &str, dir: &str, winner: Option<&str>, reason: &str| {
        let run = JudgeRequest {
            now: NOW.to_string(),
            details: false,
            rulings: Rulings {
                adjudicate: Some((winner.map(str::to_string), reason.to_string())),
                ..Default::default()
            },
        };
        by_name(game)
            .unwrap()
            .judge(Path::new(dir), Path::new(&key("judge")), run)
            .and_then(|r| r.into_result().map(drop))
    };
    let xq = make("xiangqi", ["red", "black"]);
    ok(&["judge", &xq, "--key", &key("judge"), "--now", NOW]);
    for (winner, reason, says) in [
        (
            Some("green"),
            "score-resign",
            "\"green\" is not a seat (red, black)",
        ),
        (
            Some("red"),
            "Score Resign",
            "must be lower-case letters, digits and -",
        ),
    ] {
        let e = rule("xiangqi", &xq, winner, reason)
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{e}");
    }
    rule("xiangqi", &xq, None, "max-moves").unwrap();
    let record = std::fs::read_to_string(Path::new(&xq).join("record.jsonl")).unwrap();
    assert!(
        record.contains(r#"{"kind":"adjudicated","reason":"max-moves"}"#),
        "{record}"
    );
    ok(&["verify", &xq]);
    // Once over, a second ruling changes nothing (the judge's rulings never reopen a game).
    rule("xiangqi", &xq, Some("red"), "score-resign").unwrap();
    assert_eq!(
        std::fs::read_to_string(Path::new(&xq).join("record.jsonl")).unwrap(),
        record
    );
    // Luzhanqi takes no score ruling, only the maximum-length draw, and that only in play.
    let lzq = make("luzhanqi", ["south", "north"]);
    let e = rule("luzhanqi", &lzq, Some("south"), "score-resign")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("takes only the maximum-length draw (max-moves)"),
        "{e}"
    );
    let e = rule("luzhanqi", &lzq, None, "max-moves")
        .unwrap_err()
        .to_string();
    assert!(e.contains("before play"), "{e}");
}

/// A Luzhanqi book sets the armies: each opening's two games use its setups (the bots are not
/// asked), the bots change sides between them, and every game verifies with those setups.
#[test]
fn a_luzhanqi_book_sets_the_armies_of_each_pair() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("armies.toml");
    let south = [
        "CO CP LT CP BG",
        "MJ . EN . MG",
        "EN LT . CP GN",
        "BM . CO . BM",
        "FM BG MG LT MJ",
        "LM FL LM EN LM",
    ];
    let north = [
        "BG CP LT CP CO",
        "MG . EN . MJ",
        "GN CP . LT EN",
        "BM . CO . BM",
        "MJ LT MG BG FM",
        "LM EN LM FL LM",
    ];
    let toml_rows = |rows: &[&str]| format!("{:?}", rows);
    std::fs::write(
        &book,
        format!(
            "[[opening]]\nsouth = {}\nnorth = {}\n",
            toml_rows(&south),
            toml_rows(&north)
        ),
    )
    .unwrap();
    let out = tmp.path().join("m");
    let r = qj(&[
        "match",
        "--folders",
        "--game",
        "luzhanqi",
        "--bot",
        "g=builtin:greedy",
        "--bot",
        "r=builtin:random",
        "--games",
        "2",
        "--book",
        &book.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let mut south_players = Vec::new();
    for k in 1..=2 {
        let dir = out.join(format!("games/game-{k:05}"));
        ok(&["verify", &dir.to_string_lossy()]);
        let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
        south_players.push(
            manifest
                .split("[[players]]")
                .nth(1)
                .and_then(|p| p.lines().find_map(|l| l.strip_prefix("name = ")))
                .unwrap()
                .to_string(),
        );
        // The revealed setups are the book's armies, each row read from its seat's side.
        let south_setup = std::fs::read_to_string(dir.join("setups/south.toml")).unwrap();
        let north_setup = std::fs::read_to_string(dir.join("setups/north.toml")).unwrap();
        for square in ["a6:CO,b6:CP,c6:LT,d6:CP,e6:BG", "b1:FL"] {
            assert!(south_setup.contains(square), "{square}: {south_setup}");
        }
        for square in ["a7:CO", "c7:LT", "e7:BG", "b12:FL", "a11:FM"] {
            assert!(north_setup.contains(square), "{square}: {north_setup}");
        }
    }
    assert_ne!(south_players[0], south_players[1], "the bots change sides");
}

/// The review's finding: `tournament` over the games of two different matches (two judges)
/// pooled them without a word. Each folder's judge is now named, and two judges are pooled only
/// when the organiser names both (shards of one match pool as before: the Slurm test).
#[test]
fn a_tournament_refuses_to_pool_two_judges_unless_told() {
    let tmp = tempfile::tempdir().unwrap();
    let mut dirs = Vec::new();
    for (name, seed) in [("m1", "1"), ("m2", "2")] {
        let out = tmp.path().join(name);
        ok(&[
            "match",
            "--folders",
            "--game",
            "xiangqi",
            "--out",
            &out.to_string_lossy(),
            "--bot",
            "a=builtin:greedy",
            "--bot",
            "b=builtin:random",
            "--games",
            "1",
            "--seed",
            seed,
        ]);
        dirs.push(out);
    }
    let games: Vec<String> = dirs
        .iter()
        .map(|d| d.join("games").to_string_lossy().into_owned())
        .collect();
    let r = qj(&["tournament", &games[0], &games[1]]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("judged by different keys"), "{r:?}");
    assert_eq!(r.stderr.matches(": judged by SHA256:").count(), 2, "{r:?}");
    let keys: Vec<String> = dirs
        .iter()
        .map(|d| d.join("keys/judge.pub").to_string_lossy().into_owned())
        .collect();
    let r = qj(&[
        "tournament",
        &games[0],
        &games[1],
        "--judge",
        &keys[0],
        "--judge",
        &keys[1],
    ]);
    assert_eq!(r.code, 0, "{r:?}");
}

/// A fleet's view of a match: two shards of one match (the games k with (k - 1) mod 2 = i),
/// pooled by `tournament` with the same sequential test on pairs, give the summary of the same
/// match played in one process, in JSON and in fastchess's words, which a worker parses.
#[test]
fn pooled_shards_give_the_one_process_summary_and_sprt() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book.epd");
    // The central cannon, and the same after black's horse: the short forms testers ship.
    std::fs::write(
        &book,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b\n\
         r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - hmvc 1; fmvn 2;\n",
    )
    .unwrap();
    // Bounds wide enough that eight games decide nothing: both runs play them all.
    let sprt = "elo0=0,elo1=50,alpha=0.001,beta=0.001";
    let book = book.to_string_lossy().into_owned();
    let play = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "match",
            "--game",
            "xiangqi",
            "--bot",
            "a=builtin:greedy",
            "--bot",
            "b=builtin:random",
            "--games",
            "8",
            "--seed",
            "5",
            "--book",
            &book,
            "--pack",
            "--out",
            out,
            "--format",
            "json",
        ];
        args.extend(extra);
        ok(&args)
    };
    let dir = |name: &str| tmp.path().join(name).to_string_lossy().into_owned();
    let one_json = dir("one.json");
    let one = play(&dir("one"), &["--sprt", sprt, "--summary-json", &one_json]);
    for i in 0..2 {
        // Each shard plays whole pairs: its own summary counts two pairs of its four games.
        let json = dir(&format!("s{i}.json"));
        play(
            &dir(&format!("s{i}")),
            &["--shard", &format!("{i}/2"), "--summary-json", &json],
        );
        let own: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(own["games"], 4, "{own}");
        let pairs: u64 = own["ptnml"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(pairs, 2, "{own}");
    }
    let pooled_json = dir("pooled.json");
    let pooled = ok(&[
        "tournament",
        &dir("s0/games"),
        &dir("s1/games"),
        "--sprt",
        sprt,
        "--pairs",
        "--summary-json",
        &pooled_json,
        "--format",
        "json",
    ]);
    let read = |path: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let (a, b) = (read(&one_json), read(&pooled_json));
    assert_eq!(a, b);
    assert_eq!(a["games"], 8);
    assert_eq!(a["ptnml"].as_array().map(Vec::len), Some(5));
    assert!(a["sprt"]["accepted"].is_null(), "{a}");
    // What a fleet worker reads from standard error, as it reads fastchess's.
    for stderr in [&one.stderr, &pooled.stderr] {
        let line = |prefix: &str| {
            stderr
                .lines()
                .find(|l| l.starts_with(prefix))
                .unwrap_or_else(|| panic!("no {prefix:?} line: {stderr}"))
                .to_string()
        };
        let numbers = |text: &str| -> Vec<f64> {
            text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .filter(|w| !w.is_empty() && *w != "-" && *w != ".")
                .filter_map(|w| w.parse().ok())
                .collect()
        };
        let games = numbers(&line("Games: "));
        assert_eq!(
            games[..4],
            [
                a["games"].as_f64().unwrap(),
                a["wins"].as_f64().unwrap(),
                a["losses"].as_f64().unwrap(),
                a["draws"].as_f64().unwrap()
            ]
        );
        let ptnml = numbers(line("Ptnml(0-2): ").trim_start_matches("Ptnml(0-2): "));
        let want: Vec<f64> = a["ptnml"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(ptnml, want);
        let llr = numbers(&line("LLR: "));
        assert!(
            (llr[0] - a["sprt"]["llr"].as_f64().unwrap()).abs() < 0.006,
            "{llr:?}"
        );
        // `LLR: 0.20 (6.8%) (-2.94, 2.94) [0.00, 50.00]`: the bounds' Elo last.
        assert_eq!(llr[llr.len() - 2..], [0.0, 50.0]);
    }
}

/// A bot's draw offer (`"offer_draw": true` with its move) is the game's own: in Xiangqi it is
/// signed and recorded, and the opponent's `accept-draw` ends the game drawn; in Liubo, which has
/// no draw offers, it is ignored and the match goes on.
#[test]
fn bots_offer_and_accept_draws_where_the_game_has_them() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = |name: &str, extra: &str| {
        format!(
            "{name}={PYTHON} {} {extra}",
            root().join("tests/bots/offers_draws.py").display()
        )
    };
    let out = tmp.path().join("xq").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &bot("offers", ""),
        "--bot",
        &bot("accepts", "accept"),
        "--games",
        "1",
        "--out",
        &out,
        "--format",
        "json",
    ]);
    assert_eq!(
        results(&r.stdout),
        [(serde_json::Value::Null, "agreement".into(), 1.into())],
        "{}",
        r.stdout
    );
    let dir = Path::new(&out).join("games/game-00001");
    assert_eq!(recorded_moves(&dir)[1], "accept-draw");
    ok(&["verify", &dir.to_string_lossy()]);
    let out = tmp.path().join("lb").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "liubo",
        "--bot",
        &bot("offers", "accept"),
        "--bot",
        "builtin:random",
        "--games",
        "1",
        "--out",
        &out,
        "--format",
        "json",
    ]);
    let games = results(&r.stdout);
    assert_eq!(games.len(), 1);
    assert_ne!(games[0].1, "agreement", "{}", r.stdout);
    assert!(
        !games[0].1.as_str().unwrap_or("").starts_with("forfeit"),
        "{}",
        r.stdout
    );
}

/// Games of two kinds under one tournament (a club's Banqi and Xiangqi folders) are counted
/// apart: one table per kind, never a Banqi win for a Xiangqi point; a test comparing two
/// players across kinds is refused.
#[test]
fn a_tournament_over_two_kinds_of_game_counts_each_kind_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let mut folders = Vec::new();
    let mut judges = Vec::new();
    for game in ["banqi", "xiangqi"] {
        let out = greedy_against_random(&tmp.path().join(game), game);
        folders.push(format!("{out}/games"));
        judges.push(format!("{out}/keys/judge.pub"));
    }
    let run = |extra: &[&str]| {
        let mut args = vec!["tournament", &folders[0], &folders[1]];
        for j in &judges {
            args.extend(["--judge", j.as_str()]);
        }
        args.extend_from_slice(extra);
        qj(&args)
    };
    let json = run(&["--format", "json"]);
    assert_eq!(json.code, 0, "{json:?}");
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let kinds = v["kinds"].as_array().unwrap();
    let names: Vec<&str> = kinds.iter().map(|k| k["kind"].as_str().unwrap()).collect();
    assert_eq!(names, ["banqi", "xiangqi"], "{}", json.stdout);
    for k in kinds {
        assert_eq!(k["games"].as_array().unwrap().len(), 2, "{k}");
        for s in k["standings"].as_array().unwrap() {
            assert_eq!(s["games"], 2, "each player's games of this kind only: {k}");
        }
    }
    let text = run(&[]);
    assert_eq!(text.code, 0, "{text:?}");
    let at = |s: &str| {
        text.stdout
            .find(s)
            .unwrap_or_else(|| panic!("{s}: {}", text.stdout))
    };
    assert!(at("== banqi ==") < at("== xiangqi =="), "{}", text.stdout);
    assert_eq!(
        text.stdout.matches("2 games, 0 invalid").count(),
        2,
        "{}",
        text.stdout
    );
    let csv = run(&["--format", "csv"]);
    assert!(csv.stdout.starts_with("kind,rank,name,"), "{}", csv.stdout);
    assert_eq!(
        csv.stdout
            .lines()
            .filter(|l| l.starts_with("banqi,"))
            .count(),
        2
    );
    let sprt = run(&["--sprt", "elo0=0,elo1=10"]);
    assert_eq!(sprt.code, 2, "{sprt:?}");
    assert!(
        sprt.stderr.contains("of 2 kinds (banqi; xiangqi)"),
        "{sprt:?}"
    );
}

/// `tournament` checks a pinned judge's games through the record that judge signed, and says
/// so; `--audit` checks every file. A recorded move changed afterwards is refused either way
/// (its bytes no longer match the signed record); a recorded move's signature damaged inside
/// its armor is the judge's word against a later copy: the record counts the game, the audit
/// refuses it. With `--judge any` nothing is pinned, and every game is audited.
#[test]
fn tournament_trusts_the_pinned_judges_record_and_audit_checks_every_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = greedy_against_random(&tmp.path().join("m"), "xiangqi");
    let games = format!("{out}/games");
    let standings_of = |args: &[&str]| {
        let mut all = vec!["tournament", games.as_str(), "--format", "json"];
        all.extend_from_slice(args);
        let r = qj(&all);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        (r.code, v)
    };
    let (code, trusted) = standings_of(&[]);
    assert_eq!(code, 0);
    assert_eq!(trusted["checked"], "record", "{trusted}");
    let (code, audited) = standings_of(&["--audit"]);
    assert_eq!(code, 0);
    assert_eq!(audited["checked"], "audit", "{audited}");
    assert_eq!(trusted["standings"], audited["standings"]);
    let text = ok(&["tournament", &games]).stdout;
    assert!(
        text.contains("checked: each game's record as its pinned judge signed it"),
        "{text}"
    );

    // A signature damaged inside its armor (canonical form, right key, wrong bytes).
    let sig_path = Path::new(&games).join("game-00001/moves/0001-red.toml.sig");
    let armored = std::fs::read_to_string(&sig_path).unwrap();
    let lines: Vec<&str> = armored.lines().collect();
    let body: String = lines[1..lines.len() - 1].concat();
    let mut blob = base64_decode(&body);
    let last = blob.len() - 1;
    blob[last] ^= 1;
    let damaged = armor(&base64_encode(&blob));
    std::fs::write(&sig_path, &damaged).unwrap();
    let (code, v) = standings_of(&[]);
    assert_eq!(code, 0, "the record vouches for the file: {v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    let (code, v) = standings_of(&["--audit"]);
    assert_eq!(code, 1, "{v}");
    assert!(
        v["invalid"][0]["error"]
            .as_str()
            .unwrap()
            .contains("0001-red.toml.sig"),
        "{v}"
    );
    let (code, v) = standings_of(&["--judge", "any"]);
    assert_eq!((code, v["checked"].as_str()), (1, Some("audit")), "{v}");
    std::fs::write(&sig_path, &armored).unwrap();

    // Another recorded move of the same seat in its place (signed, and on trust by its hash
    // where it was recorded): refused under the record too, at the ply it does not belong to.
    let first = Path::new(&games).join("game-00001/moves/0001-red.toml");
    let original = std::fs::read(&first).unwrap();
    let later = Path::new(&games).join("game-00001/moves/0003-red.toml");
    std::fs::copy(&later, &first).unwrap();
    std::fs::copy(format!("{}.sig", later.display()), &sig_path).unwrap();
    let (code, v) = standings_of(&[]);
    assert_eq!(code, 1, "{v}");
    assert!(
        v["invalid"][0]["error"]
            .as_str()
            .unwrap()
            .contains("moves/0001-red.toml: field ply: says 3, but the file is for ply 1"),
        "{v}"
    );
    std::fs::write(&first, original).unwrap();
    std::fs::write(&sig_path, &armored).unwrap();

    // A recorded move's bytes changed: refused under the record too.
    let file = Path::new(&games).join("game-00002/moves/0002-black.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replacen("ply = 2", "ply = 2 ", 1)).unwrap();
    let (code, v) = standings_of(&[]);
    assert_eq!(code, 1, "{v}");
    assert!(
        v["invalid"][0]["dir"]
            .as_str()
            .unwrap()
            .ends_with("game-00002"),
        "{v}"
    );
}

/// Two games of `game` between `a` (greedy) and `b` (random), in folders under `out`; the
/// match folder, as a string.
fn greedy_against_random(out: &Path, game: &str) -> String {
    let out = out.to_string_lossy().into_owned();
    ok(&[
        "match",
        "--folders",
        "--game",
        game,
        "--out",
        &out,
        "--games",
        "2",
        "--bot",
        "a=builtin:greedy",
        "--bot",
        "b=builtin:random",
    ]);
    out
}

fn armor(body: &str) -> String {
    let folded: Vec<String> = body
        .as_bytes()
        .chunks(70)
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect();
    format!(
        "-----BEGIN SSH SIGNATURE-----\n{}\n-----END SSH SIGNATURE-----\n",
        folded.join("\n")
    )
}

/// The coreutils `base64` with `flag` (`-d` decodes, `-w0` encodes on one line) over `input`.
fn base64(flag: &str, input: &[u8]) -> Vec<u8> {
    Command::new("base64")
        .arg(flag)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(input)?;
            c.wait_with_output()
        })
        .unwrap()
        .stdout
}

fn base64_decode(text: &str) -> Vec<u8> {
    base64("-d", text.as_bytes())
}

fn base64_encode(bytes: &[u8]) -> String {
    String::from_utf8(base64("-w0", bytes)).unwrap()
}
