//! Every engine process this program started, so that none outlives it:
//! not when a run ends, not on a fault, not on Ctrl-C.
//!
//! Each engine runs in a process group of its own (its id is the engine's
//! pid), and is killed as a group, so that a wrapper script and whatever it
//! started go too. A group of its own also means a terminal's Ctrl-C does
//! not reach the engines directly: the handler installed by
//! [`install_interrupt_handler`] kills every registered group and exits with
//! status 130.
//!
//! Concurrency contract: the registry is one mutex. Spawning and
//! registering happen under it, and so do killing and unregistering, so the
//! interrupt handler never misses a child that was just started and never
//! signals a pid that was already reaped (and could have been reused).

use std::collections::BTreeSet;
use std::io;
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard, Once};

struct Registry {
    /// Process group ids (= pids) of the live engines.
    groups: BTreeSet<u32>,
    /// Set once the program is going down: no new engine may start.
    closed: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: BTreeSet::new(),
    closed: false,
});

fn registry() -> MutexGuard<'static, Registry> {
    // A panic elsewhere while holding the lock leaves the set intact.
    REGISTRY.lock().unwrap_or_else(|p| p.into_inner())
}

/// Starts `cmd` in a process group of its own and registers it.
///
/// # Errors
/// The program could not be started, or the program is shutting down.
pub fn spawn(cmd: &mut Command) -> io::Result<Child> {
    install_interrupt_handler();
    let mut reg = registry();
    if reg.closed {
        return Err(io::Error::other("shutting down: no new engine starts"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let child = cmd.spawn()?;
    reg.groups.insert(child.id());
    Ok(child)
}

/// Kills `child`'s process group, unregisters it and reaps it. Also right
/// for a child that exited by itself: what is left of its group (a
/// wrapper's children) goes too.
pub fn kill(child: &mut Child) {
    {
        let mut reg = registry();
        if reg.groups.remove(&child.id()) {
            kill_group(child.id());
        }
        // Also the direct child, in case it left its group (setsid).
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// Kills every registered engine and lets no new one start. For interrupt
/// handlers; the process is expected to exit right after.
pub fn kill_all() {
    let mut reg = registry();
    reg.closed = true;
    for pid in std::mem::take(&mut reg.groups) {
        kill_group(pid);
    }
}

/// Number of engines alive now (for tests and diagnostics).
pub fn live_count() -> usize {
    registry().groups.len()
}

#[cfg(unix)]
fn kill_group(pid: u32) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(pid) {
        // ESRCH (already gone) is fine: nothing to kill.
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

/// Installs, once, a Ctrl-C / SIGTERM / SIGHUP handler that kills every
/// engine and exits with status 130. If the program already installed a
/// handler of its own, that one stays and should call [`kill_all`].
pub fn install_interrupt_handler() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            kill_all();
            std::process::exit(130);
        });
    });
}
