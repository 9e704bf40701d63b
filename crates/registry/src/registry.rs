//! The one place that maps a manifest's `game` to its implementation.

use super::Game;
use qijudge_protocol::error::{refuse, Error, Result};
use qijudge_store::{GameDir, SMALL_FILE_LIMIT};

/// Every game this version judges. A new game is one line here.
pub static GAMES: &[&dyn Game] = &[
    &super::luzhanqi::Luzhanqi,
    &super::xiangqi::Xiangqi,
    &super::liubo::Liubo,
    &super::jieqi::Jieqi,
    &super::banqi::Banqi,
    // The toy that proves the definition, in the tests and `--features toy-game` only.
    #[cfg(any(test, feature = "toy-game"))]
    &super::nim::Nim,
];

/// The game a command means when it names none (`match`, `bot`), and the one an old match
/// state or manifest without a `game` field holds: the first game qijudge judged.
pub const DEFAULT_GAME: &str = "luzhanqi";

/// The game an engine-testing fleet plays when it names none (`-variant standard`): the one
/// whose engines speak UCI as chess engines do.
pub const DEFAULT_ENGINE_GAME: &str = "xiangqi";

/// The names of every game, for messages.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name()).collect()
}

/// The game whose views have this `format`.
pub fn by_view_format(format: &str) -> Option<&'static dyn Game> {
    GAMES.iter().copied().find(|g| g.view_format() == format)
}

/// The game called `name` (as `new` and the manifest's `game` spell it).
pub fn by_name(name: &str) -> Result<&'static dyn Game> {
    GAMES
        .iter()
        .copied()
        .find(|g| g.name() == name)
        .ok_or_else(|| {
            Error::Io(format!(
                "unknown game {name:?}; this version judges: {}",
                names().join(", ")
            ))
        })
}

/// The game a directory holds, from the `game` field of its `game.toml` (the rest of the
/// manifest is checked by the game itself).
pub fn of_dir(dir: &std::path::Path) -> Result<&'static dyn Game> {
    // (A packed game, `game-00001.tar.gz`, is a file holding its game.toml: read as it is.)
    if !dir.exists() {
        return Err(qijudge_protocol::error::refuse_with(
            dir.display().to_string(),
            None,
            "no such folder",
            "give the folder that holds the game's game.toml (check the path; `qijudge games \
             .` lists the games below the current folder)",
        ));
    }
    if dir.is_dir() && !dir.join("game.toml").exists() {
        return Err(qijudge_protocol::error::refuse_with(
            dir.display().to_string(),
            None,
            "not a game folder (it has no game.toml)",
            "give the folder that holds game.toml: the one `qijudge new` made, or your copy of \
             the game (made from the invitation's game.toml, or with `qijudge inbox NEW-FOLDER \
             MESSAGE`)",
        ));
    }
    let text = GameDir::new(dir).read("game.toml", SMALL_FILE_LIMIT)?;
    let value: toml::Table = toml::from_str(&text).map_err(|e| {
        refuse(
            "game.toml",
            None,
            format!("not valid TOML: {}", e.message().trim()),
        )
    })?;
    let Some(name) = value.get("game").and_then(|v| v.as_str()) else {
        return Err(refuse("game.toml", Some("game"), "missing"));
    };
    GAMES
        .iter()
        .copied()
        .find(|g| g.name() == name)
        .ok_or_else(|| {
            refuse(
                "game.toml",
                Some("game"),
                format!(
                    "{name:?} is not a game this version judges ({})",
                    names().join(", ")
                ),
            )
        })
}

/// `TOOL is for GAMES games, not GAME`, the games taken from the registry.
pub fn no_tool_text(game: &str, tool: &str) -> String {
    let with: Vec<&str> = GAMES
        .iter()
        .filter(|g| g.tools().contains(&tool))
        .map(|g| g.name())
        .collect();
    format!("{tool} is for {} games, not {game}", with.join(" and "))
}

/// The game called `name`, when it has the tool `tool`.
pub fn with_tool(name: &str, tool: &str) -> Result<&'static dyn Game> {
    let game = by_name(name)?;
    match game.tools().contains(&tool) {
        true => Ok(game),
        false => Err(Error::Io(no_tool_text(name, tool))),
    }
}

/// Every engine protocol some game's engines speak (`uci`, `ucci`, `ccgc`).
pub fn engine_protocols() -> Vec<&'static str> {
    let mut all: Vec<&str> = GAMES
        .iter()
        .flat_map(|g| g.engine_protocols().iter().map(|(p, _)| *p))
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// What engines speaking `protocol` play, in words (`xiangqi and jieqi`).
pub fn engines_play(protocol: &str) -> String {
    let plays: Vec<&str> = GAMES
        .iter()
        .flat_map(|g| g.engine_protocols().iter())
        .filter(|(p, _)| *p == protocol)
        .map(|(_, what)| *what)
        .collect();
    plays.join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_view_format_alone() {
        for game in GAMES {
            let found = by_view_format(game.view_format()).map(|g| g.name());
            assert_eq!(found, Some(game.name()));
        }
        assert!(by_view_format("qijudge/no-such-view/1").is_none());
    }
}
