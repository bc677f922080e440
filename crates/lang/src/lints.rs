//! Lints: what loads and plays but looks like a mistake. A zone, option or definition that
//! nothing uses, a kind of piece that can never move, a pack with no setup. They are
//! warnings, never errors: the pack is played as written.
//!
//! Only what the loaded pack itself declares is reported as unused. A zone, option or
//! definition inherited by `extends` is used by the pack that declares it; a variant that
//! switches off the rule using it (`dead-position = false`) has made no mistake.

use crate::check::{Checker, Definition};
use crate::diag::{Diagnostic, Loc};
use crate::locs::Locs;
use crate::tree::Table;
use ply_kernel::Rules;
use ply_kernel::spec::{KindSpec, Pattern, ZoneSpec};

/// What the lints look at once every expression is checked.
pub(crate) struct Uses<'a> {
    /// The merged pack.
    pub(crate) top: &'a Table,
    /// The checker, which knows what expressions used.
    pub(crate) checker: &'a Checker<'a>,
    /// The kinds, with their moves and promotions.
    pub(crate) kinds: &'a [KindSpec],
    /// The zones.
    pub(crate) zones: &'a [ZoneSpec],
    /// Where each zone is declared.
    pub(crate) zone_locs: &'a [Loc],
    /// Each option's name and where it is declared.
    pub(crate) options: &'a [(&'a str, Option<Loc>)],
    /// The definitions.
    pub(crate) defs: &'a [Definition],
    /// The `[define]` table, to place a definition's warning.
    pub(crate) define: &'a Table,
}

/// The file of the pack being loaded: the packs it extends are read after it.
const LOADED_FILE: usize = 0;

/// Whether `loc` lies in a pack that the loaded one extends.
fn inherited(loc: Option<Loc>) -> bool {
    loc.is_some_and(|l| l.file != LOADED_FILE)
}

/// Warnings for what nothing uses, and for a pack without `[setup]`.
pub(crate) fn unused(u: &Uses<'_>) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    let places = u
        .kinds
        .iter()
        .any(|k| k.moves.iter().any(|m| m.pattern == Pattern::Place));
    if u.top.get("setup").is_none() && !places {
        warnings.push(
            Diagnostic::warning(
                u.top.entries.get("game").map(|e| e.key_loc),
                "this pack has no [setup]: the game starts on an empty board",
            )
            .help("add a `[setup.PLAYER]` table for each player, with `KIND = \"CELLS\"` entries"),
        );
    }
    let used = &u.checker.used;
    let jump_zones: Vec<usize> = u
        .kinds
        .iter()
        .flat_map(|k| k.moves.iter())
        .filter_map(|m| match m.pattern {
            Pattern::Jump { zone, .. } => Some(zone),
            _ => None,
        })
        .chain(
            u.kinds
                .iter()
                .filter_map(|k| k.promotion.as_ref().map(|p| p.zone)),
        )
        .chain(u.kinds.iter().filter_map(|k| k.never_in))
        .collect();
    for (i, z) in u.zones.iter().enumerate() {
        if !used.contains(&format!("zone:{}", z.name))
            && !jump_zones.contains(&i)
            && !inherited(u.zone_locs.get(i).copied())
        {
            warnings.push(
                Diagnostic::warning(
                    u.zone_locs.get(i).copied(),
                    format!("zone `{}` is never used", z.name),
                )
                .help("no rule, move pattern or promotion mentions it"),
            );
        }
    }
    for (name, loc) in u.options {
        if !used.contains(&format!("option:{name}")) && !inherited(*loc) {
            warnings.push(Diagnostic::warning(
                *loc,
                format!("option `{name}` is never read"),
            ));
        }
    }
    for d in u.defs {
        if !u.checker.definition_used(&d.name) {
            let loc = u
                .define
                .entries
                .iter()
                .find(|(h, _)| h.starts_with(d.name.as_str()))
                .map(|(_, e)| e.key_loc);
            if inherited(loc) {
                continue;
            }
            warnings.push(Diagnostic::warning(
                loc,
                format!("definition `{}` is never used", d.name),
            ));
        }
    }
    warnings
}

/// Warnings for the kinds that no move pattern ever takes anywhere, which only the compiled
/// rules can tell.
pub(crate) fn immobile(rules: &Rules, locs: &Locs) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for k in rules.kinds() {
        if let Some(placeable) = rules.kind_placed(k) {
            if !placeable {
                let name = rules.kind_name(k).to_string();
                warnings.push(
                    Diagnostic::warning(
                        locs.kinds.get(k.index()).copied(),
                        format!("piece `{name}` can never be placed"),
                    )
                    .help("its place rules and conditions refuse every cell of the board"),
                );
            }
            continue;
        }
        // A kind that only counts captured pieces in a hand (`to_hand = "Captive"`) is not
        // meant to move.
        let counter = rules.kinds().any(|j| rules.to_hand(j) == Some(k));
        if !rules.kind_can_move(k) && !counter {
            let name = rules.kind_name(k).to_string();
            warnings.push(
                Diagnostic::warning(
                    locs.kinds.get(k.index()).copied(),
                    format!("piece `{name}` can never move"),
                )
                .help("no move pattern of it reaches any cell it may enter"),
            );
        }
    }
    warnings
}
