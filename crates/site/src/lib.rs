//! `qijudge site ROOT --out SITE`: a club's page as a static site. Every game below ROOT gets
//! a page (and its public replay page when the public files allow one); the index lists the
//! games in play and the finished ones, each player has a page, the standings count finished
//! games per kind under the judge keys the organiser names, and an Atom feed announces new
//! games and results.
//!
//! Made only from what the public may read ([`public`]): each game is read from a copy of its
//! public files. Made again cheaply: a game whose public files did not change is not read again
//! (what the shared pages need of it is kept in `SITE/.qijudge-site.json`), and a file whose
//! bytes did not change is not written again. One game that cannot be read is listed with why,
//! and never stops the others.

pub mod entry;
pub mod feed;
pub mod pages;
pub mod players;
pub mod public;
pub mod words;

use entry::{manifest_seats, Entry};
use players::Players;
use qijudge_protocol::error::{Error, Result};
use qijudge_tournament::standings::Judges;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What the site keeps between builds, in its folder.
const STATE: &str = ".qijudge-site.json";
/// Where a game's public files are copied while it is read.
const WORK: &str = ".qijudge-site.work";
const STATE_FORMAT: &str = "qijudge/site-state/1";

/// A build's settings, as `qijudge site` (or `inbox --site`) takes them.
pub struct Options<'a> {
    pub root: &'a Path,
    pub out: &'a Path,
    pub chinese: bool,
    /// Key files of the judges whose games count in the standings (public keys, or a judge's
    /// private key, whose public half is taken).
    pub judges: &'a [PathBuf],
    /// The club's name, for titles.
    pub title: Option<&'a str>,
    /// The site's address, for absolute links in the feed.
    pub url: Option<&'a str>,
    /// The time statuses are read at (RFC 3339).
    pub now: &'a str,
}

/// What a build did.
#[derive(Debug, Default)]
pub struct Built {
    pub games: usize,
    /// Games read again (new, or their public files changed).
    pub read: usize,
    pub written: Vec<String>,
    pub unchanged: usize,
    pub removed: Vec<String>,
    pub unreadable: usize,
}

#[derive(Serialize, Deserialize, Default)]
struct State {
    format: String,
    /// The settings the kept entries were made under; others make every game read again.
    settings: String,
    entries: Vec<Kept>,
    /// Every file the site wrote, to remove those of games gone.
    files: Vec<String>,
}

/// One game as kept: what the shared pages need, and the player pages its page links to.
#[derive(Serialize, Deserialize, Clone)]
struct Kept {
    entry: Entry,
    slugs: Vec<String>,
}

