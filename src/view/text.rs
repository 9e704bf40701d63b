//! The text view: a board diagram for a terminal or an e-mail, rendered from a JSON view only.

use super::ViewFile;
use crate::rules::luzhanqi::{cross_four, two_player, NodeKind, Outcome, Piece};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Piece labels: two-letter codes, or one Chinese character each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    Letters,
    Chinese,
}

fn chinese_label(p: Piece) -> &'static str {
    match p {
        Piece::Marshal => "司",
        Piece::General => "军",
        Piece::MajorGeneral => "师",
        Piece::Brigadier => "旅",
        Piece::Colonel => "团",
        Piece::Major => "营",
        Piece::Captain => "连",
        Piece::Lieutenant => "排",
        Piece::Engineer => "兵",
        Piece::Bomb => "炸",
        Piece::Landmine => "雷",
        Piece::Flag => "旗",
    }
}

fn outcome_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Moved => "moved",
        Outcome::AttackerWon => "attacker won",
        Outcome::DefenderWon => "defender won",
        Outcome::BothRemoved => "both removed",
    }
}

/// Renders the board and the game state. South's pieces are upper case, North's lower case;
/// `??`/`xx` is a piece whose rank this audience does not know; `*` marks the last move.
pub fn render(view: &ViewFile, labels: Labels) -> String {
    if view.board == "cross4" {
        return render_cross(view, labels);
    }
    let b = two_player();
    let (pieces, marked) = (pieces_by_square(view), last_move_squares(view));
    let name_of = |seat: &str| {
        view.players
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    };
    let flipped = view.audience == "north";
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Luzhanqi {}  view: {}  ply {}",
        view.game, view.audience, view.ply
    );
    let _ = writeln!(out, "record head {}", view.record_head);
    let files: Vec<char> = if flipped {
        "edcba".chars().collect()
    } else {
        "abcde".chars().collect()
    };
    let ranks: Vec<u32> = if flipped {
        (1..=12).collect()
    } else {
        (1..=12).rev().collect()
    };
    let (top, bottom) = if flipped {
        ("south", "north")
    } else {
        ("north", "south")
    };
    let _ = writeln!(out, "\n      {} ({})", top, name_of(top));
    let header: String = files.iter().map(|f| format!("  {f}  ")).collect();
    let _ = writeln!(out, "    {header}");
    for (i, rank) in ranks.iter().enumerate() {
        let mut line = format!("{rank:>3} ");
        for f in &files {
            let sq = format!("{f}{rank}");
            let kind = b
                .square(&sq)
                .map(|s| b.nodes[s].kind)
                .unwrap_or(NodeKind::Post);
            let (l, r) = match kind {
                NodeKind::Camp => ('(', ')'),
                NodeKind::Hq => ('[', ']'),
                _ => (' ', ' '),
            };
            let label = match pieces.get(sq.as_str()) {
                None => {
                    if kind == NodeKind::Rail {
                        "==".to_string()
                    } else {
                        " .".to_string()
                    }
                }
                Some((seat, piece)) => {
                    let south = *seat == "south";
                    match (piece, labels) {
                        (Some(p), Labels::Letters) if south => p.code().to_string(),
                        (Some(p), Labels::Letters) => p.code().to_lowercase(),
                        (Some(p), Labels::Chinese) => chinese_label(*p).to_string(),
                        (None, _) if south => "??".into(),
                        (None, _) => "xx".into(),
                    }
                }
            };
            let owner_mark = match (labels, pieces.get(sq.as_str())) {
                (Labels::Chinese, Some(("north", Some(_)))) => '\'',
                _ => ' ',
            };
            let mark = if marked.contains(&sq.as_str()) {
                '*'
            } else {
                owner_mark
            };
            let _ = write!(line, "{l}{label}{r}{mark}");
        }
        let _ = writeln!(out, "{}", line.trim_end());
        if i == 5 {
            // The front line between ranks 6 and 7: railway crossings on a, c, e; mountains on b, d.
            let gap: String = files
                .iter()
                .map(|f| {
                    if "ace".contains(*f) {
                        "  |  "
                    } else {
                        " /\\  "
                    }
                })
                .collect();
            let _ = writeln!(out, "    {}", gap.trim_end());
        }
    }
    let _ = writeln!(out, "      {} ({})\n", bottom, name_of(bottom));
    if labels == Labels::Chinese {
        let _ = writeln!(out, "North's known pieces carry a ' mark.");
    }
    footer(view, &mut out);
    out
}

