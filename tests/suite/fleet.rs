//! qijudge where fastchess stands in an engine-testing fleet: the SPRT against fastchess's own
//! figures, its command line as OpenBench and fishtest write it, its output as their workers
//! read it (tests/fleet/workers.py), and a real engine started from its folder with its
//! variable, its whole conversation logged, its match's PGN read by a PyPI Xiangqi package.

use super::helpers::*;
use super::matches::root;
use std::path::Path;
use std::process::Command;

const PYTHON: &str = "/usr/bin/python3";

/// Every row of tests/data/fastchess-sprt/llr.tsv (fastchess's `SPRT::getLLR`, compiled from
/// its source, on games and pairs, lopsided and empty cells included, in all three models) is
/// what qijudge computes, to a millionth.
#[test]
fn the_sprt_gives_fastchess_figures() {
    use qijudge::tournament::sprt::Sprt;
    use qijudge::tournament::stats::Stats;
    let table = std::fs::read_to_string(root().join("tests/data/fastchess-sprt/llr.tsv")).unwrap();
    let mut rows = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let cells: Vec<&str> = line.split('\t').collect();
        let [model, elo0, elo1, kind, counts, want] = cells[..] else {
            panic!("{line}")
        };
        let test: Sprt = format!("elo0={elo0},elo1={elo1},model={model}")
            .parse()
            .unwrap();
        let n: Vec<u32> = counts.split(' ').map(|c| c.parse().unwrap()).collect();
        let (stats, pairs) = match kind {
            "games" => (
                Stats {
                    wins: n[0],
                    losses: n[1],
                    draws: n[2],
                    ..Stats::default()
                },
                false,
            ),
            _ => (
                Stats {
                    ll: n[0],
                    ld: n[1],
                    wl: n[2],
                    dd: n[3],
                    wd: n[4],
                    ww: n[5],
                    ..Stats::default()
                },
                true,
            ),
        };
        let want: f64 = want.parse().unwrap();
        let got = test.llr(&stats, pairs);
        assert!(
            (got - want).abs() <= 1e-6 * want.abs().max(1.0),
            "{line}: qijudge {got}"
        );
        rows += 1;
    }
    assert!(rows > 500, "{rows} rows");
}

