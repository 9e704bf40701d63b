//! The built-in bots (in-process, or behind `qijudge bot`): random moves, or the best by each
//! game's own measure.

use qijudge_engine::process::Bot;
use qijudge_engine::protocol::{BotFailure, BotView, Reply, Request};
use qijudge_rules::random::SplitMix64;
use std::io::{BufRead, Write};

/// The built-in bots by name: `random`, `greedy`.
pub fn builtin(name: &str) -> Option<Box<dyn Bot>> {
    builtin_seeded(name, 0)
}

/// A built-in bot whose choices start from `seed` (a setup request sets it again): a match
/// gives each game and seat its own, so games without a setup (Xiangqi) differ too.
pub fn builtin_seeded(name: &str, seed: u64) -> Option<Box<dyn Bot>> {
    let greedy = match name {
        "random" => false,
        "greedy" => true,
        _ => return None,
    };
    Some(Box::new(Builtin {
        greedy,
        rng: SplitMix64::new(seed),
    }))
}

/// Random moves, or greedy ones: the best by the game's own measure (each game's `bot.rs`).
struct Builtin {
    greedy: bool,
    rng: SplitMix64,
}

impl Bot for Builtin {
    fn ask(&mut self, request: &Request) -> Result<Reply, BotFailure> {
        match request {
            Request::Setup {
                game,
                seat,
                seed,
                board,
                ..
            } => {
                self.rng = SplitMix64::new(*seed);
                let game = qijudge_registry::by_name(game)
                    .map_err(|e| BotFailure::Garbage(e.to_string()))?;
                let setup = game
                    .random_setup(board, seat, &mut self.rng)
                    .map_err(|e| BotFailure::Garbage(e.to_string()))?;
                Ok(Reply {
                    setup: Some(setup),
                    ..Reply::default()
                })
            }
            Request::Move { view, legal, .. } => {
                if legal.is_empty() {
                    return Ok(Reply {
                        action: Some("resign".into()),
                        ..Reply::default()
                    });
                }
                let pick = match self.greedy {
                    false => self.rng.below(legal.len()),
                    true => {
                        // The game's own measure, found by the view's format.
                        let scores = qijudge_registry::registry::by_view_format(view.format())
                            .map_or_else(|| vec![0; legal.len()], |g| g.greedy_scores(view, legal));
                        self.best_of(&scores)
                    }
                };
                Ok(Reply {
                    action: Some(legal[pick].clone()),
                    ..Reply::default()
                })
            }
            Request::End { .. } => Ok(Reply::default()),
        }
    }

    fn tell(&mut self, _request: &Request) {}

    fn reads_view(&self) -> bool {
        self.greedy
    }
}

impl Builtin {
    /// The index of the highest score, ties broken at random.
    fn best_of(&mut self, scores: &[i32]) -> usize {
        let mut best = (i32::MIN, 0);
        for (i, score) in scores.iter().enumerate() {
            let s = score
                .saturating_mul(16)
                .saturating_add(self.rng.below(16) as i32);
            if s > best.0 {
                best = (s, i);
            }
        }
        best.1
    }
}

/// A request's fields other than the view.
#[derive(serde::Deserialize)]
struct WithoutView {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    legal: Vec<String>,
    #[serde(default)]
    time_ms: u64,
}

/// A move or end request read without its view, for a bot that never looks at it: the JSON
/// reader skips the view instead of building it (every ply's view holds the whole history).
/// Any other request, or a line that does not read so, is read in full.
fn without_view(line: &str) -> Option<Request> {
    let r: WithoutView = serde_json::from_str(line).ok()?;
    let view = BotView::Json(serde_json::Value::Null);
    match r.kind.as_str() {
        "move" => Some(Request::Move {
            view,
            legal: r.legal,
            time_ms: r.time_ms,
            clock: None,
        }),
        "end" => Some(Request::End { view }),
        _ => None,
    }
}

/// Serves a built-in bot over standard input and output (`qijudge bot NAME`).
pub fn serve(name: &str, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut bot = builtin(name).ok_or_else(|| {
        std::io::Error::other(format!("no built-in bot {name:?} (random, greedy)"))
    })?;
    for line in input.lines() {
        let line = line?;
        let request = match bot.reads_view() {
            true => None,
            false => without_view(&line),
        };
        let request = match request {
            Some(r) => r,
            None => serde_json::from_str(&line).map_err(std::io::Error::other)?,
        };
        if matches!(request, Request::End { .. }) {
            break;
        }
        let mut reply = bot
            .ask(&request)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        if !bot.reads_view() {
            reply.views = Some(false);
        }
        writeln!(output, "{}", serde_json::to_string(&reply)?)?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::serve;

    fn answers(bot: &str, input: &str) -> std::io::Result<String> {
        let mut out = Vec::new();
        serve(bot, input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_bot_that_ignores_views_answers_without_reading_them() {
        // The random bot answers from `legal` alone, whatever the view holds.
        let request = r#"{"type":"move","view":{"not":["a view",{"of":1}]},"legal":["a1-a2"],"time_ms":5,"clock":{"remaining_ms":{"red":9},"increment_ms":0}}"#;
        let input = format!("{request}\n{{\"type\":\"end\",\"view\":null}}\n");
        // It says so in its answer, so the runner sends it no more views.
        assert_eq!(
            answers("random", &input).unwrap(),
            "{\"move\":\"a1-a2\",\"views\":false}\n"
        );
        let light = super::without_view(request).unwrap();
        let super::Request::Move { legal, time_ms, .. } = light else {
            panic!("a move request")
        };
        assert_eq!((legal, time_ms), (vec!["a1-a2".to_string()], 5));
        // A line that is not a request is refused either way.
        assert!(answers("random", "{\"type\":\"move\",\"legal\":7}\n").is_err());
    }
}
