//! `inbox`: moves and setups out of e-mail into a game directory, the judge, and the outgoing
//! messages.

use crate::{inbox, outbox};
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_store::{GameDir, RECORD_LIMIT};
use std::path::{Path, PathBuf};

/// Messages and mboxes may be large; views and moves are small.
const MESSAGE_LIMIT: u64 = 32 * 1024 * 1024;

/// Options for outgoing mail.
#[derive(Clone)]
pub struct Outgoing {
    pub outbox: Option<PathBuf>,
    pub from: Option<String>,
    pub sendmail: Option<String>,
    pub spectators: Vec<String>,
    /// The time of day (UTC, `HH:MM`) daily digests go, at the first run at or after it.
    pub digest_at: String,
    /// Where the digest wishes are kept when a club's judge runs one of its games (the club's
    /// folder, which also sends the digests); none: the game's own `mail/`.
    pub digest_spool: Option<PathBuf>,
}

/// Where `inbox` takes its messages from: files (messages or mboxes, `-` for standard input),
/// or a Maildir whose new messages are each handled once and then moved to `cur/`.
pub enum Source<'a> {
    Files(&'a [PathBuf]),
    Maildir(&'a Path),
}

pub fn inbox(
    dir: &Path,
    source: Source,
    key: Option<&Path>,
    now: Option<String>,
    out: Outgoing,
) -> Result<()> {
    check_outgoing(&out)?;
    let now = qijudge_game::console::now_or(now)?;
    // A new copy (a spectator's first message): started from the manifest in the message's
    // game.tar.gz.
    if key.is_none() && !dir.join("game.toml").exists() {
        start_copy(dir, &source)?;
    }
    let game = GameDir::new(dir);
    // One message at a time: a second inbox run waits for this one.
    let _lock = game.lock()?;
    let mut run = Run::default();
    match source {
        Source::Files(paths) => {
            for path in &saved_folders(paths)? {
                let shown = if path.as_os_str() == "-" {
                    "<stdin>".to_string()
                } else {
                    path.display().to_string()
                };
                let bytes = read_bytes(path, &shown)?;
                take_file(&game, &bytes, &shown, key, &now, &out, &mut run)?;
            }
        }
        Source::Maildir(maildir) => {
            for path in maildir_new(maildir)? {
                let shown = path.display().to_string();
                // A message too large or unreadable is refused like any other, and moved on.
                match read_bytes(&path, &shown) {
                    Ok(bytes) => take_file(&game, &bytes, &shown, key, &now, &out, &mut run)?,
                    Err(e) => {
                        eprintln!("{e}");
                        run.refusals.push(shown);
                    }
                }
                maildir_done(maildir, &path)?;
            }
        }
    }
    // A player's copy (no key) only takes the files in.
    let Some(key) = key else {
        return match run.refusals.first() {
            None => Ok(()),
            Some(first) => Err(refuse(
                first.clone(),
                None,
                format!("{} message(s) refused (reasons above)", run.refusals.len()),
            )),
        };
    };
    // Nothing imported: the judge still runs once (a deadline may have passed).
    let judged = match run.judged.take() {
        Some(j) => j,
        None => qijudge_registry::commands::judge(dir, key, Some(now.clone()), false, None, None),
    };
    // After the end the setups are revealed, so that every player can verify the game.
    // A reveal that fails is reported; the last messages still go (without the secrets).
    let revealed = judged.is_ok()
        && qijudge_registry::commands::reveal_when_over(&game, key).unwrap_or_else(|e| {
            eprintln!("reveal: {e}");
            false
        });
    if out.outbox.is_some() || out.sendmail.is_some() {
        let from = out.from.as_deref().unwrap_or_default();
        let manifest = Manifest::read(&game)?;
        let recipients = recipients(&manifest, &out.spectators, from);
        let answers = run
            .answers
            .as_ref()
            .map(|(seat, id)| (seat.as_str(), id.as_str()));
        let env = outbox::Envelope {
            game: manifest.id(),
            from,
            now: &now,
            answers,
        };
        for (seat, text) in &run.warnings {
            let Some(to) = recipients.iter().find(|r| r.audience == *seat) else {
                continue;
            };
            for address in &to.addresses {
                let subject = format!("{}: warning for {seat}", manifest.id());
                let bytes = outbox::reply(from, address, &now, None, &subject, text)?;
                deliver(&out, &format!("{seat}.warning.eml"), &bytes)?;
            }
        }
        // Mail commands sent to this one game (a club's are answered before they reach a
        // game): answered as a club's judge answers them, the game's `mail/` holding the daily
        // limits. A `resend` only forgets what was sent; the messages below send it again.
        if !run.commands.is_empty() {
            let spool = game.path("mail");
            std::fs::create_dir_all(&spool).map_err(|e| Error::Io(format!("mail/: {e}")))?;
            let games = vec![(manifest.id().to_string(), dir.to_path_buf())];
            let routed = crate::route::Named::One(manifest.id().to_string());
            for (message, command) in &run.commands {
                let answered = answer_command(
                    &spool,
                    &games,
                    message,
                    command,
                    routed.clone(),
                    key,
                    &now,
                    &out,
                    false,
                );
                if let Err(e) = answered {
                    eprintln!("command {command}: no answer sent: {e}");
                }
            }
        }
        let mut sent = SentLog::read(&game)?;
        let mut notices = NoticeLog::read(&game);
        for (seat, text, chat) in &run.notices {
            let Some(to) = recipients.iter().find(|r| r.audience == *seat) else {
                continue;
            };
            // The same refusal once a day: a message sent again, or replayed by someone else,
            // is not answered again with the same words; and a few refusals a day per seat, so
            // that forged messages cannot fill a player's mailbox.
            let digest = qijudge_rules::hash::sha256_tagged(text.as_bytes());
            if let Some(why) = notices.hold_back(seat, &digest, &now) {
                say!("{seat}.refused.eml: {why}, not sent");
                continue;
            }
            let name = format!("{}.refused.eml", to.audience);
            deliver(&out, &name, &outbox::notice(&env, to, text, *chat)?)?;
            notices.sent(&game, seat, &digest, &now)?;
        }
        let spool = out
            .digest_spool
            .clone()
            .unwrap_or_else(|| game.path("mail"));
        let wishes = crate::digest::Digests::read(&spool);
        let delivered = SentFiles::read(&game);
        let had = |carried_to: &str| delivered.before(&sent, carried_to);
        for m in outbox::messages(&game, &env, &recipients, revealed, &had)? {
            // A player who reads the daily digest gets this game's news there, unless it
            // cannot wait.
            let audience = m.name.trim_end_matches(".eml");
            let held = !m.urgent
                && !sent.asked_again(&m.name)
                && recipients.iter().any(|r| {
                    r.audience == audience
                        && audience != "public"
                        && r.addresses
                            .iter()
                            .all(|a| wishes.wants(a, manifest.id(), manifest.digest(audience)))
                });
            if held {
                if sent.0.get(&m.name) != Some(&m.digest) {
                    say!("{}: kept for the daily digest", m.name);
                }
                continue;
            }
            // Nothing new for this recipient: no message (a chat, a duplicate, a bounce).
            if !sent.send_new(&game, &out, &m)? {
                say!("{}: nothing new, not sent", m.name);
            }
        }
    }
    // A game served on its own sends its digests itself (a club's judge sends them once for
    // all its games).
    if out.digest_spool.is_none() {
        let games = vec![(Manifest::read(&game)?.id().to_string(), dir.to_path_buf())];
        if let Err(e) = send_digests(&game.path("mail"), &games, &now, &out) {
            eprintln!("digest: {e}");
        }
    }
    judged?;
    match run.refusals.first() {
        None => Ok(()),
        Some(first) => Err(refuse(
            first.clone(),
            None,
            format!(
                "{} message(s) refused (reasons above); nothing was lost, they can be sent again",
                run.refusals.len()
            ),
        )),
    }
}

/// Starts a player's or spectator's copy in `dir` (empty or new) from the first judge's message
/// among `source` whose game.tar.gz holds a manifest. The manifest names the judge's key: the
/// copy then takes only what that key signed, so the user should compare the key's fingerprint,
/// printed here, with the one the organiser announced.
fn start_copy(dir: &Path, source: &Source) -> Result<()> {
    let paths: Vec<PathBuf> = match source {
        Source::Files(paths) => saved_folders(paths)?,
        Source::Maildir(m) => maildir_new(m)?,
    };
    for path in &paths {
        let Ok(bytes) = read_bytes(path, &path.display().to_string()) else {
            continue;
        };
        let Ok(all) = inbox::split_mbox(&bytes) else {
            continue;
        };
        for message in all {
            let Ok(found) = inbox::extract(&message) else {
                continue;
            };
            for archive in &found.archives {
                let Ok(files) = crate::bundle::unpack(archive, RECORD_LIMIT) else {
                    continue;
                };
                let Some((_, manifest)) = files.iter().find(|(p, _)| p == "game.toml") else {
                    continue;
                };
                if let Some(copy) = copy_beside(dir, &String::from_utf8_lossy(manifest)) {
                    return Err(qijudge_protocol::error::refuse_with(
                        dir.display().to_string(),
                        None,
                        format!(
                            "no game here, and {} beside it already holds this game: nothing \
                             was started",
                            copy.display()
                        ),
                        format!(
                            "take the message into your copy: qijudge inbox {} …",
                            copy.display()
                        ),
                    ));
                }
                std::fs::create_dir_all(dir)
                    .map_err(|e| Error::Io(format!("{}: {e}", dir.display())))?;
                let copy = GameDir::new(dir);
                copy.write("game.toml", manifest)?;
                let facts = match qijudge_registry::of_dir(dir).and_then(|g| g.facts(&copy)) {
                    Ok(f) => f,
                    Err(e) => {
                        let _ = std::fs::remove_file(dir.join("game.toml"));
                        return Err(e);
                    }
                };
                say!(
                    "started a copy of the game in {} from {}; its judge's key is {}: check it with the organiser",
                    dir.display(),
                    path.display(),
                    facts.judge_key.fingerprint(ssh_key::HashAlg::Sha256)
                );
                return Ok(());
            }
        }
    }
    Err(Error::Io(format!(
        "{}: no game.toml here, and no judge's message given holds the game (game.tar.gz)",
        dir.display()
    )))
}

/// A folder beside `dir` (in the same parent folder), named within two typing slips of it,
/// that holds the game of `manifest` already: `dir` is then most likely that copy's name
/// mistyped (`bob-cpy` for `bob-copy`), and a second copy started there would leave the
/// player's own copy behind without a word. Other copies beside it (two players on one
/// machine, `alice-copy` and `bob-copy`) are no reason to refuse.
fn copy_beside(dir: &Path, manifest: &str) -> Option<PathBuf> {
    let id_of = |text: &str| {
        toml::from_str::<toml::Table>(text)
            .ok()
            .and_then(|t| t.get("id")?.as_str().map(str::to_string))
    };
    let id = id_of(manifest)?;
    let name = dir.file_name()?.to_string_lossy().into_owned();
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // A bounded look: a folder of thousands of games is not searched.
    std::fs::read_dir(&parent)
        .ok()?
        .flatten()
        .take(1000)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy())
                .is_some_and(|n| n != name && typing_distance(&n, &name) <= 2)
        })
        .find(|p| {
            std::fs::read_to_string(p.join("game.toml"))
                .ok()
                .and_then(|t| id_of(&t))
                .is_some_and(|other| other == id)
        })
}

