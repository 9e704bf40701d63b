//! Rule tests of the four-player cross board (rules reference §8): the board, movement through
//! the centre and round the curves, allies, turn order, elimination, team victory, visibility,
//! and random four-player playouts.

use super::board::cross_four;
use super::nodeset::{NodeSet, Wide};
use super::options::*;
use super::random::{random_setup, SplitMix64};
use super::*;
use std::collections::BTreeSet;

const S: Seat = Seat(0);
const E: Seat = Seat(1);
const N: Seat = Seat(2);
const W: Seat = Seat(3);

fn sq(name: &str) -> Square {
    cross_four()
        .square(name)
        .unwrap_or_else(|| panic!("no square {name}"))
}

fn position(options: Options, pieces: &[(&str, Seat, Piece)], to_move: Seat) -> Position<Wide> {
    let mut p = Position::empty(cross_four(), options);
    for &(name, seat, piece) in pieces {
        p.put(sq(name), Unit { seat, piece });
    }
    p.set_to_move(to_move);
    p
}

/// Every seat gets a flag in a headquarters, so nobody is out for want of one.
fn with_flags(pieces: &[(&'static str, Seat, Piece)]) -> Vec<(&'static str, Seat, Piece)> {
    let mut v = pieces.to_vec();
    v.extend([
        ("sb1", S, Piece::Flag),
        ("eb1", E, Piece::Flag),
        ("nb1", N, Piece::Flag),
        ("wb1", W, Piece::Flag),
    ]);
    v
}

fn targets(p: &Position<Wide>, from: &str) -> BTreeSet<String> {
    p.targets(sq(from))
        .iter()
        .map(|s| cross_four().name_of(s).to_string())
        .collect()
}

fn mv(text: &str) -> Move {
    Move::parse(text, cross_four()).unwrap()
}

fn facts(events: &[Event]) -> Vec<Fact> {
    events.iter().map(|e| e.fact.clone()).collect()
}

#[test]
fn the_cross_board_matches_the_reference() {
    let b = cross_four();
    assert_eq!((b.len(), b.edge_count, b.railway_count), (129, 288, 92));
    assert_eq!(b.rail_nodes.count(), 73);
    assert_eq!(b.camps.count(), 20);
    assert_eq!(b.headquarters.count(), 8);
    // Arm coordinates of §8: (r, c) → (x, y), with r = 6 − rank and c = file.
    for (name, x, y) in [
        ("na6", 10, 5),
        ("ne2", 6, 1),
        ("sa6", 6, 11),
        ("se1", 10, 16),
        ("wa6", 5, 6),
        ("we2", 1, 10),
        ("ea6", 11, 10),
        ("ee1", 16, 6),
        ("mc2", 8, 8),
        ("ma3", 6, 6),
    ] {
        assert_eq!(b.nodes[sq(name)].grid, Some((x, y)), "{name}");
    }
    // The centre: 9 railway nodes, joined in steps of 2; its corners lead into two arms.
    let centre: Vec<Square> = (0..b.len())
        .filter(|&i| b.nodes[i].seat.is_none())
        .collect();
    assert_eq!(centre.len(), 9);
    for &c in &centre {
        assert_eq!(
            b.adjacent[c], b.rail_adjacent[c],
            "centre nodes have only railways"
        );
    }
    let rail = |a: &str, z: &str| b.rail_adjacent[sq(a)].contains(sq(z));
    assert!(rail("ma3", "mc3") && rail("ma3", "ma2") && rail("ma3", "ne6") && rail("ma3", "wa6"));
    assert!(rail("mc2", "mc1") && rail("mc1", "sc6") && !rail("mc2", "ma3"));
    // The four curves join the ends of neighbouring arms' front rows.
    for (a, z) in [
        ("ne6", "wa6"),
        ("na6", "ee6"),
        ("we6", "sa6"),
        ("ea6", "se6"),
    ] {
        assert!(rail(a, z), "curve {a}~{z}");
    }
    // No road between arms: the b and d files of front rows meet nothing.
    assert_eq!(b.adjacent[sq("sb6")].count(), 3);
    assert!(b.allies(S, N) && b.allies(E, W) && !b.allies(S, E) && !b.allies(S, S));
    assert_eq!(b.team_of(W), vec![E, W]);
    assert_eq!(b.allies_of(W), vec![E]);
    assert!(crate::two_player().allies_of(S).is_empty());
    for seat in b.seats() {
        assert_eq!(b.halves[seat.index()].count(), 30);
    }
}

#[test]
fn broken_cross_data_is_refused() {
    let size = board::CROSS_FOUR_SIZE;
    let no_curve = board::CROSS_FOUR_DATA.replacen("\"ne6-wa6\", ", "", 1);
    assert!(Board::<Wide>::from_toml(&no_curve, &size)
        .unwrap_err()
        .contains("287 edges"));
    // A railway left off every line could never carry a straight slide.
    let line = "  [\"nc6\", \"mc3\", \"mc2\", \"mc1\", \"sc6\"],\n";
    assert!(board::CROSS_FOUR_DATA.contains(line));
    let no_line = board::CROSS_FOUR_DATA.replacen(line, "", 1);
    assert!(Board::<Wide>::from_toml(&no_line, &size)
        .unwrap_err()
        .contains("lies on no straight line"));
    let bad_team =
        board::CROSS_FOUR_DATA.replacen("[\"east\", \"west\"]", "[\"east\", \"south\"]", 1);
    assert!(Board::<Wide>::from_toml(&bad_team, &size)
        .unwrap_err()
        .contains("two teams"));
    // Node names are read inside moves (`from-to`): a dash would make them ambiguous.
    let dashed = board::CROSS_FOUR_DATA.replace("\"sa1\"", "\"s-a1\"");
    assert!(Board::<Wide>::from_toml(&dashed, &size)
        .unwrap_err()
        .contains("letters and digits"));
    // A board too big for the set type is refused, not truncated.
    assert!(Board::<u64>::from_toml(board::CROSS_FOUR_DATA, &size).is_err());
}

/// Destinations of a lone piece on the empty cross board, worked out by hand from §8:
/// 73 railway nodes in one network, so an engineer on the railway reaches the other 72 plus its
/// road neighbours; a non-engineer follows the straight lines, through the centre and round the
/// curves.
#[test]
fn lone_piece_vectors_on_the_cross_board() {
    for (square, engineer, other) in [
        // Centre: all 72 / the two centre lines (2 + 2 + 2 + 2).
        ("mc2", 72, 8),
        // Centre corner: the lines x = 6 and y = 6, both ways (5 + 7 + 5 + 7).
        ("ma3", 72, 24),
        // North's outer file, rank 4: up 2, down x = 6 (10), round the curve (5), 3 roads.
        ("ne4", 75, 20),
        // North's front-row end: row 4, file up 4, down x = 6 (8), curve 5, camp 1.
        ("ne6", 73, 22),
        // South's back rail corner: row 4, x = 6 line (12), the curve into West (5), 2 roads.
        ("sa2", 74, 23),
        // South's front-row middle: row 4, centre line to North's front (4), 3 roads.
        ("sc6", 75, 11),
        ("sc4", 8, 8),
        ("sa1", 2, 2),
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
fn non_engineers_go_straight_through_the_centre_and_round_the_curves() {
    let p = position(Options::default(), &[("sa4", S, Piece::Colonel)], S);
    let t = targets(&p, "sa4");
    // Round the curve into West's outer file, and straight through the centre into North.
    for reach in ["we6", "we2", "ma1", "ma3", "ne6", "ne2"] {
        assert!(t.contains(reach), "sa4 reaches {reach}");
    }
    // No turn at a centre corner nor at the end of a front row.
    for no in ["mc1", "mc3", "wd6", "nd6", "sb6"] {
        assert!(!t.contains(no), "sa4 does not reach {no}");
    }
    assert!(p.check_move(mv("sa4-we3")).is_ok());
    assert!(p.check_move(mv("sa4-mc1")).is_err());
    // The centre line x = 8 runs from front to front.
    let p = position(Options::default(), &[("sc6", S, Piece::Colonel)], S);
    assert!(p.check_move(mv("sc6-nc6")).is_ok());
    assert!(p.check_move(mv("sc6-ma2")).is_err());
}

#[test]
fn engineers_turn_at_the_centre_and_round_the_curves() {
    // The x = 6 line is blocked at ma1: the engineer goes round through mc1 or the curve.
    let p = position(
        Options::default(),
        &[("sa6", S, Piece::Engineer), ("ma1", E, Piece::Captain)],
        S,
    );
    let t = targets(&p, "sa6");
    for reach in ["ma1", "wa2", "ma3", "nc6", "ee2", "mc2"] {
        assert!(t.contains(reach), "engineer on sa6 reaches {reach}");
    }
    assert!(p.check_move(mv("sa6-wa2")).is_ok());
    // Walled in: its own pieces on sb6 and the curve's end, an enemy on ma1 (attackable).
    let p = position(
        Options::default(),
        &[
            ("sa6", S, Piece::Engineer),
            ("sb6", S, Piece::Captain),
            ("we6", S, Piece::Captain),
            ("ma1", E, Piece::Captain),
            ("sa5", S, Piece::Captain),
        ],
        S,
    );
    let t = targets(&p, "sa6");
    assert_eq!(t, ["ma1", "sb5"].iter().map(|s| s.to_string()).collect());
}

#[test]
fn allies_are_neither_attacked_nor_passed() {
    let p = position(
        Options::default(),
        &with_flags(&[
            ("sa4", S, Piece::Colonel),
            ("ma2", N, Piece::Captain),
            ("sa5", E, Piece::Captain),
            ("sb4", N, Piece::Major),
        ]),
        S,
    );
    assert_eq!(
        p.check_move(mv("sa4-sb4")),
        Err(MoveError::AllyPiece { to: "sb4".into() })
    );
    // Attacking the enemy on sa5 is allowed; nothing passes it.
    assert!(p.check_move(mv("sa4-sa5")).is_ok());
    let t = targets(&p, "sa4");
    assert!(!t.contains("sb4") && !t.contains("sa6"));
    // An engineer's path may not run through an ally either.
    let p = position(
        Options::default(),
        &with_flags(&[
            ("mc1", S, Piece::Engineer),
            ("ma1", N, Piece::Captain),
            ("mc2", N, Piece::Captain),
            ("me1", N, Piece::Captain),
            ("sc6", N, Piece::Captain),
        ]),
        S,
    );
    assert!(p.targets(sq("mc1")).is_empty());
    assert!(!p.has_legal_move(S));
}

#[test]
fn turns_go_counter_clockwise_or_clockwise_and_skip_players_who_are_out() {
    let pieces = with_flags(&[
        ("sc3", S, Piece::Captain),
        ("ec3", E, Piece::Captain),
        ("nc3", N, Piece::Captain),
        ("wc3", W, Piece::Captain),
    ]);
    let mut p = position(Options::default(), &pieces, S);
    let mut order = Vec::new();
    for m in ["sc3-sc4", "ec3-ec4", "nc3-nc4", "wc3-wc4"] {
        order.push(p.to_move());
        p.play(mv(m)).unwrap();
    }
    assert_eq!(order, [S, E, N, W]);
    assert_eq!(p.to_move(), S);
    let clockwise = Options {
        turn_order: TurnOrder::Clockwise,
        ..Options::default()
    };
    let mut p = position(clockwise, &pieces, S);
    let mut order = Vec::new();
    for m in ["sc3-sc4", "wc3-wc4", "nc3-nc4", "ec3-ec4"] {
        order.push(p.to_move());
        p.play(mv(m)).unwrap();
    }
    assert_eq!(order, [S, W, N, E]);
    // East resigns out of turn: it is out, its pieces leave, and its turns are skipped.
    let mut p = position(Options::default(), &pieces, S);
    let events = p.concede(E, EndReason::Resignation).unwrap();
    assert_eq!(
        facts(&events),
        [Fact::Eliminated {
            seat: E,
            reason: EndReason::Resignation
        }]
    );
    assert!(p.is_out(E) && p.occupied_by(E).is_empty() && p.result().is_none());
    p.play(mv("sc3-sc4")).unwrap();
    assert_eq!(p.to_move(), N);
    assert_eq!(
        p.concede(E, EndReason::Resignation),
        Err(MoveError::Out {
            seat: "east".into()
        })
    );
}

#[test]
fn a_lost_flag_puts_its_player_out_and_a_team_wins_when_both_are_out() {
    let mut p = position(
        Options::default(),
        &[
            ("sb1", S, Piece::Flag),
            ("nb1", N, Piece::Flag),
            ("eb1", E, Piece::Flag),
            ("ec1", E, Piece::Captain),
            ("ea3", E, Piece::Landmine),
            ("wb1", W, Piece::Flag),
            ("wb2", W, Piece::Captain),
            ("wc3", W, Piece::Captain),
            ("eb2", S, Piece::Engineer),
            ("wc2", N, Piece::Colonel),
            ("sc3", S, Piece::Major),
            ("nc3", N, Piece::Major),
        ],
        S,
    );
    // South's engineer takes East's flag: East is out, every East piece leaves (publicly).
    let events = p.play(mv("eb2-eb1")).unwrap();
    assert!(facts(&events).contains(&Fact::Eliminated {
        seat: E,
        reason: EndReason::FlagCaptured
    }));
    assert!(events.iter().all(|e| e.audience == Audience::Everyone));
    assert!(p.occupied_by(E).is_empty() && p.is_out(E));
    assert_eq!(p.at(sq("ea3")), None);
    assert_eq!(p.result(), None);
    // East is skipped: North moves next; it takes West's captain.
    assert_eq!(p.to_move(), N);
    p.play(mv("wc2-wb2")).unwrap();
    assert_eq!(p.to_move(), W);
    p.play(mv("wc3-wc4")).unwrap();
    p.play(mv("sc3-sc4")).unwrap();
    // North takes West's flag: both of the East-West team are out, North and South win.
    let events = p.play(mv("wb2-wb1")).unwrap();
    let result = GameResult {
        winner: Some(S),
        reason: EndReason::FlagCaptured,
    };
    assert_eq!(p.result(), Some(result));
    assert_eq!(facts(&events).last(), Some(&Fact::GameOver(result)));
}

#[test]
fn a_forfeit_puts_the_last_enemy_out_and_its_team_loses() {
    let mut p = position(
        Options::default(),
        &with_flags(&[("sc3", S, Piece::Major), ("wc3", W, Piece::Major)]),
        W,
    );
    p.concede(E, EndReason::Resignation).unwrap();
    assert_eq!(p.result(), None);
    p.concede(W, EndReason::Forfeit).unwrap();
    assert_eq!(
        p.result(),
        Some(GameResult {
            winner: Some(S),
            reason: EndReason::Forfeit
        })
    );
}

#[test]
fn taking_the_last_enemy_flag_wins_for_the_team() {
    let mut p = position(
        Options::default(),
        &[
            ("sb1", S, Piece::Flag),
            ("nb1", N, Piece::Flag),
            ("wb1", W, Piece::Flag),
            ("wb2", N, Piece::Engineer),
            ("sc3", S, Piece::Major),
        ],
        N,
    );
    p.concede(E, EndReason::Resignation).unwrap();
    let events = p.play(mv("wb2-wb1")).unwrap();
    let result = GameResult {
        winner: Some(S),
        reason: EndReason::FlagCaptured,
    };
    assert_eq!(p.result(), Some(result));
    assert_eq!(facts(&events).last(), Some(&Fact::GameOver(result)));
}

#[test]
fn a_player_without_a_legal_move_is_out() {
    // West has only its flag and a mine: when its turn comes it is out, and the turn passes on.
    let mut p = position(
        Options::default(),
        &with_flags(&[
            ("sc3", S, Piece::Captain),
            ("ec3", E, Piece::Captain),
            ("nc3", N, Piece::Captain),
            ("wa1", W, Piece::Landmine),
        ]),
        N,
    );
    let events = p.play(mv("nc3-nc4")).unwrap();
    assert!(facts(&events).contains(&Fact::Eliminated {
        seat: W,
        reason: EndReason::NoLegalMove
    }));
    assert_eq!(p.to_move(), S);
    assert!(p.occupied_by(W).is_empty());
}

#[test]
fn a_marshal_death_shows_its_owners_flag_to_everyone() {
    let mut p = position(
        Options::default(),
        &with_flags(&[
            ("sc3", S, Piece::Captain),
            ("eb2", E, Piece::Marshal),
            ("ec2", S, Piece::Bomb),
        ]),
        S,
    );
    let events = p.play(mv("ec2-eb2")).unwrap();
    assert!(events.contains(&Event::public(Fact::FlagRevealed {
        seat: E,
        square: sq("eb1")
    })));
}

#[test]
fn visibility_hidden_allies_or_open() {
    let b = cross_four();
    let mut rng = SplitMix64::new(5);
    let setups: Vec<Setup> = b.seats().map(|s| random_setup(b, s, &mut rng)).collect();
    for (visibility, south_known_to) in [
        (Visibility::Hidden, vec![Viewer::Seat(S)]),
        (Visibility::Allies, vec![Viewer::Seat(S), Viewer::Seat(N)]),
        (
            Visibility::Open,
            vec![
                Viewer::Seat(S),
                Viewer::Seat(E),
                Viewer::Seat(N),
                Viewer::Seat(W),
                Viewer::Public,
            ],
        ),
    ] {
        let options = Options {
            visibility,
            ..Options::default()
        };
        let (_, events) = Position::start(b, options.clone(), &setups, S);
        for viewer in b.seats().map(Viewer::Seat).chain([Viewer::Public]) {
            let mut k = Knowledge::for_game(viewer, b, &options);
            k.observe_all(&events);
            let knows = setups[0]
                .pieces
                .iter()
                .all(|&(q, piece)| k.cells[q].and_then(|c| c.piece) == Some(piece));
            let owners = setups[0]
                .pieces
                .iter()
                .all(|&(q, _)| k.cells[q].map(|c| c.seat) == Some(S));
            assert!(owners, "{viewer:?} sees where South stands");
            assert_eq!(
                knows,
                south_known_to.contains(&viewer),
                "{visibility:?} {viewer:?}"
            );
        }
    }
}

#[test]
fn options_are_checked_against_the_board() {
    let teams = Options::default();
    assert!(teams.check_for_board(true).is_ok());
    let carry = Options {
        win: WinCondition::CarryFlag,
        ..Options::default()
    };
    assert!(carry.check_for_board(true).unwrap_err().starts_with("win"));
    let draw = Options {
        no_legal_move: NoLegalMove::Draw,
        ..Options::default()
    };
    assert!(draw.check_for_board(true).is_err());
    let allies = Options {
        visibility: Visibility::Allies,
        ..Options::default()
    };
    assert!(allies.check_for_board(true).is_ok());
    assert!(allies.check_for_board(false).is_err());
    let clockwise = Options {
        turn_order: TurnOrder::Clockwise,
        ..Options::default()
    };
    assert!(clockwise.check_for_board(false).is_err());
}

#[test]
fn the_first_mover_option_names_a_seat_of_the_board() {
    let north = Options {
        first_mover: FirstMover::North,
        ..Options::default()
    };
    assert_eq!(Position::empty(cross_four(), north.clone()).to_move(), N);
    assert_eq!(Position::empty(two_player(), north).to_move(), Seat(1));
}

#[test]
fn draws_by_agreement_and_ply_limit() {
    let pieces = with_flags(&[
        ("sc3", S, Piece::Captain),
        ("ec3", E, Piece::Captain),
        ("nc3", N, Piece::Captain),
        ("wc3", W, Piece::Captain),
    ]);
    let limited = Options {
        max_plies: 3,
        ..Options::default()
    };
    let mut p = position(limited, &pieces, S);
    for m in ["sc3-sc4", "ec3-ec4", "nc3-nc4"] {
        p.play(mv(m)).unwrap();
    }
    assert_eq!(
        p.result(),
        Some(GameResult {
            winner: None,
            reason: EndReason::PlyLimit
        })
    );
    let mut p = position(Options::default(), &pieces, S);
    p.agree_draw().unwrap();
    assert_eq!(p.result().unwrap().winner, None);
}

/// The options exercised by the four-player playouts.
fn cross_variants() -> Vec<Options> {
    let d = Options::default;
    vec![
        d(),
        Options {
            visibility: Visibility::Allies,
            turn_order: TurnOrder::Clockwise,
            mines: MineRule::Explode,
            ..d()
        },
        Options {
            visibility: Visibility::Combatants,
            flying_bombs: true,
            rail_movement: RailMovement::Turns3,
            ..d()
        },
        Options {
            visibility: Visibility::Open,
            headquarters_immobile: false,
            bomb_vs_flag: BombVsFlag::BombOnly,
            ..d()
        },
    ]
}

/// Random four-player playouts: generation and the single-move check agree; every viewer's
/// knowledge, folded from the events it may see, agrees with the position where it may know it;
/// the public never learns a rank; seats out have no pieces and no turn.
#[test]
fn random_four_player_playouts_conform() {
    let b = cross_four();
    let (mut plies, mut finished, mut eliminations) = (0, 0, 0);
    for (v, base) in cross_variants().into_iter().enumerate() {
        for game in 0..40 {
            let mut rng = SplitMix64::new((v * 1000 + game) as u64);
            let options = Options {
                max_plies: 1200,
                ..base.clone()
            };
            let setups: Vec<Setup> = b.seats().map(|s| random_setup(b, s, &mut rng)).collect();
            let first = Seat(rng.below(4) as u8);
            let (mut p, mut events) = Position::start(b, options.clone(), &setups, first);
            while p.result().is_none() {
                let moves = p.legal_moves();
                assert!(!moves.is_empty(), "a live game always has a move");
                assert!(!p.is_out(p.to_move()));
                if game % 8 == 0 {
                    let generated: BTreeSet<Move> = moves.iter().copied().collect();
                    for from in p.occupied_by(p.to_move()).iter() {
                        for to in (0..b.len()).filter(|&to| to != from) {
                            let m = Move { from, to };
                            assert_eq!(p.check_move(m).is_ok(), generated.contains(&m));
                        }
                    }
                }
                // Now and then a player resigns instead of moving.
                if rng.below(400) == 0 {
                    let seat = p.to_move();
                    events.extend(p.concede(seat, EndReason::Resignation).unwrap());
                    continue;
                }
                let m = moves[rng.below(moves.len())];
                p.apply_unchecked(m, &mut events);
            }
            plies += p.ply();
            if p.result().is_some_and(|r| r.winner.is_some()) {
                finished += 1;
            }
            for seat in b.seats() {
                if p.is_out(seat) {
                    eliminations += 1;
                    assert!(p.occupied_by(seat).is_empty());
                }
            }
            for viewer in [Viewer::Full, Viewer::Public]
                .into_iter()
                .chain(b.seats().map(Viewer::Seat))
            {
                let mut k = Knowledge::for_game(viewer, b, &options);
                k.observe_all(&events);
                assert_eq!(k.result, p.result());
                for q in 0..b.len() {
                    let unit = p.at(q);
                    assert_eq!(
                        k.cells[q].map(|c| c.seat),
                        unit.map(|u| u.seat),
                        "owner at {}",
                        b.name_of(q)
                    );
                    let may_know = match (viewer, unit) {
                        (Viewer::Full, _) => true,
                        (Viewer::Seat(s), Some(u)) => {
                            u.seat == s
                                || options.visibility == Visibility::Open
                                || (options.visibility == Visibility::Allies && b.allies(s, u.seat))
                        }
                        (Viewer::Public, _) => options.visibility == Visibility::Open,
                        _ => false,
                    };
                    if may_know {
                        assert_eq!(k.cells[q].and_then(|c| c.piece), unit.map(|u| u.piece));
                    }
                }
                for s in b.seats() {
                    assert_eq!(k.out[s.index()], p.is_out(s));
                }
            }
            if options.visibility != Visibility::Open {
                for e in events.iter().filter(|e| e.audience == Audience::Everyone) {
                    assert!(!matches!(e.fact, Fact::Identified { .. }), "{e:?}");
                }
            }
        }
    }
    assert!(plies > 20_000, "{plies} plies");
    assert!(
        finished > 40 && eliminations > 100,
        "{finished} won, {eliminations} out"
    );
}

#[test]
fn knowledge_follows_the_turn_through_eliminations() {
    let b = cross_four();
    let mut rng = SplitMix64::new(9);
    let setups: Vec<Setup> = b.seats().map(|s| random_setup(b, s, &mut rng)).collect();
    for order in [TurnOrder::CounterClockwise, TurnOrder::Clockwise] {
        let options = Options {
            turn_order: order,
            ..Options::default()
        };
        let (mut p, mut events) = Position::start(b, options.clone(), &setups, E);
        for i in 0..300 {
            if p.result().is_some() {
                break;
            }
            if i == 50 {
                events.extend(p.concede(N, EndReason::Forfeit).unwrap());
            }
            let moves = p.legal_moves();
            p.apply_unchecked(moves[rng.below(moves.len())], &mut events);
            let mut k = Knowledge::for_game(Viewer::Public, b, &options);
            k.observe_all(&events);
            let expected = p.result().is_none().then(|| p.to_move());
            assert_eq!(k.to_move, expected, "ply {}", p.ply());
        }
    }
}

/// The cross board's straight rays run in all three orders of node numbers, so the random
/// playouts above, which check every generated move against the path search, cover each way
/// a slide finds its first occupied node (a bit scan up, a bit scan down, node by node).
#[test]
fn the_cross_boards_rays_run_in_every_order() {
    use crate::board::RayOrder;
    let orders: Vec<RayOrder> = cross_four()
        .straight
        .iter()
        .flatten()
        .map(|r| r.order)
        .collect();
    for order in [RayOrder::Rising, RayOrder::Falling, RayOrder::Mixed] {
        assert!(orders.contains(&order), "{order:?}");
    }
}
