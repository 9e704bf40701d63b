//! The Jieqi judge: both players' nonce commitments, then their nonces (handed to the judge
//! only), from which the shuffle fixes the hidden layout; then signed moves as in Xiangqi, each
//! face-down mover turned up in the public record; views that show captured face-down pieces
//! exactly as the manifest's `captured` option says; and, once the nonces are revealed, an audit
//! that recomputes the whole layout and checks every piece that turned up.

use super::manifest::*;
use jieqi_rules::position::Cell;
use jieqi_rules::shuffle::{shuffle, Layout};
use jieqi_rules::{AdvisorsElephants, Captured, Game, Options};
use qijudge_judge::face_down::{FaceDown, Letters, RecordedLetters};
use qijudge_judge::pipeline::Ctx;
use qijudge_judge::turn_referee::{view_head, OffBoard, Played, TurnReferee};
use qijudge_judge::turns::Turns;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_protocol::files::*;
use qijudge_store::GameDir;
use qijudge_view::make_turn_view;
use qijudge_xiangqi::referee::{end_of, off_board_ending, seat_of};
use xiangqi_rules::notation::parse_iccs;
use xiangqi_rules::{Color, Kind, Move, Square};

pub use crate::view::{Closing, JieqiView, LastMove, Taken, ViewResult};

/// The seats, in manifest order: red moves first.
pub const SEATS: [&str; 2] = qijudge_xiangqi::referee::SEATS;

qijudge_judge::seated_game! {
    /// A checked Jieqi manifest with its keys.
    pub struct JieqiGame(crate::Jieqi);
}

impl JieqiGame {
    pub fn options(&self) -> Options {
        self.manifest.rules
    }
}

/// The rule options from `--rule key=value` items.
pub fn rules_from(items: &[String]) -> Result<Options> {
    let mut rules = Options::default();
    for (k, v) in qijudge_game::rule_pairs(items)? {
        let bad = |allowed: &str| Error::Io(format!("--rule {k}: {allowed}"));
        match k {
            "advisors-elephants" => {
                rules.advisors_elephants = match v {
                    "free" => AdvisorsElephants::Free,
                    "confined" => AdvisorsElephants::Confined,
                    _ => return Err(bad("free or confined")),
                }
            }
            "captured" => {
                rules.captured = match v {
                    "both" => Captured::Both,
                    "captor" => Captured::Captor,
                    "nobody" => Captured::Nobody,
                    _ => return Err(bad("both, captor or nobody")),
                }
            }
            "move-limit" => rules.move_limit = qijudge_game::on_off(k, v)?,
            _ => {
                return Err(Error::Io(format!(
                    "--rule {k:?}: Jieqi options are advisors-elephants=free|confined, \
                     captured=both|captor|nobody and move-limit=on|off"
                )))
            }
        }
    }
    Ok(rules)
}

/// A piece taken: when, by whom, where, as it lay, and what it was if known here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    pub ply: u32,
    pub captor: usize,
    pub square: Square,
    pub cell: Cell,
    /// What it was: its kind if face up; if face down, known only from the layout (the judge,
    /// or anyone after the reveal), from the record (captured = both) or from the captor's own
    /// signed view.
    pub identity: Option<Kind>,
}

/// The game as the record and the files say.
#[derive(Clone, Debug)]
pub struct State {
    pub turns: Turns,
    pub game: Game,
    /// The seats' nonces and the hidden layout they fix.
    pub dealt: FaceDown<Layout>,
    pub captures: Vec<Capture>,
}

impl State {
    pub fn plies(&self) -> u32 {
        self.game.played().len() as u32
    }
}

/// Who may see what a piece taken face down was: the one place that decides it.
pub fn shows_identity(options: Options, audience: &str, captor: usize) -> bool {
    match options.captured {
        Captured::Both => true,
        Captured::Captor => audience == SEATS[captor],
        Captured::Nobody => false,
    }
}

fn letter(color: Color, kind: Kind) -> String {
    let c = kind.fen_letter();
    match color {
        Color::Red => c.to_string(),
        Color::Black => c.to_ascii_lowercase().to_string(),
    }
}

fn kind_of_letter(text: &str) -> Option<Kind> {
    let mut chars = text.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    Kind::from_fen_letter(c).filter(|k| *k != Kind::King)
}

/// The pieces of one colour as the record names them.
struct KindLetters(Color);

impl Letters<Kind> for KindLetters {
    fn letter(&self, kind: &Kind) -> String {
        letter(self.0, *kind)
    }

    fn read(&self, text: &str) -> Option<Kind> {
        kind_of_letter(text)
    }
}

qijudge_judge::turn_state!(State, dealt: Layout);

