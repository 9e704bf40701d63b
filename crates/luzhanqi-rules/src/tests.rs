//! Rule tests: the reference's vectors, each rule, each option, and random-playout conformance.

use super::nodeset::NodeSet;
use super::options::*;
use super::random::{random_setup, SplitMix64};
use super::*;
use std::collections::BTreeSet;

const S: Seat = Seat(0);
const N: Seat = Seat(1);

fn sq(name: &str) -> Square {
    two_player()
        .square(name)
        .unwrap_or_else(|| panic!("no square {name}"))
}

/// A position from `(square, seat, piece)` triples.
fn position(options: Options, pieces: &[(&str, Seat, Piece)], to_move: Seat) -> Position {
    let mut p = Position::empty(two_player(), options);
    for &(name, seat, piece) in pieces {
        p.put(sq(name), Unit { seat, piece });
    }
    p.set_to_move(to_move);
    p
}

fn targets(p: &Position, from: &str) -> BTreeSet<String> {
    p.targets(sq(from))
        .iter()
        .map(|s| two_player().name_of(s).to_string())
        .collect()
}

fn names(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(str::to_string).collect()
}

fn mv(text: &str) -> Move {
    Move::parse(text, two_player()).unwrap()
}

#[test]
fn lone_piece_vectors_of_the_reference() {
    for (square, engineer, other) in [
        ("a2", 33, 15),
        ("a6", 32, 14),
        ("c6", 34, 8),
        ("c4", 8, 8),
        ("a1", 2, 2),
    ] {
        for (piece, expected) in [(Piece::Engineer, engineer), (Piece::Colonel, other)] {
            let p = position(Options::default(), &[(square, S, piece)], S);
            assert_eq!(
                p.targets(sq(square)).count(),
                expected,
                "{piece} on {square}"
            );
            assert_eq!(p.legal_moves().len(), expected as usize);
        }
    }
}

#[test]
fn slides_stop_at_the_first_piece() {
    let p = position(
        Options::default(),
        &[
            ("a2", S, Piece::Colonel),
            ("a5", S, Piece::Major),
            ("d2", N, Piece::Captain),
        ],
        S,
    );
    assert_eq!(targets(&p, "a2"), names("a1 a3 a4 b3 b2 c2 d2"));
    assert!(matches!(
        p.check_move(mv("a2-a6")),
        Err(MoveError::Unreachable { .. })
    ));
    assert!(matches!(
        p.check_move(mv("a2-e2")),
        Err(MoveError::Unreachable { .. })
    ));
    assert_eq!(p.check_move(mv("a2-d2")), Ok(()));
}

#[test]
fn non_engineers_do_not_turn_and_roads_do_not_extend_slides() {
    let p = position(Options::default(), &[("a2", S, Piece::Colonel)], S);
    assert!(
        !targets(&p, "a2").contains("e6"),
        "turning at e2 is for engineers"
    );
    assert!(
        !targets(&p, "a2").contains("c3"),
        "a road step after a slide"
    );
}

#[test]
fn engineers_find_paths_around_pieces() {
    // a3 and b2 block the direct ways; the engineer on a2 is boxed in on the railway.
    let boxed = position(
        Options::default(),
        &[
            ("a2", S, Piece::Engineer),
            ("a3", S, Piece::Major),
            ("b2", S, Piece::Major),
        ],
        S,
    );
    assert_eq!(targets(&boxed, "a2"), names("a1 b3"));
    // With b2 gone it goes round by rank 2 and file e up to the far side, and attacks the first enemy.
    let p = position(
        Options::default(),
        &[
            ("a2", S, Piece::Engineer),
            ("a3", S, Piece::Major),
            ("e9", N, Piece::Captain),
            ("c6", N, Piece::Major),
        ],
        S,
    );
    let t = targets(&p, "a2");
    for reachable in ["e2", "e8", "e9", "d6", "c6", "b6", "a6", "a7", "e7", "c7"] {
        assert!(
            t.contains(reachable),
            "{reachable} should be reachable: {t:?}"
        );
    }
    assert_eq!(p.check_move(mv("a2-a6")), Ok(()), "round by e6 and rank 6");
    assert_eq!(
        p.check_move(mv("a2-e10")),
        Ok(()),
        "e9 blocks file e, but rank 11 leads round"
    );
    assert!(!t.contains("b4"), "roads never end an engineer's slide");
}

