//! Messages shaped the way real mail clients write them (made by `tests/mail/eml.py` with
//! Python's `email` package, or by hand where the client does something the package does not):
//! each is taken with exactly the file the player wrote, or refused with the real reason and
//! nothing written.

use super::helpers::*;
use std::path::{Path, PathBuf};

/// A started two-player game (setups in), south's first move written in its copy with an
/// accented comment (so a charset label can damage it, and Windows-1252 can still carry it).
struct Started {
    tmp: tempfile::TempDir,
    judge: PathBuf,
    keys: Keys,
    file: PathBuf,
    sig: PathBuf,
    seat: &'static str,
    who: &'static str,
}

fn started() -> Started {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let judge = tmp.path().join("judge-copy");
    new_game_by_mail(&judge, &keys, &[]);
    let d = judge.to_string_lossy().into_owned();
    for (seat, who, rows) in [("south", "alice", SOUTH_ROWS), ("north", "bob", NORTH_ROWS)] {
        setup_with(&judge, seat, &keys.path(who), rows);
    }
    ok(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW]);
    // The player's copy: the manifest and the record, as the judge's mail gives them.
    let copy = tmp.path().join("alice-copy");
    for rel in ["game.toml", "record.jsonl", "record.sig"] {
        std::fs::create_dir_all(&copy).unwrap();
        std::fs::copy(judge.join(rel), copy.join(rel)).unwrap();
    }
    ok(&[
        "move",
        &copy.to_string_lossy(),
        "--as",
        "south",
        "--key",
        &keys.path("alice"),
        "--comment",
        "à bientôt — café",
        "e6-e7",
    ]);
    let file = copy.join("moves/0001-south.toml");
    let sig = copy.join("moves/0001-south.toml.sig");
    Started {
        tmp,
        judge,
        keys,
        file,
        sig,
        seat: "south",
        who: "alice",
    }
}

impl Started {
    fn eml(&self, shape: &str, name: &str) -> PathBuf {
        let out = self.tmp.path().join(format!("{name}.eml"));
        eml_py(&[
            "make",
            shape,
            &out.to_string_lossy(),
            &format!("{}@example.org", self.who),
            &self.file.to_string_lossy(),
            &self.sig.to_string_lossy(),
        ]);
        out
    }

    /// A fresh copy of the judge's folder for one message.
    fn fresh(&self, name: &str) -> PathBuf {
        let to = self.tmp.path().join(format!("judge-{name}"));
        copy_dir(&self.judge, &to);
        to
    }

    fn inbox(&self, dir: &Path, message: &str) -> Vec<String> {
        let d = dir.to_string_lossy().into_owned();
        let key = self.keys.path("judge");
        vec![
            "inbox".into(),
            d,
            message.into(),
            "--key".into(),
            key,
            "--now".into(),
            NOW.into(),
        ]
    }
}

fn run(args: &[String]) -> Run {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    qj(&refs)
}

#[test]
fn every_client_shape_is_taken_with_the_file_the_player_wrote() {
    let s = started();
    let wrote = std::fs::read(&s.file).unwrap();
    let signed = std::fs::read(&s.sig).unwrap();
    assert!(String::from_utf8_lossy(&wrote).contains("café"));
    for shape in [
        "attach",
        "inline",
        "thunderbird",
        "applemail",
        "refold64",
        "refold76",
        "latin1",
        "forward",
        "outlook",
    ] {
        let msg = s.eml(shape, shape);
        let raw = std::fs::read_to_string(&msg).unwrap_or_default();
        // The fixture has the shape it claims.
        match shape {
            "thunderbird" => assert!(
                raw.contains("format=\"flowed\"") || raw.contains("format=flowed"),
                "{raw}"
            ),
            "applemail" => assert!(raw.contains("delsp"), "{raw}"),
            "latin1" => assert!(raw.contains("iso-8859-1"), "{raw}"),
            "forward" => assert!(raw.contains("message/rfc822"), "{raw}"),
            _ => {}
        }
        let dir = s.fresh(shape);
        let r = if shape == "outlook" {
            // An 8-bit Windows-1252 message through standard input, as a mail filter pipes it.
            let bytes = std::fs::read(&msg).unwrap();
            assert!(
                std::str::from_utf8(&bytes).is_err(),
                "the fixture is not UTF-8"
            );
            let args = s.inbox(&dir, "-");
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            qj_stdin(&refs, &bytes)
        } else {
            run(&s.inbox(&dir, &msg.to_string_lossy()))
        };
        assert_eq!(r.code, 0, "{shape}: {r:?}");
        let rel = format!("moves/0001-{}.toml", s.seat);
        assert_eq!(std::fs::read(dir.join(&rel)).unwrap(), wrote, "{shape}");
        assert_eq!(
            std::fs::read(dir.join(format!("{rel}.sig"))).unwrap(),
            signed,
            "{shape}"
        );
        let record = std::fs::read_to_string(dir.join("record.jsonl")).unwrap();
        assert!(record.contains("\"ply\":1"), "{shape}: judged");
    }
}

