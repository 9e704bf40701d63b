//! SSH signature armor and verification, one by one and in a batch of recorded files: never a
//! panic, never a false acceptance.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::protocol::signing::{confirm_recorded, parse_public_key, verify, Recorded};

const KEY: &str = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKynyNIDOxEeoPZDtS6UcOnsG30EKjz7detV3kCNVsDw";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let key = parse_public_key(KEY).unwrap();
    assert!(verify(&key, "qijudge-move", b"fixed message", text).is_err());
    // The same text twice and beside a second message: a batch of junk confirms nothing.
    let item = |msg: &'static [u8]| Recorded {
        key: &key,
        namespace: "qijudge-move",
        msg,
        armored: text,
    };
    let batch = [item(b"fixed message"), item(b"another"), item(b"fixed message")];
    assert_eq!(confirm_recorded(&batch), 0);
    let _ = parse_public_key(text);
});
