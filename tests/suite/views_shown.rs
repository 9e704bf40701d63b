//! What players see: the text view and the picture of every shipped sample from every seat (the
//! four-player game from all four), in letters and in Chinese, against snapshots in
//! `tests/snapshots/views/`; and the parts a reader needs checked one by one: coordinates, the
//! board turned to the viewer, the key, names, the last move and its comment, whose turn with
//! the command that lists the moves, the result.
//! Update the snapshots with `QIJUDGE_WRITE_SNAPSHOTS=1 cargo test views_shown`.

use super::helpers::*;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Compares `got` with the snapshot `name`, or writes it when asked to.
fn check(name: &str, got: &str) {
    let path = root().join("tests/snapshots/views").join(name);
    if std::env::var_os("QIJUDGE_WRITE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        want == got,
        "tests/snapshots/views/{name} is out of date (run QIJUDGE_WRITE_SNAPSHOTS=1 cargo test views_shown):\n{got}"
    );
}

/// Every shipped sample of every registered game: the name its snapshots go under (the game,
/// with what follows `sample` in the folder's name: `luzhanqi-4p` for `sample-4p`), its folder
/// and its audiences.
fn samples() -> Vec<(String, String, Vec<String>)> {
    let mut all = Vec::new();
    for game in qijudge::games::registry::names() {
        let g = qijudge::games::by_name(game).unwrap();
        for sample in samples_of(game) {
            let folder = sample.rsplit('/').next().unwrap();
            let name = format!("{game}{}", folder.trim_start_matches("sample"));
            let audiences = g.audiences(&root().join(&sample)).unwrap();
            all.push((name, sample, audiences));
        }
    }
    all
}

#[test]
fn every_game_and_seat_has_a_text_view_and_a_picture() {
    for (name, dir, audiences) in samples() {
        let d = root().join(dir).to_string_lossy().into_owned();
        for audience in &audiences {
            let text = ok(&["view", &d, "--as", audience]).stdout;
            check(&format!("{name}/{audience}.txt"), &text);
            let chinese = ok(&["view", &d, "--as", audience, "--chinese"]).stdout;
            check(&format!("{name}/{audience}.zh.txt"), &chinese);
            let svg = ok(&["view", &d, "--as", audience, "--format", "svg"]).stdout;
            check(&format!("{name}/{audience}.svg"), &svg);
            // Chinese pictures: the first seat of each sample.
            if *audience == audiences[0] {
                let zh = ok(&["view", &d, "--as", audience, "--format", "svg", "--chinese"]);
                check(&format!("{name}/{audience}.zh.svg"), &zh.stdout);
            }
            // The PNG is the SVG rendered: a real PNG of the SVG's width.
            let png = std::process::Command::new(env!("CARGO_BIN_EXE_qijudge"))
                .args(["view", &d, "--as", audience, "--format", "png"])
                .output()
                .unwrap();
            assert!(png.status.success(), "{name} {audience}: {png:?}");
            let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png.stdout).expect("a PNG");
            assert_eq!(
                pixmap.width(),
                super::pictures::svg_width(&svg),
                "{name} {audience}"
            );
            // What every view says in words.
            assert!(text.contains("view for "), "{name} {audience}: {text}");
            assert!(
                text.contains("alice") && text.contains("bob"),
                "{name} {audience}: names"
            );
            assert!(text.contains("Key: "), "{name} {audience}: a key\n{text}");
            assert!(
                text.contains("ast move") || text.contains("last turn"),
                "{name} {audience}"
            );
        }
    }
}

