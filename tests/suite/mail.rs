//! Play by e-mail with messages made by a real mail library (Python's `email` package): every
//! message shape, every refusal, and a whole Luzhanqi game played only through `inbox` and the
//! outgoing messages.

use super::helpers::*;
use qijudge::games::luzhanqi::referee::{load_game, replay};
use qijudge::games::luzhanqi::rules::two_player;
use qijudge::judge::pipeline::Mode;
use qijudge::store::GameDir;
use std::path::{Path, PathBuf};
use std::process::Command;

struct MailGame {
    tmp: tempfile::TempDir,
    keys: Keys,
    judge: PathBuf,
    players: [PathBuf; 2],
    outbox: PathBuf,
    sent: std::cell::Cell<u32>,
}

const SEATS: [&str; 2] = ["south", "north"];
const WHO: [&str; 2] = ["alice", "bob"];

impl MailGame {
    fn new() -> MailGame {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let judge = tmp.path().join("judge-copy");
        let players = [tmp.path().join("alice-copy"), tmp.path().join("bob-copy")];
        let outbox = tmp.path().join("outbox");
        new_game_by_mail(&judge, &keys, &[]);
        for p in &players {
            std::fs::create_dir_all(p).unwrap();
            std::fs::copy(judge.join("game.toml"), p.join("game.toml")).unwrap();
        }
        MailGame {
            tmp,
            keys,
            judge,
            players,
            outbox,
            sent: std::cell::Cell::new(0),
        }
    }

