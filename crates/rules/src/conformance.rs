//! The conformance suite every registered game passes through the rules contract, as
//! board-game-rs and OpenSpiel run theirs on all their games: legal actions agree with the
//! single-action check, printed actions read back, replays are deterministic, an audience's
//! published view depends only on what it may see, chance outcomes are a distribution, returns
//! appear exactly at the end, and every random playout ends.
//!
//! Each game says which option sets it runs (its definition's `conform`); the registry's tests
//! run it on every game. Its controls play a small game written here, once
//! honest and once broken, and the broken ones must fail.

use crate::contract::{playout, Rules, Turn};
use crate::random::SplitMix64;

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
pub fn legal_actions_agree_with_the_check<R: Rules>(rules: &R, games: u64) {
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

/// The same seeds and choices give every audience the same published view, step by step.
pub fn replays_are_deterministic<R: Rules>(rules: &R, games: u64) {
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

/// A seat's published view is a function of the public view and its own secret: changing
/// every other seat's secret leaves it unchanged for as long as the public view agrees.
pub fn views_fold_only_what_their_audience_may_see<R: Rules>(rules: &R, games: u64) {
    for g in 0..games {
        for seat in 0..rules.seats() {
            let base = seeds(rules, g);
            let mut other = base.clone();
            for (i, s) in other.iter_mut().enumerate() {
                if i != seat {
                    *s ^= 0x9e37_79b9_7f4a_7c15;
                }
            }
            let (a, b) = (rules.start(&base), rules.start(&other));
            seat_cannot_tell_apart(rules, a, b, seat, g);
        }
    }
}

/// Plays the same random actions (seed `g`) on two states while their public views agree,
/// asserting that `seat`'s view agrees too: the seat cannot tell the two games apart.
pub fn seat_cannot_tell_apart<R: Rules>(
    rules: &R,
    mut a: R::State,
    mut b: R::State,
    seat: usize,
    g: u64,
) {
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
            || (matches!(rules.turn(&b), Turn::Seat(_)) && rules.check(&b, &action).is_err())
        {
            break;
        }
        rules.apply(&mut a, &action);
        rules.apply(&mut b, &action);
    }
}

/// The whole suite on one game's rules, `games` random games per check.
pub fn conformance<R: Rules>(rules: &R, games: u64) {
    legal_actions_agree_with_the_check(rules, games);
    replays_are_deterministic(rules, games);
    views_fold_only_what_their_audience_may_see(rules, games);
}

#[cfg(test)]
mod controls {
    use super::*;

    /// The controls' game: a pile of 9 stones, each turn takes 1 or 2, taking the last wins; each
    /// seat holds a secret digit from its seed that play never shows. `leak` publishes the other
    /// seat's digit in every seat's view; `lax` lets the check pass a take of 3.
    #[derive(Default)]
    struct Pile {
        leak: bool,
        lax: bool,
    }

    #[derive(Clone, Debug)]
    struct PileState {
        left: u32,
        taken: Vec<u32>,
        secrets: Vec<u64>,
    }

    impl Rules for Pile {
        type State = PileState;
        type Action = u32;

        fn name(&self) -> String {
            "pile".into()
        }
        fn seats(&self) -> usize {
            2
        }
        fn start(&self, seeds: &[u64]) -> PileState {
            PileState {
                left: 9,
                taken: Vec::new(),
                secrets: seeds.iter().map(|s| s % 10).collect(),
            }
        }
        fn turn(&self, s: &PileState) -> Turn {
            match s.left {
                0 => Turn::Over,
                _ => Turn::Seat(s.taken.len() % 2),
            }
        }
        fn legal_actions(&self, s: &PileState) -> Vec<u32> {
            (1..=2.min(s.left)).collect()
        }
        fn candidate_actions(&self, _: &PileState) -> Vec<u32> {
            (0..=4).collect()
        }
        fn check(&self, s: &PileState, take: &u32) -> Result<(), String> {
            let most = if self.lax { 3 } else { 2 };
            match *take {
                t if t == 0 || t > most => Err(format!("take 1 or 2, not {t}")),
                t if t > s.left => Err(format!("only {} left", s.left)),
                _ => Ok(()),
            }
        }
        fn chance_outcomes(&self, _: &PileState) -> Vec<(u32, f64)> {
            Vec::new()
        }
        fn apply(&self, s: &mut PileState, take: &u32) {
            s.left -= take;
            s.taken.push(*take);
        }
        fn write_action(&self, _: &PileState, take: &u32) -> String {
            take.to_string()
        }
        fn parse_action(&self, _: &PileState, text: &str) -> Result<u32, String> {
            text.parse().map_err(|_| format!("{text:?} is no number"))
        }
        fn information(&self, s: &PileState, viewer: Option<usize>) -> String {
            let own = viewer.map(|v| s.secrets[v]);
            let other = viewer.filter(|_| self.leak).map(|v| s.secrets[1 - v]);
            format!("{} {:?} {own:?} {other:?}", s.left, s.taken)
        }
        fn returns(&self, s: &PileState) -> Option<Vec<f64>> {
            let last = (s.left == 0).then(|| (s.taken.len() - 1) % 2)?;
            Some((0..2).map(|i| if i == last { 1.0 } else { -1.0 }).collect())
        }
    }

    fn fails(check: impl FnOnce() + std::panic::UnwindSafe) -> bool {
        std::panic::catch_unwind(check).is_err()
    }

    #[test]
    fn the_controls_game_passes_the_suite() {
        // 9 stones take 5 to 9 actions: the playout-length check asks for 10 and is not run here.
        legal_actions_agree_with_the_check(&Pile::default(), 8);
        views_fold_only_what_their_audience_may_see(&Pile::default(), 8);
    }

    #[test]
    fn a_view_that_shows_another_seat_s_secret_is_caught() {
        let leaky = Pile {
            leak: true,
            ..Pile::default()
        };
        assert!(fails(|| views_fold_only_what_their_audience_may_see(
            &leaky, 4
        )));
    }

    #[test]
    fn a_check_that_passes_an_illegal_action_is_caught() {
        let lax = Pile {
            lax: true,
            ..Pile::default()
        };
        assert!(fails(|| legal_actions_agree_with_the_check(&lax, 1)));
    }
}
