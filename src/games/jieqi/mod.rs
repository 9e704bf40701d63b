//! Jieqi (揭棋) through the game contract: commands over a game directory, and the pure rules
//! binding for bots, `moves` and the conformance suite.

pub mod commands;
pub mod rules;

use super::match_play::{MatchPlay, MatchStep, SessionGame};
use super::{Game, GameFacts, GameSummary, JudgeRequest, MoveRequest, NewGame, Turn, ViewRequest};
use crate::console::load_private_key;
use crate::error::{refuse, Error, Result};
use crate::judge::common::precheck_moves;
use crate::judge::jieqi as jq;
use crate::rules::xiangqi::notation::parse_iccs;
use crate::store::GameDir;
use crate::tournament::protocol::BotView;
use std::path::{Path, PathBuf};

pub struct Jieqi;

impl Game for Jieqi {
    fn name(&self) -> &'static str {
        "jieqi"
    }

    fn new_game(&self, dir: &Path, new: NewGame) -> Result<()> {
        super::one_board("jieqi", new.board)?;
        commands::new(
            dir,
            &new.players,
            new.judge_key,
            new.rules,
            new.created,
            new.sample,
            new.clock,
            new.sealed,
        )
    }

    fn facts(&self, dir: &GameDir) -> Result<GameFacts> {
        let g = jq::load(dir)?;
        Ok(GameFacts {
            seats: g.manifest.players.iter().map(|p| p.seat.clone()).collect(),
            sealed: g.manifest.sealed,
            hash: g.hash,
            player_keys: g.player_keys,
            judge_key: g.judge_key,
        })
    }

    fn setup(
        &self,
        dir: &Path,
        seat: &str,
        key: &Path,
        _: crate::games::SetupSource,
        _: bool,
    ) -> Result<()> {
        let key = crate::console::load_signer(key)?;
        commands::commit(dir, seat, &key)
    }

    fn make_move(&self, dir: &Path, seat: &str, key: &Path, mv: MoveRequest) -> Result<()> {
        let key = crate::console::load_signer(key)?;
        commands::make_move(dir, seat, &key, mv)
    }

    fn judge(&self, dir: &Path, key: &Path, run: JudgeRequest) -> Result<()> {
        let key = load_private_key(key)?;
        commands::judge(dir, &key, run.now, run.forfeit)
    }

    fn html(&self, dir: &Path, audience: &str, _chinese: bool) -> Result<String> {
        commands::html(dir, audience)
    }

    fn view(&self, dir: &Path, request: ViewRequest) -> Result<()> {
        commands::view(dir, request.audience, request.format, request.chinese)
    }

    fn status(&self, dir: &Path, json: bool, now: &str) -> Result<()> {
        commands::status(dir, json, now)
    }

    fn events(&self, _: &Path, _: &str) -> Result<()> {
        Err(Error::Io(
            "events lists Luzhanqi's hidden-information events; a Jieqi view lists every move, what turned up and what was taken (qijudge view)"
                .into(),
        ))
    }

    fn reveal(&self, dir: &Path, key: Option<&Path>) -> Result<()> {
        let key = key.map(load_private_key).transpose()?;
        commands::reveal(dir, key.as_ref())
    }

    fn verify(&self, dir: &Path) -> Result<()> {
        commands::verify(dir)
    }

    fn precheck(&self, dir: &Path, _key: Option<&Path>) -> Result<Vec<String>> {
        let (d, g) = commands::load(dir)?;
        let state = jq::current(&d, &g)?;
        let next = state.plies() + 1;
        let head = state.head(&g);
        let to_move = || Ok(state.to_move().map(str::to_string));
        precheck_moves(&d, &g.frame(), next, &head, to_move, |path, _, file| {
            if !matches!(file.action.as_str(), "resign" | "accept-draw") {
                let m = parse_iccs(&file.action)
                    .ok_or_else(|| refuse(path, Some("move"), "not ICCS coordinates like h2e2"))?;
                state
                    .game
                    .position()
                    .check_move(m)
                    .map_err(|e| refuse(path, Some("move"), e.to_string()))?;
            }
            Ok(", legal".into())
        })
    }

    fn legal_moves(&self, dir: &Path, seat: &str, _key: Option<&Path>) -> Result<Vec<String>> {
        let (d, g) = commands::load(dir)?;
        super::seat_index(&jq::SEATS, seat)?;
        // Legality depends only on what everyone sees: a face-down piece moves as its square.
        let state = jq::current(&d, &g)?;
        commands::check_turn(&state, seat)?;
        Ok(super::sorted_moves(
            state.game.position().legal_moves().iter(),
        ))
    }

    fn match_rules(&self) -> &'static [&'static str] {
        &["move-limit=on"]
    }

    fn seats(&self, board: &str) -> Result<Vec<String>> {
        super::one_board(self.name(), board)?;
        Ok(jq::SEATS.iter().map(|s| s.to_string()).collect())
    }

    fn has_secrets(&self) -> bool {
        true
    }

    fn to_move(&self, dir: &Path) -> Result<Option<String>> {
        let (d, g) = commands::load(dir)?;
        Ok(jq::current(&d, &g)?.to_move().map(str::to_string))
    }

    fn seat_view(&self, dir: &Path, seat: &str, _key: Option<&Path>) -> Result<serde_json::Value> {
        let (d, g) = commands::load(dir)?;
        super::seat_index(&jq::SEATS, seat)?;
        let state = jq::current(&d, &g)?;
        seat_view_of(&d, &g, &state, seat)
    }

    fn turn(
        &self,
        dir: &Path,
        _key: &dyn Fn(&str) -> PathBuf,
        wants_view: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Turn>> {
        let (d, g) = commands::load(dir)?;
        super::match_play::turn(&g, &d, wants_view)
    }

    fn play_match(
        &self,
        dir: &Path,
        play: &MatchPlay,
        next: &mut dyn FnMut(Turn) -> Result<MatchStep>,
    ) -> Result<bool> {
        let (d, g) = commands::load(dir)?;
        super::match_play::play(&g, &d, play, next)?;
        Ok(true)
    }

    fn summary(&self, dir: &Path) -> Result<GameSummary> {
        let (d, g) = commands::load(dir)?;
        let state = jq::verify(&d, &g)?;
        let plies = state.plies() as usize;
        super::one_side_each_summary(&g.manifest.id, &g.manifest.players, state.end, plies)
    }
}

/// A seat's own view, as JSON, with the face-down pieces it took that it may know.
fn seat_view_of(
    d: &GameDir,
    g: &jq::JieqiGame,
    state: &jq::State,
    seat: &str,
) -> Result<serde_json::Value> {
    let known = jq::known_captures(d, g, state, seat)?;
    super::to_json(&jq::view_with(
        g,
        state,
        &known,
        seat,
        state.plies() as usize,
    ))
}

impl SessionGame for jq::JieqiGame {
    fn turn_in(
        &self,
        dir: &GameDir,
        state: &jq::State,
        wants_view: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Turn>> {
        super::turn_from(
            state.to_move().map(str::to_string),
            wants_view,
            |_| {
                Ok(super::sorted_moves(
                    state.game.position().legal_moves().iter(),
                ))
            },
            |seat| seat_view_of(dir, self, state, seat).map(BotView::Other),
        )
    }

    fn next_move(&self, state: &jq::State) -> (u32, String) {
        (state.plies() + 1, state.head(self))
    }

    fn binding(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }
}
