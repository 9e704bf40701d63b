//! Pure game logic: no files, no keys, no clocks. Each game lives in its own folder.

pub use crate::games::jieqi::rules as jieqi;
pub use crate::games::liubo::rules as liubo;
pub mod luzhanqi;
pub use crate::games::xiangqi::rules as xiangqi;
