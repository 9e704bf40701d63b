//! What a Luzhanqi player knows, and where its commands read it: not the record (the other
//! setups stay with the judge) but the judge's signed views — its seat's own (opened with its
//! key in a sealed game) for its moves, the public one for whose turn it is and for `status`.

use crate::referee::precheck::position_from_view;
use crate::view::ViewFile;
use luzhanqi_rules::{Move, Seat};
use qijudge_game::bot_view::BotView;
use qijudge_game::console::load_private_key;
use qijudge_game::defined::{check_to_move, Known};
use qijudge_judge as judge;
use qijudge_protocol::error::{refuse, refuse_with, Error, Result};
use qijudge_protocol::files::Entry;
use qijudge_protocol::record::Record;
use qijudge_store::GameDir;
use std::cell::RefCell;
use std::path::Path;

/// The record and, read once each when asked, the signed views.
pub struct SeatViews<'a> {
    dir: &'a GameDir,
    game: &'a crate::referee::Game,
    record: Record,
    /// The last seat view read: a bot's turn asks for its moves and its view.
    own: RefCell<Option<(String, ViewFile)>>,
}

impl<'a> SeatViews<'a> {
    pub fn read(dir: &'a GameDir, game: &'a crate::referee::Game) -> Result<Self> {
        Ok(Self {
            dir,
            game,
            record: crate::referee::load_record(dir, game)?,
            own: RefCell::new(None),
        })
    }

    fn public(&self) -> Result<ViewFile> {
        Ok(
            crate::referee::read_signed_view(self.dir, self.game, "public")?
                .ok_or_else(not_written("views/public.json"))?
                .0,
        )
    }

    /// The seat's own view and its index.
    fn own(&self, seat: &str, key: Option<&Path>) -> Result<(ViewFile, usize)> {
        let index = self.index(seat)?;
        if let Some((s, v)) = self.own.borrow().as_ref() {
            if s == seat {
                return Ok((v.clone(), index));
            }
        }
        let view = own_view(self.dir, self.game, seat, key)?;
        *self.own.borrow_mut() = Some((seat.to_string(), view.clone()));
        Ok((view, index))
    }

    fn index(&self, seat: &str) -> Result<usize> {
        let seats: Vec<&str> = self
            .game
            .board
            .seat_names
            .iter()
            .map(String::as_str)
            .collect();
        qijudge_game::seat_index(&seats, seat)
    }
}

impl Known for SeatViews<'_> {
    fn to_move(&self) -> Result<Option<String>> {
        Ok(self.public()?.to_move)
    }

    /// From the seat's own view: where every piece stands and its own ranks, which is all
    /// legality depends on.
    fn legal(&self, seat: &str, key: Option<&Path>) -> Result<Vec<String>> {
        let (view, index) = self.own(seat, key)?;
        seat_to_move(&view, seat)?;
        let position = position_from_view(self.game, &view, Seat(index as u8))?;
        Ok(qijudge_game::sorted_moves(
            position
                .legal_moves()
                .iter()
                .map(|m| m.display(self.game.board)),
        ))
    }

    fn view(&self, seat: &str, key: Option<&Path>) -> Result<BotView> {
        Ok(BotView::Typed(std::sync::Arc::new(self.own(seat, key)?.0)))
    }

    /// Read as typed in any case and with or without the dash; the record says whether play
    /// goes on. With `check`, checked on the seat's own view where it is published and current
    /// (a player's mail copy may lack it: then the judge decides).
    fn action(&self, seat: &str, key: &Path, typed: &str, check: bool) -> Result<String> {
        let over = |l: &qijudge_protocol::files::RecordLine| matches!(l.entry, Entry::End { .. });
        if self.record.lines.iter().any(over) {
            return Err(refuse("record.jsonl", None, "the game is over"));
        }
        if !self
            .record
            .lines
            .iter()
            .any(|l| matches!(l.entry, Entry::Begin { .. }))
        {
            return Err(refuse_with(
                "record.jsonl",
                None,
                "play has not begun",
                "wait until the judge has every seat's setup",
            ));
        }
        let action = typed_move(typed);
        if action == "resign" || action == "accept-draw" {
            return Ok(action);
        }
        let mv = Move::parse(&action, self.game.board)
            .map_err(|e| refuse("move", None, e.to_string()))?;
        if check {
            self.check_on_own_view(seat, key, &action, mv)?;
        }
        Ok(action)
    }

    fn next_move(&self) -> (u32, String) {
        (
            self.record.last_move_ply() + 1,
            self.record.head_or(&self.game.hash),
        )
    }

    fn status(&self) -> Result<(serde_json::Value, Vec<String>)> {
        let v = self.public()?;
        let (fields, first) = status_of_public(&v);
        let state_line = match (&v.result, &v.to_move) {
            (Some(r), _) => format!(
                "over: {} ({})",
                match (&r.winner, r.allies.as_slice()) {
                    (Some(w), []) => format!("{w} wins"),
                    (Some(w), allies) => format!("{w} and {} win", allies.join(" and ")),
                    (None, _) => "draw".into(),
                },
                judge::reason_text(r.reason)
            ),
            (None, Some(t)) => format!("{t} to move (ply {})", v.ply + 1),
            (None, None) => {
                // What the record says arrived: the same words as the judge's.
                let seats: Vec<&str> = self
                    .game
                    .manifest
                    .players
                    .iter()
                    .map(|p| p.seat.as_str())
                    .collect();
                // The seats no line of `entry`'s kind names (`Some(seat)` for a line of it).
                let missing = |entry: fn(&Entry) -> Option<&str>| -> Vec<&str> {
                    let came: Vec<&str> = self
                        .record
                        .lines
                        .iter()
                        .filter_map(|l| entry(&l.entry))
                        .collect();
                    seats
                        .iter()
                        .copied()
                        .filter(|s| !came.contains(s))
                        .collect()
                };
                crate::referee::replay::waiting_before_play(
                    &missing(committed_seat),
                    &missing(set_up_seat),
                )
            }
        };
        Ok((fields, vec![first, state_line]))
    }

    fn record(&self) -> &Record {
        &self.record
    }
}

