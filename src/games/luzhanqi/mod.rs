//! Luzhanqi (陆战棋, two players; 四国军棋 on the cross board) through the game contract:
//! commands over a game directory, and the pure rules binding for bots, `moves` and the
//! conformance suite.

pub mod commands;

/// A commented setup to start from: the same rows fit both boards (a seat's half or arm).
pub const SETUP_TEMPLATE: &str = include_str!("../../../games/luzhanqi/example-setup.toml");
pub mod referee;
pub mod rules;

use super::match_play::{MatchPlay, MatchStep, SessionGame};
use super::report::Report;
use super::{
    Commands, Game, GameFacts, GameSummary, JudgeRequest, MoveRequest, NewGame, Turn, ViewRequest,
};
use crate::console::load_private_key;
use crate::error::{refuse, refuse_with, Result};
use crate::judge::{self, load_game, precheck::position_from_view};
use crate::rules::luzhanqi::{Seat, Viewer};
use crate::store::GameDir;
use crate::tournament::protocol::BotView;
use crate::view::ViewFile;
use std::path::{Path, PathBuf};

pub struct Luzhanqi;

impl Commands for Luzhanqi {
    fn setup(
        &self,
        dir: &Path,
        seat: &str,
        key: &Path,
        setup: crate::games::SetupSource,
        seal: bool,
    ) -> Result<Report> {
        commands::setup(dir, seat, key, setup, seal)
    }

    fn make_move(&self, dir: &Path, seat: &str, key: &Path, mv: MoveRequest) -> Result<Report> {
        commands::make_move(dir, seat, key, mv)
    }

    fn html(&self, dir: &Path, audience: &str, chinese: bool) -> Result<String> {
        commands::html(dir, audience, chinese)
    }

    fn judge(&self, dir: &Path, key: &Path, run: JudgeRequest) -> Result<Report> {
        commands::judge(dir, key, run.now, run.details, run.rulings)
    }

    fn view(&self, dir: &Path, r: ViewRequest) -> Result<Report> {
        commands::view(dir, r.audience, r.format, r.chinese, r.key)
    }

    fn status(&self, dir: &Path, json: bool, now: &str) -> Result<Report> {
        commands::status(dir, json, now)
    }

    fn events(&self, dir: &Path, audience: &str) -> Result<Report> {
        commands::events(dir, audience)
    }

    fn reveal(&self, dir: &Path, key: Option<&Path>) -> Result<Report> {
        commands::reveal(dir, key)
    }

    fn verify(&self, dir: &Path) -> Result<Report> {
        commands::verify(dir)
    }

    fn precheck(&self, dir: &Path, key: Option<&Path>) -> Result<Report> {
        let g = GameDir::new(dir);
        let game = load_game(&g)?;
        let key = key.map(load_private_key).transpose()?;
        judge::precheck::precheck(&g, &game, key.as_ref()).map(Report::lines)
    }
}

impl Game for Luzhanqi {
    fn name(&self) -> &'static str {
        "luzhanqi"
    }

    fn new_game(&self, dir: &Path, new: NewGame) -> Result<Report> {
        commands::new(dir, new)
    }

    fn facts(&self, dir: &GameDir) -> Result<GameFacts> {
        let g = load_game(dir)?;
        Ok(GameFacts {
            seats: g.manifest.players.iter().map(|p| p.seat.clone()).collect(),
            sealed: g.manifest.sealed,
            judge_holds_secrets: true,
            hash: g.hash,
            player_keys: g.player_keys,
            judge_key: g.judge_key,
        })
    }

    fn legal_moves(&self, dir: &Path, seat: &str, key: Option<&Path>) -> Result<Vec<String>> {
        let g = GameDir::new(dir);
        let game = load_game(&g)?;
        let (view, index) = own_view(&g, &game, seat, key)?;
        legal_in_view(&game, &view, seat, index)
    }

    fn has_secrets(&self) -> bool {
        true
    }

    fn variants(&self) -> &'static [super::Variant] {
        &[("2p", &[]), ("cross4", &[])]
    }

    fn setup_is_chosen(&self) -> bool {
        true
    }

    fn match_rules(&self) -> &'static [&'static str] {
        &["max-plies=1000"]
    }

    fn seats(&self, board: &str) -> Result<Vec<String>> {
        let board = crate::rules::luzhanqi::by_name(board).ok_or_else(|| {
            crate::error::Error::Io(format!(
                "--board: unknown board {board:?}; luzhanqi boards: {}",
                crate::rules::luzhanqi::board::BOARD_NAMES.join(", ")
            ))
        })?;
        Ok(board.seat_names.clone())
    }

    fn to_move(&self, dir: &Path) -> Result<Option<String>> {
        let g = GameDir::new(dir);
        let game = load_game(&g)?;
        let public = judge::read_signed_view(&g, &game, "public")?
            .ok_or_else(|| {
                refuse_with(
                    "views/public.json",
                    None,
                    "not written yet",
                    "run `qijudge judge` on the game first",
                )
            })?
            .0;
        Ok(public.to_move)
    }

    fn seat_view(&self, dir: &Path, seat: &str, key: Option<&Path>) -> Result<serde_json::Value> {
        let g = GameDir::new(dir);
        let game = load_game(&g)?;
        super::to_json(&own_view(&g, &game, seat, key)?.0)
    }

    /// The seat's own view read once, for its legal moves and (typed) for the bot.
    fn turn(
        &self,
        dir: &Path,
        key: &dyn Fn(&str) -> PathBuf,
        wants_view: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Turn>> {
        let Some(seat) = self.to_move(dir)? else {
            return Ok(None);
        };
        let g = GameDir::new(dir);
        let game = load_game(&g)?;
        let (view, index) = own_view(&g, &game, &seat, Some(&key(&seat)))?;
        let legal = legal_in_view(&game, &view, &seat, index)?;
        let view = wants_view(&seat).then(|| BotView::Luzhanqi(Box::new(view)));
        Ok(Some(Turn { seat, legal, view }))
    }

    /// A sealed game keeps to the commands: bot matches are never sealed, and its sealed files
    /// (fresh `age` encryptions) cannot be compared byte for byte with the commands' files, the
    /// test that vouches for a session.
    fn play_match(
        &self,
        dir: &Path,
        play: &MatchPlay,
        next: &mut dyn FnMut(Turn) -> Result<MatchStep>,
    ) -> Result<bool> {
        let d = GameDir::new(dir);
        let game = load_game(&d)?;
        if game.manifest.sealed {
            return Ok(false);
        }
        super::match_play::play(&game, &d, play, next)?;
        Ok(true)
    }

    fn summary(&self, dir: &Path) -> Result<GameSummary> {
        let g = GameDir::new(dir);
        let a = judge::audit(&g)?;
        let game = load_game(&g)?;
        let board = game.board;
        let mut sides: Vec<Vec<String>> = Vec::new();
        for (seat, _) in &a.players {
            let Some(s) = board.seat(seat) else { continue };
            match sides.iter_mut().find(|side| {
                side.iter()
                    .any(|other| board.seat(other).is_some_and(|o| board.allies(o, s)))
            }) {
                Some(side) => side.push(seat.clone()),
                None => sides.push(vec![seat.clone()]),
            }
        }
        Ok(GameSummary {
            sides,
            judge: crate::protocol::signing::public_key_line(&game.judge_key),
            id: a.game,
            players: a.players,
            winner: a.winner,
            reason: crate::games::ending_text(a.reason, a.forfeit.as_deref()),
            plies: a.moves,
        })
    }
}