/// The cross board (four players) on its 17 × 17 grid, North at the top. A node is four
/// characters: its kind (`(` camp, `[` headquarters, `*` the last move's squares), then the
/// owner's initial and the piece (`sMJ`; `e??` where the rank is unknown), or `===` for an
/// empty railway post and ` . ` for any other empty node.
fn render_cross(view: &ViewFile, labels: Labels) -> String {
    let b = cross_four();
    let (pieces, marked) = (pieces_by_square(view), last_move_squares(view));
    let mut grid = vec![vec!["    ".to_string(); 17]; 17];
    for node in &b.nodes {
        let Some((x, y)) = node.grid else { continue };
        let kind = match node.kind {
            _ if marked.contains(&node.name.as_str()) => '*',
            NodeKind::Camp => '(',
            NodeKind::Hq => '[',
            _ => ' ',
        };
        let body = match pieces.get(node.name.as_str()) {
            None if node.kind == NodeKind::Rail => "===".to_string(),
            None => " . ".to_string(),
            Some((seat, piece)) => {
                let initial = seat.chars().next().unwrap_or('?');
                match (piece, labels) {
                    (Some(p), Labels::Letters) => format!("{initial}{}", p.code()),
                    (Some(p), Labels::Chinese) => format!("{initial}{}", chinese_label(*p)),
                    (None, _) => format!("{initial}??"),
                }
            }
        };
        grid[y as usize][x as usize] = format!("{kind}{body}");
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Luzhanqi (four players) {}  view: {}  ply {}",
        view.game, view.audience, view.ply
    );
    let _ = writeln!(out, "record head {}", view.record_head);
    let players: Vec<String> = view
        .players
        .iter()
        .map(|p| format!("{} ({})", p.seat, p.name))
        .collect();
    let _ = writeln!(
        out,
        "players: {}; south and north against east and west\n",
        players.join(", ")
    );
    for row in &grid {
        let _ = writeln!(out, "{}", row.concat().trim_end());
    }
    let _ = writeln!(
        out,
        "\nSquares: arm letter (s, e, n, w), file a-e from that player's left, rank 1 (back) to 6 \
         (front); centre ma1-me3 as South sees it."
    );
    if !view.out.is_empty() {
        let _ = writeln!(out, "Out of the game: {}.", view.out.join(", "));
    }
    footer(view, &mut out);
    out
}

/// Owner and (when known) piece, by square name.
fn pieces_by_square(view: &ViewFile) -> BTreeMap<&str, (&str, Option<Piece>)> {
    view.pieces
        .iter()
        .map(|p| (p.square.as_str(), (p.seat.as_str(), p.piece)))
        .collect()
}

/// The squares of the last move, marked on the diagram.
fn last_move_squares(view: &ViewFile) -> Vec<&str> {
    view.last_move
        .iter()
        .flat_map(|m| [m.from.as_str(), m.to.as_str()])
        .collect()
}

/// What follows the board in every text view: the last move, public flags, the result or who
/// is to move.
fn footer(view: &ViewFile, out: &mut String) {
    if let Some(m) = &view.last_move {
        let _ = writeln!(
            out,
            "Last move: {} {}-{} ({})",
            m.seat,
            m.from,
            m.to,
            outcome_text(m.outcome)
        );
    }
    for f in &view.revealed_flags {
        let _ = writeln!(out, "{}'s flag stands on {}.", f.seat, f.square);
    }
    for f in &view.carried_flags {
        let _ = writeln!(
            out,
            "{}'s flag is carried by the piece on {}.",
            f.seat, f.square
        );
    }
    if let (Some(last), None) = (view.history.last(), &view.result) {
        if last.draw_offered {
            let _ = writeln!(
                out,
                "{} offers a draw (answer accept-draw, or play on).",
                last.seat
            );
        }
    }
    match (&view.result, &view.to_move) {
        (Some(r), _) => {
            let reason = serde_json::to_value(r.reason)
                .ok()
                .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
                .unwrap_or_default();
            match &r.winner {
                Some(w) if !r.allies.is_empty() => {
                    let _ = writeln!(
                        out,
                        "Game over: {w} and {} win ({reason}).",
                        r.allies.join(" and ")
                    );
                }
                Some(w) => {
                    let _ = writeln!(out, "Game over: {w} wins ({reason}).");
                }
                None => {
                    let _ = writeln!(out, "Game over: draw ({reason}).");
                }
            }
        }
        (None, Some(t)) => {
            let _ = writeln!(out, "{t} to move (ply {}).", view.ply + 1);
        }
        (None, None) => {
            let _ = writeln!(out, "Waiting for setups.");
        }
    }
}
