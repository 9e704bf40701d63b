//! Xiangqi (象棋) through the game contract: commands over a game directory, and the pure rules
//! binding for bots, `moves` and the conformance suite.

#[macro_use]
extern crate qijudge_game;

pub mod binding;
mod book;
pub mod bot;
pub mod chinese;
pub mod commands;
pub mod manifest;
pub mod picture;
pub mod referee;
pub mod ucci;
pub mod uci;
pub use xiangqi_rules as rules;
mod tools;
pub mod view;

use crate::referee as xq;
use qijudge_game::defined::{check_turn, Answers, Definition};
use qijudge_game::NewGame;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::files::Player;
use qijudge_rules::EndReason;
use qijudge_store::GameDir;
use xiangqi_rules::notation;

pub struct Xiangqi;

impl Definition for Xiangqi {
    const BOOK_FORMAT: Option<&'static str> = Some("FEN, EPD or PGN");
    const TOOLS: &'static [&'static str] = &["perft", "check", "pgn"];
    const VIEW_FORMAT: &'static str = manifest::XIANGQI_VIEW_FORMAT;
    type Loaded = xq::XiangqiGame;
    type View = xq::XiangqiView;
    const NAME: &'static str = "xiangqi";
    const SAMPLE_KEYS: &'static [&'static str] = &[
        include_str!("../shipped/sample/keys/alice.pub"),
        include_str!("../shipped/sample/keys/bob.pub"),
        include_str!("../shipped/sample/keys/judge.pub"),
    ];
    const ADJUDICATED: bool = true;
    const TITLE: &'static str = "Xiangqi";
    const CHINESE_TITLE: &'static str = "象棋";
    const SEATS: &'static [&'static str] = &xq::SEATS;
    const MORE_RULE_SETS: &'static [qijudge_game::Variant] = &[("2p", &["move-limit=off"])];
    const MATCH_RULES: &'static [&'static str] = &["move-limit=on"];
    const SECRETS: bool = false;

    fn spell_move(lower: &str) -> std::result::Result<String, String> {
        commands::spell_iccs(lower)
    }

    fn load(dir: &GameDir) -> Result<xq::XiangqiGame> {
        xq::XiangqiGame::load(dir)
    }

    fn manifest(new: &NewGame, id: [u8; 16], players: Vec<Player>) -> Result<String> {
        let options = xq::rules_from(new.rules)?;
        qijudge_game::defined::seated_manifest::<Self>(new, Self::TITLE, id, options, players)
    }

    fn text_view(g: &xq::XiangqiGame, v: &xq::XiangqiView, chinese: bool) -> String {
        crate::view::render_text(&g.manifest.players, v, chinese)
    }

    fn picture(_: &xq::XiangqiGame, v: &xq::XiangqiView, chinese: bool) -> String {
        picture::xiangqi_with(v, chinese)
    }

    fn html(dir: &GameDir, g: &xq::XiangqiGame, audience: &str, _: bool) -> Result<String> {
        commands::html(dir, g, audience)
    }

    fn schemas() -> Vec<(String, String)> {
        use qijudge_judge::schema::schema;

        vec![
            (
                "xiangqi-manifest.schema.json".into(),
                qijudge_judge::schema::schema_of::<Self>("XiangqiManifest"),
            ),
            (
                "xiangqi-view.schema.json".into(),
                schema::<xq::XiangqiView>(),
            ),
            (
                "xiangqi-check.schema.json".into(),
                schema::<xiangqi_rules::check::GameCheck>(),
            ),
        ]
    }

    const ENGINE_PROTOCOLS: &'static [(&'static str, &'static str)] =
        &[("uci", "xiangqi"), ("ucci", "xiangqi")];

    fn engine(
        protocol: &str,
        _board: &str,
        process: qijudge_engine::ProcessBot,
        time: std::time::Duration,
        settings: qijudge_engine::EngineSettings,
    ) -> Option<Box<dyn qijudge_engine::Engine>> {
        let dialect = match protocol {
            "uci" => uci::Dialect::Uci,
            "ucci" => uci::Dialect::Ucci,
            _ => return None,
        };
        Some(Box::new(uci::UciBot::new(process, dialect, time, settings)))
    }
    const GREEDY: Option<qijudge_game::defined::GreedyScores> = Some(bot::greedy_scores);

    fn perft(depth: u32, start: Option<String>, divide: bool) -> Result<()> {
        tools::perft(depth, start, divide)
    }

    fn check_records(files: &[std::path::PathBuf], json: bool, move_limit: bool) -> Result<()> {
        tools::check_records(files, json, move_limit)
    }

    fn pgn(dir: &std::path::Path, notation: &str) -> Result<String> {
        tools::pgn_text(dir, notation)
    }

    fn book_openings(
        text: &str,
        _board: &str,
        shown: &str,
        kind: qijudge_game::opening::BookText,
    ) -> Result<Vec<qijudge_game::opening::Opening>> {
        use qijudge_game::opening::BookText;
        let positions = match kind {
            BookText::Pgn { plies } => book::pgn_openings(text, shown, plies)?,
            BookText::Positions => book::fen_openings(text, shown)?,
        };
        Ok(positions
            .into_iter()
            .map(qijudge_game::opening::Opening::Position)
            .collect())
    }
    fn conform() {
        let options = xiangqi_rules::Options {
            move_limit: true,
            ..Default::default()
        };
        let start = xiangqi_rules::Position::start();
        let rules = binding::XiangqiRules::new(start, options);
        qijudge_rules::conformance::conformance(&rules, 4);
    }
}

