//! The files of a game directory, as Rust types. Every signed or recorded file is accepted only
//! in canonical form: printing what was parsed must give back the same bytes.

use qijudge_rules::{EndReason, Outcome};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

pub const MANIFEST_FORMAT: &str = "qijudge/manifest/1";
pub const COMMITMENT_FORMAT: &str = "qijudge/commitment/1";
pub const SETUP_FORMAT: &str = "qijudge/setup/1";
pub const MOVE_FORMAT: &str = "qijudge/move/1";
pub const CONDITIONAL_FORMAT: &str = "qijudge/conditional/2";
pub const PLANS_FORMAT: &str = "qijudge/plans/1";
pub const RECORD_FORMAT: &str = "qijudge/record/1";
pub const VIEW_FORMAT: &str = "qijudge/view/1";

/// `game.toml`: what the organiser set up, the same frame for every game with the game's own
/// rule options (`R`). Its SHA-256 is bound into every signed file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameManifest<R> {
    /// Always `qijudge/manifest/1`.
    pub format: String,
    /// The game played, as the registry names it (`luzhanqi`, `xiangqi`, …).
    pub game: String,
    /// Random game id: the game's prefix (`lzq-`, `xq-`, …) and 32 hex digits (128 random
    /// bits).
    pub id: String,
    /// When the game was created (RFC 3339, UTC).
    pub created: String,
    /// True only for the shipped sample games, whose keys are public.
    pub sample: bool,
    /// The board, as the game names it (`2p`, `4p`, `9x10`, `4x8`, …).
    pub board: String,
    /// Every rule option, spelled out.
    pub rules: R,
    /// Deadlines, when the game has any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Played in public (git): secrets come sealed to the judge (`sealed/<seat>.age`); a game
    /// without secrets refuses it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sealed: bool,
    pub judge: JudgeEntry,
    /// One entry per seat, in seat order.
    pub players: Vec<Player>,
}

/// Deadlines (optional): time per move and grace, in minutes, and what happens after the grace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    pub move_minutes: u32,
    pub grace_minutes: u32,
    pub on_expiry: Expiry,
    /// Days of vacation each seat may take in this game (a `vacation` record line stops the
    /// seat's clock for that many days); 0 or absent: none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub vacation_days: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What the judge does when a move is not in by the end of its grace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Expiry {
    /// The player to move forfeits.
    Forfeit,
    /// The late move is refused; the organiser decides (`judge --forfeit`).
    Nothing,
}

/// What every game's manifest has, whatever its rules.
pub struct ManifestFrame<'a> {
    pub format: &'a str,
    pub game: &'a str,
    pub id: &'a str,
    pub created: &'a str,
    pub sample: bool,
    pub board: &'a str,
    pub judge: &'a JudgeEntry,
    pub players: &'a [Player],
}

impl<R> GameManifest<R> {
    /// The fields every manifest shares.
    pub fn frame(&self) -> ManifestFrame<'_> {
        ManifestFrame {
            format: &self.format,
            game: &self.game,
            id: &self.id,
            created: &self.created,
            sample: self.sample,
            board: &self.board,
            judge: &self.judge,
            players: &self.players,
        }
    }
}

/// `commitments/<seat>.toml` of a Jieqi game, signed by the player (namespace
/// `qijudge-commitment`): the hash of the player's shuffle nonce.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NonceCommitmentFile {
    /// Always `qijudge/nonce-commitment/1`.
    pub format: String,
    pub game: String,
    /// SHA-256 of `game.toml`, `sha256:<hex>`.
    pub manifest: String,
    pub seat: String,
    /// SHA-256 over the fields `qijudge/nonce/1`, the game id, the seat and the nonce (each
    /// preceded by its length as 8 bytes big-endian): 64 hex digits.
    pub commitment: String,
}

/// `setups/<seat>.toml` of a Jieqi game: the nonce handed to the judge only, published as
/// `reveal/<seat>.toml` after the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NonceFile {
    /// Always `qijudge/nonce/1`.
    pub format: String,
    pub game: String,
    pub manifest: String,
    pub seat: String,
    /// 32 random bytes, 64 hex digits.
    pub nonce: String,
}

pub const NONCE_COMMITMENT_FORMAT: &str = "qijudge/nonce-commitment/1";
pub const NONCE_FORMAT: &str = "qijudge/nonce/1";

