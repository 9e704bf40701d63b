//! Xiangqi (象棋) through the game contract: commands over a game directory, and the pure rules
//! binding for bots, `moves` and the conformance suite.

pub mod commands;
pub mod rules;

use super::match_play::{MatchPlay, MatchStep, SessionGame};
use super::{Game, GameFacts, GameSummary, JudgeRequest, MoveRequest, NewGame, Turn, ViewRequest};
use crate::console::load_private_key;
use crate::error::{refuse, Error, Result};
use crate::judge::common::precheck_moves;
use crate::judge::xiangqi as xq;
use crate::rules::xiangqi::notation;
use crate::store::GameDir;
use crate::tournament::protocol::BotView;
use std::path::{Path, PathBuf};

pub struct Xiangqi;

impl Game for Xiangqi {
    fn name(&self) -> &'static str {
        "xiangqi"
    }

    fn new_game(&self, dir: &Path, new: NewGame) -> Result<()> {
        super::one_board("xiangqi", new.board)?;
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

    fn facts(&self, dir: &GameDir) -> Result<GameFacts> {
        let g = xq::load(dir)?;
        Ok(GameFacts {
            seats: g.manifest.players.iter().map(|p| p.seat.clone()).collect(),
            hash: g.hash,
            player_keys: g.player_keys,
            judge_key: g.judge_key,
            sealed: false,
        })
    }

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
            "events is for hidden-information games; a Xiangqi view shows everything (qijudge view)"
                .into(),
        ))
    }

    fn reveal(&self, _: &Path, _: Option<&Path>) -> Result<()> {
        Err(Error::Io(
            "Xiangqi hides nothing: there are no setups to reveal".into(),
        ))
    }

    fn verify(&self, dir: &Path) -> Result<()> {
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

    fn legal_moves(&self, dir: &Path, seat: &str, _key: Option<&Path>) -> Result<Vec<String>> {
        let (d, g) = commands::load(dir)?;
        super::seat_index(&xq::SEATS, seat)?;
        // Nothing is hidden: the seat's view is the whole position, which the record gives.
        let state = xq::current(&d, &g)?;
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
        Ok(xq::SEATS.iter().map(|s| s.to_string()).collect())
    }

    fn has_secrets(&self) -> bool {
        false
    }

    fn to_move(&self, dir: &Path) -> Result<Option<String>> {
        let (d, g) = commands::load(dir)?;
        Ok(xq::current(&d, &g)?.to_move().map(str::to_string))
    }

    fn seat_view(&self, dir: &Path, seat: &str, _key: Option<&Path>) -> Result<serde_json::Value> {
        let (d, g) = commands::load(dir)?;
        super::seat_index(&xq::SEATS, seat)?;
        let state = xq::current(&d, &g)?;
        super::to_json(&xq::build_view(&g, &state, seat))
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
        let state = xq::verify(&d, &g)?;
        let plies = state.game.moves().len();
        super::one_side_each_summary(&g.manifest.id, &g.manifest.players, state.end, plies)
    }
}

impl SessionGame for xq::XiangqiGame {
    fn turn_in(
        &self,
        _dir: &GameDir,
        state: &xq::State,
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
            |seat| super::to_json(&xq::build_view(self, state, seat)).map(BotView::Other),
        )
    }

    fn next_move(&self, state: &xq::State) -> (u32, String) {
        let ply = state.game.moves().len() as u32 + 1;
        (ply, state.record.head_or(&self.hash))
    }

    fn binding(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }
}
