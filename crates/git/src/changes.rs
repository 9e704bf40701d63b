//! The rules a change to a game played in a repository must follow before the judge runs on it:
//! players only add their own files, nothing accepted is changed or deleted, the record only
//! grows, and no secret is ever committed in clear.

use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::files::Entry;
use qijudge_protocol::record::Record;
use qijudge_store::git::Change;
use std::collections::BTreeMap;

/// What the rules need to know of a game, whichever game it is.
pub struct GameFacts {
    /// Seat names, in seat order.
    pub seats: Vec<String>,
    /// Whether secrets come sealed (`sealed = true` in game.toml).
    pub sealed: bool,
    /// Whether the change is the judge's own commit, the only one that may set a refused file
    /// aside into `refused/`.
    pub judge_commit: bool,
}

/// What the game's record said before the change.
pub struct Base<'a> {
    /// The record text at the base revision (none before the judge's first run).
    pub record_text: Option<&'a str>,
    /// That record, read.
    pub record: &'a Record,
}

/// What a path in a game directory is.
#[derive(Debug, PartialEq, Eq)]
enum Kind {
    /// A file a player adds once and never changes.
    Player(PlayerFile),
    /// A file only the judge writes (checked by its signature and by the record's growth).
    Judge,
    /// A refused candidate the judge set aside (`refused/`), with its original deleted.
    SetAside,
    /// Anything else.
    Other,
}

#[derive(Debug, PartialEq, Eq)]
enum PlayerFile {
    Commitment,
    SealedSetup,
    ClearSetup,
    Move,
    /// A seat's conditional answers, which it may replace with a newer version until the judge
    /// plays from them (the file, its .sig and its sealed plans).
    Conditional,
    /// A seat's plans in the clear (`plans/`): never in a repository.
    ClearPlans,
    Reveal,
}

fn kind(game: &GameFacts, path: &str) -> Kind {
    let is_seat = |seat: &str| game.seats.iter().any(|s| s == seat);
    let seat_file = |folder: &str, ext: &str| {
        path.strip_prefix(folder)
            .and_then(|rest| rest.strip_suffix(ext))
            .is_some_and(is_seat)
    };
    let move_file = || {
        let Some(rest) = path.strip_prefix("moves/") else {
            return false;
        };
        let rest = rest.strip_suffix(".sig").unwrap_or(rest);
        let Some((ply, seat)) = rest.strip_suffix(".toml").and_then(|r| r.split_once('-')) else {
            return false;
        };
        ply.len() == 4 && ply.bytes().all(|b| b.is_ascii_digit()) && is_seat(seat)
    };
    let conditional_file = || {
        let name = path.strip_prefix("conditional/").unwrap_or_default();
        let seats: Vec<&str> = game.seats.iter().map(String::as_str).collect();
        let toml = name.strip_suffix(".age").map(|stem| format!("{stem}.toml"));
        let stem = toml
            .as_deref()
            .unwrap_or(name.strip_suffix(".sig").unwrap_or(name));
        qijudge_judge::conditional::parse_name(stem, &seats).is_some()
    };
    if seat_file("commitments/", ".toml") || seat_file("commitments/", ".toml.sig") {
        Kind::Player(PlayerFile::Commitment)
    } else if seat_file("sealed/", ".age") || seat_file("sealed/", ".age.sig") {
        Kind::Player(PlayerFile::SealedSetup)
    } else if path.starts_with("setups/") {
        Kind::Player(PlayerFile::ClearSetup)
    } else if path.starts_with("plans/") {
        Kind::Player(PlayerFile::ClearPlans)
    } else if move_file() {
        Kind::Player(PlayerFile::Move)
    } else if path.starts_with("conditional/") && conditional_file() {
        Kind::Player(PlayerFile::Conditional)
    } else if seat_file("reveal/", ".toml") {
        Kind::Player(PlayerFile::Reveal)
    } else if path == "record.jsonl" || path == "record.sig" || path.starts_with("views/") {
        Kind::Judge
    } else if path.starts_with("refused/") {
        Kind::SetAside
    } else {
        Kind::Other
    }
}

/// Conditional answers in a change only move forward: a conditional file it changes must be a
/// newer version (a greater `seq`) than the one at the base, so nobody (the seat's opponent, a
/// stranger's pull request) can put back a version the seat replaced or withdrew; and sealed
/// plans change only with their conditional file, which names them. `base` and `now` read a
/// path's text at the base and in the tree the change leaves.
pub fn check_conditional_versions(
    changes: &[Change],
    base: impl Fn(&str) -> Option<String>,
    now: impl Fn(&str) -> Option<String>,
) -> Result<()> {
    use qijudge_protocol::files::{parse_toml, ConditionalFile};
    let seq = |text: Option<String>| {
        text.and_then(|t| parse_toml::<ConditionalFile>(&t).ok())
            .map(|f| f.seq)
    };
    for c in changes
        .iter()
        .filter(|c| c.path.starts_with("conditional/"))
    {
        let path = c.path.as_str();
        if c.status == 'M' && path.ends_with(".toml") {
            let (old, new) = (seq(base(path)), seq(now(path)));
            if !matches!((old, new), (Some(o), Some(n)) if n > o) {
                return Err(refuse_with(
                    path,
                    Some("seq"),
                    format!(
                        "version {} does not follow version {} at the base: an older or \
                         repeated conditional file never comes back",
                        new.map_or("?".into(), |n| n.to_string()),
                        old.map_or("?".into(), |n| n.to_string()),
                    ),
                    "the seat writes a newer version with qijudge move --if",
                ));
            }
        }
        if c.status == 'M' && path.ends_with(".age") {
            let toml = format!("{}.toml", path.trim_end_matches(".age"));
            if !changes.iter().any(|o| o.status == 'M' && o.path == toml) {
                return Err(refuse_with(
                    path,
                    None,
                    format!("sealed plans change only with {toml}, which names them"),
                    "the seat writes both again with qijudge move --if",
                ));
            }
        }
    }
    Ok(())
}

