//! Luzhanqi's own tool: the legal moves of a position file (`qijudge moves luzhanqi FILE`).

use luzhanqi_rules::PositionFile;
use qijudge_protocol::error::{refuse, Result};
use std::path::Path;

/// The sorted legal moves of the position file at `path` (its text: `text`).
pub fn position_moves(path: &Path, text: &str) -> Result<Vec<String>> {
    let shown = path.display().to_string();
    // A player's view is not a position (it hides ranks): point to the command that uses it.
    if let Ok(view) = serde_json::from_str::<super::view::ViewFile>(text) {
        let game = path
            .parent()
            .and_then(Path::parent)
            .filter(|d| d.join("game.toml").exists())
            .map_or("GAME".to_string(), |d| {
                let shown = d.display().to_string();
                if shown.is_empty() {
                    ".".into()
                } else {
                    shown
                }
            });
        return Err(qijudge_protocol::error::refuse_with(
            &shown,
            None,
            "is a view, not a position file",
            format!(
                "list your moves from your view with `qijudge moves {game} --as {}`",
                view.audience
            ),
        ));
    }
    let file: PositionFile = serde_json::from_str(text)
        .map_err(|e| refuse(&shown, None, format!("not a position file: {e}")))?;
    let pos = file.to_position().map_err(|e| refuse(&shown, None, e))?;
    let b = pos.board();
    let mut lines: Vec<String> = pos.legal_moves().iter().map(|m| m.display(b)).collect();
    lines.sort();
    Ok(lines)
}
