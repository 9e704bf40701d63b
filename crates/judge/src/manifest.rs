//! What every game's manifest shares, checked the same way for every game: format, game, id,
//! creation time, board, seats in order, and the keys (strict Ed25519, distinct, no published
//! sample key outside a sample game).

use crate::has_control;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::signing;
use qijudge_rules::hash::hex32;
use ssh_key::PublicKey;

/// What a game kind's manifest must say.
pub struct Kind<'a> {
    pub game: &'a str,
    pub id_prefix: &'a str,
    pub board: &'a str,
    pub seats: &'a [&'a str],
}

/// Checks what every manifest shares — format, game, id, creation time, board, seats in order —
/// and its keys (see [`check_keys`]).
pub fn check_frame(m: &ManifestFrame, kind: &Kind) -> Result<(Vec<PublicKey>, PublicKey)> {
    const F: &str = "game.toml";
    let bad = |field: &str, reason: String| refuse(F, Some(field), reason);
    if m.format != MANIFEST_FORMAT {
        return Err(bad("format", format!("expected {MANIFEST_FORMAT:?}")));
    }
    if m.game != kind.game {
        return Err(bad("game", format!("expected {}", kind.game)));
    }
    if !valid_id(kind.id_prefix, m.id) {
        return Err(bad(
            "id",
            format!("expected {} and 32 lower-case hex digits", kind.id_prefix),
        ));
    }
    if chrono::DateTime::parse_from_rfc3339(m.created).is_err() {
        return Err(bad("created", "expected an RFC 3339 time".into()));
    }
    if m.board != kind.board {
        return Err(bad(
            "board",
            format!("the {} board is {}", kind.game, kind.board),
        ));
    }
    let seats: Vec<&str> = m.players.iter().map(|p| p.seat.as_str()).collect();
    if seats != kind.seats {
        return Err(bad(
            "players",
            format!(
                "expected one player per seat, in the order {}",
                kind.seats.join(", ")
            ),
        ));
    }
    check_keys(m.players, m.judge, m.sample)
}

/// Checks the players' names and keys and the judge's key of a manifest: all parse as strict
/// Ed25519 keys, all distinct, and none a published sample key unless the game is a sample.
pub fn check_keys(
    players: &[Player],
    judge: &JudgeEntry,
    sample: bool,
) -> Result<(Vec<PublicKey>, PublicKey)> {
    const F: &str = "game.toml";
    let bad = |field: &str, reason: String| refuse(F, Some(field), reason);
    let judge_key =
        signing::parse_public_key(&judge.key).map_err(|e| bad("judge.key", e.to_string()))?;
    let mut player_keys = Vec::new();
    for (i, p) in players.iter().enumerate() {
        if p.name.is_empty() || p.name.chars().count() > 64 || has_control(&p.name) {
            return Err(bad(
                &format!("players[{i}].name"),
                "1 to 64 characters, no control or bidirectional-override characters".into(),
            ));
        }
        if p.email
            .as_deref()
            .is_some_and(|e| !qijudge_protocol::files::valid_address(e))
        {
            return Err(bad(
                &format!("players[{i}].email"),
                "a plain e-mail address (local@domain), nothing else".into(),
            ));
        }
        let key = signing::parse_public_key(&p.key)
            .map_err(|e| bad(&format!("players[{i}].key"), e.to_string()))?;
        if key.key_data() == judge_key.key_data()
            || player_keys
                .iter()
                .any(|k: &PublicKey| k.key_data() == key.key_data())
        {
            return Err(bad(
                &format!("players[{i}].key"),
                "every seat and the judge need distinct keys".into(),
            ));
        }
        player_keys.push(key);
    }
    if !sample {
        let all: Vec<&PublicKey> = player_keys
            .iter()
            .chain(std::iter::once(&judge_key))
            .collect();
        if let Some(i) = all.iter().position(|k| is_sample_key(k)) {
            let field = if i == player_keys.len() {
                "judge.key".to_string()
            } else {
                format!("players[{i}].key")
            };
            return Err(refuse_with(
                F,
                Some(&field),
                "is a published sample key, whose private half anyone can read",
                "make a key with qijudge keygen",
            ));
        }
    }
    Ok((player_keys, judge_key))
}

/// The public keys published with the sample games, whose private halves anyone can read.
const SAMPLE_KEYS: &str = include_str!("../sample-keys.pub");

