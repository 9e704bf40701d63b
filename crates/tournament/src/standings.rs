//! Results from game directories, standings, crosstable and Elo, in text, JSON, CSV and
//! Markdown. Everything here is computed from audited game directories alone and sorted, so the
//! same games give the same bytes whatever the order or the number of threads.

use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One game's result, by player name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct GameRecord {
    pub dir: String,
    pub game: String,
    /// The game's kind (`xiangqi`; `luzhanqi, 4 seats`): standings count one kind at a time.
    pub kind: String,
    /// Names in seat order (south, north), each once.
    pub players: Vec<String>,
    /// The winner's name (on a team, the first seat's), or none for a draw.
    pub winner: Option<String>,
    /// The names on each side, who win or lose together: one name per side, but for teams of
    /// different bots on the four-player board.
    pub sides: Vec<Vec<String>>,
    pub reason: String,
    pub plies: usize,
}

/// A game directory that could not be counted, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Invalid {
    pub dir: String,
    pub error: String,
}

/// Whether a game's judge is one to count games of: given the game's path and its manifest's
/// judge key line, `Err(why not)`.
pub type Trust<'a> = dyn Fn(&Path, &str) -> Result<(), String> + Sync + 'a;

/// Audits every directory, `threads` at a time; results in the order of `dirs`. A game that
/// verifies but was judged by a key `trust` refuses is invalid, with the reason.
pub fn collect(
    dirs: &[PathBuf],
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    trust: &Trust,
    checked: Checked,
) -> (Vec<GameRecord>, Vec<Invalid>) {
    let slots: Vec<Mutex<Option<Result<GameRecord, Invalid>>>> =
        dirs.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(dir) = dirs.get(i) else { break };
                let r = one(dir, trust, checked);
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                progress(done.fetch_add(1, Ordering::SeqCst) + 1, dirs.len());
            });
        }
    });
    let mut games = Vec::new();
    let mut invalid = Vec::new();
    for slot in slots {
        match slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(Ok(g)) => games.push(g),
            Some(Err(e)) => invalid.push(e),
            None => {}
        }
    }
    (games, invalid)
}

/// One directory's result, through its game's own audit, if its judge is trusted.
fn one(dir: &Path, trust: &Trust, checked: Checked) -> Result<GameRecord, Invalid> {
    let shown = dir.display().to_string();
    let invalid = |error: String| Invalid {
        dir: shown.clone(),
        error,
    };
    let summary = qijudge_registry::of_dir(dir).and_then(|g| match checked {
        Checked::Record => g.summary_trusting_record(dir),
        Checked::Audit => g.summary(dir),
    });
    let s = summary.map_err(|e| invalid(e.to_string()))?;
    trust(dir, &s.judge).map_err(invalid)?;
    Ok(from_summary(&shown, &s))
}

/// Judges' public keys to count games of, each with where it came from (a file named by
/// `--judge`, or a match folder's `keys/judge.pub`).
#[derive(Clone, Debug, Default)]
pub struct Judges {
    keys: Vec<(String, String)>,
}

