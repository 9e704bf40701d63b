//! Bot limits against hostile bots (`tests/bots/hog.py`): a fork bomb, a thread bomb, a memory
//! hog, a filler of each writable place (its folder, `/tmp`, `/dev/shm`) and a flood of
//! standard error each lose their games by the limit they reached, the opponent scores, the
//! match finishes, and nothing of them is left on the machine: no process, no memory, no tmpfs
//! page, no cgroup, no folder. Run as the test's user (root in CI) and, through `setpriv`, as an
//! unprivileged organiser to whom a cgroup is delegated (a cgroup folder chowned to it, as
//! `systemd-run --user -p Delegate=yes` gives one). Everything runs inside a cgroup the test
//! makes, so what is left is measured in it and not disturbed by tests running beside it.
//!
//! Needs cgroup v1 `pids` and `memory` hierarchies or cgroup v2 with both controllers, writable
//! by the test (root), bubblewrap, setpriv and python3 (`.ci/run` installs them; their absence
//! is a failure).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const PYTHON: &str = "/usr/bin/python3";
const NOBODY: u32 = 65534;

/// The hostile bots and the limit each must lose by.
const HOGS: &[(&str, &str)] = &[
    ("fork", "bot-limit-processes"),
    ("threads", "bot-limit-processes"),
    ("memory", "bot-limit-memory"),
    ("folder", "bot-limit-disk"),
    ("tmp", "bot-limit-disk"),
    ("shm", "bot-limit-disk"),
    ("log", "bot-limit-log"),
];

fn is_root() -> bool {
    // SAFETY: getuid cannot fail.
    unsafe { libc::getuid() == 0 }
}

/// A cgroup the test's match runs in (one folder per controller on v1), removed when dropped.
struct TestCgroup {
    dirs: Vec<PathBuf>,
}

impl TestCgroup {
    fn make(tag: &str) -> TestCgroup {
        let own = std::fs::read_to_string("/proc/self/cgroup").unwrap();
        let path_of = |controller: &str| {
            own.lines().find_map(|l| {
                let mut p = l.splitn(3, ':');
                let (_, c, path) = (p.next()?, p.next()?, p.next()?);
                c.split(',')
                    .any(|x| x == controller)
                    .then(|| path.to_string())
            })
        };
        let name = format!("qijudge-test-{tag}-{}", std::process::id());
        let mut dirs = Vec::new();
        for controller in ["pids", "memory"] {
            let root = Path::new("/sys/fs/cgroup").join(controller);
            let path = path_of(controller).unwrap_or_else(|| {
                panic!("no cgroup v1 {controller} hierarchy here: the bot-limit test needs one")
            });
            let dir = root.join(path.trim_start_matches('/')).join(&name);
            std::fs::create_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e} (the test must run as root)", dir.display()));
            dirs.push(dir);
        }
        TestCgroup { dirs }
    }

    /// Hands the cgroups to `uid`, as a delegation does.
    fn delegate(&self, uid: u32) {
        for dir in &self.dirs {
            for entry in std::iter::once(dir.clone()).chain(
                std::fs::read_dir(dir)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .filter(|p| {
                        let n = p.file_name().unwrap().to_string_lossy();
                        n == "cgroup.procs" || n == "tasks"
                    }),
            ) {
                std::os::unix::fs::chown(&entry, Some(uid), Some(uid)).unwrap();
            }
        }
    }

    /// The shell words that move the shell into these cgroups before it runs the match.
    fn join_script(&self) -> String {
        self.dirs
            .iter()
            .map(|d| format!("echo 0 > {}/cgroup.procs; ", d.display()))
            .collect()
    }

    fn read(&self, controller: &str, file: &str) -> String {
        let dir = self
            .dirs
            .iter()
            .find(|d| d.starts_with(Path::new("/sys/fs/cgroup").join(controller)))
            .unwrap();
        std::fs::read_to_string(dir.join(file)).unwrap()
    }

    /// What is left in the cgroup once the match has exited: tasks, resident memory and tmpfs
    /// pages, and child cgroups.
    fn left(&self) -> (u64, u64, u64, Vec<String>) {
        let tasks: u64 = self.read("pids", "pids.current").trim().parse().unwrap();
        let stat = self.read("memory", "memory.stat");
        let value = |key: &str| {
            stat.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.parse::<u64>().ok())
                .unwrap()
        };
        let children = self
            .dirs
            .iter()
            .flat_map(|d| std::fs::read_dir(d).unwrap())
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().unwrap().is_dir())
            .map(|e| e.path().display().to_string())
            .collect();
        (tasks, value("total_rss"), value("total_shmem"), children)
    }
}

