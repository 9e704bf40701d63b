//! Round trip: any value the parsers accept prints to bytes that parse to the same value and
//! print to the same bytes again (TOML player files and JSON record lines).
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::protocol::files::*;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Loose parse (no canonical check), then print, parse strictly, print again.
    if let Ok(v) = toml::from_str::<MoveFile>(text) {
        let once = to_toml(&v);
        let back: MoveFile = parse_toml(&once).expect("printed move parses");
        assert_eq!(back, v);
        assert_eq!(to_toml(&back), once);
    }
    if let Ok(v) = serde_json::from_str::<RecordLine>(text) {
        let once = to_json_line(&v);
        let back: RecordLine = parse_json_line(&once).expect("printed line parses");
        assert_eq!(back, v);
    }
});
