//! The Banqi judge: both seats' nonce commitments, then their nonces (handed to the judge
//! only), from which the shuffle fixes the layout; then signed turns, each piece turned up (or
//! taken face down by a cannon) named in the public record; one view for everyone, since what
//! lies face down is no seat's to know; and, once the nonces are revealed, an audit that
//! recomputes the whole layout and checks every piece named.

use super::rules::shuffle::{shuffle, Layout};
use super::rules::{
    Action, ChariotRuns, Ending, Game, Options, QuietLimit, Ranking, MOVE_LIMIT_MAX,
    MOVE_LIMIT_PLIES,
};
use super::view::{BanqiView, LastMove, Taken, ViewResult};
use qijudge_judge::face_down::{FaceDown, Letters, RecordedLetters};
use qijudge_judge::manifest::{Kind, ManifestRules};
use qijudge_judge::pipeline::Ctx;
use qijudge_judge::turn_referee::{view_head, OffBoard, Played, RulesEnd, TurnReferee};
use qijudge_judge::turns::Turns;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::files::*;
use qijudge_rules::EndReason;
use qijudge_view::make_turn_view;
use std::collections::BTreeMap;
use xiangqi_rules::Piece;

/// The seats, in manifest order: `first` moves first; colours come with the first piece up.
pub const SEATS: [&str; 2] = banqi_rules::SEATS;

/// The format of a Banqi view.
pub const VIEW_FORMAT: &str = "qijudge/banqi-view/1";

/// `game.toml` of a Banqi game: the frame every manifest has, with Banqi's options.
pub type BanqiManifest = GameManifest<Options>;

impl ManifestRules for crate::Banqi {
    type Options = Options;
    /// First, then second.
    const KIND: Kind<'static> = Kind {
        game: "banqi",
        id_prefix: "bq-",
        board: "4x8",
        seats: &SEATS,
    };
    const SEALABLE: bool = true;
}

qijudge_judge::seated_game! {
    /// A checked Banqi manifest with its keys.
    pub struct BanqiGame(crate::Banqi);
}

/// Banqi's options, as `--rule` takes them, for error messages.
const OPTION_LIST: &str = "cannon-takes-face-down=on|off, move-limit=on|off|N, \
     repetition=on|off, chariot-runs=on|ranked|off, chain-captures=on|off, \
     ranking=standard|hong-kong, cannon-takes-adjacent=on|off and long-chase=on|off";

/// The rule options from `--rule key=value` items.
pub fn rules_from(items: &[String]) -> Result<Options> {
    let mut rules = Options::default();
    for (k, v) in qijudge_game::rule_pairs(items)? {
        // The key first: a value is judged only against the option it is for.
        let flag = match k {
            "cannon-takes-face-down" => &mut rules.cannon_takes_face_down,
            "repetition" => &mut rules.repetition,
            "chain-captures" => &mut rules.chain_captures,
            "cannon-takes-adjacent" => &mut rules.cannon_takes_adjacent,
            "long-chase" => &mut rules.long_chase,
            "move-limit" => {
                rules.move_limit = quiet_limit(v)?;
                continue;
            }
            "chariot-runs" => {
                rules.chariot_runs = match v {
                    "on" | "free" => ChariotRuns::Free,
                    "ranked" => ChariotRuns::Ranked,
                    "off" => ChariotRuns::Off,
                    _ => {
                        return Err(Error::Io(format!(
                            "--rule chariot-runs: on (a running chariot takes any piece), ranked \
                             (only what its rank allows) or off, not {v:?}"
                        )))
                    }
                };
                continue;
            }
            "ranking" => {
                rules.ranking = match v {
                    "standard" => Ranking::Standard,
                    "hong-kong" => Ranking::HongKong,
                    _ => {
                        return Err(Error::Io(format!(
                            "--rule ranking: standard or hong-kong, not {v:?}"
                        )))
                    }
                };
                continue;
            }
            _ => {
                return Err(Error::Io(format!(
                    "--rule {k:?}: Banqi options are {OPTION_LIST}"
                )))
            }
        };
        *flag = qijudge_game::on_off(k, v)?;
    }
    if rules.move_limit.0.is_none() && !rules.repetition {
        return Err(Error::Io(
            "--rule move-limit=off needs repetition=on: with neither, a game in which nobody \
             takes or turns up a piece could go on for ever"
                .into(),
        ));
    }
    Ok(rules)
}

