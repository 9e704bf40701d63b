//! Outgoing messages: one per seat with that seat's signed view, and one for spectators with
//! the public view. Every header is built from checked values; the bytes are deterministic.

use mail_builder::headers::content_type::ContentType;
use mail_builder::mime::MimePart;
use mail_builder::MessageBuilder;
use qijudge_protocol::error::{Error, Result};
use qijudge_store::{GameDir, RECORD_LIMIT};

pub use qijudge_protocol::files::valid_address;

/// One recipient: an audience of the game and where its message goes.
pub struct Recipient {
    pub audience: String,
    pub name: String,
    pub addresses: Vec<String>,
}

/// What all messages of one judging share.
pub struct Envelope<'a> {
    pub game: &'a str,
    pub from: &'a str,
    /// RFC 3339 time of the judging.
    pub now: &'a str,
    /// The message this judging answers, when there was one: the audience (the seat) whose
    /// signed file it brought and its Message-ID, already checked with [`valid_message_id`].
    /// Only that seat's message refers to it.
    pub answers: Option<(&'a str, &'a str)>,
}

/// Whether a Message-ID (without its angle brackets) may be copied into a header:
/// `left@right`, printable ASCII without spaces, brackets, quotes or separators, at most 250
/// characters. Anything else from a sender is dropped, never copied.
pub fn valid_message_id(id: &str) -> bool {
    let ok_char = |c: char| c.is_ascii_graphic() && !"<>()[]\\,;:\"@".contains(c);
    let Some((left, right)) = id.split_once('@') else {
        return false;
    };
    id.len() <= 250
        && !left.is_empty()
        && !right.is_empty()
        && left.chars().all(ok_char)
        && right.chars().all(ok_char)
}

/// What a message says first, in its Subject and again at the top of its body: the result, or
/// whose turn it is and which ply (or turn, in Liubo) comes next (as `status` says it).
pub fn headline(view: &serde_json::Value) -> String {
    let (count, unit) = match view.get("turns").and_then(|v| v.as_u64()) {
        Some(turns) => (turns, "turn"),
        None => (view.get("ply").and_then(|v| v.as_u64()).unwrap_or(0), "ply"),
    };
    if let Some(r) = view.get("result").filter(|r| !r.is_null()) {
        let outcome = match r.get("winner").and_then(|w| w.as_str()) {
            Some(w) => format!("{w} wins"),
            None => "draw".to_string(),
        };
        let unit = if unit == "ply" { "plies" } else { "turns" };
        return format!("game over after {count} {unit}: {outcome}");
    }
    match view.get("to_move").and_then(|t| t.as_str()) {
        Some(seat) => format!("{seat} to move ({unit} {})", count + 1),
        None => "waiting for the players' setups".to_string(),
    }
}

/// A manifest's `[clock]` table, whatever the game.
pub fn clock_of(manifest: &toml::Table) -> Result<Option<qijudge_protocol::files::Clock>> {
    manifest
        .get("clock")
        .map(|c| {
            c.clone()
                .try_into()
                .map_err(|e| Error::Io(format!("game.toml: [clock]: {e}")))
        })
        .transpose()
}

/// A game's clock and its record, read once for its deadlines.
type Clocked = (
    qijudge_protocol::files::Clock,
    qijudge_protocol::record::Record,
);

/// The game's clock and its record, if it has a clock and a readable record.
fn clock_and_record(dir: &GameDir) -> Result<Option<Clocked>> {
    let text = dir.read("game.toml", qijudge_store::SMALL_FILE_LIMIT)?;
    let table: toml::Table =
        toml::from_str(&text).map_err(|e| Error::Io(format!("game.toml: {e}")))?;
    let Some(clock) = clock_of(&table)? else {
        return Ok(None);
    };
    let genesis = qijudge_rules::hash::sha256_tagged(text.as_bytes());
    let here = dir
        .read_optional("record.jsonl", RECORD_LIMIT)?
        .unwrap_or_default();
    Ok(qijudge_protocol::record::Record::parse(&here, &genesis)
        .ok()
        .map(|record| (clock, record)))
}

/// The deadline of the next ply, if the game has a clock.
pub fn deadline(dir: &GameDir, now: &str) -> Result<Option<qijudge_judge::clock::Deadline>> {
    deadline_of(dir, clock_and_record(dir)?.as_ref(), now)
}

/// [`deadline`] from the clock and record already read.
fn deadline_of(
    dir: &GameDir,
    clocked: Option<&Clocked>,
    now: &str,
) -> Result<Option<qijudge_judge::clock::Deadline>> {
    let Some((clock, record)) = clocked else {
        return Ok(None);
    };
    // The seat to move: its vacations stop its clock.
    let to_move = qijudge_registry::of_dir(&dir.root)
        .and_then(|g| g.to_move(&dir.root))
        .ok()
        .flatten()
        .unwrap_or_default();
    Ok(qijudge_judge::clock::next_deadline(
        clock, record, &to_move, now,
    ))
}

/// The deadline a seat missed, when the record's latest event is that seat's forfeit for a
/// missed deadline (no move since): the seat, and the deadline it had then.
fn missed_deadline(
    clocked: Option<&Clocked>,
    now: &str,
) -> Result<Option<(String, qijudge_judge::clock::Deadline)>> {
    use qijudge_protocol::files::Entry;
    let Some((clock, record)) = clocked else {
        return Ok(None);
    };
    for (at, line) in record.lines.iter().enumerate().rev() {
        match &line.entry {
            Entry::Move { .. } => return Ok(None),
            Entry::Forfeit { seat, reason, .. } if reason == "missed-deadline" => {
                let before = record.prefix(at);
                return Ok(
                    qijudge_judge::clock::next_deadline(clock, &before, seat, now)
                        .map(|d| (seat.clone(), d)),
                );
            }
            _ => {}
        }
    }
    Ok(None)
}

