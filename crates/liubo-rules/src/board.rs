//! The 29 stations: the rim 1–20 counter-clockwise and the two lines of the cross through X.

use std::fmt;

/// A station: rim stations 1–20 are 0–19, then A B X C D (the line 6 → 16) and R S T U (the
/// line 11 → 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Station(u8);

pub const STATIONS: usize = 29;

const CROSS_NAMES: [&str; 9] = ["A", "B", "X", "C", "D", "R", "S", "T", "U"];

impl Station {
    /// Rim station 1–20.
    pub const fn rim(n: u8) -> Station {
        Station(n - 1)
    }
    pub const A: Station = Station(20);
    pub const B: Station = Station(21);
    pub const X: Station = Station(22);
    pub const C: Station = Station(23);
    pub const D: Station = Station(24);
    pub const R: Station = Station(25);
    pub const S: Station = Station(26);
    pub const T: Station = Station(27);
    pub const U: Station = Station(28);

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn from_index(i: usize) -> Option<Station> {
        (i < STATIONS).then_some(Station(i as u8))
    }

    /// The rim number 1–20, if on the rim.
    pub fn rim_number(self) -> Option<u8> {
        (self.0 < 20).then_some(self.0 + 1)
    }

    pub fn is_rim(self) -> bool {
        self.0 < 20
    }

    /// The next rim station counter-clockwise (20 → 1).
    pub fn rim_next(self) -> Station {
        Station((self.0 + 1) % 20)
    }

    /// Reads `1`–`20` or a cross letter (either case).
    pub fn parse(text: &str) -> Option<Station> {
        if let Ok(n) = text.parse::<u8>() {
            return (1..=20).contains(&n).then(|| Station::rim(n));
        }
        let upper = text.to_ascii_uppercase();
        CROSS_NAMES
            .iter()
            .position(|&c| c == upper)
            .map(|i| Station(20 + i as u8))
    }

    /// Every station, rim first.
    pub fn all() -> impl Iterator<Item = Station> {
        (0..STATIONS as u8).map(Station)
    }
}

impl fmt::Display for Station {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rim_number() {
            Some(n) => write!(f, "{n}"),
            None => f.write_str(CROSS_NAMES[self.0 as usize - 20]),
        }
    }
}

/// The two lines of the cross.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Line {
    /// 6 → A → B → X → C → D → 16.
    SixToSixteen,
    /// 11 → R → S → X → T → U → 1.
    ElevenToOne,
}

impl Line {
    /// The stations of the line, rim ends included, in the direction stones travel.
    pub fn stations(self) -> [Station; 7] {
        match self {
            Line::SixToSixteen => [
                Station::rim(6),
                Station::A,
                Station::B,
                Station::X,
                Station::C,
                Station::D,
                Station::rim(16),
            ],
            Line::ElevenToOne => [
                Station::rim(11),
                Station::R,
                Station::S,
                Station::X,
                Station::T,
                Station::U,
                Station::rim(1),
            ],
        }
    }

    /// The line a cross station other than X lies on.
    pub fn of(station: Station) -> Option<Line> {
        match station {
            Station::A | Station::B | Station::C | Station::D => Some(Line::SixToSixteen),
            Station::R | Station::S | Station::T | Station::U => Some(Line::ElevenToOne),
            _ => None,
        }
    }

    /// The line that starts at a rim station (6 or 11).
    pub fn starting_at(station: Station) -> Option<Line> {
        match station.rim_number() {
            Some(6) => Some(Line::SixToSixteen),
            Some(11) => Some(Line::ElevenToOne),
            _ => None,
        }
    }

    pub fn other(self) -> Line {
        match self {
            Line::SixToSixteen => Line::ElevenToOne,
            Line::ElevenToOne => Line::SixToSixteen,
        }
    }
}

/// The 32 edges of the station graph: the rim ring and the two lines.
pub fn edges() -> Vec<(Station, Station)> {
    let mut out: Vec<(Station, Station)> = (1..=20u8)
        .map(|n| (Station::rim(n), Station::rim(n).rim_next()))
        .collect();
    for line in [Line::SixToSixteen, Line::ElevenToOne] {
        let s = line.stations();
        out.extend(s.windows(2).map(|w| (w[0], w[1])));
    }
    out
}

/// Neighbours of each station in the graph.
pub fn neighbours(station: Station) -> Vec<Station> {
    edges()
        .into_iter()
        .filter_map(|(a, b)| {
            if a == station {
                Some(b)
            } else if b == station {
                Some(a)
            } else {
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_29_stations_and_32_edges() {
        assert_eq!(Station::all().count(), 29);
        assert_eq!(edges().len(), 32);
        let degree = |s: Station| neighbours(s).len();
        assert_eq!(degree(Station::X), 4);
        for n in [1, 6, 11, 16] {
            assert_eq!(degree(Station::rim(n)), 3, "cardinal {n}");
        }
        assert_eq!(degree(Station::rim(2)), 2);
        assert_eq!(degree(Station::A), 2);
        for s in Station::all() {
            assert_eq!(Station::parse(&s.to_string()), Some(s));
        }
        // The cross saves four steps: 6 → 16 is 10 round the rim, 6 by the cross.
        assert_eq!(Line::SixToSixteen.stations().len() - 1, 6);
    }
}
