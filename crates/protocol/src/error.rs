//! Errors the command line maps to exit codes: 1 for refused input, 2 for usage or I/O trouble,
//! 130 for a command stopped by Ctrl-C.

use std::fmt;

/// Refused input: which file, which field, why, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub file: String,
    pub field: Option<String>,
    pub reason: String,
    pub hint: Option<String>,
    /// The seat that may read `reason` and `hint`. When set, everyone else is shown only the
    /// file, the field and the reason code: the reason may quote the file or a player's pieces.
    pub private_to: Option<String>,
}

impl Refusal {
    /// A stable reason code: the kind of file and the field, like `move.answers` or
    /// `setup-signature.file`. It never carries file content.
    pub fn code(&self) -> String {
        let kind = [
            ("moves/", "move"),
            ("setups/", "setup"),
            ("sealed/", "sealed-setup"),
            ("commitments/", "commitment"),
            ("reveal/", "reveal"),
            ("views/", "view"),
            ("record", "record"),
            ("game.toml", "manifest"),
        ]
        .iter()
        .find(|(prefix, _)| self.file.starts_with(prefix))
        .map_or("file", |(_, k)| k);
        let kind = if self.file.ends_with(".sig") {
            format!("{kind}-signature")
        } else {
            kind.to_string()
        };
        let field: String = self
            .field
            .as_deref()
            .unwrap_or("file")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._[]-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("{kind}.{field}")
    }

    /// The full message, for the owner.
    pub fn detailed(&self) -> String {
        let mut s = self.file.clone();
        if let Some(field) = &self.field {
            s.push_str(&format!(": field {field}"));
        }
        s.push_str(&format!(": {}", self.reason));
        if let Some(hint) = &self.hint {
            s.push_str(&format!("\n  hint: {hint}"));
        }
        s
    }

    /// The same refusal with its details open to everyone (for a judge run with `--details`).
    pub fn disclosed(mut self) -> Refusal {
        self.private_to = None;
        self
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.private_to {
            None => f.write_str(&self.detailed()),
            Some(seat) => {
                write!(f, "{}", self.file)?;
                if let Some(field) = &self.field {
                    write!(f, ": field {field}")?;
                }
                write!(
                    f,
                    ": refused [{}]; the reason went to {seat} only (views/{seat}.refusal.txt, or .age when sealed)",
                    self.code()
                )
            }
        }
    }
}

/// Everything that can stop a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An input was refused (exit code 1).
    Refused(Refusal),
    /// Bad usage or an I/O failure (exit code 2).
    Io(String),
    /// Stopped by an interrupt (Ctrl-C) after saving what was done (exit code 130).
    Interrupted(String),
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Refused(_) => 1,
            Error::Io(_) => 2,
            Error::Interrupted(_) => 130,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Refused(r) => write!(f, "refused: {r}"),
            Error::Io(m) => write!(f, "error: {m}"),
            Error::Interrupted(m) => write!(f, "stopped: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// A refusal naming a file, a field and a reason.
pub fn refuse(file: impl Into<String>, field: Option<&str>, reason: impl Into<String>) -> Error {
    Error::Refused(Refusal {
        file: file.into(),
        field: field.map(str::to_string),
        reason: reason.into(),
        hint: None,
        private_to: None,
    })
}

/// A refusal with advice.
pub fn refuse_with(
    file: impl Into<String>,
    field: Option<&str>,
    reason: impl Into<String>,
    hint: impl Into<String>,
) -> Error {
    Error::Refused(Refusal {
        file: file.into(),
        field: field.map(str::to_string),
        reason: reason.into(),
        hint: Some(hint.into()),
        private_to: None,
    })
}

/// Marks a refusal's details as readable by one seat only.
pub fn private_to(e: Error, seat: &str) -> Error {
    match e {
        Error::Refused(mut r) => {
            r.private_to = Some(seat.to_string());
            Error::Refused(r)
        }
        other => other,
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_refusals_show_only_a_code_in_public() {
        let e = private_to(
            refuse(
                "moves/0003-south.toml",
                Some("move"),
                "your landmine on a1 never moves",
            ),
            "south",
        );
        let Error::Refused(r) = &e else {
            unreachable!()
        };
        assert_eq!(r.code(), "move.move");
        let public = e.to_string();
        assert!(
            !public.contains("landmine") && !public.contains("a1"),
            "{public}"
        );
        assert!(public.contains("[move.move]") && public.contains("south only"));
        assert!(r.detailed().contains("your landmine on a1 never moves"));
        let sig = refuse("setups/north.toml.sig", None, "x");
        let Error::Refused(r) = sig else {
            unreachable!()
        };
        assert_eq!(r.code(), "setup-signature.file");
    }
}
