//! The little of git the CI mode and the hooks need: which files a change adds, modifies or
//! deletes, and a file's bytes at a revision. Runs the `git` program; nothing is written.

use qijudge_protocol::error::{Error, Result};
use std::path::Path;
use std::process::Command;

/// What a change did to one path (relative to the game directory, or to the repository's top).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// `A` added, `M` modified, `D` deleted, `T` type changed (git's letters).
    pub status: char,
    pub path: String,
    /// git's file mode after the change (`100644`, `100755`; `120000` a link, `160000` a
    /// submodule); `000000` once deleted.
    pub mode: String,
    /// The blob before and after the change (40 zeros where there is none).
    pub old_id: String,
    pub new_id: String,
}

impl Change {
    /// A change with no modes or blob ids (tests of the path rules).
    pub fn named(status: char, path: &str) -> Change {
        Change {
            status,
            path: path.to_string(),
            mode: if status == 'D' { "000000" } else { "100644" }.to_string(),
            ..Change::default()
        }
    }

    /// Whether what the change leaves at the path is a regular file (or nothing).
    pub fn leaves_regular_file(&self) -> bool {
        matches!(self.mode.as_str(), "100644" | "100755" | "000000")
    }
}

/// Refuses revision arguments that git could take for options or that hold odd characters.
fn check_rev(rev: &str) -> Result<()> {
    let ok = !rev.is_empty()
        && !rev.starts_with('-')
        && rev.len() <= 200
        && rev
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./^~@{}-".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(Error::Io(format!("{rev:?}: not a git revision")))
    }
}

fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| Error::Io(format!("git: {e} (the CI mode and the hooks need git)")))?;
    if !out.status.success() {
        return Err(Error::Io(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
}

/// Parses `git diff --raw -z --no-abbrev` output: `:OLDMODE NEWMODE OLDID NEWID STATUS`, then
/// the path, each ended by a NUL.
fn parse_raw(out: &[u8]) -> Result<Vec<Change>> {
    let bad = |why: &str| Error::Io(format!("git diff: {why}"));
    let mut fields = out.split(|&b| b == 0).filter(|f| !f.is_empty());
    let mut changes = Vec::new();
    while let Some(head) = fields.next() {
        let head = std::str::from_utf8(head).map_err(|_| bad("a status that is not text"))?;
        let parts: Vec<&str> = head.trim_start_matches(':').split(' ').collect();
        let [_, mode, old_id, new_id, status] = parts[..] else {
            return Err(bad("a status line of another shape"));
        };
        let path = fields
            .next()
            .ok_or_else(|| bad("a status without a path"))?;
        let path = String::from_utf8(path.to_vec()).map_err(|_| not_utf8(path))?;
        changes.push(Change {
            status: status.chars().next().unwrap_or('?'),
            path,
            mode: mode.to_string(),
            old_id: old_id.to_string(),
            new_id: new_id.to_string(),
        });
    }
    Ok(changes)
}

/// Files changed under `dir` between two revisions (`head` none: the index, for pre-commit).
pub fn changes(dir: &Path, base: &str, head: Option<&str>) -> Result<Vec<Change>> {
    diff(dir, base, head, &["--relative"], ".")
}

/// Files changed anywhere in the repository between two revisions (`head` none: the index),
/// with paths relative to the repository's top.
pub fn repo_changes(dir: &Path, base: &str, head: Option<&str>) -> Result<Vec<Change>> {
    diff(dir, base, head, &[], ":/")
}

/// `git diff --name-status` from `base` to `head` (or the index) of the paths `spec` names.
fn diff(
    dir: &Path,
    base: &str,
    head: Option<&str>,
    options: &[&str],
    spec: &str,
) -> Result<Vec<Change>> {
    check_rev(base)?;
    let mut args = vec!["diff", "--raw", "-z", "--no-abbrev", "--no-renames"];
    args.extend_from_slice(options);
    match head {
        Some(h) => {
            check_rev(h)?;
            args.extend([base, h]);
        }
        None => args.extend(["--cached", base]),
    }
    args.extend(["--", spec]);
    parse_raw(&git(dir, &args)?)
}

/// The game folders at `rev` (none: the index), relative to the repository's top, ending in `/`
/// (empty for the top), each with the blob id of its `game.toml`.
pub fn games(dir: &Path, rev: Option<&str>) -> Result<std::collections::BTreeMap<String, String>> {
    let out = match rev {
        Some(r) if r == EMPTY_TREE => return Ok(Default::default()),
        Some(r) => {
            check_rev(r)?;
            git(dir, &["ls-tree", "-r", "-z", "--full-tree", r])?
        }
        None => git(dir, &["ls-files", "-s", "-z", "--full-name", "--", ":/"])?,
    };
    // `MODE TYPE ID\tPATH` (ls-tree) or `MODE ID STAGE\tPATH` (ls-files -s).
    let mut games = std::collections::BTreeMap::new();
    for entry in out
        .split(|&b| b == 0)
        .filter_map(|e| std::str::from_utf8(e).ok())
    {
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let folder = match path {
            "game.toml" => String::new(),
            _ => match path.strip_suffix("/game.toml") {
                Some(f) => format!("{f}/"),
                None => continue,
            },
        };
        let id = meta
            .split(' ')
            .find(|w| w.len() == 40 && w.bytes().all(|b| b.is_ascii_hexdigit()))
            .unwrap_or_default();
        games.insert(
            folder,
            format!("{}:{id}", meta.split(' ').next().unwrap_or("")),
        );
    }
    Ok(games)
}

/// A path that is not UTF-8 is refused by name (as far as it can be shown).
fn not_utf8(path: &[u8]) -> Error {
    qijudge_protocol::error::refuse_with(
        format!("/{}", String::from_utf8_lossy(path)),
        None,
        "a file name that is not UTF-8 text",
        "name files in UTF-8 (every game file's name is plain ASCII)",
    )
}

/// Every file path at `rev` (none: the index), relative to the repository's top.
pub fn paths(dir: &Path, rev: Option<&str>) -> Result<Vec<String>> {
    let out = match rev {
        Some(r) if r == EMPTY_TREE => return Ok(Vec::new()),
        Some(r) => {
            check_rev(r)?;
            git(
                dir,
                &["ls-tree", "-r", "-z", "--name-only", "--full-tree", r],
            )?
        }
        None => git(dir, &["ls-files", "-z", "--full-name", "--", ":/"])?,
    };
    out.split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8(p.to_vec()).map_err(|_| not_utf8(p)))
        .collect()
}

/// The files each commit from `base` (exclusive) to `head` adds or modifies, by commit (a
/// merge against each parent), so that what one commit adds and a later one removes is seen.
pub fn commit_changes(dir: &Path, base: &str, head: &str) -> Result<Vec<(String, Vec<String>)>> {
    check_rev(head)?;
    let range = match base {
        EMPTY_TREE => head.to_string(),
        _ => {
            check_rev(base)?;
            format!("{base}..{head}")
        }
    };
    let out = git(
        dir,
        &[
            "log",
            "-z",
            "-m",
            "--no-renames",
            "--diff-filter=AM",
            "--name-only",
            "--format=%x01%H",
            &range,
            "--",
        ],
    )?;
    let mut commits: Vec<(String, Vec<String>)> = Vec::new();
    // `\x01SHA\0`, then `\n` before the first path, each path ended by NUL.
    let mut after_header = false;
    for field in out.split(|&b| b == 0).filter(|f| !f.is_empty()) {
        match field.strip_prefix(b"\x01") {
            Some(sha) => {
                commits.push((String::from_utf8_lossy(sha).into_owned(), Vec::new()));
                after_header = true;
            }
            None => {
                let field = match after_header {
                    true => field.strip_prefix(b"\n").unwrap_or(field),
                    false => field,
                };
                after_header = false;
                if field.is_empty() {
                    continue;
                }
                let path = String::from_utf8(field.to_vec()).map_err(|_| not_utf8(field))?;
                if let Some((_, paths)) = commits.last_mut() {
                    paths.push(path);
                }
            }
        }
    }
    Ok(commits)
}

/// git's empty tree: the base of a repository's first commit.
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// Whether `base` is an ancestor of `head` (the update is a fast-forward).
pub fn is_ancestor(dir: &Path, base: &str, head: &str) -> Result<bool> {
    check_rev(base)?;
    check_rev(head)?;
    let status = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["merge-base", "--is-ancestor", base, head])
        .status()
        .map_err(|e| Error::Io(format!("git: {e}")))?;
    match status.code() {
        Some(0) => Ok(true),
        Some(1) => Ok(false),
        _ => Err(Error::Io(format!(
            "git merge-base --is-ancestor {base} {head} failed ({status})"
        ))),
    }
}