/// Before play: how far each seat is with its secret, from the record (`commitment`, then
/// `setup_accepted`), in seat order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    Nothing,
    Committed,
    Accepted,
}

fn setup_progress(dir: &GameDir, seats: &[String]) -> Result<Vec<(String, Stage)>> {
    let text = dir
        .read_optional("record.jsonl", RECORD_LIMIT)?
        .unwrap_or_default();
    let mut stages: Vec<(String, Stage)> =
        seats.iter().map(|s| (s.clone(), Stage::Nothing)).collect();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let entry = &v["entry"];
        let stage = match entry["kind"].as_str() {
            Some("commitment") => Stage::Committed,
            Some("setup_accepted") => Stage::Accepted,
            _ => continue,
        };
        if let Some((_, s)) = stages.iter_mut().find(|(n, _)| entry["seat"] == n.as_str()) {
            *s = (*s).max(stage);
        }
    }
    Ok(stages)
}

/// The headline before play: what the judge still waits for, by seat.
fn waiting_headline(progress: &[(String, Stage)]) -> String {
    let of = |stage: Stage| -> Vec<&str> {
        progress
            .iter()
            .filter(|(_, s)| *s == stage)
            .map(|(n, _)| n.as_str())
            .collect()
    };
    let (none, committed) = (of(Stage::Nothing), of(Stage::Committed));
    match (none.is_empty(), committed.is_empty()) {
        (false, _) => format!("waiting for the commitment of {}", none.join(", ")),
        (true, false) => format!("waiting for the setup of {}", committed.join(", ")),
        (true, true) => "every setup is in; play begins at the judge's next run".to_string(),
    }
}

/// Before play: what one seat has sent, and what it sends next.
fn setup_steps(progress: &[(String, Stage)], audience: &str, judge: &str) -> String {
    let stage = progress
        .iter()
        .find(|(n, _)| n == audience)
        .map_or(Stage::Nothing, |(_, s)| *s);
    // Commitments come first, every seat's, and only then secrets: a seat that has committed
    // is not waited for while another has not.
    let all_committed = progress.iter().all(|(_, s)| *s != Stage::Nothing);
    let others = |pick: &dyn Fn(Stage) -> bool| -> Vec<&str> {
        progress
            .iter()
            .filter(|(n, s)| n != audience && pick(*s))
            .map(|(n, _)| n.as_str())
            .collect()
    };
    let waiting = match (
        all_committed,
        others(&|s| match all_committed {
            false => s == Stage::Nothing,
            true => s != Stage::Accepted,
        }),
    ) {
        (_, awaited) if awaited.is_empty() => String::new(),
        (false, awaited) => format!(
            " The judge still waits for the commitment of {}.",
            awaited.join(", ")
        ),
        (true, awaited) => format!(
            " The judge still waits for the secret of {}.",
            awaited.join(", ")
        ),
    };
    let committed = others(&|s| s != Stage::Nothing);
    let ahead = match committed.as_slice() {
        [] => String::new(),
        seats => format!(
            " {} committed already: the game waits for your commitment.",
            seats.join(", ")
        ),
    };
    match stage {
        Stage::Nothing => format!(
            "The judge has nothing from you yet. Make your secret with `qijudge setup YOUR-COPY \
             --as {audience} --key YOUR-KEY` (a chosen setup also takes SETUP-FILE), and send the \
             signed commitment (commitments/{audience}.toml and its .sig) to {judge}.{ahead}\
             {waiting}"
        ),
        Stage::Committed => format!(
            "Your commitment is on the record. Send your secret (setups/{audience}.toml, or the \
             sealed file in a sealed game) to {judge} once every commitment is recorded; it is \
             checked against your commitment.{waiting}"
        ),
        Stage::Accepted => format!(
            "Your commitment and your secret are both taken; nothing to do until play \
             begins.{waiting}"
        ),
    }
}

/// What the recipient of a message can do next, in a few sentences.
fn next_steps(view: &serde_json::Value, audience: &str, judge: &str, revealed: bool) -> String {
    let over = view.get("result").is_some_and(|r| !r.is_null());
    let to_move = view.get("to_move").and_then(|t| t.as_str());
    let take = "save this message as a file (Save As in most mail clients) and take it into \
        your copy of the game with `qijudge inbox YOUR-COPY MESSAGE-FILE`";
    if over {
        return if revealed {
            format!(
                "The game is over. game.tar.gz holds the revealed setups and what you had not had \
                 yet: {take}, then `qijudge verify YOUR-COPY` checks every move and combat. A \
                 copy that missed a message (inbox says which files it lacks) gets them all by \
                 mailing `resend` to {judge}."
            )
        } else {
            "The game is over; the setups are revealed in the judge's next message.".to_string()
        };
    }
    if audience == "public" {
        return "You follow this game as a spectator; the judge writes after every move."
            .to_string();
    }
    match to_move {
        Some(seat) if seat == audience => format!(
            "Your move: {take} (it takes the record, your view and the moves so far), list your moves with \
             `qijudge moves YOUR-COPY --as {seat}`, write yours with `qijudge move YOUR-COPY \
             --as {seat} --key YOUR-KEY MOVE`, and send the move file and its .sig to {judge}, \
             attached or pasted into a plain-text message."
        ),
        Some(seat) => format!("{seat} is to move; nothing to do until the judge writes again."),
        None => format!(
            "If you have not yet: make your setup with `qijudge setup YOUR-COPY --as {audience} \
             --key YOUR-KEY SETUP-FILE`, send the signed commitment (commitments/{audience}.toml \
             and its .sig) to {judge} first, then the setup file (setups/{audience}.toml)."
        ),
    }
}