/// The judge's public key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JudgeEntry {
    /// `ssh-ed25519 <base64>`.
    pub key: String,
}

/// A player and the key that signs their files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// `south` or `north`.
    pub seat: String,
    /// A display name.
    pub name: String,
    /// `ssh-ed25519 <base64>`.
    pub key: String,
    /// Where the judge mails this player's views (play by e-mail).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// The player reads this game in a daily digest of their games at the judge's address,
    /// not a mail per move (the mail command `digest` changes it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub digest: bool,
}

/// `commitments/<seat>.toml`, signed by the player (namespace `qijudge-commitment`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommitmentFile {
    /// Always `qijudge/commitment/1`.
    pub format: String,
    /// The game id.
    pub game: String,
    /// SHA-256 of `game.toml`, `sha256:<hex>`.
    pub manifest: String,
    pub seat: String,
    /// Commitment to the setup and its salt.
    pub setup: String,
    /// Commitment to the lot nonce.
    pub lot: String,
}

/// `setups/<seat>.toml`: the secret handed to the judge, and published as `reveal/<seat>.toml`
/// after the game. Anyone can then check it against the commitment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupFile {
    /// Always `qijudge/setup/1`.
    pub format: String,
    pub game: String,
    pub manifest: String,
    pub seat: String,
    /// 32 random bytes, 64 hex digits.
    pub salt: String,
    /// 32 random bytes, 64 hex digits: this seat's share of the first-mover lot.
    pub lot_nonce: String,
    /// The canonical setup: `square:CODE` per piece in square order, comma-separated.
    pub setup: String,
}

/// `conditional/<ply>-<seat>.toml`, signed by the player (namespace `qijudge-conditional`):
/// the seat's commitment to answers written in advance to the opponent's move at `ply`, while
/// the opponent is to move. It shows no plan: each line is a salted commitment (see
/// [`crate::protocol::plan`]), and the lines themselves ([`PlansFile`]) go to the judge alone.
/// A newer version (greater `seq`) replaces an older one; one with no lines withdraws them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConditionalFile {
    /// Always `qijudge/conditional/2`.
    pub format: String,
    pub game: String,
    pub manifest: String,
    /// The opponent's ply the lines start from.
    pub ply: u32,
    /// The seat that answers.
    pub seat: String,
    /// The record head before that ply, `sha256:<hex>`.
    pub answers: String,
    /// This version's number for the seat and ply, from 1: the judge takes only a greater one
    /// than it holds, so an older version can never come back.
    pub seq: u32,
    /// One salted commitment per line, `sha256:<hex>`, padded to a multiple of eight with digests
    /// nobody can tell from them, so that the number of lines does not show.
    pub lines: Vec<String>,
}

/// The lines a [`ConditionalFile`] commits to, with their salts: secret, for the judge alone
/// (`plans/<ply>-<seat>.toml` by mail, sealed into `conditional/<ply>-<seat>.age` in git).
/// Unsigned: each line is checked against its signed commitment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlansFile {
    /// Always `qijudge/plans/1`.
    pub format: String,
    pub game: String,
    pub manifest: String,
    pub ply: u32,
    pub seat: String,
    /// The `seq` of the conditional file these plans belong to.
    pub seq: u32,
    /// Each line: the opponent's move, this seat's answer, and so on, alternating, separated by
    /// spaces (`h9g7 h2e2 b9c7 b2c2`); a move of the opponent may name the combat outcome as
    /// the record shows it (`e6-e5/defender_won`).
    pub lines: Vec<String>,
    /// Each line's salt, 64 hex digits, in the same order.
    pub salts: Vec<String>,
}

/// `moves/<ply>-<seat>.toml`, signed by the player (namespace `qijudge-move`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveFile {
    /// Always `qijudge/move/1`.
    pub format: String,
    pub game: String,
    pub manifest: String,
    /// The ply this move is for (1 = the first move).
    pub ply: u32,
    pub seat: String,
    /// The record head this move answers, `sha256:<hex>`.
    pub answers: String,
    /// `from-to` (`a6-a9`), or `resign`.
    #[serde(rename = "move")]
    pub action: String,
    /// The mover offers a draw with this move; the opponent may answer `accept-draw`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub offer_draw: bool,
    /// Free text for the opponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Liubo in self mode: the index of the signer's own chain element this file reveals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_index: Option<u32>,
    /// Liubo in self mode: that chain element, 64 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<String>,
}

