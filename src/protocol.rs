//! The engine protocol (docs/protocol.md): a line-based text protocol in the
//! style of GTP, so that programs in any language can play in the
//! workbench.
//!
//! - [`server`]: any bot of the catalogue behind the protocol
//!   (`pahtum engine --bot SPEC`).
//! - [`client`]: an external engine as a [`crate::bot::Bot`], with a process
//!   pool, move timeouts and fault handling (`--engine NAME=COMMAND`).
//! - [`process`] and [`children`]: running engine processes, reading their
//!   answers with a deadline, and making sure none outlives this program.
//! - [`timing`]: the optional clock and search report commands, both
//!   sides' reading and writing of them.
//! - [`wire`]: the framing both sides share; [`words`]: how `COMMAND` is
//!   split into a program and its arguments.
//!
//! Layering: uses `game` and `bot`, never `arena`, `study` or `cli`.

pub mod children;
pub mod client;
pub mod process;
pub mod server;
pub mod timing;
pub mod wire;
pub mod words;

pub use client::{EngineConfig, EngineFactory};
pub use server::Server;
