//! Conditional answers: a seat that waits for its opponent signs, in advance, what it will
//! answer to the replies it expects (`conditional/<ply>-<seat>.toml`). When the judge records
//! the opponent's move and the seat has no move file for its turn, the first line of the seat's
//! newest conditional file that matches the record since that file's ply gives the answer, and
//! the record line names the file and the line.
//!
//! A line matches on what the record shows every seat (the moves, and in Luzhanqi the combat
//! outcome), never on anything hidden, so the judge's choice tells no seat more than its view.
//! Only games of two seats that alternate take them.

use super::context::Ctx;
use super::frame::Frame;
use crate::error::{private_to, refuse, refuse_with, Error, Result};
use crate::games::luzhanqi::rules::Outcome;
use crate::protocol::files::{ConditionalFile, Entry, Fired, CONDITIONAL_FORMAT};
use crate::protocol::record::Record;
use crate::protocol::signing::namespace;
use crate::store::GameDir;

/// The folder conditional files live in.
pub const FOLDER: &str = "conditional";

/// At most this many lines in a file, and this many moves in a line.
pub const MAX_LINES: usize = 64;
pub const MAX_MOVES: usize = 40;

/// Where seat `seat`'s conditional answers to the opponent's move at `ply` live.
pub fn path(ply: u32, seat: &str) -> String {
    format!("{FOLDER}/{ply:04}-{seat}.toml")
}

/// The ply and seat a name in `conditional/` stands for (`0005-red.toml`), spelled one way only.
pub fn parse_name<'a>(name: &'a str, seats: &[&str]) -> Option<(u32, &'a str)> {
    let (ply, seat) = name.strip_suffix(".toml")?.split_once('-')?;
    let one_spelling = ply.len() == 4 || (ply.len() > 4 && !ply.starts_with('0'));
    (one_spelling && ply.bytes().all(|b| b.is_ascii_digit()) && seats.contains(&seat))
        .then(|| Some((ply.parse().ok()?, seat)))
        .flatten()
}

/// One move of a line: the action as the record writes it, and for the opponent's moves the
/// outcome it must have had (none: any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub action: String,
    pub outcome: Option<Outcome>,
}

/// The record's name of an outcome (`defender_won`).
pub fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Moved => "moved",
        Outcome::AttackerWon => "attacker_won",
        Outcome::DefenderWon => "defender_won",
        Outcome::BothRemoved => "both_removed",
    }
}

const OUTCOMES: [Outcome; 4] = [
    Outcome::Moved,
    Outcome::AttackerWon,
    Outcome::DefenderWon,
    Outcome::BothRemoved,
];

/// Reads the lines of a conditional file; the error says which line and why.
pub fn read_lines(lines: &[String]) -> std::result::Result<Vec<Vec<Step>>, String> {
    if lines.len() > MAX_LINES {
        return Err(format!("at most {MAX_LINES} lines, not {}", lines.len()));
    }
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| read_line(line).map_err(|why| format!("line {}: {why}", i + 1)))
        .collect()
}

fn read_line(line: &str) -> std::result::Result<Vec<Step>, String> {
    let words: Vec<&str> = line.split(' ').collect();
    if words.iter().any(|w| w.is_empty()) {
        return Err("moves are separated by one space, with none at either end".into());
    }
    if !words.len().is_multiple_of(2) {
        return Err(format!(
            "{} moves: a line is the opponent's move and your answer, in pairs",
            words.len()
        ));
    }
    if words.len() > MAX_MOVES {
        return Err(format!("at most {MAX_MOVES} moves in a line"));
    }
    words
        .iter()
        .enumerate()
        .map(|(k, word)| {
            let theirs = k % 2 == 0;
            let (action, outcome) = match word.split_once('/') {
                Some((a, o)) if theirs => (a, Some(o)),
                Some(_) => {
                    return Err(format!(
                        "{word:?}: only the opponent's moves name an outcome"
                    ))
                }
                None => (*word, None),
            };
            let printable = |s: &str| s.bytes().all(|b| b.is_ascii_graphic() && b != b'"');
            if action.is_empty() || action.len() > 16 || !printable(action) {
                return Err(format!("{word:?} is not a move"));
            }
            if ["resign", "accept-draw"].contains(&action) {
                return Err(format!("{action}: a line holds moves on the board only"));
            }
            let outcome = match outcome {
                None => None,
                Some(name) => Some(
                    OUTCOMES
                        .into_iter()
                        .find(|&o| outcome_name(o) == name)
                        .ok_or_else(|| {
                            format!(
                                "{word:?}: the outcome is one of moved, attacker_won, \
                                 defender_won, both_removed"
                            )
                        })?,
                ),
            };
            Ok(Step {
                action: action.to_string(),
                outcome,
            })
        })
        .collect()
}

