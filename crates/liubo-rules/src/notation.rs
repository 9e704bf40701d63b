//! Turn notation: the moves of a turn separated by commas, each `VALUE:PATH`.
//!
//! - a stone: `3:6-9` (start and end; the full path `3:6-7-8-9` is read too), `3:6-B` (the
//!   shortcut from 6: the end says which way), `2:in-2` (entering from the reserve);
//! - the owl: `2:owl:X-C-D` (the full path: owls choose their way);
//! - `^` after a move ending on X promotes the stone: `3:B-X^` is not possible but `1:B-X^` is.

use super::board::Station;
use super::position::{Move, MoveError, Position};
use std::fmt;

/// Why a turn's text is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    Syntax {
        text: String,
        why: String,
    },
    /// Move number `index` (0-based) names no legal move.
    Illegal {
        index: usize,
        text: String,
        error: MoveError,
    },
    Ambiguous {
        index: usize,
        text: String,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Syntax { text, why } => write!(f, "{text:?} is not a move: {why}"),
            TurnError::Illegal { index, text, error } => {
                write!(f, "move {} ({text:?}) is illegal: {error}", index + 1)
            }
            TurnError::Ambiguous { index, text } => write!(
                f,
                "move {} ({text:?}) fits several moves: write the whole path",
                index + 1
            ),
        }
    }
}

impl std::error::Error for TurnError {}

/// Writes one move.
pub fn write_move(m: &Move) -> String {
    let from = m.from.map_or("in".to_string(), |s| s.to_string());
    let body = if m.owl {
        let mut s = format!("owl:{from}");
        for st in &m.path {
            s.push('-');
            s.push_str(&st.to_string());
        }
        s
    } else {
        format!("{from}-{}", m.to())
    };
    format!("{}:{body}{}", m.value, if m.promote { "^" } else { "" })
}

/// Writes a turn.
pub fn write_turn(moves: &[Move]) -> String {
    moves.iter().map(write_move).collect::<Vec<_>>().join(", ")
}

/// A move as written, before the position says which it is.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Written {
    value: u8,
    from: Option<Station>,
    owl: bool,
    /// The stations after the start as written (the end alone, or the whole path).
    rest: Vec<Station>,
    promote: bool,
}

