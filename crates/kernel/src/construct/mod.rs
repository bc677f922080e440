//! The constructs beyond a piece's own pattern, one module each, behind one interface.
//!
//! A piece's own moves (steps, slides, leaps, jumps, hops and their chains) are compiled into
//! target lists and bitboards (`compile/targets.rs`, `compile/steps.rs`) and generated and
//! made by the fast paths of `position/`. Everything else a pack can say about a move is a
//! **construct** here, and each construct owns, in its one file:
//!
//! - its checks of the spec ([`Construct::check`], errors located at its site);
//! - its play-time tables, built on the compiled rules ([`Construct::build`]);
//! - whether compiled rules use it ([`Construct::used`]): rules that do not never pay for it;
//! - its moves beyond the pieces' own ([`Construct::generate`]) and the moves one pseudo-legal
//!   move stands for ([`Construct::expand`]);
//! - its part of make ([`Construct::after_make`]): changes through the state's log, which
//!   unmake rewinds, so that no construct writes an unmake of its own;
//! - its part of attacks on royal pieces, where it has one ([`royal`]).
//!
//! Legality is not a construct's business: a move is legal when it is generated and, made on
//! the position, leaves no royal piece of the mover attacked and every required effect changed
//! a piece (`position/legal.rs`), whatever constructs made it. Generation and make call the
//! constructs in one order, the order of [`ALL`]; the general path of `position/general.rs`
//! is that loop.
//!
//! Adding a construct: a file here implementing [`Construct`], its line in [`ALL`] and in the
//! three calls below, its spec field (`spec.rs`) and reader (`crates/lang`), and where it
//! carries data in a move, a field of [`crate::moves::Move`]'s layout.

pub(crate) mod choice;
pub(crate) mod compound;
pub(crate) mod ghost;
pub(crate) mod royal;

use crate::cell::{Cell, CellSet};
use crate::facts::Core;
use crate::moves::{Emit, Move};
use crate::piece::Piece;
use crate::piece::Player;
use crate::position::State;
use crate::rules::Rules;
use crate::spec::{RulesError, RulesSpec, Site};
use crate::tables::Target;
use std::ops::ControlFlow;

pub(crate) use choice::Choices;
pub(crate) use compound::Compounds;
pub(crate) use ghost::Ghosts;
pub(crate) use royal::Royal;

/// One construct: its checks, tables, moves and make. Every method but [`Construct::used`]
/// has a default that does nothing, for constructs without that part.
pub(crate) trait Construct {
    /// Its name, in words.
    const NAME: &'static str;

    /// What a pack writes to use it, as the guide's quick reference shows it.
    #[cfg(test)]
    const SYNTAX: &'static str;

    /// Checks its parts of `spec`, reporting each problem at its site.
    fn check(_spec: &RulesSpec, _core: &Core, _report: &mut dyn FnMut(Site, String)) {}

    /// Builds its play-time tables on `rules`, compiled but for the constructs.
    fn build(_rules: &mut Rules, _spec: &RulesSpec) -> Result<(), Vec<RulesError>> {
        Ok(())
    }

    /// Whether `rules` use it: generation and make ask only the constructs used.
    fn used(rules: &Rules) -> bool;

    /// Its pseudo-legal moves of `side`, beyond the pieces' own.
    fn generate<B>(
        _state: &State,
        _rules: &Rules,
        _side: Player,
        _out: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        ControlFlow::Continue(())
    }

    /// The moves that the pseudo-legal move `m` stands for, when it stands for others than
    /// itself (a promotion with a choice is one move per choice): each passed to `out`, and
    /// `Some` of how that ended; `None` when `m` stands for itself.
    fn expand<B>(
        _state: &State,
        _rules: &Rules,
        _m: Move,
        _out: &mut dyn FnMut(Move) -> ControlFlow<B>,
    ) -> Option<ControlFlow<B>> {
        None
    }

    /// Its part of make, once the move's pieces have moved (`moved` is the mover's code, 0 for
    /// a placement or a pass): changes made through the log (`State::change`), which unmake
    /// rewinds. Returns whether the move is irreversible (resets the idle clock).
    fn after_make(_state: &mut State, _rules: &Rules, _m: Move, _moved: u8) -> bool {
        false
    }
}

/// The constructs, by name and syntax, in the order their moves are generated and their parts
/// of make applied.
#[cfg(test)]
pub(crate) const ALL: [(&str, &str); 4] = [
    (Royal::NAME, Royal::SYNTAX),
    (Ghosts::NAME, Ghosts::SYNTAX),
    (Compounds::NAME, Compounds::SYNTAX),
    (Choices::NAME, Choices::SYNTAX),
];

/// Every construct's checks of `spec`.
pub(crate) fn check(spec: &RulesSpec, core: &Core, report: &mut dyn FnMut(Site, String)) {
    Royal::check(spec, core, report);
    Ghosts::check(spec, core, report);
    Compounds::check(spec, core, report);
    Choices::check(spec, core, report);
}

