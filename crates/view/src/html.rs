//! The replay page: one self-contained HTML file (no network, no external script, a Content
//! Security Policy that forbids both) that steps through a game move by move for one audience.
//! The board is drawn once; each position adds only its pieces, which reuse the board's label
//! paths. Everything a player wrote (names, comments) is escaped.

use super::picture::Layers;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One position of the replay: after `ply` plies (0: before the first move).
pub struct Frame {
    pub ply: u32,
    /// What happened, in one line (`ply 12: north c9-c8 (moved)`).
    pub heading: String,
    /// The state of play in sentences, as the text view says it.
    pub lines: Vec<String>,
    pub picture: Layers,
}

/// The lines under a page's title: the players (and what else the game needs said), and where
/// the page comes from.
pub fn about(players: &[qijudge_protocol::files::Player], note: &str, head: &str) -> Vec<String> {
    let names: Vec<String> = players
        .iter()
        .map(|p| format!("{} ({})", p.seat, p.name))
        .collect();
    vec![
        format!("Players: {}.{note}", names.join(", ")),
        format!("Made by qijudge from the signed record (head {head}). Keys: arrows, Home, End."),
    ]
}

/// Text safe inside HTML elements and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A control button with a drawn icon (the media symbols ⏮ ⏭ are missing from common fonts):
/// triangles pointing the way it steps, with a bar for the first and last positions.
fn button(id: &str, name: &str) -> String {
    let shapes = match id {
        "first" => "<rect x=\"2\" y=\"3\" width=\"2\" height=\"10\"/><path d=\"M14 3v10L5 8z\"/>",
        "prev" => "<path d=\"M12 3v10L3 8z\"/>",
        "next" => "<path d=\"M4 3v10l9-5z\"/>",
        _ => "<path d=\"M2 3v10l9-5z\"/><rect x=\"12\" y=\"3\" width=\"2\" height=\"10\"/>",
    };
    format!(
        "<button id=\"{id}\" type=\"button\" title=\"{name}\" aria-label=\"{name}\">\
         <svg viewBox=\"0 0 16 16\" fill=\"currentColor\" aria-hidden=\"true\">{shapes}</svg></button>"
    )
}

const STYLE: &str = "body{font-family:sans-serif;margin:1em;background:#faf6ec;color:#3b2f2f}\
main{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}\
#board svg{max-width:100%;height:auto;border:1px solid #3b2f2f}\
#controls{position:sticky;top:0;z-index:1;background:#faf6ec;padding:.4em 0;margin-bottom:.4em}\
button{margin-right:.3em;padding:.2em .5em;line-height:0}button svg{width:1.2em;height:1.2em}\
#moves{position:relative;max-height:70vh;overflow:auto;font-family:monospace;padding-left:3em}\
#moves li.current{background:#f3d27a}#moves a{color:inherit;text-decoration:none}\
.state h2{font-size:1.1em}.hidden{display:none}";

const SCRIPT: &str = r#"(function () {
  var frames = document.querySelectorAll('g.frame');
  var states = document.querySelectorAll('div.state');
  var moves = document.querySelectorAll('#moves li');
  var last = frames.length - 1, current = 0;
  function show(n) {
    n = Math.max(0, Math.min(last, n | 0));
    frames[current].classList.add('hidden');
    states[current].classList.add('hidden');
    if (current > 0) moves[current - 1].classList.remove('current');
    current = n;
    frames[n].classList.remove('hidden');
    states[n].classList.remove('hidden');
    if (n > 0) {
      moves[n - 1].classList.add('current');
      // Keep the current move in sight within the list (not the page).
      var list = document.getElementById('moves'), li = moves[n - 1];
      if (li.offsetTop < list.scrollTop) list.scrollTop = li.offsetTop;
      else if (li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = li.offsetTop + li.offsetHeight - list.clientHeight;
    }
    var where = document.getElementById('where');
    where.textContent = where.getAttribute('data-unit') + ' ' + n + ' of ' + last;
    document.body.setAttribute('data-ply', String(n));
    if (history.replaceState) history.replaceState(null, '', '#ply=' + n);
  }
  function go(id, f) { document.getElementById(id).addEventListener('click', f); }
  go('first', function () { show(0); });
  go('prev', function () { show(current - 1); });
  go('next', function () { show(current + 1); });
  go('last', function () { show(last); });
  for (var i = 0; i < moves.length; i++) {
    (function (n) {
      moves[n - 1].addEventListener('click', function (e) { e.preventDefault(); show(n); });
    })(i + 1);
  }
  document.addEventListener('keydown', function (e) {
    var to = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    // The page stays where it is: the browser's own Home and End would scroll the board away.
    e.preventDefault();
    show(to);
  });
  function fromAddress() {
    var m = /ply=(\d+)/.exec(location.hash);
    show(m ? parseInt(m[1], 10) : 0);
  }
  window.addEventListener('hashchange', fromAddress);
  fromAddress();
})();"#;

