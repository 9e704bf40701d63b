//! The club's page (`qijudge site`): built over every shipped sample and a club of games in
//! progress, driven in a real headless Chromium (tests/browser/site.py, screenshots kept in
//! `target/site-screenshots/`); rebuilt after one new move, only the pages that changed are
//! written again; a game that cannot be read is listed with why. The site's non-interference
//! is tested in `noninterference`.

use super::helpers::*;
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A club: a copy of every shipped sample, a Xiangqi game and a Luzhanqi game in play, a game
/// waiting for its setups, and a folder whose manifest is damaged.
struct Club {
    tmp: tempfile::TempDir,
    keys: Keys,
    root: PathBuf,
}

impl Club {
    fn new() -> Club {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let root = tmp.path().join("club");
        for kind in ["luzhanqi", "xiangqi", "jieqi", "banqi", "liubo"] {
            for sample in samples_of(kind) {
                let name = Path::new(&sample)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                copy_dir(
                    &repo().join(&sample),
                    &root.join("samples").join(kind).join(name),
                );
            }
        }
        let club = Club { tmp, keys, root };
        let xq = club.game("xq");
        new_game("xiangqi", &xq, &club.keys, &["--clock", "3d"]);
        club.judge(&xq);
        club.play(&xq, "red", "alice", "h2e2");
        club.play(&xq, "black", "bob", "h9g7");
        let lzq = club.game("lzq");
        new_game("luzhanqi", &lzq, &club.keys, &[]);
        setup_with(&lzq, "south", &club.keys.path("alice"), SOUTH_ROWS);
        setup_with(&lzq, "north", &club.keys.path("bob"), NORTH_ROWS);
        club.judge(&lzq);
        let d = lzq.to_string_lossy().into_owned();
        let (seat, legal) = to_move(&d, &["south", "north"]).expect("a seat to move");
        let who = if seat == "south" { "alice" } else { "bob" };
        club.play(&lzq, seat, who, &legal[0]);
        let waiting = club.game("waiting");
        new_game("luzhanqi", &waiting, &club.keys, &[]);
        club.judge(&waiting);
        let broken = club.game("broken");
        std::fs::create_dir_all(&broken).unwrap();
        std::fs::write(broken.join("game.toml"), "format = [not toml\n").unwrap();
        club
    }

    fn game(&self, name: &str) -> PathBuf {
        self.root.join("club").join(name)
    }

    fn judge(&self, dir: &Path) {
        let judge = self.keys.path("judge");
        ok(&[
            "judge",
            &dir.to_string_lossy(),
            "--key",
            &judge,
            "--now",
            NOW,
        ]);
    }

    /// A move written, not judged.
    fn write_move(&self, dir: &Path, seat: &str, key: &str, mv: &str) {
        let d = dir.to_string_lossy();
        ok(&["move", &d, "--as", seat, "--key", &self.keys.path(key), mv]);
    }

    fn play(&self, dir: &Path, seat: &str, key: &str, mv: &str) {
        self.write_move(dir, seat, key, mv);
        self.judge(dir);
    }

    /// `qijudge site` over the club into `out`, counting the club's judge and the samples'.
    fn site(&self, out: &Path, extra: &[&str]) -> Run {
        let root = self.root.to_string_lossy();
        let o = out.to_string_lossy();
        let club_judge = format!("{}.pub", self.keys.path("judge"));
        let mut args = vec![
            "site",
            &root,
            "--out",
            &o,
            "--judge",
            &club_judge,
            "--now",
            NOW,
        ];
        let sample_judge = repo().join("games/luzhanqi/sample/keys/judge.pub");
        let sample_judge = sample_judge.to_string_lossy().into_owned();
        args.extend(["--judge", &sample_judge]);
        args.extend_from_slice(extra);
        ok(&args)
    }
}

/// Each file of the site with its inode and bytes: a file written again (atomically, by rename)
/// has a new inode.
fn files_of(site: &Path) -> BTreeMap<String, (u64, Vec<u8>)> {
    snapshot(site)
        .into_iter()
        .map(|(rel, bytes)| {
            let ino = std::fs::metadata(site.join(&rel)).unwrap().ino();
            (rel, (ino, bytes))
        })
        .collect()
}

