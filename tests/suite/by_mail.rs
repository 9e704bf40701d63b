//! Whole games played only by e-mail, as players do it: the judge invites, each player makes a
//! copy from the invitation, commits and sends a setup, takes every judge's message into the
//! copy, finds its moves there, moves and mails the files in the shape its client writes; a
//! spectator follows the public messages. After the end every copy — each player's and the
//! spectator's — passes `verify` with what the mail brought.

use super::helpers::*;
use std::path::{Path, PathBuf};

struct Table {
    tmp: tempfile::TempDir,
    judge: PathBuf,
    outbox: PathBuf,
    seats: Vec<&'static str>,
    who: Vec<&'static str>,
    /// One copy per seat, then the spectator's.
    copies: Vec<PathBuf>,
    sent: std::cell::Cell<u32>,
}

const SPECTATOR: &str = "club@example.org";

impl Table {
    fn new(seats: &[&'static str], who: &[&'static str], extra: &[&str]) -> Table {
        Table::of("luzhanqi", seats, who, extra)
    }

    fn of(game: &str, seats: &[&'static str], who: &[&'static str], extra: &[&str]) -> Table {
        let tmp = tempfile::tempdir().unwrap();
        let keys = tmp.path().join("keys");
        std::fs::create_dir_all(&keys).unwrap();
        for name in who.iter().chain(&["judge"]) {
            ok(&["keygen", &keys.join(name).to_string_lossy()]);
        }
        let judge = tmp.path().join("judge-copy");
        let d = judge.to_string_lossy().into_owned();
        let players: Vec<String> = who
            .iter()
            .map(|w| format!("{w}={}.pub={w}@example.org", keys.join(w).display()))
            .collect();
        let judge_pub = format!("{}.pub", keys.join("judge").display());
        let mut args = vec!["new", game, &d];
        for p in &players {
            args.extend(["--player", p]);
        }
        args.extend(["--judge", &judge_pub, "--now", NOW, "--clock", "2880:1440"]);
        args.extend(extra);
        ok(&args);
        let mut copies: Vec<PathBuf> = who
            .iter()
            .map(|w| tmp.path().join(format!("{w}-copy")))
            .collect();
        copies.push(tmp.path().join("spectator-copy"));
        Table {
            outbox: tmp.path().join("outbox"),
            tmp,
            judge,
            seats: seats.to_vec(),
            who: who.to_vec(),
            copies,
            sent: std::cell::Cell::new(0),
        }
    }

    fn key(&self, who: &str) -> String {
        self.tmp
            .path()
            .join("keys")
            .join(who)
            .to_string_lossy()
            .into_owned()
    }

    fn outgoing(&self) -> Vec<String> {
        [
            "--outbox",
            &self.outbox.to_string_lossy(),
            "--from",
            "judge@example.org",
            "--now",
            NOW,
        ]
        .map(String::from)
        .into()
    }

