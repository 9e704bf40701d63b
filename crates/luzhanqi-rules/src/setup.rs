//! Setups: what a player writes (a [`Placement`], unvalidated) and what the judge accepts
//! (a [`Setup`], checked against every constraint of rules reference §3).

use super::board::{Board, NodeKind, Seat, Square};
use super::nodeset::NodeSet;
use super::piece::Piece;
use std::collections::BTreeMap;
use std::fmt;

/// Pieces by square as a player wrote them; nothing is checked yet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// Square name → piece name, exactly as written.
    pub entries: Vec<(String, String)>,
}

/// One violated setup constraint, with the square it concerns when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupProblem {
    pub square: Option<String>,
    pub message: String,
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.square {
            Some(sq) => write!(f, "{sq}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

fn problem(square: Option<&str>, message: impl Into<String>) -> SetupProblem {
    SetupProblem {
        square: square.map(str::to_string),
        message: message.into(),
    }
}

impl Placement {
    /// Reads the hand-written TOML form. Either squares as keys (`a1 = "landmine"`), or
    /// `rows = [...]`: six strings of five names each, from the seat's front row to its back row,
    /// left to right as the player sees the board, `.` for a camp. An optional `seat` key names
    /// the seat the setup is for. Names may be English, Chinese or letter codes.
    pub fn from_toml<S: NodeSet>(
        text: &str,
        board: &Board<S>,
        seat: Seat,
    ) -> Result<Placement, Vec<SetupProblem>> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            vec![problem(None, format!("not valid TOML: {}", e.message()))]
        })?;
        let mut entries = Vec::new();
        let mut problems = Vec::new();
        for (key, value) in &table {
            match (key.as_str(), value) {
                ("seat", toml::Value::String(s)) => {
                    if board.seat(s) != Some(seat) {
                        problems.push(problem(
                            None,
                            format!(
                                "seat: the file says {s:?} but it is being set up for {}",
                                board.seat_name(seat)
                            ),
                        ));
                    }
                }
                ("rows", toml::Value::Array(rows)) => match rows_to_entries(board, seat, rows) {
                    Ok(mut e) => entries.append(&mut e),
                    Err(p) => problems.push(p),
                },
                (sq, toml::Value::String(piece)) => entries.push((sq.to_string(), piece.clone())),
                (key, _) => problems.push(problem(
                    None,
                    format!("{key}: expected a piece name (a string)"),
                )),
            }
        }
        if problems.is_empty() {
            Ok(Placement { entries })
        } else {
            Err(problems)
        }
    }
}

/// Square names of a seat's half as the player sees it: rows from front to back, each left to right.
fn half_rows<S: NodeSet>(board: &Board<S>, seat: Seat) -> Vec<Vec<Square>> {
    let half: Vec<Square> = board.halves[seat.index()].iter().collect();
    let back_row = board.nodes[half[0]]
        .row
        .max(board.nodes[half[half.len() - 1]].row);
    let mut rows = vec![Vec::new(); back_row as usize + 1];
    for sq in half {
        rows[(back_row - board.nodes[sq].row) as usize].push(sq);
    }
    // A seat whose index order runs against its view (north on the 2-player board) reads rows mirrored.
    let mirrored = board.nodes[board.halves[seat.index()].first().unwrap_or(0)].row != 0;
    if mirrored {
        rows.iter_mut().for_each(|r| r.reverse());
    }
    rows
}

fn rows_to_entries<S: NodeSet>(
    board: &Board<S>,
    seat: Seat,
    rows: &[toml::Value],
) -> Result<Vec<(String, String)>, SetupProblem> {
    let layout = half_rows(board, seat);
    if rows.len() != layout.len() {
        return Err(problem(
            None,
            format!(
                "rows: expected {} rows (front row first), found {}",
                layout.len(),
                rows.len()
            ),
        ));
    }
    let mut entries = Vec::new();
    for (k, (row, squares)) in rows.iter().zip(&layout).enumerate() {
        let text = row
            .as_str()
            .ok_or_else(|| problem(None, format!("rows[{k}]: expected a string of piece names")))?;
        let names: Vec<&str> = text.split_whitespace().collect();
        if names.len() != squares.len() {
            return Err(problem(
                None,
                format!(
                    "rows[{k}]: expected {} names separated by spaces, found {}",
                    squares.len(),
                    names.len()
                ),
            ));
        }
        for (name, &sq) in names.iter().zip(squares) {
            if *name != "." {
                entries.push((board.name_of(sq).to_string(), name.to_string()));
            }
        }
    }
    Ok(entries)
}

