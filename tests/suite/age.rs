//! Interoperability of sealed files with the `age` command-line tool, both ways: what qijudge
//! seals, `age -d -i KEY` opens; an envelope written by hand with standard tools (printf,
//! `ssh-keygen -Y sign`, `age -R`) is accepted by the judge.

use super::helpers::*;
use std::path::Path;
use std::process::Command;

fn age(args: &[&str]) -> std::process::Output {
    let out = Command::new("age")
        .args(args)
        .output()
        .expect("age must be installed (.ci/run installs it)");
    assert!(
        out.status.success(),
        "age {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A sealed game whose two seats have committed and sealed their setups.
fn sealed_game() -> TestGame {
    TestGame::sealed()
}

fn decrypt(file: &Path, key: &str) -> Vec<u8> {
    age(&["-d", "-i", key, &file.to_string_lossy()]).stdout
}

#[test]
fn the_age_tool_opens_what_qijudge_seals() {
    let g = sealed_game();
    // The setup: sealed to the judge and to its owner, padded to 8192 bytes.
    let sealed = g.dir.join("sealed/south.age");
    for key in ["judge", "alice"] {
        let plain = decrypt(&sealed, &g.keys.path(key));
        assert_eq!(plain.len(), 8192);
        let text = String::from_utf8(plain).unwrap();
        assert!(
            text.starts_with("qijudge-sealed 1\nfile setups/south.toml "),
            "{text}"
        );
        assert!(text.contains("file setups/south.toml.sig "), "{text}");
        assert!(text.contains("-----BEGIN SSH SIGNATURE-----"));
        assert!(text.trim_end_matches('\n').ends_with("end"));
    }
    let bob = Command::new("age")
        .args(["-d", "-i", &g.keys.path("bob"), &sealed.to_string_lossy()])
        .output()
        .unwrap();
    assert!(!bob.status.success(), "the opponent cannot open a setup");

    // The views: each seat's opens with its key, both padded to one size.
    ok(&[
        "judge",
        &g.d(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        NOW,
    ]);
    let south = decrypt(&g.dir.join("views/south.age"), &g.keys.path("alice"));
    let north = decrypt(&g.dir.join("views/north.age"), &g.keys.path("bob"));
    assert_eq!(south.len(), north.len());
    let south = String::from_utf8(south).unwrap();
    assert!(south.contains("file views/south.json "), "{south}");
    assert!(south.contains("\"audience\": \"south\""));
    // What age printed is exactly what qijudge reads: the signed JSON inside.
    let view = ok(&[
        "view",
        &g.d(),
        "--as",
        "south",
        "--key",
        &g.keys.path("alice"),
        "--format",
        "json",
    ]);
    assert!(south.contains(&view.stdout));
}

/// South's setup file, taken out of its sealed envelope with the age tool.
fn sealed_setup_text(g: &TestGame) -> String {
    let plain = decrypt(&g.dir.join("sealed/south.age"), &g.keys.path("alice"));
    let plain = String::from_utf8(plain).unwrap();
    let header = "file setups/south.toml ";
    let start = plain.find(header).unwrap() + header.len();
    let nl = start + plain[start..].find('\n').unwrap();
    let len: usize = plain[start..nl].parse().unwrap();
    plain[nl + 1..nl + 1 + len].to_string()
}

/// An envelope made by hand: the setup signed by alice with ssh-keygen under `namespace`, in
/// the documented layout, padded with line feeds to `size`.
fn envelope_by_hand(g: &TestGame, setup: &str, namespace: &str, size: usize) -> Vec<u8> {
    let work = tempfile::tempdir().unwrap();
    let setup_file = work.path().join("south.toml");
    std::fs::write(&setup_file, setup).unwrap();
    let key = g.keys.path("alice");
    let signed = Command::new("ssh-keygen")
        .args(["-Y", "sign", "-q", "-n", namespace, "-f", &key])
        .arg(&setup_file)
        .output()
        .expect("ssh-keygen must be installed");
    assert!(signed.status.success(), "{signed:?}");
    let sig = std::fs::read_to_string(work.path().join("south.toml.sig")).unwrap();
    let mut envelope = format!(
        "qijudge-sealed 1\nfile setups/south.toml {}\n{setup}\nfile setups/south.toml.sig {}\n{sig}\nend\n",
        setup.len(),
        sig.len()
    )
    .into_bytes();
    envelope.resize(size, b'\n');
    envelope
}

/// Replaces south's sealed setup by `envelope` encrypted to the judge with the age tool.
fn seal_with_age_tool(g: &TestGame, envelope: &[u8]) {
    let file = g.tmp.path().join("envelope");
    std::fs::write(&file, envelope).unwrap();
    let out = g.dir.join("sealed/south.age");
    std::fs::remove_file(&out).unwrap();
    let recipient = format!("{}.pub", g.keys.path("judge"));
    age(&[
        "-R",
        &recipient,
        "-o",
        out.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
}

#[test]
fn the_judge_accepts_a_setup_sealed_by_hand_with_ssh_keygen_and_age() {
    let g = sealed_game();
    let setup = sealed_setup_text(&g);
    seal_with_age_tool(&g, &envelope_by_hand(&g, &setup, "qijudge-sealed", 8192));
    let r = g.judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("setup of south accepted"), "{r:?}");
    assert!(r.stdout.contains("play begins"), "{r:?}");

    // Unpadded, or signed under another namespace: refused, naming the sealed file only; the
    // reason is sealed to south.
    for (namespace, size, reason) in [
        ("qijudge-sealed", 8191, "padded to exactly 8192"),
        ("qijudge-move", 8192, "namespace"),
    ] {
        let g = sealed_game();
        let setup = sealed_setup_text(&g);
        seal_with_age_tool(&g, &envelope_by_hand(&g, &setup, namespace, size));
        let r = g.judge();
        assert_eq!(r.code, 1, "{r:?}");
        assert!(r.stderr.contains("sealed/south.age"), "{r:?}");
        let salt = setup.lines().find(|l| l.starts_with("salt = ")).unwrap();
        let salt = salt.split('"').nth(1).unwrap();
        assert!(
            !r.stderr.contains(salt),
            "a refusal quotes no secret: {r:?}"
        );
        assert!(!r.stderr.contains(reason), "the reason is private: {r:?}");
        let notice = g.dir.join("views/south.refusal.age");
        let said = String::from_utf8(decrypt(&notice, &g.keys.path("alice"))).unwrap();
        assert!(said.contains(reason), "{said}");
    }
}

#[test]
fn a_sealed_liubo_game_hands_its_seeds_to_the_judge_only() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let dir = tmp.path().join("lb");
    let d = dir.to_string_lossy().into_owned();
    new_sealed("liubo", &dir, &keys);
    for (seat, key) in [("a", "alice"), ("b", "bob")] {
        ok(&["setup", &d, "--as", seat, "--key", &keys.path(key)]);
    }
    assert!(!dir.join("setups").exists());
    let seed = decrypt(&dir.join("sealed/a.age"), &keys.path("judge"));
    assert_eq!(seed.len(), 8192);
    assert!(String::from_utf8_lossy(&seed).contains("file setups/a.toml "));
    let bob = Command::new("age")
        .args(["-d", "-i", &keys.path("bob")])
        .arg(dir.join("sealed/a.age"))
        .output()
        .unwrap();
    assert!(!bob.status.success(), "the opponent cannot open a seed");
    let r = ok(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW]);
    assert!(r.stdout.contains("throw 1"), "{r:?}");
    assert_eq!(qj(&["reveal", &d, "--key", &keys.path("judge")]).code, 1);
    let first = if r.stdout.contains("chose a") {
        ("a", "alice")
    } else {
        ("b", "bob")
    };
    ok(&[
        "move",
        &d,
        "--as",
        first.0,
        "--key",
        &keys.path(first.1),
        "resign",
    ]);
    ok(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW]);
    ok(&["reveal", &d, "--key", &keys.path("judge")]);
    let v = ok(&["verify", &d]);
    assert!(v.stdout.contains("both revealed seeds rebuild"), "{v:?}");
}

#[test]
fn sealed_views_have_one_size_fixed_by_the_public_view() {
    use qijudge::protocol::seal::view_size;
    let g = sealed_game();
    ok(&[
        "judge",
        &g.d(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        NOW,
    ]);
    let moves = random_moves(
        &fixed_setups(),
        qijudge::games::luzhanqi::rules::Options::default(),
        40,
        11,
    );
    for (i, mv) in moves.iter().enumerate() {
        let r = g.play(seat_of_ply(i + 1), mv);
        assert_eq!(r.code, 0, "{r:?}");
        let public: usize = ["json", "json.sig", "txt", "txt.sig"]
            .iter()
            .map(|ext| g.read(&format!("views/public.{ext}")).len())
            .sum();
        let south = decrypt(&g.dir.join("views/south.age"), &g.keys.path("judge"));
        let north = decrypt(&g.dir.join("views/north.age"), &g.keys.path("judge"));
        assert_eq!(south.len(), view_size(public), "ply {}", i + 1);
        assert_eq!(north.len(), south.len(), "ply {}", i + 1);
    }
}

#[test]
fn sealed_options_and_keys_are_refused_where_they_do_not_apply() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let players = |game: &str, dir: &str| {
        vec![
            "new".to_string(),
            game.into(),
            tmp.path().join(dir).to_string_lossy().into_owned(),
            "--player".into(),
            format!("alice={}.pub", keys.path("alice")),
            "--player".into(),
            format!("bob={}.pub", keys.path("bob")),
            "--judge".into(),
            format!("{}.pub", keys.path("judge")),
            "--sealed".into(),
        ]
    };
    let run = |args: Vec<String>| qj(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let xq = run(players("xiangqi", "xq"));
    assert_eq!(xq.code, 2, "{xq:?}");
    assert!(
        xq.stderr
            .contains("Xiangqi hides nothing (nothing to seal)"),
        "{xq:?}"
    );
    let mut self_mode = players("liubo", "lb");
    self_mode.extend(["--rule".into(), "dice_mode=self".into()]);
    let lb = run(self_mode);
    assert_eq!(lb.code, 2, "{lb:?}");
    assert!(lb.stderr.contains("self mode"), "{lb:?}");

    // --seal in a game whose judge reads setups in clear.
    let open = TestGame::new(&[]);
    let file = open.tmp.path().join("s.toml");
    std::fs::write(&file, SOUTH_ROWS).unwrap();
    let r = qj(&[
        "setup",
        &open.d(),
        "--as",
        "south",
        "--key",
        &open.keys.path("alice"),
        "--seal",
        &file.to_string_lossy(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("reads setups in clear"), "{r:?}");
    assert!(!open.dir.join("commitments/south.toml").exists());
}

#[test]
fn sealed_views_open_only_as_their_own_audience_and_reveals_only_with_a_key_that_opens() {
    let g = sealed_game();
    assert_eq!(g.judge().code, 0);
    let view = |args: &[&str]| {
        let mut all = vec!["view", g.dir.to_str().unwrap()];
        all.extend_from_slice(args);
        qj(&all)
    };
    let no_key = view(&["--as", "south"]);
    assert_eq!(no_key.code, 1);
    assert!(no_key.stderr.contains("--key"), "{no_key:?}");
    // The judge's key opens every sealed view; each says whose it is.
    let judge_key = g.keys.path("judge");
    assert_eq!(view(&["--as", "north", "--key", &judge_key]).code, 0);
    std::fs::copy(g.dir.join("views/north.age"), g.dir.join("views/south.age")).unwrap();
    let swapped = view(&["--as", "south", "--key", &judge_key]);
    assert_eq!(swapped.code, 1, "{swapped:?}");
    assert!(
        swapped.stderr.contains("missing inside the sealed view"),
        "{swapped:?}"
    );
    // In clear, a view signed for north and put in south's place says whose it is.
    let (_tmp, sample) = sample_copy();
    for ext in ["json", "json.sig"] {
        let from = sample.join(format!("views/north.{ext}"));
        std::fs::copy(from, sample.join(format!("views/south.{ext}"))).unwrap();
    }
    let clear = qj(&["view", sample.to_str().unwrap(), "--as", "south"]);
    assert_eq!(clear.code, 1, "{clear:?}");
    assert!(clear.stderr.contains("is not south's view"), "{clear:?}");
    let svg = view(&["--as", "north", "--key", &judge_key, "--format", "svg"]);
    assert!(svg.stdout.starts_with("<svg"), "{svg:?}");

    // Reveals: after the end, each key opens what is sealed to it, a stranger's opens nothing.
    g.play("south", "resign");
    let reveal = |key: &str| qj(&["reveal", &g.d(), "--key", &g.keys.path(key)]);
    let stranger = reveal("mallory");
    assert_eq!(stranger.code, 1, "{stranger:?}");
    assert!(stranger.stderr.contains("opens none"), "{stranger:?}");
    let own = reveal("bob");
    assert_eq!(own.code, 0, "{own:?}");
    assert!(g.dir.join("reveal/north.toml").exists());
    assert!(!g.dir.join("reveal/south.toml").exists());
    assert_eq!(reveal("judge").code, 0);
    ok(&["verify", &g.d()]);
}

#[test]
fn every_game_draws_its_view_as_svg() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for game in qijudge::games::registry::names() {
        let g = qijudge::games::by_name(game).unwrap();
        let dir = root.join(&samples_of(game)[0]);
        let audience = &g.audiences(&dir).unwrap()[0];
        let r = ok(&[
            "view",
            dir.to_str().unwrap(),
            "--as",
            audience,
            "--format",
            "svg",
        ]);
        assert!(r.stdout.starts_with("<svg"), "{game}: {r:?}");
    }
}