/// The deadline sentence for a recipient.
fn deadline_line(d: &qijudge_judge::clock::Deadline, to_move: &str, audience: &str) -> String {
    let whose = if to_move == audience {
        "Your move".to_string()
    } else {
        format!("{to_move}'s move")
    };
    format!(
        "{whose} for ply {} is due by {} (grace until {}; it is {} now).",
        d.ply, d.due, d.grace_until, d.state
    )
}

/// One outgoing message: its file name, its bytes, and a digest of what it says to its
/// recipient (the view, the refusal note, the addresses; not the date), so that a message that
/// would say nothing new is not sent again.
pub struct Outgoing {
    pub name: String,
    pub bytes: Vec<u8>,
    pub digest: String,
    /// Whom its bundle's files are logged as carried to: the message's name and addresses.
    pub carried_to: String,
    /// The files its recipient holds once it has this message (its bundle's, by path, with
    /// their SHA-256; none for a message without a bundle).
    pub files: super::bundle::Had,
    /// Whether it must go at once even to a player who reads a daily digest: the game is over
    /// or not begun, the seat's file was refused, or the seat's move is due within a day.
    pub urgent: bool,
}

/// Whether a move due at `due` is due within a day of `now` (both RFC 3339).
fn within_a_day(due: &str, now: &str) -> bool {
    let parse = |t: &str| chrono::DateTime::parse_from_rfc3339(t).ok();
    match (parse(due), parse(now)) {
        (Some(due), Some(now)) => due - now < chrono::Duration::hours(24),
        _ => true,
    }
}

/// RFC 3834: every message the judge sends is marked as sent by a program, so that
/// well-behaved responders never answer it.
fn auto_submitted(answers: Option<&str>) -> &'static str {
    match answers {
        Some(_) => "auto-replied",
        None => "auto-generated",
    }
}

/// The headers every message of the judge has: From, To (spectators in Bcc, so that none sees
/// another's address), Subject, a Message-ID made of `id` and the judge's domain, the judge's
/// Date, Auto-Submitted and, in the reply to the seat whose message it answers, In-Reply-To and
/// References.
fn headers<'x>(
    env: &Envelope<'x>,
    to: &Recipient,
    subject: String,
    id: &str,
) -> Result<MessageBuilder<'x>> {
    let time = chrono::DateTime::parse_from_rfc3339(env.now)
        .map_err(|_| Error::Io(format!("{:?} is not an RFC 3339 time", env.now)))?
        .timestamp();
    let domain = env
        .from
        .split_once('@')
        .map_or("qijudge.invalid", |(_, d)| d);
    let addresses: Vec<(String, String)> = to
        .addresses
        .iter()
        .map(|a| (to.name.clone(), a.clone()))
        .collect();
    let answers = env
        .answers
        .filter(|(audience, _)| *audience == to.audience)
        .map(|(_, id)| id);
    let builder = MessageBuilder::new().from(("qijudge", env.from));
    let builder = if to.audience == "public" {
        let bcc: Vec<String> = to.addresses.clone();
        builder
            .to(mail_builder::headers::address::Address::new_group(
                Some("spectators"),
                Vec::new(),
            ))
            .bcc(bcc)
    } else {
        builder.to(addresses)
    };
    let builder = builder
        .subject(subject)
        .message_id(format!("{id}@{domain}"))
        .date(time)
        .header(
            "Auto-Submitted",
            mail_builder::headers::text::Text::new(auto_submitted(answers)),
        );
    Ok(match answers {
        Some(reply) => builder
            .in_reply_to(reply.to_string())
            .references(reply.to_string()),
        None => builder,
    })
}

fn write(builder: MessageBuilder) -> Result<Vec<u8>> {
    builder
        .write_to_vec()
        .map_err(|e| Error::Io(format!("building a message: {e}")))
}

/// The first `n` hex digits of a `sha256:` digest.
fn hex_prefix(digest: &str, n: usize) -> &str {
    &digest.trim_start_matches("sha256:")[..n]
}

/// Told with every answer to a message that only its From ties to the player.
pub const NOT_YOURS: &str = "If you did not send this message, someone else wrote it with \
     your address as its sender: the judge took nothing from it, and you need do nothing.";

/// A private notice to one seat: why the file in its message was refused, or (`chat`) that a
/// message with no file at all did nothing, and where words for the opponent should go.
pub fn notice(env: &Envelope, to: &Recipient, text: &str, chat: bool) -> Result<Vec<u8>> {
    let digest = qijudge_rules::hash::sha256_tagged(text.as_bytes());
    let id = format!(
        "{}.{}.refused.{}",
        env.game,
        to.audience,
        hex_prefix(&digest, 16)
    );
    let (subject, body) = match chat {
        true => (
            format!("[qijudge {}] no file in your message", short_id(env.game)),
            "Your message held no qijudge file and no mail command, so the judge did nothing \
             with it; nothing is lost. The judge reads only signed files (a move, a setup, a \
             secret) and does not pass words on: to talk to your opponent, write to them \
             directly.\n\nMail commands, one per message, in the subject: help; status; \
             resend; vacation DAYS.\n\n"
                .to_string()
                + NOT_YOURS,
        ),
        false => (
            format!("[qijudge {}] refused: {}", short_id(env.game), to.audience),
            // The reason and its hint first (a missing signature needs only the .sig sent
            // with the same file); rewriting the move is for a move the rules refused.
            format!(
                "Your message was refused; nothing from it was taken, and nothing is lost.\n\n\
                 {}\n\nIf the move itself was refused (illegal, out of turn, late), write a \
                 new one in your copy with `qijudge move … --replace`, which sets the refused \
                 file aside; otherwise send the same file again, as the hint says.\n",
                text.trim_end()
            ),
        ),
    };
    // Wrapped at 72 columns like every other message (a reason may be a long line).
    write(headers(env, to, subject, &id)?.text_body(format!("{}\n", wrap(body.trim_end()))))
}

