//! A Jieqi position text (what views carry and bots read) and a move on it: parsing never
//! panics; a position that parses writes back to text that parses to the same position, and
//! every move the generator lists passes the single-move check and plays.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::games::jieqi::rules::Position;
use qijudge::games::xiangqi::rules::{notation::parse_iccs, Kind};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (position, mv) = text.split_once('\n').unwrap_or((text, "h2e2"));
    for free in [true, false] {
        let Ok(p) = Position::parse(position, free) else { continue };
        let again = Position::parse(&p.text(), free).expect("its own text parses");
        assert_eq!(again, p);
        for m in p.legal_moves() {
            assert!(p.check_move(m).is_ok(), "{m}");
            let mut q = p.clone();
            q.make(m, Some(Kind::Pawn));
        }
        if let Some(m) = parse_iccs(mv) {
            let _ = p.check_move(m);
        }
    }
});