/// `move-limit`: on (50 plies), off, or a number of plies from 1 to [`MOVE_LIMIT_MAX`].
fn quiet_limit(v: &str) -> Result<QuietLimit> {
    match v {
        "on" | "true" => Ok(QuietLimit(Some(MOVE_LIMIT_PLIES))),
        "off" | "false" => Ok(QuietLimit(None)),
        n => match n.parse::<u64>() {
            Ok(n) if (1..=u64::from(MOVE_LIMIT_MAX)).contains(&n) => Ok(QuietLimit(Some(n as u32))),
            _ => Err(Error::Io(format!(
                "--rule move-limit: on ({MOVE_LIMIT_PLIES} plies), off, or a number of plies from \
                 1 to {MOVE_LIMIT_MAX}, not {v:?}"
            ))),
        },
    }
}

#[cfg(test)]
mod option_errors {
    use super::rules_from;

    #[test]
    fn an_unknown_option_is_named_before_its_value_is_judged() {
        let e = rules_from(&["max-plies=300".into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"max-plies\": Banqi options are"), "{e}");
        let e = rules_from(&["move-limit=many".into()])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--rule move-limit: on (50 plies), off, or a number"),
            "{e}"
        );
        let e = rules_from(&["ranking=hk".into()]).unwrap_err().to_string();
        assert!(e.contains("--rule ranking: standard or hong-kong"), "{e}");
        let e = rules_from(&["repetition=maybe".into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("--rule repetition: on or off"), "{e}");
    }

    #[test]
    fn the_quiet_ply_limit_takes_a_number_and_never_goes_with_no_repetition_rule() {
        let limit = |items: &[&str]| {
            let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
            rules_from(&items).map(|r| r.move_limit.0)
        };
        assert_eq!(limit(&[]).unwrap(), Some(50));
        assert_eq!(limit(&["move-limit=180"]).unwrap(), Some(180));
        assert_eq!(limit(&["move-limit=off"]).unwrap(), None);
        assert!(limit(&["move-limit=0"]).is_err());
        // A number that never comes is no limit: bounded, with and without repetition.
        assert_eq!(
            limit(&["move-limit=1000", "repetition=off"]).unwrap(),
            Some(1000)
        );
        for never in [
            "move-limit=1001",
            "move-limit=4294967295",
            "move-limit=99999999999",
        ] {
            let e = limit(&[never, "repetition=off"]).unwrap_err().to_string();
            assert!(e.contains("from 1 to 1000"), "{never}: {e}");
        }
        let manifest: Result<super::QuietLimit, _> = serde_json::from_str("4294967295");
        assert!(manifest.is_err());
        let e = limit(&["move-limit=off", "repetition=off"]).unwrap_err();
        assert!(e.to_string().contains("needs repetition=on"), "{e}");
    }
}

/// The game as the record and the files say.
#[derive(Clone, Debug)]
pub struct State {
    pub turns: Turns,
    pub game: Game,
    /// The seats' nonces and the layout they fix.
    pub dealt: FaceDown<Layout>,
}

impl State {
    pub fn plies(&self) -> u32 {
        self.game.played().len() as u32
    }
}

/// The record's winning seat and reason for a rules ending.
fn end_of(ending: Ending) -> RulesEnd {
    let reason = match ending {
        Ending::AllTaken { .. } => EndReason::NoPiecesInPlay,
        Ending::NoLegalMove { .. } => EndReason::NoLegalMove,
        Ending::MoveLimit { .. } => EndReason::MoveLimit,
        Ending::Repetition => EndReason::Repetition,
        Ending::LongChase { .. } => EndReason::PerpetualChase,
        Ending::Resignation { .. } => EndReason::Resignation,
        Ending::Agreement => EndReason::Agreement,
        Ending::Adjudicated => EndReason::Adjudication,
        Ending::Forfeit { .. } => EndReason::Forfeit,
    };
    (ending.winner(), reason)
}

/// Banqi's pieces as the record names them: upper case red, lower case black.
struct PieceLetters;

impl Letters<Piece> for PieceLetters {
    fn letter(&self, piece: &Piece) -> String {
        piece.fen_char().to_string()
    }

