//! One game as the site shows it, read from a copy of its public files: what the shared pages
//! (index, players, standings, feed) need, kept between runs, and the game's own files (its
//! page's parts, the replay page, the picture), written when the game is read.

use qijudge_game::ViewRequest;
pub use qijudge_registry::listing::key_body;
use qijudge_registry::listing::{read_one, Whose};
use qijudge_tournament::standings::{from_summary, GameRecord, Judges};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A seat as the manifest names it: no e-mail address, which the site never publishes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    pub seat: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub key: String,
}

/// The manifest's creation time and seats, as far as it can be read.
pub fn manifest_seats(dir: &Path) -> (Option<String>, Vec<Seat>) {
    #[derive(Deserialize)]
    struct Manifest {
        #[serde(default)]
        created: Option<String>,
        #[serde(default)]
        players: Vec<Seat>,
    }
    qijudge_store::read_limited(
        &dir.join("game.toml"),
        "game.toml",
        qijudge_store::SMALL_FILE_LIMIT,
    )
    .ok()
    .and_then(|t| toml::from_str::<Manifest>(&t).ok())
    .map_or((None, Vec::new()), |m| (m.created, m.players))
}

/// What the shared pages know of one game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The game folder below the root, `/`-separated (`.` for the root itself).
    pub path: String,
    /// The digest of the files its pages are made from ([`crate::public::fingerprint`]).
    pub fingerprint: String,
    /// The game's title in the site's language.
    pub title: Option<String>,
    pub id: Option<String>,
    pub created: Option<String>,
    pub players: Vec<Seat>,
    pub ply: Option<u64>,
    pub to_move: Option<String>,
    pub deadline: Option<String>,
    /// The result in words, once over.
    pub over: Option<String>,
    /// When the last move was received (the record's time of it).
    pub last_time: Option<String>,
    pub last_move: Option<String>,
    /// Why the game cannot be read.
    pub error: Option<String>,
    pub picture: bool,
    pub replay: bool,
    /// Its result for the standings, or why it is not counted (a finished game only).
    pub record: Option<GameRecord>,
    pub uncounted: Option<String>,
}

impl Entry {
    /// Whether the player with key `key` (a key body) holds a seat of this game.
    pub fn has_player(&self, key: &str) -> bool {
        self.players.iter().any(|p| key_body(&p.key) == key)
    }

    /// The seat to move's player key, while the game goes on.
    pub fn key_to_move(&self) -> Option<String> {
        let seat = self.to_move.as_ref()?;
        self.players
            .iter()
            .find(|p| &p.seat == seat)
            .map(|p| key_body(&p.key))
    }
}

/// A game's own files for the site: the page's text view, the move list, the replay page and
/// the picture, each when it can be made from the public files.
#[derive(Default)]
pub struct Parts {
    pub text: Option<String>,
    pub moves: Vec<String>,
    pub replay: Option<String>,
    pub picture: Option<Vec<u8>>,
}

/// Reads the game whose public files were copied to `copy`; `entry` holds what is known of it
/// already (its path below the root, its manifest's time and seats, its fingerprint). Every
/// text that names the copy's folder names the game's path instead.
pub fn read(
    copy: &Path,
    entry: Entry,
    chinese: bool,
    judges: Option<&Judges>,
    now: &str,
) -> (Entry, Parts) {
    let (shown, path) = (copy.display().to_string(), entry.path.clone());
    let clean = |text: String| text.replace(&shown, &path);
    let listed = read_one(copy, copy.parent().unwrap_or(copy), &Whose::default(), now);
    let game = qijudge_registry::of_dir(copy).ok();
    let mut entry = Entry {
        title: game.map(|g| match chinese {
            true => g.chinese_title().to_string(),
            false => g.title().to_string(),
        }),
        id: listed.id,
        ply: listed.ply,
        to_move: listed.to_move,
        deadline: listed.deadline,
        over: listed.over,
        error: listed.error.map(clean),
        ..entry
    };
    let mut parts = Parts::default();
    let (moves, last_time, last_ply) = record_moves(copy);
    entry.last_move = moves.last().cloned();
    // A game whose status counts turns, not plies (Liubo), still shows its plies.
    entry.ply = entry.ply.or(last_ply);
    entry.last_time = last_time;
    parts.moves = moves;
    let Some(game) = game else {
        return (entry, parts);
    };
    let request = ViewRequest {
        audience: "public",
        format: "text",
        chinese,
        key: None,
    };
    parts.text = game.view(copy, request).ok().and_then(|r| {
        let text: Vec<String> = r
            .out
            .into_iter()
            .filter_map(|o| match o {
                qijudge_game::report::Out::Text(t) | qijudge_game::report::Out::Line(t) => Some(t),
                _ => None,
            })
            .collect();
        (!text.is_empty()).then(|| clean(text.join("\n")))
    });
    parts.replay = game.html(copy, "public", chinese).ok().map(clean);
    parts.picture = ["views/public.png", "views/board.png"]
        .iter()
        .find_map(|p| std::fs::read(copy.join(p)).ok());
    entry.replay = parts.replay.is_some();
    entry.picture = parts.picture.is_some();
    if entry.over.is_some() && entry.error.is_none() {
        match game.summary_trusting_record(copy) {
            Err(e) => entry.uncounted = Some(clean(e.to_string())),
            Ok(s) => match judges.map(|j| j.check(&s.judge)) {
                None => entry.uncounted = Some("no judge named to count under".into()),
                Some(Err(why)) => entry.uncounted = Some(why),
                Some(Ok(())) => entry.record = Some(from_summary(&path, &s)),
            },
        }
    }
    (entry, parts)
}

/// The record's moves in words (`12. north c9-c8 (moved)`), when the last was received, and
/// its ply. A line this version cannot read is left out (the game's status says what is wrong).
fn record_moves(copy: &Path) -> (Vec<String>, Option<String>, Option<u64>) {
    use qijudge_protocol::files::{parse_json_line, Entry as Line, RecordLine};
    let Ok(text) = qijudge_store::read_limited(
        &copy.join("record.jsonl"),
        "record.jsonl",
        qijudge_store::RECORD_LIMIT,
    ) else {
        return (Vec::new(), None, None);
    };
    let mut moves = Vec::new();
    let (mut last, mut last_ply) = (None, None);
    for line in text.lines() {
        let Ok(RecordLine {
            entry:
                Line::Move {
                    ply,
                    seat,
                    received,
                    action,
                    outcome,
                    ..
                },
            ..
        }) = parse_json_line::<RecordLine>(line)
        else {
            continue;
        };
        let outcome = outcome
            .and_then(|o| serde_json::to_value(o).ok())
            .and_then(|v| v.as_str().map(|o| format!(" ({})", o.replace('_', " "))))
            .unwrap_or_default();
        moves.push(format!("{ply}. {seat} {action}{outcome}"));
        (last, last_ply) = (Some(received), Some(u64::from(ply)));
    }
    (moves, last, last_ply)
}
