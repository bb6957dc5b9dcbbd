//! What a person looks at in a browser: any run as one self-contained
//! HTML page, and the browser game against a bot with its small server.
//!
//! - [`page`]: `report.html` for a tournament, sweep, SPRT, FPA, tune,
//!   exact or review run.
//! - [`serve`]: `pahtum serve`, the game page and the requests it sends.

pub mod page;
pub mod serve;
