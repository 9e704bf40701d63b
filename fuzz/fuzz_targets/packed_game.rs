//! A packed game (`game.tar.gz`, from a shard, a mail, anyone): the fuzzer writes the tar bytes,
//! compressed here so it explores the archive rather than gzip. Never a panic: every file given
//! is at a plain path, once; and `verify` of the packed file (read through `GameDir`) refuses or
//! accepts, nothing else.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::store::packed::unpack;
use std::io::Write;

fuzz_target!(|data: &[u8]| {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).unwrap();
    let bytes = gz.finish().unwrap();
    let Ok(files) = unpack(&bytes) else { return };
    for path in files.keys() {
        assert!(!path.starts_with('/') && !path.split('/').any(|p| p.is_empty() || p == ".."));
    }
    let file = std::env::temp_dir().join(format!("qijudge-fuzz-{}.tar.gz", std::process::id()));
    std::fs::write(&file, &bytes).unwrap();
    if let Ok(game) = qijudge::games::of_dir(&file) {
        let _ = game.summary(&file);
    }
});
