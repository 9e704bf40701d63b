//! `judge --ci`: the judge of a game kept in a git repository, run by CI on a push or a pull
//! request (or by a server's pre-receive hook).

use crate::error::{Error, Result};
use crate::judge::ci::{check_changes, github_annotation, Base, GameFacts};
use crate::protocol::record::Record;
use crate::store::{git, GameDir, RECORD_LIMIT};
use std::path::Path;

/// Checks the change since `base`, then judges; with `github`, a refusal is also printed as an
/// annotation on the refused file.
pub fn judge(
    dir: &Path,
    key: &Path,
    now: Option<String>,
    range: Option<(&str, &str)>,
    github: bool,
) -> Result<()> {
    let result = range
        .map_or(Ok(()), |(base, head)| check_change(dir, base, head))
        .and_then(|()| super::game::judge(dir, key, now, false, None));
    if let (true, Err(e)) = (github, &result) {
        let prefix = git::prefix(dir).unwrap_or_default();
        let line = match e {
            Error::Refused(r) => {
                github_annotation("error", &prefix, Some(&r.file), &format!("refused: {r}"))
            }
            Error::Io(m) => github_annotation("error", &prefix, None, m),
        };
        say!("{line}");
    }
    result
}

/// The append-only rules on what changed between `base` and `head`.
fn check_change(dir: &Path, base: &str, head: &str) -> Result<()> {
    let g = GameDir::new(dir);
    let (facts, genesis) = game_facts(dir, &g)?;
    check_since(dir, &g, &facts, &genesis, base, Some(head))
}

/// Seats and sealing of any game, and its manifest hash (the record's genesis).
fn game_facts(dir: &Path, g: &GameDir) -> Result<(GameFacts, String)> {
    let facts = crate::games::of_dir(dir)?.facts(g)?;
    let (seats, sealed, hash) = (facts.seats, facts.sealed, facts.hash);
    Ok((GameFacts { seats, sealed }, hash))
}

/// Checks the changes from `base` to `head` (none: the index) under `dir` against the rules
/// of [`check_changes`], with the record at `base` as the one to extend.
fn check_since(
    dir: &Path,
    g: &GameDir,
    game: &GameFacts,
    genesis: &str,
    base: &str,
    head: Option<&str>,
) -> Result<()> {
    let changes = git::changes(dir, base, head)?;
    let base_text = match git::show(dir, base, "record.jsonl")? {
        Some(bytes) => Some(
            String::from_utf8(bytes)
                .map_err(|_| Error::Io(format!("{base}:record.jsonl is not UTF-8")))?,
        ),
        None => None,
    };
    let base_record = match &base_text {
        Some(t) => Record::parse(t, genesis)
            .map_err(|(line, e)| Error::Io(format!("{base}:record.jsonl line {line}: {e:?}")))?,
        None => Record::new(),
    };
    let now_text = g.read_optional("record.jsonl", RECORD_LIMIT)?;
    let base = Base {
        record_text: base_text.as_deref(),
        record: &base_record,
    };
    check_changes(game, &changes, &base, now_text.as_deref())
}

/// `precheck`: what a player's pre-commit hook runs.
pub fn precheck(dir: &Path, key: Option<&Path>, staged: bool) -> Result<()> {
    let g = GameDir::new(dir);
    if staged {
        check_staged(dir, &g)?;
    }
    for line in crate::games::of_dir(dir)?.precheck(dir, key)? {
        say!("{line}");
    }
    Ok(())
}

/// The append-only rules on what the index changes since HEAD (or since nothing, in a
/// repository without commits).
fn check_staged(dir: &Path, g: &GameDir) -> Result<()> {
    // git's empty tree: the base of a repository's first commit.
    const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    let base = if git::has_commit(dir, "HEAD") {
        "HEAD"
    } else {
        EMPTY_TREE
    };
    let (facts, genesis) = game_facts(dir, g)?;
    check_since(dir, g, &facts, &genesis, base, None)
}
