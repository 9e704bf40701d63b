//! The Xiangqi judge. Xiangqi has no hidden information, so there are no setups: the judge
//! checks signed moves (in any notation), keeps the hash-chained record, decides every ending by
//! the rules, and publishes the same signed view to both players and the public.

use super::manifest::*;
use crate::error::{Error, Result};
use crate::games::xiangqi::rules::notation::{self, Notation};
use crate::games::xiangqi::rules::{fen, Color, Ending, Game, Move, Options, Position};
use crate::judge::manifest::Seated;
use crate::judge::pipeline::{self, Ctx, Mode, Referee};
use crate::judge::turns::{Asked, MoveLine, Turns};
use crate::judge::Outputs;
use crate::protocol::files::*;
use crate::rules::EndReason;
use crate::store::GameDir;
use ssh_key::PrivateKey;

pub use crate::games::xiangqi::view::{Closing, LastMove, ViewResult, XiangqiView};

/// The seats, in manifest order: Red moves first from the standard start.
pub const SEATS: [&str; 2] = ["red", "black"];

/// A checked Xiangqi manifest with its keys.
pub type XiangqiGame = Seated<XiangqiRules>;

impl XiangqiGame {
    /// The start position (checked when the manifest was read).
    pub fn start(&self) -> Position {
        fen::parse(&self.manifest.rules.start).unwrap_or_else(|_| Position::start())
    }

    pub fn options(&self) -> Options {
        Options {
            move_limit: self.manifest.rules.move_limit,
            record: false,
        }
    }
}

/// The seat of a colour (Xiangqi's and Jieqi's).
pub(crate) fn seat_of(color: Color) -> &'static str {
    SEATS[color.index()]
}

/// The rule options from `--rule key=value` items: `start=FEN`, `move-limit=on|off`.
pub fn rules_from(items: &[String]) -> Result<XiangqiRules> {
    let mut rules = XiangqiRules {
        start: fen::START.into(),
        move_limit: false,
    };
    for item in items {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| Error::Io(format!("--rule {item:?}: expected key=value")))?;
        match k {
            "start" => {
                let p = fen::parse(v).map_err(|e| Error::Io(format!("--rule start: {e}")))?;
                rules.start = fen::write(&p);
            }
            "move-limit" => {
                rules.move_limit = match v {
                    "on" | "true" => true,
                    "off" | "false" => false,
                    _ => return Err(Error::Io("--rule move-limit: on or off".into())),
                }
            }
            _ => {
                return Err(Error::Io(format!(
                    "--rule {k:?}: Xiangqi options are start=FEN and move-limit=on|off"
                )))
            }
        }
    }
    Ok(rules)
}

/// The game as the record and the move files say, every file checked.
#[derive(Clone, Debug)]
pub struct State {
    pub turns: Turns,
    pub game: Game,
    /// The comment of each move played on the board, in order (public, like the move files).
    pub comments: Vec<Option<String>>,
}

impl State {
    fn head(&self, g: &XiangqiGame) -> String {
        self.turns.head(&g.hash)
    }

    pub fn to_move(&self) -> Option<&'static str> {
        self.turns
            .end
            .is_none()
            .then(|| seat_of(self.game.position().side_to_move()))
    }
}

/// The colour of seat `seat` (0 red, 1 black).
pub(crate) fn color_of(seat: usize) -> Color {
    if seat == 0 {
        Color::Red
    } else {
        Color::Black
    }
}

/// Notes `ending` as the game's end and gives the record's `end` line (Xiangqi's and Jieqi's).
pub(crate) fn end_entry(turns: &mut Turns, ending: &Ending) -> Entry {
    let (winner, reason) = end_of(ending);
    turns.end(winner, reason)
}

/// The judge's forfeit of `seat`: the ending to play out and the record's lines (Xiangqi's and
/// Jieqi's).
pub(crate) fn forfeit_entries(
    turns: &mut Turns,
    seat: usize,
    reason: &str,
) -> (Ending, Vec<Entry>) {
    let winner = Some(SEATS[1 - seat].to_string());
    let ending = Ending::Forfeit {
        loser: color_of(seat),
    };
    (ending, turns.forfeit(&SEATS, seat, reason, winner))
}

/// The record lines of a match judge's adjudication (`winner`: a seat index; none: a draw),
/// and the ending it gives (Xiangqi and Jieqi).
pub(crate) fn adjudication_entries(
    turns: &mut Turns,
    winner: Option<usize>,
    reason: &str,
) -> (Ending, Vec<Entry>) {
    let ending = Ending::Adjudicated {
        winner: winner.map(color_of),
    };
    (ending, turns.adjudicate(&SEATS, winner, reason))
}

