//! The greedy built-in bot's measure of a Liubo turn: take the enemy owl with a stone, take
//! stones with the owl, promote, else move on.

/// Each legal turn's score from the seat's view.
pub fn greedy_scores(view: &serde_json::Value, legal: &[String]) -> Vec<i32> {
    let me = view["audience"].as_str().unwrap_or("a");
    let (enemy_stone, enemy_owl) = if me == "a" { ('b', 'B') } else { ('a', 'A') };
    let at = |station: &str| -> String {
        view["stations"][station]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    legal
        .iter()
        .map(|turn| {
            let mut score = 0;
            for mv in turn.split(',') {
                let owl = mv.contains("owl:");
                let end = mv
                    .rsplit('-')
                    .next()
                    .unwrap_or("")
                    .trim_end_matches('^')
                    .trim();
                let there = at(end);
                if !owl && there.contains(enemy_owl) {
                    score += 1000;
                }
                if owl {
                    score += 30 * there.chars().filter(|c| *c == enemy_stone).count() as i32;
                }
                if mv.ends_with('^') {
                    score += 20;
                }
            }
            score
        })
        .collect()
}
