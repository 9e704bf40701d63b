//! Deadlines on the judge's clock (`--now`): on time, in the grace, late (refused) and the
//! forfeit past the grace; reminders in `status --json`.

use super::helpers::*;
use std::path::Path;

const T0: &str = "2026-11-21T10:00:00Z";

fn xiangqi_with_clock(tmp: &Path, keys: &Keys, clock: &str) -> String {
    let d = tmp.join("xq").to_string_lossy().into_owned();
    ok(&[
        "new",
        "xiangqi",
        &d,
        "--player",
        &format!("alice={}.pub=alice@example.org", keys.path("alice")),
        "--player",
        &format!("bob={}.pub", keys.path("bob")),
        "--judge",
        &format!("{}.pub", keys.path("judge")),
        "--now",
        T0,
        "--clock",
        clock,
    ]);
    ok(&["judge", &d, "--key", &keys.path("judge"), "--now", T0]);
    d
}

fn json(r: &Run) -> serde_json::Value {
    serde_json::from_str(&r.stdout).unwrap()
}

#[test]
fn on_time_in_grace_late_and_forfeit() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = xiangqi_with_clock(tmp.path(), &keys, "60:30");
    let s = json(&ok(&[
        "status",
        &d,
        "--json",
        "--now",
        "2026-11-21T10:20:00Z",
    ]));
    assert_eq!(s["deadline"]["due"], "2026-11-21T11:00:00Z");
    assert_eq!(s["deadline"]["state"], "on-time");
    assert_eq!(s["reminders"][0]["seat"], "red");
    assert_eq!(s["reminders"][0]["email"], "alice@example.org");
    // On time.
    ok(&[
        "move",
        &d,
        "--as",
        "red",
        "--key",
        &keys.path("alice"),
        "h2e2",
    ]);
    ok(&[
        "judge",
        &d,
        "--key",
        &keys.path("judge"),
        "--now",
        "2026-11-21T10:10:00Z",
    ]);
    // Black's clock runs from that receipt: due 11:10, grace until 11:40.
    let s = json(&ok(&[
        "status",
        &d,
        "--json",
        "--now",
        "2026-11-21T11:20:00Z",
    ]));
    assert_eq!(s["deadline"]["state"], "in-grace");
    assert_eq!(s["deadline"]["grace_until"], "2026-11-21T11:40:00Z");
    let text = ok(&["status", &d, "--now", "2026-11-21T11:20:00Z"]);
    assert!(
        text.stdout.contains(
            "deadline: 2026-11-21T11:10:00Z (grace until 2026-11-21T11:40:00Z), in-grace"
        ),
        "{}",
        text.stdout
    );
    // A move sent in time but judged after the grace is late: refused, and black forfeits.
    ok(&[
        "move",
        &d,
        "--as",
        "black",
        "--key",
        &keys.path("bob"),
        "h9g7",
    ]);
    let r = qj(&[
        "judge",
        &d,
        "--key",
        &keys.path("judge"),
        "--now",
        "2026-11-21T11:41:00Z",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("moves/0002-black.toml") && r.stderr.contains("late"),
        "{}",
        r.stderr
    );
    let view: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(&d).join("views/public.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(view["result"]["winner"], "red");
    assert_eq!(view["result"]["reason"], "forfeit");
    assert!(std::fs::read_to_string(Path::new(&d).join("record.jsonl"))
        .unwrap()
        .contains("missed-deadline"));
    ok(&["verify", &d]);
    // The judge's message says which deadline was missed.
    let outbox = Path::new(&d).join("../outbox");
    let maildir = Path::new(&d).join("../Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    ok(&[
        "inbox",
        &d,
        "--maildir",
        &maildir.to_string_lossy(),
        "--key",
        &keys.path("judge"),
        "--now",
        "2026-11-21T11:42:00Z",
        "--outbox",
        &outbox.to_string_lossy(),
        "--from",
        "judge@example.org",
    ]);
    let mail = std::fs::read_to_string(outbox.join("red.eml")).unwrap();
    assert!(
        mail.contains("black missed the deadline for ply 2: the move was due by")
            && mail.contains("2026-11-21T11:10:00Z")
            && mail.contains("2026-11-21T11:40:00Z"),
        "{mail}"
    );
}

