//! The caption of a Liubo picture in Chinese (`--chinese`): the same facts as the English
//! caption, from the view's fields (not from its English sentences). Every character is in the
//! pictures' built-in typeface (a test checks it on the shipped samples).

use super::view::LiuboView;
use qijudge_protocol::files::Player;
use qijudge_view::chinese::reason;

/// A Liubo seat: 甲方 (a), 乙方 (b).
fn seat(name: &str) -> String {
    match name {
        "a" => "甲方".into(),
        "b" => "乙方".into(),
        other => other.into(),
    }
}

/// A piece letter: 甲方散子 / 甲方枭 (lower case a stone, upper case the owl).
fn piece(letter: &str) -> String {
    let kind = if letter.chars().all(|c| c.is_ascii_uppercase()) {
        "枭"
    } else {
        "散子"
    };
    format!("{}{kind}", seat(&letter.to_ascii_lowercase()))
}

/// The key under the text diagram, in Chinese.
const KEY: &str =
    "\n图例：站名:子。冒号后 a、b 为甲方、乙方的散子（aa：两子），A、B 为甲方、乙方的枭\n\
     （2:Ba：第2站上乙方枭与甲方散子）。站名：外圈1至20逆时针；十字道\n\
     6-A-B-X-C-D-16 与 11-R-S-X-T-U-1（站名 A、B 不是枭）。\n";

/// The text view in Chinese: the diagram, a Chinese key, and the state of play as the
/// picture's caption says it.
pub fn text(players: &[Player], v: &LiuboView) -> String {
    super::view::render_text_with(players, v, KEY, state(v))
}

/// The caption's lines.
pub fn caption(players: &[Player], v: &LiuboView) -> Vec<String> {
    let named = |s: &str| match players.iter().find(|p| p.seat == s) {
        Some(p) => format!("{}（{}）", seat(s), qijudge_view::text::clean(&p.name)),
        None => seat(s),
    };
    let audience = match v.audience.as_str() {
        "public" => "观众".to_string(),
        s => seat(s),
    };
    let mut out = vec![
        format!("{} 第{}回合", v.game, v.turns),
        format!("{audience}的视角"),
        format!(
            "{}蓝，{}红；O为枭，数字为一站上的子数",
            named("a"),
            named("b")
        ),
    ];
    out.extend(state(v));
    out
}

/// Liubo's state of play: reserves and prisoners, pieces on X, shortcut rights, the last turn
/// and its comment, the throw, and whose turn it is or the result.
pub fn state(v: &LiuboView) -> Vec<String> {
    let mut out = Vec::new();
    for s in ["a", "b"] {
        out.push(format!(
            "{}：备用{}子，俘{}子",
            seat(s),
            v.reserve.get(s).copied().unwrap_or(0),
            v.prisoners_held.get(s).copied().unwrap_or(0)
        ));
    }
    for x in &v.on_x {
        out.push(format!("X上：{}，沿X-{}前行", piece(&x.piece), x.towards));
    }
    if !v.shortcut_rights.is_empty() {
        out.push(format!(
            "捷径权（下一回合可用）：{}",
            v.shortcut_rights.join("、")
        ));
    }
    if let Some(last) = &v.last_turn {
        out.push(format!("上一回合：{} {}", seat(&last.seat), last.turn));
        if let Some(c) = &last.comment {
            out.push(format!(
                "{}留言：「{}」",
                seat(&last.seat),
                qijudge_view::text::clean(c)
            ));
        }
    }
    if let Some(c) = &v.closing {
        let verb = if c.action == "resign" {
            "认输"
        } else {
            "同意和棋"
        };
        out.push(format!("第{}回合：{}{verb}", c.ply, seat(&c.seat)));
    }
    if let Some(t) = &v.throw {
        let values: Vec<String> = t.values.iter().map(u8::to_string).collect();
        out.push(format!(
            "第{}掷（{}）：{}",
            t.t,
            seat(&t.seat),
            values.join("和")
        ));
    }
    match (&v.result, &v.to_move) {
        (Some(r), _) => out.push(match &r.winner {
            Some(w) => format!("终局：{}胜（{}）。", seat(w), reason(r.reason)),
            None => format!("终局：和棋（{}）。", reason(r.reason)),
        }),
        (None, Some(s)) => out.push(format!("轮到{}走。", seat(s))),
        (None, None) => out.push("等待掷具或揭示。".into()),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both samples' views (the judge throws; the players throw), every audience.
    #[test]
    fn the_samples_captions_are_chinese_and_drawn_from_the_font() {
        let words = "等待掷具或揭示。轮到甲方走。捷径权（下一回合可用）：X上：乙方枭，沿前行第掷和认输同意棋";
        qijudge_view::chinese::check_sample_captions(
            &["games/liubo/sample", "games/liubo/sample-self"],
            |view: &LiuboView| {
                let mut lines = caption(&[], view);
                lines.push(words.to_string());
                lines
            },
            |all| assert!(all.contains("回合") && all.contains("终局："), "{all}"),
            6,
        );
    }
}
