//! `[eval]`: how good a position looks, for the engines (`ply play --vs alphabeta`,
//! `ply analyse`, `ply match`). Optional; a pack without it is judged by piece count.
//!
//! ```toml
//! [eval]
//! material = 'piece.rank * 100'        # or a table: { Elephant = 800, Rat = 300 }
//! bonus = '10 * (8 - abs(cell.row - 8))' # for a piece on a cell
//! mobility = 2                           # per legal move more than the opponent has
//! null_move = true                       # no zugzwang: engines may prune by passing
//! ```
//!
//! `material` and `bonus` are expressions over `piece` (a piece of either player, standing on
//! `cell`), `cell`, `player` (the piece's owner) and `opponent`, in hundredths of a piece; they
//! are evaluated for every piece on every cell when the pack is loaded, into the table the
//! engines read. They may not read the position (`piece_at`, `occupied`, `count`): a piece's
//! worth is its own, the search does the rest.
//!
//! `null_move = true` tells the engines that moving is never worse than passing in this game,
//! so that alpha-beta may prune by a null move (the side to move passes, and if the opponent
//! cannot then even the score, the node is cut). A game of zugzwang, where having to move can
//! lose (king and pawn endings, Connect Four's last columns), leaves it out (false).

use super::reader::Reader;
use crate::check::{Checker, Scope, Ty};
use crate::diag::{Diagnostic, Loc};
use crate::tree::{Table, Value as TomlValue};
use ply_kernel::expr::{Env, Expr, Value, Var};
use ply_kernel::spec::KindSpec;
use ply_kernel::{Cell, MAX_CELLS, PIECE_CODES, Piece, Rules};

/// Where an evaluation expression is written.
pub(crate) const EVAL: Scope = Scope {
    what: "an evaluation",
    vars: &[
        ("piece", Var::Mover, Ty::Piece),
        ("cell", Var::To, Ty::Cell),
        ("player", Var::Player, Ty::Player),
        ("opponent", Var::Opponent, Ty::Player),
    ],
    moves: false,
    placed: false,
};

/// The most a piece may be worth on a cell, in hundredths of a piece.
pub const MAX_VALUE: i64 = 100_000;

/// The compile-time evaluation budget: the most expression parts `[eval]` may evaluate when
/// the pack is loaded (its expressions' parts, times pieces, times cells). Past it the pack is
/// refused before anything is evaluated.
pub const MAX_EVAL_STEPS: usize = 20_000_000;

/// What `[eval]` declares, checked but not yet evaluated.
#[derive(Clone, Debug, Default)]
pub(crate) struct EvalSpec {
    /// `material` as an expression, and where it is written.
    material: Option<(Expr, Loc)>,
    /// `material` as a table: a value per kind (others 100).
    values: Vec<(usize, i64)>,
    /// `bonus`, and where it is written.
    bonus: Option<(Expr, Loc)>,
    /// `mobility`.
    mobility: i64,
    /// `null_move`.
    null_move: bool,
    /// The section's text, key by key, for `ply show`.
    text: Vec<(String, String)>,
}

/// A pack's evaluation, evaluated for every piece on every cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The material value of each piece code (indexed by [`Piece::code`]).
    pub material: Vec<i64>,
    /// What a piece is worth on a cell, material included: `[code * MAX_CELLS + cell]`.
    pub value: Vec<i64>,
    /// Hundredths of a piece per legal move more than the opponent has.
    pub mobility: i64,
    /// Whether the engines may prune by null moves: moving is never worse than passing.
    pub null_move: bool,
    /// The declarations as written (`material`, `bonus`, `mobility`, `null_move`), for
    /// display.
    pub text: Vec<(String, String)>,
}

impl Evaluation {
    /// What `piece` is worth to its owner on `cell`.
    pub fn value(&self, piece: Piece, cell: Cell) -> i64 {
        self.value[piece.code() * MAX_CELLS + cell.index()]
    }
}

struct PieceOnCell {
    piece: Piece,
    cell: Cell,
}

impl Env for PieceOnCell {
    fn var(&self, var: Var) -> Option<Value> {
        match var {
            Var::Mover => Some(Value::Piece(self.piece, self.cell)),
            Var::To => Some(Value::Cell(self.cell)),
            Var::Player => Some(Value::Player(self.piece.owner())),
            Var::Opponent => Some(Value::Player(self.piece.owner().other())),
            _ => None,
        }
    }
}

