//! Reading a rule pack: files and `extends`, options, the TOML structure, and every expression,
//! into the kernel's [`RulesSpec`].
//!
//! The reader never stops at the first problem. Each part of the pack is read on its own and
//! every problem becomes a diagnostic; only when all parts are read, and none had an error, is
//! the spec handed to the kernel, whose own findings (a setup piece on a cell where it may not
//! stand, an expression that fails on some case) are mapped back to the line that caused them.

use crate::check::{
    BLOCK, CAPTURE, CONSTANT, Checker, Definition, END, ENTER, OptionValue, PLACE, Text, Ty,
    WINNER, World,
};
use crate::diag::{Diagnostic, LoadError, Loc, Severity, Sources};
use crate::syntax;
use crate::tree::{self, Node, Table, Value};
use ply_kernel::expr::{Expr, Value as KValue, Var};
use ply_kernel::spec::{
    CaptureMode, EndResult, EndSpec, KindSpec, MoveSpec, NamedRule, Pattern, PlayerSpec, Promotion,
    RulesSpec, Site, ZoneCells, ZoneSpec,
};
use ply_kernel::{Cell, CellSet, Dir, DirSet, Geometry, KindId, PLAYERS, Piece, Player, Rules};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A declared option, with the value in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// Name.
    pub name: String,
    /// The value in force (the default unless set by the caller).
    pub value: OptionValue,
    /// The default.
    pub default: OptionValue,
    /// What it does.
    pub doc: String,
}

/// A loaded pack: compiled rules, ready to play, and what the loader knows about it.
#[derive(Clone, Debug)]
pub struct Pack {
    /// The compiled rules.
    pub rules: Arc<Rules>,
    /// The options and their values.
    pub options: Vec<OptionInfo>,
    /// Problems that do not stop the pack from loading.
    pub warnings: Vec<Diagnostic>,
    /// The files read.
    pub sources: Sources,
    /// The pack with `extends` and options applied, as TOML.
    pub resolved: String,
}

impl Pack {
    /// Renders the warnings, rustc style.
    pub fn render_warnings(&self, color: bool) -> String {
        self.warnings
            .iter()
            .map(|w| w.render_with(&self.sources, color))
            .collect()
    }
}

/// Loads the pack at `path`, with option values given as `(name, value)` text pairs.
pub fn load(path: impl AsRef<Path>, set: &[(String, String)]) -> Result<Pack, LoadError> {
    let path = path.as_ref();
    let mut sources = Sources::default();
    let mut diags = Vec::new();
    let tree = read_tree(
        path,
        path.display().to_string(),
        None,
        &mut sources,
        &mut diags,
        &mut Vec::new(),
    );
    finish(tree, set, sources, diags)
}

/// Loads a pack from text. `name` is shown in messages; `extends` paths are relative to the
/// current directory.
pub fn load_str(name: &str, text: &str, set: &[(String, String)]) -> Result<Pack, LoadError> {
    let mut sources = Sources::default();
    let mut diags = Vec::new();
    let file = sources.add(name, text);
    let tree = tree::parse(file, text, &mut diags)
        .and_then(|t| extend(t, Path::new("."), &mut sources, &mut diags, &mut Vec::new()));
    finish(tree, set, sources, diags)
}

fn finish(
    tree: Option<Table>,
    set: &[(String, String)],
    sources: Sources,
    mut diags: Vec<Diagnostic>,
) -> Result<Pack, LoadError> {
    let Some(tree) = tree else {
        return Err(LoadError {
            sources,
            diagnostics: diags,
        });
    };
    let mut reader = Reader {
        sources: &sources,
        diags: Vec::new(),
        locs: Locs::default(),
    };
    let built = reader.read(&tree, set);
    diags.append(&mut reader.diags);
    let mut diags = crate::diag::collapse(diags, false);
    diags.sort_by_key(|d| (d.severity, d.loc.map(|l| (l.file, l.start))));
    let has_errors = diags.iter().any(|d| d.severity == Severity::Error);
    let (spec, options, mut warnings) = match built {
        Some(b) if !has_errors => b,
        _ => {
            diags.sort_by_key(|d| d.severity);
            return Err(LoadError {
                sources,
                diagnostics: diags,
            });
        }
    };
    match Rules::new(spec) {
        Ok(rules) => {
            for k in rules.kinds().collect::<Vec<_>>() {
                if !rules.kind_can_move(k) {
                    let name = rules.kind_name(k).to_string();
                    warnings.push(
                        Diagnostic::warning(
                            reader.locs.kinds.get(k.index()).copied(),
                            format!("piece `{name}` can never move"),
                        )
                        .help("no move pattern of it reaches any cell it may enter"),
                    );
                }
            }
            warnings.extend(diags);
            let resolved = resolved_toml(&tree, &options);
            Ok(Pack {
                rules: Arc::new(rules),
                options,
                warnings,
                sources,
                resolved,
            })
        }
        Err(errors) => {
            let found = errors
                .into_iter()
                .map(|e| {
                    let d = Diagnostic::error(reader.locs.site(e.site), e.message).label("here");
                    match e.repeats {
                        0 => d,
                        n => d.help(crate::diag::more_like_it(n)),
                    }
                })
                .collect();
            // One per message first (the kernel reports a limit once per part of the pack
            // that goes over it), then one per place and cause.
            let found = crate::diag::collapse(crate::diag::collapse(found, true), false);
            diags.extend(found);
            diags.sort_by_key(|d| d.severity);
            Err(LoadError {
                sources,
                diagnostics: diags,
            })
        }
    }
}

