//! Jieqi's board picture: Xiangqi's, face-down pieces as plain discs of their side's colour.

pub use crate::games::xiangqi::picture::{
    xiangqi as jieqi, xiangqi_layers as jieqi_layers, xiangqi_with as jieqi_with,
};

crate::games::xiangqi::picture::nine_by_ten!(crate::games::jieqi::view::JieqiView, jieqi);
