//! SSH signature armor and verification: never a panic, never a false acceptance.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::protocol::signing::{parse_public_key, verify};

const KEY: &str = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKynyNIDOxEeoPZDtS6UcOnsG30EKjz7detV3kCNVsDw";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let key = parse_public_key(KEY).unwrap();
    assert!(verify(&key, "qijudge-move", b"fixed message", text).is_err());
    let _ = parse_public_key(text);
});
