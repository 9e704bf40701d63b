//! Git play as a public repository lives it: a bare server with the shipped pre-receive hook,
//! players' clones with the shipped pre-commit hook (one with `core.autocrlf=true`, as Git for
//! Windows checks out), and the example workflow's steps run as its file says (their `run:`
//! scripts, with the workflow's expressions filled in). A stranger's attacks are refused by the
//! check or the hook, or made harmless by the judge, and each game goes on after each.

use super::helpers::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

fn run_git(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new("git");
    c.arg("-C").arg(dir).args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.env("QIJUDGE", env!("CARGO_BIN_EXE_qijudge"))
        .output()
        .expect("git must be installed (.ci/run installs it)")
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = run_git(dir, args, &[]);
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout)
}

/// The `run:` script of the workflow step called `name`, as the workflow file says it.
fn workflow_step(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/github-actions/qijudge.yml");
    let yml = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = yml.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == format!("- name: {name}"))
        .unwrap_or_else(|| panic!("no step {name:?} in the workflow"));
    let run = (at..lines.len())
        .find(|&i| lines[i].trim() == "run: |")
        .unwrap();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let body_indent = indent(lines[run + 1]);
    lines[run + 1..]
        .iter()
        .take_while(|l| l.trim().is_empty() || indent(l) >= body_indent)
        .map(|l| l.get(body_indent..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

struct World {
    tmp: tempfile::TempDir,
    keys: Keys,
    server: PathBuf,
    /// The judge's checkout (the workflow's runner).
    runner: PathBuf,
    /// Holds `qijudge`, as the workflow's install step leaves it.
    runner_temp: PathBuf,
}

impl World {
    /// A new repository whose owner's first push holds the workflow and the games, through the
    /// server's pre-receive hook (bootstrap), then judged by the workflow's judge job.
    fn new(games: &[(&str, &str, bool)]) -> World {
        let tmp = tempfile::tempdir().unwrap();
        let keys = Keys::new(tmp.path());
        let server = tmp.path().join("server.git");
        let out = Command::new("git")
            .args(["init", "-q", "--bare", "-b", "main"])
            .arg(&server)
            .output()
            .unwrap();
        assert!(out.status.success());
        let hook = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/git-hooks/pre-receive");
        // The shipped hook, run with the judge's key as the server's own setting (not the
        // pusher's environment).
        std::fs::copy(hook, server.join("hooks/qijudge-pre-receive")).unwrap();
        let wrapper = format!(
            "#!/bin/sh\nQIJUDGE_JUDGE_KEY='{}' exec \"$(dirname \"$0\")/qijudge-pre-receive\"\n",
            keys.path("judge")
        );
        std::fs::write(server.join("hooks/pre-receive"), wrapper).unwrap();
        std::fs::set_permissions(
            server.join("hooks/pre-receive"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let runner_temp = tmp.path().join("runner-temp");
        std::fs::create_dir(&runner_temp).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_qijudge"), runner_temp.join("qijudge"))
            .unwrap();
        let runner = tmp.path().join("runner");
        let w = World {
            keys,
            server,
            runner,
            runner_temp,
            tmp,
        };
        // The owner's repository: the workflow and the games, one commit, one push.
        let owner = w.tmp.path().join("owner");
        std::fs::create_dir(&owner).unwrap();
        git(&owner, &["init", "-q", "-b", "main"]);
        identity(&owner);
        let wf = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/github-actions/qijudge.yml");
        std::fs::create_dir_all(owner.join(".github/workflows")).unwrap();
        std::fs::copy(wf, owner.join(".github/workflows/qijudge.yml")).unwrap();
        for (kind, folder, sealed) in games {
            let extra: &[&str] = if *sealed { &["--sealed"] } else { &[] };
            new_game(kind, &owner.join(folder), &w.keys, extra);
        }
        git(&owner, &["add", "-A"]);
        git(
            &owner,
            &["commit", "-q", "-m", "the workflow and the games"],
        );
        let server = w.server.to_string_lossy().into_owned();
        let pushed = w.push_from(&owner, &server);
        assert!(pushed.status.success(), "bootstrap: {}", text(&pushed));
        let out = Command::new("git")
            .args(["clone", "-q", &server])
            .arg(&w.runner)
            .output()
            .unwrap();
        assert!(out.status.success());
        identity(&w.runner);
        w.judge_job(EMPTY_TREE);
        w
    }

    fn push_from(&self, clone: &Path, remote: &str) -> Output {
        run_git(
            clone,
            &["push", "-q", remote, "HEAD:main"],
            &[("QIJUDGE_JUDGE_KEY", &self.keys.path("judge"))],
        )
    }

    fn server_head(&self) -> String {
        git(&self.server, &["rev-parse", "main"]).trim().to_string()
    }

    /// A player's clone with the pre-commit hook; `autocrlf` as Git for Windows sets it.
    fn clone(&self, name: &str, autocrlf: bool) -> PathBuf {
        let path = self.tmp.path().join(name);
        let mut c = Command::new("git");
        c.arg("clone").arg("-q");
        if autocrlf {
            c.args(["-c", "core.autocrlf=true"]);
        }
        let out = c.arg(&self.server).arg(&path).output().unwrap();
        assert!(out.status.success(), "{}", text(&out));
        identity(&path);
        let hook = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/git-hooks/pre-commit");
        std::fs::copy(hook, path.join(".git/hooks/pre-commit")).unwrap();
        path
    }

    /// The workflow's push job after a push whose `before` was `before`: its judge step, which
    /// judges and pushes the judge's commit to the server (through the hook, as the judge's own
    /// push). Returns the judge step's output.
    fn judge_job(&self, before: &str) -> Output {
        self.judge_job_at(before, &self.server_head())
    }

    /// The judge job of the push that left main at `sha` (the checkout the job starts from,
    /// whatever main has become since).
    fn judge_job_at(&self, before: &str, sha: &str) -> Output {
        let out = self.run_judge_job(before, sha);
        assert!(out.status.success(), "judge step: {}", text(&out));
        out
    }

    fn run_judge_job(&self, before: &str, sha: &str) -> Output {
        self.run_judge_job_as(before, sha, &[])
    }

    /// The judge job with more of the step's environment (`QIJUDGE_OWNER_PUSH`, which the
    /// workflow sets for the owner's own push).
    fn run_judge_job_as(&self, before: &str, sha: &str, env: &[(&str, &str)]) -> Output {
        git(&self.runner, &["fetch", "-q", "origin"]);
        git(&self.runner, &["checkout", "-q", "--detach", sha]);
        let server = self.server.to_string_lossy().into_owned();
        let judge = workflow_step("Judge every game and publish")
            .replace("${{ secrets.QIJUDGE_JUDGE_KEY }}", "")
            .replace("${{ github.event.before }}", before)
            .replace("origin", &server);
        let key = std::fs::read_to_string(self.keys.path("judge")).unwrap();
        let mut all = vec![
            ("QIJUDGE_JUDGE_KEY", key.trim_end()),
            ("QIJUDGE_JUDGE_PUSH", "1"),
        ];
        all.extend_from_slice(env);
        self.bash(&judge, &all)
    }

    /// The workflow's step that builds the club's page in the runner's checkout; the site's
    /// folder.
    fn site_step(&self) -> PathBuf {
        git(&self.runner, &["fetch", "-q", "origin"]);
        git(&self.runner, &["checkout", "-q", "--detach", "origin/main"]);
        let step = workflow_step("Build the club's page")
            .replace("${{ github.event.repository.name }}", "club")
            .replace("${{ github.repository_owner }}", "owner");
        let key = std::fs::read_to_string(self.keys.path("judge")).unwrap();
        let out = self.bash(&step, &[("QIJUDGE_JUDGE_KEY", key.trim_end())]);
        assert!(out.status.success(), "site step: {}", text(&out));
        assert!(text(&out).contains("site "), "{}", text(&out));
        self.runner_temp.join("site")
    }

    /// The workflow's pull-request check on `clone`'s HEAD against the server's main.
    fn pr_check(&self, clone: &Path) -> Output {
        let base = self.server_head();
        git(clone, &["fetch", "-q", "origin"]);
        let check = workflow_step("Check the pull request's change to every game")
            .replace("${{ github.event.pull_request.base.sha }}", &base);
        bash_in(clone, &check, &self.runner_temp, &[])
    }

    fn bash(&self, script: &str, env: &[(&str, &str)]) -> Output {
        bash_in(&self.runner, script, &self.runner_temp, env)
    }

    /// A player's change pushed from `clone` and judged: the push passes the hook, the judge
    /// job judges it, and the clone pulls the result.
    fn land(&self, clone: &Path) -> Output {
        let before = self.server_head();
        let pushed = self.push_from(clone, "origin");
        assert!(pushed.status.success(), "push: {}", text(&pushed));
        let out = self.judge_job(&before);
        git(clone, &["pull", "-q", "--ff-only"]);
        out
    }

    /// A stranger's change: refused by the pull-request check and by the server's hook, each
    /// with exit 1 and a sentence holding `why`; then dropped from `clone`.
    fn refused(&self, clone: &Path, why: &str) {
        let check = self.pr_check(clone);
        assert_eq!(check.status.code(), Some(1), "{why}: {}", text(&check));
        assert!(text(&check).contains(why), "{why}: {}", text(&check));
        let pushed = self.push_from(clone, "origin");
        assert!(!pushed.status.success(), "{why}: pushed");
        assert!(text(&pushed).contains(why), "{why}: {}", text(&pushed));
        git(clone, &["reset", "-q", "--hard", "origin/main"]);
        git(clone, &["clean", "-q", "-fdx"]);
    }
}

fn identity(repo: &Path) {
    git(repo, &["config", "user.name", "test"]);
    git(repo, &["config", "user.email", "test@example.org"]);
}

fn bash_in(dir: &Path, script: &str, runner_temp: &Path, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new("bash");
    c.arg("-euo")
        .arg("pipefail")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("RUNNER_TEMP", runner_temp)
        .env("QIJUDGE", env!("CARGO_BIN_EXE_qijudge"));
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// `qijudge move` in a clone, committed through the pre-commit hook with the seat's key.
fn commit_move(w: &World, clone: &Path, game: &str, seat: &str, who: &str, mv: &str) -> Output {
    let key = w.keys.path(who);
    let dir = clone.join(game);
    ok(&[
        "move",
        &dir.to_string_lossy(),
        "--as",
        seat,
        "--key",
        &key,
        mv,
    ]);
    git(clone, &["add", "-A"]);
    run_git(
        clone,
        &["commit", "-q", "-m", mv],
        &[("QIJUDGE_KEY", key.as_str())],
    )
}

/// The seat to move and one of its moves (the `pick`-th, wrapping).
fn next_move(dir: &Path, key_of: &dyn Fn(&str) -> String, pick: usize) -> (String, String) {
    let d = dir.to_string_lossy();
    let status: serde_json::Value =
        serde_json::from_str(&ok(&["status", &d, "--json", "--now", NOW]).stdout).unwrap();
    let seat = status["to_move"].as_str().unwrap().to_string();
    let key = key_of(&seat);
    let moves = ok(&["moves", &d, "--as", &seat, "--key", &key]).stdout;
    let moves: Vec<&str> = moves.lines().collect();
    (seat, moves[pick % moves.len()].to_string())
}

/// One ply of a two-seat game: both clones pull, the seat to move commits its `pick`-th move in
/// its own clone (through the pre-commit hook), and the change lands (hook, judge job).
fn play_ply(w: &World, game: &str, players: [(&str, &str, &Path); 2], pick: usize) {
    for (_, _, clone) in players {
        git(clone, &["pull", "-q", "--ff-only"]);
    }
    let key_of = |seat: &str| {
        let (_, who, _) = players.iter().find(|(s, _, _)| *s == seat).unwrap();
        w.keys.path(who)
    };
    let (seat, mv) = next_move(&players[0].2.join(game), &key_of, pick);
    let (_, who, clone) = players.iter().find(|(s, _, _)| *s == seat).unwrap();
    let out = commit_move(w, clone, game, &seat, who, &mv);
    assert!(out.status.success(), "{seat} {mv}: {}", text(&out));
    w.land(clone);
}

fn xiangqi_key(w: &World) -> impl Fn(&str) -> String + '_ {
    |seat: &str| w.keys.path(if seat == "red" { "alice" } else { "bob" })
}

#[test]
fn a_sealed_luzhanqi_and_a_xiangqi_game_are_played_through_a_server_and_the_workflow() {
    let w = World::new(&[
        ("luzhanqi", "games/lzq", true),
        ("xiangqi", "games/xq", false),
    ]);
    let alice = w.clone("alice", true);
    let bob = w.clone("bob", false);
    // Git for Windows' checkout keeps every game file as signed.
    let manifest = std::fs::read(alice.join("games/xq/game.toml")).unwrap();
    assert!(
        !manifest.contains(&b'\r'),
        "game.toml has CR LF in the autocrlf clone"
    );

    // Xiangqi: six plies, alternating clones, then red resigns.
    let xq = [
        ("red", "alice", alice.as_path()),
        ("black", "bob", bob.as_path()),
    ];
    for ply in 0..6 {
        play_ply(&w, "games/xq", xq, ply * 5);
    }
    git(&alice, &["pull", "-q", "--ff-only"]);
    let out = commit_move(&w, &alice, "games/xq", "red", "alice", "resign");
    assert!(out.status.success(), "{}", text(&out));
    w.land(&alice);

    // Sealed Luzhanqi: commitments first, sealed setups once recorded, then moves.
    for (clone, seat, who, rows) in [
        (&alice, "south", "alice", SOUTH_ROWS),
        (&bob, "north", "bob", NORTH_ROWS),
    ] {
        git(clone, &["pull", "-q", "--ff-only"]);
        let file = w.tmp.path().join(format!("{seat}.toml"));
        std::fs::write(&file, rows).unwrap();
        let g = clone.join("games/lzq");
        ok(&[
            "setup",
            &g.to_string_lossy(),
            "--as",
            seat,
            "--key",
            &w.keys.path(who),
            "--seal",
            &file.to_string_lossy(),
        ]);
        let held = w.tmp.path().join(format!("{seat}-sealed"));
        std::fs::rename(g.join("sealed"), &held).unwrap();
        git(clone, &["add", "-A"]);
        git(clone, &["commit", "-q", "-m", "commitment"]);
        w.land(clone);
    }
    for (clone, seat) in [(&alice, "south"), (&bob, "north")] {
        git(clone, &["pull", "-q", "--ff-only"]);
        let g = clone.join("games/lzq");
        std::fs::create_dir_all(g.join("sealed")).unwrap();
        for f in [format!("{seat}.age"), format!("{seat}.age.sig")] {
            let held = w.tmp.path().join(format!("{seat}-sealed/{f}"));
            std::fs::rename(held, g.join("sealed").join(f)).unwrap();
        }
        git(clone, &["add", "-A"]);
        git(clone, &["commit", "-q", "-m", "sealed setup"]);
        w.land(clone);
    }
    let lzq = [
        ("south", "alice", alice.as_path()),
        ("north", "bob", bob.as_path()),
    ];
    for ply in 0..4 {
        play_ply(&w, "games/lzq", lzq, ply * 7);
    }
    let lzq_key = |seat: &str| w.keys.path(if seat == "south" { "alice" } else { "bob" });
    git(&bob, &["pull", "-q", "--ff-only"]);
    let (seat, _) = next_move(&bob.join("games/lzq"), &lzq_key, 0);
    let (clone, name) = if seat == "south" {
        (&alice, "alice")
    } else {
        (&bob, "bob")
    };
    git(clone, &["pull", "-q", "--ff-only"]);
    let out = commit_move(&w, clone, "games/lzq", &seat, name, "resign");
    assert!(out.status.success(), "{}", text(&out));
    w.land(clone);

    // The judge's commits revealed what the audit needs: both games verify in a fresh clone.
    let audit = w.clone("auditor", false);
    for game in ["games/xq", "games/lzq"] {
        let v = ok(&["verify", &audit.join(game).to_string_lossy()]);
        assert!(v.stdout.contains("verified"), "{game}: {v:?}");
    }
    assert!(audit.join("games/lzq/reveal/south.toml").exists());
    // No lock or staging file ever reached the repository.
    let files = git(&audit, &["log", "--all", "--name-only", "--format="]);
    assert!(!files.contains(".qijudge.lock"), "{files}");
    assert!(!files.contains(".qijudge-staging"), "{files}");

    // The workflow's page step over the judge's checkout: both games, their replays (the
    // sealed game's from its revealed setups), counted under the judge's key.
    let site = w.site_step();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("Finished (2)"), "{index}");
    for game in ["games/games/xq", "games/games/lzq"] {
        assert!(site.join(game).join("replay.html").is_file(), "{game}");
    }
    let standings = std::fs::read_to_string(site.join("standings.html")).unwrap();
    assert!(!standings.contains("Not counted"), "{standings}");
    assert!(standings.contains("<h2>luzhanqi</h2>") && standings.contains("<h2>xiangqi</h2>"));
    // Made again by the next run from the cached site: nothing changed, nothing written.
    let again = std::fs::read_to_string(site.join(".qijudge-site.json")).unwrap();
    w.site_step();
    assert_eq!(
        std::fs::read_to_string(site.join(".qijudge-site.json")).unwrap(),
        again
    );
}

/// Every attack of the hostile review on a public repository, each refused by the workflow's
/// pull-request check and by the server's hook with exit 1 and one sentence; after each, the
/// next legal move of each seat still lands.
#[test]
fn a_strangers_changes_cannot_freeze_delete_or_roll_back_a_game() {
    let w = World::new(&[
        ("xiangqi", "games/xq", false),
        ("xiangqi", "games/xq2", false),
    ]);
    let stranger = w.clone("stranger", false);
    let alice = w.clone("alice", false);
    let bob = w.clone("bob", false);
    let put = |rel: &str, bytes: &[u8]| {
        let path = stranger.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
        git(&stranger, &["add", "-A"]);
        git(
            &stranger,
            &["commit", "-q", "--no-verify", "-m", "stranger"],
        );
    };
    let xq = [
        ("red", "alice", alice.as_path()),
        ("black", "bob", bob.as_path()),
    ];
    let play = |pick: usize| {
        play_ply(&w, "games/xq", xq, pick);
        git(&stranger, &["pull", "-q", "--ff-only"]);
    };
    play(0);

    // Signature squatting on future plies and on a commitment slot.
    for ply in 2..6 {
        for seat in ["red", "black"] {
            put(&format!("games/xq/moves/{ply:04}-{seat}.toml.sig"), b"junk");
        }
    }
    w.refused(&stranger, "without its other half");
    // The whole game deleted.
    git(&stranger, &["rm", "-rq", "games/xq"]);
    git(&stranger, &["commit", "-q", "--no-verify", "-m", "gone"]);
    w.refused(&stranger, "is deleted or moved");
    // Moved to another folder.
    git(&stranger, &["mv", "games/xq", "games/moved"]);
    git(&stranger, &["commit", "-q", "--no-verify", "-m", "moved"]);
    w.refused(&stranger, "is deleted or moved");
    // A manifest above every game.
    let manifest = std::fs::read(stranger.join("games/xq/game.toml")).unwrap();
    put("game.toml", &manifest);
    w.refused(&stranger, "would hold the game in");
    // views/public.json made a folder holding a judge-signed file.
    let signed = std::fs::read(stranger.join("games/xq/views/public.txt")).unwrap();
    let sig = std::fs::read(stranger.join("games/xq/views/public.txt.sig")).unwrap();
    git(&stranger, &["rm", "-q", "games/xq/views/public.json"]);
    put("games/xq/views/public.json/public.txt", &signed);
    put("games/xq/views/public.json/public.txt.sig", &sig);
    w.refused(&stranger, "only the judge's own commit removes its outputs");
    // A submodule (gitlink) at the next move's path.
    let head = w.server_head();
    git(
        &stranger,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{head},games/xq/moves/0002-black.toml"),
        ],
    );
    git(&stranger, &["commit", "-q", "--no-verify", "-m", "gitlink"]);
    w.refused(&stranger, "a submodule");
    // The record rolled back to an older judge-signed one.
    let old = git(
        &stranger,
        &[
            "rev-list",
            "--max-count=1",
            "HEAD~1",
            "--",
            "games/xq/record.jsonl",
        ],
    );
    git(
        &stranger,
        &[
            "checkout",
            old.trim(),
            "--",
            "games/xq/record.jsonl",
            "games/xq/record.sig",
        ],
    );
    git(
        &stranger,
        &["commit", "-q", "--no-verify", "-m", "rollback"],
    );
    w.refused(&stranger, "does not extend");
    // A record grown by hand: it extends the last one, but the judge did not sign it.
    let rec = std::fs::read_to_string(stranger.join("games/xq/record.jsonl")).unwrap();
    put(
        "games/xq/record.jsonl",
        format!("{rec}{{\"seq\":99}}\n").as_bytes(),
    );
    w.refused(&stranger, "only the judge writes the record");
    // Any other file outside the games.
    put(".gitattributes", b"* text eol=crlf\n");
    w.refused(&stranger, "outside every game folder");

    // Eviction: black's pending (pushed, not yet judged) move deleted and "set aside" by a
    // stranger with its very bytes.
    git(&bob, &["pull", "-q", "--ff-only"]);
    let (seat, mv) = next_move(&bob.join("games/xq"), &xiangqi_key(&w), 3);
    assert_eq!(seat, "black");
    let out = commit_move(&w, &bob, "games/xq", "black", "bob", &mv);
    assert!(out.status.success(), "{}", text(&out));
    let pushed = w.push_from(&bob, "origin");
    assert!(pushed.status.success(), "{}", text(&pushed));
    git(&stranger, &["pull", "-q", "--ff-only"]);
    for f in ["0002-black.toml", "0002-black.toml.sig"] {
        let bytes = std::fs::read(stranger.join("games/xq/moves").join(f)).unwrap();
        let (stem, ext) = f.split_once('.').unwrap();
        put(
            &format!("games/xq/refused/moves/{stem}.0123456789ab.{ext}"),
            &bytes,
        );
        git(&stranger, &["rm", "-q", &format!("games/xq/moves/{f}")]);
    }
    git(&stranger, &["commit", "-q", "--no-verify", "-m", "evict"]);
    w.refused(&stranger, "a refused file");

    // Through all that, the game went on: black's pending move is judged, and each seat's next
    // move lands.
    let before = git(&w.runner, &["rev-parse", "HEAD"]);
    w.judge_job(before.trim());
    let record = std::fs::read_to_string(w.runner.join("games/xq/record.jsonl")).unwrap();
    assert!(record.contains("\"ply\":2"), "{record}");
    play(4);
    play(5);
}

/// A stranger's out-of-turn file beside a seat's legal move: one judge run takes the legal move
/// and sets the stranger's file aside (it used to stop at the refusal, and the good move waited
/// for the next run, past its deadline on a clock). In a game folder and through git.
#[test]
fn a_refused_file_never_delays_a_good_one_beside_it() {
    // The folder transport, on a clock.
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let dir = tmp.path().join("xq");
    new_game("xiangqi", &dir, &keys, &["--clock", "60:30"]);
    let d = dir.to_string_lossy().into_owned();
    let judge = |now: &str| qj(&["judge", &d, "--key", &keys.path("judge"), "--now", now]);
    assert_eq!(judge(NOW).code, 0);
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
        "move",
        &d,
        "--as",
        "black",
        "--key",
        &keys.path("bob"),
        "h9g7",
        "--no-check",
    ]);
    let run = judge(NOW);
    assert_eq!(run.code, 1, "{run:?}");
    let record = std::fs::read_to_string(dir.join("record.jsonl")).unwrap();
    assert!(record.contains("\"ply\":1"), "red's move waited: {record}");
    assert_set_aside(&dir, "moves/0001-black.toml");
    assert!(dir.join("views/black.refusal.txt").exists());
    // The stranger's file put back at the ply red filled, and a lone signature for a later ply,
    // beside black's legal move: all in one run, the move taken and both set aside.
    for entry in std::fs::read_dir(dir.join("refused/moves")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let back = if name.ends_with(".sig") {
            "0001-black.toml.sig"
        } else {
            "0001-black.toml"
        };
        std::fs::copy(
            dir.join("refused/moves").join(&name),
            dir.join("moves").join(back),
        )
        .unwrap();
    }
    std::fs::write(dir.join("moves/0009-red.toml.sig"), "junk").unwrap();
    ok(&[
        "move",
        &d,
        "--as",
        "black",
        "--key",
        &keys.path("bob"),
        "h9g7",
    ]);
    let run = judge(NOW);
    assert_eq!(run.code, 1, "{run:?}");
    let record = std::fs::read_to_string(dir.join("record.jsonl")).unwrap();
    assert!(
        record.contains("\"ply\":2"),
        "black's move waited: {record}"
    );
    assert_set_aside(&dir, "moves/0001-black.toml");
    assert!(
        !dir.join("moves/0009-red.toml.sig").exists(),
        "a lone signature keeps a slot"
    );
    assert!(dir.join("moves/0002-black.toml").exists());
    assert_eq!(judge(NOW).code, 0, "the second run finds nothing new");

    // Through git: red's move and the stranger's black file in one push; one judge job.
    let w = World::new(&[("xiangqi", "games/xq", false)]);
    let alice = w.clone("alice", false);
    let key = w.keys.path("alice");
    let g = alice.join("games/xq");
    ok(&[
        "move",
        &g.to_string_lossy(),
        "--as",
        "red",
        "--key",
        &key,
        "h2e2",
    ]);
    ok(&[
        "move",
        &g.to_string_lossy(),
        "--as",
        "black",
        "--key",
        &w.keys.path("bob"),
        "h9g7",
        "--no-check",
    ]);
    git(&alice, &["add", "-A"]);
    git(&alice, &["commit", "-q", "--no-verify", "-m", "both"]);
    let before = w.server_head();
    // The server's hook refuses the stranger's file; this is the case of a host without the
    // hook (GitHub: a pull request merged by hand past a failed check).
    let pushed = w.push_from(&alice, "origin");
    assert!(!pushed.status.success(), "an out-of-turn file was pushed");
    let hook = w.server.join("hooks/pre-receive");
    std::fs::rename(&hook, w.tmp.path().join("hook")).unwrap();
    let pushed = w.push_from(&alice, "origin");
    assert!(pushed.status.success(), "{}", text(&pushed));
    std::fs::rename(w.tmp.path().join("hook"), &hook).unwrap();
    w.judge_job(&before);
    let record = std::fs::read_to_string(w.runner.join("games/xq/record.jsonl")).unwrap();
    assert!(record.contains("\"ply\":1"), "{record}");
    assert!(!w.runner.join("games/xq/moves/0001-black.toml").exists());
    let v = qj(&[
        "status",
        &w.runner.join("games/xq").to_string_lossy(),
        "--json",
    ]);
    assert!(v.stdout.contains("\"black\""), "{v:?}");
}