impl EvalSpec {
    /// Evaluates the declarations for every piece on every cell of `rules`' board; the first
    /// failure is an error at the expression that failed, naming the case.
    pub(crate) fn evaluate(&self, rules: &Rules) -> Result<Evaluation, Diagnostic> {
        let core = rules.core();
        let g = rules.geometry();
        let mut material = vec![0i64; PIECE_CODES];
        let mut value = vec![0i64; PIECE_CODES * MAX_CELLS];
        let fail = |loc: Loc, piece: Piece, cell: Cell, message: String| {
            Diagnostic::error(
                Some(loc),
                format!(
                    "{message}, for {} {} on {}",
                    core.player_name(piece.owner()),
                    core.kind_name(piece.kind()),
                    g.name(cell)
                ),
            )
            .label("in this evaluation")
            .help(
                "an evaluation reads the piece, its cell and its owner (`piece`, `cell`, \
                 `player`, `opponent`), not the rest of the position",
            )
        };
        let int = |e: &Expr, loc: Loc, piece: Piece, cell: Cell| -> Result<i64, Diagnostic> {
            match e.eval(core, &PieceOnCell { piece, cell }) {
                Ok(Value::Int(n)) if n.abs() <= MAX_VALUE => Ok(n),
                Ok(Value::Int(n)) => Err(fail(
                    loc,
                    piece,
                    cell,
                    format!("the value {n} is out of range (at most {MAX_VALUE} either way)"),
                )),
                Ok(other) => Err(fail(
                    loc,
                    piece,
                    cell,
                    format!("expected a number, found {other:?}"),
                )),
                Err(e) => Err(fail(loc, piece, cell, e.to_string())),
            }
        };
        let cases = core.all_pieces().count() * g.cells().iter().count();
        for (e, loc) in [&self.material, &self.bonus].into_iter().flatten() {
            let parts = crate::check::expr_size(e, MAX_EVAL_STEPS + 1);
            let steps = parts.saturating_mul(cases);
            if steps > MAX_EVAL_STEPS {
                return Err(Diagnostic::error(
                    Some(*loc),
                    format!(
                        "evaluating this for every piece on every cell takes {steps} steps ({parts} parts, {cases} cases); the compile-time evaluation budget is {MAX_EVAL_STEPS} steps"
                    ),
                )
                .label("too costly to tabulate")
                .help("write the evaluation with fewer parts (a definition is copied at each use)"));
            }
        }
        for piece in core.all_pieces() {
            let kind = piece.kind().index();
            let base = self
                .values
                .iter()
                .find(|(k, _)| *k == kind)
                .map_or(100, |(_, v)| *v);
            // Material is the piece's value wherever it stands: taken on its first cell.
            let mut first = true;
            for cell in g.cells().iter() {
                let m = match &self.material {
                    Some((e, loc)) => int(e, *loc, piece, cell)?,
                    None => base,
                };
                let b = match &self.bonus {
                    Some((e, loc)) => int(e, *loc, piece, cell)?,
                    None => 0,
                };
                if first {
                    material[piece.code()] = m;
                    first = false;
                }
                value[piece.code() * MAX_CELLS + cell.index()] =
                    (m + b).clamp(-MAX_VALUE, MAX_VALUE);
            }
        }
        Ok(Evaluation {
            material,
            value,
            mobility: self.mobility,
            null_move: self.null_move,
            text: self.text.clone(),
        })
    }
}

impl Reader<'_> {
    /// Reads `[eval]`; `None` when the section is absent or empty.
    pub(super) fn eval_section(
        &mut self,
        t: &Table,
        kinds: &[KindSpec],
        checker: &mut Checker,
    ) -> Option<EvalSpec> {
        if t.entries.is_empty() {
            return None;
        }
        t.check_keys(
            "[eval]",
            &["material", "bonus", "mobility", "null_move", "doc"],
            &|_| false,
            &mut self.diags,
        );
        let mut spec = EvalSpec::default();
        if let Some(node) = t.get("material") {
            match &node.value {
                TomlValue::Table(values) => {
                    let mut shown = Vec::new();
                    for (name, e) in &values.entries {
                        let Some(kind) = kinds.iter().position(|k| &k.name == name) else {
                            self.err(e.key_loc, format!("`{name}` is not a kind of piece"));
                            continue;
                        };
                        let Some(v) = self.int(&e.node, &format!("the value of {name}")) else {
                            continue;
                        };
                        if v.abs() > MAX_VALUE {
                            self.err(
                                e.node.loc,
                                format!(
                                    "the value {v} is out of range (at most {MAX_VALUE} either way)"
                                ),
                            );
                            continue;
                        }
                        spec.values.push((kind, v));
                        shown.push(format!("{name} = {v}"));
                    }
                    spec.text
                        .push(("material".into(), format!("{{ {} }}", shown.join(", "))));
                }
                _ => {
                    if let Some((ast, text)) = self.parse_expr(node, "the material of [eval]") {
                        if let Some(e) = checker.check(&ast, text, &EVAL, Ty::Int) {
                            spec.material = Some((e, node.loc));
                        }
                    }
                    if let TomlValue::Str(s) = &node.value {
                        spec.text.push(("material".into(), format!("'{s}'")));
                    }
                }
            }
        }
        if let Some(node) = t.get("bonus") {
            if let Some((ast, text)) = self.parse_expr(node, "the bonus of [eval]")
                && let Some(e) = checker.check(&ast, text, &EVAL, Ty::Int)
            {
                spec.bonus = Some((e, node.loc));
            }
            if let TomlValue::Str(s) = &node.value {
                spec.text.push(("bonus".into(), format!("'{s}'")));
            }
        }
        if let Some(node) = t.get("mobility")
            && let Some(m) = self.int(node, "the mobility of [eval]")
        {
            if !(0..=MAX_VALUE).contains(&m) {
                self.err(
                    node.loc,
                    format!("mobility must be from 0 to {MAX_VALUE}, not {m}"),
                );
            } else {
                spec.mobility = m;
                spec.text.push(("mobility".into(), m.to_string()));
            }
        }
        if t.get("null_move").is_some() {
            spec.null_move = self.flag(t, "null_move");
            spec.text
                .push(("null_move".into(), spec.null_move.to_string()));
        }
        Some(spec)
    }
}