/// Builds (or brings up to date) the site of every game below `o.root` in `o.out`.
pub fn build(o: &Options) -> Result<Built> {
    let games = qijudge_registry::listing::find(o.root)?;
    refuse_out_inside_a_game(o.out, &games)?;
    std::fs::create_dir_all(o.out).map_err(|e| Error::Io(format!("{}: {e}", o.out.display())))?;
    let site = qijudge_store::GameDir::new(o.out);
    let _lock = site.lock()?;
    let (judges, judge_names) = judges_of(o.judges)?;
    let w = words::of(o.chinese);
    let club = o.title.unwrap_or(w.club).to_string();
    let settings = format!(
        "{}|{}|{}|{}",
        o.chinese,
        judges.lines().join(","),
        club,
        o.url.unwrap_or("")
    );
    let state = read_state(o.out);
    let kept: Vec<Kept> = match state.settings == settings {
        true => state.entries,
        false => Vec::new(),
    };
    let mut built = Built {
        games: games.len(),
        ..Built::default()
    };
    let mut files: BTreeSet<String> = BTreeSet::new();
    // First the manifests alone: who plays, so that every page links each player alike.
    let known: Vec<Entry> = games
        .iter()
        .map(|g| {
            let (created, players) = manifest_seats(g);
            Entry {
                path: relative(g, o.root),
                created,
                players,
                ..Entry::default()
            }
        })
        .collect();
    let players = Players::of(&known);
    let mut entries = Vec::new();
    let mut kept_now = Vec::new();
    for (dir, known) in games.iter().zip(known) {
        let folder = pages::game_folder(&known.path);
        let slugs: Vec<String> = known.players.iter().map(|s| players.slug(&s.key)).collect();
        let fingerprint = public::fingerprint(dir);
        let reuse = fingerprint.as_ref().ok().and_then(|f| {
            kept.iter().find(|k| {
                k.entry.path == known.path
                    && k.entry.fingerprint == *f
                    && k.slugs == slugs
                    && o.out.join(&folder).join("index.html").is_file()
            })
        });
        let entry = match reuse {
            Some(k) => {
                for name in ["index.html", "replay.html", "board.png"] {
                    let rel = format!("{folder}/{name}");
                    if o.out.join(&rel).is_file() {
                        files.insert(rel);
                    }
                }
                k.entry.clone()
            }
            None => {
                built.read += 1;
                let (entry, parts) = read_game(o, dir, known, fingerprint, &judges);
                let page = pages::game_page(w, &club, &entry, &parts, &players);
                let mut out = |name: &str, bytes: &[u8]| {
                    put(
                        o.out,
                        &format!("{folder}/{name}"),
                        bytes,
                        &mut built,
                        &mut files,
                    )
                };
                out("index.html", page.as_bytes())?;
                if let Some(replay) = &parts.replay {
                    out("replay.html", replay.as_bytes())?;
                }
                if let Some(png) = &parts.picture {
                    out("board.png", png)?;
                }
                entry
            }
        };
        built.unreadable += usize::from(entry.error.is_some());
        kept_now.push(Kept {
            entry: entry.clone(),
            slugs,
        });
        entries.push(entry);
    }
    // The shared pages.
    let all: Vec<&Entry> = entries.iter().collect();
    let index = pages::page(
        w,
        &club,
        &club,
        0,
        &pages::sections(w, &all, &players, "", None),
    );
    put(
        o.out,
        "index.html",
        index.as_bytes(),
        &mut built,
        &mut files,
    )?;
    let standings = pages::standings_page(w, &club, &entries, &judge_names, &players);
    put(
        o.out,
        "standings.html",
        standings.as_bytes(),
        &mut built,
        &mut files,
    )?;
    let feed = feed::feed(w, &club, &entries, o.url);
    put(o.out, "feed.xml", feed.as_bytes(), &mut built, &mut files)?;
    player_pages(w, &club, o.out, &entries, &players, &mut built, &mut files)?;
    // The files of games and players gone.
    for old in state.files.iter().filter(|f| !files.contains(*f)) {
        let safe = !old.split('/').any(|p| p == ".." || p.is_empty());
        if safe && std::fs::remove_file(o.out.join(old)).is_ok() {
            built.removed.push(old.clone());
        }
    }
    let state = State {
        format: STATE_FORMAT.into(),
        settings,
        entries: kept_now,
        files: files.into_iter().collect(),
    };
    let json = serde_json::to_string_pretty(&state).map_err(|e| Error::Io(e.to_string()))?;
    qijudge_store::write_atomic_unsynced(&o.out.join(STATE), format!("{json}\n").as_bytes())?;
    // Everything written, durable at once.
    qijudge_store::sync_folder(o.out)?;
    Ok(built)
}

/// A page per player (their turns first) and the list of players.
fn player_pages(
    w: &words::Words,
    club: &str,
    out: &Path,
    entries: &[Entry],
    players: &Players,
    built: &mut Built,
    files: &mut BTreeSet<String>,
) -> Result<()> {
    let mut list = String::from("<ul>\n");
    for (key, names, slug) in players.all() {
        let theirs: Vec<&Entry> = entries.iter().filter(|e| e.has_player(key)).collect();
        let shown: Vec<&str> = names.iter().map(String::as_str).collect();
        let turns = theirs
            .iter()
            .filter(|e| e.over.is_none() && e.key_to_move().as_deref() == Some(key.as_str()))
            .count();
        list.push_str(&format!(
            "<li><a href=\"{slug}.html\">{}</a> ({} {}, {} {})</li>\n",
            qijudge_view::html::escape(&shown.join(" / ")),
            theirs.len(),
            w.games,
            turns,
            w.their_turn
        ));
        let mut body = format!("<p><code>{}</code></p>\n", qijudge_view::html::escape(key));
        body.push_str(&pages::sections(w, &theirs, players, "../", Some(key)));
        let page = pages::page(w, club, &shown.join(" / "), 1, &body);
        put(
            out,
            &format!("players/{slug}.html"),
            page.as_bytes(),
            built,
            files,
        )?;
    }
    list.push_str("</ul>\n");
    let page = pages::page(w, club, w.players, 1, &list);
    put(out, "players/index.html", page.as_bytes(), built, files)?;
    Ok(())
}