/// Whether `key` is a public key of a shipped sample game (`sample-keys.pub`; each game's
/// definition names its own and the registry's tests check they are all listed): refused in
/// every other game.
pub fn is_sample_key(key: &PublicKey) -> bool {
    // Parsed once per process: every manifest a judge or a match reads is checked against them.
    static PARSED: std::sync::OnceLock<Vec<ssh_key::public::KeyData>> = std::sync::OnceLock::new();
    PARSED
        .get_or_init(|| {
            SAMPLE_KEYS
                .lines()
                .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
                .filter_map(|line| PublicKey::from_openssh(line.trim()).ok())
                .map(|k| k.key_data().clone())
                .collect()
        })
        .contains(key.key_data())
}

/// `prefix` followed by 32 lower-case hex digits.
pub fn valid_id(prefix: &str, id: &str) -> bool {
    id.strip_prefix(prefix)
        .is_some_and(|h| h.len() == 32 && hex32(&format!("{h}{h}")).is_some())
}

/// A game's rule options as its manifest carries them, and what its manifest must say: with
/// this, [`Seated`] reads, checks and makes the game's manifest like every other game's.
/// Implemented by a type of the game's own (its definition), naming its options type.
pub trait ManifestRules: Sized {
    /// The rule options of the manifest's `[rules]` table.
    type Options: serde::Serialize + serde::de::DeserializeOwned;
    /// The game, its id prefix, board and seats.
    const KIND: Kind<'static>;
    /// Whether the game has secrets a sealed (public) game would seal.
    const SEALABLE: bool;

    /// The checks beyond the shared frame, on the game's own options.
    fn check(_manifest: &GameManifest<Self::Options>) -> Result<()> {
        Ok(())
    }
}

/// A checked manifest of a two-seat game with its seats' keys and its hash: what the judge,
/// the views and the players' tools of such a game read.
pub struct Seated<R: ManifestRules> {
    pub manifest: GameManifest<R::Options>,
    pub hash: String,
    pub player_keys: Vec<PublicKey>,
    pub judge_key: PublicKey,
}

impl<R: ManifestRules> Seated<R> {
    /// Reads and checks `game.toml`.
    pub fn load(dir: &qijudge_store::GameDir) -> Result<Self> {
        const F: &str = "game.toml";
        let text = dir.read(F, qijudge_store::SMALL_FILE_LIMIT)?;
        let manifest: GameManifest<R::Options> =
            parse_toml(&text).map_err(|e| refuse(F, e.field.as_deref(), e.reason))?;
        let (player_keys, judge_key) = check_frame(&manifest.frame(), &R::KIND)?;
        if manifest.sealed && !R::SEALABLE {
            return Err(refuse(
                F,
                Some("sealed"),
                format!("{} has no secrets to seal", R::KIND.game),
            ));
        }
        R::check(&manifest)?;
        Ok(Seated {
            hash: qijudge_rules::hash::sha256_tagged(text.as_bytes()),
            manifest,
            player_keys,
            judge_key,
        })
    }

    pub fn frame(&self) -> crate::Frame<'_> {
        crate::Frame {
            id: &self.manifest.id,
            hash: &self.hash,
            judge_key: &self.judge_key,
            seats: R::KIND.seats,
            player_keys: &self.player_keys,
        }
    }

    /// A new manifest with the id `id_bytes` gives, in public play unless `sealed`.
    pub fn new_manifest(
        id_bytes: [u8; 16],
        created: String,
        sample: bool,
        rules: R::Options,
        clock: Option<Clock>,
        judge: JudgeEntry,
        players: Vec<Player>,
    ) -> GameManifest<R::Options> {
        GameManifest {
            format: MANIFEST_FORMAT.into(),
            game: R::KIND.game.into(),
            id: format!("{}{}", R::KIND.id_prefix, hex::encode(id_bytes)),
            created,
            sample,
            board: R::KIND.board.into(),
            rules,
            clock,
            sealed: false,
            judge,
            players,
        }
    }

    /// The judge's game for the rules contract (`rules::binding`): a fixed frame and `rules`.
    pub fn contract(rules: R::Options) -> Self {
        let frame = crate::contract::contract_frame(R::KIND.seats);
        let manifest = Self::new_manifest(
            [0; 16],
            crate::contract::CONTRACT_CREATED.into(),
            false,
            rules,
            None,
            frame.judge,
            frame.players,
        );
        Seated {
            hash: qijudge_rules::hash::sha256_tagged(to_toml(&manifest).as_bytes()),
            manifest,
            player_keys: frame.player_keys,
            judge_key: frame.judge_key,
        }
    }
}

