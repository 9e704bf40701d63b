//! Taking signed files out of e-mail: RFC 5322 messages or mboxes, attachments in any transfer
//! encoding or files pasted into a `text/plain` body. Quoted replies and signatures below `-- `
//! are ignored; the sender is whoever the file's signature says, never the From header.

use mail_parser::{MessageParser, MimeHeaders, PartType};

/// A qijudge file found in a message: its text and, when it came with one, its signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub text: String,
    pub signature: Option<String>,
}

/// What a message held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extracted {
    /// The message's Message-ID (to answer it).
    pub message_id: Option<String>,
    /// The first address of its From header (never trusted as the sender: signatures are).
    pub from: Option<String>,
    /// Why it was sent by a program (an auto-reply, a list), if it was: the judge ignores
    /// such messages; a player's copy takes the judge's own (which are marked so).
    pub automatic: Option<String>,
    pub files: Vec<Found>,
    /// Game bundles (a finished game, for a player's copy): see [`crate::bundle`].
    pub archives: Vec<Vec<u8>>,
}

/// Why a message gives nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InboxError {
    /// Not an RFC 5322 message, or a MIME structure that does not hold together.
    Broken(String),
    /// Only an HTML body: files must come as attachments or in plain text.
    HtmlOnly,
    /// No qijudge file in it.
    Nothing,
    /// Sent by a program, not a person (RFC 3834 `Auto-Submitted`, a bulk or list
    /// `Precedence`, a vacation reply): never taken, never answered, so no loop can start.
    Automatic(String),
}

impl std::fmt::Display for InboxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InboxError::Broken(why) => write!(f, "not a readable e-mail: {why}"),
            InboxError::HtmlOnly => write!(
                f,
                "holds only an HTML body: send the move file as an attachment or as plain text"
            ),
            InboxError::Nothing => write!(
                f,
                "holds no qijudge file (no line `format = \"qijudge/…\"`)"
            ),
            InboxError::Automatic(why) => write!(f, "sent by a program ({why}): ignored"),
        }
    }
}

/// Splits an mbox into messages (lines `From ` start one); a single message is returned as is.
pub fn split_mbox(bytes: &[u8]) -> Result<Vec<std::borrow::Cow<'_, [u8]>>, InboxError> {
    if !bytes.starts_with(b"From ") {
        return Ok(vec![std::borrow::Cow::Borrowed(bytes)]);
    }
    let messages = bytes
        .split(|&b| b == b'\n')
        .filter(|line| line.starts_with(b"From "))
        .count();
    if messages > MAX_MBOX_MESSAGES {
        return Err(InboxError::Broken(format!(
            "an mbox of {messages} messages; at most {MAX_MBOX_MESSAGES} are read at once"
        )));
    }
    let mut out = Vec::new();
    let reader = std::io::BufReader::new(bytes);
    for m in mail_parser::mailbox::mbox::MessageIterator::new(reader) {
        match m {
            Ok(m) => out.push(m.unwrap_contents().into()),
            Err(_) => out.push(Vec::new().into()),
        }
    }
    Ok(out)
}

const SIG_BEGIN: &str = "-----BEGIN SSH SIGNATURE-----";
const SIG_END: &str = "-----END SSH SIGNATURE-----";