impl TurnReferee for JieqiGame {
    type State = State;
    type Move = Move;
    type View = JieqiView;
    const ADJUDICATED: bool = true;

    fn start_state(&self) -> State {
        State {
            turns: Turns::default(),
            game: Game::new(self.options()),
            dealt: FaceDown::new(shuffle),
            captures: Vec::new(),
        }
    }

    fn seat_to_move(&self, state: &State) -> usize {
        state.game.position().side_to_move().index()
    }

    fn plies(state: &State) -> u32 {
        state.plies()
    }

    fn parse(&self, state: &State, text: &str) -> std::result::Result<Move, String> {
        let mv = parse_iccs(text).ok_or_else(|| {
            format!("{text:?} is not a move: write ICCS coordinates like h2e2, or resign")
        })?;
        state
            .game
            .position()
            .check_move(mv)
            .map_err(|e| e.to_string())?;
        Ok(mv)
    }

    /// A face-down mover is turned up in the record; a piece taken face down is named there
    /// only when the `captured` option shows it to both.
    fn play(&self, state: &mut State, cx: &Ctx, ply: u32, seat: usize, m: Move) -> Result<Played> {
        let recorded = RecordedLetters::of(cx);
        let position = state.game.position();
        let color = position.side_to_move();
        let (mover, target) = (position.cell(m.from), position.cell(m.to));
        let revealed = match mover {
            Some(c) if c.hidden => Some(state.dealt.identity(
                &KindLetters(color),
                |layout, s| layout.at(s),
                ply,
                m.from,
                recorded.revealed.as_deref(),
                &SEATS,
            )?),
            _ => None,
        };
        let identity = match target {
            Some(c) if c.hidden => match (&state.dealt.layout, &recorded.uncovered) {
                (Some(layout), _) => layout.at(m.to),
                (None, Some(text)) => Some(kind_of_letter(text).ok_or_else(|| {
                    refuse(
                        "record.jsonl",
                        Some("notices"),
                        format!("{text:?} is not a piece letter"),
                    )
                })?),
                (None, None) => None,
            },
            Some(c) => Some(c.kind),
            None => None,
        };
        let mut played = Played::plain(m, None);
        played.line.revealed = revealed.map(|k| letter(color, k));
        if let (Some(c), Some(k), Captured::Both) = (target, identity, self.options().captured) {
            if c.hidden {
                played.line.notices.push(Notice::Uncovered {
                    square: m.to.to_string(),
                    piece: letter(c.color, k),
                });
            }
        }
        played.end = state
            .game
            .play(m, revealed)
            .map_err(|e| refuse("record.jsonl", Some("revealed"), e.to_string()))?
            .map(end_of);
        if let Some(cell) = target {
            state.captures.push(Capture {
                ply,
                captor: seat,
                square: m.to,
                cell,
                identity,
            });
        }
        Ok(played)
    }

    fn end_off_board(&self, state: &mut State, how: OffBoard) {
        state.game.end(off_board_ending(how));
    }

    fn view(&self, state: &State, audience: &str) -> JieqiView {
        build_view(self, state, audience)
    }

    /// Before the reveal, what a captor was shown cannot be recomputed: it is taken from its
    /// own view, and everything else in that view must still be what the record gives.
    fn view_to_check(
        &self,
        state: &State,
        audience: &str,
        published: Option<&JieqiView>,
    ) -> JieqiView {
        let mut known = state.captures.clone();
        if let Some(v) = published.filter(|_| state.dealt.layout.is_none()) {
            learn(&mut known, v);
        }
        view_with(self, state, &known, audience, state.plies() as usize)
    }

    fn text(&self, v: &JieqiView) -> String {
        crate::view::render_text(&self.manifest.players, v, false)
    }

    fn picture(&self, v: &JieqiView) -> String {
        crate::picture::jieqi(v)
    }
}

/// Takes what a seat's own signed view shows of the pieces it took face down.
fn learn(captures: &mut [Capture], view: &JieqiView) {
    for taken in &view.taken {
        if !taken.face_down || taken.by != view.audience {
            continue;
        }
        if let Some(c) = captures
            .iter_mut()
            .find(|c| c.ply == taken.ply && c.identity.is_none())
        {
            c.identity = kind_of_letter(&taken.piece);
        }
    }
}

/// Builds one audience's view now.
pub fn build_view(g: &JieqiGame, state: &State, audience: &str) -> JieqiView {
    view_with(g, state, &state.captures, audience, state.plies() as usize)
}

