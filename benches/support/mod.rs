//! What the process benchmarks share: a random bot match made by the qijudge binary, and the
//! CPU time of the child processes run so far.

use std::path::Path;
use std::process::{Command, Output};

/// Plays `games` Luzhanqi games of two random bots into `out` (`--folders`: each game kept as
/// a folder, else packed), from `seed`; the match's output, checked.
pub fn random_match(out: &Path, games: usize, seed: u64, folders: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_qijudge"));
    cmd.args(["match", "--game", "luzhanqi", "--seed", &seed.to_string()])
        .args(["--bot", "a=builtin:random", "--bot", "b=builtin:random"])
        .args(["--games", &games.to_string(), "--concurrency", "2"])
        .arg("--out")
        .arg(out);
    if folders {
        cmd.arg("--folders");
    }
    let made = cmd.output().expect("the qijudge binary runs");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    made
}

/// The CPU time (user + system) of every child process waited for so far, in seconds.
pub fn children_cpu_s() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0);
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    s(usage.ru_utime) + s(usage.ru_stime)
}
