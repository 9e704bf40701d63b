//! Jieqi (揭棋) through the game contract: commands over a game directory, and the pure rules
//! binding for bots, `moves` and the conformance suite.

pub mod commands;
pub mod picture;
pub mod referee;
pub mod rules;
pub mod view;

use super::defined::{Answers, Definition};
use super::{Commands, JudgeRequest, MoveRequest, NewGame, ViewRequest};
use crate::error::{refuse, Error, Result};
use crate::judge::common::precheck_moves;
use crate::judge::jieqi as jq;
use crate::rules::xiangqi::notation::parse_iccs;
use crate::rules::EndReason;
use crate::store::GameDir;
use std::path::Path;

pub struct Jieqi;

impl Definition for Jieqi {
    type Loaded = jq::JieqiGame;
    const NAME: &'static str = "jieqi";
    const SEATS: &'static [&'static str] = &jq::SEATS;
    const MATCH_RULES: &'static [&'static str] = &["move-limit=on"];
    const SECRETS: bool = true;
    const VARIANTS: &'static [super::Variant] = &[
        ("2p", &["captured=both"]),
        ("2p", &["captured=captor"]),
        ("2p", &["captured=nobody"]),
    ];

    fn load(dir: &GameDir) -> Result<jq::JieqiGame> {
        jq::load(dir)
    }

    fn sealed(g: &jq::JieqiGame) -> bool {
        g.manifest.sealed
    }

    fn players(g: &jq::JieqiGame) -> &[crate::protocol::files::Player] {
        &g.manifest.players
    }

    fn new_game(&self, dir: &Path, new: NewGame) -> Result<()> {
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
}

impl Commands for Jieqi {
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
        super::defined::judge::<Self>(dir, key, run)
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

    fn reveal(&self, dir: &Path, key: Option<&Path>) -> Result<Vec<String>> {
        super::defined::reveal::<Self>(dir, key)
    }

    fn verify(&self, dir: &Path) -> Result<Vec<String>> {
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
}

impl Answers for jq::JieqiGame {
    fn to_move_in(&self, state: &jq::State) -> Option<String> {
        state.to_move().map(str::to_string)
    }

    /// Legality depends only on what everyone sees: a face-down piece moves as its square.
    fn legal_in(&self, _: &GameDir, state: &jq::State, seat: &str) -> Result<Vec<String>> {
        commands::check_turn(state, seat)?;
        Ok(super::sorted_moves(
            state.game.position().legal_moves().iter(),
        ))
    }

    /// A seat's own view, with the face-down pieces it took that it may know.
    fn view_in(&self, d: &GameDir, state: &jq::State, seat: &str) -> Result<serde_json::Value> {
        let known = jq::known_captures(d, self, state, seat)?;
        super::to_json(&jq::view_with(
            self,
            state,
            &known,
            seat,
            state.plies() as usize,
        ))
    }

    fn plies_in(&self, state: &jq::State) -> usize {
        state.plies() as usize
    }

    fn end_in(&self, state: &jq::State) -> Option<(Option<String>, EndReason)> {
        state.end.clone()
    }

    fn next_move_in(&self, state: &jq::State) -> (u32, String) {
        (state.plies() + 1, state.head(self))
    }

    fn binding_of(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }

    fn headline(&self, state: &jq::State) -> String {
        commands::summary(self, state)
    }
}
