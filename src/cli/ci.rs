//! `judge --ci`: the judge of a game kept in a git repository, run by CI on a push or a pull
//! request (or by a server's pre-receive hook).

use crate::error::{refuse, refuse_with, Error, Result};
use crate::judge::ci::{allowed, check_changes, github_annotation, Base, GameFacts, ALLOW_LIST};
use crate::protocol::hash::sha256_tagged;
use crate::protocol::record::Record;
use crate::store::git::{self, Change};
use crate::store::{GameDir, RECORD_LIMIT, SMALL_FILE_LIMIT};
use ssh_key::PublicKey;
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
            Error::Io(m) | Error::Interrupted(m) => github_annotation("error", &prefix, None, m),
        };
        say!("{line}");
    }
    result
}

/// The append-only rules on what changed between `base` and `head`.
fn check_change(dir: &Path, base: &str, head: &str) -> Result<()> {
    let g = GameDir::new(dir);
    check_since(dir, &g, base, Some(head))
}

/// Checks the changes from `base` to `head` (none: the index) against the rules of
/// [`check_changes`], with the record at `base` as the one to extend; then what holds for the
/// whole repository: a fast-forward only, nothing outside the game folders but what the
/// allow-list permits, and every file the judge writes exactly as the judge wrote it.
fn check_since(dir: &Path, g: &GameDir, base: &str, head: Option<&str>) -> Result<()> {
    if let Some(head) = head.filter(|_| base != git::EMPTY_TREE) {
        if !git::is_ancestor(dir, base, head)? {
            return Err(refuse_with(
                "game.toml",
                None,
                format!("the update rewrites history ({base} is not an ancestor of {head})"),
                "force-pushes are refused: add commits on top of the published branch",
            ));
        }
    }
    check_outside(dir, base, head)?;
    let changes = git::changes(dir, base, head)?;
    // The manifest of the base is the game's: a change to it is refused, never taken.
    let manifest = match git::show(dir, base, "game.toml")? {
        Some(bytes) => bytes,
        None => g.read("game.toml", SMALL_FILE_LIMIT)?.into_bytes(),
    };
    let genesis = sha256_tagged(&manifest);
    let base_text = match git::show(dir, base, "record.jsonl")? {
        Some(bytes) => Some(
            String::from_utf8(bytes)
                .map_err(|_| refuse("record.jsonl", None, format!("at {base}: not UTF-8 text")))?,
        ),
        None => None,
    };
    let base_record = match &base_text {
        Some(t) => Record::parse(t, &genesis).map_err(|(line, e)| {
            refuse(
                "record.jsonl",
                e.field.as_deref(),
                format!("at {base}, line {line}: {}", e.reason),
            )
        })?,
        None => Record::new(),
    };
    let refuses_manifest = changes
        .iter()
        .any(|c| c.path == "game.toml" && (c.status != 'A' || base_text.is_some()));
    if !refuses_manifest {
        let facts = crate::games::of_dir(dir)?.facts(g)?;
        let game = GameFacts {
            seats: facts.seats,
            sealed: facts.sealed,
        };
        let now_text = g.read_optional("record.jsonl", RECORD_LIMIT)?;
        let base = Base {
            record_text: base_text.as_deref(),
            record: &base_record,
        };
        check_changes(&game, &changes, &base, now_text.as_deref())?;
        return check_judge_files(g, &facts.judge_key, &changes);
    }
    Err(refuse_with(
        "game.toml",
        None,
        "the manifest never changes once created",
        "a change to a game adds commitments, sealed setups, moves and reveals only",
    ))
}

/// A change outside every game folder is refused unless the repository's allow-list (at the
/// base revision) permits it.
fn check_outside(dir: &Path, base: &str, head: Option<&str>) -> Result<()> {
    let mut games = git::game_folders(dir, Some(base))?;
    games.extend(git::game_folders(dir, head)?);
    let list = match base {
        git::EMPTY_TREE => None,
        _ => git::show_top(dir, base, ALLOW_LIST)?,
    };
    let list = String::from_utf8_lossy(list.as_deref().unwrap_or_default()).into_owned();
    for c in git::repo_changes(dir, base, head)? {
        let in_game = games.iter().any(|f| c.path.starts_with(f.as_str()));
        if !in_game && !allowed(&list, &c.path) {
            return Err(refuse_with(
                format!("/{}", c.path),
                None,
                "outside every game folder, and the repository's allow-list does not permit it",
                format!(
                    "a change to a game touches its folder only; to allow other files, list them \
                     in {ALLOW_LIST} at the repository's top (in a change of its own, by the owner)"
                ),
            ));
        }
    }
    Ok(())
}

/// Files under `views/` that the change adds or modifies must be the judge's: signed by the
/// game's judge (a sealed file: with the judge's signed tag), so nobody else can publish a
/// view, a picture or a note in the judge's name.
fn check_judge_files(g: &GameDir, judge: &PublicKey, changes: &[Change]) -> Result<()> {
    for c in changes.iter().filter(|c| c.status != 'D') {
        let Some(name) = c.path.strip_prefix("views/") else {
            continue;
        };
        let file = name
            .strip_suffix(".sig")
            .or_else(|| name.strip_suffix(".tag"))
            .map_or(c.path.clone(), |f| format!("views/{f}"));
        if !crate::judge::common::judge_signed(g, judge, &file) {
            return Err(refuse_with(
                c.path.as_str(),
                None,
                "not as the game's judge wrote it: only the judge writes views/",
                "remove the change to views/; the judge publishes its views itself",
            ));
        }
    }
    Ok(())
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
    let base = if git::has_commit(dir, "HEAD") {
        "HEAD"
    } else {
        git::EMPTY_TREE
    };
    check_since(dir, g, base, None)
}
