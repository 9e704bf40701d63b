//! `judge --ci`: the judge of a game kept in a git repository, run by CI on a push or a pull
//! request (or by a server's pre-receive hook).

use crate::changes::{
    check_changes, check_commits, check_layout, github_annotation, Base, GameFacts, Layout,
    ALLOW_LIST,
};
use qijudge_protocol::error::{refuse, refuse_with, Error, Result};
use qijudge_protocol::record::Record;
use qijudge_rules::hash::sha256_tagged;
use qijudge_store::git::{self, Change};
use qijudge_store::{GameDir, RECORD_LIMIT, SMALL_FILE_LIMIT};
use ssh_key::PublicKey;
use std::path::Path;

/// Checks the change since `base`, then judges; with `github`, a refusal is also printed as an
/// annotation on the refused file.
pub fn judge(
    dir: &Path,
    key: &Path,
    now: Option<String>,
    range: Option<(&str, &str)>,
    judge_commit: bool,
    github: bool,
) -> Result<()> {
    let result = range
        .map_or(Ok(()), |(base, head)| {
            check_since(dir, &GameDir::new(dir), base, Some(head), judge_commit).map(|_| ())
        })
        .and_then(|()| qijudge_registry::commands::judge(dir, key, now, false, None, None));
    if github {
        annotate(dir, &result)?;
    }
    result
}

/// Prints a refusal as a GitHub workflow annotation on the refused file.
fn annotate(dir: &Path, result: &Result<()>) -> Result<()> {
    let Err(e) = result else { return Ok(()) };
    let prefix = git::prefix(dir).unwrap_or_default();
    let line = match e {
        Error::Refused(r) if r.file.starts_with('/') => {
            github_annotation("error", "", Some(&r.file[1..]), &format!("refused: {r}"))
        }
        Error::Refused(r) => {
            github_annotation("error", &prefix, Some(&r.file), &format!("refused: {r}"))
        }
        Error::Io(m) | Error::Interrupted(m) => github_annotation("error", &prefix, None, m),
    };
    say!("{line}");
    Ok(())
}

/// What `qijudge ci` is told.
pub struct RepoRun<'a> {
    /// Any folder of the repository (its top is found by git).
    pub repo: &'a Path,
    pub base: &'a str,
    /// The revision to check; none: the index (a player's pre-commit check).
    pub head: Option<&'a str>,
    /// The judge's key: judge every game the change touches. Without it each new file is
    /// prechecked (signature, binding, turn; legality where the game hides nothing).
    pub key: Option<&'a Path>,
    pub now: Option<String>,
    /// The change is the judge's own commit (it may set refused files aside).
    pub judge_commit: bool,
    /// The change is the repository owner's: outside the games it may change anything (the
    /// allow-list included) and create games anywhere, as in the repository's first push; the
    /// games' own rules still hold.
    pub owner: bool,
    pub github: bool,
}

/// `qijudge ci`: the rules on a change to a repository of games, for every game of the base and
/// of the new tree, then each touched game judged (with the key) or prechecked. Every game is
/// handled even when one is refused; the result is the worst: an I/O error, else the first
/// refusal.
///
/// With the key, every other game of the new tree is judged too, so that any run brings every
/// game to its fixed point: a move whose own judge run was lost (a push that lost a race, a
/// cancelled job) is judged by the next run, whatever that run was triggered by. Those games
/// are reported but never change the result: one game's refusal must not refuse another's push.
pub fn repo(run: RepoRun) -> Result<()> {
    let top = git::top(run.repo)?;
    let (touched, all) = match check_repository(&top, run.base, run.head, run.owner) {
        Ok(folders) => folders,
        Err(e) => {
            let refused = Err(e);
            if run.github {
                annotate(&top, &refused)?;
            }
            return refused;
        }
    };
    // A pushed commit judged with the key (a server's pre-receive hook): the outputs are
    // thrown away with the scratch tree, and a refusal refuses the push, so nothing is set
    // aside and no seat's refusal file is written; only the touched games matter.
    let gate = run.head.is_some() && run.key.is_some();
    let mut results = Vec::new();
    for folder in &touched {
        let dir = top.join(folder);
        let result = touched_game(&run, &dir);
        if let Err(e) = &result {
            match gate {
                true => eprintln!("{}", pushed_refusal(shown(folder), e)),
                false => eprintln!("qijudge: {}: {e}", shown(folder)),
            }
        }
        if run.github {
            annotate(&dir, &result)?;
        }
        results.extend(result.err());
    }
    if let Some(key) = run.key.filter(|_| !gate) {
        for folder in all.iter().filter(|f| !touched.contains(f)) {
            let dir = top.join(folder);
            let result = judge_and_reveal(&dir, key, run.now.clone());
            if let Err(e) = &result {
                eprintln!("qijudge: {} (not in this change): {e}", shown(folder));
                if run.github {
                    annotate(&dir, &result)?;
                }
            }
        }
    }
    if results.is_empty() {
        say!("the change keeps every game's rules");
    }
    // Each reason was printed above, once, under its game.
    summary(worst(results), touched.len())
}