    fn read(&self, text: &str) -> Option<Piece> {
        let mut chars = text.chars();
        let c = chars.next()?;
        chars.next().is_none().then_some(())?;
        c.is_ascii_alphabetic().then_some(())?;
        Piece::from_fen_char(c).filter(|p| p.fen_char() == c)
    }
}

qijudge_judge::turn_state!(State, dealt: Layout);

impl TurnReferee for BanqiGame {
    type State = State;
    type Move = Action;
    type View = BanqiView;

    fn start_state(&self) -> State {
        State {
            turns: Turns::default(),
            game: Game::new(self.manifest.rules),
            dealt: FaceDown::new(shuffle),
        }
    }

    fn seat_to_move(&self, state: &State) -> usize {
        state.game.position().to_move
    }

    fn plies(state: &State) -> u32 {
        state.plies()
    }

    fn parse(&self, state: &State, text: &str) -> std::result::Result<Action, String> {
        let action = Action::parse(text).ok_or_else(|| {
            format!(
                "{text:?} is not a turn: write a square to turn its piece up (c2), a move (c2c3), or resign"
            )
        })?;
        state
            .game
            .position()
            .check(action)
            .map_err(|e| e.to_string())?;
        Ok(action)
    }

    /// A piece turned up, or taken face down, is named in the record as the layout says.
    fn play(
        &self,
        state: &mut State,
        cx: &Ctx,
        ply: u32,
        _: usize,
        action: Action,
    ) -> Result<Played> {
        let recorded = RecordedLetters::of(cx);
        let recorded = recorded.revealed.or(recorded.uncovered);
        let identity = match state.game.needs_identity(action) {
            false => None,
            true => Some(state.dealt.identity(
                &PieceLetters,
                |layout, s| Some(layout.at(s)),
                ply,
                action.last_square(),
                recorded.as_deref(),
                &SEATS,
            )?),
        };
        let mut played = Played::plain(action, None);
        match (action, identity) {
            (Action::Flip(_), Some(p)) => played.line.revealed = Some(PieceLetters.letter(&p)),
            (_, Some(p)) => played.line.notices.push(Notice::Uncovered {
                square: action.last_square().to_string(),
                piece: PieceLetters.letter(&p),
            }),
            _ => {}
        }
        played.end = state
            .game
            .play(action, identity)
            .map_err(|e| refuse("record.jsonl", Some("revealed"), e.to_string()))?
            .map(end_of);
        Ok(played)
    }

    fn end_off_board(&self, state: &mut State, how: OffBoard) {
        state.game.end(match how {
            OffBoard::Resignation { loser } => Ending::Resignation { loser },
            OffBoard::Forfeit { loser } => Ending::Forfeit { loser },
            OffBoard::Agreement => Ending::Agreement,
            // The only ruling Banqi takes (`ADJUDICATED` is false): the maximum-length draw.
            OffBoard::Adjudicated { .. } => Ending::Adjudicated,
        });
    }

    fn view(&self, state: &State, audience: &str) -> BanqiView {
        build_view(self, state, audience)
    }

    fn text(&self, v: &BanqiView) -> String {
        super::view::render_text(&self.manifest.players, v, false)
    }

    fn picture(&self, v: &BanqiView) -> String {
        super::picture::banqi(v)
    }
}

/// Builds one audience's view now.
pub fn build_view(g: &BanqiGame, state: &State, audience: &str) -> BanqiView {
    view_at(g, state, audience, state.plies() as usize)
}