/// The short answer to a message that names no game of this address (or several): what was
/// wrong with it, how a message finds its game, and the games this address plays here.
/// `answers` is the message's Message-ID, already checked; `subject` says what it answers (an
/// explicit `help`, or a message that found no game).
pub fn help(
    from: &str,
    to: &str,
    now: &str,
    answers: Option<&str>,
    why: &str,
    subject: &str,
    games: &[String],
) -> Result<Vec<u8>> {
    let listed = match games {
        [] => "This address plays no game here.".to_string(),
        games => format!("The games of this address here:\n{}", games.join("\n")),
    };
    let body = format!(
        "{why}\n\n\
         A message finds its game by the game id inside the signed files it carries: attach the\n\
         file and its .sig that `qijudge move` (or `setup`) wrote, or paste both into a plain-text\n\
         body. A message without files names its game by replying to the judge's last message\n\
         or by the game id in its subject (the short form in the judge's subjects will do).\n\n\
         {listed}\n"
    );
    reply(from, to, now, answers, subject, &body)
}

/// A short answer to one address (a mail command, a help): its subject after `[qijudge]`, its
/// body wrapped at 72 columns. `answers` is the message's Message-ID, already checked.
pub fn reply(
    from: &str,
    to: &str,
    now: &str,
    answers: Option<&str>,
    subject: &str,
    body: &str,
) -> Result<Vec<u8>> {
    let env = Envelope {
        game: "reply",
        from,
        now,
        answers: answers.map(|id| ("reply", id)),
    };
    let recipient = Recipient {
        audience: "reply".into(),
        name: String::new(),
        addresses: vec![to.to_string()],
    };
    let digest = qijudge_rules::hash::sha256_tagged(format!("{to}\n{subject}\n{body}").as_bytes());
    let id = format!("reply.{}", hex_prefix(&digest, 16));
    let subject = format!("[qijudge] {subject}");
    write(
        headers(&env, &recipient, subject, &id)?.text_body(format!("{}\n", wrap(body.trim_end()))),
    )
}

/// The daily digest to one address: its games (`games`, as the `list` command gives them) and
/// the judge's latest message of each game that changed since the last (`held`: game id and
/// message), attached whole as `message/rfc822`, so that each copy takes in its own game.
pub fn digest(
    from: &str,
    to: &str,
    now: &str,
    waiting: usize,
    games: &str,
    held: &[(String, Vec<u8>)],
) -> Result<Vec<u8>> {
    let env = Envelope {
        game: "digest",
        from,
        now,
        answers: None,
    };
    let recipient = Recipient {
        audience: "digest".into(),
        name: String::new(),
        addresses: vec![to.to_string()],
    };
    let subject = match waiting {
        0 => "[qijudge] your games: none waits for your move".to_string(),
        1 => "[qijudge] your games: 1 waits for your move".to_string(),
        n => format!("[qijudge] your games: {n} wait for your move"),
    };
    let body = format!(
        "Your daily digest: one mail a day for your games at {from} (the mail command `digest \
         off` ends it). The end of a game, a refused file and a move due within a day still \
         come at once.\n\n{games}\n\nThe judge's latest message of each game that changed \
         since the last digest is attached ({}). Save this message as a file and take it into \
         each copy with `qijudge inbox YOUR-COPY MESSAGE-FILE`: a copy takes only its own game.",
        held.len()
    );
    let mut parts = vec![MimePart::new("text/plain", format!("{}\n", wrap(&body)))];
    for (game, bytes) in held {
        // The judge's messages are 7-bit text; written as they are (RFC 2046 allows no other
        // transfer encoding for message/rfc822).
        let encoding = if bytes.is_ascii() { "7bit" } else { "8bit" };
        parts.push(
            MimePart::new(
                "message/rfc822",
                String::from_utf8_lossy(bytes).into_owned(),
            )
            .header(
                "Content-Transfer-Encoding",
                mail_builder::headers::raw::Raw::new(encoding),
            )
            .attachment(format!("{}.eml", short_id(game))),
        );
    }
    let digest =
        qijudge_rules::hash::sha256_tagged(format!("{to}\n{now}\n{}", held.len()).as_bytes());
    let id = format!("digest.{}", hex_prefix(&digest, 16));
    let body = MimePart::new(ContentType::new("multipart/mixed"), parts);
    write(headers(&env, &recipient, subject, &id)?.body(body))
}

