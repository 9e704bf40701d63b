//! The little of git the CI mode and the hooks need: which files a change adds, modifies or
//! deletes, and a file's bytes at a revision. Runs the `git` program; nothing is written.

use crate::error::{Error, Result};
use std::path::Path;
use std::process::Command;

/// What a change did to one path (relative to the game directory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// `A` added, `M` modified, `D` deleted, `T` type changed (git's letters).
    pub status: char,
    pub path: String,
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

/// Parses `git diff --name-status -z` output.
fn parse_name_status(out: &[u8]) -> Result<Vec<Change>> {
    let mut fields = out.split(|&b| b == 0).filter(|f| !f.is_empty());
    let mut changes = Vec::new();
    while let Some(status) = fields.next() {
        let path = fields
            .next()
            .ok_or_else(|| Error::Io("git diff: a status without a path".into()))?;
        let path = String::from_utf8(path.to_vec())
            .map_err(|_| Error::Io("git diff: a path that is not UTF-8".into()))?;
        changes.push(Change {
            status: status.first().map_or('?', |&b| b as char),
            path,
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
    let mut args = vec!["diff", "--name-status", "-z", "--no-renames"];
    args.extend_from_slice(options);
    match head {
        Some(h) => {
            check_rev(h)?;
            args.extend([base, h]);
        }
        None => args.extend(["--cached", base]),
    }
    args.extend(["--", spec]);
    parse_name_status(&git(dir, &args)?)
}

/// The folders (relative to the repository's top, ending in `/`, or empty for the top) that
/// hold a `game.toml` at `rev` (none: the index).
pub fn game_folders(dir: &Path, rev: Option<&str>) -> Result<Vec<String>> {
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
    Ok(out
        .split(|&b| b == 0)
        .filter_map(|p| std::str::from_utf8(p).ok())
        .filter_map(|p| match p {
            "game.toml" => Some(String::new()),
            _ => p.strip_suffix("/game.toml").map(|f| format!("{f}/")),
        })
        .collect())
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

/// The game directory's path inside its repository (`games/g1/`, or empty at the top).
pub fn prefix(dir: &Path) -> Result<String> {
    let out = git(dir, &["rev-parse", "--show-prefix"])?;
    Ok(String::from_utf8_lossy(&out).trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_status_output_is_read() {
        let out = b"A\0moves/0001-south.toml\0M\0record.jsonl\0";
        let c = parse_name_status(out).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].status, 'A');
        assert_eq!(c[1].path, "record.jsonl");
        assert!(parse_name_status(b"A\0").is_err());
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
