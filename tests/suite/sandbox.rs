//! The bot sandbox against a hostile bot (`tests/bots/hostile.py`) that tries every way out a
//! hostile review found: signal the opponent, the runner and an outside process; read the
//! runner's environment; use an ssh-agent started for the test, any listed Unix socket, an
//! abstract socket and a loopback TCP port; read and write the host's `/dev/shm`; read a
//! descriptor the organiser's shell left open; read the match folder, the judge's key and the
//! other bot's folder. Confined, every attempt fails, as the user running the test (root in CI)
//! and as an unprivileged user; with `--bot-sandbox off` the same bot gets through, which shows
//! that the test can fail. Needs bubblewrap, ssh-agent, setpriv and python3 (`.ci/run` installs
//! them; their absence is a failure).

use std::io::Write;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{SocketAddr, UnixListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";
const NOBODY: u32 = 65534;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn is_root() -> bool {
    // SAFETY: getuid cannot fail.
    unsafe { libc::getuid() == 0 }
}

/// Everything the hostile bot aims at, made by the test and named in `targets.json`.
struct Targets {
    tmp: tempfile::TempDir,
    victim: Child,
    agent: Child,
    abstract_listener: UnixListener,
    tcp: std::net::TcpListener,
    shm_secret: PathBuf,
    shm_planted: PathBuf,
    secret: String,
}

impl Drop for Targets {
    fn drop(&mut self) {
        let _ = self.victim.kill();
        let _ = self.agent.kill();
        let _ = self.victim.wait();
        let _ = self.agent.wait();
        let _ = std::fs::remove_file(&self.shm_secret);
        let _ = std::fs::remove_file(&self.shm_planted);
    }
}

fn open_to_all(path: &Path) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777)).unwrap();
}