/// Builds the messages for the current views of a judged game directory. Each carries the
/// game's public files so far (`game.tar.gz`: record, commitments, moves, the audience's views), so
/// that a player's copy can replay the game (`status` and `moves` of games whose views do not
/// say everything, Xiangqi and Liubo, replay the moves). `revealed`: the game is over and the
/// setups are revealed, so the bundle is the whole game `verify` needs.
///
/// `had` gives what each message (by its name and addresses, `AUDIENCE.eml to ADDRESS,…`)
/// carried to its recipients so far:
/// the signed files it has had are left out of its bundle (see [`super::bundle::pack`]); a copy
/// that missed a message asks for `resend`, whose answer carries every file.
pub fn messages(
    dir: &GameDir,
    env: &Envelope,
    recipients: &[Recipient],
    revealed: bool,
    had: &dyn Fn(&str) -> super::bundle::Had,
) -> Result<Vec<Outgoing>> {
    let mut out = Vec::new();
    // The manifest and the record, read once for the deadlines.
    let clocked = clock_and_record(dir)?;
    let deadline = deadline_of(dir, clocked.as_ref(), env.now)?;
    let missed = missed_deadline(clocked.as_ref(), env.now)?;
    // In a game of perfect information every seat's view is public, and so is every view once
    // the setups are revealed: `verify` checks all the views it finds (Xiangqi's and Liubo's
    // demand every seat's).
    let secrets = qijudge_registry::of_dir(&dir.root)?.has_secrets();
    let seats = super::seats(dir)?;
    let standing = standing_answers(dir, &seats);
    let seats = seats.names;
    for r in recipients {
        let Some(json) = dir.read_optional(&format!("views/{}.json", r.audience), RECORD_LIMIT)?
        else {
            continue;
        };
        let text = dir.read(&format!("views/{}.txt", r.audience), RECORD_LIMIT)?;
        let view: serde_json::Value =
            serde_json::from_str(&json).map_err(|e| Error::Io(format!("view: {e}")))?;
        let head = view
            .get("record_head")
            .and_then(|h| h.as_str())
            .unwrap_or("")
            .trim_start_matches("sha256:")
            .chars()
            .take(16)
            .collect::<String>();
        let before_play = view.get("result").is_none_or(|v| v.is_null())
            && view.get("to_move").and_then(|t| t.as_str()).is_none();
        let progress = setup_progress(dir, &seats)?;
        let headline = match before_play {
            true => waiting_headline(&progress),
            false => headline(&view),
        };
        let subject = format!("[qijudge {}] {headline}", short_id(env.game));
        // A seat's pending refusal comes first in its own message, and only there.
        let note = dir.read_optional(
            &format!("views/{}.refusal.txt", r.audience),
            qijudge_store::SMALL_FILE_LIMIT,
        )?;
        let over = view.get("result").is_some_and(|v| !v.is_null());
        let mut audiences = vec![r.audience.as_str(), "public", "full"];
        if !secrets || (over && revealed) {
            audiences.extend(seats.iter().map(String::as_str));
        }
        let name = format!("{}.eml", r.audience);
        // What was carried is logged per message and addresses: an address added later (a new
        // spectator, who cannot ask for `resend`) gets every file.
        let carried_to = format!("{name} to {}", r.addresses.join(","));
        // A message stays within MESSAGE_LIMIT bytes: when the first try is larger (a new
        // recipient of a long game gets every file), its bundle carries what fits, and the
        // judge's next run the rest.
        let mut budget = usize::MAX;
        let mut with_picture = true;
        loop {
            let bundle = super::bundle::pack_within(dir, &audiences, &had(&carried_to), budget)?;
            // The seat's own conditional answers that can still fire, from the judge's folder: a
            // new file is news for its seat (so the seat learns the judge has it).
            let answers =
                standing
                    .iter()
                    .find(|(seat, ..)| *seat == r.audience)
                    .map(|(_, path, live)| {
                        format!(
                            "Your conditional answers ({path}) stand: {}.",
                            live.join("; ")
                        )
                    });
            let said = [
                r.audience.as_str(),
                &r.addresses.join(","),
                &json,
                note.as_deref().unwrap_or(""),
                &bundle.digest,
                answers.as_deref().unwrap_or(""),
            ]
            .join("\0");
            let digest = qijudge_rules::hash::sha256_tagged(said.as_bytes());
            let mut body = wrap(&format!("Game {}: {headline}.", env.game));
            body.push('\n');
            let to_move = view.get("to_move").and_then(|t| t.as_str());
            if let (Some(d), Some(seat)) = (&deadline, to_move) {
                body.push_str(&wrap(&deadline_line(d, seat, &r.audience)));
                body.push('\n');
            }
            if let Some((seat, d)) = &missed {
                let who = match *seat == r.audience {
                    true => "You".to_string(),
                    false => seat.clone(),
                };
                body.push_str(&wrap(&format!(
                "{who} missed the deadline for ply {}: the move was due by {} and the grace ran \
                 until {}, and the game's clock forfeits a seat past its grace.",
                d.ply, d.due, d.grace_until
            )));
                body.push('\n');
            }
            body.push('\n');
            let steps = match before_play && r.audience != "public" {
                true => setup_steps(&progress, &r.audience, env.from),
                false => next_steps(&view, &r.audience, env.from, over && revealed),
            };
            body.push_str(&wrap(&steps));
            body.push_str("\n\n");
            if !with_picture {
                body.push_str(&wrap(&format!(
                    "The board picture is left out of this message to keep it small; your copy \
                     draws it: qijudge view YOUR-COPY --as {} --format png > board.png",
                    r.audience
                )));
                body.push_str("\n\n");
            }
            if bundle.left > 0 {
                body.push_str(&wrap(&format!(
                    "This message carries only part of the game's files, to stay small: {} more \
                     come with the judge's next message, with nothing to do on your side (until \
                     then your copy lacks them, and says so).",
                    bundle.left
                )));
                body.push_str("\n\n");
            }
            if let Some(answers) = &answers {
                body.push_str(&wrap(answers));
                body.push_str("\n\n");
            }
            if let Some(n) = &note {
                body.push_str(&format!(
                "Your last file was refused and set aside; send a corrected one (in your copy, \
                 `qijudge move … --replace` sets the refused file aside and writes the new one).\n{}\n\n",
                n.trim_end()
            ));
            }
            // The view's text, its long prose lines (the key to the pieces) folded at 72 columns
            // like the rest of the body; board lines are shorter and stay as they are.
            body.push_str(&wrap(&text));
            let message_id = format!(
                "{}.{}.{head}.{}",
                env.game,
                r.audience,
                hex_prefix(&digest, 8)
            );
            let boundary = format!("qijudge-{head}-{}", r.audience);
            let mut parts = vec![MimePart::new("text/plain", body)];
            // One picture (the audience's own, else the one board for everyone; for a player,
            // once the game is over and its setups revealed, the whole board, which hides nothing
            // any more: the opponent's pieces it played against); the record and the signed views
            // travel in game.tar.gz, which a copy takes in. (A spectator's public picture stays:
            // its message carries the most files, and must stay small.)
            let own = dir.path(&format!("views/{}.png", r.audience));
            let shared = dir.path("views/board.png");
            let whole = (over && revealed && r.audience != "public")
                .then(|| std::fs::read(dir.path("views/full.png")).ok())
                .flatten();
            let picture = whole.map_or_else(
                || std::fs::read(&own).or_else(|_| std::fs::read(&shared)),
                Ok,
            );
            match picture {
                Ok(bytes) if with_picture => {
                    parts.push(MimePart::new("image/png", bytes).attachment("board.png"))
                }
                _ => {}
            }
            let bundle_len = bundle.bytes.len();
            parts.push(
                MimePart::new("application/gzip", bundle.bytes.clone()).attachment("game.tar.gz"),
            );
            let body = MimePart::new(
                ContentType::new("multipart/mixed").attribute("boundary", boundary),
                parts,
            );
            let due_soon = to_move == Some(r.audience.as_str())
                && deadline
                    .as_ref()
                    .is_some_and(|d| within_a_day(&d.due, env.now));
            let bytes = write(headers(env, r, subject.clone(), &message_id)?.body(body))?;
            if bytes.len() > MESSAGE_LIMIT && budget == usize::MAX {
                // Too large: first the picture stays out (the copy draws it: `qijudge view
                // COPY --as AUDIENCE --format png`), then the bundle carries what fits. base64
                // writes 4 bytes for 3 and folds its lines: the bundle shrinks by what
                // overflows, and a little more.
                if with_picture {
                    with_picture = false;
                    continue;
                }
                let over_by = (bytes.len() - MESSAGE_LIMIT) * 3 / 4 + 2_048;
                budget = bundle_len.saturating_sub(over_by);
                continue;
            }
            out.push(Outgoing {
                name: name.clone(),
                carried_to: carried_to.clone(),
                files: bundle.files,
                bytes,
                digest,
                urgent: over || before_play || note.is_some() || due_soon,
            });
            break;
        }
    }
    Ok(out)
}

