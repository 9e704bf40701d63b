//! Luzhanqi's text view: a board diagram for a terminal or an e-mail, rendered from a JSON
//! view only.

use super::view::ViewFile;
use luzhanqi_rules::{cross_four, two_player, NodeKind, Outcome, Piece};
use qijudge_view::on_board;
use qijudge_view::text::clean;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Piece labels: two-letter codes, or one Chinese character each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    Letters,
    Chinese,
}

pub fn chinese_label(p: Piece) -> &'static str {
    match p {
        Piece::Marshal => "司",
        Piece::General => "军",
        Piece::MajorGeneral => "师",
        Piece::Brigadier => "旅",
        Piece::Colonel => "团",
        Piece::Major => "营",
        Piece::Captain => "连",
        Piece::Lieutenant => "排",
        // 工兵: one character on a board square, and not the Xiangqi soldier's 兵.
        Piece::Engineer => "工",
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

/// Renders the board and the game state, turned so the viewing seat sits at the bottom.
/// South's pieces are upper case, the others lower case; `??`/`xx` is a piece whose rank this
/// audience does not know; `*` marks the last move.
pub fn render(view: &ViewFile, labels: Labels, sealed: bool) -> String {
    let mut out = String::new();
    let title = if view.board == "cross4" {
        "Luzhanqi (four players)"
    } else {
        "Luzhanqi"
    };
    let _ = writeln!(
        out,
        "{title} {}  ply {}  view for {}",
        view.game,
        view.ply,
        audience_label(view)
    );
    let _ = writeln!(out, "record head {}", view.record_head);
    let players: Vec<String> = view
        .players
        .iter()
        .map(|p| format!("{} ({})", p.seat, clean(&p.name)))
        .collect();
    let sides = if view.board == "cross4" {
        "; south and north against east and west"
    } else {
        ""
    };
    let _ = writeln!(out, "Players: {}{sides}\n", players.join(", "));
    if view.board == "cross4" {
        board_cross(view, labels, &mut out);
    } else {
        board_two(view, labels, &mut out);
    }
    legend(view, labels, &mut out);
    footer(view, sealed, &mut out);
    out
}

/// `north (bob)`, `public (spectators)` or `full (everything, after the game)`.
pub fn audience_label(view: &ViewFile) -> String {
    match view.audience.as_str() {
        "public" => "public (spectators)".into(),
        "full" => "full (every piece, after the game)".into(),
        seat => match view.players.iter().find(|p| p.seat == seat) {
            Some(p) => format!("{seat} ({})", clean(&p.name)),
            None => seat.into(),
        },
    }
}

/// A piece's label: its two-letter code (upper case for South, lower for the others; the
/// owner's initial before it on the cross board), its Chinese character, or `??`/`xx`.
fn piece_label(seat: &str, piece: Option<Piece>, labels: Labels) -> String {
    let south = seat == "south";
    match (piece, labels) {
        (Some(p), Labels::Letters) if south => p.code().to_string(),
        (Some(p), Labels::Letters) => p.code().to_lowercase(),
        (Some(p), Labels::Chinese) => chinese_label(p).to_string(),
        (None, _) if south => "??".into(),
        (None, _) => "xx".into(),
    }
}

/// The two-player board, files across and ranks up, North's side at the top unless North views.
fn board_two(view: &ViewFile, labels: Labels, out: &mut String) {
    let b = two_player();
    let (pieces, marked) = (pieces_by_square(view), last_move_squares(view));
    let name_of = |seat: &str| {
        view.players
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| clean(&p.name))
            .unwrap_or_default()
    };
    let flipped = view.audience == "north";
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
    let header: String = files.iter().map(|f| format!("  {f}  ")).collect();
    let _ = writeln!(out, "      {} ({})", top, name_of(top));
    let _ = writeln!(out, "    {}", header.trim_end());
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
                None if kind == NodeKind::Rail => "==".to_string(),
                None => " .".to_string(),
                Some((seat, piece)) => piece_label(seat, *piece, labels),
            };
            let owner_mark = match (labels, pieces.get(sq.as_str())) {
                (Labels::Chinese, Some((seat, Some(_)))) if *seat != "south" => '\'',
                _ => ' ',
            };
            let mark = if marked.contains(&sq.as_str()) {
                '*'
            } else {
                owner_mark
            };
            let _ = write!(line, "{l}{label}{r}{mark}");
        }
        let _ = writeln!(out, "{}{rank:>3}", pad(&line, 4 + 5 * files.len()));
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
    let _ = writeln!(out, "    {}", header.trim_end());
    let _ = writeln!(out, "      {} ({})\n", bottom, name_of(bottom));
}

/// `line` padded with spaces to `width` display columns (a Chinese character takes two).
fn pad(line: &str, width: usize) -> String {
    let shown: usize = line
        .chars()
        .map(|c| if (c as u32) >= 0x2e80 { 2 } else { 1 })
        .sum();
    format!("{line}{}", " ".repeat(width.saturating_sub(shown)))
}