impl Answers for xq::XiangqiGame {
    fn to_move_in(&self, state: &xq::State) -> Option<String> {
        state.to_move().map(str::to_string)
    }

    /// Nothing is hidden: the seat's view is the whole position, which the record gives.
    fn legal_in(&self, _: &GameDir, state: &xq::State, seat: &str) -> Result<Vec<String>> {
        check_turn(self, state, seat)?;
        Ok(qijudge_game::sorted_moves(
            state.game.position().legal_moves().iter(),
        ))
    }

    fn view_in(&self, _: &GameDir, state: &xq::State, seat: &str) -> Result<serde_json::Value> {
        qijudge_game::to_json(&xq::build_view(self, state, seat))
    }

    fn plies_in(&self, state: &xq::State) -> usize {
        state.game.moves().len()
    }

    fn end_in(&self, state: &xq::State) -> Option<(Option<String>, EndReason)> {
        state.turns.end.clone()
    }

    fn next_move_in(&self, state: &xq::State) -> (u32, String) {
        let ply = state.game.moves().len() as u32 + 1;
        (ply, state.turns.record.head_or(&self.hash))
    }

    fn binding_of(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }

    fn headline(&self, state: &xq::State) -> String {
        commands::summary(state)
    }

    /// Stored in ICCS whatever notation the player typed (ICCS, WXF, Chinese).
    fn typed_action(&self, _: &GameDir, state: &xq::State, _: &str, text: &str) -> Result<String> {
        match text {
            "resign" | "accept-draw" => Ok(text.to_string()),
            text => Ok(notation::parse(state.game.position(), text)
                .map_err(|e| Error::Io(format!("move: {e}")))?
                .to_string()),
        }
    }

    fn line_in(
        &self,
        state: &xq::State,
        words: &[String],
    ) -> Option<std::result::Result<Vec<String>, String>> {
        // Every seat sees the whole position: the line is played out on a copy of it.
        let mut position = state.game.position().clone();
        let mut out = Vec::new();
        for word in words {
            let played = notation::parse(&position, word)
                .map_err(|e| e.to_string())
                .and_then(|m| position.play(m).map(|_| m).map_err(|e| e.to_string()));
            match played {
                Ok(m) => out.push(m.to_string()),
                Err(why) => {
                    let whose = if out.len() % 2 == 0 {
                        "the reply"
                    } else {
                        "your answer"
                    };
                    return Some(Err(format!(
                        "{whose} {word:?} cannot be played there: {why}"
                    )));
                }
            }
        }
        Some(Ok(out))
    }

    fn filed_action(&self, state: &xq::State, path: &str, action: &str) -> Result<()> {
        if !matches!(action, "resign" | "accept-draw") {
            notation::parse(state.game.position(), action)
                .map_err(|e| refuse(path, Some("move"), e.to_string()))?;
        }
        Ok(())
    }

    fn status_of(&self, state: &xq::State) -> (serde_json::Value, String) {
        let v = xq::build_view(self, state, "public");
        // Every signed move counts, a resignation or an accepted draw included.
        let plies = state.turns.record.last_move_ply();
        let first = format!("game {} after {plies} plies", v.game);
        let fields = serde_json::json!({
            "game": v.game, "ply": plies, "to_move": v.to_move, "check": v.check,
            "result": v.result, "last_move": v.last_move, "closing": v.closing,
            "record_head": v.record_head, "fen": v.fen,
        });
        (fields, first)
    }

    fn audited(&self, _: &GameDir, state: &xq::State) -> Vec<String> {
        vec![format!(
            "verified Xiangqi game {}: {} plies, every signature, move and view checked",
            self.manifest.id,
            state.turns.record.last_move_ply()
        )]
    }
}
