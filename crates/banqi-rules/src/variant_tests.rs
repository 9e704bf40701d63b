//! The rule options, each against positions drawn from the rule texts `docs/banqi.md` cites
//! (not from this implementation): the running chariot, the Hong Kong ranking, the older
//! cannon, the threefold repetition, the long chase, the quiet-ply limits, and the order in
//! which the end checks are made.

use super::position::{Position, Square};
use super::{Action, ChariotRuns, Ending, Game, Options, QuietLimit, Ranking};
use xiangqi_rules::Color;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn mv(m: &str) -> Action {
    Action::parse(m).unwrap()
}

/// First plays red, second black; `first` to move unless `to_move` says otherwise.
fn drawn(rows: [&str; 4], to_move: usize, rules: Options) -> Game {
    Game::from_position(
        rules,
        Position::from_rows(rows, to_move, [Color::Red, Color::Black], rules),
    )
}

fn refusal(g: &Game, m: &str) -> String {
    g.position().check(mv(m)).unwrap_err().to_string()
}

fn legal(g: &Game, m: &str) -> bool {
    g.position().check(mv(m)).is_ok() && g.position().legal_actions().contains(&mv(m))
}

/// 車直衝 as its texts give it (a Taiwanese game site's rule page: a running chariot may take
/// every piece; the Fast Dark Chess app: regardless of rank): the chariot runs any number of
/// empty squares along a rank or file and takes the first enemy piece it meets, whatever it is.
#[test]
fn a_running_chariot_goes_over_empty_squares_and_takes_any_piece() {
    let runs = Options {
        chariot_runs: ChariotRuns::Free,
        ..Options::default()
    };
    // Rank 1: red chariot on a1, three empty squares, a black horse on e1; a black elephant
    // on a4 beyond empty a2 and a3; a face-down piece on b2 above b1.
    let rows = ["b..?????", ".???????", "..??????", "R...n???"];
    let g = drawn(rows, 0, runs);
    assert!(legal(&g, "a1e1"), "runs three squares and takes the horse");
    assert!(legal(&g, "a1d1") && legal(&g, "a1c1") && legal(&g, "a1a3"));
    assert!(
        legal(&g, "a1a4"),
        "the elephant ranks above the chariot, and the run takes it all the same"
    );
    assert!(refusal(&g, "a1b2").contains("a chariot runs along a rank or file over empty squares"));
    // The general too, by a run or beside it; a face-down piece still stops it and is not taken.
    let general = drawn(["........", "k.......", "........", "R?.b...."], 0, runs);
    assert!(
        legal(&general, "a1a3"),
        "runs two squares and takes the general"
    );
    assert!(!legal(&general, "a1d1"), "the face-down b1 blocks the run");
    assert_eq!(
        refusal(&general, "a1b1"),
        "a face-down piece cannot be taken"
    );
    let beside = drawn(["........", "........", "k.......", "R......."], 0, runs);
    assert!(
        legal(&beside, "a1a2"),
        "a run of one square takes the general beside it"
    );
    // Only the chariot runs and ignores rank: a horse still takes by rank, one square.
    let horse = drawn(["........", "........", "a.......", "N......."], 0, runs);
    assert_eq!(refusal(&horse, "a1a2"), "a horse cannot take an advisor");
    // The run is a move: what it takes is recorded like a step's capture.
    let mut g = drawn(rows, 0, runs);
    g.play(mv("a1e1"), None).unwrap();
    let taken = g.played().last().unwrap().captured;
    assert_eq!(taken.map(|p| p.fen_char()), Some('n'));
}

/// The ranked reading (`chariot-runs=ranked`, what the option first meant): the same runs, but
/// a chariot takes only what its rank allows.
#[test]
fn a_ranked_running_chariot_takes_only_what_its_rank_allows() {
    let ranked = Options {
        chariot_runs: ChariotRuns::Ranked,
        ..Options::default()
    };
    let rows = ["b..?????", ".???????", "..??????", "R...n???"];
    let g = drawn(rows, 0, ranked);
    assert!(
        legal(&g, "a1e1"),
        "runs three squares and takes the horse (rank 3 over 2)"
    );
    assert_eq!(
        refusal(&g, "a1a4"),
        "a chariot cannot take an elephant",
        "the run is free but the elephant ranks higher"
    );
    // Blocked: nothing is taken or passed beyond the first piece met.
    let blocked = drawn(["........", "........", ".n......", "R?.n...."], 0, ranked);
    assert!(!legal(&blocked, "a1d1"), "the face-down b1 blocks the run");
    assert!(legal(&blocked, "a1a2") && legal(&blocked, "a1a4"));
    // Without the option the chariot steps like every piece.
    let stepping = drawn(rows, 0, Options::default());
    assert!(!legal(&stepping, "a1e1"));
    assert_eq!(
        refusal(&stepping, "a1c1"),
        "a chariot moves one square up, down, left or right"
    );
}