/// The moves the record holds from ply `from` on, in order, as (seat, action, outcome).
fn moves_from(record: &Record, from: u32) -> Vec<(&str, &str, Option<Outcome>)> {
    record
        .lines
        .iter()
        .filter_map(|l| match &l.entry {
            Entry::Move {
                ply,
                seat,
                action,
                outcome,
                ..
            } if *ply >= from => Some((seat.as_str(), action.as_str(), *outcome)),
            _ => None,
        })
        .collect()
}

/// Whether the moves `played` since a file's ply follow `line`, which goes on past them.
fn follows(line: &[Step], played: &[(&str, &str, Option<Outcome>)]) -> bool {
    line.len() > played.len()
        && line.iter().zip(played).all(|(step, (_, action, outcome))| {
            step.action == *action && step.outcome.is_none_or(|o| Some(o) == *outcome)
        })
}

/// The record heads a conditional file for `ply` may answer: the head before that ply's move
/// line, and before each judge's line just ahead of it (a vacation), as a move may.
fn heads_before(record: &Record, ply: u32, genesis: &str) -> Vec<String> {
    let Some(at) = record
        .lines
        .iter()
        .position(|l| matches!(&l.entry, Entry::Move { ply: p, .. } if *p == ply))
    else {
        return vec![record.head_or(genesis)];
    };
    let mut heads = vec![record.lines[at].prev.clone()];
    let mut k = at;
    while k > 0 && matches!(record.lines[k - 1].entry, Entry::Vacation { .. }) {
        k -= 1;
        heads.push(record.lines[k].prev.clone());
    }
    heads
}

/// The last ply `seat` played with a move file of its own (not a conditional answer), 0 if none:
/// a conditional file written before it has been given up.
fn last_own_move(record: &Record, seat: &str) -> u32 {
    record
        .lines
        .iter()
        .rev()
        .find_map(|l| match &l.entry {
            Entry::Move {
                ply,
                seat: s,
                conditional: None,
                ..
            } if s == seat => Some(*ply),
            _ => None,
        })
        .unwrap_or(0)
}

/// A conditional answer the judge may play: the action, and what its record line names.
#[derive(Clone, Debug)]
pub struct Answer {
    pub action: String,
    /// The conditional file's SHA-256 (the record line's `file`).
    pub hash: String,
    pub fired: Fired,
}

/// A conditional file read and checked: signature, binding and lines.
pub struct Read {
    pub file: ConditionalFile,
    pub hash: String,
    pub lines: Vec<Vec<Step>>,
}

/// Reads `path` (seat `seat`'s conditional file for ply `ply`) and checks it: the seat's
/// signature, its binding to this game, that ply and one of `heads`, and its lines.
pub fn read(
    dir: &GameDir,
    f: &Frame,
    path: &str,
    ply: u32,
    seat: usize,
    heads: &[String],
) -> Result<Read> {
    let (file, hash): (ConditionalFile, String) =
        super::player_files::read_signed(dir, f, path, seat, namespace::CONDITIONAL)?;
    let bad = |field: &str, reason: String| refuse(path, Some(field), reason);
    if file.format != CONDITIONAL_FORMAT {
        return Err(bad("format", format!("expected {CONDITIONAL_FORMAT:?}")));
    }
    if file.game != f.id {
        return Err(bad("game", "belongs to another game".into()));
    }
    if file.manifest != f.hash {
        return Err(bad(
            "manifest",
            "was made for another version of game.toml".into(),
        ));
    }
    if file.ply != ply {
        return Err(bad(
            "ply",
            format!("says {}, but the file is for ply {ply}", file.ply),
        ));
    }
    if file.seat != f.seats[seat] {
        return Err(bad(
            "seat",
            format!("says {:?}, but the file is {}'s", file.seat, f.seats[seat]),
        ));
    }
    if !heads.contains(&file.answers) {
        return Err(refuse_with(
            path,
            Some("answers"),
            format!("does not answer the record as it stood before ply {ply}"),
            "write the conditional again while your opponent is to move",
        ));
    }
    // What is wrong with a line quotes the seat's plans: said to the seat alone.
    let lines = read_lines(&file.lines)
        .map_err(|why| private_to(refuse(path, Some("lines"), why), f.seats[seat]))?;
    Ok(Read { file, hash, lines })
}

/// The seat's newest conditional file that may still answer at ply `ply`: written for an
/// opponent's ply after the seat's last own move and before `ply`.
fn newest(dir: &GameDir, f: &Frame, record: &Record, seat: usize, ply: u32) -> Result<Option<u32>> {
    let after = last_own_move(record, f.seats[seat]);
    let mut best = None;
    for name in dir.list(FOLDER)? {
        if let Some((p, s)) = parse_name(&name, f.seats) {
            if s == f.seats[seat] && p > after && p < ply && best.is_none_or(|b| p > b) {
                best = Some(p);
            }
        }
    }
    Ok(best)
}

