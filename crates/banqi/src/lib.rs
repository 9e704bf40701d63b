//! Banqi (暗棋) through the game definition: everything the commands need from the game, and
//! the pure rules for bots, `moves` and the conformance suite. Rules and choices:
//! `docs/banqi.md`.

pub mod binding;
pub mod chinese;
pub mod commands;
pub mod picture;
pub mod referee;
pub use banqi_rules as rules;
pub mod view;

use qijudge_game::defined::{check_turn, Answers, Definition};
use qijudge_game::NewGame;
use qijudge_judge::turn_referee::TurnReferee;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::files::{to_toml, Player};
use qijudge_rules::EndReason;
use qijudge_store::GameDir;
use referee::{self as bq, BanqiGame, State};
use rules::Action;

pub use referee::SEATS;

pub struct Banqi;

impl Definition for Banqi {
    const VIEW_FORMAT: &'static str = referee::VIEW_FORMAT;
    type Loaded = BanqiGame;
    type View = view::BanqiView;
    const NAME: &'static str = "banqi";
    const SAMPLE_KEYS: &'static [&'static str] = &[
        include_str!("../shipped/sample/keys/alice.pub"),
        include_str!("../shipped/sample/keys/bob.pub"),
        include_str!("../shipped/sample/keys/judge.pub"),
    ];
    const TITLE: &'static str = "Banqi";
    const CHINESE_TITLE: &'static str = "暗棋";
    const SECRET_WORD: &'static str = "nonce";
    const SEATS: &'static [&'static str] = &bq::SEATS;
    const MATCH_RULES: &'static [&'static str] = &["move-limit=on"];
    const SECRETS: bool = true;
    const MORE_RULE_SETS: &'static [qijudge_game::Variant] = &[
        ("2p", &["move-limit=off"]),
        ("2p", &["move-limit=180", "repetition=off"]),
        ("2p", &["chariot-runs=on"]),
        ("2p", &["chariot-runs=ranked"]),
        ("2p", &["chain-captures=on"]),
        ("2p", &["chain-captures=on", "cannon-takes-face-down=on"]),
        ("2p", &["ranking=hong-kong"]),
        ("2p", &["cannon-takes-adjacent=on"]),
        ("2p", &["long-chase=on", "move-limit=off"]),
    ];
    const VARIANTS: &'static [qijudge_game::Variant] =
        &[("2p", &[]), ("2p", &["cannon-takes-face-down=on"])];

    /// A square to turn up (`a1`) or from-to (`a1a2`).
    fn spell_move(lower: &str) -> std::result::Result<String, String> {
        banqi_rules::position::Action::parse(lower)
            .map(|a| a.to_string())
            .ok_or_else(|| "write a square to turn up (a1) or from-to (a1a2), a1 … h4".into())
    }

    fn secret_opens(
        _seat: usize,
        name: &str,
        secret: &str,
        commitment: &str,
    ) -> std::result::Result<bool, &'static str> {
        qijudge_judge::nonces::opens(name, secret, commitment)
    }

    fn load(dir: &GameDir) -> Result<BanqiGame> {
        BanqiGame::load(dir)
    }

    fn manifest(new: &NewGame, id: [u8; 16], players: Vec<Player>) -> Result<String> {
        let options = bq::rules_from(new.rules)?;
        qijudge_game::defined::seated_manifest::<Self>(new, Self::TITLE, id, options, players)
    }

    fn draw_secret(g: &BanqiGame, seat: usize, random: [u8; 32]) -> Result<(String, String)> {
        let (commitment, nonce) = qijudge_judge::nonces::new_files(&g.frame(), seat, random);
        Ok((to_toml(&commitment), to_toml(&nonce)))
    }

    fn text_view(g: &BanqiGame, v: &view::BanqiView, chinese: bool) -> String {
        match chinese {
            true => chinese::text(&g.manifest.players, v),
            false => view::render_text(&g.manifest.players, v, false),
        }
    }

    fn picture(_: &BanqiGame, v: &view::BanqiView, chinese: bool) -> String {
        picture::banqi_with(v, chinese)
    }

    fn html(dir: &GameDir, g: &BanqiGame, audience: &str, _: bool) -> Result<String> {
        commands::html(dir, g, audience)
    }

    fn schemas() -> Vec<(String, String)> {
        use qijudge_judge::schema::schema;
        vec![
            (
                "banqi-manifest.schema.json".into(),
                qijudge_judge::schema::schema_of::<Self>("BanqiManifest"),
            ),
            ("banqi-view.schema.json".into(), schema::<view::BanqiView>()),
        ]
    }

    const GREEDY: Option<qijudge_game::defined::GreedyScores> = Some(view::greedy_scores);
    fn conform() {
        for cannon_takes_face_down in [false, true] {
            let options = rules::Options {
                cannon_takes_face_down,
                ..rules::Options::default()
            };
            qijudge_rules::conformance::conformance(&binding::BanqiRules::new(options), 4);
        }
    }
}