/// A file's bytes at `rev`, its path relative to the repository's top; none when not there.
pub fn show_top(dir: &Path, rev: &str, rel: &str) -> Result<Option<Vec<u8>>> {
    blob(dir, rev, &format!("{rev}:{rel}"))
}

/// A file's bytes at `rev` (path relative to `dir`); none when it is not there.
pub fn show(dir: &Path, rev: &str, rel: &str) -> Result<Option<Vec<u8>>> {
    blob(dir, rev, &format!("{rev}:./{rel}"))
}

/// The blob `spec` (`REV:PATH`) names, if there is one.
fn blob(dir: &Path, rev: &str, spec: &str) -> Result<Option<Vec<u8>>> {
    check_rev(rev)?;
    let exists = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["cat-file", "-e", spec])
        .output()
        .map_err(|e| Error::Io(format!("git: {e}")))?
        .status
        .success();
    if !exists {
        return Ok(None);
    }
    git(dir, &["cat-file", "-p", spec]).map(Some)
}

/// Whether `rev` names a commit (false in a repository without commits, for HEAD).
pub fn has_commit(dir: &Path, rev: &str) -> bool {
    check_rev(rev).is_ok()
        && git(
            dir,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{rev}^{{commit}}"),
            ],
        )
        .is_ok()
}

/// The top of the repository (its work tree) that `dir` is in.
pub fn top(dir: &Path) -> Result<std::path::PathBuf> {
    let out = git(dir, &["rev-parse", "--show-toplevel"]).map_err(|_| {
        Error::Io(format!(
            "{}: not in a git repository (give a folder of the repository's work tree)",
            dir.display()
        ))
    })?;
    let text =
        String::from_utf8(out).map_err(|_| Error::Io("git: a path that is not UTF-8".into()))?;
    Ok(std::path::PathBuf::from(text.trim_end_matches('\n')))
}

/// The game directory's path inside its repository (`games/g1/`, or empty at the top).
pub fn prefix(dir: &Path) -> Result<String> {
    let out = git(dir, &["rev-parse", "--show-prefix"])?;
    Ok(String::from_utf8_lossy(&out).trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_diff_output_is_read() {
        let z = "0".repeat(40);
        let a = "a".repeat(40);
        let out = format!(
            ":000000 100644 {z} {a} A\0moves/0001-south.toml\0:100644 160000 {a} {a} T\0x\0"
        );
        let c = parse_raw(out.as_bytes()).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].status, c[0].mode.as_str()), ('A', "100644"));
        assert_eq!(c[0].new_id, a);
        assert!(c[0].leaves_regular_file() && !c[1].leaves_regular_file());
        assert_eq!(c[1].path, "x");
        assert!(parse_raw(b":000000 100644 A\0").is_err());
        assert!(parse_raw(format!(":000000 100644 {z} {a} A\0").as_bytes()).is_err());
    }

    #[test]
    fn option_like_revisions_are_refused() {
        for bad in ["", "-x", "--output=/tmp/x", "a b", "a;b"] {
            assert!(check_rev(bad).is_err(), "{bad}");
        }
        for good in ["HEAD", "HEAD~1", "origin/main", "3f2a9c0", "main@{1}"] {
            assert!(check_rev(good).is_ok(), "{good}");
        }
    }
}