/// The view of `audience` after the first `ply` turns (the replay page). Every audience is
/// shown the same: the board with face-down pieces as `?`, each piece as it was turned up or
/// taken, and the colours once decided. What lies face down is in no view; this is the one
/// place that decides it.
pub fn view_at(g: &BanqiGame, state: &State, audience: &str, ply: usize) -> BanqiView {
    let played = state.game.played();
    let ply = ply.min(played.len());
    let position = &state.game.positions()[ply];
    let letter = |p: Piece| p.fen_char().to_string();
    let moves = played[..ply]
        .iter()
        .map(|p| {
            let up = p.revealed.map(|r| format!("={}", r.fen_char()));
            let took: String = p.captures().map(|c| format!("x{}", c.fen_char())).collect();
            format!("{}{}{took}", p.action, up.unwrap_or_default())
        })
        .collect();
    let taken = played[..ply]
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            let last = p.captures().count();
            p.captures()
                .zip(p.action.steps())
                .enumerate()
                .map(move |(k, (c, (_, to)))| Taken {
                    ply: i as u32 + 1,
                    by: SEATS[p.seat].into(),
                    square: to.to_string(),
                    piece: letter(c),
                    face_down: p.captured_face_down && k + 1 == last,
                })
        })
        .collect();
    let last_move = (ply > 0).then(|| {
        let p = &played[ply - 1];
        LastMove {
            seat: SEATS[p.seat].into(),
            action: p.action.to_string(),
            revealed: p.revealed.map(letter),
            captured: p.captured.map(letter),
            also_captured: p.chained.iter().flatten().map(|&c| letter(c)).collect(),
            comment: state.turns.comments.get(ply - 1).cloned().flatten(),
        }
    });
    let mut face_down: Vec<char> = state
        .game
        .face_down_after(ply)
        .iter()
        .map(|p| p.fen_char())
        .collect();
    face_down.sort_unstable();
    let colours: BTreeMap<String, String> = position
        .colours
        .map(|c| {
            (0..2)
                .map(|i| (SEATS[i].to_string(), c[i].name().to_string()))
                .collect()
        })
        .unwrap_or_default();
    let head = view_head(g, state, VIEW_FORMAT, audience, ply, position.to_move);
    let ending = state.game.ending();
    let result = (head.end.clone()).map(|(w, r)| ViewResult::new(&w, SEATS[0], r, ending));
    make_turn_view!(
        BanqiView {
            colours,
            position: position.text(),
            board: position.rows(),
            moves,
            last_move,
            taken,
            face_down: face_down.into_iter().collect(),
            quiet_plies: position.quiet,
        },
        head,
        result
    )
}

#[cfg(test)]
mod tests {
    //! Non-interference: what lies face down changes nothing any audience is shown, until it
    //! is turned up; and the judge's step names every piece turned up as the layout says.

    use super::super::rules::position::Square;
    use super::*;
    use qijudge_judge::turn_referee::play_all;
    use qijudge_rules::random::SplitMix64;

    fn game(options: Options) -> BanqiGame {
        BanqiGame::with_new_keys(options)
    }

    /// The judge's state after `turns`, played through its own step code on `layout`.
    fn played(g: &BanqiGame, layout: &Layout, turns: &[Action]) -> (State, Vec<Vec<Entry>>) {
        let mut state = qijudge_judge::turn_referee::contract_start(g, layout.clone());
        let entries = play_all(g, &mut state, turns).unwrap();
        (state, entries)
    }

    /// A random game on `layout`: its turns, and the squares still face down after them.
    fn random_game(
        options: Options,
        layout: &Layout,
        seed: u64,
        plies: usize,
    ) -> (Vec<Action>, Vec<Square>) {
        let mut rng = SplitMix64::new(seed);
        let mut g = Game::new(options);
        let mut turns = Vec::new();
        while turns.len() < plies && g.ending().is_none() {
            let legal = g.position().legal_actions();
            let a = legal[rng.below(legal.len())];
            let id = g.needs_identity(a).then(|| layout.at(a.last_square()));
            g.play(a, id).unwrap();
            turns.push(a);
        }
        let still = Square::all()
            .filter(|&s| g.position().cell(s) == Some(super::super::rules::Cell::Down))
            .collect();
        (turns, still)
    }

    /// Everything an audience is shown: the JSON at every ply, the text (both scripts) and the
    /// picture.
    fn shown(g: &BanqiGame, state: &State, audience: &str) -> Vec<String> {
        let mut out: Vec<String> = (0..=state.plies() as usize)
            .map(|ply| serde_json::to_string(&view_at(g, state, audience, ply)).unwrap())
            .collect();
        let v = build_view(g, state, audience);
        for chinese in [false, true] {
            out.push(super::super::view::render_text(
                &g.manifest.players,
                &v,
                chinese,
            ));
        }
        out.push(super::super::picture::banqi(&v));
        out
    }