/// The page: `title` and `about` at the top, the frames in order, `moves[i]` the label of ply
/// (or turn: `unit`) i + 1 in the move list.
/// The replay page of a game shown one view a ply: `frame` gives a view's heading, sentences
/// and picture, `moved` its line in the move list (none before the first move).
pub fn replay<V>(
    title: &str,
    about: &[String],
    views: &[V],
    frame: impl Fn(&V) -> Frame,
    moved: impl Fn(&V) -> Option<String>,
) -> String {
    let frames: Vec<Frame> = views.iter().map(frame).collect();
    let moves: Vec<String> = views.iter().filter_map(moved).collect();
    page(title, about, &frames, &moves, "ply")
}

pub fn page(
    title: &str,
    about: &[String],
    frames: &[Frame],
    moves: &[String],
    unit: &str,
) -> String {
    let mut defs: BTreeMap<&str, &str> = BTreeMap::new();
    for f in frames {
        for (id, body) in &f.picture.defs {
            defs.insert(id, body);
        }
    }
    let (width, height) = frames
        .first()
        .map_or((0, 0), |f| (f.picture.width, f.picture.height));
    // Chinese text (Xiangqi's move names) comes with the board's CJK font, so that a machine
    // without one shows characters, not boxes; a page without any does not carry it.
    let chinese = std::iter::once(title)
        .chain(about.iter().map(String::as_str))
        .chain(moves.iter().map(String::as_str))
        .chain(frames.iter().flat_map(|f| {
            std::iter::once(f.heading.as_str()).chain(f.lines.iter().map(String::as_str))
        }))
        .any(|text| text.chars().any(|c| c >= '\u{2e80}'));
    let (font_src, font_face) = match chinese {
        true => (
            " font-src data:;",
            format!(
                "@font-face{{font-family:\"{family}\";src:url({}) format(\"opentype\")}}\
                 body{{font-family:sans-serif,\"{family}\"}}\
                 #moves{{font-family:monospace,\"{family}\"}}",
                super::cjk_font::data_uri(),
                family = super::cjk_font::FAMILY
            ),
        ),
        false => ("", String::new()),
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline';{font_src}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}{font_face}</style>\n</head>\n<body data-ply=\"0\">\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    for line in about {
        let _ = writeln!(out, "<p>{}</p>", escape(line));
    }
    out.push_str("<main>\n<div>\n<div id=\"controls\">");
    for (id, name) in [("first", "First"), ("prev", "Previous")] {
        let _ = write!(out, "{}", button(id, name));
    }
    let _ = write!(
        out,
        "<span id=\"where\" data-unit=\"{unit}\">{unit} 0 of {}</span> ",
        frames.len().saturating_sub(1)
    );
    for (id, name) in [("next", "Next"), ("last", "Last")] {
        let _ = write!(out, "{}", button(id, name));
    }
    out.push_str("</div>\n");
    let _ = writeln!(
        out,
        "<div id=\"board\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n<defs>"
    );
    for body in defs.values() {
        let _ = writeln!(out, "{body}");
    }
    out.push_str("</defs>\n<g id=\"static\">\n");
    if let Some(f) = frames.first() {
        out.push_str(&f.picture.board);
    }
    out.push_str("</g>\n");
    for (i, f) in frames.iter().enumerate() {
        let hidden = if i == 0 { "" } else { " hidden" };
        let _ = write!(
            out,
            "<g class=\"frame{hidden}\" id=\"f{}\">\n{}</g>\n",
            f.ply, f.picture.pieces
        );
    }
    out.push_str("</svg></div>\n<div id=\"states\">\n");
    for (i, f) in frames.iter().enumerate() {
        let hidden = if i == 0 { "" } else { " hidden" };
        let _ = writeln!(
            out,
            "<div class=\"state{hidden}\" id=\"s{}\"><h2>{}</h2><ul>",
            f.ply,
            escape(&f.heading)
        );
        for line in f.lines.iter().filter(|l| !l.trim().is_empty()) {
            let _ = writeln!(out, "<li>{}</li>", escape(line));
        }
        out.push_str("</ul></div>\n");
    }
    out.push_str("</div>\n</div>\n<ol id=\"moves\">\n");
    for (i, m) in moves.iter().enumerate() {
        let _ = writeln!(
            out,
            "<li id=\"m{}\"><a href=\"#ply={}\">{}</a></li>",
            i + 1,
            i + 1,
            escape(m)
        );
    }
    let _ = write!(
        out,
        "</ol>\n</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_players_write_is_escaped() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"q\"\u{1b}"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; "
        );
    }
}