/// What seat `seat`'s conditional answers give at ply `ply`, taking new files: its newest
/// conditional file, if the record since that file's ply follows one of its lines that goes on.
/// A file that fails its checks is refused.
pub fn answer_new(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    seat: usize,
    ply: u32,
) -> Result<Option<Answer>> {
    if f.seats.len() != 2 {
        return Ok(None);
    }
    let Some(from) = newest(dir, f, record, seat, ply)? else {
        return Ok(None);
    };
    answer_from(dir, f, record, seat, ply, from, None)
}

/// The conditional answer a replayed record line names (`fired`), checked as the judge checked
/// it; none if the files do not give it.
pub fn answer_recorded(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    seat: usize,
    ply: u32,
    fired: &Fired,
) -> Result<Option<Answer>> {
    let from = fired
        .path
        .strip_prefix("conditional/")
        .and_then(|name| parse_name(name, f.seats))
        .filter(|(p, s)| *s == f.seats[seat] && *p < ply && *p > last_own_move(record, s));
    let Some((from, _)) = from else {
        return Ok(None);
    };
    answer_from(dir, f, record, seat, ply, from, Some(fired.line))
}

/// The answer of the file for ply `from` at ply `ply`: the first matching line (or line
/// `only`, in a replay) that goes on past the record.
fn answer_from(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    seat: usize,
    ply: u32,
    from: u32,
    only: Option<u32>,
) -> Result<Option<Answer>> {
    let path = path(from, f.seats[seat]);
    let read = read(
        dir,
        f,
        &path,
        from,
        seat,
        &heads_before(record, from, f.hash),
    )?;
    let played = moves_from(record, from);
    if played.len() as u32 != ply - from {
        return Ok(None);
    }
    // The file's ply is the opponent's: the line starts with its move.
    if played.first().is_some_and(|(s, ..)| *s == f.seats[seat]) {
        return Err(refuse(
            &path,
            Some("ply"),
            format!("ply {from} was {}'s own move", f.seats[seat]),
        ));
    }
    let matches = |line: &[Step]| {
        line.len() > played.len()
            && line
                .iter()
                .zip(&played)
                .all(|(step, (_, action, outcome))| {
                    step.action == *action && step.outcome.is_none_or(|o| Some(o) == *outcome)
                })
    };
    let found = read
        .lines
        .iter()
        .enumerate()
        .filter(|(i, _)| only.is_none_or(|n| n as usize == i + 1))
        .find(|(_, line)| matches(line));
    Ok(found.map(|(i, line)| Answer {
        action: line[played.len()].action.clone(),
        hash: read.hash.clone(),
        fired: Fired {
            path: path.clone(),
            line: i as u32 + 1,
        },
    }))
}

/// The conditional answer at the ply being judged: in a replay the one its record line names
/// (none if the line names none); taking new files, the seat's standing one.
pub fn answer(
    cx: &Ctx,
    f: &Frame,
    record: &Record,
    seat: usize,
    ply: u32,
) -> Result<Option<Answer>> {
    match cx.recorded() {
        Some(Entry::Move {
            conditional: Some(fired),
            ..
        }) => answer_recorded(cx.dir, f, record, seat, ply, fired),
        Some(_) => Ok(None),
        None => answer_new(cx.dir, f, record, seat, ply),
    }
}

/// Whether the record line being replayed was a conditional answer.
pub fn replaying_one(cx: &Ctx) -> bool {
    matches!(
        cx.recorded(),
        Some(Entry::Move {
            conditional: Some(_),
            ..
        })
    )
}