fn parse_move(text: &str) -> Result<Written, TurnError> {
    let bad = |why: &str| TurnError::Syntax {
        text: text.to_string(),
        why: why.to_string(),
    };
    let t = text.trim();
    let (value, body) = t
        .split_once(':')
        .ok_or_else(|| bad("expected VALUE:PATH, like 3:6-9 or 2:owl:X-C-D"))?;
    let value: u8 = value
        .trim()
        .parse()
        .ok()
        .filter(|v| (1..=4).contains(v))
        .ok_or_else(|| bad("the value must be 1 to 4"))?;
    // Keywords in any case (`IN`, `Owl:`), as stations already are.
    let body = body.trim();
    let (owl, body) = match body.get(..4) {
        Some(prefix) if prefix.eq_ignore_ascii_case("owl:") => (true, &body[4..]),
        _ => (false, body),
    };
    let (body, promote) = match body.strip_suffix('^') {
        Some(rest) => (rest, true),
        None => (body, false),
    };
    let parts: Vec<&str> = body.split('-').collect();
    if parts.len() < 2 {
        return Err(bad("a path needs a start and an end, like 6-9"));
    }
    let from = match parts[0].trim() {
        s if s.eq_ignore_ascii_case("in") => None,
        s => Some(
            Station::parse(s).ok_or_else(|| bad("unknown station (1-20, A B X C D R S T U)"))?,
        ),
    };
    let rest = parts[1..]
        .iter()
        .map(|p| {
            Station::parse(p.trim()).ok_or_else(|| bad("unknown station (1-20, A B X C D R S T U)"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Written {
        value,
        from,
        owl,
        rest,
        promote,
    })
}

/// "You have no owl on 15": the piece a move names is not there.
fn no_such_piece(w: &Written) -> MoveError {
    MoveError::BadPath(match (w.owl, w.from) {
        (true, Some(s)) => format!("you have no owl on {s}"),
        (false, Some(s)) => format!("you have no stone on {s}"),
        (_, None) => "you have no stone left to enter".into(),
    })
}

/// Why a move written by its end alone (`2:owl:15-13`) fits no legal move, the piece being
/// there: a promotion that cannot be made, or an end the piece cannot reach with that value
/// (with the ends it can reach, so the player can correct it).
fn why_not(p: &Position, w: &Written) -> MoveError {
    let kind = if w.owl { "owl" } else { "stone" };
    let at = w.from.map_or("entering".to_string(), |s| format!("on {s}"));
    let Some(&target) = w.rest.last() else {
        return MoveError::BadPath("the move names no station".into());
    };
    let same_piece: Vec<Move> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.value == w.value && m.from == w.from && m.owl == w.owl)
        .collect();
    if same_piece.is_empty() {
        let any = Move {
            value: w.value,
            from: w.from,
            owl: w.owl,
            path: w.rest.clone(),
            promote: false,
        };
        return match p.check_move(&any) {
            Err(MoveError::NoSuchPiece) => no_such_piece(w),
            Err(e @ (MoveError::SamePiece | MoveError::ValueNotThrown(_))) => e,
            _ => MoveError::BadPath(format!(
                "the {kind} {at} has no move with a value of {}",
                w.value
            )),
        };
    }
    let ways: Vec<&Move> = same_piece.iter().filter(|m| m.to() == target).collect();
    if w.owl && !ways.is_empty() && w.rest.len() != w.value as usize {
        let shown: Vec<String> = ways.iter().map(|m| write_move(m)).collect();
        return MoveError::BadPath(format!(
            "an owl's move is written with its whole path (it chooses its way): {}",
            shown.join(" or ")
        ));
    }
    if let Some(m) = ways.first() {
        // The end is reachable: the promotion mark is what does not fit.
        let asked = Move {
            promote: w.promote,
            ..(*m).clone()
        };
        return match p.check_move(&asked) {
            Err(e) => e,
            Ok(()) => MoveError::BadPath(format!("the {kind} {at} can end on {target}")),
        };
    }
    let ends: std::collections::BTreeSet<String> =
        same_piece.iter().map(|m| m.to().to_string()).collect();
    let ends: Vec<String> = ends.into_iter().collect();
    MoveError::BadPath(format!(
        "the {kind} {at} cannot end on {target} with a value of {}: it can end on {}",
        w.value,
        ends.join(" or ")
    ))
}

/// Reads a turn against the position (a turn must be in progress) and checks it: every move
/// must be legal when it is played.
pub fn parse_turn(position: &Position, text: &str) -> Result<Vec<Move>, TurnError> {
    let mut p = position.clone();
    let mut out = Vec::new();
    for (index, part) in text.split([',', ';']).enumerate() {
        if part.trim().is_empty() {
            return Err(TurnError::Syntax {
                text: text.to_string(),
                why: "an empty move between commas".into(),
            });
        }
        let w = parse_move(part)?;
        let fits = |m: &Move| {
            m.value == w.value
                && m.from == w.from
                && m.owl == w.owl
                && m.promote == w.promote
                && (m.path == w.rest || (!w.owl && w.rest.len() == 1 && m.to() == w.rest[0]))
        };
        let candidates: Vec<Move> = p.legal_moves().into_iter().filter(|m| fits(m)).collect();
        let m = match candidates.len() {
            1 => candidates.into_iter().next().expect("one candidate"),
            0 => {
                // Say why, from the single-move check: a shortened path is padded so that the
                // value, the piece and the different-piece rule are checked first.
                let shortened = w.rest.len() != w.value as usize;
                let mut path = w.rest.clone();
                while path.len() < w.value as usize {
                    path.insert(0, w.rest[0]);
                }
                let guess = Move {
                    value: w.value,
                    from: w.from,
                    owl: w.owl,
                    path,
                    promote: w.promote,
                };
                let error = match p.check_move(&guess) {
                    Err(MoveError::BadPath(_)) | Ok(()) if shortened => why_not(&p, &w),
                    Err(MoveError::NoSuchPiece) => no_such_piece(&w),
                    Err(e) => e,
                    Ok(()) => why_not(&p, &w),
                };
                return Err(TurnError::Illegal {
                    index,
                    text: part.trim().to_string(),
                    error,
                });
            }
            _ => {
                return Err(TurnError::Ambiguous {
                    index,
                    text: part.trim().to_string(),
                })
            }
        };
        p.play(&m).map_err(|error| TurnError::Illegal {
            index,
            text: part.trim().to_string(),
            error,
        })?;
        out.push(m);
    }
    Ok(out)
}
