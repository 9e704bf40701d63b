//! Liubo (六博) through the game contract: commands over a game directory, and the pure rules
//! binding (with throws as chance outcomes) for bots, `moves` and the conformance suite.

pub mod binding;
mod bot;
pub mod chinese;
pub mod commands;
pub mod manifest;
pub mod picture;
pub mod referee;
pub use liubo_rules as rules;
pub mod throws;
pub mod view;

use crate::referee as lb;
use liubo_rules::notation::{parse_turn, write_turn};
use liubo_rules::DiceMode;
use qijudge_game::defined::{self, open, Answers, Definition};
use qijudge_game::report::Report;
use qijudge_game::{MoveRequest, NewGame};
use qijudge_judge::move_path;
use qijudge_judge::player_files::read_signed_move;
use qijudge_judge::strays::moves_beyond;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::files::{to_toml, Player};
use qijudge_rules::EndReason;
use qijudge_store::GameDir;
use std::path::Path;

pub struct Liubo;

impl Definition for Liubo {
    const VIEW_FORMAT: &'static str = manifest::LIUBO_VIEW_FORMAT;
    type Loaded = lb::LiuboGame;
    type View = lb::LiuboView;
    const NAME: &'static str = "liubo";
    const SAMPLE_KEYS: &'static [&'static str] = &[
        include_str!("../shipped/sample/keys/alice.pub"),
        include_str!("../shipped/sample/keys/bob.pub"),
        include_str!("../shipped/sample/keys/judge.pub"),
    ];
    const TITLE: &'static str = "Liubo";
    const CHINESE_TITLE: &'static str = "六博";
    /// A turn is throws and moves: no conditional answers.
    const CONDITIONALS: bool = false;
    const SECRET_WORD: &'static str = "chain seed";
    const DRAW_OFFERS: bool = false;
    const SEATS: &'static [&'static str] = &lb::SEATS;
    const MORE_RULE_SETS: &'static [qijudge_game::Variant] = &[
        ("2p", &["ply_limit=0"]),
        ("2p", &["ply_limit=0", "dice_mode=escrow"]),
    ];
    const MATCH_RULES: &'static [&'static str] = &["ply_limit=1000"];
    const SECRETS: bool = true;
    /// Self mode is not played by `match` (its throws wait for elements only players hold).
    const VARIANTS: &'static [qijudge_game::Variant] = &[("2p", &["dice_mode=escrow"])];

    fn secret_opens(
        seat: usize,
        _name: &str,
        secret: &str,
        commitment: &str,
    ) -> std::result::Result<bool, &'static str> {
        use qijudge_protocol::files::{parse_toml, ChainCommitmentFile, SeedFile, SEED_FORMAT};
        if qijudge_protocol::files::field_of(secret, "format").as_deref() != Some(SEED_FORMAT) {
            return Ok(false);
        }
        let (Ok(seed), Ok(c)) = (
            parse_toml::<SeedFile>(secret),
            parse_toml::<ChainCommitmentFile>(commitment),
        ) else {
            return Err("is not a seed file");
        };
        Ok(
            match (
                throws::parse_element(&seed.seed),
                throws::parse_element(&c.chain),
            ) {
                (Some(seed), Some(head)) if (1..=1 << 20).contains(&c.length) => {
                    throws::chain(&c.game, throws::letter(seat), &seed, c.length)[0] == head
                }
                _ => false,
            },
        )
    }

    fn load(dir: &GameDir) -> Result<lb::LiuboGame> {
        lb::LiuboGame::load(dir)
    }

    /// In self mode each move carries the mover's chain element: played through the commands.
    fn in_session(g: &lb::LiuboGame) -> bool {
        g.manifest.rules.dice_mode == DiceMode::Escrow
    }

    fn manifest(new: &NewGame, id: [u8; 16], players: Vec<Player>) -> Result<String> {
        let mut options = liubo_rules::Options::default();
        for (k, v) in qijudge_game::rule_pairs(new.rules)? {
            options
                .set(k, v)
                .map_err(|e| Error::Io(format!("--rule: {e}")))?;
        }
        if new.sealed && options.dice_mode != DiceMode::Escrow {
            return Err(Error::Io(
                "--sealed: in self mode no seed is handed over; seal escrow games (--rule dice=escrow)"
                    .into(),
            ));
        }
        qijudge_game::defined::seated_manifest::<Self>(new, Self::TITLE, id, options, players)
    }

    fn draw_secret(g: &lb::LiuboGame, seat: usize, random: [u8; 32]) -> Result<(String, String)> {
        let (commitment, seed) = lb::new_chain(g, seat, random);
        Ok((to_toml(&commitment), to_toml(&seed)))
    }

    fn secret_hint(g: &lb::LiuboGame) -> &'static str {
        match g.manifest.rules.dice_mode {
            DiceMode::Escrow => "hand it to the judge only (escrow)",
            DiceMode::SelfReveal => "keep it to yourself (self mode)",
        }
    }

    fn text_view(g: &lb::LiuboGame, v: &lb::LiuboView, chinese: bool) -> String {
        match chinese {
            true => chinese::text(&g.manifest.players, v),
            false => view::render_text(&g.manifest.players, v),
        }
    }

    fn picture(g: &lb::LiuboGame, v: &lb::LiuboView, chinese: bool) -> String {
        picture::liubo_in(&g.manifest.players, v, chinese)
    }

    fn html(dir: &GameDir, g: &lb::LiuboGame, audience: &str, _: bool) -> Result<String> {
        commands::html(dir, g, audience)
    }

    /// In self mode a move carries the mover's own chain element.
    fn make_move(dir: &Path, seat: &str, key: &Path, mv: MoveRequest) -> Result<Report> {
        let (d, g) = open::<Self>(dir)?;
        if g.manifest.rules.dice_mode != DiceMode::SelfReveal {
            return defined::make_move::run::<Self>(dir, seat, key, mv);
        }
        if mv.offer_draw {
            return Err(Error::Io(
                "--offer-draw: Liubo has no draw offers (resign, or play on)".into(),
            ));
        }
        let key = qijudge_game::console::load_signer(key)?;
        let _lock = d.lock()?;
        let i = qijudge_game::seat_of_key(&g.frame(), seat, &key)?;
        let state = lb::current(&d, &g)?;
        commands::self_mode_move(&d, &g, &state, i, &key, mv.action, mv.comment)
    }

    /// In self mode, reveals answer other heads and a turn's throw needs the mover's next
    /// chain element: only the signatures are checked here, the rest by the judge.
    fn precheck(dir: &Path, _: Option<&Path>) -> Result<Report> {
        let (d, g) = open::<Self>(dir)?;
        if g.manifest.rules.dice_mode != DiceMode::SelfReveal {
            return defined::precheck::run::<Self>(dir);
        }
        let state = lb::current(&d, &g)?;
        let turns = state.position.as_ref().map_or(0, |p| p.turns);
        let mut report = Report::default();
        for (ply, seat) in moves_beyond(&d, turns)? {
            let path = move_path(ply, &seat);
            let i = qijudge_game::seat_index(&lb::SEATS, &seat)
                .map_err(|_| refuse(&path, None, "no such seat in this game"))?;
            read_signed_move(&d, &g.frame(), &path, i)?;
            report.say(format!(
                "{path}: signed by {seat} (self mode: the throw and the turn are checked by the judge)"
            ));
        }
        if report.out.is_empty() {
            report.say(format!("no move beyond ply {turns} to check"));
        }
        Ok(report)
    }

    fn schemas() -> Vec<(String, String)> {
        use qijudge_judge::schema::schema;
        use qijudge_protocol::files::{ChainCommitmentFile, SeedFile};
        vec![
            (
                "liubo-manifest.schema.json".into(),
                qijudge_judge::schema::schema_of::<Self>("LiuboManifest"),
            ),
            (
                "liubo-chain-commitment.schema.json".into(),
                schema::<ChainCommitmentFile>(),
            ),
            ("liubo-seed.schema.json".into(), schema::<SeedFile>()),
            ("liubo-view.schema.json".into(), schema::<view::LiuboView>()),
        ]
    }

    const GREEDY: Option<qijudge_game::defined::GreedyScores> = Some(bot::greedy_scores);
    fn conform() {
        let mut options = liubo_rules::Options::default();
        options.set("ply_limit", "400").expect("a known option");
        qijudge_rules::conformance::conformance(&binding::LiuboRules::new(options), 6);
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
        // Say what play waits for (the commitments, the start reveals): what the seat can do.
        let waiting = lb::build_view(g, state, "public").waiting;
        return Err(refuse(
            "record.jsonl",
            None,
            format!("play has not begun: {waiting}"),
        ));
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
        legal_turns(
            dir,
            self,
            state,
            qijudge_game::seat_index(&lb::SEATS, seat)?,
        )
    }

    fn view_in(&self, _: &GameDir, state: &lb::State, seat: &str) -> Result<serde_json::Value> {
        qijudge_game::to_json(&lb::build_view(self, state, seat))
    }

    fn plies_in(&self, state: &lb::State) -> usize {
        state.position.as_ref().map_or(0, |p| p.turns as usize)
    }

    fn end_in(&self, state: &lb::State) -> Option<(Option<String>, EndReason)> {
        state.end.clone()
    }

    /// The throw being played and the head its turn answers (escrow mode).
    fn next_move_in(&self, state: &lb::State) -> (u32, String) {
        // In self mode no throw is made before its turn file (which reveals it): the next
        // throw is the next turn's, not the start reveal's ply 0.
        let next_throw = state
            .position
            .as_ref()
            .filter(|p| p.awaiting_throw())
            .map(|p| p.turns + 1);
        let t = match state.throw {
            Some((t, _, _)) => t,
            None => next_throw.unwrap_or(0),
        };
        (t, state.head(self))
    }

    fn binding_of(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }

    fn headline(&self, state: &lb::State) -> String {
        lb::build_view(self, state, "public").waiting
    }

    /// A turn (escrow mode): legal with the throw the judge made.
    fn typed_action(
        &self,
        d: &GameDir,
        state: &lb::State,
        seat: &str,
        text: &str,
    ) -> Result<String> {
        if matches!(text, "throw" | "reveal") {
            let game = d.root.display();
            return Err(qijudge_protocol::error::refuse_with(
                "move",
                None,
                format!("{text:?} is for self mode; in this game (escrow) the judge throws"),
                format!(
                    "play the throw the judge made: `qijudge view {game} --as {seat}` shows it, \
                     `qijudge moves {game} --as {seat}` lists your turns"
                ),
            ));
        }
        if state.throw.is_none() {
            return Err(refuse(
                "record.jsonl",
                None,
                "no throw is waiting: run the judge",
            ));
        }
        if text == "resign" {
            return Ok(text.to_string());
        }
        let position = state
            .position
            .as_ref()
            .ok_or_else(|| refuse("record.jsonl", None, "play has not begun"))?;
        let moves = parse_turn(position, text).map_err(|e| Error::Io(format!("move: {e}")))?;
        position
            .clone()
            .play_turn(&moves)
            .map_err(|(_, e)| Error::Io(format!("move: {e}")))?;
        Ok(write_turn(&moves))
    }

    fn filed_action(&self, state: &lb::State, path: &str, action: &str) -> Result<()> {
        if action != "resign" {
            let position = state
                .position
                .as_ref()
                .ok_or_else(|| refuse(path, None, "play has not begun"))?;
            let moves = parse_turn(position, action)
                .map_err(|e| refuse(path, Some("move"), e.to_string()))?;
            position
                .clone()
                .play_turn(&moves)
                .map_err(|(_, e)| refuse(path, Some("move"), e.to_string()))?;
        }
        Ok(())
    }

    fn status_of(&self, state: &lb::State) -> (serde_json::Value, String) {
        let v = lb::build_view(self, state, "public");
        // Every signed turn counts, a resignation included.
        let turns = state.record.last_move_ply();
        let first = format!("game {} after {turns} turns", v.game);
        let fields = serde_json::json!({
            "game": v.game, "turns": turns, "to_move": v.to_move, "throw": v.throw,
            "result": v.result, "closing": v.closing, "record_head": v.record_head,
            "waiting": v.waiting,
        });
        (fields, first)
    }

    fn audited(&self, dir: &GameDir, state: &lb::State) -> Vec<String> {
        commands::audited(dir, self, state)
    }
}
