//! The Xiangqi judge. Xiangqi has no hidden information, so there are no setups: the judge
//! checks signed moves (in any notation), keeps the hash-chained record, decides every ending by
//! the rules, and publishes the same signed view to both players and the public.

use super::manifest::*;
use crate::error::{refuse, Error, Result};
use crate::games::xiangqi::rules::notation::{self, Notation};
use crate::games::xiangqi::rules::{fen, Color, Ending, Game, Options, Position};
use crate::judge::manifest::Seated;
use crate::judge::pipeline::{self, Ctx, Mode, Referee};
use crate::protocol::files::*;
use crate::protocol::record::Record;
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
    pub record: Record,
    pub game: Game,
    /// The seat whose last move offered a draw, while the offer stands.
    pub draw_offer: Option<usize>,
    /// How the game ended, as recorded (resignation and forfeits included).
    pub end: Option<(Option<String>, EndReason)>,
    /// The comment of each move played on the board, in order (public, like the move files).
    pub comments: Vec<Option<String>>,
    /// The signed move that ended the game off the board (resign, accept-draw).
    pub closing: Option<Closing>,
}

impl State {
    fn head(&self, g: &XiangqiGame) -> String {
        self.record.head_or(&g.hash)
    }

    pub fn to_move(&self) -> Option<&'static str> {
        self.end
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
pub(crate) fn end_entry(end: &mut Option<(Option<String>, EndReason)>, ending: &Ending) -> Entry {
    let (winner, reason) = end_of(ending);
    *end = Some((winner.clone(), reason));
    Entry::End {
        winner,
        allies: Vec::new(),
        reason,
    }
}

/// The judge's forfeit of `seat`: the ending to play out and the record's lines (Xiangqi's and
/// Jieqi's).
pub(crate) fn forfeit_entries(
    end: &mut Option<(Option<String>, EndReason)>,
    seat: usize,
    reason: &str,
) -> (Ending, Vec<Entry>) {
    let ending = Ending::Forfeit {
        loser: color_of(seat),
    };
    let lines = vec![
        Entry::Forfeit {
            seat: SEATS[seat].into(),
            reason: reason.into(),
            at: None,
        },
        end_entry(end, &ending),
    ];
    (ending, lines)
}

/// The record lines of a match judge's adjudication (`winner`: a seat index; none: a draw),
/// and the ending it gives (Xiangqi and Jieqi).
pub(crate) fn adjudication_entries(
    end: &mut Option<(Option<String>, EndReason)>,
    winner: Option<usize>,
    reason: &str,
) -> (Ending, Vec<Entry>) {
    let ending = Ending::Adjudicated {
        winner: winner.map(color_of),
    };
    let lines = vec![
        Entry::Adjudicated {
            winner: winner.map(|w| SEATS[w].to_string()),
            reason: reason.into(),
        },
        end_entry(end, &ending),
    ];
    (ending, lines)
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

/// A move file read, signature-checked and parsed, with its hash.
struct SignedMove {
    file: MoveFile,
    hash: String,
}

fn read_move(dir: &GameDir, g: &XiangqiGame, path: &str, seat: usize) -> Result<SignedMove> {
    let (file, hash) = crate::judge::player_files::read_signed_move(dir, &g.frame(), path, seat)?;
    Ok(SignedMove { file, hash })
}

/// What a move file asks for.
enum Action {
    Play(crate::games::xiangqi::rules::Move),
    Resign,
    AcceptDraw,
}

/// Checks a move file's binding (game, manifest, ply, seat, answered head) and reads its move.
fn check_move_file(
    g: &XiangqiGame,
    state: &State,
    path: &str,
    ply: u32,
    seat: usize,
    m: &MoveFile,
) -> Result<Action> {
    let bad = |field: &str, reason: String| refuse(path, Some(field), reason);
    let heads = state.record.answerable_heads(&g.hash);
    crate::judge::player_files::check_binding(&g.frame(), path, m, ply, seat, &heads)?;
    crate::judge::player_files::no_chain_fields(path, m)?;
    match m.action.as_str() {
        "resign" => Ok(Action::Resign),
        "accept-draw" => {
            if state.draw_offer.is_some_and(|s| s != seat) {
                Ok(Action::AcceptDraw)
            } else {
                Err(bad(
                    "move",
                    "accept-draw, but no draw offer from the opponent stands".into(),
                ))
            }
        }
        text => notation::parse(state.game.position(), text)
            .map(Action::Play)
            .map_err(|e| bad("move", e.to_string())),
    }
}

/// Plays one checked move file; returns the record entries it adds.
fn apply(
    state: &mut State,
    ply: u32,
    seat: usize,
    signed: &SignedMove,
    action: Action,
    received: String,
) -> Vec<Entry> {
    let offer = signed.file.offer_draw;
    let (text, ending) = match action {
        Action::Play(m) => {
            let text = m.to_string();
            let ending = state.game.play(m).ok().flatten().cloned();
            state.comments.push(signed.file.comment.clone());
            (text, ending)
        }
        Action::Resign => {
            let loser = color_of(seat);
            let ending = Ending::Resignation { loser };
            state.game.end(ending.clone());
            ("resign".to_string(), Some(ending))
        }
        Action::AcceptDraw => {
            state.game.end(Ending::AgreedDraw);
            ("accept-draw".to_string(), Some(Ending::AgreedDraw))
        }
    };
    if matches!(action, Action::Resign | Action::AcceptDraw) {
        state.closing = Some(Closing {
            ply,
            seat: SEATS[seat].into(),
            action: text.clone(),
            comment: signed.file.comment.clone(),
        });
    }
    // An offer stands until the opponent's next move.
    state.draw_offer = offer.then_some(seat);
    let mut entries = vec![Entry::Move {
        ply,
        seat: SEATS[seat].into(),
        file: signed.hash.clone(),
        received,
        action: text,
        outcome: None,
        notices: Vec::new(),
        draw_offered: offer,
        revealed: None,
    }];
    if let Some(ending) = ending {
        entries.push(end_entry(&mut state.end, &ending));
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
    let signed = SignedMove {
        file,
        hash: String::new(),
    };
    apply(state, ply, seat, &signed, Action::Play(m), String::new());
}

crate::judge::pipeline::recorded!(State);

impl Referee for XiangqiGame {
    type State = State;

    fn initial(&self) -> State {
        State {
            record: Record::new(),
            game: Game::new(self.start(), self.options()),
            draw_offer: None,
            end: None,
            comments: Vec::new(),
            closing: None,
        }
    }

    /// The record opens with the start and begin lines; then one move file per ply.
    fn step(&self, state: &mut State, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        match state.record.lines.len() {
            0 => {
                return Ok(Some(vec![Entry::Start {
                    format: RECORD_FORMAT.into(),
                    game: self.manifest.id.clone(),
                    manifest: self.hash.clone(),
                }]))
            }
            1 => {
                let recorded = match cx.recorded() {
                    Some(Entry::Begin { at, .. }) => Some(at),
                    _ => None,
                };
                return Ok(Some(vec![Entry::Begin {
                    first: seat_of(self.start().side_to_move()).into(),
                    lot_nonces: Default::default(),
                    at: cx.at(recorded, self.manifest.clock.is_some()),
                }]));
            }
            _ => {}
        }
        let Some(seat_name) = state.to_move() else {
            return Ok(None);
        };
        let seat = SEATS.iter().position(|s| *s == seat_name).unwrap_or(0);
        let ply = state.game.moves().len() as u32 + 1;
        let Some(path) = crate::judge::precheck_files::turn_file(cx, &SEATS, seat, ply)? else {
            return Ok(None);
        };
        let signed = read_move(cx.dir, self, &path, seat)?;
        let action = check_move_file(self, state, &path, ply, seat, &signed.file)?;
        Ok(Some(apply(
            state,
            ply,
            seat,
            &signed,
            action,
            cx.received(),
        )))
    }

    fn forfeit(&self, state: &mut State, seat: usize, reason: &str, _: &Ctx) -> Result<Vec<Entry>> {
        let (ending, lines) = forfeit_entries(&mut state.end, seat, reason);
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
        let (ending, lines) = adjudication_entries(&mut state.end, winner, reason);
        state.game.end(ending);
        Ok(lines)
    }

    fn is_over(&self, state: &State) -> bool {
        state.end.is_some()
    }

    fn clock_turn(&self, state: &State) -> Option<(usize, u32)> {
        let seat = state.to_move()?;
        (state.record.lines.len() >= 2).then(|| {
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

    fn outputs(
        &self,
        _dir: &GameDir,
        state: &State,
        key: &PrivateKey,
    ) -> Result<Vec<(String, Option<Vec<u8>>)>> {
        Ok(outputs(self, state, key))
    }

    fn check_views(&self, dir: &GameDir, state: &State) -> Result<()> {
        crate::judge::published::check_views(
            dir,
            &self.frame(),
            &[SEATS[0], SEATS[1], "public"],
            state.record.lines.is_empty(),
            |a| {
                let v = build_view(self, state, a);
                let text =
                    crate::games::xiangqi::view::render_text(&self.manifest.players, &v, false);
                (v, text)
            },
        )
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
        .end
        .as_ref()
        .filter(|_| latest)
        .map(|(winner, reason)| ViewResult::new(winner, *reason, state.game.ending()));
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
        draw_offer: state
            .draw_offer
            .filter(|_| latest)
            .map(|s| SEATS[s].to_string()),
        closing: state.closing.clone().filter(|_| latest),
        result,
    }
}

/// The signed outputs: record, each audience's view, the board picture.
pub fn outputs(g: &XiangqiGame, state: &State, key: &PrivateKey) -> Vec<(String, Option<Vec<u8>>)> {
    let audiences = [SEATS[0], SEATS[1], "public"];
    crate::judge::published::open_outputs(
        &state.record,
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