/// The first diagram line that starts with a rank number (not a line of file numbers).
fn first_rank(text: &str) -> String {
    text.lines()
        .find(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
                && l.chars().any(|c| !c.is_ascii_digit() && c != ' ')
        })
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn the_board_is_turned_to_the_viewer() {
    let d = |dir: &str| root().join(dir).to_string_lossy().into_owned();
    // Two players: South sees rank 12 at the top, North rank 1, files reversed.
    let south = ok(&["view", &d("games/luzhanqi/sample"), "--as", "south"]).stdout;
    let north = ok(&["view", &d("games/luzhanqi/sample"), "--as", "north"]).stdout;
    assert!(first_rank(&south).starts_with("12"), "{south}");
    assert!(first_rank(&north).starts_with("1 "), "{north}");
    assert!(south.contains("      a    b    c    d    e"), "{south}");
    assert!(north.contains("      e    d    c    b    a"), "{north}");
    // Xiangqi: Black sees its own back rank (9) at the bottom, files i to a.
    let red = ok(&["view", &d("games/xiangqi/sample"), "--as", "red"]).stdout;
    let black = ok(&["view", &d("games/xiangqi/sample"), "--as", "black"]).stdout;
    assert!(first_rank(&red).starts_with("9 "), "{red}");
    assert!(first_rank(&black).starts_with("0 "), "{black}");
    assert!(black.contains("   i h g f e d c b a"), "{black}");
    // Each side's file numbers, 1 to 9 from its own right, on its own side of the board.
    assert!(
        red.contains("   1 2 3 4 5 6 7 8 9\n   a b c d e f g h i\n9 ")
            && red.contains("   a b c d e f g h i\n   9 8 7 6 5 4 3 2 1\n   red"),
        "{red}"
    );
    assert!(
        black.contains("   1 2 3 4 5 6 7 8 9\n   i h g f e d c b a\n0 ")
            && black.contains("   i h g f e d c b a\n   9 8 7 6 5 4 3 2 1\n   black"),
        "{black}"
    );
    let chinese = ok(&[
        "view",
        &d("games/xiangqi/sample"),
        "--as",
        "red",
        "--chinese",
    ])
    .stdout;
    assert!(
        chinese.contains("   九 八 七 六 五 四 三 二 一\n   red"),
        "{chinese}"
    );
    // Four players: each seat's own arm (its rank numbers s1…, e1…) in the bottom rows.
    for seat in ["south", "east", "north", "west"] {
        let text = ok(&["view", &d("games/luzhanqi/sample-4p"), "--as", seat]).stdout;
        let board: Vec<&str> = text.lines().take_while(|l| !l.starts_with("Key")).collect();
        let bottom = board
            .iter()
            .rev()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n");
        let own = format!(" {}1 ", &seat[..1]);
        assert!(
            bottom.contains(&own),
            "{seat}: own arm not at the bottom:\n{bottom}"
        );
        for other in ["south", "east", "north", "west"]
            .iter()
            .filter(|s| **s != seat)
        {
            // Each arm is labelled: every seat's ranks 1 to 6 appear once.
            for rank in 1..=6 {
                let label = format!("{}{rank}", &other[..1]);
                let count = board
                    .iter()
                    .flat_map(|l| l.split_whitespace())
                    .filter(|t| *t == label)
                    .count();
                assert_eq!(count, 1, "{seat}: {label}");
            }
        }
    }
}

#[test]
fn a_game_in_progress_says_whose_turn_and_how_to_find_the_moves() {
    let g = TestGame::started(&[]);
    let south = ok(&["view", &g.d(), "--as", "south"]).stdout;
    assert!(south.contains("south to move (ply 1)."), "{south}");
    // The hint names the game folder as it was typed.
    let hint = format!("qijudge moves {} --as south", g.d());
    assert!(south.contains(&hint), "{south}");
    // The listed command works and gives moves; a view given as a position points to it.
    let moves = ok(&["moves", &g.d(), "--as", "south"]).stdout;
    let view_file = g
        .dir
        .join("views/south.json")
        .to_string_lossy()
        .into_owned();
    let r = qj(&["moves", "luzhanqi", &view_file]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains(&format!("qijudge moves {} --as south", g.d())),
        "{r:?}"
    );
    assert!(moves.lines().count() > 3, "{moves}");
    let north = ok(&["view", &g.d(), "--as", "north"]).stdout;
    assert!(
        !north.contains("qijudge moves"),
        "not North's turn: {north}"
    );
    // A move with a comment: both players and spectators read it, control characters removed.
    let first = moves.lines().next().unwrap().to_string();
    let r = g.send_with("south", &first, &["--comment", "good luck!"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(g.judge().code, 0);
    for audience in ["north", "public", "south"] {
        let text = ok(&["view", &g.d(), "--as", audience]).stdout;
        assert!(
            text.contains("south's comment: \"good luck!\""),
            "{audience}: {text}"
        );
        assert!(!text.contains('\u{1b}'), "{audience}");
        assert!(
            text.contains(&format!("Last move (ply 1): south {first}")),
            "{text}"
        );
    }
    // The picture says it too, in its caption.
    let svg = ok(&["view", &g.d(), "--as", "north", "--format", "svg"]).stdout;
    assert!(svg.contains("<path"), "{svg}");
}

/// Xiangqi: a move typed with an annotation and a comment; both players and spectators read the
/// comment in the text view, in the picture's caption and on the replay page (escaped there).
#[test]
fn xiangqi_comments_reach_every_view_and_the_replay_page() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let dir = tmp.path().join("xq");
    let d = dir.to_string_lossy().into_owned();
    new_game("xiangqi", &dir, &keys, &[]);
    let judge = || ok(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW]);
    judge();
    ok(&[
        "move",
        &d,
        "--as",
        "Red",
        "--key",
        &keys.path("alice"),
        "C2.5!",
        "--comment",
        "<b>hello</b>",
    ]);
    judge();
    for audience in ["red", "black", "public"] {
        let text = ok(&["view", &d, "--as", audience]).stdout;
        assert!(
            text.contains("red's comment: \"<b>hello</b>\""),
            "{audience}: {text}"
        );
        assert!(
            text.contains("Last move (ply 1): red h2e2 = C2.5 = 炮二平五"),
            "{text}"
        );
    }
    let page = ok(&["html", &d, "--as", "public"]).stdout;
    assert!(
        page.contains("red&#39;s comment: &quot;&lt;b&gt;hello&lt;/b&gt;&quot;"),
        "escaped"
    );
    assert!(!page.contains("<b>hello"), "never raw");
}