/// Whether the record names the conditional file `path` (or its signature) as played from.
fn fired(record: &qijudge_protocol::record::Record, path: &str) -> bool {
    let file = path.strip_suffix(".sig").unwrap_or(path);
    record
        .lines
        .iter()
        .any(|l| matches!(&l.entry, Entry::Move { conditional: Some(f), .. } if f.path == file))
}

/// Checks every change against the rules above; `record_now` is the record text the change
/// leaves (none when it deletes it).
pub fn check_changes(
    game: &GameFacts,
    changes: &[Change],
    base: &Base,
    record_now: Option<&str>,
) -> Result<()> {
    let seats = game.seats.len();
    let committed = base
        .record
        .lines
        .iter()
        .filter(|l| matches!(l.entry, Entry::Commitment { .. }))
        .count();
    // Over at the base, or in the record this change leaves (the judge's commit that records
    // the end also reveals; a record that is not the judge's is refused by its signature).
    let over = base
        .record
        .lines
        .iter()
        .any(|l| matches!(l.entry, Entry::End { .. }))
        || record_now.is_some_and(|t| t.lines().any(|l| l.contains(r#""entry":{"kind":"end""#)));
    for c in changes {
        let path = c.path.as_str();
        match kind(game, path) {
            Kind::Player(PlayerFile::ClearSetup) => return Err(refuse_with(
                path,
                None,
                "a setup in clear in the repository shows it to everyone",
                "play a sealed game (new --sealed) and publish sealed/SEAT.age from setup --seal",
            )),
            Kind::Player(PlayerFile::ClearPlans) => return Err(refuse_with(
                path,
                None,
                "conditional plans in clear in the repository show them to everyone",
                "commit conditional/PLY-SEAT.age (sealed to the judge), which qijudge move --if \
                 writes, and never plans/",
            )),
            // The judge moved a refused candidate aside: allowed for a file no record line
            // accepted, when the same change keeps it in refused/.
            Kind::Player(_) if c.status == 'D' && set_aside(c, changes, base.record) => {}
            // Newer conditional answers replace a seat's own until the judge plays from them
            // (the judge checks the signature, so nobody else's replacement stands).
            Kind::Player(PlayerFile::Conditional)
                if c.status == 'M' && !fired(base.record, path) => {}
            Kind::Player(_) if c.status != 'A' => {
                return Err(refuse_with(
                    path,
                    None,
                    format!("{} a file already published", verb(c.status)),
                    "the game is append-only: add new files, never change or remove old ones",
                ));
            }
            Kind::Player(PlayerFile::SealedSetup) if !game.sealed => {
                return Err(refuse(
                    path,
                    None,
                    "this game is not sealed (game.toml has no `sealed = true`)",
                ))
            }
            Kind::Player(PlayerFile::SealedSetup) if committed < seats => {
                return Err(refuse_with(
                    path,
                    None,
                    "published before the record lists every seat's commitment",
                    "secrets come only after all commitments are recorded: push it once the \
                     judge has recorded them",
                ))
            }
            Kind::Player(PlayerFile::Reveal) if !over => {
                return Err(refuse(
                    path,
                    None,
                    "a reveal before the game is over shows a setup to the opponent",
                ))
            }
            Kind::Player(
                PlayerFile::Commitment
                | PlayerFile::Move
                | PlayerFile::SealedSetup
                | PlayerFile::Conditional,
            ) if c.status == 'A'
                && !(path.starts_with("conditional/") && path.ends_with(".age"))
                && !changes
                    .iter()
                    .any(|o| o.status == 'A' && o.path == partner(path)) =>
            {
                return Err(refuse_with(
                    path,
                    None,
                    "comes without its other half: a move, commitment or sealed secret is a file \
                     and its .sig, added together",
                    "add the file and its signature in one change (qijudge move and setup --seal \
                     write both)",
                ))
            }
            Kind::Player(_) => {}
            Kind::Judge if c.status != 'D' && !judge_name(game, path) => {
                return Err(refuse_with(
                    path,
                    None,
                    "is no file the judge writes: views/ holds only the judge's files, by name",
                    "remove it; the judge publishes its views itself",
                ))
            }
            // A refusal note deleted by someone else would leave its seat never knowing why.
            Kind::Judge if c.status == 'D' && !game.judge_commit => {
                return Err(refuse_with(
                    path,
                    None,
                    "deletes a file the judge published: only the judge's own commit removes its outputs",
                    "restore the file; the judge removes what it no longer publishes itself",
                ))
            }
            Kind::Judge => {}
            Kind::SetAside
                if c.status == 'A' && game.judge_commit && original_deleted(c, changes) => {}
            Kind::SetAside => {
                return Err(refuse_with(
                    path,
                    None,
                    format!("{} a refused file the judge kept", verb(c.status)),
                    "refused files stay as the judge set them aside",
                ))
            }
            // The change that creates the game adds its manifest and git files.
            Kind::Other
                if matches!(path, "game.toml" | ".gitignore" | ".gitattributes")
                    && c.status == 'A'
                    && base.record_text.is_none() => {}
            Kind::Other => {
                let what = if path == "game.toml" {
                    "the manifest never changes once created".to_string()
                } else {
                    format!("{} a file that is not part of the game", verb(c.status))
                };
                return Err(refuse_with(
                    path,
                    None,
                    what,
                    "a change to a game adds commitments, sealed setups, moves, conditional \
                     answers and reveals only",
                ));
            }
        }
    }
    if let Some(old) = base.record_text {
        let extends = record_now.is_some_and(|now| now.starts_with(old));
        if !extends {
            return Err(refuse_with(
                "record.jsonl",
                None,
                "does not extend the record last signed on this branch",
                "the record only grows: restore the published record",
            ));
        }
    }
    Ok(())
}

/// A repository's games before and after a change (folder, ending in `/` or empty for the top,
/// to the mode and blob id of its `game.toml`), and what may change outside them.
pub struct Layout<'a> {
    pub base: &'a BTreeMap<String, String>,
    pub head: &'a BTreeMap<String, String>,
    /// The allow-list at the base; none when the change creates the repository (its owner's
    /// first push: there is nothing yet to protect).
    pub allow_list: Option<&'a str>,
    /// Every file path of the base tree and of the new tree.
    pub base_paths: &'a [String],
    pub head_paths: &'a [String],
    /// The judge key each new game's manifest names (by folder).
    pub new_judges: &'a BTreeMap<String, String>,
    /// The repository's judge key: the one its games at the base name (none without games).
    pub repo_judge: Option<&'a str>,
}

/// New games one change may create, at most.
pub const NEW_GAMES_PER_CHANGE: usize = 10;

/// The rules on a whole repository's change (`changes` relative to its top): every game of the
/// base is still there, in the same folder, with the same manifest; a new manifest stands where
/// no game folder is above or below it; games hold regular files only; nothing changes outside
/// the games but what the allow-list permits. Returns the game folders the change touches.
pub fn check_layout(l: &Layout, changes: &[Change]) -> Result<Vec<String>> {
    for (folder, manifest) in l.base {
        if l.head.get(folder) != Some(manifest) {
            let what = match l.head.contains_key(folder) {
                true => "is changed: the manifest never changes once created",
                false => "is deleted or moved: a game's folder stays where it was created",
            };
            return Err(refuse_with(
                format!("/{folder}game.toml"),
                None,
                format!("the game in {} {what}", shown(folder)),
                "a change to a game adds player files only; restore the game as it was",
            ));
        }
    }
    let all: Vec<&String> = l.base.keys().chain(l.head.keys()).collect();
    for folder in l.head.keys().filter(|f| !l.base.contains_key(*f)) {
        if let Some(other) = all.iter().find(|o| {
            **o != folder && (o.starts_with(folder.as_str()) || folder.starts_with(o.as_str()))
        }) {
            return Err(refuse_with(
                format!("/{folder}game.toml"),
                None,
                format!(
                    "a new game in {} would {} the game in {}",
                    shown(folder),
                    if other.starts_with(folder.as_str()) {
                        "hold"
                    } else {
                        "sit inside"
                    },
                    shown(other)
                ),
                "create each game in a folder of its own, beside the others",
            ));
        }
    }
    let new: Vec<&String> = l.head.keys().filter(|f| !l.base.contains_key(*f)).collect();
    if let Some(list) = l.allow_list {
        check_new_games(l, list, &new)?;
    }
    check_twins(l, changes)?;
    let mut touched = Vec::new();
    for c in changes {
        // Nested games are refused above, so at most one folder holds the path.
        let game = all.iter().find(|f| c.path.starts_with(f.as_str()));
        match game {
            Some(folder) => {
                if !c.leaves_regular_file() {
                    let what = match c.mode.as_str() {
                        "120000" => "a link",
                        "160000" => "a submodule (gitlink)",
                        _ => "not a regular file",
                    };
                    return Err(refuse_with(
                        format!("/{}", c.path),
                        None,
                        format!("is {what}: a game holds regular files only"),
                        "add the file itself",
                    ));
                }
                if l.head.contains_key(folder.as_str()) && !touched.contains(*folder) {
                    touched.push(folder.to_string());
                }
            }
            None if l.allow_list.is_none_or(|list| allowed(list, &c.path)) => {}
            None => {
                return Err(refuse_with(
                    format!("/{}", c.path),
                    None,
                    "outside every game folder, and the repository's allow-list does not permit it",
                    format!(
                        "a change to a game touches its folder only; to allow other files, list \
                         them in {ALLOW_LIST} at the repository's top (in a change of its own, by \
                         the owner)"
                    ),
                ))
            }
        }
    }
    Ok(touched)
}

/// Where a change that is not the repository's first may create games: only where the owner's
/// allow-list says (`games: PATTERN`), never in a hidden folder (`.github/`), only in a folder
/// that held nothing at the base, judged by the repository's judge, a few at a time.
fn check_new_games(l: &Layout, list: &str, new: &[&String]) -> Result<()> {
    if new.len() > NEW_GAMES_PER_CHANGE {
        return Err(refuse_with(
            format!("/{}game.toml", new[NEW_GAMES_PER_CHANGE]),
            None,
            format!(
                "the change creates {} games; one change creates at most {NEW_GAMES_PER_CHANGE}",
                new.len()
            ),
            "create games in smaller changes",
        ));
    }
    for folder in new {
        let manifest = format!("/{folder}game.toml");
        let refused = |why: String, hint: &str| Err(refuse_with(&manifest, None, why, hint));
        if folder.split('/').any(|part| part.starts_with('.')) || folder.is_empty() {
            return refused(
                format!("a new game in {} would stand in a hidden folder or at the top, which belong to the repository's owner", shown(folder)),
                "create the game in a folder the owner allows for games",
            );
        }
        if let Some(old) = l.base_paths.iter().find(|p| p.starts_with(folder.as_str())) {
            return refused(
                format!(
                    "a new game in {} would take over a folder that already holds /{old}",
                    shown(folder)
                ),
                "create each game in a new, empty folder",
            );
        }
        if !games_allowed(list, folder) {
            return refused(
                format!("the repository's owner allows no new game in {}", shown(folder)),
                &format!("the owner lists where games may be created in {ALLOW_LIST} (`games: games/*/`)"),
            );
        }
        let judge = l.new_judges.get(folder.as_str()).map(String::as_str);
        if l.repo_judge.is_some_and(|r| judge != Some(r)) {
            return refused(
                format!(
                    "the new game in {} names another judge than the repository's games",
                    shown(folder)
                ),
                "create the game with the repository's judge key (`qijudge new … --judge KEY.pub`)",
            );
        }
    }
    Ok(())
}

/// Paths that one file system tells apart and another does not (`G/` beside `g/`, `café` in
/// NFD beside `café` in NFC: one folder on a Windows or macOS clone, where a move would be
/// signed for the wrong game) are refused when the change makes such a pair.
fn check_twins(l: &Layout, changes: &[Change]) -> Result<()> {
    use std::collections::{hash_map::Entry, HashMap, HashSet};
    use unicode_normalization::UnicodeNormalization;
    if !changes.iter().any(|c| c.status == 'A') {
        return Ok(());
    }
    let fold = |p: &str| p.nfc().collect::<String>().to_lowercase();
    // A path and each folder above it: `a/b/c` gives `a`, `a/b`, `a/b/c`.
    fn spellings(path: &str) -> impl Iterator<Item = &str> {
        path.match_indices('/')
            .map(|(i, _)| &path[..i])
            .chain(std::iter::once(path))
    }
    let at_base: HashSet<&str> = l.base_paths.iter().flat_map(|p| spellings(p)).collect();
    let mut seen: HashMap<String, &str> = HashMap::new();
    for name in l.head_paths.iter().flat_map(|p| spellings(p)) {
        let (old, new) = match seen.entry(fold(name)) {
            Entry::Vacant(e) => {
                e.insert(name);
                continue;
            }
            Entry::Occupied(e) if *e.get() == name => continue,
            Entry::Occupied(e) => (*e.get(), name),
        };
        // Twins that were both there before are not this change's doing.
        if at_base.contains(old) && at_base.contains(new) {
            continue;
        }
        let (old, new) = if at_base.contains(new) {
            (new, old)
        } else {
            (old, new)
        };
        return Err(refuse_with(
            format!("/{new}"),
            None,
            format!("differs from /{old} only in letter case or Unicode form: on Windows and macOS they are one"),
            "choose a name that differs from every other in more than case or the encoding of its accents",
        ));
    }
    Ok(())
}

/// The secret rule on every commit of a change (each with the files it adds or modifies): a
/// setup in clear that one commit adds and a later one removes is still in the history a merge
/// brings. `games` are the game folders of the base and of the new tree.
pub fn check_commits(games: &[&String], commits: &[(String, Vec<String>)]) -> Result<()> {
    for (commit, paths) in commits {
        for path in paths {
            let in_game = games.iter().find_map(|f| path.strip_prefix(f.as_str()));
            if in_game.is_some_and(|rest| rest.starts_with("setups/")) {
                return Err(refuse_with(
                    format!("/{path}"),
                    None,
                    format!(
                        "a setup in clear, added by commit {commit}: whatever a later commit does, the history shows it to everyone"
                    ),
                    "drop the commit from the branch (rebase it away), then publish sealed/SEAT.age from setup --seal",
                ));
            }
        }
    }
    Ok(())
}

/// A game folder as a person reads it.
fn shown(folder: &str) -> String {
    match folder {
        "" => "the repository's top".to_string(),
        f => f.to_string(),
    }
}

/// The file at the repository's top that lists what a change may touch outside the game
/// folders, read at the base revision (a change cannot grant itself a permission).
pub const ALLOW_LIST: &str = ".qijudge-allow";

/// An allow-list line naming where new games may be created: `games: PATTERN` (a folder
/// pattern, as the other lines: `games/*/`).
const GAMES_LINE: &str = "games:";

/// Whether the allow-list `list` permits a new game in `folder` (ending in `/`).
pub fn games_allowed(list: &str, folder: &str) -> bool {
    let folder = folder.trim_end_matches('/');
    list.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter_map(|l| l.strip_prefix(GAMES_LINE))
        .map(|p| p.trim().trim_end_matches('/'))
        .filter(|p| !p.is_empty())
        .any(|p| glob(p.as_bytes(), folder.as_bytes()))
}

/// Whether the allow-list `list` permits a change to `path` (relative to the repository's top).
/// One pattern per line; `#` starts a comment. A pattern ending in `/` is a folder and all below
/// it; `*` matches within one path segment, `**` across segments; anything else is an exact path.
pub fn allowed(list: &str, path: &str) -> bool {
    list.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with(GAMES_LINE))
        .any(|pattern| match pattern.strip_suffix('/') {
            Some(folder) => {
                glob(folder.as_bytes(), path.as_bytes()) || {
                    let mut parts = path.match_indices('/').map(|(i, _)| &path[..i]);
                    parts.any(|prefix| glob(folder.as_bytes(), prefix.as_bytes()))
                }
            }
            None => glob(pattern.as_bytes(), path.as_bytes()),
        })
}

/// Matches `*` (within a segment), `**` (across segments) and `**/` (zero or more folders).
/// Each (pattern, text) position is tried once, so the time is at most their product.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    fn go(
        p: &[u8],
        t: &[u8],
        (pi, ti): (usize, usize),
        failed: &mut std::collections::HashSet<(usize, usize)>,
    ) -> bool {
        if failed.contains(&(pi, ti)) {
            return false;
        }
        let (rest, text) = (&p[pi..], &t[ti..]);
        let matched = match rest {
            [] => text.is_empty(),
            [b'*', b'*', b'/', ..] => {
                go(p, t, (pi + 3, ti), failed)
                    || (ti..t.len()).any(|i| t[i] == b'/' && go(p, t, (pi + 3, i + 1), failed))
            }
            [b'*', b'*', ..] => (ti..=t.len()).any(|i| go(p, t, (pi + 2, i), failed)),
            [b'*', ..] => (ti..=t.len())
                .take_while(|&i| i == ti || t[i - 1] != b'/')
                .any(|i| go(p, t, (pi + 1, i), failed)),
            [c, ..] => text.first() == Some(c) && go(p, t, (pi + 1, ti + 1), failed),
        };
        if !matched {
            failed.insert((pi, ti));
        }
        matched
    }
    go(pattern, text, (0, 0), &mut Default::default())
}

