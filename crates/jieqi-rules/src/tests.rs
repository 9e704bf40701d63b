//! Jieqi rule tests: face-down movement, reveals, each option, endings, and the shuffle's
//! fairness.

use super::position::{hidden_squares, Position};
use super::shuffle::{shuffle, Layout, Stream};
use super::{AdvisorsElephants, Game, Options};
use qijudge_rules::random::SplitMix64;
use xiangqi_rules::notation::parse_iccs;
use xiangqi_rules::{Color, Ending, Kind, Move, Square};

fn mv(text: &str) -> Move {
    parse_iccs(text).unwrap()
}

fn moves_of(p: &Position, from: &str) -> Vec<String> {
    let from = Square::parse(from).unwrap();
    let mut list: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| m.to.to_string())
        .collect();
    list.sort();
    list
}

fn confined() -> Options {
    Options {
        advisors_elephants: AdvisorsElephants::Confined,
        ..Options::default()
    }
}

#[test]
fn the_start_hides_all_but_the_kings_and_moves_like_xiangqi() {
    let p = Position::start(true);
    assert_eq!(
        p.text(),
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w"
    );
    // The same 44 moves as Xiangqi's start: face-down pieces move as their squares' pieces.
    assert_eq!(p.legal_moves().len(), 44);
    assert_eq!(Position::parse(&p.text(), true).unwrap(), p);
    // A face-down advisor keeps to the palace and a face-down elephant to its side, even when
    // revealed ones go anywhere.
    assert_eq!(moves_of(&p, "d0"), vec!["e1"]);
    assert_eq!(moves_of(&p, "c0"), vec!["a2", "e2"]);
}

