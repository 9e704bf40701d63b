//! game.toml: parsing must never panic, and what parses prints back to the same bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::protocol::files::{parse_toml, to_toml, Manifest};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(m) = parse_toml::<Manifest>(text) {
            assert_eq!(to_toml(&m), text);
        }
    }
});
