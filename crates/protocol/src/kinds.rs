//! Every kind of file a player sends, declared once: what binds it to its place (game,
//! manifest, seat, ply, record head), what orders its versions, who may read it and which
//! transports carry it. The mail judge places a file only by this table, so a kind that is not
//! here cannot be read; the hostile suite (`tests/suite/file_kinds.rs`) runs its attacks over
//! every row, and refuses a row it has no attack for.

use super::files::*;
use super::signing::namespace;

/// What a file carries inside what is signed (or committed), tying it to one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Game,
    Manifest,
    Seat,
    Ply,
    /// The record head it answers: it cannot be moved to another point of the game.
    RecordHead,
}

/// What orders a kind's versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// One version ever: a different file at its place is refused.
    Once,
    /// Versions numbered by `seq` inside what is signed: the judge takes only a greater one than
    /// it holds, whatever the order of arrival, until the record names it.
    Sequence,
    /// Follows the version of the signed file it belongs to (its `seq`), never on its own.
    WithSigned,
}

/// Who may read a kind's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readers {
    Everyone,
    /// The judge (and the seat that wrote it); everyone once the game is over and the judge
    /// reveals it.
    JudgeUntilTheEnd,
    /// The judge and the seat, during the game and after it: only the part the record
    /// discloses (a fired line's played steps) is ever public.
    JudgeOnly,
}

/// How a kind proves who wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The seat's SSH signature in this namespace (`.sig` beside it).
    Signed(&'static str),
    /// Opens the seat's signed commitment.
    OpensCommitment,
    /// Each line matches its salted commitment in the seat's signed conditional file.
    MatchesConditional,
}

/// How a kind travels to the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Mail,
    Git,
    Folder,
}

/// One kind of player file.
#[derive(Debug)]
pub struct FileKind {
    pub name: &'static str,
    /// Its `format` values.
    pub formats: &'static [&'static str],
    /// Its folder: the file is `FOLDER/SEAT.toml`, or `FOLDER/PLY-SEAT.toml` for a kind bound
    /// to a ply.
    pub folder: &'static str,
    pub proof: Proof,
    pub binds: &'static [Bound],
    pub order: Order,
    pub readers: Readers,
    pub transports: &'static [Transport],
}

impl FileKind {
    /// Where a file of this kind for `seat` (and `ply`, for a kind bound to one) lives.
    pub fn path(&self, seat: &str, ply: u32) -> String {
        match self.binds.contains(&Bound::Ply) {
            true => format!("{}/{ply:04}-{seat}.toml", self.folder),
            false => format!("{}/{seat}.toml", self.folder),
        }
    }

    /// The SSH signature namespace, for a signed kind.
    pub fn namespace(&self) -> Option<&'static str> {
        match self.proof {
            Proof::Signed(ns) => Some(ns),
            _ => None,
        }
    }

    /// Whether its content is secret while the game goes on.
    pub fn secret(&self) -> bool {
        self.readers != Readers::Everyone
    }
}

use Bound::*;
use Transport::*;

/// Every kind of player file. (Sealed setups, `sealed/SEAT.age`, carry a setup, seed or nonce
/// of this table inside an envelope signed in `qijudge-sealed-file`; sealed plans,
/// `conditional/PLY-SEAT.age`, carry plans and are named by their conditional file.)
pub const KINDS: &[FileKind] = &[
    FileKind {
        name: "commitment",
        formats: &[
            COMMITMENT_FORMAT,
            CHAIN_COMMITMENT_FORMAT,
            NONCE_COMMITMENT_FORMAT,
        ],
        folder: "commitments",
        proof: Proof::Signed(namespace::COMMITMENT),
        binds: &[Game, Manifest, Seat],
        order: Order::Once,
        readers: Readers::Everyone,
        transports: &[Mail, Git, Folder],
    },
    FileKind {
        name: "secret",
        formats: &[SETUP_FORMAT, SEED_FORMAT, NONCE_FORMAT],
        folder: "setups",
        proof: Proof::OpensCommitment,
        binds: &[Game, Manifest, Seat],
        order: Order::Once,
        readers: Readers::JudgeUntilTheEnd,
        transports: &[Mail, Git, Folder],
    },
    FileKind {
        name: "move",
        formats: &[MOVE_FORMAT],
        folder: "moves",
        proof: Proof::Signed(namespace::MOVE),
        binds: &[Game, Manifest, Seat, Ply, RecordHead],
        order: Order::Once,
        readers: Readers::Everyone,
        transports: &[Mail, Git, Folder],
    },
    FileKind {
        name: "conditional",
        formats: &[CONDITIONAL_FORMAT],
        folder: "conditional",
        proof: Proof::Signed(namespace::CONDITIONAL),
        binds: &[Game, Manifest, Seat, Ply, RecordHead],
        order: Order::Sequence,
        readers: Readers::Everyone,
        transports: &[Mail, Git, Folder],
    },
    FileKind {
        name: "plans",
        formats: &[PLANS_FORMAT],
        folder: "plans",
        proof: Proof::MatchesConditional,
        binds: &[Game, Manifest, Seat, Ply],
        order: Order::WithSigned,
        readers: Readers::JudgeOnly,
        transports: &[Mail, Git, Folder],
    },
];

/// The folders of a game whose files everyone may read: those of the kinds read by everyone,
/// and `reveal/`, where the judge publishes the secrets after the end.
pub fn public_folders() -> impl Iterator<Item = &'static str> {
    KINDS
        .iter()
        .filter(|k| k.readers == Readers::Everyone)
        .map(|k| k.folder)
        .chain(["reveal"])
}

/// Whether `name` is a plain file name a game folder may hold: not empty, not hidden, only
/// ASCII letters, digits, `.`, `_` and `-` (so never a path of its own).
pub fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

/// The kind a `format` value belongs to.
pub fn by_format(format: &str) -> Option<&'static FileKind> {
    KINDS.iter().find(|k| k.formats.contains(&format))
}

/// The kind by its name.
pub fn by_name(name: &str) -> Option<&'static FileKind> {
    KINDS.iter().find(|k| k.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_one_kind_and_paths_follow_the_binding() {
        let mut formats: Vec<&str> = KINDS
            .iter()
            .flat_map(|k| k.formats.iter().copied())
            .collect();
        let n = formats.len();
        formats.sort();
        formats.dedup();
        assert_eq!(formats.len(), n, "a format in two kinds");
        assert_eq!(
            by_format(MOVE_FORMAT).unwrap().path("red", 7),
            "moves/0007-red.toml"
        );
        assert_eq!(
            by_format(SETUP_FORMAT).unwrap().path("south", 0),
            "setups/south.toml"
        );
        let public: Vec<&str> = public_folders().collect();
        assert_eq!(public, ["commitments", "moves", "conditional", "reveal"]);
        assert!(plain_name("0001-south.toml.sig") && !plain_name(".x") && !plain_name("a/b"));
        // Whatever may be replaced is ordered inside what is signed.
        for k in KINDS {
            if k.order == Order::Sequence {
                assert!(k.namespace().is_some(), "{}", k.name);
            }
        }
    }
}
