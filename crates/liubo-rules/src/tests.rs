//! Liubo rule tests: one per rule, ruling and option of `docs/liubo.md`, and the conformance
//! property over random playouts.

use super::notation::{parse_turn, write_move, write_turn};
use super::*;

fn st(name: &str) -> Station {
    Station::parse(name).unwrap()
}

/// A position: `a` and `b` list stones on stations (`"6"`, `"X"`, `"owl:X"`), the others stay in
/// reserve; `prisoners[s]` of seat s's stones are held by the opponent.
fn position(
    options: Options,
    mover: usize,
    a: &[&str],
    b: &[&str],
    prisoners: [usize; 2],
) -> Position {
    let mut p = Position::new(options, mover);
    for (seat, list) in [a, b].iter().enumerate() {
        for (i, spec) in list.iter().enumerate() {
            let (owl, name) = match spec.strip_prefix("owl:") {
                Some(n) => (true, n),
                None => (false, *spec),
            };
            p.stones[seat][i] = Stone {
                place: Place::On(st(name)),
                owl,
                heading: if name == "X" {
                    Some(Line::SixToSixteen)
                } else {
                    None
                },
                right_turn: None,
            };
        }
        for k in 0..prisoners[seat] {
            p.stones[seat][STONES_LAST - k].place = Place::Prisoner;
        }
    }
    p
}

const STONES_LAST: usize = position::STONES - 1;

fn moves_text(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(write_move).collect()
}

