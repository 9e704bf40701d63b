//! PGN for Xiangqi: several games per file, tags, comments, moves in any notation; and the
//! writer.

use super::fen;
use super::game::{Game, Options};
use super::notation::{self, Notation};
use std::fmt;

/// One game as recorded in a PGN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// Move texts as written, each with the comment that follows it.
    pub moves: Vec<PgnMove>,
    /// A comment before the first move.
    pub comment: Option<String>,
    /// The result token closing the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub termination: Option<String>,
    /// Line of the first tag, for messages.
    pub line: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnMove {
    pub text: String,
    pub comment: Option<String>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A PGN syntax error with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    pub line: usize,
    pub why: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for PgnError {}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Reads every game of a PGN text.
pub fn read(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut current: Option<PgnGame> = None;
    let mut in_movetext = false;
    let mut chars = text.char_indices().peekable();
    let mut line = 1;
    let err = |line: usize, why: String| PgnError { line, why };
    while let Some((_, c)) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '[' => {
                if in_movetext || current.is_none() {
                    if let Some(done) = current.take() {
                        games.push(done);
                    }
                    current = Some(PgnGame {
                        line,
                        ..PgnGame::default()
                    });
                    in_movetext = false;
                }
                let mut tag = String::new();
                let mut closed = false;
                let mut in_quotes = false;
                let mut escaped = false;
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        return Err(err(line, "a tag must end on its line with ]".into()));
                    }
                    if in_quotes && !escaped && c == '\\' {
                        escaped = true;
                        tag.push(c);
                        continue;
                    }
                    if c == '"' && !escaped {
                        in_quotes = !in_quotes;
                    }
                    escaped = false;
                    if c == ']' && !in_quotes {
                        closed = true;
                        break;
                    }
                    tag.push(c);
                }
                if !closed {
                    return Err(err(line, "unterminated tag".into()));
                }
                let (name, value) = parse_tag(&tag).ok_or_else(|| {
                    err(
                        line,
                        format!("malformed tag [{tag}]: expected [Name \"value\"]"),
                    )
                })?;
                // A tag the game already has starts the next game (its movetext was empty).
                if current.as_ref().is_some_and(|g| g.tag(&name).is_some()) {
                    games.extend(current.take());
                }
                let g = current.get_or_insert_with(|| PgnGame {
                    line,
                    ..PgnGame::default()
                });
                g.tags.push((name, value));
            }
            '{' => {
                let mut comment = String::new();
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    if c == '\n' {
                        line += 1;
                    }
                    comment.push(c);
                }
                if !closed {
                    return Err(err(line, "unterminated comment {".into()));
                }
                let g = current.get_or_insert_with(|| PgnGame {
                    line,
                    ..PgnGame::default()
                });
                in_movetext = true;
                let comment = comment.trim().to_string();
                match g.moves.last_mut() {
                    Some(m) => append(&mut m.comment, comment),
                    None => append(&mut g.comment, comment),
                }
            }
            ';' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '(' => {
                // Variations are not part of the game: skip them, nested ones included.
                let mut depth = 1;
                for (_, c) in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        '\n' => line += 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                }
                if depth != 0 {
                    return Err(err(line, "unterminated variation (".into()));
                }
            }
            _ => {
                let mut token = String::from(c);
                while let Some(&(_, n)) = chars.peek() {
                    if n.is_whitespace() || matches!(n, '{' | '(' | ';' | '[') {
                        break;
                    }
                    token.push(n);
                    chars.next();
                }
                let g = current.get_or_insert_with(|| PgnGame {
                    line,
                    ..PgnGame::default()
                });
                in_movetext = true;
                if RESULTS.contains(&token.as_str()) {
                    g.termination = Some(token);
                    games.push(current.take().unwrap_or_default());
                    in_movetext = false;
                    continue;
                }
                let text = strip_move_number(&token);
                // `1. ... h9g7`: the dots alone stand for Red's move not shown.
                if text.is_empty() || text.starts_with('$') || text.bytes().all(|b| b == b'.') {
                    continue;
                }
                g.moves.push(PgnMove {
                    text: text.to_string(),
                    comment: None,
                });
            }
        }
    }
    if let Some(g) = current {
        if !g.tags.is_empty() || !g.moves.is_empty() {
            games.push(g);
        }
    }
    Ok(games)
}