impl Judges {
    /// Adds the key in `line` (an OpenSSH public key line), found at `from`.
    pub fn add(&mut self, line: &str, from: &str) -> Result<(), String> {
        let key = qijudge_protocol::signing::parse_public_key(line)
            .map_err(|e| format!("{from}: not a judge's public key: {e}"))?;
        self.keys.push((
            qijudge_protocol::signing::public_key_line(&key),
            from.into(),
        ));
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The keys, as OpenSSH public key lines.
    pub fn lines(&self) -> Vec<&str> {
        self.keys.iter().map(|(k, _)| k.as_str()).collect()
    }

    /// Ok when `judge` (a manifest's key line) is one of these keys; else why it does not
    /// count, naming the key by its fingerprint.
    pub fn check(&self, judge: &str) -> Result<(), String> {
        let parsed = qijudge_protocol::signing::parse_public_key(judge);
        let line = parsed
            .as_ref()
            .map(qijudge_protocol::signing::public_key_line)
            .unwrap_or_default();
        if self.keys.iter().any(|(k, _)| *k == line) {
            return Ok(());
        }
        let fingerprint = parsed
            .map(|k| k.fingerprint(ssh_key::HashAlg::Sha256).to_string())
            .unwrap_or_else(|_| judge.chars().take(60).collect());
        let trusted: Vec<&str> = self.keys.iter().map(|(_, from)| from.as_str()).collect();
        Err(format!(
            "judged by {fingerprint}, not a judge trusted here ({}); not counted",
            trusted.join(", ")
        ))
    }
}

/// A game's result as the game's own audit (`verify`) established it. A bot playing several
/// seats (a team) is named once.
pub fn from_summary(dir: &str, s: &qijudge_game::GameSummary) -> GameRecord {
    let mut players: Vec<String> = Vec::new();
    for (_, name) in &s.players {
        if !players.contains(name) {
            players.push(name.clone());
        }
    }
    let name_of = |seat: &String| {
        s.players
            .iter()
            .find(|(x, _)| x == seat)
            .map(|(_, n)| n.clone())
    };
    let mut sides: Vec<Vec<String>> = Vec::new();
    for side in &s.sides {
        let mut names: Vec<String> = Vec::new();
        for name in side.iter().filter_map(name_of) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        sides.push(names);
    }
    GameRecord {
        sides,
        dir: dir.to_string(),
        game: s.id.clone(),
        kind: s.kind.clone(),
        players,
        winner: s.winner.as_ref().and_then(|w| {
            s.players
                .iter()
                .find(|(seat, _)| seat == w)
                .map(|(_, n)| n.clone())
        }),
        reason: s.reason.clone(),
        plies: s.plies,
    }
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub rank: usize,
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points: f64,
    /// Sonneborn-Berger: the points of the opponents a player beat, plus half those it drew.
    pub sonneborn_berger: f64,
    /// Elo with a 95% interval half-width: for two players, the difference from the other that
    /// the score shows; for more, Bradley-Terry ratings, mean 0.
    pub elo: f64,
    pub elo_error: f64,
}

/// Standings, crosstable and the games they come from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub standings: Vec<Standing>,
    /// `crosstable[a][b]` = points a scored against b, and games played.
    pub crosstable: BTreeMap<String, BTreeMap<String, (f64, u32)>>,
    pub games: Vec<GameRecord>,
    pub invalid: Vec<Invalid>,
    /// Copies of a game already counted (same game id and result), counted once.
    pub duplicates: Vec<Duplicate>,
    /// How each player's games ended, by result and reason.
    pub endings: BTreeMap<String, Endings>,
    /// What was checked of each game, when the report says it (`tournament`): `record`, the
    /// pinned judge's signed record and the rules' replay; `audit`, every file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked: Option<Checked>,
}

/// How much of each game `tournament` checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Checked {
    /// The judge's signature on the record, the hash chain, the rules' replay of every
    /// recorded file (its bytes matched to its line), the revealed secrets.
    Record,
    /// Everything `verify` checks: every file's signature, every view.
    Audit,
}

impl Checked {
    fn words(self) -> &'static str {
        match self {
            Checked::Record => {
                "each game's record as its pinned judge signed it (one signature, the hash \
                 chain, the rules' replay of every file it holds); --audit checks every \
                 signature and view"
            }
            Checked::Audit => "every file of every game, as verify does (--audit)",
        }
    }
}

/// How one player's games ended: reason → count, for its wins, draws and losses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Endings {
    pub won: BTreeMap<String, u32>,
    pub drawn: BTreeMap<String, u32>,
    pub lost: BTreeMap<String, u32>,
}