/// How many characters to insert, delete, replace or swap with their neighbour to turn `a`
/// into `b` (the optimal string alignment distance), for short names.
fn typing_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 2 || a.len() > 200 || b.len() > 200 {
        return usize::MAX;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The message files named on the command line, with a folder that a mail client saved messages
/// into as a Maildir (mutt's "save message" to a Maildir-type folder) read as its messages, in
/// name order (new/, then cur/); the folder is left as it is.
fn saved_folders(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for path in paths {
        if !path.is_dir() {
            out.push(path.clone());
            continue;
        }
        let (new, cur) = (path.join("new"), path.join("cur"));
        if !new.is_dir() && !cur.is_dir() {
            return Err(Error::Io(format!(
                "{}: a folder, and not a Maildir (no new/ or cur/): give the message files",
                path.display()
            )));
        }
        for sub in [new, cur] {
            let Ok(entries) = std::fs::read_dir(&sub) else {
                continue;
            };
            let mut files: Vec<PathBuf> = entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .map(|e| e.path())
                .collect();
            files.sort();
            out.extend(files);
        }
    }
    Ok(out)
}

/// `inbox --games ROOT`: one address for every game under ROOT. Each message is routed to its
/// game ([`crate::route`]) and taken there exactly as `inbox GAME` takes it (its own lock,
/// judge run and mail; an outbox gets a folder per game); a message for no game, or for
/// several, gets a short help reply, at most one a day per address, never to a program or to
/// the judge's own address.
pub fn inbox_games(
    root: &Path,
    source: Source,
    key: Option<&Path>,
    now: Option<String>,
    out: Outgoing,
) -> Result<()> {
    use crate::route::{self, Named};
    check_outgoing(&out)?;
    let key = key.ok_or_else(|| {
        Error::Io(
            "--key: --games is the judge's (a player's copy serves its one game: inbox COPY)"
                .into(),
        )
    })?;
    let now = qijudge_game::console::now_or(now)?;
    let games = games_under(root)?;
    let known: Vec<String> = games.iter().map(|(id, _)| id.clone()).collect();
    let spool = root.join(".qijudge-mail");
    std::fs::create_dir_all(&spool).map_err(|e| Error::Io(format!("{}: {e}", spool.display())))?;
    let mut refused = Vec::new();
    let mut unreadable = Vec::new();
    let mut served: std::collections::BTreeSet<String> = Default::default();
    // One message never stops the others: whatever goes wrong with one is reported, counted,
    // and the run goes on to the next message and to every game.
    // (Only a failure to write standard output leaves it.)
    let mut take = |bytes: &[u8], shown: &str| -> Result<()> {
        let messages = match inbox::split_mbox(bytes) {
            Ok(all) => all,
            Err(e) => {
                eprintln!("refused: {shown}: {e}");
                refused.push(shown.to_string());
                return Ok(());
            }
        };
        for (k, message) in messages.iter().enumerate() {
            let label = match messages.len() {
                1 => shown.to_string(),
                _ => format!("{shown} message {}", k + 1),
            };
            // A message without files may be a command (`help`, `list`, `status`, `resend`).
            if inbox::extract(message).is_err() {
                if let Some(command) = crate::command::parse(message) {
                    let routed = route::game_of(message, &known);
                    say!("{label}: command {command}");
                    let answered = answer_command(
                        &spool, &games, message, &command, routed, key, &now, &out, true,
                    );
                    if let Err(e) = answered {
                        eprintln!("{label}: no answer sent: {e}");
                    }
                    continue;
                }
            }
            match route::game_of(message, &known) {
                Named::One(id) => {
                    let Some((_, dir)) = games.iter().find(|(g, _)| *g == id) else {
                        continue;
                    };
                    say!("{label}: for game {id} ({})", dir.display());
                    served.insert(id.clone());
                    // Taken from a file of its own, as `inbox GAME FILE` takes it.
                    let file = spool.join(format!("incoming-{}.eml", std::process::id()));
                    if let Err(e) = qijudge_store::write_atomic(&file, message) {
                        eprintln!("{label}: {e}");
                        refused.push(label);
                        continue;
                    }
                    let mut game_out = out.clone();
                    game_out.outbox = out.outbox.as_ref().map(|o| o.join(folder_name(dir)));
                    game_out.digest_spool = Some(spool.clone());
                    let taken = inbox(
                        dir,
                        Source::Files(std::slice::from_ref(&file)),
                        Some(key),
                        Some(now.clone()),
                        game_out,
                    );
                    let _ = std::fs::remove_file(&file);
                    if let Err(e) = taken {
                        eprintln!("{label}: {e}");
                        refused.push(label);
                    }
                }
                named => {
                    let why = match named {
                        Named::Several(ids) => format!(
                            "Your message names more than one game ({}); send one message per game.",
                            ids.join(", ")
                        ),
                        _ => "Your message names no game that this judge holds.".to_string(),
                    };
                    say!("{label}: no game: {why}");
                    // Best effort: a reply that cannot be made (a refused recipient, a full
                    // disk) is logged, and the message moves on like any other.
                    let subject = "your message found no game";
                    if let Err(e) = help_once(&spool, &games, message, &why, subject, &now, &out) {
                        eprintln!("{label}: no help sent: {e}");
                    }
                }
            }
        }
        Ok(())
    };
    match source {
        Source::Files(paths) => {
            for path in paths {
                let shown = match path.as_os_str() == "-" {
                    true => "<stdin>".to_string(),
                    false => path.display().to_string(),
                };
                match read_bytes(path, &shown) {
                    Ok(bytes) => take(&bytes, &shown)?,
                    Err(e) => {
                        eprintln!("{e}");
                        unreadable.push(shown);
                    }
                }
            }
        }
        Source::Maildir(maildir) => {
            for path in maildir_new(maildir)? {
                let shown = path.display().to_string();
                match read_bytes(&path, &shown) {
                    Ok(bytes) => take(&bytes, &shown)?,
                    Err(e) => {
                        eprintln!("{e}");
                        unreadable.push(shown);
                    }
                }
                maildir_done(maildir, &path)?;
            }
        }
    }
    refused.extend(unreadable);
    // Every other game is judged too (a deadline may have passed, a new game wants its first
    // messages): one cron line serves the club.
    for (id, dir) in &games {
        if served.contains(id) {
            continue;
        }
        let mut game_out = out.clone();
        game_out.outbox = out.outbox.as_ref().map(|o| o.join(folder_name(dir)));
        game_out.digest_spool = Some(spool.clone());
        if let Err(e) = inbox(
            dir,
            Source::Files(&[]),
            Some(key),
            Some(now.clone()),
            game_out,
        ) {
            eprintln!("{}: {e}", dir.display());
            refused.push(dir.display().to_string());
        }
    }
    // Then the daily digests, once for every game of each address.
    if let Err(e) = send_digests(&spool, &games, &now, &out) {
        eprintln!("digest: {e}");
    }
    match refused.first() {
        None => Ok(()),
        Some(first) => Err(refuse(
            first.clone(),
            None,
            format!(
                "{} message(s) refused (reasons above); nothing was lost, they can be sent again",
                refused.len()
            ),
        )),
    }
}

/// Answers a mail command from a player's registered address (a stranger's gets the help, once a
/// day): `help`; `list`, the address's games and where each stands; `status [GAME]`, where one
/// game stands; `resend [GAME]`, the judge's last message to the sender's seats again. At most
/// [`COMMANDS_PER_DAY`] answers a day per address.
#[allow(clippy::too_many_arguments)]
fn answer_command(
    spool: &Path,
    games: &[(String, PathBuf)],
    message: &[u8],
    command: &crate::command::Command,
    routed: crate::route::Named,
    key: &Path,
    now: &str,
    out: &Outgoing,
    club: bool,
) -> Result<()> {
    use crate::command::Command;
    let Some(from_judge) = out.from.as_deref() else {
        return Ok(());
    };
    let Some(parsed) = mail_parser::MessageParser::default().parse(message) else {
        return Ok(());
    };
    let Some(sender) = person_sender(&parsed, Some(from_judge)) else {
        return Ok(());
    };
    // The sender's games: (id, folder, seats).
    let mut own: Vec<(&String, &PathBuf, Vec<String>)> = Vec::new();
    for (id, dir) in games {
        let Ok(manifest) = Manifest::read(&GameDir::new(dir)) else {
            continue;
        };
        let seats: Vec<String> = manifest
            .players()
            .into_iter()
            .filter(|(_, _, e)| {
                e.as_deref()
                    .is_some_and(|e| e.eq_ignore_ascii_case(&sender))
            })
            .map(|(seat, _, _)| seat)
            .collect();
        if !seats.is_empty() {
            own.push((id, dir, seats));
        }
    }
    // A spectator (`--spectator`) plays no seat: it watches every game here, through the public
    // message, and may ask for the list, a game's status, or that message again.
    let watching = own.is_empty()
        && out
            .spectators
            .iter()
            .any(|s| s.eq_ignore_ascii_case(&sender) && !s.eq_ignore_ascii_case(from_judge));
    if watching {
        own = games
            .iter()
            .map(|(id, dir)| (id, dir, vec!["public".to_string()]))
            .collect();
    }
    if own.is_empty() || *command == Command::Help {
        let why = match own.is_empty() {
            true => "This address plays no game here.",
            false => "Mail commands, one per message, in the subject or the first line: help; list; status GAME; resend GAME; vacation GAME DAYS; digest on|off.",
        };
        // An explicit `help` is answered as asked; anything else from an address with no game
        // here found none.
        let subject = match command {
            Command::Help => "help",
            _ => "your message found no game",
        };
        return help_once(spool, games, message, why, subject, now, out);
    }
    if !within_daily_limit(spool, &sender, now)? {
        say!("{sender}: {COMMANDS_PER_DAY} commands answered today already: not answered");
        return Ok(());
    }
    // The game a command names: its argument (a whole or short id), else the game the message
    // answers or names, else the sender's only game.
    let named = |arg: &Option<String>| -> Option<&(&String, &PathBuf, Vec<String>)> {
        if let Some(a) = arg {
            let a = a.to_ascii_lowercase();
            return own
                .iter()
                .find(|(id, _, _)| **id == a || outbox::short_id(id) == a);
        }
        if let crate::route::Named::One(id) = &routed {
            return own.iter().find(|(g, _, _)| *g == id);
        }
        match own.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    };
    let stands = |dir: &Path| -> String {
        GameDir::new(dir)
            .read_optional("views/public.json", RECORD_LIMIT)
            .ok()
            .flatten()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .map(|v| outbox::headline(&v))
            .unwrap_or_else(|| "not opened by the judge yet".into())
    };
    let (subject, body) = match command {
        Command::Help => unreachable!("answered above"),
        Command::List => {
            let ids: Vec<(&str, &Path)> = own
                .iter()
                .map(|(id, dir, _)| (id.as_str(), dir.as_path()))
                .collect();
            let (_, body) = games_list(&sender, &ids, now);
            ("your games".to_string(), body)
        }
        Command::Digest(arg, on) => {
            let game = match arg {
                None => None,
                Some(_) => match named(arg) {
                    Some((id, _, _)) => Some(id.to_string()),
                    None => {
                        let ids: Vec<String> =
                            own.iter().map(|(id, _, _)| id.to_string()).collect();
                        let body = format!(
                            "Which game? Name one of yours: digest GAME on|off ({}), or `digest \
                             on|off` for all of them.",
                            ids.join(", ")
                        );
                        let answers = parsed
                            .message_id()
                            .filter(|id| outbox::valid_message_id(id));
                        let bytes =
                            outbox::reply(from_judge, &sender, now, answers, "which game?", &body)?;
                        return deliver(out, &reply_name(&sender), &bytes);
                    }
                },
            };
            let mut wishes = crate::digest::Digests::read(spool);
            wishes.set(&sender, game.as_deref(), *on);
            wishes.save(spool)?;
            let which = game
                .map(|g| format!("game {g}"))
                .unwrap_or_else(|| "all your games here".into());
            let body = match on {
                true => format!(
                    "Daily digest on for {which}: at most one mail a day (from {} UTC), listing \
                     your games with the judge's latest message of each that changed. The end \
                     of a game, a refused file and a move due within a day still come at once. \
                     `digest off` ends it.",
                    out.digest_at
                ),
                false => format!("Daily digest off for {which}: a mail after every move again."),
            };
            ("digest".to_string(), body)
        }
        Command::Status(arg) | Command::Resend(arg) => {
            let Some((id, dir, seats)) = named(arg) else {
                let ids: Vec<String> = own.iter().map(|(id, _, _)| id.to_string()).collect();
                let body = format!(
                    "Which game? Name one of yours after the command: {}",
                    ids.join(", ")
                );
                let answers = parsed
                    .message_id()
                    .filter(|id| outbox::valid_message_id(id));
                let bytes = outbox::reply(from_judge, &sender, now, answers, "which game?", &body)?;
                return deliver(out, &reply_name(&sender), &bytes);
            };
            if let Command::Resend(_) = command {
                // Forget what was last sent to the sender's seats, then let the judge's run
                // send it again (nothing else changes: the other messages are the same).
                let game = GameDir::new(dir);
                let mut sent = SentLog::read(&game)?;
                for seat in seats {
                    sent.forget(&game, &format!("{seat}.eml"))?;
                }
                if !club {
                    return Ok(());
                }
                let mut game_out = out.clone();
                game_out.outbox = out.outbox.as_ref().map(|o| o.join(folder_name(dir)));
                if club {
                    game_out.digest_spool = Some(spool.to_path_buf());
                }
                return inbox(
                    dir,
                    Source::Files(&[]),
                    Some(key),
                    Some(now.to_string()),
                    game_out,
                );
            }
            let mut body = format!("{id}: {}", stands(dir));
            if let Ok(Some(d)) = outbox::deadline(&GameDir::new(dir), now) {
                body.push_str(&format!(
                    "\nPly {} is due by {} (grace until {}); it is {} now.",
                    d.ply, d.due, d.grace_until, d.state
                ));
            }
            (format!("{} status", outbox::short_id(id)), body)
        }
        Command::Vacation(..) if watching => (
            "vacation".to_string(),
            "This address watches the games here and plays none: a vacation is a player's."
                .to_string(),
        ),
        Command::Vacation(arg, days) => {
            let Some((id, dir, seats)) = named(arg) else {
                let ids: Vec<String> = own.iter().map(|(id, _, _)| id.to_string()).collect();
                let body = format!(
                    "Which game? Name one of yours before the days: vacation GAME DAYS ({})",
                    ids.join(", ")
                );
                let answers = parsed
                    .message_id()
                    .filter(|id| outbox::valid_message_id(id));
                let bytes = outbox::reply(from_judge, &sender, now, answers, "which game?", &body)?;
                return deliver(out, &reply_name(&sender), &bytes);
            };
            let subject = format!("{} vacation", outbox::short_id(id));
            let body = match seats.as_slice() {
                [seat] => vacation(dir, key, seat, *days, now),
                _ => format!(
                    "This address plays {} in {id}; ask the organiser for a vacation of one seat.",
                    seats.join(" and ")
                ),
            };
            (subject, body)
        }
    };
    let answers = parsed
        .message_id()
        .filter(|id| outbox::valid_message_id(id));
    let bytes = outbox::reply(from_judge, &sender, now, answers, &subject, &body)?;
    deliver(out, &reply_name(&sender), &bytes)
}

/// The `list` answer for `sender`: its games (`own`: id and folder) as `qijudge games ROOT
/// --address` lists them, its turns first, each with its deadline, named by game id (never by
/// the judge's folders); and how many wait for its move.
fn games_list(sender: &str, own: &[(&str, &Path)], now: &str) -> (usize, String) {
    use qijudge_registry::listing;
    let whose = listing::Whose {
        key: None,
        address: Some(sender.to_string()),
    };
    let mut listed: Vec<listing::Listed> = own
        .iter()
        .map(|(id, dir)| {
            let mut l = listing::read_one(dir, dir, &whose, now);
            l.path = id.to_string();
            l
        })
        .collect();
    listing::order(&mut listed);
    let turns = listed.iter().filter(|l| l.your_turn).count();
    // Two lines a game, so that no line needs folding in a mail client.
    let games: Vec<String> = listed
        .iter()
        .map(|l| {
            let (game, ply, what) = listing::parts(l);
            match ply.trim_start() {
                "" => format!("{game}\n  {what}"),
                ply => format!("{game}\n  {ply}: {what}"),
            }
        })
        .collect();
    let body = format!(
        "{turns} of your {} game(s) here wait for your move.\n\n{}",
        listed.len(),
        games.join("\n")
    );
    (turns, body)
}

/// Sends the daily digests that are due (see [`crate::digest`]): to each address that
/// reads some of its `games` in the digest, once a day from `out.digest_at`, when a message of
/// those games is waiting for it. The messages it carries count as sent.
fn send_digests(
    spool: &Path,
    games: &[(String, PathBuf)],
    now: &str,
    out: &Outgoing,
) -> Result<()> {
    use crate::digest::Digests;
    let Some(from) = out.from.as_deref() else {
        return Ok(());
    };
    if out.outbox.is_none() && out.sendmail.is_none() {
        return Ok(());
    }
    let mut wishes = Digests::read(spool);
    // Each address's seats: (game id, folder, seat, the manifest's word).
    let mut seats: std::collections::BTreeMap<String, Vec<(String, PathBuf, String, bool)>> =
        Default::default();
    for (id, dir) in games {
        let Ok(manifest) = Manifest::read(&GameDir::new(dir)) else {
            continue;
        };
        for (seat, _, email) in manifest.players() {
            if let Some(e) = email.filter(|e| !e.eq_ignore_ascii_case(from)) {
                let by_manifest = manifest.digest(&seat);
                seats.entry(e.to_ascii_lowercase()).or_default().push((
                    id.clone(),
                    dir.clone(),
                    seat,
                    by_manifest,
                ));
            }
        }
    }
    for (address, mine) in &seats {
        let read = |id: &str, m: bool| wishes.wants(address, id, m);
        if !mine.iter().any(|(id, _, _, m)| read(id, *m))
            || !wishes.due(address, now, &out.digest_at)
        {
            continue;
        }
        // What waits for this address: each digest seat's message that was not sent yet.
        let mut held: Vec<(String, PathBuf, outbox::Outgoing)> = Vec::new();
        for (id, dir, seat, by_manifest) in mine {
            if !read(id, *by_manifest) {
                continue;
            }
            let game = GameDir::new(dir);
            let _lock = game.lock()?;
            let manifest = Manifest::read(&game)?;
            let Some(to) = recipients(&manifest, &[], from)
                .into_iter()
                .find(|r| r.audience == *seat)
            else {
                continue;
            };
            let env = outbox::Envelope {
                game: manifest.id(),
                from,
                now,
                answers: None,
            };
            let sent = SentLog::read(&game)?;
            let delivered = SentFiles::read(&game);
            let had = |carried_to: &str| delivered.before(&sent, carried_to);
            for m in outbox::messages(&game, &env, std::slice::from_ref(&to), false, &had)? {
                if sent.0.get(&m.name) != Some(&m.digest) {
                    held.push((id.clone(), dir.clone(), m));
                }
            }
        }
        if held.is_empty() {
            continue;
        }
        let own: Vec<(&str, &Path)> = mine
            .iter()
            .map(|(id, dir, _, _)| (id.as_str(), dir.as_path()))
            .collect();
        let (turns, list) = games_list(address, &own, now);
        let attached: Vec<(String, Vec<u8>)> = held
            .iter()
            .map(|(id, _, m)| (id.clone(), m.bytes.clone()))
            .collect();
        let bytes = outbox::digest(from, address, now, turns, &list, &attached)?;
        deliver(out, &addressed_name("digest", address), &bytes)?;
        say!("digest to {address}: {} game(s)", held.len());
        for (_, dir, m) in &held {
            let game = GameDir::new(dir);
            let _lock = game.lock()?;
            SentFiles::read(&game).record(&game, &m.carried_to, &m.files)?;
            SentLog::read(&game)?.record(&game, &m.name, &m.digest)?;
        }
        wishes.sent(address, now);
        wishes.save(spool)?;
    }
    Ok(())
}

/// Runs the judge with a vacation of `days` days for `seat`: what the judge did, or why not.
fn vacation(dir: &Path, key: &Path, seat: &str, days: u32, now: &str) -> String {
    let run = qijudge_game::JudgeRequest {
        now: now.to_string(),
        details: false,
        rulings: qijudge_judge::pipeline::Rulings {
            forfeit: None,
            vacation: Some((seat.to_string(), days)),
            adjudicate: None,
        },
    };
    let judged = qijudge_registry::of_dir(dir).and_then(|g| g.judge(dir, key, run));
    match judged {
        Ok(_) => {
            let mut body = format!("{seat}: {days} day(s) of vacation from {now}, recorded.");
            if let Ok(Some(d)) = outbox::deadline(&GameDir::new(dir), now) {
                body.push_str(&format!(
                    "\nPly {} is due by {} (grace until {}).",
                    d.ply, d.due, d.grace_until
                ));
            }
            body
        }
        Err(e) => {
            let why = e.to_string();
            let why = why.strip_prefix("--vacation: ").unwrap_or(&why);
            format!("No vacation recorded: {why}")
        }
    }
}

/// Answers to mail commands a day per address, at most.
const COMMANDS_PER_DAY: u32 = 20;

/// Counts one answer for `sender` today; whether it is within [`COMMANDS_PER_DAY`].
fn within_daily_limit(spool: &Path, sender: &str, now: &str) -> Result<bool> {
    let day = now.get(..10).unwrap_or(now);
    let path = spool.join("commands.json");
    let mut log: std::collections::BTreeMap<String, (String, u32)> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let entry = log
        .entry(sender.to_string())
        .or_insert((day.to_string(), 0));
    if entry.0 != day {
        *entry = (day.to_string(), 0);
    }
    if entry.1 >= COMMANDS_PER_DAY {
        return Ok(false);
    }
    entry.1 += 1;
    let text = serde_json::to_string_pretty(&log).map_err(|e| Error::Io(e.to_string()))?;
    qijudge_store::write_atomic(&path, format!("{text}\n").as_bytes())?;
    Ok(true)
}

/// The outbox name of an answer to an address: never the sender's own words (an address may
/// be 253 characters, or hold what a file name must not), so a digest of it.
fn reply_name(sender: &str) -> String {
    addressed_name("reply", sender)
}

/// `KIND-DIGEST.eml`: the first 16 hex digits of the SHA-256 of the address.
fn addressed_name(kind: &str, address: &str) -> String {
    use sha2::Digest;
    let digest = hex::encode(sha2::Sha256::digest(address.as_bytes()));
    format!("{kind}-{}.eml", &digest[..16])
}

/// The game folders under `root` (itself, or up to three levels down; hidden folders skipped),
/// each with its manifest's id, sorted by id; two folders of one id are refused.
fn games_under(root: &Path) -> Result<Vec<(String, PathBuf)>> {
    fn walk(dir: &Path, depth: usize, found: &mut Vec<(String, PathBuf)>) -> Result<()> {
        let manifest = dir.join("game.toml");
        if manifest.is_file() {
            let text = qijudge_store::read_limited(
                &manifest,
                &manifest.display().to_string(),
                qijudge_store::SMALL_FILE_LIMIT,
            )?;
            let id = toml::from_str::<toml::Table>(&text)
                .ok()
                .and_then(|t| t.get("id")?.as_str().map(str::to_string))
                .ok_or_else(|| refuse(manifest.display().to_string(), Some("id"), "missing"))?;
            found.push((id, dir.to_path_buf()));
            return Ok(());
        }
        if depth == 0 {
            return Ok(());
        }
        let entries =
            std::fs::read_dir(dir).map_err(|e| Error::Io(format!("{}: {e}", dir.display())))?;
        let mut dirs: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .map(|e| e.path())
            .collect();
        dirs.sort();
        for d in dirs {
            walk(&d, depth - 1, found)?;
        }
        Ok(())
    }
    if !root.is_dir() {
        return Err(Error::Io(format!(
            "--games {}: not a folder",
            root.display()
        )));
    }
    let mut found = Vec::new();
    walk(root, 3, &mut found)?;
    found.sort();
    for pair in found.windows(2) {
        if pair[0].0 == pair[1].0 {
            return Err(Error::Io(format!(
                "--games: {} and {} hold the same game {}",
                pair[0].1.display(),
                pair[1].1.display(),
                pair[0].0
            )));
        }
    }
    Ok(found)
}

/// A game folder's name, for its outbox folder.
fn folder_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into())
}