/// Whether deleting `deleted` is the judge setting a refused candidate aside: the same change
/// adds its very bytes under `refused/`, and the record never accepted it.
fn set_aside(deleted: &Change, changes: &[Change], record: &Record) -> bool {
    let path = deleted.path.as_str();
    let base = path.strip_suffix(".sig").unwrap_or(path);
    let stem = base
        .rsplit('/')
        .next()
        .unwrap_or(base)
        .split('.')
        .next()
        .unwrap_or(base);
    let moved = changes
        .iter()
        .any(|c| c.status == 'A' && kept_copy_of(c, deleted));
    let accepted = record.lines.iter().any(|l| match &l.entry {
        Entry::Move { ply, seat, .. } => base == qijudge_judge::move_path(*ply, seat),
        Entry::Commitment { seat, .. } => base == format!("commitments/{seat}.toml"),
        Entry::SetupAccepted { seat } => base.starts_with("sealed/") && stem == seat,
        _ => false,
    });
    moved && !accepted
}

/// Whether the change deletes the candidate the added `refused/FOLDER/STEM.DIGEST.EXT` file was.
fn original_deleted(set_aside: &Change, changes: &[Change]) -> bool {
    changes
        .iter()
        .any(|c| c.status == 'D' && kept_copy_of(set_aside, c))
}

