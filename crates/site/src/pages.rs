//! The site's HTML pages: the index, one page per game, one per player, the standings. Plain
//! HTML and one inline style, no script, readable without JavaScript; the policy forbids
//! everything but the site's own pictures. Everything a player wrote is escaped.

use crate::entry::Entry;
use crate::players::Players;
use crate::words::Words;
use qijudge_view::html::escape;
use std::fmt::Write;

const STYLE: &str = "body{font-family:sans-serif;line-height:1.45;margin:0 auto;max-width:72rem;\
padding:0 1rem 2rem;color:#1d1d1d;background:#fdfcf8}\
a{color:#0b57a4}a:focus-visible{outline:3px solid #e08a00;outline-offset:2px}\
.skip{position:absolute;left:-9999px}.skip:focus{left:1rem;top:.5rem;background:#fff;padding:.3rem .6rem}\
header{border-bottom:1px solid #ccc;margin-bottom:1rem}\
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;padding:0;margin:.5rem 0}\
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}\
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}\
th{background:#f0ede4}td.num{text-align:right}.turn{font-weight:bold}\
img.thumb{width:88px;height:auto}img.board{max-width:100%;height:auto}\
pre{overflow-x:auto;background:#f5f3ec;padding:.6rem;font-size:.85rem}\
ol.moves{columns:12rem;font-family:monospace}footer{margin-top:2rem;color:#555;font-size:.9rem}";

/// A whole page: `depth` folders below the site's root, titled `title`, holding `body`.
pub fn page(w: &Words, club: &str, title: &str, depth: usize, body: &str) -> String {
    let up = "../".repeat(depth);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         img-src 'self' data:; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} · {club}</title>\n<style>{STYLE}</style>\n\
         <link rel=\"alternate\" type=\"application/atom+xml\" href=\"{up}feed.xml\">\n\
         <link rel=\"icon\" href=\"data:,\">\n\
         </head>\n<body>\n<a class=\"skip\" href=\"#main\">{skip}</a>\n<header>\n\
         <nav aria-label=\"{club}\"><ul>\
         <li><a href=\"{up}index.html\">{games}</a></li>\
         <li><a href=\"{up}players/index.html\">{players}</a></li>\
         <li><a href=\"{up}standings.html\">{standings}</a></li>\
         <li><a href=\"{up}feed.xml\">{feed}</a></li></ul></nav>\n</header>\n\
         <main id=\"main\">\n<h1>{title}</h1>\n{body}</main>\n<footer><p>{made}</p></footer>\n\
         </body>\n</html>\n",
        lang = w.lang,
        title = escape(title),
        club = escape(club),
        skip = w.skip,
        games = w.games,
        players = w.players,
        standings = w.standings,
        feed = w.feed,
        made = w.made_by,
    );
    out
}