/// Manifests written before the option had two readings say `true`: the ranked one, so their
/// games replay as they were played; the house rule is written `"free"`.
#[test]
fn chariot_runs_is_read_from_manifests_as_written() {
    let read = |text: &str| -> Options { toml::from_str(text).unwrap() };
    let base = "cannon-takes-face-down = false\nmove-limit = true\n";
    assert_eq!(
        read(&format!("{base}chariot-runs = true\n")).chariot_runs,
        ChariotRuns::Ranked
    );
    assert_eq!(
        read(&format!("{base}chariot-runs = \"free\"\n")).chariot_runs,
        ChariotRuns::Free
    );
    assert_eq!(read(base).chariot_runs, ChariotRuns::Off);
    let free = Options {
        chariot_runs: ChariotRuns::Free,
        ..Options::default()
    };
    assert!(toml::to_string(&free)
        .unwrap()
        .contains("chariot-runs = \"free\""));
    assert!(toml::from_str::<Options>(&format!("{base}chariot-runs = \"fast\"\n")).is_err());
}

#[test]
fn the_hong_kong_ranking_puts_the_chariot_second_and_every_piece_steps_to_take() {
    let hk = Options {
        ranking: Ranking::HongKong,
        ..Options::default()
    };
    // General > chariot > horse > cannon > elephant > advisor > soldier.
    let g = drawn(["????????", "????????", "Rb?Ca???", "ab?Nc?Kp"], 0, hk);
    assert!(legal(&g, "a2b2"), "the chariot takes an elephant");
    assert!(legal(&g, "a2a1"), "the chariot takes an advisor");
    assert!(
        legal(&g, "d2e2"),
        "the cannon steps onto an advisor (3 over 1)"
    );
    assert!(legal(&g, "d1e1"), "the horse takes a cannon (4 over 3)");
    assert!(legal(&g, "g1h1"), "the general takes a soldier here");
    // The standard order refuses the same takes.
    let standard = drawn(
        ["????????", "????????", "Rb?Ca???", "ab?Nc?Kp"],
        0,
        Options::default(),
    );
    assert_eq!(
        refusal(&standard, "a2b2"),
        "a chariot cannot take an elephant"
    );
    assert!(
        !legal(&standard, "g1h1"),
        "the standard general never takes a soldier"
    );
    // An advisor (rank 1 here) cannot take an elephant (rank 2); a soldier still takes the
    // general.
    let g = drawn(["????????", "????????", "?A?P????", "?b?k????"], 0, hk);
    assert_eq!(
        refusal(&g, "b2b1"),
        "an advisor cannot take an elephant (the Hong Kong ranking)"
    );
    assert!(legal(&g, "d2d1"), "the soldier takes the general");
    // The Hong Kong cannon does not jump.
    let g = drawn(["????????", "????????", "????????", "C?.n????"], 0, hk);
    assert!(!legal(&g, "a1d1"));
}

#[test]
fn the_older_cannon_also_steps_onto_a_cannon_or_a_soldier() {
    let older = Options {
        cannon_takes_adjacent: true,
        ..Options::default()
    };
    let rows = ["????????", "????????", "?p??????", "Cc?n????"];
    let g = drawn(rows, 0, older);
    assert!(legal(&g, "a1b1"), "a cannon beside a cannon");
    let g2 = drawn(["????????", "????????", "p???????", "Cn??????"], 0, older);
    assert!(legal(&g2, "a1a2"), "a cannon beside a soldier");
    assert!(
        !legal(&g2, "a1b1"),
        "not a horse: rank 2 is above the cannon's 1"
    );
    // Its jump is kept.
    let g3 = drawn(["????????", "????????", "????????", "C?.n????"], 0, older);
    assert!(legal(&g3, "a1d1"));
    // Without the option a cannon never takes by stepping.
    let plain = drawn(rows, 0, Options::default());
    assert!(!legal(&plain, "a1b1"));
}

/// Plays `moves` in order, each one legal; the ending after the last.
fn play(g: &mut Game, moves: &[&str]) -> Option<Ending> {
    let mut end = None;
    for m in moves {
        assert!(end.is_none(), "{m}: the game ended before it ({end:?})");
        end = g.play(mv(m), None).unwrap();
    }
    end
}