/// Whether `copy` is `deleted` kept under `refused/`: at the name the judge gives it
/// (`refused/FOLDER/STEM.<12 hex>.EXT` for `FOLDER/STEM.EXT`) with the very same bytes.
fn kept_copy_of(copy: &Change, deleted: &Change) -> bool {
    let rest = copy.path.strip_prefix("refused/").unwrap_or_default();
    let Some((folder, name)) = rest.split_once('/') else {
        return false;
    };
    let mut parts = name.splitn(3, '.');
    let (Some(stem), Some(digest), Some(ext)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let hex = digest.len() == 12 && digest.bytes().all(|b| b.is_ascii_hexdigit());
    hex && deleted.path == format!("{folder}/{stem}.{ext}")
        && !deleted.old_id.is_empty()
        && deleted.old_id == copy.new_id
}

/// The other half of a signed player file: `X.sig` for `X`, `X` for `X.sig`.
fn partner(path: &str) -> String {
    match path.strip_suffix(".sig") {
        Some(file) => file.to_string(),
        None => format!("{path}.sig"),
    }
}

/// Whether `path` is a name the judge writes: the record, or `views/AUDIENCE.…` (a seat, `public`,
/// `full`, or `board` for the shared picture) directly in `views/`, in plain ASCII.
fn judge_name(game: &GameFacts, path: &str) -> bool {
    if path == "record.jsonl" || path == "record.sig" {
        return true;
    }
    let Some(name) = path.strip_prefix("views/") else {
        return false;
    };
    let audience = name.split('.').next().unwrap_or_default();
    qijudge_store::is_judge_output(path)
        && name.contains('.')
        && (matches!(audience, "public" | "full" | "board")
            || game.seats.iter().any(|s| s == audience))
}

fn verb(status: char) -> &'static str {
    match status {
        'A' => "adds",
        'D' => "deletes",
        'T' => "changes the type of",
        _ => "changes",
    }
}

