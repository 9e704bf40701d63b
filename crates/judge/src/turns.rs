//! What the judge of a game played one signed move file a turn keeps beside the game's own
//! position, and the steps every such game takes alike: the record's first line, the turn's
//! move file read and bound to its place, the off-board answers (resign, accept a draw), the
//! closing move and a standing draw offer, the end line, and what of them a view shows.

use super::context::Ctx;
use super::frame::Frame;
use qijudge_protocol::error::{refuse, Result};
use qijudge_protocol::files::{Entry, MoveFile, Notice, RECORD_FORMAT};
use qijudge_protocol::record::Record;
use qijudge_rules::EndReason;
use qijudge_view::Closing;

/// The record and the game's state off the board.
#[derive(Clone, Debug, Default)]
pub struct Turns {
    pub record: Record,
    /// The seat whose last move offered a draw, while the offer stands.
    pub draw_offer: Option<usize>,
    /// How the game ended, as recorded (resignation, agreement and forfeits included).
    pub end: Option<(Option<String>, EndReason)>,
    /// The signed move that ended the game off the board (resign, accept-draw).
    pub closing: Option<Closing>,
    /// The comment of each move played on the board, in order (public, like the move files).
    pub comments: Vec<Option<String>>,
}

/// A recorded move file that no longer reads as the record holds it (edited by hand after the
/// judge took it): refused as the recorded move it was, not as a bad signature, which would
/// send its seat to write it again. Only looked at once the file was refused: the replay of a
/// sound folder pays nothing for it.
fn already_recorded(
    cx: &Ctx,
    frame: &Frame,
    path: &str,
    seat: usize,
    ply: u32,
) -> Option<qijudge_protocol::error::Error> {
    let recorded = cx.recorded.first().and_then(|line| match &line.entry {
        Entry::Move {
            ply: p,
            seat: s,
            file,
            ..
        } if *p == ply && s == frame.seats[seat] => Some(file),
        _ => None,
    })?;
    let text = cx.dir.read(path, qijudge_store::SMALL_FILE_LIMIT).ok()?;
    (qijudge_rules::hash::sha256_tagged(text.as_bytes()) != *recorded).then(|| {
        qijudge_protocol::error::refuse_with(
            path,
            None,
            format!(
                "ply {ply} is already recorded, from a file with another hash ({recorded}): \
                 this file was changed after the judge took it"
            ),
            "a recorded move never changes: put the file back as it was recorded (from a \
             backup, the judge's last message or git) and make your next move on the next ply",
        )
    })
}

/// What a move file asks for: a move on the board (`P`, as the game parses it) or an answer
/// off the board.
pub enum Asked<P> {
    Play(P),
    Resign,
    AcceptDraw,
}

/// A move file taken from the folder: its path, content and hash.
pub struct TurnFile {
    pub path: String,
    pub file: MoveFile,
    pub hash: String,
}

/// What a move adds to its record line beyond the file: the action as recorded, when it came,
/// and what the rules made public.
pub struct MoveLine {
    pub action: String,
    pub received: String,
    pub notices: Vec<Notice>,
    pub revealed: Option<String>,
}

impl MoveLine {
    /// A move that makes nothing public beyond itself.
    pub fn plain(action: String, received: String) -> MoveLine {
        MoveLine {
            action,
            received,
            notices: Vec::new(),
            revealed: None,
        }
    }
}

impl Turns {
    /// The record's head, or the manifest's hash before the first line.
    pub fn head(&self, manifest_hash: &str) -> String {
        self.record.head_or(manifest_hash)
    }

    /// The record's first line.
    pub fn start_entry(frame: &Frame) -> Entry {
        Entry::Start {
            format: RECORD_FORMAT.into(),
            game: frame.id.to_string(),
            manifest: frame.hash.to_string(),
        }
    }

    /// The move file of `seat` for `ply`, signature checked; none while it is not there.
    pub fn next_file(cx: &Ctx, frame: &Frame, seat: usize, ply: u32) -> Result<Option<TurnFile>> {
        let Some(path) = super::precheck_files::turn_file(cx, frame.seats, seat, ply)? else {
            return Ok(None);
        };
        let (file, hash) = super::player_files::read_signed_move(cx.dir, frame, &path, seat)
            .map_err(|e| already_recorded(cx, frame, &path, seat, ply).unwrap_or(e))?;
        Ok(Some(TurnFile { path, file, hash }))
    }