impl Endings {
    /// `won 3 (flag captured 2, no legal move 1); lost 1 (resignation 1)`.
    fn describe(&self) -> String {
        let part = |word: &str, m: &BTreeMap<String, u32>| {
            let total: u32 = m.values().sum();
            let each: Vec<String> = m.iter().map(|(r, n)| format!("{r} {n}")).collect();
            (total > 0).then(|| format!("{word} {total} ({})", each.join(", ")))
        };
        [
            part("won", &self.won),
            part("drew", &self.drawn),
            part("lost", &self.lost),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ")
    }
}

/// A directory holding a game already counted from another directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Duplicate {
    pub dir: String,
    pub game: String,
    /// The directory the game is counted from (the first by name).
    pub counted: String,
}

/// Counts each game once. Copies of a game (a hand-merged shard, a backup) share its id and its
/// result: the first directory by name counts, the others are listed. Copies whose results
/// differ cannot both come from one honest judge: none of them counts, each is invalid.
fn count_once(
    games: Vec<GameRecord>,
    invalid: &mut Vec<Invalid>,
) -> (Vec<GameRecord>, Vec<Duplicate>) {
    let mut kept: Vec<GameRecord> = Vec::new();
    let mut first: BTreeMap<String, usize> = BTreeMap::new();
    let mut duplicates = Vec::new();
    let mut conflicting = std::collections::BTreeSet::new();
    let result = |g: &GameRecord| {
        (
            g.players.clone(),
            g.winner.clone(),
            g.reason.clone(),
            g.plies,
        )
    };
    for g in games {
        match first.get(&g.game) {
            None => {
                first.insert(g.game.clone(), kept.len());
                kept.push(g);
            }
            Some(&i) if result(&kept[i]) == result(&g) => duplicates.push(Duplicate {
                dir: g.dir,
                game: g.game,
                counted: kept[i].dir.clone(),
            }),
            Some(&i) => {
                conflicting.insert(g.game.clone());
                invalid.push(Invalid {
                    error: format!(
                        "conflict: game {} here and in {} has two different results, both \
                         signed by a trusted judge; neither counts until one is removed",
                        g.game, kept[i].dir
                    ),
                    dir: g.dir,
                });
            }
        }
    }
    let (bad, kept): (Vec<_>, Vec<_>) = kept
        .into_iter()
        .partition(|g| conflicting.contains(&g.game));
    for g in bad {
        invalid.push(Invalid {
            error: format!(
                "conflict: game {} has another copy with a different result (listed); neither \
                 counts until one is removed",
                g.game
            ),
            dir: g.dir,
        });
    }
    duplicates.retain(|d| !conflicting.contains(&d.game));
    (kept, duplicates)
}