/// The captures as `audience` may know them: the state's, plus, when the layout is not at hand
/// (a player's copy), what the audience's own signed view showed it of the pieces it took face
/// down.
pub fn known_captures(
    dir: &GameDir,
    g: &JieqiGame,
    state: &State,
    audience: &str,
) -> Result<Vec<Capture>> {
    let mut known = state.captures.clone();
    if state.dealt.layout.is_none() {
        if let Some(v) = qijudge_judge::published::read_view(dir, &g.frame(), audience)? {
            learn(&mut known, &v);
        }
    }
    Ok(known)
}

/// The view of `audience` after the first `ply` moves (the replay page), with the captures
/// as known.
pub fn view_with(
    g: &JieqiGame,
    state: &State,
    captures: &[Capture],
    audience: &str,
    ply: usize,
) -> JieqiView {
    let played = state.game.played();
    let ply = ply.min(played.len());
    let position = &state.game.positions()[ply];
    let board = qijudge_xiangqi::view::board_rows(|s| position.cell(s).map(Cell::letter));
    let shown = |c: &Capture| -> String {
        match (c.cell.hidden, c.identity) {
            (false, _) => c.cell.letter().to_string(),
            (true, Some(k)) if shows_identity(g.options(), audience, c.captor) => {
                letter(c.cell.color, k)
            }
            (true, _) => c.cell.letter().to_string(),
        }
    };
    let taken: Vec<Taken> = captures
        .iter()
        .filter(|c| (c.ply as usize) <= ply)
        .map(|c| Taken {
            ply: c.ply,
            by: SEATS[c.captor].into(),
            square: c.square.to_string(),
            piece: shown(c),
            face_down: c.cell.hidden,
        })
        .collect();
    let moves = played[..ply]
        .iter()
        .zip(state.game.positions())
        .map(|(p, before)| match p.revealed {
            Some(k) => format!("{}={}", p.mv, letter(before.side_to_move(), k)),
            None => p.mv.to_string(),
        })
        .collect();
    let last_move = (ply > 0).then(|| {
        let p = &played[ply - 1];
        let before = &state.game.positions()[ply - 1];
        LastMove {
            seat: seat_of(before.side_to_move()).into(),
            iccs: p.mv.to_string(),
            revealed: p.revealed.map(|k| letter(before.side_to_move(), k)),
            captured: captures.iter().find(|c| c.ply as usize == ply).map(&shown),
            comment: state.turns.comments.get(ply - 1).cloned().flatten(),
        }
    });
    let seat_then = position.side_to_move().index();
    let head = view_head(g, state, JIEQI_VIEW_FORMAT, audience, ply, seat_then);
    let result =
        (head.end.clone()).map(|(w, r)| ViewResult::new(&w, SEATS[0], r, state.game.ending()));
    make_turn_view!(
        JieqiView {
            check: position.is_check(),
            position: position.text(),
            board,
            moves,
            last_move,
            taken,
        },
        head,
        result
    )
}

#[cfg(test)]
mod tests {
    //! Non-interference: what lies face down changes nothing any audience is shown until it
    //! turns up, and a piece taken face down is shown exactly as the `captured` option says.

    use super::*;
    use jieqi_rules::position::hidden_squares;
    use qijudge_judge::turn_referee::play_all;
    use qijudge_rules::random::SplitMix64;

    fn game(captured: Captured) -> JieqiGame {
        JieqiGame::with_new_keys(Options {
            captured,
            ..Options::default()
        })
    }

    /// The judge's state after `moves`, played through its own step code on `layout`, with
    /// the record entries each move gave.
    fn played_with_entries(
        g: &JieqiGame,
        layout: &Layout,
        moves: &[Move],
    ) -> (State, Vec<Vec<Entry>>) {
        let mut state = qijudge_judge::turn_referee::contract_start(g, layout.clone());
        let entries = play_all(g, &mut state, moves).unwrap();
        (state, entries)
    }

    fn played(g: &JieqiGame, layout: &Layout, moves: &[Move]) -> State {
        played_with_entries(g, layout, moves).0
    }

    /// A random game on `layout`: its moves, and the start squares still face down at the end.
    fn random_game(layout: &Layout, seed: u64, plies: usize) -> (Vec<Move>, Vec<Square>) {
        let mut rng = SplitMix64::new(seed);
        let mut g = Game::new(Options::default());
        let mut moves = Vec::new();
        while moves.len() < plies && g.ending().is_none() {
            let legal = g.position().legal_moves();
            let m = legal[rng.below(legal.len())];
            let revealed = g
                .position()
                .cell(m.from)
                .filter(|c| c.hidden)
                .and_then(|_| layout.at(m.from));
            g.play(m, revealed).unwrap();
            moves.push(m);
        }
        let still: Vec<Square> = g
            .position()
            .cells()
            .filter(|(_, c)| c.hidden)
            .map(|(s, _)| s)
            .collect();
        (moves, still)
    }