/// Answers a message that found no game with the help text: only a person's message (not a
/// program's, not the judge's own), from a plain address, at most once a day per address
/// (`.qijudge-mail/help.json` under the root remembers when).
fn help_once(
    spool: &Path,
    games: &[(String, PathBuf)],
    message: &[u8],
    why: &str,
    subject: &str,
    now: &str,
    out: &Outgoing,
) -> Result<()> {
    let Some(from_judge) = out.from.as_deref() else {
        return Ok(());
    };
    if out.outbox.is_none() && out.sendmail.is_none() {
        return Ok(());
    }
    let Some(parsed) = mail_parser::MessageParser::default().parse(message) else {
        return Ok(());
    };
    let Some(sender) = person_sender(&parsed, Some(from_judge)) else {
        return Ok(());
    };
    let day = now.get(..10).unwrap_or(now).to_string();
    let log_path = spool.join("help.json");
    let mut log: std::collections::BTreeMap<String, String> = std::fs::read_to_string(&log_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    // One help a day per mailbox (`victim+1@` and `victim+2@` are one), and a few a day in
    // all: a stranger cannot make the judge mail anyone on demand.
    let mailbox = mailbox_of(&sender);
    if log.get(&mailbox) == Some(&day) {
        say!("{sender}: helped today already: not answered again");
        return Ok(());
    }
    if log.values().filter(|d| **d == day).count() >= HELP_PER_DAY {
        say!("{sender}: {HELP_PER_DAY} help answers sent today already: not answered");
        return Ok(());
    }
    // The games this address plays: their ids and seats, nothing of their state.
    let mut own = Vec::new();
    for (id, dir) in games {
        if let Ok(manifest) = Manifest::read(&GameDir::new(dir)) {
            let kind = manifest
                .table
                .get("game")
                .and_then(|v| v.as_str())
                .unwrap_or(qijudge_registry::registry::DEFAULT_GAME)
                .to_string();
            for (seat, _, email) in manifest.players() {
                if email.is_some_and(|e| e.eq_ignore_ascii_case(&sender)) {
                    own.push(format!("  {id} ({kind}), seat {seat}"));
                }
            }
        }
    }
    let answers = parsed
        .message_id()
        .filter(|id| outbox::valid_message_id(id));
    let bytes = outbox::help(from_judge, &sender, now, answers, why, subject, &own)?;
    let name = addressed_name("help", &sender);
    deliver(out, &name, &bytes)?;
    log.insert(mailbox, day);
    let text = serde_json::to_string_pretty(&log).map_err(|e| Error::Io(e.to_string()))?;
    qijudge_store::write_atomic(&log_path, format!("{text}\n").as_bytes())
}

/// Help answers a day, at most, to all addresses together.
const HELP_PER_DAY: usize = 20;

/// An address without its `+tag` (sub-addressing delivers `name+tag@host` to `name@host`).
fn mailbox_of(address: &str) -> String {
    match address.split_once('@') {
        Some((local, host)) => {
            let local = local.split('+').next().unwrap_or(local);
            format!("{local}@{host}")
        }
        None => address.to_string(),
    }
}

/// The addresses of outgoing mail are checked before anything is read.
fn check_outgoing(out: &Outgoing) -> Result<()> {
    if (out.outbox.is_some() || out.sendmail.is_some()) && out.from.is_none() {
        return Err(Error::Io(
            "--from: the judge's address is needed for outgoing mail".into(),
        ));
    }
    for a in out.from.iter().chain(&out.spectators) {
        if !outbox::valid_address(a) {
            return Err(Error::Io(format!("{a:?} is not a plain e-mail address")));
        }
    }
    Ok(())
}

/// Commands that only send mail need somewhere to send it.
fn needs_destination(out: &Outgoing, what: &str) -> Result<()> {
    if out.outbox.is_none() && out.sendmail.is_none() {
        return Err(Error::Io(format!(
            "--outbox or --sendmail: where should the {what} go?"
        )));
    }
    Ok(())
}

/// What one inbox run has done so far.
#[derive(Default)]
struct Run {
    refusals: Vec<String>,
    /// Intake refusals of files a seat signed: that seat is told why, privately; `true` for a
    /// message with no file at all (most often words meant for the opponent).
    notices: Vec<(String, String, bool)>,
    /// What a seat should know about a message that was taken (a secret also sent to another
    /// player): told privately.
    warnings: Vec<(String, String)>,
    /// The seat whose signed message this run answers, and that message's Message-ID.
    answers: Option<(String, String)>,
    /// Mail commands (a message with no file that says one): answered once the run has judged.
    commands: Vec<(Vec<u8>, crate::command::Command)>,
    judged: Option<Result<()>>,
}

/// Takes the messages of one file (a message, or an mbox) into the game, in order.
fn take_file(
    game: &GameDir,
    bytes: &[u8],
    shown: &str,
    key: Option<&Path>,
    now: &str,
    out: &Outgoing,
    run: &mut Run,
) -> Result<()> {
    let judge_address = out.from.as_deref().map(str::to_ascii_lowercase);
    let all = match inbox::split_mbox(bytes) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("refused: {shown}: {e}");
            run.refusals.push(shown.to_string());
            return Ok(());
        }
    };
    let count = all.len();
    for (k, message) in all.iter().enumerate() {
        let label = if count > 1 {
            format!("{shown} message {}", k + 1)
        } else {
            shown.to_string()
        };
        let found = match inbox::extract(message) {
            // Auto-replies and bounces are never taken nor answered: no loop can start.
            Err(e @ inbox::InboxError::Automatic(_)) => {
                say!("{label}: {e}");
                continue;
            }
            Err(e) => {
                // A message with no file that says a command (`status`, `help`, …) is answered
                // as in a club, once the run has judged.
                if key.is_some() && e == inbox::InboxError::Nothing {
                    if let Some(command) = crate::command::parse(message) {
                        say!("{label}: command {command}");
                        run.commands.push((message.to_vec(), command));
                        continue;
                    }
                }
                eprintln!("refused: {label}: {e}");
                // A player's message that holds no file still gets its answer, at the address
                // the manifest registers for that player: a chat is told kindly where to go.
                if key.is_some() {
                    if let Some(seat) = registered_sender(game, message)? {
                        let chat = e == inbox::InboxError::Nothing;
                        run.notices.push((seat, format!("your message: {e}"), chat));
                    }
                }
                run.refusals.push(label);
                continue;
            }
            // The judge's own messages coming back (a copy, a loop): ignored by the judge.
            Ok(f) if key.is_some() && f.from.is_some() && f.from == judge_address => {
                say!("{label}: sent by the judge's own address: ignored");
                continue;
            }
            Ok(f) if key.is_some() && f.automatic.is_some() => {
                let why = f.automatic.clone().unwrap_or_default();
                say!("{label}: sent by a program ({why}): ignored");
                continue;
            }
            Ok(f) => f,
        };
        // The seat that signed a file of it: the only sender the judge answers, and only with a
        // Message-ID that is safe to copy.
        let sender = crate::signed_sender(game, &found.files).and_then(|seat| {
            qijudge_registry::seats::seats(game)
                .ok()?
                .names
                .get(seat)
                .cloned()
        });
        let answer = |sender: &Option<String>| {
            let id = found
                .message_id
                .clone()
                .filter(|id| outbox::valid_message_id(id));
            sender.clone().zip(id)
        };
        match crate::import(game, &found, &label, key.is_none()) {
            Ok(paths) => {
                say!("{label}: {}", paths.join(", "));
                // A judge's bundle carries only what the copy has not had: one that missed a
                // message lacks files until it asks for them all again.
                let missing = match key {
                    None => crate::bundle::missing_files(game),
                    Some(_) => Vec::new(),
                };
                if let Some(first) = missing.first() {
                    eprintln!(
                        "{label}: this copy lacks {} file(s) that the judge's record names \
                         (first {first}): the judge's next message brings them (a long game's \
                         files come in parts), or one was missed: if none comes, mail `resend` \
                         to the judge, whose answer carries every file.",
                        missing.len()
                    );
                }
                if sender.is_some() {
                    run.answers = answer(&sender);
                }
                // A secret sent to another player too: taken, and its owner warned (a secret
                // comes unsigned; the commitment it matched says whose it is).
                let owners = paths
                    .iter()
                    .filter_map(|p| p.strip_prefix("setups/")?.strip_suffix(".toml"));
                for seat in owners.filter(|_| key.is_some()) {
                    if let Some(warning) = secret_copied_to(game, message, seat)? {
                        eprintln!("{label}: {warning}");
                        run.warnings.push((seat.to_string(), warning));
                    }
                }
                // Judged message by message: a refused move is set aside before the next
                // message, which may hold its correction.
                if let Some(key) = key {
                    run.judged = Some(qijudge_registry::commands::judge(
                        &game.root,
                        key,
                        Some(now.to_string()),
                        false,
                        None,
                        None,
                    ));
                }
            }
            Err(e) => {
                eprintln!("{e}");
                // Told privately: the seat that signed a file of it, else the player whose
                // registered address sent it (the notice goes to that address, never to the
                // From of the message).
                let told = match &sender {
                    Some(seat) => Some(seat.clone()),
                    None if key.is_some() => registered_sender(game, message)?,
                    None => None,
                };
                if let Some(seat) = told {
                    // Named as the player knows it, never by the judge's path for it.
                    let mut why = e.to_string().replace(label.as_str(), "your message");
                    // Only its From says the player sent it, and anyone can write a From.
                    if sender.is_none() {
                        why.push_str(&format!("\n\n{}", outbox::NOT_YOURS));
                    }
                    run.notices.push((seat.clone(), why, false));
                    run.answers = answer(&Some(seat));
                }
                run.refusals.push(label);
            }
        }
    }
    Ok(())
}

