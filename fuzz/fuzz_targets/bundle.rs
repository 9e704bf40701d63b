//! A game bundle from the judge's mail (`game.tar.gz`, or a plain tar): any bytes, never a
//! panic; every file it gives is at a path a bundle may hold, within the size limit, once.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::mail::bundle::{allowed_path, unpack};

fuzz_target!(|data: &[u8]| {
    if let Ok(files) = unpack(data, 4096) {
        let mut seen = std::collections::BTreeSet::new();
        for (path, bytes) in files {
            assert!(allowed_path(&path), "{path}");
            assert!(bytes.len() <= 4096);
            assert!(seen.insert(path));
        }
    }
});
