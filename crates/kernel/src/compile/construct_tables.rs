//! The constructs' tables on compiled rules (each built by its module in [`crate::construct`]),
//! the keys of the extra state they keep, the kinds that reset the idle clock, and the tables
//! of promotions.

use super::*;

/// The constructs' tables (see [`crate::construct`]), the keys of the state they keep, and
/// the kinds that reset the idle clock, on compiled rules; and whether generation and make
/// take the general path for them.
pub(super) fn special_tables(rules: &mut Rules, spec: &RulesSpec) -> Result<(), Vec<RulesError>> {
    let stride = rules.stride;
    let codes = 1 + PLAYERS * spec.kinds.len();
    let code = |k: KindId, p: usize| Piece::new(k, Player(p as u8)).0;
    rules.resets_idle = vec![false; codes];
    for (k, kind) in spec.kinds.iter().enumerate() {
        for p in 0..PLAYERS {
            rules.resets_idle[code(KindId(k as u8), p) as usize] = kind.resets_idle;
        }
    }
    // The keys first: a construct's table may read whether the state keeps its part.
    let mut seed = 0xC0FF_EE00_D15E_A5E5u64;
    if rules.moves.iter().any(|m| m.leaves_ghost) {
        rules.ghost_keys = (0..stride).map(|_| splitmix(&mut seed)).collect();
    }
    rules.unmoved_keys = (0..stride).map(|_| splitmix(&mut seed)).collect();
    rules.fen = spec.fen.clone();
    crate::construct::build(rules, spec)?;
    rules.special = crate::construct::any_used(rules) || rules.resets_idle.iter().any(|&b| b);
    rules.general |= rules.special;
    Ok(())
}

pub(super) fn promotion_tables(
    core: &Core,
    spec: &RulesSpec,
    codes: usize,
    stride: usize,
) -> (Vec<u8>, Vec<bool>) {
    // Promotions by choice (of kinds, optional, or on leaving the zone) are made by the
    // move: without others, no table of codes. A
    // promotion that ends a hop chain stops it whether it is chosen or not.
    let single = |p: &&crate::spec::Promotion| !p.by_move();
    let any_single = spec
        .kinds
        .iter()
        .any(|k| k.promotion.as_ref().is_some_and(|p| single(&p)));
    let any_stop = spec
        .kinds
        .iter()
        .any(|k| k.promotion.as_ref().is_some_and(|p| p.ends_chain));
    if !any_single && !any_stop {
        return (Vec::new(), Vec::new());
    }
    let mut to = vec![0u8; if any_single { codes * stride } else { 0 }];
    let mut stops = vec![false; codes * stride];
    for (code, slot) in to.iter_mut().enumerate() {
        *slot = (code / stride) as u8;
    }
    for (k, kind) in spec.kinds.iter().enumerate() {
        let Some(p) = &kind.promotion else { continue };
        if p.to.index() >= spec.kinds.len() {
            continue;
        }
        for owner in 0..PLAYERS as u8 {
            let piece = Piece::new(KindId(k as u8), Player(owner));
            let promoted = Piece::new(p.to, Player(owner));
            for cell in core.geometry.cells().iter() {
                if core.in_zone(cell, p.zone, Some(Player(owner))) {
                    // A choice of promotion is made by the move, not by the table.
                    if single(&p) {
                        to[piece.code() * stride + cell.index()] = promoted.0;
                    }
                    stops[piece.code() * stride + cell.index()] = p.ends_chain;
                }
            }
        }
    }
    (to, stops)
}
