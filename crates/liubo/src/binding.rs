//! Liubo's rules through the contract: each turn begins with a chance node (the throw: two
//! groups of three sticks), then the mover plays the whole turn as one action. The judge's own
//! state and bookkeeping carry the game; each audience's information is the published view.

use crate::referee::{self, LiuboGame, State};
use liubo_rules::notation::{parse_turn, write_turn};
use liubo_rules::{Move, Options, Position};
use qijudge_rules::contract::{Rules, Turn};

/// Liubo with its options, judged in the contract's frame; seat 0 (A) throws first.
pub struct LiuboRules {
    game: LiuboGame,
}

impl LiuboRules {
    pub fn new(options: Options) -> LiuboRules {
        LiuboRules {
            game: referee::LiuboGame::contract(options),
        }
    }
}

/// The board of a contract game (play begins at the start).
fn board(s: &State) -> &Position {
    s.position
        .as_ref()
        .expect("a contract game begins at its start")
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
    type State = State;
    type Action = LiuboAction;

    fn name(&self) -> String {
        "liubo".into()
    }

    fn seats(&self) -> usize {
        2
    }

    fn start(&self, _seeds: &[u64]) -> State {
        referee::contract_start(&self.game, 0)
    }

    fn turn(&self, s: &State) -> Turn {
        let p = board(s);
        if p.result.is_some() {
            Turn::Over
        } else if p.current_throw().is_none() {
            Turn::Chance
        } else {
            Turn::Seat(p.to_move)
        }
    }

    fn legal_actions(&self, s: &State) -> Vec<LiuboAction> {
        let p = board(s);
        if self.turn(s) != Turn::Seat(p.to_move) {
            return Vec::new();
        }
        let mut turns = p.legal_turns();
        turns.sort();
        turns.dedup();
        turns.into_iter().map(LiuboAction::Turn).collect()
    }

    fn candidate_actions(&self, s: &State) -> Vec<LiuboAction> {
        let p = board(s);
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

    fn check(&self, s: &State, action: &LiuboAction) -> Result<(), String> {
        let p = board(s);
        match action {
            LiuboAction::Throw(..) => Err("a throw is not the player's to choose".into()),
            LiuboAction::Turn(moves) => p
                .clone()
                .play_turn(moves)
                .map(|_| ())
                .map_err(|(i, e)| format!("move {}: {e}", i + 1)),
        }
    }

    fn chance_outcomes(&self, s: &State) -> Vec<(LiuboAction, f64)> {
        if self.turn(s) != Turn::Chance {
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

    fn apply(&self, s: &mut State, action: &LiuboAction) {
        // Only legal actions reach here (the contract); an illegal one changes nothing.
        match action {
            LiuboAction::Throw(a, b) => referee::contract_throw(&self.game, s, (*a, *b)),
            LiuboAction::Turn(moves) => referee::contract_turn(s, moves),
        }
    }

    fn write_action(&self, _: &State, action: &LiuboAction) -> String {
        match action {
            LiuboAction::Throw(a, b) => format!("throw {a} {b}"),
            LiuboAction::Turn(moves) => write_turn(moves),
        }
    }

    fn parse_action(&self, s: &State, text: &str) -> Result<LiuboAction, String> {
        let p = board(s);
        parse_turn(p, text)
            .map(LiuboAction::Turn)
            .map_err(|e| e.to_string())
    }

    fn information(&self, s: &State, viewer: Option<usize>) -> String {
        let audience = viewer.map_or("public", |v| referee::SEATS[v]);
        let view = referee::build_view(&self.game, s, audience);
        let text = crate::view::render_text(&self.game.manifest.players, &view);
        qijudge_view::to_json(&view) + &text
    }

    fn returns(&self, s: &State) -> Option<Vec<f64>> {
        let p = board(s);
        let result = p.result.as_ref()?;
        Some(match result.winner {
            None => vec![0.0, 0.0],
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
        })
    }
}
