//! What UCCI 3.0 (the Chinese Chess Computer Interface of ElephantEye and many Chinese engines)
//! asks of a match runner beyond UCI: the position as the FEN after the last capture and the
//! moves since (so an engine sees every repetition that still counts), `go` in one mode (depth,
//! nodes or time, in seconds unless the engine takes milliseconds), `banmoves` for the moves the
//! rules would lose by repetition, and `bestmove M [ponder P] [draw|resign]` or `nobestmove`.
//! The exchange itself is [`crate::uci::UciBot`]'s; this module builds and reads its lines.

use std::collections::HashMap;
use xiangqi_rules::notation::parse_iccs;
use xiangqi_rules::{fen, Ending, Game, Move, Options};

/// The game replayed so far, kept from one request to the next: each request plays only the
/// moves since the last one (a replay from the start every ply would cost the square of the
/// game's length).
#[derive(Default)]
pub struct Replay {
    start: String,
    moves: Vec<String>,
    game: Option<Game>,
}

impl Replay {
    /// The game after `played` from `start`; none when the moves do not replay.
    pub fn update(&mut self, start: &str, played: &[&str]) -> Option<&Game> {
        let extends = self.game.is_some()
            && self.start == start
            && played.len() >= self.moves.len()
            && self.moves.iter().zip(played).all(|(a, b)| a == b);
        if !extends {
            *self = Replay {
                start: start.to_string(),
                moves: Vec::new(),
                game: Some(Game::new(fen::parse(start).ok()?, Options::default())),
            };
        }
        for text in &played[self.moves.len()..] {
            let played_ok = match (self.game.as_mut(), parse_iccs(text)) {
                (Some(game), Some(m)) => game.play(m).is_ok(),
                _ => false,
            };
            if !played_ok {
                *self = Replay::default();
                return None;
            }
            self.moves.push(text.to_string());
        }
        self.game.as_ref()
    }
}

/// The FEN of the position after the last capture (the start if there was none) and the
/// moves played since, in ICCS.
pub fn since_last_capture(game: &Game) -> (String, Vec<String>) {
    let positions = game.positions();
    let moves = game.moves();
    let from = moves
        .iter()
        .enumerate()
        .rev()
        .find(|(i, m)| positions[*i].piece_at(m.to).is_some())
        .map_or(0, |(i, _)| i + 1);
    (
        fen::write(&positions[from]),
        moves[from..].iter().map(ToString::to_string).collect(),
    )
}

/// The moves of `legal` that lose the game by perpetual check or chase, as the judge rules
/// them (the AXF rules): the move that completes the repetition, and the move after which the
/// opponent can complete one that the judge lays on the mover. This is what `banmoves` forbids
/// an engine that cannot judge chases. Empty when every legal move would lose (the engine then
/// plays one and loses).
pub fn losing_repetitions(game: &Game, legal: &[String]) -> Vec<String> {
    let position = game.position();
    let mover = position.side_to_move();
    // A ply can end the game by repetition only where it comes back to a position seen twice
    // already: counted once, so that most moves need no replay.
    let mut seen: HashMap<_, u32> = HashMap::new();
    for p in game.positions() {
        *seen.entry(p.key()).or_default() += 1;
    }
    let loses = |plies: &[Move]| {
        let mut next = game.clone();
        let mut ending = None;
        for m in plies {
            ending = next.play(*m).ok().flatten().cloned();
        }
        matches!(
            ending,
            Some(Ending::PerpetualCheck { loser } | Ending::PerpetualChase { loser, .. })
                if loser == mover
        )
    };
    let banned: Vec<String> = legal
        .iter()
        .filter(|text| {
            let Some(m) = parse_iccs(text) else {
                return false;
            };
            let mut after = position.clone();
            if after.play(m).is_err() {
                return false;
            }
            let key = after.key();
            if seen.get(&key).copied().unwrap_or(0) >= 2 && loses(&[m]) {
                return true;
            }
            after.legal_moves().iter().any(|reply| {
                let mut then = after.clone();
                then.make(reply);
                let k = then.key();
                let count = seen.get(&k).copied().unwrap_or(0) + u32::from(k == key);
                count >= 2 && loses(&[m, reply])
            })
        })
        .cloned()
        .collect();
    if banned.len() == legal.len() {
        Vec::new()
    } else {
        banned
    }
}

