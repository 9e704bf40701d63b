//! `qijudge games ROOT`: every game under a folder, whose turn it is and by when — for a player
//! with many games at one address, or an organiser with a folder of them. Each game is read as
//! `status` reads it; a game that cannot be read is listed with why, and the others go on.

use qijudge_game::report::Out;
use qijudge_protocol::error::{Error, Result};
use std::path::{Path, PathBuf};

/// How deep below the root game folders are looked for, and how many at most.
const MAX_DEPTH: usize = 6;
const MAX_GAMES: usize = 10_000;

/// Whose games to list: everyone's, or one player's by public key or by e-mail address.
#[derive(Default)]
pub struct Whose {
    /// `ssh-ed25519 AAAA…` (the key's type and body; a comment is ignored).
    pub key: Option<String>,
    pub address: Option<String>,
}

impl Whose {
    fn any(&self) -> bool {
        self.key.is_some() || self.address.is_some()
    }

    /// The seats of `players` that are this player's.
    fn seats_in(&self, players: &[Seat]) -> Vec<String> {
        players
            .iter()
            .filter(|p| {
                self.key
                    .as_deref()
                    .is_some_and(|k| key_body(&p.key) == key_body(k))
                    || self.address.as_deref().is_some_and(|a| {
                        p.email
                            .as_deref()
                            .is_some_and(|e| e.eq_ignore_ascii_case(a.trim()))
                    })
            })
            .map(|p| p.seat.clone())
            .collect()
    }
}

