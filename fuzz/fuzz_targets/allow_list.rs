//! The repository's allow-list against pushed paths: never panics, and stays fast whatever
//! the patterns (each pattern and path position is tried once).
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::git::changes::allowed;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (list, path) = text.split_once('\0').unwrap_or((text, "docs/a.md"));
    let yes = allowed(list, path);
    // A list naming the path exactly always allows it.
    if !path.contains(['\n', '#', '*']) && !path.trim().is_empty() && path.trim() == path {
        assert!(allowed(&format!("{list}\n{path}\n"), path), "{path:?}");
    }
    let _ = yes;
});
