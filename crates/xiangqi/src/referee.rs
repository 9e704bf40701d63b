//! The Xiangqi judge. Xiangqi has no hidden information, so there are no setups: the judge
//! checks signed moves (in any notation), keeps the hash-chained record, decides every ending by
//! the rules, and publishes the same signed view to both players and the public.

use super::manifest::*;
use qijudge_judge::pipeline::Ctx;
use qijudge_judge::turn_referee::{view_head, OffBoard, Played, RulesEnd, TurnReferee};
use qijudge_judge::turns::Turns;
use qijudge_protocol::error::{Error, Result};
use qijudge_rules::EndReason;
use qijudge_view::make_turn_view;
use xiangqi_rules::notation::{self, Notation};
use xiangqi_rules::{fen, Color, Ending, Game, Move, Options, Position};

pub use crate::view::{Closing, LastMove, ViewResult, XiangqiView};

pub use crate::manifest::SEATS;

qijudge_judge::seated_game! {
    /// A checked Xiangqi manifest with its keys.
    pub struct XiangqiGame(crate::Xiangqi);
}

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
pub fn seat_of(color: Color) -> &'static str {
    SEATS[color.index()]
}

/// The rule options from `--rule key=value` items: `start=FEN`, `move-limit=on|off`.
pub fn rules_from(items: &[String]) -> Result<XiangqiRules> {
    let mut rules = XiangqiRules {
        start: fen::START.into(),
        move_limit: false,
    };
    for (k, v) in qijudge_game::rule_pairs(items)? {
        match k {
            "start" => {
                let p = fen::parse(v).map_err(|e| Error::Io(format!("--rule start: {e}")))?;
                rules.start = fen::write(&p);
            }
            "move-limit" => rules.move_limit = qijudge_game::on_off(k, v)?,
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
}

impl State {
    pub fn to_move(&self) -> Option<&'static str> {
        self.turns
            .end
            .is_none()
            .then(|| seat_of(self.game.position().side_to_move()))
    }
}

/// The colour of seat `seat` (0 red, 1 black).
pub fn color_of(seat: usize) -> Color {
    if seat == 0 {
        Color::Red
    } else {
        Color::Black
    }
}

/// The ending an off-board decision gives on the board (Xiangqi's and Jieqi's).
pub fn off_board_ending(how: OffBoard) -> Ending {
    match how {
        OffBoard::Resignation { loser } => Ending::Resignation {
            loser: color_of(loser),
        },
        OffBoard::Agreement => Ending::AgreedDraw,
        OffBoard::Forfeit { loser } => Ending::Forfeit {
            loser: color_of(loser),
        },
        OffBoard::Adjudicated { winner } => Ending::Adjudicated {
            winner: winner.map(color_of),
        },
    }
}

/// The record's winning seat and reason for a rules ending (Xiangqi's and Jieqi's).
pub fn end_of(ending: &Ending) -> RulesEnd {
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
        xiangqi_rules::Winner::Side(c) => Some(c.index()),
        xiangqi_rules::Winner::Draw => None,
    };
    (winner, reason)
}

/// The judge's game for the rules contract (`binding`): a fixed frame, the contract's
/// start and options.
pub fn contract_game(start: &Position, options: Options) -> XiangqiGame {
    XiangqiGame::contract(XiangqiRules {
        start: fen::write(start),
        move_limit: options.move_limit,
    })
}

qijudge_judge::turn_state!(State);

impl TurnReferee for XiangqiGame {
    type State = State;
    type Move = Move;
    type View = XiangqiView;
    const ADJUDICATED: bool = true;

    fn start_state(&self) -> State {
        State {
            turns: Turns::default(),
            game: Game::new(self.start(), self.options()),
        }
    }

    fn seat_to_move(&self, state: &State) -> usize {
        state.game.position().side_to_move().index()
    }

    fn plies(state: &State) -> u32 {
        state.game.moves().len() as u32
    }

    fn parse(&self, state: &State, text: &str) -> std::result::Result<Move, String> {
        notation::parse(state.game.position(), text).map_err(|e| e.to_string())
    }

    fn play(&self, state: &mut State, _: &Ctx, _: u32, _: usize, m: Move) -> Result<Played> {
        let ending = state.game.play(m).ok().flatten().map(end_of);
        Ok(Played::plain(m, ending))
    }

    fn end_off_board(&self, state: &mut State, how: OffBoard) {
        state.game.end(off_board_ending(how));
    }

    fn view(&self, state: &State, audience: &str) -> XiangqiView {
        build_view(self, state, audience)
    }

    fn text(&self, v: &XiangqiView) -> String {
        crate::view::render_text(&self.manifest.players, v, false)
    }

    fn picture(&self, v: &XiangqiView) -> String {
        crate::picture::xiangqi(v)
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
    let position = &state.game.positions()[ply];
    let board = crate::view::board_rows(|s| position.piece_at(s).map(|p| p.fen_char()));
    let last_move = state.game.moves()[..ply].last().map(|&m| {
        let before = &state.game.positions()[ply - 1];
        LastMove {
            seat: seat_of(before.side_to_move()).into(),
            iccs: m.to_string(),
            wxf: notation::write(before, m, Notation::Wxf),
            chinese: notation::write(before, m, Notation::Chinese),
            captured: before.piece_at(m.to).map(|p| p.fen_char().to_string()),
            comment: state.turns.comments.get(ply - 1).cloned().flatten(),
        }
    });
    let seat_then = position.side_to_move().index();
    let head = view_head(g, state, XIANGQI_VIEW_FORMAT, audience, ply, seat_then);
    let result =
        (head.end.clone()).map(|(w, r)| ViewResult::new(&w, SEATS[0], r, state.game.ending()));
    let moves = state.game.moves()[..ply].iter().map(|m| m.to_string());
    make_turn_view!(
        XiangqiView {
            check: position.is_check(),
            fen: fen::write(position),
            board,
            moves: moves.collect(),
            last_move,
        },
        head,
        result
    )
}
