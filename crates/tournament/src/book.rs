//! Opening books and game pairs, as engine testers use them: each opening of a book is played
//! twice in an encounter, the colours reversed, and the two games' points make one pair, whose
//! five possible totals (0, ½, 1, 1½, 2) are the pentanomial counts fastchess reports. Pairs
//! cancel most of what an opening gives one colour, so their Elo has a smaller error than the
//! games' alone.

use qijudge_protocol::error::{Error, Result};
use qijudge_rules::random::SplitMix64;

/// Which part of a book a match plays, and the book it must be (a fleet hands a worker a
/// book by its SHA-256, a start and a count).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slice {
    /// The first opening played, counted from 1 in the file's order.
    pub start: Option<usize>,
    /// How many openings from there.
    pub count: Option<usize>,
    /// The SHA-256 (hex) the file must have.
    pub sha256: Option<String>,
    /// A PGN book's games played up to this many plies each.
    pub plies: Option<usize>,
}

/// The openings of a book, in the order they are played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub openings: Vec<Opening>,
    /// The book's SHA-256 and order, which make a match the same match when resumed.
    pub identity: String,
}

pub use qijudge_game::opening::Opening;

impl Book {
    /// Reads a book for `game` (on `board`, for Luzhanqi). Xiangqi: one position a line, as
    /// FEN (six fields) or EPD (the first four, anything after them ignored), `#` starting a
    /// comment line; or a PGN file (`.pgn`), each game an opening: its moves played from its
    /// start (the `FEN` tag, else the standard start), in any notation the PGN reader takes.
    /// Luzhanqi: a TOML file of `[[opening]]` tables, each giving every seat an army (see
    /// each game's `book.rs`). Every opening is checked against the rules. `random`: the order
    /// shuffled by `seed`.
    pub fn read(
        path: &std::path::Path,
        game: &str,
        board: &str,
        random: bool,
        seed: u64,
        slice: &Slice,
    ) -> Result<Book> {
        let shown = path.display();
        let text =
            std::fs::read_to_string(path).map_err(|e| Error::Io(format!("--book {shown}: {e}")))?;
        let digest = qijudge_rules::hash::sha256_tagged(text.as_bytes());
        if let Some(want) = &slice.sha256 {
            let have = digest.trim_start_matches("sha256:");
            if !have.eq_ignore_ascii_case(want.trim_start_matches("sha256:")) {
                return Err(Error::Io(format!(
                    "--book {shown}: its SHA-256 is {have}, not {want} (--book-sha256): \
                     another book than the one asked for"
                )));
            }
        }
        let is_pgn = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
        let kind = qijudge_registry::by_name(game)?;
        if kind.book_format().is_none() {
            let with: Vec<String> = qijudge_registry::registry::GAMES
                .iter()
                .filter_map(|g| Some(format!("{}: {}", g.name(), g.book_format()?)))
                .collect();
            return Err(Error::Io(format!(
                "--book: {game} has no opening books ({})",
                with.join("; ")
            )));
        }
        let read_as = match is_pgn {
            true => qijudge_game::opening::BookText::Pgn { plies: slice.plies },
            false => qijudge_game::opening::BookText::Positions,
        };
        let openings = kind.book_openings(&text, board, &shown.to_string(), read_as)?;
        if openings.is_empty() {
            return Err(Error::Io(format!("--book {shown}: no position in it")));
        }
        let total = openings.len();
        let first = slice.start.unwrap_or(1);
        if first == 0 || first > total {
            return Err(Error::Io(format!(
                "--book-start {first}: the book has openings 1 to {total}"
            )));
        }
        let count = slice.count.unwrap_or(total - first + 1);
        if count == 0 || first - 1 + count > total {
            return Err(Error::Io(format!(
                "--book-count {count}: from opening {first} the book has {} more",
                total - first + 1
            )));
        }
        let openings: Vec<Opening> = openings.into_iter().skip(first - 1).take(count).collect();
        let mut book = Book::ordered(openings, &text, random, seed);
        if slice.start.is_some() || slice.count.is_some() {
            book.identity
                .push_str(&format!(" openings {first}-{}", first - 1 + count));
        }
        if let (true, Some(p)) = (is_pgn, slice.plies) {
            book.identity.push_str(&format!(" plies {p}"));
        }
        Ok(book)
    }
}