impl MoveFile {
    /// Its canonical TOML (what `to_toml` prints), written directly when every string in it is
    /// plain, which is every move a player's tools write: the judge reads and writes one move
    /// file per ply, and the general TOML writer and parser cost more than its signature.
    pub fn to_text(&self) -> String {
        plain_move_text(self).unwrap_or_else(|| to_toml(self))
    }

    /// Reads a move file, insisting on canonical bytes like [`parse_toml`], with the same
    /// result: a plain file is read directly; any other text goes through the TOML parser, which
    /// explains what is wrong with it.
    pub fn parse(text: &str) -> Result<MoveFile, FormatError> {
        match read_plain_move(text) {
            Some(m) => Ok(m),
            None => parse_toml(text),
        }
    }
}

/// A string the TOML writer prints as `"…"` unchanged and the string checks accept: printable
/// ASCII without quotes or backslashes, no space at either end.
fn is_plain(s: &str) -> bool {
    plain_ascii(s, b'\'') && !s.starts_with(' ') && !s.ends_with(' ')
}

/// Whether `s` is printable ASCII without `"`, `\` and `also`. Every byte is looked at, with
/// no early exit: the compiler then checks a vector at a time.
pub(crate) fn plain_ascii(s: &str, also: u8) -> bool {
    !s.bytes().fold(false, |unplain, b| {
        unplain | !(0x20..0x7f).contains(&b) | (b == b'"') | (b == b'\\') | (b == also)
    })
}

fn plain_move_text(m: &MoveFile) -> Option<String> {
    use std::fmt::Write;
    let strings = [
        Some(&m.format),
        Some(&m.game),
        Some(&m.manifest),
        Some(&m.seat),
        Some(&m.answers),
        Some(&m.action),
        m.comment.as_ref(),
        m.chain.as_ref(),
    ];
    if !strings.iter().flatten().all(|s| is_plain(s)) {
        return None;
    }
    let mut out = String::with_capacity(320);
    let _ = write!(
        out,
        "format = \"{}\"\ngame = \"{}\"\nmanifest = \"{}\"\nply = {}\nseat = \"{}\"\nanswers = \"{}\"\nmove = \"{}\"\n",
        m.format, m.game, m.manifest, m.ply, m.seat, m.answers, m.action
    );
    if m.offer_draw {
        out.push_str("offer_draw = true\n");
    }
    if let Some(c) = &m.comment {
        let _ = writeln!(out, "comment = \"{c}\"");
    }
    if let Some(i) = m.chain_index {
        let _ = writeln!(out, "chain_index = {i}");
    }
    if let Some(c) = &m.chain {
        let _ = writeln!(out, "chain = \"{c}\"");
    }
    Some(out)
}

/// The move file in `text` if `text` is exactly the plain canonical form of one; none for any
/// other text (which the TOML parser then reads or refuses).
fn read_plain_move(text: &str) -> Option<MoveFile> {
    let mut lines = text.strip_suffix('\n')?.split('\n').peekable();
    let mut field = |key: &str| -> Option<&str> {
        let value = lines.peek()?.strip_prefix(key)?.strip_prefix(" = ")?;
        lines.next();
        Some(value)
    };
    let string = |v: &str| -> Option<String> {
        let inner = v.strip_prefix('"')?.strip_suffix('"')?;
        is_plain(inner).then(|| inner.to_string())
    };
    let number = |v: &str| -> Option<u32> {
        (v.bytes().all(|b| b.is_ascii_digit()) && (v == "0" || !v.starts_with('0')))
            .then(|| v.parse().ok())
            .flatten()
    };
    let m = MoveFile {
        format: string(field("format")?)?,
        game: string(field("game")?)?,
        manifest: string(field("manifest")?)?,
        ply: number(field("ply")?)?,
        seat: string(field("seat")?)?,
        answers: string(field("answers")?)?,
        action: string(field("move")?)?,
        offer_draw: match field("offer_draw") {
            Some("true") => true,
            Some(_) => return None,
            None => false,
        },
        comment: field("comment")
            .map(string)
            .map_or(Some(None), |c| c.map(Some))?,
        chain_index: field("chain_index")
            .map(number)
            .map_or(Some(None), |c| c.map(Some))?,
        chain: field("chain")
            .map(string)
            .map_or(Some(None), |c| c.map(Some))?,
    };
    if lines.next().is_some() {
        return None;
    }
    // Every line was read as the writer prints it (the fields in order, each as `key = value`,
    // every string plain, every number without a leading zero), so the text is the canonical
    // one by construction; the proptests below hold the reader to the TOML parser.
    debug_assert_eq!(plain_move_text(&m).as_deref(), Some(text));
    Some(m)
}

