//! The words of a Luzhanqi picture's caption in Chinese (`--chinese`): the same facts as the
//! English caption ([`super::text::state_lines`]), from the view alone. Every character used
//! here is in the pictures' built-in typeface (a test checks it).

use qijudge_rules::EndReason;

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

/// Why a game ended, in a few characters.
pub fn reason(r: EndReason) -> &'static str {
    match r {
        EndReason::FlagCaptured => "夺旗",
        EndReason::FlagCarriedHome => "扛旗回营",
        EndReason::NoLegalMove => "无棋可走",
        EndReason::NoMovablePieces => "无子可动",
        EndReason::PliesWithoutCombat => "久无交战",
        EndReason::AttackWait => "久未进攻",
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

/// For the caption tests of every game: each JSON view of the shipped sample folders `samples`
/// (below the crate's root) read as a `V` and captioned, each caption's characters checked
/// against the font after `check` looked at it; at least `at_least` views.
/// (A test helper for each game's captions; the samples are paths below the workspace.)
#[doc(hidden)]
pub fn check_sample_captions<V: serde::de::DeserializeOwned>(
    samples: &[&str],
    caption: impl Fn(&V) -> Vec<String>,
    check: impl Fn(&str),
    at_least: usize,
) {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut checked = 0;
    for sample in samples {
        for entry in std::fs::read_dir(root.join(sample).join("views")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let view: V = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let all = caption(&view).join("\n");
            check(&all);
            super::cjk_font::assert_drawable(&all, &path.display().to_string());
            checked += 1;
        }
    }
    assert!(checked >= at_least, "{samples:?}: {checked} views");
}

/// Every Chinese character the captions can use, for the font test and `scripts/cjk-font.py`.
#[cfg(test)]
pub const CHARACTERS: &str = "南北东西方移动进攻防守胜同归于尽夺旗扛回营无棋可走子久交战步数已满认输议和判负将死困毙长捉重复局面吃枭五散在裁定观众全终后的视角第蓝红深浅橙出上留言意军被着提或继续轮到等待布阵（）：，。、「」一";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_drawn_from_the_font() {
        let mut words: Vec<String> = ["south", "north", "east", "west"].map(seat).to_vec();
        for r in [
            EndReason::FlagCaptured,
            EndReason::FlagCarriedHome,
            EndReason::NoLegalMove,
            EndReason::NoMovablePieces,
            EndReason::PliesWithoutCombat,
            EndReason::AttackWait,
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
            crate::cjk_font::assert_drawable(&word, "a caption word");
        }
    }
}
