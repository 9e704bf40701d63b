//! Liubo turn text: reading arbitrary text against positions never panics; what reads is legal
//! and prints back to the same turn.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::games::liubo::rules::notation::{parse_turn, write_turn};
use qijudge::games::liubo::rules::{Options, Position};

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let Ok(text) = std::str::from_utf8(&data[3..]) else { return };
    // A position reached by playing the first legal turns for a few throws from the input.
    let mut p = Position::new(Options::default(), (data[0] & 1) as usize);
    for k in 0..(data[0] >> 1) % 8 {
        let throw = (1 + (data[1].wrapping_add(k) & 3), 1 + (data[2].wrapping_add(k * 3) & 3));
        if p.begin_turn(throw).is_err() {
            return;
        }
        let turns = p.legal_turns();
        let pick = turns[(data[1] as usize + k as usize) % turns.len()].clone();
        p.play_turn(&pick).unwrap();
    }
    if p.begin_turn((1 + (data[1] & 3), 1 + (data[2] & 3))).is_err() {
        return;
    }
    if let Ok(moves) = parse_turn(&p, text) {
        let mut q = p.clone();
        let _ = q.play_turn(&moves);
        assert_eq!(parse_turn(&p, &write_turn(&moves)), Ok(moves));
    }
});