/// (For tests.)
#[doc(hidden)]
impl<R: ManifestRules> Seated<R> {
    /// A game for unit tests: `rules`, fresh random keys for the judge and each seat (players
    /// alice and bob, or `seat-N` past two).
    pub fn with_new_keys(rules: R::Options) -> Self {
        let key = || {
            ssh_key::PrivateKey::random(&mut rand_core::OsRng, ssh_key::Algorithm::Ed25519)
                .expect("a fresh key")
                .public_key()
                .clone()
        };
        let player_keys: Vec<PublicKey> = R::KIND.seats.iter().map(|_| key()).collect();
        let judge_key = key();
        let players = R::KIND
            .seats
            .iter()
            .zip(&player_keys)
            .enumerate()
            .map(|(i, (seat, k))| Player {
                seat: seat.to_string(),
                name: ["alice", "bob"]
                    .get(i)
                    .map_or(format!("seat-{i}"), |n| n.to_string()),
                key: signing::public_key_line(k),
                email: None,
                digest: false,
            })
            .collect();
        let judge = JudgeEntry {
            key: signing::public_key_line(&judge_key),
        };
        let manifest = Self::new_manifest(
            [7; 16],
            "2026-11-24T00:00:00Z".into(),
            false,
            rules,
            None,
            judge,
            players,
        );
        Seated {
            hash: qijudge_rules::hash::sha256_tagged(to_toml(&manifest).as_bytes()),
            manifest,
            player_keys,
            judge_key,
        }
    }
}

/// Declares a game's referee: a type of the game's own crate holding its checked manifest
/// (`Seated<R>`, reached through `Deref`; `R` is the game's definition, which names its
/// options), so that the game can implement the judge's traits
/// for it. It reads (`load`), makes the rules contract's frame (`contract`) and, for tests, a
/// game with fresh keys (`with_new_keys`) as `Seated` does.
#[macro_export]
macro_rules! seated_game {
    ($(#[$meta:meta])* $vis:vis struct $name:ident($rules:ty);) => {
        $(#[$meta])*
        $vis struct $name(pub $crate::manifest::Seated<$rules>);

        impl ::std::ops::Deref for $name {
            type Target = $crate::manifest::Seated<$rules>;
            fn deref(&self) -> &Self::Target {
                &self.0
            }
        }

        impl $crate::pipeline::Framed for $name {
            fn frame(&self) -> $crate::Frame<'_> {
                $crate::pipeline::Framed::frame(&self.0)
            }
            fn clock(&self) -> Option<&::qijudge_protocol::files::Clock> {
                $crate::pipeline::Framed::clock(&self.0)
            }
            fn sealed(&self) -> bool {
                $crate::pipeline::Framed::sealed(&self.0)
            }
            fn players(&self) -> &[::qijudge_protocol::files::Player] {
                $crate::pipeline::Framed::players(&self.0)
            }
        }

        impl $name {
            /// Reads and checks `game.toml`.
            pub fn load(dir: &::qijudge_store::GameDir) -> ::qijudge_protocol::error::Result<Self> {
                $crate::manifest::Seated::<$rules>::load(dir).map($name)
            }

            /// The rules contract's game (fixed keys, nothing signed).
            pub fn contract(
                rules: <$rules as $crate::manifest::ManifestRules>::Options,
            ) -> Self {
                $name($crate::manifest::Seated::<$rules>::contract(rules))
            }

            /// A new manifest with the id `id_bytes` gives, in public play unless `sealed`.
            #[allow(clippy::too_many_arguments)]
            pub fn new_manifest(
                id_bytes: [u8; 16],
                created: String,
                sample: bool,
                rules: <$rules as $crate::manifest::ManifestRules>::Options,
                clock: Option<::qijudge_protocol::files::Clock>,
                judge: ::qijudge_protocol::files::JudgeEntry,
                players: Vec<::qijudge_protocol::files::Player>,
            ) -> ::qijudge_protocol::files::GameManifest<
                <$rules as $crate::manifest::ManifestRules>::Options,
            > {
                $crate::manifest::Seated::<$rules>::new_manifest(
                    id_bytes, created, sample, rules, clock, judge, players,
                )
            }

            /// A game with fresh random keys (tests).
            #[doc(hidden)]
            pub fn with_new_keys(
                rules: <$rules as $crate::manifest::ManifestRules>::Options,
            ) -> Self {
                $name($crate::manifest::Seated::<$rules>::with_new_keys(rules))
            }
        }
    };
}