impl Book {
    /// Finishes reading: the order (`random`: shuffled by `seed`) and the identity.
    fn ordered(mut openings: Vec<Opening>, text: &str, random: bool, seed: u64) -> Book {
        let order = match random {
            true => {
                let mut rng = SplitMix64::new(seed ^ 0x626f_6f6b);
                for i in (1..openings.len()).rev() {
                    openings.swap(i, rng.below(i + 1));
                }
                "random"
            }
            false => "sequential",
        };
        let digest = qijudge_rules::hash::sha256_tagged(text.as_bytes());
        Book {
            openings,
            identity: format!("{digest} {order}"),
        }
    }

    /// The opening of a game played in round `round` of its encounter: the rounds go in
    /// pairs, each pair one opening, the book started again when it runs out.
    pub fn opening(&self, round: u32) -> &Opening {
        &self.openings[(round / 2) as usize % self.openings.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pgn_book_gives_each_game_s_position_after_its_moves() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("openings.pgn");
        // The central cannon in ICCS, then a WXF line from a FEN start (Black to move).
        std::fs::write(
            &path,
            "[Event \"cannon\"]\n\n1. H2-E2 *\n\n             [FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]\n             [Format \"WXF\"]\n\n1. ... H8+7 2. H2+3 *\n",
        )
        .unwrap();
        let book = Book::read(&path, "xiangqi", "2p", false, 1, &Slice::default()).unwrap();
        assert_eq!(
            book.openings,
            [
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
                "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
            ]
            .map(|fen| Opening::Position(fen.into()))
        );
        // With plies=1 (fastchess's -openings plies=), each game up to its first ply only.
        let slice = Slice {
            plies: Some(1),
            ..Slice::default()
        };
        let cut = Book::read(&path, "xiangqi", "2p", false, 1, &slice).unwrap();
        assert_eq!(cut.openings[0], book.openings[0]);
        assert_eq!(
            cut.openings[1],
            Opening::Position(
                "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2".into()
            )
        );
        assert!(cut.identity.ends_with(" plies 1") && cut.identity != book.identity);
        // A move that is not legal is named with its game and number.
        std::fs::write(&path, "[Event \"x\"]\n\n1. H2-E2 2. H2-E2 *\n").unwrap();
        let e = Book::read(&path, "xiangqi", "2p", false, 1, &Slice::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("game 1") && e.contains("move 2"), "{e}");
    }

    #[test]
    fn a_book_reads_fen_and_epd_and_refuses_what_is_no_position() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.epd");
        std::fs::write(
            &path,
            "# two openings\n\
             rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
             rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RNBAKABNR b - - ; c0 \"pawn\"\n",
        )
        .unwrap();
        let book = Book::read(&path, "xiangqi", "2p", false, 1, &Slice::default()).unwrap();
        assert_eq!(book.openings.len(), 2);
        assert!(
            book.openings[1]
                .position()
                .is_some_and(|fen| fen.ends_with(" b - - 0 1")),
            "{:?}",
            book.openings
        );
        // Rounds go in pairs, and the book starts again.
        assert_eq!(book.opening(0), book.opening(1));
        assert_ne!(book.opening(1), book.opening(2));
        assert_eq!(book.opening(4), book.opening(0));
        // The short forms testers ship: the board and side alone, and EPD counters as opcodes.
        std::fs::write(
            &path,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b\n\
             rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - hmvc 1; fmvn 1; id \"c\";\n\
             rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - -\n",
        )
        .unwrap();
        let short = Book::read(&path, "xiangqi", "2p", false, 1, &Slice::default()).unwrap();
        let fens: Vec<&str> = short
            .openings
            .iter()
            .filter_map(Opening::position)
            .collect();
        let cannon = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - -";
        assert_eq!(
            fens,
            [
                format!("{cannon} 0 1"),
                format!("{cannon} 1 1"),
                format!("{cannon} 0 1")
            ]
        );
        // A slice of the book, and the book pinned by its SHA-256.
        let slice = |start, count| Slice {
            start,
            count,
            sha256: None,
            plies: None,
        };
        let part = Book::read(&path, "xiangqi", "2p", false, 1, &slice(Some(2), Some(1))).unwrap();
        assert_eq!(part.openings, short.openings[1..2]);
        assert!(
            part.identity.ends_with(" openings 2-2"),
            "{}",
            part.identity
        );
        for (start, count) in [(Some(0), None), (Some(4), None), (Some(2), Some(3))] {
            assert!(Book::read(&path, "xiangqi", "2p", false, 1, &slice(start, count)).is_err());
        }
        let sha = short
            .identity
            .split(' ')
            .next()
            .unwrap()
            .trim_start_matches("sha256:");
        let pinned = Slice {
            sha256: Some(sha.to_uppercase()),
            ..Slice::default()
        };
        assert!(Book::read(&path, "xiangqi", "2p", false, 1, &pinned).is_ok());
        let wrong = Slice {
            sha256: Some("0".repeat(64)),
            ..Slice::default()
        };
        let e = Book::read(&path, "xiangqi", "2p", false, 1, &wrong)
            .unwrap_err()
            .to_string();
        assert!(e.contains("another book"), "{e}");
        std::fs::write(&path, "rnbakabnr/9/1c5c1 w\n").unwrap();
        let e = Book::read(&path, "xiangqi", "2p", false, 1, &Slice::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1"), "{e}");
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(Book::read(&path, "xiangqi", "2p", false, 1, &Slice::default()).is_err());
    }

    #[test]
    fn a_luzhanqi_book_gives_every_seat_a_checked_army() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("armies.toml");
        let army = r#"["CO CP LT CP BG", "MJ . EN . MG", "EN LT . CP GN", "BM . CO . BM",
                       "FM BG MG LT MJ", "LM FL LM EN LM"]"#;
        let other = r#"["CP CO LT CP BG", "MJ . EN . MG", "EN LT . CP GN", "BM . CO . BM",
                        "FM BG MG LT MJ", "LM FL LM EN LM"]"#;
        std::fs::write(
            &path,
            format!("[[opening]]\nrows = {army}\n\n[[opening]]\nsouth = {army}\nnorth = {other}\n"),
        )
        .unwrap();
        let book = Book::read(&path, "luzhanqi", "2p", false, 1, &Slice::default()).unwrap();
        assert_eq!(book.openings.len(), 2);
        let (first, second) = (&book.openings[0], &book.openings[1]);
        assert_eq!(first.army("south"), first.army("north"));
        assert_ne!(second.army("south"), second.army("north"));
        assert!(first.position().is_none() && first.army("east").is_none());
        // The cross board's four seats all get the `rows` army.
        let cross = Book::read(&path, "luzhanqi", "cross4", false, 1, &Slice::default());
        assert!(cross.is_err(), "the second opening names two seats only");
        std::fs::write(&path, format!("[[opening]]\nrows = {army}\n")).unwrap();
        let cross = Book::read(&path, "luzhanqi", "cross4", false, 1, &Slice::default()).unwrap();
        assert!(["south", "east", "north", "west"]
            .iter()
            .all(|s| cross.openings[0].army(s).is_some()));
        // An army the rules refuse (a flag off the headquarters), a seat the board has not, and a
        // game without books are refused by name.
        let bad = army.replace("LM FL LM", "FL LM LM");
        for (text, expect) in [
            (
                format!("[[opening]]\nrows = {bad}\n"),
                "opening 1: south's army",
            ),
            (
                format!("[[opening]]\nrows = {army}\neast = {army}\n"),
                "\"east\" is not a seat",
            ),
            ("[opening]\n".to_string(), "not a Luzhanqi book"),
        ] {
            std::fs::write(&path, text).unwrap();
            let e = Book::read(&path, "luzhanqi", "2p", false, 1, &Slice::default())
                .unwrap_err()
                .to_string();
            assert!(e.contains(expect), "{e}");
        }
        let e = Book::read(&path, "liubo", "2p", false, 1, &Slice::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("liubo has no opening books"), "{e}");
    }
}
