//! Board pictures: a snapshot per game (the SVG of each shipped sample's public view), the SVG
//! parses as XML (Python's parser), the PNG decodes to the SVG's size, and the bytes repeat.
//! Update the snapshots with `QIJUDGE_WRITE_SNAPSHOTS=1 cargo test pictures`.

use qijudge::games::jieqi::view::JieqiView;
use qijudge::games::xiangqi::view::XiangqiView;
use qijudge::view::picture;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sample_view<T: serde::de::DeserializeOwned>(game: &str) -> T {
    let path = root().join(format!("games/{game}/sample/views/public.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The width an SVG made here declares.
pub fn svg_width(svg: &str) -> u32 {
    let attribute = svg.split("width=\"").nth(1).expect("a width");
    attribute
        .split('"')
        .next()
        .unwrap()
        .parse()
        .expect("a whole number")
}

fn check(name: &str, svg: String) {
    let snapshot = root().join(format!("tests/snapshots/{name}.svg"));
    if std::env::var_os("QIJUDGE_WRITE_SNAPSHOTS").is_some() {
        std::fs::write(&snapshot, &svg).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(&snapshot).unwrap_or_default(),
        svg,
        "tests/snapshots/{name}.svg is out of date: run QIJUDGE_WRITE_SNAPSHOTS=1 cargo test pictures"
    );
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.tag.endswith('svg'), r.tag", &snapshot.to_string_lossy()])
        .output()
        .expect("python3 runs (CI installs it)");
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = picture::png(&svg);
    assert_eq!(png, picture::png(&svg), "deterministic PNG bytes");
    let decoded = resvg::tiny_skia::Pixmap::decode_png(&png).expect("the PNG decodes");
    assert_eq!(decoded.width(), svg_width(&svg));
    // Not a blank page: the board's ink is there.
    assert!(decoded
        .pixels()
        .iter()
        .any(|p| p.red() < 100 && p.green() < 100));
}

#[test]
fn luzhanqi_pictures_show_own_pieces_and_blank_enemies() {
    let south: qijudge::games::luzhanqi::view::ViewFile = {
        let path = root().join("games/luzhanqi/sample/views/south.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let svg = qijudge::games::luzhanqi::picture::luzhanqi(&south);
    // South's own pieces carry their codes; North's are blank tiles (no label path inside).
    assert!(south
        .pieces
        .iter()
        .any(|p| p.seat == "north" && p.piece.is_none()));
    check("luzhanqi-south", svg);
    check(
        "luzhanqi-public",
        qijudge::games::luzhanqi::picture::luzhanqi(&sample_view("luzhanqi")),
    );
}

#[test]
fn xiangqi_picture() {
    check(
        "xiangqi",
        qijudge::games::xiangqi::picture::xiangqi(&sample_view::<XiangqiView>("xiangqi")),
    );
}

/// With `--chinese` the Xiangqi family's and Liubo's captions are Chinese (their characters are checked
/// against the font by the unit tests); the board is the same as in the English picture.
#[test]
fn xiangqi_family_pictures_in_chinese() {
    let xiangqi: XiangqiView = sample_view("xiangqi");
    let jieqi: JieqiView = sample_view("jieqi");
    let banqi = sample_view("banqi");
    let pictures = [
        (
            "xiangqi-chinese",
            qijudge::games::xiangqi::picture::xiangqi(&xiangqi),
            qijudge::games::xiangqi::picture::xiangqi_with(&xiangqi, true),
        ),
        (
            "jieqi-chinese",
            qijudge::games::jieqi::picture::jieqi(&jieqi),
            qijudge::games::jieqi::picture::jieqi_with(&jieqi, true),
        ),
        (
            "banqi-chinese",
            qijudge::games::banqi::picture::banqi(&banqi),
            qijudge::games::banqi::picture::banqi_with(&banqi, true),
        ),
        (
            "liubo-chinese",
            qijudge::games::liubo::picture::liubo(&sample_view("liubo")),
            qijudge::games::liubo::picture::liubo_in(&[], &sample_view("liubo"), true),
        ),
    ];
    for (name, english, chinese) in pictures {
        assert_ne!(english, chinese, "{name}");
        assert_eq!(svg_width(&english), svg_width(&chinese), "{name}");
        check(name, chinese);
    }
    // `view --chinese --format svg` is that picture.
    let cli = super::helpers::ok(&[
        "view",
        &root().join("games/xiangqi/sample").to_string_lossy(),
        "--as",
        "public",
        "--chinese",
        "--format",
        "svg",
    ]);
    assert_eq!(
        cli.stdout,
        qijudge::games::xiangqi::picture::xiangqi_with(&xiangqi, true)
    );
}

#[test]
fn liubo_picture() {
    check(
        "liubo",
        qijudge::games::liubo::picture::liubo(&sample_view("liubo")),
    );
}

/// The pictures docs/views.md shows are what `scripts/doc-pictures.sh` makes from the samples
/// today: the script run with this build into a scratch copy gives the same bytes.
#[test]
fn doc_pictures_are_current() {
    let tmp = tempfile::tempdir().unwrap();
    for part in ["games", "scripts"] {
        let status = std::process::Command::new("cp")
            .arg("-r")
            .arg(root().join(part))
            .arg(tmp.path())
            .status()
            .unwrap();
        assert!(status.success());
    }
    let out = std::process::Command::new("sh")
        .arg("scripts/doc-pictures.sh")
        .arg(env!("CARGO_BIN_EXE_qijudge"))
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let made = tmp.path().join("docs/pictures");
    let mut names: Vec<String> = std::fs::read_dir(&made)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 7, "{names:?}");
    let docs = std::fs::read_to_string(root().join("docs/views.md")).unwrap();
    for name in names {
        let shipped = std::fs::read(root().join("docs/pictures").join(&name)).unwrap_or_default();
        assert!(
            shipped == std::fs::read(made.join(&name)).unwrap(),
            "docs/pictures/{name} is out of date: run sh scripts/doc-pictures.sh"
        );
        assert!(
            docs.contains(&format!("pictures/{name}")),
            "docs/views.md does not show {name}"
        );
    }
}

/// The `<path>` id a picture gives a label drawn at `scale` in ink (its definitions are shared
/// by text, scale and colour).
fn label_id(text: &str, scale: &str) -> String {
    let key = format!("{text}\u{0}{scale}\u{0}#3b2f2f");
    let digest = qijudge::protocol::hash::sha256_tagged(key.as_bytes());
    format!("id=\"t{}\"", &digest.trim_start_matches("sha256:")[..12])
}

/// With `--chinese` the cross board names its arms in Chinese, as its caption does.
#[test]
fn the_chinese_cross_board_names_its_arms_in_chinese() {
    let d = root().join("games/luzhanqi/sample-4p");
    let svg = |chinese: bool| {
        let mut args = vec![
            "view",
            d.to_str().unwrap(),
            "--as",
            "public",
            "--format",
            "svg",
        ];
        if chinese {
            args.push("--chinese");
        }
        super::helpers::ok(&args).stdout
    };
    let (english, chinese) = (svg(false), svg(true));
    for (en, zh) in [
        ("SOUTH", "南方"),
        ("EAST", "东方"),
        ("NORTH", "北方"),
        ("WEST", "西方"),
    ] {
        assert!(english.contains(&label_id(en, "1.5")), "{en}");
        assert!(
            !chinese.contains(&label_id(en, "1.5")),
            "{en} in the Chinese picture"
        );
        assert!(chinese.contains(&label_id(zh, "1.5")), "{zh}");
    }
}
