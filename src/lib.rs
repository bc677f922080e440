#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

/// The kernel: geometry, compiled rules, positions, games.
pub use ply_kernel as kernel;
/// The rules language: loading and checking packs.
pub use ply_lang as lang;
