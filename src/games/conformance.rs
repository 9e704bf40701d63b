//! The conformance suite every game passes through the rules contract, as board-game-rs and
//! OpenSpiel run theirs on all their games: legal actions agree with the single-action check,
//! printed actions read back, replays are deterministic, a viewer's information depends only
//! on what it may see, chance outcomes are a distribution, returns appear exactly at the end,
//! and every random playout ends.

use super::banqi::rules::binding::BanqiRules;
use super::jieqi::rules::binding::JieqiRules;
use super::liubo::rules::binding::LiuboRules;
use super::luzhanqi::rules::binding::LuzhanqiRules;
use super::rules::{playout, Rules, Turn};
use super::xiangqi::rules::binding::XiangqiRules;
use crate::rules::luzhanqi::random::SplitMix64;

/// Actions a playout may take at most: each game below ends by its own rules well before.
const CAP: usize = 5_000;

fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    move |n| rng.below(n)
}

fn seeds<R: Rules>(rules: &R, base: u64) -> Vec<u64> {
    (0..rules.seats() as u64).map(|i| base * 31 + i).collect()
}

/// Every legal action passes the check and reads back from its text; every other candidate is
/// refused with a reason; chance outcomes sum to one; returns appear exactly at the end.
fn legal_actions_agree_with_the_check<R: Rules>(rules: &R, games: u64) {
    for g in 0..games {
        let mut state = rules.start(&seeds(rules, g));
        let mut pick = picker(g);
        for _ in 0..CAP {
            match rules.turn(&state) {
                Turn::Over => break,
                Turn::Chance => {
                    let outcomes = rules.chance_outcomes(&state);
                    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                    assert!(
                        (total - 1.0).abs() < 1e-9,
                        "{}: chance sums to {total}",
                        rules.name()
                    );
                    assert!(rules.legal_actions(&state).is_empty());
                    assert!(rules.returns(&state).is_none());
                    let a = outcomes[pick(outcomes.len())].0.clone();
                    rules.apply(&mut state, &a);
                }
                Turn::Seat(_) => {
                    assert!(
                        rules.returns(&state).is_none(),
                        "{}: returns before the end",
                        rules.name()
                    );
                    let legal = rules.legal_actions(&state);
                    assert!(
                        !legal.is_empty(),
                        "{}: a seat to move with no legal action",
                        rules.name()
                    );
                    for a in &legal {
                        assert_eq!(rules.check(&state, a), Ok(()), "{}: {a:?}", rules.name());
                        let text = rules.write_action(&state, a);
                        assert_eq!(
                            rules.parse_action(&state, &text).as_ref(),
                            Ok(a),
                            "{}: {text:?} does not read back",
                            rules.name()
                        );
                    }
                    for c in rules.candidate_actions(&state) {
                        if !legal.contains(&c) {
                            assert!(
                                rules.check(&state, &c).is_err(),
                                "{}: {c:?} passes the check but is not generated",
                                rules.name()
                            );
                        }
                    }
                    let a = legal[pick(legal.len())].clone();
                    rules.apply(&mut state, &a);
                }
            }
        }
        assert_eq!(
            rules.turn(&state),
            Turn::Over,
            "{}: game {g} did not end",
            rules.name()
        );
        let returns = rules.returns(&state).expect("returns at the end");
        assert_eq!(returns.len(), rules.seats());
        assert!(returns.iter().all(|r| [-1.0, 0.0, 1.0].contains(r)));
    }
}

