//! A game's line of play, whatever the game: its options, every position since the start,
//! what each turn did, and how it ended. A game's rules add how a turn is played on it.

/// Options `O`, positions `P` (`positions[i]` before turn `i`; the last is the current one),
/// turns played `T`, ending `E`.
#[derive(Clone, Debug)]
pub struct Line<O, P, T, E> {
    options: O,
    positions: Vec<P>,
    played: Vec<T>,
    ending: Option<E>,
}

impl<O: Copy, P, T, E> Line<O, P, T, E> {
    /// A line from `start`, nothing played.
    pub fn from_start(options: O, start: P) -> Self {
        Line {
            options,
            positions: vec![start],
            played: Vec::new(),
            ending: None,
        }
    }

    pub fn options(&self) -> O {
        self.options
    }

    pub fn position(&self) -> &P {
        self.positions.last().expect("a line has a position")
    }

    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    pub fn played(&self) -> &[T] {
        &self.played
    }

    pub fn ending(&self) -> Option<&E> {
        self.ending.as_ref()
    }

    /// Ends the game outside the rules of play (resignation, agreement, forfeit).
    pub fn end(&mut self, ending: E) {
        self.ending = Some(ending);
    }

    /// Adds a turn and the position after it, with the ending it brings, if any.
    pub fn push(
        &mut self,
        turn: T,
        next: P,
        ending: impl FnOnce(&Self) -> Option<E>,
    ) -> Option<&E> {
        self.positions.push(next);
        self.played.push(turn);
        self.ending = ending(self);
        self.ending.as_ref()
    }
}
