//! The sealed envelope reader: any bytes never panic, and whatever it accepts is exactly what
//! the writer makes of the files it found, padded to the same size (one way to write each).
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::protocol::seal::{pack, unpack};

fuzz_target!(|data: &[u8]| {
    if let Ok(files) = unpack(data) {
        assert_eq!(pack(&files, data.len()).unwrap(), data);
    }
});
