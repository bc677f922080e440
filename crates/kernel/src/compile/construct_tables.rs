//! The play-time tables of royal pieces, compound moves, choices of promotion, passing
//! captures, unmoved pieces and promotions (see [`crate::constructs`]), built on compiled
//! rules.

use super::*;

/// The tables of royal pieces, compound moves, promotion by choice, captures of a passing
/// piece, unmoved pieces and the idle clock (see [`crate::constructs`]), on compiled rules.
pub(super) fn special_tables(
    rules: &mut Rules,
    spec: &RulesSpec,
    first_compound: usize,
) -> Result<(), Vec<RulesError>> {
    let stride = rules.stride;
    let codes = 1 + PLAYERS * spec.kinds.len();
    let code = |k: KindId, p: usize| Piece::new(k, Player(p as u8)).0;
    for (k, kind) in spec.kinds.iter().enumerate() {
        if kind.royal {
            for p in 0..PLAYERS {
                rules.royal[p] = code(KindId(k as u8), p);
            }
        }
    }
    rules.compounds = spec
        .compounds
        .iter()
        .enumerate()
        .map(|(i, c)| crate::constructs::Compound {
            mover: [0, 1].map(|p| code(c.mover, p)),
            partner: [0, 1].map(|p| code(c.partner, p)),
            dir: c.dir,
            mover_to: c.mover_to,
            partner_to: c.partner_to,
            rule: (first_compound + i) as u8,
            by_partner: [CellSet::EMPTY; PLAYERS],
        })
        .collect();
    let by_partner: Vec<[CellSet; PLAYERS]> = rules
        .compounds
        .iter()
        .map(|c| [0, 1].map(|p| attacks::reaching(rules, c.mover[p], c.mover_to[p])))
        .collect();
    for (c, b) in rules.compounds.iter_mut().zip(by_partner) {
        c.by_partner = b;
    }
    rules.resets_idle = vec![false; codes];
    rules.tracks_unmoved = vec![false; codes];
    for (k, kind) in spec.kinds.iter().enumerate() {
        for p in 0..PLAYERS {
            rules.resets_idle[code(KindId(k as u8), p) as usize] = kind.resets_idle;
        }
    }
    for c in &spec.compounds {
        for p in 0..PLAYERS {
            rules.tracks_unmoved[code(c.mover, p) as usize] = true;
            rules.tracks_unmoved[code(c.partner, p) as usize] = true;
        }
    }
    if spec
        .kinds
        .iter()
        .any(|k| k.promotion.as_ref().is_some_and(|p| p.choices.len() > 1))
    {
        rules.choices = vec![crate::constructs::Choice::default(); codes];
        for (k, kind) in spec.kinds.iter().enumerate() {
            let Some(p) = kind.promotion.as_ref().filter(|p| p.choices.len() > 1) else {
                continue;
            };
            for owner in 0..PLAYERS {
                let c = &mut rules.choices[code(KindId(k as u8), owner) as usize];
                c.codes = p.choices.iter().map(|&to| code(to, owner)).collect();
                for cell in rules.core.geometry.cells().iter() {
                    if rules.core.in_zone(cell, p.zone, Some(Player(owner as u8))) {
                        c.zone.insert(cell);
                    }
                }
            }
        }
    }
    if rules.moves.iter().any(|m| m.takes_ghost) {
        rules.ghosts = ghosts::ghost_entries(rules);
    }
    let mut seed = 0xC0FF_EE00_D15E_A5E5u64;
    if rules.moves.iter().any(|m| m.leaves_ghost) {
        rules.ghost_keys = (0..stride).map(|_| splitmix(&mut seed)).collect();
    }
    rules.unmoved_keys = (0..stride).map(|_| splitmix(&mut seed)).collect();
    rules.fen = spec.fen.clone();
    if rules.royal.iter().any(|&r| r != 0) {
        rules.attacks = attacks::attacks(rules).map_err(|(kind, message, problem)| {
            vec![RulesError::new(Site::Kind(kind.index()), message, problem)]
        })?;
    }
    rules.special = rules.royal.iter().any(|&r| r != 0)
        || !rules.compounds.is_empty()
        || !rules.choices.is_empty()
        || rules.moves.iter().any(|m| m.leaves_ghost || m.takes_ghost)
        || rules.resets_idle.iter().any(|&b| b);
    rules.general |= rules.special;
    Ok(())
}

pub(super) fn promotion_tables(
    core: &Core,
    spec: &RulesSpec,
    codes: usize,
    stride: usize,
) -> (Vec<u8>, Vec<bool>) {
    // Promotions by choice are made by the move: without others, no table of codes. A
    // promotion that ends a hop chain stops it whether it is chosen or not.
    let single = |p: &&crate::spec::Promotion| p.choices.len() <= 1;
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