    #[test]
    fn a_chain_of_captures_is_one_turn_in_the_record_the_views_and_the_picture() {
        let options = Options {
            chain_captures: true,
            ..Options::default()
        };
        let g = game(options);
        // a1 a red horse, b1 a black cannon, c1 a black soldier; the rest as listed.
        let mut layout = Layout::standard();
        let put = |layout: &mut Layout, square: &str, letter: char| {
            let want = Piece::from_fen_char(letter).unwrap();
            let from = layout.pieces.iter().position(|&p| p == want).unwrap();
            let to = Square::parse(square).unwrap().index();
            layout.pieces.swap(from, to);
        };
        put(&mut layout, "a1", 'N');
        put(&mut layout, "b1", 'c');
        put(&mut layout, "c1", 'p');
        put(&mut layout, "h4", 'r');
        let turns: Vec<Action> = ["a1", "b1", "c1", "h4", "a1b1c1"]
            .iter()
            .map(|t| Action::parse(t).unwrap())
            .collect();
        let (state, entries) = played(&g, &layout, &turns);
        assert_eq!(entries.len(), 5, "one record entry set per turn");
        let v = build_view(&g, &state, "public");
        let last = v.last_move.as_ref().unwrap();
        assert_eq!(last.action, "a1b1c1");
        assert_eq!(last.captured.as_deref(), Some("c"));
        assert_eq!(last.also_captured, vec!["p".to_string()]);
        let taken: Vec<(String, String, u32)> = v
            .taken
            .iter()
            .map(|t| (t.square.clone(), t.piece.clone(), t.ply))
            .collect();
        assert_eq!(
            taken,
            vec![("b1".into(), "c".into(), 5), ("c1".into(), "p".into(), 5)]
        );
        let lines = super::super::view::state_lines(&v).join("\n");
        assert!(
            lines.contains("a1b1c1, takes a black cannon, then a black soldier"),
            "{lines}"
        );
        // The picture marks the three squares of the chain.
        let svg = super::super::picture::banqi(&v);
        assert_eq!(svg.matches(qijudge_view::picture::MARK).count(), 3, "{svg}");
    }

    #[test]
    fn rearranging_what_is_still_face_down_changes_no_view() {
        for (seed, options) in [
            (1u64, Options::default()),
            (2, Options::default()),
            (
                3,
                Options {
                    cannon_takes_face_down: true,
                    ..Options::default()
                },
            ),
            (
                4,
                Options {
                    chain_captures: true,
                    cannon_takes_face_down: true,
                    chariot_runs: ChariotRuns::Free,
                    ..Options::default()
                },
            ),
        ] {
            let g = game(options);
            let layout = shuffle(&g.manifest.id, &seed.to_be_bytes(), &[9; 32]);
            let (turns, still) = random_game(options, &layout, seed, 40);
            assert!(still.len() >= 2, "seed {seed}: pieces left face down");
            // Exchange two face-down pieces that differ.
            let (a, b) = still
                .iter()
                .flat_map(|&a| still.iter().map(move |&b| (a, b)))
                .find(|(a, b)| layout.at(*a) != layout.at(*b))
                .unwrap();
            let mut other = layout.clone();
            other.pieces.swap(a.index(), b.index());
            let (sa, _) = played(&g, &layout, &turns);
            let (sb, _) = played(&g, &other, &turns);
            for audience in ["first", "second", "public"] {
                assert_eq!(
                    shown(&g, &sa, audience),
                    shown(&g, &sb, audience),
                    "seed {seed}: {audience} learns what lies face down"
                );
            }
            // And every audience is shown the same but for its name.
            let public = serde_json::to_value(build_view(&g, &sa, "public")).unwrap();
            for seat in SEATS {
                let mut v = serde_json::to_value(build_view(&g, &sa, seat)).unwrap();
                v["audience"] = "public".into();
                assert_eq!(v, public);
            }
        }
    }

    #[test]
    fn the_record_names_each_piece_turned_up_as_the_layout_says() {
        let g = game(Options::default());
        let layout = shuffle(&g.manifest.id, &[1; 32], &[2; 32]);
        let turns = [Action::Flip(Square::new(2, 1).unwrap())];
        let (_, entries) = played(&g, &layout, &turns);
        let Entry::Move {
            revealed, action, ..
        } = &entries[0][0]
        else {
            panic!("{entries:?}");
        };
        assert_eq!(action, "c2");
        assert_eq!(
            revealed.as_deref(),
            Some(
                layout
                    .at(Square::new(2, 1).unwrap())
                    .fen_char()
                    .to_string()
                    .as_str()
            )
        );
    }
}
