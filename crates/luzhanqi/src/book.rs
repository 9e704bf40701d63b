//! Luzhanqi's opening books: armies for every seat, in TOML.

use qijudge_game::opening::Opening;
use qijudge_protocol::error::{Error, Result};

/// The openings of a Luzhanqi book: `[[opening]]` tables, each with `rows` (one army for every
/// seat, each reading the rows from its own side, as a setup file does) or an army per seat
/// (`south = [...]`, `north = [...]`; on the cross board all four seats), or both (`rows` for
/// the seats not named). Each army is checked as `qijudge setup` checks a player's.
pub fn army_openings(text: &str, board_name: &str, shown: &str) -> Result<Vec<Opening>> {
    use luzhanqi_rules::{by_name, Placement, Seat, Setup};
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        opening: Vec<std::collections::BTreeMap<String, Vec<String>>>,
    }
    let board = by_name(board_name)
        .ok_or_else(|| Error::Io(format!("--board: unknown board {board_name:?}")))?;
    let file: File = toml::from_str(text).map_err(|e| {
        Error::Io(format!(
            "--book {shown}: not a Luzhanqi book ([[opening]] tables of rows): {}",
            e.message()
        ))
    })?;
    let mut openings = Vec::new();
    for (i, table) in file.opening.iter().enumerate() {
        let at = |why: String| Error::Io(format!("--book {shown}: opening {}: {why}", i + 1));
        if let Some(name) = table
            .keys()
            .find(|k| *k != "rows" && !board.seat_names.contains(k))
        {
            return Err(at(format!(
                "{name:?} is not a seat of this board ({}) nor `rows`",
                board.seat_names.join(", ")
            )));
        }
        let mut armies = std::collections::BTreeMap::new();
        for (j, seat) in board.seat_names.iter().enumerate() {
            let rows = table
                .get(seat)
                .or_else(|| table.get("rows"))
                .ok_or_else(|| at(format!("no army for {seat} (give `rows` or `{seat}`)")))?;
            let mut setup = toml::Table::new();
            setup.insert("rows".into(), rows.clone().into());
            let setup = toml::to_string(&setup).map_err(|e| at(e.to_string()))?;
            let seat_id = Seat(j as u8);
            Placement::from_toml(&setup, board, seat_id)
                .and_then(|p| Setup::validate(board, seat_id, &p))
                .map_err(|problems| {
                    let list: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                    at(format!("{seat}'s army: {}", list.join("; ")))
                })?;
            armies.insert(seat.clone(), setup);
        }
        openings.push(Opening::Armies(armies));
    }
    Ok(openings)
}
