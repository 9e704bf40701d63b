//! Commands a player mails to the judge, one per message, in the subject or the first line of a
//! plain-text body: `help`, `list`, `status [GAME]`, `resend [GAME]`, `vacation [GAME] DAYS`,
//! `digest [GAME] on|off`.
//! Pure: a message in, a command (or none) out.

use mail_parser::MessageParser;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Help,
    List,
    /// Where a game stands (the game named, or the one the message is about).
    Status(Option<String>),
    /// The judge's last message to the sender's seats, again.
    Resend(Option<String>),
    /// Stop the sender's clock for some days, within what the game's manifest allows.
    Vacation(Option<String>, u32),
    /// The daily digest on (`true`) or off, for one game or all the sender's games.
    Digest(Option<String>, bool),
}

/// The command as a player types it (`status G1`, `vacation 3`), for the judge's log.
impl std::fmt::Display for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let game = |g: &Option<String>| g.as_ref().map(|g| format!(" {g}")).unwrap_or_default();
        match self {
            Command::Help => write!(f, "help"),
            Command::List => write!(f, "list"),
            Command::Status(g) => write!(f, "status{}", game(g)),
            Command::Resend(g) => write!(f, "resend{}", game(g)),
            Command::Vacation(g, days) => write!(f, "vacation{} {days}", game(g)),
            Command::Digest(g, on) => {
                write!(f, "digest{} {}", game(g), if *on { "on" } else { "off" })
            }
        }
    }
}

/// The command of a message, if its subject or the first line of its text says one.
pub fn parse(message: &[u8]) -> Option<Command> {
    let parsed = MessageParser::default().parse(message)?;
    let subject = parsed.subject().unwrap_or_default();
    if let Some(c) = of_line(strip_reply(subject)) {
        return Some(c);
    }
    let body = parsed.body_text(0)?;
    let first = body.lines().map(str::trim).find(|l| !l.is_empty())?;
    of_line(first)
}

/// A subject without its `Re:` and `Fwd:` prefixes.
fn strip_reply(subject: &str) -> &str {
    let mut s = subject.trim();
    loop {
        let lower = s.to_ascii_lowercase();
        let Some(cut) = ["re:", "fwd:", "fw:", "aw:"]
            .iter()
            .find(|p| lower.starts_with(*p))
            .map(|p| p.len())
        else {
            return s;
        };
        s = s[cut..].trim_start();
    }
}

/// A command line: the word, then at most one argument (a game id; `vacation` takes a game id
/// and a number of days, or the days alone); anything longer is prose, not a command.
fn of_line(line: &str) -> Option<Command> {
    let mut words = line.split_whitespace();
    let verb = words.next()?.to_ascii_lowercase();
    let arg = words.next().map(str::to_string);
    let second = words.next();
    if verb == "digest" {
        let switch = |w: &str| match w.to_ascii_lowercase().as_str() {
            "on" => Some(true),
            "off" => Some(false),
            _ => None,
        };
        return match (arg, second, words.next()) {
            (Some(w), None, None) => Some(Command::Digest(None, switch(&w)?)),
            (Some(game), Some(w), None) => Some(Command::Digest(Some(game), switch(w)?)),
            _ => None,
        };
    }
    if verb == "vacation" {
        let days = |w: &str| w.parse::<u32>().ok().filter(|d| (1..=365).contains(d));
        return match (arg, second, words.next()) {
            (Some(d), None, None) => Some(Command::Vacation(None, days(&d)?)),
            (Some(game), Some(d), None) => Some(Command::Vacation(Some(game), days(d)?)),
            _ => None,
        };
    }
    if second.is_some() {
        return None;
    }
    match (verb.as_str(), arg) {
        ("help", None) => Some(Command::Help),
        ("list", None) => Some(Command::List),
        ("status", arg) => Some(Command::Status(arg)),
        ("resend", arg) => Some(Command::Resend(arg)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The judge's log says a command in the words a player types (not `Status(None)`).
    #[test]
    fn a_command_is_shown_as_typed() {
        assert_eq!(Command::Status(None).to_string(), "status");
        assert_eq!(Command::Resend(Some("g1".into())).to_string(), "resend g1");
        assert_eq!(Command::Vacation(None, 3).to_string(), "vacation 3");
        assert_eq!(
            Command::Digest(Some("g1".into()), false).to_string(),
            "digest g1 off"
        );
    }

    fn mail(subject: &str, body: &str) -> Vec<u8> {
        format!("From: a@example.org\r\nTo: j@example.org\r\nSubject: {subject}\r\n\r\n{body}\r\n")
            .into_bytes()
    }

    #[test]
    fn commands_are_read_from_the_subject_or_the_first_line() {
        assert_eq!(parse(&mail("help", "")), Some(Command::Help));
        assert_eq!(parse(&mail("Re: LIST", "")), Some(Command::List));
        assert_eq!(
            parse(&mail("hi", "\r\n  status xq-12345678\r\nthanks")),
            Some(Command::Status(Some("xq-12345678".into())))
        );
        assert_eq!(parse(&mail("resend", "")), Some(Command::Resend(None)));
        assert_eq!(
            parse(&mail("vacation xq-1234 7", "")),
            Some(Command::Vacation(Some("xq-1234".into()), 7))
        );
        assert_eq!(
            parse(&mail("Re: your move", "vacation 3")),
            Some(Command::Vacation(None, 3))
        );
    }

    #[test]
    fn the_digest_is_switched_for_all_games_or_one() {
        assert_eq!(
            parse(&mail("digest on", "")),
            Some(Command::Digest(None, true))
        );
        assert_eq!(
            parse(&mail("Re: x", "digest xq-1234 OFF")),
            Some(Command::Digest(Some("xq-1234".into()), false))
        );
        assert_eq!(parse(&mail("digest", "")), None);
        assert_eq!(parse(&mail("digest daily please", "")), None);
    }

    #[test]
    fn a_vacation_needs_a_number_of_days() {
        assert_eq!(parse(&mail("vacation", "")), None);
        assert_eq!(parse(&mail("vacation next week", "")), None);
        assert_eq!(parse(&mail("vacation xq-1 0", "")), None);
        assert_eq!(parse(&mail("vacation xq-1 3 days", "")), None);
    }

    #[test]
    fn prose_is_not_a_command() {
        assert_eq!(parse(&mail("help me with my move please", "")), None);
        assert_eq!(parse(&mail("Nice move", "I need a day to think.")), None);
        assert_eq!(parse(&mail("list", "")), Some(Command::List));
        assert_eq!(parse(&mail("list all games", "")), None);
    }
}
