//! Signing as players do it: a public key given by mistake, a passphrase-protected key asked for
//! on a terminal (and refused without one), and a key held in a real `ssh-agent`.

use super::helpers::*;
use std::path::Path;
use std::process::Command;

fn answer_script() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tty/answer.py")
        .to_string_lossy()
        .into_owned()
}

/// Copies alice's key to `name` and protects the copy with `passphrase` (ssh-keygen -p).
fn protected_copy(g: &TestGame, name: &str, passphrase: &str) -> String {
    let copy = g.tmp.path().join(name);
    std::fs::copy(g.keys.path("alice"), &copy).unwrap();
    let out = Command::new("ssh-keygen")
        .args(["-q", "-p", "-P", "", "-N", passphrase, "-f"])
        .arg(&copy)
        .output()
        .expect("ssh-keygen runs (CI installs openssh-client)");
    assert!(out.status.success(), "{out:?}");
    copy.to_string_lossy().into_owned()
}

/// Runs qijudge on a pseudo-terminal that answers `passphrase` when asked; its status and what
/// it wrote to the terminal.
fn at_terminal(args: &[&str], passphrase: &str) -> (std::process::ExitStatus, String) {
    let out = Command::new("python3")
        .arg(answer_script())
        .arg(passphrase)
        .arg(env!("CARGO_BIN_EXE_qijudge"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn first_move(g: &TestGame) -> String {
    ok(&["moves", &g.d(), "--as", "south"])
        .stdout
        .lines()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_public_key_given_for_signing_is_named_as_such() {
    let g = TestGame::started(&[]);
    let public = format!("{}.pub", g.keys.path("alice"));
    let r = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args([
            "move",
            &g.d(),
            "--as",
            "south",
            "--key",
            &public,
            &first_move(&g),
        ])
        .env_remove("SSH_AUTH_SOCK")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(
        err.contains("is a public key") && err.contains("ssh-agent"),
        "{err}"
    );
    assert!(!err.contains("PEM"), "{err}");
    // Where a private key is the only thing that works (the judge's key), the hint says so.
    let r = qj(&[
        "judge",
        &g.d(),
        "--key",
        &format!("{}.pub", g.keys.path("judge")),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("is a public key") && r.stderr.contains("not the .pub"),
        "{r:?}"
    );
    assert!(!g.dir.join("moves/0001-south.toml").exists());
}

#[test]
fn a_passphrase_protected_key_signs_after_the_passphrase_is_typed() {
    let g = TestGame::started(&[]);
    let key = protected_copy(&g, "alice-protected", "correct horse");
    let mv = first_move(&g);
    let bin = env!("CARGO_BIN_EXE_qijudge");
    // A wrong passphrase: refused, nothing written.
    let (wrong, said) = at_terminal(
        &["move", &g.d(), "--as", "south", "--key", &key, &mv],
        "wrong",
    );
    assert_eq!(wrong.code(), Some(1), "{said}");
    // Asked three times, as ssh asks, then refused.
    assert_eq!(said.matches("Enter passphrase for").count(), 3, "{said}");
    assert!(said.contains("does not open this key"), "{said}");
    assert!(
        !said.contains("wrong"),
        "the passphrase is not echoed: {said}"
    );
    assert!(!g.dir.join("moves/0001-south.toml").exists());
    // No terminal at all (setsid: no controlling terminal): refused with the ways that work.
    let none = Command::new("setsid")
        .args([
            "-w",
            bin,
            "move",
            &g.d(),
            "--as",
            "south",
            "--key",
            &key,
            &mv,
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&none.stderr);
    assert_eq!(none.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no terminal to ask for it") && err.contains("ssh-add"),
        "{err}"
    );
    // The right one: the move is signed and the judge takes it.
    let (right, said) = at_terminal(
        &["move", &g.d(), "--as", "south", "--key", &key, &mv],
        "correct horse",
    );
    assert_eq!(right.code(), Some(0), "{said}");
    assert!(!said.contains("correct horse"), "not echoed: {said}");
    let r = g.judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(ok(&["status", &g.d()])
        .stdout
        .contains("north to move (ply 2)"));
}

/// A real agent on its own socket, stopped when dropped.
struct Agent {
    socket: std::path::PathBuf,
    pid: String,
}

impl Agent {
    fn start(dir: &Path) -> Agent {
        let socket = dir.join("agent.sock");
        let out = Command::new("ssh-agent")
            .arg("-a")
            .arg(&socket)
            .output()
            .expect("ssh-agent runs (CI installs openssh-client)");
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        let pid = text
            .split("SSH_AGENT_PID=")
            .nth(1)
            .and_then(|s| s.split(';').next())
            .expect("ssh-agent prints its pid")
            .to_string();
        Agent { socket, pid }
    }

    fn add(&self, key: &str) {
        let out = Command::new("ssh-add")
            .arg(key)
            .env("SSH_AUTH_SOCK", &self.socket)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(&self.pid).status();
    }
}

#[test]
fn a_key_held_in_ssh_agent_signs_moves_and_commitments() {
    let g = TestGame::new(&[]);
    let agent = Agent::start(g.tmp.path());
    let bin = env!("CARGO_BIN_EXE_qijudge");
    let alice_pub = format!("{}.pub", g.keys.path("alice"));
    let run = |args: &[&str]| {
        Command::new(bin)
            .args(args)
            .env("SSH_AUTH_SOCK", &agent.socket)
            .output()
            .unwrap()
    };
    // Before the key is loaded, the agent refuses and says how to load it; nothing is written.
    let setup = g.tmp.path().join("south-setup.toml");
    std::fs::write(&setup, SOUTH_ROWS).unwrap();
    let setup_s = setup.to_string_lossy().into_owned();
    let commit = [
        "setup",
        &g.d(),
        "--as",
        "south",
        "--key",
        &alice_pub,
        &setup_s,
    ];
    let r = run(&commit);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_ne!(r.status.code(), Some(0), "{err}");
    assert!(err.contains("ssh-add -l"), "{err}");
    assert!(!g.dir.join("commitments/south.toml").exists());
    agent.add(&g.keys.path("alice"));
    let r = run(&commit);
    assert!(r.status.success(), "{r:?}");
    g.setup("north", NORTH_ROWS);
    assert_eq!(g.judge().code, 0);
    let mv = first_move(&g);
    let r = run(&["move", &g.d(), "--as", "south", "--key", &alice_pub, &mv]);
    assert!(r.status.success(), "{r:?}");
    // The judge checks the agent's signatures like any other: both accepted.
    let r = g.judge();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(ok(&["status", &g.d()])
        .stdout
        .contains("north to move (ply 2)"));
    // Another seat's public key in the agent signs nothing for south.
    let bob_pub = format!("{}.pub", g.keys.path("bob"));
    let r = run(&["move", &g.d(), "--as", "south", "--key", &bob_pub, &mv]);
    assert_eq!(r.status.code(), Some(1), "{r:?}");
}

/// ssh-agent cannot open sealed files: a sealed game asks for the key file, and says why.
#[test]
fn a_sealed_game_needs_the_key_file_not_the_agent() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let dir = tmp.path().join("sealed");
    new_sealed("luzhanqi", &dir, &keys);
    let agent = Agent::start(tmp.path());
    agent.add(&keys.path("alice"));
    let setup = tmp.path().join("south.toml");
    std::fs::write(&setup, SOUTH_ROWS).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_qijudge"))
        .args(["setup", &dir.to_string_lossy(), "--as", "south", "--key"])
        .arg(format!("{}.pub", keys.path("alice")))
        .arg(&setup)
        .env("SSH_AUTH_SOCK", &agent.socket)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a sealed game needs your private key file"),
        "{err}"
    );
    assert!(
        !dir.join("commitments/south.toml").exists(),
        "nothing written"
    );
}