/// Reads qijudge's output with both workers' parsers.
fn workers_read(output: &str) -> serde_json::Value {
    let mut child = Command::new(PYTHON)
        .arg(root().join("tests/fleet/workers.py"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(output.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn book(dir: &Path) -> String {
    let book = dir.join("openings.epd");
    std::fs::write(
        &book,
        [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - -",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RNBAKABNR b - -",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - -",
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    book.to_string_lossy().into_owned()
}

/// fishtest's command line (worker/games.py) with qijudge's settings first: every pair's block
/// is read by fishtest's parser with the games twice the pairs, and the run ends with `Finished
/// match`; OpenBench's parser (Client/worker.py) reads one batch per pair from the `Finished
/// game` lines alone; both add up to qijudge's own summary, and both count the crashes.
#[test]
fn fleet_workers_read_qijudges_output_batch_by_batch() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let summary = tmp
        .path()
        .join("summary.json")
        .to_string_lossy()
        .into_owned();
    let flaky = format!(
        "cmd={PYTHON} args={} crash-as-black",
        root().join("tests/bots/misbehave.py").display()
    );
    let book = book(tmp.path());
    let examples = root().join("examples/bots").display().to_string();
    let line = format!(
        "--out {out} --folders --summary-json {summary} --bot-read {examples} \
         -testEnv -recover -repeat -games 2 -rounds 6 -ratinginterval 1 -scoreinterval 1 \
         -autosaveinterval 0 -report penta=true -srand 3 -variant xiangqi -concurrency 2 \
         -openings file={book} format=epd order=random plies=16 start=1 \
         -engine name=New-1a2b cmd=builtin:greedy \
         -engine name=Base-3c4d {flaky} \
         -each proto=bot -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05"
    );
    // (args= holds spaces in the real command lines: split as a shell would, keeping it whole.)
    let mut argv: Vec<String> = vec!["fastchess".into()];
    let mut words = line.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if w.starts_with("args=") {
            argv.push(format!("{w} {}", words.next().unwrap()));
        } else {
            argv.push(w.to_string());
        }
    }
    let run = qj(&argv.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(run.code, 0, "{run:?}");
    // Every game started and finished, in fastchess's words.
    for k in 1..=12 {
        assert!(
            run.stdout.contains(&format!("Started game {k} of 12 (")),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains(&format!("Finished game {k} (")));
    }
    let mine: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(mine["games"], 12);
    // The second engine crashes as black: once in each pair, a loss by "disconnects".
    assert_eq!(run.stdout.matches("Base-3c4d disconnects}").count(), 6);
    // fishtest reads both outputs, as its worker does.
    let read = workers_read(&format!("{}{}", run.stdout, run.stderr));
    let fishtest = &read["fishtest"];
    let blocks = fishtest["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 6, "a block per pair: {read}");
    for (i, b) in blocks.iter().enumerate() {
        // Finished pairs only, so far, in order of finishing.
        assert!(b["games"].as_u64().unwrap() <= 2 * (i as u64 + 1), "{b}");
    }
    let last = blocks.last().unwrap();
    for key in ["games", "wins", "losses", "draws", "ptnml"] {
        assert_eq!(last[key], mine[key], "{key}: {read}");
    }
    assert_eq!(fishtest["crashes"], 6, "{read}");
    assert_eq!(fishtest["time_losses"], 0, "{read}");
    assert_eq!(fishtest["finished_match"], true);
    // OpenBench: one batch per pair, adding up to the same counts.
    let batches = read["openbench"].as_array().unwrap();
    assert_eq!(batches.len(), 6, "{read}");
    let mut ptnml = [0u64; 5];
    let mut ldw = [0u64; 3];
    let mut crashes = 0;
    for b in batches {
        for (i, n) in b["pentanomial"].as_array().unwrap().iter().enumerate() {
            ptnml[i] += n.as_u64().unwrap();
        }
        for (i, n) in b["trinomial"].as_array().unwrap().iter().enumerate() {
            ldw[i] += n.as_u64().unwrap();
        }
        crashes += b["crashes"].as_u64().unwrap();
    }
    assert_eq!(serde_json::json!(ptnml), mine["ptnml"]);
    assert_eq!(
        serde_json::json!(ldw),
        serde_json::json!([mine["losses"], mine["draws"], mine["wins"]])
    );
    assert_eq!(crashes, 6);
    // The block names the model the fleet's bounds are read in, and ends the run as fastchess.
    assert!(run.stdout.contains("LLR: ") && run.stdout.contains("[0.00, 5.00]\n"));
    assert!(run.stdout.ends_with("Finished match\n"), "{}", run.stdout);
    // What was read and not used is said, on standard error.
    assert!(
        run.stderr.contains("-testEnv: read, not used"),
        "{}",
        run.stderr
    );
}

/// Debian's Fairy-Stockfish, as a fleet configures it: started from its own folder (`dir=`,
/// with a relative `cmd=`) with a variable of its own (`env.`), the whole conversation of each
/// game logged with timestamps (`-log`); the match's PGN carries each move's score, depth and
/// own time (times that differ), reads back with `qijudge check`, and its plain form (`min=true`)
/// is read move for move by cchess, a Xiangqi package from PyPI.
#[test]
fn a_real_engine_from_its_folder_with_its_variable_logged_and_its_pgn_read() {
    let fsf = "/usr/games/fairy-stockfish";
    assert!(
        Path::new(fsf).exists(),
        "{fsf} is not installed: apt-get install fairy-stockfish (.ci/run does)"
    );
    let tmp = tempfile::tempdir().unwrap();
    let engines = tmp.path().join("Engines");
    std::fs::create_dir(&engines).unwrap();
    // What a fleet's engine folder holds: the engine (here a script that says where it runs and
    // what it was given, then becomes the engine).
    let script = engines.join("fsf.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"cwd=$(pwd) mark=$FLEET_MARK\" >&2\nexec {fsf} \"$@\"\n"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = tmp.path().join("m");
    let pgn = tmp.path().join("games.pgn");
    let plain = tmp.path().join("plain.pgn");
    let book = book(tmp.path());
    let play = |out: &Path, pgn_words: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_qijudge"));
        cmd.arg("fastchess")
            .args(["--folders", "--out"])
            .arg(out)
            .args(["--max-moves", "40", "--time-ms", "20000"]);
        cmd.args(["-engine", "name=fsf-dir", "cmd=./fsf.sh"])
            .arg(format!("dir={}", engines.display()))
            .args(["env.FLEET_MARK=kept", "depth=3"]);
        cmd.args(["-engine", "name=fsf", &format!("cmd={fsf}"), "depth=2"]);
        cmd.args(["-each", "proto=ucci", "-rounds", "1", "-repeat"]);
        cmd.args([
            "-openings",
            &format!("file={book}"),
            "-log",
            "file=fleet.log",
        ]);
        cmd.arg("-pgnout").args(pgn_words);
        let run = cmd.output().unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
        assert!(
            run.status.success(),
            "{}\n{stdout}",
            String::from_utf8_lossy(&run.stderr)
        );
        stdout
    };
    let stdout = play(&out, &[&format!("file={}", pgn.display())]);
    assert!(stdout.contains("Finished game 2 (") && stdout.contains("Ptnml(0-2): ["));
    assert!(
        stdout.contains("Results of fsf-dir vs fsf (3 plies - 2 plies, NULL, NULL, openings.epd):"),
        "{stdout}"
    );
    // The conversation: to the engine, from it, its standard error; each line timestamped. The
    // start and handshake are logged apart, the engine then playing every game it is kept for.
    let start = std::fs::read_to_string(out.join("logs/start-fsf-dir.log")).unwrap();
    let game1 = std::fs::read_to_string(out.join("logs/game-00001-fsf-dir.log")).unwrap();
    for want in ["Z > ucci\n", "Z < ucciok\n"] {
        assert!(start.contains(want), "{want:?} in {start}");
    }
    for want in [
        "Z > position fen ",
        "Z > go depth 3\n",
        "Z < info depth 3 ",
        "Z < bestmove ",
    ] {
        assert!(game1.contains(want), "{want:?} in {game1}");
    }
    let log = format!("{start}{game1}");
    let canonical = std::fs::canonicalize(&engines).unwrap();
    assert!(
        log.contains(&format!("Z ! cwd={} mark=kept\n", canonical.display())),
        "{log}"
    );
    let stamped = log.lines().all(|l| {
        l.len() >= 26
            && l.as_bytes()[4] == b'-'
            && l.as_bytes()[10] == b'T'
            && &l[23..25] == "Z "
            && matches!(&l[25..26], ">" | "<" | "!")
    });
    assert!(stamped, "{log}");
    // Each game verifies; the PGN's comments hold each move's score, depth and time.
    for k in 1..=2 {
        ok(&[
            "verify",
            &out.join(format!("games/game-{k:05}")).to_string_lossy(),
        ]);
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    let times: Vec<&str> = text
        .split('{')
        .skip(1)
        .filter_map(|c| c.split('}').next())
        .filter_map(|c| c.split(' ').next_back())
        .collect();
    assert!(times.len() >= 20, "{text}");
    assert!(times
        .iter()
        .all(|t| t.ends_with('s') && t[..t.len() - 1].parse::<f64>().is_ok()));
    let mut distinct = times.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() > 1, "every move's own time: {times:?}");
    let checked = ok(&["check", "xiangqi", &pgn.to_string_lossy()]);
    assert!(checked.stdout.contains("game 2"), "{}", checked.stdout);
    // The same match again with fastchess's minimal PGN, read by cchess move for move.
    play(
        &tmp.path().join("m2"),
        &[&format!("file={}", plain.display()), "min=true"],
    );
    let plain_text = std::fs::read_to_string(&plain).unwrap();
    assert!(!plain_text.contains('{'), "{plain_text}");
    let reader = root().join("tests/fleet/read_pgn.py");
    let games: Vec<&str> = plain_text.split("[Game ").skip(1).collect();
    assert_eq!(games.len(), 2);
    for (i, game) in games.iter().enumerate() {
        let file = tmp.path().join(format!("plain-{i}.pgn"));
        std::fs::write(&file, format!("[Game {game}")).unwrap();
        let read = Command::new("python3")
            .arg(&reader)
            .arg(&file)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&read.stdout);
        assert!(
            read.status.success(),
            "{said}{}",
            String::from_utf8_lossy(&read.stderr)
        );
        // cchess's count of moves is the game's own.
        let game_dir = tmp.path().join(format!("m2/games/game-{:05}", i + 1));
        let plies = std::fs::read_dir(game_dir.join("moves"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "toml"))
            })
            .count();
        assert_eq!(said.trim(), format!("moves {plies}"), "{game}");
    }
}
