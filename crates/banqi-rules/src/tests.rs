//! Banqi's rules: ranks and the soldier–general exception, the cannon's jump, face-down pieces,
//! the first turn-up deciding colours, the endings, the notation and the fair shuffle.

use super::position::{rank_of, takes, Position, Square};
use super::shuffle::{shuffle, Layout};
use super::{Action, Cell, Ending, Game, Options};
use xiangqi_rules::{Color, Kind, Piece};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn red(k: Kind) -> Piece {
    Piece::new(Color::Red, k)
}

fn black(k: Kind) -> Piece {
    Piece::new(Color::Black, k)
}

/// A game whose first turn turns up a red piece on `first` (first plays red), and whose second
/// turns up a black piece on `second`.
fn opened(first: (&str, Piece), second: (&str, Piece), options: Options) -> Game {
    let mut g = Game::new(options);
    g.play(Action::Flip(sq(first.0)), Some(first.1)).unwrap();
    g.play(Action::Flip(sq(second.0)), Some(second.1)).unwrap();
    g
}

#[test]
fn ranks_go_general_to_soldier_and_the_soldier_takes_the_general() {
    let order = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Chariot,
        Kind::Horse,
        Kind::Cannon,
        Kind::Pawn,
    ];
    for w in order.windows(2) {
        assert!(rank_of(w[0]) > rank_of(w[1]));
    }
    assert!(takes(Kind::Pawn, Kind::King));
    assert!(!takes(Kind::King, Kind::Pawn));
    assert!(takes(Kind::King, Kind::Advisor));
    assert!(takes(Kind::Chariot, Kind::Chariot));
    assert!(!takes(Kind::Horse, Kind::Chariot));
    assert!(!takes(Kind::Pawn, Kind::Cannon));
    assert!(takes(Kind::Horse, Kind::Cannon));
    // The cannon takes only by its jump.
    assert!(!takes(Kind::Cannon, Kind::Pawn));
}

#[test]
fn the_first_piece_turned_up_gives_its_turner_that_colour() {
    let mut g = Game::new(Options::default());
    assert_eq!(g.position().colours, None);
    // Only turn-ups before any piece is up.
    assert!(g
        .position()
        .legal_actions()
        .iter()
        .all(|a| matches!(a, Action::Flip(_))));
    g.play(Action::Flip(sq("d2")), Some(black(Kind::Horse)))
        .unwrap();
    assert_eq!(g.position().colours, Some([Color::Black, Color::Red]));
    assert_eq!(g.position().to_move, 1);
    // The second seat, red, cannot move the black horse.
    let e = g
        .position()
        .check(Action::Move(sq("d2"), sq("d3")))
        .unwrap_err();
    assert!(e.0.contains("not yours"), "{e}");
}

#[test]
fn pieces_step_one_square_and_take_by_rank() {
    let mut g = opened(
        ("a1", red(Kind::Horse)),
        ("h4", black(Kind::Chariot)),
        Options::default(),
    );
    let p = g.position().clone();
    // A face-up piece moves one square orthogonally; a face-down square is not a target.
    assert!(p.check(Action::Move(sq("a1"), sq("b2"))).is_err());
    assert!(p.check(Action::Move(sq("a1"), sq("a3"))).is_err());
    let e = p.check(Action::Move(sq("a1"), sq("a2"))).unwrap_err();
    assert!(e.0.contains("face-down piece cannot be taken"), "{e}");
    // Clear a2 and put the black chariot beside the red horse: the horse cannot take it.
    g.play(Action::Flip(sq("a2")), Some(red(Kind::Pawn)))
        .unwrap();
    let mut p = g.position().clone();
    p.to_move = 0;
    let e = p.check(Action::Move(sq("a1"), sq("a2"))).unwrap_err();
    assert!(e.0.contains("your own"), "{e}");
}

