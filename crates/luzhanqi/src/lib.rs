//! Luzhanqi (陆战棋, two players; 四国军棋 on the cross board) through the game definition: its
//! boards, its chosen setups, what a player knows (its own signed view, see [`known`]), its
//! pages, and the pure rules binding for bots, `moves` and the conformance suite.

pub mod binding;
mod book;
mod bot;
pub mod ccgc;
pub mod chinese;
pub mod commit;
mod known;
pub mod pages;
pub mod picture;
pub mod referee;
pub use luzhanqi_rules as rules;
pub mod synth;
pub mod text;
mod tools;
pub mod view;

/// A commented setup to start from: the same rows fit both boards (a seat's half or arm).
pub const SETUP_TEMPLATE: &str = include_str!("../shipped/example-setup.toml");

use self::view::ViewFile;
use crate::referee::Replay;
use crate::referee::{load_game, Game, Manifest};
use luzhanqi_rules::board::BOARD_NAMES;
use luzhanqi_rules::{by_name, Move, Options, Placement, Seat, Setup, Viewer};
use qijudge_game::bot_view::BotView;
use qijudge_game::console::read_arg;
use qijudge_game::defined::{check_turn, Answers, Definition, Known};
use qijudge_game::report::{Out, Report};
use qijudge_game::{NewGame, SetupSource};
use qijudge_judge as judge;
use qijudge_protocol::error::{refuse, refuse_with, Error, Result};
use qijudge_protocol::files::*;
use qijudge_rules::EndReason;
use qijudge_store::{GameDir, SMALL_FILE_LIMIT};
use ssh_key::PrivateKey;
use std::path::Path;

pub struct Luzhanqi;