#[test]
fn position_texts_are_read_strictly() {
    for (text, why) in [
        (
            "9/4R4/5k3/9/9/9/777777777777777777777777777777777777777/9/9/4K4 w",
            "more than 9",
        ),
        (
            "xx3333333333333333333333333333333333333333333333/9/9/9/9/9/9/9/9/4K4 w",
            "more than 9",
        ),
        ("4k4/9/9/9/9/9/9/9/X8/4K4 w", "not one of its start squares"),
        ("4k4/9/9/9/9/9/9/9/9/4K4", "expected the board"),
        ("4k4/9/9/9/9/9/9/9/9/9 w", "exactly one king"),
        ("4k4/9/9/9/9/9/9/9/9/K8 w", "the red king on a0"),
        ("4k4/9/9/9/9/9/9/9/9/4Q4 w", "not a piece letter"),
    ] {
        let err = Position::parse(text, true).unwrap_err().to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
}

#[test]
fn a_face_down_piece_moves_as_its_square_and_then_as_what_it_is() {
    let mut g = Game::new(Options::default());
    // The piece on b0 moves as a horse and turns out to be a chariot.
    g.play(mv("b0c2"), Some(Kind::Chariot)).unwrap();
    let c2 = g.position().cell(Square::parse("c2").unwrap()).unwrap();
    assert_eq!((c2.kind, c2.hidden), (Kind::Chariot, false));
    g.play(mv("a6a5"), Some(Kind::Pawn)).unwrap();
    // Now it slides like a chariot along rank 2 (c3 is a face-down piece of its own).
    assert!(moves_of(g.position(), "c2").contains(&"d2".to_string()));
    assert!(moves_of(g.position(), "c2").contains(&"g2".to_string()));
    assert_eq!(g.position().quiet, 0);
    // A face-up pawn moves forward only on its own side, and sideways too beyond the river.
    let p = Position::parse("P2k5/9/9/9/9/9/9/9/9/4K4 w", true).unwrap();
    assert_eq!(moves_of(&p, "a9"), vec!["b9"]);
    let p = Position::parse("4k4/9/9/9/9/9/9/9/9/P2K5 w", true).unwrap();
    assert_eq!(moves_of(&p, "a0"), vec!["a1"]);
}

#[test]
fn every_face_down_move_needs_its_identity_and_only_those() {
    let mut g = Game::new(Options::default());
    let err = g.play(mv("h2e2"), None).unwrap_err().to_string();
    assert!(err.contains("face down"), "{err}");
    let err = g
        .play(mv("e0e1"), Some(Kind::Pawn))
        .unwrap_err()
        .to_string();
    assert!(err.contains("already face up"), "{err}");
    let err = g
        .play(mv("h2e2"), Some(Kind::King))
        .unwrap_err()
        .to_string();
    assert!(err.contains("king"), "{err}");
    // Two advisors at most per side.
    g.play(mv("a3a4"), Some(Kind::Advisor)).unwrap();
    g.play(mv("a6a5"), Some(Kind::Pawn)).unwrap();
    g.play(mv("c3c4"), Some(Kind::Advisor)).unwrap();
    g.play(mv("c6c5"), Some(Kind::Pawn)).unwrap();
    let err = g
        .play(mv("e3e4"), Some(Kind::Advisor))
        .unwrap_err()
        .to_string();
    assert!(err.contains("only 2 advisors"), "{err}");
    // An illegal move is refused whatever identity comes with it.
    let err = g
        .play(mv("b0b5"), Some(Kind::Chariot))
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot move"), "{err}");
}

#[test]
fn revealed_advisors_and_elephants_go_anywhere_unless_confined() {
    let text = "4k4/9/9/9/9/2B1A4/9/9/9/3K5 w";
    let free = Position::parse(text, true).unwrap();
    assert_eq!(moves_of(&free, "e4"), vec!["d3", "d5", "f3", "f5"]);
    assert_eq!(moves_of(&free, "c4"), vec!["a2", "a6", "e2", "e6"]);
    let confined = Position::parse(text, false).unwrap();
    assert_eq!(moves_of(&confined, "e4"), Vec::<String>::new());
    assert_eq!(moves_of(&confined, "c4"), vec!["a2", "e2"]);
    // The elephant's eye still blocks.
    let blocked = Position::parse("4k4/9/9/9/1P7/2B6/9/9/9/3K5 w", true).unwrap();
    assert_eq!(moves_of(&blocked, "c4"), vec!["a2", "e2", "e6"]);
}

#[test]
fn a_free_advisor_gives_check_in_the_enemy_palace() {
    // The red advisor on d8 attacks e9 only when advisors are free.
    let text = "4k4/3A5/9/9/9/9/9/9/9/3K5 b";
    assert!(Position::parse(text, true).unwrap().is_check());
    assert!(!Position::parse(text, false).unwrap().is_check());
    // A face-down piece attacks as its role: black's face-down cannon on h7 screens through
    // h4's pawn... here, a face-down chariot on a9 checks a king on a-file? Kings stay in the
    // palace, so: the face-down horse on b9 guards d8 and c7.
    let p = Position::parse("1x2k4/9/9/9/9/9/9/9/9/4K4 w", true).unwrap();
    assert!(p.reaches(Square::parse("b9").unwrap(), Square::parse("c7").unwrap()));
    assert!(p.reaches(Square::parse("b9").unwrap(), Square::parse("d8").unwrap()));
}

#[test]
fn the_generator_agrees_with_the_single_move_check_in_random_games() {
    let mut rng = SplitMix64::new(7);
    for game in 0..60 {
        let options = if game % 2 == 0 {
            Options::default()
        } else {
            confined()
        };
        let layout = shuffle("jq-rules", &[game as u8; 32], &[1; 32]);
        let mut g = Game::new(options);
        for _ in 0..300 {
            if g.ending().is_some() {
                break;
            }
            let p = g.position().clone();
            let legal = p.legal_moves();
            for i in 0..90 {
                for j in 0..90 {
                    let m = Move {
                        from: Square::from_index(i).unwrap(),
                        to: Square::from_index(j).unwrap(),
                    };
                    assert_eq!(p.check_move(m).is_ok(), legal.contains(&m), "{m} in {p:?}");
                }
            }
            let m = legal[rng.below(legal.len())];
            let hidden = p.cell(m.from).unwrap().hidden;
            let revealed = hidden.then(|| layout.at(m.from).unwrap());
            g.play(m, revealed).unwrap();
        }
    }
}

fn from(text: &str, options: Options) -> Game {
    Game::from_position(Position::parse(text, options.free()).unwrap(), options)
}

#[test]
fn mate_and_stalemate_lose() {
    // Chariots on b8 (rank 8) and e1 (the e-file) box the black king on d9; a8-a9 mates.
    let mut g = from("3k5/RR7/9/9/9/9/9/9/4R4/4K4 w", Options::default());
    let ending = g.play(mv("a8a9"), None).unwrap().cloned();
    assert_eq!(
        ending,
        Some(Ending::Checkmate {
            loser: Color::Black
        })
    );
    assert!(g.play(mv("d9d8"), None).is_err());
    // Black to move, not in check, and every point it could go to attacked: it loses.
    let mut g = from("3k5/9/4R4/9/9/9/9/9/9/4K4 w", Options::default());
    let ending = g.play(mv("e7e8"), None).unwrap().cloned();
    assert_eq!(
        ending,
        Some(Ending::Stalemate {
            loser: Color::Black
        })
    );
}

#[test]
fn a_third_occurrence_draws_unless_one_side_checked_throughout() {
    // Kings step back and forth: a draw by repetition on the third occurrence.
    let mut g = Game::new(Options::default());
    let mut endings = Vec::new();
    for m in ["e0e1", "e9e8", "e1e0", "e8e9"].iter().cycle().take(8) {
        let before = g.position().clone();
        let played = g.play(mv(m), None);
        endings.push(
            played
                .unwrap_or_else(|e| panic!("{m}: {e} in {before:?}"))
                .cloned(),
        );
    }
    assert!(endings[..7].iter().all(Option::is_none));
    assert_eq!(endings[7], Some(Ending::Repetition));
    // Red's chariot checks along rank 9 and rank 8 in turn; the king steps between e9 and e8.
    let mut g = from("4k4/R8/9/9/9/9/9/9/9/3K5 w", Options::default());
    let plan = ["a8a9", "e9e8", "a9a8", "e8e9"];
    let mut last = None;
    for m in plan.iter().cycle().take(8) {
        let before = g.position().clone();
        last = g
            .play(mv(m), None)
            .unwrap_or_else(|e| panic!("{m}: {e} in {before:?}"))
            .cloned();
    }
    assert_eq!(last, Some(Ending::PerpetualCheck { loser: Color::Red }));
}

#[test]
fn the_move_limit_draws_after_120_plies_without_capture_or_reveal() {
    let with_limit = Options {
        move_limit: true,
        ..Options::default()
    };
    let mut p = Position::parse("4k4/9/9/9/9/9/9/9/9/3K5 w", true).unwrap();
    p.quiet = 118;
    let mut g = Game::from_position(p.clone(), with_limit);
    assert_eq!(g.play(mv("d0d1"), None).unwrap(), None);
    assert_eq!(g.play(mv("e9e8"), None).unwrap(), Some(&Ending::MoveLimit));
    // Off by default.
    let mut g = Game::from_position(p, Options::default());
    g.play(mv("d0d1"), None).unwrap();
    assert_eq!(g.play(mv("e9e8"), None).unwrap(), None);
    // A reveal resets the count, like a capture.
    let mut g = Game::new(with_limit);
    g.play(mv("e0e1"), None).unwrap();
    assert_eq!(g.position().quiet, 1);
    g.play(mv("a6a5"), Some(Kind::Pawn)).unwrap();
    assert_eq!(g.position().quiet, 0);
}

#[test]
fn the_shuffle_is_a_permutation_fixed_by_both_nonces_and_the_game() {
    let a = shuffle("jq-1", &[1; 32], &[2; 32]);
    assert_eq!(a, shuffle("jq-1", &[1; 32], &[2; 32]));
    assert_ne!(a, shuffle("jq-1", &[3; 32], &[2; 32]));
    assert_ne!(a, shuffle("jq-1", &[1; 32], &[3; 32]));
    assert_ne!(a, shuffle("jq-2", &[1; 32], &[2; 32]));
    let standard = Layout::standard();
    for side in 0..2 {
        let mut x = a.kinds[side].to_vec();
        let mut y = standard.kinds[side].to_vec();
        x.sort();
        y.sort();
        assert_eq!(x, y, "side {side} is not a rearrangement of its pieces");
    }
    // Known-answer vector, so other implementations can check theirs (docs/jieqi.md).
    assert_eq!(
        shuffle("jq-00000000000000000000000000000000", &[0; 32], &[0xff; 32]).describe(),
        KNOWN_ANSWER
    );
}

const KNOWN_ANSWER: &str = "a0=P b0=R c0=A d0=P f0=B g0=P h0=B i0=C b2=P h2=N a3=A c3=C e3=R g3=P i3=N a6=p c6=c e6=a g6=p i6=r b7=c h7=p a9=n b9=p c9=b d9=b f9=p g9=a h9=r i9=n";

#[test]
fn below_is_uniform_and_rejects_the_ragged_top() {
    let mut s = Stream::new("jq-x", &[0; 32], &[0; 32]);
    let mut counts = [0u32; 3];
    for _ in 0..30_000 {
        counts[s.below(3) as usize] += 1;
    }
    for c in counts {
        assert!((9_500..10_500).contains(&c), "{counts:?}");
    }
    assert_eq!(Stream::new("jq-x", &[0; 32], &[0; 32]).below(1), 0);
}

/// Pearson's chi-squared statistic of each start square's piece counts over `layouts`.
fn chi_squared_per_square(layouts: &[[[Kind; 15]; 2]]) -> Vec<(Square, f64)> {
    let standard = Layout::standard();
    let mut out = Vec::new();
    for color in [Color::Red, Color::Black] {
        let side = color.index();
        let squares = hidden_squares(color);
        for (k, &square) in squares.iter().enumerate() {
            let mut stat = 0.0;
            for kind in Kind::ALL.into_iter().filter(|k| *k != Kind::King) {
                let share =
                    standard.kinds[side].iter().filter(|x| **x == kind).count() as f64 / 15.0;
                let expected = share * layouts.len() as f64;
                let seen = layouts.iter().filter(|l| l[side][k] == kind).count() as f64;
                stat += (seen - expected).powi(2) / expected;
            }
            out.push((square, stat));
        }
    }
    out
}

/// The chi-squared value with 5 degrees of freedom (six kinds) exceeded with probability 1e-4.
const CHI2_5DF_P1E4: f64 = 25.74;

#[test]
fn the_shuffle_is_uniform_over_100_000_seeds() {
    let layouts: Vec<[[Kind; 15]; 2]> = (0..100_000u64)
        .map(|seed| {
            let mut red = [0u8; 32];
            red[..8].copy_from_slice(&seed.to_be_bytes());
            let black = [0x5a; 32];
            shuffle("jq-chi-squared", &red, &black).kinds
        })
        .collect();
    let stats = chi_squared_per_square(&layouts);
    let worst = stats.iter().map(|(_, s)| *s).fold(0.0, f64::max);
    println!("chi-squared over 100 000 shuffles: the worst of 30 start points {worst:.2}");
    for (square, stat) in stats {
        assert!(
            stat < CHI2_5DF_P1E4,
            "square {square}: chi-squared {stat:.1} over 100 000 shuffles"
        );
    }
    // The test can fail: Sattolo's variant (j below i, never i itself) is biased and caught.
    let biased: Vec<[[Kind; 15]; 2]> = (0..20_000u64)
        .map(|seed| {
            let mut red = [0u8; 32];
            red[..8].copy_from_slice(&seed.to_be_bytes());
            let mut stream = Stream::new("jq-chi-squared", &red, &[0x5a; 32]);
            let mut layout = Layout::standard();
            for side in layout.kinds.iter_mut() {
                for i in (1..15).rev() {
                    let j = stream.below(i as u32) as usize;
                    side.swap(i, j);
                }
            }
            layout.kinds
        })
        .collect();
    let caught = chi_squared_per_square(&biased);
    let worst = caught.iter().map(|(_, s)| *s).fold(0.0, f64::max);
    println!(
        "chi-squared of Sattolo's biased variant over 20 000 shuffles: worst point {worst:.0}"
    );
    assert!(worst > CHI2_5DF_P1E4);
}