#[test]
fn damaged_and_oversized_messages_are_refused_for_their_real_reason() {
    let s = started();
    // A flowed message whose signature belongs to another file: the signature is named.
    let other = s.tmp.path().join("other.sig");
    std::fs::write(
        &other,
        sign_as(
            &s.keys,
            "alice",
            "qijudge-move",
            "format = \"qijudge/move/1\"\n",
        ),
    )
    .unwrap();
    let out = s.tmp.path().join("wrong-sig.eml");
    eml_py(&[
        "make",
        "thunderbird",
        &out.to_string_lossy(),
        "alice@example.org",
        &s.file.to_string_lossy(),
        &other.to_string_lossy(),
    ]);
    let dir = s.fresh("wrong");
    let before = snapshot(&dir);
    let r = run(&s.inbox(&dir, &out.to_string_lossy()));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("not signed by south's key"),
        "{}",
        r.stderr
    );
    assert_no_debug("stderr", &r.stderr);
    assert_eq!(snapshot(&dir), before, "nothing written");

    // More than 32 MiB on standard input: refused, never cut.
    let big = vec![b'a'; 32 * 1024 * 1024 + 10];
    let args = s.inbox(&dir, "-");
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = qj_stdin(&refs, &big);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("<stdin>") && r.stderr.contains("larger than"),
        "{}",
        r.stderr
    );
    assert_eq!(snapshot(&dir), before);

    // A part bomb: a hundred thousand empty MIME parts, refused before it is parsed.
    let mut bomb = b"From: a@example.org\r\nTo: j@example.org\r\nMIME-Version: 1.0\r\n\
        Content-Type: multipart/mixed; boundary=b\r\n\r\n"
        .to_vec();
    for _ in 0..100_000 {
        bomb.extend_from_slice(b"--b\r\n\r\n");
    }
    bomb.extend_from_slice(b"--b--\r\n");
    let path = s.tmp.path().join("bomb.eml");
    std::fs::write(&path, &bomb).unwrap();
    let r = run(&s.inbox(&dir, &path.to_string_lossy()));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("MIME part delimiters"), "{}", r.stderr);
    assert_eq!(snapshot(&dir), before);

    // Forwarded four levels deep: past the depth read, so nothing is found (and said so).
    let mut msg = std::fs::read(s.eml("attach", "deep0")).unwrap();
    for _ in 0..4 {
        let mut outer = b"From: alice@example.org\r\nTo: j@example.org\r\nSubject: Fwd\r\n\
            MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"f\"\r\n\r\n--f\r\n\
            Content-Type: text/plain\r\n\r\nforwarded\r\n--f\r\nContent-Type: message/rfc822\r\n\r\n"
            .to_vec();
        outer.extend_from_slice(&msg);
        outer.extend_from_slice(b"\r\n--f--\r\n");
        msg = outer;
    }
    let path = s.tmp.path().join("deep.eml");
    std::fs::write(&path, &msg).unwrap();
    let r = run(&s.inbox(&dir, &path.to_string_lossy()));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("holds no qijudge file"), "{}", r.stderr);
    assert_eq!(snapshot(&dir), before);
}

