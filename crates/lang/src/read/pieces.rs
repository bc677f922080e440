//! `[pieces.*]`: the kinds of piece, read in two passes. The first takes what names and
//! checks need (letters, attributes, tags); the second, once every name of the pack is known,
//! reads the move patterns, whose conditions may name anything, and the promotions.
use super::directions::{DIRECTION_WORDS, directions};
use super::reader::Reader;
use crate::check::{BLOCK, CONSTANT, Checker, ENTER, PLACE, Ty, UNTIL, World};
use crate::diag::Diagnostic;
use crate::syntax;
use crate::tree::{Node, Table, Value};
use ply_kernel::expr::{Expr, Value as KValue, Var};
use ply_kernel::spec::{CaptureMode, KindSpec, MoveSpec, Pattern, Promotion, ThenPlace};
use ply_kernel::{Dir, DirSet, KindId, PLAYERS};

impl Reader<'_> {
    /// The first pass over `[pieces]`: each kind's name, letter, attribute values and tags
    /// (the tags of the pack, in order of first appearance, are returned with them).
    pub(super) fn kinds(
        &mut self,
        pieces_t: &Table,
        attributes: &[String],
    ) -> (Vec<KindSpec>, Vec<String>) {
        let mut kinds = Vec::new();
        let mut tags: Vec<String> = Vec::new();
        for (kname, e) in &pieces_t.entries {
            self.locs.kinds.push(e.key_loc);
            self.check_name(kname, e.key_loc, "a kind of piece");
            let Some(t) = self.table(&e.node, &format!("[pieces.{kname}]")) else {
                continue;
            };
            let attrs_ok = |k: &str| attributes.iter().any(|a| a == k);
            let mut allowed = vec![
                "letter",
                "moves",
                "tags",
                "doc",
                "promote",
                "supply",
                "royal",
                "resets_idle",
                "to_hand",
                "at_most",
                "never_in",
            ];
            allowed.extend(attributes.iter().map(String::as_str));
            let before = self.diags.len();
            t.check_keys(
                &format!("[pieces.{kname}]"),
                &allowed,
                &attrs_ok,
                &mut self.diags,
            );
            for d in &mut self.diags[before..] {
                let key = t.entries.iter().find(|(_, e)| Some(e.key_loc) == d.loc);
                if let Some((k, e)) = key
                    && matches!(e.node.value, Value::Int(_))
                {
                    d.help = Some(format!(
                        "to give pieces an attribute `{k}`, declare it: `attributes = [\"{k}\"]` in [game]"
                    ));
                }
            }
            let letter = match t.get("letter") {
                Some(n) => self.str(n, "a piece's letter").unwrap_or("?").to_string(),
                None => {
                    self.err(e.key_loc, format!("piece `{kname}` has no `letter`"));
                    "?".into()
                }
            };
            let mut values = Vec::new();
            for a in attributes {
                values.push(match t.get(a) {
                    Some(n) => self.int(n, &format!("attribute `{a}`")).unwrap_or(0),
                    None => 0,
                });
            }
            let mut own_tags = Vec::new();
            if let Some(n) = t.get("tags") {
                for (tag, loc) in self.string_items(n, "`tags`") {
                    if !tags.contains(&tag) {
                        self.check_name(&tag, loc, "a tag");
                    }
                    let i = match tags.iter().position(|x| *x == tag) {
                        Some(i) => i,
                        None => {
                            tags.push(tag);
                            tags.len() - 1
                        }
                    };
                    own_tags.push(i);
                }
            }
            let supply = match t.get("supply") {
                Some(n) => match self.int(n, "`supply`") {
                    Some(v) if (0..=u16::MAX as i64).contains(&v) => Some(v as u16),
                    Some(v) => {
                        self.err(
                            n.loc,
                            format!("`supply` is how many pieces each player has in hand: 0 to {}, not {v}", u16::MAX),
                        );
                        None
                    }
                    None => None,
                },
                None => None,
            };
            let at_most = match t.get("at_most") {
                Some(n) => match self.int(n, "`at_most`") {
                    Some(v) if (0..=u16::MAX as i64).contains(&v) => Some(v as u16),
                    Some(v) => {
                        self.err(
                            n.loc,
                            format!("`at_most` is how many pieces of the kind each player may have on the board: 0 to {}, not {v}", u16::MAX),
                        );
                        None
                    }
                    None => None,
                },
                None => None,
            };
            let royal = self.flag(t, "royal");
            let resets_idle = self.flag(t, "resets_idle");
            let mut kind = KindSpec::new(kname.clone(), letter);
            kind.attrs = values;
            kind.tags = own_tags;
            kind.supply = supply;
            kind.royal = royal;
            kind.resets_idle = resets_idle;
            kind.at_most = at_most;
            kinds.push(kind);
        }

        (kinds, tags)
    }

    /// The second pass over `[pieces]`, once every name is known: the move patterns and
    /// promotions of each kind.
    pub(super) fn moves(
        &mut self,
        pieces_t: &Table,
        kinds: &mut [KindSpec],
        checker: &mut Checker,
        world: &World,
        forward: &Option<[Dir; PLAYERS]>,
    ) {
        for (ki, (kname, e)) in pieces_t.entries.iter().enumerate() {
            let mut locs = Vec::new();
            let Value::Table(t) = &e.node.value else {
                self.locs.moves.push(locs);
                continue;
            };
            if let Some(moves) = t.get("moves") {
                match &moves.value {
                    Value::Array(items) => {
                        for item in items {
                            locs.push(item.loc);
                            if let Some(m) = self.pattern(item, checker, world, forward) {
                                if ki < kinds.len() {
                                    kinds[ki].moves.push(m);
                                }
                            }
                        }
                    }
                    other => self.err(
                        moves.loc,
                        format!(
                            "`moves` of `{kname}` must be an array of strings, not {}",
                            other.type_name()
                        ),
                    ),
                }
            }
            if let Some(n) = t.get("to_hand")
                && ki < kinds.len()
            {
                kinds[ki].to_hand = match &n.value {
                    Value::Bool(true) => KindId::new(ki),
                    Value::Bool(false) => None,
                    Value::Str(s) => match kinds.iter().position(|k| k.name == *s) {
                        Some(i) => KindId::new(i),
                        None => {
                            let names: Vec<String> = kinds.iter().map(|k| k.name.clone()).collect();
                            self.diags.push(
                                Diagnostic::error(
                                    Some(n.loc),
                                    format!("`to_hand` of `{kname}` names no kind: `{s}`"),
                                )
                                .suggest(s, names.iter().map(String::as_str))
                                .help_if_none("`to_hand = true` sends a captured piece to the captor's hand as it is; `to_hand = \"KIND\"` as another kind".into()),
                            );
                            None
                        }
                    },
                    other => {
                        self.err(
                            n.loc,
                            format!(
                                "`to_hand` is true, false or the name of a kind, not {}",
                                other.type_name()
                            ),
                        );
                        None
                    }
                };
            }
            if let Some(p) = t.get("promote")
                && ki < kinds.len()
            {
                kinds[ki].promotion = self.promotion(kname, p, kinds, world);
            }
            if let Some(n) = t.get("never_in")
                && ki < kinds.len()
                && let Some(name) = self.str(n, "`never_in` (a zone)")
            {
                match world.zones.iter().position(|z| z.0 == name) {
                    Some(zone) => kinds[ki].never_in = Some(zone),
                    None => self.diags.push(
                        Diagnostic::error(Some(n.loc), format!("unknown zone `{name}`"))
                            .suggest(name, world.zones.iter().map(|z| z.0.as_str())),
                    ),
                }
            }
            self.locs.moves.push(locs);
        }
        self.check_at_most(pieces_t, kinds);
    }

    /// A kind with `at_most` that play can add pieces of (by promotion or placement) could
    /// exceed it: refused where `at_most` is written.
    fn check_at_most(&mut self, pieces_t: &Table, kinds: &[KindSpec]) {
        for (ki, (kname, e)) in pieces_t.entries.iter().enumerate() {
            let (Value::Table(t), Some(kind)) = (&e.node.value, kinds.get(ki)) else {
                continue;
            };
            let (Some(n), Some(most)) = (t.get("at_most"), kind.at_most) else {
                continue;
            };
            let id = KindId::new(ki);
            let promoted_from = kinds.iter().find(|k| {
                k.promotion
                    .as_ref()
                    .is_some_and(|p| Some(p.to) == id || p.choices.iter().any(|c| Some(*c) == id))
            });
            let placed = kind.moves.iter().any(|m| m.pattern == Pattern::Place)
                || kinds.iter().any(|k| {
                    k.moves
                        .iter()
                        .any(|m| m.then.as_ref().is_some_and(|t| Some(t.kind) == id))
                });
            let how = match (promoted_from, placed) {
                (Some(k), _) => format!("a {} promotes to it", k.name),
                (None, true) => "pieces of it are placed".to_string(),
                (None, false) => continue,
            };
            self.err(
                n.loc,
                format!(
                    "`at_most = {most}` on `{kname}`, but {how}: play could give a player more"
                ),
            );
        }
    }
}

