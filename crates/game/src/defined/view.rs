//! `view`: the judge's signed view of an audience, shown as signed (never recomputed: a seat's
//! view may hold what only that seat was shown) — as JSON, as text or as a picture.

use super::{open, Definition};
use crate::report::{Out, Report};
use crate::ViewRequest;
use qijudge_judge::pipeline::Framed;
use qijudge_protocol::error::{refuse, Result};
use std::path::Path;

pub fn run<D: Definition>(dir: &Path, request: ViewRequest) -> Result<Report> {
    let (d, g) = open::<D>(dir)?;
    let audience = request.audience;
    crate::check_audience(g.frame().seats, &others::<D>(), audience)?;
    let json = D::view_text(&d, &g, audience, request.key)?;
    if request.format == "json" {
        return Ok(Report::of(Out::Text(json)));
    }
    let v: D::View = serde_json::from_str(&json).map_err(|e| {
        refuse(
            format!("views/{audience}.json"),
            None,
            format!("not a view: {e}"),
        )
    })?;
    Ok(Report::of(match request.format {
        "svg" | "png" => Out::Picture {
            svg: D::picture(&g, &v, request.chinese),
            png: request.format == "png",
        },
        _ => Out::Text(D::text_view(&g, &v, request.chinese) + &standing(&d, &g, audience)),
    }))
}

/// A seat's own conditional answers that can still fire, from the folder (the judge's signed
/// view cannot hold them: they are no part of the record), as a closing line of its text view.
fn standing<G: Framed>(d: &qijudge_store::GameDir, g: &G, seat: &str) -> String {
    let frame = g.frame();
    let Ok(record) = qijudge_judge::signed_record::load_record(d, &frame) else {
        return String::new();
    };
    qijudge_judge::conditional::standing(d, &frame, &record, None)
        .into_iter()
        .filter(|(s, ..)| s == seat)
        .map(|(_, path, live)| {
            format!(
                "\nYour conditional answers ({path}) stand: {}\n",
                live.join("; ")
            )
        })
        .collect()
}

/// The audiences besides the seats: `public`, and any more the game has.
pub(super) fn others<D: Definition>() -> Vec<&'static str> {
    ["public"]
        .into_iter()
        .chain(D::MORE_AUDIENCES.iter().copied())
        .collect()
}
