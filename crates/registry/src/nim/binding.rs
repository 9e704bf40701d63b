//! Nim through the rules contract: the judge's own state and step; each audience's
//! information is the view the judge publishes (everything, since Nim hides nothing).

use super::referee::{self, NimGame, State};
use super::rules::{Take, MOST};
use qijudge_judge::pipeline::Referee;
use qijudge_rules::contract::{Rules, Turn};

pub struct NimRules {
    game: NimGame,
}

impl NimRules {
    pub fn new(stones: u32) -> NimRules {
        NimRules {
            game: referee::NimGame::contract(referee::NimOptions { stones }),
        }
    }
}

impl Rules for NimRules {
    type State = State;
    type Action = Take;

    fn name(&self) -> String {
        "nim".into()
    }

    fn seats(&self) -> usize {
        2
    }

    fn start(&self, _seeds: &[u64]) -> State {
        self.game.initial()
    }

    fn turn(&self, s: &State) -> Turn {
        match s.turns.end {
            Some(_) => Turn::Over,
            None => Turn::Seat(s.pile.to_move),
        }
    }

    fn legal_actions(&self, s: &State) -> Vec<Take> {
        match s.turns.end {
            Some(_) => Vec::new(),
            None => s.pile.legal(),
        }
    }

    fn candidate_actions(&self, _: &State) -> Vec<Take> {
        (0..=MOST + 1).map(Take).collect()
    }

    fn check(&self, s: &State, take: &Take) -> Result<(), String> {
        match s.turns.end {
            Some(_) => Err("the game is over".into()),
            None => s.pile.check(*take),
        }
    }

    fn chance_outcomes(&self, _: &State) -> Vec<(Take, f64)> {
        Vec::new()
    }

    fn apply(&self, s: &mut State, take: &Take) {
        qijudge_judge::turn_referee::contract_play(&self.game, s, *take);
    }

    fn write_action(&self, _: &State, take: &Take) -> String {
        take.to_string()
    }

    fn parse_action(&self, _: &State, text: &str) -> Result<Take, String> {
        Take::parse(text)
    }

    fn information(&self, s: &State, viewer: Option<usize>) -> String {
        let audience = viewer.map_or("public", |v| referee::SEATS[v]);
        let view = referee::build_view(&self.game, s, audience);
        let text = super::view::render_text(&self.game.manifest.players, &view);
        qijudge_view::to_json(&view) + &text
    }

    fn returns(&self, s: &State) -> Option<Vec<f64>> {
        let (winner, _) = s.turns.end.as_ref()?;
        Some(match winner.as_deref() {
            None => vec![0.0, 0.0],
            Some(w) if w == referee::SEATS[0] => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
        })
    }
}
