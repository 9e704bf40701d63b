//! Pure game logic: no files, no keys, no clocks. Each game lives in its own folder
//! (`src/games/NAME/rules/`); what ends a game is shared.

pub mod end;
pub mod random;

pub use crate::games::jieqi::rules as jieqi;
pub use crate::games::liubo::rules as liubo;
pub use crate::games::luzhanqi::rules as luzhanqi;
pub use crate::games::xiangqi::rules as xiangqi;
pub use end::EndReason;
