//! One address for a club's games: `inbox --games ROOT --maildir DIR` routes each message to the
//! game its signed files name, answers a message that names no game with a short help (once a
//! day per address), and leaves the other games alone.

use super::helpers::*;
use std::path::{Path, PathBuf};

struct Club {
    tmp: tempfile::TempDir,
}

impl Club {
    /// Two Xiangqi games under `club/`: alice (red) and bob in `a`, carol (red) and dave in `b`.
    fn new() -> Club {
        let tmp = tempfile::tempdir().unwrap();
        let keys = tmp.path().join("keys");
        std::fs::create_dir_all(&keys).unwrap();
        for name in ["alice", "bob", "carol", "dave", "judge"] {
            ok(&["keygen", &keys.join(name).to_string_lossy()]);
        }
        for (folder, red, black) in [("a", "alice", "bob"), ("b", "carol", "dave")] {
            let d = tmp.path().join("club").join(folder);
            new_mail_game("xiangqi", &d, &keys, red, black);
            ok(&[
                "judge",
                &d.to_string_lossy(),
                "--key",
                &keys.join("judge").to_string_lossy(),
                "--now",
                NOW,
            ]);
        }
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(tmp.path().join("Maildir").join(sub)).unwrap();
        }
        Club { tmp }
    }

    fn game(&self, folder: &str) -> PathBuf {
        self.tmp.path().join("club").join(folder)
    }

    fn key(&self, who: &str) -> String {
        self.tmp
            .path()
            .join("keys")
            .join(who)
            .to_string_lossy()
            .into_owned()
    }

    /// A player's move, made in a copy of its game and mailed as an attachment into the Maildir.
    fn mail_move(&self, folder: &str, seat: &str, who: &str, mv: &str, n: u32) {
        let copy = self.tmp.path().join(format!("{who}-copy-{n}"));
        copy_dir(&self.game(folder), &copy);
        let r = ok(&[
            "move",
            &copy.to_string_lossy(),
            "--as",
            seat,
            "--key",
            &self.key(who),
            mv,
        ]);
        let rel = r.stdout.split_whitespace().nth(1).unwrap().to_string();
        let file = copy.join(&rel);
        let eml = self
            .tmp
            .path()
            .join("Maildir/new")
            .join(format!("{n}.{who}.eml"));
        eml_py(&[
            "make",
            "attach",
            &eml.to_string_lossy(),
            &format!("{who}@example.org"),
            &file.to_string_lossy(),
            &format!("{}.sig", file.display()),
        ]);
    }

    /// A plain message into the Maildir.
    fn mail_text(&self, n: u32, from: &str, headers: &str, body: &str) {
        let eml = self
            .tmp
            .path()
            .join("Maildir/new")
            .join(format!("{n}.text.eml"));
        std::fs::write(
            eml,
            format!(
                "From: {from}\r\nTo: judge@example.org\r\n{headers}\r\nMessage-ID: <m{n}@example.org>\r\n\r\n{body}\r\n"
            ),
        )
        .unwrap();
    }

    /// One run of the club's judge over the Maildir.
    fn judge_runs(&self) -> Run {
        self.judge_runs_at(NOW)
    }

    fn outbox(&self, rel: &str) -> PathBuf {
        self.tmp.path().join("outbox").join(rel)
    }
}

