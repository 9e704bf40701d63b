//! Jieqi's board picture: Xiangqi's, face-down pieces as plain discs of their side's colour.

pub use qijudge_xiangqi::picture::{
    xiangqi as jieqi, xiangqi_layers as jieqi_layers, xiangqi_with as jieqi_with,
};

qijudge_xiangqi::nine_by_ten!(
    crate::view::JieqiView,
    crate::chinese::caption,
    crate::view::state_lines
);
