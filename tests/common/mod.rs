//! Helpers shared by the integration tests that run `pahtum` and external
//! engines as processes.

// Each test binary compiles its own copy of this module and may use only
// some of it; what one binary leaves unused is not dead.
#![allow(dead_code)]

use std::path::Path;
use std::time::{Duration, Instant};

/// The `pahtum` binary Cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_pahtum");

/// `path` (relative to the crate root) as an absolute path, so that engine
/// command lines work whatever directory the test runs in.
pub fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .to_string_lossy()
        .into_owned()
}

/// Pids of live processes whose command line contains `tag`, the test
/// process itself aside: it is never one of the processes looked for.
pub fn processes_with(tag: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return pids;
    };
    for entry in dir.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        if let Ok(cmd) = std::fs::read(entry.path().join("cmdline"))
            && String::from_utf8_lossy(&cmd).contains(tag)
        {
            pids.push(pid);
        }
    }
    pids
}

/// Waits until some process carries `tag`; panics with "engine never
/// started" after `limit` (an engine started by a child process appears
/// only after a while).
pub fn wait_for_process(tag: &str, limit: Duration) {
    let t0 = Instant::now();
    while processes_with(tag).is_empty() {
        assert!(t0.elapsed() < limit, "engine never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (briefly) until no process carries `tag`: a killed process may
/// linger for a moment before it is gone from /proc.
pub fn assert_none_left(tag: &str) {
    let t0 = Instant::now();
    while !processes_with(tag).is_empty() {
        assert!(
            t0.elapsed() < Duration::from_secs(3),
            "processes left behind: {:?}",
            processes_with(tag)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
