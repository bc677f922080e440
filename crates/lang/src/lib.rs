//! The Ply rules language: rule packs in TOML, with conditions written in a small expression
//! language, read, checked and compiled into the kernel's rules.
//!
//! A game is a **rule pack**: a TOML file that lays out the board, the pieces and their move
//! patterns, and states the rules as expressions (`'not to in water or mover has swimmer'`).
//! This crate turns a pack into a playable [`Pack`] (the kernel's `Rules` and what the loader
//! knows about them), or into a [`LoadError`] that lists **every** problem, each located in
//! its file with a hint. The language itself is described in `rulesets/README.md`.
//!
//! Option values are given as text ([`load`]) or typed ([`load_with`], [`Options`]).
//!
//! # Stages
//!
//! Loading goes through these stages, each a module, each reporting all it finds:
//!
//! 1. **File input** (`input`): read the file, follow `extends` to the packs it builds on
//!    and lay each variant over its base, into one spanned TOML tree (`tree`) in which every
//!    value remembers its file and bytes.
//! 2. **Reading** (`read`, one reader per section): options, game, board, zones, pieces,
//!    definitions, rules, end rules, setup. Expressions and move patterns are parsed by
//!    `syntax` (a pest grammar behind an AST of our own) and checked by `check` (names,
//!    scopes, types, definitions expanded in place) into the kernel's expressions.
//! 3. **Lints** (`lints`): warnings for what loads but looks wrong.
//! 4. **Compilation**, by the kernel, once reading found no error; its findings are placed
//!    back at the lines that caused them (`locs`).
//! 5. **Writing out** (`write`): the resolved pack, `extends` and options applied, as TOML.
//!
//! Diagnostics (`diag`) are rendered in the style of rustc, with or without colour, and one
//! per place and cause.
//!
//! # Example
//!
//! ```
//! let pack = ply_lang::load_str("stones.toml", r#"
//! [game]
//! players = ["A", "B"]
//! [board]
//! rows = 3
//! cols = 3
//! [pieces.Stone]
//! letter = "S"
//! moves = ["step orthogonal"]
//! [setup.A]
//! Stone = "a1"
//! [setup.B]
//! Stone = "c3"
//! "#, &[]).expect("the pack loads");
//! assert_eq!(pack.rules.core().kind_count(), 1);
//!
//! let bad = "[game]\nplayers = [\"A\", \"A\"]\n[board]\nrows = 3\ncols = 3\n";
//! let err = ply_lang::load_str("bad.toml", bad, &[]).unwrap_err();
//! let text = err.render(false);
//! assert!(text.starts_with("error: both players are named `A`\n --> bad.toml:2:17\n"), "{text}");
//! ```
#![deny(missing_docs)]

mod check;
mod confined;
mod diag;
mod input;
mod lints;
mod locs;
mod options;
mod pack;
mod patterns;
mod read;
mod syntax;
pub mod tree;
mod write;

pub use check::{MAX_EXPR_NODES, MAX_PACK_NODES, OptionValue, builtin_functions};
pub use confined::{MAX_EXTENDS_DEPTH, load_str_confined};
pub use diag::{Diagnostic, LoadError, Loc, Severity, SourceFile, Sources};
pub use input::MAX_PACK_BYTES;
pub use options::{OptionArg, Options};
pub use pack::{Pack, load, load_str, load_str_with, load_with};
pub use patterns::{PATTERN_FORMS, PatternForm, pattern_help};
pub use read::MAX_EVAL_STEPS;
pub use read::{
    BOARD_STYLES, Display, Evaluation, MAX_GLYPH_CHARS, OptionInfo, PIECE_IMAGES, Style,
    ZONE_DRAWINGS,
};
pub use syntax::MAX_EXPR_DEPTH;
