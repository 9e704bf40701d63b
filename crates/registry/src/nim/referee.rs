//! Nim's judge: no secrets and no setups; the judge checks signed plies, keeps the
//! hash-chained record, ends the game when the pile is empty, and publishes the same signed
//! view to both seats and the public.

use super::rules::{Pile, Take};
use super::view::{LastTake, NimResult, NimView};
use qijudge_judge::manifest::{Kind, ManifestRules};
use qijudge_judge::pipeline::Ctx;
use qijudge_judge::turn_referee::{view_head, OffBoard, Played, TurnReferee};
use qijudge_judge::turns::Turns;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::files::*;
use qijudge_rules::EndReason;
use qijudge_view::make_turn_view;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const SEATS: [&str; 2] = ["first", "second"];
pub const BOARD: &str = "pile";
pub const VIEW_FORMAT: &str = "qijudge/nim-view/1";
/// The stones of a new game unless `--rule stones=N` says otherwise.
pub const STONES: u32 = 21;

/// `game.toml` of a Nim game: the shared frame with the pile's size.
pub type NimManifest = GameManifest<NimOptions>;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NimOptions {
    /// The stones in the pile at the start (2 to 99).
    pub stones: u32,
}

impl ManifestRules for crate::nim::Nim {
    type Options = NimOptions;
    const KIND: Kind<'static> = Kind {
        game: "nim",
        id_prefix: "nm-",
        board: BOARD,
        seats: &SEATS,
    };
    const SEALABLE: bool = false;

    fn check(manifest: &NimManifest) -> Result<()> {
        if !(2..=99).contains(&manifest.rules.stones) {
            return Err(refuse("game.toml", Some("rules.stones"), "must be 2 to 99"));
        }
        Ok(())
    }
}

qijudge_judge::seated_game! {
    /// A checked manifest with its keys.
    pub struct NimGame(crate::nim::Nim);
}

/// The options from `--rule key=value` items: `stones=N`.
pub fn options_from(items: &[String]) -> Result<NimOptions> {
    let mut options = NimOptions { stones: STONES };
    for (k, v) in qijudge_game::rule_pairs(items)? {
        match k {
            "stones" => {
                options.stones = v
                    .parse()
                    .ok()
                    .filter(|n| (2..=99).contains(n))
                    .ok_or_else(|| Error::Io("--rule stones: a number from 2 to 99".into()))?
            }
            _ => {
                return Err(Error::Io(format!(
                    "--rule {k:?}: Nim's only option is stones=N"
                )))
            }
        }
    }
    Ok(options)
}

/// The game as the record and the move files say.
#[derive(Clone, Debug)]
pub struct State {
    pub turns: Turns,
    pub pile: Pile,
    /// Each ply played, with its mover's comment.
    pub takes: Vec<Take>,
}

impl State {
    pub fn to_move(&self) -> Option<&'static str> {
        self.turns.end.is_none().then(|| SEATS[self.pile.to_move])
    }

    pub fn plies(&self) -> u32 {
        self.takes.len() as u32
    }
}

qijudge_judge::turn_state!(State);

impl TurnReferee for NimGame {
    type State = State;
    type Move = Take;
    type View = NimView;

    fn start_state(&self) -> State {
        State {
            turns: Turns::default(),
            pile: Pile::start(self.manifest.rules.stones),
            takes: Vec::new(),
        }
    }

    fn seat_to_move(&self, state: &State) -> usize {
        state.pile.to_move
    }

    fn plies(state: &State) -> u32 {
        state.plies()
    }

    fn parse(&self, state: &State, text: &str) -> std::result::Result<Take, String> {
        let take = Take::parse(text)?;
        state.pile.check(take)?;
        Ok(take)
    }

    fn play(&self, state: &mut State, _: &Ctx, _: u32, _: usize, take: Take) -> Result<Played> {
        state.pile.play(take);
        state.takes.push(take);
        let end = state
            .pile
            .winner()
            .map(|w| (Some(w), EndReason::NoLegalMove));
        Ok(Played::plain(take, end))
    }

    /// The pile keeps no ending of its own: the record's end line is the game's end.
    fn end_off_board(&self, _: &mut State, _: OffBoard) {}

    fn view(&self, state: &State, audience: &str) -> NimView {
        build_view(self, state, audience)
    }

    fn text(&self, v: &NimView) -> String {
        super::view::render_text(&self.manifest.players, v)
    }

    fn picture(&self, v: &NimView) -> String {
        super::view::picture(v, true)
    }
}

/// One audience's view now.
pub fn build_view(g: &NimGame, state: &State, audience: &str) -> NimView {
    view_at(g, state, audience, state.takes.len())
}

/// The view after the first `ply` plies (the replay page); the result, a standing draw offer
/// and a closing move belong to the last ply only. Nim hides nothing: every audience is shown
/// the same, and this is the one place that decides it.
pub fn view_at(g: &NimGame, state: &State, audience: &str, ply: usize) -> NimView {
    let ply = ply.min(state.takes.len());
    let mut pile = Pile::start(g.manifest.rules.stones);
    for take in &state.takes[..ply] {
        pile.play(*take);
    }
    let last_take = ply.checked_sub(1).map(|i| LastTake {
        seat: SEATS[i % 2].into(),
        took: state.takes[i].0,
        comment: state.turns.comments.get(i).cloned().flatten(),
    });
    let head = view_head(g, state, VIEW_FORMAT, audience, ply, pile.to_move);
    let result = (head.end.clone()).map(|(winner, reason)| NimResult { winner, reason });
    make_turn_view!(
        NimView {
            start: g.manifest.rules.stones,
            stones: pile.stones,
            moves: state.takes[..ply].iter().map(|t| t.to_string()).collect(),
            last_take,
        },
        head,
        result
    )
}
