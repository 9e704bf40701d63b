//! The replay page (`qijudge html`) in a real headless Chromium (tests/browser/replay.py drives
//! it through chromedriver): it loads with nothing fetched, steps forward and back by button,
//! keyboard, move list and address, and shows the end. Screenshots are kept in
//! `target/replay-screenshots/` for a person to look at.
//! What a seat's page may hold is checked in `noninterference` (the same page whatever the
//! opponent's unrevealed pieces) and here (no enemy rank the seat's view does not show).

use super::helpers::*;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(super) fn drive(page: &Path, name: &str) -> serde_json::Value {
    let shots = root().join("target/replay-screenshots");
    let out = std::process::Command::new("python3")
        .arg(root().join("tests/browser/replay.py"))
        .arg(page)
        .arg(&shots)
        .arg(name)
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{name}: {said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(said.trim()).unwrap()
}

/// Every game kind's replay page for every audience its sample has, in a real browser: it steps
/// by button, keyboard and address to the end, every move in the list is clicked and shows its
/// own position, the console stays free of errors, and the last position shown is the one the
/// audience's view of the finished game draws.
#[test]
fn replay_pages_step_through_the_game_in_a_real_browser() {
    let tmp = tempfile::tempdir().unwrap();
    let luzhanqi_end = "south wins (flag captured)";
    let samples: [(&str, &[&str], &str); 7] = [
        (
            "games/luzhanqi/sample",
            &["public", "south", "north", "full"],
            luzhanqi_end,
        ),
        (
            "games/luzhanqi/sample-4p",
            &["public", "south", "east", "north", "west", "full"],
            "south and north win",
        ),
        (
            "games/xiangqi/sample",
            &["public", "red", "black"],
            "checkmate: black is mated",
        ),
        (
            "games/liubo/sample",
            &["public", "a", "b"],
            "a wins (owl captured)",
        ),
        // Self mode: the players' reveals are no turns of the replay.
        (
            "games/liubo/sample-self",
            &["public", "a", "b"],
            "a wins (five stones)",
        ),
        (
            "games/jieqi/sample",
            &["public", "red", "black"],
            "stalemate: black has no legal move and loses",
        ),
        (
            "games/banqi/sample",
            &["public", "first", "second"],
            "every piece of second was taken",
        ),
    ];
    for (sample, audiences, end) in samples {
        for &audience in audiences {
            let dir = root().join(sample).to_string_lossy().into_owned();
            let name = format!(
                "{}-{audience}",
                sample.trim_start_matches("games/").replace('/', "-")
            );
            let page = tmp.path().join(format!("{name}.html"));
            ok(&[
                "html",
                &dir,
                "--as",
                audience,
                "--out",
                &page.to_string_lossy(),
            ]);
            let html = std::fs::read_to_string(&page).unwrap();
            // Self-contained: no address to fetch anything from.
            // (The one `url(` a page may hold is its own font, as a data: address.)
            for (outside, inside) in [
                ("src=", ""),
                ("http://", "http://www.w3.org/2000/svg"),
                ("https://", ""),
                ("<link", ""),
                ("@import", ""),
                ("url(", "url(data:font/otf;base64,"),
            ] {
                let allowed = !inside.is_empty()
                    && html.matches(outside).count() == html.matches(inside).count();
                assert!(allowed || !html.contains(outside), "{name}: {outside}");
            }
            let seen = drive(&page, &name);
            // Chinese move names come with the board's CJK font, which the browser used; a
            // page without Chinese text carries no font.
            let fonts = seen["fonts"].to_string();
            match sample.contains("xiangqi") {
                true => assert!(
                    fonts.contains("qijudge board CJK loaded"),
                    "{name}: {fonts}"
                ),
                false => assert_eq!(fonts, "[]", "{name}"),
            }
            assert!(
                seen["end"].as_str().unwrap().contains(end),
                "{name}: {seen}"
            );
            assert_eq!(seen["console_errors"], 0, "{name}: {seen}");
            // The cross board's page is taller than a laptop's window: End and Home were
            // checked there without scrolling it.
            if sample.ends_with("sample-4p") {
                assert_eq!(seen["scrollable"], true, "{name}: {seen}");
            }
            // The last position shown is what the audience's view of the end draws.
            let last = seen["frames"].as_u64().unwrap() - 1;
            let open = format!("<g class=\"frame hidden\" id=\"f{last}\">\n");
            let at = html
                .find(&open)
                .unwrap_or_else(|| panic!("{name}: no frame {last}"));
            let pieces = &html[at + open.len()..];
            let pieces = &pieces[..pieces
                .find("</g>\n<g class=\"frame")
                .or_else(|| pieces.find("</g>\n</svg>"))
                .unwrap()];
            let view = ok(&["view", &dir, "--as", audience, "--format", "svg"]).stdout;
            assert!(
                !pieces.trim().is_empty() && view.contains(pieces),
                "{name}: the last frame is not the view's picture"
            );
            // Two runs, byte-identical pages.
            let again = ok(&["html", &dir, "--as", audience]).stdout;
            assert_eq!(again, html, "{name}: the page is deterministic");
        }
    }
}

/// South's page never labels a North piece that South's own view of that position leaves
/// unknown: every position's North tiles carry no label unless South's view knows the rank.
#[test]
fn a_seats_page_holds_only_its_views() {
    let dir = root()
        .join("games/luzhanqi/sample")
        .to_string_lossy()
        .into_owned();
    let south = ok(&["html", &dir, "--as", "south"]).stdout;
    let public = ok(&["html", &dir, "--as", "public"]).stdout;
    // The labels drawn on pieces, by the label they use, over every position.
    let piece_labels = |page: &str| -> std::collections::BTreeMap<String, usize> {
        let mut used = std::collections::BTreeMap::new();
        for frame in page.split("<g class=\"frame").skip(1) {
            let body = frame.split("</g>").next().unwrap();
            for id in body.split("<use href=\"#").skip(1) {
                let id = id.split('"').next().unwrap().to_string();
                *used.entry(id).or_insert(0) += 1;
            }
        }
        used
    };
    // Spectators see no rank but a flag made public when its marshal fell: one label at most.
    let public_labels = piece_labels(&public);
    assert!(public_labels.len() <= 1, "{public_labels:?}");
    // South sees its own 25 ranks from the start: its twelve kinds labelled in every position.
    let south_labels = piece_labels(&south);
    assert!(south_labels.len() >= 12, "{south_labels:?}");
    assert!(
        south_labels.values().sum::<usize>() >= 25 * 10,
        "{south_labels:?}"
    );
    // The full page is for after the game only.
    let g = TestGame::started(&[]);
    let r = qj(&["html", &g.d(), "--as", "full"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("for after the game"), "{r:?}");
    // A seat's page mid-game, made by the judge from its folder.
    let r = ok(&["html", &g.d(), "--as", "north"]);
    assert!(r.stdout.contains("before the first move"));
}

/// The move list names the moving piece where the page's audience saw it: South's page names
/// South's pieces and never North's; the public page names none; the full page names all.
#[test]
fn the_move_list_names_only_the_pieces_its_audience_saw() {
    let dir = root()
        .join("games/luzhanqi/sample")
        .to_string_lossy()
        .into_owned();
    let codes = [
        "FM", "GN", "MG", "BG", "CO", "MJ", "CP", "LT", "EN", "BM", "LM", "FL",
    ];
    let moves = |audience: &str| -> Vec<String> {
        let page = ok(&["html", &dir, "--as", audience]).stdout;
        page.split("<li id=\"m")
            .skip(1)
            .map(|li| {
                li.split('>')
                    .nth(2)
                    .unwrap_or("")
                    .split('<')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let named = |line: &str| line.split(' ').nth(1).is_some_and(|w| codes.contains(&w));
    let south = moves("south");
    assert_eq!(south[0], "south BG e6-e7 (attacker won)");
    assert!(
        south
            .iter()
            .filter(|m| m.starts_with("north "))
            .all(|m| !named(m)),
        "{south:?}"
    );
    assert!(
        south
            .iter()
            .filter(|m| m.starts_with("south "))
            .all(|m| named(m)),
        "{south:?}"
    );
    assert!(moves("public").iter().all(|m| !named(m)));
    let full = moves("full");
    assert!(full.iter().all(|m| named(m)), "{full:?}");
    assert_eq!(full.len(), south.len());
}

/// The pieces of replay frame `k` of a page (`<g class="frame…" id="fk">`).
pub(super) fn frame(html: &str, k: usize) -> Option<&str> {
    let open = html
        .find(&format!("id=\"f{k}\">\n"))
        .map(|at| at + format!("id=\"f{k}\">\n").len())?;
    let rest = &html[open..];
    let end = rest
        .find("</g>\n<g class=\"frame")
        .or_else(|| rest.find("</g>\n</svg>"))?;
    Some(&rest[..end])
}

/// Every position a replay page shows is the audience's own view at that ply: a game of each
/// kind is played through the command line, each seat's and the public's
/// picture (`view --format svg`) kept after every judge run, and each frame of each page is
/// found in the picture of its ply. (The browser test above shows each frame is the one a click
/// on its move brings up.)
#[test]
fn every_frame_is_the_audiences_view_at_its_ply() {
    // Every game as `new` makes it, and Liubo in self mode too (its throws are recorded with
    // their turns).
    let mut cases: Vec<(&str, &[&str])> = qijudge::games::registry::names()
        .iter()
        .map(|&game| (game, &[][..]))
        .collect();
    cases.push(("liubo", &["dice_mode=self"]));
    for (game, rules) in cases {
        let g = qijudge::games::by_name(game).unwrap();
        let seats = g.seats("2p").unwrap();
        let seats: Vec<&str> = seats.iter().map(String::as_str).collect();
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let dir = tmp.path().join("game");
        let d = dir.to_string_lossy().into_owned();
        let (alice, bob, judge_key) = (
            format!("alice={}.pub", keys.path("alice")),
            format!("bob={}.pub", keys.path("bob")),
            format!("{}.pub", keys.path("judge")),
        );
        let mut new = vec![
            "new", game, &d, "--player", &alice, "--player", &bob, "--judge", &judge_key,
        ];
        for r in rules {
            new.extend(["--rule", r]);
        }
        ok(&new);
        let key_of = |seat: &str| keys.path(if seat == seats[0] { "alice" } else { "bob" });
        if g.has_secrets() {
            for &seat in &seats {
                let key = key_of(seat);
                let mut args = vec!["setup", &d, "--as", seat, "--key", &key];
                if g.setup_is_chosen() {
                    args.push("--random");
                }
                ok(&args);
            }
        }
        let audiences = [seats[0], seats[1], "public"];
        let mut pictures: Vec<Vec<String>> = vec![Vec::new(); 3];
        let judge = |pictures: &mut Vec<Vec<String>>| {
            ok(&["judge", &d, "--key", &keys.path("judge")]);
            for (i, audience) in audiences.iter().enumerate() {
                pictures[i].push(ok(&["view", &d, "--as", audience, "--format", "svg"]).stdout);
            }
        };
        judge(&mut pictures);
        for ply in 0..12 {
            let Some((seat, moves)) = to_move(&d, &seats) else {
                break;
            };
            let pick = &moves[(ply * 3) % moves.len()];
            ok(&["move", &d, "--as", seat, "--key", &key_of(seat), pick]);
            judge(&mut pictures);
        }
        for (i, audience) in audiences.iter().enumerate() {
            let html = ok(&["html", &d, "--as", audience]).stdout;
            let views = &pictures[i];
            // Frame 0 is the position before the first move; frame k the position after ply k.
            let frames = (0..).take_while(|&k| frame(&html, k).is_some()).count();
            assert_eq!(
                frames,
                views.len(),
                "{game} {rules:?} {audience}: one frame per ply and the start"
            );
            for (k, view) in views.iter().enumerate() {
                let pieces = frame(&html, k).unwrap();
                assert!(
                    !pieces.trim().is_empty() && view.contains(pieces),
                    "{game} {rules:?} {audience}: frame {k} is not the view at ply {k}"
                );
            }
        }
    }
}

/// Liubo in self mode records a turn's throw with its turn: the page's first frame is still the
/// position before any turn (both seats' six stones in reserve, no last turn), not the one after
/// the first turn.
#[test]
fn the_self_mode_liubo_page_starts_before_the_first_turn() {
    let sample = root().join("games/liubo/sample-self");
    let html = ok(&["html", &sample.to_string_lossy(), "--as", "public"]).stdout;
    let state = |k: usize| {
        let open = format!("id=\"s{k}\"><h2>");
        let at = html.find(&open).unwrap() + open.len();
        html[at..].split("</div>").next().unwrap().to_string()
    };
    let start = state(0);
    assert!(start.starts_with("before the first turn</h2>"), "{start}");
    assert!(start.contains("a: 6 in reserve"), "{start}");
    assert!(start.contains("b: 6 in reserve"), "{start}");
    assert!(!start.contains("last turn"), "{start}");
    assert!(state(1).starts_with("turn 1: a "), "{}", state(1));
    assert_ne!(
        frame(&html, 0),
        frame(&html, 1),
        "the first turn moved stones"
    );
}

/// A Luzhanqi player who has written a move (not judged yet) can still make its replay page and
/// list its events: both show what the judge recorded, and nobody is told to run the judge.
#[test]
fn a_move_not_judged_yet_blocks_no_page_or_event_stream() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let dir = tmp.path().join("g");
    let d = dir.to_string_lossy().into_owned();
    new_game("luzhanqi", &dir, &keys, &[]);
    for (seat, player) in [("south", "alice"), ("north", "bob")] {
        ok(&[
            "setup",
            &d,
            "--as",
            seat,
            "--key",
            &keys.path(player),
            "--random",
        ]);
    }
    ok(&["judge", &d, "--key", &keys.path("judge")]);
    ok(&["judge", &d, "--key", &keys.path("judge")]);
    let (seat, moves) = to_move(&d, &["south", "north"]).unwrap();
    let before = ok(&["html", &d, "--as", seat]).stdout;
    let events_before = ok(&["events", &d, "--as", seat]).stdout;
    ok(&[
        "move",
        &d,
        "--as",
        seat,
        "--key",
        &keys.path("alice"),
        &moves[0],
    ]);
    let page = qj(&["html", &d, "--as", seat]);
    assert_eq!(page.code, 0, "{page:?}");
    assert!(!page.stderr.contains("run `qijudge judge`"), "{page:?}");
    assert_eq!(
        page.stdout, before,
        "the page shows the record, which has not changed"
    );
    let events = qj(&["events", &d, "--as", seat]);
    assert_eq!(events.code, 0, "{events:?}");
    assert_eq!(events.stdout, events_before);
    // Once judged, the move is on the page.
    ok(&["judge", &d, "--key", &keys.path("judge")]);
    let after = ok(&["html", &d, "--as", seat]).stdout;
    assert!(frame(&after, 1).is_some() && frame(&before, 1).is_none());
}