#[test]
fn camps_shelter_and_can_be_entered_when_empty() {
    let p = position(
        Options::default(),
        &[
            ("c5", S, Piece::Colonel),
            ("c4", N, Piece::Major),
            ("b5", S, Piece::Captain),
        ],
        S,
    );
    let t = targets(&p, "c5");
    assert!(!t.contains("c4"), "an occupied camp cannot be attacked");
    assert!(t.contains("d5"), "an empty camp can be entered");
    assert_eq!(
        p.check_move(mv("c5-c4")),
        Err(MoveError::OccupiedCamp { to: "c4".into() })
    );
    assert_eq!(
        p.check_move(mv("c5-b5")),
        Err(MoveError::OwnPiece { to: "b5".into() })
    );
    // Attacking out of a camp is allowed.
    let q = position(
        Options::default(),
        &[("c4", S, Piece::Colonel), ("c5", N, Piece::Major)],
        S,
    );
    assert!(targets(&q, "c4").contains("c5"));
}

#[test]
fn mountains_have_no_edge() {
    let p = position(
        Options::default(),
        &[("b6", S, Piece::Colonel), ("d6", S, Piece::Major)],
        S,
    );
    assert_eq!(targets(&p, "b6"), names("b5 a6 c6"));
    assert!(!targets(&p, "d6").contains("d7"));
    // An engineer reaches d7 only the long way, over a crossing at c or e.
    let e = position(
        Options::default(),
        &[
            ("d6", S, Piece::Engineer),
            ("c7", N, Piece::Major),
            ("e7", N, Piece::Major),
        ],
        S,
    );
    assert!(!targets(&e, "d6").contains("d7"));
}

#[test]
fn flags_mines_and_headquarters_never_move() {
    let p = position(
        Options::default(),
        &[
            ("b1", S, Piece::Flag),
            ("a1", S, Piece::Landmine),
            ("d1", S, Piece::Colonel),
        ],
        S,
    );
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.check_move(mv("a1-a2")),
        Err(MoveError::Immobile {
            from: "a1".into(),
            piece: Piece::Landmine
        })
    );
    assert_eq!(
        p.check_move(mv("d1-d2")),
        Err(MoveError::InHeadquarters { from: "d1".into() })
    );
    assert_eq!(
        p.check_move(mv("c1-c2")),
        Err(MoveError::NotYourPiece { from: "c1".into() })
    );
    let free_hq = Options {
        headquarters_immobile: false,
        ..Options::default()
    };
    let q = position(free_hq, &[("d1", S, Piece::Colonel)], S);
    assert_eq!(targets(&q, "d1"), names("c1 e1 d2"));
}

#[test]
fn entering_the_enemy_headquarters_freezes_the_piece() {
    let mut p = position(
        Options::default(),
        &[
            ("b11", S, Piece::Colonel),
            ("a1", S, Piece::Major),
            ("e12", N, Piece::Captain),
        ],
        S,
    );
    p.play(mv("b11-b12")).unwrap();
    p.set_to_move(S);
    assert_eq!(
        p.check_move(mv("b12-b11")),
        Err(MoveError::InHeadquarters { from: "b12".into() })
    );
}

#[test]
fn flying_bombs_turn_like_engineers() {
    let p = position(Options::default(), &[("a2", S, Piece::Bomb)], S);
    assert_eq!(p.targets(sq("a2")).count(), 15);
    let flying = position(
        Options {
            flying_bombs: true,
            ..Options::default()
        },
        &[("a2", S, Piece::Bomb)],
        S,
    );
    assert_eq!(flying.targets(sq("a2")).count(), 33);
}

