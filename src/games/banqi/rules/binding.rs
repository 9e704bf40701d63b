//! Banqi's rules through the contract: the layout drawn by the fair shuffle from the seats'
//! seeds; every viewer is shown the same (what lies face down is nobody's to know).

use super::{shuffle::shuffle, Action, Cell, Game, Layout, Options};
use crate::games::rules::{Rules, Turn};

/// Banqi with its options.
#[derive(Default)]
pub struct BanqiRules {
    pub options: Options,
}

/// A game with the layout it is played on.
#[derive(Clone, Debug)]
pub struct BanqiState {
    pub game: Game,
    pub layout: Layout,
}

/// A seat's seed as a 32-byte nonce.
fn nonce(seed: u64) -> [u8; 32] {
    let mut n = [0u8; 32];
    n[..8].copy_from_slice(&seed.to_be_bytes());
    n
}

impl BanqiState {
    /// What the face-down piece an action turns up or takes is, from the layout.
    pub fn identity(&self, action: Action) -> Option<crate::rules::xiangqi::Piece> {
        let square = match action {
            Action::Flip(s) | Action::Move(_, s) => s,
        };
        (self.game.position().cell(square) == Some(Cell::Down)).then(|| self.layout.at(square))
    }
}

impl Rules for BanqiRules {
    type State = BanqiState;
    type Action = Action;

    fn name(&self) -> String {
        "banqi".into()
    }

    fn seats(&self) -> usize {
        2
    }

    /// The layout is both seeds' shuffle: changing either seed rearranges what lies face
    /// down, which no seat knows either way.
    fn start(&self, seeds: &[u64]) -> BanqiState {
        let first = nonce(seeds.first().copied().unwrap_or(0));
        let second = nonce(seeds.get(1).copied().unwrap_or(0));
        BanqiState {
            game: Game::new(self.options),
            layout: shuffle("bq-rules", &first, &second),
        }
    }

    fn turn(&self, s: &BanqiState) -> Turn {
        match s.game.ending() {
            Some(_) => Turn::Over,
            None => Turn::Seat(s.game.position().to_move),
        }
    }

    fn legal_actions(&self, s: &BanqiState) -> Vec<Action> {
        if s.game.ending().is_some() {
            return Vec::new();
        }
        s.game.position().legal_actions()
    }

    fn candidate_actions(&self, s: &BanqiState) -> Vec<Action> {
        let squares: Vec<_> = super::Square::all().collect();
        let mut out: Vec<Action> = squares.iter().map(|&s| Action::Flip(s)).collect();
        for &from in &squares {
            if matches!(s.game.position().cell(from), Some(Cell::Up(_))) {
                out.extend(squares.iter().map(|&to| Action::Move(from, to)));
            }
        }
        out
    }

    fn check(&self, s: &BanqiState, a: &Action) -> Result<(), String> {
        if s.game.ending().is_some() {
            return Err("the game is over".into());
        }
        s.game.position().check(*a).map_err(|e| e.to_string())
    }

    fn chance_outcomes(&self, _: &BanqiState) -> Vec<(Action, f64)> {
        Vec::new()
    }

    fn apply(&self, s: &mut BanqiState, a: &Action) {
        let identity = s.identity(*a);
        // Only legal actions reach here (the contract); an illegal one changes nothing.
        let _ = s.game.play(*a, identity);
    }

    fn write_action(&self, _: &BanqiState, a: &Action) -> String {
        a.to_string()
    }

    fn parse_action(&self, s: &BanqiState, text: &str) -> Result<Action, String> {
        let a = Action::parse(text)
            .ok_or_else(|| format!("{text:?}: expected a square (a1) or a move (a1a2)"))?;
        self.check(s, &a).map(|_| a)
    }

    /// The same for every viewer: the board, what each turn turned up or took, the ending.
    fn information(&self, s: &BanqiState, _viewer: Option<usize>) -> String {
        let played: Vec<String> = s
            .game
            .played()
            .iter()
            .map(|p| {
                let up = p.revealed.map(|r| format!("={}", r.fen_char()));
                let took = p.captured.map(|c| format!("x{}", c.fen_char()));
                format!(
                    "{}{}{}",
                    p.action,
                    up.unwrap_or_default(),
                    took.unwrap_or_default()
                )
            })
            .collect();
        let ending = s.game.ending().map(|e| e.to_string()).unwrap_or_default();
        format!(
            "{}\n{}\n{ending}\n",
            s.game.position().text(),
            played.join(" ")
        )
    }

    fn returns(&self, s: &BanqiState) -> Option<Vec<f64>> {
        Some(match s.game.ending()?.winner() {
            None => vec![0.0, 0.0],
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
        })
    }
}
