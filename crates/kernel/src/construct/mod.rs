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
//! The constructs: [`placement`] (`place`), [`Passes`] (`pass = true`), [`second`] parts of a
//! turn (`then place`), [`effect`]s, [`royal`] pieces, [`ghost`]s (captures of a passing
//! piece), [`compound`] moves, [`choice`]s of promotion and [`removal`]s of the mover's choice. The first four have their own
//! places in the general path's generation and make, because they are ordered against
//! mandatory capture and required effects there (placements come after the captures, a pass
//! only when nothing else is legal, a second part before the effects, which report whether a
//! required one changed a piece); the last four are called through [`generate`], [`expand`]
//! and [`after_make`] in one order.
//!
//! Legality is not a construct's business: a move is legal when it is generated and, made on
//! the position, leaves no royal piece of the mover attacked and every required effect changed
//! a piece (`position/legal.rs`), whatever constructs made it.
//!
//! Adding a construct touches: its file here implementing [`Construct`] and its line in
//! [`used_names`], [`check`], [`build`] and, for what it uses, [`generate`], [`expand`] and
//! [`after_make`] (and the test list `ALL`); its spec field and builder (`spec.rs`); its reader
//! and checks in `crates/lang` (`read/`), its line in the guide (`rulesets/README.md`, whose
//! quick reference a test holds to `ALL`); where it carries data in a move, a field of
//! [`crate::moves::Move`]'s layout (with the layout test in `moves.rs`) and its notation
//! (`notation.rs`); and its line in the random-pack generator (`tests/compose/random_pack.rs`).

pub(crate) mod choice;
pub(crate) mod compound;
pub(crate) mod effect;
pub(crate) mod ghost;
pub(crate) mod placement;
pub(crate) mod removal;
pub(crate) mod royal;
pub(crate) mod second;

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
pub(crate) use effect::Effects;
pub(crate) use ghost::Ghosts;
pub(crate) use placement::Placements;
pub(crate) use removal::Removals;
pub(crate) use royal::Royal;
pub(crate) use second::Seconds;

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

/// The constructs, by name and syntax.
#[cfg(test)]
pub(crate) const ALL: [(&str, &str); 9] = [
    (Placements::NAME, Placements::SYNTAX),
    (Passes::NAME, Passes::SYNTAX),
    (Seconds::NAME, Seconds::SYNTAX),
    (Effects::NAME, Effects::SYNTAX),
    (Royal::NAME, Royal::SYNTAX),
    (Ghosts::NAME, Ghosts::SYNTAX),
    (Compounds::NAME, Compounds::SYNTAX),
    (Choices::NAME, Choices::SYNTAX),
    (Removals::NAME, Removals::SYNTAX),
];

/// The construct of passing: a player with no other move passes (`pass = true`); its move
/// is generated last, when nothing else is legal, and its make only hands the turn over
/// (`position/general.rs`).
pub(crate) struct Passes;

impl Construct for Passes {
    const NAME: &'static str = "passes";
    #[cfg(test)]
    const SYNTAX: &'static str = "pass = true|false";

    #[inline(always)]
    fn used(rules: &Rules) -> bool {
        rules.pass_rule.is_some()
    }
}

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
        (Placements::used(rules), Placements::NAME),
        (Passes::used(rules), Passes::NAME),
        (Seconds::used(rules), Seconds::NAME),
        (Effects::used(rules), Effects::NAME),
        (Royal::used(rules), Royal::NAME),
        (Ghosts::used(rules), Ghosts::NAME),
        (Compounds::used(rules), Compounds::NAME),
        (Choices::used(rules), Choices::NAME),
        (Removals::used(rules), Removals::NAME),
    ]
    .into_iter()
    .filter_map(|(used, name)| used.then_some(name))
}

/// Whether some construct is used: generation and make take the general path.
pub(crate) fn any_used(rules: &Rules) -> bool {
    Royal::used(rules)
        || Ghosts::used(rules)
        || Compounds::used(rules)
        || Choices::used(rules)
        || Removals::used(rules)
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
    if !Removals::used(rules) {
        return Choices::used(rules)
            .then(|| Choices::expand(state, rules, m, out))
            .flatten();
    }
    // Each choice of promotion, then each removal after it.
    if Choices::used(rules) {
        let mut each =
            |c: Move| Removals::expand(state, rules, c, &mut *out).unwrap_or_else(|| out(c));
        if let Some(flow) = Choices::expand(state, rules, m, &mut each) {
            return Some(flow);
        }
    }
    Removals::expand(state, rules, m, out)
}

/// Every construct's part of make, then the idle clock and the repetition history for a move
/// that one of them (or the mover's kind) made irreversible.
#[inline]
pub(crate) fn after_make(state: &mut State, rules: &Rules, m: Move, moved: u8) {
    let mut irreversible = rules.resets_idle.get(moved as usize) == Some(&true);
    // Each asked only where used: a test of a set of 1,024 cells is not free.
    if Ghosts::used(rules) {
        irreversible |= Ghosts::after_make(state, rules, m, moved);
    }
    if Choices::used(rules) {
        irreversible |= Choices::after_make(state, rules, m, moved);
    }
    if Compounds::used(rules) {
        irreversible |= Compounds::after_make(state, rules, m, moved);
    }
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
