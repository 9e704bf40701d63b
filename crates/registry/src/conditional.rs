//! `move --if` and `move --withdraw-if`: a seat waiting for its opponent writes and signs the
//! answers it gives to the replies it expects (see [`qijudge_judge::conditional`]), or
//! withdraws them, the same way for every game of two seats that alternate.

use super::report::Report;
use qijudge_judge::conditional;
use qijudge_protocol::error::{refuse, refuse_with, Error, Result};
use qijudge_protocol::files::Entry;
use qijudge_store::GameDir;
use std::path::Path;

/// One `--if` value, `REPLY=ANSWER[,REPLY=ANSWER…]`, as a file line (`REPLY ANSWER …`) in the
/// record's spelling of `game`'s moves; a move that is not one of the game's is refused with
/// the step and why.
pub fn line_of(game: &dyn qijudge_game::Game, typed: &str) -> std::result::Result<String, String> {
    let mut words = Vec::new();
    for pair in typed.split(',') {
        let (reply, answer) = pair.split_once('=').ok_or_else(|| {
            format!("{pair:?}: write each step as REPLY=ANSWER (e6-e5=a6-a5, h9g7=h2e2)")
        })?;
        let (reply, outcome) = match reply.trim().split_once('/') {
            Some((r, o)) => (r, Some(o.trim().to_ascii_lowercase())),
            None => (reply.trim(), None),
        };
        let reply = spelled(game, reply)?;
        words.push(match outcome {
            Some(o) => format!("{reply}/{o}"),
            None => reply,
        });
        if answer.contains('/') {
            return Err(format!(
                "{:?}: only the opponent's moves name an outcome",
                answer.trim()
            ));
        }
        words.push(spelled(game, answer.trim())?);
    }
    Ok(words.join(" "))
}

/// The shape of one `--if` value, whatever the game: `REPLY=ANSWER` steps, an outcome only on
/// a reply, moves on the board only.
fn shape(typed: &str) -> std::result::Result<(), String> {
    for pair in typed.split(',') {
        let (reply, answer) = pair.split_once('=').ok_or_else(|| {
            format!("{pair:?}: write each step as REPLY=ANSWER (e6-e5=a6-a5, h9g7=h2e2)")
        })?;
        if answer.contains('=') {
            return Err(format!(
                "{pair:?}: one `=` a step, between the reply and the answer; write a WXF move \
                 along a rank with `.` (C2.5, not C2=5)"
            ));
        }
        if answer.contains('/') {
            return Err(format!(
                "{:?}: only the opponent's moves name an outcome",
                answer.trim()
            ));
        }
        for word in [reply.split('/').next().unwrap_or(""), answer] {
            let word = word.trim().to_ascii_lowercase();
            if ["resign", "accept-draw"].contains(&word.as_str()) {
                return Err(format!("{word}: a line holds moves on the board only"));
            }
        }
    }
    Ok(())
}

/// One `--if` value as a file line: played out on the position where the game lets the seat
/// follow it (any notation `move` reads, each move legal where it falls), else read move by
/// move in the record's spelling.
fn read_typed(
    game: &dyn qijudge_game::Game,
    dir: &Path,
    typed: &str,
) -> std::result::Result<String, String> {
    let spelled = line_of(game, typed);
    let words: Vec<String> = typed
        .split(',')
        .flat_map(|pair| pair.split('=').map(|w| w.trim().to_string()))
        .collect();
    let outcomes = typed.contains('/');
    match game.conditional_line(dir, &words) {
        Ok(Some(result)) if !outcomes && typed.split(',').all(|p| p.split('=').count() == 2) => {
            result.map(|moves| moves.join(" "))
        }
        _ => spelled,
    }
}