/// The result of a run whose reasons were printed game by game: its kind (exit code) kept,
/// its words a summary, so that no reason is printed twice.
fn summary(result: Result<()>, games: usize) -> Result<()> {
    match result {
        Ok(()) => Ok(()),
        Err(Error::Refused(r)) => Err(refuse(
            r.file,
            None,
            format!("the change is refused (of {games} game(s) it touches; reasons above)"),
        )),
        Err(Error::Io(_)) => Err(Error::Io(
            "the change could not be checked (reasons above)".into(),
        )),
        Err(e) => Err(e),
    }
}

/// A refusal as the pusher of a refused push reads it: the file, the field and the reason (a
/// reason private to a seat as its code, with how that seat reads it), and nothing about
/// files set aside, since nothing of a refused push is kept.
fn pushed_refusal(folder: &str, e: &Error) -> String {
    let Error::Refused(r) = e else {
        return format!("qijudge: {folder}: {e}");
    };
    let field = r
        .field
        .as_ref()
        .map(|f| format!(": field {f}"))
        .unwrap_or_default();
    let why = match &r.private_to {
        None => r.reason.clone(),
        Some(seat) => format!(
            "refused [{}]; the reason is for {seat} only: in {seat}'s clone, `qijudge \
             precheck {folder} --key YOUR_KEY` gives it",
            r.code()
        ),
    };
    format!("qijudge: {folder}: {}{field}: {why}", r.file)
}

/// One game the change touches: its own rules, then judged (with the key; a game that ended is
/// revealed by the same run, so `verify` passes on the commit that records the end) or each new
/// file prechecked.
fn touched_game(run: &RepoRun, dir: &Path) -> Result<()> {
    let g = GameDir::new(dir);
    check_game(dir, &g, run.base, run.head, run.judge_commit)?;
    let Some(key) = run.key else {
        return qijudge_game::console::print_report(
            qijudge_registry::of_dir(dir)?.precheck(dir, None)?,
        );
    };
    judge_and_reveal(dir, key, run.now.clone())
}

/// Judges a game; a game that ended is revealed by the same run. A refused file still leaves
/// the run's outputs, the end included.
fn judge_and_reveal(dir: &Path, key: &Path, now: Option<String>) -> Result<()> {
    let judged = qijudge_registry::commands::judge(dir, key, now, false, None, None);
    if matches!(judged, Ok(()) | Err(Error::Refused(_))) {
        qijudge_registry::commands::reveal_when_over(&GameDir::new(dir), key)?;
    }
    judged
}

