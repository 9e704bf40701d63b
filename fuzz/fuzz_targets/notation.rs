//! Move notation: parse never panics; what parses prints back to the trimmed input.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::games::luzhanqi::rules::{two_player, Move};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let b = two_player();
    if let Ok(m) = Move::parse(text, b) {
        let printed = m.display(b);
        assert_eq!(Move::parse(&printed, b), Ok(m));
    }
});
