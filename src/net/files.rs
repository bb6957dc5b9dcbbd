//! Network files read once per process, and why a file cannot be used:
//! shared by both networks' loaders.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why a network file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file could not be read.
    #[error("cannot read {kind} '{path}': {source}")]
    Read {
        /// What the file was to hold ("line network", "policy-value
        /// network").
        kind: &'static str,
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The bytes are not a network of this kind and shape.
    #[error("'{path}' is not a {kind}: {why}")]
    Format {
        /// What the file was to hold.
        kind: &'static str,
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
}

/// Network files read once per process, by path, for one kind of
/// network: every bot that names a file shares one copy of its weights,
/// which lives as long as the process.
pub struct NetFiles<T: 'static> {
    /// What the files hold, for errors ("line network").
    kind: &'static str,
    read: Mutex<Vec<(PathBuf, &'static T)>>,
}

impl<T: Sync> NetFiles<T> {
    /// No file read yet; `kind` names the networks in errors.
    pub const fn new(kind: &'static str) -> NetFiles<T> {
        NetFiles {
            kind,
            read: Mutex::new(Vec::new()),
        }
    }

    /// The network that `parse` makes of the file at `path`, read at the
    /// first call for that path.
    ///
    /// # Errors
    /// The file cannot be read, or `parse` refuses its bytes (why).
    pub fn get(
        &self,
        path: &Path,
        parse: impl FnOnce(&[u8]) -> Result<T, String>,
    ) -> Result<&'static T, NetError> {
        // A poisoned lock only means another thread panicked while
        // reading; the list itself is still consistent.
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, net)) = read.iter().find(|(p, _)| p == path) {
            return Ok(net);
        }
        let (kind, shown) = (self.kind, path.display().to_string());
        let bytes = std::fs::read(path).map_err(|source| NetError::Read {
            kind,
            path: shown.clone(),
            source,
        })?;
        let net = parse(&bytes).map_err(|why| NetError::Format {
            kind,
            path: shown,
            why,
        })?;
        let net: &'static T = Box::leak(Box::new(net));
        read.push((path.to_path_buf(), net));
        Ok(net)
    }
}