/// When a message carrying `seat`'s secret was also addressed (To, Cc) to another player's
/// registered address: the warning for `seat`.
fn secret_copied_to(game: &GameDir, message: &[u8], seat: &str) -> Result<Option<String>> {
    let Some(parsed) = mail_parser::MessageParser::default().parse(message) else {
        return Ok(None);
    };
    let mut addressed: Vec<String> = Vec::new();
    for list in [parsed.to(), parsed.cc()].into_iter().flatten() {
        addressed.extend(
            list.iter()
                .filter_map(|a| a.address())
                .map(str::to_ascii_lowercase),
        );
    }
    let others: Vec<String> = Manifest::read(game)?
        .players()
        .into_iter()
        .filter(|(s, _, email)| {
            s != seat
                && email
                    .as_deref()
                    .is_some_and(|e| addressed.contains(&e.to_ascii_lowercase()))
        })
        .map(|(s, _, _)| s)
        .collect();
    if others.is_empty() {
        return Ok(None);
    }
    Ok(Some(format!(
        "your secret (setups/{seat}.toml) was taken, but your message was also addressed to {}: \
         they may have read it. Tell the organiser; only a new game makes it secret again. Send \
         secrets to the judge's address alone.",
        others.join(", ")
    )))
}

/// The address a person sent `message` from (lower case, a plain address): none for a program's
/// message (auto-replies, lists) or for the judge's own address.
fn person_sender(message: &mail_parser::Message, judge: Option<&str>) -> Option<String> {
    if inbox::is_automatic(message).is_some() {
        return None;
    }
    let sender = message.from()?.first()?.address()?.to_ascii_lowercase();
    let judges = judge.is_some_and(|j| j.eq_ignore_ascii_case(&sender));
    (outbox::valid_address(&sender) && !judges).then_some(sender)
}