impl Definition for Luzhanqi {
    const TOOLS: &'static [&'static str] = &["position"];
    const BOOK_FORMAT: Option<&'static str> = Some("armies in TOML");
    const VIEW_FORMAT: &'static str = qijudge_protocol::files::VIEW_FORMAT;
    type Loaded = Game;
    type View = ViewFile;
    const NAME: &'static str = "luzhanqi";
    const SAMPLE_KEYS: &'static [&'static str] = &[
        include_str!("../shipped/sample/keys/alice.pub"),
        include_str!("../shipped/sample/keys/bob.pub"),
        include_str!("../shipped/sample/keys/judge.pub"),
        include_str!("../shipped/sample-4p/keys/carol.pub"),
        include_str!("../shipped/sample-4p/keys/dave.pub"),
    ];
    const TITLE: &'static str = "Luzhanqi";
    const CHINESE_TITLE: &'static str = "陆战棋";
    const SECRET_WORD: &'static str = "setup";
    const SEATS: &'static [&'static str] = &["south", "north"];
    const SETUP_CHOSEN: bool = true;
    const SETUP_TEMPLATE: Option<&'static str> = Some(SETUP_TEMPLATE);
    const MORE_AUDIENCES: &'static [&'static str] = &["full"];
    const MORE_RULE_SETS: &'static [qijudge_game::Variant] =
        &[("2p", &["max-plies=0"]), ("cross4", &["max-plies=0"])];
    const MATCH_RULES: &'static [&'static str] = &["max-plies=1000"];
    const SECRETS: bool = true;
    const VARIANTS: &'static [qijudge_game::Variant] = &[("2p", &[]), ("cross4", &[])];

    fn random_setup(
        board: &str,
        seat: &str,
        rng: &mut qijudge_rules::random::SplitMix64,
    ) -> Result<std::collections::BTreeMap<String, String>> {
        bot::random_setup(board, seat, rng)
    }

    fn setup_rules(items: &[String]) -> Result<serde_json::Value> {
        let options = with_rules(rules::Options::default(), items)?;
        serde_json::to_value(options).map_err(|e| Error::Io(e.to_string()))
    }

    fn position_moves(path: &std::path::Path, text: &str) -> Result<Vec<String>> {
        tools::position_moves(path, text)
    }

    fn load(dir: &GameDir) -> Result<Game> {
        load_game(dir)
    }

    /// A sealed game keeps to the commands: bot matches are never sealed, and its sealed files
    /// (fresh `age` encryptions) cannot be compared byte for byte with the commands' files, the
    /// test that vouches for a session.
    fn in_session(g: &Game) -> bool {
        !g.manifest.sealed
    }

    fn seats_on(name: &str) -> Result<Vec<String>> {
        Ok(board_named(name)?.seat_names.clone())
    }

    fn known<'a>(dir: &'a GameDir, g: &'a Game) -> Result<Box<dyn Known + 'a>> {
        Ok(Box::new(known::SeatViews::read(dir, g)?))
    }

    fn manifest(new: &NewGame, id: [u8; 16], players: Vec<Player>) -> Result<String> {
        let board = board_named(new.board)?;
        let options = with_rules(Options::default(), new.rules)?;
        options
            .check_for_board(board.has_teams())
            .map_err(|e| Error::Io(format!("--rule {e}")))?;
        Ok(to_toml(&Manifest {
            format: MANIFEST_FORMAT.into(),
            game: Self::NAME.into(),
            id: format!("lzq-{}", hex::encode(id)),
            created: new.created.clone(),
            sample: new.sample,
            board: board.name.clone(),
            rules: options,
            clock: new.clock.clone(),
            sealed: new.sealed,
            judge: JudgeEntry {
                key: new.judge_key.clone(),
            },
            players,
        }))
    }

    /// The placement read from a file (or drawn at random), checked against every setup rule,
    /// salted and committed.
    fn chosen_secret(
        dir: &GameDir,
        g: &Game,
        seat: usize,
        source: SetupSource,
    ) -> Result<(String, String, Vec<Out>)> {
        let board = g.board;
        let seat_id = Seat(seat as u8);
        let name = board.seat_name(seat_id).to_string();
        let mut told = Vec::new();
        let (shown, text) = match source {
            SetupSource::File(path) => (path.display().to_string(), read_arg(path, SMALL_FILE_LIMIT)?),
            SetupSource::Random(seed) => {
                use rand_core::RngCore;
                if seed.is_some() {
                    told.push(Out::Note(
                        "note: a setup drawn from a seed can be rebuilt by anyone who guesses the seed; \
                         for a real game use --random without one"
                            .into(),
                    ));
                }
                let seed = seed.unwrap_or_else(|| rand_core::OsRng.next_u64());
                let mut rng = luzhanqi_rules::random::SplitMix64::new(seed);
                let drawn = luzhanqi_rules::random::random_setup(board, seat_id, &mut rng);
                let rows = drawn.to_rows_toml(board, seat_id);
                told.push(Out::Text(format!(
                    "your random setup (keep it to yourself):\n{rows}"
                )));
                ("--random".to_string(), rows)
            }
            SetupSource::None => {
                return Err(refuse_with(
                    "setup",
                    None,
                    "no setup given",
                    format!(
                        "start from the template (qijudge setup {} --as {name} --template > my-setup.toml), \
                         or let qijudge draw one (--random)",
                        dir.root.display()
                    ),
                ))
            }
        };
        let setup = Placement::from_toml(&text, board, seat_id)
            .and_then(|p| Setup::validate(board, seat_id, &p))
            .map_err(|problems| {
                let list: Vec<String> = problems.iter().map(|p| format!("  - {p}")).collect();
                refuse(
                    &shown,
                    None,
                    format!(
                        "the setup breaks {} rule(s):\n{}",
                        problems.len(),
                        list.join("\n")
                    ),
                )
            })?;
        let (commitment, secret) = commit::setup_files(g, &name, &setup);
        Ok((commitment, secret, told))
    }

    fn secret_hint(_: &Game) -> &'static str {
        "hand it to the judge only after every commitment is recorded"
    }

    /// A seat's view of a sealed game is sealed to it (opened with its key); every other view
    /// is read in clear, its signature checked.
    fn view_text(dir: &GameDir, g: &Game, audience: &str, key: Option<&Path>) -> Result<String> {
        let seat_view = g.manifest.players.iter().any(|p| p.seat == audience);
        if g.manifest.sealed && seat_view {
            let key = key.ok_or_else(|| {
                refuse_with(
                    judge::sealing::sealed_view_path(audience),
                    None,
                    "sealed to its seat",
                    "give your private key with --key to open it",
                )
            })?;
            let key = qijudge_game::console::load_private_key(key)?;
            return Ok(crate::referee::read_sealed_view(dir, g, audience, &key)?.1);
        }
        let path = format!("views/{audience}.json");
        match (
            crate::referee::read_signed_view(dir, g, audience)?,
            audience,
        ) {
            (Some((_, text)), _) => Ok(text),
            (None, "full") => Err(refuse_with(
                &path,
                None,
                "not written yet",
                "the full view, every piece shown, is written when the game is over",
            )),
            (None, _) => Err(known::not_written(&path)()),
        }
    }

    fn text_view(g: &Game, v: &ViewFile, chinese: bool) -> String {
        let labels = match chinese {
            true => text::Labels::Chinese,
            false => text::Labels::Letters,
        };
        text::render(v, labels, g.manifest.sealed)
    }

    fn picture(_: &Game, v: &ViewFile, chinese: bool) -> String {
        picture::luzhanqi_with(v, chinese)
    }

    fn html(dir: &GameDir, g: &Game, audience: &str, chinese: bool) -> Result<String> {
        pages::html(dir, g, audience, chinese)
    }

    fn events(dir: &GameDir, g: &Game, audience: &str) -> Result<Report> {
        pages::events(dir, g, audience)
    }

    /// Only a finished game is audited, from the revealed setups.
    fn verified(dir: &GameDir, g: &Game) -> Result<Replay> {
        Ok(crate::referee::audited_replay(dir, g)?.0)
    }

    /// Each setup the judge accepted (a game forfeited early may lack some), from `setups/`,
    /// or opened with `key` from `sealed/`.
    fn reveal(
        dir: &GameDir,
        g: &Game,
        record: &qijudge_protocol::record::Record,
        key: Option<&PrivateKey>,
        _: &str,
    ) -> Result<Vec<String>> {
        if key.is_none() && g.manifest.sealed {
            return Err(Error::Io(
                "--key: setups of a sealed game are opened with the judge's key (all seats) or \
                 a seat's own key (its own setup)"
                    .into(),
            ));
        }
        let mut written = Vec::new();
        for (i, p) in g.manifest.players.iter().enumerate() {
            let accepted = record
                .lines
                .iter()
                .any(|l| matches!(&l.entry, Entry::SetupAccepted { seat } if *seat == p.seat));
            if !accepted {
                continue;
            }
            let text = match key {
                Some(key) if g.manifest.sealed => {
                    let (signer, judge) = (&g.player_keys[i], &g.judge_key);
                    match judge::sealing::reveal_sealed_secret(dir, &p.seat, key, signer, judge)? {
                        Some(text) => text,
                        None => continue,
                    }
                }
                _ => dir.read(&format!("setups/{}.toml", p.seat), SMALL_FILE_LIMIT)?,
            };
            dir.write(&format!("reveal/{}.toml", p.seat), text.as_bytes())?;
            written.push(format!("wrote reveal/{}.toml", p.seat));
        }
        if written.is_empty() && key.is_some() {
            return Err(refuse(
                "sealed/",
                None,
                "this key opens none of the sealed setups",
            ));
        }
        Ok(written)
    }

    /// On the cross board allies win or lose together.
    fn sides(g: &Game) -> Vec<Vec<String>> {
        let board = g.board;
        let mut sides: Vec<Vec<String>> = Vec::new();
        for s in board.seats() {
            let name = board.seat_name(s).to_string();
            match sides.iter_mut().find(|side| {
                side.iter()
                    .any(|other| board.seat(other).is_some_and(|o| board.allies(o, s)))
            }) {
                Some(side) => side.push(name),
                None => sides.push(vec![name]),
            }
        }
        sides
    }

    /// With the judge's key the moves are checked against the setups it holds.
    fn precheck(dir: &Path, key: Option<&Path>) -> Result<Report> {
        let d = GameDir::new(dir);
        let game = load_game(&d)?;
        let key = key
            .map(qijudge_game::console::load_private_key)
            .transpose()?;
        crate::referee::precheck::precheck(&d, &game, key.as_ref()).map(Report::lines)
    }

    fn schemas() -> Vec<(String, String)> {
        use luzhanqi_rules::{EventJson, PositionFile};
        use qijudge_judge::schema::schema;
        vec![
            (
                "luzhanqi-position.schema.json".into(),
                schema::<PositionFile>(),
            ),
            ("luzhanqi-event.schema.json".into(), schema::<EventJson>()),
        ]
    }

    /// From-to on the two-player board (`a6-a5`; `a6a5` read too).
    fn spell_move(lower: &str) -> std::result::Result<String, String> {
        let text = match lower.contains('-') {
            true => lower.to_string(),
            false => match lower
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_alphabetic())
            {
                Some((at, _)) => format!("{}-{}", &lower[..at], &lower[at..]),
                None => lower.to_string(),
            },
        };
        let board = luzhanqi_rules::board::two_player();
        luzhanqi_rules::Move::parse(&text, board)
            .map(|m| m.display(board))
            .map_err(|_| {
                "write from-to with the board's squares (a1 … e12), as qijudge moves lists them"
                    .into()
            })
    }

    fn secret_opens(
        _seat: usize,
        name: &str,
        secret: &str,
        commitment: &str,
    ) -> std::result::Result<bool, &'static str> {
        if qijudge_protocol::files::field_of(secret, "format").as_deref() != Some(SETUP_FORMAT) {
            return Ok(false);
        }
        let (Ok(setup), Ok(c)) = (
            parse_toml::<SetupFile>(secret),
            parse_toml::<CommitmentFile>(commitment),
        ) else {
            return Err("is not a setup file");
        };
        let hex = |h: &str| qijudge_rules::hash::hex32(h);
        Ok(match (hex(&setup.salt), hex(&setup.lot_nonce)) {
            (Some(salt), Some(nonce)) => {
                use qijudge_protocol::commitment::{lot_commitment, setup_commitment};
                setup_commitment(&c.game, name, &salt, setup.setup.as_bytes()) == c.setup
                    && lot_commitment(&c.game, name, &nonce) == c.lot
            }
            _ => false,
        })
    }

    const ENGINE_PROTOCOLS: &'static [(&'static str, &'static str)] =
        &[("ccgc", "two-player luzhanqi")];

    /// The Junqi competition's programs (`ccgc.rs`) play on the two-player board.
    fn engine(
        protocol: &str,
        board: &str,
        process: qijudge_engine::ProcessBot,
        _time: std::time::Duration,
        settings: qijudge_engine::EngineSettings,
    ) -> Option<Box<dyn qijudge_engine::Engine>> {
        let grace = std::time::Duration::from_millis(settings.timemargin_ms.unwrap_or(0));
        (protocol == "ccgc" && board == "2p").then(|| {
            Box::new(ccgc::CcgcBot::with_grace(process, grace)) as Box<dyn qijudge_engine::Engine>
        })
    }
    fn greedy_scores(view: &BotView, legal: &[String]) -> Vec<i32> {
        match view.typed::<ViewFile>() {
            Some(v) => bot::greedy_scores(&v, legal),
            None => vec![0; legal.len()],
        }
    }

    fn book_openings(
        text: &str,
        board: &str,
        shown: &str,
        _kind: qijudge_game::opening::BookText,
    ) -> Result<Vec<qijudge_game::opening::Opening>> {
        book::army_openings(text, board, shown)
    }
    fn conform() {
        for (board, games) in [("2p", 6), ("cross4", 3)] {
            let mut options = luzhanqi_rules::Options::default();
            // A cap the rules enforce, so every random playout ends by rule.
            options.set("max-plies", "1500").expect("a known option");
            let rules = binding::LuzhanqiRules::new(board, options).expect("a board");
            qijudge_rules::conformance::conformance(&rules, games);
        }
    }
}