/// Reads one game (`known`: its path and manifest) from a copy of its public files, made in
/// the site's work folder and removed after; or lists it with why it cannot be read.
fn read_game(
    o: &Options,
    dir: &Path,
    known: Entry,
    fingerprint: Result<String>,
    judges: &Judges,
) -> (Entry, entry::Parts) {
    let unreadable = |known: Entry, why: String| {
        let entry = Entry {
            error: Some(why),
            ..known
        };
        (entry, entry::Parts::default())
    };
    let fingerprint = match fingerprint {
        Ok(f) => f,
        Err(e) => return unreadable(known, e.to_string()),
    };
    let work = o.out.join(WORK);
    let copy = work.join("game");
    let _ = std::fs::remove_dir_all(&work);
    if let Err(e) = public::copy(dir, &copy) {
        let _ = std::fs::remove_dir_all(&work);
        return unreadable(known, e.to_string());
    }
    let judges = (!judges.is_empty()).then_some(judges);
    let known = Entry {
        fingerprint,
        ..known
    };
    let read = entry::read(&copy, known, o.chinese, judges, o.now);
    let _ = std::fs::remove_dir_all(&work);
    read
}

/// Writes `bytes` at `rel` below the site unless the file holds them already.
fn put(
    out: &Path,
    rel: &str,
    bytes: &[u8],
    built: &mut Built,
    files: &mut BTreeSet<String>,
) -> Result<()> {
    files.insert(rel.to_string());
    match qijudge_store::write_atomic_unsynced(&out.join(rel), bytes)? {
        true => built.written.push(rel.to_string()),
        false => built.unchanged += 1,
    }
    Ok(())
}

/// A game folder below the root, `/`-separated; `.` for the root itself.
fn relative(dir: &Path, root: &Path) -> String {
    let rel = dir.strip_prefix(root).unwrap_or(dir);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.is_empty() {
        true => ".".into(),
        false => parts.join("/"),
    }
}

/// The site inside a game folder would write into the game: refused.
fn refuse_out_inside_a_game(out: &Path, games: &[PathBuf]) -> Result<()> {
    let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut at = absolute(out);
    // The deepest folder of OUT that exists.
    while !at.exists() {
        match at.parent() {
            Some(p) => at = p.to_path_buf(),
            None => break,
        }
    }
    for g in games {
        if at.starts_with(absolute(g)) {
            return Err(Error::Io(format!(
                "--out {}: inside the game folder {}; give a folder outside the games",
                out.display(),
                g.display()
            )));
        }
    }
    if out.join("game.toml").is_file() {
        return Err(Error::Io(format!(
            "--out {}: a game folder; give a folder outside the games",
            out.display()
        )));
    }
    Ok(())
}

/// The judges to count games of, from key files (a private key gives its public half), and
/// how each is shown: its fingerprint.
fn judges_of(files: &[PathBuf]) -> Result<(Judges, Vec<String>)> {
    let mut judges = Judges::default();
    let mut shown = Vec::new();
    for f in files {
        let text = qijudge_store::read_limited(
            f,
            &f.display().to_string(),
            qijudge_store::SMALL_FILE_LIMIT,
        )?;
        let key = match ssh_key::PrivateKey::from_openssh(&text) {
            Ok(k) => k.public_key().clone(),
            Err(_) => qijudge_protocol::signing::parse_public_key(&text).map_err(|e| {
                Error::Io(format!("--judge {}: not a judge's key: {e}", f.display()))
            })?,
        };
        let line = qijudge_protocol::signing::public_key_line(&key);
        // Named by fingerprint: the organiser's file names are nobody's business.
        let fingerprint = key.fingerprint(ssh_key::HashAlg::Sha256).to_string();
        judges.add(&line, &fingerprint).map_err(Error::Io)?;
        shown.push(fingerprint);
    }
    Ok((judges, shown))
}

/// The kept state, or none (a first build, or a state this version does not read).
fn read_state(out: &Path) -> State {
    qijudge_store::read_limited(&out.join(STATE), STATE, qijudge_store::RECORD_LIMIT)
        .ok()
        .and_then(|t| serde_json::from_str::<State>(&t).ok())
        .filter(|s| s.format == STATE_FORMAT)
        .unwrap_or_default()
}

/// `qijudge site`: builds the site and says what it did (one line; the files written, when few).
pub fn command(o: &Options) -> Result<()> {
    let b = build(o)?;
    let mut line = format!(
        "site {}: {} games ({} read again), {} files written, {} unchanged",
        o.out.display(),
        b.games,
        b.read,
        b.written.len(),
        b.unchanged
    );
    if !b.removed.is_empty() {
        line.push_str(&format!(", {} removed", b.removed.len()));
    }
    if b.unreadable > 0 {
        line.push_str(&format!(
            "; {} cannot be read (listed with why)",
            b.unreadable
        ));
    }
    qijudge_game::console::write_stdout(&format!("{line}\n"))?;
    if b.written.len() <= 20 {
        for w in &b.written {
            qijudge_game::console::write_stdout(&format!("wrote {w}\n"))?;
        }
    }
    Ok(())
}
