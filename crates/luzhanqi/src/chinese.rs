//! The words of a Luzhanqi picture's caption in Chinese (`--chinese`): the same facts as
//! the English caption.

use super::view::ViewFile;
use luzhanqi_rules::Outcome;
use qijudge_view::chinese::{reason, seat};

/// A seat with its player's name: 南方（alice）.
fn seat_with_name(view: &ViewFile, name: &str) -> String {
    match view.players.iter().find(|p| p.seat == name) {
        Some(p) => format!("{}（{}）", seat(name), qijudge_view::text::clean(&p.name)),
        None => seat(name),
    }
}

fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Moved => "移动",
        Outcome::AttackerWon => "进攻方胜",
        Outcome::DefenderWon => "防守方胜",
        Outcome::BothRemoved => "同归于尽",
    }
}

/// The caption's lines: the game and ply, whose view, the players and their colours, then the
/// state of play (what [`super::text::state_lines`] says in English).
pub fn caption(view: &ViewFile, colours: &[(&str, &str)]) -> Vec<String> {
    let audience = match view.audience.as_str() {
        "public" => "观众".to_string(),
        "full" => "全局（终局后）".to_string(),
        s => seat_with_name(view, s),
    };
    let players: Vec<String> = view
        .players
        .iter()
        .map(|p| {
            let colour = colour(qijudge_view::text::colour_of(colours, &p.seat));
            format!("{}{colour}", seat_with_name(view, &p.seat))
        })
        .collect();
    let mut lines = vec![
        format!("{} 第{}步", view.game, view.ply),
        format!("{audience}的视角"),
        players.join("，"),
    ];
    lines.extend(state_lines(view));
    lines
}

fn colour(english: &str) -> &'static str {
    match english {
        "blue" => "蓝",
        "red" => "红",
        "dark blue" => "深蓝",
        "light blue" => "浅蓝",
        "dark red" => "深红",
        "orange" => "橙",
        _ => "",
    }
}

fn state_lines(view: &ViewFile) -> Vec<String> {
    let mut out = Vec::new();
    if !view.out.is_empty() {
        let seats: Vec<String> = view.out.iter().map(|s| seat(s)).collect();
        out.push(format!("已出局：{}。", seats.join("、")));
    }
    if let Some(m) = &view.last_move {
        let ply = super::text::last_board_ply(view);
        out.push(format!(
            "上一步（第{ply}步）：{} {}-{}（{}）",
            seat(&m.seat),
            m.from,
            m.to,
            outcome(m.outcome)
        ));
        if let Some(c) = &m.comment {
            out.push(format!(
                "{}留言：「{}」",
                seat(&m.seat),
                qijudge_view::text::clean(c)
            ));
        }
    }
    if let Some(c) = &view.closing {
        let verb = match c.action.as_str() {
            "resign" => "认输",
            "accept-draw" => "同意和棋",
            other => other,
        };
        out.push(format!("第{}步：{}{verb}", c.ply, seat(&c.seat)));
        if let Some(comment) = &c.comment {
            out.push(format!(
                "{}留言：「{}」",
                seat(&c.seat),
                qijudge_view::text::clean(comment)
            ));
        }
    }
    for f in &view.revealed_flags {
        out.push(format!("{}的军旗在 {}。", seat(&f.seat), f.square));
    }
    for f in &view.carried_flags {
        out.push(format!(
            "{}的军旗被 {} 上的棋子扛着。",
            seat(&f.seat),
            f.square
        ));
    }
    if let (Some(last), None) = (view.history.last(), &view.result) {
        if last.draw_offered {
            out.push(format!(
                "{}提和（accept-draw 同意，或继续走棋）。",
                seat(&last.seat)
            ));
        }
    }
    match (&view.result, &view.to_move) {
        (Some(r), _) => {
            let why = reason(r.reason);
            match &r.winner {
                Some(w) if !r.allies.is_empty() => {
                    let allies: Vec<String> = r.allies.iter().map(|s| seat(s)).collect();
                    out.push(format!(
                        "终局：{}和{}胜（{why}）。",
                        seat(w),
                        allies.join("和")
                    ));
                }
                Some(w) => out.push(format!("终局：{}胜（{why}）。", seat(w))),
                None => out.push(format!("终局：和棋（{why}）。")),
            }
        }
        (None, Some(t)) => out.push(format!("轮到{}走（第{}步）。", seat(t), view.ply + 1)),
        (None, None) => out.push("等待布阵。".into()),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use qijudge_view::chinese::check_sample_captions;

    #[test]
    fn the_samples_captions_are_chinese_and_drawn_from_the_font() {
        check_sample_captions(
            &["games/luzhanqi/sample", "games/luzhanqi/sample-4p"],
            |view: &ViewFile| caption(view, &[("south", "blue"), ("north", "red")]),
            |all| assert!(all.contains("第") && all.contains("终局："), "{all}"),
            8,
        );
    }
}