/// Liubo: a piece on X says which line it goes on along, in the text and the picture's caption.
#[test]
fn liubo_views_say_where_a_piece_on_x_goes() {
    use qijudge::games::liubo::view::{render_text, LiuboView, OnX};
    let path = root().join("games/liubo/sample/views/public.json");
    let mut v: LiuboView = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v.stations.insert("X".into(), "A".into());
    v.on_x.push(OnX {
        piece: "A".into(),
        towards: "1".into(),
    });
    let text = render_text(&[], &v);
    assert!(
        text.contains("on X: A goes on towards 1 (line 11-X-1)"),
        "{text}"
    );
    let svg = qijudge::games::liubo::picture::liubo(&v);
    assert!(svg.contains("<use"), "drawn");
}

/// Error paths a player reaches, each with its hint: a PNG asked for on a terminal, `pgn` on a
/// game that is not Xiangqi, and a replay page asked of a copy that holds no setups before the
/// reveal.
#[test]
fn refusals_around_views_say_what_to_do() {
    let sample = root()
        .join("games/luzhanqi/sample")
        .to_string_lossy()
        .into_owned();
    // On a terminal (a pseudo-terminal from tests/tty/answer.py), PNG bytes are refused.
    let out = std::process::Command::new("python3")
        .arg(root().join("tests/tty/answer.py"))
        .args([
            "",
            env!("CARGO_BIN_EXE_qijudge"),
            "view",
            &sample,
            "--as",
            "public",
            "--format",
            "png",
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("send it to a file") && !said.contains("PNG"),
        "{said}"
    );
    let r = qj(&["pgn", &sample]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("pgn is for xiangqi games, not luzhanqi")
            && !r.stderr.contains("error: error:"),
        "{r:?}"
    );
    // A player's copy mid-game: no setups, no reveal.
    let g = TestGame::started(&[]);
    let copy = g.tmp.path().join("copy");
    copy_dir(&g.dir, &copy);
    std::fs::remove_dir_all(copy.join("setups")).unwrap();
    let r = qj(&["html", &copy.to_string_lossy(), "--as", "public"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("setups are not at hand") && r.stderr.contains("qijudge reveal"),
        "{r:?}"
    );
}

/// An `--as` that is no audience of the game is refused, naming the audiences there are.
#[test]
fn an_unknown_audience_is_refused_with_the_ones_there_are() {
    for (game, sample, audiences) in samples() {
        let dir = root().join(sample);
        let audiences = audiences.join(", ");
        for command in ["view", "html"] {
            let r = qj(&[command, &dir.to_string_lossy(), "--as", "green"]);
            assert_eq!(r.code, 2, "{game} {command}: {r:?}");
            assert!(
                r.stderr
                    .contains(&format!("--as: \"green\" is not an audience ({audiences})")),
                "{game} {command}: {r:?}"
            );
        }
    }
}

/// What `judge` publishes for every shipped sample, judged afresh (its views removed) and again
/// (nothing new: pictures are kept, not drawn again), as the SHA-256 of every file of the game
/// folder: byte for byte what `tests/snapshots/published/` holds, which was written by the
/// build before the pictures were made cheaper. The same game gives the same bytes, whatever
/// the run and however the picture was arrived at.
#[test]
fn judging_every_sample_publishes_the_same_bytes() {
    for (name, sample, _) in samples() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("game");
        copy_dir(&root().join(&sample), &dir);
        std::fs::remove_dir_all(dir.join("views")).unwrap();
        let d = dir.to_string_lossy().into_owned();
        let key = dir.join("keys/judge").to_string_lossy().into_owned();
        let judge = || qj(&["judge", &d, "--key", &key, "--now", "2026-11-21T12:00:00Z"]);
        let digests = || {
            snapshot(&dir)
                .iter()
                .map(|(path, bytes)| {
                    format!("{} {path}\n", qijudge::protocol::hash::sha256_tagged(bytes))
                })
                .collect::<String>()
        };
        let first = judge();
        assert!(first.code == 0 || first.code == 3, "{name}: {first:?}");
        let fresh = digests();
        let again = judge();
        assert_eq!(again.code, first.code, "{name}: {again:?}");
        assert_eq!(
            digests(),
            fresh,
            "{name}: a re-run changed what was published"
        );
        let path = root()
            .join("tests/snapshots/published")
            .join(format!("{name}.sha256"));
        if std::env::var_os("QIJUDGE_WRITE_SNAPSHOTS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &fresh).unwrap();
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            want == fresh,
            "tests/snapshots/published/{name}.sha256 differs from what judge published:\n{fresh}"
        );
    }
}
