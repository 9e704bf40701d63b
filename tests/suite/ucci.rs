//! UCCI engines (`ucci:COMMAND`): the exchange against a scripted engine written from the UCCI
//! 3.0 text (`tests/bots/ucci_engine.py`), draw offers and resignations as the game's own, the
//! organiser's `banmoves`, and real engines from Debian (Fairy-Stockfish, Sjaak II) over UCCI
//! and UCI, every game verified.

use super::helpers::*;
use super::matches::{results, root, sample_xiangqi_script};
use std::path::Path;
use std::process::Command;

const PYTHON: &str = "/usr/bin/python3";

/// A scripted UCCI engine's `--bot` argument.
fn scripted(name: &str, script: &Path, extra: &str) -> String {
    format!(
        "{name}=ucci:{PYTHON} {} {} {extra}",
        root().join("tests/bots/ucci_engine.py").display(),
        script.display()
    )
}

/// The record's entries of one game folder.
fn entries(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("record.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["entry"].clone())
        .collect()
}

/// Two scripted UCCI engines, one taking milliseconds and one counting seconds, play the
/// sample game move for move with a clock: the record is that game and verifies; each engine
/// was told the position after the last capture, its times in its own unit, and a new game.
#[test]
fn ucci_engines_play_xiangqi_through_the_adapter() {
    let tmp = tempfile::tempdir().unwrap();
    let (script, moves) = sample_xiangqi_script(tmp.path());
    let logs = tmp.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let ms_log = logs.join("ms.log");
    let s_log = logs.join("s.log");
    let ms = scripted("ms", &script, &format!("millis log={}", ms_log.display()));
    let s = scripted("s", &script, &format!("log={}", s_log.display()));
    let out = tmp.path().join("m").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &ms,
        "--bot",
        &s,
        "--games",
        "1",
        "--tc",
        "60+1",
        "--bot-write",
        &logs.to_string_lossy(),
        "--out",
        &out,
        "--format",
        "json",
    ]);
    assert_eq!(
        results(&r.stdout),
        [("ms".into(), "checkmate".into(), moves.len().into())],
        "{}",
        r.stdout
    );
    let dir = Path::new(&out).join("games/game-00001");
    assert_eq!(recorded_moves(&dir), moves);
    ok(&["verify", &dir.to_string_lossy()]);

    let ms_lines = std::fs::read_to_string(&ms_log).unwrap();
    let s_lines = std::fs::read_to_string(&s_log).unwrap();
    for lines in [&ms_lines, &s_lines] {
        let first: Vec<&str> = lines.lines().take(1).collect();
        assert_eq!(first, ["ucci"], "{lines}");
        assert!(lines.contains("\nsetoption newgame\n"), "{lines}");
        // Every position is the last capture's (its half-move clock 0) and the moves since;
        // the engine checked that they are the script's.
        for line in lines.lines().filter(|l| l.starts_with("position ")) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields[1], "fen", "{line}");
            assert_eq!(fields[6], "0", "not after a capture: {line}");
        }
        assert!(
            lines.lines().any(|l| l.starts_with("position fen ")
                && !l.contains(" 0 1")
                && l.contains(" moves ")),
            "no position after a capture with moves since: {lines}"
        );
    }
    // The engine that offered milliseconds was told to use them and got times in them; the
    // other got whole seconds (60 s and 1 s a move: `time 60 increment 1`).
    assert!(
        ms_lines.contains("\nsetoption usemillisec true\n"),
        "{ms_lines}"
    );
    assert!(!s_lines.contains("usemillisec"), "{s_lines}");
    let first_go = |lines: &str| {
        lines
            .lines()
            .find(|l| l.starts_with("go "))
            .unwrap()
            .to_string()
    };
    assert_eq!(
        first_go(&ms_lines),
        "go time 60000 increment 1000 opptime 60000 oppincrement 1000"
    );
    assert_eq!(
        first_go(&s_lines),
        "go time 60 increment 1 opptime 60 oppincrement 1"
    );
}