/// A FEN with the engine's piece letters: `letters` gives chariot, horse, elephant, advisor,
/// king, cannon and pawn (`RNBAKCP` is the standard; Sjaak II writes `RHEAKCP`).
pub fn with_letters(fen: &str, letters: [char; 7]) -> String {
    const STANDARD: [char; 7] = ['R', 'N', 'B', 'A', 'K', 'C', 'P'];
    let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    let board: String = board
        .chars()
        .map(
            |c| match STANDARD.iter().position(|s| *s == c.to_ascii_uppercase()) {
                Some(i) if c.is_ascii_uppercase() => letters[i],
                Some(i) => letters[i].to_ascii_lowercase(),
                None => c,
            },
        )
        .collect();
    match rest {
        "" => board,
        rest => format!("{board} {rest}"),
    }
}

/// How long the engine may think, as a UCCI `go` says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    Depth(u32),
    Nodes(u64),
    /// The mover's time, its increment or moves to go, the opponent's time (milliseconds), and
    /// how many moves the mover has made (for the increment's carry in seconds).
    Clock {
        time_ms: u64,
        increment_ms: u64,
        moves_to_go: Option<u64>,
        opponent_ms: u64,
        own_moves: u64,
    },
    /// A fixed time for this move (milliseconds): `time T movestogo 1`.
    MoveTime(u64),
}

/// The increment a seconds-only engine is told at its move after `own_moves` moves: the whole
/// seconds the increments have added up to by then, less those already told, so a 0.1 s
/// increment is told as 1 at every tenth move (0 at the others) and the increments told over
/// a game add up to those given, never more. (The time left, rounded down, carries the rest.)
pub fn carried_increment_s(increment_ms: u64, own_moves: u64) -> u64 {
    (own_moves + 1) * increment_ms / 1000 - own_moves * increment_ms / 1000
}

/// The `go` line: `go [draw] depth D | nodes N | time T [movestogo M | increment I] [opptime
/// T2 …]`; times in milliseconds when the engine took `usemillisec`, else whole seconds rounded
/// down (never more than there is), the increment carried ([`carried_increment_s`]).
pub fn go_line(limit: &Limit, draw_offered: bool, millis: bool) -> String {
    let time = |ms: u64| if millis { ms } else { ms / 1000 };
    let mode = match limit {
        Limit::Depth(d) => format!("depth {d}"),
        Limit::Nodes(n) => format!("nodes {n}"),
        Limit::MoveTime(ms) => format!("time {} movestogo 1", time(*ms).max(u64::from(!millis))),
        Limit::Clock {
            time_ms,
            increment_ms,
            moves_to_go,
            opponent_ms,
            own_moves,
        } => {
            let increment = match millis {
                true => *increment_ms,
                false => carried_increment_s(*increment_ms, *own_moves),
            };
            let own = match moves_to_go {
                Some(m) => format!("time {} movestogo {m}", time(*time_ms)),
                None => format!("time {} increment {increment}", time(*time_ms)),
            };
            let opp = match moves_to_go {
                Some(m) => format!("opptime {} oppmovestogo {m}", time(*opponent_ms)),
                None => format!("opptime {} oppincrement {increment}", time(*opponent_ms)),
            };
            format!("{own} {opp}")
        }
    };
    match draw_offered {
        true => format!("go draw {mode}"),
        false => format!("go {mode}"),
    }
}

/// What an engine answered a `go` with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `bestmove M [ponder P] [draw|resign]`: the move as the engine wrote it, and whether it
    /// offers (or accepts) a draw, or resigns.
    Best {
        text: String,
        draw: bool,
        resign: bool,
    },
    /// `nobestmove`: it found no move to play.
    NoMove,
}

