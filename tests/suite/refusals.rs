//! One test per refusal: exit code 1, a message naming file and field, nothing changed.

use super::helpers::*;
use qijudge::games::luzhanqi::referee::Manifest;
use qijudge::protocol::commitment::{lot_commitment, setup_commitment};
use qijudge::protocol::files::*;
use qijudge::protocol::record::Record;
use qijudge::protocol::signing::namespace;

/// Judges and expects a refusal naming `file`, whose details (on stderr, or in the owner's
/// refusal file when they are private) contain every piece of `expect`. No input may change,
/// but a refused candidate is set aside (moved byte for byte into `refused/`).
fn refused(g: &TestGame, file: &str, expect: &[&str]) -> Run {
    let before = inputs(&g.dir);
    let r = g.judge();
    assert_eq!(r.code, 1, "expected a refusal: {r:?}");
    assert!(
        r.stderr.starts_with(&format!("refused: {file}")),
        "{file} not named first: {}",
        r.stderr
    );
    let details = private_details(g, &r);
    for e in expect {
        assert!(details.contains(e), "{e:?} missing from: {details}");
    }
    assert_inputs_kept(&before, &g.dir);
    r
}

/// The full reason of a refusal: stderr, or the owner's refusal file when it is private, in
/// which case stderr must carry nothing but the file, the field and the reason code.
fn private_details(g: &TestGame, r: &Run) -> String {
    match r.stderr.split("the reason went to ").nth(1) {
        Some(rest) => {
            let seat = rest.split_whitespace().next().unwrap();
            assert!(
                r.stderr.contains(" [") && r.stderr.lines().count() == 1,
                "public form: {}",
                r.stderr
            );
            g.read(&format!("views/{seat}.refusal.txt"))
        }
        None => r.stderr.clone(),
    }
}

/// Writes a move file with its signature, as a player (or a forger) would.
fn write_move(g: &TestGame, path: &str, file: &MoveFile, signer: &str) {
    let text = to_toml(file);
    g.write(
        &format!("{path}.sig"),
        &sign_as(&g.keys, signer, namespace::MOVE, &text),
    );
    g.write(path, &text);
}

fn head(g: &TestGame) -> String {
    let manifest_hash = qijudge::protocol::hash::sha256_tagged(g.read("game.toml").as_bytes());
    Record::parse(&g.read("record.jsonl"), &manifest_hash)
        .unwrap()
        .head_or("")
}

fn move_file(g: &TestGame, ply: u32, seat: &str, action: &str) -> MoveFile {
    let manifest: Manifest = toml::from_str(&g.read("game.toml")).unwrap();
    MoveFile {
        format: MOVE_FORMAT.into(),
        game: manifest.id,
        manifest: qijudge::protocol::hash::sha256_tagged(g.read("game.toml").as_bytes()),
        ply,
        seat: seat.into(),
        answers: head(g),
        action: action.into(),
        offer_draw: false,
        comment: None,
        chain_index: None,
        chain: None,
    }
}

#[test]
fn bad_signature() {
    let g = TestGame::started(&[]);
    g.send("south", "a6-a7");
    let text = g.read("moves/0001-south.toml").replace("a6-a7", "a6-a8");
    g.write("moves/0001-south.toml", &text);
    refused(
        &g,
        "moves/0001-south.toml.sig",
        &[
            "does not match the file",
            "the judge keeps the refused file apart in refused/",
        ],
    );
}

#[test]
fn unknown_key() {
    let g = TestGame::started(&[]);
    write_move(
        &g,
        "moves/0001-south.toml",
        &move_file(&g, 1, "south", "a6-a7"),
        "mallory",
    );
    refused(&g, "moves/0001-south.toml.sig", &["different key"]);
    // And the move command will not sign for a seat with someone else's key.
    let as_north_with = |who: &str| {
        let r = qj(&[
            "move",
            &g.d(),
            "--as",
            "north",
            "--key",
            &g.keys.path(who),
            "a7-a6",
        ]);
        assert_eq!(r.code, 1, "{r:?}");
        r
    };
    let r = as_north_with("alice");
    assert!(
        r.stderr.contains("is not north's key in game.toml"),
        "{r:?}"
    );
    // The hint says whose key it is, or which key the seat needs.
    assert!(
        r.stderr
            .contains("hint: this key is south's in game.toml: play as south (--as south)"),
        "{r:?}"
    );
    let r = as_north_with("judge");
    assert!(
        r.stderr.contains(
            "hint: give the private key whose public half game.toml names for north (SHA256:"
        ),
        "{r:?}"
    );
}

