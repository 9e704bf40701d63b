//! Board graphs, loaded from the data files in `games/luzhanqi/` and checked when loaded.

use super::nodeset::{NodeSet, Wide};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A node's index on its board.
pub type Square = usize;

/// A player's seat on a board (0 = the first seat named by the board data).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What stands on a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// A post off the railway.
    Post,
    /// A post on the railway.
    Rail,
    /// A camp: cannot be attacked, empty at setup.
    Camp,
    /// A headquarters.
    Hq,
}

/// One node of a board.
#[derive(Clone, Debug)]
pub struct Node {
    pub name: String,
    pub kind: NodeKind,
    /// The seat whose half (or arm) holds the node; none for the centre of the cross board.
    pub seat: Option<Seat>,
    /// Rows from the owning seat's back row (0) to its front row.
    pub row: u8,
    /// Where the node is drawn, on the board's grid (x right, y down), when the data says.
    pub grid: Option<(u8, u8)>,
}

/// One straight railway ray leaving a node, as a set.
#[derive(Debug, Clone, Copy)]
pub struct StraightRay<S> {
    /// Every node of the ray.
    pub nodes: S,
    pub order: RayOrder,
}

/// How a ray's node numbers run away from its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RayOrder {
    /// Rising: the nearest occupied node is the lowest.
    Rising,
    /// Falling: the nearest occupied node is the highest.
    Falling,
    /// Neither (a line that bends across the numbering): scanned node by node.
    Mixed,
}

impl<S: NodeSet> StraightRay<S> {
    fn of(ray: &[Square]) -> StraightRay<S> {
        let order = if ray.windows(2).all(|w| w[0] < w[1]) {
            RayOrder::Rising
        } else if ray.windows(2).all(|w| w[0] > w[1]) {
            RayOrder::Falling
        } else {
            RayOrder::Mixed
        };
        StraightRay {
            nodes: ray.iter().fold(S::default(), |s, &sq| s.with(sq)),
            order,
        }
    }
}

