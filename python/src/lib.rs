//! The native core of the `pahtum` Python package: the rules, the bots, the
//! exact solver and the tournament runner of the Rust library, wrapped with
//! pyo3. The Python layer (`pahtum/`) adds the numpy planes and the
//! Gymnasium, PettingZoo and OpenSpiel interfaces on top of it.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

mod bots;
mod position;

use position::PyPosition;

/// Squares in Python are named like the engine's (`d4`) or numbered
/// `row * size + col` with row 0 the bottom rank, so `index` runs over
/// 0..size*size and an action space needs no gaps. `size*size` is the pie
/// swap.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Internal failures (a bot that produced no move) that are not the caller's
/// input.
pub(crate) fn runtime_error(e: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

// `Position` and `Bot` write their seed default as the literal 1, so that
// `help()` shows it; it must stay the CLI's.
const _: () = assert!(pahtum::cli::common::DEFAULT_SEED == 1);

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_class::<bots::PyBot>()?;
    m.add_function(wrap_pyfunction!(bots::bots, m)?)?;
    m.add_function(wrap_pyfunction!(bots::bots_text, m)?)?;
    m.add_function(wrap_pyfunction!(bots::solve, m)?)?;
    m.add_function(wrap_pyfunction!(bots::tournament_tables, m)?)?;
    m.add_function(wrap_pyfunction!(position::score_text, m)?)?;
    m.add("GAMES_HEADER", pahtum::arena::games_csv::games_header())?;
    // The CLI's defaults, so that the Python wrappers cannot drift from them.
    m.add("DEFAULT_SEED", pahtum::cli::common::DEFAULT_SEED)?;
    m.add("DEFAULT_GAMES", pahtum::cli::tournament::DEFAULT_GAMES)?;
    Ok(())
}
