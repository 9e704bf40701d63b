//! What the judge publishes: its outputs signed (record, views, pictures, notes), and what it
//! published read back and checked — the signatures, the views against the record.

use super::frame::Frame;
use super::frame::Outputs;
use qijudge_protocol::error::{refuse, refuse_with, Result};
use qijudge_protocol::record::Record;
use qijudge_protocol::signing::{self, namespace};
use qijudge_store::{GameDir, RECORD_LIMIT, SIGNATURE_LIMIT};
use serde::de::DeserializeOwned;
use ssh_key::{PrivateKey, PublicKey};

/// Whether the file at `path` is as the judge wrote it: its signature (`path.sig`) is the
/// judge's, or for a sealed file its tag statement (`path.tag`) is the judge's about its bytes.
pub fn judge_signed(dir: &GameDir, game: &str, judge: &PublicKey, path: &str) -> bool {
    if path.ends_with(".age") {
        return super::sealing::written_by_judge(dir, game, path, judge);
    }
    match (
        dir.read_bytes(path, RECORD_LIMIT),
        dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT),
    ) {
        (Ok(bytes), Ok(sig)) => signing::verify(judge, namespace::VIEW, &bytes, &sig).is_ok(),
        _ => false,
    }
}

/// The audit of everything else in `views/`: each signature there (pictures, notes) and each
/// sealed file's tag statement is the judge's over its file.
pub fn check_view_signatures(dir: &GameDir, f: &Frame) -> Result<()> {
    for name in dir.list("views")? {
        let path = format!("views/{name}");
        let Some(file) = path
            .strip_suffix(".sig")
            .or_else(|| path.strip_suffix(".tag"))
        else {
            continue;
        };
        if !judge_signed(dir, f.hash, f.judge_key, file) {
            return Err(refuse_with(
                &path,
                None,
                format!("is not the judge's signature over {file}"),
                "the file was not signed by this game's judge, or was changed",
            ));
        }
    }
    Ok(())
}

/// Reads a published JSON view after checking the judge's signature; none when absent.
pub fn read_view<T: DeserializeOwned>(
    dir: &GameDir,
    f: &Frame,
    audience: &str,
) -> Result<Option<T>> {
    let path = format!("views/{audience}.json");
    let Some(text) = dir.read_optional(&path, RECORD_LIMIT)? else {
        return Ok(None);
    };
    check_made_for(&text, f)?;
    let sig = dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT)?;
    signing::verify(f.judge_key, namespace::VIEW, text.as_bytes(), &sig).map_err(|e| {
        refuse_with(
            format!("{path}.sig"),
            None,
            e.to_string(),
            "this view was not signed by the game's judge, or was changed",
        )
    })?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| refuse(&path, None, format!("not a view of this game: {e}")))
}

/// Checks a published text view's signature and content.
pub fn check_text_view(dir: &GameDir, f: &Frame, audience: &str, want: &str) -> Result<()> {
    let path = format!("views/{audience}.txt");
    if let Some(text) = dir.read_optional(&path, RECORD_LIMIT)? {
        let sig = dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT)?;
        signing::verify(f.judge_key, namespace::VIEW, text.as_bytes(), &sig)
            .map_err(|e| refuse(format!("{path}.sig"), None, e.to_string()))?;
        if text != want {
            return Err(refuse(&path, None, "does not show what the record gives"));
        }
    }
    Ok(())
}

/// The judge's signed outputs: the record and each audience's JSON and text view, in a fixed
/// order.
pub fn signed_outputs(
    record: &Record,
    views: Vec<(String, String, String)>,
    key: &PrivateKey,
) -> Outputs {
    let text = record.to_text();
    let mut files = vec![
        (
            "record.sig".to_string(),
            signing::sign(key, namespace::RECORD, text.as_bytes()),
        ),
        ("record.jsonl".to_string(), text),
    ];
    for (audience, json, txt) in views {
        for (ext, body) in [("json", json), ("txt", txt)] {
            files.push((
                format!("views/{audience}.{ext}.sig"),
                signing::sign(key, namespace::VIEW, body.as_bytes()),
            ));
            files.push((format!("views/{audience}.{ext}"), body));
        }
    }
    files
        .into_iter()
        .map(|(p, b)| (p, Some(b.into_bytes())))
        .collect()
}

/// Refuses a private key that is not the game's judge key.
pub fn check_judge(f: &Frame, key: &PrivateKey) -> Result<()> {
    if key.public_key().key_data() != f.judge_key.key_data() {
        return Err(refuse_with(
            "--key",
            None,
            "is not the judge key named in game.toml",
            "pass the judge's private key with --key",
        ));
    }
    Ok(())
}

/// The outputs of a game that hides nothing: the record, each audience's view (JSON and text,
/// signed) and one board picture (SVG and PNG) for everyone.
pub fn open_outputs<V: serde::Serialize>(
    dir: &GameDir,
    record: &Record,
    audiences: &[&str],
    view: impl Fn(&str) -> V,
    text: impl Fn(&V) -> String,
    picture: impl Fn(&V) -> String,
    key: &PrivateKey,
) -> Outputs {
    let views = audiences
        .iter()
        .map(|&audience| {
            let v = view(audience);
            (audience.to_string(), qijudge_view::to_json(&v), text(&v))
        })
        .collect();
    let mut files = signed_outputs(record, views, key);
    if !super::pictures() {
        files.push(("views/board.png".into(), None));
        files.push(("views/board.svg".into(), None));
        return files;
    }
    let svg = picture(&view("public"));
    files.push((
        "views/board.png".into(),
        Some(png_for(dir, key.public_key(), "views/board", &svg)),
    ));
    files.push(("views/board.svg".into(), Some(svg.into_bytes())));
    files
}