impl Reader<'_> {
    /// `promote = { to = "King", zone = "crown", ends_move = true }`, with `optional`,
    /// `on_leaving` and `forced = "ZONE"` for a promotion the player may decline.
    pub(super) fn promotion(
        &mut self,
        kind: &str,
        node: &Node,
        kinds: &[KindSpec],
        world: &World,
    ) -> Option<Promotion> {
        let t = self.table(node, &format!("`promote` of `{kind}`"))?;
        t.check_keys(
            "`promote`",
            &[
                "to",
                "zone",
                "ends_move",
                "optional",
                "on_leaving",
                "forced",
            ],
            &|_| false,
            &mut self.diags,
        );
        let (Some(to_n), Some(zone_n)) = (t.get("to"), t.get("zone")) else {
            self.err(
                node.loc,
                "`promote` needs `to` (a kind) and `zone` (where it happens)",
            );
            return None;
        };
        // `to` is one kind, or a list of kinds the player chooses from (one move each).
        let names: Vec<(String, crate::diag::Loc)> = match &to_n.value {
            Value::Array(_) => self.string_items(to_n, "`to`"),
            _ => vec![(self.str(to_n, "`to`")?.to_string(), to_n.loc)],
        };
        if names.is_empty() {
            self.err(to_n.loc, "`to` names at least one kind");
            return None;
        }
        let mut choices = Vec::new();
        for (to_name, loc) in &names {
            let Some(to) = kinds.iter().position(|k| k.name == *to_name) else {
                self.diags.push(
                    Diagnostic::error(Some(*loc), format!("`{to_name}` is not a kind of piece"))
                        .suggest(to_name, kinds.iter().map(|k| k.name.as_str())),
                );
                return None;
            };
            choices.push(KindId::new(to)?);
        }
        let to = choices[0].index();
        if choices.len() == 1 {
            choices.clear();
        }
        let zone_name = self.str(zone_n, "`zone`")?;
        let Some(zone) = world.zones.iter().position(|z| z.0 == zone_name) else {
            self.diags.push(
                Diagnostic::error(Some(zone_n.loc), format!("unknown zone `{zone_name}`"))
                    .suggest(zone_name, world.zones.iter().map(|z| z.0.as_str())),
            );
            return None;
        };
        let mut flag = |key: &str, default: bool| match t.get(key) {
            Some(Node {
                value: Value::Bool(b),
                ..
            }) => *b,
            Some(n) => {
                self.err(n.loc, format!("`{key}` is true or false"));
                default
            }
            None => default,
        };
        let ends_chain = flag("ends_move", true);
        let optional = flag("optional", false);
        let on_leaving = flag("on_leaving", false);
        let forced = match t.get("forced") {
            None => None,
            Some(n) => {
                let name = self.str(n, "`forced`")?;
                let Some(z) = world.zones.iter().position(|z| z.0 == name) else {
                    self.diags.push(
                        Diagnostic::error(Some(n.loc), format!("unknown zone `{name}`"))
                            .suggest(name, world.zones.iter().map(|z| z.0.as_str())),
                    );
                    return None;
                };
                if !optional {
                    self.err(
                        n.loc,
                        "`forced` says where an optional promotion must be taken: it needs \
                         `optional = true`",
                    );
                }
                Some(z)
            }
        };
        let mut promotion = Promotion::new(KindId::new(to)?, zone);
        promotion.choices = choices;
        promotion.ends_chain = ends_chain;
        promotion.optional = optional;
        promotion.on_leaving = on_leaving;
        promotion.forced = forced;
        Some(promotion)
    }

    pub(super) fn pattern(
        &mut self,
        node: &Node,
        checker: &mut Checker,
        world: &World,
        forward: &Option<[Dir; PLAYERS]>,
    ) -> Option<MoveSpec> {
        let s = self.str(node, "a move pattern")?;
        let text = self.text_of(node);
        let ast = match syntax::parse_pattern(s) {
            Ok(a) => a,
            Err(e) => {
                let message = if e.message == syntax::too_deep_message() {
                    e.message.clone()
                } else {
                    format!("syntax error in move pattern: {}", e.message)
                };
                let mut d = Diagnostic::error(Some(text.loc(e.span)), message)
                    .label(e.label.clone().unwrap_or(e.message));
                match (e.help, e.label) {
                    (Some(h), _) => d = d.help(h),
                    (None, None) => d = d.help(crate::patterns::pattern_help()),
                    (None, Some(_)) => {}
                }
                self.diags.push(d);
                return None;
            }
        };
        let mut dirs = [DirSet::default(); PLAYERS];
        let mut ok = true;
        for d in &ast.dirs {
            match directions(&d.text, forward) {
                Ok(sets) => {
                    for p in 0..PLAYERS {
                        dirs[p] = DirSet(dirs[p].0 | sets[p].0);
                    }
                }
                Err(msg) => {
                    ok = false;
                    let mut diag = Diagnostic::error(Some(text.loc(d.span)), msg);
                    if DIRECTION_WORDS.contains(&d.text.as_str()) {
                        diag = diag.label("relative direction").help("add `forward = { A = \"up\", B = \"down\" }` (with your players' names) to [game]");
                    } else {
                        diag = diag
                            .label("not a direction")
                            .suggest(&d.text, DIRECTION_WORDS.iter().copied())
                            .help_if_none(format!("directions: {}", DIRECTION_WORDS.join(", ")));
                    }
                    self.diags.push(diag);
                }
            }
        }
        let mode = match ast.mode.as_ref().map(|m| m.text.as_str()) {
            Some("quiet") => CaptureMode::Quiet,
            Some("capturing") => CaptureMode::Capturing,
            _ => CaptureMode::Any,
        };
        let place = matches!(ast.kind, syntax::PatternKind::Place);
        let scope = if place { &PLACE } else { &ENTER };
        let condition = match &ast.condition {
            Some(c) => Some(checker.check(c, text, scope, Ty::Bool).or_else(|| {
                ok = false;
                None
            })?),
            None => None,
        };
        let then = match &ast.then {
            Some(t) => {
                let Some(k) = world.kinds.iter().position(|k| *k == t.kind.text) else {
                    self.diags.push(
                        Diagnostic::error(
                            Some(text.loc(t.kind.span)),
                            format!("`{}` is not a kind of piece", t.kind.text),
                        )
                        .label("not a kind")
                        .suggest(&t.kind.text, world.kinds.iter().map(String::as_str)),
                    );
                    return None;
                };
                let mut tdirs = [DirSet::default(); PLAYERS];
                for d in &t.dirs {
                    match directions(&d.text, forward) {
                        Ok(sets) => {
                            for p in 0..PLAYERS {
                                tdirs[p] = DirSet(tdirs[p].0 | sets[p].0);
                            }
                        }
                        Err(msg) => {
                            self.diags.push(
                                Diagnostic::error(Some(text.loc(d.span)), msg)
                                    .label("not a direction")
                                    .suggest(&d.text, DIRECTION_WORDS.iter().copied()),
                            );
                            return None;
                        }
                    }
                }
                Some(ThenPlace::new(KindId::new(k)?, tdirs))
            }
            None => None,
        };
        let pattern = match &ast.kind {
            syntax::PatternKind::Step => Pattern::Step,
            syntax::PatternKind::Place => Pattern::Place,
            syntax::PatternKind::Fly => {
                // No direction: one pass over the board, made from the first direction.
                dirs = [DirSet(1); PLAYERS];
                Pattern::Fly
            }
            syntax::PatternKind::Slide {
                upto,
                screen,
                over_own,
                until,
            } => {
                let max = match upto {
                    Some((n, span)) if !(1..=u8::MAX as i64).contains(n) => {
                        let (message, help) = if *n < 1 {
                            (
                                format!("a slide goes at least one cell: `upto {n}` cannot be"),
                                "write `upto 1` or more, or leave `upto` out for any distance"
                                    .to_string(),
                            )
                        } else {
                            (
                                format!(
                                    "a slide's `upto` is at most {}, the limit: `upto {n}` cannot be",
                                    u8::MAX
                                ),
                                format!(
                                    "write `upto {}` or less, or leave `upto` out for any distance",
                                    u8::MAX
                                ),
                            )
                        };
                        self.diags.push(
                            Diagnostic::error(Some(text.loc(*span)), message)
                                .label("not a number of cells")
                                .help(help),
                        );
                        return None;
                    }
                    Some((n, _)) => Some(*n as u8),
                    None => None,
                };
                let stop = match until {
                    Some(u) => Some(checker.check(u, text, &UNTIL, Ty::Bool)?),
                    None => None,
                };
                Pattern::Slide {
                    max,
                    screen: *screen,
                    over_own: *over_own,
                    stop,
                }
            }
            syntax::PatternKind::Leap { offset, unless } => {
                let (a, b, span) = *offset;
                let (rows, cols) = (self.board_size.0 as i64, self.board_size.1 as i64);
                let fits = |x: i64, y: i64| x < rows && y < cols || y < rows && x < cols;
                if a < 0 || b < 0 || (a == 0 && b == 0) || !fits(a, b) {
                    self.diags.push(
                        Diagnostic::error(
                            Some(text.loc(span)),
                            format!("a leap by ({a}, {b}) can never land on this {rows}x{cols} board"),
                        )
                        .label("impossible offset")
                        .help("the offset is in cells, rows then columns, not both zero, and smaller than the board; its mirror images are added"),
                    );
                    return None;
                }
                let blocked = match unless {
                    Some(u) => Some(checker.check(u, text, &BLOCK, Ty::Bool)?),
                    None => None,
                };
                // Without directions, every image of the offset; with them, the images
                // heading that way (`leap (2, 1) forward`).
                dirs = if ast.dirs.is_empty() {
                    [DirSet(0xff); PLAYERS]
                } else {
                    dirs.map(|d| ply_kernel::leap_images_towards(a as u8, b as u8, d))
                };
                if dirs.iter().any(|d| d.0 == 0) {
                    let named = ast.dirs.iter().map(|d| d.text.as_str()).collect::<Vec<_>>();
                    self.diags.push(
                        Diagnostic::error(
                            Some(text.loc(span)),
                            format!("a leap by ({a}, {b}) never heads {}", named.join(", ")),
                        )
                        .label("no image of the offset goes that way")
                        .help("a leap heads along the longer side of its offset (diagonally when both sides are equal): `leap (2, 1) forward` leaps two cells forward and one to the side"),
                    );
                    return None;
                }
                Pattern::Leap {
                    offset: (a as u8, b as u8),
                    blocked,
                }
            }
            syntax::PatternKind::Jump { zone, unless } => {
                let Some(z) = world.zones.iter().position(|(n, _)| *n == zone.text) else {
                    self.diags.push(
                        Diagnostic::error(
                            Some(text.loc(zone.span)),
                            format!("unknown zone `{}`", zone.text),
                        )
                        .label("not a zone")
                        .suggest(
                            &zone.text,
                            world
                                .zones
                                .iter()
                                .map(|z| z.0.as_str())
                                .filter(|z| syntax::is_name(z)),
                        ),
                    );
                    return None;
                };
                let blocked = match unless {
                    Some(u) => Some(checker.check(u, text, &BLOCK, Ty::Bool)?),
                    None => None,
                };
                Pattern::Jump { zone: z, blocked }
            }
            syntax::PatternKind::Hop {
                far,
                over,
                chain,
                complete,
            } => {
                let over = match over {
                    Some(o) => match checker.check_over(o, text)? {
                        (Expr::Lit(KValue::Kind(k)), Ty::Kind) => {
                            Some(Expr::Is(Expr::Var(Var::Target).boxed(), k))
                        }
                        (e, Ty::Bool) => Some(e),
                        (_, t) => {
                            self.err(
                                text.loc(o.span),
                                format!("`over` takes a kind of piece or a condition, not {t:?}"),
                            );
                            return None;
                        }
                    },
                    None => None,
                };
                let chain = match chain {
                    None => false,
                    Some(None) => true,
                    Some(Some(c)) => {
                        let e = checker.check(c, text, &CONSTANT, Ty::Bool)?;
                        match fold(&e) {
                            Some(b) => b,
                            None => {
                                self.err(text.loc(c.span), "the condition of `chain` must be a constant: an option, or true or false");
                                return None;
                            }
                        }
                    }
                };
                Pattern::Hop {
                    over,
                    chain,
                    complete: *complete,
                    far: *far,
                }
            }
        };
        if !ok {
            return None;
        }
        let ghost = ast.ghost.as_ref().map(|g| g.text.as_str());
        let mut spec = MoveSpec::new(s, pattern, dirs);
        spec.mode = mode;
        spec.condition = condition;
        spec.then = then;
        spec.leaves_ghost = ghost == Some("leaves");
        spec.takes_ghost = ghost == Some("takes");
        Some(spec)
    }
}

