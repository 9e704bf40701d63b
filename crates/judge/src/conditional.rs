//! Conditional answers: a seat that waits for its opponent commits, in advance, to what it
//! will answer to the replies it expects. Its signed file (`conditional/<ply>-<seat>.toml`)
//! holds one salted commitment per line and no plan; the lines themselves (the plans) reach the
//! judge alone, in the clear by mail (`plans/`) or sealed in git (`conditional/<ply>-<seat>.age`).
//! When the judge records the opponent's move and the seat has no move file for its turn, the
//! first line of the seat's newest conditional file that matches the record since that file's
//! ply gives the answer, and the record line names the file, the line and the steps of it played
//! so far, opened against the line's commitment ([`qijudge_protocol::plan`]), so every copy
//! audits the ply and learns nothing more.
//!
//! A line matches on what the record shows every seat (the moves, and in Luzhanqi the combat
//! outcome), never on anything hidden, so the judge's choice tells no seat more than its view.
//! Only games of two seats that alternate take them.

use super::context::Ctx;
use super::frame::Frame;
use qijudge_protocol::error::{private_to, refuse, refuse_with, Error, Result};
use qijudge_protocol::files::{
    parse_toml, ConditionalFile, Entry, Fired, PlansFile, CONDITIONAL_FORMAT, PLANS_FORMAT,
};
use qijudge_protocol::plan::{line_commitment, open, opened_commitment, Opening};
use qijudge_protocol::record::Record;
use qijudge_protocol::signing::namespace;
use qijudge_rules::hash::{hex32, is_sha256_tagged};
use qijudge_rules::Outcome;
use qijudge_store::GameDir;
use ssh_key::PrivateKey;

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
            let (from, to) = action
                .split_once('-')
                .unwrap_or_else(|| action.split_at(action.len() / 2));
            if from == to {
                return Err(format!("{word:?} is not a move: it goes nowhere"));
            }
            if ["resign", "accept-draw"].contains(&action) {
                return Err(format!("{action}: a line holds moves on the board only"));
            }
            let outcome = match outcome {
                None => None,
                Some(name) => Some(Outcome::named(name).ok_or_else(|| {
                    format!(
                        "{word:?}: the outcome is one of moved, attacker_won, \
                                 defender_won, both_removed"
                    )
                })?),
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

/// A conditional file read and checked: signature, binding and commitments.
pub struct Read {
    pub file: ConditionalFile,
    pub hash: String,
}

/// One line of a seat's plans, checked against its commitment: its moves, its steps as
/// committed (`REPLY ANSWER` each) and its salt.
pub struct PlanLine {
    pub steps: Vec<Step>,
    pub pairs: Vec<String>,
    pub salt: [u8; 32],
}

/// Where the judge keeps a seat's plans for the opponent's ply `ply` (sent in the clear by
/// mail): a folder no bundle, view or repository carries.
pub fn plans_path(ply: u32, seat: &str) -> String {
    format!("{PLANS_FOLDER}/{ply:04}-{seat}.toml")
}

/// The folder of plans.
pub const PLANS_FOLDER: &str = "plans";

/// Where a seat's plans sealed to the judge and the seat travel (git).
pub fn sealed_path(ply: u32, seat: &str) -> String {
    format!("{FOLDER}/{ply:04}-{seat}.age")
}

/// The fixed size of sealed plans: nothing about them shows by size.
pub const PLANS_SIZE: usize = 16 * 1024;

/// Lines are padded to a multiple of this many commitments.
pub const LINES_STEP: usize = 8;

/// Reads `path` (seat `seat`'s conditional file for ply `ply`) and checks it: the seat's
/// signature, its binding to this game, that ply and one of `heads`, its version and its
/// commitments.
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
    if file.seq == 0 {
        return Err(bad("seq", "versions are numbered from 1".into()));
    }
    if file.lines.len() > MAX_LINES || !file.lines.len().is_multiple_of(LINES_STEP) {
        return Err(bad(
            "lines",
            format!("a multiple of {LINES_STEP} commitments, at most {MAX_LINES}"),
        ));
    }
    if !file.lines.iter().all(|c| is_sha256_tagged(c)) {
        return Err(bad(
            "lines",
            "each line is a sha256:<hex> commitment".into(),
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
    Ok(Read { file, hash })
}

/// The text of a seat's plans for the conditional file `read`: sealed beside it when `key`
/// (the judge's) opens it, else from the judge's `plans/`. (Whatever the plans say, each line is
/// checked against its signed commitment.)
fn plans_text(dir: &GameDir, read: &Read, key: Option<&PrivateKey>) -> Result<Option<String>> {
    let (ply, seat) = (read.file.ply, read.file.seat.as_str());
    let sealed = sealed_path(ply, seat);
    if let Some(key) = key {
        if dir.exists(&sealed) {
            let bytes = dir.read_bytes(&sealed, qijudge_store::SMALL_FILE_LIMIT)?;
            let files = qijudge_protocol::seal::open(&bytes, key, Some(PLANS_SIZE))
                .map_err(|e| refuse(&sealed, None, e.to_string()))?;
            let inner = plans_path(ply, seat);
            return match files.as_slice() {
                [one] if one.path == inner => String::from_utf8(one.bytes.clone())
                    .map(Some)
                    .map_err(|_| refuse(&sealed, None, "the plans inside are not UTF-8")),
                _ => Err(refuse(
                    &sealed,
                    None,
                    format!("holds one file, {inner}, and nothing else"),
                )),
            };
        }
    }
    dir.read_optional(&plans_path(ply, seat), qijudge_store::SMALL_FILE_LIMIT)
}

/// Seat `seat`'s plans for the conditional file `read`, each line checked against its signed
/// commitment; none when the judge does not have them. What is wrong quotes the seat's plans:
/// said to the seat alone.
pub fn plans(
    dir: &GameDir,
    f: &Frame,
    read: &Read,
    seat: usize,
    key: Option<&PrivateKey>,
) -> Result<Option<Vec<PlanLine>>> {
    let Some(text) = plans_text(dir, read, key)? else {
        return Ok(None);
    };
    // Refused by the conditional file's name (which the judge then sets aside with its sealed
    // plans): plans that do not fit it make it useless.
    let path = path(read.file.ply, &read.file.seat);
    let plans = plans_path(read.file.ply, &read.file.seat);
    check_plans(&read.file, &text)
        .map(Some)
        .map_err(|(field, why)| {
            let field = format!("plans {}", field.unwrap_or("format"));
            private_to(
                refuse(&path, Some(&field), format!("{plans}: {why}")),
                f.seats[seat],
            )
        })
}

/// Plans (`text`) checked against the signed conditional file they belong to: bound to the
/// same game, manifest, ply, seat and version, each line well formed and matching its
/// commitment. The error names the field and why.
pub fn check_plans(
    signed: &ConditionalFile,
    text: &str,
) -> std::result::Result<Vec<PlanLine>, (Option<&'static str>, String)> {
    let file: PlansFile = parse_toml(text).map_err(|e| (None, e.to_string()))?;
    if file.format != PLANS_FORMAT {
        return Err((Some("format"), format!("expected {PLANS_FORMAT:?}")));
    }
    let bound = [
        ("game", file.game == signed.game),
        ("manifest", file.manifest == signed.manifest),
        ("ply", file.ply == signed.ply),
        ("seat", file.seat == signed.seat),
        ("seq", file.seq == signed.seq),
    ];
    if let Some((field, _)) = bound.iter().find(|(_, ok)| !ok) {
        return Err((
            Some(field),
            format!(
                "does not match version {} of conditional/{:04}-{}.toml",
                signed.seq, signed.ply, signed.seat
            ),
        ));
    }
    if file.salts.len() != file.lines.len() {
        return Err((Some("salts"), "one salt for each line".into()));
    }
    if file.lines.len() > signed.lines.len() {
        return Err((
            Some("lines"),
            "more lines than the conditional file commits to".into(),
        ));
    }
    let steps = read_lines(&file.lines).map_err(|why| (Some("lines"), why))?;
    let mut out = Vec::new();
    for (i, (moves, steps)) in file.lines.iter().zip(steps).enumerate() {
        let salt = hex32(&file.salts[i]).ok_or_else(|| {
            (
                Some("salts"),
                format!("salt {} is not 64 lower-case hex digits", i + 1),
            )
        })?;
        let pairs = pairs(moves);
        if line_commitment(&salt, &pairs) != signed.lines[i] {
            return Err((
                Some("lines"),
                format!(
                    "line {}: does not match its commitment in the signed file",
                    i + 1
                ),
            ));
        }
        out.push(PlanLine { steps, pairs, salt });
    }
    Ok(out)
}

/// A line's steps as committed: each the opponent's move and the answer (`h9g7 h0g2`).
pub fn pairs(moves: &str) -> Vec<String> {
    moves
        .split(' ')
        .collect::<Vec<_>>()
        .chunks(2)
        .map(|c| c.join(" "))
        .collect()
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

/// The line of a seat's plans that answers at ply `ply` (the first one the record since the
/// plans' ply follows and that goes on), as (its index, the answer, its opening).
fn matching(
    plans: &[PlanLine],
    played: &[(&str, &str, Option<Outcome>)],
) -> Option<(usize, String, Opening)> {
    plans
        .iter()
        .enumerate()
        .find(|(_, l)| follows(&l.steps, played))
        .map(|(i, l)| {
            (
                i,
                l.steps[played.len()].action.clone(),
                open(&l.salt, &l.pairs, played.len() / 2 + 1),
            )
        })
}

/// A step as a line writes it (`e6-e5/defender_won`).
fn step_text(s: &Step) -> String {
    match s.outcome {
        Some(o) => format!("{}/{}", s.action, o.name()),
        None => s.action.clone(),
    }
}

/// What seat `seat`'s conditional answers give at ply `ply`, taking new files: its newest
/// conditional file, if the record since that file's ply follows one of its lines that goes on.
/// A file that fails its checks is refused; plans the judge lacks give nothing.
pub fn answer_new(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    seat: usize,
    ply: u32,
    key: Option<&PrivateKey>,
) -> Result<Option<Answer>> {
    if f.seats.len() != 2 {
        return Ok(None);
    }
    let Some(from) = newest(dir, f, record, seat, ply)? else {
        return Ok(None);
    };
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
    if played.len() as u32 != ply - from
        || played.first().is_some_and(|(s, ..)| *s == f.seats[seat])
    {
        return Ok(None);
    }
    let Some(plans) = plans(dir, f, &read, seat, key)? else {
        return Ok(None);
    };
    Ok(matching(&plans, &played).map(|(i, action, opened)| Answer {
        action,
        hash: read.hash.clone(),
        fired: Fired {
            path: path.clone(),
            line: i as u32 + 1,
            opened,
        },
    }))
}

/// The conditional answer a replayed record line names (`fired`), checked from what is
/// public: the seat's signed file, and the steps the record discloses against that line's
/// commitment. Refused when they do not give it.
pub fn answer_recorded(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    seat: usize,
    ply: u32,
    fired: &Fired,
) -> Result<Option<Answer>> {
    let at = "record.jsonl";
    let bad = |why: String| refuse(at, Some("conditional"), why);
    let from = fired
        .path
        .strip_prefix("conditional/")
        .and_then(|name| parse_name(name, f.seats))
        .filter(|(p, s)| *s == f.seats[seat] && *p < ply && *p > last_own_move(record, s));
    let Some((from, _)) = from else {
        return Err(bad(format!("{} cannot answer at ply {ply}", fired.path)));
    };
    let read = read(
        dir,
        f,
        &fired.path,
        from,
        seat,
        &heads_before(record, from, f.hash),
    )?;
    let committed = (fired.line as usize)
        .checked_sub(1)
        .and_then(|i| read.file.lines.get(i))
        .ok_or_else(|| bad(format!("{} has no line {}", fired.path, fired.line)))?;
    let opened = opened_commitment(&fired.opened).map_err(bad)?;
    if opened != *committed {
        return Err(bad(format!(
            "the steps disclosed are not line {} of {}",
            fired.line, fired.path
        )));
    }
    let played = moves_from(record, from);
    let steps = read_lines(std::slice::from_ref(&fired.opened.steps.join(" "))).map_err(bad)?;
    let steps = steps.into_iter().next().unwrap_or_default();
    if played.len() as u32 != ply - from
        || fired.opened.steps.len() != played.len() / 2 + 1
        || !follows(&steps, &played)
    {
        return Err(bad(format!(
            "the steps disclosed of {} do not answer the record at ply {ply}",
            fired.path
        )));
    }
    Ok(Some(Answer {
        action: steps[played.len()].action.clone(),
        hash: read.hash,
        fired: fired.clone(),
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
        None => answer_new(cx.dir, f, record, seat, ply, cx.key),
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
/// seat with such lines whose plans this copy holds (the judge's, opened with `key`, or the
/// seat's own copy); a file that fails its checks holds none.
pub fn standing(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    key: Option<&PrivateKey>,
) -> Vec<(String, String, Vec<String>)> {
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
        let Ok(Some(plans)) = plans(dir, f, &read, seat, key) else {
            continue;
        };
        let played = moves_from(record, from);
        let live: Vec<String> = plans
            .iter()
            .filter(|line| follows(&line.steps, &played))
            .map(|line| {
                line.steps[played.len()..]
                    .iter()
                    .map(step_text)
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
        .filter_map(|l| serde_json::from_str::<qijudge_protocol::files::RecordLine>(l).ok())
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
/// checks, its plans included (so a broken one is refused when it comes, not when it would
/// answer). And a seat whose standing line answers the ply it owes but whose answer the rules
/// refused where it falls is told so, privately, at once. `next` is the ply the game waits for
/// and `to_move` its seat, none once the game is over; `takes`: whether the game takes
/// conditional answers at all; `key`: the judge's, which opens sealed plans.
pub fn leftover(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    next: Option<(u32, usize)>,
    takes: bool,
    key: Option<&PrivateKey>,
) -> Result<Vec<Error>> {
    let names = dir.list(FOLDER)?;
    let mut refused = Vec::new();
    for name in &names {
        let shown: String = name.escape_debug().collect();
        let at = format!("{FOLDER}/{shown}");
        let stem = name
            .strip_suffix(".sig")
            .or_else(|| name.strip_suffix(".age").map(|_| ""))
            .unwrap_or(name);
        let toml = name.strip_suffix(".age").map(|s| format!("{s}.toml"));
        let Some((ply, seat_name)) = parse_name(toml.as_deref().unwrap_or(stem), f.seats) else {
            refused.push(refuse_with(
                at,
                None,
                "unexpected file name in conditional/",
                format!(
                    "conditional/ holds only NNNN-SEAT.toml, its .sig and its sealed plans \
                     NNNN-SEAT.age (seats: {})",
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
        let beside = toml.as_deref().unwrap_or(stem);
        if name.ends_with(".sig") || name.ends_with(".age") {
            if names.binary_search_by(|n| n.as_str().cmp(beside)).is_err() {
                refused.push(refuse(
                    at,
                    None,
                    "without its conditional file: a conditional is NNNN-SEAT.toml and its .sig \
                     together, with its plans",
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
            let path = format!("{FOLDER}/{name}");
            let (sealed, clear) = (sealed_path(ply, seat_name), plans_path(ply, seat_name));
            match read(dir, f, &path, ply, seat, &heads) {
                Err(e) => refused.push(e),
                Ok(_) if !dir.exists(&sealed) && !dir.exists(&clear) => refused.push(refuse_with(
                    path,
                    None,
                    "its plans have not come: the judge cannot play lines it does not have",
                    format!(
                        "send {clear} with it (by mail), or commit {sealed} with it (git); \
                             qijudge move --if writes both"
                    ),
                )),
                Ok(r) => {
                    if let Err(e) = plans(dir, f, &r, seat, key) {
                        refused.push(e);
                    }
                }
            }
        }
    }
    if let Some((next, to_move)) = next {
        refused.extend(unplayable(dir, f, record, next, to_move, key));
    }
    Ok(refused)
}

/// The seat that owes ply `ply`, told privately when its standing conditional answer for that
/// ply was not played (the judge takes a matching answer before it looks for leftovers, so one
/// still matching here is one the rules refused where it falls).
fn unplayable(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    ply: u32,
    seat: usize,
    key: Option<&PrivateKey>,
) -> Option<Error> {
    let answer = answer_new(dir, f, record, seat, ply, key).ok()??;
    Some(private_to(
        refuse_with(
            &answer.fired.path,
            Some("lines"),
            format!(
                "line {}'s answer {} cannot be played at ply {ply}: the rules refuse it where it \
                 falls, so the game waits for your own move",
                answer.fired.line, answer.action
            ),
            "play your move with qijudge move (qijudge moves lists the legal ones)",
        ),
        f.seats[seat],
    ))
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