fn read_tree(
    path: &Path,
    display: String,
    from: Option<Loc>,
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
    stack: &mut Vec<PathBuf>,
) -> Option<Table> {
    let canonical = match std::fs::canonicalize(path) {
        Ok(c) => c,
        Err(e) => {
            diags.push(
                Diagnostic::error(from, format!("cannot read pack `{display}`: {e}"))
                    .label("this file"),
            );
            return None;
        }
    };
    if stack.contains(&canonical) {
        let chain: Vec<String> = stack
            .iter()
            .chain([&canonical])
            .map(|p| {
                p.file_name()
                    .map_or(String::new(), |f| f.to_string_lossy().into_owned())
            })
            .collect();
        diags.push(
            Diagnostic::error(
                from,
                format!("`extends` makes a cycle: {}", chain.join(" -> ")),
            )
            .label("extended again here"),
        );
        return None;
    }
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            diags.push(Diagnostic::error(
                from,
                format!("cannot read pack `{display}`: {e}"),
            ));
            return None;
        }
    };
    let file = sources.add(display, text.clone());
    let table = tree::parse(file, &text, diags)?;
    stack.push(canonical);
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let out = extend(table, &dir, sources, diags, stack);
    stack.pop();
    out
}

fn extend(
    mut table: Table,
    dir: &Path,
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
    stack: &mut Vec<PathBuf>,
) -> Option<Table> {
    let Some(ext) = table.entries.shift_remove("extends") else {
        return Some(table);
    };
    let Value::Str(rel) = &ext.node.value else {
        diags.push(Diagnostic::error(
            Some(ext.node.loc),
            "`extends` must be a file name, as in `extends = \"base.toml\"`",
        ));
        return None;
    };
    let path = dir.join(rel);
    let display = path.display().to_string();
    let mut base = read_tree(&path, display, Some(ext.node.loc), sources, diags, stack)?;
    switch_off(&mut base, &mut table, diags);
    tree::merge(&mut base, table);
    Some(base)
}

/// The tables whose entries are rules, which `NAME = false` switches off, with their names
/// for messages.
const SWITCHABLE: [(&[&str], &str); 4] = [
    (&["rules", "enter"], "[rules.enter]"),
    (&["rules", "capture"], "[rules.capture]"),
    (&["rules", "place"], "[rules.place]"),
    (&["end"], "[end]"),
];

fn table_at<'t>(t: &'t mut Table, path: &[&str]) -> Option<&'t mut Table> {
    let mut t = t;
    for key in path {
        match &mut t.entries.get_mut(*key)?.node.value {
            Value::Table(inner) => t = inner,
            _ => return None,
        }
    }
    Some(t)
}

/// Applies the `NAME = false` of a variant: the inherited rule is removed from the base, and
/// a name the base does not have is an error (it would otherwise leave the rule meant on).
fn switch_off(base: &mut Table, over: &mut Table, diags: &mut Vec<Diagnostic>) {
    for (path, what) in SWITCHABLE {
        let Some(over_t) = table_at(over, path) else {
            continue;
        };
        let offs: Vec<String> = over_t
            .entries
            .iter()
            .filter(|(_, e)| matches!(e.node.value, Value::Bool(false)))
            .map(|(k, _)| k.clone())
            .collect();
        if offs.is_empty() {
            continue;
        }
        let mut base_t = table_at(base, path);
        for name in offs {
            let Some(entry) = over_t.entries.shift_remove(&name) else {
                continue;
            };
            let inherited = |t: &Table| -> Vec<String> {
                t.entries
                    .iter()
                    .filter(|(_, e)| !matches!(e.node.value, Value::Bool(false)))
                    .map(|(k, _)| k.clone())
                    .collect()
            };
            let names = base_t.as_deref().map(inherited).unwrap_or_default();
            if names.contains(&name) {
                if let Some(t) = base_t.as_deref_mut() {
                    t.entries.shift_remove(&name);
                }
                continue;
            }
            let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            diags.push(
                Diagnostic::error(
                    Some(entry.key_loc),
                    format!("there is no inherited rule `{name}` in {what} to switch off"),
                )
                .label("no such rule")
                .suggest(&name, names.iter().map(String::as_str))
                .help_if_none(if listed.is_empty() {
                    format!("the pack this one extends has no rules in {what}")
                } else {
                    format!("the inherited rules of {what} are {}", listed.join(", "))
                }),
            );
        }
    }
}

/// Where each part of the spec came from, to place the kernel's findings.
#[derive(Default)]
struct Locs {
    enter: Vec<Loc>,
    capture: Vec<Loc>,
    place: Vec<Loc>,
    end: Vec<Loc>,
    winner: Vec<Loc>,
    moves: Vec<Vec<Loc>>,
    setup: Vec<Loc>,
    kinds: Vec<Loc>,
    zones: Vec<Loc>,
    players: Option<Loc>,
}

impl Locs {
    fn site(&self, site: Site) -> Option<Loc> {
        match site {
            Site::Enter(i) => self.enter.get(i).copied(),
            Site::Capture(i) => self.capture.get(i).copied(),
            Site::Place(i) => self.place.get(i).copied(),
            Site::End(i) => self.end.get(i).copied(),
            Site::Winner(i) => self.winner.get(i).copied(),
            Site::Move(k, i) => self.moves.get(k).and_then(|m| m.get(i)).copied(),
            Site::Setup(i) => self.setup.get(i).copied(),
            Site::Kind(i) => self.kinds.get(i).copied(),
            Site::Zone(i) => self.zones.get(i).copied(),
            Site::Players | Site::Game => self.players,
        }
    }
}

struct Reader<'s> {
    sources: &'s Sources,
    diags: Vec<Diagnostic>,
    locs: Locs,
}

type Built = (RulesSpec, Vec<OptionInfo>, Vec<Diagnostic>);

const TOP_KEYS: &[&str] = &[
    "game", "board", "zones", "pieces", "define", "rules", "end", "options", "setup",
];

