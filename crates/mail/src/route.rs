//! One address for many games: which game a message is for. The signed files it holds say so
//! (their `game` field); a message without files names its game by answering one of the
//! judge's messages (the judge's Message-IDs begin with the game id) or in its subject (the
//! game id, or the short form the judge's subjects carry). Pure: headers and files in, ids out.

use super::inbox;
use mail_parser::MessageParser;

/// How a message was matched to its game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    /// Exactly one known game.
    One(String),
    /// No known game: the sender gets help.
    None,
    /// Files or headers that name more than one game.
    Several(Vec<String>),
}

/// The game of `message` among the `known` game ids.
pub fn game_of(message: &[u8], known: &[String]) -> Named {
    let mut named = by_files(message, known);
    if named.is_empty() {
        named = by_headers(message, known);
    }
    named.sort();
    named.dedup();
    match named.len() {
        0 => Named::None,
        1 => Named::One(named.remove(0)),
        _ => Named::Several(named),
    }
}

/// The known games its qijudge files name (`game = "…"`); a file of an unknown game names none.
fn by_files(message: &[u8], known: &[String]) -> Vec<String> {
    let Ok(found) = inbox::extract(message) else {
        return Vec::new();
    };
    found
        .files
        .iter()
        .filter_map(|f| game_field(&f.text))
        .filter(|id| known.contains(id))
        .collect()
}

/// The `game` field of a qijudge TOML file (`game = "lzq-…"`), read as a line: the file is
/// parsed in full by the game it goes to.
fn game_field(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let value = line.trim().strip_prefix("game")?.trim_start();
        let value = value.strip_prefix('=')?.trim();
        let value = value.strip_prefix('"')?.strip_suffix('"')?;
        Some(value.to_string())
    })
}

/// The known games that the message answers (`In-Reply-To`, `References`) or names in its
/// subject, whole or in the short form of the judge's subjects.
fn by_headers(message: &[u8], known: &[String]) -> Vec<String> {
    let Some(parsed) = MessageParser::default().parse(message) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = Vec::new();
    for name in ["In-Reply-To", "References"] {
        if let Some(raw) = parsed.header_raw(name) {
            ids.extend(
                known
                    .iter()
                    .filter(|id| raw.contains(&format!("<{id}.")))
                    .cloned(),
            );
        }
    }
    if !ids.is_empty() {
        return ids;
    }
    let subject = parsed.subject().unwrap_or_default().to_ascii_lowercase();
    let whole: Vec<String> = known
        .iter()
        .filter(|id| subject.contains(id.as_str()))
        .cloned()
        .collect();
    if !whole.is_empty() {
        return whole;
    }
    known
        .iter()
        .filter(|id| {
            let short = super::outbox::short_id(id);
            words(&subject).any(|w| w == short)
        })
        .cloned()
        .collect()
}

/// The words of a subject, split where a game id cannot go on.
fn words(subject: &str) -> impl Iterator<Item = &str> {
    subject
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Vec<String> {
        vec![
            "lzq-0123456789abcdef0123456789abcdef".to_string(),
            "xq-fedcba9876543210fedcba9876543210".to_string(),
        ]
    }

    fn mail(headers: &str, body: &str) -> Vec<u8> {
        format!("From: a@example.org\r\nTo: j@example.org\r\n{headers}\r\n\r\n{body}").into_bytes()
    }

    const SIG: &str =
        "-----BEGIN SSH SIGNATURE-----\r\nU1NIU0lH\r\n-----END SSH SIGNATURE-----\r\n";

    #[test]
    fn a_signed_file_names_its_game() {
        let body = format!(
            "format = \"qijudge/move/1\"\r\ngame = \"xq-fedcba9876543210fedcba9876543210\"\r\nply = 1\r\n{SIG}"
        );
        let m = mail("Subject: my move", &body);
        assert_eq!(game_of(&m, &known()), Named::One(known()[1].clone()));
    }

    #[test]
    fn a_file_of_an_unknown_game_names_none() {
        let body = format!(
            "format = \"qijudge/move/1\"\r\ngame = \"xq-00000000000000000000000000000000\"\r\nply = 1\r\n{SIG}"
        );
        assert_eq!(game_of(&mail("Subject: hi", &body), &known()), Named::None);
    }

    #[test]
    fn a_reply_names_the_game_of_the_message_it_answers() {
        let m = mail(
            "Subject: Re: your move\r\nIn-Reply-To: <lzq-0123456789abcdef0123456789abcdef.south.1a2b@judge.example.org>",
            "please resend\r\n",
        );
        assert_eq!(game_of(&m, &known()), Named::One(known()[0].clone()));
    }

    #[test]
    fn a_subject_names_a_game_whole_or_short() {
        let whole = mail(
            "Subject: status xq-fedcba9876543210fedcba9876543210",
            "status\r\n",
        );
        assert_eq!(game_of(&whole, &known()), Named::One(known()[1].clone()));
        let short = mail(
            "Subject: Re: [qijudge] lzq-01234567: south to move",
            "x\r\n",
        );
        assert_eq!(game_of(&short, &known()), Named::One(known()[0].clone()));
    }

    #[test]
    fn a_message_naming_nothing_or_two_games_is_said_so() {
        assert_eq!(
            game_of(&mail("Subject: hello", "hi\r\n"), &known()),
            Named::None
        );
        let both = mail("Subject: lzq-01234567 and xq-fedcba98", "which?\r\n");
        assert!(matches!(game_of(&both, &known()), Named::Several(ids) if ids.len() == 2));
    }
}