/// The seat whose registered address (in `game.toml`) a message comes from, if any; a message
/// sent by a program never has one.
fn registered_sender(game: &GameDir, message: &[u8]) -> Result<Option<String>> {
    let Some(parsed) = mail_parser::MessageParser::default().parse(message) else {
        return Ok(None);
    };
    let Some(from) = person_sender(&parsed, None) else {
        return Ok(None);
    };
    let manifest = Manifest::read(game)?;
    Ok(manifest
        .players()
        .into_iter()
        .find(|(_, _, email)| {
            email
                .as_deref()
                .is_some_and(|e| e.eq_ignore_ascii_case(&from))
        })
        .map(|(seat, _, _)| seat))
}

/// The messages waiting in a Maildir's `new/`, oldest name first (names start with the time of
/// delivery). Only regular files; names starting with a dot are another program's.
fn maildir_new(maildir: &Path) -> Result<Vec<PathBuf>> {
    let new = maildir.join("new");
    let cur = maildir.join("cur");
    if !new.is_dir() || !cur.is_dir() {
        return Err(Error::Io(format!(
            "{}: not a Maildir (it needs new/ and cur/ folders)",
            maildir.display()
        )));
    }
    let mut paths = Vec::new();
    let entries =
        std::fs::read_dir(&new).map_err(|e| Error::Io(format!("{}: {e}", new.display())))?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && e.file_type().is_ok_and(|t| t.is_file()) {
            paths.push(e.path());
        }
    }
    paths.sort();
    Ok(paths)
}