/// A move as the record writes it, read in the forms `move` takes without a position (each
/// game's `spell_move`); refused when it is none.
fn spelled(game: &dyn qijudge_game::Game, typed: &str) -> std::result::Result<String, String> {
    let lower: String = typed
        .trim()
        .chars()
        .map(|c| match c {
            '–' | '—' | ' ' => '-',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    let not_a_move = |why: &str| format!("{typed:?} is not a move: {why}");
    if ["resign", "accept-draw"].contains(&lower.as_str()) {
        return Err(format!("{lower}: a line holds moves on the board only"));
    }
    game.spell_move(&lower).map_err(|why| not_a_move(&why))
}

/// The seat to move once the record's last line is in: the other seat after a move, the first
/// mover before any; none before play or after the end.
fn to_move<'a>(record: &'a qijudge_protocol::record::Record, seats: &[&'a str]) -> Option<&'a str> {
    let mut to_move = None;
    for line in &record.lines {
        match &line.entry {
            Entry::Begin { first, .. } => to_move = Some(first.as_str()),
            Entry::Move { seat, .. } => {
                to_move = seats.iter().copied().find(|s| *s != seat.as_str());
            }
            Entry::End { .. } => return None,
            _ => {}
        }
    }
    to_move
}

/// Writes seat `seat`'s conditional file for the opponent's next move: `lines` as `--if` takes
/// them, or none to withdraw.
pub fn write(dir: &Path, seat: &str, key_path: &Path, lines: &[String]) -> Result<Report> {
    let game = super::of_dir(dir)?;
    let d = GameDir::new(dir);
    let _lock = d.lock()?;
    let seats = crate::seats::seats(&d)?;
    let names = seats.names();
    let frame = seats.frame(&names);
    if !game.takes_conditionals(names.len()) {
        return Err(Error::Io(format!(
            "--if: conditional answers are for games of two seats that move in turn, not {}",
            match names.len() {
                2 => game.title().to_string(),
                n => format!("{n} seats"),
            }
        )));
    }
    let facts = game.facts(&d)?;
    let typed = lines;
    // Each line read alone first (its shape, each move's spelling), then on the position once
    // the turn is known to be the opponent's.
    for t in typed {
        shape(t).map_err(|why| refuse("--if", None, why))?;
    }
    let key = qijudge_game::console::load_signer(key_path)?;
    super::seat_of_key(&frame, seat, &key)?;
    let record = qijudge_judge::signed_record::load_record(&d, &frame)?;
    let ply = record.last_move_ply() + 1;
    match to_move(&record, &names) {
        None => {
            return Err(refuse(
                "--if",
                None,
                "nobody is to move: play has not begun or the game is over",
            ))
        }
        Some(s) if s == seat => {
            return Err(refuse_with(
                "--if",
                None,
                format!("it is your move (ply {ply})"),
                "play it with qijudge move; a conditional answers your opponent's move, so write \
                 it once the judge has recorded yours",
            ))
        }
        Some(_) => {}
    }
    let lines = typed
        .iter()
        .enumerate()
        .map(|(i, t)| {
            read_typed(game, dir, t).map_err(|why| format!("line {} ({t}): {why}", i + 1))
        })
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|why| refuse("--if", None, why))?;
    conditional::read_lines(&lines).map_err(|why| refuse("--if", None, why))?;
    let head = record.head_or(&seats.hash);
    let count = lines.len();
    let path = qijudge_judge::conditional::path(ply, seat);
    // The next version of this seat's file for this ply: the judge takes only a newer one.
    let seq = match d.read_optional(&path, qijudge_store::SMALL_FILE_LIMIT)? {
        Some(text) => {
            qijudge_protocol::files::parse_toml::<qijudge_protocol::files::ConditionalFile>(&text)
                .map(|f| f.seq.saturating_add(1))
                .unwrap_or(1)
        }
        None => 1,
    };
    let index = names.iter().position(|s| *s == seat).unwrap_or(0);
    let path = qijudge_game::player::write_conditional(
        &d,
        qijudge_game::player::Conditional {
            id: &seats.id,
            manifest: &seats.hash,
            seat,
            ply,
            answers: &head,
            seq,
            lines,
        },
        &key,
        &[&facts.judge_key, &facts.player_keys[index]],
    )?;
    let opponent = names.iter().find(|s| **s != seat).copied().unwrap_or("");
    Ok(Report::line(match count {
        0 => format!(
            "wrote {path} (version {seq}) and its signature: no line, so your conditional \
             answers are withdrawn"
        ),
        n => format!(
            "wrote {path} ({n} line(s), version {seq}) and its signature, your plans in {plans} \
             and sealed to the judge in {sealed}: when {opponent}'s move for ply {ply} is \
             recorded, the judge answers from the first line that matches. By mail send {path}, \
             its .sig and {plans} to the judge; through git commit {path}, its .sig and {sealed} \
             (never plans/). It replaces your earlier conditional answers.",
            plans = qijudge_judge::conditional::plans_path(ply, seat),
            sealed = qijudge_judge::conditional::sealed_path(ply, seat),
        ),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_lines_are_spelled_as_the_record_writes_moves() {
        let line_of = |game: &str, typed: &str| line_of(crate::by_name(game).unwrap(), typed);
        assert_eq!(
            line_of("xiangqi", "H9G7=h2-e2, b9c7=b2c2").unwrap(),
            "h9g7 h2e2 b9c7 b2c2"
        );
        assert_eq!(
            line_of("luzhanqi", "E6E5/Defender_Won=a6-a5").unwrap(),
            "e6-e5/defender_won a6-a5"
        );
        assert!(line_of("xiangqi", "h9g7")
            .unwrap_err()
            .contains("REPLY=ANSWER"));
        assert_eq!(line_of("luzhanqi", "e6 e5=a6–a5").unwrap(), "e6-e5 a6-a5");
        assert_eq!(line_of("banqi", "a1=B1B2").unwrap(), "a1 b1b2");
        for (game, bad) in [
            ("xiangqi", "H8+7=H2+3"),
            ("luzhanqi", "a10-b10=a5-a5"),
            ("luzhanqi", "a6-z9=a5-a4"),
            ("xiangqi", "h9g7=h0h0"),
            ("banqi", "a1=z9"),
        ] {
            let why = line_of(game, bad).unwrap_err();
            assert!(why.contains("is not a move"), "{game} {bad}: {why}");
        }
    }
}