fn targets(tag: &str) -> Targets {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for dir in ["grant", "report", "bots", "tmp"] {
        std::fs::create_dir(tmp.path().join(dir)).unwrap();
    }
    open_to_all(&tmp.path().join("report"));
    open_to_all(&tmp.path().join("tmp"));
    open_to_all(tmp.path());
    // The programs, where an unprivileged user can read them.
    std::fs::copy(
        env!("CARGO_BIN_EXE_qijudge"),
        tmp.path().join("bots/qijudge"),
    )
    .unwrap();
    for bot in ["tests/bots/hostile.py", "examples/bots/random_bot.py"] {
        let name = Path::new(bot).file_name().unwrap();
        std::fs::copy(root().join(bot), tmp.path().join("bots").join(name)).unwrap();
    }
    let victim = Command::new("sleep").arg("600").spawn().unwrap();
    // A real ssh-agent holding a key, as the organiser's would.
    let agent_socket = tmp.path().join("agent.sock");
    let agent = Command::new("ssh-agent")
        .args(["-D", "-a"])
        .arg(&agent_socket)
        .stdout(Stdio::null())
        .spawn()
        .expect("ssh-agent (openssh-client) must be installed");
    for _ in 0..100 {
        if agent_socket.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let key = tmp.path().join("organiser");
    assert!(Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(&key)
        .status()
        .unwrap()
        .success());
    assert!(Command::new("ssh-add")
        .arg(&key)
        .env("SSH_AUTH_SOCK", &agent_socket)
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success());
    // The agent answers whoever can reach it (so the unprivileged control is not stopped by
    // the socket's mode; the sandbox must stop it).
    open_to_all(&agent_socket);
    let abstract_name = format!("qijudge-test-{tag}-{}", std::process::id());
    let abstract_listener =
        UnixListener::bind_addr(&SocketAddr::from_abstract_name(&abstract_name).unwrap()).unwrap();
    abstract_listener.set_nonblocking(true).unwrap();
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    tcp.set_nonblocking(true).unwrap();
    let secret = format!("organiser-secret-{tag}-{}", std::process::id());
    let shm_secret = PathBuf::from(format!(
        "/dev/shm/qijudge-test-{tag}-{}",
        std::process::id()
    ));
    std::fs::write(&shm_secret, &secret).unwrap();
    std::fs::set_permissions(&shm_secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    let shm_planted = PathBuf::from(format!(
        "/dev/shm/qijudge-planted-{tag}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&shm_planted);
    std::fs::write(tmp.path().join("fd-secret"), &secret).unwrap();
    std::fs::set_permissions(
        tmp.path().join("fd-secret"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    let t = Targets {
        victim,
        agent,
        abstract_listener,
        tcp,
        shm_secret,
        shm_planted,
        secret,
        tmp,
    };
    let json = serde_json::json!({
        "victim_pid": t.victim.id(),
        "runner_pid": 0,
        "agent_socket": agent_socket,
        "abstract": abstract_name,
        "tcp_port": t.tcp.local_addr().unwrap().port(),
        "shm_secret": t.shm_secret,
        "shm_planted": t.shm_planted,
        "fd": 7,
        "secret": t.secret,
        "write_root": tag == "on",
        "match": t.tmp.path().join("m"),
    });
    write_targets(&t, json);
    t
}

fn write_targets(t: &Targets, json: serde_json::Value) {
    let path = t.tmp.path().join("grant/targets.json");
    std::fs::write(&path, json.to_string()).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(
        t.tmp.path().join("grant"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
}

/// Runs a two-game match of the hostile bot against a Python random bot, from a shell that
/// holds the secret file open on descriptor 7 and the secret in its environment (and, for
/// `as_user`, drops to an unprivileged user after opening it). Returns each attempt's line.
fn hostile_match(t: &Targets, sandbox: &str, as_user: bool) -> (Vec<String>, String) {
    let dir = t.tmp.path();
    let bots = dir.join("bots");
    let hostile = format!(
        "hostile={PYTHON} {} {} {} {}",
        bots.join("hostile.py").display(),
        dir.join("report").display(),
        dir.join("grant/targets.json").display(),
        bots.join("random_bot.py").display(),
    );
    let opponent = format!("random={PYTHON} {}", bots.join("random_bot.py").display());
    let out = dir.join("m");
    let _ = std::fs::remove_dir_all(&out);
    for f in std::fs::read_dir(dir.join("report")).unwrap() {
        std::fs::remove_file(f.unwrap().path()).unwrap();
    }
    // The runner's own pid is the shell's, which execs into qijudge: the bot learns it from
    // a file written by the shell before the exec.
    let script = format!(
        "exec 7<{fd}; python3 -c 'import json,sys,os; p=sys.argv[1]; d=json.load(open(p)); \
         d[\"runner_pid\"]=os.getppid(); open(p,\"w\").write(json.dumps(d))' {targets}; \
         exec {drop} \"$@\"",
        fd = dir.join("fd-secret").display(),
        targets = dir.join("grant/targets.json").display(),
        drop = if as_user {
            format!("setpriv --reuid {NOBODY} --regid {NOBODY} --clear-groups")
        } else {
            String::new()
        },
    );
    let output = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .arg("sh")
        .arg(bots.join("qijudge"))
        .args([
            "match",
            "--folders",
            "--game",
            "luzhanqi",
            "--games",
            "2",
            "--format",
            "json",
        ])
        .arg("--out")
        .arg(&out)
        .args(["--bot", &hostile, "--bot", &opponent])
        .arg("--bot-read")
        .arg(dir.join("grant"))
        .arg("--bot-write")
        .arg(dir.join("report"))
        .args(["--bot-sandbox", sandbox])
        .env("TMPDIR", dir.join("tmp"))
        .env("ORGANISER_TOKEN", &t.secret)
        .env("SSH_AUTH_SOCK", dir.join("agent.sock"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{sandbox}: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut lines = Vec::new();
    for f in std::fs::read_dir(dir.join("report")).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        lines.extend(text.lines().map(str::to_string));
    }
    (lines, stdout)
}

fn victim_stopped(t: &Targets) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", t.victim.id())).unwrap();
    let state = stat.rsplit(')').next().unwrap().split_whitespace().next();
    state == Some("T")
}

fn connections(t: &Targets) -> (usize, usize) {
    let mut unix = 0;
    while t.abstract_listener.accept().is_ok() {
        unix += 1;
    }
    let mut tcp = 0;
    while t.tcp.accept().is_ok() {
        tcp += 1;
    }
    (unix, tcp)
}

fn assert_all_denied(t: &Targets, who: &str, lines: &[String], stdout: &str) {
    // The sandbox check before the first game, then once per game.
    assert!(lines.len() >= 2 * 19, "{who}: too few reports: {lines:#?}");
    for line in lines {
        if line.starts_with("own folder") || line.starts_with("write /dev/shm") {
            assert!(line.contains("SUCCEEDED"), "{who}: {line}");
        } else {
            assert!(
                line.contains("denied"),
                "{who}: the bot got through: {line}"
            );
        }
    }
    assert!(!victim_stopped(t), "{who}: the victim was stopped");
    assert_eq!(connections(t), (0, 0), "{who}: a socket was reached");
    assert!(
        !t.shm_planted.exists(),
        "{who}: the host's /dev/shm was written"
    );
    assert!(!t.tmp.path().join("grant/planted").exists());
    // Both bots played every game to its end: nobody was stopped or starved.
    let v: serde_json::Value = serde_json::from_str(stdout).unwrap();
    for g in v["games"].as_array().unwrap() {
        let reason = g["reason"].as_str().unwrap_or("");
        assert!(
            !reason.contains("timeout") && !reason.contains("crash"),
            "{who}: {g}"
        );
    }
}

#[test]
fn a_hostile_bot_gets_nowhere_as_root_or_as_a_user() {
    let t = targets("on");
    let (lines, stdout) = hostile_match(&t, "on", false);
    assert_all_denied(&t, "as the test's user", &lines, &stdout);
    if is_root() {
        let (lines, stdout) = hostile_match(&t, "on", true);
        assert_all_denied(&t, "as an unprivileged user", &lines, &stdout);
    }
    // The secret never reached the match's outputs either.
    let mut found = Vec::new();
    for entry in walk(&t.tmp.path().join("m")) {
        if std::fs::read(&entry)
            .unwrap()
            .windows(t.secret.len())
            .any(|w| w == t.secret.as_bytes())
        {
            found.push(entry);
        }
    }
    assert!(found.is_empty(), "{found:?}");
}

/// The same bot with `--bot-sandbox off` reaches what the sandbox keeps from it: the test sees
/// an escape when there is one.
#[test]
fn without_the_sandbox_the_same_bot_gets_through() {
    let t = targets("off");
    let (lines, _) = hostile_match(&t, "off", false);
    let through = |name: &str| {
        lines
            .iter()
            .any(|l| l.starts_with(&format!("{name}:")) && l.contains("SUCCEEDED"))
    };
    for name in [
        "signal every other process",
        "stop the victim",
        "signal the runner",
        "abstract socket",
        "loopback tcp",
        "read /dev/shm",
        "ssh-agent",
        "listed unix sockets",
        "judge key",
        "list match",
        "opponent folder",
        "write a read-only grant",
    ] {
        assert!(through(name), "{name}: {lines:#?}");
    }
    assert!(victim_stopped(&t));
    let (unix, tcp) = connections(&t);
    assert!(unix > 0 && tcp > 0);
    if is_root() {
        assert!(through("read the runner's environment"), "{lines:#?}");
    }
    // Descriptors above 2 and the environment are closed and cleared even then; the bot's
    // probe does find a descriptor a shell hands it directly.
    assert!(!through("inherited descriptor") && !through("own environment"));
    let dir = t.tmp.path();
    for f in std::fs::read_dir(dir.join("report")).unwrap() {
        std::fs::remove_file(f.unwrap().path()).unwrap();
    }
    let direct = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec 7<{}; exec {PYTHON} {} {} {} /bin/true",
            dir.join("fd-secret").display(),
            dir.join("bots/hostile.py").display(),
            dir.join("report").display(),
            dir.join("grant/targets.json").display(),
        ))
        .env("ORGANISER_TOKEN", &t.secret)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let report = std::fs::read_dir(dir.join("report"))
        .unwrap()
        .map(|f| std::fs::read_to_string(f.unwrap().path()).unwrap())
        .collect::<String>();
    assert!(
        report.contains(&format!("inherited descriptor: SUCCEEDED ({})", t.secret))
            && report.contains("own environment: SUCCEEDED (ORGANISER_TOKEN)"),
        "{report}\n{direct:?}"
    );
    let _ = std::io::stderr().flush();
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                files.extend(walk(&p));
            } else {
                files.push(p);
            }
        }
    }
    files
}

/// A real UCI engine (Fairy-Stockfish's WebAssembly build under Node, installed by `npm ci` in
/// `tests/engines/fairy-stockfish`) plays whole Xiangqi games inside the sandbox, granted only
/// its own folder, under the default bot limits with a 256 MB hash table; every game verifies.
#[test]
fn a_real_uci_engine_plays_whole_games_in_the_sandbox() {
    let engine = root().join("tests/engines/fairy-stockfish");
    assert!(
        engine
            .join("node_modules/fairy-stockfish-nnue.wasm/stockfish.wasm")
            .exists(),
        "the engine is not installed: run `npm ci` in {} (.ci/run does)",
        engine.display()
    );
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let bot = format!(
        "fsf=uci:/usr/bin/node {}",
        engine.join("engine.js").display()
    );
    // A clock (5 s + 0.1 s a move) rather than a fixed time a move: the engine keeps a reserve,
    // so a loaded machine does not make it lose on time.
    let run = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args([
            "match",
            "--folders",
            "--game",
            "xiangqi",
            "--games",
            "2",
            "--tc",
            "5+0.1",
        ])
        .args([
            "--format",
            "json",
            "--bot",
            &bot,
            "--bot",
            "greedy=builtin:greedy",
        ])
        .args(["--engine", "fsf:option.Hash=256"])
        .arg("--bot-read")
        .arg(&engine)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}\n{stdout}");
    // The defaults, enforced per bot by a cgroup (CI runs as root, where one can be made).
    assert!(
        stderr.contains("bot limits: memory=1G,processes=64,disk=64M,files=256,log=16M\n")
            && stderr.contains("memory and processes bounded per bot by a cgroup"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for g in games {
        // The engine played (it did not fail to start, time out or crash) and beat greedy.
        assert_eq!(g["winner"], "fsf", "{g}");
        assert!(g["plies"].as_u64().unwrap() >= 5, "{g}");
    }
    for k in 1..=2 {
        let dir = out.join(format!("games/game-{k:05}"));
        let verify = Command::new(env!("CARGO_BIN_EXE_qijudge"))
            .arg("verify")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(verify.status.success(), "{verify:?}");
    }
}

/// The real engine against itself at two fixed depths (`--engine NAME:depth=N`, the engine
/// test fastchess runs with `depth=`), from a book opening played as a pair (colours
/// reversed), in the sandbox: no game is lost by a failure, the deeper search scores at least
/// as much, the pair is reported, and every game verifies from the book's position.
#[test]
fn a_real_uci_engine_plays_itself_at_two_depths() {
    let engine = root().join("tests/engines/fairy-stockfish");
    assert!(
        engine
            .join("node_modules/fairy-stockfish-nnue.wasm/stockfish.wasm")
            .exists(),
        "the engine is not installed: run `npm ci` in {} (.ci/run does)",
        engine.display()
    );
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let book = tmp.path().join("book.epd");
    // After red's central cannon (炮二平五), black to move.
    let opening = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - -";
    std::fs::write(&book, format!("{opening}\n")).unwrap();
    let cmd = format!("/usr/bin/node {}", engine.join("engine.js").display());
    let run = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args([
            "match",
            "--folders",
            "--game",
            "xiangqi",
            "--games",
            "2",
            "--format",
            "json",
        ])
        .args([
            "--bot",
            &format!("d1=uci:{cmd}"),
            "--bot",
            &format!("d4=uci:{cmd}"),
        ])
        .args(["--engine", "d1:depth=1", "--engine", "d4:depth=4"])
        .args(["--engine", "d4:option.Hash=16"])
        // Adjudicated as engine testers do; the games also as PGN with the engines' scores.
        .args(["--resign", "3:800", "--max-moves", "100"])
        .arg("--pgn-out")
        .arg(tmp.path().join("games.pgn"))
        .arg("--book")
        .arg(&book)
        .arg("--bot-read")
        .arg(&engine)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&run.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let mut points = std::collections::BTreeMap::new();
    for g in v["games"].as_array().unwrap() {
        assert!(
            !g["reason"].as_str().unwrap_or("").starts_with("forfeit"),
            "{g}"
        );
        match g["winner"].as_str() {
            Some(w) => *points.entry(w.to_string()).or_insert(0.0) += 1.0,
            None => {
                for b in ["d1", "d4"] {
                    *points.entry(b.to_string()).or_insert(0.0) += 0.5;
                }
            }
        }
    }
    let score = |b: &str| points.get(b).copied().unwrap_or(0.0);
    assert!(score("d4") >= score("d1"), "{stdout}");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("pairs for d1: 1 ("), "{stderr}");
    for k in 1..=2 {
        let dir = out.join(format!("games/game-{k:05}"));
        let verify = Command::new(env!("CARGO_BIN_EXE_qijudge"))
            .arg("verify")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(verify.status.success(), "{verify:?}");
        let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
        assert!(manifest.contains(opening), "{manifest}");
        // Every move the engine played carries the score it reported, signed with the move.
        for entry in std::fs::read_dir(dir.join("moves")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).unwrap();
                // `+0.35/12 0.123s`: score, depth and the move's own time.
                let comment = text
                    .lines()
                    .find_map(|l| l.strip_prefix("comment = \""))
                    .unwrap_or("");
                assert!(
                    comment.starts_with(['+', '-'])
                        && comment.contains('/')
                        && comment.ends_with("s\""),
                    "{text}"
                );
            }
        }
    }
    // The PGN holds both games with the scores, and reads back move for move.
    let pgn = std::fs::read_to_string(tmp.path().join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
    assert!(
        (pgn.contains(" {+") || pgn.contains(" {-")) && pgn.contains("[FEN \""),
        "{pgn}"
    );
    let check = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(["check", "xiangqi"])
        .arg(tmp.path().join("games.pgn"))
        .output()
        .unwrap();
    assert!(check.status.success(), "{check:?}");
    let said = String::from_utf8_lossy(&check.stdout);
    for g in v["games"].as_array().unwrap() {
        assert!(
            said.contains(&format!(": {} plies", g["plies"])),
            "{said}\n{g}"
        );
    }
}

/// Without bubblewrap, process bots are refused before the first game, with what to install
/// and the way out; built-in bots still play.
#[test]
fn without_bubblewrap_process_bots_are_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("no-tools");
    std::fs::create_dir(&empty).unwrap();
    let out = tmp.path().join("m");
    let bot = format!(
        "r={PYTHON} {}",
        root().join("examples/bots/random_bot.py").display()
    );
    let run = |bots: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_qijudge"));
        cmd.args(["match", "--folders", "--game", "luzhanqi", "--games", "1"])
            .arg("--out")
            .arg(&out)
            .env("PATH", &empty);
        for b in bots {
            cmd.args(["--bot", b]);
        }
        cmd.output().unwrap()
    };
    let refused = run(&[&bot, "builtin:random"]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bubblewrap, which is not installed")
            && stderr.contains("apt-get install bubblewrap")
            && stderr.contains("--bot-sandbox off"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&out);
    let builtin = run(&["builtin:greedy", "builtin:random"]);
    assert!(builtin.status.success(), "{builtin:?}");
}

/// A bot named as people type it in their own folder — `/usr/bin/python3 bot.py`, with
/// `--bot-read data` relative too — starts in the sandbox (it runs in a folder of its own, so
/// the runner hands it full paths) and plays; a folder to grant that does not exist is refused
/// by name before any game.
#[test]
fn a_bot_named_by_a_bare_file_name_and_relative_grants_plays_in_the_sandbox() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("examples/bots/random_bot.py"),
        tmp.path().join("bot.py"),
    )
    .unwrap();
    std::fs::create_dir(tmp.path().join("data")).unwrap();
    let run = |read: &str| {
        Command::new(env!("CARGO_BIN_EXE_qijudge"))
            .current_dir(tmp.path())
            .args(["match", "--folders", "--game", "luzhanqi", "--games", "1"])
            .args(["--bot", &format!("mine={PYTHON} bot.py")])
            .args(["--bot", "greedy=builtin:greedy"])
            .args(["--bot-read", read, "--out", "m"])
            .output()
            .unwrap()
    };
    let refused = run("no-such-folder");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("--bot-read no-such-folder: no such file or folder"),
        "{refused:?}"
    );
    assert!(!tmp.path().join("m").exists());
    let played = run("data");
    let stdout = String::from_utf8_lossy(&played.stdout);
    assert!(played.status.success(), "{played:?}");
    assert!(!stdout.contains("forfeit"), "{stdout}");
}