impl Reader<'_> {
    fn err(&mut self, loc: Loc, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(Some(loc), message));
    }

    /// A `NAME = false` still there once `extends` is applied switches off nothing: it is in
    /// a pack without `extends` (a variant's are applied, or reported, as it is merged).
    fn nothing_to_switch_off(&mut self, name: &str, loc: Loc, what: &str) {
        self.diags.push(
            Diagnostic::error(
                Some(loc),
                format!("there is no rule `{name}` in {what} to switch off"),
            )
            .label("no such rule")
            .help(format!(
                "`{name} = false` switches off a rule inherited with `extends`, and this pack extends no pack that has one; to write a rule, give an expression"
            )),
        );
    }

    fn table<'t>(&mut self, node: &'t Node, what: &str) -> Option<&'t Table> {
        match &node.value {
            Value::Table(t) => Some(t),
            other => {
                self.err(
                    node.loc,
                    format!("{what} must be a table, not {}", other.type_name()),
                );
                None
            }
        }
    }

    fn str<'t>(&mut self, node: &'t Node, what: &str) -> Option<&'t str> {
        match &node.value {
            Value::Str(s) => Some(s),
            other => {
                self.err(
                    node.loc,
                    format!("{what} must be a string, not {}", other.type_name()),
                );
                None
            }
        }
    }

    fn int(&mut self, node: &Node, what: &str) -> Option<i64> {
        match &node.value {
            Value::Int(i) => Some(*i),
            other => {
                self.err(
                    node.loc,
                    format!("{what} must be an integer, not {}", other.type_name()),
                );
                None
            }
        }
    }

    fn text_of(&self, node: &Node) -> Text {
        let base = self
            .sources
            .get(node.loc.file)
            .and_then(|f| tree::content_offset(&f.text, node));
        Text {
            whole: node.loc,
            base,
        }
    }

    fn parse_expr(&mut self, node: &Node, what: &str) -> Option<(syntax::Expr, Text)> {
        let s = self.str(node, what)?;
        let text = self.text_of(node);
        match syntax::parse_expr(s) {
            Ok(e) => Some((e, text)),
            Err(e) => {
                let message = if e.message == syntax::too_deep_message() {
                    e.message.clone()
                } else {
                    format!("syntax error in {what}: {}", e.message)
                };
                let mut d = Diagnostic::error(Some(text.loc(e.span)), message)
                    .label(e.label.unwrap_or(e.message));
                if let Some(h) = e.help {
                    d = d.help(h);
                }
                self.diags.push(d);
                None
            }
        }
    }

    fn read(&mut self, top: &Table, set: &[(String, String)]) -> Option<Built> {
        top.check_keys("the pack", TOP_KEYS, &|_| false, &mut self.diags);
        let empty = Table::default();
        let section = |this: &mut Self, key: &str| -> Table {
            match top.get(key) {
                Some(n) => this
                    .table(n, &format!("[{key}]"))
                    .cloned()
                    .unwrap_or_default(),
                None => Table::default(),
            }
        };
        let game = section(self, "game");
        let board = section(self, "board");
        let _ = &empty;

        // Options first: expressions everywhere may read them.
        let options_t = section(self, "options");
        let options = self.options(&options_t, set);

        // [game]
        game.check_keys(
            "[game]",
            &[
                "name",
                "doc",
                "players",
                "symbols",
                "forward",
                "attributes",
                "must_capture",
            ],
            &|_| false,
            &mut self.diags,
        );
        let name = match game.get("name") {
            Some(n) => self.str(n, "the game's name").unwrap_or("").to_string(),
            None => String::from("Untitled"),
        };
        let players = self.players(&game, top)?;
        let attributes: Vec<String> = match game.get("attributes") {
            Some(n) => {
                let items = self.string_items(n, "`attributes`");
                for (a, loc) in &items {
                    self.check_name(a, *loc, "an attribute");
                }
                items.into_iter().map(|(a, _)| a).collect()
            }
            None => Vec::new(),
        };
        let forward = self.forward(&game, &players);
        let must_capture = match game.get("must_capture") {
            Some(Node {
                value: Value::Bool(b),
                ..
            }) => *b,
            Some(n) => {
                self.err(n.loc, "`must_capture` is true or false");
                false
            }
            None => false,
        };

        // [board]
        board.check_keys(
            "[board]",
            &["rows", "cols", "holes"],
            &|_| false,
            &mut self.diags,
        );
        // Without a valid board, go on with the largest one so that the rest is still checked.
        let geometry = match self.geometry(&board, top) {
            Some(g) => g,
            None => Geometry::new(ply_kernel::MAX_ROWS, ply_kernel::MAX_COLS).ok()?,
        };

        // [zones]
        let zones_t = section(self, "zones");
        let mut zones = Vec::new();
        for (zname, e) in &zones_t.entries {
            self.locs.zones.push(e.key_loc);
            self.check_name(zname, e.key_loc, "a zone");
            if let Some(z) = self.zone(zname, &e.node, &players, &geometry) {
                zones.push(z);
            }
        }

        // [pieces]: first names, letters, attributes and tags; moves once the world is known.
        let pieces_t = section(self, "pieces");
        let mut kinds = Vec::new();
        let mut tags: Vec<String> = Vec::new();
        for (kname, e) in &pieces_t.entries {
            self.locs.kinds.push(e.key_loc);
            self.check_name(kname, e.key_loc, "a kind of piece");
            let Some(t) = self.table(&e.node, &format!("[pieces.{kname}]")) else {
                continue;
            };
            let attrs_ok = |k: &str| attributes.iter().any(|a| a == k);
            let mut allowed = vec!["letter", "moves", "tags", "doc", "promote"];
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
            for a in &attributes {
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
            kinds.push(KindSpec {
                name: kname.clone(),
                letter,
                attrs: values,
                tags: own_tags,
                moves: Vec::new(),
                promotion: None,
            });
        }

        // [define]
        let define_t = section(self, "define");
        let mut defs = Vec::new();
        for (head, e) in &define_t.entries {
            let key_loc = e.key_loc;
            // Names a person would recognise as wrong get their own words; pest's are for
            // the rest.
            let (name, params) = match head.split_once('(') {
                Some((n, rest)) => (n.trim(), rest.trim_end().strip_suffix(')').unwrap_or(rest)),
                None => (head.trim(), ""),
            };
            let bad = syntax::bad_name(name, "a definition").or_else(|| {
                params
                    .split(',')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .find_map(|p| syntax::bad_name(p, "a parameter"))
            });
            if let Some((message, help)) = bad {
                self.diags.push(
                    Diagnostic::error(Some(key_loc), message)
                        .label("not a usable name")
                        .help(help),
                );
                continue;
            }
            let parsed = match syntax::parse_definition(head) {
                Ok(h) => h,
                Err(err) => {
                    self.diags.push(
                        Diagnostic::error(
                            Some(key_loc),
                            format!("bad definition name `{head}`: {}", err.message),
                        )
                        .help("write `name = '...'` or `\"name(a, b)\" = '...'`"),
                    );
                    continue;
                }
            };
            let body = self.parse_expr(&e.node, &format!("definition `{}`", parsed.name.text));
            let text = body.as_ref().map_or(self.text_of(&e.node), |b| b.1);
            defs.push(Definition {
                name: parsed.name.text,
                params: parsed.params.into_iter().map(|p| p.text).collect(),
                body: body.map(|b| b.0),
                text,
            });
        }

        let world = World {
            players: players.iter().map(|p| p.name.clone()).collect(),
            kinds: kinds.iter().map(|k| k.name.clone()).collect(),
            zones: zones
                .iter()
                .map(|z: &ZoneSpec| (z.name.clone(), matches!(z.cells, ZoneCells::Owned(_))))
                .collect(),
            tags: tags.clone(),
            attributes: attributes.clone(),
            options: options.iter().map(|o| (o.name.clone(), o.value)).collect(),
            defs,
        };
        self.name_clashes(&world, top);
        let mut checker = Checker::new(&world);

        // Moves of each kind.
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
                            if let Some(m) = self.pattern(item, &mut checker, &world, &forward) {
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
            if let Some(p) = t.get("promote")
                && ki < kinds.len()
            {
                kinds[ki].promotion = self.promotion(kname, p, &kinds, &world);
            }
            self.locs.moves.push(locs);
        }

        // [rules]
        let rules_t = section(self, "rules");
        rules_t.check_keys(
            "[rules]",
            &["enter", "capture", "place"],
            &|_| false,
            &mut self.diags,
        );
        let rule_list = |this: &mut Self,
                         key: &str,
                         scope,
                         checker: &mut Checker,
                         locs: &mut Vec<Loc>|
         -> Vec<NamedRule> {
            let mut out = Vec::new();
            let Some(n) = rules_t.get(key) else {
                return out;
            };
            let Some(t) = this.table(n, &format!("[rules.{key}]")) else {
                return out;
            };
            for (rname, e) in &t.entries {
                if matches!(e.node.value, Value::Bool(false)) {
                    this.nothing_to_switch_off(rname, e.key_loc, &format!("[rules.{key}]"));
                    continue;
                }
                let Some((ast, text)) = this.parse_expr(&e.node, &format!("rule `{rname}`")) else {
                    continue;
                };
                if let Some(expr) = checker.check(&ast, text, scope, Ty::Bool) {
                    locs.push(e.node.loc);
                    out.push(NamedRule {
                        name: rname.clone(),
                        expr,
                    });
                }
            }
            out
        };
        let mut enter_locs = Vec::new();
        let mut capture_locs = Vec::new();
        let mut place_locs = Vec::new();
        let enter = rule_list(self, "enter", &ENTER, &mut checker, &mut enter_locs);
        let capture = rule_list(self, "capture", &CAPTURE, &mut checker, &mut capture_locs);
        let place = rule_list(self, "place", &PLACE, &mut checker, &mut place_locs);
        self.locs.enter = enter_locs;
        self.locs.capture = capture_locs;
        self.locs.place = place_locs;

        // [end]
        let end_t = section(self, "end");
        let mut end = Vec::new();
        for (ename, e) in &end_t.entries {
            if matches!(e.node.value, Value::Bool(false)) {
                self.nothing_to_switch_off(ename, e.key_loc, "[end]");
                continue;
            }
            let Some(t) = self.table(&e.node, &format!("[end.{ename}]")) else {
                continue;
            };
            t.check_keys(
                &format!("[end.{ename}]"),
                &["when", "winner", "draw", "doc"],
                &|_| false,
                &mut self.diags,
            );
            let Some(when_node) = t.get("when") else {
                self.err(e.key_loc, format!("end rule `{ename}` has no `when`"));
                continue;
            };
            let when = self
                .parse_expr(when_node, &format!("end rule `{ename}`"))
                .and_then(|(ast, text)| checker.check(&ast, text, &END, Ty::Bool));
            let result = match (t.get("winner"), t.get("draw")) {
                (Some(w), None) => self
                    .parse_expr(w, &format!("the winner of `{ename}`"))
                    .and_then(|(ast, text)| checker.check(&ast, text, &WINNER, Ty::Player))
                    .map(EndResult::Winner),
                (None, Some(d)) if matches!(d.value, Value::Bool(true)) => Some(EndResult::Draw),
                _ => {
                    self.err(
                        e.key_loc,
                        format!(
                            "end rule `{ename}` needs either `winner = '...'` or `draw = true`"
                        ),
                    );
                    None
                }
            };
            if let (Some(when), Some(result)) = (when, result) {
                self.locs.end.push(when_node.loc);
                self.locs
                    .winner
                    .push(t.get("winner").map_or(e.key_loc, |w| w.loc));
                end.push(EndSpec {
                    name: ename.clone(),
                    when,
                    result,
                });
            }
        }

        // [setup]
        let setup_t = section(self, "setup");
        let mut setup = Vec::new();
        for (pname, e) in &setup_t.entries {
            let Some(p) = players.iter().position(|x| x.name == *pname) else {
                self.diags.push(
                    Diagnostic::error(Some(e.key_loc), format!("`{pname}` is not a player"))
                        .suggest(pname, players.iter().map(|p| p.name.as_str())),
                );
                continue;
            };
            let Some(t) = self.table(&e.node, &format!("[setup.{pname}]")) else {
                continue;
            };
            for (kname, ke) in &t.entries {
                let Some(k) = kinds.iter().position(|k| k.name == *kname) else {
                    self.diags.push(
                        Diagnostic::error(
                            Some(ke.key_loc),
                            format!("`{kname}` is not a kind of piece"),
                        )
                        .label("unknown piece")
                        .suggest(kname, kinds.iter().map(|k| k.name.as_str())),
                    );
                    continue;
                };
                for (cell, loc) in self.cells(&ke.node, &geometry) {
                    if let (Some(k), Some(p)) = (KindId::new(k), Player::new(p)) {
                        setup.push((Piece::new(k, p), cell));
                    }
                    self.locs.setup.push(loc);
                }
            }
        }

        // Warnings for what nothing uses.
        let mut warnings = Vec::new();
        if top.get("setup").is_none() {
            warnings.push(
                Diagnostic::warning(
                    top.entries.get("game").map(|e| e.key_loc),
                    "this pack has no [setup]: the game starts on an empty board",
                )
                .help("add a `[setup.PLAYER]` table for each player, as in `[setup.A]` with `Stone = \"a1 b1\"`"),
            );
        }
        let used = checker.used.clone();
        let jump_zones: Vec<usize> = kinds
            .iter()
            .flat_map(|k| k.moves.iter())
            .filter_map(|m| match m.pattern {
                Pattern::Jump { zone, .. } => Some(zone),
                _ => None,
            })
            .chain(
                kinds
                    .iter()
                    .filter_map(|k| k.promotion.as_ref().map(|p| p.zone)),
            )
            .collect();
        for (i, z) in zones.iter().enumerate() {
            if !used.contains(&format!("zone:{}", z.name)) && !jump_zones.contains(&i) {
                warnings.push(
                    Diagnostic::warning(
                        self.locs.zones.get(i).copied(),
                        format!("zone `{}` is never used", z.name),
                    )
                    .help("no rule, move pattern or promotion mentions it"),
                );
            }
        }
        for o in &options {
            if !used.contains(&format!("option:{}", o.name)) {
                let loc = top.get("options").and_then(|n| {
                    if let Value::Table(t) = &n.value {
                        t.entries.get(&o.name).map(|e| e.key_loc)
                    } else {
                        None
                    }
                });
                warnings.push(Diagnostic::warning(
                    loc,
                    format!("option `{}` is never read", o.name),
                ));
            }
        }
        for d in &world.defs {
            if !checker.definition_used(&d.name) {
                let loc = define_t
                    .entries
                    .iter()
                    .find(|(h, _)| h.starts_with(d.name.as_str()))
                    .map(|(_, e)| e.key_loc);
                warnings.push(Diagnostic::warning(
                    loc,
                    format!("definition `{}` is never used", d.name),
                ));
            }
        }
        self.diags.append(&mut checker.diags);

        let spec = RulesSpec {
            name,
            geometry,
            players: [players[0].clone(), players[1].clone()],
            zones,
            attributes,
            tags,
            kinds,
            enter,
            capture,
            place,
            end,
            setup,
            must_capture,
        };
        Some((spec, options, warnings))
    }

    /// `promote = { to = "King", zone = "crown", ends_move = true }`.
    fn promotion(
        &mut self,
        kind: &str,
        node: &Node,
        kinds: &[KindSpec],
        world: &World,
    ) -> Option<Promotion> {
        let t = self.table(node, &format!("`promote` of `{kind}`"))?;
        t.check_keys(
            "`promote`",
            &["to", "zone", "ends_move"],
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
        let to_name = self.str(to_n, "`to`")?;
        let Some(to) = kinds.iter().position(|k| k.name == to_name) else {
            self.diags.push(
                Diagnostic::error(
                    Some(to_n.loc),
                    format!("`{to_name}` is not a kind of piece"),
                )
                .suggest(to_name, kinds.iter().map(|k| k.name.as_str())),
            );
            return None;
        };
        let zone_name = self.str(zone_n, "`zone`")?;
        let Some(zone) = world.zones.iter().position(|z| z.0 == zone_name) else {
            self.diags.push(
                Diagnostic::error(Some(zone_n.loc), format!("unknown zone `{zone_name}`"))
                    .suggest(zone_name, world.zones.iter().map(|z| z.0.as_str())),
            );
            return None;
        };
        let ends_chain = match t.get("ends_move") {
            Some(Node {
                value: Value::Bool(b),
                ..
            }) => *b,
            Some(n) => {
                self.err(n.loc, "`ends_move` is true or false");
                true
            }
            None => true,
        };
        Some(Promotion {
            to: KindId::new(to)?,
            zone,
            ends_chain,
        })
    }

    /// One name, one meaning: a player, kind, zone, tag, option or definition may not share
    /// its name with another, since expressions could not tell them apart.
    fn name_clashes(&mut self, world: &World, top: &Table) {
        let mut seen: Vec<(&str, &str)> = Vec::new();
        let groups: [(&str, Vec<&str>); 6] = [
            (
                "a player",
                world.players.iter().map(String::as_str).collect(),
            ),
            (
                "a kind of piece",
                world.kinds.iter().map(String::as_str).collect(),
            ),
            ("a zone", world.zones.iter().map(|z| z.0.as_str()).collect()),
            ("a tag", world.tags.iter().map(String::as_str).collect()),
            (
                "an option",
                world.options.iter().map(|o| o.0.as_str()).collect(),
            ),
            (
                "a definition",
                world.defs.iter().map(|d| d.name.as_str()).collect(),
            ),
        ];
        for (what, names) in &groups {
            for name in names {
                if let Some((_, earlier)) = seen.iter().find(|(n, _)| n == name) {
                    if *earlier == "a player" && *what == "a player" {
                        // Reported where the players are read.
                        continue;
                    }
                    let loc = ["pieces", "zones", "options", "define"]
                        .iter()
                        .find_map(|sec| {
                            top.get(sec).and_then(|n| match &n.value {
                                Value::Table(t) => t
                                    .entries
                                    .iter()
                                    .find(|(k, _)| k.starts_with(name))
                                    .map(|(_, e)| e.key_loc),
                                _ => None,
                            })
                        });
                    self.diags.push(
                        Diagnostic::error(
                            loc.or(self.locs.players),
                            format!("`{name}` is both {earlier} and {what}"),
                        )
                        .help("give them different names: expressions could not tell them apart"),
                    );
                } else {
                    seen.push((name, what));
                }
            }
        }
    }

    /// Reports `name` where it is declared if it cannot be used in expressions.
    fn check_name(&mut self, name: &str, loc: Loc, what: &str) {
        if let Some((message, help)) = syntax::bad_name(name, what) {
            self.diags.push(
                Diagnostic::error(Some(loc), message)
                    .label("not a usable name")
                    .help(help),
            );
        }
    }

    fn string_items(&mut self, node: &Node, what: &str) -> Vec<(String, Loc)> {
        match &node.value {
            Value::Array(items) => items
                .iter()
                .filter_map(|i| self.str(i, what).map(|s| (s.to_string(), i.loc)))
                .collect(),
            other => {
                self.err(
                    node.loc,
                    format!(
                        "{what} must be an array of strings, not {}",
                        other.type_name()
                    ),
                );
                Vec::new()
            }
        }
    }

    fn options(&mut self, t: &Table, set: &[(String, String)]) -> Vec<OptionInfo> {
        let mut out = Vec::new();
        for (name, e) in &t.entries {
            self.check_name(name, e.key_loc, "an option");
            let Some(o) = self.table(&e.node, &format!("[options.{name}]")) else {
                continue;
            };
            o.check_keys(
                &format!("[options.{name}]"),
                &["type", "default", "doc"],
                &|_| false,
                &mut self.diags,
            );
            let ty = o
                .get("type")
                .and_then(|n| self.str(n, "an option's type"))
                .unwrap_or("bool")
                .to_string();
            let default = match (ty.as_str(), o.get("default")) {
                (
                    "bool",
                    Some(Node {
                        value: Value::Bool(b),
                        ..
                    }),
                ) => OptionValue::Bool(*b),
                (
                    "int",
                    Some(Node {
                        value: Value::Int(i),
                        ..
                    }),
                ) => OptionValue::Int(*i),
                ("bool" | "int", Some(n)) => {
                    self.err(
                        n.loc,
                        format!(
                            "the default of option `{name}` must be {}",
                            if ty == "bool" {
                                "true or false"
                            } else {
                                "an integer"
                            }
                        ),
                    );
                    continue;
                }
                ("bool" | "int", None) => {
                    self.err(e.key_loc, format!("option `{name}` has no `default`"));
                    continue;
                }
                (other, _) => {
                    let loc = o.get("type").map_or(e.key_loc, |n| n.loc);
                    self.diags.push(
                        Diagnostic::error(Some(loc), format!("unknown option type `{other}`"))
                            .help("an option's type is \"bool\" or \"int\""),
                    );
                    continue;
                }
            };
            let doc = o
                .get("doc")
                .and_then(|n| self.str(n, "`doc`"))
                .unwrap_or("")
                .to_string();
            out.push(OptionInfo {
                name: name.clone(),
                value: default,
                default,
                doc,
            });
        }
        for (name, value) in set {
            let Some(o) = out.iter_mut().find(|o| o.name == *name) else {
                let names: Vec<&str> = t.entries.keys().map(String::as_str).collect();
                let d = Diagnostic::error(None, format!("unknown option `{name}`"))
                    .suggest(name, names.iter().copied())
                    .help_if_none(if names.is_empty() {
                        "this pack declares no options".into()
                    } else {
                        format!("the options are: {}", names.join(", "))
                    });
                self.diags.push(d);
                continue;
            };
            let parsed = match o.default {
                OptionValue::Bool(_) => value.parse().ok().map(OptionValue::Bool),
                OptionValue::Int(_) => value.parse().ok().map(OptionValue::Int),
            };
            match parsed {
                Some(v) => o.value = v,
                None => self.diags.push(Diagnostic::error(
                    None,
                    format!(
                        "option `{name}` is {}, so `{value}` is not a value for it",
                        if matches!(o.default, OptionValue::Bool(_)) {
                            "true or false"
                        } else {
                            "an integer"
                        }
                    ),
                )),
            }
        }
        out
    }

    fn players(&mut self, game: &Table, top: &Table) -> Option<Vec<PlayerSpec>> {
        let Some(node) = game.get("players") else {
            let loc = top.entries.get("game").map(|e| e.key_loc);
            self.diags.push(
                Diagnostic::error(loc, "the game has no `players`")
                    .help("write `players = [\"A\", \"B\"]` in [game]"),
            );
            return None;
        };
        self.locs.players = Some(node.loc);
        let items = self.string_items(node, "`players`");
        if items.len() != PLAYERS {
            self.err(
                node.loc,
                format!("a game has exactly {PLAYERS} players, not {}", items.len()),
            );
            return None;
        }
        for (p, loc) in &items {
            self.check_name(p, *loc, "a player");
        }
        if items[0].0 == items[1].0 {
            self.diags.push(
                Diagnostic::error(
                    Some(items[1].1),
                    format!("both players are named `{}`", items[0].0),
                )
                .label("the same name again")
                .help("give each player a name of its own: expressions and position strings tell them apart by name"),
            );
        }
        let names: Vec<String> = items.into_iter().map(|(p, _)| p).collect();
        let symbols = game
            .get("symbols")
            .and_then(|n| self.table(n, "`symbols`"))
            .cloned()
            .unwrap_or_default();
        symbols.check_keys(
            "`symbols`",
            &names.iter().map(String::as_str).collect::<Vec<_>>(),
            &|_| false,
            &mut self.diags,
        );
        let mut out = Vec::new();
        for n in names {
            let symbol = match symbols.get(&n) {
                Some(s) => self.str(s, "a symbol").unwrap_or("?").to_string(),
                None => n.chars().next().map(String::from).unwrap_or_default(),
            };
            out.push(PlayerSpec { name: n, symbol });
        }
        Some(out)
    }

    fn forward(&mut self, game: &Table, players: &[PlayerSpec]) -> Option<[Dir; PLAYERS]> {
        let node = game.get("forward")?;
        let t = self.table(node, "`forward`")?.clone();
        t.check_keys(
            "`forward`",
            &players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
            &|_| false,
            &mut self.diags,
        );
        let mut out = [Dir::N; PLAYERS];
        for (i, p) in players.iter().enumerate() {
            let Some(n) = t.get(&p.name) else {
                self.err(
                    node.loc,
                    format!("`forward` gives no direction for `{}`", p.name),
                );
                return None;
            };
            let s = self.str(n, "a direction")?;
            let screen = match s {
                "left" => Some(Dir::W),
                "right" => Some(Dir::E),
                _ => compass(s),
            };
            match screen {
                Some(d) => out[i] = d,
                None => {
                    self.diags.push(
                        Diagnostic::error(Some(n.loc), format!("`{s}` is not a direction")).help(
                            "use up, down, left, right, or a compass direction such as north or ne",
                        ),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    fn geometry(&mut self, board: &Table, top: &Table) -> Option<Geometry> {
        let loc = top.entries.get("board").map(|e| e.key_loc);
        let (Some(r), Some(c)) = (board.get("rows"), board.get("cols")) else {
            self.diags.push(
                Diagnostic::error(loc, "the board needs `rows` and `cols`")
                    .help("write `[board]` with `rows = 8` and `cols = 8`"),
            );
            return None;
        };
        let (rows, cols) = (self.int(r, "`rows`"), self.int(c, "`cols`"));
        for (v, n, max) in [
            (rows, r, ply_kernel::MAX_ROWS),
            (cols, c, ply_kernel::MAX_COLS),
        ] {
            if let Some(v) = v
                && (v < 1 || v > max as i64)
            {
                self.err(
                    n.loc,
                    format!("a board has 1 to {max} rows and columns, not {v}"),
                );
                return None;
            }
        }
        let g = match Geometry::new(rows?.max(0) as usize, cols?.max(0) as usize) {
            Ok(g) => g,
            Err(e) => {
                self.err(r.loc, e.to_string());
                return None;
            }
        };
        match board.get("holes") {
            Some(h) => {
                let holes: CellSet = self.cells(h, &g).into_iter().map(|(c, _)| c).collect();
                let mut on = *g.cells();
                for c in holes.iter() {
                    on.remove(c);
                }
                Some(g.restricted(on))
            }
            None => Some(g),
        }
    }

    fn zone(
        &mut self,
        name: &str,
        node: &Node,
        players: &[PlayerSpec],
        g: &Geometry,
    ) -> Option<ZoneSpec> {
        let t = self.table(node, &format!("[zones.{name}]"))?;
        let mut allowed = vec!["cells", "mark", "doc"];
        allowed.extend(players.iter().map(|p| p.name.as_str()));
        t.check_keys(
            &format!("[zones.{name}]"),
            &allowed,
            &|_| false,
            &mut self.diags,
        );
        let mark = match t.get("mark") {
            Some(n) => {
                let s = self.str(n, "a zone's mark")?;
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(c),
                    _ => {
                        self.err(n.loc, "a zone's mark is one character");
                        None
                    }
                }
            }
            None => None,
        };
        let owned: Vec<&PlayerSpec> = players
            .iter()
            .filter(|p| t.get(&p.name).is_some())
            .collect();
        let cells = match (t.get("cells"), owned.is_empty()) {
            (Some(n), true) => {
                ZoneCells::Shared(self.cells(n, g).into_iter().map(|(c, _)| c).collect())
            }
            (None, false) => {
                let mut parts = [CellSet::EMPTY; PLAYERS];
                for (i, p) in players.iter().enumerate() {
                    if let Some(n) = t.get(&p.name) {
                        parts[i] = self.cells(n, g).into_iter().map(|(c, _)| c).collect();
                    }
                }
                ZoneCells::Owned(parts)
            }
            (Some(n), false) => {
                self.err(
                    n.loc,
                    format!(
                        "zone `{name}` has both `cells` and cells per player; give one or the other"
                    ),
                );
                return None;
            }
            (None, true) => {
                self.err(
                    node.loc,
                    format!(
                        "zone `{name}` has no cells: give `cells = \"...\"` or cells per player"
                    ),
                );
                return None;
            }
        };
        Some(ZoneSpec {
            name: name.to_string(),
            cells,
            mark,
        })
    }

    /// Reads cells: a string of names and ranges (`"a1 b4:c6"`) or an array of `[row, col]`.
    fn cells(&mut self, node: &Node, g: &Geometry) -> Vec<(Cell, Loc)> {
        let mut out = Vec::new();
        match &node.value {
            Value::Str(s) => {
                let text = self.text_of(node);
                let mut offset = 0;
                for token in s.split(|c: char| c.is_whitespace() || c == ',') {
                    let start = offset;
                    offset += token.len() + 1;
                    if token.is_empty() {
                        continue;
                    }
                    let loc = text.loc(syntax::Span {
                        start,
                        end: start + token.len(),
                    });
                    let mut ends = token.splitn(2, ':');
                    let a = ends.next().unwrap_or("");
                    let b = ends.next();
                    // A range's corners may be cells that are not on the board (holes).
                    let corner = |name: &str| -> Option<(usize, usize)> {
                        let col = name.bytes().next()?.checked_sub(b'a')? as usize;
                        let rank: usize = name.get(1..)?.parse().ok()?;
                        (col < g.cols()
                            && (1..=g.rows()).contains(&rank)
                            && !name[1..].starts_with('0'))
                        .then(|| (g.rows() - rank, col))
                    };
                    match (g.parse_cell(a), b.map(|b| (corner(a), corner(b)))) {
                        (Some(c), None) => out.push((c, loc)),
                        (_, Some((Some((r1, k1)), Some((r2, k2))))) => {
                            for r in r1.min(r2)..=r1.max(r2) {
                                for k in k1.min(k2)..=k1.max(k2) {
                                    if let Some(c) = g.cell(r as i64, k as i64) {
                                        out.push((c, loc));
                                    }
                                }
                            }
                        }
                        _ => self.diags.push(
                            Diagnostic::error(Some(loc), format!("`{token}` is not a cell of this {}x{} board", g.rows(), g.cols()))
                                .label("not a cell")
                                .help(format!(
                                    "cells are written column letter then row number from the bottom: a1 .. {}{}; a range is `b4:c6`",
                                    (b'a' + g.cols() as u8 - 1) as char,
                                    g.rows()
                                )),
                        ),
                    }
                }
            }
            Value::Array(items) => {
                for item in items {
                    match &item.value {
                        Value::Array(rc) if rc.len() == 2 => match (&rc[0].value, &rc[1].value) {
                            (Value::Int(r), Value::Int(c)) => match g.cell(*r, *c) {
                                Some(cell) => out.push((cell, item.loc)),
                                None => self.err(
                                    item.loc,
                                    format!(
                                        "[{r}, {c}] is not on the {}x{} board",
                                        g.rows(),
                                        g.cols()
                                    ),
                                ),
                            },
                            _ => self.err(item.loc, "a cell is [row, col] with two integers"),
                        },
                        Value::Str(_) => out.extend(self.cells(item, g)),
                        _ => self.err(item.loc, "a cell is a name such as \"a1\" or [row, col]"),
                    }
                }
            }
            other => self.err(
                node.loc,
                format!(
                    "cells must be a string such as \"a1 b4:c6\" or an array, not {}",
                    other.type_name()
                ),
            ),
        }
        out
    }

    fn pattern(
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
                    (None, None) => d = d.help("a pattern is `step DIRS`, `jump DIRS across ZONE [unless ...]` or `hop DIRS [over ...] [chain]`"),
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
        let condition = match &ast.condition {
            Some(c) => Some(checker.check(c, text, &ENTER, Ty::Bool).or_else(|| {
                ok = false;
                None
            })?),
            None => None,
        };
        let pattern = match &ast.kind {
            syntax::PatternKind::Step => Pattern::Step,
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
                }
            }
        };
        if !ok {
            return None;
        }
        Some(MoveSpec {
            text: s.to_string(),
            pattern,
            dirs,
            mode,
            condition,
        })
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

const DIRECTION_WORDS: &[&str] = &[
    "orthogonal",
    "diagonal",
    "all",
    "forward",
    "backward",
    "left",
    "right",
    "sideways",
    "forward_left",
    "forward_right",
    "backward_left",
    "backward_right",
    "forward_diagonal",
    "backward_diagonal",
    "north",
    "south",
    "east",
    "west",
    "northeast",
    "northwest",
    "southeast",
    "southwest",
    "n",
    "s",
    "e",
    "w",
    "ne",
    "nw",
    "se",
    "sw",
    "up",
    "down",
];

fn compass(s: &str) -> Option<Dir> {
    Some(match s {
        "n" | "north" | "up" => Dir::N,
        "ne" | "northeast" => Dir::NE,
        "e" | "east" => Dir::E,
        "se" | "southeast" => Dir::SE,
        "s" | "south" | "down" => Dir::S,
        "sw" | "southwest" => Dir::SW,
        "w" | "west" => Dir::W,
        "nw" | "northwest" => Dir::NW,
        _ => return None,
    })
}

/// The absolute directions a direction word means, for each player.
fn directions(word: &str, forward: &Option<[Dir; PLAYERS]>) -> Result<[DirSet; PLAYERS], String> {
    let set = |dirs: &[Dir]| dirs.iter().fold(DirSet::default(), |s, d| s.with(*d));
    let abs = |dirs: &[Dir]| Ok([set(dirs), set(dirs)]);
    match word {
        "orthogonal" => return abs(&[Dir::N, Dir::E, Dir::S, Dir::W]),
        "diagonal" => return abs(&[Dir::NE, Dir::SE, Dir::SW, Dir::NW]),
        "all" => return abs(&Dir::ALL),
        _ => {}
    }
    if let Some(d) = compass(word) {
        return abs(&[d]);
    }
    // Relative directions: eighths of a turn clockwise from forward.
    let turns: &[u8] = match word {
        "forward" => &[0],
        "backward" => &[4],
        "left" => &[6],
        "right" => &[2],
        "sideways" => &[2, 6],
        "forward_left" => &[7],
        "forward_right" => &[1],
        "backward_left" => &[5],
        "backward_right" => &[3],
        "forward_diagonal" => &[1, 7],
        "backward_diagonal" => &[3, 5],
        _ => return Err(format!("`{word}` is not a direction")),
    };
    let Some(fwd) = forward else {
        return Err(format!(
            "`{word}` is relative to each player's forward direction, but [game] declares no `forward`"
        ));
    };
    let mut out = [DirSet::default(); PLAYERS];
    for p in 0..PLAYERS {
        out[p] = set(&turns.iter().map(|t| fwd[p].rotate(*t)).collect::<Vec<_>>());
    }
    Ok(out)
}

fn resolved_toml(tree: &Table, options: &[OptionInfo]) -> String {
    fn to_toml(n: &Node) -> toml::Value {
        match &n.value {
            Value::Str(s) => toml::Value::String(s.clone()),
            Value::Int(i) => toml::Value::Integer(*i),
            Value::Float(f) => toml::Value::Float(*f),
            Value::Bool(b) => toml::Value::Boolean(*b),
            Value::Array(a) => toml::Value::Array(a.iter().map(to_toml).collect()),
            Value::Table(t) => toml::Value::Table(table(t)),
            Value::Datetime => toml::Value::String(String::new()),
        }
    }
    fn table(t: &Table) -> toml::Table {
        t.entries
            .iter()
            .map(|(k, e)| (k.clone(), to_toml(&e.node)))
            .collect()
    }
    let mut out = table(tree);
    if let Some(toml::Value::Table(opts)) = out.get_mut("options") {
        for o in options {
            if let Some(toml::Value::Table(t)) = opts.get_mut(&o.name) {
                let v = match o.value {
                    OptionValue::Bool(b) => toml::Value::Boolean(b),
                    OptionValue::Int(i) => toml::Value::Integer(i),
                };
                t.insert("default".into(), v);
            }
        }
    }
    toml::to_string(&out).unwrap_or_default()
}