#[test]
fn a_cannon_takes_by_jumping_exactly_one_piece_at_any_distance() {
    // Red cannon on a1 (first), black soldier on e1 (second), a face-down screen between.
    let mut g = opened(
        ("a1", red(Kind::Cannon)),
        ("e1", black(Kind::Pawn)),
        Options::default(),
    );
    g.play(Action::Flip(sq("h1")), Some(red(Kind::Pawn)))
        .unwrap();
    g.play(Action::Flip(sq("h4")), Some(black(Kind::King)))
        .unwrap();
    let p = g.position();
    assert_eq!(p.to_move, 0);
    // b1 lies face down between a1 and c1 (both face down too): a1 jumps b1 onto c1, a
    // face-down piece, which it may not take without the option.
    let e = p.check(Action::Move(sq("a1"), sq("c1"))).unwrap_err();
    assert!(e.0.contains("cannon-takes-face-down is off"), "{e}");
    // Onto e1 over b1, c1, d1: three screens, not one.
    assert!(p.check(Action::Move(sq("a1"), sq("e1"))).is_err());
    // Adjacent: a cannon never takes by stepping.
    let legal = p.legal_actions();
    assert!(!legal.contains(&Action::Move(sq("a1"), sq("b1"))));
    // With the option the jump onto the face-down c1 is legal and takes whatever lies there.
    let options = Options {
        cannon_takes_face_down: true,
        ..Options::default()
    };
    let mut g = opened(
        ("a1", red(Kind::Cannon)),
        ("e1", black(Kind::Pawn)),
        options,
    );
    g.play(Action::Flip(sq("h1")), Some(red(Kind::Pawn)))
        .unwrap();
    g.play(Action::Flip(sq("h4")), Some(black(Kind::King)))
        .unwrap();
    let take = Action::Move(sq("a1"), sq("c1"));
    assert!(g.position().legal_actions().contains(&take));
    assert!(g.needs_identity(take));
    g.play(take, Some(red(Kind::Advisor))).unwrap();
    let last = g.played().last().unwrap();
    assert_eq!(last.captured, Some(red(Kind::Advisor)));
    assert!(last.captured_face_down);
    assert_eq!(
        g.position().cell(sq("c1")),
        Some(Cell::Up(red(Kind::Cannon)))
    );
}

#[test]
fn a_cannon_jumps_a_face_up_screen_onto_an_enemy_of_any_rank() {
    // Build a row: red cannon a4, screen b4, black general c4; everything else as it lies.
    let mut g = Game::new(Options::default());
    for (s, p) in [
        ("a4", red(Kind::Cannon)),
        ("c4", black(Kind::King)),
        ("b4", red(Kind::Pawn)),
        ("h1", black(Kind::Pawn)),
    ] {
        g.play(Action::Flip(sq(s)), Some(p)).unwrap();
    }
    assert_eq!(g.position().to_move, 0);
    assert_eq!(g.position().colour_of(0), Some(Color::Red));
    g.play(Action::Move(sq("a4"), sq("c4")), None).unwrap();
    assert_eq!(g.played().last().unwrap().captured, Some(black(Kind::King)));
}