/// Every construct's tables, on compiled rules.
pub(crate) fn build(rules: &mut Rules, spec: &RulesSpec) -> Result<(), Vec<RulesError>> {
    Royal::build(rules, spec)?;
    Ghosts::build(rules, spec)?;
    Compounds::build(rules, spec)?;
    Choices::build(rules, spec)?;
    Ok(())
}

/// The names of the constructs `rules` use.
pub(crate) fn used_names(rules: &Rules) -> impl Iterator<Item = &'static str> {
    [
        (Royal::used(rules), Royal::NAME),
        (Ghosts::used(rules), Ghosts::NAME),
        (Compounds::used(rules), Compounds::NAME),
        (Choices::used(rules), Choices::NAME),
    ]
    .into_iter()
    .filter_map(|(used, name)| used.then_some(name))
}

/// Whether some construct is used: generation and make take the general path.
pub(crate) fn any_used(rules: &Rules) -> bool {
    Royal::used(rules) || Ghosts::used(rules) || Compounds::used(rules) || Choices::used(rules)
}

/// The moves of every construct used, beyond the pieces' own.
#[inline]
pub(crate) fn generate<B>(
    state: &State,
    rules: &Rules,
    side: Player,
    out: &mut dyn Emit<B>,
) -> ControlFlow<B> {
    if Ghosts::used(rules) {
        Ghosts::generate(state, rules, side, out)?;
    }
    if Compounds::used(rules) {
        Compounds::generate(state, rules, side, out)?;
    }
    ControlFlow::Continue(())
}

/// The moves `m` stands for, by the first construct for which it stands for others.
#[inline]
pub(crate) fn expand<B>(
    state: &State,
    rules: &Rules,
    m: Move,
    out: &mut dyn FnMut(Move) -> ControlFlow<B>,
) -> Option<ControlFlow<B>> {
    if Choices::used(rules) {
        return Choices::expand(state, rules, m, out);
    }
    None
}

/// Every construct's part of make, then the idle clock and the repetition history for a move
/// that one of them (or the mover's kind) made irreversible.
#[inline]
pub(crate) fn after_make(state: &mut State, rules: &Rules, m: Move, moved: u8) {
    let mut irreversible = rules.resets_idle.get(moved as usize) == Some(&true);
    irreversible |= Ghosts::after_make(state, rules, m, moved);
    irreversible |= Choices::after_make(state, rules, m, moved);
    irreversible |= Compounds::after_make(state, rules, m, moved);
    if irreversible && rules.history {
        state.idle = 0;
    }
}

// What the pieces' own compiled moves reach, read by the constructs' tables.

/// Every listed target of `code` from `from`, with its index.
pub(crate) fn listed(
    rules: &Rules,
    code: usize,
    from: usize,
) -> impl Iterator<Item = (usize, &Target)> {
    let slot = &rules.slots[code][from];
    let start = slot.start as usize;
    rules.targets[start..start + slot.len as usize]
        .iter()
        .enumerate()
        .map(move |(i, t)| (start + i, t))
}

/// The step groups of `code` from `from`.
pub(crate) fn groups(rules: &Rules, code: usize, from: usize) -> &[crate::tables::StepGroup] {
    let slot = &rules.slots[code][from];
    let start = slot.group_start as usize;
    &rules.groups[start..start + slot.groups as usize]
}

/// The codes of the pieces of `player`.
pub(crate) fn codes_of(rules: &Rules, player: Player) -> impl Iterator<Item = u8> + '_ {
    rules.kinds().map(move |k| Piece::new(k, player).0)
}

/// The origins of `code` from which one of its own patterns reaches `to`, whatever the
/// position: the cells from which a compound move ending on `to` would share its endpoints
/// with another move.
pub(crate) fn reaching(rules: &Rules, code: u8, to: Cell) -> CellSet {
    let mut out = CellSet::EMPTY;
    for from in rules.geometry().cells().iter() {
        let by_group = groups(rules, code as usize, from.index())
            .iter()
            .any(|g| to.index() < 64 && (g.quiet | g.capture) & (1u64 << to.index()) != 0);
        let listed = listed(rules, code as usize, from.index()).any(|(_, t)| t.to == to.0);
        if by_group || listed {
            out.insert(from);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    /// A construct the kernel plays is one a designer can find: its syntax is in the guide's
    /// quick reference.
    #[test]
    fn every_construct_is_in_the_quick_reference() {
        let guide = include_str!("../../../../rulesets/README.md");
        let quick = &guide[guide
            .find("## Quick reference")
            .expect("the guide has a quick reference")..];
        for (name, syntax) in super::ALL {
            assert!(
                quick.contains(syntax),
                "the quick reference lacks {name} (`{syntax}`)"
            );
        }
    }
}