/// The red chariot (b2) goes b2–b1–b2 and each time stands beside the black horse, which flees
/// c1–c2–c1: red threatens the horse anew with every move, black threatens nothing.
const CHASE: [&str; 4] = ["????????", "????????", ".R......", "..n....?"];
const CHASE_CYCLE: [&str; 4] = ["b2b1", "c1c2", "b1b2", "c2c1"];

/// Two pieces walking back and forth, nobody threatening anything.
const WALK: [&str; 4] = ["????????", "????????", "R......n", "????????"];
const WALK_CYCLE: [&str; 4] = ["a2b2", "h2g2", "b2a2", "g2h2"];

#[test]
fn a_third_occurrence_of_a_position_draws() {
    let mut g = drawn(WALK, 0, Options::default());
    assert_eq!(play(&mut g, &WALK_CYCLE), None, "the second occurrence");
    assert_eq!(play(&mut g, &WALK_CYCLE[..3]), None);
    assert_eq!(play(&mut g, &WALK_CYCLE[3..]), Some(Ending::Repetition));
    assert_eq!(g.played().len(), 8);
    // Without the rule the same walk goes on.
    let off = Options {
        repetition: false,
        ..Options::default()
    };
    let mut g = drawn(WALK, 0, off);
    for _ in 0..3 {
        assert_eq!(play(&mut g, &WALK_CYCLE), None);
    }
}

#[test]
fn a_long_chase_loses_and_otherwise_the_repetition_draws() {
    let chase = Options {
        long_chase: true,
        ..Options::default()
    };
    let mut g = drawn(CHASE, 0, chase);
    play(&mut g, &CHASE_CYCLE);
    let end = play(&mut g, &CHASE_CYCLE);
    assert_eq!(end, Some(Ending::LongChase { loser: 0 }));
    assert_eq!(end.unwrap().winner(), Some(1));
    // The same cycle without the option is a plain repetition.
    let mut g = drawn(CHASE, 0, Options::default());
    play(&mut g, &CHASE_CYCLE);
    assert_eq!(play(&mut g, &CHASE_CYCLE), Some(Ending::Repetition));
    // Nobody chases in the walk: the long-chase option draws it as a repetition.
    let mut g = drawn(WALK, 0, chase);
    play(&mut g, &WALK_CYCLE);
    assert_eq!(play(&mut g, &WALK_CYCLE), Some(Ending::Repetition));
    // With the long chase and no repetition draw, a chase still loses and a walk goes on.
    let only_chase = Options {
        repetition: false,
        ..chase
    };
    let mut g = drawn(CHASE, 0, only_chase);
    play(&mut g, &CHASE_CYCLE);
    assert_eq!(
        play(&mut g, &CHASE_CYCLE),
        Some(Ending::LongChase { loser: 0 })
    );
    let mut g = drawn(WALK, 0, only_chase);
    play(&mut g, &WALK_CYCLE);
    play(&mut g, &WALK_CYCLE);
    assert_eq!(g.ending(), None);
}

/// Walks with the repetition draw off until the game ends or `max` plies: the plies played.
fn quiet_walk(limit: u32, max: usize) -> (usize, Option<Ending>) {
    let rules = Options {
        repetition: false,
        move_limit: QuietLimit(Some(limit)),
        ..Options::default()
    };
    let mut g = drawn(WALK, 0, rules);
    for m in WALK_CYCLE.iter().cycle().take(max) {
        if g.play(mv(m), None).unwrap().is_some() {
            break;
        }
    }
    (g.played().len(), g.ending().copied())
}

#[test]
fn the_quiet_ply_limit_draws_after_60_or_180_plies() {
    // TCGA's 60 plies and the Computer Olympiad's 180, without a turn-up or a capture.
    assert_eq!(
        quiet_walk(60, 1000),
        (60, Some(Ending::MoveLimit { plies: 60 }))
    );
    assert_eq!(
        quiet_walk(180, 1000),
        (180, Some(Ending::MoveLimit { plies: 180 }))
    );
    assert_eq!(
        quiet_walk(50, 1000),
        (50, Some(Ending::MoveLimit { plies: 50 }))
    );
    // A turn-up restarts the count.
    let rules = Options {
        repetition: false,
        move_limit: QuietLimit(Some(60)),
        ..Options::default()
    };
    let mut g = drawn(WALK, 0, rules);
    for m in WALK_CYCLE.iter().cycle().take(58) {
        g.play(mv(m), None).unwrap();
    }
    let piece = xiangqi_rules::Piece::from_fen_char('P');
    g.play(Action::Flip(sq("a1")), piece).unwrap();
    assert_eq!(g.position().quiet, 0);
}

