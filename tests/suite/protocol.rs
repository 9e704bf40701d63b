//! The built-in points of DESIGN.md §2 "What the protocol must resist": 1, 2, 3, 5 and 6.

use super::helpers::*;
use qijudge::games::luzhanqi::referee::Manifest;
use qijudge::games::luzhanqi::rules::Options;
use qijudge::protocol::commitment::{lot_commitment, lot_draw};
use qijudge::protocol::files::*;
use qijudge::protocol::hash::hex32;
use qijudge::protocol::signing::{self, namespace};

/// Point 1: random game ids; every signed file and the first record line carry the manifest
/// hash; a changed manifest is refused.
#[test]
fn bound_to_the_exact_manifest() {
    let a = TestGame::new(&[]);
    let b = TestGame::new(&[]);
    let id = |g: &TestGame| toml::from_str::<Manifest>(&g.read("game.toml")).unwrap().id;
    assert_ne!(id(&a), id(&b));
    assert!(id(&a).len() == 4 + 32, "128 random bits");
    let g = TestGame::started(&[]);
    let hash = qijudge::protocol::hash::sha256_tagged(g.read("game.toml").as_bytes());
    let first: serde_json::Value =
        serde_json::from_str(g.read("record.jsonl").lines().next().unwrap()).unwrap();
    assert_eq!(first["prev"], hash.as_str());
    assert_eq!(first["entry"]["manifest"], hash.as_str());
    assert!(g.read("commitments/south.toml").contains(&hash));
    // A rule downgrade after the commitments: everything bound to the old hash is refused.
    let edited = g
        .read("game.toml")
        .replace("mines = \"survive\"", "mines = \"explode\"");
    g.write("game.toml", &edited);
    let r = g.judge();
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("game.toml") && r.stderr.contains("changed since the game started"),
        "{r:?}"
    );
    // A move or commitment carried over from another game is refused too (see refusals::wrong_game).
}

/// Point 2: an accepted file cannot change or disappear; the record only grows.
#[test]
fn append_only() {
    let g = TestGame::started(&[]);
    assert_eq!(g.play("south", "a6-a7").code, 0);
    assert_eq!(g.play("north", "e7-e6").code, 0);
    let original = g.read("moves/0001-south.toml");
    let sig = g.read("moves/0001-south.toml.sig");
    // Deleted.
    std::fs::remove_file(g.dir.join("moves/0001-south.toml")).unwrap();
    let r = g.judge();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("moves/0001-south.toml: missing"), "{r:?}");
    // Replaced by another validly signed move for the same ply.
    std::fs::remove_file(g.dir.join("moves/0001-south.toml.sig")).unwrap();
    g.send("south", "a5-a4");
    std::fs::rename(
        g.dir.join("moves/0003-south.toml"),
        g.dir.join("moves/0001-south.toml"),
    )
    .unwrap();
    std::fs::rename(
        g.dir.join("moves/0003-south.toml.sig"),
        g.dir.join("moves/0001-south.toml.sig"),
    )
    .unwrap();
    let r = g.judge();
    assert_eq!(r.code, 1);
    g.write("moves/0001-south.toml", &original);
    g.write("moves/0001-south.toml.sig", &sig);
    assert_eq!(
        g.judge().code,
        0,
        "restoring the accepted file restores the game"
    );
}

/// Point 2: a record rolled back to an older signed version is refused.
#[test]
fn rolled_back_record() {
    let g = TestGame::started(&[]);
    let (old_record, old_sig) = (g.read("record.jsonl"), g.read("record.sig"));
    assert_eq!(g.play("south", "a6-a7").code, 0);
    g.write("record.jsonl", &old_record);
    g.write("record.sig", &old_sig);
    let r = g.judge();
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("rolled back"), "{r:?}");
}