/// The board `--board` names.
fn board_named(
    name: &str,
) -> Result<&'static luzhanqi_rules::Board<luzhanqi_rules::nodeset::Wide>> {
    by_name(name).ok_or_else(|| {
        Error::Io(format!(
            "--board: unknown board {name:?}; luzhanqi boards: {}",
            BOARD_NAMES.join(", ")
        ))
    })
}

/// The judge's answers from its replay (where every setup is known): a bot's turn in a match,
/// `verify`'s summary.
impl Game {
    /// A seat's view, as the judge writes it.
    fn seat_view_file(&self, state: &Replay, seat: &str) -> Result<ViewFile> {
        let s = self
            .board
            .seat(seat)
            .ok_or_else(|| Error::Io(format!("--as: {seat:?} is not a seat")))?;
        Ok(crate::referee::build_view(self, state, Viewer::Seat(s)))
    }
}

impl Answers for Game {
    fn to_move_in(&self, state: &Replay) -> Option<String> {
        let p = state
            .position
            .as_ref()
            .filter(|_| state.outcome.is_none())?;
        Some(self.board.seat_name(p.to_move()).to_string())
    }

    /// Legality depends on nothing the seat's view hides: where pieces stand and its own ranks.
    fn legal_in(&self, _: &GameDir, state: &Replay, seat: &str) -> Result<Vec<String>> {
        check_turn(self, state, seat)?;
        let Some(position) = state.position.as_ref() else {
            return Ok(Vec::new());
        };
        Ok(qijudge_game::sorted_moves(
            position.legal_moves().iter().map(|m| m.display(self.board)),
        ))
    }

