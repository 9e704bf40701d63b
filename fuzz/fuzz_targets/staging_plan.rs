//! A staging PLAN anyone could have written: a line is followed only if it names a plain path to
//! a judge output inside the game folder, never an absolute path, `..` or an empty segment.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::store::{is_judge_output, plan_step};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for line in text.lines() {
        if let Some((staged, rel)) = plan_step(line) {
            assert!(is_judge_output(rel));
            assert!(!rel.starts_with('/') && !rel.split('/').any(|p| p.is_empty() || p == ".."));
            assert!(staged.is_none_or(|s| s.bytes().all(|b| b.is_ascii_digit())));
        }
    }
});
