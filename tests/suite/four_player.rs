//! The four-player game (cross board) through the binary: the shipped sample, `new --board
//! cross4`, refusals (ally, out of turn, a player who is out), resignation and deadlines that
//! put a player out while the others play on, a draw agreed by all, and non-interference
//! between all four seats.

use super::helpers::*;
use super::noninterference::normalise;
use qijudge::games::luzhanqi::rules::nodeset::Wide;
use qijudge::games::luzhanqi::rules::random::{random_setup, SplitMix64};
use qijudge::games::luzhanqi::rules::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const SEATS: [&str; 4] = ["south", "east", "north", "west"];
const PLAYERS: [&str; 4] = ["alice", "carol", "bob", "dave"];

/// Keys for the four players and the judge.
fn four_keys(root: &Path) -> PathBuf {
    let dir = root.join("keys");
    std::fs::create_dir_all(&dir).unwrap();
    for name in PLAYERS.iter().chain(&["judge"]) {
        ok(&["keygen", &dir.join(name).to_string_lossy()]);
    }
    dir
}

struct Four {
    _tmp: Option<tempfile::TempDir>,
    dir: PathBuf,
    keys: PathBuf,
}

impl Four {
    /// A cross-board game with these `--rule`s (and other `new` arguments), not yet set up.
    fn new(extra: &[&str]) -> Four {
        let tmp = tempfile::tempdir().unwrap();
        let keys = four_keys(tmp.path());
        let dir = tmp.path().join("game");
        let four = Four {
            _tmp: Some(tmp),
            dir,
            keys,
        };
        let players: Vec<String> = PLAYERS
            .iter()
            .map(|p| format!("{p}={}.pub", four.key(p)))
            .collect();
        let d = four.d();
        let judge = format!("{}.pub", four.key("judge"));
        let mut args = vec!["new", "luzhanqi", &d, "--board", "cross4"];
        for p in &players {
            args.extend(["--player", p]);
        }
        args.extend(["--judge", &judge, "--now", NOW]);
        args.extend(extra);
        ok(&args);
        four
    }

    /// Set up with `setups` (or the fixed rows) and judged: play has begun.
    fn started(extra: &[&str], setups: Option<&[Setup]>) -> Four {
        Four::new(extra).set_up(setups)
    }

    /// Another game under the same manifest and keys, in `name` beside this one.
    fn sibling(&self, name: &str) -> Four {
        let dir = self.dir.with_file_name(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(self.dir.join("game.toml"), dir.join("game.toml")).unwrap();
        Four {
            _tmp: None,
            dir,
            keys: self.keys.clone(),
        }
    }

    /// Every seat commits and hands over `setups` (or the fixed rows); the judge starts play.
    fn set_up(self, setups: Option<&[Setup]>) -> Four {
        let four = self;
        for (i, seat) in SEATS.iter().enumerate() {
            let text = match setups {
                Some(s) => setup_text_on(cross_four(), &s[i]),
                None => [SOUTH_ROWS, NORTH_ROWS][i % 2].to_string(),
            };
            let f = four.dir.with_extension(format!("{seat}.toml"));
            std::fs::write(&f, text).unwrap();
            ok(&[
                "setup",
                &four.d(),
                "--as",
                seat,
                "--key",
                &four.key(PLAYERS[i]),
                &f.to_string_lossy(),
            ]);
        }
        four.judge(NOW);
        four
    }

    fn d(&self) -> String {
        self.dir.to_string_lossy().into_owned()
    }
    fn key(&self, name: &str) -> String {
        self.keys.join(name).to_string_lossy().into_owned()
    }
    fn judge(&self, now: &str) -> Run {
        qj(&[
            "judge",
            &self.d(),
            "--key",
            &self.key("judge"),
            "--now",
            now,
        ])
    }
    fn send(&self, seat: &str, action: &str, extra: &[&str]) -> Run {
        let i = SEATS.iter().position(|s| *s == seat).unwrap();
        let key = self.key(PLAYERS[i]);
        let mut args = vec![
            "move",
            &self.dir.to_str().unwrap(),
            "--as",
            seat,
            "--key",
            &key,
            action,
            // The judge is under test: write what a player sends, legal or not.
            "--no-check",
        ];
        args.extend(extra);
        qj(&args)
    }
    /// Sends and judges; the judge must accept.
    fn play(&self, seat: &str, action: &str) {
        let r = self.send(seat, action, &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let j = self.judge(NOW);
        assert_eq!(j.code, 0, "{seat} {action}: {}", j.stderr);
    }
    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.join(rel)).unwrap()
    }
    fn view(&self, audience: &str) -> serde_json::Value {
        serde_json::from_str(&self.read(&format!("views/{audience}.json"))).unwrap()
    }
}

