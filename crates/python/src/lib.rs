//! Ply from Python: the `plygames._core` extension module.
//!
//! A thin layer over the public API of `ply-kernel`, `ply-lang` and `ply-search`: packs
//! ([`game::Game`]), positions with their history ([`state::State`]), the engines
//! ([`engine::Engine`]), many games stepped at once ([`batch::Batch`]), the action encoding
//! ([`actions`]) and the observation tensor ([`observe`]). Long work (perft, playouts,
//! searches, batched steps) runs with the GIL released; no Python code is called back.
//!
//! Every error crosses into Python as an exception of [`errors`], never as a panic.

pub mod actions;
pub mod batch;
pub mod engine;
pub mod errors;
pub mod game;
pub mod observe;
pub mod state;

use pyo3::prelude::*;

/// The module `plygames._core`.
#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PlyError", py.get_type::<errors::PlyError>())?;
    m.add("PackError", py.get_type::<errors::PackError>())?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("NotationError", py.get_type::<errors::NotationError>())?;
    m.add("PositionError", py.get_type::<errors::PositionError>())?;
    m.add("EngineError", py.get_type::<errors::EngineError>())?;
    m.add("ActionError", py.get_type::<errors::ActionError>())?;
    m.add_class::<errors::Diagnostic>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<state::State>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::Choice>()?;
    m.add_class::<batch::Batch>()?;
    m.add_function(wrap_pyfunction!(game::load, m)?)?;
    m.add_function(wrap_pyfunction!(game::load_str, m)?)?;
    m.add_function(wrap_pyfunction!(game::_game_from_resolved, m)?)?;
    m.add_function(wrap_pyfunction!(state::_state_from, m)?)?;
    m.add("ROUTES", actions::ROUTES)?;
    Ok(())
}
