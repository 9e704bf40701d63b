//! Xiangqi FEN and move text: parsing never panics; an accepted FEN prints back to itself and an
//! accepted move is legal and round-trips through every notation.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::games::xiangqi::rules::fen;
use qijudge::games::xiangqi::rules::notation::{self, Notation};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (fen_text, move_text) = text.split_once('\n').unwrap_or((fen::START, text));
    let Ok(position) = fen::parse(fen_text) else { return };
    assert_eq!(fen::parse(&fen::write(&position)).as_ref(), Ok(&position));
    if let Ok(m) = notation::parse(&position, move_text) {
        assert_eq!(position.check_move(m), Ok(()));
        for n in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
            assert_eq!(notation::parse(&position, &notation::write(&position, m, n)), Ok(m));
        }
    }
});