/// Moves a handled message from `new/` to `cur/`, marked seen (`:2,S`), so it is handled once.
fn maildir_done(maildir: &Path, path: &Path) -> Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base = name.split(":2,").next().unwrap_or(&name);
    let to = maildir.join("cur").join(format!("{base}:2,S"));
    std::fs::rename(path, &to)
        .map_err(|e| Error::Io(format!("moving {} to cur/: {e}", path.display())))
}

/// `invite`: one message per seat with an address: the manifest, the seat, and the steps to a
/// first move. Sent once (again only if it would say something else).
pub fn invite(dir: &Path, now: Option<String>, out: Outgoing) -> Result<()> {
    check_outgoing(&out)?;
    needs_destination(&out, "invitations")?;
    let now = qijudge_game::console::now_or(now)?;
    let game = GameDir::new(dir);
    let _lock = game.lock()?;
    let rules = qijudge_registry::of_dir(dir)?;
    let manifest = Manifest::read(&game)?;
    let clock = outbox::clock_of(&manifest.table)?;
    let seats: Vec<(String, String)> = manifest
        .players()
        .into_iter()
        .map(|(seat, name, _)| (seat, name))
        .collect();
    let from = out.from.as_deref().unwrap_or_default();
    let recipients = recipients(&manifest, &[], from);
    if recipients.is_empty() {
        return Err(refuse(
            "game.toml",
            Some("players"),
            "no player has an e-mail address (qijudge new --player NAME=KEY.pub=ADDRESS)",
        ));
    }
    let env = outbox::Envelope {
        game: manifest.id(),
        from,
        now: &now,
        answers: None,
    };
    let invitation = outbox::Invitation {
        kind: rules.name(),
        manifest: &manifest.text,
        seats: &seats,
        secrets: rules.has_secrets(),
        chosen: rules.setup_is_chosen(),
        template: rules.setup_template(),
        clock: clock.as_ref(),
    };
    let mut sent = SentLog::read(&game)?;
    for to in &recipients {
        let m = outbox::invitation(&env, to, &invitation)?;
        if !sent.send_new(&game, &out, &m)? {
            say!("{}: already invited, not sent again", m.name);
        }
    }
    Ok(())
}

