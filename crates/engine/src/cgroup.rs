//! A control group per process bot, where this process may make one: memory (resident memory
//! of all the bot's processes, its tmpfs files included) and processes (with threads) are then
//! bounded for the bot as a whole and even when the organiser is root, and the kernel's
//! counters tell which limit a bot reached.
//!
//! Where: under this process's own cgroup, in the cgroup v1 `pids` and `memory` hierarchies
//! when they are mounted and writable (root, or a subtree chowned to the organiser), or in the
//! cgroup v2 hierarchy when this process's cgroup is delegated to it (`systemd-run --user
//! --scope -p Delegate=yes`, or any cgroup v2 folder it may write whose `cgroup.controllers`
//! offers `memory` and `pids`: qijudge moves itself into a leaf `qijudge-runner` and enables
//! both controllers for the bots' cgroups beside it, as the kernel's rule of no processes in
//! inner cgroups asks). Elsewhere there is none, and the rlimits of [`crate::sandbox`] remain.

use crate::limits::{LimitKind, Limits};
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Where bots' cgroups are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hierarchy {
    /// cgroup v2: one folder per bot under this one.
    V2(PathBuf),
    /// cgroup v1: a folder per bot under each controller's own.
    V1 {
        pids: Option<PathBuf>,
        memory: Option<PathBuf>,
    },
}

impl Hierarchy {
    pub fn describe(&self) -> String {
        match self {
            Hierarchy::V2(dir) => format!("cgroup v2 under {}", dir.display()),
            Hierarchy::V1 { pids, memory } => {
                let mut parts = Vec::new();
                if let Some(p) = pids {
                    parts.push(format!("pids under {}", p.display()));
                }
                if let Some(m) = memory {
                    parts.push(format!("memory under {}", m.display()));
                }
                format!("cgroup v1 ({})", parts.join(", "))
            }
        }
    }
}

/// The hierarchy bots' cgroups go in, found (and tried) once per process; `Err` says why there
/// is none.
pub fn hierarchy() -> &'static Result<Hierarchy, String> {
    static FOUND: OnceLock<Result<Hierarchy, String>> = OnceLock::new();
    FOUND.get_or_init(|| {
        let cgroups = std::fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("/proc/self/cgroup: {e}"))?;
        let mounts = std::fs::read_to_string("/proc/self/mountinfo")
            .map_err(|e| format!("/proc/self/mountinfo: {e}"))?;
        let places = places(&cgroups, &mounts);
        let mut why = Vec::new();
        if let Some(own) = &places.v2 {
            match delegate_v2(own) {
                Ok(dir) => return Ok(Hierarchy::V2(dir)),
                Err(e) => why.push(e),
            }
        }
        let writable = |dir: &Option<PathBuf>, what: &str, why: &mut Vec<String>| match dir {
            Some(d) => match try_child(d) {
                Ok(()) => Some(d.clone()),
                Err(e) => {
                    why.push(format!("{what}: {e}"));
                    None
                }
            },
            None => None,
        };
        let pids = writable(&places.v1_pids, "cgroup v1 pids", &mut why);
        let memory = writable(&places.v1_memory, "cgroup v1 memory", &mut why);
        if pids.is_some() || memory.is_some() {
            return Ok(Hierarchy::V1 { pids, memory });
        }
        if why.is_empty() {
            why.push(
                "no cgroup v2 with memory and pids, nor cgroup v1 pids or memory, is mounted"
                    .into(),
            );
        }
        Err(why.join("; "))
    })
}

/// This process's cgroup folders, from `/proc/self/cgroup` and `/proc/self/mountinfo`.
#[derive(Debug, Default, PartialEq)]
struct Places {
    v2: Option<PathBuf>,
    v1_pids: Option<PathBuf>,
    v1_memory: Option<PathBuf>,
}