impl SeatViews<'_> {
    /// Refuses what the player can tell is wrong from its own view: a move out of turn or
    /// illegal where the pieces stand (the ranks of others play no part in legality). A copy
    /// without the seat's view, or with a view older than the record, tells nothing to check.
    fn check_on_own_view(&self, seat: &str, key: &Path, action: &str, mv: Move) -> Result<()> {
        let published = if self.game.manifest.sealed {
            self.dir.exists(&judge::sealing::sealed_view_path(seat))
        } else {
            self.dir.exists(&format!("views/{seat}.json"))
        };
        if !published {
            return Ok(());
        }
        let (view, index) = self.own(seat, Some(key))?;
        if view.record_head != self.record.head_or(&self.game.hash) {
            return Ok(());
        }
        seat_to_move(&view, seat)?;
        let position = position_from_view(self.game, &view, Seat(index as u8))?;
        position.check_move(mv).map_err(|e| {
            refuse(
                "move",
                None,
                format!("{action}: {e} (checked on your view; --no-check writes it anyway)"),
            )
        })
    }
}

/// The public fields `status` shows of the public view, and its first line.
pub fn status_of_public(v: &ViewFile) -> (serde_json::Value, String) {
    let fields = serde_json::json!({
        "game": v.game, "ply": v.ply, "to_move": v.to_move, "result": v.result,
        "last_move": v.last_move, "record_head": v.record_head,
    });
    (fields, format!("game {} after {} plies", v.game, v.ply))
}

/// The refusal of a view the judge has not written yet.
pub fn not_written(path: &str) -> impl FnOnce() -> Error + '_ {
    move || {
        refuse_with(
            path,
            None,
            "not written yet",
            "run `qijudge judge` on the game first",
        )
    }
}

/// Refuses unless the view says the game goes on with `seat` to move.
fn seat_to_move(view: &ViewFile, seat: &str) -> Result<()> {
    check_to_move(view.result.is_some(), view.to_move.as_deref(), seat, || {
        "wait until the judge has every setup".to_string()
    })
}

/// A seat's own signed view: opened with its key in a sealed game, read in clear otherwise.
fn own_view(
    dir: &GameDir,
    game: &crate::referee::Game,
    seat: &str,
    key: Option<&Path>,
) -> Result<ViewFile> {
    if game.manifest.sealed {
        let key_path = key.ok_or_else(|| {
            refuse_with(
                judge::sealing::sealed_view_path(seat),
                None,
                "sealed to its seat",
                "give your private key with --key to open it",
            )
        })?;
        let key = load_private_key(key_path)?;
        return Ok(crate::referee::read_sealed_view(dir, game, seat, &key)?.0);
    }
    let path = format!("views/{seat}.json");
    Ok(crate::referee::read_signed_view(dir, game, seat)?
        .ok_or_else(not_written(&path))?
        .0)
}

/// A move as a player types it, in the record's form: any case (`A6-A7`), and the compact form
/// without the dash (`a6a7`, `sa6ma1`) split where a square's digits end.
pub fn typed_move(text: &str) -> String {
    // A dash as word processors write it is a dash; a space between two squares is one too.
    let t: String = text
        .trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            c => c,
        })
        .collect();
    let words: Vec<&str> = t.split_whitespace().collect();
    let t = match words.as_slice() {
        _ if t.contains('-') => words.concat(),
        [from, to] => format!("{from}-{to}"),
        _ => t,
    };
    if t.contains('-') || t == "resign" || t == "accept-draw" {
        return t;
    }
    let bytes = t.as_bytes();
    let split =
        (1..bytes.len()).find(|&i| bytes[i - 1].is_ascii_digit() && bytes[i].is_ascii_alphabetic());
    match split {
        Some(i) => format!("{}-{}", &t[..i], &t[i..]),
        None => t,
    }
}

/// The seat of a commitment's record line.
fn committed_seat(e: &Entry) -> Option<&str> {
    match e {
        Entry::Commitment { seat, .. } => Some(seat),
        _ => None,
    }
}

/// The seat of an accepted setup's record line.
fn set_up_seat(e: &Entry) -> Option<&str> {
    match e {
        Entry::SetupAccepted { seat } => Some(seat),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn moves_are_read_as_players_type_them() {
        for (typed, read) in [
            ("a6-a7", "a6-a7"),
            ("A6-A7", "a6-a7"),
            ("a6a7", "a6-a7"),
            (" A10a11 ", "a10-a11"),
            ("sa6ma1", "sa6-ma1"),
            ("SA6-MA1", "sa6-ma1"),
            ("Resign", "resign"),
            ("ACCEPT-DRAW", "accept-draw"),
            ("a6", "a6"),
        ] {
            assert_eq!(super::typed_move(typed), read, "{typed}");
        }
    }
}