/// `remind`: a reminder to the seat to move when its deadline is less than `before` minutes
/// away, or past while the grace runs; once per ply and state. For a cron job, beside `judge`.
/// The addresses of a spectators file (`inbox --spectators FILE`): one a line, blank lines and
/// `#` comments skipped; a line that is no address is refused by its number.
pub fn spectators_from(file: &Path) -> Result<Vec<String>> {
    let shown = file.display().to_string();
    let text = qijudge_store::read_limited(file, &shown, qijudge_store::SMALL_FILE_LIMIT)?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let address = line.split('#').next().unwrap_or("").trim();
        if address.is_empty() {
            continue;
        }
        if !qijudge_protocol::files::valid_address(address) {
            return Err(refuse(
                shown.clone(),
                None,
                format!("line {}: {address:?} is not an e-mail address", n + 1),
            ));
        }
        out.push(address.to_string());
    }
    Ok(out)
}

/// `remind --games ROOT`: [`remind`] in every game under ROOT, each game's mail in the outbox's
/// folder of that game (as the club's judge keeps them); a game that fails is named and the
/// others go on, and the run then exits as refused.
pub fn remind_club(root: &Path, now: Option<String>, before: u32, out: Outgoing) -> Result<()> {
    check_outgoing(&out)?;
    needs_destination(&out, "reminders")?;
    let now = qijudge_game::console::now_or(now)?;
    let games = games_under(root)?;
    let mut failed = Vec::new();
    for (_, dir) in &games {
        say!("{}:", dir.display());
        let mut game_out = out.clone();
        game_out.outbox = out.outbox.as_ref().map(|o| o.join(folder_name(dir)));
        if let Err(e) = remind(dir, Some(now.clone()), before, game_out) {
            say!("  {e}");
            failed.push(dir.display().to_string());
        }
    }
    match failed.as_slice() {
        [] => Ok(()),
        _ => Err(Error::Refused(qijudge_protocol::error::Refusal {
            file: failed[0].clone(),
            field: None,
            reason: format!(
                "{} of {} games could not be reminded: {} (the others were)",
                failed.len(),
                games.len(),
                failed.join(", ")
            ),
            hint: None,
            private_to: None,
        })),
    }
}

pub fn remind(dir: &Path, now: Option<String>, before: u32, out: Outgoing) -> Result<()> {
    check_outgoing(&out)?;
    needs_destination(&out, "reminders")?;
    let now = qijudge_game::console::now_or(now)?;
    let game = GameDir::new(dir);
    let _lock = game.lock()?;
    let Some(to_move) = qijudge_registry::of_dir(dir)?.to_move(dir)? else {
        say!("no one is to move: no reminder");
        return Ok(());
    };
    let Some(d) = outbox::deadline(&game, &now)? else {
        say!("no deadline (the game has no clock, or play has not begun): no reminder");
        return Ok(());
    };
    let due = |t: &str| {
        chrono::DateTime::parse_from_rfc3339(t)
            .map_err(|_| Error::Io(format!("{t:?} is not an RFC 3339 time")))
    };
    let minutes_left = (due(&d.due)? - due(&now)?).num_minutes();
    match d.state {
        "on-time" if minutes_left > i64::from(before) => {
            say!(
                "{to_move}: ply {} is due by {}: no reminder yet",
                d.ply,
                d.due
            );
            return Ok(());
        }
        "expired" => {
            say!(
                "{to_move}: the time for ply {} ran out at {}; the judge's next run applies the rule",
                d.ply,
                d.grace_until
            );
            return Ok(());
        }
        _ => {}
    }
    let from = out.from.as_deref().unwrap_or_default();
    let manifest = Manifest::read(&game)?;
    let recipients = recipients(&manifest, &[], from);
    let Some(to) = recipients.iter().find(|r| r.audience == to_move) else {
        say!("{to_move} has no e-mail address: no reminder");
        return Ok(());
    };
    let env = outbox::Envelope {
        game: manifest.id(),
        from,
        now: &now,
        answers: None,
    };
    let m = outbox::reminder(&env, to, &d)?;
    let mut sent = SentLog::read(&game)?;
    if !sent.send_new(&game, &out, &m)? {
        say!(
            "{}: already reminded for ply {} ({})",
            to_move,
            d.ply,
            d.state
        );
    }
    Ok(())
}

/// Writes a message into the outbox folder and/or pipes it to the mail command.
fn deliver(out: &Outgoing, name: &str, bytes: &[u8]) -> Result<()> {
    if let Some(folder) = &out.outbox {
        std::fs::create_dir_all(folder)
            .map_err(|e| Error::Io(format!("{}: {e}", folder.display())))?;
        qijudge_store::write_atomic(&folder.join(name), bytes)?;
        say!("wrote {}", folder.join(name).display());
    }
    if let Some(cmd) = &out.sendmail {
        outbox::send(cmd, bytes)?;
        say!("sent {name}");
    }
    Ok(())
}

