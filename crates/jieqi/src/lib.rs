//! Jieqi (揭棋) through the game contract: commands over a game directory, and the pure rules
//! binding for bots, `moves` and the conformance suite.

pub mod binding;
mod bot;
pub mod chinese;
pub mod commands;
pub mod manifest;
pub mod picture;
pub mod referee;
pub use jieqi_rules as rules;
pub mod uci;
pub mod view;

use crate::referee as jq;
use qijudge_game::defined::{check_turn, Answers, Definition};
use qijudge_game::NewGame;
use qijudge_judge::turn_referee::TurnReferee;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::files::{to_toml, Player};
use qijudge_rules::EndReason;
use qijudge_store::GameDir;
use xiangqi_rules::notation::parse_iccs;

pub struct Jieqi;

impl Definition for Jieqi {
    const VIEW_FORMAT: &'static str = manifest::JIEQI_VIEW_FORMAT;
    type Loaded = jq::JieqiGame;
    type View = jq::JieqiView;
    const NAME: &'static str = "jieqi";
    const SAMPLE_KEYS: &'static [&'static str] = &[
        include_str!("../shipped/sample/keys/alice.pub"),
        include_str!("../shipped/sample/keys/bob.pub"),
        include_str!("../shipped/sample/keys/judge.pub"),
    ];
    const ADJUDICATED: bool = true;
    const TITLE: &'static str = "Jieqi";
    const CHINESE_TITLE: &'static str = "揭棋";
    const SECRET_WORD: &'static str = "nonce";
    const SEATS: &'static [&'static str] = &jq::SEATS;
    const MORE_RULE_SETS: &'static [qijudge_game::Variant] = &[("2p", &["move-limit=off"])];
    const MATCH_RULES: &'static [&'static str] = &["move-limit=on"];
    const SECRETS: bool = true;
    const VARIANTS: &'static [qijudge_game::Variant] = &[
        ("2p", &["captured=both"]),
        ("2p", &["captured=captor"]),
        ("2p", &["captured=nobody"]),
    ];

    fn load(dir: &GameDir) -> Result<jq::JieqiGame> {
        jq::JieqiGame::load(dir)
    }

    fn manifest(new: &NewGame, id: [u8; 16], players: Vec<Player>) -> Result<String> {
        let mut items = new.rules.to_vec();
        // A sealed game publishes every view: unless told otherwise, captured pieces stay
        // unknown.
        if new.sealed && !items.iter().any(|r| r.starts_with("captured=")) {
            items.push("captured=nobody".into());
        }
        let options = jq::rules_from(&items)?;
        if new.sealed && options.captured == jieqi_rules::Captured::Captor {
            return Err(manifest::sealed_captor_refusal());
        }
        qijudge_game::defined::seated_manifest::<Self>(new, Self::TITLE, id, options, players)
    }

    fn draw_secret(g: &jq::JieqiGame, seat: usize, random: [u8; 32]) -> Result<(String, String)> {
        let (commitment, nonce) = qijudge_judge::nonces::new_files(&g.frame(), seat, random);
        Ok((to_toml(&commitment), to_toml(&nonce)))
    }

    fn text_view(g: &jq::JieqiGame, v: &jq::JieqiView, chinese: bool) -> String {
        crate::view::render_text(&g.manifest.players, v, chinese)
    }

    fn picture(_: &jq::JieqiGame, v: &jq::JieqiView, chinese: bool) -> String {
        picture::jieqi_with(v, chinese)
    }

    fn html(dir: &GameDir, g: &jq::JieqiGame, audience: &str, _: bool) -> Result<String> {
        commands::html(dir, g, audience)
    }

    fn schemas() -> Vec<(String, String)> {
        use qijudge_judge::schema::schema;
        use qijudge_protocol::files::{NonceCommitmentFile, NonceFile};
        vec![
            (
                "jieqi-manifest.schema.json".into(),
                qijudge_judge::schema::schema_of::<Self>("JieqiManifest"),
            ),
            (
                "jieqi-nonce-commitment.schema.json".into(),
                schema::<NonceCommitmentFile>(),
            ),
            ("jieqi-nonce.schema.json".into(), schema::<NonceFile>()),
            ("jieqi-view.schema.json".into(), schema::<jq::JieqiView>()),
        ]
    }

    /// Square to square, as Xiangqi's record writes moves.
    fn spell_move(lower: &str) -> std::result::Result<String, String> {
        qijudge_xiangqi::commands::spell_iccs(lower)
    }

    fn secret_opens(
        _seat: usize,
        name: &str,
        secret: &str,
        commitment: &str,
    ) -> std::result::Result<bool, &'static str> {
        qijudge_judge::nonces::opens(name, secret, commitment)
    }

    const ENGINE_PROTOCOLS: &'static [(&'static str, &'static str)] = &[("uci", "jieqi")];

    /// Jieqi engines speak UCI in their own dialect (`uci.rs`).
    fn engine(
        protocol: &str,
        _board: &str,
        process: qijudge_engine::ProcessBot,
        time: std::time::Duration,
        settings: qijudge_engine::EngineSettings,
    ) -> Option<Box<dyn qijudge_engine::Engine>> {
        use qijudge_xiangqi::uci::{Dialect, PositionLine, UciBot};
        let line: PositionLine = match settings.fen_fields {
            Some(5) => uci::position_line_five_fields,
            _ => uci::position_line,
        };
        (protocol == "uci").then(|| {
            Box::new(UciBot::new(process, Dialect::Uci, time, settings).telling_positions_by(line))
                as Box<dyn qijudge_engine::Engine>
        })
    }
    const GREEDY: Option<qijudge_game::defined::GreedyScores> = Some(bot::greedy_scores);

    /// A piece taken face down shown to its captor alone is knowledge of another seat's
    /// secret by the rules, which the generic check forbids: that option has its own test
    /// (`binding`), where it is also the control that the check bites.
    fn conform() {
        use jieqi_rules::{AdvisorsElephants, Captured, Options};
        for (captured, advisors_elephants) in [
            (Captured::Both, AdvisorsElephants::Free),
            (Captured::Nobody, AdvisorsElephants::Confined),
        ] {
            let options = Options {
                captured,
                advisors_elephants,
                move_limit: true,
            };
            qijudge_rules::conformance::conformance(&binding::JieqiRules::new(options), 4);
        }
    }
}