/// The same seeds and choices give the same information to every viewer, step by step.
fn replays_are_deterministic<R: Rules>(rules: &R, games: u64) {
    for g in 0..games {
        let (first, actions) = playout(rules, &seeds(rules, g), CAP, picker(g));
        assert!(
            actions.len() >= 10,
            "{}: game {g} ended after {} actions",
            rules.name(),
            actions.len()
        );
        assert_eq!(
            rules.turn(&first),
            Turn::Over,
            "{}: game {g} did not end",
            rules.name()
        );
        let mut again = rules.start(&seeds(rules, g));
        for a in &actions {
            rules.apply(&mut again, a);
        }
        for viewer in (0..rules.seats()).map(Some).chain([None]) {
            assert_eq!(
                rules.information(&first, viewer),
                rules.information(&again, viewer),
                "{}: replay of game {g} differs for {viewer:?}",
                rules.name()
            );
        }
        assert_eq!(rules.returns(&first), rules.returns(&again));
    }
}

/// A seat's information is a function of the public information and its own secret: changing
/// every other seat's secret leaves it unchanged for as long as the public information agrees.
fn views_fold_only_what_their_audience_may_see<R: Rules>(rules: &R, games: u64) {
    for g in 0..games {
        for seat in 0..rules.seats() {
            let base = seeds(rules, g);
            let mut other = base.clone();
            for (i, s) in other.iter_mut().enumerate() {
                if i != seat {
                    *s ^= 0x9e37_79b9_7f4a_7c15;
                }
            }
            let mut a = rules.start(&base);
            let mut b = rules.start(&other);
            let mut pick = picker(g);
            for _ in 0..CAP {
                if rules.information(&a, None) != rules.information(&b, None) {
                    break;
                }
                assert_eq!(
                    rules.information(&a, Some(seat)),
                    rules.information(&b, Some(seat)),
                    "{}: seat {seat} sees a difference in others' secrets (game {g})",
                    rules.name()
                );
                let choices: Vec<R::Action> = match rules.turn(&a) {
                    Turn::Over => break,
                    Turn::Chance => rules
                        .chance_outcomes(&a)
                        .into_iter()
                        .map(|(x, _)| x)
                        .collect(),
                    Turn::Seat(_) => rules.legal_actions(&a),
                };
                let action = choices[pick(choices.len())].clone();
                if rules.turn(&b) != rules.turn(&a)
                    || (matches!(rules.turn(&b), Turn::Seat(_))
                        && rules.check(&b, &action).is_err())
                {
                    break;
                }
                rules.apply(&mut a, &action);
                rules.apply(&mut b, &action);
            }
        }
    }
}

fn conformance<R: Rules>(rules: &R, games: u64) {
    legal_actions_agree_with_the_check(rules, games);
    replays_are_deterministic(rules, games);
    views_fold_only_what_their_audience_may_see(rules, games);
}

fn luzhanqi(board: &str) -> LuzhanqiRules {
    let mut options = crate::rules::luzhanqi::Options::default();
    // A cap the rules enforce, so every random playout ends by rule.
    options.set("max-plies", "1500").unwrap();
    LuzhanqiRules::new(board, options).unwrap()
}

#[test]
fn two_player_luzhanqi_conforms() {
    conformance(&luzhanqi("2p"), 6);
}

#[test]
fn four_player_luzhanqi_conforms() {
    conformance(&luzhanqi("cross4"), 3);
}

#[test]
fn xiangqi_conforms() {
    let rules = XiangqiRules {
        options: crate::rules::xiangqi::Options {
            move_limit: true,
            ..Default::default()
        },
        ..Default::default()
    };
    conformance(&rules, 4);
}

#[test]
fn banqi_conforms_under_each_option() {
    for cannon_takes_face_down in [false, true] {
        let options = crate::games::banqi::rules::Options {
            cannon_takes_face_down,
            move_limit: true,
        };
        conformance(&BanqiRules { options }, 4);
    }
}

#[test]
fn jieqi_conforms_under_each_option() {
    use crate::rules::jieqi::{AdvisorsElephants, Captured, Options};
    // A piece taken face down shown to its captor alone is knowledge of another seat's
    // secret by the rules, which the generic check forbids: that option has its own test.
    for (captured, advisors_elephants) in [
        (Captured::Both, AdvisorsElephants::Free),
        (Captured::Nobody, AdvisorsElephants::Confined),
    ] {
        let options = Options {
            captured,
            advisors_elephants,
            move_limit: true,
        };
        conformance(&JieqiRules { options }, 4);
    }
}

