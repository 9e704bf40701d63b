//! The e-mail inbox parser: any bytes, as one message or an mbox, never panic; every file it
//! finds starts with a qijudge format line (or is the judge's record or a view) and every signature it pairs is an SSH signature
//! block.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::mail::inbox::{extract, split_mbox};

fuzz_target!(|data: &[u8]| {
    for message in split_mbox(data).unwrap_or_default() {
        if let Ok(found) = extract(&message) {
            for f in found.files {
                assert!(
                    f.text.starts_with("format = \"qijudge/")
                        || f.text.starts_with("{\"seq\":0,")
                        || f.text.starts_with("{\n  \"format\": \"qijudge/")
                );
                if let Some(sig) = f.signature {
                    assert!(sig.starts_with("-----BEGIN SSH SIGNATURE-----"));
                }
            }
        }
    }
});
