//! Xiangqi's rules through the contract: the judge's own state and step, with the repetition
//! rules; everything public, and each audience's information is the view the judge publishes.

use crate::referee::{self, XiangqiGame};
use qijudge_rules::contract::{Rules, Turn};
use xiangqi_rules::board::{Color, Square};
use xiangqi_rules::game::{Options, Winner};
use xiangqi_rules::notation;
use xiangqi_rules::position::{Move, Position};

/// Xiangqi from a start position with its options, judged in the contract's frame.
pub struct XiangqiRules {
    game: XiangqiGame,
}

impl XiangqiRules {
    pub fn new(start: Position, options: Options) -> XiangqiRules {
        XiangqiRules {
            game: referee::contract_game(&start, options),
        }
    }
}

impl Default for XiangqiRules {
    fn default() -> XiangqiRules {
        XiangqiRules::new(Position::start(), Options::default())
    }
}

fn seat_of(color: Color) -> usize {
    match color {
        Color::Red => 0,
        Color::Black => 1,
    }
}

impl Rules for XiangqiRules {
    type State = referee::State;
    type Action = Move;

    fn name(&self) -> String {
        "xiangqi".into()
    }

    fn seats(&self) -> usize {
        2
    }

    fn start(&self, _seeds: &[u64]) -> referee::State {
        qijudge_judge::pipeline::Referee::initial(&self.game)
    }

    fn turn(&self, s: &referee::State) -> Turn {
        match s.game.ending() {
            Some(_) => Turn::Over,
            None => Turn::Seat(seat_of(s.game.position().side_to_move())),
        }
    }

    fn legal_actions(&self, s: &referee::State) -> Vec<Move> {
        if s.game.ending().is_some() {
            return Vec::new();
        }
        s.game.position().legal_moves().iter().collect()
    }

    fn candidate_actions(&self, s: &referee::State) -> Vec<Move> {
        let p = s.game.position();
        let side = p.side_to_move();
        let squares: Vec<Square> = (0..90).filter_map(Square::from_index).collect();
        let mut out = Vec::new();
        for &from in &squares {
            if p.piece_at(from).is_some_and(|piece| piece.color == side) {
                out.extend(squares.iter().map(|&to| Move { from, to }));
            }
        }
        out
    }

    fn check(&self, s: &referee::State, m: &Move) -> Result<(), String> {
        if s.game.ending().is_some() {
            return Err("the game is over".into());
        }
        s.game.position().check_move(*m).map_err(|e| e.to_string())
    }

    fn chance_outcomes(&self, _: &referee::State) -> Vec<(Move, f64)> {
        Vec::new()
    }

    fn apply(&self, s: &mut referee::State, m: &Move) {
        qijudge_judge::turn_referee::contract_play(&self.game, s, *m);
    }

    fn write_action(&self, _: &referee::State, m: &Move) -> String {
        m.to_string()
    }

    fn parse_action(&self, s: &referee::State, text: &str) -> Result<Move, String> {
        notation::parse(s.game.position(), text).map_err(|e| e.to_string())
    }

    fn information(&self, s: &referee::State, viewer: Option<usize>) -> String {
        let audience = viewer.map_or("public", |v| referee::SEATS[v]);
        let view = referee::build_view(&self.game, s, audience);
        let text = crate::view::render_text(&self.game.manifest.players, &view, false);
        qijudge_view::to_json(&view) + &text
    }

    fn returns(&self, s: &referee::State) -> Option<Vec<f64>> {
        Some(match s.game.ending()?.winner() {
            Winner::Draw => vec![0.0, 0.0],
            Winner::Side(c) if seat_of(c) == 0 => vec![1.0, -1.0],
            Winner::Side(_) => vec![-1.0, 1.0],
        })
    }
}
