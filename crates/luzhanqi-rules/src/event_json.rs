//! Events as JSON: the stable, versioned form of [`Event`] (format `qijudge/luzhanqi-event/1`),
//! with squares and seats by name. Each line printed by `qijudge events` is one of these.

use super::board::{Board, Seat};
use super::event::{Audience, EndReason, Event, Fact, GameResult, Outcome};
use super::nodeset::NodeSet;
use super::piece::Piece;
use serde::{Deserialize, Serialize};

pub const EVENT_FORMAT: &str = "qijudge/luzhanqi-event/1";

/// An event with its audience (`everyone` or a seat name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventJson {
    pub format: String,
    pub audience: String,
    pub fact: FactJson,
}

/// A fact, by names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FactJson {
    Begin {
        first: String,
    },
    Placed {
        seat: String,
        squares: Vec<String>,
    },
    Identified {
        seat: String,
        pieces: Vec<(String, Piece)>,
    },
    Moved {
        seat: String,
        from: String,
        to: String,
        outcome: Outcome,
    },
    FlagRevealed {
        seat: String,
        square: String,
    },
    FlagTaken {
        seat: String,
        carrier: String,
    },
    FlagReturned {
        seat: String,
        square: String,
    },
    Resigned {
        seat: String,
    },
    Eliminated {
        seat: String,
        reason: EndReason,
    },
    GameOver {
        winner: Option<String>,
        reason: EndReason,
    },
}

impl EventJson {
    /// The JSON form of an event on `board`.
    pub fn from_event<S: NodeSet>(board: &Board<S>, e: &Event) -> EventJson {
        let seat = |s: Seat| board.seat_name(s).to_string();
        let sq = |q: usize| board.name_of(q).to_string();
        let fact = match &e.fact {
            Fact::Begin { first } => FactJson::Begin {
                first: seat(*first),
            },
            Fact::Placed { seat: s, squares } => FactJson::Placed {
                seat: seat(*s),
                squares: squares.iter().map(|q| sq(*q)).collect(),
            },
            Fact::Identified { seat: s, pieces } => FactJson::Identified {
                seat: seat(*s),
                pieces: pieces.iter().map(|(q, p)| (sq(*q), *p)).collect(),
            },
            Fact::Moved {
                seat: s,
                from,
                to,
                outcome,
            } => FactJson::Moved {
                seat: seat(*s),
                from: sq(*from),
                to: sq(*to),
                outcome: *outcome,
            },
            Fact::FlagRevealed { seat: s, square } => FactJson::FlagRevealed {
                seat: seat(*s),
                square: sq(*square),
            },
            Fact::FlagTaken { seat: s, carrier } => FactJson::FlagTaken {
                seat: seat(*s),
                carrier: sq(*carrier),
            },
            Fact::FlagReturned { seat: s, square } => FactJson::FlagReturned {
                seat: seat(*s),
                square: sq(*square),
            },
            Fact::Resigned { seat: s } => FactJson::Resigned { seat: seat(*s) },
            Fact::Eliminated { seat: s, reason } => FactJson::Eliminated {
                seat: seat(*s),
                reason: *reason,
            },
            Fact::GameOver(r) => FactJson::GameOver {
                winner: r.winner.map(seat),
                reason: r.reason,
            },
        };
        let audience = match e.audience {
            Audience::Everyone => "everyone".to_string(),
            Audience::Seat(s) => seat(s),
        };
        EventJson {
            format: EVENT_FORMAT.into(),
            audience,
            fact,
        }
    }

    /// Reads the JSON form back into an event on `board`.
    pub fn to_event<S: NodeSet>(&self, board: &Board<S>) -> Result<Event, String> {
        if self.format != EVENT_FORMAT {
            return Err(format!("format: expected {EVENT_FORMAT:?}"));
        }
        let seat = |s: &str| board.seat(s).ok_or_else(|| format!("unknown seat {s:?}"));
        let sq = |s: &str| {
            board
                .square(s)
                .ok_or_else(|| format!("unknown square {s:?}"))
        };
        let fact = match &self.fact {
            FactJson::Begin { first } => Fact::Begin {
                first: seat(first)?,
            },
            FactJson::Placed { seat: s, squares } => Fact::Placed {
                seat: seat(s)?,
                squares: squares.iter().map(|q| sq(q)).collect::<Result<_, _>>()?,
            },
            FactJson::Identified { seat: s, pieces } => Fact::Identified {
                seat: seat(s)?,
                pieces: pieces
                    .iter()
                    .map(|(q, p)| Ok((sq(q)?, *p)))
                    .collect::<Result<_, String>>()?,
            },
            FactJson::Moved {
                seat: s,
                from,
                to,
                outcome,
            } => Fact::Moved {
                seat: seat(s)?,
                from: sq(from)?,
                to: sq(to)?,
                outcome: *outcome,
            },
            FactJson::FlagRevealed { seat: s, square } => Fact::FlagRevealed {
                seat: seat(s)?,
                square: sq(square)?,
            },
            FactJson::FlagTaken { seat: s, carrier } => Fact::FlagTaken {
                seat: seat(s)?,
                carrier: sq(carrier)?,
            },
            FactJson::FlagReturned { seat: s, square } => Fact::FlagReturned {
                seat: seat(s)?,
                square: sq(square)?,
            },
            FactJson::Resigned { seat: s } => Fact::Resigned { seat: seat(s)? },
            FactJson::Eliminated { seat: s, reason } => Fact::Eliminated {
                seat: seat(s)?,
                reason: *reason,
            },
            FactJson::GameOver { winner, reason } => Fact::GameOver(GameResult {
                winner: winner.as_deref().map(seat).transpose()?,
                reason: *reason,
            }),
        };
        let audience = match self.audience.as_str() {
            "everyone" => Audience::Everyone,
            s => Audience::Seat(seat(s)?),
        };
        Ok(Event { audience, fact })
    }
}

#[cfg(test)]
mod tests {
    use super::super::random::{random_setup, SplitMix64};
    use super::super::{two_player, Options, Position};
    use super::*;

    #[test]
    fn every_event_of_random_games_round_trips() {
        let b = two_player();
        for seed in 0..20 {
            let mut rng = SplitMix64::new(seed);
            let options = Options {
                win: super::super::options::WinCondition::CarryFlag,
                ..Options::default()
            };
            let setups = [
                random_setup(b, Seat(0), &mut rng),
                random_setup(b, Seat(1), &mut rng),
            ];
            let (mut p, mut events) = Position::start(b, options, &setups, Seat(0));
            while p.result().is_none() && p.ply() < 300 {
                let moves = p.legal_moves();
                p.apply_unchecked(moves[rng.below(moves.len())], &mut events);
            }
            for e in &events {
                let json = serde_json::to_string(&EventJson::from_event(b, e)).unwrap();
                let back: EventJson = serde_json::from_str(&json).unwrap();
                assert_eq!(&back.to_event(b).unwrap(), e, "{json}");
            }
        }
        let line = serde_json::to_string(&EventJson::from_event(
            b,
            &Event::public(Fact::Moved {
                seat: Seat(0),
                from: b.square("a6").unwrap(),
                to: b.square("a7").unwrap(),
                outcome: Outcome::AttackerWon,
            }),
        ))
        .unwrap();
        assert_eq!(
            line,
            r#"{"format":"qijudge/luzhanqi-event/1","audience":"everyone","fact":{"kind":"moved","seat":"south","from":"a6","to":"a7","outcome":"attacker_won"}}"#
        );
    }
}