/// Reads a `bestmove` or `nobestmove` line; none for any other line (`info`, …).
pub fn answer(line: &str) -> Option<Answer> {
    let mut words = line.split_whitespace();
    match words.next()? {
        "nobestmove" => Some(Answer::NoMove),
        "bestmove" => {
            let text = words.next().unwrap_or("").to_string();
            let (mut draw, mut resign) = (false, false);
            let mut rest = words.peekable();
            while let Some(w) = rest.next() {
                match w {
                    "ponder" => {
                        rest.next();
                    }
                    "draw" => draw = true,
                    "resign" => resign = true,
                    _ => {}
                }
            }
            Some(Answer::Best { text, draw, resign })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_rules::fen::START;

    /// The game after `moves`, replayed from its start by a fresh replay.
    fn replay(start: &str, moves: &[&str]) -> Option<Game> {
        Replay::default().update(start, moves).cloned()
    }

    #[test]
    fn the_position_starts_after_the_last_capture() {
        // 炮二平五 炮8平5 炮五进四 士4进5: the spec's example, where the third move takes.
        let game = replay(START, &["h2e2", "h7e7", "e2e6", "d9e8"]).unwrap();
        let (fen, moves) = since_last_capture(&game);
        assert_eq!(
            fen,
            "rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2"
        );
        assert_eq!(moves, ["d9e8"]);
        let quiet = replay(START, &["h2e2", "h7e7"]).unwrap();
        let (fen, moves) = since_last_capture(&quiet);
        assert_eq!(fen, START);
        assert_eq!(moves, ["h2e2", "h7e7"]);
        assert!(replay(START, &["h2e9"]).is_none());
    }

    #[test]
    fn a_kept_replay_plays_only_the_new_moves_and_starts_again_when_the_game_differs() {
        let line = ["h2e2", "h7e7", "e2e6", "d9e8"];
        let mut kept = Replay::default();
        // Kept from ply to ply, it gives what a fresh replay gives.
        for n in 0..=line.len() {
            let fen = |g: &Game| fen::write(g.position());
            let want = fen(&replay(START, &line[..n]).unwrap());
            assert_eq!(kept.update(START, &line[..n]).map(fen), Some(want));
        }
        // Another game (a new one, or a book's other opening) is replayed from its start.
        let other = ["b2e2"];
        assert_eq!(kept.update(START, &other).map(|g| g.moves().len()), Some(1));
        assert!(kept.update(START, &["b2e2", "h2e9"]).is_none());
        assert_eq!(kept.update(START, &other).map(|g| g.moves().len()), Some(1));
    }

    #[test]
    fn a_move_that_loses_by_perpetual_check_is_banned() {
        // Red's chariot checks the black king from d1 and e1 in turn, the king stepping between
        // d9 and e9. The fourth check brings the start back a third time: red loses by it. The
        // check before it is banned too, since black's reply would then complete the cycle.
        let start = "4k4/9/9/9/9/9/9/9/3R5/5K3 w - - 0 1";
        let cycle = ["d1e1", "e9d9", "e1d1", "d9e9"];
        let mut played: Vec<&str> = Vec::new();
        let mut bans = Vec::new();
        for ply in 0..8 {
            let game = replay(start, &played).unwrap();
            let legal: Vec<String> = game
                .position()
                .legal_moves()
                .iter()
                .map(|m| m.to_string())
                .collect();
            let banned = losing_repetitions(&game, &legal);
            if !banned.is_empty() {
                bans.push((ply, banned));
            }
            played.push(cycle[ply % 4]);
            if game.ending().is_some() {
                break;
            }
        }
        // Red's check at ply 6 lets black's ply 7 repeat the start a third time, which the
        // rules lay on red; black, only evading, is never banned.
        assert_eq!(bans, [(6, vec!["e1d1".to_string()])]);
        // From black's side, red's last check itself completes the repetition: banned.
        let from_black = "4k4/9/9/9/9/9/9/9/4R4/5K3 b - - 0 1";
        let line = ["e9d9", "e1d1", "d9e9", "d1e1", "e9d9", "e1d1", "d9e9"];
        let game = replay(from_black, &line).unwrap();
        assert_eq!(
            losing_repetitions(&game, &["d1e1".into(), "d1d2".into()]),
            ["d1e1"]
        );
        // Every legal move losing: none is banned.
        assert!(losing_repetitions(&game, &["d1e1".into()]).is_empty());
    }

    #[test]
    fn letters_are_the_engines() {
        assert_eq!(
            with_letters(START, ['R', 'H', 'E', 'A', 'K', 'C', 'P']),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
        );
        assert_eq!(
            with_letters(START, ['R', 'N', 'B', 'A', 'K', 'C', 'P']),
            START
        );
    }

    #[test]
    fn a_sub_second_increment_is_carried_in_whole_seconds() {
        // 0.1 s: told as 1 s at every tenth move; over 30 moves, 3 s, as given.
        let told: Vec<u64> = (0..30).map(|n| carried_increment_s(100, n)).collect();
        assert_eq!(told.iter().sum::<u64>(), 3);
        assert_eq!(told[9], 1);
        assert!(told[..9].iter().all(|t| *t == 0));
        // 1.5 s: 1, 2, 1, 2, …
        let told: Vec<u64> = (0..4).map(|n| carried_increment_s(1500, n)).collect();
        assert_eq!(told, [1, 2, 1, 2]);
        let clock = |own_moves| Limit::Clock {
            time_ms: 9_950,
            increment_ms: 100,
            moves_to_go: None,
            opponent_ms: 10_000,
            own_moves,
        };
        assert_eq!(
            go_line(&clock(0), false, false),
            "go time 9 increment 0 opptime 10 oppincrement 0"
        );
        assert_eq!(
            go_line(&clock(9), false, false),
            "go time 9 increment 1 opptime 10 oppincrement 1"
        );
        assert_eq!(
            go_line(&clock(9), false, true),
            "go time 9950 increment 100 opptime 10000 oppincrement 100"
        );
    }

    #[test]
    fn go_lines_in_seconds_or_milliseconds() {
        let clock = Limit::Clock {
            time_ms: 61_500,
            increment_ms: 1_000,
            moves_to_go: None,
            opponent_ms: 30_000,
            own_moves: 4,
        };
        assert_eq!(
            go_line(&clock, false, false),
            "go time 61 increment 1 opptime 30 oppincrement 1"
        );
        assert_eq!(
            go_line(&clock, true, true),
            "go draw time 61500 increment 1000 opptime 30000 oppincrement 1000"
        );
        let period = Limit::Clock {
            time_ms: 60_000,
            increment_ms: 0,
            moves_to_go: Some(3),
            opponent_ms: 59_000,
            own_moves: 0,
        };
        assert_eq!(
            go_line(&period, false, false),
            "go time 60 movestogo 3 opptime 59 oppmovestogo 3"
        );
        assert_eq!(go_line(&Limit::Depth(6), false, false), "go depth 6");
        assert_eq!(
            go_line(&Limit::Nodes(5000), true, false),
            "go draw nodes 5000"
        );
        // A fixed time under a second is one second, not zero, when the engine counts seconds
        // (the runner sends `stop` before the answer's deadline).
        assert_eq!(
            go_line(&Limit::MoveTime(400), false, false),
            "go time 1 movestogo 1"
        );
        assert_eq!(
            go_line(&Limit::MoveTime(400), false, true),
            "go time 400 movestogo 1"
        );
    }

    #[test]
    fn answers_are_read_with_their_draw_and_resign_flags() {
        let best = |text: &str, draw, resign| {
            Some(Answer::Best {
                text: text.into(),
                draw,
                resign,
            })
        };
        assert_eq!(answer("bestmove h2e2"), best("h2e2", false, false));
        assert_eq!(
            answer("bestmove h2e2 ponder h7e7 draw"),
            best("h2e2", true, false)
        );
        assert_eq!(answer("bestmove a0a1 resign"), best("a0a1", false, true));
        assert_eq!(answer("nobestmove"), Some(Answer::NoMove));
        assert_eq!(answer("info depth 3 score 12 pv h2e2"), None);
        assert_eq!(answer("bestmoves"), None);
    }
}
