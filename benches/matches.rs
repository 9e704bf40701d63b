//! Bot matches: games per second for random-vs-random with in-process bots and with process
//! bots (`qijudge bot random`), and the judge's own cost per ply (in-process bots cost next to
//! nothing, so the in-process time per ply is the runner and judge overhead).
//! Also the bytes each finished game keeps, as a folder and packed (`--pack`), and Xiangqi and
//! four-player matches (played through `Game::play_match`). Run with `cargo build --release && TMPDIR=/dev/shm cargo
//! bench --bench matches`: on a disk, file-system noise moves the in-process figure by half
//! between two runs of the same binary.

use qijudge::tournament::runner::{run_match, BotEntry, MatchConfig};
use std::time::Instant;

fn config(out: &std::path::Path, bots: [BotEntry; 2], games: u32) -> MatchConfig {
    let mut cfg = MatchConfig::new("luzhanqi", bots.to_vec(), out).unwrap();
    cfg.games = games;
    cfg.seed = 3;
    cfg.now = "2026-11-21T12:00:00Z".into();
    cfg
}

fn plies(games: &[qijudge::tournament::standings::GameRecord]) -> usize {
    games.iter().map(|g| g.plies).sum()
}

/// (apparent bytes, bytes on disk) of everything below `dir`: file sizes, and the blocks the
/// file system gave them (what `du` counts).
fn disk_use(dir: &std::path::Path) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let mut total = (0, 0);
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let meta = entry.metadata().unwrap();
        let (a, b) = if meta.is_dir() {
            let (a, b) = disk_use(&entry.path());
            (a, b + meta.blocks() * 512)
        } else {
            (meta.len(), meta.blocks() * 512)
        };
        total = (total.0 + a, total.1 + b);
    }
    total
}

/// Plays `cfg` and prints games/s, time per ply, and the bytes each game keeps; returns the
/// seconds it took.
fn measure(label: &str, cfg: &MatchConfig, target: &str) -> f64 {
    let t = Instant::now();
    let played = run_match(cfg, &|_| false).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let n = plies(&played.games);
    let games = played.games.len().max(1);
    let (apparent, disk) = disk_use(&cfg.out.join("games"));
    println!(
        "{label}: {:.2} games/s ({games} games, {n} plies, {:.0} µs per ply{target}); per game {:.1} KB of data, {:.1} KB on disk",
        games as f64 / secs,
        secs / n.max(1) as f64 * 1e6,
        apparent as f64 / games as f64 / 1000.0,
        disk as f64 / games as f64 / 1000.0,
    );
    secs
}

/// The same match written to a disk folder (`target/bench-disk`, made fresh: folders just
/// emptied make ext4 search its recently freed inodes on every file it creates) and to tmpfs
/// (`/dev/shm`), three times each, alternated; prints the ratio of the best times.
fn disk_against_tmpfs(label: &str, make: &dyn Fn(&std::path::Path) -> MatchConfig) {
    let shm = std::path::Path::new("/dev/shm");
    if !shm.is_dir() {
        println!("{label}: no /dev/shm here, disk/tmpfs not measured");
        return;
    }
    let disk_root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-disk");
    std::fs::create_dir_all(&disk_root).unwrap();
    let (mut disk, mut tmpfs) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let on_disk = tempfile::tempdir_in(&disk_root).unwrap();
        disk = disk.min(measure(
            &format!("{label}, disk"),
            &make(on_disk.path()),
            "",
        ));
        let in_memory = tempfile::tempdir_in(shm).unwrap();
        tmpfs = tmpfs.min(measure(
            &format!("{label}, tmpfs"),
            &make(in_memory.path()),
            "",
        ));
    }
    println!(
        "{label}: disk {disk:.3} s, tmpfs {tmpfs:.3} s, ratio {:.2} (target ≤ 1.3)",
        disk / tmpfs
    );
}