#[test]
fn a_move_in_the_grace_is_taken_and_nothing_means_no_forfeit() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = xiangqi_with_clock(tmp.path(), &keys, "60:30:nothing");
    ok(&[
        "move",
        &d,
        "--as",
        "red",
        "--key",
        &keys.path("alice"),
        "h2e2",
    ]);
    ok(&[
        "judge",
        &d,
        "--key",
        &keys.path("judge"),
        "--now",
        "2026-11-21T11:20:00Z",
    ]);
    // Past black's grace with no move: with `nothing`, the judge records nothing.
    ok(&[
        "judge",
        &d,
        "--key",
        &keys.path("judge"),
        "--now",
        "2026-11-21T13:00:00Z",
    ]);
    let s = json(&ok(&[
        "status",
        &d,
        "--json",
        "--now",
        "2026-11-21T13:00:00Z",
    ]));
    assert_eq!(s["to_move"], "black");
    assert_eq!(s["deadline"]["state"], "expired");
}

#[test]
fn luzhanqi_past_the_grace_the_seat_to_move_forfeits() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = tmp.path().join("lz").to_string_lossy().into_owned();
    ok(&[
        "new",
        "luzhanqi",
        &d,
        "--player",
        &format!("alice={}.pub", keys.path("alice")),
        "--player",
        &format!("bob={}.pub", keys.path("bob")),
        "--judge",
        &format!("{}.pub", keys.path("judge")),
        "--now",
        T0,
        "--clock",
        "60",
    ]);
    for (seat, who, rows) in [("south", "alice", SOUTH_ROWS), ("north", "bob", NORTH_ROWS)] {
        setup_with(std::path::Path::new(&d), seat, &keys.path(who), rows);
    }
    ok(&["judge", &d, "--key", &keys.path("judge"), "--now", T0]);
    let s = json(&ok(&[
        "status",
        &d,
        "--json",
        "--now",
        "2026-11-21T10:30:00Z",
    ]));
    assert_eq!(s["deadline"]["due"], "2026-11-21T11:00:00Z");
    let mover = s["to_move"].as_str().unwrap().to_string();
    ok(&[
        "judge",
        &d,
        "--key",
        &keys.path("judge"),
        "--now",
        "2026-11-21T11:01:00Z",
    ]);
    let record = std::fs::read_to_string(Path::new(&d).join("record.jsonl")).unwrap();
    assert!(
        record.contains(&format!(
            "\"kind\":\"forfeit\",\"seat\":\"{mover}\",\"reason\":\"missed-deadline\""
        )),
        "{record}"
    );
    ok(&["reveal", &d]);
    ok(&["verify", &d]);
}

