//! The Atom feed (RFC 4287) of the club: one entry per new game and one per result, newest
//! first. Its times are the games' own (created, the last move received), never the time of
//! the build, so the same games give the same feed.

use crate::entry::Entry;
use crate::pages::{game_folder, href};
use crate::words::Words;
use qijudge_view::html::escape;
use std::fmt::Write;

/// At most this many entries.
const MAX_ENTRIES: usize = 100;

struct Item {
    id: String,
    updated: String,
    title: String,
    link: String,
}

/// The feed; `base` is the site's address (`--url`), for absolute links.
pub fn feed(w: &Words, club: &str, entries: &[Entry], base: Option<&str>) -> String {
    let mut items = Vec::new();
    for e in entries.iter().filter(|e| e.error.is_none()) {
        let (Some(id), Some(created)) = (&e.id, &e.created) else {
            continue;
        };
        let names: Vec<&str> = e.players.iter().map(|p| p.name.as_str()).collect();
        let title = e.title.as_deref().unwrap_or("");
        let link = format!("{}/index.html", href(&game_folder(&e.path)));
        items.push(Item {
            id: format!("urn:qijudge:{id}:new"),
            updated: created.clone(),
            title: format!("{}: {title}, {}", w.new_game, names.join(" – ")),
            link: link.clone(),
        });
        if let Some(result) = &e.over {
            items.push(Item {
                id: format!("urn:qijudge:{id}:result"),
                updated: e.last_time.clone().unwrap_or_else(|| created.clone()),
                title: format!("{title}, {}: {result}", names.join(" – ")),
                link,
            });
        }
    }
    items.sort_by(|a, b| (&b.updated, &a.id).cmp(&(&a.updated, &b.id)));
    items.truncate(MAX_ENTRIES);
    let updated = items
        .first()
        .map(|i| i.updated.clone())
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".into());
    let base_attr = base
        .map(|b| format!(" xml:base=\"{}/\"", escape(b.trim_end_matches('/'))))
        .unwrap_or_default();
    let feed_id = match base {
        Some(b) => format!("{}/feed.xml", b.trim_end_matches('/')),
        None => format!("urn:qijudge:site:{}", href(club)),
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"{}\"{base_attr}>\n\
         <title>{}</title>\n<id>{}</id>\n<updated>{updated}</updated>\n\
         <author><name>{}</name></author>\n<link rel=\"self\" href=\"feed.xml\"/>\n\
         <link rel=\"alternate\" type=\"text/html\" href=\"index.html\"/>\n<generator>qijudge</generator>\n",
        w.lang,
        escape(club),
        escape(&feed_id),
        escape(club),
    );
    for i in items {
        let _ = write!(
            out,
            "<entry>\n<title>{}</title>\n<id>{}</id>\n<updated>{}</updated>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n</entry>\n",
            escape(&i.title),
            escape(&i.id),
            escape(&i.updated),
            escape(&i.link)
        );
    }
    out.push_str("</feed>\n");
    out
}