/// Point 3: views are signed over game, manifest, ply, audience and record head, and carry the
/// opponent's last signed move, whose signature verifies with the opponent's key.
#[test]
fn views_are_evidence() {
    let g = TestGame::started(&[]);
    assert_eq!(g.play("south", "a6-a7").code, 0);
    let text = g.read("views/north.json");
    let judge_key = signing::parse_public_key(&g.read("../keys/judge.pub")).unwrap();
    signing::verify(
        &judge_key,
        namespace::VIEW,
        text.as_bytes(),
        &g.read("views/north.json.sig"),
    )
    .unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["audience"], "north");
    assert_eq!(v["ply"], 1);
    let manifest_hash = qijudge::protocol::hash::sha256_tagged(g.read("game.toml").as_bytes());
    assert_eq!(v["manifest"], manifest_hash.as_str());
    let head = qijudge::protocol::hash::sha256_tagged(
        g.read("record.jsonl").lines().last().unwrap().as_bytes(),
    );
    assert_eq!(v["record_head"], head.as_str());
    let last = &v["opponent_last_move"];
    assert_eq!(last["file"], g.read("moves/0001-south.toml").as_str());
    let alice = signing::parse_public_key(&g.read("../keys/alice.pub")).unwrap();
    signing::verify(
        &alice,
        namespace::MOVE,
        last["file"].as_str().unwrap().as_bytes(),
        last["signature"].as_str().unwrap(),
    )
    .unwrap();
    // Changing the audience breaks the judge's signature.
    let forged = text.replace("\"audience\": \"north\"", "\"audience\": \"south\"");
    assert!(signing::verify(
        &judge_key,
        namespace::VIEW,
        forged.as_bytes(),
        &g.read("views/north.json.sig")
    )
    .is_err());
    // The record is signed too.
    signing::verify(
        &judge_key,
        namespace::RECORD,
        g.read("record.jsonl").as_bytes(),
        &g.read("record.sig"),
    )
    .unwrap();
}

/// Point 5: a signed file is accepted only in canonical bytes (see also refusals::non_canonical_bytes);
/// the commitment, lot and record-head vectors are unit tests of the protocol module.
#[test]
fn canonical_bytes_of_written_files() {
    let g = TestGame::started(&[]);
    for f in ["game.toml", "commitments/south.toml", "setups/north.toml"] {
        let text = g.read(f);
        assert!(!text.contains('\r') && text.ends_with('\n'), "{f}");
    }
    let c: CommitmentFile = parse_toml(&g.read("commitments/south.toml")).unwrap();
    assert_eq!(to_toml(&c), g.read("commitments/south.toml"));
    let crlf = g.read("commitments/north.toml").replace('\n', "\r\n");
    assert!(parse_toml::<CommitmentFile>(&crlf).is_err());
}

