//! Nim's judge: no secrets and no setups; the judge checks signed plies, keeps the
//! hash-chained record, ends the game when the pile is empty, and publishes the same signed
//! view to both seats and the public.

use super::rules::{Pile, Take};
use super::view::{LastTake, NimResult, NimView};
use crate::error::{refuse, Error, Result};
use crate::judge::manifest::{Kind, ManifestRules, Seated};
use crate::judge::pipeline::{self, Ctx, Mode, Referee};
use crate::judge::turns::{Asked, MoveLine, Turns};
use crate::judge::Outputs;
use crate::protocol::files::*;
use crate::rules::EndReason;
use crate::store::GameDir;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ssh_key::PrivateKey;

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

impl ManifestRules for NimOptions {
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

/// A checked manifest with its keys.
pub type NimGame = Seated<NimOptions>;

/// The options from `--rule key=value` items: `stones=N`.
pub fn options_from(items: &[String]) -> Result<NimOptions> {
    let mut options = NimOptions { stones: STONES };
    for item in items {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| Error::Io(format!("--rule {item:?}: expected key=value")))?;
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
    pub takes: Vec<(Take, Option<String>)>,
}

impl State {
    pub fn to_move(&self) -> Option<&'static str> {
        self.turns.end.is_none().then(|| SEATS[self.pile.to_move])
    }

    pub fn plies(&self) -> u32 {
        self.takes.len() as u32
    }
}

/// Plays one checked move file: the record entries it adds.
fn apply(
    state: &mut State,
    ply: u32,
    seat: usize,
    file: &MoveFile,
    hash: String,
    asked: Asked<Take>,
    received: String,
) -> Vec<Entry> {
    let (action, end) = match asked {
        Asked::Play(take) => {
            state.pile.play(take);
            state.takes.push((take, file.comment.clone()));
            let end = state
                .pile
                .winner()
                .map(|w| (Some(w), EndReason::NoLegalMove));
            (take.to_string(), end)
        }
        Asked::Resign => (
            "resign".into(),
            Some((Some(1 - seat), EndReason::Resignation)),
        ),
        Asked::AcceptDraw => ("accept-draw".into(), Some((None, EndReason::Agreement))),
    };
    let line = MoveLine::plain(action, received);
    let mut entries = vec![state.turns.take(&SEATS, ply, seat, file, hash, line)];
    if let Some((winner, reason)) = end {
        entries.push(
            state
                .turns
                .end(winner.map(|w| SEATS[w].to_string()), reason),
        );
    }
    entries
}

/// Plays one legal ply through the judge's own code (the contract's `apply`).
pub fn contract_play(g: &NimGame, state: &mut State, take: Take) {
    let ply = state.plies() + 1;
    let seat = state.pile.to_move;
    let file = crate::games::rules::contract_move_file(
        &g.manifest.id,
        &g.hash,
        ply,
        SEATS[seat],
        take.to_string(),
    );
    apply(
        state,
        ply,
        seat,
        &file,
        String::new(),
        Asked::Play(take),
        String::new(),
    );
}

crate::judge::pipeline::recorded!(State, turns.record);

impl Referee for NimGame {
    type State = State;

    fn initial(&self) -> State {
        State {
            turns: Turns::default(),
            pile: Pile::start(self.manifest.rules.stones),
            takes: Vec::new(),
        }
    }

    /// The record opens with the start and begin lines; then one move file per ply.
    fn step(&self, state: &mut State, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        let (frame, clocked) = (self.frame(), self.manifest.clock.is_some());
        if let Some(line) = state.turns.opening(cx, &frame, || SEATS[0], clocked) {
            return Ok(Some(vec![line]));
        }
        if state.turns.end.is_some() {
            return Ok(None);
        }
        let seat = state.pile.to_move;
        let ply = state.plies() + 1;
        let Some(turn) = Turns::next_file(cx, &frame, seat, ply)? else {
            return Ok(None);
        };
        let asked = state
            .turns
            .check_move_file(&frame, &turn, ply, seat, |text| {
                let take = Take::parse(text)?;
                state.pile.check(take)?;
                Ok(take)
            })?;
        let (file, hash) = (&turn.file, turn.hash.clone());
        Ok(Some(apply(
            state,
            ply,
            seat,
            file,
            hash,
            asked,
            cx.received(),
        )))
    }

    fn forfeit(&self, state: &mut State, seat: usize, reason: &str, _: &Ctx) -> Result<Vec<Entry>> {
        let winner = Some(SEATS[1 - seat].to_string());
        Ok(state.turns.forfeit(&SEATS, seat, reason, winner))
    }

    fn is_over(&self, state: &State) -> bool {
        state.turns.end.is_some()
    }

    fn clock_turn(&self, state: &State) -> Option<(usize, u32)> {
        state.to_move()?;
        (state.turns.record.lines.len() >= 2).then(|| (state.pile.to_move, state.plies() + 1))
    }

    fn waiting(&self, state: &State) -> Option<String> {
        let seat = state.to_move()?;
        Some(format!("{seat} to move (ply {})", state.plies() + 1))
    }

    fn outputs(&self, _dir: &GameDir, state: &State, key: &PrivateKey) -> Result<Outputs> {
        Ok(crate::judge::published::open_outputs(
            &state.turns.record,
            &[SEATS[0], SEATS[1], "public"],
            |audience| build_view(self, state, audience),
            |v| super::view::render_text(&self.manifest.players, v),
            |v| super::view::picture(v, true),
            key,
        ))
    }

    fn check_views(&self, dir: &GameDir, state: &State) -> Result<()> {
        crate::judge::published::check_views(dir, &self.frame(), &state.turns.record, |a| {
            let v = build_view(self, state, a);
            let text = super::view::render_text(&self.manifest.players, &v);
            (v, text)
        })
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
    let latest = ply == state.takes.len();
    let mut pile = Pile::start(g.manifest.rules.stones);
    for (take, _) in &state.takes[..ply] {
        pile.play(*take);
    }
    let last_take = ply.checked_sub(1).map(|i| {
        let (take, comment) = &state.takes[i];
        LastTake {
            seat: SEATS[i % 2].into(),
            took: take.0,
            comment: comment.clone(),
        }
    });
    let (draw_offer, closing) = state.turns.shown(&SEATS, latest);
    NimView {
        format: VIEW_FORMAT.into(),
        game: g.manifest.id.clone(),
        manifest: g.hash.clone(),
        audience: audience.into(),
        record_head: state.turns.record.head_or(&g.hash),
        ply: ply as u32,
        start: g.manifest.rules.stones,
        stones: pile.stones,
        to_move: match latest {
            true => state.to_move().map(str::to_string),
            false => Some(SEATS[pile.to_move].to_string()),
        },
        moves: state.takes[..ply]
            .iter()
            .map(|(t, _)| t.to_string())
            .collect(),
        last_take,
        draw_offer,
        closing,
        result: state
            .turns
            .end
            .as_ref()
            .filter(|_| latest)
            .map(|(winner, reason)| NimResult {
                winner: winner.clone(),
                reason: *reason,
            }),
    }
}

/// The state of a game from its signed files, for `status` and for players writing moves.
pub fn current(dir: &GameDir, g: &NimGame) -> Result<State> {
    pipeline::current(g, dir, Mode::Judge)
}
