//! What every game's views share: the JSON bytes of a view, the closing move, the helpers of
//! text views and captions, the picture machinery (SVG, PNG, the built-in typeface) and the
//! replay page. Each game's own view, text and picture live in its folder.

pub mod chinese;
pub mod cjk_font;
pub mod html;
pub mod numbers;
pub mod picture;
pub mod text;
pub mod turn_view;

use serde::{Deserialize, Serialize};

/// Whether a recorded action is a move on the board (not `resign` or `accept-draw`).
pub fn on_board(action: &str) -> bool {
    !matches!(action, "resign" | "accept-draw")
}

/// A view (any game's) as its file's bytes: pretty JSON with a final line feed.
pub fn to_json<V: serde::Serialize>(view: &V) -> String {
    let mut s = serde_json::to_string_pretty(view).expect("views serialise");
    s.push('\n');
    s
}

/// The signed move that ended the game without a move on the board: a resignation, or the
/// acceptance of a draw offer. Shown so that every signed move, and its comment, is in a view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Closing {
    pub ply: u32,
    pub seat: String,
    /// `resign` or `accept-draw`.
    pub action: String,
    /// The mover's comment in its signed move file (public, like the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

impl Closing {
    /// The closing move in a sentence, and its comment on a line of its own.
    pub fn lines(&self) -> Vec<String> {
        let verb = match self.action.as_str() {
            "resign" => "resigns",
            "accept-draw" => "accepts the draw",
            other => other,
        };
        let mut out = vec![format!("Ply {}: {} {verb}", self.ply, self.seat)];
        if let Some(c) = &self.comment {
            out.push(format!(
                "{}'s comment: \"{}\"",
                self.seat,
                crate::text::clean(c)
            ));
        }
        out
    }
}
