//! Liubo (六博) through the game contract: commands over a game directory, and the pure rules
//! binding (with throws as chance outcomes) for bots, `moves` and the conformance suite.

pub mod commands;
pub mod picture;
pub mod referee;
pub mod rules;
pub mod view;

use super::defined::{Answers, Definition};
use super::{Commands, JudgeRequest, MoveRequest, NewGame, ViewRequest};
use crate::error::{refuse, Error, Result};
use crate::judge::common::{moves_beyond, precheck_moves, read_signed_move};
use crate::judge::liubo as lb;
use crate::judge::move_path;
use crate::rules::liubo::notation::{parse_turn, write_turn};
use crate::rules::liubo::DiceMode;
use crate::rules::EndReason;
use crate::store::GameDir;
use std::path::Path;

pub struct Liubo;

impl Definition for Liubo {
    type Loaded = lb::LiuboGame;
    const NAME: &'static str = "liubo";
    const SEATS: &'static [&'static str] = &lb::SEATS;
    const MATCH_RULES: &'static [&'static str] = &["ply_limit=1000"];
    const SECRETS: bool = true;
    /// Self mode is not played by `match` (its throws wait for elements only players hold).
    const VARIANTS: &'static [super::Variant] = &[("2p", &["dice_mode=escrow"])];

    fn load(dir: &GameDir) -> Result<lb::LiuboGame> {
        lb::load(dir)
    }

    fn sealed(g: &lb::LiuboGame) -> bool {
        g.manifest.sealed
    }

    fn players(g: &lb::LiuboGame) -> &[crate::protocol::files::Player] {
        &g.manifest.players
    }

    /// In self mode each move carries the mover's chain element: played through the commands.
    fn in_session(g: &lb::LiuboGame) -> bool {
        g.manifest.rules.dice_mode == DiceMode::Escrow
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

impl Commands for Liubo {
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
        if mv.offer_draw {
            return Err(Error::Io(
                "--offer-draw: Liubo has no draw offers (resign, or play on)".into(),
            ));
        }
        let key = crate::console::load_signer(key)?;
        commands::make_move(dir, seat, &key, mv.action, mv.comment, mv.check)
    }

    fn judge(&self, dir: &Path, key: &Path, run: JudgeRequest) -> Result<()> {
        super::defined::judge::<Self>(dir, key, run)
    }

    fn html(&self, dir: &Path, audience: &str, _chinese: bool) -> Result<String> {
        commands::html(dir, audience)
    }

    fn view(&self, dir: &Path, request: ViewRequest) -> Result<()> {
        commands::view(dir, request.audience, request.format)
    }

    fn status(&self, dir: &Path, json: bool, now: &str) -> Result<()> {
        commands::status(dir, json, now)
    }

    fn events(&self, _: &Path, _: &str) -> Result<()> {
        Err(Error::Io(
            "events lists Luzhanqi's hidden-information events; a Liubo view shows every throw and turn (qijudge view)"
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
        let state = lb::current(&d, &g)?;
        let turns = state.position.as_ref().map_or(0, |p| p.turns);
        if g.manifest.rules.dice_mode == DiceMode::SelfReveal {
            // Reveals answer other heads, and a turn's throw needs the mover's next chain
            // element: only the signatures are checked here, the rest by the judge.
            let mut lines = Vec::new();
            for (ply, seat) in moves_beyond(&d, turns)? {
                let path = move_path(ply, &seat);
                let i = super::seat_index(&lb::SEATS, &seat)
                    .map_err(|_| refuse(&path, None, "no such seat in this game"))?;
                read_signed_move(&d, &g.frame(), &path, i)?;
                lines.push(format!(
                    "{path}: signed by {seat} (self mode: the throw and the turn are checked by the judge)"
                ));
            }
            if lines.is_empty() {
                lines.push(format!("no move beyond ply {turns} to check"));
            }
            return Ok(lines);
        }
        let (next, to_move) = match state.throw {
            Some((t, mover, _)) => (t, Some(lb::SEATS[mover].to_string())),
            None => (turns + 1, None),
        };
        let head = state.head(&g);
        precheck_moves(
            &d,
            &g.frame(),
            next,
            &head,
            || Ok(to_move),
            |path, _, file| {
                if file.action != "resign" {
                    let position = state
                        .position
                        .as_ref()
                        .ok_or_else(|| refuse(path, None, "play has not begun"))?;
                    let moves = parse_turn(position, &file.action)
                        .map_err(|e| refuse(path, Some("move"), e.to_string()))?;
                    position
                        .clone()
                        .play_turn(&moves)
                        .map_err(|(_, e)| refuse(path, Some("move"), e.to_string()))?;
                }
                Ok(", legal".into())
            },
        )
    }
}

/// The seat to move (or throw), none once the game is over or before play.
fn to_move_in(state: &lb::State) -> Option<String> {
    if state.end.is_some() {
        return None;
    }
    match (state.throw, &state.position) {
        (Some((_, seat, _)), _) => Some(lb::SEATS[seat].to_string()),
        (None, Some(p)) => Some(lb::SEATS[p.to_move].to_string()),
        (None, None) => None,
    }
}

/// Seat `i`'s legal turns, sorted, in the game as `state` holds it (in self mode, with the
/// throw its own next chain element gives).
fn legal_turns(d: &GameDir, g: &lb::LiuboGame, state: &lb::State, i: usize) -> Result<Vec<String>> {
    let seat = lb::SEATS[i];
    if state.end.is_some() {
        return Err(refuse("record.jsonl", None, "the game is over"));
    }
    let Some(position) = state.position.clone() else {
        return Err(refuse("record.jsonl", None, "play has not begun"));
    };
    let mut position = position;
    if position.to_move != i {
        return Err(refuse(
            "--as",
            None,
            format!("it is {}'s turn, not {seat}'s", lb::SEATS[position.to_move]),
        ));
    }
    if position.current_throw().is_none() {
        // Self mode: the throw comes from the player's own next chain element.
        if g.manifest.rules.dice_mode != DiceMode::SelfReveal {
            return Err(refuse(
                "record.jsonl",
                None,
                "no throw is waiting: run the judge",
            ));
        }
        let chain = lb::own_chain(d, g, i)?;
        let values = commands::self_mode_throw(g, state, &chain, i, position.turns + 1)?;
        position
            .begin_turn(values)
            .map_err(|e| Error::Io(format!("throw: {e}")))?;
    }
    let mut turns: Vec<String> = position
        .legal_turns()
        .iter()
        .map(|t| write_turn(t))
        .collect();
    turns.sort();
    turns.dedup();
    Ok(turns)
}

impl Answers for lb::LiuboGame {
    fn to_move_in(&self, state: &lb::State) -> Option<String> {
        to_move_in(state)
    }

    /// Nothing on the board is hidden: the seat's view is the record's position and throw.
    fn legal_in(&self, dir: &GameDir, state: &lb::State, seat: &str) -> Result<Vec<String>> {
        legal_turns(dir, self, state, super::seat_index(&lb::SEATS, seat)?)
    }

    fn view_in(&self, _: &GameDir, state: &lb::State, seat: &str) -> Result<serde_json::Value> {
        super::to_json(&lb::build_view(self, state, seat))
    }

    fn plies_in(&self, state: &lb::State) -> usize {
        state.position.as_ref().map_or(0, |p| p.turns as usize)
    }

    fn end_in(&self, state: &lb::State) -> Option<(Option<String>, EndReason)> {
        state.end.clone()
    }

    /// The throw being played and the head its turn answers (escrow mode).
    fn next_move_in(&self, state: &lb::State) -> (u32, String) {
        let t = state.throw.map_or(0, |(t, _, _)| t);
        (t, state.head(self))
    }

    fn binding_of(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }

    fn headline(&self, state: &lb::State) -> String {
        lb::build_view(self, state, "public").waiting
    }
}