fn setup_text_on(b: &Board<Wide>, setup: &Setup) -> String {
    setup
        .pieces
        .iter()
        .map(|(sq, p)| format!("{} = \"{}\"\n", b.name_of(*sq), p.english()))
        .collect()
}

#[test]
fn the_four_player_sample_verifies_and_judging_again_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/luzhanqi/sample-4p");
    let dst = tmp.path().join("sample-4p");
    for (rel, bytes) in snapshot(&src) {
        let p = dst.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    let d = dst.to_string_lossy().into_owned();
    let r = ok(&["verify", &d]);
    assert!(r.stdout.contains("12 signed views"), "{}", r.stdout);
    let before = snapshot(&dst);
    ok(&[
        "judge",
        &d,
        "--key",
        &dst.join("keys/judge").to_string_lossy(),
    ]);
    assert_eq!(
        snapshot(&dst),
        before,
        "judging a finished game writes nothing new"
    );
    let full = std::fs::read_to_string(dst.join("views/full.txt")).unwrap();
    assert!(full.contains("Game over: south and north win"), "{full}");
    assert!(full.contains("Out of the game: east, west."));
    let record = std::fs::read_to_string(dst.join("record.jsonl")).unwrap();
    assert!(record.contains("\"notice\":\"eliminated\""));
    assert!(record.contains("\"allies\":[\"north\"]"));
    let east = ok(&["view", &d, "--as", "east"]);
    assert!(
        east.stdout.contains("view for east")
            && east.stdout.contains("Out of the game: east, west.")
    );
    let status = ok(&["status", &d]);
    assert!(
        status
            .stdout
            .contains("over: south and north win (no legal move)"),
        "{}",
        status.stdout
    );
    // The picture of the cross board draws every seat's pieces and the curves.
    let svg = qj(&["view", &d, "--as", "full", "--format", "svg"]);
    assert_eq!(svg.code, 0, "{}", svg.stderr);
    assert!(svg.stdout.starts_with("<svg") && svg.stdout.matches("<path d=\"M").count() >= 4);
}

#[test]
fn new_cross4_wants_four_players_and_rules_that_fit() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = four_keys(tmp.path());
    let k = |n: &str| format!("{n}={}.pub", keys.join(n).to_string_lossy());
    let judge = format!("{}.pub", keys.join("judge").to_string_lossy());
    let d = tmp.path().join("g").to_string_lossy().into_owned();
    let (a, b) = (k("alice"), k("bob"));
    let two = qj(&[
        "new", "luzhanqi", &d, "--board", "cross4", "--player", &a, "--player", &b, "--judge",
        &judge,
    ]);
    assert_eq!(two.code, 2, "{}", two.stderr);
    assert!(two.stderr.contains("4 players") && two.stderr.contains("south, east, north, west"));
    let players: Vec<String> = PLAYERS.iter().map(|p| k(p)).collect();
    for (board, rule, says) in [
        ("cross4", "win=carry-flag", "capture the flag"),
        ("cross4", "no-legal-move=draw", "is out"),
        ("hex", "mines=explode", "unknown board"),
    ] {
        let mut args = vec!["new", "luzhanqi", &d, "--board", board];
        for p in &players {
            args.extend(["--player", p]);
        }
        args.extend(["--judge", &judge, "--rule", rule]);
        let r = qj(&args);
        assert_eq!(r.code, 2, "{rule}");
        assert!(r.stderr.contains(says), "{rule}: {}", r.stderr);
        assert!(!tmp.path().join("g/game.toml").exists());
    }
    let r = qj(&[
        "new",
        "luzhanqi",
        &d,
        "--player",
        &a,
        "--player",
        &b,
        "--judge",
        &judge,
        "--rule",
        "visibility=allies",
    ]);
    assert!(
        r.code == 2 && r.stderr.contains("four-player"),
        "{}",
        r.stderr
    );
}

