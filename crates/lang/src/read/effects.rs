//! `[effects.*]`: what happens around a piece after it moves or is placed: custodial
//! capture, capture by surrounding, flipping.

use super::directions::{DIRECTION_WORDS, compass_set};
use super::reader::Reader;
use crate::check::{Checker, EFFECT_TARGET, HOSTILE, PREFER, REMOVE, Ty};
use crate::diag::Diagnostic;
use crate::tree::{Node, Table, Value};
use ply_kernel::spec::{EffectKind, EffectSpec, RemovalSpec};

const KINDS: [(&str, EffectKind); 5] = [
    ("custodial", EffectKind::Custodial),
    ("surround", EffectKind::Surround),
    ("flip", EffectKind::Flip),
    ("convert", EffectKind::Convert),
    ("groups", EffectKind::Groups),
];

impl Reader<'_> {
    /// Reads every effect, in order, and the removal of the mover's choice, if one is given.
    pub(super) fn effects(
        &mut self,
        effects: &Table,
        checker: &mut Checker,
    ) -> (Vec<EffectSpec>, Option<RemovalSpec>) {
        let mut out = Vec::new();
        let mut removal: Option<RemovalSpec> = None;
        for (name, e) in &effects.entries {
            self.check_name(name, e.key_loc, "an effect");
            let what = format!("[effects.{name}]");
            let Some(t) = self.table(&e.node, &what) else {
                continue;
            };
            t.check_keys(
                &what,
                &[
                    "custodial",
                    "surround",
                    "flip",
                    "convert",
                    "groups",
                    "run",
                    "target",
                    "hostile",
                    "required",
                    "remove",
                    "prefer",
                    "doc",
                ],
                &|_| false,
                &mut self.diags,
            );
            if let Some(when) = t.get("remove") {
                if let Some((k, _)) = KINDS.iter().find(|(k, _)| t.get(k).is_some()) {
                    self.diags.push(
                        Diagnostic::error(
                            Some(when.loc),
                            format!("{what} may do one thing: `remove` or `{k}`"),
                        )
                        .help("write each effect in its own [effects.NAME] table"),
                    );
                    continue;
                }
                for key in ["run", "target", "hostile", "required"] {
                    if let Some(n) = t.get(key) {
                        self.diags.push(
                            Diagnostic::error(
                                Some(n.loc),
                                format!("{what}: `{key}` means nothing to a removal"),
                            )
                            .help("`prefer = 'EXPR'` says which enemy pieces it removes first"),
                        );
                    }
                }
                let mut cond = |this: &mut Self, n: &Node, key: &str, scope| {
                    let (ast, text) = this.parse_expr(n, &format!("`{key}` of {what}"))?;
                    checker.check(&ast, text, scope, Ty::Bool)
                };
                let when_expr = cond(self, when, "remove", &REMOVE);
                let prefer = t.get("prefer").map(|n| cond(self, n, "prefer", &PREFER));
                if removal.is_some() {
                    self.diags.push(
                        Diagnostic::error(
                            Some(when.loc),
                            format!("{what}: a game has at most one removal of the mover's choice"),
                        )
                        .help("join the conditions with `or` in one `remove`"),
                    );
                    continue;
                }
                match (when_expr, prefer) {
                    (Some(w), None) => removal = Some(RemovalSpec::new(name.clone(), w)),
                    (Some(w), Some(Some(p))) => {
                        let mut r = RemovalSpec::new(name.clone(), w);
                        r.prefer = Some(p);
                        removal = Some(r);
                    }
                    // Reported where they are written.
                    _ => {}
                }
                continue;
            }
            if let Some(n) = t.get("prefer") {
                self.diags.push(
                    Diagnostic::error(Some(n.loc), format!("{what}: `prefer` is for `remove`"))
                        .help(
                            "`remove = 'COND'` makes the mover remove an enemy piece of its choice",
                        ),
                );
            }
            let given: Vec<(&str, EffectKind, &Node)> = KINDS
                .iter()
                .filter_map(|(k, kind)| t.get(k).map(|n| (*k, *kind, n)))
                .collect();
            let (word, kind, dirs_node) = match given.as_slice() {
                [one] => *one,
                [] => {
                    self.diags.push(
                        Diagnostic::error(Some(e.key_loc), format!("{what} says nothing it does"))
                            .help("give one of `custodial`, `surround`, `flip`, `convert` or `groups`, with directions: `custodial = \"orthogonal\"`, or `remove = 'COND'`"),
                    );
                    continue;
                }
                [_, second, ..] => {
                    self.diags.push(
                        Diagnostic::error(
                            Some(second.2.loc),
                            format!("{what} may do one thing: `custodial`, `surround`, `flip`, `convert` or `groups`"),
                        )
                        .help("write each effect in its own [effects.NAME] table"),
                    );
                    continue;
                }
            };
            let Some(text) = self.str(dirs_node, &format!("`{word}`")) else {
                continue;
            };
            let mut dirs = ply_kernel::DirSet::default();
            let mut ok = true;
            for w in text.split([',', '+', ' ']).filter(|w| !w.is_empty()) {
                match compass_set(w) {
                    Some(d) => dirs = ply_kernel::DirSet(dirs.0 | d.0),
                    None => {
                        ok = false;
                        self.diags.push(
                            Diagnostic::error(
                                Some(dirs_node.loc),
                                format!("`{w}` is not a compass direction"),
                            )
                            .suggest(w, DIRECTION_WORDS.iter().copied())
                            .help_if_none("effects look in compass directions: n, ne, ..., orthogonal, diagonal, all".into()),
                        );
                    }
                }
            }
            let mut cond = |this: &mut Self, key: &str, scope| {
                let n = t.get(key)?;
                let (ast, text) = this.parse_expr(n, &format!("`{key}` of {what}"))?;
                checker.check(&ast, text, scope, Ty::Bool)
            };
            if kind == EffectKind::Groups {
                for key in ["target", "hostile"] {
                    if let Some(n) = t.get(key) {
                        self.diags.push(
                            Diagnostic::error(
                                Some(n.loc),
                                format!("{what}: `groups` takes whole groups without a free cell; `{key}` means nothing to it"),
                            )
                            .help("leave it out"),
                        );
                        ok = false;
                    }
                }
            }
            let target = cond(self, "target", &EFFECT_TARGET);
            if kind == EffectKind::Convert
                && let Some(n) = t.get("hostile")
            {
                self.diags.push(
                    Diagnostic::error(
                        Some(n.loc),
                        format!("{what}: `convert` turns every enemy piece next to the mover; `hostile` means nothing to it"),
                    )
                    .help("leave `hostile` out, or use `flip` for runs closed by a hostile cell"),
                );
                ok = false;
            }
            let hostile = cond(self, "hostile", &HOSTILE);
            let run = match t.get("run") {
                None => (1, 1),
                Some(n) if kind != EffectKind::Custodial => {
                    self.diags.push(
                        Diagnostic::error(
                            Some(n.loc),
                            format!("{what}: `run` is for `custodial` captures"),
                        )
                        .help("`flip` already turns runs of any length"),
                    );
                    ok = false;
                    (1, 1)
                }
                Some(n) => match self.run(n) {
                    Some(r) => r,
                    None => {
                        ok = false;
                        (1, 1)
                    }
                },
            };
            let required = match t.get("required") {
                Some(Node {
                    value: Value::Bool(b),
                    ..
                }) => *b,
                Some(n) => {
                    self.err(n.loc, "`required` is true or false");
                    false
                }
                None => false,
            };
            if !ok {
                continue;
            }
            self.locs.effects.push(e.key_loc);
            let mut effect = EffectSpec::new(name.clone(), kind, dirs);
            effect.target = target;
            effect.hostile = hostile;
            effect.required = required;
            effect.run = run;
            out.push(effect);
        }
        (out, removal)
    }

    /// A custodial capture's `run`: `N`, or `"N..M"` (from 1 to the longest line a board may
    /// have).
    fn run(&mut self, n: &Node) -> Option<(u8, u8)> {
        let longest = ply_kernel::MAX_ROWS.max(ply_kernel::MAX_COLS) as i64;
        let (least, most) = match &n.value {
            Value::Int(i) => (*i, *i),
            Value::Str(s) => match s.split_once("..") {
                Some((a, b)) => (
                    a.trim().parse().unwrap_or(-1),
                    b.trim().parse().unwrap_or(-1),
                ),
                None => (-1, -1),
            },
            _ => (-1, -1),
        };
        if least < 1 || most < least || most > longest - 2 {
            self.diags.push(
                Diagnostic::error(
                    Some(n.loc),
                    format!(
                        "`run` is a number of pieces, `N` or `\"N..M\"`, from 1 to {}",
                        (longest - 2).max(1)
                    ),
                )
                .help("`run = 2` takes exactly two pieces in a line (Pente); `run = \"1..8\"` any line of up to eight"),
            );
            return None;
        }
        Some((least as u8, most as u8))
    }
}
