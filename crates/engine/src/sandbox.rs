//! Process bots and UCI engines are programs of unknown trust. Each runs in a sandbox made by the
//! kernel, not by a list of things to hide:
//!
//! 1. **bubblewrap** (`bwrap`) puts it in new user, PID, IPC, network, UTS and mount namespaces:
//!    it sees a fresh `/proc` with its own processes only (no opponent, no runner to signal or to
//!    read the environment of), no network and no host Unix socket (abstract ones belong to the
//!    network namespace; path ones are not mounted), a `/dev` of its own (its own empty
//!    `/dev/shm`), and a file system of the system's folders (read-only), its program files, what
//!    the organiser grants and its own folder (the only writable place). It holds no capability
//!    and cannot make user namespaces of its own.
//! 2. **Landlock**, applied inside by qijudge itself (`qijudge sandbox-exec`, run by bwrap) before
//!    the bot's command starts: the same file rules again, and on kernels with Landlock ABI 6 the
//!    signal and abstract-socket scopes.
//!
//! Before any of it, the runner marks every descriptor above 2 close-on-exec and clears the
//! environment, so a bot inherits its three pipes and `PATH`, `HOME`, `TMPDIR` and `LANG` only.
//!
//! What a bot may consume ([`crate::limits`]): its folder, `/tmp` and `/dev/shm` are tmpfs
//! mounts of the disk limit's size each (in memory, charged to its cgroup); `sandbox-exec` sets
//! the rlimits (processes and threads, open files, file size, no core dumps, and data size
//! where no cgroup bounds memory) before the bot's command starts, inside the user namespace,
//! where the process count is the sandbox's own; a cgroup per bot ([`crate::cgroup`]) bounds
//! memory and processes for all its processes together, also when the organiser is root (for
//! whom the kernel does not enforce the process rlimit).

use crate::cgroup::Cgroup;
use crate::limits::{LimitKind, Limits};
use landlock::{
    Access, AccessFs, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// What the organiser lets bots reach, and how to confine them.
#[derive(Clone, Debug, Default)]
pub struct Grants {
    /// Read (and execute) only.
    pub read: Vec<PathBuf>,
    /// Read and write.
    pub write: Vec<PathBuf>,
    /// Run bots unconfined (their own working folder and a clean environment still).
    pub off: bool,
    /// The qijudge program that applies Landlock inside the sandbox; default: this program.
    pub launcher: Option<PathBuf>,
}

/// The system's folders a program needs to start, visible read-only.
const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
];

/// What of `/etc` a program needs (the loader, names of users and groups, time zone,
/// certificates, alternatives); not the rest (`shadow`, `ssh/`, the organiser's config).
const ETC: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/localtime",
    "/etc/timezone",
    "/etc/alternatives",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/os-release",
    "/etc/mime.types",
];

/// The environment a bot gets; `PATH` is the organiser's (it names no secret).
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The newest Landlock ABI asked for; older kernels enforce what they know.
const LANDLOCK: ABI = ABI::V6;

