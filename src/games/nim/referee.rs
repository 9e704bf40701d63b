//! Nim's judge: no secrets and no setups; the judge checks signed plies, keeps the
//! hash-chained record, ends the game when the pile is empty, and publishes the same signed
//! view to both seats and the public.

use super::rules::{Pile, Take};
use super::view::{LastTake, NimResult, NimView};
use crate::error::{refuse, Error, Result};
use crate::judge::manifest::{Kind, ManifestRules, Seated};
use crate::judge::pipeline::{self, Ctx, Mode, Referee};
use crate::protocol::files::*;
use crate::protocol::record::Record;
use crate::rules::EndReason;
use crate::store::GameDir;
use crate::view::Closing;
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
    pub record: Record,
    pub pile: Pile,
    /// Each ply played, with its mover's comment.
    pub takes: Vec<(Take, Option<String>)>,
    pub draw_offer: Option<usize>,
    pub end: Option<(Option<String>, EndReason)>,
    pub closing: Option<Closing>,
}

impl State {
    pub fn to_move(&self) -> Option<&'static str> {
        self.end.is_none().then(|| SEATS[self.pile.to_move])
    }

    pub fn plies(&self) -> u32 {
        self.takes.len() as u32
    }
}

/// What a move file asks for.
enum Asked {
    Take(Take),
    Resign,
    AcceptDraw,
}

fn check_move_file(
    g: &NimGame,
    state: &State,
    path: &str,
    ply: u32,
    seat: usize,
    m: &MoveFile,
) -> Result<Asked> {
    let heads = state.record.answerable_heads(&g.hash);
    crate::judge::player_files::check_binding(&g.frame(), path, m, ply, seat, &heads)?;
    crate::judge::player_files::no_chain_fields(path, m)?;
    match m.action.as_str() {
        "resign" => Ok(Asked::Resign),
        "accept-draw" if state.draw_offer.is_some_and(|s| s != seat) => Ok(Asked::AcceptDraw),
        "accept-draw" => Err(refuse(
            path,
            Some("move"),
            "accept-draw, but no draw offer from the opponent stands",
        )),
        text => {
            let take = Take::parse(text).map_err(|e| refuse(path, Some("move"), e))?;
            state
                .pile
                .check(take)
                .map_err(|e| refuse(path, Some("move"), e))?;
            Ok(Asked::Take(take))
        }
    }
}

fn end_entry(state: &mut State, winner: Option<usize>, reason: EndReason) -> Entry {
    let winner = winner.map(|w| SEATS[w].to_string());
    state.end = Some((winner.clone(), reason));
    Entry::End {
        winner,
        allies: Vec::new(),
        reason,
    }
}

/// Plays one checked move file: the record entries it adds.
fn apply(
    state: &mut State,
    ply: u32,
    seat: usize,
    file: &MoveFile,
    hash: String,
    asked: Asked,
    received: String,
) -> Vec<Entry> {
    let action = match asked {
        Asked::Take(take) => take.to_string(),
        Asked::Resign => "resign".to_string(),
        Asked::AcceptDraw => "accept-draw".to_string(),
    };
    let mut entries = vec![Entry::Move {
        ply,
        seat: SEATS[seat].into(),
        file: hash,
        received,
        action: action.clone(),
        outcome: None,
        notices: Vec::new(),
        draw_offered: file.offer_draw,
        revealed: None,
    }];
    state.draw_offer = file.offer_draw.then_some(seat);
    let end = match asked {
        Asked::Take(take) => {
            state.pile.play(take);
            state.takes.push((take, file.comment.clone()));
            state
                .pile
                .winner()
                .map(|w| (Some(w), EndReason::NoLegalMove))
        }
        Asked::Resign => Some((Some(1 - seat), EndReason::Resignation)),
        Asked::AcceptDraw => Some((None, EndReason::Agreement)),
    };
    if !matches!(asked, Asked::Take(_)) {
        state.closing = Some(Closing {
            ply,
            seat: SEATS[seat].into(),
            action,
            comment: file.comment.clone(),
        });
    }
    if let Some((winner, reason)) = end {
        entries.push(end_entry(state, winner, reason));
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
        Asked::Take(take),
        String::new(),
    );
}

