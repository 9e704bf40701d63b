//! The judge: replay protocol files through the rules, keep the record, publish views, audit.

pub mod ahead;
pub mod candidates;

pub mod clock;
pub mod conditional;
pub mod context;
pub mod contract;
pub mod face_down;
pub mod frame;
pub mod manifest;
pub mod nonces;
pub mod pipeline;
pub mod player_files;
pub mod precheck_files;
pub mod published;
pub mod schema;
pub mod sealing;
pub mod secret;
pub mod signed_record;
pub mod strays;
pub mod text;
pub mod turn_referee;
pub mod turns;

pub use frame::{move_path, Frame, Outputs};
pub use sealing::sealed_setup_path;
pub use text::{describe, has_control, reason_text};

thread_local! {
    /// Whether judge runs on this thread draw the board pictures (`views/*.png`, `*.svg`). A
    /// bot match's workers turn them off: nobody looks at a picture of every ply, and drawing
    /// them costs more than judging. Without pictures a run deletes any it finds, so none is
    /// ever stale. Per thread, so that a match run by a library user (or a test) leaves the
    /// judge runs of the process's other threads as they were.
    static PICTURES: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Turns the pictures of judge runs on this thread on or off.
pub fn set_pictures(on: bool) {
    PICTURES.with(|p| p.set(on));
}

/// Whether judge runs on this thread draw pictures.
pub fn pictures() -> bool {
    PICTURES.with(|p| p.get())
}

#[cfg(test)]
mod tests {
    /// A match turning pictures off on its threads leaves every other thread's judge runs
    /// drawing them.
    #[test]
    fn pictures_are_turned_off_per_thread() {
        assert!(super::pictures());
        std::thread::spawn(|| {
            super::set_pictures(false);
            assert!(!super::pictures());
        })
        .join()
        .unwrap();
        assert!(
            super::pictures(),
            "another thread's switch reached this one"
        );
    }
}
