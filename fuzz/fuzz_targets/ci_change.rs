//! The CI rules on a repository's tree diff (`qijudge ci`): whatever the games before and
//! after, the changed paths, their modes and blobs, the rules never panic, and what they keep
//! keeps every promise: no game of the base is lost or changed, no new game nests with another,
//! nothing in a game is a link or a submodule, and no set-aside carries other bytes than the
//! file it removes.
//!
//! A new game of a change is where the owner's allow-list permits one, in a folder that held
//! nothing, judged by the repository's judge, a few at a time; no path the change adds has a
//! twin under case folding or Unicode normalisation.
//!
//! Input, one item a line: `B FOLDER ID` and `H FOLDER ID` (the games of the base and of the
//! head), `C STATUS MODE OLDID NEWID PATH` (a change, relative to the repository's top),
//! `A PATTERN` (a line of the allow-list), `P PATH` and `Q PATH` (a file of the base tree and
//! of the new tree), `J FOLDER KEY` (the judge a new game's manifest names), `R KEY` (the
//! repository's judge) and `K COMMIT PATH` (a file a commit of the change adds). A commit list
//! that passes adds no setup in clear to any game.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::git::changes::{
    check_changes, check_commits, check_layout, games_allowed, Base, GameFacts, Layout,
    NEW_GAMES_PER_CHANGE,
};
use qijudge::protocol::record::Record;
use qijudge::store::git::Change;
use std::collections::BTreeMap;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (mut base, mut head) = (BTreeMap::new(), BTreeMap::new());
    let (mut changes, mut allow) = (Vec::new(), String::new());
    let (mut base_paths, mut head_paths) = (Vec::new(), Vec::new());
    let (mut new_judges, mut repo_judge) = (BTreeMap::new(), None);
    let mut commits: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let mut w = line.splitn(6, ' ');
        match (w.next(), w.next(), w.next()) {
            (Some("P"), Some(p), _) => base_paths.push(p.to_string()),
            (Some("Q"), Some(p), _) => head_paths.push(p.to_string()),
            (Some("J"), Some(f), Some(k)) => drop(new_judges.insert(f.to_string(), k.to_string())),
            (Some("R"), Some(k), _) => repo_judge = Some(k.to_string()),
            (Some("K"), Some(c), Some(p)) => match commits.last_mut() {
                Some((last, paths)) if last == c => paths.push(p.to_string()),
                _ => commits.push((c.to_string(), vec![p.to_string()])),
            },
            (Some("B"), Some(f), Some(id)) => drop(base.insert(f.to_string(), id.to_string())),
            (Some("H"), Some(f), Some(id)) => drop(head.insert(f.to_string(), id.to_string())),
            (Some("A"), Some(p), _) => allow.push_str(&format!("{p}\n")),
            (Some("C"), Some(status), Some(mode)) => {
                let (Some(old_id), Some(new_id), Some(path)) = (w.next(), w.next(), w.next())
                else {
                    continue;
                };
                changes.push(Change {
                    status: status.chars().next().unwrap_or('?'),
                    path: path.to_string(),
                    mode: mode.to_string(),
                    old_id: old_id.to_string(),
                    new_id: new_id.to_string(),
                });
            }
            _ => {}
        }
    }
    let games: Vec<&String> = base.keys().chain(head.keys()).collect();
    if check_commits(&games, &commits).is_ok() {
        for (_, paths) in &commits {
            for p in paths {
                let rest = games.iter().find_map(|g| p.strip_prefix(g.as_str()));
                assert!(!rest.is_some_and(|r| r.starts_with("setups/")), "{p:?} kept");
            }
        }
    }
    let layout = Layout {
        base: &base,
        head: &head,
        allow_list: Some(&allow),
        base_paths: &base_paths,
        head_paths: &head_paths,
        new_judges: &new_judges,
        repo_judge: repo_judge.as_deref(),
    };
    let Ok(touched) = check_layout(&layout, &changes) else { return };
    let new: Vec<&String> = head.keys().filter(|f| !base.contains_key(*f)).collect();
    assert!(new.len() <= NEW_GAMES_PER_CHANGE, "{} new games", new.len());
    for folder in new {
        assert!(games_allowed(&allow, folder), "{folder:?} not allowed");
        assert!(!folder.is_empty() && !folder.split('/').any(|p| p.starts_with('.')));
        assert!(!base_paths.iter().any(|p| p.starts_with(folder.as_str())), "{folder:?} held files");
        if let Some(r) = &repo_judge {
            assert_eq!(new_judges.get(folder), Some(r), "{folder:?} of another judge");
        }
    }
    let fold = |p: &str| {
        use unicode_normalization::UnicodeNormalization;
        p.nfc().collect::<String>().to_lowercase()
    };
    let added: Vec<&Change> = changes.iter().filter(|c| c.status == 'A').collect();
    for a in &added {
        for p in &head_paths {
            let twins = fold(p) == fold(&a.path) && *p != a.path;
            let at_base = |x: &str| {
                base_paths.iter().any(|b| b == x || b.starts_with(&format!("{x}/")))
            };
            let both_old = at_base(p) && at_base(&a.path);
            assert!(!twins || both_old || !head_paths.contains(&a.path), "{p:?} twins {a:?}");
        }
    }
    for (folder, id) in &base {
        assert_eq!(head.get(folder), Some(id), "the game in {folder:?} was lost");
    }
    for c in &changes {
        let in_game = base.keys().chain(head.keys()).any(|f| c.path.starts_with(f.as_str()));
        assert!(!in_game || c.leaves_regular_file(), "{c:?} kept in a game");
    }
    // Each touched game's own rules, on the changes inside it.
    for folder in touched {
        assert!(head.contains_key(&folder));
        let inside: Vec<Change> = changes
            .iter()
            .filter_map(|c| {
                let path = c.path.strip_prefix(folder.as_str())?.to_string();
                Some(Change { path, ..c.clone() })
            })
            .collect();
        for judge_commit in [false, true] {
            let game = GameFacts {
                seats: vec!["south".into(), "north".into()],
                sealed: true,
                judge_commit,
            };
            let record = Record::new();
            let base = Base {
                record_text: None,
                record: &record,
            };
            if check_changes(&game, &inside, &base, None).is_ok() {
                for c in inside.iter().filter(|c| c.path.starts_with("refused/")) {
                    assert!(judge_commit, "a stranger set {c:?} aside");
                    assert!(
                        inside.iter().any(|d| d.status == 'D' && d.old_id == c.new_id),
                        "{c:?} keeps bytes no file had"
                    );
                }
            }
        }
    }
});
