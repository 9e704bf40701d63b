//! Commitment, secret setup and move files, and the canonical setup string inside a setup.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::protocol::files::{parse_toml, to_toml, CommitmentFile, MoveFile, SetupFile};
use qijudge::games::luzhanqi::rules::{two_player, Seat};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(f) = parse_toml::<MoveFile>(text) {
        assert_eq!(to_toml(&f), text);
    }
    if let Ok(f) = parse_toml::<CommitmentFile>(text) {
        assert_eq!(to_toml(&f), text);
    }
    if let Ok(f) = parse_toml::<SetupFile>(text) {
        assert_eq!(to_toml(&f), text);
    }
    for seat in [Seat(0), Seat(1)] {
        let _ = qijudge::games::luzhanqi::referee::parse_canonical_setup(text, two_player(), seat);
    }
});