#[test]
fn replies_refer_only_to_the_senders_own_clean_message_id() {
    let s = started();
    let msg = s.eml("attach", "ids");
    let text = std::fs::read_to_string(&msg).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("Message-ID:"))
        .unwrap()
        .to_string();
    let out = s.tmp.path().join("out");
    let cases = [
        ("clean", line.clone(), true),
        (
            "long",
            format!("Message-ID: <{}@example.org>", "x".repeat(5000)),
            false,
        ),
        (
            "nul",
            "Message-ID: <a\u{0}b@example.org>".to_string(),
            false,
        ),
        (
            "spaces",
            "Message-ID: <a b;eve@example.org>".to_string(),
            false,
        ),
    ];
    for (name, id_line, kept) in cases {
        let path = s.tmp.path().join(format!("{name}.eml"));
        std::fs::write(&path, text.replace(&line, &id_line)).unwrap();
        let dir = s.fresh(&format!("id-{name}"));
        let mut args = s.inbox(&dir, &path.to_string_lossy());
        let o = out.join(name);
        args.extend([
            "--outbox".to_string(),
            o.to_string_lossy().into_owned(),
            "--from".into(),
            "judge@example.org".into(),
            "--spectator".into(),
            "club@example.org".into(),
            "--spectator".into(),
            "fan@example.org".into(),
        ]);
        let r = run(&args);
        assert_eq!(r.code, 0, "{name}: {r:?}");
        let south = std::fs::read_to_string(o.join("south.eml")).unwrap();
        let north = std::fs::read_to_string(o.join("north.eml")).unwrap();
        let public = std::fs::read_to_string(o.join("public.eml")).unwrap();
        assert_eq!(south.contains("In-Reply-To:"), kept, "{name}: {south}");
        assert_eq!(south.contains("References:"), kept, "{name}");
        for other in [&north, &public] {
            assert!(!other.contains("In-Reply-To:") && !other.contains("References:"));
        }
        for m in [&south, &north, &public] {
            assert!(!m.contains('\u{0}') && !m.contains("xxxxxxxxxx") && !m.contains("eve@"));
        }
        // Spectators see no one's address but the judge's.
        let to = public.lines().find(|l| l.starts_with("To:")).unwrap();
        assert!(!to.contains("club@") && !to.contains("fan@"), "{to}");
    }
}

#[test]
fn a_failing_sendmail_is_reported_with_its_exit_status() {
    let s = started();
    let msg = s.eml("attach", "sendmail");
    let dir = s.fresh("sendmail");
    for (command, says) in [
        ("exit 75", "exited with status 75"),
        ("head -c 10 > /dev/null; exit 3", "exited with status 3"),
    ] {
        let mut args = s.inbox(&dir, &msg.to_string_lossy());
        args.extend([
            "--from".into(),
            "judge@example.org".into(),
            "--sendmail".into(),
            command.into(),
        ]);
        let r = run(&args);
        assert_eq!(r.code, 2, "{command}: {r:?}");
        assert!(r.stderr.contains(says), "{command}: {}", r.stderr);
        assert!(!r.stderr.contains("Broken pipe"), "{}", r.stderr);
        // The move is judged all the same: only the sending failed, and the next run retries.
        assert!(dir.join("moves/0001-south.toml").exists());
    }
}

