//! Process bots are programs of unknown trust: each runs in an empty working folder of its own
//! and, on Linux with Landlock, can reach nothing of the file system but the system's folders
//! (read-only), its own folder and what the organiser grants. So a bot cannot read the match
//! folder (the opponent's setup, the judge's key), another bot's files or the user's keys.

use landlock::{
    Access, AccessFs, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, ABI,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What the organiser lets bots reach beyond the system's folders.
#[derive(Clone, Debug, Default)]
pub struct Grants {
    /// Read (and execute) only.
    pub read: Vec<PathBuf>,
    /// Read and write.
    pub write: Vec<PathBuf>,
    /// Run bots unconfined (their own working folder still): for kernels without Landlock.
    pub off: bool,
}

/// The system's folders a program needs to start: read and execute only.
const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/proc", "/sys",
];

/// The newest Landlock ABI asked for; older kernels enforce what they know.
const LANDLOCK: ABI = ABI::V5;

/// A bot's confinement, made in the parent before the bot starts (the child only applies it).
pub struct Sandbox {
    /// The bot's own working folder, removed when the bot is done.
    pub folder: PathBuf,
    pub ruleset: Option<RulesetCreated>,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Whether this kernel enforces Landlock file-system rules (asked once per process).
pub fn available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessFs::from_all(ABI::V1))
            .and_then(|r| r.create())
            .is_ok()
    })
}

/// Makes the working folder and the rules for a bot whose program files are `programs`.
pub fn prepare(grants: &Grants, programs: &[PathBuf]) -> Result<Sandbox, String> {
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
    if grants.off {
        return Ok(Sandbox {
            folder,
            ruleset: None,
        });
    }
    if !available() {
        let _ = std::fs::remove_dir_all(&folder);
        return Err(
            "this kernel does not enforce Landlock, so process bots cannot be confined; \
                    run the match as a user who can read nothing else, with --bot-sandbox off"
                .into(),
        );
    }
    let read = AccessFs::from_read(LANDLOCK);
    let all = AccessFs::from_all(LANDLOCK);
    let rule = |path: &Path, access| {
        PathFd::new(path)
            .ok()
            .map(|fd| PathBeneath::new(fd, access))
    };
    let mut ruleset = Ruleset::default()
        .handle_access(all)
        .and_then(|r| r.create())
        .map_err(|e| format!("landlock: {e}"))?;
    let readable = SYSTEM
        .iter()
        .map(PathBuf::from)
        .chain(grants.read.iter().cloned())
        .chain(programs.iter().cloned());
    for path in readable {
        if let Some(r) = rule(&path, read) {
            ruleset = ruleset.add_rule(r).map_err(|e| format!("landlock: {e}"))?;
        }
    }
    // Devices: /dev/null, /dev/urandom, a terminal.
    if let Some(r) = rule(Path::new("/dev"), read | AccessFs::WriteFile) {
        ruleset = ruleset.add_rule(r).map_err(|e| format!("landlock: {e}"))?;
    }
    for path in std::iter::once(&folder).chain(&grants.write) {
        if let Some(r) = rule(path, all) {
            ruleset = ruleset.add_rule(r).map_err(|e| format!("landlock: {e}"))?;
        }
    }
    Ok(Sandbox {
        folder,
        ruleset: Some(ruleset),
    })
}

/// The files a bot command names (words that are paths of existing files, links followed), so
/// the bot may read its own program; the command with those words made absolute, since the bot
/// starts in its own folder. Links stay links in the command: a virtual environment's
/// `bin/python` is a link whose name tells Python where its environment is.
pub fn program_files(command: &str) -> (String, Vec<PathBuf>) {
    let mut files = Vec::new();
    let words: Vec<String> = command
        .split(' ')
        .map(|word| {
            let plain = !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"/._-+:=@".contains(&b));
            let path = Path::new(word);
            match (std::fs::canonicalize(path), std::path::absolute(path)) {
                (Ok(real), Ok(abs)) if plain && word.contains('/') && real.is_file() => {
                    files.push(real);
                    abs.to_string_lossy().into_owned()
                }
                _ => word.to_string(),
            }
        })
        .collect();
    (words.join(" "), files)
}

/// Applies the rules in the child, between fork and exec: only system calls, no allocation.
pub fn confine(ruleset: &mut Option<RulesetCreated>) -> std::io::Result<()> {
    if let Some(r) = ruleset.take() {
        r.restrict_self()
            .map_err(|_| std::io::Error::from_raw_os_error(libc::EPERM))?;
    }
    Ok(())
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
        assert_eq!(files, [std::fs::canonicalize(&real).unwrap()]);
    }
}
