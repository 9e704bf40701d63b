//! `inbox`: moves and setups out of e-mail into a game directory, the judge, and the outgoing
//! messages.

use super::read_arg;
use crate::error::{refuse, Error, Result};
use crate::mail::{inbox, outbox};
use crate::store::GameDir;
use std::path::{Path, PathBuf};

/// Messages and mboxes may be large; views and moves are small.
const MESSAGE_LIMIT: u64 = 32 * 1024 * 1024;

/// Options for outgoing mail.
pub struct Outgoing {
    pub outbox: Option<PathBuf>,
    pub from: Option<String>,
    pub sendmail: Option<String>,
    pub spectators: Vec<String>,
}

pub fn inbox(
    dir: &Path,
    messages: &[PathBuf],
    key: Option<&Path>,
    now: Option<String>,
    out: Outgoing,
) -> Result<()> {
    if (out.outbox.is_some() || out.sendmail.is_some()) && out.from.is_none() {
        return Err(Error::Io(
            "--from: the judge's address is needed for outgoing mail".into(),
        ));
    }
    for a in out.from.iter().chain(&out.spectators) {
        if !outbox::valid_address(a) {
            return Err(Error::Io(format!("{a:?} is not a plain e-mail address")));
        }
    }
    let now = super::now_or(now)?;
    let game = GameDir::new(dir);
    let mut refusals: Vec<String> = Vec::new();
    let mut reply_to: Option<String> = None;
    for path in messages {
        let shown = if path.as_os_str() == "-" {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let bytes = read_bytes(path, &shown)?;
        let all = inbox::split_mbox(&bytes);
        let count = all.len();
        for (k, message) in all.iter().enumerate() {
            let label = if count > 1 {
                format!("{shown} message {}", k + 1)
            } else {
                shown.clone()
            };
            match inbox::extract(message) {
                Ok(found) => match crate::mail::import(&game, &found.files, &label) {
                    Ok(paths) => {
                        say!("{label}: {}", paths.join(", "));
                        reply_to = found.message_id.clone().or(reply_to);
                    }
                    Err(e) => {
                        eprintln!("{e}");
                        refusals.push(label);
                    }
                },
                Err(e) => {
                    eprintln!("refused: {label}: {e}");
                    refusals.push(label);
                }
            }
        }
    }
    // The judge takes what is new; its refusal comes after the outgoing mail. A player's copy
    // (no key) only takes the files in.
    let Some(key) = key else {
        return match refusals.first() {
            None => Ok(()),
            Some(first) => Err(refuse(
                first.clone(),
                None,
                format!("{} message(s) refused (reasons above)", refusals.len()),
            )),
        };
    };
    let judged = super::game::judge(dir, key, Some(now.clone()), false, None);
    if out.outbox.is_some() || out.sendmail.is_some() {
        let from = out.from.as_deref().unwrap_or_default();
        let recipients = recipients(&game, &out.spectators, from)?;
        let id = manifest_id(&game)?;
        let env = outbox::Envelope {
            game: &id,
            from,
            now: &now,
            in_reply_to: reply_to.as_deref(),
        };
        for (name, bytes) in outbox::messages(&game, &env, &recipients)? {
            if let Some(folder) = &out.outbox {
                std::fs::create_dir_all(folder)
                    .map_err(|e| Error::Io(format!("{}: {e}", folder.display())))?;
                crate::store::write_atomic(&folder.join(&name), &bytes)?;
                say!("wrote {}", folder.join(&name).display());
            }
            if let Some(cmd) = &out.sendmail {
                outbox::send(cmd, &bytes)?;
                say!("sent {name}");
            }
        }
    }
    judged?;
    match refusals.first() {
        None => Ok(()),
        Some(first) => Err(refuse(
            first.clone(),
            None,
            format!(
                "{} message(s) refused (reasons above); nothing was lost, they can be sent again",
                refusals.len()
            ),
        )),
    }
}

fn read_bytes(path: &Path, shown: &str) -> Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        return read_arg(path, MESSAGE_LIMIT).map(String::into_bytes);
    }
    let meta =
        std::fs::symlink_metadata(path).map_err(|_| Error::Io(format!("{shown}: no such file")))?;
    if !meta.is_file() {
        return Err(refuse(shown, None, "not a regular file"));
    }
    if meta.len() > MESSAGE_LIMIT {
        return Err(refuse(
            shown,
            None,
            format!("larger than {MESSAGE_LIMIT} bytes"),
        ));
    }
    std::fs::read(path).map_err(|e| Error::Io(format!("{shown}: {e}")))
}

fn manifest_id(game: &GameDir) -> Result<String> {
    let text = game.read("game.toml", crate::store::SMALL_FILE_LIMIT)?;
    let t: toml::Table = toml::from_str(&text).map_err(|e| Error::Io(format!("game.toml: {e}")))?;
    Ok(t.get("id")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_string())
}

/// Each seat with an address gets its own view; spectators (or the judge itself) the public one.
fn recipients(game: &GameDir, spectators: &[String], from: &str) -> Result<Vec<outbox::Recipient>> {
    let text = game.read("game.toml", crate::store::SMALL_FILE_LIMIT)?;
    let t: toml::Table = toml::from_str(&text).map_err(|e| Error::Io(format!("game.toml: {e}")))?;
    let mut out = Vec::new();
    if let Some(players) = t.get("players").and_then(|p| p.as_array()) {
        for p in players {
            let (Some(seat), Some(name)) = (
                p.get("seat").and_then(|v| v.as_str()),
                p.get("name").and_then(|v| v.as_str()),
            ) else {
                continue;
            };
            if let Some(email) = p.get("email").and_then(|v| v.as_str()) {
                out.push(outbox::Recipient {
                    audience: seat.to_string(),
                    name: name.to_string(),
                    addresses: vec![email.to_string()],
                });
            }
        }
    }
    out.push(outbox::Recipient {
        audience: "public".into(),
        name: "spectators".into(),
        addresses: if spectators.is_empty() {
            vec![from.to_string()]
        } else {
            spectators.to_vec()
        },
    });
    Ok(out)
}