/// Computes the report. Games are sorted by directory first, and each game counts once.
pub fn report(mut games: Vec<GameRecord>, mut invalid: Vec<Invalid>) -> Report {
    games.sort_by(|a, b| a.dir.cmp(&b.dir));
    let (games, duplicates) = count_once(games, &mut invalid);
    invalid.sort_by(|a, b| a.dir.cmp(&b.dir));
    let mut cross: BTreeMap<String, BTreeMap<String, (f64, u32)>> = BTreeMap::new();
    let mut lines: BTreeMap<String, Standing> = BTreeMap::new();
    let mut endings: BTreeMap<String, Endings> = BTreeMap::new();
    for g in &games {
        for me in &g.players {
            let mine = g.sides.iter().find(|side| side.contains(me));
            let score = match (&g.winner, mine) {
                (None, _) => 0.5,
                (Some(w), Some(side)) if side.contains(w) => 1.0,
                (Some(_), _) => 0.0,
            };
            // A team game counts against each opponent; partners do not meet.
            for opp in g.sides.iter().filter(|s| Some(*s) != mine).flatten() {
                let e = cross
                    .entry(me.clone())
                    .or_default()
                    .entry(opp.clone())
                    .or_default();
                e.0 += score;
                e.1 += 1;
            }
            let s = lines.entry(me.clone()).or_insert_with(|| Standing {
                rank: 0,
                name: me.clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                points: 0.0,
                sonneborn_berger: 0.0,
                elo: 0.0,
                elo_error: 0.0,
            });
            s.games += 1;
            s.points += score;
            let e = endings.entry(me.clone()).or_default();
            let tally = match score {
                1.0 => &mut e.won,
                0.0 => &mut e.lost,
                _ => &mut e.drawn,
            };
            *tally.entry(g.reason.clone()).or_insert(0) += 1;
            match score {
                1.0 => s.wins += 1,
                0.0 => s.losses += 1,
                _ => s.draws += 1,
            }
        }
    }
    let points: BTreeMap<String, f64> = lines.iter().map(|(n, s)| (n.clone(), s.points)).collect();
    for (name, row) in &cross {
        let sb: f64 = row
            .iter()
            .map(|(opp, (score, _))| score * points.get(opp).copied().unwrap_or(0.0))
            .sum();
        if let Some(s) = lines.get_mut(name) {
            s.sonneborn_berger = sb;
        }
    }
    // Two players: the Elo difference their score shows, the figure the progress line, the
    // SPRT and fastchess give (each player's rating is its difference from the other); else,
    // or while one has every point, the Bradley-Terry fit.
    let names: Vec<&String> = cross.keys().collect();
    let head_to_head = match names[..] {
        [a, b] => lines
            .get(a)
            .and_then(|s| elo_of(s.wins, s.draws, s.losses))
            .map(|(diff, err)| {
                BTreeMap::from([
                    (a.clone(), (round1(diff), round1(err))),
                    (b.clone(), (round1(-diff) + 0.0, round1(err))),
                ])
            }),
        _ => None,
    };
    let elo = head_to_head.unwrap_or_else(|| bradley_terry(&cross));
    for (name, (r, e)) in elo {
        if let Some(s) = lines.get_mut(&name) {
            s.elo = r;
            s.elo_error = e;
        }
    }
    let mut standings: Vec<Standing> = lines.into_values().collect();
    standings.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.sonneborn_berger.total_cmp(&a.sonneborn_berger))
            .then(b.wins.cmp(&a.wins))
            .then(a.name.cmp(&b.name))
    });
    for (i, s) in standings.iter_mut().enumerate() {
        s.rank = i + 1;
    }
    Report {
        standings,
        crosstable: cross,
        games,
        invalid,
        duplicates,
        endings,
        checked: None,
    }
}

/// Bradley-Terry ratings by the minorisation-maximisation iteration, draws counting half a win
/// each way, with one virtual draw added per pair that met (so a perfect score stays finite).
/// Elo = 400·log10(strength), shifted to mean 0; the error is 1.96 standard errors from the
/// Fisher information of each player's games.
fn bradley_terry(
    cross: &BTreeMap<String, BTreeMap<String, (f64, u32)>>,
) -> BTreeMap<String, (f64, f64)> {
    let names: Vec<&String> = cross.keys().collect();
    let n = names.len();
    let idx = |s: &String| names.iter().position(|x| *x == s);
    let mut games = vec![vec![0.0; n]; n];
    let mut wins = vec![0.0; n];
    for (a, row) in cross {
        let Some(i) = idx(a) else { continue };
        for (b, (score, played)) in row {
            let Some(j) = idx(b) else { continue };
            games[i][j] += *played as f64 + 1.0;
            wins[i] += score + 0.5;
        }
    }
    let mut strength = vec![1.0f64; n];
    for _ in 0..2000 {
        let mut next = strength.clone();
        for i in 0..n {
            let denom: f64 = (0..n)
                .filter(|&j| games[i][j] > 0.0)
                .map(|j| games[i][j] / (strength[i] + strength[j]))
                .sum();
            if denom > 0.0 {
                next[i] = wins[i] / denom;
            }
        }
        let mean_log = next.iter().map(|s| s.ln()).sum::<f64>() / n.max(1) as f64;
        next.iter_mut().for_each(|s| *s /= mean_log.exp());
        let delta = next
            .iter()
            .zip(&strength)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        strength = next;
        if delta < 1e-12 {
            break;
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let info: f64 = (0..n)
                .map(|j| {
                    let p = strength[i] / (strength[i] + strength[j]);
                    games[i][j] * p * (1.0 - p)
                })
                .sum();
            let elo = scale * strength[i].ln();
            let err = if info > 0.0 {
                1.96 * scale / info.sqrt()
            } else {
                f64::INFINITY
            };
            ((*name).clone(), (round1(elo), round1(err)))
        })
        .collect()
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Csv,
    Markdown,
}

