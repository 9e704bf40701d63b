//! Ctrl-C (SIGINT) and SIGTERM during a long command: counted, not fatal, so the command can
//! finish or drop its work cleanly and say how to go on.

use std::sync::atomic::{AtomicU8, Ordering};

static INTERRUPTS: AtomicU8 = AtomicU8::new(0);

extern "C" fn on_signal(_: libc::c_int) {
    // Only an atomic add: nothing else is safe inside a signal handler.
    INTERRUPTS.fetch_add(1, Ordering::SeqCst);
}

/// From now on SIGINT and SIGTERM are counted instead of ending the process; returns the count.
pub fn catch() -> &'static AtomicU8 {
    // SAFETY: the handler only adds to an atomic; the action is fully initialised (empty mask,
    // SA_RESTART so reads and waits go on).
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    }
    &INTERRUPTS
}