/// Folds a constant boolean expression (options are already literals).
fn fold(e: &Expr) -> Option<bool> {
    use ply_kernel::expr::BinOp;
    match e {
        Expr::Lit(KValue::Bool(b)) => Some(*b),
        Expr::Not(x) => fold(x).map(|b| !b),
        Expr::Bin(BinOp::And, a, b) => Some(fold(a)? && fold(b)?),
        Expr::Bin(BinOp::Or, a, b) => Some(fold(a)? || fold(b)?),
        Expr::Bin(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => {
            let (Expr::Lit(x), Expr::Lit(y)) = (a.as_ref(), b.as_ref()) else {
                return None;
            };
            match (x, y, op) {
                (_, _, BinOp::Eq) => Some(x == y),
                (_, _, BinOp::Ne) => Some(x != y),
                (KValue::Int(x), KValue::Int(y), BinOp::Lt) => Some(x < y),
                (KValue::Int(x), KValue::Int(y), BinOp::Le) => Some(x <= y),
                (KValue::Int(x), KValue::Int(y), BinOp::Gt) => Some(x > y),
                (KValue::Int(x), KValue::Int(y), BinOp::Ge) => Some(x >= y),
                _ => None,
            }
        }
        Expr::If(c, a, b) => {
            if fold(c)? {
                fold(a)
            } else {
                fold(b)
            }
        }
        _ => None,
    }
}
