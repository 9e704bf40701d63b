//! Jieqi's rules through the contract: the layout drawn by the fair shuffle from the seats'
//! seeds, played by the judge's own step code; each audience's information is the view the
//! judge publishes (what the `captured` option lets it know).

use crate::referee::{self, JieqiGame, State};
use jieqi_rules::shuffle::shuffle;
use jieqi_rules::Options;
use qijudge_rules::contract::{Rules, Turn};
use xiangqi_rules::notation::parse_iccs;
use xiangqi_rules::{Color, Move, Square, Winner};

/// Jieqi with its options, judged in the contract's frame.
pub struct JieqiRules {
    game: JieqiGame,
}

impl JieqiRules {
    pub fn new(options: Options) -> JieqiRules {
        JieqiRules {
            game: referee::JieqiGame::contract(options),
        }
    }
}

fn seat_of(color: Color) -> usize {
    color.index()
}

/// A seat's seed as a 32-byte nonce.
fn nonce(seed: u64) -> [u8; 32] {
    let mut n = [0u8; 32];
    n[..8].copy_from_slice(&seed.to_be_bytes());
    n
}

impl Rules for JieqiRules {
    type State = State;
    type Action = Move;

    fn name(&self) -> String {
        "jieqi".into()
    }

    fn seats(&self) -> usize {
        2
    }

    /// The layout is both seeds' shuffle: changing either seed rearranges what lies face
    /// down, which no seat knows either way.
    fn start(&self, seeds: &[u64]) -> State {
        let red = nonce(seeds.first().copied().unwrap_or(0));
        let black = nonce(seeds.get(1).copied().unwrap_or(0));
        qijudge_judge::turn_referee::contract_start(&self.game, shuffle("jq-rules", &red, &black))
    }

    fn turn(&self, s: &State) -> Turn {
        match s.game.ending() {
            Some(_) => Turn::Over,
            None => Turn::Seat(seat_of(s.game.position().side_to_move())),
        }
    }

    fn legal_actions(&self, s: &State) -> Vec<Move> {
        if s.game.ending().is_some() {
            return Vec::new();
        }
        s.game.position().legal_moves()
    }

    fn candidate_actions(&self, s: &State) -> Vec<Move> {
        let p = s.game.position();
        let side = p.side_to_move();
        let squares: Vec<Square> = (0..90).filter_map(Square::from_index).collect();
        let mut out = Vec::new();
        for &from in &squares {
            if p.cell(from).is_some_and(|c| c.color == side) {
                out.extend(squares.iter().map(|&to| Move { from, to }));
            }
        }
        out
    }

    fn check(&self, s: &State, m: &Move) -> Result<(), String> {
        if s.game.ending().is_some() {
            return Err("the game is over".into());
        }
        s.game.position().check_move(*m).map_err(|e| e.to_string())
    }

    fn chance_outcomes(&self, _: &State) -> Vec<(Move, f64)> {
        Vec::new()
    }

    fn apply(&self, s: &mut State, m: &Move) {
        qijudge_judge::turn_referee::contract_play(&self.game, s, *m);
    }

    fn write_action(&self, _: &State, m: &Move) -> String {
        m.to_string()
    }

    fn parse_action(&self, s: &State, text: &str) -> Result<Move, String> {
        let m = parse_iccs(text).ok_or_else(|| format!("{text:?}: expected ICCS like h2e2"))?;
        s.game
            .position()
            .check_move(m)
            .map(|_| m)
            .map_err(|e| e.to_string())
    }

    fn information(&self, s: &State, viewer: Option<usize>) -> String {
        let audience = viewer.map_or("public", |v| referee::SEATS[v]);
        let view = referee::build_view(&self.game, s, audience);
        let text = crate::view::render_text(&self.game.manifest.players, &view, false);
        qijudge_view::to_json(&view) + &text
    }

    fn returns(&self, s: &State) -> Option<Vec<f64>> {
        Some(match s.game.ending()?.winner() {
            Winner::Draw => vec![0.0, 0.0],
            Winner::Side(c) if seat_of(c) == 0 => vec![1.0, -1.0],
            Winner::Side(_) => vec![-1.0, 1.0],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::{Captured, Options};
    use qijudge_rules::conformance::seat_cannot_tell_apart;

    /// Two games after red's piece on b2, moving as a cannon over b7, took the piece on b9
    /// face down, on layouts that differ only in what lay on b9 (and a9 or c9).
    fn after_a_face_down_capture(rules: &JieqiRules) -> (State, State) {
        let a = rules.start(&[3, 4]);
        let mut b = a.clone();
        let at = |s: &str| Square::parse(s).unwrap();
        let black = |sq: &str| {
            jieqi_rules::position::hidden_squares(Color::Black)
                .iter()
                .position(|s| *s == at(sq))
                .unwrap()
        };
        let layout = a.dealt.layout.as_ref().unwrap();
        let other = ["a9", "c9"]
            .into_iter()
            .find(|s| layout.at(at(s)) != layout.at(at("b9")))
            .unwrap();
        b.dealt.layout.as_mut().unwrap().kinds[1].swap(black("b9"), black(other));
        let (mut a, mut b) = (a, b);
        let take = rules.parse_action(&a, "b2b9").unwrap();
        for s in [&mut a, &mut b] {
            rules.apply(s, &take);
        }
        (a, b)
    }

    fn captured(captured: Captured) -> JieqiRules {
        JieqiRules::new(Options {
            captured,
            move_limit: true,
            ..Options::default()
        })
    }

    #[test]
    fn a_piece_taken_face_down_is_shown_as_the_captured_option_says() {
        for (option, red_learns) in [(Captured::Captor, true), (Captured::Nobody, false)] {
            let rules = captured(option);
            let (a, b) = after_a_face_down_capture(&rules);
            assert_eq!(rules.information(&a, None), rules.information(&b, None));
            assert_eq!(
                rules.information(&a, Some(1)),
                rules.information(&b, Some(1))
            );
            assert_eq!(
                rules.information(&a, Some(0)) != rules.information(&b, Some(0)),
                red_learns,
                "{option:?}"
            );
        }
    }

    #[test]
    fn the_non_interference_check_bites_on_a_published_view() {
        // The control on a real projection: under `captured = captor` the published view
        // rightly shows red what black's shuffle put under the piece it took, and the suite's
        // check must notice; black, and both seats under `nobody`, learn nothing.
        let rules = captured(Captured::Captor);
        let (a, b) = after_a_face_down_capture(&rules);
        let caught = std::panic::catch_unwind(|| seat_cannot_tell_apart(&rules, a, b, 0, 1));
        assert!(caught.is_err());
        let (a, b) = after_a_face_down_capture(&rules);
        seat_cannot_tell_apart(&rules, a, b, 1, 1);
        let rules = captured(Captured::Nobody);
        let (a, b) = after_a_face_down_capture(&rules);
        seat_cannot_tell_apart(&rules, a, b, 0, 1);
    }
}