#[test]
fn the_end_checks_go_pieces_then_legal_turns_then_repetition_then_the_quiet_limit() {
    // No legal turn and the quiet limit on the same ply: the stuck seat loses. Red boxes the
    // black general on a1 with two soldiers (a general does not take a soldier) and nothing is
    // face down.
    let limit_one = Options {
        move_limit: QuietLimit(Some(1)),
        ..Options::default()
    };
    let mut g = drawn(
        ["K.......", "........", "P.......", "k.P....."],
        0,
        limit_one,
    );
    assert_eq!(
        play(&mut g, &["c1b1"]),
        Some(Ending::NoLegalMove { loser: 1 })
    );
    // A third occurrence on the ply the quiet limit is reached: the repetition's draw.
    let limit_eight = Options {
        move_limit: QuietLimit(Some(8)),
        ..Options::default()
    };
    let mut g = drawn(WALK, 0, limit_eight);
    play(&mut g, &WALK_CYCLE);
    assert_eq!(play(&mut g, &WALK_CYCLE), Some(Ending::Repetition));
    assert_eq!(g.position().quiet, 8);
    // A long chase on a third occurrence beats the repetition (above) and the limit.
    let both = Options {
        long_chase: true,
        ..limit_eight
    };
    let mut g = drawn(CHASE, 0, both);
    play(&mut g, &CHASE_CYCLE);
    assert_eq!(
        play(&mut g, &CHASE_CYCLE),
        Some(Ending::LongChase { loser: 0 })
    );
}

#[test]
fn a_chain_takes_two_or_three_pieces_in_one_turn() {
    let chains = Options {
        chain_captures: true,
        ..Options::default()
    };
    // A red horse on a1; a black cannon on b1, black soldiers on c1 and c2.
    let rows = ["????????", "????????", "..p?????", "Ncp?????"];
    let g = drawn(rows, 0, chains);
    assert!(
        legal(&g, "a1b1"),
        "one capture is a move, and the turn may stop there"
    );
    assert!(legal(&g, "a1b1c1"), "a chain of two");
    assert!(legal(&g, "a1xb1xc1xc2"), "a chain of three, written with x");
    assert_eq!(
        refusal(&g, "a1b1b2"),
        "b1b2: every move of a chain takes a piece, and b2 is empty"
    );
    assert!(
        refusal(&g, "a1b1c1d1").starts_with("c1d1: "),
        "{}",
        refusal(&g, "a1b1c1d1")
    );
    let mut played = g.clone();
    play(&mut played, &["a1b1c1c2"]);
    let turn = played.played().last().unwrap();
    let taken: String = turn.captures().map(|p| p.fen_char()).collect();
    assert_eq!(taken, "cpp");
    assert_eq!(played.position().quiet, 0);
    assert_eq!(played.position().rows()[2], "..N?????");
    assert_eq!(played.position().rows()[3], "...?????");
    assert_eq!(played.position().to_move, 1, "the chain is one turn");
    // Without the option a chain is refused and only single moves are listed.
    let single = drawn(rows, 0, Options::default());
    assert!(refusal(&single, "a1b1c1").contains("the rule option chain-captures is off"));
    assert!(!single
        .position()
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Chain(_))));
}

#[test]
fn a_chain_ends_with_a_piece_taken_face_down() {
    let rules = Options {
        chain_captures: true,
        cannon_takes_face_down: true,
        ..Options::default()
    };
    // A red cannon on a1 jumps b1 onto the black horse on c1, then from c1 jumps d1 onto the
    // face-down e1; nothing may follow a face-down capture.
    let rows = ["????????", "????????", "....p...", "C?nP?..."];
    let g = drawn(rows, 0, rules);
    assert!(legal(&g, "a1c1e1"));
    let e = refusal(&g, "a1c1e1e2");
    assert_eq!(e, "c1e1: a chain ends with a face-down piece taken");
    let mut g = g;
    let soldier = xiangqi_rules::Piece::from_fen_char('p');
    g.play(mv("a1c1e1"), soldier).unwrap();
    let turn = *g.played().last().unwrap();
    assert_eq!(turn.taken_face_down(), soldier);
    assert_eq!(turn.captures().count(), 2);
}
