//! Checking recorded games: replay move by move, find the first illegal move, and say what the
//! rules force at the end.

use super::fen;
use super::game::{Ending, Game, Options};
use super::notation;
use super::pgn::PgnGame;
use serde::Serialize;

/// What checking one recorded game found.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct GameCheck {
    /// 1-based position of the game in its file.
    pub game: usize,
    /// The game's name: its `SampleId`, else `Event`, else nothing.
    pub name: Option<String>,
    /// `checkmate`, `stalemate`, `repetition`, `move-limit`, `illegal_move`, `bad_notation` (a
    /// move text in no notation), `ongoing`,
    /// `bad_start` (the FEN tag is invalid).
    pub status: &'static str,
    /// Plies replayed legally.
    pub plies: usize,
    /// The first refused move, if any.
    pub illegal: Option<IllegalMove>,
    /// What the rules force (`1-0`, `0-1`, `1/2-1/2`), when the game ended by the rules.
    pub rule_result: Option<&'static str>,
    /// Why the game ended (`checkmate: black is mated`, `perpetual check by red`, …).
    pub ending: Option<String>,
    /// The `Result` tag as recorded.
    pub result_tag: Option<String>,
    /// Whether the tag agrees with the rules (only when the rules decide and the tag is not `*`).
    pub result_agrees: Option<bool>,
    /// The legal moves in ICCS coordinates.
    pub moves: Vec<String>,
    pub final_fen: String,
}

/// The first move of a record that could not be played.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct IllegalMove {
    /// 1-based ply of the refused move.
    pub ply: usize,
    /// The move as written.
    pub text: String,
    pub reason: String,
}

/// Replays a recorded game.
pub fn check_game(index: usize, game: &PgnGame, options: Options) -> GameCheck {
    let name = game
        .tag("SampleId")
        .or_else(|| game.tag("Event"))
        .map(str::to_string);
    let result_tag = game.tag("Result").map(str::to_string);
    let mut report = GameCheck {
        game: index,
        name,
        status: "ongoing",
        plies: 0,
        illegal: None,
        rule_result: None,
        ending: None,
        result_tag,
        result_agrees: None,
        moves: Vec::new(),
        final_fen: String::new(),
    };
    let start = match fen::parse(game.tag("FEN").unwrap_or(fen::START)) {
        Ok(p) => p,
        Err(e) => {
            report.status = "bad_start";
            report.illegal = Some(IllegalMove {
                ply: 0,
                text: game.tag("FEN").unwrap_or_default().to_string(),
                reason: e.to_string(),
            });
            return report;
        }
    };
    let mut replay = Game::new(
        start,
        Options {
            record: true,
            ..options
        },
    );
    let mut syntax = false;
    for (i, recorded) in game.moves.iter().enumerate() {
        if let Some(ending) = replay.ending() {
            report.illegal = Some(IllegalMove {
                ply: i + 1,
                text: recorded.text.clone(),
                reason: format!("the game is already over ({ending})"),
            });
            break;
        }
        let parsed = notation::parse(replay.position(), &recorded.text);
        match parsed {
            Ok(m) => {
                replay.play(m).expect("parse checked legality");
                report.moves.push(m.to_string());
            }
            Err(e) => {
                // A text that is no move in any notation is a syntax error, not an illegal move.
                if matches!(e, notation::NotationError::Syntax { .. }) {
                    syntax = true;
                }
                report.illegal = Some(IllegalMove {
                    ply: i + 1,
                    text: recorded.text.clone(),
                    reason: e.to_string(),
                });
                break;
            }
        }
    }
    if report.illegal.is_none() {
        replay.finish_record();
    }
    report.plies = replay.moves().len();
    report.final_fen = fen::write(replay.position());
    if let Some(ending) = replay.ending() {
        report.status = status_of(ending);
        report.rule_result = Some(ending.winner().pgn());
        report.ending = Some(ending.to_string());
        report.result_agrees = report
            .result_tag
            .as_deref()
            .filter(|tag| *tag != "*")
            .map(|tag| tag == ending.winner().pgn());
    }
    if report.illegal.is_some() {
        report.status = match syntax {
            true => "bad_notation",
            false => "illegal_move",
        };
    }
    report
}

fn status_of(ending: &Ending) -> &'static str {
    match ending {
        Ending::Checkmate { .. } => "checkmate",
        Ending::Stalemate { .. } => "stalemate",
        Ending::PerpetualCheck { .. } | Ending::PerpetualChase { .. } | Ending::Repetition => {
            "repetition"
        }
        Ending::MoveLimit => "move-limit",
        _ => "ended",
    }
}