/// One of the judge's mail logs in a game folder, read as JSON; a log that cannot be read (not
/// UTF-8, too large, not the JSON it should be) is set aside as `LOG.damaged`, with a warning,
/// and the judge starts it again: a damaged log may only make a message go out once more, and
/// must never stop the game's mail.
fn read_log<T: serde::de::DeserializeOwned + Default>(game: &GameDir, rel: &str, limit: u64) -> T {
    let why = match game.read_optional(rel, limit) {
        Ok(None) => return T::default(),
        Ok(Some(text)) => match serde_json::from_str(&text) {
            Ok(log) => return log,
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    };
    let aside = format!("{rel}.damaged");
    let said = match std::fs::rename(game.path(rel), game.path(&aside)) {
        Ok(()) => format!(
            "warning: {}: {rel} cannot be read ({why}); set aside as {aside} and started again \
             (a message may go out once more)\n",
            game.root.display()
        ),
        Err(e) => format!(
            "warning: {}: {rel} cannot be read ({why}) nor set aside ({e}); started again\n",
            game.root.display()
        ),
    };
    // A closed standard error must not stop the mail either.
    let _ = std::io::Write::write_all(&mut std::io::stderr(), said.as_bytes());
    T::default()
}

/// What was last sent to each recipient (`mail/sent.json` in the game folder, the judge's own
/// bookkeeping): a digest per message name.
struct SentLog(std::collections::BTreeMap<String, String>);

const SENT_LOG: &str = "mail/sent.json";

/// What the sent log holds for a message asked for again (never a digest).
const RESEND: &str = "resend";

impl SentLog {
    fn read(game: &GameDir) -> Result<SentLog> {
        Ok(SentLog(read_log(
            game,
            SENT_LOG,
            qijudge_store::SMALL_FILE_LIMIT,
        )))
    }

    /// Delivers a message unless the same was sent before (same name, same digest); whether it
    /// was sent. Recorded only once delivered, so a failed delivery is tried again next run.
    fn send_new(&mut self, game: &GameDir, out: &Outgoing, m: &outbox::Outgoing) -> Result<bool> {
        if self.0.get(&m.name).is_some_and(|d| *d == m.digest) {
            return Ok(false);
        }
        deliver(out, &m.name, &m.bytes)?;
        // The files first: a crash between the two only sends a message again.
        SentFiles::read(game).record(game, &m.carried_to, &m.files)?;
        self.record(game, &m.name, &m.digest)?;
        Ok(true)
    }

    /// Marks `name` to be sent again by the next run, at once (a `resend`: not kept for a
    /// digest).
    fn forget(&mut self, game: &GameDir, name: &str) -> Result<()> {
        self.0.insert(name.to_string(), RESEND.to_string());
        self.save(game)
    }

    /// Whether `name` was asked for again.
    fn asked_again(&self, name: &str) -> bool {
        self.0.get(name).is_some_and(|d| d == RESEND)
    }

    fn record(&mut self, game: &GameDir, name: &str, digest: &str) -> Result<()> {
        self.0.insert(name.to_string(), digest.to_string());
        self.save(game)
    }

    fn save(&self, game: &GameDir) -> Result<()> {
        let text = serde_json::to_string_pretty(&self.0)
            .map_err(|e| Error::Io(format!("{SENT_LOG}: {e}")))?;
        std::fs::create_dir_all(game.path("mail")).map_err(|e| Error::Io(format!("mail/: {e}")))?;
        game.write(SENT_LOG, format!("{text}\n").as_bytes())
    }
}

/// The files each message's bundle has carried to its recipients (`mail/sent-files.json`, the
/// judge's own bookkeeping: by message name and addresses, each file's path and SHA-256), so that the next
/// bundle carries only what is new. A damaged or missing log only makes the next bundle whole.
struct SentFiles(std::collections::BTreeMap<String, crate::bundle::Had>);

const SENT_FILES: &str = "mail/sent-files.json";

/// The message name in a [`SentFiles`] key (`AUDIENCE.eml to ADDRESS,…`).
fn message_name(carried_to: &str) -> &str {
    carried_to.split(' ').next().unwrap_or(carried_to)
}

impl SentFiles {
    fn read(game: &GameDir) -> SentFiles {
        SentFiles(read_log(game, SENT_FILES, qijudge_store::RECORD_LIMIT))
    }

    /// What a message has carried so far to these addresses (`carried_to`): nothing when the
    /// message was asked for again (a `resend` carries every file).
    fn before(&self, sent: &SentLog, carried_to: &str) -> crate::bundle::Had {
        match sent.asked_again(message_name(carried_to)) {
            true => Default::default(),
            false => self.0.get(carried_to).cloned().unwrap_or_default(),
        }
    }

    /// The message was delivered to these addresses carrying (with what it carried before)
    /// `files`.
    fn record(
        mut self,
        game: &GameDir,
        carried_to: &str,
        files: &crate::bundle::Had,
    ) -> Result<()> {
        if files.is_empty() {
            return Ok(());
        }
        self.0.insert(carried_to.to_string(), files.clone());
        let text =
            serde_json::to_string(&self.0).map_err(|e| Error::Io(format!("{SENT_FILES}: {e}")))?;
        std::fs::create_dir_all(game.path("mail")).map_err(|e| Error::Io(format!("mail/: {e}")))?;
        game.write(SENT_FILES, format!("{text}\n").as_bytes())
    }
}

/// Refusal notices sent today, per seat (`mail/notices.json`, the judge's own bookkeeping): the
/// digests of their texts, for the (seat, reason) deduplication and the daily cap.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct NoticeLog(std::collections::BTreeMap<String, (String, Vec<String>)>);

const NOTICE_LOG: &str = "mail/notices.json";

/// Refusal notices a day per seat, at most.
const NOTICES_PER_DAY: usize = 5;

impl NoticeLog {
    fn read(game: &GameDir) -> NoticeLog {
        read_log(game, NOTICE_LOG, qijudge_store::SMALL_FILE_LIMIT)
    }

    /// Why a notice of `digest` to `seat` is not sent today, if it is not.
    fn hold_back(&self, seat: &str, digest: &str, now: &str) -> Option<String> {
        let (day, sent) = self.0.get(seat)?;
        if day != now.get(..10).unwrap_or(now) {
            return None;
        }
        if sent.iter().any(|d| d == digest) {
            return Some("the same refusal was sent today".into());
        }
        (sent.len() >= NOTICES_PER_DAY)
            .then(|| format!("{NOTICES_PER_DAY} refusals sent to this seat today already"))
    }

    fn sent(&mut self, game: &GameDir, seat: &str, digest: &str, now: &str) -> Result<()> {
        let day = now.get(..10).unwrap_or(now).to_string();
        let entry = self.0.entry(seat.to_string()).or_default();
        if entry.0 != day {
            *entry = (day, Vec::new());
        }
        entry.1.push(digest.to_string());
        let text = serde_json::to_string_pretty(&self.0)
            .map_err(|e| Error::Io(format!("{NOTICE_LOG}: {e}")))?;
        std::fs::create_dir_all(game.path("mail")).map_err(|e| Error::Io(format!("mail/: {e}")))?;
        game.write(NOTICE_LOG, format!("{text}\n").as_bytes())
    }
}

fn read_bytes(path: &Path, shown: &str) -> Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        return qijudge_game::console::read_stdin(MESSAGE_LIMIT);
    }
    let meta =
        std::fs::symlink_metadata(path).map_err(|_| Error::Io(format!("{shown}: no such file")))?;
    if !meta.is_file() {
        return Err(refuse(shown, None, "not a regular file"));
    }
    if meta.len() > MESSAGE_LIMIT {
        return Err(refuse(
            shown,
            None,
            format!("larger than {MESSAGE_LIMIT} bytes"),
        ));
    }
    std::fs::read(path).map_err(|e| Error::Io(format!("{shown}: {e}")))
}

/// A game's manifest as mail needs it, whatever the game: its text (attached to invitations)
/// and its table (id, players, clock), read and parsed once per command.
struct Manifest {
    text: String,
    table: toml::Table,
}

impl Manifest {
    fn read(game: &GameDir) -> Result<Manifest> {
        let text = game.read("game.toml", qijudge_store::SMALL_FILE_LIMIT)?;
        let table = toml::from_str(&text).map_err(|e| Error::Io(format!("game.toml: {e}")))?;
        Ok(Manifest { text, table })
    }

    fn id(&self) -> &str {
        self.table
            .get("id")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
    }

    /// Whether the manifest asks for `seat`'s mail as a daily digest.
    fn digest(&self, seat: &str) -> bool {
        self.table
            .get("players")
            .and_then(|p| p.as_array())
            .and_then(|ps| {
                ps.iter()
                    .find(|p| p.get("seat").and_then(|s| s.as_str()) == Some(seat))
            })
            .and_then(|p| p.get("digest"))
            .and_then(|d| d.as_bool())
            .unwrap_or(false)
    }

    /// Every seat with its player's name and address, in order.
    fn players(&self) -> Vec<(String, String, Option<String>)> {
        let field = |p: &toml::Value, name: &str| p.get(name)?.as_str().map(str::to_string);
        self.table
            .get("players")
            .and_then(|p| p.as_array())
            .map(|players| {
                players
                    .iter()
                    .filter_map(|p| Some((field(p, "seat")?, field(p, "name")?, field(p, "email"))))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Each seat with an address gets its own view; spectators (or the judge itself) the public one.
fn recipients(manifest: &Manifest, spectators: &[String], from: &str) -> Vec<outbox::Recipient> {
    let mut out: Vec<outbox::Recipient> = manifest
        .players()
        .into_iter()
        .filter_map(|(seat, name, email)| {
            Some(outbox::Recipient {
                audience: seat,
                name,
                addresses: vec![email?],
            })
        })
        .collect();
    // Spectators get the public view; without any, nobody does (never the judge's own address,
    // which would read it back in).
    let is_judge = |a: &String| a.eq_ignore_ascii_case(from);
    for r in &mut out {
        r.addresses.retain(|a| !is_judge(a));
    }
    out.retain(|r| !r.addresses.is_empty());
    let spectators: Vec<String> = spectators
        .iter()
        .filter(|a| !is_judge(a))
        .cloned()
        .collect();
    if !spectators.is_empty() {
        out.push(outbox::Recipient {
            audience: "public".into(),
            name: "spectators".into(),
            addresses: spectators,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::typing_distance;

    #[test]
    fn typing_slips_are_counted() {
        assert_eq!(typing_distance("bob-copy", "bob-cpy"), 1);
        assert_eq!(typing_distance("bob-copy", "bob-cpoy"), 1);
        assert_eq!(typing_distance("game", "gmae"), 1);
        assert_eq!(typing_distance("alice-copy", "alice-copy-2"), 2);
        assert!(typing_distance("bob-copy", "alice-copy-1") > 2);
        assert_eq!(typing_distance("same", "same"), 0);
    }
}
