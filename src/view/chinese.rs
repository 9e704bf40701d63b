//! The words of a Luzhanqi picture's caption in Chinese (`--chinese`): the same facts as the
//! English caption ([`super::text::state_lines`]), from the view alone. Every character used
//! here is in the pictures' built-in typeface (a test checks it).

use super::ViewFile;
use crate::rules::luzhanqi::Outcome;
use crate::rules::EndReason;

/// A seat's name: 南方, 北方, 东方, 西方 (Luzhanqi), 红方, 黑方 (Xiangqi, Jieqi), 先手, 后手
/// (Banqi).
pub fn seat(name: &str) -> String {
    match name {
        "south" => "南方".into(),
        "north" => "北方".into(),
        "east" => "东方".into(),
        "west" => "西方".into(),
        "red" => "红方".into(),
        "black" => "黑方".into(),
        "first" => "先手".into(),
        "second" => "后手".into(),
        other => other.into(),
    }
}

/// A seat with its player's name: 南方（alice）.
fn seat_with_name(view: &ViewFile, name: &str) -> String {
    match view.players.iter().find(|p| p.seat == name) {
        Some(p) => format!("{}（{}）", seat(name), super::text::clean(&p.name)),
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

/// Why a game ended, in a few characters.
pub fn reason(r: EndReason) -> &'static str {
    match r {
        EndReason::FlagCaptured => "夺旗",
        EndReason::FlagCarriedHome => "扛旗回营",
        EndReason::NoLegalMove => "无棋可走",
        EndReason::NoMovablePieces => "无子可动",
        EndReason::PliesWithoutCombat => "久无交战",
        EndReason::PlyLimit | EndReason::MoveLimit => "步数已满",
        EndReason::Resignation => "认输",
        EndReason::Agreement => "议和",
        EndReason::Forfeit => "判负",
        EndReason::Checkmate => "将死",
        EndReason::Stalemate => "困毙",
        EndReason::PerpetualCheck => "长将",
        EndReason::PerpetualChase => "长捉",
        EndReason::Repetition => "重复局面",
        EndReason::OwlCaptured => "吃枭",
        EndReason::FiveStones => "五散",
        EndReason::NoPiecesInPlay => "无子在局",
        EndReason::Adjudication => "裁定",
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
            let colour = colour(super::text::colour_of(colours, &p.seat));
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
                super::text::clean(c)
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
                super::text::clean(comment)
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

/// For the caption tests of every game: each JSON view of the shipped sample folders `samples`
/// (below the crate's root) read with `caption`, each caption's characters checked against the
/// font after `check` looked at it. Returns how many views were checked.
#[cfg(test)]
pub(crate) fn check_sample_captions(
    samples: &[&str],
    caption: impl Fn(&str) -> Vec<String>,
    check: impl Fn(&str),
) -> usize {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for sample in samples {
        for entry in std::fs::read_dir(root.join(sample).join("views")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let all = caption(&std::fs::read_to_string(&path).unwrap()).join("\n");
            check(&all);
            super::cjk_font::assert_drawable(&all, &path.display().to_string());
            checked += 1;
        }
    }
    checked
}

/// Every Chinese character the captions can use, for the font test and `scripts/cjk-font.py`.
#[cfg(test)]
pub(crate) const CHARACTERS: &str = "南北东西方移动进攻防守胜同归于尽夺旗扛回营无棋可走子久交战步数已满认输议和判负将死困毙长捉重复局面吃枭五散在裁定观众全终后的视角第蓝红深浅橙出上留言意军被着提或继续轮到等待布阵（）：，。、「」一";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_samples_captions_are_chinese_and_drawn_from_the_font() {
        let checked = check_sample_captions(
            &["games/luzhanqi/sample", "games/luzhanqi/sample-4p"],
            |text| {
                let view: ViewFile = serde_json::from_str(text).unwrap();
                caption(&view, &[("south", "blue"), ("north", "red")])
            },
            |all| assert!(all.contains("第") && all.contains("终局："), "{all}"),
        );
        assert!(checked >= 8, "{checked}");
    }

    #[test]
    fn every_word_is_drawn_from_the_font() {
        let mut words: Vec<String> = ["south", "north", "east", "west"].map(seat).to_vec();
        for r in [
            EndReason::FlagCaptured,
            EndReason::FlagCarriedHome,
            EndReason::NoLegalMove,
            EndReason::NoMovablePieces,
            EndReason::PliesWithoutCombat,
            EndReason::PlyLimit,
            EndReason::Resignation,
            EndReason::Agreement,
            EndReason::Forfeit,
            EndReason::Checkmate,
            EndReason::Stalemate,
            EndReason::PerpetualCheck,
            EndReason::PerpetualChase,
            EndReason::Repetition,
            EndReason::OwlCaptured,
            EndReason::FiveStones,
            EndReason::NoPiecesInPlay,
            EndReason::Adjudication,
        ] {
            words.push(reason(r).into());
        }
        words.push(CHARACTERS.into());
        for word in words {
            super::super::cjk_font::assert_drawable(&word, "a caption word");
        }
    }
}