/// The text a reader meant: without quoted lines (`>`) and without the signature block below a
/// `-- ` line. Line ends become LF.
fn own_text(text: &str) -> String {
    let mut out = String::new();
    for line in text.replace("\r\n", "\n").split('\n') {
        if line == "-- " {
            break;
        }
        if line.trim_start().starts_with('>') {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Files and signature blocks in one text, in order.
fn scan(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let lines: Vec<&str> = text.split('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_end();
        if line.starts_with("format = \"qijudge/") {
            let mut body = String::new();
            while i < lines.len() {
                let l = lines[i].trim_end();
                if l.is_empty() || l == SIG_BEGIN {
                    break;
                }
                body.push_str(l);
                body.push('\n');
                i += 1;
            }
            blocks.push(Block::File(body));
            continue;
        }
        if line == SIG_BEGIN {
            let mut sig = String::new();
            while i < lines.len() {
                let l = lines[i].trim();
                sig.push_str(l);
                sig.push('\n');
                i += 1;
                if l == SIG_END {
                    break;
                }
            }
            // Re-folded armor (64 or 76 columns, indented) is put back in canonical form: the
            // signature bytes are what is checked.
            let sig = qijudge_protocol::signing::canonical_armor(&sig).unwrap_or(sig);
            blocks.push(Block::Signature(sig));
            continue;
        }
        i += 1;
    }
    blocks
}

#[derive(Debug)]
enum Block {
    File(String),
    Signature(String),
}

/// At most this many lines starting with `--` (MIME delimiters, and a few others) in one
/// message: a person's message has a handful; a "part bomb" of millions of empty parts is refused
/// before the MIME parser sees it (it would take hundreds of megabytes).
pub const MAX_DELIMITERS: usize = 1000;

/// At most this many header lines in one message, parts' headers included (a person's
/// message has a few hundred; each costs the parser about 120 bytes).
pub const MAX_HEADER_LINES: usize = 20_000;

/// At most this many messages in one mbox (each is judged on its own).
pub const MAX_MBOX_MESSAGES: usize = 10_000;

/// Forwarded messages are read this deep (`message/rfc822` inside `message/rfc822`…).
pub const MAX_DEPTH: usize = 3;

/// Takes the qijudge files out of one message.
pub fn extract(bytes: &[u8]) -> Result<Extracted, InboxError> {
    if bytes.is_empty() {
        return Err(InboxError::Broken("empty".into()));
    }
    prescan(bytes).map_err(InboxError::Broken)?;
    let message = MessageParser::default()
        .parse(bytes)
        .ok_or_else(|| InboxError::Broken("no header block".into()))?;
    if message.headers().is_empty() {
        return Err(InboxError::Broken("no headers".into()));
    }
    let automatic = is_automatic(&message);
    let mut seen = Seen::default();
    let mut blocks = Vec::new();
    collect(&message, message.raw_message(), 0, &mut blocks, &mut seen)?;
    let files = pair(blocks);
    if files.is_empty() && seen.archives.is_empty() {
        if let Some(why) = automatic {
            return Err(InboxError::Automatic(why));
        }
        return Err(if seen.html && !seen.plain_text && seen.attachments == 0 {
            InboxError::HtmlOnly
        } else {
            InboxError::Nothing
        });
    }
    Ok(Extracted {
        message_id: message.message_id().map(str::to_string),
        from: message
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(str::to_ascii_lowercase),
        automatic,
        files,
        archives: seen.archives,
    })
}

/// What the MIME parser would be asked to build, counted in one pass before it runs (without
/// allocating per line): MIME delimiters and header lines, whose number sets the parser's
/// memory (about 120 bytes per header, more per part), and whether a `message/*` part comes in
/// base64 or quoted-printable, which the parser would decode and parse out of sight of these
/// counts (RFC 2046 allows only 7bit, 8bit or binary there, and no client sends one).
fn prescan(bytes: &[u8]) -> Result<(), String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Field {
        ContentType,
        Encoding,
        Other,
    }
    // Header blocks: at the start, after a delimiter line (`--…`), and after the header block of
    // a `message/*` part (the forwarded message's own headers).
    let mut in_headers = true;
    let (mut message, mut encoded) = (false, false);
    let mut field = Field::Other;
    let mut value: Vec<u8> = Vec::new();
    let (mut delimiters, mut header_lines) = (0usize, 0usize);
    let settle = |field: Field, value: &[u8], message: &mut bool, encoded: &mut bool| {
        let v = String::from_utf8_lossy(value).trim().to_ascii_lowercase();
        match field {
            Field::ContentType => *message |= v.starts_with("message/"),
            Field::Encoding => {
                *encoded |= v.starts_with("base64") || v.starts_with("quoted-printable")
            }
            Field::Other => {}
        }
    };
    for line in bytes.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.starts_with(b"--") {
            delimiters += 1;
            if delimiters > MAX_DELIMITERS {
                break;
            }
        }
        if !in_headers {
            if line.starts_with(b"--") {
                in_headers = true;
                (message, encoded, field) = (false, false, Field::Other);
                value.clear();
            }
            continue;
        }
        if line.is_empty() {
            settle(field, &value, &mut message, &mut encoded);
            if message && encoded {
                return Err(
                    "a forwarded message (message/*) in base64 or quoted-printable, \
                    which RFC 2046 does not allow: forward it inline or as a plain attachment"
                        .into(),
                );
            }
            // A message part's body starts with the forwarded message's headers.
            in_headers = message;
            (message, encoded, field) = (false, false, Field::Other);
            value.clear();
            continue;
        }
        header_lines += 1;
        if header_lines > MAX_HEADER_LINES {
            break;
        }
        if line[0] == b' ' || line[0] == b'\t' {
            if field != Field::Other && value.len() < 256 {
                value.extend_from_slice(&line[..line.len().min(256)]);
            }
            continue;
        }
        settle(field, &value, &mut message, &mut encoded);
        value.clear();
        let name_end = line.iter().position(|&b| b == b':');
        field = match name_end.map(|i| &line[..i]) {
            Some(n) if n.eq_ignore_ascii_case(b"content-type") => Field::ContentType,
            Some(n) if n.eq_ignore_ascii_case(b"content-transfer-encoding") => Field::Encoding,
            _ => Field::Other,
        };
        if let (Some(i), true) = (name_end, field != Field::Other) {
            let rest = &line[i + 1..];
            value.extend_from_slice(&rest[..rest.len().min(256)]);
        }
    }
    if delimiters > MAX_DELIMITERS {
        return Err(format!(
            "more than {MAX_DELIMITERS} MIME part delimiters (lines starting with --)"
        ));
    }
    if header_lines > MAX_HEADER_LINES {
        return Err(format!("more than {MAX_HEADER_LINES} header lines"));
    }
    settle(field, &value, &mut message, &mut encoded);
    if in_headers && message && encoded {
        return Err("a forwarded message (message/*) in base64 or quoted-printable".into());
    }
    Ok(())
}

/// What kinds of parts a message had (to say why nothing was found).
#[derive(Default)]
struct Seen {
    archives: Vec<Vec<u8>>,
    plain_text: bool,
    html: bool,
    attachments: usize,
}

/// The blocks of one message (and of the messages forwarded in it), in order: plain-text bodies
/// first, then attachments. `raw` is the whole message as received: the parser gives the parts
/// of a forwarded message their places in it, not in the forwarded message's own bytes.
fn collect(
    message: &mail_parser::Message,
    raw: &[u8],
    depth: usize,
    blocks: &mut Vec<Block>,
    seen: &mut Seen,
) -> Result<(), InboxError> {
    for part in &message.parts {
        if let Some(ct) = part.content_type() {
            if ct.ctype().eq_ignore_ascii_case("multipart") && ct.attribute("boundary").is_none() {
                return Err(InboxError::Broken(
                    "a multipart part without a boundary".into(),
                ));
            }
        }
    }
    for part in message.text_bodies() {
        if part.is_text_html() {
            continue;
        }
        if let Some(text) = part_text(raw, part) {
            seen.plain_text = true;
            blocks.extend(scan(&own_text(&text)));
        }
    }
    for part in message.attachments() {
        seen.attachments += 1;
        if let PartType::Message(inner) = &part.body {
            // A message forwarded as an attachment: its files count as the sender's (the
            // signatures say whose they are).
            if depth + 1 < MAX_DEPTH {
                collect(inner, raw, depth + 1, blocks, seen)?;
            }
            continue;
        }
        if let Some(bytes) = part_bytes(raw, part).filter(|b| super::bundle::is_archive(b)) {
            seen.archives.push(bytes.into_owned());
            continue;
        }
        let Some(text) = part_text(raw, part) else {
            continue;
        };
        // Attachments are whole files: no quoting to strip, but the same scanner. The judge's
        // record and views travel as attachments too (for the players' copies).
        if text.starts_with("{\"seq\":0,") || is_json_file(&text) {
            blocks.push(Block::File(text));
        } else {
            blocks.extend(scan(&text));
        }
    }
    seen.html |= message.html_bodies().any(|p| p.is_text_html());
    Ok(())
}

/// A JSON file of the judge's (a view): an object whose `format` is a qijudge format.
fn is_json_file(text: &str) -> bool {
    text.starts_with("{\n  \"format\": \"qijudge/")
}

/// The text of a part, LF line ends, format=flowed undone. A file is taken by its bytes: when
/// they are UTF-8 they are used whatever the charset label says (a UTF-8 file labelled
/// ISO-8859-1 is common); otherwise the label decides.
fn part_text(raw: &[u8], part: &mail_parser::MessagePart) -> Option<String> {
    let labelled = match &part.body {
        PartType::Text(t) => Some(t.to_string()),
        PartType::Binary(_) | PartType::InlineBinary(_) => None,
        _ => return None,
    };
    let bytes = part_bytes(raw, part);
    let text = match bytes.as_deref().map(std::str::from_utf8) {
        Some(Ok(text)) => text.to_string(),
        _ => labelled?,
    };
    let text = text.replace("\r\n", "\n");
    let ct = part.content_type();
    let flowed = ct
        .and_then(|c| c.attribute("format"))
        .is_some_and(|f| f.eq_ignore_ascii_case("flowed"));
    if !flowed {
        return Some(text);
    }
    let delsp = ct
        .and_then(|c| c.attribute("delsp"))
        .is_some_and(|d| d.eq_ignore_ascii_case("yes"));
    Some(unflow(&text, delsp))
}

/// The bytes of a part: binary parts as the parser decoded them, text parts decoded again from
/// the raw message without the charset conversion.
fn part_bytes<'a>(
    raw: &[u8],
    part: &'a mail_parser::MessagePart,
) -> Option<std::borrow::Cow<'a, [u8]>> {
    match &part.body {
        PartType::Binary(b) | PartType::InlineBinary(b) => Some(std::borrow::Cow::Borrowed(b)),
        PartType::Text(_) => transfer_decoded(raw, part).map(std::borrow::Cow::Owned),
        _ => None,
    }
}

