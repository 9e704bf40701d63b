//! Nim, the toy game that proves the game definition: one pile, each ply takes one or two
//! stones, whoever takes the last wins. It is compiled only into the tests and into builds
//! with the `toy-game` feature, and it is one folder plus one line of the registry: every
//! registry-driven suite (commands, judge pipeline, rules contract, views, matches) runs on it
//! as on the real games, so a hook a new game needs and lacks shows up here first.

pub mod binding;
pub mod commands;
pub mod referee;
pub mod rules;
pub mod view;

use super::defined::{check_turn, Answers, Definition};
use super::NewGame;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::files::Player;
use qijudge_rules::EndReason;
use qijudge_store::GameDir;
use referee::{NimGame, State, SEATS};
use rules::Take;

pub struct Nim;

impl Definition for Nim {
    type Loaded = NimGame;
    type View = view::NimView;
    const NAME: &'static str = "nim";
    const SAMPLE_KEYS: &'static [&'static str] = &[
        include_str!("../../../../tests/data/nim/sample/keys/alice.pub"),
        include_str!("../../../../tests/data/nim/sample/keys/bob.pub"),
        include_str!("../../../../tests/data/nim/sample/keys/judge.pub"),
    ];
    const TITLE: &'static str = "Nim";
    const SEATS: &'static [&'static str] = &SEATS;
    const MATCH_RULES: &'static [&'static str] = &[];
    const SECRETS: bool = false;
    const VIEW_FORMAT: &'static str = referee::VIEW_FORMAT;
    const VARIANTS: &'static [super::Variant] = &[("2p", &[]), ("2p", &["stones=12"])];

    fn load(dir: &GameDir) -> Result<NimGame> {
        referee::NimGame::load(dir)
    }

    fn manifest(new: &NewGame, id: [u8; 16], players: Vec<Player>) -> Result<String> {
        let options = referee::options_from(new.rules)?;
        qijudge_game::defined::seated_manifest::<Self>(new, Self::TITLE, id, options, players)
    }

    fn text_view(g: &NimGame, v: &view::NimView, _: bool) -> String {
        view::render_text(&g.manifest.players, v)
    }

    fn picture(_: &NimGame, v: &view::NimView, _: bool) -> String {
        view::picture(v, true)
    }

    fn html(dir: &GameDir, g: &NimGame, audience: &str, _: bool) -> Result<String> {
        commands::html(dir, g, audience)
    }

    const GREEDY: Option<qijudge_game::defined::GreedyScores> = Some(greedy_scores);
    fn conform() {
        for stones in [referee::STONES, 30] {
            qijudge_rules::conformance::conformance(&binding::NimRules::new(stones), 6);
        }
    }
}

impl NimGame {
    fn read(&self, state: &State, text: &str) -> std::result::Result<String, String> {
        match text {
            "resign" | "accept-draw" => Ok(text.to_string()),
            text => {
                let take = Take::parse(text)?;
                state.pile.check(take)?;
                Ok(take.to_string())
            }
        }
    }
}

impl Answers for NimGame {
    fn to_move_in(&self, state: &State) -> Option<String> {
        state.to_move().map(str::to_string)
    }

    fn legal_in(&self, _: &GameDir, state: &State, seat: &str) -> Result<Vec<String>> {
        check_turn(self, state, seat)?;
        Ok(super::sorted_moves(state.pile.legal()))
    }

    fn view_in(&self, _: &GameDir, state: &State, seat: &str) -> Result<serde_json::Value> {
        super::to_json(&referee::build_view(self, state, seat))
    }

    fn plies_in(&self, state: &State) -> usize {
        state.takes.len()
    }

    fn end_in(&self, state: &State) -> Option<(Option<String>, EndReason)> {
        state.turns.end.clone()
    }

    fn next_move_in(&self, state: &State) -> (u32, String) {
        (state.plies() + 1, state.turns.record.head_or(&self.hash))
    }

    fn binding_of(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }

    fn headline(&self, state: &State) -> String {
        let v = referee::build_view(self, state, "public");
        view::state_lines(&v).pop().unwrap_or_default()
    }

    fn typed_action(&self, _: &GameDir, state: &State, _: &str, text: &str) -> Result<String> {
        self.read(state, text)
            .map_err(|e| Error::Io(format!("move: {e}")))
    }

    fn filed_action(&self, state: &State, path: &str, action: &str) -> Result<()> {
        self.read(state, action)
            .map(drop)
            .map_err(|e| refuse(path, Some("move"), e))
    }

    fn status_of(&self, state: &State) -> (serde_json::Value, String) {
        let v = referee::build_view(self, state, "public");
        let plies = state.turns.record.last_move_ply();
        let fields = serde_json::json!({
            "game": v.game, "ply": plies, "to_move": v.to_move, "stones": v.stones,
            "result": v.result, "closing": v.closing, "record_head": v.record_head,
        });
        (fields, format!("game {} after {plies} plies", v.game))
    }

    fn audited(&self, _: &GameDir, state: &State) -> Vec<String> {
        vec![format!(
            "verified Nim game {}: {} plies, every signature, move and view checked",
            self.manifest.id,
            state.turns.record.last_move_ply()
        )]
    }
}

/// The greedy bot: take the most stones that leave the opponent a multiple of three, where one
/// does.
fn greedy_scores(view: &serde_json::Value, legal: &[String]) -> Vec<i32> {
    let stones = view["stones"].as_u64().unwrap_or(0);
    legal
        .iter()
        .map(|t| {
            let took: u64 = t.parse().unwrap_or(0);
            i32::from(stones >= took && (stones - took).is_multiple_of(3))
        })
        .collect()
}
