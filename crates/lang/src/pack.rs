//! Loading a pack from end to end: file input, reading, lints, the kernel's compilation,
//! and the [`Pack`] that results.
//!
//! The loader never stops at the first problem. Each stage reports every problem it finds;
//! only when reading found no error is the spec handed to the kernel, whose own findings (a
//! setup piece on a cell where it may not stand, an expression that fails on some case) are
//! mapped back to the line that caused them.

use crate::diag::{Diagnostic, LoadError, Severity, Sources, collapse};
use crate::input;
use crate::lints;
use crate::options::Options;
use crate::read::{Display, Evaluation, OptionInfo, Reader};
use crate::tree::{self, Table};
use crate::write;
use ply_kernel::Rules;
use std::path::Path;
use std::sync::Arc;

/// A loaded pack: compiled rules, ready to play, and what the loader knows about it.
#[derive(Clone, Debug)]
pub struct Pack {
    /// The compiled rules.
    pub rules: Arc<Rules>,
    /// The options and their values.
    pub options: Vec<OptionInfo>,
    /// Problems that do not stop the pack from loading.
    pub warnings: Vec<Diagnostic>,
    /// The files read.
    pub sources: Sources,
    /// The pack with `extends` and options applied, as TOML.
    pub resolved: String,
    /// What `[eval]` declares, evaluated for every piece on every cell (`None` without the
    /// section: the engines count pieces).
    pub eval: Option<Evaluation>,
    /// What `[display]` asks of a graphical front end (empty without the section).
    pub display: Display,
}

impl Pack {
    /// Renders the warnings, rustc style.
    pub fn render_warnings(&self, color: bool) -> String {
        self.warnings
            .iter()
            .map(|w| w.render_with(&self.sources, color))
            .collect()
    }
}

/// Loads the pack at `path`, with option values given as `(name, value)` text pairs (as a
/// command line has them; [`load_with`] takes them typed).
pub fn load(path: impl AsRef<Path>, set: &[(String, String)]) -> Result<Pack, LoadError> {
    load_with(path, &Options::from_texts(set))
}

/// Loads the pack at `path`, with typed option values.
pub fn load_with(path: impl AsRef<Path>, options: &Options) -> Result<Pack, LoadError> {
    let path = path.as_ref();
    let mut sources = Sources::default();
    let mut diags = Vec::new();
    let tree = input::read_tree(
        path,
        path.display().to_string(),
        None,
        &mut sources,
        &mut diags,
        &mut Vec::new(),
    );
    finish(tree, options, sources, diags)
}

/// Loads a pack from text. `name` is shown in messages; `extends` paths are relative to the
/// current directory.
pub fn load_str(name: &str, text: &str, set: &[(String, String)]) -> Result<Pack, LoadError> {
    load_str_with(name, text, &Options::from_texts(set))
}

/// [`load_str`] with typed option values.
pub fn load_str_with(name: &str, text: &str, options: &Options) -> Result<Pack, LoadError> {
    let mut sources = Sources::default();
    let mut diags = Vec::new();
    if let Some(why) = input::too_large(text.len()) {
        diags.push(Diagnostic::error(
            None,
            format!("cannot read pack `{name}`: {why}"),
        ));
        return finish(None, options, sources, diags);
    }
    let file = sources.add(name, text);
    let tree = tree::parse(file, text, &mut diags)
        .and_then(|t| input::extend(t, Path::new("."), &mut sources, &mut diags, &mut Vec::new()));
    finish(tree, options, sources, diags)
}

pub(crate) fn finish(
    tree: Option<Table>,
    set: &Options,
    sources: Sources,
    mut diags: Vec<Diagnostic>,
) -> Result<Pack, LoadError> {
    let Some(tree) = tree else {
        return Err(LoadError {
            sources,
            diagnostics: diags,
        });
    };
    let mut reader = Reader::new(&sources);
    let built = reader.read(&tree, set);
    diags.append(&mut reader.diags);
    let mut diags = collapse(diags, false);
    diags.sort_by_key(|d| (d.severity, d.loc.map(|l| (l.file, l.start))));
    let has_errors = diags.iter().any(|d| d.severity == Severity::Error);
    let (spec, options, mut warnings) = match built {
        Some(b) if !has_errors => b,
        _ => {
            diags.sort_by_key(|d| d.severity);
            return Err(LoadError {
                sources,
                diagnostics: diags,
            });
        }
    };
    match Rules::new(spec) {
        Ok(rules) => {
            let eval = match reader.eval.as_ref().map(|e| e.evaluate(&rules)) {
                None => None,
                Some(Ok(e)) => Some(e),
                Some(Err(d)) => {
                    diags.push(d);
                    diags.sort_by_key(|d| d.severity);
                    return Err(LoadError {
                        sources,
                        diagnostics: diags,
                    });
                }
            };
            warnings.extend(lints::immobile(&rules, &reader.locs));
            let display = std::mem::take(&mut reader.display);
            warnings.extend(diags);
            let resolved = write::resolved_toml(&tree, &options);
            Ok(Pack {
                rules: Arc::new(rules),
                options,
                warnings,
                sources,
                resolved,
                eval,
                display,
            })
        }
        Err(errors) => {
            let found = errors
                .into_iter()
                .map(|e| {
                    let d = Diagnostic::error(reader.locs.site(e.site), e.message).label("here");
                    match e.repeats {
                        0 => d,
                        n => d.help(crate::diag::more_like_it(n)),
                    }
                })
                .collect();
            // One per message first (the kernel reports a limit once per part of the pack
            // that goes over it), then one per place and cause.
            diags.extend(collapse(collapse(found, true), false));
            diags.sort_by_key(|d| d.severity);
            Err(LoadError {
                sources,
                diagnostics: diags,
            })
        }
    }
}