    /// The judge takes one message.
    fn judge_takes(&self, message: &Path) {
        let mut args = vec![
            "inbox".to_string(),
            self.judge.to_string_lossy().into_owned(),
            message.to_string_lossy().into_owned(),
            "--key".into(),
            self.key("judge"),
            "--spectator".into(),
            SPECTATOR.into(),
        ];
        args.extend(self.outgoing());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&refs);
    }

    /// A player writes a message holding `file` (and its signature) in a client's shape.
    fn mail(&self, shape: &str, seat: usize, file: &Path, signed: bool) -> PathBuf {
        let n = self.sent.get() + 1;
        self.sent.set(n);
        let out = self.tmp.path().join(format!("msg{n}.eml"));
        let sig = format!("{}.sig", file.display());
        let mut args = vec![
            "make".to_string(),
            shape.to_string(),
            out.to_string_lossy().into_owned(),
            format!("{}@example.org", self.who[seat]),
            file.to_string_lossy().into_owned(),
        ];
        if signed {
            args.push(sig);
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        eml_py(&refs);
        out
    }

    /// Every copy takes the judge's latest message to it (a player's, or the public one).
    fn everyone_reads(&self) {
        for (i, copy) in self.copies.iter().enumerate() {
            let audience = self.seats.get(i).copied().unwrap_or("public");
            let eml = self.outbox.join(format!("{audience}.eml"));
            if eml.exists() {
                ok(&["inbox", &copy.to_string_lossy(), &eml.to_string_lossy()]);
            }
        }
    }

    /// `invite`, into the outbox.
    fn invite(&self) -> Run {
        ok(&[
            "invite",
            &self.judge.to_string_lossy(),
            "--from",
            "judge@example.org",
            "--outbox",
            &self.outbox.to_string_lossy(),
            "--now",
            NOW,
        ])
    }

    /// Each player makes a copy from its invitation's `game.toml`; the spectator's copy starts
    /// from the manifest the organiser publishes.
    fn copies_from_invitations(&self) {
        self.invite();
        for (i, seat) in self.seats.iter().enumerate() {
            let invite = self.outbox.join(format!("{seat}.invite.eml"));
            std::fs::create_dir_all(&self.copies[i]).unwrap();
            eml_py(&[
                "attachments",
                &invite.to_string_lossy(),
                &self.copies[i].to_string_lossy(),
                "game.toml",
            ]);
        }
        let spectator = self.copies.last().unwrap();
        std::fs::create_dir_all(spectator).unwrap();
        std::fs::copy(self.judge.join("game.toml"), spectator.join("game.toml")).unwrap();
    }

    /// Each seat mails its signed commitment; once all are in, its secret (setup or seed).
    fn send_secrets(&self) {
        for (i, seat) in self.seats.iter().enumerate() {
            let c = self.copies[i].join(format!("commitments/{seat}.toml"));
            self.judge_takes(&self.mail("attach", i, &c, true));
        }
        for (i, seat) in self.seats.iter().enumerate() {
            let s = self.copies[i].join(format!("setups/{seat}.toml"));
            self.judge_takes(&self.mail("attach", i, &s, false));
        }
    }

    /// Plays by mail until the game ends: every copy reads the judge's mail, the first player's
    /// copy says whose turn it is, the mover's copy lists its moves (the `step`-th of them is
    /// played, or from ply `resign_from` on a resignation) and the move goes out in the next
    /// client shape. `check` looks at the table before each move. Returns the plies played.
    fn play(
        &self,
        resign_from: u32,
        step: usize,
        shapes: &[&str],
        check: impl Fn(&Table, &str),
    ) -> u32 {
        let mut ply = 0;
        loop {
            self.everyone_reads();
            let status = self.status(&self.copies[0]);
            if !status["result"].is_null() {
                return ply;
            }
            ply += 1;
            assert!(ply < 400, "the game ends");
            let seat = status["to_move"].as_str().unwrap().to_string();
            check(self, &seat);
            let i = self.seats.iter().position(|s| *s == seat).unwrap();
            let copy = self.copies[i].to_string_lossy().into_owned();
            let action = if ply >= resign_from {
                "resign".to_string()
            } else {
                let moves = ok(&["moves", &copy, "--as", &seat]).stdout;
                let moves: Vec<&str> = moves.lines().collect();
                assert!(!moves.is_empty(), "{seat} has a move at ply {ply}");
                moves[(ply as usize * step) % moves.len()].to_string()
            };
            let key = self.key(self.who[i]);
            ok(&["move", &copy, "--as", &seat, "--key", &key, &action]);
            let file = self.copies[i].join(format!("moves/{ply:04}-{seat}.toml"));
            self.judge_takes(&self.mail(shapes[ply as usize % shapes.len()], i, &file, true));
        }
    }

    /// After the end every copy — each player's and the spectator's — passes `verify`.
    fn verify_every_copy(&self) {
        let manifest = std::fs::read_to_string(self.judge.join("game.toml")).unwrap();
        let id = manifest
            .lines()
            .find_map(|l| l.strip_prefix("id = \""))
            .and_then(|l| l.strip_suffix('"'))
            .unwrap();
        for copy in &self.copies {
            let r = ok(&["verify", &copy.to_string_lossy()]);
            assert!(
                r.stdout.starts_with("verified ") && r.stdout.contains(&format!("game {id}")),
                "{r:?}"
            );
        }
    }

    fn status(&self, copy: &Path) -> serde_json::Value {
        let r = ok(&["status", &copy.to_string_lossy(), "--json", "--now", NOW]);
        serde_json::from_str(&r.stdout).unwrap()
    }
}

