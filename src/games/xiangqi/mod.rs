//! Xiangqi (象棋) through the game contract: commands over a game directory, and the pure rules
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
use crate::judge::xiangqi as xq;
use crate::rules::xiangqi::notation;
use crate::rules::EndReason;
use crate::store::GameDir;
use std::path::Path;

pub struct Xiangqi;

impl Definition for Xiangqi {
    type Loaded = xq::XiangqiGame;
    const NAME: &'static str = "xiangqi";
    const SEATS: &'static [&'static str] = &xq::SEATS;
    const MATCH_RULES: &'static [&'static str] = &["move-limit=on"];
    const SECRETS: bool = false;

    fn load(dir: &GameDir) -> Result<xq::XiangqiGame> {
        xq::load(dir)
    }

    fn sealed(_: &xq::XiangqiGame) -> bool {
        false
    }

    fn players(g: &xq::XiangqiGame) -> &[crate::protocol::files::Player] {
        &g.manifest.players
    }

    fn new_game(&self, dir: &Path, new: NewGame) -> Result<()> {
        if new.sealed {
            return Err(Error::Io(
                "--sealed: Xiangqi hides nothing (no setups, no seeds)".into(),
            ));
        }
        commands::new(
            dir,
            &new.players,
            new.judge_key,
            new.rules,
            new.created,
            new.sample,
            new.clock,
        )
    }
}

impl Commands for Xiangqi {
    fn setup(
        &self,
        _: &Path,
        _: &str,
        _: &Path,
        _: crate::games::SetupSource,
        _: bool,
    ) -> Result<()> {
        Err(Error::Io(
            "Xiangqi has no secret setup: both players start from the position in game.toml".into(),
        ))
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
            "events is for hidden-information games; a Xiangqi view shows everything (qijudge view)"
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
        let state = xq::current(&d, &g)?;
        let next = state.game.moves().len() as u32 + 1;
        let head = state.record.head_or(&g.hash);
        let to_move = || Ok(state.to_move().map(str::to_string));
        precheck_moves(&d, &g.frame(), next, &head, to_move, |path, _, file| {
            if !matches!(file.action.as_str(), "resign" | "accept-draw") {
                notation::parse(state.game.position(), &file.action)
                    .map_err(|e| refuse(path, Some("move"), e.to_string()))?;
            }
            Ok(", legal".into())
        })
    }
}

impl Answers for xq::XiangqiGame {
    fn to_move_in(&self, state: &xq::State) -> Option<String> {
        state.to_move().map(str::to_string)
    }

    /// Nothing is hidden: the seat's view is the whole position, which the record gives.
    fn legal_in(&self, _: &GameDir, state: &xq::State, seat: &str) -> Result<Vec<String>> {
        commands::check_turn(state, seat)?;
        Ok(super::sorted_moves(
            state.game.position().legal_moves().iter(),
        ))
    }

    fn view_in(&self, _: &GameDir, state: &xq::State, seat: &str) -> Result<serde_json::Value> {
        super::to_json(&xq::build_view(self, state, seat))
    }

    fn plies_in(&self, state: &xq::State) -> usize {
        state.game.moves().len()
    }

    fn end_in(&self, state: &xq::State) -> Option<(Option<String>, EndReason)> {
        state.end.clone()
    }

    fn next_move_in(&self, state: &xq::State) -> (u32, String) {
        let ply = state.game.moves().len() as u32 + 1;
        (ply, state.record.head_or(&self.hash))
    }

    fn binding_of(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }

    fn headline(&self, state: &xq::State) -> String {
        commands::summary(state)
    }
}