/// The outbox name of a judge's answer to an address: `KIND-` and the first 16 hex digits of
/// the SHA-256 of the address (never the address itself).
fn to_address(kind: &str, address: &str) -> String {
    use sha2::Digest;
    let digest = hex::encode(sha2::Sha256::digest(address.as_bytes()));
    format!("{kind}-{}.eml", &digest[..16])
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn one_address_serves_two_games_and_helps_a_message_for_none() {
    let club = Club::new();
    club.mail_move("a", "red", "alice", "h2e2", 1);
    club.mail_move("b", "red", "carol", "b2e2", 2);
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    // Each move went into its own game, was judged there, and its players got their views.
    assert!(club.game("a").join("moves/0001-red.toml").exists(), "{r:?}");
    assert!(club.game("b").join("moves/0001-red.toml").exists(), "{r:?}");
    for folder in ["a", "b"] {
        let status = ok(&["status", &club.game(folder).to_string_lossy()]);
        assert!(
            status.stdout.contains("black to move (ply 2)"),
            "{folder}: {status:?}"
        );
        assert!(
            club.outbox(&format!("{folder}/black.eml")).exists(),
            "{folder}"
        );
        ok(&["verify", &club.game(folder).to_string_lossy()]);
    }
    let a_head = std::fs::read(club.game("a").join("record.jsonl")).unwrap();
    // Every message was handled once: nothing left in new/.
    let left = std::fs::read_dir(club.tmp.path().join("Maildir/new"))
        .unwrap()
        .count();
    assert_eq!(left, 0);

    // A message that names no game: one short help, listing the sender's own games only.
    club.mail_text(3, "alice@example.org", "Subject: hello", "How do I play?");
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    let help =
        std::fs::read_to_string(club.outbox(&to_address("help", "alice@example.org"))).unwrap();
    let a_id = game_id(&club.game("a"));
    let b_id = game_id(&club.game("b"));
    assert!(help.contains(&a_id), "{help}");
    assert!(
        !help.contains(&b_id),
        "another address's game is not listed: {help}"
    );
    assert!(help.contains("In-Reply-To: <m3@example.org>"), "{help}");
    assert!(help.contains("Auto-Submitted: auto-replied"), "{help}");
    // The same address again that day: not answered again (no mail loop with a responder).
    std::fs::remove_file(club.outbox(&to_address("help", "alice@example.org"))).unwrap();
    club.mail_text(
        4,
        "alice@example.org",
        "Subject: hello again",
        "Still lost.",
    );
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("helped today already"), "{r:?}");
    assert!(!club
        .outbox(&to_address("help", "alice@example.org"))
        .exists());
    // A program's message is never answered.
    club.mail_text(
        5,
        "robot@example.org",
        "Subject: away\r\nAuto-Submitted: auto-replied",
        "Out of office.",
    );
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        !club
            .outbox(&to_address("help", "robot@example.org"))
            .exists(),
        "{r:?}"
    );

    // A reply to the judge's message names its game by the Message-ID it answers: it goes to
    // game a (where, holding no file, it is refused and nothing changes); game b is untouched.
    let b_record = std::fs::read(club.game("b").join("record.jsonl")).unwrap();
    let reply_to = std::fs::read_to_string(club.outbox("a/red.eml"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Message-ID: ").map(str::to_string))
        .unwrap();
    club.mail_text(
        6,
        "alice@example.org",
        &format!("Subject: Re: your game\r\nIn-Reply-To: {reply_to}"),
        "Thanks!",
    );
    let r = club.judge_runs();
    assert!(r.stdout.contains(&format!("for game {a_id}")), "{r:?}");
    assert_eq!(
        std::fs::read(club.game("a").join("record.jsonl")).unwrap(),
        a_head
    );
    assert_eq!(
        std::fs::read(club.game("b").join("record.jsonl")).unwrap(),
        b_record
    );
}

#[test]
fn the_club_judge_needs_its_key_and_a_folder_of_games() {
    let club = Club::new();
    let root = club.tmp.path().join("club");
    let r = qj(&["inbox", "--games", &root.to_string_lossy(), "x.eml"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--key"), "{r:?}");
    // Two folders holding one game (a copy left beside it) are refused by name.
    copy_dir(&club.game("a"), &root.join("a-backup"));
    club.mail_text(1, "alice@example.org", "Subject: hi", "hi");
    let r = club.judge_runs();
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("hold the same game"), "{r:?}");
}

fn game_id(dir: &Path) -> String {
    let t: toml::Table =
        toml::from_str(&std::fs::read_to_string(dir.join("game.toml")).unwrap()).unwrap();
    t["id"].as_str().unwrap().to_string()
}

#[test]
fn players_ask_the_club_judge_by_mail_commands() {
    let club = Club::new();
    club.mail_move("a", "red", "alice", "h2e2", 1);
    assert_eq!(club.judge_runs().code, 0);
    let a_id = game_id(&club.game("a"));
    let reply = |who: &str| {
        std::fs::read_to_string(club.outbox(&to_address("reply", &format!("{who}@example.org"))))
            .unwrap()
    };
    // list: the sender's games and where each stands; another address's game is not named.
    club.mail_text(2, "alice@example.org", "Subject: list", "");
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    let text = reply("alice");
    assert!(
        text.contains(&a_id) && text.contains("[you: red]") && text.contains("black (bob)"),
        "{text}"
    );
    assert!(!text.contains(&game_id(&club.game("b"))), "{text}");
    // status, in the first line of the body, of the sender's only game.
    club.mail_text(
        3,
        "dave@example.org",
        "Subject: a question",
        "status\r\n\r\nthanks",
    );
    assert_eq!(club.judge_runs().code, 0);
    let text = reply("dave");
    assert!(
        text.contains(&game_id(&club.game("b"))) && text.contains("red to move (ply 1)"),
        "{text}"
    );
    // resend: the judge's last message to the sender's seat comes again, and only that one.
    let red = club.outbox("a/red.eml");
    let black = club.outbox("a/black.eml");
    let message_id = |path: &Path| {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .find(|l| l.starts_with("Message-ID: "))
            .map(str::to_string)
    };
    let before = message_id(&red);
    std::fs::remove_file(&red).unwrap();
    std::fs::remove_file(&black).unwrap();
    club.mail_text(4, "alice@example.org", "Subject: resend", "");
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(red.exists(), "{r:?}");
    assert_eq!(message_id(&red), before, "the same message: {r:?}");
    assert!(
        !black.exists(),
        "only the sender's seat gets it again: {r:?}"
    );
    // A stranger's command gets the help (once a day), never a game's state.
    club.mail_text(5, "eve@example.org", "Subject: list", "");
    assert_eq!(club.judge_runs().code, 0);
    let help =
        std::fs::read_to_string(club.outbox(&to_address("help", "eve@example.org"))).unwrap();
    assert!(help.contains("plays no game here"), "{help}");
    assert!(!help.contains(&a_id), "{help}");
    assert!(
        help.contains("Subject: [qijudge] your message found no game"),
        "{help}"
    );
    // A player's explicit `help` is answered under its own title, not as a message that found
    // no game.
    club.mail_text(6, "dave@example.org", "Subject: help", "");
    assert_eq!(club.judge_runs().code, 0);
    let help =
        std::fs::read_to_string(club.outbox(&to_address("help", "dave@example.org"))).unwrap();
    assert!(help.contains("Subject: [qijudge] help"), "{help}");
    assert!(!help.contains("found no game"), "{help}");
    assert!(help.contains("Mail commands, one per message"), "{help}");
}

#[test]
fn copies_start_from_mail_take_only_their_game_and_replace_a_refused_move() {
    let club = Club::new();
    club.mail_move("a", "red", "alice", "h2e2", 1);
    club.mail_move("b", "red", "carol", "b2e2", 2);
    assert_eq!(club.judge_runs().code, 0);
    let t = club.tmp.path();
    // bob starts his copy from the judge's message alone (no game.toml by hand).
    let copy = t.join("bob-copy");
    let black = club.outbox("a/black.eml");
    let r = ok(&["inbox", &copy.to_string_lossy(), &black.to_string_lossy()]);
    assert!(
        r.stdout.contains("started a copy") && r.stdout.contains("SHA256:"),
        "{r:?}"
    );
    let status = ok(&["status", &copy.to_string_lossy()]);
    assert!(
        status.stdout.contains("black to move (ply 2)"),
        "{status:?}"
    );
    // The copy's name mistyped: no second copy is started beside it without a word; the
    // refusal names the copy that holds the game.
    let typo = t.join("bob-cpy");
    let r = qj(&["inbox", &typo.to_string_lossy(), &black.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("bob-copy beside it already holds this game"),
        "{r:?}"
    );
    assert!(r.stderr.contains("qijudge inbox"), "{r:?}");
    assert!(!typo.exists(), "nothing was started: {r:?}");
    // A folder mutt saved as a Maildir is read as its messages.
    let saved = t.join("saved");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(saved.join(sub)).unwrap();
    }
    std::fs::copy(&black, saved.join("cur/1.eml:2,S")).unwrap();
    let second = t.join("elsewhere").join("bob-copy-2");
    ok(&["inbox", &second.to_string_lossy(), &saved.to_string_lossy()]);
    ok(&["status", &second.to_string_lossy()]);
    // A signed move of another game (carol's, game b) is not taken into bob's copy of game a.
    let stray = t.join("stray.eml");
    let carol_copy = t.join("carol-copy-2");
    eml_py(&[
        "make",
        "attach",
        &stray.to_string_lossy(),
        "carol@example.org",
        &carol_copy.join("moves/0001-red.toml").to_string_lossy(),
        &carol_copy.join("moves/0001-red.toml.sig").to_string_lossy(),
    ]);
    let r = qj(&["inbox", &copy.to_string_lossy(), &stray.to_string_lossy()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("belongs to another game"), "{r:?}");
    assert!(
        !copy.join("moves/0001-red.toml").exists() || {
            // The copy's own red move of game a came with the judge's bundle.
            let text = std::fs::read_to_string(copy.join("moves/0001-red.toml")).unwrap();
            text.contains(&game_id(&club.game("a")))
        }
    );
    // bob's move is refused by the judge (written unchecked); the corrected one replaces it in
    // his copy with --replace, and the judge takes it.
    let key = club.key("bob");
    let c = copy.to_string_lossy();
    ok(&[
        "move",
        &c,
        "--as",
        "black",
        "--key",
        &key,
        "--no-check",
        "h9h1",
    ]);
    let bad = copy.join("moves/0002-black.toml");
    let eml = t.join("Maildir/new/3.bob.eml");
    eml_py(&[
        "make",
        "attach",
        &eml.to_string_lossy(),
        "bob@example.org",
        &bad.to_string_lossy(),
        &format!("{}.sig", bad.display()),
    ]);
    let r = club.judge_runs();
    assert_eq!(r.code, 1, "{r:?}");
    let again = qj(&["move", &c, "--as", "black", "--key", &key, "h9g7"]);
    assert_eq!(again.code, 1, "{again:?}");
    assert!(
        again.stderr.contains("you already moved for ply 2"),
        "{again:?}"
    );
    assert!(again.stderr.contains("--replace"), "{again:?}");
    ok(&[
        "move",
        &c,
        "--as",
        "black",
        "--key",
        &key,
        "--replace",
        "h9g7",
    ]);
    let kept = std::fs::read_dir(copy.join("refused/moves"))
        .unwrap()
        .count();
    assert_eq!(kept, 2, "the refused file and its .sig are kept aside");
    let eml = t.join("Maildir/new/4.bob.eml");
    eml_py(&[
        "make",
        "attach",
        &eml.to_string_lossy(),
        "bob@example.org",
        &bad.to_string_lossy(),
        &format!("{}.sig", bad.display()),
    ]);
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    let status = ok(&["status", &club.game("a").to_string_lossy()]);
    assert!(status.stdout.contains("red to move (ply 3)"), "{status:?}");
}

#[test]
fn a_move_after_the_end_is_set_aside_and_never_joins_the_game() {
    let club = Club::new();
    club.mail_move("a", "red", "alice", "h2e2", 1);
    assert_eq!(club.judge_runs().code, 0);
    club.mail_move("a", "black", "bob", "resign", 2);
    assert_eq!(club.judge_runs().code, 0);
    let a = club.game("a");
    assert!(ok(&["status", &a.to_string_lossy()])
        .stdout
        .contains("game over"));
    // alice's copy was made before the end: her move for ply 3 is signed and bound to the game.
    let copy = club.tmp.path().join("alice-copy-late");
    copy_dir(&a, &copy);
    std::fs::remove_dir_all(copy.join("moves")).unwrap();
    std::fs::create_dir_all(copy.join("moves")).unwrap();
    for f in std::fs::read_dir(a.join("moves")).unwrap() {
        let f = f.unwrap();
        let name = f.file_name().to_string_lossy().into_owned();
        if name.starts_with("0001-") {
            std::fs::copy(f.path(), copy.join("moves").join(&name)).unwrap();
        }
    }
    let mv = qijudge::player::NewMove::plain(3, "sha256:00", "h0g2");
    let key = qijudge::protocol::signing::parse_private_key(
        &std::fs::read_to_string(club.key("alice")).unwrap(),
    )
    .unwrap();
    let g = qijudge::store::GameDir::new(&copy);
    let facts = qijudge::games::of_dir(&copy).unwrap().facts(&g).unwrap();
    let rel = qijudge::player::write_move(&g, &game_id(&a), &facts.hash, "red", &key, mv).unwrap();
    let file = copy.join(&rel);
    let eml = club.tmp.path().join("Maildir/new/3.alice.eml");
    eml_py(&[
        "make",
        "attach",
        &eml.to_string_lossy(),
        "alice@example.org",
        &file.to_string_lossy(),
        &format!("{}.sig", file.display()),
    ]);
    let record = std::fs::read(a.join("record.jsonl")).unwrap();
    let r = club.judge_runs();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!a.join(&rel).exists(), "{r:?}");
    assert!(a.join("refused/moves").is_dir(), "{r:?}");
    assert_eq!(std::fs::read(a.join("record.jsonl")).unwrap(), record);
    ok(&["verify", &a.to_string_lossy()]);
    // Another run: nothing new, nothing refused again.
    let again = club.judge_runs();
    assert_eq!(again.code, 0, "{again:?}");
}

#[test]
fn a_secret_mailed_with_the_opponent_in_cc_is_taken_and_its_sender_warned() {
    let club = Club::new();
    let t = club.tmp.path();
    let keys = t.join("keys");
    let d = t.join("club").join("c");
    new_mail_game("jieqi", &d, &keys, "alice", "bob");
    for (n, (who, seat)) in (10..).zip([("alice", "red"), ("bob", "black")]) {
        let copy = t.join(format!("{who}-jq"));
        copy_dir(&d, &copy);
        ok(&[
            "setup",
            &copy.to_string_lossy(),
            "--as",
            seat,
            "--key",
            &club.key(who),
        ]);
        let file = copy.join(format!("commitments/{seat}.toml"));
        let eml = t.join(format!("Maildir/new/{n}.{who}.eml"));
        eml_py(&[
            "make",
            "attach",
            &eml.to_string_lossy(),
            &format!("{who}@example.org"),
            &file.to_string_lossy(),
            &format!("{}.sig", file.display()),
        ]);
    }
    assert_eq!(club.judge_runs().code, 0);
    // alice's nonce, pasted into a message that also goes to bob.
    let nonce = std::fs::read_to_string(t.join("alice-jq/setups/red.toml")).unwrap();
    club.mail_text(
        20,
        "alice@example.org",
        "Subject: my nonce\r\nCc: Bob <bob@example.org>",
        &nonce.replace('\n', "\r\n"),
    );
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(d.join("setups/red.toml").exists(), "{r:?}");
    let warning = std::fs::read_to_string(club.outbox("c/red.warning.eml")).unwrap();
    assert!(warning.contains("alice@example.org"), "{warning}");
    assert!(
        !warning.contains("bob@example.org"),
        "to the owner only: {warning}"
    );
    assert!(warning.contains("black"), "{warning}");
}

#[test]
fn a_message_naming_two_games_and_a_copy_without_a_bundle_are_answered() {
    let club = Club::new();
    let (a, b) = (game_id(&club.game("a")), game_id(&club.game("b")));
    club.mail_text(
        1,
        "alice@example.org",
        &format!("Subject: {a} and {b}"),
        "which?",
    );
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    let help =
        std::fs::read_to_string(club.outbox(&to_address("help", "alice@example.org"))).unwrap();
    assert!(help.contains("more than one game"), "{help}");
    // A new copy needs a judge's message with the game in it: a plain one is said not to do.
    let plain = club.tmp.path().join("plain.eml");
    std::fs::write(
        &plain,
        "From: a@example.org\r\nSubject: hi\r\n\r\nhello\r\n",
    )
    .unwrap();
    let copy = club.tmp.path().join("new-copy");
    let r = qj(&["inbox", &copy.to_string_lossy(), &plain.to_string_lossy()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("no judge's message given holds the game"),
        "{r:?}"
    );
    assert!(!copy.join("game.toml").exists());
}

#[test]
fn a_player_takes_a_vacation_by_mail_within_the_allowance() {
    let club = Club::new();
    // A third game, alice against bob, with 60 minutes a move and 3 days of vacation a seat.
    let c = club.game("c");
    new_mail_game_with(
        "xiangqi",
        &c,
        &club.tmp.path().join("keys"),
        "alice",
        "bob",
        &["--clock", "60:30:forfeit:3"],
    );
    ok(&[
        "judge",
        &c.to_string_lossy(),
        "--key",
        &club.key("judge"),
        "--now",
        NOW,
    ]);
    let c_id = game_id(&c);
    let reply =
        || std::fs::read_to_string(club.outbox(&to_address("reply", "alice@example.org"))).unwrap();
    // alice plays two games here: a vacation must name one.
    club.mail_text(1, "alice@example.org", "Subject: vacation 2", "");
    assert_eq!(club.judge_runs().code, 0);
    assert!(reply().contains("Which game?"), "{}", reply());
    // A game without a clock allows none.
    let a_id = game_id(&club.game("a"));
    club.mail_text(
        2,
        "alice@example.org",
        &format!("Subject: vacation {a_id} 2"),
        "",
    );
    assert_eq!(club.judge_runs().code, 0);
    assert!(reply().contains("allows no vacation"), "{}", reply());
    // Two days in game c, by its short id: recorded, and red's move is due two days later.
    let short = &c_id[..11];
    club.mail_text(
        3,
        "alice@example.org",
        "Subject: Re: your move",
        &format!("vacation {short} 2"),
    );
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    let text = reply();
    assert!(text.contains("2 day(s) of vacation"), "{text}");
    let record = std::fs::read_to_string(c.join("record.jsonl")).unwrap();
    assert!(
        record.contains(r#""kind":"vacation","seat":"red","days":2"#),
        "{record}"
    );
    let s: serde_json::Value =
        serde_json::from_str(&ok(&["status", &c.to_string_lossy(), "--json", "--now", NOW]).stdout)
            .unwrap();
    let due = s["deadline"]["due"].as_str().unwrap();
    let expected = chrono::DateTime::parse_from_rfc3339(NOW).unwrap()
        + chrono::Duration::days(2)
        + chrono::Duration::minutes(60);
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(due).unwrap(),
        expected,
        "{s}"
    );
    // Two more would pass the allowance: refused with what is left.
    club.mail_text(
        4,
        "alice@example.org",
        &format!("Subject: vacation {c_id} 2"),
        "",
    );
    assert_eq!(club.judge_runs().code, 0);
    assert!(reply().contains("1 left, 2 asked"), "{}", reply());
    ok(&["verify", &c.to_string_lossy()]);
}

/// The review's findings: the judge mailed on demand (a help per plus-address, a notice per
/// replayed or forged message). Now a mailbox gets one help a day however it is spelled, all
/// strangers together a few; a seat gets one notice per reason a day and a few in all.
#[test]
fn the_judge_mails_nobody_on_demand() {
    let club = Club::new();
    let mut n = 0;
    for i in 0..30 {
        n += 1;
        club.mail_text(
            n,
            &format!("victim+{i}@example.org"),
            "Subject: hi",
            "hello",
        );
    }
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    let helps = |club: &Club| {
        std::fs::read_dir(club.tmp.path().join("outbox"))
            .map(|d| {
                d.flatten()
                    .filter(|e| e.file_name().to_string_lossy().starts_with("help-"))
                    .count()
            })
            .unwrap_or(0)
    };
    assert_eq!(helps(&club), 1, "one help to the one mailbox: {r:?}");
    // Strangers by the dozen: a few helps a day in all.
    for i in 0..40 {
        n += 1;
        club.mail_text(
            n,
            &format!("stranger{i}@example.org"),
            "Subject: hi",
            "hello",
        );
    }
    let r = club.judge_runs();
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(helps(&club), 20, "{r:?}");
    assert!(
        r.stdout.contains("help answers sent today already"),
        "{r:?}"
    );

    // Forged messages "from" alice to game a, alternating a chat and an HTML-only message:
    // one notice per reason.
    let reply_to = std::fs::read_to_string(club.outbox("a/red.eml"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Message-ID: ").map(str::to_string))
        .unwrap();
    let notices = |club: &Club| {
        std::fs::read_dir(club.tmp.path().join("outbox/a"))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains("refused"))
            .count()
    };
    let mut sent = 0;
    for i in 0..20 {
        n += 1;
        let headers = match i % 2 {
            0 => format!("Subject: Re: your move\r\nIn-Reply-To: {reply_to}"),
            _ => format!(
                "Subject: Re: your move\r\nIn-Reply-To: {reply_to}\r\nContent-Type: text/html"
            ),
        };
        club.mail_text(n, "alice@example.org", &headers, "<p>nice</p>");
        std::fs::remove_dir_all(club.tmp.path().join("outbox/a")).ok();
        club.judge_runs();
        sent += std::fs::read_dir(club.tmp.path().join("outbox/a"))
            .map(|_| notices(&club))
            .unwrap_or(0);
    }
    assert!(sent <= 2, "{sent} notices for two reasons");
    assert!(sent >= 1, "the player is told once");
}

impl Club {
    /// One run of the club's judge over the Maildir at `now`.
    /// A run of the club's judge with a spectator, who gets every game's public message (named
    /// in a spectators file, read at every run).
    fn judge_runs_watched(&self) -> Run {
        let file = self.tmp.path().join("spectators.txt");
        std::fs::write(
            &file,
            "# who watches the club\n\nwatch@example.org  # since 2026\n",
        )
        .unwrap();
        self.judge_runs_with(NOW, &["--spectators", &file.to_string_lossy()])
    }

    fn judge_runs_at(&self, now: &str) -> Run {
        self.judge_runs_with(now, &[])
    }

    fn judge_runs_with(&self, now: &str, extra: &[&str]) -> Run {
        let mut args = vec![
            "inbox".to_string(),
            "--games".into(),
            self.tmp.path().join("club").to_string_lossy().into_owned(),
            "--maildir".into(),
            self.tmp
                .path()
                .join("Maildir")
                .to_string_lossy()
                .into_owned(),
            "--key".into(),
            self.key("judge"),
            "--outbox".into(),
            self.tmp
                .path()
                .join("outbox")
                .to_string_lossy()
                .into_owned(),
            "--from".into(),
            "judge@example.org".into(),
            "--now".into(),
            now.into(),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        qj(&args.iter().map(String::as_str).collect::<Vec<_>>())
    }
}
/// The parts of a digest that are whole messages (`message/rfc822`).
fn attached_messages(digest: &str) -> usize {
    digest.matches("Content-Type: message/rfc822").count()
}

/// A player of three games at one address reads them in a daily digest: asked in game.toml for
/// one game and by the mail command for all; one mail a day from 07:00 UTC listing every game
/// (turns first) with each changed game's message attached, which each copy takes in; the end
/// of a game still goes at once; `digest off` brings a mail per move back.
#[test]
fn a_player_of_three_games_reads_them_in_one_digest_a_day() {
    let club = Club::new();
    let keys = club.tmp.path().join("keys");
    let judge_pub = format!("{}.pub", keys.join("judge").display());
    let spec = |w: &str| format!("{w}={}.pub={w}@example.org", keys.join(w).display());
    // c: dave (red) and alice, who asks for the digest in game.toml; d: alice (red) and carol.
    for (folder, red, black) in [
        ("c", spec("dave"), format!("{}=digest", spec("alice"))),
        ("d", spec("alice"), spec("carol")),
    ] {
        let d = club.game(folder).to_string_lossy().into_owned();
        ok(&[
            "new", "xiangqi", &d, "--player", &red, "--player", &black, "--judge", &judge_pub,
            "--now", NOW,
        ]);
        ok(&["judge", &d, "--key", &club.key("judge"), "--now", NOW]);
    }
    let manifest = std::fs::read_to_string(club.game("c").join("game.toml")).unwrap();
    assert!(manifest.contains("digest = true"), "{manifest}");
    let alice_c = club.tmp.path().join("alice-c");
    copy_dir(&club.game("c"), &alice_c);
    let digest = club.outbox(&to_address("digest", "alice@example.org"));
    let day1 = |t: &str| format!("2026-11-21T{t}:00Z");
    let day2 = |t: &str| format!("2026-11-22T{t}:00Z");

    // First run: game c's message to alice waits for the digest, which goes at once (none
    // went today, and it is after 07:00); games a and d mail alice as before.
    let r = club.judge_runs_at(&day1("12:00"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!club.outbox("c/black.eml").exists(), "{r:?}");
    assert!(club.outbox("c/red.eml").exists() && club.outbox("a/red.eml").exists());
    let text = std::fs::read_to_string(&digest).unwrap();
    assert_eq!(attached_messages(&text), 1, "{text}");
    assert!(text.contains(&game_id(&club.game("c"))), "{text}");
    std::fs::remove_file(&digest).unwrap();

    // Alice asks for the digest of all her games; dave moves in c, alice in a.
    club.mail_text(1, "alice@example.org", "Subject: digest on", "");
    club.mail_move("c", "red", "dave", "h2e2", 2);
    club.mail_move("a", "red", "alice", "h2e2", 3);
    std::fs::remove_file(club.outbox("a/red.eml")).unwrap();
    let r = club.judge_runs_at(&day1("13:00"));
    assert_eq!(r.code, 0, "{r:?}");
    let answer =
        std::fs::read_to_string(club.outbox(&to_address("reply", "alice@example.org"))).unwrap();
    assert!(
        answer.contains("Daily digest on for all your games"),
        "{answer}"
    );
    assert!(r.stdout.contains("kept for the daily digest"), "{r:?}");
    // Held, and no second digest the same day; bob and dave are mailed as before.
    assert!(!club.outbox("a/red.eml").exists() && !club.outbox("c/black.eml").exists());
    assert!(!digest.exists(), "{r:?}");
    assert!(club.outbox("a/black.eml").exists() && club.outbox("c/red.eml").exists());
    // The next morning before 07:00: still nothing; from 07:00, one digest with both games.
    assert_eq!(club.judge_runs_at(&day2("06:30")).code, 0);
    assert!(!digest.exists());
    let r = club.judge_runs_at(&day2("07:30"));
    assert_eq!(r.code, 0, "{r:?}");
    let text = std::fs::read_to_string(&digest).unwrap();
    assert_eq!(attached_messages(&text), 2, "{text}");
    assert!(text.contains("2 wait for your move"), "{text}");
    assert!(text.contains("YOUR TURN"), "{text}");
    let (a, c, d) = (
        game_id(&club.game("a")),
        game_id(&club.game("c")),
        game_id(&club.game("d")),
    );
    // Every game of hers is listed, her turns (c, d) before a.
    let at = |id: &str| text.find(id).unwrap();
    assert!(at(&c) < at(&a) && at(&d) < at(&a), "{text}");
    assert!(!club.outbox("a/red.eml").exists() && !club.outbox("c/black.eml").exists());
    // Her copy of game c takes its own game from the digest (not a's).
    let r = ok(&[
        "inbox",
        &alice_c.to_string_lossy(),
        &digest.to_string_lossy(),
    ]);
    assert!(r.stdout.contains("record.jsonl"), "{r:?}");
    let status = ok(&["status", &alice_c.to_string_lossy()]);
    assert!(
        status.stdout.contains("black to move (ply 2)"),
        "{status:?}"
    );
    std::fs::remove_file(&digest).unwrap();
    // A message asked for again comes at once, digest or not.
    club.mail_text(8, "alice@example.org", &format!("Subject: resend {c}"), "");
    let r = club.judge_runs_at(&day2("07:35"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(club.outbox("c/black.eml").exists(), "{r:?}");
    assert!(!digest.exists(), "{r:?}");
    std::fs::remove_file(club.outbox("c/black.eml")).unwrap();
    // Nothing new: a later run sends nothing again.
    assert_eq!(club.judge_runs_at(&day2("07:40")).code, 0);
    assert!(!digest.exists() && !club.outbox("a/red.eml").exists());

    // The end of a game goes at once, digest or not.
    club.mail_move("a", "black", "bob", "resign", 4);
    let r = club.judge_runs_at(&day2("08:00"));
    assert_eq!(r.code, 0, "{r:?}");
    let red = std::fs::read_to_string(club.outbox("a/red.eml")).unwrap();
    assert!(red.contains("game over"), "{red}");
    // `digest off`: a mail per move again (alice's own move in c answered at once).
    club.mail_text(5, "alice@example.org", "Subject: digest off", "");
    club.mail_move("c", "black", "alice", "h9g7", 6);
    let r = club.judge_runs_at(&day2("08:10"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(club.outbox("c/black.eml").exists(), "{r:?}");
    assert!(!digest.exists(), "{r:?}");
}

/// A spectator who missed a message asks for it again by mail (`resend GAME`) and gets the
/// game's public message again, whole; it may ask where a game stands, and a vacation is a
/// player's.
#[test]
fn a_spectator_asks_for_a_missed_message_again() {
    let club = Club::new();
    club.mail_move("a", "red", "alice", "h2e2", 1);
    let r = club.judge_runs_watched();
    assert_eq!(r.code, 0, "{r:?}");
    let public = club.outbox("a/public.eml");
    let first = std::fs::read_to_string(&public).unwrap();
    let message_id = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("Message-ID: "))
            .map(str::to_string)
    };
    // Missed: gone before it was read. Nothing new: the next run sends nothing.
    std::fs::remove_file(&public).unwrap();
    assert_eq!(club.judge_runs_watched().code, 0);
    assert!(!public.exists());
    let a_id = game_id(&club.game("a"));
    club.mail_text(
        2,
        "watch@example.org",
        &format!("Subject: resend {a_id}"),
        "",
    );
    let r = club.judge_runs_watched();
    assert_eq!(r.code, 0, "{r:?}");
    let again = std::fs::read_to_string(&public).unwrap_or_else(|_| panic!("{r:?}"));
    assert_eq!(message_id(&again), message_id(&first), "the same message");
    assert_eq!(again.len(), first.len(), "whole, as first sent");
    assert!(
        !club.outbox("b/public.eml").exists() || club.outbox("b/public.eml") != public,
        "only the game asked for"
    );
    let reply = |who: &str| {
        std::fs::read_to_string(club.outbox(&to_address("reply", &format!("{who}@example.org"))))
            .unwrap()
    };
    club.mail_text(
        3,
        "watch@example.org",
        &format!("Subject: status {a_id}"),
        "",
    );
    assert_eq!(club.judge_runs_watched().code, 0);
    let text = reply("watch");
    assert!(
        text.contains(&a_id) && text.contains("black to move"),
        "{text}"
    );
    club.mail_text(
        4,
        "watch@example.org",
        &format!("Subject: vacation {a_id} 3"),
        "",
    );
    assert_eq!(club.judge_runs_watched().code, 0);
    let text = reply("watch");
    assert!(
        text.contains("plays none") && text.contains("player's"),
        "{text}"
    );
    // A spectators file with a line that is no address is refused by its line.
    let bad = club.tmp.path().join("bad.txt");
    std::fs::write(&bad, "watch@example.org\nnot an address\n").unwrap();
    let r = qj(&[
        "inbox",
        "--games",
        &club.tmp.path().join("club").to_string_lossy(),
        "--maildir",
        &club.tmp.path().join("Maildir").to_string_lossy(),
        "--key",
        &club.key("judge"),
        "--from",
        "judge@example.org",
        "--spectators",
        &bad.to_string_lossy(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("line 2: \"not an address\" is not an e-mail address"),
        "{r:?}"
    );
    // Without being a spectator here, the same address plays no game.
    club.mail_text(5, "watch@example.org", "Subject: list", "");
    assert_eq!(club.judge_runs().code, 0);
    let help =
        std::fs::read_to_string(club.outbox(&to_address("help", "watch@example.org"))).unwrap();
    assert!(help.contains("plays no game here"), "{help}");
}

#[test]
fn the_club_page_follows_each_run_of_the_mail_judge() {
    let club = Club::new();
    let site = club.tmp.path().join("site");
    let s = site.to_string_lossy().into_owned();
    let r = club.judge_runs_with(NOW, &["--site", &s]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("2 games (2 read again)"), "{r:?}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("In play (2)"), "{index}");
    // The judge's own games count: the standings name its key.
    let standings = std::fs::read_to_string(site.join("standings.html")).unwrap();
    assert!(standings.contains("signed by: SHA256:"), "{standings}");
    // A move by mail, and a stranger's message with nothing in it: the page follows the move.
    club.mail_move("a", "red", "alice", "h2e2", 1);
    club.mail_text(2, "stranger@example.net", "Subject: hi", "hello");
    let r = club.judge_runs_with(NOW, &["--site", &s]);
    assert!(r.stdout.contains("2 games (1 read again)"), "{r:?}");
    let a = std::fs::read_to_string(site.join("games/a/index.html")).unwrap();
    assert!(
        a.contains("1. red h2e2") && a.contains("To move: <a"),
        "{a}"
    );
    assert!(a.contains(">bob</a> (black)"), "{a}");
    // Without --games there is no club to make a page of.
    let r = qj(&["inbox", "game", "x.eml", "--site", &s]);
    assert_eq!(r.code, 2, "{r:?}");
}