/// Renders a report.
pub fn render(r: &Report, format: Format) -> String {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(r).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Csv => {
            let mut s = String::from(
                "rank,name,games,wins,draws,losses,points,sonneborn_berger,elo,elo_error\n",
            );
            for x in &r.standings {
                s.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{},{}\n",
                    x.rank,
                    csv(&x.name),
                    x.games,
                    x.wins,
                    x.draws,
                    x.losses,
                    x.points,
                    x.sonneborn_berger,
                    x.elo,
                    x.elo_error
                ));
            }
            s
        }
        Format::Markdown => {
            let mut s = String::from("| # | player | games | W | D | L | points | SB | Elo |\n|---|---|---|---|---|---|---|---|---|\n");
            for x in &r.standings {
                s.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} ± {} |\n",
                    x.rank,
                    x.name.replace('|', "\\|"),
                    x.games,
                    x.wins,
                    x.draws,
                    x.losses,
                    x.points,
                    x.sonneborn_berger,
                    x.elo,
                    x.elo_error
                ));
            }
            s.push_str(&crosstable_text(r, true));
            s.push_str(&endings_text(r, "- "));
            if let Some(c) = r.checked {
                s.push_str(&format!("\nChecked: {}.\n", c.words()));
            }
            if !r.invalid.is_empty() {
                s.push_str(&format!("\n{} invalid game(s):\n\n", r.invalid.len()));
                for i in &r.invalid {
                    s.push_str(&format!("- `{}`: {}\n", i.dir, i.error.replace('\n', " ")));
                }
            }
            if !r.duplicates.is_empty() {
                s.push_str(&format!(
                    "\n{} duplicate cop(ies), counted once:\n\n",
                    r.duplicates.len()
                ));
                for d in &r.duplicates {
                    s.push_str(&format!(
                        "- `{}`: game {}, counted from `{}`\n",
                        d.dir, d.game, d.counted
                    ));
                }
            }
            s
        }
        Format::Text => {
            let mut s = format!("{} games, {} invalid", r.games.len(), r.invalid.len());
            if let Some(c) = r.checked {
                s.push_str(&format!("; checked: {}", c.words()));
            }
            if !r.duplicates.is_empty() {
                s.push_str(&format!(
                    ", {} duplicate cop{} counted once",
                    r.duplicates.len(),
                    if r.duplicates.len() == 1 { "y" } else { "ies" }
                ));
            }
            s.push_str("\n\n");
            // Columns as wide as the longest name; numbers with fixed decimals.
            let w = r
                .standings
                .iter()
                .map(|x| x.name.chars().count())
                .max()
                .unwrap_or(0)
                .max(20);
            s.push_str(&format!(
                "{:>3}  {:<w$} {:>5} {:>4} {:>4} {:>4} {:>7} {:>7} {:>15}\n",
                "#", "player", "games", "W", "D", "L", "points", "SB", "Elo"
            ));
            for x in &r.standings {
                s.push_str(&format!(
                    "{:>3}  {:<w$} {:>5} {:>4} {:>4} {:>4} {:>7.1} {:>7.2} {:>15}\n",
                    x.rank,
                    x.name,
                    x.games,
                    x.wins,
                    x.draws,
                    x.losses,
                    x.points,
                    x.sonneborn_berger,
                    format!("{:.1} ± {:.1}", x.elo, x.elo_error)
                ));
            }
            s.push_str(&crosstable_text(r, false));
            s.push_str(&endings_text(r, "  "));
            for i in &r.invalid {
                s.push_str(&format!(
                    "invalid: {}: {}\n",
                    i.dir,
                    i.error.lines().next().unwrap_or("")
                ));
            }
            for d in &r.duplicates {
                s.push_str(&format!(
                    "duplicate: {} holds game {}, counted from {}\n",
                    d.dir, d.game, d.counted
                ));
            }
            s
        }
    }
}