#[test]
fn regional_rail_rule_turns_within_three_steps() {
    let o = Options {
        rail_movement: RailMovement::Turns3,
        ..Options::default()
    };
    let p = position(o.clone(), &[("a2", S, Piece::Colonel)], S);
    assert_eq!(targets(&p, "a2"), names("a1 b3 a3 a4 a5 b2 c2 d2"));
    assert_eq!(p.check_move(mv("a2-d2")), Ok(()));
    assert!(p.check_move(mv("a2-e2")).is_err());
    let q = position(o.clone(), &[("a5", S, Piece::Colonel)], S);
    assert!(targets(&q, "a5").contains("b6"), "turns at a6");
    // Engineers keep their unlimited turns.
    let e = position(o, &[("a2", S, Piece::Engineer)], S);
    assert_eq!(e.targets(sq("a2")).count(), 33);
}

fn play_all(p: &mut Position, moves: &[&str]) -> Vec<Event> {
    moves
        .iter()
        .flat_map(|m| p.play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}")))
        .collect()
}

fn facts(events: &[Event]) -> Vec<Fact> {
    events.iter().map(|e| e.fact.clone()).collect()
}

#[test]
fn combat_outcomes_are_public_and_ranks_are_not() {
    let mut p = position(
        Options::default(),
        &[
            ("a5", S, Piece::Colonel),
            ("a7", N, Piece::Captain),
            ("b1", N, Piece::Major),
            ("e9", N, Piece::Major),
        ],
        S,
    );
    let events = p.play(mv("a5-a7")).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(
        events[0],
        Event::public(Fact::Moved {
            seat: S,
            from: sq("a5"),
            to: sq("a7"),
            outcome: Outcome::AttackerWon
        })
    );
    assert_eq!(
        p.at(sq("a7")),
        Some(Unit {
            seat: S,
            piece: Piece::Colonel
        })
    );
}

#[test]
fn combatants_visibility_tells_each_side_the_other_rank() {
    let o = Options {
        visibility: Visibility::Combatants,
        ..Options::default()
    };
    let mut p = position(
        o,
        &[
            ("a5", S, Piece::Colonel),
            ("a7", N, Piece::General),
            ("e9", N, Piece::Major),
            ("e1", S, Piece::Major),
        ],
        S,
    );
    let events = p.play(mv("a5-a7")).unwrap();
    assert!(events.contains(&Event::to_seat(
        N,
        Fact::Identified {
            seat: S,
            pieces: vec![(sq("a5"), Piece::Colonel)]
        }
    )));
    assert!(events.contains(&Event::to_seat(
        S,
        Fact::Identified {
            seat: N,
            pieces: vec![(sq("a7"), Piece::General)]
        }
    )));
    assert!(events
        .iter()
        .filter(|e| e.audience == Audience::Everyone)
        .all(|e| !matches!(e.fact, Fact::Identified { .. })));
}

#[test]
fn open_games_show_every_piece_to_everyone() {
    let b = two_player();
    let mut rng = SplitMix64::new(7);
    let setups = [random_setup(b, S, &mut rng), random_setup(b, N, &mut rng)];
    for (visibility, public_ids) in [
        (Visibility::Open, 2),
        (Visibility::Hidden, 0),
        (Visibility::Combatants, 0),
    ] {
        let o = Options {
            visibility,
            ..Options::default()
        };
        let (_, events) = Position::start(b, o, &setups, S);
        let public = events.iter().filter(|e| {
            e.audience == Audience::Everyone && matches!(e.fact, Fact::Identified { .. })
        });
        assert_eq!(public.count(), public_ids, "{visibility:?}");
    }
}

