//! The bad-input corpus (`tests/bad-input/`) and hostile variations of real files: every case
//! is refused with exit code 1 and a message naming a file, never panics, and changes no input.

use super::helpers::*;
use qijudge::games::luzhanqi::referee::Manifest;
use qijudge::protocol::files::*;
use qijudge::protocol::signing::{self, namespace};
use std::path::Path;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/bad-input")
            .join(name),
    )
    .unwrap()
}

fn sign_bytes(g: &TestGame, who: &str, ns: &str, bytes: &[u8]) -> String {
    let key =
        signing::parse_private_key(&std::fs::read_to_string(g.keys.path(who)).unwrap()).unwrap();
    signing::sign(&key, ns, bytes)
}

/// What a case does to a game whose play has begun.
enum Act {
    /// Write bytes at a path, signed (namespace, signer) or not.
    Put(&'static str, Vec<u8>, Option<(&'static str, &'static str)>),
    /// Replace a path with a link to another file.
    Link(&'static str),
    /// Replace a path with a named pipe.
    Fifo(&'static str),
    /// Edit game.toml's text.
    Manifest(fn(&str) -> String),
    /// Several acts.
    All(Vec<Act>),
}

fn apply(g: &TestGame, act: Act) {
    match act {
        Act::Put(path, bytes, sign) => {
            let p = g.dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            if let Some((ns, who)) = sign {
                std::fs::write(
                    g.dir.join(format!("{path}.sig")),
                    sign_bytes(g, who, ns, &bytes),
                )
                .unwrap();
            }
            std::fs::write(p, bytes).unwrap();
        }
        Act::Link(path) => {
            let p = g.dir.join(path);
            let target = g.tmp.path().join("elsewhere.toml");
            std::fs::copy(&p, &target).unwrap();
            std::fs::remove_file(&p).unwrap();
            std::os::unix::fs::symlink(&target, &p).unwrap();
        }
        Act::Fifo(path) => {
            let p = g.dir.join(path);
            let _ = std::fs::remove_file(&p);
            let c = std::ffi::CString::new(p.to_string_lossy().as_bytes()).unwrap();
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        }
        Act::Manifest(edit) => {
            let text = g.read("game.toml");
            g.write("game.toml", &edit(&text));
        }
        Act::All(acts) => acts.into_iter().for_each(|a| apply(g, a)),
    }
}

fn valid_move(g: &TestGame, action: &str, comment: Option<&str>) -> Vec<u8> {
    let manifest: Manifest = toml::from_str(&g.read("game.toml")).unwrap();
    let hash = qijudge::protocol::hash::sha256_tagged(g.read("game.toml").as_bytes());
    let head = qijudge::protocol::hash::sha256_tagged(
        g.read("record.jsonl").lines().last().unwrap().as_bytes(),
    );
    let m = MoveFile {
        format: MOVE_FORMAT.into(),
        game: manifest.id,
        manifest: hash,
        ply: 1,
        seat: "south".into(),
        answers: head,
        action: action.into(),
        offer_draw: false,
        comment: comment.map(str::to_string),
        chain_index: None,
        chain: None,
    };
    to_toml(&m).into_bytes()
}

const MV: &str = "moves/0001-south.toml";
const SIGNED_MOVE: Option<(&str, &str)> = Some((namespace::MOVE, "alice"));

#[test]
fn every_bad_input_is_refused_cleanly() {
    type Case = (&'static str, fn(&TestGame) -> Act);
    let cases: Vec<Case> = vec![
        ("malformed TOML, signed", |_| {
            Act::Put(MV, corpus("malformed.toml"), SIGNED_MOVE)
        }),
        ("Latin-1 bytes, signed", |_| {
            Act::Put(MV, corpus("latin1.toml"), SIGNED_MOVE)
        }),
        ("UTF-16, signed", |_| {
            Act::Put(MV, corpus("utf16.toml"), SIGNED_MOVE)
        }),
        ("byte-order mark, signed", |_| {
            Act::Put(MV, corpus("bom.toml"), SIGNED_MOVE)
        }),
        ("NUL byte, signed", |_| {
            Act::Put(MV, corpus("nul.toml"), SIGNED_MOVE)
        }),
        ("empty move, signed", |_| {
            Act::Put(MV, corpus("empty.toml"), SIGNED_MOVE)
        }),
        ("truncated move", |g| {
            let full = valid_move(g, "a6-a7", None);
            Act::All(vec![
                Act::Put(MV, full.clone(), SIGNED_MOVE),
                Act::Put(MV, full[..full.len() / 2].to_vec(), None),
            ])
        }),
        ("oversized move", |g| {
            let mut big = valid_move(g, "a6-a7", None);
            big.extend(std::iter::repeat_n(b'#', 70_000));
            Act::Put(MV, big, SIGNED_MOVE)
        }),
        ("oversized signature", |g| {
            Act::All(vec![
                Act::Put(MV, valid_move(g, "a6-a7", None), None),
                Act::Put("moves/0001-south.toml.sig", vec![b'A'; 20_000], None),
            ])
        }),
        ("garbage signature", |g| {
            Act::All(vec![
                Act::Put(MV, valid_move(g, "a6-a7", None), None),
                Act::Put("moves/0001-south.toml.sig", corpus("garbage.sig"), None),
            ])
        }),
        ("truncated signature", |g| {
            Act::All(vec![
                Act::Put(MV, valid_move(g, "a6-a7", None), None),
                Act::Put("moves/0001-south.toml.sig", corpus("truncated.sig"), None),
            ])
        }),
        ("missing signature", |g| {
            Act::Put(MV, valid_move(g, "a6-a7", None), None)
        }),
        ("forged by another key", |g| {
            Act::Put(
                MV,
                valid_move(g, "a6-a7", None),
                Some((namespace::MOVE, "mallory")),
            )
        }),
        ("signed by the opponent", |g| {
            Act::Put(
                MV,
                valid_move(g, "a6-a7", None),
                Some((namespace::MOVE, "bob")),
            )
        }),
        ("misplaced: a commitment signature on a move", |g| {
            Act::Put(
                MV,
                valid_move(g, "a6-a7", None),
                Some((namespace::COMMITMENT, "alice")),
            )
        }),
        ("misplaced: a move signature on a commitment", |g| {
            let c = g.read("commitments/north.toml").into_bytes();
            Act::Put("commitments/north.toml", c, Some((namespace::MOVE, "bob")))
        }),
        ("control characters in a comment", |g| {
            Act::Put(MV, valid_move(g, "a6-a7", Some("ok\u{1b}[2J")), SIGNED_MOVE)
        }),
        ("move text with a carriage return inside", |g| {
            Act::Put(MV, valid_move(g, "a6\r-a7", None), SIGNED_MOVE)
        }),
        ("move text with a space before it", |g| {
            Act::Put(MV, valid_move(g, " a6-a7", None), SIGNED_MOVE)
        }),
        ("move text with a tab after it", |g| {
            Act::Put(MV, valid_move(g, "a6-a7\t", None), SIGNED_MOVE)
        }),
        ("move text with a form feed", |g| {
            Act::Put(MV, valid_move(g, "a6-a7\u{c}", None), SIGNED_MOVE)
        }),
        ("bidirectional override in a comment", |g| {
            Act::Put(MV, valid_move(g, "a6-a7", Some("a\u{202e}b")), SIGNED_MOVE)
        }),
        ("move file is a link", |g| {
            Act::All(vec![
                Act::Put(MV, valid_move(g, "a6-a7", None), SIGNED_MOVE),
                Act::Link(MV),
            ])
        }),
        ("move file is a pipe", |g| {
            Act::All(vec![
                Act::Put(MV, valid_move(g, "a6-a7", None), SIGNED_MOVE),
                Act::Fifo(MV),
            ])
        }),
        ("stray file name in moves/", |_| {
            Act::Put("moves/notes.txt", b"hello".to_vec(), None)
        }),
        ("control character in a file name", |_| {
            Act::Put("moves/0001-south\u{1b}.toml", b"x".to_vec(), None)
        }),
        ("record that is not JSON", |_| {
            Act::Put("record.jsonl", corpus("garbage.jsonl"), None)
        }),
        ("record signature replaced", |_| {
            Act::Put("record.sig", corpus("garbage.sig"), None)
        }),
        ("manifest with CRLF line ends", |_| {
            Act::Manifest(|t| t.replace('\n', "\r\n"))
        }),
        ("manifest: weak player key", |_| {
            Act::Manifest(|t| {
                let key = key_lines(t)[1].clone();
                t.replace(&key, "key = \"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"")
            })
        }),
        ("manifest: the same key for both seats", |_| {
            Act::Manifest(|t| {
                let keys = key_lines(t);
                t.replace(&keys[2], &keys[1])
            })
        }),
        ("manifest: the judge's key for a seat", |_| {
            Act::Manifest(|t| {
                let keys = key_lines(t);
                t.replace(&keys[1], &keys[0])
            })
        }),
        ("manifest: a sample key outside the sample", |_| {
            Act::Manifest(|t| {
                let sample = std::fs::read_to_string(
                    Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("games/luzhanqi/sample/keys/bob.pub"),
                )
                .unwrap();
                let line = sample
                    .split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ");
                let keys = key_lines(t);
                t.replace(&keys[2], &format!("key = \"{line}\""))
            })
        }),
        ("manifest: control character in a name", |_| {
            Act::Manifest(|t| t.replace("name = \"bob\"", "name = \"bob\\u0007\""))
        }),
        ("manifest: unknown field", |_| {
            Act::Manifest(|t| t.replace("sample = false\n", "sample = false\nextra = 1\n"))
        }),
    ];
    let mut refused = 0;
    for (name, make) in cases {
        let g = TestGame::started(&[]);
        let act = make(&g);
        apply(&g, act);
        let inputs = |g: &TestGame| {
            let mut s = snapshot_lossy(&g.dir);
            s.retain(|k, _| !k.contains(".refusal.txt"));
            s
        };
        let before = inputs(&g);
        let r = g.judge();
        assert_eq!(r.code, 1, "{name}: {r:?}");
        assert!(r.stderr.starts_with("refused: "), "{name}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{name}: {}", r.stderr);
        assert!(
            !r.stderr.contains('\u{1b}') && !r.stderr.contains('\u{202e}'),
            "{name}: control characters reached the terminal"
        );
        let (changed, _) = changed_but_set_aside(&before, &inputs(&g));
        assert!(
            changed.is_empty(),
            "{name}: the refused run changed files: {changed:?}"
        );
        // What the user reads is sentences, never a program's internals.
        assert_no_debug(name, &r.stderr);
        if let Ok(note) = std::fs::read_to_string(g.dir.join("views/south.refusal.txt")) {
            assert_no_debug(name, &note);
            if name.starts_with("move text") {
                assert!(
                    note.contains("field move:")
                        && (note.contains("control character") || note.contains("white space")),
                    "{name}: {note}"
                );
            }
        }
        eprintln!("{name:<45} {}", r.stderr.lines().next().unwrap_or(""));
        refused += 1;
    }
    assert_eq!(refused, 35);
}

/// The `key = …` lines of a manifest: the judge's first, then each seat's.
fn key_lines(manifest: &str) -> Vec<String> {
    manifest
        .lines()
        .filter(|l| l.starts_with("key = "))
        .map(str::to_string)
        .collect()
}

/// Like `snapshot`, but a pipe or a link is recorded by its kind instead of being read.
fn snapshot_lossy(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if m.is_dir() {
                stack.push(p);
            } else if m.is_file() {
                if !rel.ends_with(".qijudge.lock") {
                    out.insert(rel, std::fs::read(&p).unwrap());
                }
            } else {
                out.insert(rel, b"<special>".to_vec());
            }
        }
    }
    out
}