/// A board graph with precomputed neighbour sets and straight railway rays.
#[derive(Debug)]
pub struct Board<S> {
    pub name: String,
    pub seat_names: Vec<String>,
    pub nodes: Vec<Node>,
    /// Neighbours by any edge.
    pub adjacent: Vec<S>,
    /// Neighbours by railway edges.
    pub rail_adjacent: Vec<S>,
    /// Per node, the straight rays leaving it: nodes in order of distance along a railway line.
    pub rays: Vec<Vec<Vec<Square>>>,
    /// Per node and ray, the set of the ray's first k+1 nodes at index k: a straight slide
    /// adds one set once its first occupied node is found.
    pub ray_prefixes: Vec<Vec<Vec<S>>>,
    /// Per node, its rays as sets (in the order of `rays`): a slide finds its first occupied
    /// node by one bit scan when the ray's node numbers only rise or only fall.
    pub straight: Vec<Vec<StraightRay<S>>>,
    pub camps: S,
    pub headquarters: S,
    pub rail_nodes: S,
    /// Per seat, the nodes of its half (or arm).
    pub halves: Vec<S>,
    /// Per seat, its team (seats of a team are allies); every seat alone when the data names none.
    pub teams: Vec<u8>,
    /// Some team has more than one seat (the four-player game); decided once, when loaded.
    teamed: bool,
    /// Number of edges and of railway edges, as loaded.
    pub edge_count: usize,
    pub railway_count: usize,
    by_name: BTreeMap<String, Square>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFile {
    format: String,
    name: String,
    seats: Vec<String>,
    #[serde(default)]
    teams: Vec<Vec<String>>,
    nodes: Vec<NodeEntry>,
    roads: Vec<String>,
    railways: Vec<String>,
    lines: Vec<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeEntry {
    name: String,
    kind: NodeKind,
    seat: Option<String>,
    #[serde(default)]
    row: u8,
    x: Option<u8>,
    y: Option<u8>,
}

/// The expected sizes of a board, checked when it is loaded.
pub struct Expected {
    pub nodes: usize,
    pub edges: usize,
    pub railways: usize,
}

impl<S: NodeSet> Board<S> {
    /// Parses board data and checks it against the expected counts and its own consistency.
    pub fn from_toml(text: &str, expected: &Expected) -> Result<Self, String> {
        let file: BoardFile = toml::from_str(text).map_err(|e| e.to_string())?;
        if file.format != "qijudge/board/1" {
            return Err(format!("unknown board format {:?}", file.format));
        }
        let n = file.nodes.len();
        if n != expected.nodes || n > S::CAPACITY {
            return Err(format!("{} nodes, expected {}", n, expected.nodes));
        }
        let mut by_name = BTreeMap::new();
        let mut nodes = Vec::with_capacity(n);
        for (i, e) in file.nodes.into_iter().enumerate() {
            let seat = match &e.seat {
                None => None,
                Some(name) => Some(
                    file.seats
                        .iter()
                        .position(|s| s == name)
                        .ok_or_else(|| format!("node {}: unknown seat {name}", e.name))?,
                ),
            };
            // Names are read inside moves (`a6-a9`), so they cannot hold a dash.
            if e.name.is_empty() || !e.name.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return Err(format!("node {:?}: names are letters and digits", e.name));
            }
            if by_name.insert(e.name.clone(), i).is_some() {
                return Err(format!("node {} listed twice", e.name));
            }
            nodes.push(Node {
                name: e.name,
                kind: e.kind,
                seat: seat.map(|s| Seat(s as u8)),
                row: e.row,
                grid: e.x.zip(e.y),
            });
        }
        let mut adjacent = vec![S::default(); n];
        let mut rail_adjacent = vec![S::default(); n];
        let mut edge_count = 0;
        for (list, rail) in [(&file.roads, false), (&file.railways, true)] {
            for edge in list {
                let (a, b) = edge
                    .split_once('-')
                    .and_then(|(a, b)| Some((*by_name.get(a)?, *by_name.get(b)?)))
                    .ok_or_else(|| format!("bad edge {edge}"))?;
                if a == b || adjacent[a].contains(b) {
                    return Err(format!("edge {edge} repeated or a loop"));
                }
                adjacent[a] = adjacent[a].with(b);
                adjacent[b] = adjacent[b].with(a);
                if rail {
                    rail_adjacent[a] = rail_adjacent[a].with(b);
                    rail_adjacent[b] = rail_adjacent[b].with(a);
                }
                edge_count += 1;
            }
        }
        let railway_count = file.railways.len();
        if edge_count != expected.edges || railway_count != expected.railways {
            return Err(format!(
                "{edge_count} edges ({railway_count} railway), expected {} ({})",
                expected.edges, expected.railways
            ));
        }
        let mut rays = vec![Vec::new(); n];
        let mut on_a_line = vec![S::default(); n];
        for line in &file.lines {
            let idx: Vec<Square> = line
                .iter()
                .map(|s| {
                    by_name
                        .get(s)
                        .copied()
                        .ok_or_else(|| format!("line names {s}"))
                })
                .collect::<Result<_, _>>()?;
            for w in idx.windows(2) {
                if !rail_adjacent[w[0]].contains(w[1]) {
                    let (a, b) = (&nodes[w[0]].name, &nodes[w[1]].name);
                    return Err(format!("line step {a}-{b} is not a railway edge"));
                }
                on_a_line[w[0]] = on_a_line[w[0]].with(w[1]);
                on_a_line[w[1]] = on_a_line[w[1]].with(w[0]);
            }
            for (k, &node) in idx.iter().enumerate() {
                let ahead: Vec<Square> = idx[k + 1..].to_vec();
                let behind: Vec<Square> = idx[..k].iter().rev().copied().collect();
                rays[node].extend([ahead, behind].into_iter().filter(|r| !r.is_empty()));
            }
        }
        let set_of = |f: &dyn Fn(&Node) -> bool| {
            (0..n)
                .filter(|&i| f(&nodes[i]))
                .fold(S::default(), |s, i| s.with(i))
        };
        let camps = set_of(&|x| x.kind == NodeKind::Camp);
        let headquarters = set_of(&|x| x.kind == NodeKind::Hq);
        let rail_nodes = set_of(&|x| x.kind == NodeKind::Rail);
        for (i, node) in nodes.iter().enumerate() {
            if rail_nodes.contains(i) == rail_adjacent[i].is_empty() {
                return Err(format!(
                    "node {}: kind disagrees with its railway edges",
                    node.name
                ));
            }
            // A railway edge on no straight line could never be used by a non-engineer's slide.
            if let Some(j) = rail_adjacent[i].minus(on_a_line[i]).first() {
                return Err(format!(
                    "railway {}-{} lies on no straight line",
                    node.name, nodes[j].name
                ));
            }
        }
        let halves: Vec<S> = (0..file.seats.len())
            .map(|s| set_of(&|x| x.seat == Some(Seat(s as u8))))
            .collect();
        // Every seat's half is the 30-node half of the rules: 5 camps, 2 headquarters.
        for (s, half) in halves.iter().enumerate() {
            let (camps, hqs) = (half.and(camps).count(), half.and(headquarters).count());
            if (half.count(), camps, hqs) != (30, 5, 2) {
                return Err(format!(
                    "seat {}: {} nodes, {camps} camps, {hqs} headquarters; expected 30, 5, 2",
                    file.seats[s],
                    half.count()
                ));
            }
        }
        let mut teams: Vec<Option<u8>> = vec![None; file.seats.len()];
        for (t, team) in file.teams.iter().enumerate() {
            for name in team {
                let s = file
                    .seats
                    .iter()
                    .position(|x| x == name)
                    .ok_or_else(|| format!("team {t}: unknown seat {name}"))?;
                if teams[s].replace(t as u8).is_some() {
                    return Err(format!("seat {name} is in two teams"));
                }
            }
        }
        let teams = if file.teams.is_empty() {
            (0..file.seats.len() as u8).collect()
        } else {
            teams
                .into_iter()
                .collect::<Option<Vec<u8>>>()
                .ok_or("every seat needs a team")?
        };
        let teamed = teams
            .iter()
            .enumerate()
            .any(|(s, t)| teams[..s].contains(t));
        let ray_prefixes = rays
            .iter()
            .map(|node_rays| {
                node_rays
                    .iter()
                    .map(|ray| {
                        ray.iter()
                            .scan(S::default(), |set, &sq| {
                                *set = set.with(sq);
                                Some(*set)
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let straight = rays
            .iter()
            .map(|node_rays| node_rays.iter().map(|r| StraightRay::of(r)).collect())
            .collect();
        Ok(Board {
            straight,
            teamed,
            name: file.name,
            seat_names: file.seats,
            nodes,
            adjacent,
            rail_adjacent,
            rays,
            ray_prefixes,
            camps,
            headquarters,
            rail_nodes,
            halves,
            teams,
            edge_count,
            railway_count,
            by_name,
        })
    }

    /// The index of a node by name (`a1`).
    pub fn square(&self, name: &str) -> Option<Square> {
        self.by_name.get(name).copied()
    }

    /// How the squares are named, for a message: the first and last name of each run of names
    /// (`a1 … e12`; on the cross board `sa1 … se6, …`), a run being the names that share their
    /// first letter where the letters before the number are two or more, else all of them.
    pub fn naming(&self) -> String {
        let split = |n: &str| {
            let at = n.find(|c: char| c.is_ascii_digit()).unwrap_or(n.len());
            (n[..at].to_string(), n[at..].parse::<u32>().unwrap_or(0))
        };
        let mut runs: Vec<(String, Vec<(String, u32)>)> = Vec::new();
        for node in &self.nodes {
            let (letters, number) = split(&node.name);
            let run = match letters.len() {
                0 | 1 => String::new(),
                _ => letters[..1].to_string(),
            };
            match runs.iter_mut().find(|(r, _)| *r == run) {
                Some((_, names)) => names.push((letters, number)),
                None => runs.push((run, vec![(letters, number)])),
            }
        }
        runs.iter()
            .map(|(_, names)| {
                let first = names.iter().min().cloned().unwrap_or_default();
                let last = names.iter().max().cloned().unwrap_or_default();
                format!("{}{} … {}{}", first.0, first.1, last.0, last.1)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The name of a node.
    pub fn name_of(&self, sq: Square) -> &str {
        &self.nodes[sq].name
    }

    /// A seat by its name (`south`).
    pub fn seat(&self, name: &str) -> Option<Seat> {
        self.seat_names
            .iter()
            .position(|s| s == name)
            .map(|i| Seat(i as u8))
    }

    pub fn seat_name(&self, seat: Seat) -> &str {
        &self.seat_names[seat.index()]
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.seat_names.len() as u8).map(Seat)
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether two different seats play in one team.
    pub fn allies(&self, a: Seat, b: Seat) -> bool {
        a != b && self.teams[a.index()] == self.teams[b.index()]
    }

    /// Whether the board has teams of more than one seat (the four-player game).
    pub fn has_teams(&self) -> bool {
        self.teamed
    }

    /// The seats of `seat`'s team, itself included, in seat order.
    /// The other seats of `seat`'s team (none on the two-player board).
    pub fn allies_of(&self, seat: Seat) -> Vec<Seat> {
        self.seats().filter(|&t| self.allies(seat, t)).collect()
    }

    pub fn team_of(&self, seat: Seat) -> Vec<Seat> {
        self.seats()
            .filter(|&t| self.teams[t.index()] == self.teams[seat.index()])
            .collect()
    }
}

/// The board data of the two-player game.
pub const TWO_PLAYER_DATA: &str = include_str!("../shipped/board-2p.toml");

/// The board data of the four-player game.
pub const CROSS_FOUR_DATA: &str = include_str!("../shipped/board-cross4.toml");

/// The expected sizes of the two boards.
pub const TWO_PLAYER_SIZE: Expected = Expected {
    nodes: 60,
    edges: 133,
    railways: 35,
};
pub const CROSS_FOUR_SIZE: Expected = Expected {
    nodes: 129,
    edges: 288,
    railways: 92,
};

/// The four-player cross board (129 nodes, 288 edges, 92 railway), loaded once.
pub fn cross_four() -> &'static Board<Wide> {
    static BOARD: OnceLock<Board<Wide>> = OnceLock::new();
    BOARD.get_or_init(|| {
        // The data is compiled in and checked by the tests; failing here is a build defect.
        Board::from_toml(CROSS_FOUR_DATA, &CROSS_FOUR_SIZE).expect("built-in cross board data")
    })
}

/// The two-player board with the wide node set: the judge plays every board with one set type
/// (tests check it moves exactly as [`two_player`] does).
pub fn two_player_wide() -> &'static Board<Wide> {
    static BOARD: OnceLock<Board<Wide>> = OnceLock::new();
    BOARD.get_or_init(|| {
        Board::from_toml(TWO_PLAYER_DATA, &TWO_PLAYER_SIZE).expect("built-in 2-player board data")
    })
}

/// The boards a game may name in its manifest.
pub const BOARD_NAMES: [&str; 2] = ["2p", "cross4"];

/// A board by the name a manifest gives it (`2p`, `cross4`).
pub fn by_name(name: &str) -> Option<&'static Board<Wide>> {
    match name {
        "2p" => Some(two_player_wide()),
        "cross4" => Some(cross_four()),
        _ => None,
    }
}

/// The two-player board (60 nodes, 133 edges, 35 railway), loaded once.
pub fn two_player() -> &'static Board<u64> {
    static BOARD: OnceLock<Board<u64>> = OnceLock::new();
    BOARD.get_or_init(|| {
        // The data is compiled in and checked by the tests; failing here is a build defect.
        Board::from_toml(TWO_PLAYER_DATA, &TWO_PLAYER_SIZE).expect("built-in 2-player board data")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_player_board_matches_the_reference() {
        let b = two_player();
        assert_eq!(b.len(), 60);
        assert_eq!(b.edge_count, 133);
        assert_eq!(b.railway_count, 35);
        assert_eq!(b.rail_nodes.count(), 32);
        assert_eq!(b.camps.count(), 10);
        assert_eq!(b.headquarters.count(), 4);
        let names = |s: u64| {
            s.iter()
                .map(|i| b.name_of(i).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(b.headquarters), ["b1", "d1", "b12", "d12"]);
        assert_eq!(
            names(b.camps),
            ["b3", "d3", "c4", "b5", "d5", "b8", "d8", "c9", "b10", "d10"]
        );
        // Mountains: no edge across b6-b7 or d6-d7.
        assert!(!b.adjacent[b.square("b6").unwrap()].contains(b.square("b7").unwrap()));
        assert!(!b.adjacent[b.square("d6").unwrap()].contains(b.square("d7").unwrap()));
        // 32 camp diagonals: every camp has four diagonal roads.
        let diagonals: u32 = b
            .camps
            .iter()
            .map(|c| {
                let (f, r) = (c % 5, c / 5);
                b.adjacent[c]
                    .iter()
                    // A diagonal between two camps is counted from the lower one only.
                    .filter(|&m| m % 5 != f && m / 5 != r && (m > c || !b.camps.contains(m)))
                    .count() as u32
            })
            .sum();
        assert_eq!(diagonals, 32);
        for seat in b.seats() {
            let half = b.halves[seat.index()];
            assert_eq!(half.count(), 30);
            assert_eq!(half.and(b.camps).count(), 5);
            assert_eq!(half.and(b.headquarters).count(), 2);
        }
    }

    #[test]
    fn broken_data_is_refused() {
        let expected = TWO_PLAYER_SIZE;
        let dropped = TWO_PLAYER_DATA.replacen("\"a1-b1\", ", "", 1);
        assert!(Board::<u64>::from_toml(&dropped, &expected)
            .unwrap_err()
            .contains("132 edges"));
        let bad_line = TWO_PLAYER_DATA.replace("[\"c6\", \"c7\"]", "[\"c6\", \"c5\"]");
        assert!(Board::<u64>::from_toml(&bad_line, &expected)
            .unwrap_err()
            .contains("c6-c5"));
    }
}