/// What a stranger can leave in a shared game folder, made harmless by the judge: a folder at
/// `views/public.json` holding a copy of a signed file, a subfolder and a non-ASCII name in
/// `views/`, a `refused` link out of the game folder, a folder at the place a refused file goes,
/// and another sealed game's refusal note with its (valid, same judge) tag.
#[test]
fn the_judge_clears_what_a_stranger_leaves_in_its_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = Keys::new(tmp.path());
    let (x, y) = (tmp.path().join("x"), tmp.path().join("y"));
    for dir in [&x, &y] {
        new_game("luzhanqi", dir, &keys, &["--sealed"]);
        for (seat, who, rows) in [("south", "alice", SOUTH_ROWS), ("north", "bob", NORTH_ROWS)] {
            setup_with(dir, seat, &keys.path(who), rows);
        }
    }
    let judge = |dir: &Path| {
        let d = dir.to_string_lossy();
        qj(&["judge", &d, "--key", &keys.path("judge"), "--now", NOW])
    };
    for dir in [&x, &y] {
        assert_eq!(judge(dir).code, 0);
        assert_eq!(judge(dir).code, 0);
    }
    // The seat not to move (the same in both games? not needed: each game's own).
    let waiting = |dir: &Path| -> (&'static str, &'static str) {
        let d = dir.to_string_lossy();
        let s: serde_json::Value =
            serde_json::from_str(&ok(&["status", &d, "--json", "--now", NOW]).stdout).unwrap();
        match s["to_move"].as_str().unwrap() {
            "south" => ("north", "bob"),
            _ => ("south", "alice"),
        }
    };
    // Game x: a move out of turn, refused: its seat gets a sealed note.
    let xd = x.to_string_lossy().into_owned();
    let (seat, who) = waiting(&x);
    ok(&[
        "move",
        &xd,
        "--as",
        seat,
        "--key",
        &keys.path(who),
        "a6-a7",
        "--no-check",
    ]);
    assert_eq!(judge(&x).code, 1);
    let note = format!("views/{seat}.refusal.age");
    assert!(x.join(&note).exists());
    // Planted in y, where no refusal is pending: not kept, whatever its tag says.
    for f in [note.clone(), format!("{note}.tag")] {
        std::fs::copy(x.join(&f), y.join(&f)).unwrap();
    }
    // Junk in y's views/ and in the way of its refused/.
    let signed = std::fs::read(y.join("views/public.txt")).unwrap();
    std::fs::remove_file(y.join("views/public.json")).unwrap();
    std::fs::create_dir_all(y.join("views/public.json")).unwrap();
    std::fs::write(y.join("views/public.json/public.txt"), &signed).unwrap();
    std::fs::create_dir_all(y.join("views/sub")).unwrap();
    std::fs::write(y.join("views/p\u{fc}blic.txt"), b"x").unwrap();
    let outside = tmp.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, y.join("refused")).unwrap();
    let yd = y.to_string_lossy().into_owned();
    let run = judge(&y);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        !y.join(&note).exists(),
        "another game's sealed note was kept"
    );
    let (seat, who) = waiting(&y);
    let mine = format!("moves/0001-{seat}.toml");
    ok(&[
        "move",
        &yd,
        "--as",
        seat,
        "--key",
        &keys.path(who),
        "a6-a7",
        "--no-check",
    ]);
    let run = judge(&y);
    assert_eq!(run.code, 1, "{run:?}");
    assert_set_aside(&y, &mine);
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "set aside through a link"
    );
    assert!(y.join("views/public.json").is_file());
    assert!(!y.join("views/sub").exists() && !y.join("views/p\u{fc}blic.txt").exists());
    // A folder where the same refused file would go again: the run still ends normally.
    let names: Vec<String> = std::fs::read_dir(y.join("refused/moves"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let body = names.iter().find(|n| n.ends_with(".toml")).unwrap();
    let bytes = std::fs::read(y.join("refused/moves").join(body)).unwrap();
    let sig = std::fs::read(y.join("refused/moves").join(format!("{body}.sig"))).unwrap();
    std::fs::remove_file(y.join("refused/moves").join(body)).unwrap();
    std::fs::create_dir(y.join("refused/moves").join(body)).unwrap();
    std::fs::write(y.join(&mine), &bytes).unwrap();
    std::fs::write(y.join(format!("{mine}.sig")), &sig).unwrap();
    let run = judge(&y);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(y.join("refused/moves").join(body).is_file());
    // And the game goes on: the seat to move plays a legal move.
    let mover = if seat == "south" {
        ("north", "bob")
    } else {
        ("south", "alice")
    };
    let key = keys.path(mover.1);
    let moves = ok(&["moves", &yd, "--as", mover.0, "--key", &key]).stdout;
    let mv = moves.lines().next().unwrap().to_string();
    ok(&["move", &yd, "--as", mover.0, "--key", &key, &mv]);
    assert_eq!(judge(&y).code, 0);
    assert!(std::fs::read_to_string(y.join("record.jsonl"))
        .unwrap()
        .contains("\"ply\":1"));
}

/// A red move committed in `clone` in each of `games` in turn, one commit each (through the
/// pre-commit hook); returns the commits, oldest first. Nothing is pushed.
fn red_moves(w: &World, clone: &Path, games: &[&str]) -> Vec<String> {
    let mut commits = Vec::new();
    for game in games {
        let out = commit_move(w, clone, game, "red", "alice", "h2e2");
        assert!(out.status.success(), "{game}: {}", text(&out));
        commits.push(git(clone, &["rev-parse", "HEAD"]).trim().to_string());
    }
    commits
}

/// Three Xiangqi games (`games/g`, `h`, `k`) and alice's clone holding red's first move in
/// each, one commit each, none pushed; with the server's head before them.
fn three_games_and_a_move_in_each() -> (World, PathBuf, String, Vec<String>) {
    let w = World::new(&[
        ("xiangqi", "games/g", false),
        ("xiangqi", "games/h", false),
        ("xiangqi", "games/k", false),
    ]);
    let alice = w.clone("alice", false);
    let p0 = w.server_head();
    let commits = red_moves(&w, &alice, &["games/g", "games/h", "games/k"]);
    (w, alice, p0, commits)
}

/// Makes the runner's `qijudge` push `pushes` (commits of `clone`, one per call, in order) to
/// the server just before its calls run: pull requests merged while the judge job runs.
fn merge_during_judge_calls(w: &World, clone: &Path, pushes: &[String]) {
    let counter = w.tmp.path().join("calls");
    let mut script = format!(
        "#!/bin/sh\nn=$(cat '{c}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '{c}'\ncase $n in\n",
        c = counter.display()
    );
    for (i, sha) in pushes.iter().enumerate() {
        script += &format!(
            "  {}) env -u QIJUDGE_JUDGE_PUSH git -C '{}' push -q '{}' {sha}:main >&2 || exit 9;;\n",
            i + 1,
            clone.display(),
            w.server.display()
        );
    }
    script += &format!("esac\nexec '{}' \"$@\"\n", env!("CARGO_BIN_EXE_qijudge"));
    let path = w.runner_temp.join("qijudge");
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
}

fn plies_recorded(w: &World, game: &str) -> usize {
    git(&w.runner, &["fetch", "-q", "origin"]);
    let record = git(
        &w.runner,
        &["show", &format!("origin/main:{game}/record.jsonl")],
    );
    record.matches("\"kind\":\"move\"").count()
}

/// Finding of the review: push P1 (a move in g) and, while its judge job runs, P2 (a move in h)
/// merges; the job's push was refused and g stayed unjudged for good. Now the job judges the
/// new main and pushes again, however often main moves under it (two merges inside one job
/// here), and every game's pending move is in its record with no hand edit.
#[test]
fn two_merges_inside_one_judge_job_strand_no_game() {
    let (w, alice, p0, commits) = three_games_and_a_move_in_each();
    let pushed = run_git(
        &alice,
        &["push", "-q", "origin", &format!("{}:main", commits[0])],
        &[],
    );
    assert!(pushed.status.success(), "{}", text(&pushed));
    merge_during_judge_calls(&w, &alice, &commits[1..]);
    let out = w.judge_job_at(&p0, &commits[0]);
    // The job judged three times: its own push, then after each merge.
    let calls = std::fs::read_to_string(w.tmp.path().join("calls")).unwrap();
    assert_eq!(calls.trim(), "3", "{}", text(&out));
    for game in ["games/g", "games/h", "games/k"] {
        assert_eq!(plies_recorded(&w, game), 1, "{game}: {}", text(&out));
    }
    // The merged pushes' own jobs start from their stale checkouts: they check their change,
    // find main moved, and judge it again with nothing left to do.
    let before = w.server_head();
    w.judge_job_at(&commits[0], &commits[1]);
    w.judge_job_at(&commits[1], &commits[2]);
    assert_eq!(w.server_head(), before, "the later jobs had nothing to add");
}

/// Three quick pushes, the middle one's job cancelled while it waited (GitHub's concurrency
/// group keeps one pending run): the last job judges the middle push's game too, since every
/// run judges every game. A scheduled run (no `before`) on a quiet repository adds nothing.
#[test]
fn a_cancelled_judge_job_loses_no_move() {
    let (w, alice, p0, commits) = three_games_and_a_move_in_each();
    for sha in &commits {
        let pushed = run_git(
            &alice,
            &["push", "-q", "origin", &format!("{sha}:main")],
            &[],
        );
        assert!(pushed.status.success(), "{}", text(&pushed));
    }
    // P1's job runs on P1 (main has moved to P3 meanwhile); P2's is cancelled; P3's runs.
    w.judge_job_at(&p0, &commits[0]);
    w.judge_job_at(&commits[1], &commits[2]);
    for game in ["games/g", "games/h", "games/k"] {
        assert_eq!(plies_recorded(&w, game), 1, "{game}");
    }
    let head = w.server_head();
    w.judge_job_at("", &head);
    assert_eq!(
        w.server_head(),
        head,
        "a scheduled run on a judged repository adds nothing"
    );
}

/// The server-side judge (the shipped post-receive hook): a player's push is judged by the
/// server itself, every game of the tree with it, and the judge's commit is pushed from the
/// server through the pre-receive hook; a cron run on a judged repository adds nothing.
#[test]
fn the_server_side_judge_job_judges_every_game_after_a_push() {
    let w = World::new(&[("xiangqi", "games/g", false), ("xiangqi", "games/h", false)]);
    let hook = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/git-hooks/post-receive");
    std::fs::copy(hook, w.server.join("hooks/qijudge-post-receive")).unwrap();
    let wrapper = format!(
        "#!/bin/sh\nQIJUDGE_JUDGE_KEY='{}' exec \"$(dirname \"$0\")/qijudge-post-receive\"\n",
        w.keys.path("judge")
    );
    std::fs::write(w.server.join("hooks/post-receive"), wrapper).unwrap();
    std::fs::set_permissions(
        w.server.join("hooks/post-receive"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let alice = w.clone("alice", false);
    // Both moves in one push, each in its own game: both judged by the one run.
    red_moves(&w, &alice, &["games/g", "games/h"]);
    let pushed = w.push_from(&alice, "origin");
    assert!(pushed.status.success(), "{}", text(&pushed));
    for game in ["games/g", "games/h"] {
        assert_eq!(plies_recorded(&w, game), 1, "{game}: {}", text(&pushed));
    }
    let head = w.server_head();
    let cron = Command::new("bash")
        .arg(w.server.join("hooks/post-receive"))
        .env("GIT_DIR", &w.server)
        .env("QIJUDGE", env!("CARGO_BIN_EXE_qijudge"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(cron.status.success(), "{}", text(&cron));
    assert_eq!(
        w.server_head(),
        head,
        "a cron run on a judged repository adds nothing"
    );
}

/// Play as people do it through a server: the opponent pulls a move that is pushed but not
/// judged yet and is told to wait for the judge (not that it is the other seat's move); a
/// player who skipped the checks pushes an illegal move, and the server's hook refuses the push
/// saying why once, without claiming that anything was kept or pointing to a file it never
/// writes.
#[test]
fn a_refused_push_says_why_once_and_an_unjudged_move_is_waited_for() {
    let w = World::new(&[("xiangqi", "games/xq", false)]);
    let alice = w.clone("alice", false);
    let bob = w.clone("bob", false);
    let before = w.server_head();
    let out = commit_move(&w, &alice, "games/xq", "red", "alice", "h2e2");
    assert!(out.status.success(), "{}", text(&out));
    let pushed = w.push_from(&alice, "origin");
    assert!(pushed.status.success(), "{}", text(&pushed));
    // Bob pulls before the judge job has run.
    git(&bob, &["pull", "-q", "--ff-only"]);
    let d = bob.join("games/xq").to_string_lossy().into_owned();
    let status = ok(&["status", &d]);
    assert!(
        status.stdout.contains(
            "red's move for ply 1 (moves/0001-red.toml) is written and waits for the judge"
        ),
        "{status:?}"
    );
    let bob_key = w.keys.path("bob");
    let early = qj(&["move", &d, "--as", "black", "--key", &bob_key, "h9g7"]);
    assert_eq!(early.code, 1, "{early:?}");
    assert!(early.stderr.contains("waits for the judge"), "{early:?}");
    assert!(!early.stderr.contains("it is red's move"), "{early:?}");
    // The judge records it; bob's illegal move, committed past the pre-commit hook, is pushed.
    w.judge_job(&before);
    git(&bob, &["pull", "-q", "--ff-only"]);
    ok(&[
        "move",
        &d,
        "--as",
        "black",
        "--key",
        &bob_key,
        "a10a5",
        "--no-check",
    ]);
    git(&bob, &["add", "-A"]);
    git(&bob, &["commit", "-q", "--no-verify", "-m", "a10a5"]);
    let pushed = w.push_from(&bob, "origin");
    assert!(!pushed.status.success(), "pushed: {}", text(&pushed));
    let said = text(&pushed);
    assert_eq!(said.matches("moves/0002-black.toml").count(), 1, "{said}");
    assert!(said.contains("nothing of it was kept"), "{said}");
    for wrong in ["refused/", "refusal.txt", "private to your seat"] {
        assert!(!said.contains(wrong), "{wrong:?}: {said}");
    }
}

/// Conditional answers through the server: red pushes one, replaces it with another, a
/// stranger's replacement (signed with another key) is refused by the check and the hook, and
/// black's reply is answered by the judge job at once.
#[test]
fn a_conditional_answer_is_pushed_replaced_and_played_through_the_server() {
    let w = World::new(&[("xiangqi", "xq", false)]);
    let (alice, bob) = (w.clone("alice", false), w.clone("bob", true));
    let out = commit_move(&w, &alice, "xq", "red", "alice", "h2e2");
    assert!(out.status.success(), "{}", text(&out));
    w.land(&alice);
    let key = w.keys.path("alice");
    let names = [
        "conditional/0002-red.toml",
        "conditional/0002-red.toml.sig",
        "conditional/0002-red.age",
    ];
    let mut first = Vec::new();
    for line in ["h9g7=h0i2", "h9g7=h0g2"] {
        git(&alice, &["pull", "-q", "--ff-only"]);
        let dir = alice.join("xq").to_string_lossy().into_owned();
        ok(&["move", &dir, "--as", "red", "--key", &key, "--if", line]);
        if first.is_empty() {
            first = names
                .iter()
                .map(|n| std::fs::read(alice.join("xq").join(n)).unwrap())
                .collect();
        }
        // The plans stay out of the repository (their folder ignores itself).
        git(&alice, &["add", "-A"]);
        assert!(!git(&alice, &["status", "--porcelain"]).contains("plans"));
        let out = run_git(
            &alice,
            &["commit", "-q", "-m", line],
            &[("QIJUDGE_KEY", key.as_str())],
        );
        assert!(out.status.success(), "{line}: {}", text(&out));
        w.land(&alice);
    }
    // Bob rewrites red's answers and signs them himself.
    git(&bob, &["pull", "-q", "--ff-only"]);
    let path = bob.join("xq/conditional/0002-red.toml");
    let forged = std::fs::read_to_string(&path)
        .unwrap()
        .replace("h0g2", "b0c2");
    std::fs::write(&path, &forged).unwrap();
    let sig = sign_as(&w.keys, "bob", "qijudge-conditional", &forged);
    std::fs::write(bob.join("xq/conditional/0002-red.toml.sig"), sig).unwrap();
    git(&bob, &["add", "-A"]);
    git(
        &bob,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            "red's answers, improved",
        ],
    );
    w.refused(&bob, "conditional/0002-red.toml");
    // Bob puts back red's first version, genuinely signed by red: an older version never
    // comes back, through the pull-request check and the shipped pre-receive hook alike.
    git(&bob, &["pull", "-q", "--ff-only"]);
    for (name, bytes) in names.iter().zip(&first) {
        std::fs::write(bob.join("xq").join(name), bytes).unwrap();
    }
    git(&bob, &["add", "-A"]);
    git(
        &bob,
        &["commit", "-q", "--no-verify", "-m", "red's first thoughts"],
    );
    w.refused(&bob, "does not follow version 2");
    // Nor may anyone publish plans in the clear.
    std::fs::create_dir_all(bob.join("xq/plans")).unwrap();
    std::fs::write(bob.join("xq/plans/0002-red.toml"), "h9g7 h0g2").unwrap();
    git(&bob, &["add", "-f", "xq/plans/0002-red.toml"]);
    git(&bob, &["commit", "-q", "--no-verify", "-m", "plans"]);
    w.refused(&bob, "plans in clear");
    // Black's reply: the judge job answers it from red's file.
    let out = commit_move(&w, &bob, "xq", "black", "bob", "h9g7");
    assert!(out.status.success(), "{}", text(&out));
    let judged = text(&w.land(&bob));
    assert!(judged.contains("ply 3: red h0g2"), "{judged}");
    git(&alice, &["pull", "-q", "--ff-only"]);
    let record = std::fs::read_to_string(alice.join("xq/record.jsonl")).unwrap();
    assert!(
        record.contains(r#""conditional":{"path":"conditional/0002-red.toml","line":1,"#),
        "{record}"
    );
    let status = ok(&["status", &alice.join("xq").to_string_lossy()]).stdout;
    assert!(status.contains("black to move (ply 4)"), "{status}");
    ok(&["verify", &alice.join("xq").to_string_lossy()]);
    // No blob of the repository shows a plan: neither the line that fired beyond what the
    // record discloses, nor the first version's.
    let blobs = git(&alice, &["rev-list", "--objects", "--all"]);
    for id in blobs.lines().filter_map(|l| l.split(' ').next()) {
        if git(&alice, &["cat-file", "-t", id]).trim() != "blob" {
            continue;
        }
        let out = run_git(&alice, &["cat-file", "blob", id], &[]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("h0i2"), "blob {id} shows a plan");
    }
}

/// The owner changes the allow-list after the first push, through the shipped pre-receive hook
/// and the workflow's judge job: a stranger's and a named non-owner's change of it are refused,
/// the owner's (named in QIJUDGE_OWNERS, as gitolite names its pusher; or pushing on the server
/// with QIJUDGE_OWNER_PUSH) is taken and judged, and from then on the list lets a player's pull
/// request change what it permits.
#[test]
fn the_owner_changes_the_allow_list_through_the_hooks() {
    let w = World::new(&[("xiangqi", "games/xq", false)]);
    let stranger = w.clone("stranger", false);
    let owner = w.clone("owner-clone", false);
    let write = |clone: &Path, rel: &str, text: &str| {
        let path = clone.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        git(clone, &["add", "-A"]);
        git(clone, &["commit", "-q", "--no-verify", "-m", rel]);
    };
    write(&stranger, ".qijudge-allow", "docs/\n");
    w.refused(&stranger, "the repository's allow-list does not permit it");

    write(&owner, ".qijudge-allow", "# the club's notes\ndocs/\n");
    let server = w.server.to_string_lossy().into_owned();
    let judge_key = w.keys.path("judge");
    let push_as = |pusher: &str, extra: &[(&str, &str)]| {
        let mut env = vec![
            ("QIJUDGE_JUDGE_KEY", judge_key.as_str()),
            ("GL_USER", pusher),
            ("QIJUDGE_OWNERS", "carol dave"),
        ];
        env.extend_from_slice(extra);
        run_git(&owner, &["push", "-q", &server, "HEAD:main"], &env)
    };
    let alice = push_as("alice", &[]);
    assert!(!alice.status.success(), "a non-owner pushed the list");
    assert!(
        text(&alice).contains("allow-list does not permit it"),
        "{}",
        text(&alice)
    );
    let before = w.server_head();
    let carol = push_as("carol", &[]);
    assert!(carol.status.success(), "the owner's push: {}", text(&carol));
    // The judge job of the owner's push (the workflow marks it the owner's) judges every game.
    let job = w.run_judge_job_as(&before, &w.server_head(), &[("QIJUDGE_OWNER_PUSH", "1")]);
    assert!(job.status.success(), "{}", text(&job));
    assert!(!text(&job).contains("does not permit"), "{}", text(&job));
    // Without the owner's mark the same job refuses the change.
    let unmarked = w.run_judge_job(&before, &w.server_head());
    assert!(
        text(&unmarked).contains("allow-list does not permit it"),
        "{}",
        text(&unmarked)
    );

    // Now a player's change under docs/ is checked and pushed; one elsewhere is still refused.
    git(&stranger, &["pull", "-q", "--ff-only"]);
    write(&stranger, "docs/rules.md", "Our club's house rules.\n");
    let check = w.pr_check(&stranger);
    assert!(check.status.success(), "{}", text(&check));
    let pushed = w.push_from(&stranger, "origin");
    assert!(pushed.status.success(), "{}", text(&pushed));
    write(&stranger, "notes.md", "not permitted\n");
    w.refused(&stranger, "the repository's allow-list does not permit it");

    // On the server itself the owner marks the push with QIJUDGE_OWNER_PUSH.
    git(&owner, &["pull", "-q", "--ff-only"]);
    write(&owner, ".qijudge-allow", "docs/\nnotes.md\n");
    let pushed = run_git(
        &owner,
        &["push", "-q", &server, "HEAD:main"],
        &[
            ("QIJUDGE_JUDGE_KEY", judge_key.as_str()),
            ("QIJUDGE_OWNER_PUSH", "1"),
        ],
    );
    assert!(pushed.status.success(), "{}", text(&pushed));
}