/// The body of a part with only its transfer encoding undone (no charset conversion).
fn transfer_decoded(raw: &[u8], part: &mail_parser::MessagePart) -> Option<Vec<u8>> {
    use mail_parser::decoders::{base64::base64_decode, quoted_printable::quoted_printable_decode};
    let raw = raw.get(part.offset_body as usize..part.offset_end as usize)?;
    match part.encoding {
        mail_parser::Encoding::None => Some(raw.to_vec()),
        mail_parser::Encoding::Base64 => base64_decode(raw),
        mail_parser::Encoding::QuotedPrintable => quoted_printable_decode(raw),
    }
}

/// Undoes RFC 3676 format=flowed: a line ending in a space continues on the next line (the
/// space removed too with DelSp=yes); a leading space added for stuffing is removed; quoted
/// lines keep their `>` depth; the signature separator `-- ` is never joined.
fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::new();
    // A flowed paragraph not yet ended, with its quote depth.
    let mut open: Option<(usize, String)> = None;
    for line in text.lines() {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let content = &line[depth..];
        let content = content.strip_prefix(' ').unwrap_or(content);
        let mut paragraph = match open.take() {
            Some((d, so_far)) if d == depth => so_far,
            Some((d, so_far)) => {
                emit(&mut out, d, &so_far);
                String::new()
            }
            None => String::new(),
        };
        if content.ends_with(' ') && content != "-- " {
            let kept = if delsp {
                &content[..content.len() - 1]
            } else {
                content
            };
            paragraph.push_str(kept);
            open = Some((depth, paragraph));
        } else {
            paragraph.push_str(content);
            emit(&mut out, depth, &paragraph);
        }
    }
    if let Some((d, so_far)) = open {
        emit(&mut out, d, &so_far);
    }
    out
}

