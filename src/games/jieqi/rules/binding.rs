//! Jieqi's rules through the contract: the layout drawn by the fair shuffle from the seats'
//! seeds, each viewer shown what the `captured` option lets it know.

use crate::games::jieqi::referee::shows_identity;
use crate::games::rules::{Rules, Turn};
use crate::rules::jieqi::position::Cell;
use crate::rules::jieqi::shuffle::{shuffle, Layout};
use crate::rules::jieqi::{Game, Options};
use crate::rules::xiangqi::notation::parse_iccs;
use crate::rules::xiangqi::{Color, Kind, Move, Square, Winner};

/// Jieqi with its options.
#[derive(Default)]
pub struct JieqiRules {
    pub options: Options,
}

/// A game with the layout it is played on, and every capture with what it was.
#[derive(Clone, Debug)]
pub struct JieqiState {
    pub game: Game,
    pub layout: Layout,
    /// (captor seat, piece as it lay, what it was).
    pub captures: Vec<(usize, Cell, Kind)>,
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
    type State = JieqiState;
    type Action = Move;

    fn name(&self) -> String {
        "jieqi".into()
    }

    fn seats(&self) -> usize {
        2
    }

    /// The layout is both seeds' shuffle: changing either seed rearranges what lies face
    /// down, which no seat knows either way.
    fn start(&self, seeds: &[u64]) -> JieqiState {
        let red = nonce(seeds.first().copied().unwrap_or(0));
        let black = nonce(seeds.get(1).copied().unwrap_or(0));
        JieqiState {
            game: Game::new(self.options),
            layout: shuffle("jq-rules", &red, &black),
            captures: Vec::new(),
        }
    }

    fn turn(&self, s: &JieqiState) -> Turn {
        match s.game.ending() {
            Some(_) => Turn::Over,
            None => Turn::Seat(seat_of(s.game.position().side_to_move())),
        }
    }

    fn legal_actions(&self, s: &JieqiState) -> Vec<Move> {
        if s.game.ending().is_some() {
            return Vec::new();
        }
        s.game.position().legal_moves()
    }

    fn candidate_actions(&self, s: &JieqiState) -> Vec<Move> {
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

    fn check(&self, s: &JieqiState, m: &Move) -> Result<(), String> {
        if s.game.ending().is_some() {
            return Err("the game is over".into());
        }
        s.game.position().check_move(*m).map_err(|e| e.to_string())
    }

    fn chance_outcomes(&self, _: &JieqiState) -> Vec<(Move, f64)> {
        Vec::new()
    }

    fn apply(&self, s: &mut JieqiState, m: &Move) {
        let p = s.game.position();
        let seat = seat_of(p.side_to_move());
        let revealed = p
            .cell(m.from)
            .filter(|c| c.hidden)
            .and_then(|_| s.layout.at(m.from));
        let taken = p.cell(m.to).map(|c| {
            let what = if c.hidden {
                s.layout.at(m.to)
            } else {
                Some(c.kind)
            };
            (c, what.unwrap_or(c.kind))
        });
        // Only legal moves reach here (the contract); an illegal one changes nothing.
        if s.game.play(*m, revealed).is_ok() {
            if let Some((cell, kind)) = taken {
                s.captures.push((seat, cell, kind));
            }
        }
    }

    fn write_action(&self, _: &JieqiState, m: &Move) -> String {
        m.to_string()
    }

    fn parse_action(&self, s: &JieqiState, text: &str) -> Result<Move, String> {
        let m = parse_iccs(text).ok_or_else(|| format!("{text:?}: expected ICCS like h2e2"))?;
        s.game
            .position()
            .check_move(m)
            .map(|_| m)
            .map_err(|e| e.to_string())
    }

    fn information(&self, s: &JieqiState, viewer: Option<usize>) -> String {
        let audience = viewer.map_or("public", |v| ["red", "black"][v]);
        let moves: Vec<String> = s
            .game
            .played()
            .iter()
            .map(|p| match p.revealed {
                Some(k) => format!("{}={}", p.mv, k.fen_letter()),
                None => p.mv.to_string(),
            })
            .collect();
        let taken: Vec<String> = s
            .captures
            .iter()
            .map(|(captor, cell, kind)| {
                if !cell.hidden || shows_identity(self.options, audience, *captor) {
                    format!("{captor}:{}", kind.fen_letter())
                } else {
                    format!("{captor}:{}", cell.letter())
                }
            })
            .collect();
        let ending = s.game.ending().map(|e| e.to_string()).unwrap_or_default();
        format!(
            "{}\n{}\n{}\n{ending}\n",
            s.game.position().text(),
            moves.join(" "),
            taken.join(" ")
        )
    }

    fn returns(&self, s: &JieqiState) -> Option<Vec<f64>> {
        Some(match s.game.ending()?.winner() {
            Winner::Draw => vec![0.0, 0.0],
            Winner::Side(c) if seat_of(c) == 0 => vec![1.0, -1.0],
            Winner::Side(_) => vec![-1.0, 1.0],
        })
    }
}