/// An engine's `bestmove M draw` offers a draw with its move (signed, recorded, in the PGN); the
/// opponent, told `go draw`, accepts with `draw`: the game is drawn by agreement. `bestmove M
/// resign` resigns. Both games verify.
#[test]
fn ucci_draw_offers_and_resignations_are_the_games_own() {
    let tmp = tempfile::tempdir().unwrap();
    let (script, _) = sample_xiangqi_script(tmp.path());
    let logs = tmp.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let accept_log = logs.join("accept.log");
    let offer = scripted("offer", &script, "draw-at=4");
    let accept = scripted(
        "accept",
        &script,
        &format!("accept-draw log={}", accept_log.display()),
    );
    let out = tmp.path().join("d").to_string_lossy().into_owned();
    let pgn = tmp.path().join("d.pgn");
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &offer,
        "--bot",
        &accept,
        "--games",
        "1",
        "--bot-write",
        &logs.to_string_lossy(),
        "--pgn-out",
        &pgn.to_string_lossy(),
        "--out",
        &out,
        "--format",
        "json",
    ]);
    // Red offers with its third move (ply 5); black accepts at ply 6.
    assert_eq!(
        results(&r.stdout),
        [(serde_json::Value::Null, "agreement".into(), 5.into())],
        "{}",
        r.stdout
    );
    let dir = Path::new(&out).join("games/game-00001");
    let e = entries(&dir);
    let offered: Vec<&serde_json::Value> = e
        .iter()
        .filter(|e| e["kind"] == "move" && e["draw_offered"] == true)
        .collect();
    assert_eq!(offered.len(), 1, "{e:?}");
    assert_eq!(offered[0]["ply"], 5);
    assert!(
        e.iter()
            .any(|e| e["kind"] == "move" && e["move"] == "accept-draw" && e["seat"] == "black"),
        "{e:?}"
    );
    ok(&["verify", &dir.to_string_lossy()]);
    // Black was told the offer (`go draw`) only at the turn it stood.
    let told = std::fs::read_to_string(&accept_log).unwrap();
    let gos: Vec<&str> = told.lines().filter(|l| l.starts_with("go ")).collect();
    assert_eq!(gos.len(), 3, "{told}");
    assert!(gos[..2].iter().all(|g| !g.starts_with("go draw")), "{told}");
    assert!(gos[2].starts_with("go draw "), "{told}");
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        pgn.contains("{+0.00/1 0.") && pgn.contains("s; draw offered}"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[Termination \"draw agreed\"]") && pgn.contains("1/2-1/2"),
        "{pgn}"
    );

    // Black resigns with its fourth move (ply 8).
    let resigns = scripted("resigns", &script, "resign-at=7");
    let plays = scripted("plays", &script, "");
    let out = tmp.path().join("r").to_string_lossy().into_owned();
    let r = ok(&[
        "match",
        "--folders",
        "--game",
        "xiangqi",
        "--bot",
        &plays,
        "--bot",
        &resigns,
        "--games",
        "1",
        "--out",
        &out,
        "--format",
        "json",
    ]);
    assert_eq!(
        results(&r.stdout),
        [("plays".into(), "resignation".into(), 7.into())],
        "{}",
        r.stdout
    );
    ok(&[
        "verify",
        &Path::new(&out).join("games/game-00001").to_string_lossy(),
    ]);
}

/// With `banmoves=on`, an engine about to lose by perpetual check is told `banmoves` with the
/// losing check (computed from the judge's own AXF ruling); without it, it is not told. The
/// scripted engine plays the check anyway and loses by it, as the judge rules.
#[test]
fn banmoves_name_the_check_that_would_lose_by_repetition() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book.epd");
    std::fs::write(&book, "4k4/9/9/9/9/9/9/9/3R5/5K3 w - -\n").unwrap();
    // Red checks from e1 and d1 in turn; black's king steps between e9 and d9.
    let cycle = ["d1e1", "e9d9", "e1d1", "d9e9"];
    let script = tmp.path().join("cycle.txt");
    std::fs::write(
        &script,
        (0..16).map(|i| cycle[i % 4]).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let play = |banmoves: &str, tag: &str| {
        let log = logs.join(format!("{tag}.log"));
        let a = scripted("a", &script, &format!("log={}", log.display()));
        let b = scripted("b", &script, "");
        let out = tmp.path().join(tag).to_string_lossy().into_owned();
        let r = ok(&[
            "match",
            "--folders",
            "--game",
            "xiangqi",
            "--bot",
            &a,
            "--bot",
            &b,
            "--games",
            "2",
            "--book",
            &book.to_string_lossy(),
            "--engine",
            &format!("a:banmoves={banmoves}"),
            "--bot-write",
            &logs.to_string_lossy(),
            "--out",
            &out,
            "--format",
            "json",
        ]);
        for k in 1..=2 {
            ok(&[
                "verify",
                &Path::new(&out)
                    .join(format!("games/game-{k:05}"))
                    .to_string_lossy(),
            ]);
        }
        (results(&r.stdout), std::fs::read_to_string(&log).unwrap())
    };
    let (games, told) = play("on", "on");
    // Game 1: a is red and loses by perpetual check; game 2 (colours reversed): b loses.
    assert_eq!(
        games,
        [
            ("b".into(), "perpetual check".into(), 8.into()),
            ("a".into(), "perpetual check".into(), 8.into())
        ],
        "{told}"
    );
    let bans: Vec<&str> = told.lines().filter(|l| l.starts_with("banmoves")).collect();
    // Red's check at ply 7 lets black's reply repeat the start a third time: banned (once,
    // in game 1; as black in game 2, a is never banned).
    assert_eq!(bans, ["banmoves e1d1"], "{told}");
    let (_, told) = play("off", "off");
    assert!(!told.contains("banmoves"), "{told}");
}