/// A refusal as a GitHub workflow command (an annotation on the file), with the escaping the
/// runner expects; `prefix` is the game directory inside the repository.
pub fn github_annotation(level: &str, prefix: &str, file: Option<&str>, message: &str) -> String {
    let data = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let prop = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
    match file {
        Some(f) => format!(
            "::{level} file={},title=qijudge::{}",
            prop(&format!("{prefix}{f}")),
            data(message)
        ),
        None => format!("::{level} title=qijudge::{}", data(message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allow_list_permits_only_what_it_names() {
        let list = "# the site\ndocs/\nREADME.md\nassets/*.png\nsite/**/index.html\n";
        for ok in [
            "docs/a.md",
            "docs/deep/b.md",
            "README.md",
            "assets/x.png",
            "site/index.html",
            "site/a/b/index.html",
        ] {
            assert!(allowed(list, ok), "{ok}");
        }
        for not in [
            ".gitattributes",
            ".github/workflows/qijudge.yml",
            "docsx/a.md",
            "README.md.bak",
            "assets/sub/x.png",
            "site/a/other.html",
        ] {
            assert!(!allowed(list, not), "{not}");
        }
        assert!(!allowed("", "anything"));
    }

    fn facts(sealed: bool) -> GameFacts {
        GameFacts {
            seats: vec!["south".into(), "north".into()],
            sealed,
            judge_commit: true,
        }
    }

    fn commitments() -> Record {
        let mut r = Record::new();
        for seat in ["south", "north"] {
            r.append(
                Entry::Commitment {
                    seat: seat.into(),
                    file: "sha256:00".into(),
                },
                "g",
            );
        }
        r
    }

    fn change(status: char, path: &str) -> Change {
        Change::named(status, path)
    }

    /// A change of the blob `id` (deleted: the old blob; added: the new one).
    fn blob(status: char, path: &str, id: &str) -> Change {
        let mut c = Change::named(status, path);
        match status {
            'D' => c.old_id = id.repeat(40),
            _ => c.new_id = id.repeat(40),
        }
        c
    }

    /// The outcome of one change against a base record of both commitments ("OLD\n").
    fn check(game: &GameFacts, record: &Record, c: &[Change], now: Option<&str>) -> Result<()> {
        let base = Base {
            record_text: Some("OLD\n"),
            record,
        };
        check_changes(game, c, &base, now)
    }

    #[test]
    fn players_may_add_their_files_and_the_judge_may_grow_the_record() {
        let (game, record) = (facts(true), commitments());
        let ok = [
            change('A', "moves/0001-south.toml"),
            change('A', "moves/0001-south.toml.sig"),
            change('A', "sealed/north.age"),
            change('A', "sealed/north.age.sig"),
            change('A', "commitments/north.toml"),
            change('A', "commitments/north.toml.sig"),
            change('M', "record.jsonl"),
            change('M', "views/south.age"),
        ];
        assert!(check(&game, &record, &ok, Some("OLD\nNEW\n")).is_ok());
        // A refusal note goes only with the judge's own commit (its seat moved on).
        let gone = [change('D', "views/south.refusal.age")];
        assert!(check(&game, &record, &gone, Some("OLD\n")).is_ok());
        let stranger = GameFacts {
            judge_commit: false,
            ..facts(true)
        };
        let e = check(&stranger, &record, &gone, Some("OLD\n")).unwrap_err();
        assert!(e.to_string().contains("only the judge's own commit"), "{e}");
        // Creating the game.
        let first = [change('A', "game.toml"), change('A', ".gitignore")];
        let base = Base {
            record_text: None,
            record: &Record::new(),
        };
        assert!(check_changes(&game, &first, &base, None).is_ok());
    }

    #[test]
    fn a_conditional_change_only_moves_to_a_newer_version() {
        use qijudge_protocol::files::{to_toml, ConditionalFile, CONDITIONAL_FORMAT};
        let version = |seq: u32| {
            Some(to_toml(&ConditionalFile {
                format: CONDITIONAL_FORMAT.into(),
                game: "g".into(),
                manifest: "sha256:00".into(),
                ply: 2,
                seat: "north".into(),
                answers: "sha256:00".into(),
                seq,
                lines: Vec::new(),
            }))
        };
        let toml = "conditional/0002-north.toml";
        let changed = [
            change('M', toml),
            change('M', "conditional/0002-north.toml.sig"),
        ];
        let run = |old: u32, new: u32, changes: &[Change]| {
            check_conditional_versions(changes, |_| version(old), |_| version(new))
        };
        assert!(run(1, 2, &changed).is_ok());
        for (old, new) in [(2, 1), (2, 2)] {
            let e = run(old, new, &changed).unwrap_err().to_string();
            assert!(e.contains("never comes back"), "{old} -> {new}: {e}");
        }
        // Sealed plans change only with their conditional file.
        let alone = [change('M', "conditional/0002-north.age")];
        assert!(run(1, 1, &alone)
            .unwrap_err()
            .to_string()
            .contains("only with"));
        let both = [change('M', toml), change('M', "conditional/0002-north.age")];
        assert!(run(1, 2, &both).is_ok());
    }

    #[test]
    fn a_conditional_file_is_replaced_until_the_judge_plays_from_it() {
        let game = facts(false);
        let mut record = commitments();
        let pair = |status| {
            [
                change(status, "conditional/0002-north.toml"),
                change(status, "conditional/0002-north.toml.sig"),
            ]
        };
        assert!(check(&game, &record, &pair('A'), Some("OLD\n")).is_ok());
        let half = [change('A', "conditional/0002-north.toml")];
        let e = check(&game, &record, &half, Some("OLD\n")).unwrap_err();
        assert!(e.to_string().contains("without its other half"), "{e}");
        assert!(check(&game, &record, &pair('M'), Some("OLD\n")).is_ok());
        record.append(
            Entry::Move {
                ply: 3,
                seat: "north".into(),
                file: "sha256:00".into(),
                received: String::new(),
                action: "a6-a5".into(),
                outcome: None,
                notices: Vec::new(),
                draw_offered: false,
                revealed: None,
                conditional: Some(qijudge_protocol::files::Fired {
                    path: "conditional/0002-north.toml".into(),
                    line: 1,
                    opened: qijudge_protocol::plan::open(&[1; 32], &["a5-a6 a6-a5".into()], 1),
                }),
            },
            "g",
        );
        for status in ['M', 'D'] {
            let e = check(&game, &record, &pair(status), Some("OLD\n")).unwrap_err();
            assert!(
                e.to_string().contains("a file already published"),
                "{status}: {e}"
            );
        }
    }

    #[test]
    fn the_judge_may_set_a_refused_candidate_aside_and_nobody_else_may_touch_it() {
        let (game, record) = (facts(true), commitments());
        let aside = [
            blob('D', "moves/0001-south.toml", "a"),
            blob('D', "moves/0001-south.toml.sig", "b"),
            blob('A', "refused/moves/0001-south.0123456789ab.toml", "a"),
            blob('A', "refused/moves/0001-south.0123456789ab.toml.sig", "b"),
            change('M', "record.jsonl"),
        ];
        assert!(check(&game, &record, &aside, Some("OLD\nNEW\n")).is_ok());
        // Only the judge's own commit sets aside.
        let stranger = GameFacts {
            judge_commit: false,
            ..facts(true)
        };
        let e = check(&stranger, &record, &aside, Some("OLD\nNEW\n")).unwrap_err();
        assert!(e.to_string().contains("refused file"), "{e}");
        // Other bytes than those it removes, or another name: eviction, refused.
        let mut other = aside.clone();
        other[2] = blob('A', "refused/moves/0001-south.0123456789ab.toml", "c");
        assert!(check(&game, &record, &other, Some("OLD\nNEW\n")).is_err());
        other[2] = blob('A', "refused/moves/0001-south.junk.toml", "a");
        assert!(check(&game, &record, &other, Some("OLD\nNEW\n")).is_err());
        // A file deleted whose bytes are kept nowhere (only its signature is): refused.
        let half = [aside[0].clone(), aside[1].clone(), aside[3].clone()];
        let e = check(&game, &record, &half, Some("OLD\nNEW\n")).unwrap_err();
        assert!(e.to_string().contains("deletes a file"), "{e}");
        // Without its copy in refused/, a deletion is a deletion.
        assert!(check(&game, &record, &aside[..2], Some("OLD\nNEW\n")).is_err());
        // A file in refused/ that sets nothing aside, or changed later.
        for c in [
            change('A', "refused/moves/0003-north.0123456789ab.toml"),
            change('M', "refused/moves/0001-south.0123456789ab.toml"),
            change('D', "refused/moves/0001-south.0123456789ab.toml"),
        ] {
            assert!(check(&game, &record, &[c], None).is_err());
        }
        // An accepted file is never set aside: the base record holds south's commitment.
        let accepted = [
            change('D', "commitments/south.toml"),
            change('A', "refused/commitments/south.0123456789ab.toml"),
        ];
        let e = check(&game, &record, &accepted, None).unwrap_err();
        assert!(
            e.to_string().contains("deletes a file already published"),
            "{e}"
        );
    }

    #[test]
    fn each_rule_refuses_its_change() {
        let (sealed, record) = (facts(true), commitments());
        let grown = Some("OLD\nNEW\n");
        let cases: Vec<(GameFacts, Record, Change, Option<&str>, &str)> = vec![
            (
                facts(true),
                commitments(),
                change('A', "setups/south.toml"),
                grown,
                "in clear",
            ),
            (
                facts(true),
                commitments(),
                change('M', "moves/0001-south.toml"),
                grown,
                "changes a file",
            ),
            (
                facts(true),
                commitments(),
                change('D', "commitments/south.toml"),
                grown,
                "deletes a file",
            ),
            (
                facts(false),
                commitments(),
                change('A', "sealed/south.age"),
                grown,
                "not sealed",
            ),
            (
                facts(true),
                Record::new(),
                change('A', "sealed/south.age"),
                grown,
                "every seat's commitment",
            ),
            (
                facts(true),
                commitments(),
                change('A', "reveal/south.toml"),
                grown,
                "before the game is over",
            ),
            (
                facts(true),
                commitments(),
                change('M', "game.toml"),
                grown,
                "manifest never changes",
            ),
            (
                facts(true),
                commitments(),
                change('A', "game.toml"),
                grown,
                "manifest never changes",
            ),
            (
                facts(true),
                commitments(),
                change('A', "notes.txt"),
                grown,
                "not part of the game",
            ),
            (
                facts(true),
                commitments(),
                change('A', "moves/1-south.toml"),
                grown,
                "not part of the game",
            ),
            (
                facts(true),
                commitments(),
                change('A', "sealed/east.age"),
                grown,
                "not part of the game",
            ),
            (
                facts(true),
                commitments(),
                change('M', "record.jsonl"),
                Some("OTHER\n"),
                "does not extend",
            ),
            (
                facts(true),
                commitments(),
                change('D', "record.jsonl"),
                None,
                "does not extend",
            ),
        ];
        for (game, record, c, now, want) in cases {
            let e = check(&game, &record, std::slice::from_ref(&c), now).unwrap_err();
            assert!(e.to_string().contains(want), "{c:?}: {e}");
        }
        // Reveals come once the record has ended the game.
        let mut over = record.clone();
        over.append(
            Entry::End {
                winner: None,
                allies: Vec::new(),
                reason: qijudge_rules::EndReason::Agreement,
            },
            "g",
        );
        let reveal = [change('A', "reveal/north.toml")];
        assert!(check(&sealed, &over, &reveal, grown).is_ok());
    }

    #[test]
    fn a_signed_file_comes_whole_and_views_hold_only_the_judges_names() {
        let (game, record) = (facts(true), commitments());
        let grown = Some("OLD\nNEW\n");
        // Signature squatting: a .sig alone (or a file alone) holds no slot.
        for lone in [
            change('A', "moves/0002-north.toml.sig"),
            change('A', "moves/0002-north.toml"),
            change('A', "commitments/south.toml.sig"),
        ] {
            let e = check(&game, &record, &[lone], grown).unwrap_err();
            assert!(e.to_string().contains("without its other half"), "{e}");
        }
        for (path, ok) in [
            ("views/public.json", true),
            ("views/south.refusal.age.tag", true),
            ("views/full.png.sig", true),
            ("views/public.json/copy", false),
            ("views/eve.json", false),
            ("views/readme", false),
            ("views/sub/public.json", false),
            ("views/pub\u{e9}lic.json", false),
        ] {
            let r = check(&game, &record, &[change('A', path)], grown);
            assert_eq!(r.is_ok(), ok, "{path}: {r:?}");
        }
    }

    fn games(list: &[(&str, &str)]) -> BTreeMap<String, String> {
        list.iter()
            .map(|(f, id)| (f.to_string(), id.to_string()))
            .collect()
    }

    /// A layout of no games with these paths (its other fields replaced by the caller).
    fn layout_of<'a>(base_paths: &'a [String], head_paths: &'a [String]) -> Layout<'a> {
        static NONE: BTreeMap<String, String> = BTreeMap::new();
        Layout {
            base: &NONE,
            head: &NONE,
            allow_list: None,
            base_paths,
            head_paths,
            new_judges: &NONE,
            repo_judge: None,
        }
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// The review's findings: a stranger's pull request planting a game in the owner's
    /// folders, hundreds of games, a game of another judge, and twins of a game's folder.
    #[test]
    fn the_owner_decides_where_games_live() {
        let base = games(&[("games/g1/", "m1")]);
        let base_paths = strings(&[
            "games/g1/game.toml",
            "docs/index.md",
            ".github/workflows/q.yml",
        ]);
        let list = "docs/\ngames: games/*/\n";
        let judges = |folders: &[&str], key: &str| -> BTreeMap<String, String> {
            folders
                .iter()
                .map(|f| (f.to_string(), key.to_string()))
                .collect()
        };
        let check = |new: &[&str], key: &str, list: &str| {
            let mut head = base.clone();
            let mut head_paths = base_paths.clone();
            let mut changes = Vec::new();
            for f in new {
                head.insert(f.to_string(), "m".into());
                head_paths.push(format!("{f}game.toml"));
                changes.push(change('A', &format!("{f}game.toml")));
            }
            let new_judges = judges(new, key);
            let l = Layout {
                base: &base,
                head: &head,
                allow_list: Some(list),
                base_paths: &base_paths,
                head_paths: &head_paths,
                new_judges: &new_judges,
                repo_judge: Some("K"),
            };
            check_layout(&l, &changes).map_err(|e| e.to_string())
        };
        assert_eq!(
            check(&["games/g2/"], "K", list),
            Ok(vec!["games/g2/".to_string()])
        );
        for (new, key, list, why) in [
            (vec!["docs/"], "K", list, "already holds /docs/index.md"),
            (vec![".github/workflows/"], "K", list, "hidden folder"),
            (vec!["games/g2/"], "K", "docs/\n", "allows no new game"),
            (vec!["elsewhere/g/"], "K", list, "allows no new game"),
            (vec!["games/g2/"], "OTHER", list, "names another judge"),
        ] {
            let e = check(&new, key, list).unwrap_err();
            assert!(e.contains(why), "{new:?}: {e}");
        }
        let many: Vec<String> = (0..=NEW_GAMES_PER_CHANGE)
            .map(|i| format!("games/n{i}/"))
            .collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(check(&many, "K", list).unwrap_err().contains("at most 10"));
        assert!(check(&many[..NEW_GAMES_PER_CHANGE], "K", list).is_ok());
    }

    #[test]
    fn paths_one_file_system_cannot_tell_apart_are_refused() {
        let base_paths = strings(&["g/game.toml", "caf\u{e9}/game.toml"]);
        let check = |added: &str| {
            let mut head_paths = base_paths.clone();
            head_paths.push(added.to_string());
            let l = layout_of(&base_paths, &head_paths);
            check_twins(&l, &[change('A', added)]).map_err(|e| e.to_string())
        };
        let e = check("G/game.toml").unwrap_err();
        assert!(e.contains("/G: differs from /g only in letter case"), "{e}");
        let nfd = "cafe\u{301}/moves/0001-red.toml";
        assert!(check(nfd).unwrap_err().contains("Unicode form"));
        assert!(check("g/moves/0001-red.toml").is_ok());
        assert!(check("h/game.toml").is_ok());
        // Twins both there before the change are not the change's doing.
        let old = strings(&["g/a", "G/b"]);
        let mut head = old.clone();
        head.push("g/c".into());
        let l = layout_of(&old, &head);
        assert!(check_twins(&l, &[change('A', "g/c")]).is_ok());
    }

    #[test]
    fn no_game_is_deleted_moved_nested_or_changed() {
        let base = games(&[("games/g1/", "m1"), ("games/g2/", "m2")]);
        let layout = |head: &BTreeMap<String, String>, changes: &[Change]| {
            let l = Layout {
                base: &base,
                head,
                allow_list: Some(""),
                ..layout_of(&[], &[])
            };
            check_layout(&l, changes).map_err(|e| e.to_string())
        };
        let same = base.clone();
        let touched = layout(&same, &[change('A', "games/g1/moves/0001-south.toml")]);
        assert_eq!(touched, Ok(vec!["games/g1/".to_string()]));
        let cases: Vec<(BTreeMap<String, String>, Change, &str)> = vec![
            // The whole game deleted (its manifest with it).
            (
                games(&[("games/g2/", "m2")]),
                change('D', "games/g1/game.toml"),
                "deleted or moved",
            ),
            // Moved to another folder.
            (
                games(&[("games/g9/", "m1"), ("games/g2/", "m2")]),
                change('A', "games/g9/game.toml"),
                "deleted or moved",
            ),
            // Its manifest changed, or made a link.
            (
                games(&[("games/g1/", "m3"), ("games/g2/", "m2")]),
                change('M', "games/g1/game.toml"),
                "is changed",
            ),
            // A manifest above every game, and one inside a game.
            (
                games(&[("", "x"), ("games/g1/", "m1"), ("games/g2/", "m2")]),
                change('A', "game.toml"),
                "would hold",
            ),
            (
                games(&[
                    ("games/g1/x/", "x"),
                    ("games/g1/", "m1"),
                    ("games/g2/", "m2"),
                ]),
                change('A', "games/g1/x/game.toml"),
                "would sit inside",
            ),
        ];
        for (head, c, want) in cases {
            let e = layout(&head, std::slice::from_ref(&c)).unwrap_err();
            assert!(e.contains(want), "{c:?}: {e}");
        }
        // A submodule or a link where a file belongs.
        for mode in ["160000", "120000"] {
            let mut c = change('A', "games/g1/moves/0001-south.toml");
            c.mode = mode.into();
            let e = layout(&same, &[c]).unwrap_err();
            assert!(e.contains("regular files only"), "{e}");
        }
        // Outside the games: the allow-list decides, and at the repository's creation anything.
        let outside = [change('A', ".github/workflows/qijudge.yml")];
        assert!(layout(&same, &outside).unwrap_err().contains("allow-list"));
        let empty = BTreeMap::new();
        let first = Layout {
            base: &empty,
            head: &same,
            allow_list: None,
            ..layout_of(&[], &[])
        };
        assert!(check_layout(&first, &outside).is_ok());
    }

    #[test]
    fn annotations_escape_what_the_runner_would_read_as_commands() {
        let a = github_annotation("error", "g/", Some("moves/0001-south.toml"), "a\nb: 100%");
        assert_eq!(
            a,
            "::error file=g/moves/0001-south.toml,title=qijudge::a%0Ab: 100%25"
        );
        let b = github_annotation("error", "", Some("x,y:z"), "m");
        assert_eq!(b, "::error file=x%2Cy%3Az,title=qijudge::m");
    }
}