    fn view_in(&self, _: &GameDir, state: &Replay, seat: &str) -> Result<serde_json::Value> {
        qijudge_game::to_json(&self.seat_view_file(state, seat)?)
    }

    fn bot_view_in(&self, _: &GameDir, state: &Replay, seat: &str) -> Result<BotView> {
        Ok(BotView::Typed(std::sync::Arc::new(
            self.seat_view_file(state, seat)?,
        )))
    }

    fn plies_in(&self, state: &Replay) -> usize {
        crate::referee::signed_moves(&state.record)
    }

    fn end_in(&self, state: &Replay) -> Option<(Option<String>, EndReason)> {
        let o = state.outcome.as_ref()?;
        let winner = o.winner.map(|w| self.board.seat_name(w).to_string());
        Some((winner, o.reason))
    }

    fn next_move_in(&self, state: &Replay) -> (u32, String) {
        (state.next_ply(), state.record.head_or(&self.hash))
    }

    fn binding_of(&self) -> (&str, &str) {
        (&self.manifest.id, &self.hash)
    }

    fn headline(&self, state: &Replay) -> String {
        use qijudge_judge::pipeline::Referee;
        match self.end_in(state) {
            Some((winner, reason)) => format!(
                "game over: {} ({})",
                match winner {
                    Some(w) => format!("{w} wins"),
                    None => "draw".to_string(),
                },
                judge::reason_text(reason)
            ),
            None => self.waiting(state).unwrap_or_default(),
        }
    }

