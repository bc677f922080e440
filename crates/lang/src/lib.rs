//! The Ply rules language: rule packs in TOML, with predicates in a small expression language,
//! checked and compiled into the kernel's rules.
//!
//! [`load`] reads a pack (following `extends`), applies option values (as text, or typed with
//! [`load_with`] and [`Options`]), checks everything and reports **all** problems as located
//! [`Diagnostic`]s, then hands a [`RulesSpec`] to the kernel.
//! See `rulesets/README.md` for the language.
//!
//! [`RulesSpec`]: ply_kernel::RulesSpec
#![deny(missing_docs)]

pub mod check;
pub mod diag;
mod options;
mod pack;
pub mod syntax;
pub mod tree;

pub use check::{MAX_EXPR_NODES, OptionValue};
pub use diag::{Diagnostic, LoadError, Loc, Severity, Sources};
pub use options::{OptionArg, Options, load_str_with, load_with};
pub use pack::{OptionInfo, Pack, load, load_str};
pub use syntax::MAX_EXPR_DEPTH;