fn emit(out: &mut String, depth: usize, line: &str) {
    if depth > 0 {
        out.push_str(&">".repeat(depth));
        out.push(' ');
    }
    out.push_str(line);
    out.push('\n');
}

/// Pairs each file with the signature block that follows it; a signature attached before its
/// file (attachment order) goes to an unsigned file.
fn pair(blocks: Vec<Block>) -> Vec<Found> {
    let mut files: Vec<Found> = Vec::new();
    let mut pending: Option<String> = None;
    let mut signatures: Vec<String> = Vec::new();
    for b in blocks {
        match b {
            Block::File(text) => {
                if let Some(t) = pending.take() {
                    files.push(Found {
                        text: t,
                        signature: None,
                    });
                }
                pending = Some(text);
            }
            Block::Signature(sig) => match pending.take() {
                Some(t) => files.push(Found {
                    text: t,
                    signature: Some(sig),
                }),
                None => signatures.push(sig),
            },
        }
    }
    if let Some(t) = pending {
        files.push(Found {
            text: t,
            signature: None,
        });
    }
    for sig in signatures {
        if let Some(f) = files.iter_mut().find(|f| f.signature.is_none()) {
            f.signature = Some(sig);
        }
    }
    files.dedup();
    files
}

/// Why a message was sent by a program rather than a person, if it was (RFC 3834 and the
/// headers vacation responders and list servers add).
pub fn is_automatic(message: &mail_parser::Message) -> Option<String> {
    let raw = |name: &str| {
        message
            .header_raw(name)
            .map(|v| v.trim().to_ascii_lowercase())
    };
    if let Some(v) = raw("Auto-Submitted").filter(|v| !v.starts_with("no")) {
        return Some(format!("Auto-Submitted: {v}"));
    }
    if let Some(v) =
        raw("Precedence").filter(|v| ["bulk", "junk", "list", "auto_reply"].contains(&v.as_str()))
    {
        return Some(format!("Precedence: {v}"));
    }
    ["X-Autoreply", "X-Autorespond"]
        .into_iter()
        .find(|h| raw(h).is_some())
        .map(|h| format!("{h} header"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOVE: &str = "format = \"qijudge/move/1\"\ngame = \"x\"\nply = 1\n";
    const SIG: &str = "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n";

    #[test]
    fn messages_sent_by_programs_are_marked_and_people_s_are_not() {
        let with = |header: &str| {
            let mail = format!(
                "From: a@example.org\r\nTo: j@example.org\r\nSubject: re\r\n{header}\r\n\r\n{}{}",
                MOVE.replace('\n', "\r\n"),
                SIG.replace('\n', "\r\n"),
            );
            extract(mail.as_bytes())
        };
        for (header, automatic) in [
            ("Auto-Submitted: auto-replied", true),
            ("Auto-Submitted: auto-generated", true),
            ("Auto-Submitted: no", false),
            ("Precedence: bulk", true),
            ("Precedence: list", true),
            ("Precedence: first-class", false),
            ("X-Autoreply: yes", true),
            ("X-Autorespond: on", true),
            ("X-Mailer: Thunderbird", false),
        ] {
            let found = with(header).unwrap();
            assert_eq!(found.automatic.is_some(), automatic, "{header}");
            assert_eq!(found.files.len(), 1, "{header}");
            assert_eq!(found.from.as_deref(), Some("a@example.org"));
        }
        // A program's message with no file says so, rather than "holds no qijudge file".
        let bounce =
            "From: MAILER-DAEMON@x.org\r\nAuto-Submitted: auto-replied\r\n\r\nundeliverable\r\n";
        assert!(matches!(
            extract(bounce.as_bytes()),
            Err(InboxError::Automatic(_))
        ));
    }

    #[test]
    fn a_file_pasted_in_plain_text_is_found_and_quotes_are_not() {
        let mail = format!(
            "From: a@example.org\r\nTo: j@example.org\r\nSubject: move\r\nMessage-ID: <1@x>\r\n\r\nHere:\r\n\r\n{}{}\r\n> {}\r\n-- \r\n{}",
            MOVE.replace('\n', "\r\n"),
            SIG.replace('\n', "\r\n"),
            "format = \"qijudge/move/1\"",
            "format = \"qijudge/move/1\"\r\n"
        );
        let e = extract(mail.as_bytes()).unwrap();
        assert_eq!(e.files.len(), 1);
        assert_eq!(e.files[0].text, MOVE);
        assert_eq!(e.files[0].signature.as_deref(), Some(SIG));
        assert_eq!(e.message_id.as_deref(), Some("1@x"));
    }

    #[test]
    fn html_only_and_empty_messages_are_refused() {
        let html =
            "From: a@x\r\nContent-Type: text/html\r\n\r\n<p>format = \"qijudge/move/1\"</p>\r\n";
        assert_eq!(extract(html.as_bytes()), Err(InboxError::HtmlOnly));
        let nothing = "From: a@x\r\nSubject: hi\r\n\r\nhello\r\n";
        assert_eq!(extract(nothing.as_bytes()), Err(InboxError::Nothing));
        assert!(matches!(extract(b""), Err(InboxError::Broken(_))));
    }

    #[test]
    fn flowed_text_is_joined_unstuffed_and_keeps_its_quotes() {
        // DelSp=no: the space before the break belongs to the text.
        let thunderbird =
            "previous = \r\n\"sha256:ab\"\n From the start\n>> quoted \n>> on\n-- \nsig\n";
        assert_eq!(
            unflow(&thunderbird.replace("\r\n", "\n"), false),
            "previous = \"sha256:ab\"\nFrom the start\n>> quoted on\n-- \nsig\n"
        );
        // DelSp=yes: the space before the break was added by the sender, inside a word.
        let apple = "game = \"lzq-12 \n34\"\nply = 1\n";
        assert_eq!(unflow(apple, true), "game = \"lzq-1234\"\nply = 1\n");
        // A paragraph that changes quote depth ends there.
        assert_eq!(unflow("> a \nb\n", false), "> a \nb\n");
    }

    #[test]
    fn a_message_part_in_base64_is_refused_before_parsing() {
        for header in [
            "Content-Type: message/rfc822\r\nContent-Transfer-Encoding: base64",
            "content-transfer-encoding: BASE64\r\ncontent-type:\r\n\tmessage/global",
            "Content-Type: Message/RFC822; x=y\r\nContent-Transfer-Encoding:\r\n quoted-printable",
        ] {
            let inner = format!("From: a@x.org\r\nTo: b@x.org\r\n{header}\r\n\r\nRnJvbTo=\r\n");
            // At the top, or inside a forwarded message (its header block after a blank line).
            let nested = format!(
                "From: a@x.org\r\nContent-Type: multipart/mixed; boundary=f\r\n\r\n--f\r\n\
                 Content-Type: message/rfc822\r\n\r\n{inner}--f--\r\n"
            );
            for m in [&inner, &nested] {
                assert!(
                    prescan(m.as_bytes()).unwrap_err().contains("RFC 2046"),
                    "{m}"
                );
                assert!(matches!(extract(m.as_bytes()), Err(InboxError::Broken(_))));
            }
        }
        let plain = "From: a@x.org\r\nContent-Type: message/rfc822\r\n\r\nFrom: b@x.org\r\n\
            Content-Transfer-Encoding: base64\r\n\r\nx\r\n";
        assert_eq!(prescan(plain.as_bytes()), Ok(()));
        // A header bomb.
        let many = format!(
            "From: a@x.org\r\n{}\r\nbody\r\n",
            "X: y\r\n".repeat(MAX_HEADER_LINES)
        );
        assert!(prescan(many.as_bytes())
            .unwrap_err()
            .contains("header lines"));
    }

    #[test]
    fn a_part_bomb_is_refused_before_parsing() {
        let mut bomb =
            b"From: a@x.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n".to_vec();
        for _ in 0..=MAX_DELIMITERS {
            bomb.extend_from_slice(b"--b\r\n\r\n");
        }
        match extract(&bomb) {
            Err(InboxError::Broken(why)) => assert!(why.contains("MIME part delimiters"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_mbox_of_too_many_messages_is_refused_whole() {
        let one = "From a@x.org Sat Jan  1 00:00:00 2000\nFrom: a@x.org\n\nhi\n";
        let at_cap = one.repeat(MAX_MBOX_MESSAGES);
        assert_eq!(
            split_mbox(at_cap.as_bytes()).unwrap().len(),
            MAX_MBOX_MESSAGES
        );
        let over = one.repeat(MAX_MBOX_MESSAGES + 1);
        match split_mbox(over.as_bytes()) {
            Err(InboxError::Broken(why)) => assert!(why.contains("at most 10000"), "{why}"),
            other => panic!("{:?}", other.map(|m| m.len())),
        }
    }
}