impl SessionGame for judge::Game {
    /// The seat to move, its legal moves (which depend on nothing its view hides: where pieces
    /// stand and its own ranks) and its view, as the judge would publish it now.
    fn turn_in(
        &self,
        _dir: &GameDir,
        state: &judge::Replay,
        wants_view: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Turn>> {
        let Some(position) = state.position.as_ref().filter(|_| state.outcome.is_none()) else {
            return Ok(None);
        };
        let seat = position.to_move();
        super::turn_from(
            Some(self.board.seat_name(seat).to_string()),
            wants_view,
            |_| {
                Ok(super::sorted_moves(
                    position.legal_moves().iter().map(|m| m.display(self.board)),
                ))
            },
            |_| {
                let view = judge::build_view(self, state, Viewer::Seat(seat));
                Ok(BotView::Luzhanqi(Box::new(view)))
            },
        )
    }

    fn next_move(&self, state: &judge::Replay) -> (u32, String) {
        (state.next_ply(), state.record.head_or(&self.hash))
    }

    fn binding(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }
}

/// The legal moves of `seat` (at `index`) from its own view, sorted; refused unless it is to
/// move.
fn legal_in_view(
    game: &judge::Game,
    view: &ViewFile,
    seat: &str,
    index: usize,
) -> Result<Vec<String>> {
    seat_to_move(view, seat)?;
    let position = position_from_view(game, view, Seat(index as u8))?;
    Ok(super::sorted_moves(
        position.legal_moves().iter().map(|m| m.display(game.board)),
    ))
}

/// Refuses unless the view says the game goes on with `seat` to move.
pub(crate) fn seat_to_move(view: &ViewFile, seat: &str) -> Result<()> {
    if view.result.is_some() {
        return Err(refuse("record.jsonl", None, "the game is over"));
    }
    match view.to_move.as_deref() {
        Some(s) if s == seat => {}
        Some(s) => {
            return Err(refuse(
                "--as",
                None,
                format!("it is {s}'s move, not {seat}'s"),
            ))
        }
        None => {
            return Err(refuse_with(
                "record.jsonl",
                None,
                "play has not begun",
                "wait until the judge has every setup",
            ))
        }
    }
    Ok(())
}

/// A seat's own signed view: opened with its key in a sealed game, read in clear otherwise.
pub(crate) fn own_view(
    dir: &GameDir,
    game: &judge::Game,
    seat: &str,
    key: Option<&Path>,
) -> Result<(ViewFile, usize)> {
    let seats: Vec<&str> = game.board.seat_names.iter().map(String::as_str).collect();
    let index = super::seat_index(&seats, seat)?;
    let view = if game.manifest.sealed {
        let key_path = key.ok_or_else(|| {
            refuse_with(
                judge::sealing::sealed_view_path(seat),
                None,
                "sealed to its seat",
                "give your private key with --key to open it",
            )
        })?;
        let key = load_private_key(key_path)?;
        judge::read_sealed_view(dir, game, seat, &key)?.0
    } else {
        judge::read_signed_view(dir, game, seat)?
            .ok_or_else(|| {
                refuse_with(
                    format!("views/{seat}.json"),
                    None,
                    "not written yet",
                    "run `qijudge judge` on the game first",
                )
            })?
            .0
    };
    Ok((view, index))
}
