//! Xiangqi PGN: reading and checking arbitrary text never panics; a legal record written back
//! as PGN reads and checks to the same moves.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qijudge::games::xiangqi::rules::notation::Notation;
use qijudge::games::xiangqi::rules::{check, pgn, Game, Options};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(games) = pgn::read(text) else { return };
    for (i, g) in games.iter().enumerate().take(4) {
        let report = check::check_game(i + 1, g, Options::default());
        if report.illegal.is_some() || g.tag("FEN").is_some() {
            continue;
        }
        let mut game = Game::new(
            qijudge::games::xiangqi::rules::Position::start(),
            Options { record: true, ..Options::default() },
        );
        for m in &report.moves {
            let m = qijudge::games::xiangqi::rules::notation::parse(game.position(), m).unwrap();
            game.play(m).unwrap();
        }
        let written = pgn::write(&game, &[], Notation::Wxf, "*");
        let back = pgn::read(&written).unwrap();
        assert_eq!(check::check_game(1, &back[0], Options::default()).moves, report.moves);
    }
});