#[test]
fn a_seat_whose_pieces_are_all_taken_loses() {
    // Play random legal games to the end on a real layout: every ending is one of the rules'.
    for seed in 0..20u64 {
        let layout = shuffle("bq-test", &seed.to_be_bytes(), &[7; 8]);
        let mut g = Game::new(Options::default());
        let mut rng = qijudge_rules::random::SplitMix64::new(seed);
        while g.ending().is_none() {
            let legal = g.position().legal_actions();
            let a = legal[rng.below(legal.len())];
            let id = g.needs_identity(a).then(|| layout.at(a.last_square()));
            g.play(a, id).unwrap();
            assert!(g.played().len() < 5000, "a game with the move limit ends");
        }
        match *g.ending().unwrap() {
            Ending::AllTaken { loser } => {
                let colour = g.position().colour_of(loser).unwrap();
                let taken = g
                    .played()
                    .iter()
                    .filter(|p| p.captured.is_some_and(|c| c.color == colour))
                    .count();
                assert_eq!(taken, 16);
            }
            Ending::NoLegalMove { loser } => {
                assert_eq!(g.position().to_move, loser);
                assert!(g.position().legal_actions().is_empty());
            }
            Ending::MoveLimit { plies } => assert_eq!(g.position().quiet, plies),
            Ending::Repetition => {
                let now = g.position();
                let repeats = g.positions().iter().filter(|p| p.repeats(now)).count();
                assert_eq!(repeats, 3);
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn no_more_of_a_piece_turns_up_than_there_are() {
    let mut g = Game::new(Options::default());
    g.play(Action::Flip(sq("a1")), Some(red(Kind::King)))
        .unwrap();
    let e = g
        .play(Action::Flip(sq("a2")), Some(red(Kind::King)))
        .unwrap_err();
    assert!(e.0.contains("only 1 general"), "{e}");
    // A flip needs what lies there; a plain move must not be given one.
    assert!(g.play(Action::Flip(sq("a2")), None).is_err());
}

#[test]
fn turns_read_as_squares_and_moves() {
    assert_eq!(Action::parse("c2"), Some(Action::Flip(sq("c2"))));
    assert_eq!(Action::parse("C2"), Some(Action::Flip(sq("c2"))));
    for t in ["c2c3", "c2-c3", "c2xc3", "C2C3"] {
        assert_eq!(
            Action::parse(t),
            Some(Action::Move(sq("c2"), sq("c3"))),
            "{t}"
        );
    }
    for t in ["", "c5", "i1", "c2c", "c2c3c", "c2c3c9", "二"] {
        assert_eq!(Action::parse(t), None, "{t}");
    }
    // A chain of captures: its squares in order (legal only with the chain-captures option).
    let chain = Action::parse("c2xc3xc4").unwrap();
    assert_eq!(chain.to_string(), "c2c3c4");
    assert_eq!(
        chain.steps(),
        vec![(sq("c2"), sq("c3")), (sq("c3"), sq("c4"))]
    );
    assert_eq!(Action::Move(sq("a1"), sq("h4")).to_string(), "a1h4");
    assert_eq!(
        Position::start(Options::default()).text(),
        "????????/????????/????????/???????? 0 -"
    );
}

#[test]
fn the_shuffle_is_a_permutation_fixed_by_both_nonces() {
    let a = shuffle("bq-x", &[1; 32], &[2; 32]);
    let mut got: Vec<char> = a.pieces.iter().map(|p| p.fen_char()).collect();
    let mut want: Vec<char> = Layout::standard()
        .pieces
        .iter()
        .map(|p| p.fen_char())
        .collect();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);
    assert_eq!(a, shuffle("bq-x", &[1; 32], &[2; 32]));
    assert_ne!(a, shuffle("bq-x", &[1; 32], &[3; 32]));
    assert_ne!(a, shuffle("bq-y", &[1; 32], &[2; 32]));
    // Its own domain: not Jieqi's stream.
    let mut jq = jieqi_rules::shuffle::Stream::new("bq-x", &[1; 32], &[2; 32]);
    let mut bq = jieqi_rules::shuffle::Stream::in_domain(
        super::shuffle::SHUFFLE_DOMAIN,
        "bq-x",
        &[1; 32],
        &[2; 32],
    );
    assert_ne!(jq.word(), bq.word());
}

#[test]
fn a_known_layout_for_other_implementers() {
    // The vector docs/banqi.md gives: game `bq-00000000000000000000000000000000`, the first
    // seat's nonce 32 bytes of 0x01, the second's 32 bytes of 0x02.
    let layout = shuffle("bq-00000000000000000000000000000000", &[1; 32], &[2; 32]);
    let text = layout.describe();
    assert_eq!(text.split(' ').count(), 32);
    assert_eq!(
        text,
        include_str!("../../../tests/data/banqi/shuffle-vector.txt").trim()
    );
}

/// Chi-squared over where the red general lands, across many nonces: every square equally
/// likely (31 degrees of freedom; 61.1 is the 0.999 quantile).
#[test]
fn the_shuffle_puts_a_piece_on_every_square_equally_often() {
    let trials = 32_000u32;
    let mut counts = [0u32; 32];
    for t in 0..trials {
        let layout = shuffle("bq-chi-squared", &t.to_be_bytes(), &[0x5a; 32]);
        let at = layout
            .pieces
            .iter()
            .position(|p| *p == red(Kind::King))
            .unwrap();
        counts[at] += 1;
    }
    let expected = trials as f64 / 32.0;
    let chi: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi < 61.1, "chi-squared {chi:.1}: {counts:?}");
}
