//! What a player writes: signatures, signed moves and conditional answers (each game's
//! commitments are its own). Used by the
//! `setup` and `move` commands and by the bot match runner, so both write the same bytes.

use qijudge_judge::move_path;
use qijudge_protocol::error::{Error, Result};
use qijudge_protocol::files::*;
use qijudge_protocol::signing::namespace;
use qijudge_protocol::signing::Sign;
use qijudge_store::GameDir;
use rand_core::{OsRng, RngCore};
use ssh_key::PrivateKey;

/// 32 fresh random bytes (salts, nonces).
pub fn random32() -> [u8; 32] {
    let mut b = [0u8; 32];
    OsRng.fill_bytes(&mut b);
    b
}

/// A player's signature on a file's bytes, by its key or through ssh-agent.
pub fn signed(key: &(impl Sign + ?Sized), namespace: &str, bytes: &[u8]) -> Result<String> {
    key.sign_file(namespace, bytes)
        .map_err(|e| Error::Io(format!("--key: {e}")))
}

/// The private key a sealed secret is signed and sealed with: the agent cannot open sealed
/// files, so a sealed game needs the key file.
pub fn key_for_sealing(key: &(impl Sign + ?Sized)) -> Result<&PrivateKey> {
    key.private().ok_or_else(|| {
        Error::Io(
            "--key: a sealed game needs your private key file (ssh-agent cannot open sealed files)"
                .into(),
        )
    })
}

/// A move about to be signed.
pub struct NewMove<'a> {
    pub ply: u32,
    /// The record head it answers.
    pub answers: &'a str,
    /// `from-to`, `resign` or `accept-draw`.
    pub action: &'a str,
    /// Offer a draw with this move.
    pub offer_draw: bool,
    pub comment: Option<String>,
    /// Liubo self mode: the signer's chain element revealed with this file (index, hex).
    pub chain: Option<(u32, String)>,
    /// Set aside the seat's own file already here for this ply (the judge refused it).
    pub replace: bool,
}

impl<'a> NewMove<'a> {
    /// A move and nothing else: no draw offer, no comment, no chain element (what bots and
    /// generated games write).
    pub fn plain(ply: u32, answers: &'a str, action: &'a str) -> NewMove<'a> {
        NewMove {
            ply,
            answers,
            action,
            offer_draw: false,
            comment: None,
            chain: None,
            replace: false,
        }
    }
}

/// Writes the signed move file of game `id` (manifest hash `manifest`); returns its path.
pub fn write_move(
    dir: &GameDir,
    id: &str,
    manifest: &str,
    seat: &str,
    key: &(impl Sign + ?Sized),
    mv: NewMove,
) -> Result<String> {
    let NewMove {
        ply,
        answers,
        action,
        offer_draw,
        comment,
        chain,
        replace,
    } = mv;
    let path = move_path(ply, seat);
    if dir.exists(&path) {
        if !replace {
            return Err(qijudge_protocol::error::refuse_with(
                &path,
                None,
                format!("you already moved for ply {ply}; a signed move is never replaced"),
                "wait for the judge's answer (in a git repository: pull); if the judge refused \
                 this file, `qijudge move … --replace` sets it aside and writes the new one",
            ));
        }
        qijudge_judge::candidates::set_aside(dir, &path)?;
    }
    let file = MoveFile {
        format: MOVE_FORMAT.into(),
        game: id.into(),
        manifest: manifest.into(),
        ply,
        seat: seat.into(),
        answers: answers.into(),
        action: action.into(),
        offer_draw,
        comment,
        chain_index: chain.as_ref().map(|(i, _)| *i),
        chain: chain.map(|(_, e)| e),
    };
    let text = file.to_text();
    dir.write(
        &format!("{path}.sig"),
        signed(key, namespace::MOVE, text.as_bytes())?.as_bytes(),
    )?;
    dir.write(&path, text.as_bytes())?;
    Ok(path)
}

/// What seat `seat` signs for the opponent's move at `ply`: its lines (`lines`, as a file line
/// writes them; none withdraws) answering record head `answers`, version `seq`.
pub struct Conditional<'a> {
    pub id: &'a str,
    pub manifest: &'a str,
    pub seat: &'a str,
    pub ply: u32,
    pub answers: &'a str,
    pub seq: u32,
    pub lines: Vec<String>,
}

