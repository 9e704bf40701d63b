//! The Liubo view model: what the judge publishes for each audience (nothing is hidden but
//! future throws), and its text form. Built by the judge (`judge::liubo::build_view`).

use liubo_rules::Station;
use qijudge_protocol::files::Player;
use qijudge_rules::EndReason;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A published Liubo view: nothing is hidden but future throws, so every audience sees the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LiuboView {
    /// Always `qijudge/liubo-view/1`.
    pub format: String,
    pub game: String,
    pub manifest: String,
    /// `a`, `b` or `public`.
    pub audience: String,
    pub record_head: String,
    /// Turns played.
    pub turns: u32,
    /// What the game waits for, in words.
    pub waiting: String,
    pub to_move: Option<String>,
    /// The throw to play now, with the chain elements that made it.
    pub throw: Option<ThrowView>,
    /// Every occupied station: `a`/`b` a stone, `A`/`B` an owl.
    pub stations: BTreeMap<String, String>,
    /// Stones in reserve per seat.
    pub reserve: BTreeMap<String, u8>,
    /// Prisoners each seat holds.
    pub prisoners_held: BTreeMap<String, u8>,
    /// Stones with a shortcut right usable in their owner's next turn: their stations.
    pub shortcut_rights: Vec<String>,
    /// Pieces on X and the line each goes on along (it arrived by it): `a` / `A` and the
    /// line's far end, `16` (6-X-16) or `1` (11-X-1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_x: Vec<OnX>,
    pub last_turn: Option<LastTurn>,
    /// The signed turn that ended the game off the board (a resignation), if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closing: Option<qijudge_view::Closing>,
    pub result: Option<LiuboResult>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThrowView {
    pub t: u32,
    pub seat: String,
    pub values: Vec<u8>,
    /// `e_A[t]` and `e_B[t]`: anyone can hash each back to the signed chain heads.
    pub elements: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OnX {
    /// `a`/`b` a stone, `A`/`B` an owl.
    pub piece: String,
    /// Where its line ends: `16` or `1`.
    pub towards: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LastTurn {
    pub seat: String,
    pub turn: String,
    /// The mover's comment in its signed move file (public, like the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LiuboResult {
    pub winner: Option<String>,
    pub reason: EndReason,
}

/// Grid places of the stations in the text diagram (column, row; row 0 at the top): the rim
/// round a 7 × 7 square with the cardinal stations mid-side, the cross through the middle.
pub fn grid_place(s: Station) -> (usize, usize) {
    if let Some(n) = s.rim_number() {
        let n = n as usize;
        return match n {
            19 | 20 => (n - 18, 6),
            1..=3 => (n + 2, 6),
            4..=8 => (6, 9 - n),
            9..=13 => (14 - n, 0),
            _ => (0, n - 13),
        };
    }
    match s {
        Station::A => (5, 3),
        Station::B => (4, 3),
        Station::X => (3, 3),
        Station::C => (2, 3),
        Station::D => (1, 3),
        Station::R => (3, 1),
        Station::S => (3, 2),
        Station::T => (3, 4),
        _ => (3, 5),
    }
}

/// The text form of a view: the board as a diagram, reserves, prisoners, the throw.
pub fn render_text(players: &[Player], v: &LiuboView) -> String {
    render_text_with(players, v, KEY, state_lines(v))
}

/// The key under the text diagram.
const KEY: &str = "\nKey: STATION:PIECES. After the colon, a or b is a stone of seat a or b\n\
     (aa: two stones), A or B the owl of seat a or b (2:Ba: b's owl and a's\n\
     stone on station 2). Stations: the rim 1 to 20 counter-clockwise; the\n\
     cross 6-A-B-X-C-D-16 and 11-R-S-X-T-U-1 (stations A and B are not owls).\n";

/// [`render_text`] with another `key` and the state of play in `lines` (the Chinese text
/// view's: `chinese::text`).
pub fn render_text_with(
    players: &[Player],
    v: &LiuboView,
    key: &str,
    lines: Vec<String>,
) -> String {
    let title = format!("Liubo {}  turn {}", v.game, v.turns);
    let mut out = qijudge_view::text::header(&title, players, &v.audience, &v.record_head);
    let mut grid = vec![vec![String::new(); 7]; 7];
    for s in Station::all() {
        let (c, r) = grid_place(s);
        let pieces = v.stations.get(&s.to_string()).cloned().unwrap_or_default();
        grid[r][c] = if pieces.is_empty() {
            format!("{s}")
        } else {
            format!("{s}:{pieces}")
        };
    }
    for row in grid {
        let cells: Vec<String> = row.iter().map(|c| format!("{c:<9}")).collect();
        out.push_str(cells.join("").trim_end());
        out.push('\n');
    }
    // Station names come before the colon, pieces after it: the owl letters A and B are also
    // the names of two cross stations, so the key says which is which.
    out.push_str(key);
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The state of play in the text view's sentences (reserves, prisoners, pieces on X, shortcut
/// rights, the last turn and its comment, the throw, what the game waits for), for the text
/// view, captions and the replay page.
pub fn state_lines(v: &LiuboView) -> Vec<String> {
    let clean = qijudge_view::text::clean;
    let mut out = String::new();
    for seat in ["a", "b"] {
        out.push_str(&format!(
            "{seat}: {} in reserve, holds {} prisoner(s)\n",
            v.reserve.get(seat).copied().unwrap_or(0),
            v.prisoners_held.get(seat).copied().unwrap_or(0)
        ));
    }
    for x in &v.on_x {
        let line = if x.towards == "16" {
            "6-X-16"
        } else {
            "11-X-1"
        };
        out.push_str(&format!(
            "on X: {} goes on towards {} (line {line})\n",
            x.piece, x.towards
        ));
    }
    if !v.shortcut_rights.is_empty() {
        // Whose each right is: the stone on that station (its letter, a or b).
        let mut stations: Vec<&String> = v.shortcut_rights.iter().collect();
        stations.dedup();
        let rights: Vec<String> = stations
            .into_iter()
            .map(|s| {
                let owner = v.stations.get(s).and_then(|p| {
                    p.chars()
                        .find(|c| c.is_ascii_lowercase())
                        .map(|c| c.to_string())
                });
                let n = v.shortcut_rights.iter().filter(|r| *r == s).count();
                let stones = if n == 1 {
                    "stone".to_string()
                } else {
                    format!("{n} stones")
                };
                match owner {
                    Some(o) => format!("{o}'s {stones} on {s}"),
                    None => format!("the {stones} on {s}"),
                }
            })
            .collect();
        out.push_str(&format!(
            "shortcut rights in its owner's next turn: {}\n",
            rights.join(", ")
        ));
    }
    if let Some(last) = &v.last_turn {
        out.push_str(&format!("last turn: {} {}\n", last.seat, last.turn));
        if let Some(c) = &last.comment {
            out.push_str(&format!("{}'s comment: \"{}\"\n", last.seat, clean(c)));
        }
    }
    if let Some(c) = &v.closing {
        for line in c.lines() {
            out.push_str(&line);
            out.push('\n');
        }
    }
    if let Some(t) = &v.throw {
        out.push_str(&format!(
            "throw {} for {}: {} and {} (e_A = {}, e_B = {})\n",
            t.t,
            t.seat,
            t.values[0],
            t.values[1],
            t.elements.get("a").map_or("", |s| s.as_str()),
            t.elements.get("b").map_or("", |s| s.as_str())
        ));
    }
    out.push_str(&format!("{}\n", v.waiting));
    out.lines().map(str::to_string).collect()
}