impl Drop for TestCgroup {
    fn drop(&mut self) {
        for dir in &self.dirs {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// A folder any user may use, holding copies of qijudge and the hog an unprivileged user can
/// run, and the `TMPDIR` the match runs with.
struct Workspace {
    tmp: tempfile::TempDir,
    qijudge: PathBuf,
    hog: PathBuf,
}

impl Workspace {
    fn new() -> Workspace {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let open = |p: &Path, mode| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap()
        };
        open(dir, 0o777);
        std::fs::create_dir(dir.join("tmp")).unwrap();
        open(&dir.join("tmp"), 0o777);
        let qijudge = dir.join("qijudge");
        std::fs::copy(env!("CARGO_BIN_EXE_qijudge"), &qijudge).unwrap();
        let hog = dir.join("hog.py");
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/hog.py"),
            &hog,
        )
        .unwrap();
        open(&hog, 0o644);
        Workspace { tmp, qijudge, hog }
    }

    fn dir(&self) -> &Path {
        self.tmp.path()
    }

    /// `qijudge match --game xiangqi --gauntlet` with `builtin:random` first, run from a shell
    /// that joins `cgroup` (and, for `as_user`, drops to nobody) first.
    fn gauntlet(&self, cgroup: &TestCgroup, as_user: bool) -> Command {
        let drop = match as_user {
            true => format!("setpriv --reuid {NOBODY} --regid {NOBODY} --clear-groups "),
            false => String::new(),
        };
        let script = format!("{}exec {drop}\"$@\"", cgroup.join_script());
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(&script).arg("sh").arg(&self.qijudge);
        cmd.args(["match", "--folders", "--game", "xiangqi", "--gauntlet"])
            .args(["--format", "json", "--bot", "rnd=builtin:random"])
            .arg("--out")
            .arg(self.dir().join("m"))
            .env("TMPDIR", self.dir().join("tmp"));
        cmd
    }

    /// `--bot MODE=python3 hog.py MODE`.
    fn hog(&self, mode: &str) -> String {
        format!("{mode}={PYTHON} {} {mode}", self.hog.display())
    }
}

/// Runs the gauntlet of the random bot against every hog, two games each, in a fresh cgroup,
/// as the test's user or as nobody; returns the match's JSON and its standard error.
fn gauntlet(tag: &str, as_user: bool) -> (serde_json::Value, String, TestCgroup) {
    let ws = Workspace::new();
    let dir = ws.dir();
    let cgroup = TestCgroup::make(tag);
    if as_user {
        cgroup.delegate(NOBODY);
    }
    let out = dir.join("m");
    let mut cmd = ws.gauntlet(&cgroup, as_user);
    cmd.args(["--games", "2", "--bot-logs"]);
    for (mode, _) in HOGS {
        cmd.arg("--bot").arg(ws.hog(mode));
    }
    // Smaller than the defaults, so the hogs reach them sooner; the defaults are the real
    // engine's test's.
    cmd.args(["--bot-limit", "memory=256M,disk=32M,log=1M"]);
    let run = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(
        run.status.success(),
        "{tag}: {stderr}\n{}",
        String::from_utf8_lossy(&run.stdout)
    );
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    // The bots' host folders went with them.
    let strays: Vec<_> = std::fs::read_dir(dir.join("tmp"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(strays.is_empty(), "{tag}: left in TMPDIR: {strays:?}");
    // The flood's log was kept up to its limit, with the cut said.
    let log = std::fs::read_dir(out.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("-log.log"))
        .unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.len() < (1 << 20) + 200
            && text.contains("more bytes of standard error cut at the log limit of 1048576"),
        "{tag}: {} bytes in {}",
        text.len(),
        log.display()
    );
    (v, stderr, cgroup)
}

fn assert_each_hog_lost_by_its_limit(tag: &str, v: &serde_json::Value) {
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2 * HOGS.len(), "{tag}: {v}");
    for g in games {
        let players = g["players"].to_string();
        let (mode, code) = HOGS
            .iter()
            .find(|(m, _)| players.contains(&format!("\"{m}\"")))
            .unwrap_or_else(|| panic!("{tag}: {g}"));
        assert_eq!(g["winner"], "rnd", "{tag}: {mode}: {g}");
        assert_eq!(
            g["reason"],
            format!("forfeit ({code})"),
            "{tag}: {mode}: {g}"
        );
    }
    // The opponent's wins count: every point is the random bot's.
    let rnd = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "rnd")
        .unwrap();
    assert_eq!(rnd["wins"], 2 * HOGS.len() as u64, "{tag}: {rnd}");
}