/// A setup that satisfies every constraint: the object a player commits to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub seat: Seat,
    /// Pieces in ascending square order.
    pub pieces: Vec<(Square, Piece)>,
}

impl Setup {
    /// The setup in the `rows = [...]` form players write (front row first, left to right as
    /// the seat sees its half, `.` for a camp), which [`Placement::from_toml`] reads back.
    pub fn to_rows_toml<S: NodeSet>(&self, board: &Board<S>, seat: Seat) -> String {
        let mut out = String::from("rows = [\n");
        for row in half_rows(board, seat) {
            let names: Vec<&str> = row
                .iter()
                .map(|sq| {
                    self.pieces
                        .iter()
                        .find(|(s, _)| s == sq)
                        .map_or(".", |(_, p)| p.code())
                })
                .collect();
            out.push_str(&format!("  \"{}\",\n", names.join(" ")));
        }
        out.push_str("]\n");
        out
    }

    /// Checks a placement and reports every violated constraint, each with its square.
    pub fn validate<S: NodeSet>(
        board: &Board<S>,
        seat: Seat,
        placement: &Placement,
    ) -> Result<Setup, Vec<SetupProblem>> {
        let mut problems = Vec::new();
        let mut by_square: BTreeMap<Square, Piece> = BTreeMap::new();
        let half = board.halves[seat.index()];
        for (name, piece_name) in &placement.entries {
            let Some(sq) = board.square(name) else {
                problems.push(problem(Some(name), "no such square"));
                continue;
            };
            let Some(piece) = Piece::from_name(piece_name) else {
                problems.push(problem(
                    Some(name),
                    format!(
                        "unknown piece name {piece_name:?}: write {}",
                        Piece::naming()
                    ),
                ));
                continue;
            };
            let node = &board.nodes[sq];
            if !half.contains(sq) {
                problems.push(problem(
                    Some(name),
                    format!("outside {}'s half", board.seat_name(seat)),
                ));
            } else if node.kind == NodeKind::Camp {
                problems.push(problem(Some(name), "a camp must stay empty at setup"));
            } else if piece == Piece::Flag && node.kind != NodeKind::Hq {
                problems.push(problem(Some(name), "the flag must stand in a headquarters"));
            } else if piece == Piece::Landmine && node.row > 1 {
                problems.push(problem(
                    Some(name),
                    "a landmine must stand on the last two ranks",
                ));
            } else if piece == Piece::Bomb && node.row == front_row(board, seat) {
                problems.push(problem(
                    Some(name),
                    "a bomb may not stand on the front rank",
                ));
            }
            if by_square.insert(sq, piece).is_some() {
                problems.push(problem(Some(name), "square given twice"));
            }
        }
        for piece in Piece::ALL {
            let n = by_square.values().filter(|p| **p == piece).count();
            if n != piece.count() {
                problems.push(problem(
                    None,
                    format!("{n} × {piece}, expected {}", piece.count()),
                ));
            }
        }
        for sq in half.minus(board.camps).iter() {
            if !by_square.contains_key(&sq) {
                problems.push(problem(
                    Some(board.name_of(sq)),
                    "empty: every post and headquarters needs a piece",
                ));
            }
        }
        if problems.is_empty() {
            Ok(Setup {
                seat,
                pieces: by_square.into_iter().collect(),
            })
        } else {
            problems.sort_by_key(|p| p.square.is_none());
            Err(problems)
        }
    }

    /// The canonical bytes committed to: `square:CODE` for each piece in square order, joined by
    /// commas (`a1:LM,b1:FL,…`), ASCII.
    pub fn canonical_bytes<S: NodeSet>(&self, board: &Board<S>) -> Vec<u8> {
        self.pieces
            .iter()
            .map(|(sq, p)| format!("{}:{}", board.name_of(*sq), p.code()))
            .collect::<Vec<_>>()
            .join(",")
            .into_bytes()
    }

    /// The placement that prints as this setup.
    pub fn to_placement<S: NodeSet>(&self, board: &Board<S>) -> Placement {
        Placement {
            entries: self
                .pieces
                .iter()
                .map(|(sq, p)| (board.name_of(*sq).to_string(), p.english().to_string()))
                .collect(),
        }
    }
}