/// A bot's own folder (removed when the bot is done) and how to start it there.
pub struct Sandbox {
    pub folder: PathBuf,
    /// bwrap's arguments up to and including the launcher's, or empty when off.
    wrapper: Vec<OsString>,
    /// The rlimits set between fork and exec when unconfined (inside, sandbox-exec sets them).
    rlimits: Vec<(Rlimit, u64)>,
    /// The bot's cgroup, where one can be made.
    cgroup: Option<Cgroup>,
    /// The sized tmpfs mounts, as the bot sees them, and once opened (through the sandbox's
    /// `/proc/PID/root`) descriptors to them, to tell when one is full.
    places: Vec<PathBuf>,
    place_fds: Vec<std::os::fd::OwnedFd>,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        // The tmpfs mounts go with the sandbox's last process and these descriptors.
        self.place_fds.clear();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

impl Sandbox {
    /// The command that runs `shell_command` with `sh -c` in the bot's folder, confined unless
    /// the organiser said off; descriptors above 2 are closed at exec either way.
    pub fn command(&self, shell_command: &str) -> Command {
        use std::os::unix::process::CommandExt;
        let mut cmd = match self.wrapper.split_first() {
            Some((program, args)) => {
                let mut cmd = Command::new(program);
                cmd.args(args).arg("/bin/sh");
                cmd
            }
            None => Command::new("/bin/sh"),
        };
        cmd.arg("-c")
            .arg(shell_command)
            .current_dir(&self.folder)
            .env_clear()
            .env("PATH", host_path())
            .env("HOME", &self.folder)
            .env("TMPDIR", &self.folder)
            .env("LANG", "C.UTF-8");
        let joins = self
            .cgroup
            .as_ref()
            .map(Cgroup::join_descriptors)
            .unwrap_or_default();
        // Confined, sandbox-exec sets the rlimits inside; unconfined, they are set here (the
        // process count is left out: outside a user namespace it counts the organiser's own).
        let rlimits: Vec<(Rlimit, u64)> = match self.wrapper.is_empty() {
            true => self
                .rlimits
                .iter()
                .copied()
                .filter(|(r, _)| *r != Rlimit::Nproc)
                .collect(),
            false => Vec::new(),
        };
        // SAFETY: the closure makes system calls only (a write per cgroup, setrlimit, and
        // close_range or fcntl per descriptor); it allocates nothing and takes no lock.
        unsafe {
            cmd.pre_exec(move || {
                crate::cgroup::join(&joins)?;
                for &(r, value) in &rlimits {
                    r.set(value)?;
                }
                close_inherited_descriptors();
                Ok(())
            });
        }
        cmd
    }

    /// The limit the bot reached, if any: by its cgroup's counters, or a tmpfs of its own that
    /// is full. `pid` is the process started by [`Sandbox::command`].
    pub fn limit_reached(&mut self, pid: u32) -> Option<LimitKind> {
        if let Some(kind) = self.cgroup.as_ref().and_then(Cgroup::reached) {
            return Some(kind);
        }
        if self.place_fds.is_empty() && !self.places.is_empty() {
            self.open_places(pid);
        }
        self.place_fds
            .iter()
            .any(is_full)
            .then_some(LimitKind::Disk)
    }

    /// A handle on the sandbox's init (bwrap's child, whose end is the end of every process
    /// in the sandbox), to wait for once `pid` is stopped.
    pub fn init_process(&self, pid: u32) -> Option<std::os::fd::OwnedFd> {
        use std::os::fd::{FromRawFd, OwnedFd};
        if self.wrapper.is_empty() {
            return None;
        }
        let init: libc::pid_t = sandbox_init(pid)?.parse().ok()?;
        // SAFETY: pidfd_open returns a new descriptor or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, init, 0) };
        // SAFETY: fd was just opened and is owned here alone.
        (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as std::os::fd::RawFd) })
    }

    /// Opens the bot's tmpfs mounts through the root of the sandbox's init (bwrap's child).
    fn open_places(&mut self, pid: u32) {
        use std::os::unix::fs::OpenOptionsExt;
        // Not started yet: tried again at the next check.
        let Some(init) = sandbox_init(pid) else {
            return;
        };
        let opened: std::io::Result<Vec<std::os::fd::OwnedFd>> = self
            .places
            .iter()
            .map(|place| {
                std::fs::OpenOptions::new()
                    .read(true)
                    .custom_flags(libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW)
                    .open(format!("/proc/{init}/root{}", place.display()))
                    .map(std::os::fd::OwnedFd::from)
            })
            .collect();
        match opened {
            Ok(fds) => self.place_fds = fds,
            // Out of reach (the bot is gone, or its /proc is denied): no disk check for this
            // bot, rather than a failed attempt after every answer.
            Err(_) => self.places.clear(),
        }
    }
}

/// The pid of bwrap's child (the sandbox's init), `pid` being bwrap.
fn sandbox_init(pid: u32) -> Option<String> {
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    children.split_whitespace().next().map(str::to_string)
}