#[test]
fn marshal_death_reveals_the_flag_unless_the_option_is_off() {
    let pieces = [
        ("a5", S, Piece::Bomb),
        ("a7", N, Piece::Marshal),
        ("d12", N, Piece::Flag),
        ("e9", N, Piece::Major),
        ("e1", S, Piece::Major),
    ];
    let mut p = position(Options::default(), &pieces, S);
    let events = p.play(mv("a5-a7")).unwrap();
    assert!(facts(&events).contains(&Fact::FlagRevealed {
        seat: N,
        square: sq("d12")
    }));
    let mut q = position(
        Options {
            reveal_flag_on_marshal_death: false,
            ..Options::default()
        },
        &pieces,
        S,
    );
    let events = q.play(mv("a5-a7")).unwrap();
    assert!(!events
        .iter()
        .any(|e| matches!(e.fact, Fact::FlagRevealed { .. })));
}

#[test]
fn taking_the_flag_ends_the_game() {
    let mut p = position(
        Options::default(),
        &[
            ("b11", S, Piece::Engineer),
            ("b12", N, Piece::Flag),
            ("e9", N, Piece::Major),
        ],
        S,
    );
    let events = p.play(mv("b11-b12")).unwrap();
    let over = GameResult {
        winner: Some(S),
        reason: EndReason::FlagCaptured,
    };
    assert_eq!(events.last().unwrap().fact, Fact::GameOver(over));
    assert_eq!(p.result(), Some(over));
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.check_move(mv("e9-e8")), Err(MoveError::GameOver));
}

#[test]
fn a_bomb_on_the_flag_wins_or_dies_by_option() {
    let pieces = [
        ("b11", S, Piece::Bomb),
        ("b12", N, Piece::Flag),
        ("e9", N, Piece::Major),
        ("e1", S, Piece::Major),
    ];
    let mut p = position(Options::default(), &pieces, S);
    p.play(mv("b11-b12")).unwrap();
    assert_eq!(
        p.result(),
        Some(GameResult {
            winner: Some(S),
            reason: EndReason::FlagCaptured
        })
    );
    assert_eq!(p.at(sq("b12")), None);
    let mut q = position(
        Options {
            bomb_vs_flag: BombVsFlag::BombOnly,
            ..Options::default()
        },
        &pieces,
        S,
    );
    let events = q.play(mv("b11-b12")).unwrap();
    assert!(facts(&events).contains(&Fact::Moved {
        seat: S,
        from: sq("b11"),
        to: sq("b12"),
        outcome: Outcome::DefenderWon
    }));
    assert_eq!(q.result(), None);
    assert_eq!(q.at(sq("b12")).map(|u| u.piece), Some(Piece::Flag));
}

#[test]
fn mines_survive_or_explode_by_option() {
    let pieces = [
        ("a2", S, Piece::Colonel),
        ("a11", N, Piece::Landmine),
        ("e9", N, Piece::Major),
        ("e1", S, Piece::Major),
    ];
    let mut p = position(Options::default(), &pieces, S);
    p.play(mv("a2-a11")).unwrap();
    assert_eq!(p.at(sq("a11")).map(|u| u.piece), Some(Piece::Landmine));
    assert_eq!(p.at(sq("a2")), None);
    let mut q = position(
        Options {
            mines: MineRule::Explode,
            ..Options::default()
        },
        &pieces,
        S,
    );
    q.play(mv("a2-a11")).unwrap();
    assert_eq!(q.at(sq("a11")), None);
    let with_bomb = [
        ("a2", S, Piece::Bomb),
        ("a11", N, Piece::Landmine),
        ("e9", N, Piece::Major),
        ("e1", S, Piece::Major),
    ];
    let mut r = position(
        Options {
            only_engineers_clear_mines: true,
            ..Options::default()
        },
        &with_bomb,
        S,
    );
    r.play(mv("a2-a11")).unwrap();
    assert_eq!(r.at(sq("a11")).map(|u| u.piece), Some(Piece::Landmine));
    let mut t = position(Options::default(), &with_bomb, S);
    t.play(mv("a2-a11")).unwrap();
    assert_eq!(t.at(sq("a11")), None);
}

