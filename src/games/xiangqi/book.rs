//! Xiangqi's opening books: positions as FEN or EPD, one a line, or the games of a PGN file.

use crate::error::{Error, Result};

/// The openings of a FEN or EPD book, one a line.
pub fn fen_openings(text: &str, shown: &str) -> Result<Vec<String>> {
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = match fields.len() {
            0..=3 => {
                return Err(Error::Io(format!(
                    "--book {shown}: line {}: not a FEN or EPD position",
                    n + 1
                )))
            }
            6 if fields[4].parse::<u32>().is_ok() => fields.join(" "),
            _ => format!("{} 0 1", fields[..4].join(" ")),
        };
        let position = crate::games::xiangqi::rules::fen::parse(&fen)
            .map_err(|e| Error::Io(format!("--book {shown}: line {}: {e}", n + 1)))?;
        if !position.has_legal_move() {
            return Err(Error::Io(format!(
                "--book {shown}: line {}: the side to move has no legal move",
                n + 1
            )));
        }
        openings.push(fen);
    }
    Ok(openings)
}

/// The openings of a PGN book: each game's position after its moves.
pub fn pgn_openings(text: &str, shown: &str) -> Result<Vec<String>> {
    use crate::games::xiangqi::rules::{fen, notation, pgn};
    let games = pgn::read(text).map_err(|e| Error::Io(format!("--book {shown}: {e}")))?;
    let mut openings = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let at = |why: String| {
            Error::Io(format!(
                "--book {shown}: game {} (line {}): {why}",
                i + 1,
                g.line
            ))
        };
        let mut game = pgn::new_game(g, Default::default()).map_err(|e| at(e.to_string()))?;
        for (ply, m) in g.moves.iter().enumerate() {
            let parsed = notation::parse(game.position(), &m.text)
                .map_err(|e| at(format!("move {} {:?}: {e}", ply + 1, m.text)))?;
            game.play(parsed)
                .map_err(|e| at(format!("move {} {:?}: {e}", ply + 1, m.text)))?;
        }
        if game.ending().is_some() || !game.position().has_legal_move() {
            return Err(at("the game is over after its moves: not an opening".into()));
        }
        openings.push(fen::write(game.position()));
    }
    Ok(openings)
}