/// The PNG of the picture `svg`, published as `{stem}.png` beside `{stem}.svg`. Rendering is
/// most of what a judge run costs, and the same SVG renders to the same bytes, so the PNG
/// published already is kept when the SVG published beside it is `svg` byte for byte and the
/// PNG bears this judge's signature; otherwise it is drawn now.
pub fn png_for(dir: &GameDir, judge: &PublicKey, stem: &str, svg: &str) -> Vec<u8> {
    let png = format!("{stem}.png");
    let same_svg = dir
        .read_bytes(&format!("{stem}.svg"), RECORD_LIMIT)
        .is_ok_and(|published| published == svg.as_bytes());
    let published = match same_svg {
        true => dir.read_bytes(&png, RECORD_LIMIT).ok(),
        false => None,
    };
    let signed = |bytes: &[u8]| {
        dir.read(&format!("{png}.sig"), SIGNATURE_LIMIT)
            .is_ok_and(|sig| signing::verify(judge, namespace::VIEW, bytes, &sig).is_ok())
    };
    match published {
        Some(bytes) if signed(&bytes) => bytes,
        _ => qijudge_view::picture::png(svg),
    }
}

/// The text of a published view (`views/<audience>.json`) after checking the judge's signature
/// on it; a view not written yet is refused with what to do.
pub fn signed_view_text(dir: &GameDir, f: &Frame, audience: &str) -> Result<String> {
    use qijudge_store::{RECORD_LIMIT, SIGNATURE_LIMIT};
    let path = format!("views/{audience}.json");
    let text = dir.read_optional(&path, RECORD_LIMIT)?.ok_or_else(|| {
        qijudge_protocol::error::refuse_with(
            &path,
            None,
            "not written yet",
            "run `qijudge judge` on the game first",
        )
    })?;
    check_made_for(&text, f)?;
    let sig = dir.read(&format!("{path}.sig"), SIGNATURE_LIMIT)?;
    signing::verify(f.judge_key, namespace::VIEW, text.as_bytes(), &sig)
        .map_err(|e| refuse(format!("{path}.sig"), None, e.to_string()))?;
    Ok(text)
}

/// Refuses a view made for another manifest than the game's `game.toml` now (a view names the
/// manifest it was made for).
fn check_made_for(text: &str, f: &Frame) -> Result<()> {
    let made_for = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v["manifest"].as_str().map(str::to_string));
    match made_for {
        Some(m) if m != f.hash => Err(crate::signed_record::manifest_changed(&m, f.hash)),
        _ => Ok(()),
    }
}

/// Checks every published view, each seat's and the public one (signature and content),
/// against what the record gives; views may be missing only before the first judge run.
pub fn check_views<V: DeserializeOwned + PartialEq>(
    dir: &GameDir,
    f: &Frame,
    record: &Record,
    want: impl Fn(&str, Option<&V>) -> (V, String),
) -> Result<()> {
    let before_first_run = record.lines.is_empty();
    for audience in f.seats.iter().copied().chain(["public"]) {
        let published = read_view::<V>(dir, f, audience)?;
        let (view, text) = want(audience, published.as_ref());
        match published {
            Some(v) if v == view => {}
            Some(_) => {
                return Err(refuse(
                    format!("views/{audience}.json"),
                    None,
                    "does not show what the record gives",
                ))
            }
            None if before_first_run => {}
            None => return Err(refuse(format!("views/{audience}.json"), None, "missing")),
        }
        check_text_view(dir, f, audience, &text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published PNG is kept only beside the same SVG and under this judge's signature;
    /// otherwise the picture is drawn again.
    #[test]
    fn a_published_png_is_kept_only_when_its_svg_is_the_same_and_the_judge_signed_it() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        let (judge, stranger) = (signing::generate("judge"), signing::generate("x"));
        let svg = {
            let mut s = qijudge_view::picture::Svg::new(20, 10, qijudge_view::picture::PAPER);
            s.label(10.0, 5.0, "A", 1.0, qijudge_view::picture::INK);
            s.finish()
        };
        let kept = b"the picture published before".to_vec();
        dir.write("views/board.svg", svg.as_bytes()).unwrap();
        dir.write("views/board.png", &kept).unwrap();
        let signed_by = |key: &PrivateKey| {
            let sig = signing::sign(key, namespace::VIEW, &kept);
            dir.write("views/board.png.sig", sig.as_bytes()).unwrap();
        };
        let drawn = |svg: &str| png_for(&dir, judge.public_key(), "views/board", svg);
        signed_by(&judge);
        assert_eq!(drawn(&svg), kept);
        assert!(drawn(&svg.replace("width=\"20\"", "width=\"21\"")).starts_with(b"\x89PNG"));
        signed_by(&stranger);
        assert!(drawn(&svg).starts_with(b"\x89PNG"));
    }
}