/// `ssh-ed25519 AAAA…` without a comment: a player's identity, whatever its key file's comment.
pub fn key_body(key: &str) -> String {
    key.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// A seat as the manifest names it.
#[derive(serde::Deserialize)]
struct Seat {
    seat: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    key: String,
    #[serde(default)]
    email: Option<String>,
}

#[derive(serde::Deserialize)]
struct Players {
    #[serde(default)]
    players: Vec<Seat>,
}

/// One game of the list.
#[derive(serde::Serialize)]
pub struct Listed {
    pub path: String,
    pub game: Option<String>,
    pub id: Option<String>,
    pub ply: Option<u64>,
    /// The seat to move and its player's name.
    pub to_move: Option<String>,
    pub to_move_player: Option<String>,
    /// When the move is due (RFC 3339), with a clock.
    pub deadline: Option<String>,
    /// The result in words, once over.
    pub over: Option<String>,
    /// The seats that are the asking player's.
    pub yours: Vec<String>,
    pub your_turn: bool,
    /// Why the game could not be read.
    pub error: Option<String>,
}

/// Every game folder under `root` (a folder holding `game.toml`; not looked into further),
/// sorted by path. Hidden folders are skipped, and links are not followed.
pub fn find(root: &Path) -> Result<Vec<PathBuf>> {
    if !root.is_dir() {
        return Err(Error::Io(format!(
            "{}: not a folder (give the folder that holds your games)",
            root.display()
        )));
    }
    let mut found = Vec::new();
    let mut stack = vec![(root.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        if dir.join("game.toml").is_file() {
            found.push(dir);
            if found.len() >= MAX_GAMES {
                break;
            }
            continue;
        }
        if depth >= MAX_DEPTH {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let hidden = e.file_name().to_string_lossy().starts_with('.');
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
            if is_dir && !hidden {
                stack.push((e.path(), depth + 1));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Lists the games under `root` as `whose` asks, the asker's turns first, then by deadline.
pub fn list(root: &Path, whose: &Whose, now: &str) -> Result<Vec<Listed>> {
    let mut out = Vec::new();
    for dir in find(root)? {
        let listed = read_one(&dir, root, whose, now);
        if !whose.any() || !listed.yours.is_empty() {
            out.push(listed);
        }
    }
    order(&mut out);
    Ok(out)
}

/// The asker's turns first, then games in play by deadline, then the rest, by path.
pub fn order(out: &mut [Listed]) {
    out.sort_by(|a, b| {
        (
            !a.your_turn,
            a.over.is_some(),
            a.deadline.is_none(),
            &a.deadline,
            &a.path,
        )
            .cmp(&(
                !b.your_turn,
                b.over.is_some(),
                b.deadline.is_none(),
                &b.deadline,
                &b.path,
            ))
    });
}

/// One game folder as `whose` sees the list; `path` is `dir` relative to `root`.
pub fn read_one(dir: &Path, root: &Path, whose: &Whose, now: &str) -> Listed {
    let path = dir
        .strip_prefix(root)
        .map(|p| p.display().to_string())
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| ".".into());
    let players: Vec<Seat> = std::fs::read_to_string(dir.join("game.toml"))
        .ok()
        .and_then(|t| toml::from_str::<Players>(&t).ok())
        .map(|p| p.players)
        .unwrap_or_default();
    let mut listed = Listed {
        path,
        game: None,
        id: None,
        ply: None,
        to_move: None,
        to_move_player: None,
        deadline: None,
        over: None,
        yours: whose.seats_in(&players),
        your_turn: false,
        error: None,
    };
    let status = crate::of_dir(dir)
        .and_then(|g| {
            listed.game = Some(g.name().to_string());
            g.status(dir, true, now)
        })
        .and_then(|r| r.into_result());
    let fields = match status {
        Ok(out) => out.into_iter().find_map(|o| match o {
            Out::Json(v) => Some(v),
            _ => None,
        }),
        Err(e) => {
            listed.error = Some(e.to_string());
            None
        }
    };
    let Some(f) = fields else {
        return listed;
    };
    listed.id = f["game"].as_str().map(str::to_string);
    listed.ply = f["ply"].as_u64();
    listed.to_move = f["to_move"].as_str().map(str::to_string);
    listed.to_move_player = listed.to_move.as_ref().and_then(|s| {
        players
            .iter()
            .find(|p| &p.seat == s)
            .map(|p| p.name.clone())
    });
    listed.deadline = f["deadline"]["due"].as_str().map(str::to_string);
    listed.over = (!f["result"].is_null()).then(|| result_words(&f["result"]));
    listed.your_turn = listed
        .to_move
        .as_ref()
        .is_some_and(|s| listed.yours.contains(s));
    listed
}

/// A result in words: the detail a game gives, else the winner and the reason.
fn result_words(r: &serde_json::Value) -> String {
    if let Some(detail) = r["detail"].as_str() {
        return detail.to_string();
    }
    let reason = r["reason"].as_str().unwrap_or("").replace('_', " ");
    match r["winner"].as_str() {
        Some(w) => format!("{w} wins ({reason})"),
        None => format!("draw ({reason})"),
    }
}

/// The list as lines: one per game, the asker's turns marked.
pub fn lines(listed: &[Listed], whose: &Whose) -> Vec<String> {
    if listed.is_empty() {
        return vec![nothing(whose)];
    }
    listed
        .iter()
        .map(|l| {
            let (game, ply, what) = parts(l);
            format!("{game}{ply}  {what}")
        })
        .collect()
}

/// What an empty list says.
fn nothing(whose: &Whose) -> String {
    match whose.any() {
        true => "no game of yours here".into(),
        false => "no game here".into(),
    }
}

/// One game of the list in three parts: which game (path, kind, the asker's seats), how far
/// it is (` after N plies`, or nothing), and where it stands (whose turn and by when, the
/// result, or why it cannot be read).
pub fn parts(l: &Listed) -> (String, String, String) {
    let what = match (&l.error, &l.over, &l.to_move) {
        (Some(e), _, _) => format!("cannot be read: {e}"),
        (None, Some(result), _) => format!("over: {result}"),
        (None, None, Some(seat)) => {
            let who = l
                .to_move_player
                .as_ref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            let due = l
                .deadline
                .as_ref()
                .map(|d| format!(", due {d}"))
                .unwrap_or_default();
            let mark = if l.your_turn { "YOUR TURN: " } else { "" };
            format!("{mark}{seat}{who} to move{due}")
        }
        (None, None, None) => "waiting (setups, or the judge's first run)".into(),
    };
    let game = l.game.as_deref().unwrap_or("?");
    // Plies played, as `status` counts them (the next ply is one more).
    let ply = l
        .ply
        .map(|p| format!(" after {p} {}", if p == 1 { "ply" } else { "plies" }))
        .unwrap_or_default();
    let yours = match l.yours.as_slice() {
        [] => String::new(),
        seats => format!(" [you: {}]", seats.join(", ")),
    };
    (format!("{}  {game}{yours}", l.path), ply, what)
}