    fn eml(
        &self,
        shape: &str,
        seat: usize,
        file: &Path,
        sig: Option<&Path>,
        quoted: Option<&Path>,
    ) -> PathBuf {
        let n = self.sent.get() + 1;
        self.sent.set(n);
        let out = self.tmp.path().join(format!("msg{n}.eml"));
        let mut args = vec![
            "make".to_string(),
            shape.to_string(),
            out.to_string_lossy().into_owned(),
            format!("{}@example.org", WHO[seat]),
            file.to_string_lossy().into_owned(),
        ];
        if let Some(s) = sig {
            args.push(s.to_string_lossy().into_owned());
        }
        if let Some(q) = quoted {
            args.push(q.to_string_lossy().into_owned());
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        eml_py(&refs);
        out
    }

    fn inbox(&self, messages: &[&Path]) -> Run {
        let j = self.judge.to_string_lossy().into_owned();
        let o = self.outbox.to_string_lossy().into_owned();
        let key = self.keys.path("judge");
        let mut args = vec!["inbox", j.as_str()];
        let ms: Vec<String> = messages
            .iter()
            .map(|m| m.to_string_lossy().into_owned())
            .collect();
        args.extend(ms.iter().map(String::as_str));
        args.extend([
            "--key",
            key.as_str(),
            "--now",
            NOW,
            "--outbox",
            o.as_str(),
            "--from",
            "judge@example.org",
        ]);
        qj(&args)
    }

    /// Each seat commits to its fixed setup in its own copy (`setup`).
    fn setups_in_copies(&self) {
        for (seat, rows) in [SOUTH_ROWS, NORTH_ROWS].iter().enumerate() {
            setup_with(
                &self.players[seat],
                SEATS[seat],
                &self.keys.path(WHO[seat]),
                rows,
            );
        }
    }

    /// A player takes the judge's last message to them into its own copy (the record comes
    /// attached).
    fn receive(&self, seat: usize) {
        let eml = self.outbox.join(format!("{}.eml", SEATS[seat]));
        ok(&[
            "inbox",
            &self.players[seat].to_string_lossy(),
            &eml.to_string_lossy(),
        ]);
    }
}

#[test]
fn a_whole_luzhanqi_game_is_played_through_inbox_and_outgoing_mail() {
    let g = MailGame::new();
    // Setups and commitments, made by each player in its own copy.
    g.setups_in_copies();
    let commitment =
        |seat: usize| g.players[seat].join(format!("commitments/{}.toml", SEATS[seat]));
    let sig = |p: &Path| PathBuf::from(format!("{}.sig", p.display()));
    let a = g.eml(
        "attach",
        0,
        &commitment(0),
        Some(&sig(&commitment(0))),
        None,
    );
    let b = g.eml(
        "inline",
        1,
        &commitment(1),
        Some(&sig(&commitment(1))),
        None,
    );
    let r = g.inbox(&[&a, &b]);
    assert_eq!(r.code, 0, "{r:?}");
    for seat in SEATS {
        assert!(g.outbox.join(format!("{seat}.eml")).exists());
    }
    // The secret setups go to the judge only after both commitments are recorded.
    let setups: Vec<PathBuf> = (0..2)
        .map(|s| {
            g.eml(
                "attach",
                s,
                &g.players[s].join(format!("setups/{}.toml", SEATS[s])),
                None,
                None,
            )
        })
        .collect();
    let r = g.inbox(&[&setups[0], &setups[1]]);
    assert_eq!(r.code, 0, "{r:?}");
    // Play: the mover takes the record from its mail, moves, mails the move.
    let shapes = ["attach", "inline", "reply"];
    let mut last_move: [Option<PathBuf>; 2] = [None, None];
    for ply in 1..=12u32 {
        let game = load_game(&GameDir::new(&g.judge)).unwrap();
        let state = replay(&GameDir::new(&g.judge), &game, Mode::Judge, NOW).unwrap();
        let position = state.position.unwrap();
        let seat = position.to_move().0 as usize;
        g.receive(seat);
        let action = if ply == 12 {
            "resign".to_string()
        } else {
            position.legal_moves()[(ply as usize * 7) % position.legal_moves().len()]
                .display(two_player())
        };
        ok(&[
            "move",
            &g.players[seat].to_string_lossy(),
            "--as",
            SEATS[seat],
            "--key",
            &g.keys.path(WHO[seat]),
            &action,
        ]);
        let file = g.players[seat].join(format!("moves/{ply:04}-{}.toml", SEATS[seat]));
        let shape = shapes[ply as usize % 3];
        let quoted = last_move[1 - seat].clone().or(last_move[seat].clone());
        let shape = if shape == "reply" && quoted.is_none() {
            "inline"
        } else {
            shape
        };
        let msg = g.eml(shape, seat, &file, Some(&sig(&file)), quoted.as_deref());
        let r = g.inbox(&[&msg]);
        assert_eq!(r.code, 0, "ply {ply} ({shape}): {r:?}");
        last_move[seat] = Some(file);
    }
    let mail = std::fs::read_to_string(g.outbox.join("north.eml")).unwrap();
    assert!(
        mail.contains("Subject: [qijudge lzq-")
            && mail.contains("] game over after 12 plies: south wins"),
        "{mail}"
    );
    assert!(mail.contains("To: \"bob\" <bob@example.org>"), "{mail}");
    // Only the seat whose message was answered (north resigned) gets In-Reply-To.
    assert!(mail.contains("In-Reply-To: <"), "{mail}");
    let south = std::fs::read_to_string(g.outbox.join("south.eml")).unwrap();
    assert!(!south.contains("In-Reply-To:"), "{south}");
    ok(&["reveal", &g.judge.to_string_lossy()]);
    ok(&["verify", &g.judge.to_string_lossy()]);
}

fn started_by_mail() -> MailGame {
    let g = MailGame::new();
    g.setups_in_copies();
    for (player, name) in g.players.iter().zip(SEATS) {
        for rel in [
            format!("commitments/{name}.toml"),
            format!("commitments/{name}.toml.sig"),
            format!("setups/{name}.toml"),
        ] {
            let to = g.judge.join(&rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(player.join(&rel), to).unwrap();
        }
    }
    ok(&[
        "judge",
        &g.judge.to_string_lossy(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        NOW,
    ]);
    g
}

/// The mover's first legal move, written (not sent) in its own copy.
fn first_move(g: &MailGame) -> (usize, PathBuf) {
    let game = load_game(&GameDir::new(&g.judge)).unwrap();
    let state = replay(&GameDir::new(&g.judge), &game, Mode::Judge, NOW).unwrap();
    let position = state.position.unwrap();
    let seat = position.to_move().0 as usize;
    for rel in ["record.jsonl", "record.sig"] {
        std::fs::copy(g.judge.join(rel), g.players[seat].join(rel)).unwrap();
    }
    let m = position.legal_moves()[0].display(two_player());
    ok(&[
        "move",
        &g.players[seat].to_string_lossy(),
        "--as",
        SEATS[seat],
        "--key",
        &g.keys.path(WHO[seat]),
        &m,
    ]);
    (
        seat,
        g.players[seat].join(format!("moves/0001-{}.toml", SEATS[seat])),
    )
}

#[test]
fn an_mbox_with_several_messages_is_taken_in_order() {
    let g = started_by_mail();
    let (seat, file) = first_move(&g);
    let sig = PathBuf::from(format!("{}.sig", file.display()));
    let junk = g.eml("nosig", seat, &g.judge.join("game.toml"), None, None);
    let good = g.eml("attach", seat, &file, Some(&sig), None);
    let mbox = g.tmp.path().join("all.mbox");
    eml_py(&[
        "mbox",
        &mbox.to_string_lossy(),
        &junk.to_string_lossy(),
        &good.to_string_lossy(),
    ]);
    let r = g.inbox(&[&mbox]);
    assert_eq!(r.code, 1, "the manifest-only message is refused: {r:?}");
    assert!(r.stderr.contains("all.mbox message 1"), "{}", r.stderr);
    assert!(
        r.stdout.contains("all.mbox message 2: moves/0001-"),
        "{}",
        r.stdout
    );
    assert!(g
        .judge
        .join(format!("moves/0001-{}.toml", SEATS[seat]))
        .exists());
}

/// A refused message: exit 1, the reason named, no move file taken.
fn refused(g: &MailGame, msg: &Path, needle: &str) {
    let before = std::fs::read_dir(g.judge.join("moves"))
        .map(|d| d.count())
        .unwrap_or(0);
    let r = g.inbox(&[msg]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains(needle), "{needle:?} not in {}", r.stderr);
    let after = std::fs::read_dir(g.judge.join("moves"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(before, after);
    // Nothing is lost: the message file is untouched and can be processed again.
    assert!(msg.exists());
}

#[test]
fn unusable_conflicting_html_unsigned_and_forged_messages_are_refused() {
    let g = started_by_mail();
    let (seat, file) = first_move(&g);
    let sig = PathBuf::from(format!("{}.sig", file.display()));
    refused(
        &g,
        &g.eml("html", seat, &file, Some(&sig), None),
        "only an HTML body",
    );
    refused(
        &g,
        &g.eml("nosig", seat, &file, None, None),
        "comes without its signature",
    );
    // A second, different move for the same ply in the same message.
    let other = g.tmp.path().join("other.toml");
    std::fs::write(
        &other,
        std::fs::read_to_string(&file)
            .unwrap()
            .replace("move = \"", "move = \"x"),
    )
    .unwrap();
    refused(
        &g,
        &g.eml("conflict", seat, &file, Some(&sig), Some(&other)),
        "two different files",
    );
    // Signed by someone else than the seat it names.
    let forged = g.tmp.path().join("forged.sig");
    let out = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(["keygen", &g.tmp.path().join("eve").to_string_lossy()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let eve = qijudge::protocol::signing::parse_private_key(
        &std::fs::read_to_string(g.tmp.path().join("eve")).unwrap(),
    )
    .unwrap();
    std::fs::write(
        &forged,
        qijudge::protocol::signing::sign(
            &eve,
            "qijudge-move",
            std::fs::read(&file).unwrap().as_slice(),
        ),
    )
    .unwrap();
    // (The conflict above, signed by the seat, was answered to it.)
    assert!(take_outbox(&g).contains_key(&format!("{}.refused.eml", SEATS[seat])));
    refused(
        &g,
        &g.eml("attach", seat, &file, Some(&forged), None),
        "is not signed by",
    );
    // A file no seat signed proves nothing about its sender: the player whose registered
    // address the message claims is told, at that address only, so a forger learns nothing
    // and a player who signed with the wrong key learns why.
    let sent = take_outbox(&g);
    let notice = format!("{}.refused.eml", SEATS[seat]);
    assert_eq!(sent.keys().collect::<Vec<_>>(), vec![&notice], "{sent:?}");
    assert!(
        sent[&notice].contains("the key named for your seat"),
        "{sent:?}"
    );
    // ... and told that someone else may have written it.
    assert!(
        sent[&notice].contains("If you did not send this message, someone else wrote"),
        "{sent:?}"
    );
    // A message with no file at all, and a broken one.
    let hello = g.tmp.path().join("hello.txt");
    std::fs::write(&hello, "hello\n").unwrap();
    refused(
        &g,
        &g.eml("nosig", seat, &hello, None, None),
        "holds no qijudge file",
    );
    let broken = g.tmp.path().join("broken.eml");
    std::fs::write(&broken, "From: a@example.org\r\nContent-Type: multipart/mixed\r\n\r\n--x\r\nformat = \"qijudge/move/1\"\r\n").unwrap();
    refused(&g, &broken, "without a boundary");
    // The good message still works afterwards, with a hostile attachment name ignored.
    let r = g.inbox(&[&g.eml("attach", seat, &file, Some(&sig), None)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!g.judge.join("../../etc/passwd").exists() || Path::new("/etc/passwd").exists());
    assert!(!g.tmp.path().join("evil.sig").exists());
}

#[test]
fn names_and_addresses_cannot_add_headers_and_sendmail_gets_each_message() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("g").to_string_lossy().into_owned();
    let judge = format!("{}.pub", keys.path("judge"));
    let bob = format!("bob={}.pub=bob@example.org", keys.path("bob"));
    for alice in [
        format!("alice\r\nBcc: eve@example.org={}.pub", keys.path("alice")),
        format!(
            "alice={}.pub=alice@example.org\r\nBcc: eve@example.org",
            keys.path("alice")
        ),
        format!(
            "alice={}.pub=alice@example.org>, eve@example.org",
            keys.path("alice")
        ),
    ] {
        let r = qj(&[
            "new", "luzhanqi", &d, "--player", &alice, "--player", &bob, "--judge", &judge,
        ]);
        assert_eq!(r.code, 2, "{alice:?}: {r:?}");
        assert!(!Path::new(&d).join("game.toml").exists());
    }
    // A manifest edited by hand to carry one is refused when loaded.
    let g = started_by_mail();
    let manifest = g.judge.join("game.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let mut m: qijudge::games::luzhanqi::referee::Manifest = toml::from_str(&text).unwrap();
    m.players[1].email = Some("bob@example.org\r\nBcc: eve@example.org".into());
    std::fs::write(&manifest, qijudge::protocol::files::to_toml(&m)).unwrap();
    let r = qj(&["status", &g.judge.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("players[1].email"), "{}", r.stderr);
    std::fs::write(&manifest, text).unwrap();
    // --sendmail receives every message on standard input.
    let (seat, file) = first_move(&g);
    let sig = PathBuf::from(format!("{}.sig", file.display()));
    let msg = g.eml("attach", seat, &file, Some(&sig), None);
    let sink = g.tmp.path().join("sent.mbox");
    let r = qj(&[
        "inbox",
        &g.judge.to_string_lossy(),
        &msg.to_string_lossy(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        NOW,
        "--from",
        "judge@example.org",
        "--spectator",
        "club@example.org",
        "--sendmail",
        &format!("cat >> {}", sink.display()),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let sent = std::fs::read_to_string(&sink).unwrap();
    assert_eq!(
        sent.matches("MIME-Version: 1.0").count(),
        3,
        "south, north, public"
    );
    // Spectators only in Bcc (sendmail -t drops it), and nobody else anywhere.
    assert_eq!(sent.matches("Bcc: ").count(), 1, "{sent}");
    assert!(sent.contains("Bcc: <club@example.org>"), "{sent}");
    assert!(sent.contains("To: \"spectators\": ;"), "{sent}");
    assert!(!sent.contains("eve@"), "{sent}");
}

#[test]
fn xiangqi_moves_in_any_notation_come_by_mail_too() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let judge = tmp.path().join("judge-copy");
    let player = tmp.path().join("alice-copy");
    let j = judge.to_string_lossy().into_owned();
    ok(&[
        "new",
        "xiangqi",
        &j,
        "--player",
        &format!("alice={}.pub=alice@example.org", keys.path("alice")),
        "--player",
        &format!("bob={}.pub=bob@example.org", keys.path("bob")),
        "--judge",
        &format!("{}.pub", keys.path("judge")),
        "--now",
        NOW,
    ]);
    ok(&["judge", &j, "--key", &keys.path("judge"), "--now", NOW]);
    std::fs::create_dir_all(&player).unwrap();
    for f in ["game.toml", "record.jsonl", "record.sig"] {
        std::fs::copy(judge.join(f), player.join(f)).unwrap();
    }
    ok(&[
        "move",
        &player.to_string_lossy(),
        "--as",
        "red",
        "--key",
        &keys.path("alice"),
        "炮二平五",
    ]);
    let file = player.join("moves/0001-red.toml");
    let msg = tmp.path().join("m.eml");
    eml_py(&[
        "make",
        "inline",
        &msg.to_string_lossy(),
        "alice@example.org",
        &file.to_string_lossy(),
        &format!("{}.sig", file.display()),
    ]);
    let out = tmp.path().join("out");
    let r = qj(&[
        "inbox",
        &j,
        &msg.to_string_lossy(),
        "--key",
        &keys.path("judge"),
        "--now",
        NOW,
        "--outbox",
        &out.to_string_lossy(),
        "--from",
        "judge@example.org",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let mail = std::fs::read_to_string(out.join("black.eml")).unwrap();
    assert!(mail.contains("] black to move (ply 2)"), "{mail}");
    assert!(mail.contains("filename=\"board.png\""), "{mail}");
}

#[test]
fn a_players_copy_takes_only_its_own_judges_record() {
    let g = started_by_mail();
    let other = started_by_mail();
    let out = g.tmp.path().join("out");
    let (seat, file) = first_move(&g);
    let sig = PathBuf::from(format!("{}.sig", file.display()));
    let msg = g.eml("attach", seat, &file, Some(&sig), None);
    let r = qj(&[
        "inbox",
        &g.judge.to_string_lossy(),
        &msg.to_string_lossy(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        NOW,
        "--outbox",
        &out.to_string_lossy(),
        "--from",
        "judge@example.org",
        "--spectator",
        "club@example.org",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let mail = out.join("public.eml");
    // The right copy takes the record; taking it again changes nothing.
    let mine = &g.players[1 - seat];
    ok(&["inbox", &mine.to_string_lossy(), &mail.to_string_lossy()]);
    assert_eq!(
        std::fs::read(mine.join("record.jsonl")).unwrap(),
        std::fs::read(g.judge.join("record.jsonl")).unwrap()
    );
    ok(&["inbox", &mine.to_string_lossy(), &mail.to_string_lossy()]);
    // Another game's copy refuses it.
    let r = qj(&[
        "inbox",
        &other.players[0].to_string_lossy(),
        &mail.to_string_lossy(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    // The game's files come bundled; another game's bundle is named as such.
    assert!(
        r.stderr.contains("game.tar.gz: holds another game"),
        "{}",
        r.stderr
    );
    assert!(!other.players[0].join("record.jsonl").exists());
}

#[test]
fn outgoing_mail_needs_the_judges_address() {
    let g = started_by_mail();
    let msg = g.tmp.path().join("none.eml");
    std::fs::write(&msg, "From: a@example.org\r\n\r\nhello\r\n").unwrap();
    let r = qj(&[
        "inbox",
        &g.judge.to_string_lossy(),
        &msg.to_string_lossy(),
        "--key",
        &g.keys.path("judge"),
        "--outbox",
        &g.tmp.path().join("out").to_string_lossy(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--from"), "{}", r.stderr);
}

/// Setups come unsigned, so a stranger used to be able to mail a parseable `setups/south.toml`
/// that the inbox stored; the real setup was then refused forever. Now a secret is stored only
/// if it opens the seat's signed commitment.
#[test]
fn a_strangers_setup_never_takes_a_seat() {
    let g = MailGame::new();
    g.setups_in_copies();
    let made: Vec<PathBuf> = (0..2)
        .map(|seat| g.players[seat].join(format!("setups/{}.toml", SEATS[seat])))
        .collect();
    // Before the commitment: refused, nothing stored.
    let early = g.eml("attach", 0, &made[0], None, None);
    refused(&g, &early, "commitment");
    assert!(!g.judge.join("setups/south.toml").exists());
    // South commits by mail.
    let commitment = g.players[0].join("commitments/south.toml");
    let sig = PathBuf::from(format!("{}.sig", commitment.display()));
    let c = g.eml("attach", 0, &commitment, Some(&sig), None);
    assert_eq!(g.inbox(&[&c]).code, 0);
    // A stranger sends a setup for south (here: north's setup relabelled): refused.
    let forged_text = std::fs::read_to_string(&made[1])
        .unwrap()
        .replace("seat = \"north\"", "seat = \"south\"");
    let forged = g.tmp.path().join("forged.toml");
    std::fs::write(&forged, forged_text).unwrap();
    let msg = g.eml("attach", 1, &forged, None, None);
    refused(&g, &msg, "does not open");
    assert!(!g.judge.join("setups/south.toml").exists());
    // South's own setup is taken.
    let real = g.eml("attach", 0, &made[0], None, None);
    assert_eq!(g.inbox(&[&real]).code, 0);
    assert!(g.judge.join("setups/south.toml").exists());
}

/// The same for a Liubo chain seed: stored only if its chain reaches the head the seat signed.
#[test]
fn a_strangers_chain_seed_never_takes_a_seat() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let judge = tmp.path().join("judge");
    new_game("liubo", &judge, &keys, &["--rule", "chain-length=16"]);
    let copy = |who: &str, seat: &str| {
        let dir = tmp.path().join(who);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(judge.join("game.toml"), dir.join("game.toml")).unwrap();
        let d = dir.to_string_lossy().into_owned();
        ok(&["setup", &d, "--as", seat, "--key", &keys.path(who)]);
        dir
    };
    let (alice, bob) = (copy("alice", "a"), copy("bob", "b"));
    let mut n = 0;
    let mut message = |file: &Path, sig: Option<&Path>| {
        n += 1;
        let out = tmp.path().join(format!("m{n}.eml"));
        let mut args = vec![
            "make".to_string(),
            "attach".to_string(),
            out.to_string_lossy().into_owned(),
            "alice@example.org".to_string(),
            file.to_string_lossy().into_owned(),
        ];
        args.extend(sig.map(|s| s.to_string_lossy().into_owned()));
        eml_py(&args.iter().map(String::as_str).collect::<Vec<_>>());
        out
    };
    let inbox = |msg: &Path| {
        qj(&[
            "inbox",
            &judge.to_string_lossy(),
            &msg.to_string_lossy(),
            "--key",
            &keys.path("judge"),
            "--now",
            NOW,
            "--outbox",
            &tmp.path().join("outbox").to_string_lossy(),
            "--from",
            "judge@example.org",
        ])
    };
    let seed_a = alice.join("setups/a.toml");
    let early = inbox(&message(&seed_a, None));
    assert_eq!(early.code, 1, "{early:?}");
    assert!(early.stderr.contains("commitment"), "{early:?}");
    let commitment = alice.join("commitments/a.toml");
    let sig = alice.join("commitments/a.toml.sig");
    assert_eq!(inbox(&message(&commitment, Some(&sig))).code, 0);
    // Bob's seed relabelled as a's: its chain does not reach a's signed head.
    let forged = tmp.path().join("forged.toml");
    let text = std::fs::read_to_string(bob.join("setups/b.toml")).unwrap();
    std::fs::write(&forged, text.replace("seat = \"b\"", "seat = \"a\"")).unwrap();
    let r = inbox(&message(&forged, None));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("does not open"), "{r:?}");
    assert!(!judge.join("setups/a.toml").exists());
    assert_eq!(inbox(&message(&seed_a, None)).code, 0);
    assert!(judge.join("setups/a.toml").exists());
}

/// The files in the outbox, by name, and empties it.
fn take_outbox(g: &MailGame) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    for e in std::fs::read_dir(&g.outbox).into_iter().flatten() {
        let p = e.unwrap().path();
        out.insert(
            p.file_name().unwrap().to_string_lossy().into_owned(),
            std::fs::read_to_string(&p).unwrap(),
        );
        std::fs::remove_file(p).unwrap();
    }
    out
}

/// Played the way people mail: a typo, a chat, an out-of-office reply, a confused message, and
/// the correction. The judge answers the refused seat privately, re-sends nothing when nothing
/// changed, never mails itself, ignores auto-replies, and takes the corrected move on the same
/// ply (the refused one no longer holds it).
#[test]
fn by_mail_a_refused_seat_learns_why_and_nothing_loops() {
    let g = started_by_mail();
    take_outbox(&g);
    let (seat, file) = first_move(&g);
    let sig = PathBuf::from(format!("{}.sig", file.display()));
    let legal = std::fs::read_to_string(&file).unwrap();
    let legal_sig = std::fs::read_to_string(&sig).unwrap();
    // The typo: a move onto the seat's own piece, signed (the player skipped the check).
    let game = load_game(&GameDir::new(&g.judge)).unwrap();
    let state = replay(&GameDir::new(&g.judge), &game, Mode::Judge, NOW).unwrap();
    let moves: Vec<String> = state
        .position
        .unwrap()
        .legal_moves()
        .iter()
        .map(|m| m.display(two_player()))
        .collect();
    let from = moves[0].split('-').next().unwrap();
    let own = moves
        .iter()
        .map(|m| m.split('-').next().unwrap())
        .find(|f| *f != from)
        .unwrap();
    let typo = format!("{from}-{own}");
    std::fs::remove_file(&file).unwrap();
    ok(&[
        "move",
        &g.players[seat].to_string_lossy(),
        "--as",
        SEATS[seat],
        "--key",
        &g.keys.path(WHO[seat]),
        &typo,
        "--no-check",
    ]);
    let msg = g.eml("attach", seat, &file, Some(&sig), None);
    let r = g.inbox(&[&msg]);
    assert_eq!(r.code, 1, "{r:?}");
    let mail = take_outbox(&g);
    let mine = &mail[&format!("{}.eml", SEATS[seat])];
    let theirs = &mail[&format!("{}.eml", SEATS[1 - seat])];
    assert!(
        mine.contains("Your last file was refused")
            && mine.contains(&format!("{own} holds a piece of yours")),
        "{mine}"
    );
    assert!(
        !theirs.contains("refused") && !theirs.contains("holds a piece"),
        "{theirs}"
    );
    assert!(mine.contains("Auto-Submitted: auto-replied"), "{mine}");
    // No spectators: no public message, and nothing ever goes to the judge's own address.
    assert!(!mail.contains_key("public.eml"), "{:?}", mail.keys());
    assert!(mail.values().all(|m| !m.contains("To: \"spectators\"")));
    assert!(mail
        .values()
        .all(|m| !m.contains("<judge@example.org>\r\nSubject") && !m.contains("To: judge@")));

    // A chat brings nothing: refused; its sender, a registered player, is told once, at the
    // address game.toml registers (never the From of the message); no one else is mailed.
    let chat = g.eml("chat", seat, &file, None, None);
    let r = g.inbox(&[&chat]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("nothing new, not sent"), "{r:?}");
    let sent = take_outbox(&g);
    let notice = format!("{}.refused.eml", SEATS[seat]);
    assert_eq!(sent.keys().collect::<Vec<_>>(), vec![&notice], "{sent:?}");
    assert!(sent[&notice].contains("held no qijudge file"), "{sent:?}");
    // The same chat again: the same answer is not sent twice (no loop with a chatty player).
    let r = g.inbox(&[&chat]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains("the same refusal was sent today"),
        "{r:?}"
    );
    assert!(take_outbox(&g).is_empty());

    // An out-of-office reply pasting the legal move is ignored, not taken and not answered.
    let (legal_file, legal_sig_file) = (
        g.tmp.path().join("legal.toml"),
        g.tmp.path().join("legal.sig"),
    );
    std::fs::write(&legal_file, &legal).unwrap();
    std::fs::write(&legal_sig_file, &legal_sig).unwrap();
    let vacation = g.eml("vacation", seat, &legal_file, Some(&legal_sig_file), None);
    let r = g.inbox(&[&vacation]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("sent by a program"), "{r:?}");
    assert!(!g
        .judge
        .join(format!("moves/0001-{}.toml", SEATS[seat]))
        .exists());
    assert!(take_outbox(&g).is_empty());

    // Two different moves in one signed message: refused at intake, and the seat that signed
    // is told why, at its own address only.
    let other = g.tmp.path().join("other.toml");
    std::fs::write(&other, legal.replace("move = \"", "move = \"x")).unwrap();
    let confused = g.eml(
        "conflict",
        seat,
        &legal_file,
        Some(&legal_sig_file),
        Some(&other),
    );
    let r = g.inbox(&[&confused]);
    assert_eq!(r.code, 1, "{r:?}");
    let mail = take_outbox(&g);
    let notice = &mail[&format!("{}.refused.eml", SEATS[seat])];
    assert!(notice.contains("two different files"), "{notice}");
    assert!(
        notice.contains(&format!("{}@example.org", WHO[seat])),
        "{notice}"
    );
    assert!(
        !notice.contains(&format!("{}@example.org", WHO[1 - seat])),
        "{notice}"
    );

    // The correction takes ply 1: the refused file was set aside.
    let fixed = g.eml("inline", seat, &legal_file, Some(&legal_sig_file), None);
    let r = g.inbox(&[&fixed]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("ply 1:"), "{r:?}");
    let mail = take_outbox(&g);
    let mine = &mail[&format!("{}.eml", SEATS[seat])];
    assert!(!mine.contains("refused"), "{mine}");
}

/// Two messages arriving together start two `inbox` runs at once: the second waits for the
/// first, and both files are taken whole (no swapped or lost file).
#[test]
fn two_inbox_runs_at_once_take_both_messages() {
    for round in 0..3 {
        let g = MailGame::new();
        g.setups_in_copies();
        let messages: Vec<PathBuf> = SEATS
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                let c = g.players[seat].join(format!("commitments/{name}.toml"));
                let sig = c.with_extension("toml.sig");
                g.eml("attach", seat, &c, Some(&sig), None)
            })
            .collect();
        let run = |m: &Path| {
            let (j, o, key) = (
                g.judge.to_string_lossy().into_owned(),
                g.outbox.to_string_lossy().into_owned(),
                g.keys.path("judge"),
            );
            Command::new(env!("CARGO_BIN_EXE_qijudge"))
                .args([
                    "inbox",
                    &j,
                    &m.to_string_lossy(),
                    "--key",
                    &key,
                    "--now",
                    NOW,
                ])
                .args(["--outbox", &o, "--from", "judge@example.org"])
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (run(&messages[0]), run(&messages[1]));
        for out in [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()] {
            assert!(
                out.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        for (seat, player) in g.players.iter().enumerate() {
            for rel in [
                format!("commitments/{}.toml", SEATS[seat]),
                format!("commitments/{}.toml.sig", SEATS[seat]),
            ] {
                assert_eq!(
                    std::fs::read(g.judge.join(&rel)).unwrap(),
                    std::fs::read(player.join(&rel)).unwrap(),
                    "round {round}: {rel}"
                );
            }
        }
        let record = std::fs::read_to_string(g.judge.join("record.jsonl")).unwrap();
        assert_eq!(
            record.matches("\"kind\":\"commitment\"").count(),
            2,
            "round {round}"
        );
    }
}

/// A plain-text message from `from` (no file), written beside the game.
fn text_mail(g: &MailGame, from: &str, subject: &str, body: &str) -> PathBuf {
    let n = g.sent.get() + 1;
    g.sent.set(n);
    let out = g.tmp.path().join(format!("text{n}.eml"));
    std::fs::write(
        &out,
        format!("From: {from}\r\nTo: judge@example.org\r\nSubject: {subject}\r\nMessage-ID: <t{n}@example.org>\r\n\r\n{body}\r\n"),
    )
    .unwrap();
    out
}

fn reply_to(address: &str) -> String {
    use sha2::Digest;
    let digest = hex::encode(sha2::Sha256::digest(address.as_bytes()));
    format!("reply-{}.eml", &digest[..16])
}

/// The README's single-game judge (`inbox game1 …`) answers mail commands as a club's judge
/// does, and answers a chat kindly instead of with a technical refusal.
#[test]
fn a_single_games_judge_answers_mail_commands_and_chat() {
    let g = started_by_mail();
    take_outbox(&g);
    let alice = format!("{}@example.org", WHO[0]);
    // status: where the game stands, answered to the sender, exit 0 (nothing refused).
    let r = g.inbox(&[&text_mail(&g, &alice, "status", "")]);
    assert_eq!(r.code, 0, "{r:?}");
    let sent = take_outbox(&g);
    let status = &sent[&reply_to(&alice)];
    assert!(
        status.contains("Subject: [qijudge] ") && status.contains("status"),
        "{status}"
    );
    assert!(status.contains("to move"), "{status}");
    assert!(!status.contains("holds no qijudge file"), "{status}");
    // A second command the same day is answered too (no "same refusal" silence).
    let r = g.inbox(&[&text_mail(&g, &alice, "Re: your game", "help\r\n")]);
    assert_eq!(r.code, 0, "{r:?}");
    let sent = take_outbox(&g);
    let help = &sent[&format!("help-{}", reply_to(&alice).trim_start_matches("reply-"))];
    assert!(help.contains("Subject: [qijudge] help"), "{help}");
    assert!(help.contains("Mail commands, one per message"), "{help}");
    // list: the game, whose turn it is.
    let r = g.inbox(&[&text_mail(&g, &alice, "list", "")]);
    assert_eq!(r.code, 0, "{r:?}");
    let list = &take_outbox(&g)[&reply_to(&alice)];
    assert!(
        list.contains("[you: south]") && list.contains("to move"),
        "{list}"
    );
    // resend: the seat's last message comes again, into this game's outbox, and only that one.
    let r = g.inbox(&[&text_mail(&g, &alice, "resend", "")]);
    assert_eq!(r.code, 0, "{r:?}");
    let sent = take_outbox(&g);
    assert!(sent.contains_key("south.eml"), "{:?}", sent.keys());
    assert!(!sent.contains_key("north.eml"), "{:?}", sent.keys());
    // A chat: refused (it brings nothing), and its sender told kindly where words should go.
    let r = g.inbox(&[&text_mail(
        &g,
        &alice,
        "good luck",
        "Have a nice game, Bob!",
    )]);
    assert_eq!(r.code, 1, "{r:?}");
    let sent = take_outbox(&g);
    let notice = &sent["south.refused.eml"];
    assert!(notice.contains("no file in your message"), "{notice}");
    assert!(notice.contains("write to them"), "{notice}");
    assert!(!notice.contains("--replace"), "{notice}");
    let body = notice.split_once("\r\n\r\n").unwrap().1;
    assert!(body.lines().all(|l| l.len() <= 72), "{notice}");
}

/// A message's `game.tar.gz` carries only the files its recipient has not had: at the end of
/// every shipped sample, the spectators' last message (the last move and the revealed setups
/// new since the message before) is at most 80 kB, the cross board's included, while a
/// recipient that had nothing gets every file. A copy that took only the last message says it
/// lacks files and how to get them; with the whole game taken in, it verifies.
#[test]
fn the_last_message_of_every_sample_carries_only_what_is_new() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for game in qijudge::games::registry::names() {
        for sample in samples_of(game) {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("g");
            copy_dir(&root.join(&sample), &dir);
            let maildir = tmp.path().join("md");
            for sub in ["new", "cur", "tmp"] {
                std::fs::create_dir_all(maildir.join(sub)).unwrap();
            }
            let run = |outbox: &str, spectators: &[&str]| {
                let out = tmp.path().join(outbox);
                let mut args: Vec<String> = vec![
                    "inbox".into(),
                    dir.to_string_lossy().into_owned(),
                    "--key".into(),
                    dir.join("keys/judge").to_string_lossy().into_owned(),
                    "--maildir".into(),
                    maildir.to_string_lossy().into_owned(),
                    "--outbox".into(),
                    out.to_string_lossy().into_owned(),
                    "--from".into(),
                    "judge@example.org".into(),
                    "--now".into(),
                    "2026-11-22T12:00:00Z".into(),
                ];
                for s in ["watch@example.org"].iter().chain(spectators) {
                    args.extend(["--spectator".to_string(), s.to_string()]);
                }
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                ok(&args);
                std::fs::read(out.join("public.eml")).unwrap()
            };
            let whole = run("first", &[]);
            // As if the spectator had had every message but the last: what the judge logged
            // as delivered, less the last move and the revealed setups.
            let last = std::fs::read_dir(dir.join("moves"))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".toml"))
                .max()
                .unwrap();
            let log = dir.join("mail/sent-files.json");
            let mut sent: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&log).unwrap()).unwrap();
            let files = sent["public.eml to watch@example.org"]
                .as_object_mut()
                .unwrap();
            files.retain(|path, _| {
                !path.starts_with(&format!("moves/{last}")) && !path.starts_with("reveal/")
            });
            std::fs::write(&log, serde_json::to_vec(&sent).unwrap()).unwrap();
            std::fs::remove_file(dir.join("mail/sent.json")).unwrap();
            let newest = run("last", &[]);
            assert!(
                newest.len() <= 80_000 && newest.len() < whole.len(),
                "{sample}: the last message is {} bytes (with every file {})",
                newest.len(),
                whole.len()
            );
            let names = |eml: &[u8]| {
                let copy = tempfile::tempdir().unwrap();
                let path = copy.path().join("m.eml");
                std::fs::write(&path, eml).unwrap();
                let r = qj(&[
                    "inbox",
                    &copy.path().join("c").to_string_lossy(),
                    &path.to_string_lossy(),
                ]);
                (copy, r)
            };
            let (_copy, taken) = names(&newest);
            assert!(
                taken.stdout.contains(&format!("moves/{last}"))
                    && !taken.stdout.contains("moves/0001-"),
                "{sample}: {taken:?}"
            );
            assert!(
                taken.stderr.contains("this copy lacks")
                    && taken.stderr.contains("mail `resend` to the judge"),
                "{sample}: {taken:?}"
            );
            // The whole game in one message (a first message, or a `resend`'s answer), but
            // where it would pass 80 kB: then the message says so, and the next ones carry
            // the rest (by_mail::every_message_to_a_new_spectator_… takes them all in).
            let in_parts =
                |eml: &[u8]| String::from_utf8_lossy(eml).contains("carries only part of");
            let (copy, taken) = names(&whole);
            if !in_parts(&whole) {
                assert!(!taken.stderr.contains("lacks"), "{sample}: {taken:?}");
                ok(&["verify", &copy.path().join("c").to_string_lossy()]);
            }
            // A spectator added now (who cannot ask for `resend`) gets every file.
            let joined = run("joined", &["late@example.org"]);
            let (_copy, taken) = names(&joined);
            if !in_parts(&joined) {
                assert!(!taken.stderr.contains("lacks"), "{sample}: {taken:?}");
            }
        }
    }
}

/// The judge's mail logs damaged (not UTF-8, over their size, not JSON): each is set aside as
/// `LOG.damaged` with a warning and started again, and the game's mail goes on; nothing stops.
#[test]
fn a_damaged_mail_log_is_set_aside_and_never_stops_the_mail() {
    let g = MailGame::new();
    // A run with nothing new in the judge's Maildir: it sends what is due.
    let maildir = g.tmp.path().join("md");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let run_mail = || {
        qj(&[
            "inbox",
            &g.judge.to_string_lossy(),
            "--key",
            &g.keys.path("judge"),
            "--maildir",
            &maildir.to_string_lossy(),
            "--now",
            NOW,
            "--outbox",
            &g.outbox.to_string_lossy(),
            "--from",
            "judge@example.org",
        ])
    };
    let first = run_mail();
    assert_eq!(first.code, 0, "{first:?}");
    let cases: [(&str, Vec<u8>); 4] = [
        ("mail/sent.json", vec![0xff, 0xfe, b'{', 0x80]),
        ("mail/sent.json", vec![b' '; 70 * 1024]),
        ("mail/sent-files.json", b"{not json".to_vec()),
        ("mail/notices.json", vec![0xc3, 0x28]),
    ];
    for (log, bytes) in cases {
        let path = g.judge.join(log);
        std::fs::write(&path, &bytes).unwrap();
        let _ = std::fs::remove_dir_all(&g.outbox);
        let run = run_mail();
        assert_eq!(run.code, 0, "{log}: {run:?}");
        assert!(
            run.stderr.contains(&format!("{log} cannot be read"))
                && run.stderr.contains(&format!("set aside as {log}.damaged")),
            "{log}: {}",
            run.stderr
        );
        // Set aside as it was; with the sent log gone the messages went out again and the
        // log is whole again (the other logs only make a message carry more, or a notice go).
        assert_eq!(
            std::fs::read(g.judge.join(format!("{log}.damaged"))).unwrap(),
            bytes
        );
        if log == "mail/sent.json" {
            assert!(g.outbox.join("south.eml").exists(), "{log}: {run:?}");
            let again: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            assert!(again.is_object(), "{log}: {again}");
        }
        // The next run reads it and says nothing of it.
        let next = run_mail();
        assert!(!next.stderr.contains("cannot be read"), "{log}: {next:?}");
    }
}
