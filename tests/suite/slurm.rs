//! The Slurm example run for real: a single-node Slurm (slurmctld, slurmd and munged of this
//! test's own, on free ports, configured to need no cgroups) runs
//! `examples/shards/slurm-match.sh` as a job array, and `tournament` over its shards gives the
//! standings of the same match played in one process. `.ci/run` installs Debian's `slurm-wlm`
//! and `munge`; without them this test fails.

use super::helpers::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The daemons of one test, stopped when it ends (whatever the outcome).
struct Daemons(Vec<Child>);

impl Drop for Daemons {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn tool(path: &str) -> PathBuf {
    let p = PathBuf::from(path);
    assert!(
        p.exists(),
        "{path} is missing: install Debian's slurm-wlm and munge (.ci/run does)"
    );
    p
}

/// Starts munged, slurmctld and slurmd in the foreground under `dir`; returns them and the
/// configuration file once the node is idle.
fn start_slurm(dir: &Path) -> (Daemons, PathBuf) {
    let (munged, slurmctld, slurmd) = (
        tool("/usr/sbin/munged"),
        tool("/usr/sbin/slurmctld"),
        tool("/usr/sbin/slurmd"),
    );
    for sub in ["state", "spool", "log"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    // A munge key of this test's own, readable by its owner only.
    let key = dir.join("munge.key");
    let mut bytes = vec![0u8; 1024];
    let mut rng =
        qijudge::games::luzhanqi::rules::random::SplitMix64::new(std::process::id() as u64);
    for b in bytes.iter_mut() {
        *b = rng.below(256) as u8;
    }
    std::fs::write(&key, &bytes).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    let user = String::from_utf8(Command::new("id").arg("-un").output().unwrap().stdout)
        .unwrap()
        .trim()
        .to_string();
    let d = dir.display();
    let socket = dir.join("munge.sock");
    let conf = dir.join("slurm.conf");
    std::fs::write(
        &conf,
        format!(
            "ClusterName=qijudge\nSlurmctldHost=localhost\nSlurmctldPort={}\nSlurmdPort={}\n\
             SlurmUser={user}\nSlurmdUser={user}\nAuthType=auth/munge\nAuthInfo=socket={}\n\
             CredType=cred/munge\nStateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/log/slurmctld.log\nSlurmdLogFile={d}/log/slurmd.log\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
             JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n\
             SchedulerType=sched/builtin\nSelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n\
             ReturnToService=2\nMpiDefault=none\n\
             NodeName=localhost CPUs=2 State=UNKNOWN\n\
             PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n",
            free_port(),
            free_port(),
            socket.display()
        ),
    )
    .unwrap();
    let spawn = |cmd: &mut Command| {
        cmd.stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut daemons = Daemons(Vec::new());
    daemons.0.push(spawn(
        Command::new(munged)
            .arg("--foreground")
            .arg("--force")
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--pid-file={d}/munged.pid"))
            .arg(format!("--log-file={d}/log/munged.log"))
            .arg(format!("--seed-file={d}/munge.seed")),
    ));
    let waited = Instant::now();
    while !socket.exists() && waited.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    daemons.0.push(spawn(
        Command::new(slurmctld).arg("-D").arg("-f").arg(&conf),
    ));
    daemons.0.push(spawn(
        Command::new(slurmd)
            .args(["-D", "-N", "localhost", "-f"])
            .arg(&conf),
    ));
    // The node is up once sinfo says it is idle.
    let waited = Instant::now();
    loop {
        let out = Command::new("sinfo")
            .args(["-h", "-o", "%T"])
            .env("SLURM_CONF", &conf)
            .output()
            .unwrap();
        if String::from_utf8_lossy(&out.stdout).trim() == "idle" {
            break;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "the Slurm node did not come up: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(dir.join("log/slurmctld.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    (daemons, conf)
}

#[test]
fn the_slurm_example_runs_as_a_job_array_and_its_shards_make_the_whole_match() {
    let tmp = tempfile::tempdir().unwrap();
    let (_daemons, conf) = start_slurm(&tmp.path().join("slurm"));
    // The example runs from a checkout: its bots and its script, and qijudge on PATH.
    let work = tmp.path().join("work");
    for rel in [
        "examples/shards/slurm-match.sh",
        "examples/bots/random_bot.py",
    ] {
        let to = work.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join(rel), &to).unwrap();
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_qijudge")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let submitted = Command::new("timeout")
        .args(["600", "sbatch", "--wait", "--array=0-2"])
        .arg("examples/shards/slurm-match.sh")
        .current_dir(&work)
        .env("SLURM_CONF", &conf)
        .env("PATH", &path)
        .env("QIJUDGE_GAMES", "2")
        .env("QIJUDGE_SEED", "11")
        .output()
        .unwrap();
    let logs: String = std::fs::read_dir(&work)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("slurm-qijudge-")
        })
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    assert!(submitted.status.success(), "{submitted:?}\n{logs}");
    // Three tasks, each with its shard of the 6 games (3 bots, 2 games an encounter).
    let mut shards = Vec::new();
    for task in 0..3 {
        let games = work.join(format!("results/shard-{task}/games"));
        let packed = std::fs::read_dir(&games)
            .unwrap_or_else(|e| panic!("{}: {e}\n{logs}", games.display()))
            .count();
        assert_eq!(packed, 2, "shard {task}: {logs}");
        shards.push(games.to_string_lossy().into_owned());
    }
    let mut args = vec!["tournament"];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--format", "json"]);
    let merged = ok(&args);
    // The same match in one process.
    let whole = tmp.path().join("whole").to_string_lossy().into_owned();
    let bot = format!(
        "example={} {}",
        "/usr/bin/python3",
        root().join("examples/bots/random_bot.py").display()
    );
    let one = ok(&[
        "match",
        "--game",
        "luzhanqi",
        "--bot",
        &bot,
        "--bot",
        "builtin:greedy",
        "--bot",
        "builtin:random",
        "--games",
        "2",
        "--seed",
        "11",
        "--pack",
        "--out",
        &whole,
        "--format",
        "json",
    ]);
    let standings = |json: &str| {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        (v["standings"].clone(), v["crosstable"].clone())
    };
    assert_eq!(standings(&merged.stdout), standings(&one.stdout), "{logs}");
}
