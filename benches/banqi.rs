//! Banqi rules speed: random-playout plies per second (each ply = list the legal turns, choose
//! one, play it with the end checks: the repetition search, the quiet-ply limit) on shuffled
//! layouts, and legal-turn listings per second on mid-game positions, under the default rules
//! and the option sets that cost more (chains, running chariots, the long chase). Run with
//! `cargo bench --bench banqi`.

use qijudge::games::banqi::rules::shuffle::shuffle;
use qijudge::games::banqi::rules::{Action, Game, Layout, Options, Position};
use std::hint::black_box;
use std::time::Instant;

/// A tiny deterministic generator (xorshift), so runs are comparable.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn identity(
    layout: &Layout,
    game: &Game,
    a: Action,
) -> Option<qijudge::games::xiangqi::rules::Piece> {
    game.needs_identity(a).then(|| layout.at(a.last_square()))
}

/// Plays `games` random games to their end: plies played, and positions seen at plies 20–60
/// for the listing figure.
fn playouts(options: Options, games: u64) -> (u64, f64, Vec<Position>) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut plies = 0;
    let mut sample = Vec::new();
    let t = Instant::now();
    for k in 0..games {
        let layout = shuffle("bq-bench", &k.to_be_bytes(), &[7; 8]);
        let mut g = Game::new(options);
        while g.ending().is_none() {
            let legal = g.position().legal_actions();
            let a = legal[rng.below(legal.len())];
            let id = identity(&layout, &g, a);
            black_box(g.play(a, id).is_ok());
            plies += 1;
            if (20..=60).contains(&g.played().len()) && k % 4 == 0 && sample.len() < 2000 {
                sample.push(g.position().clone());
            }
        }
    }
    (plies, t.elapsed().as_secs_f64(), sample)
}

fn measure(label: &str, options: Options) {
    let (plies, secs, sample) = playouts(options, 2000);
    let rounds = 200;
    let t = Instant::now();
    let mut listed = 0;
    for _ in 0..rounds {
        for p in &sample {
            listed += black_box(p).legal_actions().len();
        }
    }
    let list_secs = t.elapsed().as_secs_f64();
    println!(
        "{label:<44} playout {:>6.2} M plies/s ({plies} plies, {:.1} per game)   listing {:>6.2} M/s ({:.1} turns each)",
        plies as f64 / secs / 1e6,
        plies as f64 / 2000.0,
        (rounds * sample.len()) as f64 / list_secs / 1e6,
        listed as f64 / (rounds * sample.len()) as f64,
    );
}

fn main() {
    let default = Options::default();
    measure("default (move-limit 50, repetition)", default);
    measure(
        "no repetition rule (the rules before it)",
        Options {
            repetition: false,
            ..default
        },
    );
    measure(
        "move-limit 180",
        Options {
            move_limit: qijudge::games::banqi::rules::QuietLimit(Some(180)),
            ..default
        },
    );
    measure(
        "chain-captures, chariot-runs, long-chase",
        Options {
            chain_captures: true,
            chariot_runs: qijudge::games::banqi::rules::ChariotRuns::Free,
            long_chase: true,
            ..default
        },
    );
}