/// One line of `record.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordLine {
    /// Position in the record, from 0.
    pub seq: u64,
    /// SHA-256 of the previous line's bytes; for line 0, the manifest hash.
    pub prev: String,
    pub entry: Entry,
}

/// Which conditional answer a move was: the file (`conditional/<ply>-<seat>.toml`), its line
/// (1 = the first), and the steps of that line played so far, disclosed with their salts so that
/// anyone can check them against the line's signed commitment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fired {
    pub path: String,
    pub line: u32,
    pub opened: crate::plan::Opening,
}

/// What a record line says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Entry {
    /// The game opens under this manifest.
    Start {
        format: String,
        game: String,
        manifest: String,
    },
    /// A seat's signed commitment file (its SHA-256) was accepted.
    Commitment { seat: String, file: String },
    /// A seat's secret setup matched its commitment and is legal.
    SetupAccepted { seat: String },
    /// Play begins. With a lot, the revealed nonces that drew the first mover.
    Begin {
        first: String,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        lot_nonces: BTreeMap<String, String>,
        /// When play began, for the first move's deadline (games with a clock).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// An accepted move file (its SHA-256), received at `received`, and what it publicly did.
    Move {
        ply: u32,
        seat: String,
        file: String,
        received: String,
        #[serde(rename = "move")]
        action: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<Outcome>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notices: Vec<Notice>,
        /// The move offered a draw.
        #[serde(default, skip_serializing_if = "is_false")]
        draw_offered: bool,
        /// Jieqi: what the face-down piece that moved turned out to be (its FEN letter).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        revealed: Option<String>,
        /// The move was the seat's conditional answer: `file` is then that conditional file's
        /// hash, and this names the file and the line that fired.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        conditional: Option<Fired>,
    },
    /// Liubo: throw `t` of `seat`'s turn, its two values, and the chain elements that made it.
    Throw {
        t: u32,
        seat: String,
        values: Vec<u8>,
        elements: BTreeMap<String, String>,
    },
    /// The judge ended the game on its own authority: `seat` forfeits (a missed deadline, a bot
    /// that crashed, hung or answered garbage). `reason` is a reason code.
    Forfeit {
        seat: String,
        reason: String,
        /// When the judge recorded it, if the game goes on (four players with a clock): the next
        /// player's time starts then.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// A match judge ended the game on its own authority: `winner` wins, or none for a draw.
    /// `reason` is a reason code (`score-resign`, `score-draw`, `max-moves`); the engines'
    /// evaluations it rests on are in the moves' comments.
    Adjudicated {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winner: Option<String>,
        reason: String,
    },
    /// The judge granted `seat` a vacation of `days` days from `at`, asked by the seat within
    /// the manifest's allowance: the seat's clock does not run meanwhile.
    Vacation { seat: String, days: u32, at: String },
    /// The game is over.
    End {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winner: Option<String>,
        /// The winner's allies, who win with it (the four-player board).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        allies: Vec<String>,
        reason: EndReason,
    },
}

/// Public facts besides a move's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "notice", rename_all = "snake_case", deny_unknown_fields)]
pub enum Notice {
    /// A marshal died: its owner's flag stands on `square`.
    FlagRevealed { seat: String, square: String },
    /// Flag-carrier variant: the piece on `carrier` took this seat's flag.
    FlagTaken { seat: String, carrier: String },
    /// Flag-carrier variant: the carrier died and the flag went home.
    FlagReturned { seat: String, square: String },
    /// Jieqi with `captured = "both"`: the face-down piece taken on `square` was `piece` (its
    /// FEN letter).
    Uncovered { square: String, piece: String },
    /// Four-player board: this seat is out and all its pieces left the board.
    Eliminated { seat: String, reason: EndReason },
}

pub fn is_false(b: &bool) -> bool {
    !b
}

/// Why a file's text was refused, with the field when one is to blame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    pub field: Option<String>,
    pub reason: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "field {field}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

/// The first line where two texts differ (1-based), for canonical-form errors.
fn first_difference(a: &str, b: &str) -> usize {
    a.lines()
        .zip(b.lines())
        .position(|(x, y)| x != y)
        .unwrap_or(a.lines().count().min(b.lines().count()))
        + 1
}

/// Parses TOML and insists on canonical bytes. Error messages never quote the file's content.
pub fn parse_toml<T: DeserializeOwned + Serialize>(text: &str) -> Result<T, FormatError> {
    let value: T = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        let reason = match line {
            Some(l) => format!("not valid: {} (line {l})", e.message().trim()),
            None => format!("not valid: {}", e.message().trim()),
        };
        FormatError {
            field: None,
            reason,
        }
    })?;
    let printed = to_toml(&value);
    if text.contains('\r') {
        return Err(FormatError {
            field: None,
            reason: "uses CR LF line ends; qijudge files use LF only".into(),
        });
    }
    if printed != text {
        return Err(FormatError {
            field: None,
            reason: format!(
                "not in canonical form (first difference on line {}); write it with qijudge, which prints \
                 fields in a fixed order with LF line ends",
                first_difference(text, &printed)
            ),
        });
    }
    if may_hold_unclean_string(text) {
        if let Ok(table) = text.parse::<toml::Table>() {
            check_strings(&toml::Value::Table(table), "")?;
        }
    }
    Ok(value)
}