/// The cross board on its 17 × 17 grid with a margin for coordinates, turned so the viewing
/// seat's arm is at the bottom. A node is four characters: its kind (`(` camp, `[`
/// headquarters, `*` the last move's squares), then the owner's initial and the piece (`sMJ`;
/// `e??` where the rank is unknown), or `===` for an empty railway post and ` . ` for any other
/// empty node. Each arm's ranks are numbered beside its a-file and its files lettered behind its
/// back rank.
fn board_cross(view: &ViewFile, labels: Labels, out: &mut String) {
    const N: usize = 19;
    let b = cross_four();
    let (pieces, marked) = (pieces_by_square(view), last_move_squares(view));
    let at = |name: &str| -> Option<(i32, i32)> {
        let (x, y) = b.nodes[b.square(name)?].grid?;
        Some((x as i32 + 1, y as i32 + 1))
    };
    let mut grid = vec![vec!["    ".to_string(); N]; N];
    let mut put = |(x, y): (i32, i32), text: String| {
        if (0..N as i32).contains(&x) && (0..N as i32).contains(&y) {
            grid[y as usize][x as usize] = text;
        }
    };
    for node in &b.nodes {
        let Some(p) = at(&node.name) else { continue };
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
                    (Some(p), Labels::Chinese) => format!("{initial}{} ", chinese_label(*p)),
                    (None, _) => format!("{initial}??"),
                }
            }
        };
        put(p, format!("{kind}{body}"));
    }
    // Coordinates: one step beyond the a-file for ranks, one beyond rank 1 for files.
    let beyond = |from: &str, towards: &str| -> Option<(i32, i32)> {
        let (a, b) = (at(from)?, at(towards)?);
        Some((2 * a.0 - b.0, 2 * a.1 - b.1))
    };
    for arm in ["s", "e", "n", "w"] {
        for rank in 1..=6 {
            if let Some(p) = beyond(&format!("{arm}a{rank}"), &format!("{arm}b{rank}")) {
                put(p, format!(" {arm}{rank} "));
            }
        }
        for file in ['a', 'b', 'c', 'd', 'e'] {
            if let Some(p) = beyond(&format!("{arm}{file}1"), &format!("{arm}{file}2")) {
                put(p, format!("  {file} "));
            }
        }
    }
    // Quarter turns clockwise that bring the viewer's arm to the bottom.
    let turns = match view.audience.as_str() {
        "east" => 1,
        "north" => 2,
        "west" => 3,
        _ => 0,
    };
    for _ in 0..turns {
        let mut turned = vec![vec![String::new(); N]; N];
        for (y, row) in grid.iter().enumerate() {
            for (x, cell) in row.iter().enumerate() {
                turned[x][N - 1 - y] = cell.clone();
            }
        }
        grid = turned;
    }
    for row in &grid {
        let _ = writeln!(out, "{}", row.concat().trim_end());
    }
    out.push('\n');
}

/// What the marks on the diagram mean.
fn legend(view: &ViewFile, labels: Labels, out: &mut String) {
    let cross = view.board == "cross4";
    let unknown = if cross {
        "s??, e??, n??, w?? a piece of that seat whose rank this view does not show"
    } else {
        "?? (South) and xx (North) a piece whose rank this view does not show"
    };
    let owners = match (cross, labels) {
        (true, _) => "each piece starts with its seat's initial (s, e, n, w)",
        (false, Labels::Letters) => "South's pieces in upper case, North's in lower case",
        (false, Labels::Chinese) => "North's known pieces carry a ' mark",
    };
    let _ = writeln!(out, "Key: {owners}; {unknown};");
    let _ = writeln!(
        out,
        "( ) camp (safe from attack), [ ] headquarters, == or === empty railway post, . empty post, * the last move's squares."
    );
    if cross {
        let _ = writeln!(
            out,
            "Squares: arm (s, e, n, w), file a-e from that seat's left, rank 1 (back) to 6 (front); the centre ma1-me3 as South sees it (ma1 touches sa6)."
        );
    } else {
        let _ = writeln!(
            out,
            "Railways: ranks 2, 6, 7, 11 and files a and e from rank 2 to 11; | a railway across the front, /\\ mountains."
        );
    }
    if labels == Labels::Letters {
        let codes: Vec<String> = Piece::ALL
            .iter()
            .map(|p| format!("{} {}", p.code(), p.english().replace('_', " ")))
            .collect();
        let _ = writeln!(out, "Pieces: {}.", codes.join(", "));
    }
    out.push('\n');
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

/// What follows the board in every text view.
fn footer(view: &ViewFile, sealed: bool, out: &mut String) {
    for line in state_lines(view) {
        let _ = writeln!(out, "{line}");
    }
    // The seat to move is told how to find and play its moves; in a sealed game `moves` needs
    // the key that opens the seat's sealed view.
    if let (None, Some(t)) = (&view.result, &view.to_move) {
        if *t == view.audience {
            let key = if sealed { " --key KEY" } else { "" };
            let _ = writeln!(
                out,
                "Your legal moves: qijudge moves GAME --as {t}{key}; play one with qijudge move GAME --as {t} --key KEY FROM-TO."
            );
        }
    }
}

/// The state of play in sentences: the last move and its comment, public flags, a draw offer,
/// the result or who is to move.
/// The ply of the last move on the board (a resignation since has its own line).
pub fn last_board_ply(view: &ViewFile) -> u32 {
    view.history
        .iter()
        .rev()
        .find(|h| on_board(&h.action))
        .map_or(view.ply, |h| h.ply)
}

pub fn state_lines(view: &ViewFile) -> Vec<String> {
    let mut out = String::new();
    let out = &mut out;
    if !view.out.is_empty() {
        let _ = writeln!(out, "Out of the game: {}.", view.out.join(", "));
    }
    if let Some(m) = &view.last_move {
        let ply = last_board_ply(view);
        let _ = writeln!(
            out,
            "Last move (ply {}): {} {}-{} ({})",
            ply,
            m.seat,
            m.from,
            m.to,
            outcome_text(m.outcome)
        );
        if let Some(c) = &m.comment {
            let _ = writeln!(out, "{}'s comment: \"{}\"", m.seat, clean(c));
        }
    }
    if let Some(c) = &view.closing {
        for line in c.lines() {
            let _ = writeln!(out, "{line}");
        }
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
    out.lines().map(str::to_string).collect()
}
