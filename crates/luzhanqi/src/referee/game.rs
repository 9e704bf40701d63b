//! The manifest: reading and checking `game.toml` and its keys, and small helpers on names.

use luzhanqi_rules::board::BOARD_NAMES;
use luzhanqi_rules::nodeset::{NodeSet, Wide};
use luzhanqi_rules::*;
use qijudge_judge::manifest::{check_frame, Kind};
use qijudge_protocol::error::{refuse, Result};
use qijudge_protocol::files::*;
use qijudge_rules::hash::sha256_tagged;
use qijudge_store::{GameDir, SMALL_FILE_LIMIT};
use ssh_key::PublicKey;

/// Luzhanqi's `game.toml`.
pub type Manifest = GameManifest<Options>;

/// A checked manifest with its keys.
pub struct Game {
    pub manifest: Manifest,
    pub hash: String,
    pub player_keys: Vec<PublicKey>,
    pub judge_key: PublicKey,
    /// The board the manifest names.
    pub board: &'static Board<Wide>,
    /// The board's seat names, in seat order.
    pub seats: Vec<&'static str>,
}

/// The judge's game for the rules contract (`binding`): a fixed frame, `board` and
/// `options`.
pub fn contract_game(board: &'static Board<Wide>, options: Options) -> Game {
    let seats: Vec<&'static str> = board.seat_names.iter().map(String::as_str).collect();
    let frame = qijudge_judge::contract::contract_frame(&seats);
    let manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        game: "luzhanqi".into(),
        id: format!("lzq-{}", "00".repeat(16)),
        created: qijudge_judge::contract::CONTRACT_CREATED.into(),
        sample: false,
        board: board.name.clone(),
        rules: options,
        clock: None,
        sealed: false,
        judge: frame.judge,
        players: frame.players,
    };
    Game {
        hash: sha256_tagged(to_toml(&manifest).as_bytes()),
        manifest,
        player_keys: frame.player_keys,
        judge_key: frame.judge_key,
        board,
        seats,
    }
}

/// Reads and checks `game.toml`.
pub fn load_game(dir: &GameDir) -> Result<Game> {
    const F: &str = "game.toml";
    let text = dir.read(F, SMALL_FILE_LIMIT)?;
    let manifest: Manifest =
        parse_toml(&text).map_err(|e| refuse(F, e.field.as_deref(), e.reason))?;
    let board = by_name(&manifest.board).ok_or_else(|| {
        refuse(
            F,
            Some("board"),
            format!("the luzhanqi boards are {}", BOARD_NAMES.join(" and ")),
        )
    })?;
    manifest
        .rules
        .check_for_board(board.has_teams())
        .map_err(|e| refuse(F, Some("rules"), e))?;
    let seats: Vec<&'static str> = board.seat_names.iter().map(String::as_str).collect();
    let (player_keys, judge_key) = check_frame(
        &manifest.frame(),
        &Kind {
            game: "luzhanqi",
            id_prefix: "lzq-",
            board: &board.name,
            seats: &seats,
        },
    )?;
    Ok(Game {
        manifest,
        hash: sha256_tagged(text.as_bytes()),
        player_keys,
        judge_key,
        board,
        seats,
    })
}

/// Reads the canonical setup string (`a1:LM,b1:FL,…`) into a validated setup.
pub fn parse_canonical_setup<S: NodeSet>(
    text: &str,
    board: &Board<S>,
    seat: Seat,
) -> Result<Setup, String> {
    let entries = text
        .split(',')
        .map(|item| {
            item.split_once(':')
                .map(|(s, p)| (s.to_string(), p.to_string()))
                .ok_or_else(|| "expected square:CODE items".to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    Setup::validate(board, seat, &Placement { entries }).map_err(|problems| {
        problems
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    })
}
