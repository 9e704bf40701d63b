//! The one printer of what commands report.

use qijudge_game::report::{Out, Report};
use qijudge_protocol::error::{Error, Result};

/// Writes a command's report to standard output, then returns its refusal, if any (exit 1).
pub fn print(report: Report) -> Result<()> {
    for out in &report.out {
        match out {
            Out::Line(line) => say!("{}", super::name_folder(line)),
            Out::Text(text) => say_raw!("{}", super::name_folder(text)),
            Out::Json(value) => say!(
                "{}",
                serde_json::to_string_pretty(value).map_err(|e| Error::Io(e.to_string()))?
            ),
            Out::Note(note) => eprintln!("{}", super::name_folder(note)),
            Out::Picture { svg, png } => {
                qijudge_game::console::write_picture(svg, if *png { "png" } else { "svg" })?
            }
        }
    }
    report.refusal.map_or(Ok(()), Err)
}