/// Whether canonical TOML `text` may hold a string with a control character or surrounding
/// white space. In valid TOML only an escape, a tab, a multi-line string, a non-ASCII character
/// or a space beside a quote (other than `= "`) can make one, so most files (every move a bot
/// writes) skip the second parse on the judge's hot path.
fn may_hold_unclean_string(text: &str) -> bool {
    let b = text.as_bytes();
    !text.is_ascii()
        || b.iter().any(|&c| c == b'\\' || c == b'\t')
        || text.contains("\"\"\"")
        || text.contains("'''")
        || b.windows(2).enumerate().any(|(i, w)| match w {
            [b'"' | b'\'', b' '] => true,
            [b' ', b'"' | b'\''] => i == 0 || b[i - 1] != b'=',
            _ => false,
        })
}

/// Refuses a string value with a control character or surrounding white space anywhere in a
/// file: what a reader trims or a terminal interprets must never differ from what is recorded.
fn check_strings(value: &toml::Value, at: &str) -> Result<(), FormatError> {
    match value {
        toml::Value::String(s) => {
            let reason = if s.chars().any(char::is_control) {
                "holds a control character (tab, CR, escape...); write the value alone"
            } else if s.starts_with(char::is_whitespace) || s.ends_with(char::is_whitespace) {
                "has white space around the value; write the value alone"
            } else {
                return Ok(());
            };
            Err(FormatError {
                field: Some(at.to_string()),
                reason: reason.into(),
            })
        }
        toml::Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| check_strings(v, &format!("{at}[{i}]"))),
        toml::Value::Table(t) => t.iter().try_for_each(|(k, v)| {
            let path = match at {
                "" => k.clone(),
                _ => format!("{at}.{k}"),
            };
            check_strings(v, &path)
        }),
        _ => Ok(()),
    }
}

/// The canonical TOML of a file.
pub fn to_toml<T: Serialize>(value: &T) -> String {
    toml::to_string(value).expect("file types serialise to TOML")
}

/// Parses one JSON line and insists on canonical bytes.
pub fn parse_json_line<T: DeserializeOwned + Serialize>(line: &str) -> Result<T, FormatError> {
    let value: T = serde_json::from_str(line).map_err(|e| FormatError {
        field: None,
        reason: format!("not valid JSON: {}", strip_json_position(&e)),
    })?;
    if to_json_line(&value) != line {
        return Err(FormatError {
            field: None,
            reason: "not in canonical form".into(),
        });
    }
    Ok(value)
}

fn strip_json_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    s.split(" at line ").next().unwrap_or(&s).to_string()
}

/// Compact canonical JSON, fields in declaration order.
pub fn to_json_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("file types serialise to JSON")
}

/// Whether a text can go into a header: an address `local@domain` without spaces, quotes,
/// angle brackets or control characters.
pub fn valid_address(a: &str) -> bool {
    let ok_char = |c: char| c.is_ascii_graphic() && !"<>()[]\\,;:\"".contains(c);
    a.len() <= 254 && a.matches('@').count() == 1 && a.chars().all(ok_char) && {
        let (local, domain) = a.split_once('@').unwrap_or(("", ""));
        !local.is_empty()
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
    }
}

