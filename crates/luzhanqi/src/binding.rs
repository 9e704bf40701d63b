//! Luzhanqi's rules through the contract: both boards, setups drawn from each seat's own seed;
//! each audience's information is the view the judge publishes, built by the judge's own code
//! from the events it may see.

use crate::referee::{build_view, contract_game, Game, Replay};
use luzhanqi_rules::nodeset::Wide;
use luzhanqi_rules::random::{random_setup, SplitMix64};
use luzhanqi_rules::{by_name, Board, Event, Move, Options, Position, Seat, Viewer};
use qijudge_rules::contract::{Rules, Turn};

/// Luzhanqi on one board with one set of options, judged in the contract's frame.
pub struct LuzhanqiRules {
    board: &'static Board<Wide>,
    options: Options,
    game: Game,
}

impl LuzhanqiRules {
    /// The rules on the board called `board` (`2p`, `cross4`), or none for an unknown board.
    pub fn new(board: &str, options: Options) -> Option<LuzhanqiRules> {
        let board = by_name(board)?;
        Some(LuzhanqiRules {
            board,
            game: contract_game(board, options.clone()),
            options,
        })
    }
}

/// A game in progress and every event so far (each with its audience).
#[derive(Clone, Debug)]
pub struct LuzhanqiState {
    pub position: Position<Wide>,
    pub events: Vec<Event>,
}

impl Rules for LuzhanqiRules {
    type State = LuzhanqiState;
    type Action = Move;

    fn name(&self) -> String {
        format!("luzhanqi/{}", self.board.name)
    }

    fn seats(&self) -> usize {
        self.board.seat_names.len()
    }

    fn start(&self, seeds: &[u64]) -> LuzhanqiState {
        let setups: Vec<_> = self
            .board
            .seats()
            .map(|seat| random_setup(self.board, seat, &mut SplitMix64::new(seeds[seat.index()])))
            .collect();
        let first = Position::empty(self.board, self.options.clone()).to_move();
        let (position, events) = Position::start(self.board, self.options.clone(), &setups, first);
        LuzhanqiState { position, events }
    }

    fn turn(&self, s: &LuzhanqiState) -> Turn {
        match s.position.result() {
            Some(_) => Turn::Over,
            None => Turn::Seat(s.position.to_move().index()),
        }
    }

    fn legal_actions(&self, s: &LuzhanqiState) -> Vec<Move> {
        if s.position.result().is_some() {
            return Vec::new();
        }
        s.position.legal_moves()
    }

    fn candidate_actions(&self, s: &LuzhanqiState) -> Vec<Move> {
        let mover = s.position.to_move();
        let mut out = Vec::new();
        for from in 0..self.board.len() {
            if s.position.at(from).is_some_and(|u| u.seat == mover) {
                out.extend((0..self.board.len()).map(|to| Move { from, to }));
            }
        }
        out
    }

    fn check(&self, s: &LuzhanqiState, mv: &Move) -> Result<(), String> {
        s.position.check_move(*mv).map_err(|e| e.to_string())
    }

    fn chance_outcomes(&self, _: &LuzhanqiState) -> Vec<(Move, f64)> {
        Vec::new()
    }

    fn apply(&self, s: &mut LuzhanqiState, mv: &Move) {
        // Only legal moves reach here (the contract); an illegal one changes nothing.
        if let Ok(events) = s.position.play(*mv) {
            s.events.extend(events);
        }
    }

    fn write_action(&self, _: &LuzhanqiState, mv: &Move) -> String {
        mv.display(self.board)
    }

    fn parse_action(&self, _: &LuzhanqiState, text: &str) -> Result<Move, String> {
        Move::parse(text, self.board).map_err(|e| e.to_string())
    }

    fn information(&self, s: &LuzhanqiState, viewer: Option<usize>) -> String {
        let viewer = viewer.map_or(Viewer::Public, |i| Viewer::Seat(Seat(i as u8)));
        let replay = Replay::contract(
            self.board.seat_names.len(),
            s.position.clone(),
            s.events.clone(),
        );
        let view = build_view(&self.game, &replay, viewer);
        let text = crate::text::render(
            &view,
            crate::text::Labels::Letters,
            self.game.manifest.sealed,
        );
        qijudge_view::to_json(&view) + &text
    }

    fn returns(&self, s: &LuzhanqiState) -> Option<Vec<f64>> {
        let result = s.position.result()?;
        Some(
            self.board
                .seats()
                .map(|seat| match result.winner {
                    None => 0.0,
                    Some(w) if w == seat || self.board.allies(w, seat) => 1.0,
                    Some(_) => -1.0,
                })
                .collect(),
        )
    }
}
