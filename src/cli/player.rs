//! Player commands: keygen, setup, move.

use qijudge_protocol::error::{Error, Result};
use qijudge_protocol::signing;
use qijudge_store::write_atomic;
use std::path::Path;

pub fn keygen(name: &Path) -> Result<()> {
    let public = name.with_extension(match name.extension() {
        Some(e) => format!("{}.pub", e.to_string_lossy()),
        None => "pub".into(),
    });
    for p in [name, public.as_path()] {
        if p.exists() {
            return Err(Error::Io(format!(
                "{}: already exists; qijudge never overwrites a key",
                p.display()
            )));
        }
    }
    let comment = name
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let key = signing::generate(&comment);
    qijudge_store::write_private(name, signing::private_key_pem(&key).as_bytes())?;
    let line = key
        .public_key()
        .to_openssh()
        .map_err(|e| Error::Io(e.to_string()))?;
    write_atomic(&public, format!("{line}\n").as_bytes())?;
    say!(
        "wrote {} (private, keep it) and {} (public)",
        name.display(),
        public.display()
    );
    Ok(())
}

pub fn setup(
    dir: &Path,
    seat: &str,
    key_path: Option<&Path>,
    source: qijudge_game::SetupSource,
    seal: bool,
    template: bool,
) -> Result<()> {
    let game = qijudge_registry::of_dir(dir)?;
    if template {
        if !game.setup_is_chosen() {
            return Err(qijudge_protocol::error::Error::Io(format!(
                "--template: a {} game has no setup to choose",
                game.name()
            )));
        }
        if let Some(template) = game.setup_template() {
            say_raw!("{template}");
        }
        return Ok(());
    }
    let key_path = key_path.ok_or_else(|| {
        qijudge_protocol::error::Error::Io(
            "--key: give your private key (or KEY.pub with ssh-agent) to sign the commitment"
                .into(),
        )
    })?;
    qijudge_game::console::print_report(game.setup(dir, seat, key_path, source, seal)?)
}

pub fn make_move(
    dir: &Path,
    seat: &str,
    key_path: &Path,
    mv: qijudge_game::MoveRequest,
) -> Result<()> {
    qijudge_game::console::print_report(
        qijudge_registry::of_dir(dir)?.make_move(dir, seat, key_path, mv)?,
    )
}