fn places(cgroups: &str, mountinfo: &str) -> Places {
    // Mounts: (mount root, mount point, fstype, super options).
    let mounts: Vec<(&str, &str, &str, &str)> = mountinfo
        .lines()
        .filter_map(|line| {
            let (before, after) = line.split_once(" - ")?;
            let fields: Vec<&str> = before.split(' ').collect();
            let rest: Vec<&str> = after.split(' ').collect();
            Some((
                *fields.get(3)?,
                *fields.get(4)?,
                *rest.first()?,
                *rest.get(2)?,
            ))
        })
        .collect();
    let folder = |root: &str, point: &str, path: &str| {
        let inside = path.strip_prefix(root).unwrap_or(path);
        let mut dir = PathBuf::from(point);
        dir.extend(inside.split('/').filter(|p| !p.is_empty()));
        dir
    };
    let mut found = Places::default();
    for line in cgroups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if controllers.is_empty() {
            if let Some((root, point, _, _)) = mounts.iter().find(|m| m.2 == "cgroup2") {
                found.v2 = Some(folder(root, point, path));
            }
            continue;
        }
        for controller in controllers.split(',') {
            let slot = match controller {
                "pids" => &mut found.v1_pids,
                "memory" => &mut found.v1_memory,
                _ => continue,
            };
            if let Some((root, point, _, _)) = mounts
                .iter()
                .find(|m| m.2 == "cgroup" && m.3.split(',').any(|o| o == controller))
            {
                *slot = Some(folder(root, point, path));
            }
        }
    }
    found
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A cgroup v2 folder where bots' cgroups can have memory and pids limits: this process's own
/// when delegated to it (the process moves into a leaf beside them first).
fn delegate_v2(own: &Path) -> Result<PathBuf, String> {
    let offered = read(&own.join("cgroup.controllers"))?;
    let has = |text: &str, c: &str| text.split_whitespace().any(|w| w == c);
    if !has(&offered, "memory") || !has(&offered, "pids") {
        return Err(format!(
            "cgroup v2 {}: memory and pids are not offered here",
            own.display()
        ));
    }
    let enabled = read(&own.join("cgroup.subtree_control"))?;
    if has(&enabled, "memory") && has(&enabled, "pids") {
        // Already enabled (the cgroup namespace's root, or a leaf we made earlier).
        try_child(own)?;
        return Ok(own.to_path_buf());
    }
    // No processes may stay in a cgroup whose children have controllers: move into a leaf.
    let leaf = own.join("qijudge-runner");
    match std::fs::create_dir(&leaf) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("{}: {e}", leaf.display())),
    }
    write(&leaf.join("cgroup.procs"), &std::process::id().to_string())?;
    if let Err(e) = write(&own.join("cgroup.subtree_control"), "+memory +pids") {
        let _ = write(&own.join("cgroup.procs"), &std::process::id().to_string());
        let _ = std::fs::remove_dir(&leaf);
        return Err(format!("{e} (other processes share this cgroup)"));
    }
    Ok(own.to_path_buf())
}