/// Waits (up to `wait`) for the process of a pidfd to end.
pub fn wait_for_end(pidfd: &std::os::fd::OwnedFd, wait: std::time::Duration) {
    use std::os::fd::AsRawFd;
    let mut fd = libc::pollfd {
        fd: pidfd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the duration of the call.
    unsafe {
        libc::poll(
            &mut fd,
            1,
            wait.as_millis().min(i32::MAX as u128) as libc::c_int,
        )
    };
}

/// Whether the file system of `fd` has no block left.
fn is_full(fd: &std::os::fd::OwnedFd) -> bool {
    use std::os::fd::AsRawFd;
    let mut stat = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: fstatvfs fills the struct when it returns 0.
    unsafe {
        if libc::fstatvfs(fd.as_raw_fd(), stat.as_mut_ptr()) != 0 {
            return false;
        }
        let stat = stat.assume_init();
        stat.f_blocks > 0 && stat.f_bavail == 0
    }
}

/// The rlimits a bot runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rlimit {
    /// Processes and threads (counted in the sandbox's user namespace).
    Nproc,
    Nofile,
    /// The largest file it may write.
    Fsize,
    /// Data segment and private writable mappings, per process.
    Data,
    Core,
}

impl Rlimit {
    const ALL: [Rlimit; 5] = [
        Rlimit::Nproc,
        Rlimit::Nofile,
        Rlimit::Fsize,
        Rlimit::Data,
        Rlimit::Core,
    ];

    fn name(self) -> &'static str {
        match self {
            Rlimit::Nproc => "nproc",
            Rlimit::Nofile => "nofile",
            Rlimit::Fsize => "fsize",
            Rlimit::Data => "data",
            Rlimit::Core => "core",
        }
    }

    fn resource(self) -> libc::__rlimit_resource_t {
        match self {
            Rlimit::Nproc => libc::RLIMIT_NPROC,
            Rlimit::Nofile => libc::RLIMIT_NOFILE,
            Rlimit::Fsize => libc::RLIMIT_FSIZE,
            Rlimit::Data => libc::RLIMIT_DATA,
            Rlimit::Core => libc::RLIMIT_CORE,
        }
    }

    /// Sets soft and hard limit (async-signal-safe).
    fn set(self, value: u64) -> std::io::Result<()> {
        let limit = libc::rlimit {
            rlim_cur: value as libc::rlim_t,
            rlim_max: value as libc::rlim_t,
        };
        // SAFETY: setrlimit with a valid struct.
        if unsafe { libc::setrlimit(self.resource(), &limit) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }

    /// `nproc=66`, as sandbox-exec's `--rlimit` reads it.
    fn parse(text: &str) -> Result<(Rlimit, u64), String> {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("--rlimit {text}: expected NAME=VALUE"))?;
        let r = Rlimit::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| format!("--rlimit {text}: no such limit"))?;
        let v = value
            .parse()
            .map_err(|_| format!("--rlimit {text}: not a number"))?;
        Ok((r, v))
    }
}

/// The rlimits for a bot's limits; `cgroup` says which limits a cgroup holds already.
fn rlimits(limits: &Limits, cgroup: Option<&Cgroup>) -> Vec<(Rlimit, u64)> {
    let mut out = vec![(Rlimit::Core, 0)];
    if let Some(n) = limits.processes {
        // The sandbox's init counts in its user namespace. With a cgroup, one more than the
        // cgroup's own bound, so the cgroup refuses first and its counter tells why.
        let spare = if cgroup.is_some() { 2 } else { 1 };
        out.push((Rlimit::Nproc, n + spare));
    }
    if let Some(n) = limits.files {
        out.push((Rlimit::Nofile, n));
    }
    if let Some(n) = limits.disk {
        out.push((Rlimit::Fsize, n));
    }
    // The cgroup bounds resident memory of all the bot's processes; without one, each process
    // is bounded in what it may map (an engine maps its hash table once).
    if let (Some(n), None) = (limits.memory, cgroup) {
        out.push((Rlimit::Data, n));
    }
    out
}

fn host_path() -> OsString {
    std::env::var_os("PATH").unwrap_or_else(|| DEFAULT_PATH.into())
}

