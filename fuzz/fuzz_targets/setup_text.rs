//! Hand-written setups: parsing and validation never panic; a valid setup's canonical bytes
//! read back as the same setup.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::games::luzhanqi::rules::{two_player, Placement, Seat, Setup};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let b = two_player();
    for seat in [Seat(0), Seat(1)] {
        if let Ok(p) = Placement::from_toml(text, b, seat) {
            if let Ok(s) = Setup::validate(b, seat, &p) {
                let canonical = String::from_utf8(s.canonical_bytes(b)).unwrap();
                assert_eq!(qijudge::games::luzhanqi::referee::parse_canonical_setup(&canonical, b, seat).unwrap(), s);
            }
        }
    }
});