#[test]
fn carry_the_flag_home() {
    let o = Options {
        win: WinCondition::CarryFlag,
        ..Options::default()
    };
    let pieces = [
        ("b11", S, Piece::Colonel),
        ("b12", N, Piece::Flag),
        ("a9", N, Piece::Major),
        ("e9", N, Piece::Captain),
        ("e1", S, Piece::Major),
    ];
    let mut p = position(o.clone(), &pieces, S);
    let events = play_all(&mut p, &["b11-b12"]);
    assert!(facts(&events).contains(&Fact::FlagTaken {
        seat: N,
        carrier: sq("b12")
    }));
    assert_eq!(
        p.result(),
        None,
        "taking the flag does not end this variant"
    );
    // The carrier may leave the headquarters (nothing freezes); the flag's home is then reserved.
    play_all(&mut p, &["a9-b9", "b12-b11"]);
    assert_eq!(p.carrier(N), Some(sq("b11")));
    assert_eq!(p.check_move(mv("b9-b10")), Ok(()));
    p.play(mv("e9-e10")).unwrap();
    assert_eq!(
        p.check_move(mv("b11-b12")),
        Err(MoveError::ReservedHeadquarters { to: "b12".into() })
    );
    // Carrying it down the board to b1 wins.
    play_all(
        &mut p,
        &["b11-a11", "e10-e9", "a11-a2", "e9-e10", "a2-b2", "e10-e9"],
    );
    let events = p.play(mv("b2-b1")).unwrap();
    assert_eq!(
        events.last().unwrap().fact,
        Fact::GameOver(GameResult {
            winner: Some(S),
            reason: EndReason::FlagCarriedHome
        })
    );
}

#[test]
fn a_dead_carrier_sends_the_flag_home() {
    let o = Options {
        win: WinCondition::CarryFlag,
        ..Options::default()
    };
    let pieces = [
        ("b11", S, Piece::Colonel),
        ("b12", N, Piece::Flag),
        ("a9", N, Piece::General),
        ("e9", N, Piece::Captain),
        ("e1", S, Piece::Major),
    ];
    let mut p = position(o, &pieces, S);
    let events = play_all(&mut p, &["b11-b12", "e9-e8", "b12-a12", "a9-a10", "e1-e2"]);
    assert!(!facts(&events)
        .iter()
        .any(|f| matches!(f, Fact::FlagReturned { .. })));
    let events = play_all(&mut p, &["a10-a11", "e2-e3", "a11-a12"]);
    assert!(facts(&events).contains(&Fact::FlagReturned {
        seat: N,
        square: sq("b12")
    }));
    assert_eq!(
        p.at(sq("b12")),
        Some(Unit {
            seat: N,
            piece: Piece::Flag
        })
    );
    assert_eq!(p.carrier(N), None);
}

#[test]
fn no_legal_move_loses_or_draws_by_option() {
    // North has only a flag and a mine left: after South's move North cannot move.
    let pieces = [
        ("a5", S, Piece::Colonel),
        ("b12", N, Piece::Flag),
        ("a12", N, Piece::Landmine),
    ];
    let mut p = position(Options::default(), &pieces, S);
    p.play(mv("a5-a4")).unwrap();
    assert_eq!(
        p.result(),
        Some(GameResult {
            winner: Some(S),
            reason: EndReason::NoLegalMove
        })
    );
    let mut q = position(
        Options {
            no_legal_move: NoLegalMove::Draw,
            ..Options::default()
        },
        &pieces,
        S,
    );
    q.play(mv("a5-a4")).unwrap();
    assert_eq!(
        q.result(),
        Some(GameResult {
            winner: None,
            reason: EndReason::NoLegalMove
        })
    );
    // Both stuck: the last movable piece of each side disappears in one combat.
    let both = [
        ("a5", S, Piece::Colonel),
        ("a6", N, Piece::Colonel),
        ("b12", N, Piece::Flag),
        ("b1", S, Piece::Flag),
    ];
    let mut r = position(Options::default(), &both, S);
    r.play(mv("a5-a6")).unwrap();
    assert_eq!(
        r.result(),
        Some(GameResult {
            winner: None,
            reason: EndReason::NoMovablePieces
        })
    );
}