fn front_row<S: NodeSet>(board: &Board<S>, seat: Seat) -> u8 {
    board.halves[seat.index()]
        .iter()
        .map(|sq| board.nodes[sq].row)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
pub mod tests {
    use super::super::board::two_player;
    use super::*;

    /// A legal South setup written by rows, front row first.
    pub const SOUTH_ROWS: &str = r#"
rows = [
  "CO CP LT CP BG",
  "MJ . EN . MG",
  "EN LT . CP GN",
  "BM . CO . BM",
  "FM BG MG LT MJ",
  "LM FL LM EN LM",
]
"#;

    pub fn south_setup() -> Setup {
        let b = two_player();
        let p = Placement::from_toml(SOUTH_ROWS, b, Seat(0)).unwrap();
        Setup::validate(b, Seat(0), &p).unwrap()
    }

    #[test]
    fn rows_and_squares_give_the_same_setup() {
        let b = two_player();
        let s = south_setup();
        let by_square: String = s
            .to_placement(b)
            .entries
            .iter()
            .map(|(sq, p)| format!("{sq} = \"{p}\"\n"))
            .collect();
        let p = Placement::from_toml(&by_square, b, Seat(0)).unwrap();
        assert_eq!(Setup::validate(b, Seat(0), &p).unwrap(), s);
        assert!(String::from_utf8(s.canonical_bytes(b))
            .unwrap()
            .starts_with("a1:LM,b1:FL,c1:LM,d1:EN,e1:LM,a2:FM,"));
    }

    #[test]
    fn north_rows_are_read_from_north_side() {
        let b = two_player();
        let p = Placement::from_toml(SOUTH_ROWS, b, Seat(1)).unwrap();
        let s = Setup::validate(b, Seat(1), &p).unwrap();
        // North's front row is rank 7, and North's left is file e.
        let at = |name: &str| {
            s.pieces
                .iter()
                .find(|(sq, _)| *sq == b.square(name).unwrap())
                .unwrap()
                .1
        };
        assert_eq!(at("e7"), Piece::Colonel);
        assert_eq!(at("a7"), Piece::Brigadier);
        assert_eq!(at("d12"), Piece::Flag);
    }

    #[test]
    fn every_violation_is_reported_with_its_square() {
        let b = two_player();
        let text = SOUTH_ROWS
            .replace("\"CO CP LT CP BG\"", "\"CO CP LT BM BG\"") // bomb on front rank, one captain short
            .replace("\"BM . CO . BM\"", "\"CP . CO LM BM\"") // mine in a camp and too far forward
            .replace("\"LM FL LM EN LM\"", "\"LM EN FL LM LM\""); // flag outside a headquarters
        let p = Placement::from_toml(&text, b, Seat(0)).unwrap();
        let problems: Vec<String> = Setup::validate(b, Seat(0), &p)
            .unwrap_err()
            .iter()
            .map(|p| p.to_string())
            .collect();
        for expected in [
            "d6: a bomb may not stand on the front rank",
            "d3: a camp must stay empty at setup",
            "c1: the flag must stand in a headquarters",
            "4 × landmine, expected 3",
        ] {
            assert!(
                problems.iter().any(|p| p == expected),
                "{expected:?} missing from {problems:#?}"
            );
        }
        let outside = Placement {
            entries: vec![
                ("a7".into(), "flag".into()),
                ("z9".into(), "flag".into()),
                ("a1".into(), "queen".into()),
            ],
        };
        let problems: Vec<String> = Setup::validate(b, Seat(0), &outside)
            .unwrap_err()
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert!(problems.contains(&"a7: outside south's half".to_string()));
        assert!(problems.contains(&"z9: no such square".to_string()));
        assert!(
            problems.iter().any(|p| p.starts_with(
                "a1: unknown piece name \"queen\": write a code (FM GN MG BG CO MJ CP LT EN BM LM FL), an English name (marshal, general,"
            )),
            "{problems:?}"
        );
        assert!(
            problems.contains(&"a2: empty: every post and headquarters needs a piece".to_string())
        );
    }

    #[test]
    fn landmines_on_rank_three_are_refused() {
        let b = two_player();
        let text = SOUTH_ROWS
            .replace("\"EN LT . CP GN\"", "\"LM LT . CP GN\"")
            .replace("\"LM FL LM EN LM\"", "\"EN FL LM EN LM\"");
        let p = Placement::from_toml(&text, b, Seat(0)).unwrap();
        let problems = Setup::validate(b, Seat(0), &p).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(
            problems[0].to_string(),
            "a4: a landmine must stand on the last two ranks"
        );
    }
}