/// Marks every descriptor above 2 close-on-exec: a descriptor the organiser's shell left open
/// (a key file on fd 7) must not reach a bot. Run between fork and exec.
fn close_inherited_descriptors() {
    // SAFETY: plain system calls on descriptor numbers.
    unsafe {
        let done = libc::syscall(
            libc::SYS_close_range,
            3 as libc::c_uint,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        ) == 0;
        if !done {
            let max = match libc::sysconf(libc::_SC_OPEN_MAX) {
                n if n > 0 => n.min(1 << 20) as libc::c_int,
                _ => 1024,
            };
            for fd in 3..max {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
    }
}

/// Makes the bot's folder and the wrapper that confines it, for a bot whose program files are
/// `programs` (as named in the command, and their targets).
pub fn prepare(
    grants: &Grants,
    limits: &Limits,
    programs: &[ProgramFile],
) -> Result<Sandbox, String> {
    let folder = std::env::temp_dir().join(format!(
        "qijudge-bot-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    {
        use std::os::unix::fs::DirBuilderExt;
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&folder)
            .map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    let cgroup = Cgroup::make(limits)?;
    let mut sandbox = Sandbox {
        folder,
        wrapper: Vec::new(),
        rlimits: rlimits(limits, cgroup.as_ref()),
        cgroup,
        places: Vec::new(),
        place_fds: Vec::new(),
    };
    if grants.off {
        return Ok(sandbox);
    }
    let launcher = launcher(grants)?;
    check_once(grants, limits, &launcher)?;
    sandbox.wrapper = wrapper(
        grants,
        &launcher,
        programs,
        &sandbox.folder,
        limits.disk,
        &sandbox.rlimits,
    );
    if limits.disk.is_some() {
        sandbox.places = vec![
            sandbox.folder.clone(),
            PathBuf::from("/tmp"),
            PathBuf::from("/dev/shm"),
        ];
    }
    Ok(sandbox)
}

fn launcher(grants: &Grants) -> Result<PathBuf, String> {
    match &grants.launcher {
        Some(path) => Ok(path.clone()),
        None => std::env::current_exe()
            .and_then(std::fs::canonicalize)
            .map_err(|e| format!("cannot find the qijudge program to confine bots with: {e}")),
    }
}

/// bwrap's arguments for one bot, ending with `LAUNCHER sandbox-exec … --` (the shell and its
/// command follow).
fn wrapper(
    grants: &Grants,
    launcher: &Path,
    programs: &[ProgramFile],
    folder: &Path,
    disk: Option<u64>,
    rlimits: &[(Rlimit, u64)],
) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    // Each writable place of the bot's own is a tmpfs of the disk limit's size.
    let size = disk.map(|n| n.to_string());
    let sized = |a: &mut Vec<OsString>, at: &Path| {
        if let Some(n) = &size {
            a.extend(["--size".into(), n.into()]);
        }
        a.extend(["--tmpfs".into(), at.as_os_str().to_os_string()]);
    };
    let mut push = |words: &[&std::ffi::OsStr]| a.extend(words.iter().map(|w| w.to_os_string()));
    push(&[
        "bwrap".as_ref(),
        "--die-with-parent".as_ref(),
        "--new-session".as_ref(),
        "--unshare-user".as_ref(),
        "--unshare-pid".as_ref(),
        "--unshare-ipc".as_ref(),
        "--unshare-net".as_ref(),
        "--unshare-uts".as_ref(),
        "--unshare-cgroup-try".as_ref(),
        "--disable-userns".as_ref(),
        "--uid".as_ref(),
        "65534".as_ref(),
        "--gid".as_ref(),
        "65534".as_ref(),
        "--cap-drop".as_ref(),
        "ALL".as_ref(),
        "--hostname".as_ref(),
        "qijudge-bot".as_ref(),
    ]);
    for dir in SYSTEM.iter().chain(ETC) {
        let path = Path::new(dir);
        match std::fs::read_link(path) {
            // Debian's /bin is a link to usr/bin: keep it a link.
            Ok(target) => push(&["--symlink".as_ref(), target.as_os_str(), path.as_os_str()]),
            Err(_) if path.exists() => push(&["--ro-bind".as_ref(), path.as_ref(), path.as_ref()]),
            Err(_) => {}
        }
    }
    push(&[
        "--proc".as_ref(),
        "/proc".as_ref(),
        "--dev".as_ref(),
        "/dev".as_ref(),
    ]);
    if size.is_some() {
        sized(&mut a, Path::new("/dev/shm"));
    }
    sized(&mut a, Path::new("/tmp"));
    let mut push = |words: &[&std::ffi::OsStr]| a.extend(words.iter().map(|w| w.to_os_string()));
    let visible = |path: &Path| {
        SYSTEM
            .iter()
            .chain(ETC)
            .map(Path::new)
            .chain(grants.read.iter().map(PathBuf::as_path))
            .chain(grants.write.iter().map(PathBuf::as_path))
            .any(|dir| path.starts_with(dir))
    };
    let mut files: Vec<(&Path, &Path)> = vec![(launcher, launcher)];
    for p in programs {
        files.push((&p.real, &p.real));
        files.push((&p.real, &p.named));
    }
    let mut bound: Vec<&Path> = Vec::new();
    for (source, at) in files {
        if !visible(at) && !bound.contains(&at) {
            bound.push(at);
            push(&["--ro-bind".as_ref(), source.as_ref(), at.as_ref()]);
        }
    }
    for path in &grants.read {
        push(&["--ro-bind".as_ref(), path.as_ref(), path.as_ref()]);
    }
    for path in &grants.write {
        push(&["--bind".as_ref(), path.as_ref(), path.as_ref()]);
    }
    // Its own folder last (it may lie under a grant): a sized tmpfs, or the folder made for it
    // when the disk is unlimited.
    match size {
        Some(_) => sized(&mut a, folder),
        None => a.extend(["--bind".into(), folder.into(), folder.into()]),
    }
    let mut push = |words: &[&std::ffi::OsStr]| a.extend(words.iter().map(|w| w.to_os_string()));
    push(&[
        "--chdir".as_ref(),
        folder.as_ref(),
        "--".as_ref(),
        launcher.as_ref(),
        "sandbox-exec".as_ref(),
    ]);
    for path in grants.read.iter().chain(programs.iter().map(|p| &p.real)) {
        push(&["--read".as_ref(), path.as_ref()]);
    }
    for path in grants
        .write
        .iter()
        .chain(std::iter::once(&folder.to_path_buf()))
    {
        push(&["--write".as_ref(), path.as_ref()]);
    }
    for (r, value) in rlimits {
        push(&[
            "--rlimit".as_ref(),
            format!("{}={value}", r.name()).as_ref(),
        ]);
    }
    push(&["--".as_ref()]);
    a
}

/// Starts the whole sandbox once, on `true`, so a missing layer is said before the first game
/// (and not as a bot that "crashed").
fn check_once(grants: &Grants, limits: &Limits, launcher: &Path) -> Result<(), String> {
    static CHECKED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    CHECKED
        .get_or_init(|| {
            let folder = Sandbox {
                folder: std::env::temp_dir()
                    .join(format!("qijudge-bot-check-{}", std::process::id())),
                wrapper: Vec::new(),
                rlimits: Vec::new(),
                cgroup: None,
                places: Vec::new(),
                place_fds: Vec::new(),
            };
            std::fs::create_dir_all(&folder.folder)
                .map_err(|e| format!("{}: {e}", folder.folder.display()))?;
            let args = wrapper(
                &Grants {
                    read: Vec::new(),
                    write: Vec::new(),
                    ..grants.clone()
                },
                launcher,
                &[],
                &folder.folder,
                limits.disk,
                &rlimits(limits, None),
            );
            let output = Command::new(&args[0])
                .args(&args[1..])
                .args(["/bin/sh", "-c", "true"])
                .env_clear()
                .env("PATH", host_path())
                .stdin(std::process::Stdio::null())
                .output();
            let off = "or, knowing a bot then runs with your user's rights, --bot-sandbox off";
            match output {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
                    "process bots run under bubblewrap, which is not installed: install it \
                     (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install \
                     bubblewrap), {off}"
                )),
                Err(e) => Err(format!("bwrap does not start: {e}; {off}")),
                Ok(out) if !out.status.success() => Err(format!(
                    "the bot sandbox does not start here ({}): {}; where user namespaces are \
                     restricted (sysctl kernel.unprivileged_userns_clone, Ubuntu's AppArmor \
                     rule for bwrap), allow them for bwrap, {off}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                )),
                Ok(_) => Ok(()),
            }
        })
        .clone()
}

/// `qijudge sandbox-exec --read P… --write P… --rlimit NAME=N… -- PROGRAM ARGS…`, run by bwrap
/// inside the namespaces: sets the rlimits, applies Landlock (files as given, signal and abstract-socket scopes where the
/// kernel has ABI 6) and becomes PROGRAM. Returns only on failure.
pub fn exec_confined(
    read: &[PathBuf],
    write: &[PathBuf],
    limits: &[String],
    argv: &[OsString],
) -> String {
    use std::os::unix::process::CommandExt;
    let Some((program, args)) = argv.split_first() else {
        return "sandbox-exec: no program to run".into();
    };
    // The rlimits first: inside the user namespace, the process count is the sandbox's own.
    for text in limits {
        match Rlimit::parse(text).and_then(|(r, v)| r.set(v).map_err(|e| format!("{text}: {e}"))) {
            Ok(()) => {}
            Err(e) => return format!("sandbox-exec: {e}"),
        }
    }
    match restrict(read, write) {
        Ok(RulesetStatus::NotEnforced) => {
            return "sandbox-exec: this kernel does not enforce Landlock (5.13 or later, with \
                    landlock in the lsm= boot list)"
                .into()
        }
        Ok(_) => {}
        Err(e) => return format!("sandbox-exec: landlock: {e}"),
    }
    let e = Command::new(program).args(args).exec();
    format!("sandbox-exec: {}: {e}", Path::new(program).display())
}

fn restrict(read: &[PathBuf], write: &[PathBuf]) -> Result<RulesetStatus, String> {
    let e = |e: landlock::RulesetError| e.to_string();
    let read_access = AccessFs::from_read(LANDLOCK);
    let all = AccessFs::from_all(LANDLOCK);
    let mut ruleset = Ruleset::default()
        .handle_access(all)
        .map_err(e)?
        .set_compatibility(CompatLevel::BestEffort)
        .scope(Scope::Signal | Scope::AbstractUnixSocket)
        .map_err(e)?
        .create()
        .map_err(e)?;
    let readable = SYSTEM
        .iter()
        .chain(ETC)
        .chain(&["/proc"])
        .map(PathBuf::from)
        .chain(read.iter().cloned());
    let rule = |path: &Path, access| {
        PathFd::new(path)
            .ok()
            .map(|fd| PathBeneath::new(fd, access))
    };
    for path in readable {
        if let Some(r) = rule(&path, read_access) {
            ruleset = ruleset.add_rule(r).map_err(e)?;
        }
    }
    // Devices (/dev/null, /dev/urandom) and the sandbox's own /dev/shm and /tmp.
    if let Some(r) = rule(Path::new("/dev"), read_access | AccessFs::WriteFile) {
        ruleset = ruleset.add_rule(r).map_err(e)?;
    }
    for path in write
        .iter()
        .cloned()
        .chain(["/tmp", "/dev/shm"].map(PathBuf::from))
    {
        if let Some(r) = rule(&path, all) {
            ruleset = ruleset.add_rule(r).map_err(e)?;
        }
    }
    Ok(ruleset.restrict_self().map_err(e)?.ruleset)
}

/// A file a bot command names: as named (made absolute) and the file it leads to.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramFile {
    pub named: PathBuf,
    pub real: PathBuf,
}

/// The files a bot command names (words that are paths of existing files), so the bot may read
/// its own program; the command with those words made absolute, since the bot starts in its
/// own folder. Links stay links in the command: a virtual environment's `bin/python` is a link
/// whose name tells Python where its environment is.
pub fn program_files(command: &str) -> (String, Vec<ProgramFile>) {
    program_files_in(command, Path::new("."))
}

/// [`program_files`] with relative paths read from `base` (the folder the bot starts in).
pub fn program_files_in(command: &str, base: &Path) -> (String, Vec<ProgramFile>) {
    let mut files = Vec::new();
    let words: Vec<String> = command
        .split(' ')
        .enumerate()
        .map(|(i, word)| {
            let plain = !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"/._-+:=@".contains(&b));
            let path = match base == Path::new(".") {
                true => PathBuf::from(word),
                false => base.join(word),
            };
            match (std::fs::canonicalize(&path), std::path::absolute(&path)) {
                // A path, or an argument naming a file in the current folder (`python3
                // bot.py`): the bot runs in a folder of its own, so it gets the full path. (A
                // first word without a slash is a program looked up in PATH.)
                (Ok(real), Ok(named))
                    if plain && (word.contains('/') || i > 0) && real.is_file() =>
                {
                    let text = named.to_string_lossy().into_owned();
                    files.push(ProgramFile { named, real });
                    text
                }
                _ => word.to_string(),
            }
        })
        .collect();
    (words.join(" "), files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_keeps_its_links_and_grants_their_targets() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("python3.11");
        std::fs::write(&real, "").unwrap();
        let link = tmp.path().join("venv-python");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let command = format!("{} -u bot.py", link.display());
        let (text, files) = program_files(&command);
        // The link is named as given (a virtual environment finds itself by it) and its target
        // may be read.
        assert_eq!(text, command);
        assert_eq!(
            files,
            [ProgramFile {
                named: link.clone(),
                real: std::fs::canonicalize(&real).unwrap()
            }]
        );
    }

    #[test]
    fn without_a_cgroup_rlimits_bound_memory_per_process_and_count_the_init() {
        let limits = Limits::default()
            .with("processes=10,files=unlimited")
            .unwrap();
        let without = rlimits(&limits, None);
        assert!(without.contains(&(Rlimit::Nproc, 11)));
        assert!(without.contains(&(Rlimit::Data, 1 << 30)));
        assert!(!without.iter().any(|(r, _)| *r == Rlimit::Nofile));
        assert_eq!(Rlimit::parse("nproc=11"), Ok((Rlimit::Nproc, 11)));
        assert!(Rlimit::parse("cpu=1").is_err() && Rlimit::parse("nproc=x").is_err());
    }

    #[test]
    fn the_wrapper_shows_a_program_at_its_name_and_the_bot_folder_last_writable() {
        let grants = Grants {
            read: vec!["/opt/engine".into()],
            ..Grants::default()
        };
        let program = ProgramFile {
            named: "/home/o/bots/venv/bin/python".into(),
            real: "/home/o/py/bin/python3.11".into(),
        };
        let words = |disk: Option<u64>, rlimits: &[(Rlimit, u64)]| -> Vec<String> {
            wrapper(
                &grants,
                Path::new("/home/o/qijudge"),
                std::slice::from_ref(&program),
                Path::new("/tmp/qijudge-bot-1-0"),
                disk,
                rlimits,
            )
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
        };
        // Unlimited disk: the folder made for the bot is bound.
        let args = words(None, &[]);
        let text = args.join(" ");
        for part in [
            "--unshare-user --unshare-pid --unshare-ipc --unshare-net",
            "--ro-bind /home/o/qijudge /home/o/qijudge",
            "--ro-bind /home/o/py/bin/python3.11 /home/o/bots/venv/bin/python",
            "--bind /tmp/qijudge-bot-1-0 /tmp/qijudge-bot-1-0 --chdir /tmp/qijudge-bot-1-0",
            "-- /home/o/qijudge sandbox-exec --read /opt/engine --read /home/o/py/bin/python3.11 \
             --write /tmp/qijudge-bot-1-0 --",
        ] {
            assert!(text.contains(part), "{part:?} not in {text}");
        }
        // Nothing of /etc but the listed files, and no /sys, /run or /home as a whole.
        assert!(!args
            .iter()
            .any(|a| a == "/etc" || a == "/sys" || a == "/run" || a == "/home"));
        assert!(text.contains("--proc /proc --dev /dev --tmpfs /tmp"));
        assert_eq!(args.last().map(String::as_str), Some("--"));
        // A disk limit: each writable place of its own a tmpfs of that size, the folder last;
        // the rlimits go to sandbox-exec.
        let limits = Limits::default();
        let args = words(Some(1 << 20), &rlimits(&limits, None));
        let text = args.join(" ");
        for part in [
            "--dev /dev --size 1048576 --tmpfs /dev/shm --size 1048576 --tmpfs /tmp",
            "--size 1048576 --tmpfs /tmp/qijudge-bot-1-0 --chdir /tmp/qijudge-bot-1-0",
            "--write /tmp/qijudge-bot-1-0 --rlimit core=0 --rlimit nproc=65 --rlimit nofile=256 \
             --rlimit fsize=67108864 --rlimit data=1073741824 --",
        ] {
            assert!(text.contains(part), "{part:?} not in {text}");
        }
        assert!(!text.contains("--bind /tmp/qijudge-bot-1-0"), "{text}");
        assert_eq!(args.last().map(String::as_str), Some("--"));
    }
}