/// The CCGC attack-wait limit: before any combat the first mover must attack; after a combat,
/// the side that did not make it. When the limit's ply passes without one, that side loses.
#[test]
fn the_attack_wait_limit_loses_the_side_that_must_attack() {
    let pieces = [
        ("a5", S, Piece::Colonel),
        ("a6", S, Piece::Major),
        ("e9", N, Piece::Colonel),
        ("a7", N, Piece::Captain),
    ];
    let o = Options {
        attack_wait: 4,
        ..Options::default()
    };
    // No combat in four plies: south, the first mover, loses.
    let mut p = position(o.clone(), &pieces, S);
    play_all(&mut p, &["a5-a4", "e9-e10", "a4-a5"]);
    assert_eq!(p.result(), None);
    p.play(mv("e10-e9")).unwrap();
    assert_eq!(
        p.result(),
        Some(GameResult {
            winner: Some(N),
            reason: EndReason::AttackWait
        })
    );
    // South attacks at once (its major takes the captain): now north must attack, and four
    // quiet plies later north loses, though south made the last of them.
    let mut q = position(o.clone(), &pieces, S);
    play_all(&mut q, &["a6-a7", "e9-e10", "a5-a4", "e10-e9"]);
    assert_eq!(q.result(), None);
    q.play(mv("a4-a5")).unwrap();
    assert_eq!(
        q.result(),
        Some(GameResult {
            winner: Some(S),
            reason: EndReason::AttackWait
        })
    );
    // Off (0) by default; refused on the four-player board.
    assert_eq!(Options::default().attack_wait, 0);
    assert!(o.check_for_board(true).is_err());
}

#[test]
fn ply_limits_draw_the_game() {
    let pieces = [("a5", S, Piece::Colonel), ("e9", N, Piece::Colonel)];
    let o = Options {
        max_plies_without_combat: 3,
        ..Options::default()
    };
    let mut p = position(o, &pieces, S);
    play_all(&mut p, &["a5-a4", "e9-e10"]);
    assert_eq!(p.result(), None);
    p.play(mv("a4-a5")).unwrap();
    assert_eq!(
        p.result(),
        Some(GameResult {
            winner: None,
            reason: EndReason::PliesWithoutCombat
        })
    );
    let mut q = position(
        Options {
            max_plies: 2,
            ..Options::default()
        },
        &pieces,
        S,
    );
    play_all(&mut q, &["a5-a4", "e9-e10"]);
    assert_eq!(
        q.result(),
        Some(GameResult {
            winner: None,
            reason: EndReason::PlyLimit
        })
    );
    let mut r = position(Options::default(), &pieces, S);
    for _ in 0..10 {
        play_all(&mut r, &["a5-a4", "e9-e10", "a4-a5", "e10-e9"]);
    }
    assert_eq!(r.result(), None, "no limit by default");
}

#[test]
fn resignation_ends_the_game() {
    let mut p = position(
        Options::default(),
        &[("a5", S, Piece::Colonel), ("e9", N, Piece::Colonel)],
        S,
    );
    let events = p.concede(N, EndReason::Resignation).unwrap();
    assert_eq!(
        facts(&events),
        vec![
            Fact::Resigned { seat: N },
            Fact::GameOver(GameResult {
                winner: Some(S),
                reason: EndReason::Resignation
            })
        ]
    );
    assert_eq!(
        p.concede(S, EndReason::Resignation),
        Err(MoveError::GameOver)
    );
}