/// Plays a whole Luzhanqi game by mail; from ply `resign_from` on, the seat to move resigns.
fn play_by_mail(table: &Table, resign_from: u32) -> u32 {
    let t = table;
    // The invitations: one per seat, with the manifest and a setup template.
    t.copies_from_invitations();
    for (i, seat) in t.seats.iter().enumerate() {
        let invite = t.outbox.join(format!("{seat}.invite.eml"));
        let text = std::fs::read_to_string(&invite).unwrap();
        assert!(
            text.contains(&format!("invitation: you play {seat} at luzhanqi")),
            "{text}"
        );
        assert!(text.contains("qijudge setup") && text.contains("judge@example.org"));
        let mine = t.tmp.path().join(t.who[i]);
        std::fs::create_dir_all(&mine).unwrap();
        eml_py(&[
            "attachments",
            &invite.to_string_lossy(),
            &mine.to_string_lossy(),
            "setup-template.toml",
        ]);
        // The template, used as it comes: a legal setup.
        ok(&[
            "setup",
            &t.copies[i].to_string_lossy(),
            "--as",
            seat,
            "--key",
            &t.key(t.who[i]),
            &mine.join("setup-template.toml").to_string_lossy(),
        ]);
    }
    // Sending the same invitations again sends nothing.
    let again = t.invite();
    assert!(again.stdout.contains("already invited"), "{again:?}");
    t.send_secrets();
    let shapes = [
        "thunderbird",
        "applemail",
        "attach",
        "forward",
        "refold76",
        "latin1",
        "inline",
        "outlook",
        "refold64",
    ];
    let plies = t.play(resign_from, 7, &shapes, |t, seat| {
        // The first player's own view reads in its copy.
        let board = ok(&["view", &t.copies[0].to_string_lossy(), "--as", t.seats[0]]);
        assert!(
            board.stdout.contains(&format!("view for {}", t.seats[0])),
            "{board:?}"
        );
        // Until the reveal no copy holds another seat's view.
        for (k, own) in t.seats.iter().enumerate() {
            for other in t.seats.iter().filter(|o| *o != own) {
                assert!(!t.copies[k].join(format!("views/{other}.json")).exists());
            }
        }
        // The seat's deadline is in its message.
        let mail = std::fs::read_to_string(t.outbox.join(format!("{seat}.eml"))).unwrap();
        assert!(mail.contains("Your move for ply"), "{mail}");
    });
    // The end: the setups were revealed and the whole game mailed to everyone.
    assert!(t.judge.join("reveal").is_dir());
    t.verify_every_copy();
    plies
}

#[test]
fn a_two_player_game_is_played_by_mail_from_invitation_to_verify_on_every_copy() {
    let t = Table::new(&["south", "north"], &["alice", "bob"], &[]);
    let plies = play_by_mail(&t, 15);
    assert_eq!(plies, 15);
    // After the reveal each copy holds every view (until then only its own: see play_by_mail).
    let public = std::fs::read_to_string(t.copies[1].join("views/public.json")).unwrap();
    assert!(public.contains("\"result\""));
    assert!(t.copies[1].join("views/south.json").exists());
    let last = std::fs::read_to_string(t.outbox.join("south.eml")).unwrap();
    assert!(
        last.contains("filename=\"game.tar.gz\""),
        "the game is mailed at the end"
    );
    assert!(last.contains("Subject: [qijudge lzq-") && last.contains("game over after"));
    // The last message's picture is the whole board (every rank shown), not the seat's own
    // view, which hid the opponent's ranks while they were secret.
    let pictures = t.tmp.path().join("last-picture");
    std::fs::create_dir_all(&pictures).unwrap();
    eml_py(&[
        "attachments",
        &t.outbox.join("south.eml").to_string_lossy(),
        &pictures.to_string_lossy(),
        "board.png",
    ]);
    assert_eq!(
        std::fs::read(pictures.join("board.png")).unwrap(),
        std::fs::read(t.judge.join("views/full.png")).unwrap(),
        "the final mail shows the whole board"
    );
}

#[test]
fn a_four_player_game_is_played_by_mail_from_invitation_to_verify_on_every_copy() {
    let t = Table::new(
        &["south", "east", "north", "west"],
        &["alice", "carol", "bob", "dave"],
        &["--board", "cross4"],
    );
    play_by_mail(&t, 9);
    for copy in &t.copies[..4] {
        for seat in &t.seats {
            assert!(copy.join(format!("views/{seat}.json")).exists());
        }
    }
}