    fn typed_action(&self, _: &GameDir, state: &Replay, _: &str, text: &str) -> Result<String> {
        let action = known::typed_move(text);
        if action == "resign" || action == "accept-draw" {
            return Ok(action);
        }
        self.filed_action(state, "move", &action)?;
        Ok(action)
    }

    fn filed_action(&self, state: &Replay, path: &str, action: &str) -> Result<()> {
        if matches!(action, "resign" | "accept-draw") {
            return Ok(());
        }
        let m = Move::parse(action, self.board)
            .map_err(|e| refuse(path, Some("move"), e.to_string()))?;
        match state.position.as_ref() {
            Some(p) => p
                .check_move(m)
                .map_err(|e| refuse(path, Some("move"), e.to_string())),
            None => Err(refuse(path, None, "play has not begun")),
        }
    }

    fn status_of(&self, state: &Replay) -> (serde_json::Value, String) {
        known::status_of_public(&crate::referee::build_view(self, state, Viewer::Public))
    }

    fn audited(&self, d: &GameDir, state: &Replay) -> Vec<String> {
        vec![format!(
            "verified game {}: manifest, commitments and reveals, {} signed moves, record of {} lines (head {}), {} signed views",
            self.manifest.id,
            crate::referee::signed_moves(&state.record),
            state.record.len(),
            state.record.head_or(&self.hash),
            crate::referee::published_views(self, d, state),
        )]
    }
}

/// Applies `--rule key=value` options on top of `base`.
fn with_rules(mut base: rules::Options, items: &[String]) -> Result<rules::Options> {
    for (k, v) in qijudge_game::rule_pairs(items)? {
        base.set(k, v)
            .map_err(|e| Error::Io(format!("--rule: {e}")))?;
    }
    Ok(base)
}