#[test]
fn jieqi_shows_a_piece_taken_face_down_to_its_captor_alone() {
    use crate::rules::jieqi::{Captured, Options};
    let rules = JieqiRules {
        options: Options {
            captured: Captured::Captor,
            move_limit: true,
            ..Options::default()
        },
    };
    // Two layouts that differ only in what lies on b9 (and a9 or c9): red's piece on b2,
    // moving as a cannon over b7, takes the piece on b9 face down.
    let a = rules.start(&[3, 4]);
    let mut b = a.clone();
    let at = |s: &str| crate::rules::xiangqi::Square::parse(s).unwrap();
    let black = |sq: &str| {
        crate::rules::jieqi::position::hidden_squares(crate::rules::xiangqi::Color::Black)
            .iter()
            .position(|s| *s == at(sq))
            .unwrap()
    };
    let other = ["a9", "c9"]
        .into_iter()
        .find(|s| a.layout.at(at(s)) != a.layout.at(at("b9")))
        .unwrap();
    b.layout.kinds[1].swap(black("b9"), black(other));
    let (mut a, mut b) = (a, b);
    let take = rules.parse_action(&a, "b2b9").unwrap();
    for s in [&mut a, &mut b] {
        rules.apply(s, &take);
    }
    assert_eq!(rules.information(&a, None), rules.information(&b, None));
    assert_eq!(
        rules.information(&a, Some(1)),
        rules.information(&b, Some(1))
    );
    assert_ne!(
        rules.information(&a, Some(0)),
        rules.information(&b, Some(0))
    );
}

#[test]
fn liubo_conforms() {
    let mut options = crate::rules::liubo::Options::default();
    options.set("ply_limit", "400").unwrap();
    conformance(&LiuboRules { options }, 6);
}

#[test]
fn a_broken_check_is_caught() {
    // The suite can fail: rules whose check accepts one move too many are refused.
    struct Lax(XiangqiRules);
    impl Rules for Lax {
        type State = <XiangqiRules as Rules>::State;
        type Action = <XiangqiRules as Rules>::Action;
        fn name(&self) -> String {
            "lax".into()
        }
        fn seats(&self) -> usize {
            2
        }
        fn start(&self, s: &[u64]) -> Self::State {
            self.0.start(s)
        }
        fn turn(&self, s: &Self::State) -> Turn {
            self.0.turn(s)
        }
        fn legal_actions(&self, s: &Self::State) -> Vec<Self::Action> {
            self.0.legal_actions(s)
        }
        fn candidate_actions(&self, s: &Self::State) -> Vec<Self::Action> {
            self.0.candidate_actions(s)
        }
        fn check(&self, _: &Self::State, _: &Self::Action) -> Result<(), String> {
            Ok(())
        }
        fn chance_outcomes(&self, s: &Self::State) -> Vec<(Self::Action, f64)> {
            self.0.chance_outcomes(s)
        }
        fn apply(&self, s: &mut Self::State, a: &Self::Action) {
            self.0.apply(s, a)
        }
        fn write_action(&self, s: &Self::State, a: &Self::Action) -> String {
            self.0.write_action(s, a)
        }
        fn parse_action(&self, s: &Self::State, t: &str) -> Result<Self::Action, String> {
            self.0.parse_action(s, t)
        }
        fn information(&self, s: &Self::State, v: Option<usize>) -> String {
            self.0.information(s, v)
        }
        fn returns(&self, s: &Self::State) -> Option<Vec<f64>> {
            self.0.returns(s)
        }
    }
    let caught = std::panic::catch_unwind(|| {
        legal_actions_agree_with_the_check(&Lax(XiangqiRules::default()), 1)
    });
    assert!(caught.is_err());
}