#[test]
fn the_site_of_the_samples_and_a_club_in_play_works_in_a_real_browser() {
    let club = Club::new();
    let site = club.tmp.path().join("site");
    let r = club.site(&site, &[]);
    assert!(
        r.stdout.contains("11 games (11 read again)"),
        "{}",
        r.stdout
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        r.stdout.contains("1 cannot be read"),
        "{}\n{index}",
        r.stdout
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    // In play first, with whose turn; the finished samples with their results; the damaged
    // folder with why.
    let playing = index.find("In play (3)").expect("games in play");
    let finished = index.find("Finished (7)").expect("finished games");
    assert!(playing < finished, "{index}");
    assert!(index.contains("south wins (flag captured)"), "{index}");
    assert!(
        index.contains("Cannot be read (1)") && index.contains("club/broken"),
        "{index}"
    );
    assert!(
        index.contains("game.toml"),
        "the reason names the file: {index}"
    );
    let xq = std::fs::read_to_string(site.join("games/club/xq/index.html")).unwrap();
    assert!(
        xq.contains("To move: <a href=\"../../../players/alice-"),
        "{xq}"
    );
    assert!(xq.contains("2. black h9g7"), "{xq}");
    // Xiangqi hides nothing: its replay is there while it is played. Luzhanqi's waits for the
    // revealed setups, and its page says so.
    assert!(site.join("games/club/xq/replay.html").is_file());
    assert!(!site.join("games/club/lzq/replay.html").exists());
    let lzq = std::fs::read_to_string(site.join("games/club/lzq/index.html")).unwrap();
    assert!(
        lzq.contains("once the game is over and its setups are revealed"),
        "{lzq}"
    );
    for sample in [
        "luzhanqi/sample",
        "luzhanqi/sample-4p",
        "xiangqi/sample",
        "banqi/sample",
    ] {
        assert!(
            site.join(format!("games/samples/{sample}/replay.html"))
                .is_file(),
            "{sample}"
        );
    }
    let standings = std::fs::read_to_string(site.join("standings.html")).unwrap();
    assert!(
        standings.contains("<h2>luzhanqi, 4 seats</h2>"),
        "{standings}"
    );
    // The Banqi sample's judge is not one named: listed, not counted.
    assert!(
        standings.contains("banqi/sample</a>: judged by SHA256:"),
        "{standings}"
    );
    let feed = std::fs::read_to_string(site.join("feed.xml")).unwrap();
    assert!(
        feed.starts_with("<?xml") && feed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\"")
    );
    assert_eq!(feed.matches("<entry>").count(), 10 + 7, "{feed}");
    // In a browser, served as any static web server serves it.
    let shots = repo().join("target/site-screenshots");
    let out = std::process::Command::new("python3")
        .arg(repo().join("tests/browser/site.py"))
        .arg(&site)
        .arg(&shots)
        .arg("club")
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: serde_json::Value = serde_json::from_str(said.trim()).unwrap();
    // Index, players' index, standings, 11 game pages, 9 replays, 6 players at least.
    assert!(seen["pages"].as_u64().unwrap() >= 28, "{seen}");
    assert!(seen["links"].as_u64().unwrap() > 100, "{seen}");
    assert!(seen["pictures"].as_u64().unwrap() >= 9, "{seen}");
    assert_eq!(seen["screenshots"].as_array().unwrap().len(), 4, "{seen}");
    // In Chinese.
    let zh = club.tmp.path().join("site-zh");
    club.site(&zh, &["--chinese", "--title", "象棋社"]);
    let index = std::fs::read_to_string(zh.join("index.html")).unwrap();
    assert!(
        index.contains("<html lang=\"zh\">") && index.contains("进行中 (3)"),
        "{index}"
    );
    assert!(
        index.contains("<small>陆战棋</small>") && index.contains("象棋社"),
        "{index}"
    );
    let replay =
        std::fs::read_to_string(zh.join("games/samples/xiangqi/sample/replay.html")).unwrap();
    assert!(
        replay.contains("炮二平五") || replay.contains("炮"),
        "a Chinese replay"
    );
}