/// The largest message the judge sends, in bytes, where it can keep to it (a refusal or a
/// plain answer is far smaller): mail servers and clients take it whole, and a player on a slow
/// line is not kept waiting.
pub const MESSAGE_LIMIT: usize = 80_000;

/// Every seat's conditional answers that can still fire (none if the record cannot be read).
fn standing_answers(dir: &GameDir, seats: &super::Seats) -> Vec<(String, String, Vec<String>)> {
    let names = seats.names();
    let frame = seats.frame(&names);
    match qijudge_judge::signed_record::load_record(dir, &frame) {
        Ok(record) => qijudge_judge::conditional::standing(dir, &frame, &record, None),
        Err(_) => Vec::new(),
    }
}

/// Prose wrapped at 72 columns for reading in any mail client, continuation lines indented
/// like their paragraph (three spaces under a numbered step); command lines (indented five
/// spaces or more) are kept whole, to be copied as they are.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    for line in text.split('\n') {
        let indent = line.len() - line.trim_start().len();
        if indent >= 5 || line.len() <= 72 {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let numbered = line
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        let hang = " ".repeat(if numbered { 3 } else { indent });
        out.push_str(&line[..indent]);
        let mut width = indent;
        for (i, word) in line.trim_start().split(' ').enumerate() {
            if i > 0 && width + 1 + word.len() > 72 {
                out.push('\n');
                out.push_str(&hang);
                width = hang.len();
            } else if i > 0 {
                out.push(' ');
                width += 1;
            }
            out.push_str(word);
            width += word.len();
        }
        out.push('\n');
    }
    out.pop();
    out
}

/// The short form of a game id used in subjects (`lzq-1234abcd`): short enough to keep a
/// Subject on one plain header line.
pub(crate) fn short_id(game: &str) -> String {
    game.chars()
        .take(game.find('-').map_or(12, |i| i + 9))
        .collect()
}

/// What an invitation says about a game.
pub struct Invitation<'a> {
    /// The manifest's `game` value (`luzhanqi`, `xiangqi`, `liubo`).
    pub kind: &'a str,
    pub manifest: &'a str,
    /// Every seat with its player's name, in order.
    pub seats: &'a [(String, String)],
    /// Whether the game starts with secrets, and whether the seat chooses them (a setup file).
    pub secrets: bool,
    pub chosen: bool,
    /// A setup to start from, when the seat chooses one.
    pub template: Option<&'a str>,
    pub clock: Option<&'a qijudge_protocol::files::Clock>,
}

