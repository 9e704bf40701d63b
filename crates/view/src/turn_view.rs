//! What the view of every game played a move file a turn opens and closes with: the game,
//! audience, record head, ply and seat to move; the standing draw offer, the closing move and
//! the result. [`turn_view!`] declares a game's view with them around its own fields, and
//! [`make_turn_view!`] builds one from a [`ViewHead`].

use qijudge_rules::EndReason;

/// The shared fields of one audience's view at one ply, as the judge gives them.
pub struct ViewHead {
    pub format: String,
    pub game: String,
    pub manifest: String,
    pub audience: String,
    pub record_head: String,
    pub ply: u32,
    pub to_move: Option<String>,
    pub draw_offer: Option<String>,
    pub closing: Option<super::Closing>,
    /// How the game ended (winner, reason), shown at its last position only.
    pub end: Option<(Option<String>, EndReason)>,
}

/// The shared fields of a view declared by [`turn_view!`], by reference.
pub struct Shared<'a, R> {
    pub game: &'a str,
    pub ply: u32,
    pub audience: &'a str,
    pub to_move: Option<&'a String>,
    pub draw_offer: Option<&'a String>,
    pub closing: Option<&'a super::Closing>,
    pub result: Option<&'a R>,
}

/// A view declared by [`turn_view!`]: what captions and texts of every such view read.
pub trait TurnView {
    type Result;
    fn shared(&self) -> Shared<'_, Self::Result>;
}

/// Declares a game's view: the shared fields, the game's own between them, and `result` of
/// the given type.
#[macro_export]
macro_rules! turn_view {
    (
        $(#[$meta:meta])*
        pub struct $name:ident (result: $result:ty) {
            $($(#[$field_meta:meta])* pub $field:ident : $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(
            Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
        )]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// The view's format and version (`qijudge/GAME-view/1`).
            pub format: String,
            /// The game's id.
            pub game: String,
            /// The hash of the game's manifest.
            pub manifest: String,
            /// A seat's name, or `public`.
            pub audience: String,
            /// The record head this view was made at.
            pub record_head: String,
            /// Plies played on the board.
            pub ply: u32,
            /// The seat to move, while the game goes on.
            pub to_move: Option<String>,
            $($(#[$field_meta])* pub $field: $ty,)*
            /// The seat whose draw offer stands.
            pub draw_offer: Option<String>,
            /// The signed move that ended the game off the board (resign, accept-draw), if one
            /// did.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub closing: Option<$crate::Closing>,
            pub result: Option<$result>,
        }

        impl $crate::turn_view::TurnView for $name {
            type Result = $result;

            fn shared(&self) -> $crate::turn_view::Shared<'_, $result> {
                $crate::turn_view::Shared {
                    game: &self.game,
                    ply: self.ply,
                    audience: &self.audience,
                    to_move: self.to_move.as_ref(),
                    draw_offer: self.draw_offer.as_ref(),
                    closing: self.closing.as_ref(),
                    result: self.result.as_ref(),
                }
            }
        }
    };
}

/// Declares a game's last move: the seat that made it, the game's own fields, and the mover's
/// comment.
#[macro_export]
macro_rules! last_move {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$field_meta:meta])* pub $field:ident : $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(
            Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
        )]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// The seat that moved.
            pub seat: String,
            $($(#[$field_meta])* pub $field: $ty,)*
            /// The mover's comment in its signed move file (public, like the file).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub comment: Option<String>,
        }
    };
}

/// A piece taken, as a view of a game with pieces face down shows it.
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Taken {
    pub ply: u32,
    /// The seat that took it.
    pub by: String,
    pub square: String,
    /// Its FEN letter as this audience may know it; where the rules show this audience no more
    /// than that it lay face down, the game's face-down mark (Jieqi's `X`/`x`).
    pub piece: String,
    /// It was face down when taken.
    pub face_down: bool,
}

/// Builds a view declared by [`turn_view!`] from its head, its own fields and its result.
#[macro_export]
macro_rules! make_turn_view {
    ($name:ident { $($field:ident $(: $value:expr)?),* $(,)? }, $head:expr, $result:expr) => {{
        let head: $crate::turn_view::ViewHead = $head;
        $name {
            format: head.format,
            game: head.game,
            manifest: head.manifest,
            audience: head.audience,
            record_head: head.record_head,
            ply: head.ply,
            to_move: head.to_move,
            $($field $(: $value)?,)*
            draw_offer: head.draw_offer,
            closing: head.closing,
            result: $result,
        }
    }};
}
