//! Pure game logic: no files, no keys, no clocks. Each game lives in its own folder.

pub mod jieqi;
pub mod liubo;
pub mod luzhanqi;
pub mod xiangqi;