#[test]
fn reminders_go_to_the_seat_to_move_once_per_deadline() {
    let t = Table::new(&["south", "north"], &["alice", "bob"], &[]);
    // Played up to south's first move by mail.
    t.invite();
    let rows = [SOUTH_ROWS, NORTH_ROWS];
    for (i, seat) in t.seats.iter().enumerate() {
        std::fs::create_dir_all(&t.copies[i]).unwrap();
        std::fs::copy(t.judge.join("game.toml"), t.copies[i].join("game.toml")).unwrap();
        setup_with(&t.copies[i], seat, &t.key(t.who[i]), rows[i]);
    }
    t.send_secrets();
    // The clock: 2880 minutes per move from NOW, 1440 of grace.
    let remind = |now: &str| {
        let d = t.judge.to_string_lossy().into_owned();
        let o = t.outbox.to_string_lossy().into_owned();
        ok(&[
            "remind",
            &d,
            "--now",
            now,
            "--from",
            "judge@example.org",
            "--outbox",
            &o,
        ])
    };
    let reminder = t.outbox.join("south.reminder.eml");
    let r = remind("2026-11-22T12:00:00Z");
    assert!(r.stdout.contains("no reminder yet"), "{r:?}");
    assert!(!reminder.exists());
    remind("2026-11-23T06:00:00Z");
    let text = std::fs::read_to_string(&reminder).unwrap();
    assert!(
        text.contains("To: \"alice\" <alice@example.org>")
            && text.contains("is due by 2026-11-23T12:00:00Z"),
        "{text}"
    );
    std::fs::remove_file(&reminder).unwrap();
    let r = remind("2026-11-23T07:00:00Z");
    assert!(r.stdout.contains("already reminded"), "{r:?}");
    assert!(!reminder.exists(), "once per deadline");
    remind("2026-11-23T18:00:00Z");
    let late = std::fs::read_to_string(&reminder).unwrap();
    assert!(late.contains("it is in-grace now"), "{late}");
    let r = remind("2026-11-25T00:00:00Z");
    assert!(r.stdout.contains("ran out"), "{r:?}");
    // A club's reminders from one command (one cron line): each game's in its own outbox
    // folder, and a game that cannot be read is named while the others go on.
    let club = t.tmp.path().join("club");
    copy_dir(&t.judge, &club.join("a"));
    let _ = std::fs::remove_dir_all(club.join("a/mail"));
    std::fs::create_dir_all(club.join("b")).unwrap();
    std::fs::write(club.join("b/game.toml"), "id = \"broken\"\n").unwrap();
    let out = t.tmp.path().join("club-out");
    let r = qj(&[
        "remind",
        "--games",
        &club.to_string_lossy(),
        "--now",
        "2026-11-23T06:00:00Z",
        "--from",
        "judge@example.org",
        "--outbox",
        &out.to_string_lossy(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let text = std::fs::read_to_string(out.join("a/south.reminder.eml")).unwrap();
    assert!(text.contains("is due by 2026-11-23T12:00:00Z"), "{text}");
    assert!(
        r.stderr.contains("1 of 2 games could not be reminded") && r.stderr.contains("club/b"),
        "{r:?}"
    );
}

#[test]
fn invitations_say_what_each_game_needs_before_the_first_move() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    for (game, setup) in [
        ("xiangqi", None),
        ("liubo", Some("drawn for you")),
        ("luzhanqi", Some("setup-template.toml")),
    ] {
        let dir = tmp.path().join(game);
        let d = dir.to_string_lossy().into_owned();
        ok(&[
            "new",
            game,
            &d,
            "--player",
            &format!("alice={}.pub=alice@example.org", keys.path("alice")),
            "--player",
            &format!("bob={}.pub", keys.path("bob")),
            "--judge",
            &format!("{}.pub", keys.path("judge")),
        ]);
        let out = tmp.path().join(format!("out-{game}"));
        let o = out.to_string_lossy().into_owned();
        let r = ok(&["invite", &d, "--from", "judge@example.org", "--outbox", &o]);
        // Only the seat with an address is invited.
        let sent: Vec<_> = std::fs::read_dir(&out).unwrap().collect();
        assert_eq!(sent.len(), 1, "{r:?}");
        let path = sent[0].as_ref().unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("filename=\"game.toml\""), "{text}");
        match setup {
            None => assert!(!text.contains("qijudge setup"), "{game}: {text}"),
            Some(says) => assert!(
                text.contains("qijudge setup") && text.contains(says),
                "{game}"
            ),
        }
        // Without an address anywhere there is no one to invite: said so.
        let none = tmp.path().join(format!("{game}-none"));
        new_game(game, &none, &keys, &[]);
        let r = qj(&[
            "invite",
            &none.to_string_lossy(),
            "--from",
            "judge@example.org",
            "--outbox",
            &o,
        ]);
        assert_eq!(r.code, 1, "{r:?}");
        assert!(
            r.stderr.contains("no player has an e-mail address"),
            "{}",
            r.stderr
        );
        // Nowhere to send without --outbox or --sendmail: said so, before anything is read.
        for command in ["invite", "remind"] {
            let r = qj(&[command, &d, "--from", "judge@example.org"]);
            assert_eq!(r.code, 2, "{r:?}");
            assert!(r.stderr.contains("--outbox or --sendmail"), "{}", r.stderr);
        }
        // Nothing to remind of in a game without a clock.
        ok(&["judge", &d, "--key", &keys.path("judge")]);
        let r = ok(&["remind", &d, "--from", "judge@example.org", "--outbox", &o]);
        assert!(r.stdout.contains("no reminder"), "{r:?}");
    }
}

#[test]
fn a_copy_takes_no_bundle_or_view_it_cannot_check() {
    let t = Table::new(&["south", "north"], &["alice", "bob"], &[]);
    play_by_mail(&t, 3);
    // The last message carries what is new; `resend` from the seat's address brings every
    // file again (what a copy that missed a message asks for).
    let listing = |eml: &Path| {
        let dir = tempfile::tempdir().unwrap();
        eml_py(&[
            "attachments",
            &eml.to_string_lossy(),
            &dir.path().to_string_lossy(),
            "game.tar.gz",
        ]);
        let out = std::process::Command::new("tar")
            .arg("-tzf")
            .arg(dir.path().join("game.tar.gz"))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let last = t.outbox.join("south.eml");
    assert!(
        !listing(&last).contains("moves/0001-"),
        "{}",
        listing(&last)
    );
    let ask = t.tmp.path().join("resend.eml");
    std::fs::write(
        &ask,
        "From: alice@example.org\r\nTo: judge@example.org\r\nSubject: resend\r\n\
         Message-ID: <resend@example.org>\r\n\r\nresend\r\n",
    )
    .unwrap();
    t.judge_takes(&ask);
    assert!(listing(&last).contains("moves/0001-"), "{}", listing(&last));
    let unpacked = t.tmp.path().join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    eml_py(&[
        "attachments",
        &last.to_string_lossy(),
        &unpacked.to_string_lossy(),
        "game.tar.gz",
    ]);
    let tar = unpacked.join("game.tar.gz");
    for (mode, says) in [
        ("move", "not signed by south's key"),
        ("reveal", "does not open the seat's signed commitment"),
        ("manifest", "holds another game"),
        ("traverse", "../escaped: not a file a game bundle holds"),
        ("symlink", "moves/link.toml: not a regular file"),
    ] {
        let bad = t.tmp.path().join(format!("{mode}.tar"));
        eml_py(&[
            "retar",
            &tar.to_string_lossy(),
            &bad.to_string_lossy(),
            mode,
        ]);
        let msg = t.mail("attach", 0, &bad, false);
        // A fresh copy: the manifest only.
        let copy = t.tmp.path().join(format!("copy-{mode}"));
        std::fs::create_dir_all(&copy).unwrap();
        std::fs::copy(t.judge.join("game.toml"), copy.join("game.toml")).unwrap();
        let before = snapshot(&copy);
        let r = qj(&["inbox", &copy.to_string_lossy(), &msg.to_string_lossy()]);
        assert_eq!(r.code, 1, "{mode}: {r:?}");
        assert!(r.stderr.contains(says), "{mode}: {}", r.stderr);
        assert_no_debug(mode, &r.stderr);
        assert_eq!(snapshot(&copy), before, "{mode}: nothing written");
        assert!(!t.tmp.path().join("escaped").exists());
    }
    // The untouched bundle, alone, makes a copy that verifies.
    let msg = t.mail("attach", 0, &tar, false);
    let copy = t.tmp.path().join("copy-good");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(t.judge.join("game.toml"), copy.join("game.toml")).unwrap();
    ok(&["inbox", &copy.to_string_lossy(), &msg.to_string_lossy()]);
    ok(&["verify", &copy.to_string_lossy()]);
    // A view signed by someone else than the judge is refused; one of another head is not taken.
    let view = copy.join("views/public.json");
    let text = std::fs::read_to_string(&view).unwrap();
    let forged = t.tmp.path().join("public.json");
    std::fs::write(&forged, &text).unwrap();
    let key = t.key("alice");
    let sig = qijudge::protocol::signing::sign(
        &qijudge::protocol::signing::parse_private_key(&std::fs::read_to_string(&key).unwrap())
            .unwrap(),
        "qijudge-view",
        text.as_bytes(),
    );
    std::fs::write(format!("{}.sig", forged.display()), sig).unwrap();
    let msg = t.mail("attach", 0, &forged, true);
    let fresh = t.tmp.path().join("copy-view");
    std::fs::create_dir_all(&fresh).unwrap();
    std::fs::copy(t.judge.join("game.toml"), fresh.join("game.toml")).unwrap();
    let r = qj(&["inbox", &fresh.to_string_lossy(), &msg.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("is not signed by this game's judge"),
        "{}",
        r.stderr
    );
    assert!(!fresh.join("views").exists());
}

#[test]
fn a_xiangqi_game_is_played_by_mail_and_every_copy_replays_it() {
    let t = Table::of("xiangqi", &["red", "black"], &["alice", "bob"], &[]);
    t.copies_from_invitations();
    // The judge's first run (from cron, an empty Maildir) opens the game and writes to everyone.
    let maildir = t.tmp.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let mut args = vec![
        "inbox".to_string(),
        t.judge.to_string_lossy().into_owned(),
        "--maildir".into(),
        maildir.to_string_lossy().into_owned(),
        "--key".into(),
        t.key("judge"),
        "--spectator".into(),
        SPECTATOR.into(),
    ];
    args.extend(t.outgoing());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(&refs);
    // Every copy replays the game from what the mail brought (Xiangqi's `status` and `moves`
    // replay the moves).
    let shapes = ["thunderbird", "applemail", "forward", "inline", "latin1"];
    assert_eq!(t.play(9, 5, &shapes, |_, _| {}), 9);
    t.verify_every_copy();
}

#[test]
fn a_liubo_game_is_played_by_mail_from_invitation_to_verify_on_every_copy() {
    let t = Table::of("liubo", &["a", "b"], &["alice", "bob"], &[]);
    t.copies_from_invitations();
    for (i, seat) in t.seats.iter().enumerate() {
        // Liubo's secret is drawn by `setup`: a chain seed, committed to by its chain's head.
        let copy = t.copies[i].to_string_lossy().into_owned();
        ok(&["setup", &copy, "--as", seat, "--key", &t.key(t.who[i])]);
    }
    t.send_secrets();
    // The mover's own chain gives its throw: its copy lists the turns it allows.
    let shapes = ["applemail", "attach", "thunderbird", "outlook"];
    assert_eq!(t.play(7, 3, &shapes, |_, _| {}), 7);
    t.verify_every_copy();
}

/// A game of shuffle nonces by mail: each copy draws its seat's nonce with `setup` and mails it
/// after the commitments; legality needs nothing hidden, so each copy lists its seat's moves
/// from the record; no copy ever holds the other seat's nonce; the judge's last mail carries
/// both, and every copy recomputes the layout.
fn a_nonce_game_is_played_by_mail(
    kind: &str,
    seats: &[&'static str],
    plies: u32,
    every: usize,
    shapes: &[&str],
) {
    let t = Table::of(kind, seats, &["alice", "bob"], &[]);
    t.copies_from_invitations();
    for (i, seat) in t.seats.iter().enumerate() {
        let copy = t.copies[i].to_string_lossy().into_owned();
        ok(&["setup", &copy, "--as", seat, "--key", &t.key(t.who[i])]);
    }
    t.send_secrets();
    let played = t.play(plies, every, shapes, |table, _| {
        for (i, copy) in table.copies[..2].iter().enumerate() {
            let other = copy.join(format!("setups/{}.toml", table.seats[1 - i]));
            assert!(!other.exists(), "{}", other.display());
        }
    });
    assert_eq!(played, plies);
    t.verify_every_copy();
    for copy in &t.copies {
        let r = ok(&["verify", &copy.to_string_lossy()]);
        assert!(
            r.stdout.contains("the layout they give matches all"),
            "{r:?}"
        );
    }
}

#[test]
fn a_jieqi_game_is_played_by_mail_from_invitation_to_verify_on_every_copy() {
    let shapes = ["thunderbird", "outlook", "applemail", "attach", "inline"];
    a_nonce_game_is_played_by_mail("jieqi", &["red", "black"], 11, 5, &shapes);
}

#[test]
fn a_banqi_game_is_played_by_mail_from_invitation_to_verify_on_every_copy() {
    let shapes = ["outlook", "attach", "thunderbird", "inline", "applemail"];
    a_nonce_game_is_played_by_mail("banqi", &["first", "second"], 12, 4, &shapes);
}

/// Every shipped sample is a finished game. The judge's mail run on it sends the last messages
/// with the game's bundle (the review found the Banqi sample's reveal failing the run before any
/// message was written, so nobody learned the result).
#[test]
fn every_finished_sample_sends_its_last_messages_by_mail() {
    let samples = shipped_samples();
    assert!(samples.len() >= 6, "{samples:?}");
    for sample in samples {
        let tmp = tempfile::tempdir().unwrap();
        let copy = tmp.path().join("game");
        copy_tree(&sample, &copy);
        let outbox = tmp.path().join("outbox");
        let r = spectated_run(&copy, &outbox);
        assert_eq!(r.code, 0, "{}: {r:?}", sample.display());
        let public = std::fs::read_to_string(outbox.join("public.eml"))
            .unwrap_or_else(|e| panic!("{}: public.eml: {e} {r:?}", sample.display()));
        assert!(
            public.contains("game.tar.gz"),
            "{}: {public}",
            sample.display()
        );
        ok(&["verify", &copy.to_string_lossy()]);
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        match e.file_type().unwrap().is_dir() {
            true => copy_tree(&e.path(), &target),
            false => {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }
}

/// No message over 80 kB, the first one to a new spectator of every shipped sample included: a
/// message that would be larger leaves its picture out, then carries what fits of the files,
/// and the judge's next runs send the rest; the spectator's copy, started from the first
/// message and taking each one in, holds the whole game and verifies.
#[test]
fn every_message_to_a_new_spectator_stays_under_80_kb_and_the_rest_follows() {
    let mut split = 0;
    for sample in shipped_samples() {
        let tmp = tempfile::tempdir().unwrap();
        let game = tmp.path().join("game");
        copy_tree(&sample, &game);
        let spectator = tmp.path().join("spectator-copy");
        let mut messages = 0;
        for run in 1..=4 {
            let outbox = tmp.path().join(format!("outbox-{run}"));
            let r = spectated_run(&game, &outbox);
            assert_eq!(r.code, 0, "{}: {r:?}", sample.display());
            let Ok(public) = std::fs::read(outbox.join("public.eml")) else {
                break;
            };
            messages += 1;
            assert!(
                public.len() <= 80_000,
                "{} run {run}: {} bytes",
                sample.display(),
                public.len()
            );
            let taken = qj(&[
                "inbox",
                &spectator.to_string_lossy(),
                &outbox.join("public.eml").to_string_lossy(),
            ]);
            assert_eq!(taken.code, 0, "{}: {taken:?}", sample.display());
        }
        assert!(
            messages < 4,
            "{}: the rest never stopped coming",
            sample.display()
        );
        split += usize::from(messages > 1);
        let v = ok(&["verify", &spectator.to_string_lossy()]);
        assert!(v.stdout.contains("verified"), "{}: {v:?}", sample.display());
    }
    assert!(split >= 1, "the cross board's sample goes in parts");
}

/// Every shipped sample that holds its judge's key (a game the tests can judge again).
fn shipped_samples() -> Vec<std::path::PathBuf> {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut samples: Vec<std::path::PathBuf> = std::fs::read_dir(&games)
        .unwrap()
        .flatten()
        .flat_map(|kind| {
            std::fs::read_dir(kind.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| p.join("game.toml").is_file() && p.join("keys/judge").is_file())
        .collect();
    samples.sort();
    samples
}

/// One mail run of the judge of `game` (its Maildir beside it, empty), with a spectator,
/// writing its messages into `outbox`.
fn spectated_run(game: &Path, outbox: &Path) -> Run {
    let maildir = game.with_file_name("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    qj(&[
        "inbox",
        &game.to_string_lossy(),
        "--maildir",
        &maildir.to_string_lossy(),
        "--key",
        &game.join("keys/judge").to_string_lossy(),
        "--outbox",
        &outbox.to_string_lossy(),
        "--from",
        "judge@example.org",
        "--spectator",
        "watcher@example.org",
        "--now",
        NOW,
    ])
}
