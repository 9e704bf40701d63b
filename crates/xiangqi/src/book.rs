//! Xiangqi's opening books: positions as FEN or EPD, one a line, or the games of a PGN file.

use qijudge_protocol::error::{Error, Result};

/// The openings of a FEN or EPD book, one a line.
pub fn fen_openings(text: &str, shown: &str) -> Result<Vec<String>> {
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = book_fen(line).ok_or_else(|| {
            Error::Io(format!(
                "--book {shown}: line {}: not a FEN or EPD position",
                n + 1
            ))
        })?;
        let position = xiangqi_rules::fen::parse(&fen)
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

/// A book line as a six-field FEN. Taken as engine testers ship them: a whole FEN (counters
/// included), a FEN without its counters or with only the side to move (`BOARD w`), or EPD,
/// whose opcodes may give the counters (`hmvc 3; fmvn 12;`) and are otherwise ignored.
fn book_fen(line: &str) -> Option<String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let (board, side) = (*fields.first()?, *fields.get(1)?);
    if !board.contains('/') || !matches!(side, "w" | "b" | "r") {
        return None;
    }
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<u32>().ok());
    let (halfmove, fullmove) = match (number(4), number(5)) {
        (Some(h), Some(f)) => (h, f),
        _ => {
            // EPD opcodes: `hmvc N;` and `fmvn N;`.
            let rest = fields.get(4..).map(|r| r.join(" ")).unwrap_or_default();
            let opcode = |name: &str| {
                rest.split(';').find_map(|op| {
                    let mut words = op.split_whitespace();
                    (words.next() == Some(name))
                        .then(|| words.next()?.parse::<u32>().ok())
                        .flatten()
                })
            };
            (opcode("hmvc").unwrap_or(0), opcode("fmvn").unwrap_or(1))
        }
    };
    Some(format!("{board} {side} - - {halfmove} {fullmove}"))
}

/// The openings of a PGN book: each game's position after its moves, or after its first
/// `plies` when given.
pub fn pgn_openings(text: &str, shown: &str, plies: Option<usize>) -> Result<Vec<String>> {
    use xiangqi_rules::{fen, notation, pgn};
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
        for (ply, m) in g.moves.iter().enumerate().take(plies.unwrap_or(usize::MAX)) {
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