/// The standings of games of several kinds (Banqi and Xiangqi in one folder): one report per
/// kind, in the kinds' name order, and the games that could not be counted (whose kind may be
/// unknown) after them. With one kind, [`render`] of its report.
pub fn render_kinds(reports: &[(String, Report)], invalid: &[Invalid], format: Format) -> String {
    match format {
        Format::Json => {
            let kinds: Vec<serde_json::Value> = reports
                .iter()
                .map(|(kind, r)| {
                    let mut v = serde_json::to_value(r).unwrap_or_default();
                    v["kind"] = serde_json::Value::String(kind.clone());
                    v
                })
                .collect();
            let all = serde_json::json!({ "kinds": kinds, "invalid": invalid });
            let mut s = serde_json::to_string_pretty(&all).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Csv => {
            let mut s = String::new();
            for (i, (kind, r)) in reports.iter().enumerate() {
                for (n, line) in render(r, Format::Csv).lines().enumerate() {
                    match n {
                        0 if i == 0 => s.push_str(&format!("kind,{line}\n")),
                        0 => {}
                        _ => s.push_str(&format!("{},{line}\n", csv(kind))),
                    }
                }
            }
            s
        }
        Format::Markdown | Format::Text => {
            let markdown = format == Format::Markdown;
            let mut s = String::new();
            for (i, (kind, r)) in reports.iter().enumerate() {
                if i > 0 {
                    s.push('\n');
                }
                match markdown {
                    true => s.push_str(&format!("## {kind}\n\n")),
                    false => s.push_str(&format!("== {kind} ==\n")),
                }
                s.push_str(&render(r, format));
            }
            for i in invalid {
                let error = i.error.lines().next().unwrap_or("");
                match markdown {
                    true => s.push_str(&format!("\n- invalid: `{}`: {error}\n", i.dir)),
                    false => s.push_str(&format!("invalid: {}: {error}\n", i.dir)),
                }
            }
            s
        }
    }
}

/// Games grouped by kind, in the kinds' name order.
pub fn by_kind(games: Vec<GameRecord>) -> Vec<(String, Vec<GameRecord>)> {
    let mut kinds: BTreeMap<String, Vec<GameRecord>> = BTreeMap::new();
    for g in games {
        kinds.entry(g.kind.clone()).or_default().push(g);
    }
    kinds.into_iter().collect()
}

/// How each player's games ended, in standings order, one line each after `bullet`.
fn endings_text(r: &Report, bullet: &str) -> String {
    let mut s = String::from("\nEndings:\n");
    if bullet == "- " {
        s.push('\n');
    }
    for x in &r.standings {
        if let Some(e) = r.endings.get(&x.name) {
            s.push_str(&format!("{bullet}{}: {}\n", x.name, e.describe()));
        }
    }
    s
}

fn crosstable_text(r: &Report, markdown: bool) -> String {
    let names: Vec<&String> = r.standings.iter().map(|s| &s.name).collect();
    let cell = |a: &String, b: &String| match r.crosstable.get(a).and_then(|row| row.get(b)) {
        Some((score, n)) => format!("{score}/{n}"),
        None if a == b => "—".into(),
        None => "".into(),
    };
    let mut s = String::from("\ncrosstable (points/games, row against column)\n");
    if markdown {
        s = String::from("\nCrosstable (points/games, row against column):\n\n| |");
        for n in &names {
            s.push_str(&format!(" {n} |"));
        }
        s.push_str(&format!("\n|{}\n", "---|".repeat(names.len() + 1)));
        for a in &names {
            s.push_str(&format!("| {a} |"));
            for b in &names {
                s.push_str(&format!(" {} |", cell(a, b)));
            }
            s.push('\n');
        }
        return s;
    }
    let w = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(20);
    let cw = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(12);
    s.push_str(&format!("{:<w$}", ""));
    for n in &names {
        s.push_str(&format!(" {n:>cw$}"));
    }
    s.push('\n');
    for a in &names {
        s.push_str(&format!("{a:<w$}"));
        for b in &names {
            s.push_str(&format!(" {:>cw$}", cell(a, b)));
        }
        s.push('\n');
    }
    s
}

fn csv(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The Elo difference a score of w wins, d draws and l losses shows, and the half-width of its
/// 95% interval (the score's standard error carried through the logistic curve); none while
/// the score is 0 or 100% (no finite estimate).
pub fn elo_of(w: u32, d: u32, l: u32) -> Option<(f64, f64)> {
    let n = (w + d + l) as f64;
    if w as f64 == n || l as f64 == n {
        return None;
    }
    let score = (w as f64 + d as f64 / 2.0) / n;
    let var = (w as f64 * (1.0 - score).powi(2)
        + d as f64 * (0.5 - score).powi(2)
        + l as f64 * score.powi(2))
        / n;
    let elo = -400.0 * (1.0 / score - 1.0).log10();
    // d(Elo)/d(score) = 400 / (ln 10 · s · (1 − s)).
    let slope = 400.0 / (std::f64::consts::LN_10 * score * (1.0 - score));
    Some((elo, 1.96 * slope * (var / n).sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(dir: &str, a: &str, b: &str, winner: Option<&str>) -> GameRecord {
        GameRecord {
            dir: dir.into(),
            game: format!("lzq-{dir}"),
            kind: "xiangqi".into(),
            players: vec![a.into(), b.into()],
            winner: winner.map(str::to_string),
            sides: vec![vec![a.into()], vec![b.into()]],
            reason: "flag captured".into(),
            plies: 10,
        }
    }

    #[test]
    fn a_game_copied_counts_once_and_conflicting_copies_not_at_all() {
        let copy = |dir: &str, game: &str, winner: &str| GameRecord {
            game: game.into(),
            ..g(dir, "alice", "bob", Some(winner))
        };
        let r = report(
            vec![
                copy("shard-b/g1", "lzq-1", "alice"),
                copy("shard-a/g1", "lzq-1", "alice"),
                copy("shard-a/g2", "lzq-2", "bob"),
                copy("shard-b/g2", "lzq-2", "alice"),
                copy("shard-a/g3", "lzq-3", "bob"),
            ],
            Vec::new(),
        );
        // lzq-1 from shard-a (first by name), its copy listed; lzq-2's copies disagree.
        let counted: Vec<&str> = r.games.iter().map(|g| g.dir.as_str()).collect();
        assert_eq!(counted, ["shard-a/g1", "shard-a/g3"]);
        assert_eq!(
            r.duplicates,
            [Duplicate {
                dir: "shard-b/g1".into(),
                game: "lzq-1".into(),
                counted: "shard-a/g1".into()
            }]
        );
        let invalid: Vec<&str> = r.invalid.iter().map(|i| i.dir.as_str()).collect();
        assert_eq!(invalid, ["shard-a/g2", "shard-b/g2"]);
        assert!(r.invalid[0].error.contains("neither counts"));
        let alice = r.standings.iter().find(|s| s.name == "alice").unwrap();
        assert_eq!((alice.games, alice.wins), (2, 1));
        let text = render(&r, Format::Text);
        assert!(
            text.starts_with("2 games, 2 invalid, 1 duplicate copy counted once\n"),
            "{text}"
        );
        assert!(text.contains("duplicate: shard-b/g1 holds game lzq-1, counted from shard-a/g1"));
        // How each player's games ended.
        assert!(
            text.contains("Endings:\n  alice: won 1 (flag captured 1); lost 1 (flag captured 1)\n"),
            "{text}"
        );
        assert_eq!(r.endings["bob"].won["flag captured"], 1);
    }

    #[test]
    fn standings_points_tie_breaks_and_elo() {
        let games = vec![
            g("1", "ann", "bob", Some("ann")),
            g("2", "bob", "ann", Some("ann")),
            g("3", "ann", "cat", None),
            g("4", "cat", "bob", Some("cat")),
            g("5", "bob", "cat", Some("bob")),
        ];
        let r = report(games.clone(), vec![]);
        let names: Vec<&str> = r.standings.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ann", "cat", "bob"]);
        let ann = &r.standings[0];
        assert_eq!(
            (ann.games, ann.wins, ann.draws, ann.losses, ann.points),
            (3, 2, 1, 0, 2.5)
        );
        // ann beat bob twice (bob has 1 point) and drew cat (1.5 points): 2×1 + 0.5×1.5.
        assert_eq!(ann.sonneborn_berger, 2.75);
        assert_eq!(r.crosstable["ann"]["bob"], (2.0, 2));
        assert!(r.standings[0].elo > 0.0 && r.standings[2].elo < 0.0 && ann.elo_error > 0.0);
        let sum: f64 = r.standings.iter().map(|s| s.elo).sum();
        assert!(sum.abs() < 0.5, "mean 0: {sum}");
        // Order of input and rendering are deterministic.
        let mut reversed = games;
        reversed.reverse();
        assert_eq!(
            render(&report(reversed, vec![]), Format::Json),
            render(&r, Format::Json)
        );
        assert!(render(&r, Format::Csv).starts_with("rank,name,"));
        assert!(render(&r, Format::Markdown).contains("| 1 | ann | 3 | 2 | 1 | 0 | 2.5 |"));
    }

    #[test]
    fn a_team_game_counts_against_each_opponent_and_not_the_partner() {
        let mut game = g("1", "ann", "bob", Some("ann"));
        game.players = vec!["ann".into(), "bob".into(), "cat".into(), "dan".into()];
        game.sides = vec![
            vec!["ann".into(), "cat".into()],
            vec!["bob".into(), "dan".into()],
        ];
        let r = report(vec![game], vec![]);
        let line = |n: &str| r.standings.iter().find(|s| s.name == n).unwrap().clone();
        assert_eq!((line("cat").wins, line("cat").points), (1, 1.0));
        assert_eq!((line("dan").losses, line("dan").points), (1, 0.0));
        assert_eq!(r.crosstable["cat"]["bob"], (1.0, 1));
        assert_eq!(r.crosstable["cat"]["dan"], (1.0, 1));
        assert!(!r.crosstable["cat"].contains_key("ann"));
        // Long names keep the columns aligned.
        let mut long = g("2", "a-very-long-bot-name-indeed", "b", None);
        long.dir = "2".into();
        let text = render(&report(vec![long], vec![]), Format::Text);
        let rows: Vec<&str> = text.lines().skip(2).take(3).collect();
        let width = |row: &str| row.chars().count();
        assert!(
            width(rows[0]) == width(rows[1]) && width(rows[1]) == width(rows[2]),
            "{text}"
        );
    }

    #[test]
    fn two_player_elo_matches_the_logistic_formula() {
        // 30 wins in 40 games: the difference the score shows, each player's from the other,
        // the figure the progress line prints.
        let games: Vec<GameRecord> = (0..40)
            .map(|i| {
                g(
                    &i.to_string(),
                    "a",
                    "b",
                    Some(if i < 30 { "a" } else { "b" }),
                )
            })
            .collect();
        let r = report(games, vec![]);
        let p: f64 = 30.0 / 40.0;
        let expected = 400.0 * (p / (1.0 - p)).log10();
        let (live, err) = super::elo_of(30, 0, 10).unwrap();
        assert!((live - expected).abs() < 1e-9);
        assert_eq!(r.standings[0].elo, round1(expected));
        assert_eq!(r.standings[1].elo, -round1(expected));
        assert_eq!(r.standings[0].elo_error, round1(err));
        // A perfect score has no finite figure: the ratings of the fit stand in.
        let sweep: Vec<GameRecord> = (0..4)
            .map(|i| g(&i.to_string(), "a", "b", Some("a")))
            .collect();
        let r = report(sweep, vec![]);
        assert!(r.standings[0].elo > 0.0 && r.standings[0].elo.is_finite());
    }
}