fn turn(p: &mut Position, throw: (u8, u8), text: &str) -> Vec<Event> {
    p.begin_turn(throw).unwrap();
    let moves = parse_turn(p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.play_turn(&moves).unwrap()
}

#[test]
fn entering_counts_station_1_as_the_first_step() {
    let mut p = Position::new(Options::default(), 0);
    p.begin_turn((3, 1)).unwrap();
    assert_eq!(moves_text(&p), vec!["1:in-1", "3:in-3"]);
    let events = p
        .play_turn(&parse_turn(&p, "3:in-3, 1:in-1").unwrap())
        .unwrap();
    assert!(events.is_empty());
    assert_eq!(p.on_board(0), 2);
    assert_eq!(p.to_move, 1);
}

#[test]
fn stones_go_counter_clockwise_round_the_rim_and_overtake() {
    let mut p = position(Options::default(), 0, &["19", "20"], &["1"], [0, 0]);
    p.begin_turn((3, 2)).unwrap();
    let m = moves_text(&p);
    assert!(m.contains(&"3:19-2".to_string()), "{m:?}");
    assert!(
        m.contains(&"2:20-2".to_string()),
        "overtakes, shares: {m:?}"
    );
    // Enemy stones neither block nor are taken by a stone.
    p.play_turn(&parse_turn(&p, "3:19-2, 2:20-2").unwrap())
        .unwrap();
    assert_eq!(p.stones[0][0].place, Place::On(st("2")));
    assert_eq!(p.stones[0][1].place, Place::On(st("2")));
    assert_eq!(p.stones[1][0].place, Place::On(st("1")));
}

#[test]
fn the_shortcut_is_open_only_on_the_next_turn_after_landing_exactly_on_6() {
    let mut p = position(Options::default(), 0, &["4", "15"], &["18"], [0, 0]);
    turn(&mut p, (2, 1), "2:4-6, 1:15-16");
    // The same turn could not have used it; the opponent moves.
    turn(&mut p, (1, 1), "1:18-19, 1:in-1");
    p.begin_turn((3, 2)).unwrap();
    let m = moves_text(&p);
    assert!(
        m.contains(&"2:6-B".to_string()) && m.contains(&"3:6-X".to_string()),
        "{m:?}"
    );
    assert!(m.contains(&"3:6-9".to_string()), "{m:?}");
    // Not taken this turn: the right lapses.
    p.play_turn(&parse_turn(&p, "2:6-8, 3:16-19").unwrap())
        .unwrap();
    let mut q = position(Options::default(), 0, &["4", "15"], &["18"], [0, 0]);
    turn(&mut q, (2, 1), "2:4-6, 1:15-16");
    turn(&mut q, (1, 1), "1:18-19, 1:in-1");
    let e = {
        let mut r = q.clone();
        r.begin_turn((1, 2)).unwrap();
        let first = parse_turn(&r, "1:16-17").unwrap();
        r.play(&first[0]).unwrap();
        parse_turn(&r, "2:17-19").unwrap_err().to_string()
    };
    assert!(e.contains("must move another piece"), "{e}");
    turn(&mut q, (1, 2), "1:16-17, 2:in-2");
    // Two turns later the stone on 6 has no right any more.
    turn(&mut q, (1, 1), "1:19-20, 1:1-2");
    q.begin_turn((3, 1)).unwrap();
    let m = moves_text(&q);
    assert!(
        m.contains(&"3:6-9".to_string()) && !m.contains(&"3:6-X".to_string()),
        "{m:?}"
    );
}

#[test]
fn a_right_earned_this_turn_cannot_be_used_this_turn() {
    let mut p = position(Options::default(), 0, &["5"], &["18"], [0, 0]);
    p.begin_turn((1, 3)).unwrap();
    let first = parse_turn(&p, "1:5-6").unwrap();
    p.play(&first[0]).unwrap();
    let m = moves_text(&p);
    assert!(!m.contains(&"3:6-X".to_string()), "{m:?}");
}

#[test]
fn the_cross_continues_round_the_rim_and_a_stone_may_stop_on_it() {
    let mut p = position(Options::default(), 0, &["C"], &["2"], [0, 0]);
    p.begin_turn((4, 1)).unwrap();
    let m = moves_text(&p);
    assert!(m.contains(&"4:C-18".to_string()), "C D 16 17 18: {m:?}");
    assert!(m.contains(&"1:C-D".to_string()));
}

#[test]
fn turning_at_x_is_an_option_for_stones() {
    let off = position(Options::default(), 0, &["B"], &["2"], [0, 0]);
    let on_opts = Options {
        turn_at_x_for_stones: true,
        ..Options::default()
    };
    let on = position(on_opts, 0, &["B"], &["2"], [0, 0]);
    for (mut p, turns) in [(off, false), (on, true)] {
        p.begin_turn((3, 3)).unwrap();
        let m = moves_text(&p);
        assert!(m.contains(&"3:B-D".to_string()));
        assert_eq!(m.contains(&"3:B-U".to_string()), turns, "{m:?}");
    }
}

#[test]
fn a_stone_ending_on_x_may_become_the_owl_when_its_owner_has_none() {
    let mut p = position(Options::default(), 0, &["B", "3"], &["2"], [0, 0]);
    p.begin_turn((1, 2)).unwrap();
    let m = moves_text(&p);
    assert!(
        m.contains(&"1:B-X".to_string()) && m.contains(&"1:B-X^".to_string()),
        "{m:?}"
    );
    let events = p
        .play_turn(&parse_turn(&p, "1:B-X^, 2:3-5").unwrap())
        .unwrap();
    assert!(events.contains(&Event::Promoted { seat: 0 }));
    assert!(p.stones[0][0].owl);
    // With an owl already, no second promotion.
    let mut q = position(Options::default(), 0, &["B", "owl:5"], &["2"], [0, 0]);
    q.begin_turn((1, 2)).unwrap();
    assert!(!moves_text(&q).contains(&"1:B-X^".to_string()));
    // Asked for anyway, the refusal says why (not that the move has no path).
    let e = parse_turn(&q, "1:B-X^").unwrap_err().to_string();
    assert!(
        e.contains("cannot promote: the player already has an owl"),
        "{e}"
    );
    // An owl's end it cannot reach with the value: the ends it can reach are listed.
    let e = parse_turn(&q, "2:owl:5-7").unwrap_err().to_string();
    assert!(
        e.contains("an owl's move is written with its whole path") && e.contains("2:owl:5-6-7"),
        "{e}"
    );
    let e = parse_turn(&q, "2:owl:5-15").unwrap_err().to_string();
    assert!(
        e.contains("the owl on 5 cannot end on 15 with a value of 2: it can end on"),
        "{e}"
    );
}

#[test]
fn the_owl_moves_any_way_but_never_straight_back() {
    let mut p = position(Options::default(), 0, &["owl:X", "10"], &["2"], [0, 0]);
    p.begin_turn((2, 1)).unwrap();
    let m = moves_text(&p);
    for path in ["2:owl:X-B-A", "2:owl:X-C-D", "2:owl:X-S-R", "2:owl:X-T-U"] {
        assert!(m.contains(&path.to_string()), "{path} in {m:?}");
    }
    assert!(!m.iter().any(|x| x.starts_with("2:owl:X-B-X")), "{m:?}");
    // Both values on the owl: the second may not start back along the first's last edge.
    let first = parse_turn(&p, "2:owl:X-B-A").unwrap();
    p.play(&first[0]).unwrap();
    let m = moves_text(&p);
    assert!(
        m.contains(&"1:owl:A-6".to_string()) && !m.contains(&"1:owl:A-B".to_string()),
        "{m:?}"
    );
}

#[test]
fn an_owl_takes_stones_prisoner_and_demotes_an_owl() {
    let mut p = position(
        Options::default(),
        0,
        &["owl:9", "1"],
        &["11", "11", "owl:X"],
        [0, 0],
    );
    let events = turn(&mut p, (2, 1), "2:owl:9-10-11, 1:1-2");
    assert!(events.contains(&Event::Prisoners {
        seat: 0,
        count: 2,
        at: st("11")
    }));
    assert_eq!(
        p.stones[1]
            .iter()
            .filter(|s| s.place == Place::Prisoner)
            .count(),
        2
    );
    let mut q = position(
        Options::default(),
        0,
        &["owl:S", "1"],
        &["X", "owl:X"],
        [0, 0],
    );
    let events = turn(&mut q, (1, 1), "1:owl:S-X, 1:1-2");
    assert!(events.contains(&Event::Demoted {
        seat: 1,
        at: Station::X
    }));
    assert!(events.contains(&Event::Prisoners {
        seat: 0,
        count: 1,
        at: Station::X
    }));
    assert!(q.stones[1].iter().all(|s| !s.owl));
}

#[test]
fn a_stone_ending_on_the_enemy_owl_wins_even_by_overtaking_onto_it() {
    // Overtaking onto the owl's station: the stone passes its own stone and ends on the owl.
    let mut p = position(Options::default(), 0, &["7", "8"], &["owl:9", "3"], [0, 0]);
    p.begin_turn((2, 3)).unwrap();
    let events = p.play_turn(&parse_turn(&p, "2:7-9").unwrap()).unwrap();
    assert!(events.contains(&Event::OwlCaptured {
        seat: 1,
        at: st("9")
    }));
    assert_eq!(
        p.result,
        Some(Outcome {
            winner: Some(0),
            reason: EndReason::OwlCaptured
        })
    );
    // Passing over the owl does nothing.
    let mut q = position(Options::default(), 0, &["8", "2"], &["owl:9", "3"], [0, 0]);
    turn(&mut q, (2, 1), "2:8-10, 1:2-3");
    assert!(q.result.is_none());
    // Entering onto it wins too.
    let mut r = position(Options::default(), 0, &["15"], &["owl:2"], [0, 0]);
    r.begin_turn((2, 1)).unwrap();
    r.play_turn(&parse_turn(&r, "2:in-2").unwrap()).unwrap();
    assert_eq!(r.result.unwrap().winner, Some(0));
}

#[test]
fn a_demoted_owl_re_enters_as_a_plain_stone() {
    let mut p = position(
        Options::default(),
        0,
        &["owl:S", "1"],
        &["owl:X", "5", "6"],
        [0, 0],
    );
    turn(&mut p, (1, 1), "1:owl:S-X, 1:1-2");
    let demoted = p.stones[1]
        .iter()
        .position(|s| s.place == Place::Reserve)
        .unwrap();
    assert!(!p.stones[1][demoted].owl);
    p.begin_turn((2, 1)).unwrap();
    let m = moves_text(&p);
    assert!(m.contains(&"2:in-2".to_string()), "{m:?}");
}

#[test]
fn a_prisoner_is_freed_on_reaching_1_or_only_on_passing_it() {
    let reach = position(Options::default(), 0, &["19", "5"], &["10"], [1, 0]);
    let passing_only = Options {
        release_on_reach: false,
        ..Options::default()
    };
    let pass = position(passing_only, 0, &["19", "5"], &["10"], [1, 0]);
    for (mut p, freed_on_reach) in [(reach, true), (pass, false)] {
        let events = turn(&mut p.clone(), (2, 1), "2:19-1, 1:5-6");
        assert_eq!(
            events.contains(&Event::Released { seat: 0 }),
            freed_on_reach
        );
        let events = turn(&mut p, (3, 1), "3:19-2, 1:5-6");
        assert!(
            events.contains(&Event::Released { seat: 0 }),
            "passing always frees"
        );
    }
    // Along the cross from U too; never by entering.
    let mut q = position(Options::default(), 0, &["U", "5"], &["10"], [1, 0]);
    assert!(turn(&mut q, (1, 1), "1:U-1, 1:5-6").contains(&Event::Released { seat: 0 }));
    let mut e = position(Options::default(), 0, &["5"], &["10"], [1, 0]);
    assert!(!turn(&mut e, (1, 2), "1:in-1, 2:5-7").contains(&Event::Released { seat: 0 }));
}

#[test]
fn a_freed_prisoner_may_enter_with_the_other_value() {
    let mut p = position(
        Options::default(),
        0,
        &["19", "19", "19", "19", "19"],
        &["10"],
        [1, 0],
    );
    p.begin_turn((2, 3)).unwrap();
    let first = parse_turn(&p, "2:19-1").unwrap();
    p.play(&first[0]).unwrap();
    assert!(moves_text(&p).contains(&"3:in-3".to_string()));
}

#[test]
fn five_stones_against_an_owl_lose_its_owner_the_game() {
    let mut p = position(
        Options::default(),
        0,
        &["owl:X", "2"],
        &["3", "5", "7", "12", "14"],
        [0, 0],
    );
    let events = turn(&mut p, (1, 1), "1:owl:X-C, 1:2-3");
    assert!(events.contains(&Event::Ended(Outcome {
        winner: Some(1),
        reason: EndReason::FiveStones
    })));
    // With four stones on the board the owl owner is safe.
    let mut q = position(
        Options::default(),
        0,
        &["owl:X", "2"],
        &["3", "5", "7", "12"],
        [0, 0],
    );
    turn(&mut q, (1, 1), "1:owl:X-C, 1:2-3");
    assert!(q.result.is_none());
}

#[test]
fn a_player_with_no_stone_in_play_loses() {
    let mut p = position(Options::default(), 0, &["owl:9", "1"], &["10"], [0, 5]);
    let events = turn(&mut p, (1, 1), "1:owl:9-10");
    assert!(events.contains(&Event::Ended(Outcome {
        winner: Some(0),
        reason: EndReason::NoPieces
    })));
    assert_eq!(p.turns, 1, "the rest of the turn is not played");
}

#[test]
fn a_single_stone_in_play_takes_both_values_and_otherwise_two_stones_move() {
    let mut p = position(Options::default(), 0, &["3"], &["10"], [5, 0]);
    p.begin_turn((2, 1)).unwrap();
    let t = p.legal_turns();
    assert!(
        t.iter().any(|moves| write_turn(moves) == "2:3-5, 1:5-6"),
        "{t:?}"
    );
    let mut q = position(Options::default(), 0, &["3"], &["10"], [4, 0]);
    q.begin_turn((2, 1)).unwrap();
    assert!(
        q.play_turn(&parse_turn(&q, "2:3-5, 1:5-6").unwrap_or_default())
            .is_err()
            || parse_turn(&q, "2:3-5, 1:5-6").is_err()
    );
    assert!(parse_turn(&q, "2:3-5, 1:in-1").is_ok());
}

#[test]
fn both_values_must_be_played() {
    let mut p = position(Options::default(), 0, &["3"], &["10"], [0, 0]);
    p.begin_turn((2, 1)).unwrap();
    let one = parse_turn(&p, "2:3-5").unwrap();
    assert!(p.play_turn(&one).is_err());
    assert!(
        parse_turn(&p, "2:3-5, 2:in-2").is_err(),
        "the second value is 1"
    );
}

#[test]
fn stones_capture_stones_when_the_option_is_on() {
    let opts = Options {
        stones_capture_stones: true,
        ..Options::default()
    };
    let mut p = position(opts, 0, &["7", "1"], &["9", "9"], [0, 0]);
    let events = turn(&mut p, (2, 1), "2:7-9, 1:1-2");
    assert!(events.contains(&Event::Prisoners {
        seat: 0,
        count: 2,
        at: st("9")
    }));
    let mut q = position(Options::default(), 0, &["7", "1"], &["9", "9"], [0, 0]);
    assert!(turn(&mut q, (2, 1), "2:7-9, 1:1-2").is_empty());
}

#[test]
fn doubles_give_another_throw_only_with_the_option() {
    let opts = Options {
        extra_throw_on_doubles: true,
        ..Options::default()
    };
    let mut p = position(opts, 0, &["3"], &["10"], [0, 0]);
    turn(&mut p, (4, 4), "4:3-7, 4:in-4");
    assert_eq!(p.to_move, 0);
    turn(&mut p, (2, 3), "2:7-9, 3:4-7");
    assert_eq!(p.to_move, 1);
    let mut q = position(Options::default(), 0, &["3"], &["10"], [0, 0]);
    turn(&mut q, (4, 4), "4:3-7, 4:in-4");
    assert_eq!(q.to_move, 1);
}

#[test]
fn the_ply_limit_draws() {
    let opts = Options {
        ply_limit: 2,
        ..Options::default()
    };
    let mut p = position(opts, 0, &["3"], &["10"], [0, 0]);
    turn(&mut p, (1, 1), "1:3-4, 1:in-1");
    assert!(p.result.is_none());
    turn(&mut p, (1, 1), "1:10-11, 1:in-1");
    assert_eq!(
        p.result,
        Some(Outcome {
            winner: None,
            reason: EndReason::PlyLimit
        })
    );
}

#[test]
fn refusals_say_why() {
    let mut p = position(Options::default(), 0, &["3"], &["10"], [0, 0]);
    p.begin_turn((2, 1)).unwrap();
    let e = parse_turn(&p, "3:3-6").unwrap_err().to_string();
    assert!(e.contains("no value 3"), "{e}");
    let e = parse_turn(&p, "2:3-4-6").unwrap_err().to_string();
    assert!(e.contains("cannot go on"), "{e}");
    let e = parse_turn(&p, "2:3-9").unwrap_err().to_string();
    assert!(
        e.contains("the stone on 3 cannot end on 9 with a value of 2: it can end on 5"),
        "{e}"
    );
    let e = parse_turn(&p, "2:owl:3-4-5").unwrap_err().to_string();
    assert!(e.contains("you have no owl on 3"), "{e}");
    let e = parse_turn(&p, "2:owl:3-5").unwrap_err().to_string();
    assert!(e.contains("you have no owl on 3"), "{e}");
    let e = parse_turn(&p, "2:7-9").unwrap_err().to_string();
    assert!(e.contains("you have no stone on 7"), "{e}");
    let e = parse_turn(&p, "two:3-5").unwrap_err().to_string();
    assert!(e.contains("1 to 4"), "{e}");
}

/// Random playouts: every generated move passes the single-move check, random candidates pass
/// it exactly when generated, every turn has a legal continuation, and games end.
#[test]
fn random_playouts_conform() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let stations: Vec<Station> = Station::all().collect();
    let mut ended = 0;
    for game in 0..300 {
        let opts = Options {
            ply_limit: 600,
            turn_at_x_for_stones: game % 3 == 1,
            stones_capture_stones: game % 4 == 2,
            extra_throw_on_doubles: game % 5 == 3,
            release_on_reach: game % 2 == 0,
            ..Options::default()
        };
        let mut p = Position::new(opts, (game % 2) as usize);
        while p.result.is_none() {
            let throw = (1 + next(4) as u8, 1 + next(4) as u8);
            p.begin_turn(throw).unwrap();
            while p.current_throw().is_some() && p.result.is_none() {
                let legal = p.legal_moves();
                assert!(!legal.is_empty(), "some piece can always take each value");
                for m in &legal {
                    assert_eq!(p.check_move(m), Ok(()), "{}", write_move(m));
                    // The written form reads back to the same move.
                    assert_eq!(parse_turn(&p, &write_move(m)).unwrap()[0], *m);
                }
                for _ in 0..6 {
                    let value = 1 + next(4) as u8;
                    let from = if next(3) == 0 {
                        None
                    } else {
                        Some(stations[next(29) as usize])
                    };
                    let path: Vec<Station> =
                        (0..value).map(|_| stations[next(29) as usize]).collect();
                    let base = &legal[next(legal.len() as u64) as usize];
                    for candidate in [
                        Move {
                            value,
                            from,
                            owl: next(2) == 0,
                            path,
                            promote: next(4) == 0,
                        },
                        Move {
                            promote: !base.promote,
                            ..base.clone()
                        },
                    ] {
                        assert_eq!(
                            p.check_move(&candidate).is_ok(),
                            legal.contains(&candidate),
                            "{candidate:?}"
                        );
                    }
                }
                let m = legal[next(legal.len() as u64) as usize].clone();
                p.play(&m).unwrap();
            }
            assert!(p.turns <= 600);
        }
        if p.result.unwrap().reason != EndReason::PlyLimit {
            ended += 1;
        }
    }
    eprintln!("{ended} of 300 playouts ended by the rules");
    assert!(ended > 100, "{ended} of 300 games ended by the rules");
}

