//! The pure rules contract every game implements, after OpenSpiel's `State`: whose turn it is
//! (a seat, chance, or nobody once the game is over), the legal actions and the check of a
//! single action, applying one, chance outcomes with their probabilities (Liubo's throws; in a
//! judged game they come from the players' hash chains instead), what one viewer may know, and
//! the returns at the end. No I/O.
//!
//! The conformance suite (`games/conformance.rs`) runs every registered game on this contract.
//! A game's `information` is the view its judge publishes, built by the judge's own code over
//! the judge's own state: the suite's non-interference check proves the projection that is
//! published, not a second one written for the test.

use std::fmt::Debug;

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The seat with this index (the manifest's order).
    Seat(usize),
    /// A chance event (a throw): see [`Rules::chance_outcomes`].
    Chance,
    /// The game is over.
    Over,
}

/// One game's rules.
pub trait Rules {
    type State: Clone + Debug;
    type Action: Clone + Debug + PartialEq;

    /// The manifest's `game` value, with the board where a game has several (`luzhanqi/cross4`).
    fn name(&self) -> String;
    /// The number of seats.
    fn seats(&self) -> usize;
    /// The start. Each seat's secret (a Luzhanqi setup) is drawn from its own seed only, so
    /// changing one seat's seed changes nothing another seat may know.
    fn start(&self, seeds: &[u64]) -> Self::State;
    fn turn(&self, state: &Self::State) -> Turn;
    /// The legal actions of the seat to move (none at chance or after the end).
    fn legal_actions(&self, state: &Self::State) -> Vec<Self::Action>;
    /// Candidate actions the single-action check must sort into legal and illegal: a superset
    /// of the legal ones (every from-to pair of the mover's pieces, say).
    fn candidate_actions(&self, state: &Self::State) -> Vec<Self::Action>;
    /// The check of one action, with the reason it is refused.
    fn check(&self, state: &Self::State, action: &Self::Action) -> Result<(), String>;
    /// At a chance node: each outcome with its probability (they sum to 1).
    fn chance_outcomes(&self, state: &Self::State) -> Vec<(Self::Action, f64)>;
    /// Applies a legal action or a chance outcome.
    fn apply(&self, state: &mut Self::State, action: &Self::Action);
    /// The action as a player writes it.
    fn write_action(&self, state: &Self::State, action: &Self::Action) -> String;
    /// Reads an action as a player writes it, against the state.
    fn parse_action(&self, state: &Self::State, text: &str) -> Result<Self::Action, String>;
    /// Everything `viewer` may know (None: a spectator), as text: equal texts mean the viewer
    /// cannot tell the two states apart.
    fn information(&self, state: &Self::State, viewer: Option<usize>) -> String;
    /// Per seat, at the end: 1 for a win, 0 for a draw, -1 for a loss.
    fn returns(&self, state: &Self::State) -> Option<Vec<f64>>;
}

/// Plays a game from `seeds` to the end (or `max_actions`), choosing actions and chance
/// outcomes with `pick(n)` (an index below n); returns the actions played.
pub fn playout<R: Rules>(
    rules: &R,
    seeds: &[u64],
    max_actions: usize,
    mut pick: impl FnMut(usize) -> usize,
) -> (R::State, Vec<R::Action>) {
    let mut state = rules.start(seeds);
    let mut played = Vec::new();
    while played.len() < max_actions {
        let action = match rules.turn(&state) {
            Turn::Over => break,
            Turn::Chance => {
                let outcomes = rules.chance_outcomes(&state);
                outcomes[pick(outcomes.len())].0.clone()
            }
            Turn::Seat(_) => {
                let legal = rules.legal_actions(&state);
                if legal.is_empty() {
                    break;
                }
                legal[pick(legal.len())].clone()
            }
        };
        rules.apply(&mut state, &action);
        played.push(action);
    }
    (state, played)
}