/// Whether a child cgroup can be made here (made and removed at once).
fn try_child(dir: &Path) -> Result<(), String> {
    let probe = dir.join(format!("qijudge-probe-{}", std::process::id()));
    std::fs::create_dir(&probe).map_err(|e| format!("{}: {e}", dir.display()))?;
    let _ = std::fs::remove_dir(&probe);
    Ok(())
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// One bot's cgroup (one folder on v2, one per controller on v1), removed when dropped, its
/// processes killed first.
pub struct Cgroup {
    dirs: Vec<PathBuf>,
    /// Each folder's `cgroup.procs`, opened before the bot starts: the bot's first process
    /// writes `0` to each between fork and exec (no allocation there).
    procs: Vec<File>,
    pids_events: Option<File>,
    /// `memory.events` (v2) or `memory.oom_control` (v1): both count `oom_kill`.
    memory_events: Option<File>,
}

/// Tasks of the sandbox itself in a bot's cgroup: bwrap outside and its init inside.
pub const SANDBOX_TASKS: u64 = 2;

impl Cgroup {
    /// A cgroup with the bot's memory and process limits, or `None` where none can be made.
    pub fn make(limits: &Limits) -> Result<Option<Cgroup>, String> {
        if limits.memory.is_none() && limits.processes.is_none() {
            return Ok(None);
        }
        let Ok(hierarchy) = hierarchy() else {
            return Ok(None);
        };
        let name = format!(
            "qijudge-bot-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let mut cgroup = Cgroup {
            dirs: Vec::new(),
            procs: Vec::new(),
            pids_events: None,
            memory_events: None,
        };
        let (pids_dir, memory_dir, v2) = match hierarchy {
            Hierarchy::V2(dir) => (Some(dir.join(&name)), Some(dir.join(&name)), true),
            Hierarchy::V1 { pids, memory } => (
                pids.as_ref().map(|d| d.join(&name)),
                memory.as_ref().map(|d| d.join(&name)),
                false,
            ),
        };
        for dir in [&pids_dir, &memory_dir].into_iter().flatten() {
            if cgroup.dirs.contains(dir) {
                continue;
            }
            std::fs::create_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            cgroup.dirs.push(dir.clone());
            let procs = dir.join("cgroup.procs");
            cgroup.procs.push(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&procs)
                    .map_err(|e| format!("{}: {e}", procs.display()))?,
            );
        }
        let open =
            |path: PathBuf| File::open(&path).map_err(|e| format!("{}: {e}", path.display()));
        if let (Some(dir), Some(n)) = (&pids_dir, limits.processes) {
            write(&dir.join("pids.max"), &(n + SANDBOX_TASKS).to_string())?;
            cgroup.pids_events = Some(open(dir.join("pids.events"))?);
        }
        if let (Some(dir), Some(bytes)) = (&memory_dir, limits.memory) {
            if v2 {
                write(&dir.join("memory.max"), &bytes.to_string())?;
                // No swap: memory is memory (absent where the kernel has no swap accounting).
                let _ = write(&dir.join("memory.swap.max"), "0");
                cgroup.memory_events = Some(open(dir.join("memory.events"))?);
            } else {
                write(&dir.join("memory.limit_in_bytes"), &bytes.to_string())?;
                let _ = write(&dir.join("memory.memsw.limit_in_bytes"), &bytes.to_string());
                cgroup.memory_events = Some(open(dir.join("memory.oom_control"))?);
            }
        }
        Ok(Some(cgroup))
    }

    /// The descriptors of the `cgroup.procs` files to write `0` to between fork and exec.
    pub fn join_descriptors(&self) -> Vec<std::os::fd::RawFd> {
        use std::os::fd::AsRawFd;
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// The limit the bot's processes reached, by the kernel's counters.
    pub fn reached(&self) -> Option<LimitKind> {
        let count = |file: &Option<File>, key: &str| -> u64 {
            let Some(file) = file else { return 0 };
            let mut buf = [0u8; 512];
            let n = file.read_at(&mut buf, 0).unwrap_or(0);
            counter(&String::from_utf8_lossy(&buf[..n]), key)
        };
        if count(&self.memory_events, "oom_kill") > 0 {
            return Some(LimitKind::Memory);
        }
        if count(&self.pids_events, "max") > 0 {
            return Some(LimitKind::Processes);
        }
        None
    }
}

/// The value of `key N` in a cgroup's events file.
fn counter(text: &str, key: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or(0)
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        self.procs.clear();
        for dir in &self.dirs {
            // Whatever is left of the bot goes (v2 kills in one write where the kernel can).
            let _ = write(&dir.join("cgroup.kill"), "1");
            for _ in 0..200 {
                if std::fs::remove_dir(dir).is_ok() {
                    break;
                }
                if let Ok(text) = std::fs::read_to_string(dir.join("cgroup.procs")) {
                    for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                        // SAFETY: a signal to a process of the bot's own cgroup.
                        unsafe { libc::kill(pid, libc::SIGKILL) };
                    }
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
    }
}

/// Between fork and exec: moves the new process into the bot's cgroups.
///
/// # Safety
/// Only async-signal-safe calls: one `write` per descriptor.
pub unsafe fn join(descriptors: &[std::os::fd::RawFd]) -> std::io::Result<()> {
    for &fd in descriptors {
        if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_cgroups_are_found_under_their_mounts() {
        let cgroups = "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/abc\n0::/\n";
        let mounts = "\
33 25 0:29 / /sys/fs/cgroup/pids rw,relatime shared:12 - cgroup cgroup rw,pids
34 25 0:30 / /sys/fs/cgroup/memory rw,relatime shared:13 - cgroup cgroup rw,memory
35 25 0:31 / /sys/fs/cgroup/unified rw,relatime shared:14 - cgroup2 cgroup2 rw
36 25 0:32 / /sys/fs/cgroup/cpu rw,relatime shared:15 - cgroup cgroup rw,cpu
";
        let p = places(cgroups, mounts);
        assert_eq!(p.v1_pids, Some("/sys/fs/cgroup/pids".into()));
        assert_eq!(
            p.v1_memory,
            Some("/sys/fs/cgroup/memory/process_api/abc".into())
        );
        assert_eq!(p.v2, Some("/sys/fs/cgroup/unified".into()));
        // A pure v2 host (systemd), the cgroup a scope's.
        let p = places(
            "0::/user.slice/user-1000.slice/run-r1.scope\n",
            "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n",
        );
        assert_eq!(
            p.v2,
            Some("/sys/fs/cgroup/user.slice/user-1000.slice/run-r1.scope".into())
        );
        assert_eq!((p.v1_pids, p.v1_memory), (None, None));
    }

    #[test]
    fn event_counters_are_read_by_key() {
        let v1 = "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n";
        assert_eq!(counter(v1, "oom_kill"), 2);
        assert_eq!(counter(v1, "oom_kill_disable"), 0);
        let v2 = "low 0\nhigh 0\nmax 41\noom 1\noom_kill 1\noom_group_kill 0\n";
        assert_eq!(counter(v2, "max"), 41);
        assert_eq!(counter(v2, "oom_kill"), 1);
        assert_eq!(counter("max 0\n", "max"), 0);
    }
}