/// The view lists a stone's shortcut right while its owner can use it: the same own-turn number
/// before the owner's throw and after it (the escrow judge throws before the player moves, and
/// the right earned for that turn must still show).
#[test]
fn a_usable_right_shows_before_and_after_the_throw() {
    let mut p = Position::new(Options::default(), 0);
    let before = p.usable_turn(0);
    assert_eq!(p.usable_turn(1), 1);
    p.begin_turn((1, 2)).unwrap();
    assert_eq!(p.usable_turn(0), before, "the mover's turn in progress");
    assert_eq!(p.usable_turn(1), 1, "the other seat's next turn");
}

/// Keywords are read in any case, as stations are: `IN-2`, `Owl:x-c`.
#[test]
fn turns_are_read_in_any_case() {
    let mut p = Position::new(Options::default(), 0);
    p.begin_turn((3, 1)).unwrap();
    let lower = parse_turn(&p, "3:in-3, 1:in-1").unwrap();
    assert_eq!(parse_turn(&p, "3:IN-3, 1:In-1").unwrap(), lower);
    let mut q = position(Options::default(), 0, &["owl:X"], &[], [0, 0]);
    q.begin_turn((1, 2)).unwrap();
    assert_eq!(
        parse_turn(&q, "1:OWL:x-c").unwrap(),
        parse_turn(&q, "1:owl:X-C").unwrap()
    );
}
