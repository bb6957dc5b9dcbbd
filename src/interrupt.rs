//! The process's interrupt flag: set once by Ctrl-C or SIGTERM (the
//! command line's handler), read by every search so that a run stops
//! within about a second even with a long search in flight.
//!
//! Why one process-wide flag rather than one passed down: a signal is
//! process-wide, and a bot is built by a catalogue that knows nothing of
//! the run it plays in; every search, the external-engine client and the
//! arena's workers read the same flag. Searches poll it where they
//! already poll their own budgets (every batch of iterations or every
//! 1024 nodes): one relaxed load, no syscall, no allocation.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set when the run is to stop. Never cleared: a process stops once.
pub static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Whether an interrupt was requested.
#[inline]
pub fn requested() -> bool {
    INTERRUPT.load(Ordering::Relaxed)
}

/// Requests an interrupt; returns whether one had already been requested.
pub fn request() -> bool {
    INTERRUPT.swap(true, Ordering::SeqCst)
}