/// Point 6: secrets are taken only after every commitment is recorded, and the lot comes from
/// committed nonces that anyone can recompute.
#[test]
fn two_phase_start_and_fair_lot() {
    let g = TestGame::new(&["first-mover=lot"]);
    g.setup("south", SOUTH_ROWS);
    // South's secret is already there, but north has not committed: the judge does not take it.
    let r = g.judge();
    assert_eq!(r.code, 0);
    let waiting = "waiting for every seat's commitment (still to come: north)";
    assert!(r.stdout.contains(waiting), "{r:?}");
    // A player's `status` says what the judge says (not "waiting for setups").
    let status = ok(&["status", &g.d()]);
    assert!(status.stdout.contains(waiting), "{status:?}");
    assert!(!g.read("record.jsonl").contains("setup_accepted"));
    g.setup("north", NORTH_ROWS);
    let r = g.judge();
    assert_eq!(r.code, 0);
    let kinds: Vec<String> = g
        .read("record.jsonl")
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["entry"]["kind"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "start",
            "commitment",
            "commitment",
            "setup_accepted",
            "setup_accepted",
            "begin"
        ]
    );
    let begin: serde_json::Value =
        serde_json::from_str(g.read("record.jsonl").lines().last().unwrap()).unwrap();
    let manifest: Manifest = toml::from_str(&g.read("game.toml")).unwrap();
    let mut nonces = Vec::new();
    for seat in ["south", "north"] {
        let n = hex32(begin["entry"]["lot_nonces"][seat].as_str().unwrap()).unwrap();
        let c: CommitmentFile =
            toml::from_str(&g.read(&format!("commitments/{seat}.toml"))).unwrap();
        assert_eq!(
            lot_commitment(&manifest.id, seat, &n),
            c.lot,
            "the revealed nonce matches the commitment"
        );
        nonces.push(n);
    }
    let first = ["south", "north"][lot_draw(&manifest.id, &nonces)];
    assert_eq!(begin["entry"]["first"], first);
    // A nonce that does not match its commitment is refused.
    let g2 = TestGame::new(&["first-mover=lot"]);
    g2.setup("south", SOUTH_ROWS);
    g2.setup("north", NORTH_ROWS);
    let s = g2.read("setups/south.toml");
    let nonce_line = s
        .lines()
        .find(|l| l.starts_with("lot_nonce"))
        .unwrap()
        .to_string();
    g2.write(
        "setups/south.toml",
        &s.replace(&nonce_line, &format!("lot_nonce = \"{}\"", "ab".repeat(32))),
    );
    let r = g2.judge();
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("setups/south.toml: field lot_nonce: refused [setup.lot_nonce]"),
        "{r:?}"
    );
    assert!(g2
        .read("views/south.refusal.txt")
        .contains("field lot_nonce: does not match"));
}

#[test]
fn options_reach_the_judge() {
    // Explosive mines: an officer hitting a mine takes it along. South's colonel c3 is far from any
    // mine, so use the rules engine to confirm the option is read from the manifest.
    let g = TestGame::started(&["no-legal-move=draw", "max-plies=2"]);
    let moves = random_moves(
        &fixed_setups(),
        Options {
            max_plies: 2,
            ..Options::default()
        },
        2,
        3,
    );
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(g.play(seat_of_ply(i + 1), m).code, 0);
    }
    assert!(
        g.read("record.jsonl").contains("\"reason\":\"ply_limit\""),
        "max-plies from game.toml applies"
    );
}

#[test]
fn first_mover_option_reaches_the_record() {
    let g = TestGame::started(&["first-mover=north"]);
    let last = g.read("record.jsonl").lines().last().unwrap().to_string();
    assert!(
        last.contains("\"kind\":\"begin\",\"first\":\"north\""),
        "{last}"
    );
    g.send("south", "a6-a7");
    let r = g.judge();
    assert!(r.stderr.contains("out of turn: north is to move"), "{r:?}");
}

