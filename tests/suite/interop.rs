//! Signatures interchange with the real `ssh-keygen -Y sign/verify`, both ways.
//! ssh-keygen is required: `.ci/run` installs it, so these tests never skip.

use super::helpers::*;
use qijudge::protocol::signing::{self, namespace};
use std::io::Write;
use std::process::{Command, Stdio};

fn ssh_keygen(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut child = Command::new("ssh-keygen")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ssh-keygen must be installed (openssh-client)");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_move_signed_by_ssh_keygen_is_accepted_by_the_judge() {
    let g = TestGame::started(&[]);
    g.send("south", "a6-a7");
    let path = g.dir.join("moves/0001-south.toml");
    let ours = g.read("moves/0001-south.toml.sig");
    std::fs::remove_file(g.dir.join("moves/0001-south.toml.sig")).unwrap();
    let out = ssh_keygen(
        &[
            "-Y",
            "sign",
            "-n",
            namespace::MOVE,
            "-f",
            &g.keys.path("alice"),
            &path.to_string_lossy(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Ed25519 is deterministic: ssh-keygen and qijudge write the very same bytes.
    assert_eq!(g.read("moves/0001-south.toml.sig"), ours);
    let r = g.judge();
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn ssh_keygen_signatures_verify_in_qijudge_and_ours_in_ssh_keygen() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let msg = tmp.path().join("msg.toml");
    std::fs::write(&msg, "format = \"x\"\n").unwrap();
    let out = ssh_keygen(
        &[
            "-Y",
            "sign",
            "-n",
            namespace::COMMITMENT,
            "-f",
            &keys.path("bob"),
            &msg.to_string_lossy(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sig = std::fs::read_to_string(tmp.path().join("msg.toml.sig")).unwrap();
    let bob = signing::parse_public_key(
        &std::fs::read_to_string(format!("{}.pub", keys.path("bob"))).unwrap(),
    )
    .unwrap();
    signing::verify(&bob, namespace::COMMITMENT, b"format = \"x\"\n", &sig).unwrap();
    assert!(
        signing::verify(&bob, namespace::MOVE, b"format = \"x\"\n", &sig).is_err(),
        "namespaces separate purposes"
    );

    let alice_priv =
        signing::parse_private_key(&std::fs::read_to_string(keys.path("alice")).unwrap()).unwrap();
    let ours = signing::sign(&alice_priv, namespace::MOVE, b"a6-a7\n");
    let sig_path = tmp.path().join("ours.sig");
    std::fs::write(&sig_path, &ours).unwrap();
    let allowed = tmp.path().join("allowed_signers");
    let alice_pub = std::fs::read_to_string(format!("{}.pub", keys.path("alice"))).unwrap();
    std::fs::write(
        &allowed,
        format!("alice namespaces=\"{}\" {}", namespace::MOVE, alice_pub),
    )
    .unwrap();
    let args = [
        "-Y",
        "verify",
        "-f",
        &allowed.to_string_lossy(),
        "-I",
        "alice",
        "-n",
        namespace::MOVE,
        "-s",
        &sig_path.to_string_lossy(),
    ];
    let out = ssh_keygen(&args, b"a6-a7\n");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = ssh_keygen(&args, b"a6-a8\n");
    assert!(
        !out.status.success(),
        "ssh-keygen must reject a changed message"
    );
}
