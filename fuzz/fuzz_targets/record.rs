//! record.jsonl: parsing and chain checking never panic; what parses prints back identically.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::protocol::record::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let genesis = "sha256:0000000000000000000000000000000000000000000000000000000000000000";
    if let Ok(r) = Record::parse(text, genesis) {
        assert_eq!(r.to_text(), text);
    }
});