#[test]
fn allies_turns_and_players_out_through_the_judge() {
    let g = Four::started(&[], None);
    let public = g.view("public");
    assert_eq!(public["to_move"], "south");
    assert_eq!(public["pieces"].as_array().unwrap().len(), 100);
    // South's lieutenant on sc6 sees North's front piece down the centre line: an ally.
    assert_eq!(g.send("south", "sc6-nc6", &[]).code, 0);
    let r = g.judge(NOW);
    assert_eq!(r.code, 1);
    let refusal = g.read("views/south.refusal.txt");
    assert!(
        refusal.contains("nc6 holds a piece of your ally"),
        "{refusal}"
    );
    assert_set_aside(&g.dir, "moves/0001-south.toml");
    g.play("south", "sc6-mc2");
    // Out of turn: North answers before East.
    assert_eq!(g.send("north", "nc6-mc3", &[]).code, 0);
    assert_eq!(g.judge(NOW).code, 1);
    assert_set_aside(&g.dir, "moves/0002-north.toml");
    g.play("east", "ec6-me2");
    // West resigns out of turn: out, its pieces leave, and the turn order skips it.
    g.play("west", "resign");
    let public = g.view("public");
    assert_eq!(public["out"], serde_json::json!(["west"]));
    assert_eq!(public["to_move"], "north");
    assert!(public["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["seat"] != "west"));
    g.play("north", "nb6-nb5");
    g.play("south", "sd6-sd5");
    assert_eq!(g.view("public")["to_move"], "east");
    // A player who is out cannot move.
    g.play("east", "eb6-eb5");
    assert_eq!(g.send("west", "wb6-wb5", &[]).code, 0);
    assert_eq!(g.judge(NOW).code, 1);
    let record = g.read("record.jsonl");
    assert!(
        record.contains("\"notice\":\"eliminated\",\"seat\":\"west\",\"reason\":\"resignation\"")
    );
    // East resigns too: South and North win as a team.
    assert_set_aside(&g.dir, "moves/0007-west.toml");
    g.play("east", "resign");
    let result = &g.view("public")["result"];
    assert_eq!(result["winner"], "south");
    assert_eq!(result["allies"], serde_json::json!(["north"]));
    assert!(g
        .read("views/east.txt")
        .contains("Game over: south and north win (resignation)."));
}

#[test]
fn a_draw_needs_every_player_still_in() {
    let g = Four::started(&[], None);
    for (seat, mv) in [("south", "sb6-sb5"), ("east", "eb6-eb5")] {
        assert_eq!(g.send(seat, mv, &["--offer-draw"]).code, 0);
        assert_eq!(g.judge(NOW).code, 0);
    }
    // North has not offered: West cannot accept yet.
    g.play("north", "nb6-nb5");
    assert_eq!(g.send("west", "accept-draw", &[]).code, 0);
    let refused = g.judge(NOW);
    assert_eq!(refused.code, 1);
    assert!(
        refused.stderr.contains("no draw offer to accept"),
        "{}",
        refused.stderr
    );
    assert_set_aside(&g.dir, "moves/0004-west.toml");
    for (seat, mv) in [
        ("west", "wb6-wb5"),
        ("south", "sd6-sd5"),
        ("east", "ed6-ed5"),
        ("north", "nd6-nd5"),
    ] {
        assert_eq!(g.send(seat, mv, &["--offer-draw"]).code, 0);
        assert_eq!(g.judge(NOW).code, 0, "{seat}");
    }
    g.play("west", "accept-draw");
    let result = &g.view("public")["result"];
    assert_eq!(result["winner"], serde_json::Value::Null);
    assert_eq!(result["reason"], "agreement");
}

/// An eliminated seat's old offer counts for nothing: the draw needs the current offer of every
/// player still in.
#[test]
fn an_eliminated_seats_offer_does_not_make_a_draw() {
    let g = Four::started(&[], None);
    g.play("south", "sb6-sb5");
    assert_eq!(g.send("east", "eb6-eb5", &["--offer-draw"]).code, 0);
    assert_eq!(g.judge(NOW).code, 0);
    let out = qj(&[
        "judge",
        &g.d(),
        "--key",
        &g.key("judge"),
        "--now",
        NOW,
        "--forfeit",
        "east:left-the-club",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(g.send("north", "nb6-nb5", &["--offer-draw"]).code, 0);
    assert_eq!(g.judge(NOW).code, 0);
    // South, still in, never offered: West cannot accept.
    assert_eq!(g.send("west", "accept-draw", &[]).code, 0);
    let refused = g.judge(NOW);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(
        refused.stderr.contains("no draw offer to accept"),
        "{}",
        refused.stderr
    );
    assert!(g.view("public")["result"].is_null());
}

#[test]
fn a_missed_deadline_puts_the_player_out_and_the_next_clock_starts_then() {
    let g = Four::started(&["--clock", "60:0:forfeit"], None);
    // Play began at NOW (12:00). South moves at 12:30.
    assert_eq!(g.send("south", "sb6-sb5", &[]).code, 0);
    assert_eq!(g.judge("2026-11-21T12:30:00Z").code, 0);
    // East never moves: at 14:00 the judge forfeits East, and North's hour starts then.
    assert_eq!(g.judge("2026-11-21T14:00:00Z").code, 0);
    let record = g.read("record.jsonl");
    assert!(
        record.contains("\"kind\":\"forfeit\",\"seat\":\"east\",\"reason\":\"missed-deadline\",\"at\":\"2026-11-21T14:00:00Z\""),
        "{record}"
    );
    assert!(!record.contains("\"kind\":\"end\""));
    let public = g.view("public");
    assert_eq!(public["to_move"], "north");
    assert_eq!(public["out"], serde_json::json!(["east"]));
    let status = ok(&["status", &g.d(), "--now", "2026-11-21T14:30:00Z"]);
    assert!(status.stdout.contains("15:00:00Z"), "{}", status.stdout);
    // North moves in time; judging again changes nothing.
    assert_eq!(g.send("north", "nb6-nb5", &[]).code, 0);
    assert_eq!(g.judge("2026-11-21T14:40:00Z").code, 0);
    let before = snapshot(&g.dir);
    assert_eq!(g.judge("2026-11-21T14:41:00Z").code, 0);
    assert_eq!(snapshot(&g.dir), before);
}

/// Events seat `viewer` may see.
fn seen_by(events: &[Event], viewer: Seat) -> Vec<Event> {
    events
        .iter()
        .filter(|e| e.audience.includes(Viewer::Seat(viewer)))
        .cloned()
        .collect()
}

fn events_of(options: &Options, setups: &[Setup], moves: &[Move]) -> Option<Vec<Event>> {
    let (mut p, mut events) = Position::start(cross_four(), options.clone(), setups, Seat(0));
    for m in moves {
        events.extend(p.play(*m).ok()?);
    }
    Some(events)
}

/// A swap of two of `hidden`'s pieces that `viewer` cannot tell from the original.
fn rearranged(
    options: &Options,
    setups: &[Setup],
    moves: &[Move],
    viewer: Seat,
    hidden: Seat,
    rng: &mut SplitMix64,
) -> Option<Vec<Setup>> {
    let b = cross_four();
    let original = seen_by(&events_of(options, setups, moves)?, viewer);
    for _ in 0..600 {
        let theirs = &setups[hidden.index()];
        let (i, j) = (rng.below(25), rng.below(25));
        if theirs.pieces[i].1 == theirs.pieces[j].1 {
            continue;
        }
        let mut swapped = theirs.clone();
        swapped.pieces[i].1 = theirs.pieces[j].1;
        swapped.pieces[j].1 = theirs.pieces[i].1;
        let Ok(valid) = Setup::validate(b, hidden, &swapped.to_placement(b)) else {
            continue;
        };
        let mut candidate = setups.to_vec();
        candidate[hidden.index()] = valid;
        if events_of(options, &candidate, moves).map(|e| seen_by(&e, viewer))
            == Some(original.clone())
        {
            return Some(candidate);
        }
    }
    None
}

/// Plays `moves` through the binary; returns every file `viewer` may read, each normalised.
fn files_for(
    game: Four,
    setups: &[Setup],
    moves: &[(Seat, Move)],
    viewer: &str,
) -> BTreeMap<String, String> {
    let g = game.set_up(Some(setups));
    for (seat, m) in moves {
        g.play(SEATS[seat.index()], &m.display(cross_four()));
    }
    let mut seen = BTreeMap::new();
    snapshot(&g.dir)
        .into_iter()
        .filter(|(f, _)| {
            let other_view = f.starts_with("views/")
                && !f.starts_with(&format!("views/{viewer}."))
                && !f.starts_with("views/public.");
            !f.starts_with("setups/") && !other_view
        })
        .map(|(f, bytes)| {
            // Pictures are compared byte for byte too.
            let text = String::from_utf8(bytes.clone()).unwrap_or_else(|_| hex::encode(&bytes));
            let shown = normalise(&text, &mut seen);
            (f, shown)
        })
        .collect()
}

/// For every seat, a rearrangement of another seat's unrevealed pieces (the ally's too, when
/// allies are hidden from each other) that the seat cannot tell apart leaves every file it may
/// read byte-identical, up to the hashes that chain from the other seat's salted commitment.
#[test]
fn no_seat_can_tell_another_seats_rearranged_setup() {
    let b = cross_four();
    let mut checked = Vec::new();
    for (viewer, hidden, rules) in [
        (0u8, 1u8, &[][..]),
        (1, 2, &[][..]),
        (2, 3, &["visibility=combatants"][..]),
        (3, 0, &[][..]),
        (0, 2, &[][..]),
        (1, 3, &["turn-order=clockwise"][..]),
        (3, 2, &["visibility=allies"][..]),
    ] {
        let options = {
            let mut o = Options::default();
            for r in rules {
                let (k, v) = r.split_once('=').unwrap();
                o.set(k, v).unwrap();
            }
            o
        };
        let (viewer, hidden) = (Seat(viewer), Seat(hidden));
        let mut found = false;
        for seed in 0..30u64 {
            let mut rng = SplitMix64::new(seed * 7 + viewer.0 as u64);
            let setups: Vec<Setup> = b.seats().map(|s| random_setup(b, s, &mut rng)).collect();
            let (mut p, _) = Position::start(b, options.clone(), &setups, Seat(0));
            let mut moves = Vec::new();
            while moves.len() < 20 && p.result().is_none() {
                let legal = p.legal_moves();
                let m = legal[rng.below(legal.len())];
                moves.push((p.to_move(), m));
                p.play(m).unwrap();
            }
            if p.result().is_some() {
                continue;
            }
            let plain: Vec<Move> = moves.iter().map(|(_, m)| *m).collect();
            let Some(other) = rearranged(&options, &setups, &plain, viewer, hidden, &mut rng)
            else {
                continue;
            };
            let name = SEATS[viewer.index()];
            let extra: Vec<&str> = rules.iter().flat_map(|r| ["--rule", *r]).collect();
            let template = Four::new(&extra);
            let a = files_for(template.sibling("a"), &setups, &moves, name);
            let c = files_for(template.sibling("c"), &other, &moves, name);
            assert_eq!(a.keys().collect::<Vec<_>>(), c.keys().collect::<Vec<_>>());
            for (f, text) in &a {
                assert_eq!(text, &c[f], "{f} differs for {name} ({rules:?})");
            }
            found = true;
            break;
        }
        checked.push((viewer, hidden, found));
    }
    assert!(checked.iter().all(|c| c.2), "{checked:?}");
}

#[test]
fn the_first_mover_is_a_named_seat_or_drawn_among_all_four() {
    let g = Four::started(&["--rule", "first-mover=north"], None);
    assert_eq!(g.view("public")["to_move"], "north");
    let g = Four::started(&["--rule", "first-mover=lot"], None);
    let begin: serde_json::Value = g
        .read("record.jsonl")
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["entry"]["kind"] == "begin")
        .unwrap();
    assert_eq!(begin["entry"]["lot_nonces"].as_object().unwrap().len(), 4);
    assert_eq!(g.view("public")["to_move"], begin["entry"]["first"]);
}

#[test]
fn allies_visibility_shows_the_ally_and_only_the_ally() {
    let g = Four::started(&["--rule", "visibility=allies"], None);
    let known = |audience: &str, seat: &str| {
        g.view(audience)["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["seat"] == seat && !p["piece"].is_null())
            .count()
    };
    assert_eq!(known("south", "north"), 25);
    assert_eq!(known("south", "east"), 0);
    assert_eq!(known("east", "west"), 25);
    assert_eq!(known("public", "south"), 0);
    let hidden = Four::started(&[], None);
    let v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(hidden.dir.join("views/south.json")).unwrap(),
    )
    .unwrap();
    assert!(v["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["seat"] == "south" || p["piece"].is_null()));
}

#[test]
fn each_seat_lists_its_moves_on_the_cross_board_in_turn() {
    let g = Four::started(&[], None);
    let d = g.dir.to_string_lossy().into_owned();
    for (i, seat) in SEATS.iter().enumerate() {
        let listed = ok(&["moves", &d, "--as", seat]);
        let moves: Vec<&str> = listed.stdout.lines().collect();
        assert!(!moves.is_empty(), "{seat}");
        assert!(moves.windows(2).all(|w| w[0] < w[1]), "{seat}: not sorted");
        let later = qj(&["moves", &d, "--as", SEATS[(i + 1) % 4]]);
        assert_eq!(later.code, 1, "{later:?}");
        // Play the first listed move through the checked `move` and the judge.
        let key = g.key(PLAYERS[i]);
        ok(&["move", &d, "--as", seat, "--key", &key, moves[0]]);
        assert_eq!(g.judge(NOW).code, 0);
    }
}

/// A resignation that does not end the game (West goes out, three play on) is a ply of the
/// replay page like a move: it has its own frame, headed with it, and every frame after it
/// keeps the counter, the heading and the move list in step, up to the last ply.
#[test]
fn a_mid_game_resignation_has_its_own_replay_frame() {
    let g = Four::started(&[], None);
    let picture = || ok(&["view", &g.d(), "--as", "public", "--format", "svg"]).stdout;
    let mut pictures = vec![picture()];
    let plies = [
        ("south", "sc6-mc2"),
        ("east", "ec6-me2"),
        ("west", "resign"),
        ("north", "nb6-nb5"),
        ("south", "sd6-sd5"),
        ("east", "eb6-eb5"),
    ];
    for (seat, action) in plies {
        g.play(seat, action);
        pictures.push(picture());
    }
    let html = ok(&["html", &g.d(), "--as", "public"]).stdout;
    let frames = (0..)
        .take_while(|&k| super::replay_page::frame(&html, k).is_some())
        .count();
    assert_eq!(frames, plies.len() + 1, "one frame per ply and the start");
    for (k, view) in pictures.iter().enumerate() {
        let pieces = super::replay_page::frame(&html, k).unwrap();
        assert!(
            view.contains(pieces),
            "frame {k} is not the view at ply {k}"
        );
    }
    let heading = |k: usize| {
        let open = format!("id=\"s{k}\"><h2>");
        let at = html.find(&open).map(|i| i + open.len())?;
        Some(html[at..].split("</h2>").next()?.to_string())
    };
    assert_eq!(heading(3).as_deref(), Some("ply 3: west resigns"));
    assert_eq!(heading(4).as_deref(), Some("ply 4: north nb6-nb5"));
    assert_eq!(heading(6).as_deref(), Some("ply 6: east eb6-eb5"));
    assert_eq!(heading(7), None);
    // The move list has one entry per ply, each linking to its own frame.
    for k in 1..=plies.len() {
        assert!(
            html.contains(&format!("<li id=\"m{k}\"><a href=\"#ply={k}\">")),
            "move {k}"
        );
    }
    assert!(!html.contains(&format!("id=\"m{}\"", plies.len() + 1)));
    // In a real browser: every move of the list shows its frame, with the counter and the
    // heading of that ply, and the last ply is reached.
    let page = g.dir.with_extension("html");
    std::fs::write(&page, &html).unwrap();
    let seen = super::replay_page::drive(&page, "cross4-resignation-public");
    assert_eq!(seen["frames"], plies.len() + 1, "{seen}");
    assert_eq!(seen["clicked"], plies.len(), "{seen}");
}