impl BanqiGame {
    /// A turn as written, checked against the position: the action as it is stored.
    fn read_turn(&self, state: &State, text: &str) -> std::result::Result<String, String> {
        if matches!(text, "resign" | "accept-draw") {
            return Ok(text.to_string());
        }
        let action = Action::parse(text).ok_or_else(|| {
            format!(
                "{text:?} is not a turn: write a square to turn its piece up (c2), a move (c2c3), or resign"
            )
        })?;
        state
            .game
            .position()
            .check(action)
            .map_err(|e| format!("{action}: {e}"))?;
        Ok(action.to_string())
    }
}

impl Answers for BanqiGame {
    fn to_move_in(&self, state: &State) -> Option<String> {
        TurnReferee::to_move(self, state).map(|s| SEATS[s].to_string())
    }

    /// Legality depends only on what everyone sees.
    fn legal_in(&self, _: &GameDir, state: &State, seat: &str) -> Result<Vec<String>> {
        check_turn(self, state, seat)?;
        Ok(qijudge_game::sorted_moves(
            state.game.position().legal_actions().iter(),
        ))
    }

    fn view_in(&self, _: &GameDir, state: &State, seat: &str) -> Result<serde_json::Value> {
        qijudge_game::to_json(&bq::build_view(self, state, seat))
    }

    fn plies_in(&self, state: &State) -> usize {
        state.plies() as usize
    }

    fn end_in(&self, state: &State) -> Option<(Option<String>, EndReason)> {
        state.turns.end.clone()
    }

    fn next_move_in(&self, state: &State) -> (u32, String) {
        (state.plies() + 1, state.turns.head(&self.hash))
    }

    fn binding_of(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }

    fn headline(&self, state: &State) -> String {
        commands::summary(self, state)
    }

    fn typed_action(&self, _: &GameDir, state: &State, _: &str, text: &str) -> Result<String> {
        self.read_turn(state, text.trim())
            .map_err(|e| Error::Io(format!("move: {e}")))
    }

    fn filed_action(&self, state: &State, path: &str, action: &str) -> Result<()> {
        self.read_turn(state, action)
            .map(drop)
            .map_err(|e| refuse(path, Some("move"), e))
    }

    fn status_of(&self, state: &State) -> (serde_json::Value, String) {
        let v = bq::build_view(self, state, "public");
        // Every signed move counts, a resignation or an accepted draw included.
        let plies = state.turns.record.last_move_ply();
        let first = format!("game {} after {plies} plies", v.game);
        let fields = serde_json::json!({
            "game": v.game, "ply": plies, "closing": v.closing, "to_move": v.to_move, "colours": v.colours,
            "result": v.result, "last_move": v.last_move, "record_head": v.record_head,
            "position": v.position,
        });
        (fields, first)
    }

    fn audited(&self, _: &GameDir, state: &State) -> Vec<String> {
        commands::audited(self, state)
    }
}