#[test]
fn a_vacation_stops_the_seats_clock_within_the_allowance() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = xiangqi_with_clock(tmp.path(), &keys, "60:30:forfeit:3");
    let judge_key = keys.path("judge");
    let judge = |now: &str, more: &[&str]| {
        let mut args = vec!["judge", &d, "--key", &judge_key, "--now", now];
        args.extend_from_slice(more);
        qj(&args)
    };
    // Black, not to move, leaves at 10:00 for two days.
    let r = judge(T0, &["--vacation", "black:2"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("black takes 2 days of vacation"), "{r:?}");
    // Red's clock is not stopped.
    let s = json(&ok(&["status", &d, "--json", "--now", T0]));
    assert_eq!(s["deadline"]["due"], "2026-11-21T11:00:00Z");
    ok(&[
        "move",
        &d,
        "--as",
        "red",
        "--key",
        &keys.path("alice"),
        "h2e2",
    ]);
    assert_eq!(judge("2026-11-21T10:10:00Z", &[]).code, 0);
    // Black's ply began at 10:10; what is left of the vacation (2 days less 10 minutes) stops
    // its clock: due 11:10 plus that.
    let s = json(&ok(&[
        "status",
        &d,
        "--json",
        "--now",
        "2026-11-22T10:00:00Z",
    ]));
    assert_eq!(s["deadline"]["due"], "2026-11-23T11:00:00Z", "{s}");
    assert_eq!(s["deadline"]["state"], "on-time");
    // Past the allowance (3 days): refused, nothing recorded.
    let r = judge("2026-11-22T10:00:00Z", &["--vacation", "black:2"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("1 left, 2 asked"), "{r:?}");
    // A seat that is not in the game, a malformed request.
    let r = judge("2026-11-22T10:00:00Z", &["--vacation", "white:1"]);
    assert!(r.stderr.contains("not a seat"), "{r:?}");
    let r = judge("2026-11-22T10:00:00Z", &["--vacation", "black"]);
    assert!(r.stderr.contains("SEAT:DAYS"), "{r:?}");
    // The vacation is in the signed record and the audit checks it.
    ok(&["verify", &d]);
    // Once black's time has run out, a vacation cannot bring it back: the forfeit stands.
    let r = judge("2026-11-24T12:00:00Z", &["--vacation", "black:1"]);
    assert!(r.stderr.contains("ran out"), "{r:?}");
    let r = judge("2026-11-24T12:00:00Z", &[]);
    assert!(r.stdout.contains("black forfeits"), "{r:?}");
}

#[test]
fn a_game_without_an_allowance_takes_no_vacation() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = xiangqi_with_clock(tmp.path(), &keys, "60:30");
    let r = qj(&[
        "judge",
        &d,
        "--key",
        &keys.path("judge"),
        "--now",
        T0,
        "--vacation",
        "red:1",
    ]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("allows no vacation"), "{r:?}");
}

/// The review's finding: a vacation line recorded between a move's signing and its judging
/// made the move stale, and its player had to make it again. A move signed against the head
/// before a vacation is now taken as if the vacation came after it, in the run that records the
/// vacation and in a later one; the audit agrees.
#[test]
fn a_vacation_never_stales_a_move_already_signed() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let d = xiangqi_with_clock(tmp.path(), &keys, "60:30:forfeit:3");
    let judge_key = keys.path("judge");
    let judge = |now: &str, more: &[&str]| {
        let mut args = vec!["judge", &d, "--key", &judge_key, "--now", now];
        args.extend_from_slice(more);
        qj(&args)
    };
    assert_eq!(judge(T0, &[]).code, 0);
    let play = |seat: &str, who: &str, mv: &str| {
        ok(&["move", &d, "--as", seat, "--key", &keys.path(who), mv]);
    };
    // Red signs; black's vacation is recorded in the run that takes red's move.
    play("red", "alice", "h2e2");
    let r = judge("2026-11-21T10:05:00Z", &["--vacation", "black:1"]);
    assert_eq!(r.code, 0, "{r:?}");
    // Black signs; red's vacation is recorded by one run, black's move taken by the next.
    play("black", "bob", "h9g7");
    let files = ["0002-black.toml", "0002-black.toml.sig"];
    for f in files {
        std::fs::rename(Path::new(&d).join("moves").join(f), tmp.path().join(f)).unwrap();
    }
    let r = judge("2026-11-21T10:10:00Z", &["--vacation", "red:1"]);
    assert_eq!(r.code, 0, "{r:?}");
    for f in files {
        std::fs::rename(tmp.path().join(f), Path::new(&d).join("moves").join(f)).unwrap();
    }
    let r = judge("2026-11-21T10:15:00Z", &[]);
    assert_eq!(r.code, 0, "{r:?}");
    let record = std::fs::read_to_string(Path::new(&d).join("record.jsonl")).unwrap();
    let kinds: Vec<&str> = record
        .lines()
        .filter_map(|l| l.split("\"kind\":\"").nth(1)?.split('"').next())
        .collect();
    assert_eq!(
        kinds[kinds.len() - 4..],
        ["vacation", "move", "vacation", "move"],
        "{record}"
    );
    ok(&["verify", &d]);
}
