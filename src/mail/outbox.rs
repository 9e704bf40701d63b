//! Outgoing messages: one per seat with that seat's signed view, and one for spectators with
//! the public view. Every header is built from checked values; the bytes are deterministic.

use crate::error::{Error, Result};
use crate::store::{GameDir, RECORD_LIMIT};
use mail_builder::headers::content_type::ContentType;
use mail_builder::mime::MimePart;
use mail_builder::MessageBuilder;

/// Whether a text can go into a header: an address `local@domain` without spaces, quotes,
/// angle brackets or control characters.
pub fn valid_address(a: &str) -> bool {
    let ok_char = |c: char| c.is_ascii_graphic() && !"<>()[]\\,;:\"".contains(c);
    a.len() <= 254 && a.matches('@').count() == 1 && a.chars().all(ok_char) && {
        let (local, domain) = a.split_once('@').unwrap_or(("", ""));
        !local.is_empty()
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
    }
}

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
    /// The Message-ID of the message that brought the move, when there was one.
    pub in_reply_to: Option<&'a str>,
}

/// A short state line from a view: whose turn, or the result.
fn state_line(view: &serde_json::Value) -> String {
    let plies = view
        .get("ply")
        .or_else(|| view.get("turns"))
        .and_then(|v| v.as_u64())
        .unwrap_or(0);
    if let Some(r) = view.get("result").filter(|r| !r.is_null()) {
        let winner = r.get("winner").and_then(|w| w.as_str());
        return match winner {
            Some(w) => format!("ply {plies}: game over, {w} wins"),
            None => format!("ply {plies}: game over, draw"),
        };
    }
    match view.get("to_move").and_then(|t| t.as_str()) {
        Some(seat) => format!("ply {plies}: {seat} to move"),
        None => format!("ply {plies}"),
    }
}

/// One outgoing message: its file name, its bytes, and a digest of what it says to its
/// recipient (the view, the refusal note, the addresses; not the date), so that a message that
/// would say nothing new is not sent again.
pub struct Outgoing {
    pub name: String,
    pub bytes: Vec<u8>,
    pub digest: String,
}

/// RFC 3834: every message the judge sends is marked as sent by a program, so that
/// well-behaved responders never answer it.
fn auto_submitted(env: &Envelope) -> &'static str {
    match env.in_reply_to {
        Some(_) => "auto-replied",
        None => "auto-generated",
    }
}

/// The headers every message of the judge has: From, To, Subject, a Message-ID made of `id` and
/// the judge's domain, the judge's Date, Auto-Submitted and, when it answers one, In-Reply-To.
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
    let builder = MessageBuilder::new()
        .from(("qijudge", env.from))
        .to(addresses)
        .subject(subject)
        .message_id(format!("{id}@{domain}"))
        .date(time)
        .header(
            "Auto-Submitted",
            mail_builder::headers::text::Text::new(auto_submitted(env)),
        );
    Ok(match env.in_reply_to {
        Some(reply) => builder.in_reply_to(reply.to_string()),
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

/// A private notice to one seat: why the file in its message was refused.
pub fn notice(env: &Envelope, to: &Recipient, text: &str) -> Result<Vec<u8>> {
    let digest = crate::protocol::hash::sha256_tagged(text.as_bytes());
    let id = format!(
        "{}.{}.refused.{}",
        env.game,
        to.audience,
        hex_prefix(&digest, 16)
    );
    let subject = format!("[qijudge] refused: {}", to.audience);
    let body = format!(
        "Your message was refused; nothing from it was taken, and nothing is lost.\n\n{}\n",
        text.trim_end()
    );
    write(headers(env, to, subject, &id)?.text_body(body))
}

/// Builds the messages for the current views of a judged game directory.
pub fn messages(dir: &GameDir, env: &Envelope, recipients: &[Recipient]) -> Result<Vec<Outgoing>> {
    let mut out = Vec::new();
    for r in recipients {
        let Some(json) = dir.read_optional(&format!("views/{}.json", r.audience), RECORD_LIMIT)?
        else {
            continue;
        };
        let text = dir.read(&format!("views/{}.txt", r.audience), RECORD_LIMIT)?;
        let json_sig = dir.read(&format!("views/{}.json.sig", r.audience), RECORD_LIMIT)?;
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
        // Short enough to stay one plain header line: game id up to 8 hex digits.
        let short: String = env
            .game
            .chars()
            .take(env.game.find('-').map_or(12, |i| i + 9))
            .collect();
        let subject = format!("[qijudge {short}] {}", state_line(&view));
        // A seat's pending refusal comes first in its own message, and only there.
        let note = dir.read_optional(
            &format!("views/{}.refusal.txt", r.audience),
            crate::store::SMALL_FILE_LIMIT,
        )?;
        let said = [
            r.audience.as_str(),
            &r.addresses.join(","),
            &json,
            note.as_deref().unwrap_or(""),
        ]
        .join("\0");
        let digest = crate::protocol::hash::sha256_tagged(said.as_bytes());
        let text = match &note {
            Some(n) => format!(
                "Your last file was refused and set aside; send a corrected one.\n{}\n\n{text}",
                n.trim_end()
            ),
            None => text,
        };
        let message_id = format!(
            "{}.{}.{head}.{}",
            env.game,
            r.audience,
            hex_prefix(&digest, 8)
        );
        let boundary = format!("qijudge-{head}-{}", r.audience);
        let mut parts = vec![
            MimePart::new("text/plain", text),
            MimePart::new("application/json", json.into_bytes())
                .attachment(format!("{}.json", r.audience)),
            MimePart::new("application/octet-stream", json_sig.into_bytes())
                .attachment(format!("{}.json.sig", r.audience)),
        ];
        // The record, so players' tools can answer its head.
        for name in ["record.jsonl", "record.sig"] {
            if let Some(body) = dir.read_optional(name, RECORD_LIMIT)? {
                parts.push(
                    MimePart::new("application/octet-stream", body.into_bytes()).attachment(name),
                );
            }
        }
        for (ext, mime) in [("svg", "image/svg+xml"), ("png", "image/png")] {
            // Per audience (hidden pieces), else the one board for everyone.
            let own = dir.path(&format!("views/{}.{ext}", r.audience));
            let shared = dir.path(&format!("views/board.{ext}"));
            if let Ok(bytes) = std::fs::read(&own).or_else(|_| std::fs::read(&shared)) {
                parts.push(MimePart::new(mime, bytes).attachment(format!("board.{ext}")));
            }
        }
        let body = MimePart::new(
            ContentType::new("multipart/mixed").attribute("boundary", boundary),
            parts,
        );
        out.push(Outgoing {
            name: format!("{}.eml", r.audience),
            bytes: write(headers(env, r, subject, &message_id)?.body(body))?,
            digest,
        });
    }
    Ok(out)
}

/// Pipes a message to a command such as `sendmail -t` or `msmtp -t`.
pub fn send(command: &str, message: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| Error::Io(format!("--sendmail {command:?}: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(message)
            .map_err(|e| Error::Io(format!("--sendmail {command:?}: {e}")))?;
    }
    let status = child
        .wait()
        .map_err(|e| Error::Io(format!("--sendmail {command:?}: {e}")))?;
    if !status.success() {
        return Err(Error::Io(format!(
            "--sendmail {command:?} failed: {status}"
        )));
    }
    Ok(())
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
}