/// Writes seat `seat`'s conditional answers: the plans in the clear for the judge's eyes only
/// (`plans/PLY-SEAT.toml`, sent by mail), the same plans sealed to `recipients` (the judge and
/// the seat: `conditional/PLY-SEAT.age`, for git), and the signed conditional file that
/// commits to each line with its own salt and shows none. Returns the conditional file's path.
pub fn write_conditional(
    dir: &GameDir,
    c: Conditional,
    key: &(impl Sign + ?Sized),
    recipients: &[&ssh_key::PublicKey],
) -> Result<String> {
    use qijudge_judge::conditional as cond;
    use qijudge_rules::hash::hash_fields;
    // Every salt and padding digest comes from the seat's own signature over this version's
    // place: unpredictable to anyone without the seat's key, and the same bytes each time the
    // same version is written (so the judge's outputs do not depend on chance).
    let seed = signed(
        key,
        namespace::PLAN_SALT,
        format!("{}\n{}\n{}\n{}\n", c.id, c.ply, c.seat, c.seq).as_bytes(),
    )?;
    let derived =
        |tag: &[u8], i: usize| hash_fields(&[tag, seed.as_bytes(), &(i as u64).to_be_bytes()]);
    let salts: Vec<[u8; 32]> = (0..c.lines.len())
        .map(|i| derived(b"qijudge/plan-salt/v1", i))
        .collect();
    let plans = PlansFile {
        format: PLANS_FORMAT.into(),
        game: c.id.into(),
        manifest: c.manifest.into(),
        ply: c.ply,
        seat: c.seat.into(),
        seq: c.seq,
        lines: c.lines.clone(),
        salts: salts.iter().map(hex::encode).collect(),
    };
    let plans_text = to_toml(&plans);
    let plans_path = cond::plans_path(c.ply, c.seat);
    let sealed = qijudge_protocol::seal::seal(
        &[qijudge_protocol::seal::Sealed {
            path: plans_path.clone(),
            bytes: plans_text.clone().into_bytes(),
        }],
        cond::PLANS_SIZE,
        recipients,
    )
    .map_err(|e| Error::Io(format!("--if: the plans cannot be sealed: {e}")))?;
    // Each line's commitment, then padding digests up to a multiple of eight (at least eight):
    // nobody can tell how many lines there are, nor a withdrawal from a plan.
    let mut commitments: Vec<String> = c
        .lines
        .iter()
        .zip(&salts)
        .map(|(moves, salt)| qijudge_protocol::plan::line_commitment(salt, &cond::pairs(moves)))
        .collect();
    let padded = commitments.len().div_ceil(cond::LINES_STEP).max(1) * cond::LINES_STEP;
    while commitments.len() < padded {
        let pad = derived(b"qijudge/plan-pad/v1", commitments.len());
        commitments.push(format!("sha256:{}", hex::encode(pad)));
    }
    let path = cond::path(c.ply, c.seat);
    let file = ConditionalFile {
        format: CONDITIONAL_FORMAT.into(),
        game: c.id.into(),
        manifest: c.manifest.into(),
        ply: c.ply,
        seat: c.seat.into(),
        answers: c.answers.into(),
        seq: c.seq,
        lines: commitments,
    };
    let text = to_toml(&file);
    // The plans' folder ignores itself in a git checkout (`git add -A` leaves it out); the
    // change rules refuse it if it is added all the same.
    let ignore = format!("{}/.gitignore", cond::PLANS_FOLDER);
    if !dir.exists(&ignore) {
        dir.write(&ignore, b"*\n")?;
    }
    dir.write_private(&plans_path, plans_text.as_bytes())?;
    dir.write(&cond::sealed_path(c.ply, c.seat), &sealed)?;
    // The signature first, as for a move: a crash between the two leaves a file refused for
    // its signature, which writing again replaces.
    dir.write(
        &format!("{path}.sig"),
        signed(key, namespace::CONDITIONAL, text.as_bytes())?.as_bytes(),
    )?;
    dir.write(&path, text.as_bytes())?;
    Ok(path)
}
