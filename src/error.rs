//! Errors the command line maps to exit codes: 1 for refused input, 2 for usage or I/O trouble.

use std::fmt;

/// Refused input: which file, which field, why, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub file: String,
    pub field: Option<String>,
    pub reason: String,
    pub hint: Option<String>,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(field) = &self.field {
            write!(f, ": field {field}")?;
        }
        write!(f, ": {}", self.reason)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// Everything that can stop a command.
#[derive(Debug)]
pub enum Error {
    /// An input was refused (exit code 1).
    Refused(Refusal),
    /// Bad usage or an I/O failure (exit code 2).
    Io(String),
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Refused(_) => 1,
            Error::Io(_) => 2,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Refused(r) => write!(f, "refused: {r}"),
            Error::Io(m) => write!(f, "error: {m}"),
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
    })
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
