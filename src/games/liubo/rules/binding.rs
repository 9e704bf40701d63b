//! Liubo's rules through the contract: each turn begins with a chance node (the throw: two
//! groups of three sticks), then the mover plays the whole turn as one action.

use crate::games::rules::{Rules, Turn};
use crate::rules::liubo::notation::{parse_turn, write_turn};
use crate::rules::liubo::{Move, Options, Position};

/// Liubo with its options; seat 0 (A) throws first.
#[derive(Default)]
pub struct LiuboRules {
    pub options: Options,
}

/// A throw (a chance outcome) or a whole turn.
#[derive(Clone, Debug, PartialEq)]
pub enum LiuboAction {
    Throw(u8, u8),
    Turn(Vec<Move>),
}

/// The chance of a group of three sticks giving `value` (1 + the number of yang faces).
fn group_probability(value: u8) -> f64 {
    match value {
        1 | 4 => 1.0 / 8.0,
        _ => 3.0 / 8.0,
    }
}

impl Rules for LiuboRules {
    type State = Position;
    type Action = LiuboAction;

    fn name(&self) -> String {
        "liubo".into()
    }

    fn seats(&self) -> usize {
        2
    }

    fn start(&self, _seeds: &[u64]) -> Position {
        Position::new(self.options.clone(), 0)
    }

    fn turn(&self, p: &Position) -> Turn {
        if p.result.is_some() {
            Turn::Over
        } else if p.current_throw().is_none() {
            Turn::Chance
        } else {
            Turn::Seat(p.to_move)
        }
    }

    fn legal_actions(&self, p: &Position) -> Vec<LiuboAction> {
        if self.turn(p) != Turn::Seat(p.to_move) {
            return Vec::new();
        }
        let mut turns = p.legal_turns();
        turns.sort();
        turns.dedup();
        turns.into_iter().map(LiuboAction::Turn).collect()
    }

    fn candidate_actions(&self, p: &Position) -> Vec<LiuboAction> {
        // Every pairing of two moves legal at the start of the turn: the same piece twice, a
        // value used twice and a second move the first made impossible are among them.
        let firsts = p.legal_moves();
        let mut out: Vec<LiuboAction> = firsts
            .iter()
            .map(|m| LiuboAction::Turn(vec![m.clone()]))
            .collect();
        for a in &firsts {
            for b in &firsts {
                out.push(LiuboAction::Turn(vec![a.clone(), b.clone()]));
            }
        }
        out
    }

    fn check(&self, p: &Position, action: &LiuboAction) -> Result<(), String> {
        match action {
            LiuboAction::Throw(..) => Err("a throw is not the player's to choose".into()),
            LiuboAction::Turn(moves) => p
                .clone()
                .play_turn(moves)
                .map(|_| ())
                .map_err(|(i, e)| format!("move {}: {e}", i + 1)),
        }
    }

    fn chance_outcomes(&self, p: &Position) -> Vec<(LiuboAction, f64)> {
        if self.turn(p) != Turn::Chance {
            return Vec::new();
        }
        let mut out = Vec::new();
        for a in 1..=4 {
            for b in 1..=4 {
                let chance = group_probability(a) * group_probability(b);
                out.push((LiuboAction::Throw(a, b), chance));
            }
        }
        out
    }

    fn apply(&self, p: &mut Position, action: &LiuboAction) {
        // Only legal actions reach here (the contract); an illegal one changes nothing.
        match action {
            LiuboAction::Throw(a, b) => {
                let _ = p.begin_turn((*a, *b));
            }
            LiuboAction::Turn(moves) => {
                let _ = p.play_turn(moves);
            }
        }
    }

    fn write_action(&self, _: &Position, action: &LiuboAction) -> String {
        match action {
            LiuboAction::Throw(a, b) => format!("throw {a} {b}"),
            LiuboAction::Turn(moves) => write_turn(moves),
        }
    }

    fn parse_action(&self, p: &Position, text: &str) -> Result<LiuboAction, String> {
        parse_turn(p, text)
            .map(LiuboAction::Turn)
            .map_err(|e| e.to_string())
    }

    fn information(&self, p: &Position, _viewer: Option<usize>) -> String {
        // Nothing is hidden on the board; the throws are secret only until they are made.
        format!("{p:?}")
    }

    fn returns(&self, p: &Position) -> Option<Vec<f64>> {
        let result = p.result.as_ref()?;
        Some(match result.winner {
            None => vec![0.0, 0.0],
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
        })
    }
}
