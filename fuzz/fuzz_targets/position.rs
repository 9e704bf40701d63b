//! Position files: any accepted position yields moves that the single-move check accepts, and
//! playing each of them never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::games::luzhanqi::rules::PositionFile;

fuzz_target!(|data: &[u8]| {
    let Ok(file) = serde_json::from_slice::<PositionFile>(data) else { return };
    let Ok(pos) = file.to_position() else { return };
    for m in pos.legal_moves() {
        assert!(pos.check_move(m).is_ok());
        let mut p = pos.clone();
        p.play(m).unwrap();
    }
});