/// The invitation to one seat: the game, the judge's address, the manifest (attached) and the
/// steps from an empty folder to the first move.
pub fn invitation(env: &Envelope, to: &Recipient, inv: &Invitation) -> Result<Outgoing> {
    let seat = to.audience.as_str();
    let copy = short_id(env.game);
    let others: Vec<String> = inv
        .seats
        .iter()
        .filter(|(s, _)| s != seat)
        .map(|(s, name)| format!("{s} ({name})"))
        .collect();
    let mut body = format!(
        "Hello {},\n\nyou are invited to a game of {} judged by qijudge: game {}, where you play \
         {seat} against {}. The judge is {}: send everything for this game there, as \
         attachments or pasted into a plain-text message.\n",
        to.name,
        inv.kind,
        env.game,
        others.join(", "),
        env.from
    );
    if let Some(c) = inv.clock {
        body.push_str(&format!(
            "Each move is due {} after the one before it, with {} of grace.\n",
            qijudge_judge::clock::duration_words(c.move_minutes),
            qijudge_judge::clock::duration_words(c.grace_minutes)
        ));
    }
    body.push_str(&format!(
        "\n1. Make your copy of the game: a folder holding the attached game.toml, e.g.\n\
         \x20    mkdir {copy} && cp game.toml {copy}/\n\
         \x20  Check that the key game.toml names for {seat} is yours (an OpenSSH Ed25519 key).\n"
    ));
    if inv.secrets {
        let file = if inv.chosen { " setup.toml" } else { "" };
        if inv.chosen {
            body.push_str(
                "\n2. Choose your setup: edit the attached setup-template.toml (its comments say \
                 how) and save it as setup.toml.\n",
            );
        } else {
            body.push_str("\n2. Your secret is drawn for you by qijudge setup.\n");
        }
        body.push_str(&format!(
            "\n3. Commit to it:\n\
             \x20    qijudge setup {copy} --as {seat} --key ~/.ssh/id_ed25519{file}\n\
             \x20  Send {copy}/commitments/{seat}.toml and its .sig to the judge first. Then \
             send {copy}/setups/{seat}.toml: only the judge reads it, and it is revealed to \
             everyone after the end.\n"
        ));
    }
    body.push_str(&format!(
        "\n{}. When it is your move, the judge's message says so. Take that message into your \
         copy (qijudge inbox {copy} MESSAGE-FILE), list your moves (qijudge moves {copy} --as \
         {seat}), write yours (qijudge move {copy} --as {seat} --key ~/.ssh/id_ed25519 MOVE) \
         and send the move file and its .sig to the judge.\n\
         \nEach message's game.tar.gz carries the game's files you have not had yet, so that \
         your copy holds the whole game: after the end, qijudge verify checks it. A copy that \
         missed a message gets every file again by mailing `resend` to the judge.\n",
        if inv.secrets { 4 } else { 2 }
    ));
    let body = wrap(&body);
    let said = [seat, &to.addresses.join(","), inv.manifest, &body].join("\0");
    let digest = qijudge_rules::hash::sha256_tagged(said.as_bytes());
    let id = format!("{}.{seat}.invite.{}", env.game, hex_prefix(&digest, 8));
    let subject = format!(
        "[qijudge {}] invitation: you play {seat} at {}",
        short_id(env.game),
        inv.kind
    );
    let mut parts = vec![
        MimePart::new("text/plain", body),
        MimePart::new("application/toml", inv.manifest.as_bytes().to_vec()).attachment("game.toml"),
    ];
    if let (Some(t), true) = (inv.template, inv.chosen) {
        parts.push(
            MimePart::new("application/toml", t.as_bytes().to_vec())
                .attachment("setup-template.toml"),
        );
    }
    let body = MimePart::new(
        ContentType::new("multipart/mixed").attribute("boundary", format!("qijudge-invite-{seat}")),
        parts,
    );
    Ok(Outgoing {
        name: format!("{seat}.invite.eml"),
        bytes: write(headers(env, to, subject, &id)?.body(body))?,
        digest,
        carried_to: String::new(),
        files: Default::default(),
        urgent: true,
    })
}

/// A reminder to the seat to move: its deadline and what to do.
pub fn reminder(
    env: &Envelope,
    to: &Recipient,
    d: &qijudge_judge::clock::Deadline,
) -> Result<Outgoing> {
    let seat = to.audience.as_str();
    let subject = match d.state {
        "on-time" => format!(
            "[qijudge {}] reminder: your move for ply {} is due by {}",
            short_id(env.game),
            d.ply,
            d.due
        ),
        _ => format!(
            "[qijudge {}] reminder: your move for ply {} is late; the grace ends {}",
            short_id(env.game),
            d.ply,
            d.grace_until
        ),
    };
    let body = format!(
        "Game {}: {seat} to move (ply {}).\n{}\n\nTake the judge's last message into your copy \
         (qijudge inbox YOUR-COPY MESSAGE-FILE), write your move (qijudge move YOUR-COPY --as \
         {seat} --key YOUR-KEY MOVE) and send the move file and its .sig to {}.\n",
        env.game,
        d.ply,
        deadline_line(d, seat, seat),
        env.from
    );
    let body = wrap(&body);
    let said = [seat, &to.addresses.join(","), &d.ply.to_string(), d.state].join("\0");
    let digest = qijudge_rules::hash::sha256_tagged(said.as_bytes());
    let id = format!("{}.{seat}.reminder.{}", env.game, hex_prefix(&digest, 8));
    Ok(Outgoing {
        name: format!("{seat}.reminder.eml"),
        bytes: write(headers(env, to, subject, &id)?.text_body(body))?,
        digest,
        carried_to: String::new(),
        files: Default::default(),
        urgent: true,
    })
}