/// Debian's engines, real processes, every game verified: Fairy-Stockfish over UCCI against
/// its WebAssembly build over UCI (from npm, under Node); Sjaak II over UCCI (ranks 1-10, its
/// own FEN letters) against the built-in greedy bot; Sjaak II over UCI against Fairy-Stockfish.
#[test]
fn real_engines_play_over_ucci_and_uci() {
    let fsf = "/usr/games/fairy-stockfish";
    let sjaak = "/usr/games/sjaakii";
    for engine in [fsf, sjaak] {
        assert!(
            Path::new(engine).exists(),
            "{engine} is not installed: apt-get install fairy-stockfish sjaakii (.ci/run does)"
        );
    }
    let wasm = root().join("tests/engines/fairy-stockfish");
    assert!(
        wasm.join("node_modules/fairy-stockfish-nnue.wasm/stockfish.wasm")
            .exists(),
        "the engine is not installed: run `npm ci` in {} (.ci/run does)",
        wasm.display()
    );
    let node_fsf = format!(
        "wasm=uci:/usr/bin/node {}",
        wasm.join("engine.js").display()
    );
    let tmp = tempfile::tempdir().unwrap();
    let matches: [(&str, Vec<String>, Option<&str>); 3] = [
        (
            "fsf-ucci-vs-wasm-uci",
            vec![
                format!("fsf=ucci:{fsf}"),
                node_fsf.clone(),
                "--engine".into(),
                "fsf:depth=6".into(),
                "--engine".into(),
                "wasm:depth=6".into(),
            ],
            None,
        ),
        (
            "sjaak-ucci-vs-greedy",
            vec![
                format!("sjaak=ucci:{sjaak} -ucci"),
                "greedy=builtin:greedy".into(),
                "--engine".into(),
                "sjaak:ranks=1".into(),
                "--engine".into(),
                "sjaak:letters=RHEAKCP".into(),
                "--engine".into(),
                "sjaak:depth=4".into(),
            ],
            Some("sjaak"),
        ),
        (
            "sjaak-uci-vs-wasm-uci",
            vec![
                format!("sjaak=uci:{sjaak} -uci"),
                node_fsf,
                "--engine".into(),
                "sjaak:letters=RHEAKCP".into(),
                "--engine".into(),
                "sjaak:depth=4".into(),
                "--engine".into(),
                "wasm:depth=4".into(),
            ],
            None,
        ),
    ];
    for (tag, args, winner) in matches {
        let out = tmp.path().join(tag);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_qijudge"));
        cmd.args([
            "match",
            "--folders",
            "--game",
            "xiangqi",
            "--games",
            "1",
            "--format",
            "json",
        ]);
        cmd.args(["--time-ms", "20000", "--max-moves", "150"]);
        let mut bots = args.iter();
        // The first two are bots, the rest engine settings.
        for bot in bots.by_ref().take(2) {
            cmd.args(["--bot", bot]);
        }
        cmd.args(bots);
        cmd.arg("--bot-read").arg(&wasm).arg("--out").arg(&out);
        let run = cmd.output().unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "{tag}: {}\n{stdout}",
            String::from_utf8_lossy(&run.stderr)
        );
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let game = &v["games"][0];
        // Neither engine failed (start, protocol, time): the game ended on the board or by
        // the match's length limit.
        let reason = game["reason"].as_str().unwrap_or("");
        assert!(!reason.starts_with("forfeit"), "{tag}: {game}");
        assert!(game["plies"].as_u64().unwrap() >= 10, "{tag}: {game}");
        if let Some(w) = winner {
            assert_eq!(game["winner"], w, "{tag}: {game}");
        }
        let verify = Command::new(env!("CARGO_BIN_EXE_qijudge"))
            .arg("verify")
            .arg(out.join("games/game-00001"))
            .output()
            .unwrap();
        assert!(verify.status.success(), "{tag}: {verify:?}");
    }
}