/// What a seat's conditional answers still hold: the seat, the file, and each line that the
/// record has followed so far and goes on, from its next step (`h9g7 h2e2 …`). One entry a
/// seat with such lines; a file that fails its checks holds none.
pub fn standing(dir: &GameDir, f: &Frame, record: &Record) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    if f.seats.len() != 2 {
        return out;
    }
    let next = record.last_move_ply() + 1;
    for (seat, name) in f.seats.iter().enumerate() {
        let Ok(Some(from)) = newest(dir, f, record, seat, next + 1) else {
            continue;
        };
        let path = path(from, name);
        let heads = heads_before(record, from, f.hash);
        let Ok(read) = read(dir, f, &path, from, seat, &heads) else {
            continue;
        };
        let played = moves_from(record, from);
        let live: Vec<String> = read
            .lines
            .iter()
            .filter(|line| follows(line, &played))
            .map(|line| {
                line[played.len()..]
                    .iter()
                    .map(|s| match s.outcome {
                        Some(o) => format!("{}/{}", s.action, outcome_name(o)),
                        None => s.action.clone(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        if !live.is_empty() {
            out.push((name.to_string(), path, live));
        }
    }
    out
}

/// The conditional files a record's text names as played from, in record order.
pub fn fired_paths(record: &str) -> impl Iterator<Item = String> + '_ {
    record
        .lines()
        .filter(|l| l.contains(r#""conditional":"#))
        .filter_map(|l| serde_json::from_str::<crate::protocol::files::RecordLine>(l).ok())
        .filter_map(|l| match l.entry {
            Entry::Move {
                conditional: Some(fired),
                ..
            } => Some(fired.path),
            _ => None,
        })
}

/// Files of `conditional/` that can never be used, refused by name, once the judge has taken
/// what it could: a name of no conditional file, a game not of two seats, a ply not yet reached
/// or one the seat itself moves at, and a file for the ply the game waits for that fails its
/// checks (so a broken one is refused when it comes, not when it would answer). `next` is the
/// ply the game waits for and `to_move` its seat, none once the game is over; `takes`: whether
/// the game takes conditional answers at all.
pub fn leftover(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    next: Option<(u32, usize)>,
    takes: bool,
) -> Result<Vec<Error>> {
    let names = dir.list(FOLDER)?;
    let mut refused = Vec::new();
    for name in &names {
        let shown: String = name.escape_debug().collect();
        let at = format!("{FOLDER}/{shown}");
        let stem = name.strip_suffix(".sig").unwrap_or(name);
        let Some((ply, seat_name)) = parse_name(stem, f.seats) else {
            refused.push(refuse_with(
                at,
                None,
                "unexpected file name in conditional/",
                format!(
                    "conditional/ holds only NNNN-SEAT.toml and its .sig (seats: {})",
                    f.seats.join(", ")
                ),
            ));
            continue;
        };
        if !takes || f.seats.len() != 2 {
            refused.push(refuse(
                at,
                None,
                "conditional answers are for games of two seats that alternate",
            ));
            continue;
        }
        if name.ends_with(".sig") {
            if names.binary_search_by(|n| n.as_str().cmp(stem)).is_err() {
                refused.push(refuse(
                    at,
                    None,
                    "a signature without its file: a conditional is the file and its .sig together",
                ));
            }
            continue;
        }
        let seat = f.seats.iter().position(|s| *s == seat_name).unwrap_or(0);
        let Some((next, to_move)) = next else {
            continue;
        };
        if ply > next {
            refused.push(refuse(at, Some("ply"), format!("ply {next} is next")));
        } else if ply == next && to_move == seat {
            refused.push(refuse_with(
                at,
                Some("ply"),
                format!("ply {ply} is {seat_name}'s own move"),
                "a conditional answers the opponent's move: write it once your move is recorded",
            ));
        } else if ply == next {
            let heads = record.answerable_heads(f.hash);
            if let Err(e) = read(dir, f, &format!("{FOLDER}/{name}"), ply, seat, &heads) {
                refused.push(e);
            }
        }
    }
    Ok(refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[&str]) -> std::result::Result<Vec<Vec<Step>>, String> {
        read_lines(&text.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn lines_read_in_pairs_with_outcomes_on_the_opponents_moves_only() {
        let read = lines(&["h9g7 h2e2 b9c7 b2c2", "e6-e5/defender_won a6-a5"]).unwrap();
        assert_eq!(read[0].len(), 4);
        assert_eq!(read[1][0].outcome, Some(Outcome::DefenderWon));
        assert_eq!(read[1][1].outcome, None);
        for (bad, why) in [
            (&["h9g7"][..], "in pairs"),
            (&["h9g7  h2e2"][..], "one space"),
            (&["h9g7 h2e2/moved"][..], "only the opponent's"),
            (&["e6-e5/won a6-a5"][..], "one of moved"),
            (&["h9g7 resign"][..], "on the board only"),
        ] {
            let err = lines(bad).unwrap_err();
            assert!(
                err.starts_with("line 1: ") && err.contains(why),
                "{bad:?}: {err}"
            );
        }
        assert!(lines(&["a b"; MAX_LINES + 1]).is_err());
    }

    #[test]
    fn names_have_one_spelling() {
        let seats = ["red", "black"];
        assert_eq!(parse_name("0005-red.toml", &seats), Some((5, "red")));
        assert_eq!(
            parse_name("12345-black.toml", &seats),
            Some((12345, "black"))
        );
        for bad in [
            "005-red.toml",
            "00005-red.toml",
            "0005-blue.toml",
            "0005-red.txt",
            "x-red.toml",
        ] {
            assert_eq!(parse_name(bad, &seats), None, "{bad}");
        }
        assert_eq!(path(5, "red"), "conditional/0005-red.toml");
    }
}