impl Answers for jq::JieqiGame {
    fn to_move_in(&self, state: &jq::State) -> Option<String> {
        TurnReferee::to_move(self, state).map(|s| jq::SEATS[s].to_string())
    }

    /// Legality depends only on what everyone sees: a face-down piece moves as its square.
    fn legal_in(&self, _: &GameDir, state: &jq::State, seat: &str) -> Result<Vec<String>> {
        check_turn(self, state, seat)?;
        Ok(qijudge_game::sorted_moves(
            state.game.position().legal_moves().iter(),
        ))
    }

    /// A seat's own view, with the face-down pieces it took that it may know.
    fn view_in(&self, d: &GameDir, state: &jq::State, seat: &str) -> Result<serde_json::Value> {
        let known = jq::known_captures(d, self, state, seat)?;
        qijudge_game::to_json(&jq::view_with(
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
        state.turns.end.clone()
    }

    fn next_move_in(&self, state: &jq::State) -> (u32, String) {
        (state.plies() + 1, state.turns.head(&self.hash))
    }

    fn binding_of(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }

    fn headline(&self, state: &jq::State) -> String {
        commands::summary(self, state)
    }

    /// Stored in ICCS as `h2e2`; legal where the pieces stand (a face-down piece moves as its
    /// square), which is all the seat needs to know.
    fn typed_action(&self, _: &GameDir, state: &jq::State, _: &str, text: &str) -> Result<String> {
        if matches!(text, "resign" | "accept-draw") {
            return Ok(text.to_string());
        }
        let m = parse_iccs(text).ok_or_else(|| {
            Error::Io(format!(
                "move: {text:?} is not a move; write ICCS coordinates like h2e2 (from, to), or resign"
            ))
        })?;
        state
            .game
            .position()
            .check_move(m)
            .map_err(|e| Error::Io(format!("move {m}: {e}")))?;
        Ok(m.to_string())
    }

    fn filed_action(&self, state: &jq::State, path: &str, action: &str) -> Result<()> {
        if !matches!(action, "resign" | "accept-draw") {
            let m = parse_iccs(action)
                .ok_or_else(|| refuse(path, Some("move"), "not ICCS coordinates like h2e2"))?;
            state
                .game
                .position()
                .check_move(m)
                .map_err(|e| refuse(path, Some("move"), e.to_string()))?;
        }
        Ok(())
    }

    fn status_of(&self, state: &jq::State) -> (serde_json::Value, String) {
        let v = jq::build_view(self, state, "public");
        // Every signed move counts, a resignation or an accepted draw included.
        let plies = state.turns.record.last_move_ply();
        let first = format!("game {} after {plies} plies", v.game);
        let fields = serde_json::json!({
            "game": v.game, "ply": plies, "closing": v.closing, "to_move": v.to_move, "check": v.check,
            "result": v.result, "last_move": v.last_move, "record_head": v.record_head,
            "position": v.position,
        });
        (fields, first)
    }

    fn audited(&self, _: &GameDir, state: &jq::State) -> Vec<String> {
        commands::audited(self, state)
    }
}