#[test]
fn a_maildir_is_read_once_and_each_message_moved_to_cur() {
    let s = started();
    let maildir = s.tmp.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let chat = s.tmp.path().join("chat.eml");
    eml_py(&[
        "make",
        "chat",
        &chat.to_string_lossy(),
        "bob@example.org",
        &s.file.to_string_lossy(),
    ]);
    // Delivered in this order (Maildir names start with the delivery time).
    std::fs::copy(&chat, maildir.join("new/1700000001.M1P1.host")).unwrap();
    std::fs::copy(
        s.eml("thunderbird", "md"),
        maildir.join("new/1700000002.M2P1.host"),
    )
    .unwrap();
    std::fs::write(maildir.join("new/.1700000003.partial"), "being written").unwrap();
    let d = s.judge.to_string_lossy().into_owned();
    let md = maildir.to_string_lossy().into_owned();
    let key = s.keys.path("judge");
    let args = ["inbox", &d, "--maildir", &md, "--key", &key, "--now", NOW];
    let r = qj(&args);
    // The chat holds no file: refused (exit 1), but handled and moved like the move.
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("1700000001.M1P1.host") && r.stderr.contains("holds no qijudge file")
    );
    assert!(s.judge.join("moves/0001-south.toml").exists());
    let mut cur: Vec<String> = std::fs::read_dir(maildir.join("cur"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    cur.sort();
    assert_eq!(
        cur,
        ["1700000001.M1P1.host:2,S", "1700000002.M2P1.host:2,S"]
    );
    let new: Vec<_> = std::fs::read_dir(maildir.join("new")).unwrap().collect();
    assert_eq!(
        new.len(),
        1,
        "only the partial file another program writes stays"
    );
    // A second run finds nothing new and changes nothing.
    let before = snapshot(&s.judge);
    let r = qj(&args);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(snapshot(&s.judge), before);
    // Not a Maildir: said so.
    let r = qj(&["inbox", &d, "--maildir", &d, "--key", &key]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not a Maildir"), "{}", r.stderr);
}

/// The real mutt, twice: the player mails its move with `-a` (mutt sends the signature as
/// `application/pgp-signature` in quoted-printable), then forwards that message as an
/// attachment (`message/rfc822`), as a player does who mailed the wrong address first. The
/// judge takes the forwarded move with exactly the file and signature the player wrote.
#[test]
fn a_move_mailed_and_then_forwarded_by_mutt_is_taken() {
    let s = started();
    let home = s.tmp.path().join("mutt-home");
    std::fs::create_dir_all(&home).unwrap();
    // mutt hands each message to its `sendmail`: here a script that keeps it in a file.
    let sent = s.tmp.path().join("sent");
    std::fs::create_dir_all(&sent).unwrap();
    let keep = home.join("keep.sh");
    std::fs::write(
        &keep,
        format!(
            "#!/bin/sh\nn=$(ls {dir} | wc -l)\ncat > {dir}/$n.eml\n",
            dir = sent.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&keep, std::fs::Permissions::from_mode(0o755)).unwrap();
    let rc = home.join("muttrc");
    std::fs::write(
        &rc,
        format!(
            "set from=\"alice@example.org\"\nset use_from=yes\nset sendmail=\"{}\"\n\
             set copy=no\nset record=\"\"\nset charset=\"utf-8\"\nset send_charset=\"utf-8\"\n",
            keep.display()
        ),
    )
    .unwrap();
    let mutt = |subject: &str, files: &[&Path]| {
        use std::io::Write;
        let mut child = std::process::Command::new("mutt")
            .env("HOME", &home)
            .args(["-n", "-F"])
            .arg(&rc)
            .args(["-s", subject, "-a"])
            .args(files)
            .args(["--", "judge@example.org"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("mutt must be installed (.ci/run installs it)");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"My move.\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "mutt: {out:?}");
    };
    mutt("my move", &[&s.file, &s.sig]);
    let first = sent.join("0.eml");
    let raw = std::fs::read_to_string(&first).unwrap();
    assert!(
        raw.contains("Content-Transfer-Encoding: quoted-printable"),
        "{raw}"
    );
    // Forwarded as an attachment: the message as it was sent, whole.
    let forwarded_source = s.tmp.path().join("my-move.eml");
    std::fs::copy(&first, &forwarded_source).unwrap();
    mutt("Fwd: my move", &[&forwarded_source]);
    let forward = sent.join("1.eml");
    let raw = std::fs::read_to_string(&forward).unwrap();
    assert!(raw.contains("Content-Type: message/rfc822"), "{raw}");
    let wrote = std::fs::read(&s.file).unwrap();
    let signed = std::fs::read(&s.sig).unwrap();
    for (name, message) in [("direct", &first), ("forwarded", &forward)] {
        let dir = s.fresh(name);
        let r = run(&s.inbox(&dir, &message.to_string_lossy()));
        assert_eq!(r.code, 0, "{name}: {r:?}");
        assert_eq!(
            std::fs::read(dir.join("moves/0001-south.toml")).unwrap(),
            wrote,
            "{name}"
        );
        assert_eq!(
            std::fs::read(dir.join("moves/0001-south.toml.sig")).unwrap(),
            signed,
            "{name}"
        );
        let record = std::fs::read_to_string(dir.join("record.jsonl")).unwrap();
        assert!(record.contains("\"ply\":1"), "{name}: judged");
    }
}