fn assert_nothing_left(tag: &str, cgroup: &TestCgroup) {
    // The sandboxes' inits ended before the match did; their zombies are the host's init's to
    // reap, which takes a moment.
    for _ in 0..100 {
        if cgroup.left().0 == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let (tasks, rss, shmem, children) = cgroup.left();
    assert_eq!(tasks, 0, "{tag}: processes left");
    assert!(rss < 8 << 20, "{tag}: {rss} bytes of resident memory left");
    assert_eq!(shmem, 0, "{tag}: tmpfs pages left");
    assert!(children.is_empty(), "{tag}: cgroups left: {children:?}");
}

#[test]
fn hostile_bots_lose_by_their_limits_and_leave_nothing_behind() {
    let (v, stderr, cgroup) = gauntlet("root", false);
    assert!(
        stderr.contains("memory and processes bounded per bot by a cgroup"),
        "{stderr}"
    );
    assert_each_hog_lost_by_its_limit("as the test's user", &v);
    assert_nothing_left("as the test's user", &cgroup);
    drop(cgroup);
    assert!(
        is_root(),
        "the bot-limit test runs as root (as CI does) to delegate a cgroup"
    );
    let (v, stderr, cgroup) = gauntlet("user", true);
    assert!(
        stderr.contains("memory and processes bounded per bot by a cgroup"),
        "{stderr}"
    );
    assert_each_hog_lost_by_its_limit("as an unprivileged user", &v);
    assert_nothing_left("as an unprivileged user", &cgroup);
}

/// Without a cgroup (an unprivileged organiser to whom none is delegated), the rlimits still
/// hold: a fork bomb is stopped at the process limit inside the sandbox's user namespace (no
/// counter says so: it plays on, its children asleep, and they go with it), and a disk filler
/// at the tmpfs size, which loses its game; the match finishes.
#[test]
fn without_a_cgroup_the_rlimits_and_tmpfs_sizes_still_hold() {
    let ws = Workspace::new();
    // A cgroup of the test's own, not handed over: nobody cannot make cgroups in it.
    let cgroup = TestCgroup::make("plain");
    let mut cmd = ws.gauntlet(&cgroup, true);
    cmd.args(["--games", "1", "--bot-limit", "processes=16,disk=16M"])
        .args(["--bot", &ws.hog("fork"), "--bot", &ws.hog("tmp")]);
    let run = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("no cgroup for the bots"), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{v}");
    let filler = games
        .iter()
        .find(|g| g["players"].to_string().contains("\"tmp\""))
        .unwrap();
    assert_eq!(filler["winner"], "rnd", "{filler}");
    assert_eq!(filler["reason"], "forfeit (bot-limit-disk)", "{filler}");
    // The fork bomb was held at 16 tasks: the cgroup around the whole match never saw more
    // than the match's own few beside them.
    let peak: u64 = cgroup.read("pids", "pids.peak").trim().parse().unwrap();
    assert!(peak < 16 + 12, "{peak} tasks at the peak");
    assert_nothing_left("without a cgroup", &cgroup);
}
