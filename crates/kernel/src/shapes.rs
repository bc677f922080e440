//! The cells a pattern's shape reaches from a cell, whatever the position: one meaning for the
//! compiler, which lists targets from it, and for the explanation of a refused move.

use crate::cell::Cell;
use crate::facts::Core;
use crate::geometry::{Dir, DirSet, Geometry};
use crate::spec::Pattern;
use crate::tables::Shape;

/// The shape of a pattern.
pub(crate) fn shape_of(pattern: &Pattern) -> Shape {
    match pattern {
        Pattern::Step => Shape::Step,
        Pattern::Jump { zone, .. } => Shape::Jump(*zone),
        Pattern::Hop { .. } => Shape::Hop,
        Pattern::Slide { max, .. } => Shape::Slide(*max),
        Pattern::Leap { offset, .. } => Shape::Leap(offset.0, offset.1),
        Pattern::Place => Shape::Place,
        Pattern::Fly => Shape::Fly,
    }
}

/// The `i`-th symmetric image (`0..8`) of the offset `(a, b)` in (rows, columns): bit 0
/// negates the first, bit 1 the second, bit 2 swaps them. `None` for an image equal to an
/// earlier one, so that each destination is reached once.
pub(crate) fn leap_image(a: u8, b: u8, i: u8) -> Option<(i64, i64)> {
    let image = |i: u8| {
        let (mut r, mut c) = (a as i64, b as i64);
        if i & 1 != 0 {
            r = -r;
        }
        if i & 2 != 0 {
            c = -c;
        }
        if i & 4 != 0 { (c, r) } else { (r, c) }
    };
    let mine = image(i);
    ((0..i).all(|j| image(j) != mine) && mine != (0, 0)).then_some(mine)
}

/// The images of a leap by `(a, b)` (as numbered by the directions of a move's set) whose
/// heading is one of `towards`: the heading of an image is one step along its longer side,
/// diagonally when both sides are equal (the direction of its leg). `leap (2, 1) forward` is a
/// knight that only leaps forward.
pub fn leap_images_towards(a: u8, b: u8, towards: DirSet) -> DirSet {
    let mut images = 0u8;
    for i in 0..8u8 {
        let Some((dr, dc)) = leap_image(a, b, i) else {
            continue;
        };
        let (ar, ac) = (dr.abs(), dc.abs());
        let heading = (
            if ar >= ac { dr.signum() } else { 0 },
            if ac >= ar { dc.signum() } else { 0 },
        );
        if Dir::ALL.into_iter().any(|d| {
            towards.contains(d) && (i64::from(d.delta().0), i64::from(d.delta().1)) == heading
        }) {
            images |= 1 << i;
        }
    }
    DirSet(images)
}

/// The leg of a leap by `(dr, dc)`: one step along the longer side, diagonally when both are
/// equal; `None` when that is the destination itself.
pub(crate) fn leap_leg(dr: i64, dc: i64) -> Option<(i64, i64)> {
    let (ar, ac) = (dr.abs(), dc.abs());
    let leg = (
        if ar >= ac { dr.signum() } else { 0 },
        if ac >= ar { dc.signum() } else { 0 },
    );
    (leg != (dr, dc)).then_some(leg)
}

/// Where a pattern goes from `from` in `dir`: destination, hopped-over cell, jumped cells.
/// The compiler builds the target lists with it, and an explanation finds with it the
/// destinations the enter rules took out of them.
pub(crate) fn geometry_of(
    g: &Geometry,
    core: &Core,
    shape: Shape,
    from: Cell,
    dir: Dir,
) -> Option<(Cell, Option<Cell>, Vec<Cell>)> {
    match shape {
        Shape::Step => g.neighbour(from, dir).map(|to| (to, None, Vec::new())),
        Shape::Hop => {
            let over = g.neighbour(from, dir)?;
            let to = g.neighbour(over, dir)?;
            Some((to, Some(over), Vec::new()))
        }
        Shape::Jump(zone) => {
            let mut cells = Vec::new();
            let mut c = g.neighbour(from, dir)?;
            while core.in_zone(c, zone, None) {
                cells.push(c);
                c = g.neighbour(c, dir)?;
            }
            (!cells.is_empty()).then_some((c, None, cells))
        }
        // The direction's index numbers the image of the offset.
        Shape::Leap(a, b) => {
            let (dr, dc) = leap_image(a, b, dir as u8)?;
            let (r, c) = (g.row(from) as i64, g.col(from) as i64);
            let to = g.cell(r + dr, c + dc)?;
            let legs = match leap_leg(dr, dc) {
                Some((lr, lc)) => vec![g.cell(r + lr, c + lc)?],
                None => Vec::new(),
            };
            Some((to, None, legs))
        }
        // Rays are built by the compiler; nothing else goes anywhere.
        // Every cell but the origin: the compiler lists them.
        Shape::Fly => None,
        Shape::Slide(_) | Shape::Place | Shape::Pass | Shape::Compound(_) => None,
    }
}