    /// Checks a move file's binding (game, manifest, ply, seat, answered head) and reads what it
    /// asks; `parse` reads a move on the board, its error is the refusal's reason.
    pub fn check_move_file<P>(
        &self,
        frame: &Frame,
        turn: &TurnFile,
        ply: u32,
        seat: usize,
        parse: impl FnOnce(&str) -> std::result::Result<P, String>,
    ) -> Result<Asked<P>> {
        let (path, m) = (turn.path.as_str(), &turn.file);
        let heads = self.record.answerable_heads(frame.hash);
        super::player_files::check_binding(frame, path, m, ply, seat, &heads)?;
        super::player_files::no_chain_fields(path, m)?;
        match m.action.as_str() {
            "resign" => Ok(Asked::Resign),
            "accept-draw" if self.draw_offer.is_some_and(|s| s != seat) => Ok(Asked::AcceptDraw),
            "accept-draw" => Err(refuse(
                path,
                Some("move"),
                "accept-draw, but no draw offer from the opponent stands",
            )),
            text => parse(text)
                .map(Asked::Play)
                .map_err(|e| refuse(path, Some("move"), e)),
        }
    }

    /// Notes a move file taken and gives its record line: the closing move if it answered off
    /// the board, and the draw offer it makes, which stands until the opponent's next move.
    pub fn take(
        &mut self,
        seats: &[&str],
        ply: u32,
        seat: usize,
        file: &MoveFile,
        hash: String,
        line: MoveLine,
    ) -> Entry {
        if !qijudge_view::on_board(&line.action) {
            self.closing = Some(Closing {
                ply,
                seat: seats[seat].into(),
                action: line.action.clone(),
                comment: file.comment.clone(),
            });
        }
        self.draw_offer = file.offer_draw.then_some(seat);
        Entry::Move {
            ply,
            seat: seats[seat].into(),
            file: hash,
            received: line.received,
            action: line.action,
            outcome: None,
            notices: line.notices,
            draw_offered: file.offer_draw,
            revealed: line.revealed,
            conditional: None,
        }
    }

    /// Notes the game's end and gives the record's end line.
    pub fn end(&mut self, winner: Option<String>, reason: EndReason) -> Entry {
        self.end = Some((winner.clone(), reason));
        Entry::End {
            winner,
            allies: Vec::new(),
            reason,
        }
    }

    /// The standing draw offer (its seat) and the closing move, as a view of the latest position
    /// shows them; an earlier position (a replay's frame) shows neither.
    pub fn shown(&self, seats: &[&str], latest: bool) -> (Option<String>, Option<Closing>) {
        if !latest {
            return (None, None);
        }
        (
            self.draw_offer.map(|s| seats[s].to_string()),
            self.closing.clone(),
        )
    }
}

impl Turns {
    /// The record's opening lines of a game without setups, one a step: the start, then the
    /// begin line with the seat `first` gives to move (its time kept as recorded in a replay);
    /// none after.
    pub fn opening<'s>(
        &self,
        cx: &Ctx,
        frame: &Frame,
        first: impl FnOnce() -> &'s str,
        clocked: bool,
    ) -> Option<Entry> {
        match self.record.lines.len() {
            0 => Some(Self::start_entry(frame)),
            1 => {
                let recorded = match cx.recorded() {
                    Some(Entry::Begin { at, .. }) => Some(at),
                    _ => None,
                };
                Some(Entry::Begin {
                    first: first().into(),
                    lot_nonces: Default::default(),
                    at: cx.at(recorded, clocked),
                })
            }
            _ => None,
        }
    }

    /// The judge's forfeit of `seat`, which `winner` wins: the record's lines.
    pub fn forfeit(
        &mut self,
        seats: &[&str],
        seat: usize,
        reason: &str,
        winner: Option<String>,
    ) -> Vec<Entry> {
        vec![
            Entry::Forfeit {
                seat: seats[seat].into(),
                reason: reason.into(),
                at: None,
            },
            self.end(winner, EndReason::Forfeit),
        ]
    }

    /// A match judge's adjudication (`winner`: a seat; none: a draw): the record's lines.
    pub fn adjudicate(
        &mut self,
        seats: &[&str],
        winner: Option<usize>,
        reason: &str,
    ) -> Vec<Entry> {
        let winner = winner.map(|w| seats[w].to_string());
        vec![
            Entry::Adjudicated {
                winner: winner.clone(),
                reason: reason.into(),
            },
            self.end(winner, EndReason::Adjudication),
        ]
    }
}