    /// `layout` with the pieces on two start squares of one side exchanged.
    fn swapped(layout: &Layout, a: Square, b: Square) -> Layout {
        let color = jieqi_rules::position::role_of(a).unwrap().0;
        let squares = hidden_squares(color);
        let (i, j) = (
            squares.iter().position(|s| *s == a).unwrap(),
            squares.iter().position(|s| *s == b).unwrap(),
        );
        let mut out = layout.clone();
        out.kinds[color.index()].swap(i, j);
        out
    }

    /// Everything an audience is shown: the JSON, the text and the picture, at every ply, and
    /// what a Jieqi engine playing for it over UCI is told (`position fen …`).
    fn shown(g: &JieqiGame, state: &State, audience: &str) -> Vec<String> {
        let mut out = Vec::new();
        for ply in 0..=state.plies() as usize {
            let v = view_with(g, state, &state.captures, audience, ply);
            let json = serde_json::to_value(&v).unwrap();
            out.push(json.to_string());
            out.push(crate::uci::position_line(&json, 0).unwrap());
        }
        let v = build_view(g, state, audience);
        out.push(crate::view::render_text(&g.manifest.players, &v, true));
        out.push(crate::picture::jieqi(&v));
        out
    }

    #[test]
    fn rearranging_what_is_still_face_down_changes_no_view() {
        let mut compared = 0;
        for seed in 0..40u64 {
            let g = game([Captured::Both, Captured::Captor, Captured::Nobody][seed as usize % 3]);
            let a = shuffle(&g.manifest.id, &[seed as u8; 32], &[9; 32]);
            let (moves, still) = random_game(&a, seed, 80);
            // Two face-down pieces of one side, of different kinds, that never moved.
            let pair = still.iter().enumerate().find_map(|(i, &x)| {
                still[i + 1..]
                    .iter()
                    .copied()
                    .find(|&y| {
                        jieqi_rules::position::role_of(x).unwrap().0
                            == jieqi_rules::position::role_of(y).unwrap().0
                            && a.at(x) != a.at(y)
                    })
                    .map(|y| (x, y))
            });
            let Some((x, y)) = pair else { continue };
            let b = swapped(&a, x, y);
            assert_ne!(a, b);
            let (sa, sb) = (played(&g, &a, &moves), played(&g, &b, &moves));
            for audience in ["red", "black", "public"] {
                assert_eq!(
                    shown(&g, &sa, audience),
                    shown(&g, &sb, audience),
                    "seed {seed}: {audience} sees the swap of {x} and {y}"
                );
            }
            compared += 1;
        }
        assert!(compared >= 30, "only {compared} games compared");
    }

    #[test]
    fn a_piece_taken_face_down_is_shown_as_the_option_says() {
        // Red's face-down piece on b2 moves as a cannon: over b7's screen it takes black's
        // face-down piece on b9.
        let moves: Vec<Move> = ["b2b9", "e9e8"]
            .iter()
            .map(|m| parse_iccs(m).unwrap())
            .collect();
        for captured in [Captured::Both, Captured::Captor, Captured::Nobody] {
            let g = game(captured);
            let a = shuffle(&g.manifest.id, &[1; 32], &[2; 32]);
            // Another layout where b9 holds something else (a9's piece), the rest the same.
            let b9 = Square::parse("b9").unwrap();
            let other = [Square::parse("a9").unwrap(), Square::parse("c9").unwrap()]
                .into_iter()
                .find(|s| a.at(*s) != a.at(b9))
                .unwrap();
            let b = swapped(&a, b9, other);
            let (sa, sb) = (played(&g, &a, &moves), played(&g, &b, &moves));
            let differs = |audience| shown(&g, &sa, audience) != shown(&g, &sb, audience);
            let want = match captured {
                Captured::Both => [true, true, true],
                Captured::Captor => [true, false, false],
                Captured::Nobody => [false, false, false],
            };
            assert_eq!(
                [differs("red"), differs("black"), differs("public")],
                want,
                "captured = {}",
                captured.name()
            );
            // The captor's view names the piece exactly when it may.
            let v = build_view(&g, &sa, "red");
            let piece = &v.taken[0].piece;
            let real = letter(Color::Black, a.at(b9).unwrap());
            assert_eq!(
                piece == &real,
                captured != Captured::Nobody,
                "{piece} {real}"
            );
            // Under both, the record says it too, so an audit without the nonces agrees.
            let (_, entries) = played_with_entries(&g, &a, &moves);
            let Some(Entry::Move { notices, .. }) = entries[0].first() else {
                panic!("a move entry")
            };
            assert_eq!(!notices.is_empty(), captured == Captured::Both);
        }
    }
}