#[test]
fn signature_for_another_purpose() {
    let g = TestGame::started(&[]);
    let text = to_toml(&move_file(&g, 1, "south", "a6-a7"));
    g.write(
        "moves/0001-south.toml.sig",
        &sign_as(&g.keys, "alice", namespace::COMMITMENT, &text),
    );
    g.write("moves/0001-south.toml", &text);
    refused(
        &g,
        "moves/0001-south.toml.sig",
        &["namespace \"qijudge-commitment\""],
    );
}

#[test]
fn wrong_game() {
    let g = TestGame::started(&[]);
    let mut m = move_file(&g, 1, "south", "a6-a7");
    m.game = "lzq-00000000000000000000000000000000".into();
    write_move(&g, "moves/0001-south.toml", &m, "alice");
    refused(&g, "moves/0001-south.toml", &["field game", "another game"]);
}

#[test]
fn wrong_ply() {
    let g = TestGame::started(&[]);
    assert_eq!(g.play("south", "a6-a7").code, 0);
    // A replay of ply 1 under the name of ply 2.
    let m = move_file(&g, 1, "north", "e7-e8");
    write_move(&g, "moves/0002-north.toml", &m, "bob");
    refused(&g, "moves/0002-north.toml", &["field ply", "says 1"]);
}

#[test]
fn ply_ahead_of_the_game() {
    let g = TestGame::started(&[]);
    write_move(
        &g,
        "moves/0003-south.toml",
        &move_file(&g, 3, "south", "a6-a7"),
        "alice",
    );
    refused(&g, "moves/0003-south.toml", &["field ply", "ply 1 is next"]);
}

#[test]
fn out_of_turn() {
    let g = TestGame::started(&[]);
    g.send("north", "e8-e9");
    refused(
        &g,
        "moves/0001-north.toml",
        &["field seat", "out of turn: south is to move"],
    );
}

#[test]
fn stale_record_head() {
    let g = TestGame::started(&[]);
    let mut stale = move_file(&g, 2, "north", "c7-c6");
    assert_eq!(g.play("south", "a6-a7").code, 0);
    stale.ply = 2;
    write_move(&g, "moves/0002-north.toml", &stale, "bob");
    refused(
        &g,
        "moves/0002-north.toml",
        &[
            "field answers",
            "old record head",
            "fetch the current record",
        ],
    );
}

#[test]
fn illegal_move_with_its_reason() {
    let g = TestGame::started(&[]);
    g.send("south", "a1-a2");
    let r = refused(
        &g,
        "moves/0001-south.toml",
        &["field move", "your landmine on a1 never moves"],
    );
    // The public log names the file, the field and a code, never South's piece.
    assert!(
        !r.stderr.contains("landmine") && !r.stderr.contains("a1"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("[move.move]"), "{}", r.stderr);
    assert_set_aside(&g.dir, "moves/0001-south.toml");
    g.send("south", "c6-c8");
    refused(
        &g,
        "moves/0001-south.toml",
        &["field move", "cannot reach c8"],
    );
}

#[test]
fn commitment_mismatch() {
    let g = TestGame::new(&[]);
    g.setup("south", SOUTH_ROWS);
    g.setup("north", NORTH_ROWS);
    let secret = g.read("setups/north.toml").replace("a12:MJ", "a12:XX");
    g.write("setups/north.toml", &secret);
    refused(
        &g,
        "setups/north.toml",
        &["field setup", "does not match the published commitment"],
    );
}

#[test]
fn illegal_setup_matching_its_commitment() {
    let g = TestGame::new(&[]);
    g.setup("south", SOUTH_ROWS);
    // North commits to a setup with its flag outside a headquarters: the judge refuses it on receipt.
    let manifest: Manifest = toml::from_str(&g.read("game.toml")).unwrap();
    let hash = qijudge::protocol::hash::sha256_tagged(g.read("game.toml").as_bytes());
    let legal = fixed_setups()[1].canonical_bytes(qijudge::games::luzhanqi::rules::two_player());
    let illegal = String::from_utf8(legal)
        .unwrap()
        .replace("c12:LM", "c12:XX")
        .replace("d12:FL", "d12:LM")
        .replace("c12:XX", "c12:FL");
    let (salt, nonce) = ([7u8; 32], [9u8; 32]);
    let secret = SetupFile {
        format: SETUP_FORMAT.into(),
        game: manifest.id.clone(),
        manifest: hash.clone(),
        seat: "north".into(),
        salt: hex::encode(salt),
        lot_nonce: hex::encode(nonce),
        setup: illegal.clone(),
    };
    let commitment = CommitmentFile {
        format: COMMITMENT_FORMAT.into(),
        game: manifest.id.clone(),
        manifest: hash,
        seat: "north".into(),
        setup: setup_commitment(&manifest.id, "north", &salt, illegal.as_bytes()),
        lot: lot_commitment(&manifest.id, "north", &nonce),
    };
    let text = to_toml(&commitment);
    g.write(
        "commitments/north.toml.sig",
        &sign_as(&g.keys, "bob", namespace::COMMITMENT, &text),
    );
    g.write("commitments/north.toml", &text);
    std::fs::create_dir_all(g.dir.join("setups")).unwrap();
    g.write("setups/north.toml", &to_toml(&secret));
    // No other file can open North's commitment, so the game cannot wait for one: North
    // forfeits, and nothing public describes its setup.
    let r = g.judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("north forfeits (illegal-setup)")
            && r.stdout.contains("south wins (forfeit)"),
        "{r:?}"
    );
    // A square named with its piece ("c12:FL") is how a setup would leak. (A bare "c12" may
    // occur by chance in the game id and the record head, which are hex digests.)
    assert!(!format!("{r:?}").contains("c12:"), "{r:?}");
    let public = g.read("views/public.txt");
    let shown: Vec<&str> = public.lines().skip(2).collect();
    assert!(!shown.join("\n").contains("c12"), "{public}");
    assert!(
        g.dir.join("setups/north.toml").exists(),
        "an input was moved"
    );
}