#[test]
fn move_notation_errors_are_precise() {
    let b = two_player();
    assert_eq!(Move::parse("a6-a9", b).unwrap().display(b), "a6-a9");
    // As people write it: a typographic dash, a space.
    for written in ["a6–a9", "a6—a9", "a6 a9", " a6  a9 ", "a6 – a9", "a6−a9"] {
        assert_eq!(
            Move::parse(written, b).unwrap().display(b),
            "a6-a9",
            "{written}"
        );
    }
    // On the cross board the refusal names how its squares are named.
    let cross = crate::board::cross_four();
    let why = Move::parse("a6-b5", cross).unwrap_err().to_string();
    assert!(
        why.starts_with("\"a6\" is not a square of this board (its squares: ")
            && why.contains("sa1 … se6")
            && why.contains("na1 … ne6"),
        "{why}"
    );
    assert_eq!(
        Move::parse("a6 a9 a8", b),
        Err(MoveError::Syntax("a6 a9 a8".into()))
    );
    assert_eq!(
        Move::parse("a6a9", b),
        Err(MoveError::Syntax("a6a9".into()))
    );
    assert_eq!(
        Move::parse("a6-a13", b),
        Err(MoveError::NoSuchSquare {
            name: "a13".into(),
            names: "a1 … e12".into()
        })
    );
    assert_eq!(
        Move::parse("f1-a1", b),
        Err(MoveError::NoSuchSquare {
            name: "f1".into(),
            names: "a1 … e12".into()
        })
    );
    assert_eq!(
        Move::parse("a6-a6", b),
        Err(MoveError::Syntax("a6-a6".into()))
    );
}

#[test]
fn position_files_round_trip() {
    let b = two_player();
    let mut rng = SplitMix64::new(3);
    let setups = [random_setup(b, S, &mut rng), random_setup(b, N, &mut rng)];
    let (mut p, _) = Position::start(b, Options::default(), &setups, S);
    for _ in 0..20 {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.apply_unchecked(moves[rng.below(moves.len())], &mut Vec::new());
    }
    let file = PositionFile::from_position(&p);
    let json = serde_json::to_string_pretty(&file).unwrap();
    let back: PositionFile = serde_json::from_str(&json).unwrap();
    let q = back.to_position().unwrap();
    assert_eq!(q.legal_moves(), p.legal_moves());
    assert_eq!(PositionFile::from_position(&q), file);
}

/// The options exercised by the random playouts.
fn option_variants() -> Vec<Options> {
    let d = Options::default;
    vec![
        d(),
        Options {
            mines: MineRule::Explode,
            only_engineers_clear_mines: true,
            ..d()
        },
        Options {
            flying_bombs: true,
            rail_movement: RailMovement::Turns3,
            ..d()
        },
        Options {
            win: WinCondition::CarryFlag,
            bomb_vs_flag: BombVsFlag::BombOnly,
            ..d()
        },
        Options {
            headquarters_immobile: false,
            visibility: Visibility::Combatants,
            no_legal_move: NoLegalMove::Draw,
            ..d()
        },
        Options {
            visibility: Visibility::Open,
            max_plies_without_combat: 31,
            reveal_flag_on_marshal_death: false,
            ..d()
        },
    ]
}