/// The record's reason and winner for a rules ending.
fn end_of(ending: &Ending) -> (Option<String>, EndReason) {
    let reason = match ending {
        Ending::Checkmate { .. } => EndReason::Checkmate,
        Ending::Stalemate { .. } => EndReason::Stalemate,
        Ending::PerpetualCheck { .. } => EndReason::PerpetualCheck,
        Ending::PerpetualChase { .. } => EndReason::PerpetualChase,
        Ending::Repetition => EndReason::Repetition,
        Ending::MoveLimit => EndReason::MoveLimit,
        Ending::Resignation { .. } => EndReason::Resignation,
        Ending::AgreedDraw => EndReason::Agreement,
        Ending::Forfeit { .. } => EndReason::Forfeit,
        Ending::Adjudicated { .. } => EndReason::Adjudication,
    };
    let winner = match ending.winner() {
        crate::games::xiangqi::rules::Winner::Side(c) => Some(seat_of(c).to_string()),
        crate::games::xiangqi::rules::Winner::Draw => None,
    };
    (winner, reason)
}

/// Plays one checked move file; returns the record entries it adds.
fn apply(
    state: &mut State,
    ply: u32,
    seat: usize,
    file: &MoveFile,
    hash: String,
    asked: Asked<Move>,
    received: String,
) -> Vec<Entry> {
    let (text, ending) = match asked {
        Asked::Play(m) => {
            let ending = state.game.play(m).ok().flatten().cloned();
            state.comments.push(file.comment.clone());
            (m.to_string(), ending)
        }
        Asked::Resign => {
            let ending = Ending::Resignation {
                loser: color_of(seat),
            };
            state.game.end(ending.clone());
            ("resign".to_string(), Some(ending))
        }
        Asked::AcceptDraw => {
            state.game.end(Ending::AgreedDraw);
            ("accept-draw".to_string(), Some(Ending::AgreedDraw))
        }
    };
    let line = MoveLine::plain(text, received);
    let mut entries = vec![state.turns.take(&SEATS, ply, seat, file, hash, line)];
    if let Some(ending) = ending {
        entries.push(end_entry(&mut state.turns, &ending));
    }
    entries
}

/// The judge's game for the rules contract (`rules::binding`): a fixed frame, the contract's
/// start and options.
pub fn contract_game(start: &Position, options: Options) -> XiangqiGame {
    XiangqiGame::contract(XiangqiRules {
        start: fen::write(start),
        move_limit: options.move_limit,
    })
}

/// Plays one legal move through the judge's own code (the rules contract's `apply`).
pub fn contract_play(g: &XiangqiGame, state: &mut State, m: crate::games::xiangqi::rules::Move) {
    let ply = state.game.moves().len() as u32 + 1;
    let seat = if state.game.position().side_to_move() == Color::Red {
        0
    } else {
        1
    };
    let file = crate::games::rules::contract_move_file(
        &g.manifest.id,
        &g.hash,
        ply,
        SEATS[seat],
        m.to_string(),
    );
    apply(
        state,
        ply,
        seat,
        &file,
        String::new(),
        Asked::Play(m),
        String::new(),
    );
}

crate::judge::pipeline::recorded!(State, turns.record);

impl Referee for XiangqiGame {
    type State = State;

    fn initial(&self) -> State {
        State {
            turns: Turns::default(),
            game: Game::new(self.start(), self.options()),
            comments: Vec::new(),
        }
    }

    /// The record opens with the start and begin lines; then one move file per ply.
    fn step(&self, state: &mut State, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        let (frame, clocked) = (self.frame(), self.manifest.clock.is_some());
        let first = || seat_of(self.start().side_to_move());
        if let Some(line) = state.turns.opening(cx, &frame, first, clocked) {
            return Ok(Some(vec![line]));
        }
        let Some(seat_name) = state.to_move() else {
            return Ok(None);
        };
        let seat = SEATS.iter().position(|s| *s == seat_name).unwrap_or(0);
        let ply = state.game.moves().len() as u32 + 1;
        let Some(turn) = Turns::next_file(cx, &frame, seat, ply)? else {
            return Ok(None);
        };
        let position = state.game.position();
        let asked = state
            .turns
            .check_move_file(&frame, &turn, ply, seat, |text| {
                notation::parse(position, text).map_err(|e| e.to_string())
            })?;
        let (file, hash) = (&turn.file, turn.hash.clone());
        Ok(Some(apply(
            state,
            ply,
            seat,
            file,
            hash,
            asked,
            cx.received(),
        )))
    }

    fn forfeit(&self, state: &mut State, seat: usize, reason: &str, _: &Ctx) -> Result<Vec<Entry>> {
        let (ending, lines) = forfeit_entries(&mut state.turns, seat, reason);
        state.game.end(ending);
        Ok(lines)
    }

