//! The greedy built-in bot's measure of a Jieqi move: the most valuable capture, a face-down
//! piece counted as an average piece.

use jieqi_rules::Position;
use qijudge_xiangqi::bot::worth;
use xiangqi_rules::notation::parse_iccs;

/// Each legal move's score from the seat's view.
pub fn greedy_scores(view: &serde_json::Value, legal: &[String]) -> Vec<i32> {
    let Some(position) = view["position"]
        .as_str()
        .and_then(|p| Position::parse(p, true).ok())
    else {
        return vec![0; legal.len()];
    };
    legal
        .iter()
        .map(|m| {
            parse_iccs(m)
                .and_then(|m| position.cell(m.to))
                .map_or(0, |c| if c.hidden { 30 } else { worth(c.kind) })
        })
        .collect()
}
