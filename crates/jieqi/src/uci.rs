//! Jieqi engines over UCI, in the dialect of Pikafish's `jieqi` branch as the GUI JieqiBox
//! speaks it (its `NOTATION_FORMAT.md`): face-down pieces are `X` (red) and `x` (black) in the
//! FEN, whose fields are `BOARD SIDE POOL CAPTURED HALFMOVE FULLMOVE`; `POOL` counts the
//! identities the engine's side cannot place yet (`R2N2B2A2C2P5r2n2b2a2c2p5` at the start),
//! `CAPTURED` the pieces taken face down whose identity that side was shown (`-` for none).
//! As JieqiBox does, the position is the one after the last ply that turned a piece up or took
//! one, and the plain moves since; the engine answers with a four-letter move.
//!
//! Everything here is computed from the seat's own view (its `moves`, `taken` and `position`),
//! never from the judge's knowledge: an engine learns what its seat may know and no more.

use serde_json::Value;

/// Face-down identities of one side at the start, in the order the pool is written.
const POOL: [(char, u32); 6] = [('R', 2), ('N', 2), ('B', 2), ('A', 2), ('C', 2), ('P', 5)];

/// Jieqi's start: Xiangqi's, every piece but the kings face down.
const START: &str = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX";

/// The `position fen … [moves …]` line for the seat whose view this is; squares in ICCS,
/// ranks shifted by `rank_shift` (0 for Pikafish). An error names what in the view is wrong.
pub fn position_line(view: &Value, rank_shift: u32) -> Result<String, String> {
    let moves: Vec<&str> = view["moves"]
        .as_array()
        .ok_or("a Jieqi view without moves")?
        .iter()
        .map(|m| m.as_str().ok_or("a move that is not text"))
        .collect::<Result<_, _>>()?;
    let mut board = Board::parse(START).ok_or("the start")?;
    // The ply after which the position is written: the last turn-up or capture.
    let mut base = 0;
    let mut base_board = board.clone();
    let mut revealed: Vec<char> = Vec::new();
    let mut base_revealed = 0;
    for (i, text) in moves.iter().enumerate() {
        let (squares, turned_up) = match text.split_once('=') {
            Some((s, letter)) => (s, letter.chars().next()),
            None => (*text, None),
        };
        let (from, to) = squares_of(squares).ok_or_else(|| format!("move {text:?}"))?;
        let piece = board
            .at(from)
            .ok_or_else(|| format!("move {text:?}: no piece"))?;
        let took = board.at(to).is_some();
        board.set(to, Some(turned_up.unwrap_or(piece)));
        board.set(from, None);
        if let Some(letter) = turned_up {
            revealed.push(letter);
        }
        if turned_up.is_some() || took {
            base = i + 1;
            base_board = board.clone();
            base_revealed = revealed.len();
        }
    }
    let position = view["position"].as_str().ok_or("a view without position")?;
    let (placement, side_now) = position.split_once(' ').ok_or("position without side")?;
    if board.placement() != placement {
        return Err(format!(
            "the view's moves give {} but its position is {placement}",
            board.placement()
        ));
    }
    // What the seat was shown of pieces taken face down, up to the written position.
    let mut captured: Vec<char> = Vec::new();
    for t in view["taken"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        let ply = t["ply"].as_u64().unwrap_or(u64::MAX);
        let piece = t["piece"].as_str().and_then(|p| p.chars().next());
        if t["face_down"] == true && ply <= base as u64 {
            if let Some(p) = piece.filter(|p| !matches!(p, 'X' | 'x')) {
                captured.push(p);
            }
        }
    }
    let mut pool = String::new();
    for upper in [true, false] {
        for (letter, count) in POOL {
            let letter = if upper {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            let known = revealed[..base_revealed]
                .iter()
                .chain(&captured)
                .filter(|c| **c == letter)
                .count() as u32;
            let left = count.saturating_sub(known);
            if left > 0 {
                pool.push_str(&format!("{letter}{left}"));
            }
        }
    }
    let captured_text = counted(&captured);
    let since = moves.len() - base;
    let side = match (side_now, since % 2) {
        ("w", 0) | ("b", 1) => 'w',
        _ => 'b',
    };
    let mut line = format!(
        "position fen {} {side} {} {} 0 {}",
        base_board.placement(),
        if pool.is_empty() { "-" } else { &pool },
        if captured_text.is_empty() {
            "-"
        } else {
            &captured_text
        },
        base / 2 + 1
    );
    if since > 0 {
        line.push_str(" moves");
        for text in &moves[base..] {
            let (from, to) = squares_of(text).ok_or_else(|| format!("move {text:?}"))?;
            let name =
                |(f, r): (u8, u8)| format!("{}{}", (b'a' + f) as char, u32::from(r) + rank_shift);
            line.push_str(&format!(" {}{}", name(from), name(to)));
        }
    }
    Ok(line)
}

/// The same line with a five-field FEN, `BOARD SIDE POOL HALFMOVE FULLMOVE` (without
/// `CAPTURED`), for engines that read five (`--engine NAME:fen-fields=5`).
pub fn position_line_five_fields(view: &Value, rank_shift: u32) -> Result<String, String> {
    let line = position_line(view, rank_shift)?;
    let (fen, moves) = match line.find(" moves ") {
        Some(at) => line.split_at(at),
        None => (line.as_str(), ""),
    };
    let mut words: Vec<&str> = fen.split(' ').collect();
    // `position fen BOARD SIDE POOL CAPTURED HALFMOVE FULLMOVE`: CAPTURED is the sixth word.
    if words.len() == 8 {
        words.remove(5);
    }
    Ok(format!("{}{moves}", words.join(" ")))
}

/// Letters with their counts in the pool's order (`R1p2`).
fn counted(letters: &[char]) -> String {
    let mut out = String::new();
    for upper in [true, false] {
        for (letter, _) in POOL {
            let letter = if upper {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            let n = letters.iter().filter(|c| **c == letter).count();
            if n > 0 {
                out.push_str(&format!("{letter}{n}"));
            }
        }
    }
    out
}

/// A point of the board: (file, rank), both from 0.
type Point = (u8, u8);

/// The two squares `h2e2` starts with (what follows them is not read).
fn squares_of(text: &str) -> Option<(Point, Point)> {
    let b = text.as_bytes();
    if b.len() < 4 {
        return None;
    }
    let square = |f: u8, r: u8| {
        (f.is_ascii_lowercase() && f <= b'i' && r.is_ascii_digit()).then(|| (f - b'a', r - b'0'))
    };
    Some((square(b[0], b[1])?, square(b[2], b[3])?))
}

/// A board of FEN letters, rank 9 first.
#[derive(Clone)]
struct Board([[Option<char>; 9]; 10]);

impl Board {
    fn parse(placement: &str) -> Option<Board> {
        let mut cells = [[None; 9]; 10];
        for (row, rank) in placement.split('/').enumerate() {
            let mut file = 0;
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => file += n as usize,
                    None => {
                        *cells.get_mut(row)?.get_mut(file)? = Some(c);
                        file += 1;
                    }
                }
            }
        }
        Some(Board(cells))
    }

    fn at(&self, (file, rank): Point) -> Option<char> {
        self.0[9 - rank as usize][file as usize]
    }

    fn set(&mut self, (file, rank): Point, piece: Option<char>) {
        self.0[9 - rank as usize][file as usize] = piece;
    }

    fn placement(&self) -> String {
        xiangqi_rules::fen::placement(|s| self.at((s.file(), s.rank())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(moves: &[&str], position: &str, taken: Value) -> Value {
        serde_json::json!({"moves": moves, "position": position, "taken": taken})
    }

    #[test]
    fn the_start_is_every_identity_in_the_pool() {
        let v = view(&[], &format!("{START} w"), serde_json::json!([]));
        assert_eq!(
            position_line(&v, 0).unwrap(),
            format!("position fen {START} w R2N2B2A2C2P5r2n2b2a2c2p5 - 0 1")
        );
    }

    #[test]
    fn the_position_is_after_the_last_turn_up_with_the_moves_since() {
        // Red's face-down cannon-slot piece turns up a horse on e2; then both kings step.
        let moves = ["h2e2=N", "e9e8", "e0e1"];
        let position = "xxxx1xxxx/4k4/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X2N4/4K4/XXXX1XXXX b";
        let v = view(&moves, position, serde_json::json!([]));
        assert_eq!(
            position_line(&v, 0).unwrap(),
            "position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X2N4/9/XXXXKXXXX b \
             R2N1B2A2C2P5r2n2b2a2c2p5 - 0 1 moves e9e8 e0e1"
        );
        // Ranks from 1 for an engine that counts them so.
        assert!(position_line(&v, 1).unwrap().ends_with("moves e10e9 e1e2"));
        let five = position_line_five_fields(&v, 0).unwrap();
        let six = position_line(&v, 0).unwrap();
        assert_eq!(
            five.split(" moves").next().unwrap().split(' ').count(),
            7,
            "{five}"
        );
        assert_eq!(
            six.split(" moves").next().unwrap().split(' ').count(),
            8,
            "{six}"
        );
        assert!(five.ends_with("moves e9e8 e0e1"), "{five}");
        // A view whose moves do not give its position is refused.
        let wrong = view(&moves, &format!("{START} b"), serde_json::json!([]));
        assert!(position_line(&wrong, 0).unwrap_err().contains("moves give"));
    }

    #[test]
    fn a_piece_taken_face_down_leaves_the_pool_only_where_the_seat_was_shown_it() {
        // Red's b2 piece turns up a chariot and takes black's face-down b9 piece, a horse.
        let moves = ["b2b9=R"];
        let position = "xRxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX b";
        let shown = serde_json::json!([{"ply": 1, "by": "red", "square": "b9", "piece": "n", "face_down": true}]);
        let hidden = serde_json::json!([{"ply": 1, "by": "red", "square": "b9", "piece": "x", "face_down": true}]);
        assert_eq!(
            position_line(&view(&moves, position, shown), 0).unwrap(),
            "position fen xRxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX b \
             R1N2B2A2C2P5r2n1b2a2c2p5 n1 0 1"
        );
        assert_eq!(
            position_line(&view(&moves, position, hidden), 0).unwrap(),
            "position fen xRxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX b \
             R1N2B2A2C2P5r2n2b2a2c2p5 - 0 1"
        );
    }
}