/// The judge can end a game on its own authority; the forfeit is in the signed record and the
/// audit accepts it, before play begins too.
#[test]
fn a_forfeit_is_recorded_and_audited() {
    let g = TestGame::started(&[]);
    assert_eq!(g.play("south", "a6-a7").code, 0);
    let r = g.judge_with(&["--forfeit", "north:missed-deadline"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("north forfeits (missed-deadline)")
            && r.stdout.contains("south wins (forfeit)"),
        "{r:?}"
    );
    ok(&["reveal", &g.d()]);
    ok(&["verify", &g.d()]);
    let bad = g.judge_with(&["--forfeit", "north:Bad Reason"]);
    assert_eq!(bad.code, 0, "a finished game ignores a forfeit: {bad:?}");

    let early = TestGame::new(&[]);
    early.setup("south", SOUTH_ROWS);
    let r = early.judge_with(&["--forfeit", "north:no-setup"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(early
        .read("record.jsonl")
        .contains("\"kind\":\"forfeit\",\"seat\":\"north\",\"reason\":\"no-setup\""));
    let r = early.judge_with(&["--forfeit", "north:Not A Code"]);
    assert_eq!(r.code, 0, "already over");
    ok(&["reveal", &early.d()]);
    ok(&["verify", &early.d()]);
    let fresh = TestGame::new(&[]);
    let r = fresh.judge_with(&["--forfeit", "north:Not A Code"]);
    assert_eq!(r.code, 2, "{r:?}");
}

/// Draws by agreement are player-signed: an offer rides on a move, the opponent accepts on its
/// next turn, and nothing else counts as acceptance.
#[test]
fn draw_offers_and_acceptance() {
    let g = TestGame::started(&[]);
    let mv = |seat: &str, action: &str, offer: bool| {
        g.send_with(seat, action, if offer { &["--offer-draw"] } else { &[] });
        g.judge()
    };
    // Accepting without an offer is refused.
    let r = mv("south", "accept-draw", false);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("field move: there is no draw offer to accept"),
        "{r:?}"
    );
    assert_set_aside(&g.dir, "moves/0001-south.toml");
    // A draw is offered with a move, never with a resignation.
    g.send_with("south", "resign", &["--offer-draw"]);
    let r = g.judge();
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("moves/0001-south.toml: field offer_draw"),
        "{r:?}"
    );
    assert_set_aside(&g.dir, "moves/0001-south.toml");
    // An offer that North ignores lapses.
    let legal = random_moves(&fixed_setups(), Options::default(), 3, 9);
    assert_eq!(mv("south", &legal[0], true).code, 0);
    assert!(ok(&["view", g.dir.to_str().unwrap(), "--as", "north"])
        .stdout
        .contains("south offers a draw"));
    assert_eq!(mv("north", &legal[1], false).code, 0);
    let r = mv("south", "accept-draw", false);
    assert_eq!(r.code, 1, "south cannot accept its own lapsed offer");
    assert_set_aside(&g.dir, "moves/0003-south.toml");
    // Offered and accepted: a draw, recorded and audited.
    assert_eq!(mv("south", &legal[2], true).code, 0);
    let r = mv("north", "accept-draw", false);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("game over: draw (agreement)"), "{r:?}");
    assert!(g
        .read("moves/0003-south.toml")
        .contains("offer_draw = true"));
    ok(&["reveal", g.dir.to_str().unwrap()]);
    ok(&["verify", g.dir.to_str().unwrap()]);
}

/// In Luzhanqi the views carry each seat's last move file with its signature, so a judge run
/// reads the signature file of those moves only: a recorded move's `.sig` that its seat has
/// since followed with another move is not read (the judge checked it when it took the file),
/// and its loss does not stop the judge, while `verify`, which trusts no record, names it. The
/// last move's signature still reaches the opponent's view as it stands.
#[test]
fn a_judge_run_reads_only_the_signatures_its_views_carry() {
    let g = TestGame::started(&[]);
    assert_eq!(g.play("south", "a6-a7").code, 0);
    assert_eq!(g.play("north", "e7-e6").code, 0);
    assert_eq!(g.play("south", "a7-a8").code, 0, "{:?}", g.judge());
    let views = g.read("views/north.json");
    std::fs::remove_file(std::path::Path::new(&g.d()).join("moves/0001-south.toml.sig")).unwrap();
    let again = g.judge();
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(
        g.read("views/north.json"),
        views,
        "the views are as they were"
    );
    let v: serde_json::Value = serde_json::from_str(&views).unwrap();
    let last = &v["opponent_last_move"];
    assert_eq!(last["file"], g.read("moves/0003-south.toml").as_str());
    assert_eq!(
        last["signature"],
        g.read("moves/0003-south.toml.sig").as_str()
    );
    // The game goes on to its end and its reveal, which `verify` audits.
    assert!(g.play("north", "resign").stdout.contains("game over"));
    ok(&["reveal", &g.d()]);
    let audit = qj(&["verify", &g.d()]);
    assert_eq!(audit.code, 1, "{audit:?}");
    assert!(
        audit.stderr.contains("moves/0001-south.toml.sig"),
        "{audit:?}"
    );
}