/// A path below the site's root as a link: each part percent-encoded.
pub fn href(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        match b {
            b'/' | b'-' | b'.' | b'_' | b'~' => out.push(b as char),
            b if b.is_ascii_alphanumeric() => out.push(b as char),
            b => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

/// The folder of the files of the game at `path` below the site's root (`games/club/g1`).
pub fn game_folder(path: &str) -> String {
    match path {
        "." => "games/_".into(),
        p => format!("games/{p}"),
    }
}

/// The game's name in a list: its title and its folder.
fn game_cell(e: &Entry, up: &str) -> String {
    let title = e.title.as_deref().unwrap_or("?");
    format!(
        "<a href=\"{up}{}/index.html\">{}</a><br><small>{}</small>",
        href(&game_folder(&e.path)),
        escape(&e.path),
        escape(title)
    )
}

/// The players of a game, each a link to their page.
fn players_cell(e: &Entry, players: &Players, up: &str) -> String {
    e.players
        .iter()
        .map(|p| {
            format!(
                "<a href=\"{up}players/{}.html\">{}</a> ({})",
                players.slug(&p.key),
                escape(&p.name),
                escape(&p.seat)
            )
        })
        .collect::<Vec<_>>()
        .join("<br>")
}

/// Who is to move: the seat's player, linked.
fn to_move_cell(w: &Words, e: &Entry, players: &Players, up: &str) -> String {
    let player = e
        .to_move
        .as_ref()
        .and_then(|s| e.players.iter().find(|p| &p.seat == s));
    match (&e.to_move, player) {
        (Some(seat), Some(p)) => format!(
            "<a href=\"{up}players/{}.html\">{}</a> ({})",
            players.slug(&p.key),
            escape(&p.name),
            escape(seat)
        ),
        (Some(seat), None) => escape(seat),
        (None, _) => escape(w.waiting),
    }
}

/// The table of games in play.
pub fn in_play_table(
    w: &Words,
    games: &[&Entry],
    players: &Players,
    up: &str,
    turn_of: Option<&str>,
) -> String {
    let mut out = table_head(&[w.game, w.players, w.to_move, w.due, w.last_move, w.board]);
    for e in games {
        let turn = turn_of.is_some() && e.key_to_move().as_deref() == turn_of;
        let picture = match e.picture {
            true => format!(
                "<img class=\"thumb\" src=\"{up}{}/board.png\" alt=\"{}\" width=\"88\">",
                href(&game_folder(&e.path)),
                w.picture_of
            ),
            false => String::new(),
        };
        let _ = writeln!(
            out,
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{picture}</td></tr>",
            if turn { " class=\"turn\"" } else { "" },
            game_cell(e, up),
            players_cell(e, players, up),
            to_move_cell(w, e, players, up),
            escape(e.deadline.as_deref().unwrap_or("")),
            escape(e.last_move.as_deref().unwrap_or("")),
        );
    }
    out.push_str(TABLE_END);
    out
}

/// The table of finished games.
pub fn finished_table(w: &Words, games: &[&Entry], players: &Players, up: &str) -> String {
    let mut out = table_head(&[w.game, w.players, w.result, w.plies, w.ended]);
    for e in games {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            game_cell(e, up),
            players_cell(e, players, up),
            escape(e.over.as_deref().unwrap_or("")),
            e.ply.map(|p| p.to_string()).unwrap_or_default(),
            escape(e.last_time.as_deref().unwrap_or("")),
        );
    }
    out.push_str(TABLE_END);
    out
}

/// A table's start: its heading row of `columns`, in a box that scrolls on a narrow screen.
fn table_head(columns: &[&str]) -> String {
    let mut out = String::from("<div class=\"scroll\"><table>\n<thead><tr>");
    for c in columns {
        let _ = write!(out, "<th scope=\"col\">{c}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    out
}

const TABLE_END: &str = "</tbody>\n</table></div>\n";

/// A list of games, each linked, with why (`why` of the game).
fn why_list(games: &[&Entry], up: &str, why: impl Fn(&Entry) -> Option<&str>) -> String {
    let mut out = String::from("<ul>\n");
    for e in games {
        let _ = writeln!(
            out,
            "<li><a href=\"{up}{}/index.html\">{}</a>: {}</li>",
            href(&game_folder(&e.path)),
            escape(&e.path),
            escape(why(e).unwrap_or(""))
        );
    }
    out.push_str("</ul>\n");
    out
}

/// The sections of a list of games: in play, finished, unreadable (each only when it has one).
pub fn sections(
    w: &Words,
    games: &[&Entry],
    players: &Players,
    up: &str,
    turn_of: Option<&str>,
) -> String {
    let unreadable: Vec<&Entry> = games
        .iter()
        .copied()
        .filter(|e| e.error.is_some())
        .collect();
    let over: Vec<&Entry> = games
        .iter()
        .copied()
        .filter(|e| e.error.is_none() && e.over.is_some())
        .collect();
    let mut playing: Vec<&Entry> = games
        .iter()
        .copied()
        .filter(|e| e.error.is_none() && e.over.is_none())
        .collect();
    // The player's turns first, then by deadline, then by folder.
    playing.sort_by(|a, b| {
        let mine = |e: &Entry| turn_of.is_some() && e.key_to_move().as_deref() == turn_of;
        (!mine(a), a.deadline.is_none(), &a.deadline, &a.path).cmp(&(
            !mine(b),
            b.deadline.is_none(),
            &b.deadline,
            &b.path,
        ))
    });
    let mut out = String::new();
    if games.is_empty() {
        let _ = writeln!(out, "<p>{}</p>", w.no_games);
    }
    if !playing.is_empty() {
        let _ = writeln!(out, "<h2>{} ({})</h2>", w.in_play, playing.len());
        out.push_str(&in_play_table(w, &playing, players, up, turn_of));
    }
    if !over.is_empty() {
        let _ = writeln!(out, "<h2>{} ({})</h2>", w.finished, over.len());
        out.push_str(&finished_table(w, &over, players, up));
    }
    if !unreadable.is_empty() {
        let _ = writeln!(out, "<h2>{} ({})</h2>", w.unreadable, unreadable.len());
        out.push_str(&why_list(&unreadable, up, |e| e.error.as_deref()));
    }
    out
}

/// A game's own page: players, where it stands, the board, the text view, the moves and the
/// link to its replay.
pub fn game_page(
    w: &Words,
    club: &str,
    e: &Entry,
    parts: &crate::entry::Parts,
    players: &Players,
) -> String {
    let depth = game_folder(&e.path).split('/').count();
    let up = "../".repeat(depth);
    let mut body = String::new();
    let title = match (&e.title, &e.id) {
        (Some(t), Some(id)) => format!("{t} {id}"),
        (Some(t), None) => t.clone(),
        _ => e.path.clone(),
    };
    let _ = writeln!(body, "<p>{}</p>", escape(&e.path));
    if let Some(err) = &e.error {
        let _ = writeln!(
            body,
            "<p><strong>{}</strong>: {}</p>",
            w.unreadable,
            escape(err)
        );
    }
    let _ = writeln!(
        body,
        "<h2>{}</h2>\n<p>{}</p>",
        w.players,
        players_cell(e, players, &up)
    );
    let stands = match (&e.over, &e.to_move) {
        (Some(r), _) => format!("{}: {}", w.result, escape(r)),
        (None, Some(_)) => {
            let due = e
                .deadline
                .as_ref()
                .map(|d| format!("; {}: {}", w.due, escape(d)))
                .unwrap_or_default();
            format!("{}: {}{due}", w.to_move, to_move_cell(w, e, players, &up))
        }
        (None, None) if e.error.is_none() => escape(w.waiting),
        _ => String::new(),
    };
    if !stands.is_empty() {
        let _ = writeln!(body, "<p class=\"turn\">{stands}</p>");
    }
    if e.replay {
        let _ = writeln!(body, "<p><a href=\"replay.html\">{}</a></p>", w.replay);
    } else if e.error.is_none() {
        let _ = writeln!(body, "<p>{}</p>", w.replay_later);
    }
    if e.picture || parts.text.is_some() {
        let _ = writeln!(body, "<h2>{}</h2>", w.position);
    }
    if e.picture {
        let _ = writeln!(
            body,
            "<p><img class=\"board\" src=\"board.png\" alt=\"{}\"></p>",
            w.picture_of
        );
    }
    if let Some(text) = &parts.text {
        let _ = writeln!(body, "<pre>{}</pre>", escape(text));
    }
    if !parts.moves.is_empty() {
        let _ = writeln!(body, "<h2>{}</h2>\n<ol class=\"moves\">", w.moves);
        for m in &parts.moves {
            // The list numbers itself; the ply stays in the text for a reader who copies it.
            let _ = writeln!(body, "<li>{}</li>", escape(m));
        }
        body.push_str("</ol>\n");
    }
    page(w, club, &title, depth, &body)
}

/// The standings page: one table per kind of game, then the finished games not counted.
pub fn standings_page(
    w: &Words,
    club: &str,
    entries: &[Entry],
    judges: &[String],
    players: &Players,
) -> String {
    use qijudge_tournament::standings::{by_kind, report};
    let mut body = String::new();
    match judges.is_empty() {
        true => {
            let _ = writeln!(body, "<p>{}</p>", w.no_judge);
        }
        false => {
            let _ = writeln!(
                body,
                "<p>{}: {}.</p>",
                w.counted_under,
                escape(&judges.join(", "))
            );
        }
    }
    let games = entries.iter().filter_map(|e| e.record.clone()).collect();
    for (kind, games) in by_kind(games) {
        let r = report(games, Vec::new());
        let _ = writeln!(body, "<h2>{}</h2>", escape(&kind));
        body.push_str(&table_head(&[
            w.rank, w.player, w.played, w.wins, w.draws, w.losses, w.points,
        ]));
        for s in &r.standings {
            let name = match players.by_name(&s.name) {
                Some(slug) => format!("<a href=\"players/{slug}.html\">{}</a>", escape(&s.name)),
                None => escape(&s.name),
            };
            let _ = writeln!(
                body,
                "<tr><td class=\"num\">{}</td><td>{name}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}</td></tr>",
                s.rank, s.games, s.wins, s.draws, s.losses, s.points
            );
        }
        body.push_str(TABLE_END);
    }
    let uncounted: Vec<&Entry> = entries.iter().filter(|e| e.uncounted.is_some()).collect();
    if !uncounted.is_empty() {
        let _ = writeln!(body, "<h2>{} ({})</h2>", w.not_counted, uncounted.len());
        body.push_str(&why_list(&uncounted, "", |e| e.uncounted.as_deref()));
    }
    page(w, club, w.standings, 0, &body)
}
