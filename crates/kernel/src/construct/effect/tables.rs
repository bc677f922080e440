//! Effects into bit tables: which enemy pieces an effect takes or turns (`target`), and which
//! cells are hostile besides those holding the mover's own pieces (`hostile`), for every
//! mover, target, cell and occupant.

use crate::cell::Cell;
use crate::compile::{Compiler, table_for};
use crate::expr::{Env, EvalError, Value};
use crate::expr::{Expr, Var};
use crate::geometry::DirSet;
use crate::limits::MAX_TABLE_BITS;
use crate::piece::PLAYERS;
use crate::piece::Piece;
use crate::spec::EffectSpec;
use crate::spec::Site;
use crate::tables::CompiledEffect;
use crate::verdict::StaticEnv;

impl Compiler<'_> {
    /// The effects of the spec, checked and compiled into tables.
    pub(crate) fn effects(&mut self) -> Vec<CompiledEffect> {
        let spec = self.spec;
        spec.effects
            .iter()
            .enumerate()
            .map(|(i, e)| self.effect(i, e))
            .collect()
    }

    fn effect(&mut self, i: usize, e: &EffectSpec) -> CompiledEffect {
        let codes = 1 + PLAYERS * self.core.kind_count();
        let cells = self.core.geometry.len();
        let site = Site::Effect(i);
        // The tables know the target's cell in `target`, and the cell looked at in `hostile`;
        // where a piece stands that they do not know is refused, not guessed.
        let unknown = [
            (e.target.as_ref(), Var::Mover, "`target`", "the mover"),
            (e.hostile.as_ref(), Var::Mover, "`hostile`", "the mover"),
            (e.hostile.as_ref(), Var::Target, "`hostile`", "the target"),
        ];
        for (expr, var, condition, who) in unknown {
            if expr.is_some_and(|x| reads_cell_of(x, var)) {
                self.error(
                    site,
                    format!(
                        "an effect's {condition} condition cannot read where {who} stands (its \
                         cell, row, column, zone or neighbours, or the piece compared whole): \
                         effects are tabulated by kind; read its kind, owner or attributes, or \
                         the `cell` looked at"
                    ),
                );
            }
        }
        let pieces: Vec<Piece> = self.core.all_pieces().collect();
        let target = e.target.as_ref().and_then(|x| {
            let mut table = table_for([codes, codes, cells, 1, 1]);
            for &mover in &pieces {
                for &victim in pieces.iter().filter(|p| p.owner() != mover.owner()) {
                    for cell in self.core.geometry.cells().iter() {
                        let env = EffectEnv::new(mover, victim, cell, None);
                        match x.test(self.core, &env) {
                            Ok(true) => {
                                table.set([mover.code(), victim.code(), cell.index(), 0, 0])
                            }
                            Ok(false) => {}
                            Err(err) => {
                                let core = self.core;
                                self.eval_error(site, err, || {
                                    format!(
                                        "{} is the target of {} on {}",
                                        core.code(victim),
                                        core.code(mover),
                                        core.geometry.name(cell)
                                    )
                                });
                                return None;
                            }
                        }
                    }
                }
            }
            Some(table)
        });
        let hostile = e.hostile.as_ref().and_then(|x| {
            let sizes = [codes, codes, cells, codes, 1];
            if sizes.iter().product::<usize>() > MAX_TABLE_BITS {
                self.error(
                    site,
                    "the game has too many kinds of piece for a `hostile` condition to be tabulated",
                );
                return None;
            }
            let mut table = table_for(sizes);
            for &mover in &pieces {
                for &victim in pieces.iter().filter(|p| p.owner() != mover.owner()) {
                    for cell in self.core.geometry.cells().iter() {
                        for occ in 0..codes {
                            let occupant = Piece::from_code(occ as u8);
                            let env = EffectEnv::new(mover, victim, cell, Some(occupant));
                            match x.test(self.core, &env) {
                                Ok(true) => table.set([
                                    mover.code(),
                                    victim.code(),
                                    cell.index(),
                                    occ,
                                    0,
                                ]),
                                Ok(false) => {}
                                Err(err) => {
                                    let core = self.core;
                                    self.eval_error(site, err, || {
                                        format!(
                                            "{} looks at {} holding {}",
                                            core.code(mover),
                                            core.geometry.name(cell),
                                            occupant.map_or("nothing".to_string(), |o| core
                                                .code(o)
                                                .to_string())
                                        )
                                    });
                                    return None;
                                }
                            }
                        }
                    }
                }
            }
            Some(table)
        });
        let look = match e.kind {
            crate::tables::EffectKind::Surround => {
                DirSet(e.dirs.iter().fold(0, |b, d| b | 1 << d.opposite() as u8))
            }
            _ => e.dirs,
        };
        CompiledEffect {
            kind: e.kind,
            dirs: e.dirs,
            look,
            required: e.required,
            run: e.run,
            target,
            hostile,
        }
    }
}

/// The bindings of an effect's conditions: the mover, the target, and a cell with its
/// occupant (which `occupied(cell)` and `piece_at(cell)` read too). Nothing else of the
/// position is known.
struct EffectEnv {
    bound: StaticEnv,
    cell: Cell,
    occupant: Option<Option<Piece>>,
}

impl EffectEnv {
    fn new(mover: Piece, target: Piece, cell: Cell, occupant: Option<Option<Piece>>) -> EffectEnv {
        EffectEnv {
            bound: StaticEnv {
                mover: Some(Value::Piece(mover, cell)),
                target: Some(Value::Piece(target, cell)),
                player: Some(mover.owner()),
                cell: occupant.map(|_| cell),
                occupant: occupant.map(|o| o.map_or(Value::NoPiece, |p| Value::Piece(p, cell))),
                ..StaticEnv::default()
            },
            cell,
            occupant,
        }
    }
}

impl Env for EffectEnv {
    fn var(&self, var: Var) -> Option<Value> {
        self.bound.var(var)
    }

    fn piece_at(&self, cell: Cell) -> Result<Option<Piece>, EvalError> {
        match self.occupant {
            Some(o) if cell == self.cell => Ok(o),
            _ => Err(EvalError::NoPosition),
        }
    }
}

/// Whether `e` reads the cell of the piece bound to `var`: anything but its kind, owner, tags
/// and attributes (a piece compared whole is compared with its cell).
fn reads_cell_of(e: &Expr, var: Var) -> bool {
    match e {
        Expr::Var(v) => *v == var,
        Expr::Attr(x, _)
        | Expr::Owner(x)
        | Expr::KindOf(x)
        | Expr::Is(x, _)
        | Expr::Has(x, _)
        | Expr::Placed(x)
            if **x == Expr::Var(var) =>
        {
            false
        }
        _ => {
            let mut reads = false;
            e.for_each_child(&mut |c| reads |= reads_cell_of(c, var));
            reads
        }
    }
}