/// An I/O error first (exit 2), else the first refusal.
fn worst(results: Vec<Error>) -> Result<()> {
    let io = results.iter().position(|e| !matches!(e, Error::Refused(_)));
    match results.into_iter().nth(io.unwrap_or(0)) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn shown(folder: &str) -> &str {
    match folder {
        "" => ".",
        f => f,
    }
}

/// The whole repository's rules on the change from `base` to `head` (none: the index): a
/// fast-forward only, then [`check_layout`]. Returns the game folders the change touches and
/// every game folder of the new tree.
fn check_repository(
    top: &Path,
    base: &str,
    head: Option<&str>,
    owner: bool,
) -> Result<(Vec<String>, Vec<String>)> {
    if let Some(head) = head.filter(|_| base != git::EMPTY_TREE) {
        if !git::is_ancestor(top, base, head)? {
            return Err(refuse_with(
                "/",
                None,
                format!("the update rewrites history ({base} is not an ancestor of {head})"),
                "force-pushes are refused: add commits on top of the published branch",
            ));
        }
    }
    let base_games = git::games(top, Some(base))?;
    let head_games = git::games(top, head)?;
    // No allow-list binds the first push (there is nothing yet to protect) nor the owner, who
    // writes the list.
    let list = match base {
        _ if owner => None,
        git::EMPTY_TREE => None,
        _ => Some(git::show_top(top, base, ALLOW_LIST)?.unwrap_or_default()),
    };
    let list = list.map(|l| String::from_utf8_lossy(&l).into_owned());
    let judge_of = |folder: &str, rev: Option<&str>| -> Result<Option<String>> {
        let rel = format!("{folder}game.toml");
        let bytes = match rev {
            Some(rev) => git::show_top(top, rev, &rel)?,
            None => std::fs::read(top.join(&rel)).ok(),
        };
        Ok(bytes
            .and_then(|b| toml::from_str::<toml::Table>(&String::from_utf8_lossy(&b)).ok())
            .and_then(|t| Some(t.get("judge")?.get("key")?.as_str()?.to_string())))
    };
    let mut new_judges = std::collections::BTreeMap::new();
    for folder in head_games.keys().filter(|f| !base_games.contains_key(*f)) {
        if let Some(key) = judge_of(folder, head)? {
            new_judges.insert(folder.clone(), key);
        }
    }
    let repo_judge = match base_games.keys().next() {
        Some(folder) => judge_of(folder, Some(base))?,
        None => None,
    };
    let (base_paths, head_paths) = (git::paths(top, Some(base))?, git::paths(top, head)?);
    let layout = Layout {
        base: &base_games,
        head: &head_games,
        allow_list: list.as_deref(),
        base_paths: &base_paths,
        head_paths: &head_paths,
        new_judges: &new_judges,
        repo_judge: repo_judge.as_deref(),
    };
    let touched = check_layout(&layout, &git::repo_changes(top, base, head)?)?;
    if let Some(head) = head {
        check_history(top, base, head, &base_games, &head_games)?;
    }
    Ok((touched, head_games.into_keys().collect()))
}

/// The secret rule on every commit of the change, not only on the tree it leaves: a setup in
/// clear that one commit adds and a later one removes is still in the history a merge brings.
fn check_history(
    top: &Path,
    base: &str,
    head: &str,
    base_games: &std::collections::BTreeMap<String, String>,
    head_games: &std::collections::BTreeMap<String, String>,
) -> Result<()> {
    let folders: Vec<&String> = base_games.keys().chain(head_games.keys()).collect();
    check_commits(&folders, &git::commit_changes(top, base, head)?)
}

/// Checks the changes from `base` to `head` (none: the index): the whole repository's rules,
/// then this game's.
fn check_since(
    dir: &Path,
    g: &GameDir,
    base: &str,
    head: Option<&str>,
    judge_commit: bool,
) -> Result<()> {
    check_repository(&git::top(dir)?, base, head, false)?;
    check_game(dir, g, base, head, judge_commit)
}

/// One game's rules on the change ([`check_changes`]), with the record at `base` as the one to
/// extend, and every file the judge writes exactly as the judge wrote it.
fn check_game(
    dir: &Path,
    g: &GameDir,
    base: &str,
    head: Option<&str>,
    judge_commit: bool,
) -> Result<()> {
    let changes = git::changes(dir, base, head)?;
    let base_rev = base;
    // The manifest is the same at the base (checked by the layout rules), so the tree's is the
    // game's.
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
    if changes
        .iter()
        .any(|c| c.path == "game.toml" && (c.status != 'A' || base_text.is_some()))
    {
        return Err(refuse_with(
            "game.toml",
            None,
            "the manifest never changes once created",
            "a change to a game adds commitments, sealed setups, moves, conditional answers \
             and reveals only",
        ));
    }
    let facts = qijudge_registry::of_dir(dir)?.facts(g)?;
    let game = GameFacts {
        seats: facts.seats.clone(),
        sealed: facts.sealed,
        judge_commit,
    };
    let now_text = g.read_optional("record.jsonl", RECORD_LIMIT)?;
    let base = Base {
        record_text: base_text.as_deref(),
        record: &base_record,
    };
    check_changes(&game, &changes, &base, now_text.as_deref())?;
    crate::changes::check_conditional_versions(
        &changes,
        |path| {
            git::show(dir, base_rev, path)
                .ok()
                .flatten()
                .and_then(|b| String::from_utf8(b).ok())
        },
        |path| g.read_optional(path, SMALL_FILE_LIMIT).ok().flatten(),
    )?;
    check_sealed_secrets(g, &facts, &changes)?;
    check_judge_files(g, &facts.hash, &facts.judge_key, &changes)
}

/// A sealed secret the change adds must carry its seat's signature (`sealed/SEAT.age.sig`):
/// nobody else can publish one in the seat's name, though nobody but the judge can open it.
fn check_sealed_secrets(
    g: &GameDir,
    facts: &qijudge_game::GameFacts,
    changes: &[Change],
) -> Result<()> {
    for c in changes.iter().filter(|c| c.status == 'A') {
        let Some(seat) = c
            .path
            .strip_prefix("sealed/")
            .and_then(|p| p.strip_suffix(".age"))
        else {
            continue;
        };
        let Some(i) = facts.seats.iter().position(|s| s == seat) else {
            continue;
        };
        let bytes = g.read_bytes(&c.path, SMALL_FILE_LIMIT)?;
        let sig = g.read(&format!("{}.sig", c.path), qijudge_store::SIGNATURE_LIMIT)?;
        let ns = qijudge_protocol::signing::namespace::SEALED_FILE;
        if qijudge_protocol::signing::verify(&facts.player_keys[i], ns, &bytes, &sig).is_err() {
            return Err(refuse_with(
                format!("{}.sig", c.path),
                None,
                format!(
                    "is not {seat}'s signature of {}: only {seat} publishes its sealed secret",
                    c.path
                ),
                format!("{seat} writes both files with `qijudge setup GAME --as {seat} --key KEY`"),
            ));
        }
    }
    Ok(())
}

/// Files under `views/` that the change adds or modifies must be the judge's: signed by the
/// game's judge (a sealed file: with the judge's signed tag), so nobody else can publish a
/// view, a picture or a note in the judge's name.
fn check_judge_files(g: &GameDir, game: &str, judge: &PublicKey, changes: &[Change]) -> Result<()> {
    // The record a change leaves is the judge's, signed (its growth is checked above).
    if changes.iter().any(|c| c.path.starts_with("record.")) {
        let text = g.read("record.jsonl", RECORD_LIMIT)?;
        let sig = g.read("record.sig", qijudge_store::SIGNATURE_LIMIT)?;
        let ns = qijudge_protocol::signing::namespace::RECORD;
        if qijudge_protocol::signing::verify(judge, ns, text.as_bytes(), &sig).is_err() {
            return Err(refuse_with(
                "record.sig",
                None,
                "is not the game's judge's signature of record.jsonl: only the judge writes the record",
                "restore the record and its signature as the judge published them",
            ));
        }
    }
    for c in changes.iter().filter(|c| c.status != 'D') {
        let Some(name) = c.path.strip_prefix("views/") else {
            continue;
        };
        let file = name
            .strip_suffix(".sig")
            .or_else(|| name.strip_suffix(".tag"))
            .map_or(c.path.clone(), |f| format!("views/{f}"));
        if !qijudge_judge::published::judge_signed(g, game, judge, &file) {
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
    qijudge_game::console::print_report(qijudge_registry::of_dir(dir)?.precheck(dir, key)?)
}

/// The append-only rules on what the index changes since HEAD (or since nothing, in a
/// repository without commits).
fn check_staged(dir: &Path, g: &GameDir) -> Result<()> {
    let base = if git::has_commit(dir, "HEAD") {
        "HEAD"
    } else {
        git::EMPTY_TREE
    };
    check_since(dir, g, base, None, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_push_shows_a_private_reason_as_its_code_and_how_to_read_it() {
        let private = Error::Refused(qijudge_protocol::error::Refusal {
            file: "moves/0007-south.toml".into(),
            field: Some("move".into()),
            reason: "the landmine at c2 cannot move".into(),
            hint: Some("the judge keeps the refused file apart in refused/".into()),
            private_to: Some("south".into()),
        });
        let line = pushed_refusal("games/lzq", &private);
        assert!(line.contains("moves/0007-south.toml: field move: refused [move.move]"));
        assert!(
            line.contains("qijudge precheck games/lzq --key YOUR_KEY"),
            "{line}"
        );
        assert!(
            !line.contains("landmine") && !line.contains("refused/"),
            "{line}"
        );
        let public = Error::Refused(qijudge_protocol::error::Refusal {
            private_to: None,
            ..match private {
                Error::Refused(r) => r,
                _ => unreachable!(),
            }
        });
        let line = pushed_refusal("games/lzq", &public);
        assert!(line.ends_with("the landmine at c2 cannot move"), "{line}");
    }

    #[test]
    fn the_worst_result_is_an_io_error_then_the_first_refusal() {
        let refused = |f: &str| refuse(f, None, "no");
        assert_eq!(worst(Vec::new()), Ok(()));
        let r = worst(vec![refused("a"), refused("b")]).unwrap_err();
        assert!(r.to_string().contains("a: no"), "{r}");
        let r = worst(vec![refused("a"), Error::Io("disk".into())]).unwrap_err();
        assert_eq!(r, Error::Io("disk".into()));
    }
}
