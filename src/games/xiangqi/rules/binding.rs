//! Xiangqi's rules through the contract: the game with its repetition rules, everything public.

use crate::games::rules::{Rules, Turn};
use crate::rules::xiangqi::board::{Color, Square};
use crate::rules::xiangqi::game::{Game, Options, Winner};
use crate::rules::xiangqi::position::{Move, Position};
use crate::rules::xiangqi::{fen, notation};

/// Xiangqi from a start position with its options.
pub struct XiangqiRules {
    pub start: Position,
    pub options: Options,
}

impl Default for XiangqiRules {
    fn default() -> XiangqiRules {
        XiangqiRules {
            start: Position::start(),
            options: Options::default(),
        }
    }
}

fn seat_of(color: Color) -> usize {
    match color {
        Color::Red => 0,
        Color::Black => 1,
    }
}

impl Rules for XiangqiRules {
    type State = Game;
    type Action = Move;

    fn name(&self) -> String {
        "xiangqi".into()
    }

    fn seats(&self) -> usize {
        2
    }

    fn start(&self, _seeds: &[u64]) -> Game {
        Game::new(self.start.clone(), self.options)
    }

    fn turn(&self, g: &Game) -> Turn {
        match g.ending() {
            Some(_) => Turn::Over,
            None => Turn::Seat(seat_of(g.position().side_to_move())),
        }
    }

    fn legal_actions(&self, g: &Game) -> Vec<Move> {
        if g.ending().is_some() {
            return Vec::new();
        }
        g.position().legal_moves().iter().collect()
    }

    fn candidate_actions(&self, g: &Game) -> Vec<Move> {
        let p = g.position();
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

    fn check(&self, g: &Game, m: &Move) -> Result<(), String> {
        if g.ending().is_some() {
            return Err("the game is over".into());
        }
        g.position().check_move(*m).map_err(|e| e.to_string())
    }

    fn chance_outcomes(&self, _: &Game) -> Vec<(Move, f64)> {
        Vec::new()
    }

    fn apply(&self, g: &mut Game, m: &Move) {
        // Only legal moves reach here (the contract); an illegal one changes nothing.
        let _ = g.play(*m);
    }

    fn write_action(&self, _: &Game, m: &Move) -> String {
        m.to_string()
    }

    fn parse_action(&self, g: &Game, text: &str) -> Result<Move, String> {
        notation::parse(g.position(), text).map_err(|e| e.to_string())
    }

    fn information(&self, g: &Game, _viewer: Option<usize>) -> String {
        // Perfect information: every viewer sees the position, the moves and the ending.
        let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
        let ending = g.ending().map(|e| e.to_string()).unwrap_or_default();
        format!(
            "{}\n{}\n{ending}\n",
            fen::write(g.position()),
            moves.join(" ")
        )
    }

    fn returns(&self, g: &Game) -> Option<Vec<f64>> {
        Some(match g.ending()?.winner() {
            Winner::Draw => vec![0.0, 0.0],
            Winner::Side(c) if seat_of(c) == 0 => vec![1.0, -1.0],
            Winner::Side(_) => vec![-1.0, 1.0],
        })
    }
}
