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