#[test]
fn a_rebuild_after_one_move_writes_only_the_pages_that_changed() {
    let club = Club::new();
    let site = club.tmp.path().join("site");
    club.site(&site, &[]);
    let first = files_of(&site);
    // Nothing new: nothing read, nothing written, the same bytes.
    let again = club.site(&site, &[]);
    assert!(
        again.stdout.contains("(0 read again), 0 files written"),
        "{}",
        again.stdout
    );
    assert_eq!(files_of(&site), first);
    // A move written but not judged changes no page either.
    let xq = club.game("xq");
    club.write_move(&xq, "red", "alice", "b0c2");
    let r = club.site(&site, &[]);
    assert!(
        r.stdout.contains("(0 read again), 0 files written"),
        "{}",
        r.stdout
    );
    // Judged: that game's page, replay and picture, the index (its last move, whose turn), the
    // two players' pages and the players' list (their turns), and the site's state.
    club.judge(&xq);
    let r = club.site(&site, &[]);
    assert!(r.stdout.contains("(1 read again)"), "{}", r.stdout);
    assert!(
        r.stdout.contains("\nwrote games/club/xq/index.html\n"),
        "{}",
        r.stdout
    );
    let after = files_of(&site);
    let rewritten: Vec<&String> = after
        .iter()
        .filter(|(rel, (ino, _))| first.get(*rel).map(|f| f.0) != Some(*ino))
        .map(|(rel, _)| rel)
        .collect();
    let mut expected = vec![
        ".qijudge-site.json".to_string(),
        "games/club/xq/board.png".into(),
        "games/club/xq/index.html".into(),
        "games/club/xq/replay.html".into(),
        "index.html".into(),
        "players/index.html".into(),
    ];
    let players: Vec<String> = after
        .keys()
        .filter(|k| k.starts_with("players/alice-") || k.starts_with("players/bob-"))
        .filter(|k| String::from_utf8_lossy(&after[*k].1).contains("games/club/xq/"))
        .cloned()
        .collect();
    assert_eq!(players.len(), 2, "{players:?}");
    expected.extend(players);
    expected.sort();
    let mut rewritten: Vec<String> = rewritten.into_iter().cloned().collect();
    rewritten.sort();
    assert_eq!(rewritten, expected);
    assert_eq!(after.len(), first.len(), "no file added or lost");
    // A game removed from the club takes its pages with it.
    std::fs::remove_dir_all(club.game("waiting")).unwrap();
    let r = club.site(&site, &[]);
    assert!(r.stdout.contains("removed"), "{}", r.stdout);
    assert!(!site.join("games/club/waiting/index.html").exists());
    // The site inside a game folder would write into the game: refused, the game untouched.
    let before = snapshot(&xq);
    let inside = xq.join("site");
    let root = club.root.to_string_lossy();
    let r = qj(&["site", &root, "--out", &inside.to_string_lossy()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("inside the game folder"), "{}", r.stderr);
    assert_eq!(snapshot(&xq), before);
    // So is a game folder given as the site, wherever it lies.
    let elsewhere = club.tmp.path().join("lone");
    new_game("xiangqi", &elsewhere, &club.keys, &[]);
    let r = qj(&["site", &root, "--out", &elsewhere.to_string_lossy()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("a game folder"), "{}", r.stderr);
    // A judge's key file that holds no key is named.
    let bad = club.tmp.path().join("judge.txt");
    std::fs::write(&bad, "not a key\n").unwrap();
    let r = qj(&[
        "site",
        &root,
        "--out",
        &site.to_string_lossy(),
        "--judge",
        &bad.to_string_lossy(),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("judge.txt: not a judge's key"),
        "{}",
        r.stderr
    );
    // Without a judge named, no game is counted, and the standings say why.
    let open = club.tmp.path().join("open-site");
    ok(&[
        "site",
        &root,
        "--out",
        &open.to_string_lossy(),
        "--now",
        NOW,
    ]);
    let standings = std::fs::read_to_string(open.join("standings.html")).unwrap();
    assert!(
        standings.contains("No judge's key was named"),
        "{standings}"
    );
    assert!(
        standings.contains("Not counted (7)") && standings.contains("no judge named"),
        "{standings}"
    );
}