/// A top-level string or integer field of a TOML text, as text (a file's `format`, `seat`).
pub fn field_of(text: &str, name: &str) -> Option<String> {
    let value: toml::Table = toml::from_str(text).ok()?;
    match value.get(name)? {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// Strings of every kind a move file may hold: plain ones, and ones the fast path must
    /// leave to the TOML writer (quotes, backslashes, spaces at the ends, controls, non-ASCII).
    fn any_string() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z0-9:/-]{0,12}",
            "[ -~]{0,12}",
            "[ -~\t\u{3000}\u{85}\u{7f}\n'\"\\\\]{0,8}",
        ]
    }

    fn any_move() -> impl Strategy<Value = super::MoveFile> {
        (
            (any_string(), any_string(), any_string(), any::<u32>()),
            (any_string(), any_string(), any_string(), any::<bool>()),
            (
                proptest::option::of(any_string()),
                proptest::option::of(any::<u32>()),
                proptest::option::of(any_string()),
            ),
        )
            .prop_map(
                |(
                    (format, game, manifest, ply),
                    (seat, answers, action, offer_draw),
                    (comment, chain_index, chain),
                )| {
                    super::MoveFile {
                        format,
                        game,
                        manifest,
                        ply,
                        seat,
                        answers,
                        action,
                        offer_draw,
                        comment,
                        chain_index,
                        chain,
                    }
                },
            )
    }

    #[test]
    fn a_plain_move_file_takes_the_fast_path_both_ways() {
        let text = "format = \"qijudge/move/1\"\ngame = \"xq-59ea43c2a417a1fa134242197337aad2\"\nmanifest = \"sha256:9104\"\nply = 1\nseat = \"red\"\nanswers = \"sha256:d3e1\"\nmove = \"c3c4\"\noffer_draw = true\ncomment = \"well played, bob\"\n";
        let m = super::read_plain_move(text).expect("a plain file");
        assert_eq!(m.comment.as_deref(), Some("well played, bob"));
        assert_eq!(super::plain_move_text(&m).as_deref(), Some(text));
        assert_eq!(super::to_toml(&m), text);
        // Not canonical (a leading zero, a field out of order, CR LF): left to the full path.
        for bad in [
            text.replace("ply = 1", "ply = 01"),
            text.replace("offer_draw = true\n", "")
                .replace("seat", "zeat"),
            text.replace('\n', "\r\n"),
        ] {
            assert!(super::read_plain_move(&bad).is_none(), "{bad:?}");
            assert!(super::MoveFile::parse(&bad).is_err(), "{bad:?}");
        }
    }

    proptest! {
        /// The direct writer prints exactly what the TOML writer prints, whenever it answers.
        #[test]
        fn the_fast_move_writer_prints_the_canonical_text(m in any_move()) {
            let text = m.to_text();
            prop_assert_eq!(&text, &super::to_toml(&m));
            // And reading it back gives the same answer both ways.
            prop_assert_eq!(super::MoveFile::parse(&text), super::parse_toml::<super::MoveFile>(&text));
        }

        /// Any text, the canonical one changed anywhere: the fast reader and the TOML parser
        /// agree on every one (the same file, or both refuse).
        #[test]
        fn the_fast_move_reader_agrees_with_the_toml_parser(
            m in any_move(),
            at in any::<usize>(),
            cut in 0usize..3,
            insert in "[ -~\n\r]{0,3}",
        ) {
            let text = m.to_text();
            let mut at = at % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + cut).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            let changed = format!("{}{insert}{}", &text[..at], &text[end..]);
            let fast = super::MoveFile::parse(&changed).ok();
            let full = super::parse_toml::<super::MoveFile>(&changed).ok();
            prop_assert_eq!(fast, full, "{:?}", changed);
        }
    }

    #[test]
    fn a_string_that_needs_the_full_check_is_never_skipped() {
        use super::may_hold_unclean_string as may;
        assert!(!may("move = \"a6-a7\"\nply = 3\ncomment = \"\"\n"));
        for text in [
            "move = \" a6-a7\"\n",
            "move = \"a6-a7 \"\n",
            "rows = [\"a \"]\n",
            "move = \"a6\\r-a7\"\n",
            "move = \"a6-a7\t\"\n",
            "move = 'a6-a7 '\n",
            "name = \"\u{3000}bob\"\n",
            "name = \"\u{85}bob\"\n",
        ] {
            assert!(may(text), "{text:?}");
        }
    }

    use super::*;

    fn sample_move() -> MoveFile {
        MoveFile {
            format: MOVE_FORMAT.into(),
            game: "lzq-00112233445566778899aabbccddeeff".into(),
            manifest: format!("sha256:{}", "0".repeat(64)),
            ply: 3,
            seat: "south".into(),
            answers: format!("sha256:{}", "1".repeat(64)),
            action: "a6-a9".into(),
            offer_draw: false,
            comment: None,
            chain_index: None,
            chain: None,
        }
    }

    #[test]
    fn move_file_bytes_are_fixed() {
        let text = to_toml(&sample_move());
        assert_eq!(
            text,
            "format = \"qijudge/move/1\"\ngame = \"lzq-00112233445566778899aabbccddeeff\"\n\
             manifest = \"sha256:0000000000000000000000000000000000000000000000000000000000000000\"\n\
             ply = 3\nseat = \"south\"\n\
             answers = \"sha256:1111111111111111111111111111111111111111111111111111111111111111\"\n\
             move = \"a6-a9\"\n"
        );
        assert_eq!(parse_toml::<MoveFile>(&text).unwrap(), sample_move());
    }

    #[test]
    fn non_canonical_and_unknown_fields_are_refused() {
        let text = to_toml(&sample_move());
        let crlf = text.replace('\n', "\r\n");
        assert!(parse_toml::<MoveFile>(&crlf)
            .unwrap_err()
            .reason
            .contains("CR LF"));
        let reordered = format!("ply = 3\n{}", text.replace("ply = 3\n", ""));
        assert!(parse_toml::<MoveFile>(&reordered)
            .unwrap_err()
            .reason
            .contains("line 1"));
        let extra = format!("{text}extra = 1\n");
        assert!(parse_toml::<MoveFile>(&extra)
            .unwrap_err()
            .reason
            .contains("unknown field"));
        let secret = text.replace("move = \"a6-a9\"", "move = [\"SECRET-CONTENT\"");
        assert!(!parse_toml::<MoveFile>(&secret)
            .unwrap_err()
            .to_string()
            .contains("SECRET"));
    }

    #[test]
    fn record_lines_are_canonical_json() {
        let line = RecordLine {
            seq: 1,
            prev: format!("sha256:{}", "a".repeat(64)),
            entry: Entry::End {
                winner: Some("south".into()),
                allies: Vec::new(),
                reason: EndReason::FlagCaptured,
            },
        };
        let text = to_json_line(&line);
        assert_eq!(
            text,
            format!("{{\"seq\":1,\"prev\":\"sha256:{}\",\"entry\":{{\"kind\":\"end\",\"winner\":\"south\",\"reason\":\"flag_captured\"}}}}", "a".repeat(64))
        );
        assert_eq!(parse_json_line::<RecordLine>(&text).unwrap(), line);
        assert!(parse_json_line::<RecordLine>(&text.replace(":1,", ": 1,")).is_err());
    }
}

pub const CHAIN_COMMITMENT_FORMAT: &str = "qijudge/chain-commitment/1";

pub const SEED_FORMAT: &str = "qijudge/chain-seed/1";

/// `commitments/<seat>.toml` of a Liubo game, signed by the player (namespace
/// `qijudge-commitment`): the head of the player's throw chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChainCommitmentFile {
    /// Always `qijudge/chain-commitment/1`.
    pub format: String,
    pub game: String,
    pub manifest: String,
    pub seat: String,
    /// `e[0]`, 64 hex digits.
    pub chain: String,
    /// N, the chain length the manifest fixes.
    pub length: u32,
}

/// `setups/<seat>.toml` of a Liubo game: the chain seed, secret (escrow mode: handed to the
/// judge; self mode: kept by the player). Published as `reveal/<seat>.toml` after the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeedFile {
    /// Always `qijudge/chain-seed/1`.
    pub format: String,
    pub game: String,
    pub manifest: String,
    pub seat: String,
    /// 32 random bytes, 64 hex digits: `e[N]`.
    pub seed: String,
}