crate::judge::pipeline::recorded!(State);

impl Referee for NimGame {
    type State = State;

    fn initial(&self) -> State {
        State {
            record: Record::new(),
            pile: Pile::start(self.manifest.rules.stones),
            takes: Vec::new(),
            draw_offer: None,
            end: None,
            closing: None,
        }
    }

    /// The record opens with the start and begin lines; then one move file per ply.
    fn step(&self, state: &mut State, cx: &Ctx) -> Result<Option<Vec<Entry>>> {
        match state.record.lines.len() {
            0 => {
                return Ok(Some(vec![Entry::Start {
                    format: RECORD_FORMAT.into(),
                    game: self.manifest.id.clone(),
                    manifest: self.hash.clone(),
                }]))
            }
            1 => {
                let recorded = match cx.recorded() {
                    Some(Entry::Begin { at, .. }) => Some(at),
                    _ => None,
                };
                return Ok(Some(vec![Entry::Begin {
                    first: SEATS[0].into(),
                    lot_nonces: Default::default(),
                    at: cx.at(recorded, self.manifest.clock.is_some()),
                }]));
            }
            _ => {}
        }
        if state.end.is_some() {
            return Ok(None);
        }
        let seat = state.pile.to_move;
        let ply = state.plies() + 1;
        let Some(path) = crate::judge::precheck_files::turn_file(cx, &SEATS, seat, ply)? else {
            return Ok(None);
        };
        let (file, hash) =
            crate::judge::player_files::read_signed_move(cx.dir, &self.frame(), &path, seat)?;
        let asked = check_move_file(self, state, &path, ply, seat, &file)?;
        Ok(Some(apply(
            state,
            ply,
            seat,
            &file,
            hash,
            asked,
            cx.received(),
        )))
    }

    fn forfeit(&self, state: &mut State, seat: usize, reason: &str, _: &Ctx) -> Result<Vec<Entry>> {
        Ok(vec![
            Entry::Forfeit {
                seat: SEATS[seat].into(),
                reason: reason.into(),
                at: None,
            },
            end_entry(state, Some(1 - seat), EndReason::Forfeit),
        ])
    }

    fn is_over(&self, state: &State) -> bool {
        state.end.is_some()
    }

    fn clock_turn(&self, state: &State) -> Option<(usize, u32)> {
        state.to_move()?;
        (state.record.lines.len() >= 2).then(|| (state.pile.to_move, state.plies() + 1))
    }

    fn waiting(&self, state: &State) -> Option<String> {
        let seat = state.to_move()?;
        Some(format!("{seat} to move (ply {})", state.plies() + 1))
    }

    fn outputs(
        &self,
        _dir: &GameDir,
        state: &State,
        key: &PrivateKey,
    ) -> Result<Vec<(String, Option<Vec<u8>>)>> {
        Ok(crate::judge::published::open_outputs(
            &state.record,
            &[SEATS[0], SEATS[1], "public"],
            |audience| build_view(self, state, audience),
            |v| super::view::render_text(&self.manifest.players, v),
            |v| super::view::picture(v, true),
            key,
        ))
    }

    fn check_views(&self, dir: &GameDir, state: &State) -> Result<()> {
        crate::judge::published::check_views(
            dir,
            &self.frame(),
            &[SEATS[0], SEATS[1], "public"],
            state.record.lines.is_empty(),
            |a| {
                let v = build_view(self, state, a);
                let text = super::view::render_text(&self.manifest.players, &v);
                (v, text)
            },
        )
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
    NimView {
        format: VIEW_FORMAT.into(),
        game: g.manifest.id.clone(),
        manifest: g.hash.clone(),
        audience: audience.into(),
        record_head: state.record.head_or(&g.hash),
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
        draw_offer: state
            .draw_offer
            .filter(|_| latest)
            .map(|s| SEATS[s].to_string()),
        closing: state.closing.clone().filter(|_| latest),
        result: state
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