    fn adjudicate(
        &self,
        state: &mut State,
        winner: Option<usize>,
        reason: &str,
        _: &Ctx,
    ) -> Result<Vec<Entry>> {
        let (ending, lines) = adjudication_entries(&mut state.turns, winner, reason);
        state.game.end(ending);
        Ok(lines)
    }

    fn is_over(&self, state: &State) -> bool {
        state.turns.end.is_some()
    }

    fn clock_turn(&self, state: &State) -> Option<(usize, u32)> {
        let seat = state.to_move()?;
        (state.turns.record.lines.len() >= 2).then(|| {
            (
                SEATS.iter().position(|s| *s == seat).unwrap_or(0),
                state.game.moves().len() as u32 + 1,
            )
        })
    }

    fn waiting(&self, state: &State) -> Option<String> {
        let seat = state.to_move()?;
        Some(format!(
            "{seat} to move (ply {})",
            state.game.moves().len() + 1
        ))
    }

    fn outputs(&self, _dir: &GameDir, state: &State, key: &PrivateKey) -> Result<Outputs> {
        Ok(outputs(self, state, key))
    }

    fn check_views(&self, dir: &GameDir, state: &State) -> Result<()> {
        crate::judge::published::check_views(dir, &self.frame(), &state.turns.record, |a| {
            let v = build_view(self, state, a);
            let text = crate::games::xiangqi::view::render_text(&self.manifest.players, &v, false);
            (v, text)
        })
    }
}

/// Builds one audience's view.
pub fn build_view(g: &XiangqiGame, state: &State, audience: &str) -> XiangqiView {
    view_at(g, state, audience, state.game.moves().len())
}

/// The view after the first `ply` moves (the replay page); the result and a standing draw
/// offer belong to the last position only.
pub fn view_at(g: &XiangqiGame, state: &State, audience: &str, ply: usize) -> XiangqiView {
    let ply = ply.min(state.game.moves().len());
    let latest = ply == state.game.moves().len();
    let position = &state.game.positions()[ply];
    let board =
        crate::games::xiangqi::view::board_rows(|s| position.piece_at(s).map(|p| p.fen_char()));
    let last_move = state.game.moves()[..ply].last().map(|&m| {
        let before = &state.game.positions()[ply - 1];
        LastMove {
            seat: seat_of(before.side_to_move()).into(),
            iccs: m.to_string(),
            wxf: notation::write(before, m, Notation::Wxf),
            chinese: notation::write(before, m, Notation::Chinese),
            captured: before.piece_at(m.to).map(|p| p.fen_char().to_string()),
            comment: state.comments.get(ply - 1).cloned().flatten(),
        }
    });
    let result = state
        .turns
        .end
        .as_ref()
        .filter(|_| latest)
        .map(|(winner, reason)| ViewResult::new(winner, *reason, state.game.ending()));
    let (draw_offer, closing) = state.turns.shown(&SEATS, latest);
    XiangqiView {
        format: XIANGQI_VIEW_FORMAT.into(),
        game: g.manifest.id.clone(),
        manifest: g.hash.clone(),
        audience: audience.into(),
        record_head: state.head(g),
        ply: ply as u32,
        to_move: match latest {
            true => state.to_move().map(str::to_string),
            false => Some(seat_of(position.side_to_move()).to_string()),
        },
        check: position.is_check(),
        fen: fen::write(position),
        board,
        moves: state.game.moves()[..ply]
            .iter()
            .map(|m| m.to_string())
            .collect(),
        last_move,
        draw_offer,
        closing,
        result,
    }
}

/// The signed outputs: record, each audience's view, the board picture.
pub fn outputs(g: &XiangqiGame, state: &State, key: &PrivateKey) -> Outputs {
    let audiences = [SEATS[0], SEATS[1], "public"];
    crate::judge::published::open_outputs(
        &state.turns.record,
        &audiences,
        |audience| build_view(g, state, audience),
        |v| crate::games::xiangqi::view::render_text(&g.manifest.players, v, false),
        crate::games::xiangqi::picture::xiangqi,
        key,
    )
}

/// Reads a published view after checking the judge's signature; none when absent.
pub fn read_view(dir: &GameDir, g: &XiangqiGame, audience: &str) -> Result<Option<XiangqiView>> {
    crate::judge::published::read_view(dir, &g.frame(), audience)
}

/// Audits a game from its files: manifest, record signature and chain, every move file, the
/// ending, and every published view (each must be exactly what the record gives).
pub fn verify(dir: &GameDir, g: &XiangqiGame) -> Result<State> {
    pipeline::verify(g, dir)
}

/// The state of a game from its signed files, for `status` and for players writing moves.
pub fn current(dir: &GameDir, g: &XiangqiGame) -> Result<State> {
    pipeline::current(g, dir, Mode::Judge)
}
