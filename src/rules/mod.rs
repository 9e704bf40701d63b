//! Pure game logic: no files, no keys, no clocks. Each game lives in its own folder
//! (`src/games/NAME/rules/`); what ends a game is shared.

pub mod end;
pub mod line;
pub mod random;

pub use end::EndReason;
