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
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let dir = tmp.path().join("game");
    new_sealed("luzhanqi", &dir, &keys);
    let g = TestGame { tmp, dir, keys };
    g.setup("south", SOUTH_ROWS);
    g.setup("north", NORTH_ROWS);
    g
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

#[test]
fn the_judge_accepts_a_setup_sealed_by_hand_with_ssh_keygen_and_age() {
    let g = sealed_game();
    // Take south's setup file out of its sealed envelope (age), then build a new envelope by
    // hand: sign with ssh-keygen, write the documented layout, pad, encrypt with age.
    let plain = String::from_utf8(decrypt(
        &g.dir.join("sealed/south.age"),
        &g.keys.path("alice"),
    ))
    .unwrap();
    let header = "file setups/south.toml ";
    let start = plain.find(header).unwrap() + header.len();
    let nl = start + plain[start..].find('\n').unwrap();
    let len: usize = plain[start..nl].parse().unwrap();
    let setup = &plain[nl + 1..nl + 1 + len];
    let work = g.tmp.path().join("by-hand");
    std::fs::create_dir(&work).unwrap();
    let setup_file = work.join("south.toml");
    std::fs::write(&setup_file, setup).unwrap();
    let signed = Command::new("ssh-keygen")
        .args([
            "-Y",
            "sign",
            "-q",
            "-n",
            "qijudge-sealed",
            "-f",
            &g.keys.path("alice"),
        ])
        .arg(&setup_file)
        .output()
        .expect("ssh-keygen must be installed");
    assert!(signed.status.success(), "{signed:?}");
    let sig = std::fs::read_to_string(work.join("south.toml.sig")).unwrap();
    let mut envelope = format!(
        "qijudge-sealed 1\nfile setups/south.toml {}\n{setup}\nfile setups/south.toml.sig {}\n{sig}\nend\n",
        setup.len(),
        sig.len()
    )
    .into_bytes();
    envelope.resize(8192, b'\n');
    let envelope_file = work.join("envelope");
    std::fs::write(&envelope_file, &envelope).unwrap();
    let out = g.dir.join("sealed/south.age");
    std::fs::remove_file(&out).unwrap();
    age(&[
        "-R",
        &format!("{}.pub", g.keys.path("judge")),
        "-o",
        &out.to_string_lossy(),
        &envelope_file.to_string_lossy(),
    ]);
    let r = ok(&[
        "judge",
        &g.d(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        NOW,
    ]);
    assert!(r.stdout.contains("setup of south accepted"), "{r:?}");
    assert!(r.stdout.contains("play begins"), "{r:?}");

    // Unpadded, or signed under another namespace: refused, naming the sealed file only.
    let g = sealed_game();
    let out = g.dir.join("sealed/south.age");
    std::fs::write(&envelope_file, &envelope[..envelope.len() - 1]).unwrap();
    std::fs::remove_file(&out).unwrap();
    age(&[
        "-R",
        &format!("{}.pub", g.keys.path("judge")),
        "-o",
        &out.to_string_lossy(),
        &envelope_file.to_string_lossy(),
    ]);
    let r = qj(&[
        "judge",
        &g.d(),
        "--key",
        &g.keys.path("judge"),
        "--now",
        NOW,
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("sealed/south.age"), "{r:?}");
    assert!(
        !r.stderr.contains("salt"),
        "a refusal quotes nothing of the secret: {r:?}"
    );
    let notice = g.dir.join("views/south.refusal.age");
    let reason = String::from_utf8(decrypt(&notice, &g.keys.path("alice"))).unwrap();
    assert!(reason.contains("padded to exactly 8192"), "{reason}");
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
        qijudge::rules::luzhanqi::Options::default(),
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
