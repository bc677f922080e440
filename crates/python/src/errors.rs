//! The exceptions the module raises, and how the libraries' errors become them.
//!
//! Every exception derives from `PlyError`. Those that carry more than a message get it as
//! attributes of the exception object: a pack's diagnostics (`PackError.diagnostics`, and
//! the first error's `file`, `line`, `column` and `message`), a refused move's rule
//! (`IllegalMoveError.rule`).

use ply_kernel::MoveError;
use ply_lang::{LoadError, Severity};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    plygames,
    PlyError,
    PyException,
    "The base of every error Ply raises."
);
create_exception!(
    plygames,
    PackError,
    PlyError,
    "A pack that does not load: `diagnostics` lists every problem; `file`, `line`, `column` \
     and `message` are the first error's."
);
create_exception!(
    plygames,
    IllegalMoveError,
    PlyError,
    "A move the rules refuse: `move` is the move as given, `rule` the name of the rule that \
     refused it (None when no named rule did), `reason` what is wrong."
);
create_exception!(
    plygames,
    NotationError,
    PlyError,
    "Text that is not a move in notation, or a cell name the board does not have."
);
create_exception!(
    plygames,
    PositionError,
    PlyError,
    "A position string or FEN that cannot be read, or a pack without FEN asked for one."
);
create_exception!(
    plygames,
    EngineError,
    PlyError,
    "An engine spec that does not read, or a search that found no move."
);
create_exception!(
    plygames,
    ActionError,
    PlyError,
    "An action outside the pack's action space, or a position whose moves the action \
     encoding cannot number."
);

/// One problem of a pack, located in its file.
#[pyclass(frozen, get_all, module = "plygames")]
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// `"error"` or `"warning"`.
    pub severity: String,
    /// What is wrong.
    pub message: String,
    /// The file's name as given (`None` for a problem with no place).
    pub file: Option<String>,
    /// Line, from 1.
    pub line: Option<usize>,
    /// Column, from 1, in characters.
    pub column: Option<usize>,
    /// The label under the marked text, if any.
    pub label: Option<String>,
    /// A hint, if any.
    pub help: Option<String>,
    /// The diagnostic as `ply validate` prints it.
    pub rendered: String,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        match (&self.file, self.line, self.column) {
            (Some(f), Some(l), Some(c)) => {
                format!(
                    "Diagnostic({} at {f}:{l}:{c}: {})",
                    self.severity, self.message
                )
            }
            _ => format!("Diagnostic({}: {})", self.severity, self.message),
        }
    }
}

/// The diagnostics of a load, as Python objects.
pub fn diagnostics(sources: &ply_lang::Sources, diags: &[ply_lang::Diagnostic]) -> Vec<Diagnostic> {
    diags
        .iter()
        .map(|d| {
            let place = d.loc.and_then(|loc| {
                let file = sources.get(loc.file)?;
                let (line, column) = sources.line_col(loc.file, loc.start);
                Some((file.name.clone(), line, column))
            });
            Diagnostic {
                severity: match d.severity {
                    Severity::Error => "error".into(),
                    _ => "warning".into(),
                },
                message: d.message.clone(),
                file: place.as_ref().map(|p| p.0.clone()),
                line: place.as_ref().map(|p| p.1),
                column: place.as_ref().map(|p| p.2),
                label: d.label.clone(),
                help: d.help.clone(),
                rendered: d.render_with(sources, false),
            }
        })
        .collect()
}

/// A pack that did not load, as a `PackError`.
pub fn pack_error(py: Python<'_>, err: &LoadError) -> PyErr {
    let diags = diagnostics(&err.sources, &err.diagnostics);
    let first = diags
        .iter()
        .find(|d| d.severity == "error")
        .or(diags.first())
        .cloned();
    let e = PackError::new_err(err.render(false).trim_end().to_string());
    let set = || -> PyResult<()> {
        let v = e.value(py);
        v.setattr("file", first.as_ref().and_then(|d| d.file.clone()))?;
        v.setattr("line", first.as_ref().and_then(|d| d.line))?;
        v.setattr("column", first.as_ref().and_then(|d| d.column))?;
        v.setattr("message", first.as_ref().map(|d| d.message.clone()))?;
        v.setattr("diagnostics", diags)?;
        Ok(())
    };
    match set() {
        Ok(()) => e,
        Err(other) => other,
    }
}

/// A refused move, as an `IllegalMoveError`.
pub fn illegal(py: Python<'_>, text: &str, err: &MoveError) -> PyErr {
    illegal_with(
        py,
        text,
        err.to_string(),
        err.rule_name().map(str::to_string),
    )
}

/// An `IllegalMoveError` for the move `text`, with what is wrong and the refusing rule.
pub fn illegal_with(py: Python<'_>, text: &str, reason: String, rule: Option<String>) -> PyErr {
    let e = IllegalMoveError::new_err(reason.clone());
    let set = || -> PyResult<()> {
        let v = e.value(py);
        v.setattr("move", text)?;
        v.setattr("rule", rule)?;
        v.setattr("reason", reason)?;
        Ok(())
    };
    match set() {
        Ok(()) => e,
        Err(other) => other,
    }
}
