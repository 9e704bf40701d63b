//! Banqi's rules through the contract: the layout drawn by the fair shuffle from the seats'
//! seeds, played by the judge's own step code; each audience's information is the view the
//! judge publishes (what lies face down is nobody's to know).

use crate::referee::{self, BanqiGame, State};
use banqi_rules::{shuffle::shuffle, Action, Cell, Options};
use qijudge_rules::contract::{Rules, Turn};

/// Banqi with its options, judged in the contract's frame.
pub struct BanqiRules {
    game: BanqiGame,
}

impl BanqiRules {
    pub fn new(options: Options) -> BanqiRules {
        BanqiRules {
            game: referee::BanqiGame::contract(options),
        }
    }
}

/// A seat's seed as a 32-byte nonce.
fn nonce(seed: u64) -> [u8; 32] {
    let mut n = [0u8; 32];
    n[..8].copy_from_slice(&seed.to_be_bytes());
    n
}

impl Rules for BanqiRules {
    type State = State;
    type Action = Action;

    fn name(&self) -> String {
        "banqi".into()
    }

    fn seats(&self) -> usize {
        2
    }

    /// The layout is both seeds' shuffle: changing either seed rearranges what lies face
    /// down, which no seat knows either way.
    fn start(&self, seeds: &[u64]) -> State {
        let first = nonce(seeds.first().copied().unwrap_or(0));
        let second = nonce(seeds.get(1).copied().unwrap_or(0));
        qijudge_judge::turn_referee::contract_start(
            &self.game,
            shuffle("bq-rules", &first, &second),
        )
    }

    fn turn(&self, s: &State) -> Turn {
        match s.game.ending() {
            Some(_) => Turn::Over,
            None => Turn::Seat(s.game.position().to_move),
        }
    }

    fn legal_actions(&self, s: &State) -> Vec<Action> {
        if s.game.ending().is_some() {
            return Vec::new();
        }
        s.game.position().legal_actions()
    }

    fn candidate_actions(&self, s: &State) -> Vec<Action> {
        let squares: Vec<_> = banqi_rules::Square::all().collect();
        let mut out: Vec<Action> = squares.iter().map(|&s| Action::Flip(s)).collect();
        for &from in &squares {
            if matches!(s.game.position().cell(from), Some(Cell::Up(_))) {
                out.extend(squares.iter().map(|&to| Action::Move(from, to)));
            }
        }
        out
    }

    fn check(&self, s: &State, a: &Action) -> Result<(), String> {
        if s.game.ending().is_some() {
            return Err("the game is over".into());
        }
        s.game.position().check(*a).map_err(|e| e.to_string())
    }

    fn chance_outcomes(&self, _: &State) -> Vec<(Action, f64)> {
        Vec::new()
    }

    fn apply(&self, s: &mut State, a: &Action) {
        qijudge_judge::turn_referee::contract_play(&self.game, s, *a);
    }

    fn write_action(&self, _: &State, a: &Action) -> String {
        a.to_string()
    }

    fn parse_action(&self, s: &State, text: &str) -> Result<Action, String> {
        let a = Action::parse(text)
            .ok_or_else(|| format!("{text:?}: expected a square (a1) or a move (a1a2)"))?;
        self.check(s, &a).map(|_| a)
    }

    fn information(&self, s: &State, viewer: Option<usize>) -> String {
        let audience = viewer.map_or("public", |v| referee::SEATS[v]);
        let view = referee::build_view(&self.game, s, audience);
        let text = crate::view::render_text(&self.game.manifest.players, &view, false);
        qijudge_view::to_json(&view) + &text
    }

    fn returns(&self, s: &State) -> Option<Vec<f64>> {
        Some(match s.game.ending()?.winner() {
            None => vec![0.0, 0.0],
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
        })
    }
}