/// Random playouts from fixed seeds: generation and the single-move check agree on every
/// (from, to) pair; the Full viewer's knowledge folded from events equals the position;
/// the public never learns a rank; every game ends within the ply limit.
#[test]
fn random_playouts_conform() {
    let b = two_player();
    let games_per_variant = 350;
    let mut plies_total = 0;
    for (v, base) in option_variants().into_iter().enumerate() {
        for game in 0..games_per_variant {
            let mut rng = SplitMix64::new((v * 100_000 + game) as u64);
            let options = Options {
                max_plies: 400,
                ..base.clone()
            };
            let setups = [random_setup(b, S, &mut rng), random_setup(b, N, &mut rng)];
            let (mut p, mut events) =
                Position::start(b, options.clone(), &setups, Seat(rng.below(2) as u8));
            let mut full = Knowledge::new(Viewer::Full, b.len(), 2);
            let mut public = Knowledge::new(Viewer::Public, b.len(), 2);
            while p.result().is_none() {
                let moves = p.legal_moves();
                assert!(!moves.is_empty(), "a live game always has a move");
                if game % 4 == 0 {
                    let generated: BTreeSet<Move> = moves.iter().copied().collect();
                    for from in p.occupied_by(p.to_move()).iter() {
                        for to in 0..b.len() {
                            let m = Move { from, to };
                            if from != to {
                                assert_eq!(
                                    p.check_move(m).is_ok(),
                                    generated.contains(&m),
                                    "{} in {:?}",
                                    m.display(b),
                                    PositionFile::from_position(&p)
                                );
                            }
                        }
                    }
                }
                let m = moves[rng.below(moves.len())];
                let before = (p.occupied_by(S).count(), p.occupied_by(N).count());
                let mut step = Vec::new();
                p.apply_unchecked(m, &mut step);
                let after = (p.occupied_by(S).count(), p.occupied_by(N).count());
                assert!(
                    after.0 <= before.0 + 1 && after.1 <= before.1 + 1,
                    "pieces appear only as a returned flag"
                );
                events.append(&mut step);
                assert!(p.ply() <= 400);
            }
            full.observe_all(&events);
            public.observe_all(&events);
            for sq in 0..b.len() {
                let actual = p.at(sq).map(|u| (u.seat, Some(u.piece)));
                assert_eq!(
                    full.cells[sq].map(|s| (s.seat, s.piece)),
                    actual,
                    "full view at {}",
                    b.name_of(sq)
                );
                assert_eq!(
                    public.cells[sq].map(|s| s.seat),
                    p.at(sq).map(|u| u.seat),
                    "public owners at {}",
                    b.name_of(sq)
                );
            }
            if options.visibility != Visibility::Open {
                for e in events.iter().filter(|e| e.audience == Audience::Everyone) {
                    assert!(
                        !matches!(e.fact, Fact::Identified { .. }),
                        "a public event carries ranks: {e:?}"
                    );
                }
            }
            plies_total += p.ply();
        }
    }
    assert!(plies_total > 10_000);
}

#[test]
fn the_wide_set_gives_the_same_moves() {
    use super::nodeset::Wide;
    // The board the judge plays two-player games on.
    let wide = two_player_wide();
    let narrow = two_player();
    let mut rng = SplitMix64::new(11);
    let setups = [
        random_setup(narrow, S, &mut rng),
        random_setup(narrow, N, &mut rng),
    ];
    let (mut a, _) = Position::start(narrow, Options::default(), &setups, S);
    let (mut w, _) = Position::<Wide>::start(wide, Options::default(), &setups, S);
    while a.result().is_none() {
        let moves = a.legal_moves();
        assert_eq!(moves, w.legal_moves());
        let m = moves[rng.below(moves.len())];
        a.apply_unchecked(m, &mut Vec::new());
        w.apply_unchecked(m, &mut Vec::new());
    }
    assert_eq!(a.result(), w.result());
}

/// `setup --random` prints the drawn setup as rows: for every seat of both boards the rows read
/// back to the same, valid setup.
#[test]
fn random_setups_written_as_rows_read_back_the_same() {
    fn check<S: NodeSet>(board: &Board<S>) {
        for seat in board.seats() {
            for seed in 0..50 {
                let drawn = random_setup(board, seat, &mut SplitMix64::new(seed));
                let rows = drawn.to_rows_toml(board, seat);
                let read = Placement::from_toml(&rows, board, seat)
                    .and_then(|p| Setup::validate(board, seat, &p))
                    .unwrap_or_else(|e| {
                        panic!("{} seed {seed}: {e:?}\n{rows}", board.seat_name(seat))
                    });
                assert_eq!(read, drawn, "{rows}");
            }
        }
    }
    check(two_player());
    check(cross_four());
}
