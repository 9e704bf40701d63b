//! The README's test command on a machine where something else is installing packages:
//! `scripts/apt-install` (which `scripts/test` runs for missing tools) waits for the package
//! lock instead of stopping at once.

use super::matches::root;
use std::io::BufRead;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Holds dpkg's front-end lock (the fcntl lock apt-get and dpkg take) for `seconds`; returns once
/// it is held.
fn hold_package_lock(seconds: u32) -> std::process::Child {
    let mut child = Command::new("python3")
        .args([
            "-c",
            "import fcntl, sys, time\n\
             f = open('/var/lib/dpkg/lock-frontend', 'w')\n\
             fcntl.lockf(f, fcntl.LOCK_EX)\n\
             print('held', flush=True)\n\
             time.sleep(float(sys.argv[1]))\n",
            &seconds.to_string(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "held\n");
    child
}

fn apt_install(wait: &str) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let out = Command::new("bash")
        .arg(root().join("scripts/apt-install"))
        // Installed already: apt-get takes the lock, finds nothing to do and ends.
        .arg("hostname")
        .env("QIJUDGE_APT_WAIT", wait)
        // The lists are as fresh as the machine's: only the install's wait is timed.
        .env("QIJUDGE_APT_UPDATE", "no")
        .output()
        .unwrap();
    (out, started.elapsed())
}

#[test]
fn apt_install_waits_for_a_held_package_lock() {
    // Without a wait, a held lock stops it at once (what scripts/test did before).
    let mut holder = hold_package_lock(60);
    let (out, took) = apt_install("0");
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert!(!out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("lock"), "{said}");
    assert!(took < Duration::from_secs(30), "{took:?}");
    // With one, it waits for the lock to be let go, then installs.
    let mut holder = hold_package_lock(5);
    let (out, took) = apt_install("300");
    holder.wait().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        took >= Duration::from_millis(4500),
        "it did not wait: {took:?}"
    );
}

/// `cargo package` of the whole workspace, as `cargo publish` makes it (without building each
/// package again, which `cargo publish --dry-run` does too; the note of #73 gives that run):
/// every crate packages, the command's package holds only its sources and README, and a game
/// crate holds the files it includes (its samples' keys), so it builds outside the repository.
#[test]
fn every_crate_packages_with_only_what_users_need() {
    let tmp = tempfile::tempdir().unwrap();
    let cargo = |args: &[&str]| {
        let out = Command::new(env!("CARGO"))
            .args(args)
            .args(["--allow-dirty", "--offline", "--target-dir"])
            .arg(tmp.path())
            .current_dir(root())
            .output()
            .expect("cargo runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "cargo {args:?}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    cargo(&["package", "--workspace", "--no-verify"]);
    let crates = std::fs::read_dir(tmp.path().join("package"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".crate"))
        .count();
    let members = std::fs::read_dir(root().join("crates")).unwrap().count() + 1;
    assert_eq!(crates, members, "one package per crate");
    let listed = cargo(&["package", "-p", "qijudge", "--list"]);
    for file in listed.lines() {
        assert!(
            file.starts_with("src/")
                || [
                    "Cargo.toml",
                    "Cargo.toml.orig",
                    "Cargo.lock",
                    "README.md",
                    ".cargo_vcs_info.json",
                ]
                .contains(&file),
            "{file} in the command's package: {listed}"
        );
    }
    assert!(listed.contains("src/main.rs"), "{listed}");
    let luzhanqi = cargo(&["package", "-p", "qijudge-luzhanqi", "--list"]);
    for file in [
        "shipped/sample/keys/judge.pub",
        "shipped/example-setup.toml",
    ] {
        assert!(luzhanqi.lines().any(|l| l == file), "{file}: {luzhanqi}");
    }
    // Nothing a crate's library compiles in lies outside its package (a package holds only
    // its own folder): each `include_str!`/`include_bytes!` outside the test modules names a
    // file inside the crate (a link there is packaged as the file it points to).
    for krate in std::fs::read_dir(root().join("crates")).unwrap().flatten() {
        let mut sources = vec![krate.path().join("src")];
        while let Some(dir) = sources.pop() {
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = e.path();
                let name = e.file_name().to_string_lossy().into_owned();
                // The test modules, and Nim, the toy game built only for the tests.
                if path.is_dir() {
                    if name != "nim" && name != "judge_tests" {
                        sources.push(path);
                    }
                    continue;
                }
                if !name.ends_with(".rs") || name == "tests.rs" || name.ends_with("_tests.rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let text = text.split("#[cfg(test)]").next().unwrap();
                for macro_name in ["include_str!(\"", "include_bytes!(\""] {
                    for (at, _) in text.match_indices(macro_name) {
                        let rest = &text[at + macro_name.len()..];
                        let rel = &rest[..rest.find('"').unwrap()];
                        let target = path.parent().unwrap().join(rel);
                        let inside = normalize(&target).starts_with(normalize(&krate.path()));
                        assert!(inside, "{}: {rel} is outside its crate", path.display());
                    }
                }
            }
        }
    }
    // The workflow installs the pinned version the way the docs say.
    let workflow =
        std::fs::read_to_string(root().join("examples/github-actions/qijudge.yml")).unwrap();
    assert!(workflow.contains(
        "cargo install --locked --root ~/.qijudge --version \"=$QIJUDGE_VERSION\" qijudge"
    ));
    assert!(!workflow.contains("example.org"), "no placeholder download");
}

/// A path with its `..` and `.` parts taken away (without following links).
fn normalize(path: &std::path::Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