/// Pipes a message to a command such as `sendmail -t` or `msmtp -t`. A command that fails is
/// reported with its exit status (even when it stopped reading the message early).
pub fn send(command: &str, message: &[u8]) -> Result<()> {
    use std::io::Write;
    let failed = |why: String| Error::Io(format!("--sendmail {command:?}: {why}"));
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| failed(e.to_string()))?;
    let written = child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(message))
        .unwrap_or(Ok(()));
    let status = child.wait().map_err(|e| failed(e.to_string()))?;
    if !status.success() {
        let how = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => format!("was stopped ({status})"),
        };
        return Err(failed(format!(
            "{how}; the message was not sent (it is in the outbox folder, if one was given)"
        )));
    }
    written.map_err(|e| failed(format!("did not read the whole message ({e})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_that_could_forge_headers_are_refused() {
        assert!(valid_address("alice@example.org"));
        for bad in [
            "alice@example.org\r\nBcc: eve@example.org",
            "alice example@example.org",
            "<alice@example.org>",
            "alice",
            "a@b",
            "a@@example.org",
        ] {
            assert!(!valid_address(bad), "{bad:?}");
        }
    }

    #[test]
    fn only_clean_message_ids_are_copied() {
        assert!(valid_message_id("CAF=x+y.1234@mail.gmail.com"));
        for bad in [
            "",
            "no-at-sign",
            "a@",
            "@b",
            "a b@example.org",
            "a\0b@example.org",
            "a@b@c",
            "a@example.org>\r\nBcc: eve@example.org",
            "<a@example.org>",
        ] {
            assert!(!valid_message_id(bad), "{bad:?}");
        }
        assert!(!valid_message_id(&format!(
            "{}@example.org",
            "x".repeat(250)
        )));
    }

    #[test]
    fn prose_is_wrapped_and_commands_are_not() {
        let long = "word ".repeat(30);
        let command = format!("     qijudge {}", "x".repeat(80));
        let wrapped = wrap(&format!("1. {long}\n{command}"));
        assert!(
            wrapped.lines().all(|l| l.len() <= 72 || l == command),
            "{wrapped}"
        );
        assert!(
            wrapped.lines().nth(1).unwrap().starts_with("   word"),
            "{wrapped}"
        );
        assert!(wrapped.ends_with(&command));
    }

    /// The body of south's refusal notice for `reason`, as it is sent.
    fn notice_body(reason: &str) -> String {
        let env = Envelope {
            game: "lzq-2026-0001",
            from: "judge@example.org",
            now: "2026-11-28T12:00:00Z",
            answers: None,
        };
        let to = Recipient {
            audience: "south".into(),
            name: "Alice".into(),
            addresses: vec!["alice@example.org".into()],
        };
        let bytes = notice(&env, &to, reason, false).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        text.split_once("\r\n\r\n").unwrap().1.to_string()
    }

    #[test]
    fn a_refusal_notice_is_wrapped_at_72_columns() {
        let reason = format!(
            "moves/0003-south.toml: field move: {}",
            "too far ".repeat(20)
        );
        let body = notice_body(&reason);
        let body = body.as_str();
        assert!(body.lines().all(|l| l.len() <= 72), "{body}");
        assert!(!body.contains("=\r\n"), "no soft line breaks: {body}");
        assert!(body.contains("too far too far"), "{body}");
    }

    /// Before play, north's message once south has committed: north is told the game waits
    /// for its own commitment, and is not told that the judge waits for south; once every
    /// seat has committed, the secrets still missing are named.
    #[test]
    fn the_setup_steps_name_who_the_game_waits_for() {
        let seats = |a: Stage, b: Stage| vec![("south".to_string(), a), ("north".to_string(), b)];
        let north = setup_steps(&seats(Stage::Committed, Stage::Nothing), "north", "j@x");
        assert!(north.contains("south committed already: the game waits for your commitment"));
        assert!(!north.contains("waits for the"), "{north}");
        let south = setup_steps(&seats(Stage::Committed, Stage::Nothing), "south", "j@x");
        assert!(
            south.contains("still waits for the commitment of north"),
            "{south}"
        );
        let south = setup_steps(&seats(Stage::Committed, Stage::Accepted), "south", "j@x");
        assert!(!south.contains("still waits"), "{south}");
        let north = setup_steps(&seats(Stage::Committed, Stage::Accepted), "north", "j@x");
        assert!(
            north.contains("still waits for the secret of south"),
            "{north}"
        );
    }

    /// A move mailed without its signature: the notice gives the reason and its hint first,
    /// and `--replace` (rewriting the move) only after, for a move the rules refused.
    #[test]
    fn a_missing_signature_notice_opens_with_the_reason() {
        let reason = "your message: refused: message: field signature: moves/0002-black.toml \
                      comes without its signature\n  hint: send the .sig file with it";
        let body = notice_body(reason);
        let body = body.as_str();
        let at = |s: &str| body.find(s).unwrap_or_else(|| panic!("{s}: {body}"));
        assert!(
            at("comes without its signature") < at("--replace"),
            "{body}"
        );
        assert!(at("send the .sig file") < at("--replace"), "{body}");
    }
}