fn append(slot: &mut Option<String>, text: String) {
    match slot {
        Some(s) => {
            s.push(' ');
            s.push_str(&text);
        }
        None => *slot = Some(text),
    }
}

/// `12.`, `12...` and `12.C2.5` (number glued to the move) → the move part. A WXF move of a
/// pawn among tandem pawns (`33.4`: two digits, the direction, a digit) is a move, not a number.
fn strip_move_number(token: &str) -> &str {
    let b = token.as_bytes();
    let tandem = b.len() == 4
        && b[0].is_ascii_digit()
        && b[1].is_ascii_digit()
        && b"+-.=".contains(&b[2])
        && b[3].is_ascii_digit();
    if tandem {
        return token;
    }
    let digits = token.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

fn parse_tag(tag: &str) -> Option<(String, String)> {
    let tag = tag.trim();
    let (name, rest) = tag.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let inner = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.push(chars.next()?);
        } else {
            value.push(c);
        }
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name.to_string(), value))
}

/// Writes one game: `[Game "Chinese Chess"]` first, then the other tags, then the moves in
/// `notation` with move numbers, comments, and the result.
pub fn write(game: &Game, tags: &[(String, String)], notation: Notation, result: &str) -> String {
    write_commented(game, tags, notation, result, &[])
}

/// [`write`] with a comment after each move that has one (`comments[i]` for move i), in braces.
pub fn write_commented(
    game: &Game,
    tags: &[(String, String)],
    notation: Notation,
    result: &str,
    comments: &[Option<String>],
) -> String {
    let mut out = String::from("[Game \"Chinese Chess\"]\n");
    let escape = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    for (name, value) in tags {
        if ["Game", "Format", "FEN", "Result"].contains(&name.as_str()) {
            continue;
        }
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    let start = fen::write(game.start());
    if start != fen::START {
        out.push_str(&format!("[FEN \"{start}\"]\n"));
    }
    out.push_str(&format!("[Format \"{}\"]\n\n", notation.name()));
    let mut line = String::new();
    let mut number = game.start().fullmove;
    for (i, (&m, position)) in game.moves().iter().zip(game.positions()).enumerate() {
        let text = match notation {
            // PGN writes coordinates in upper case with a dash.
            Notation::Iccs => {
                let s = m.to_string().to_uppercase();
                format!("{}-{}", &s[..2], &s[2..])
            }
            other => notation::write(position, m, other),
        };
        let red = position.side_to_move() == super::Color::Red;
        // After a comment, Black's move is numbered again (`3... h9g7`).
        let commented_before = i > 0 && comments.get(i - 1).is_some_and(Option::is_some);
        let mut tokens = vec![if red {
            format!("{number}. {text}")
        } else if i == 0 {
            format!("{number}. ... {text}")
        } else if commented_before {
            format!("{number}... {text}")
        } else {
            text
        }];
        if !red {
            number += 1;
        }
        if let Some(Some(c)) = comments.get(i) {
            // A comment cannot hold its closing brace; PGN lines are plain text.
            let c: String = c
                .chars()
                .map(|ch| {
                    if ch == '}' || ch.is_control() {
                        ' '
                    } else {
                        ch
                    }
                })
                .collect();
            tokens.push(format!("{{{}}}", c.trim()));
        }
        for token in tokens {
            if !line.is_empty() && line.chars().count() + token.chars().count() > 78 {
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
            }
            line.push_str(&token);
            line.push(' ');
        }
    }
    line.push_str(result);
    out.push_str(line.trim_end());
    out.push_str("\n\n");
    out
}

/// The start position a PGN game names (the `FEN` tag, else the standard start).
pub fn start_position(game: &PgnGame) -> Result<super::Position, fen::FenError> {
    fen::parse(game.tag("FEN").unwrap_or(fen::START))
}

/// Replays a recorded game with the given options.
pub fn new_game(game: &PgnGame, options: Options) -> Result<Game, fen::FenError> {
    Ok(Game::new(start_position(game)?, options))
}