fn main() {
    let exe = std::env::current_exe().unwrap();
    let qijudge = exe
        .parent()
        .and_then(|p| p.parent())
        .map(|p| p.join("qijudge"))
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let games = 20;
    let random = || {
        [
            BotEntry::parse("a=builtin:random"),
            BotEntry::parse("b=builtin:random"),
        ]
    };
    let unpacked = config(&tmp.path().join("a"), random(), games);
    measure(
        "in-process random vs random, folders",
        &unpacked,
        "; target ≤ 150 µs",
    );
    // Greedy bots read their views: the runner builds one per ply for them.
    let greedy = config(
        &tmp.path().join("g"),
        [
            BotEntry::parse("a=builtin:greedy"),
            BotEntry::parse("b=builtin:greedy"),
        ],
        games,
    );
    measure("in-process greedy vs greedy, folders", &greedy, "");
    let mut packed = config(&tmp.path().join("p"), random(), games);
    packed.pack = true;
    measure("in-process random vs random, --pack", &packed, "");
    let mut xiangqi =
        MatchConfig::new("xiangqi", random().to_vec(), &tmp.path().join("x")).unwrap();
    xiangqi.games = 2;
    measure(
        "xiangqi, in-process random vs random, folders",
        &xiangqi,
        "",
    );
    // Four players, two bots (each plays a team): the same session, a longer game.
    let mut cross = config(&tmp.path().join("c"), random(), 4);
    cross.board = "cross4".into();
    measure(
        "cross board, in-process random vs random, folders",
        &cross,
        "",
    );
    // Greedy against random, as folders and packed (packed games are written from memory, one
    // file each).
    let greedy_random = || {
        [
            BotEntry::parse("a=builtin:greedy"),
            BotEntry::parse("b=builtin:random"),
        ]
    };
    for pack in [false, true] {
        let flag = if pack { ", --pack" } else { "" };
        disk_against_tmpfs(
            &format!("luzhanqi greedy vs random, 20 games{flag}"),
            &|out| {
                let mut cfg = config(&out.join("m"), greedy_random(), games);
                cfg.pack = pack;
                cfg
            },
        );
        disk_against_tmpfs(
            &format!("xiangqi greedy vs random, 8 games{flag}"),
            &|out| {
                let mut cfg =
                    MatchConfig::new("xiangqi", greedy_random().to_vec(), &out.join("m")).unwrap();
                cfg.games = 8;
                cfg.seed = 3;
                cfg.pack = pack;
                cfg
            },
        );
    }
    if qijudge.exists() {
        let cmd = |name: &str| BotEntry::parse(&format!("{name}={} bot random", qijudge.display()));
        // Each process bot starts in its sandbox (bubblewrap, then Landlock by qijudge
        // itself), once per game; the same match unconfined shows what the sandbox costs.
        let mut procs = config(&tmp.path().join("b"), [cmd("a"), cmd("b")], games);
        procs.sandbox.launcher = Some(qijudge.clone());
        measure(
            "process random vs random, folders",
            &procs,
            "; target ≤ 300 µs",
        );
        let mut off = config(&tmp.path().join("o"), [cmd("a"), cmd("b")], games);
        off.sandbox.off = true;
        measure("process random vs random, --bot-sandbox off", &off, "");
        // Packed (no game folder on disk, whose writes vary run to run): what the sandbox and
        // the bot limits cost, with the default limits (a cgroup per bot where one can be made,
        // sized tmpfs, rlimits, the limits checked after every answer) and with none.
        let packed = |dir: &str, limits: &str| {
            let mut cfg = config(&tmp.path().join(dir), [cmd("a"), cmd("b")], games);
            cfg.sandbox.launcher = Some(qijudge.clone());
            cfg.pack = true;
            cfg.limits =
                qijudge::tournament::limits::MatchLimits::parse(&[limits.into()], &[]).unwrap();
            cfg
        };
        measure(
            "process random vs random, --pack, default limits",
            &packed("pl", ""),
            "",
        );
        measure(
            "process random vs random, --pack, no limits",
            &packed(
                "pn",
                "memory=unlimited,processes=unlimited,disk=unlimited,log=unlimited,files=unlimited",
            ),
            "",
        );
    } else {
        println!("process bots: build the binary first (cargo build --release)");
    }
}