#[test]
fn illegal_setup_is_refused_before_committing() {
    let g = TestGame::new(&[]);
    let bad = SOUTH_ROWS.replace("\"CO CP LT CP BG\"", "\"CO CP LT BM BG\"");
    let r = g.setup("south", &bad);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("d6: a bomb may not stand on the front rank"),
        "{r:?}"
    );
    assert!(r.stderr.contains("2 × captain, expected 3"), "{r:?}");
    assert!(!g.dir.join("commitments/south.toml").exists());
}

#[test]
fn missing_setup_waits_and_blocks_moves() {
    let g = TestGame::new(&[]);
    g.setup("south", SOUTH_ROWS);
    g.setup("north", NORTH_ROWS);
    std::fs::remove_file(g.dir.join("setups/north.toml")).unwrap();
    let r = g.judge();
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("waiting for every seat's setup"), "{r:?}");
    let m = qj(&[
        "move",
        &g.d(),
        "--as",
        "south",
        "--key",
        &g.keys.path("alice"),
        "a6-a7",
    ]);
    assert_eq!(m.code, 1);
    assert!(m.stderr.contains("play has not begun"), "{m:?}");
}

#[test]
fn malformed_toml_even_when_signed() {
    let g = TestGame::started(&[]);
    let text = "format = \"qijudge/move/1\"\nply = [\n";
    g.write(
        "moves/0001-south.toml.sig",
        &sign_as(&g.keys, "alice", namespace::MOVE, text),
    );
    g.write("moves/0001-south.toml", text);
    refused(&g, "moves/0001-south.toml", &["not valid"]);
}

#[test]
fn unknown_fields() {
    let g = TestGame::started(&[]);
    let text = format!(
        "{}extra = \"x\"\n",
        to_toml(&move_file(&g, 1, "south", "a6-a7"))
    );
    g.write(
        "moves/0001-south.toml.sig",
        &sign_as(&g.keys, "alice", namespace::MOVE, &text),
    );
    g.write("moves/0001-south.toml", &text);
    refused(&g, "moves/0001-south.toml", &["unknown field `extra`"]);
}

#[test]
fn oversized_files() {
    let g = TestGame::started(&[]);
    let mut m = move_file(&g, 1, "south", "a6-a7");
    m.comment = Some("x".repeat(70_000));
    write_move(&g, "moves/0001-south.toml", &m, "alice");
    refused(&g, "moves/0001-south.toml", &["too large"]);
}

#[test]
fn non_canonical_bytes() {
    let g = TestGame::started(&[]);
    let text =
        to_toml(&move_file(&g, 1, "south", "a6-a7")).replace("move = \"a6-a7\"", "move = 'a6-a7'");
    g.write(
        "moves/0001-south.toml.sig",
        &sign_as(&g.keys, "alice", namespace::MOVE, &text),
    );
    g.write("moves/0001-south.toml", &text);
    refused(&g, "moves/0001-south.toml", &["canonical form", "line 7"]);
}

#[test]
fn a_refused_move_keeps_what_came_before() {
    let g = TestGame::started(&[]);
    g.send("south", "a6-a7");
    // The judge has not run yet; north's file answers the current head, so it is stale once ply 1 lands.
    write_move(
        &g,
        "moves/0002-north.toml",
        &move_file(&g, 2, "north", "e7-e8"),
        "bob",
    );
    let r = g.judge();
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("ply 1: south a6-a7"), "{r:?}");
    assert!(
        r.stderr.contains("moves/0002-north.toml: field answers"),
        "{r:?}"
    );
    assert!(g.read("record.jsonl").contains("\"ply\":1"));
}
