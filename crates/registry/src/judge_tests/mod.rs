//! The judge's tests that need real games (the judge crate names none).

mod ahead;
mod manifest;
