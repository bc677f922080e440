//! The guide's reference parts, `rulesets/README.md`, checked against what the loader accepts,
//! so that they cannot go stale when the language grows:
//!
//! - the **quick reference** names every key of every table the readers accept, every
//!   keyword of the grammar, every direction word, field, builtin function and variable.
//!   Nothing here is listed by hand: each list is what the loader itself says it accepts,
//!   asked by loading a probe pack with an unknown key in each table (the "unknown key ...,
//!   expected one of: ..." hint), an unknown direction, an unknown field, and by calling
//!   every word found in `crates/lang/src` as a function and as a name (the checker tells
//!   builtins and variables from unknown names; the builtins found must be the checker's
//!   table, `ply_lang::builtin_functions`); the keywords are read from `grammar.pest`;
//! - the **forms of a move pattern** shown in "Move patterns" are the loader's own table
//!   ([`ply_lang::PATTERN_FORMS`], also the hint of a syntax error in a pattern), whose
//!   examples load and whose passing-capture parts are exactly those the loader accepts;
//! - the **limits** stated in "Limits" are the numbers in the code: the constants where they
//!   are public, else found by loading a pack at the limit (it loads) and one past it (it is
//!   refused); and every `MAX_` constant of the kernel and the language is stated there.

mod common;

use std::collections::BTreeSet;

fn guide() -> String {
    let path = common::root().join("rulesets").join("README.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of the `## TITLE` section, up to the next `## ` heading.
fn section(md: &str, title: &str) -> String {
    let head = format!("\n## {title}\n");
    let start = md
        .find(&head)
        .unwrap_or_else(|| panic!("the guide has no section `## {title}`"))
        + head.len();
    let rest = &md[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The first fenced block of a section.
fn first_block(text: &str) -> String {
    let start = text.find("```").expect("a fenced block");
    let body = &text[start..];
    let body = &body[body.find('\n').expect("an info line") + 1..];
    body[..body.find("\n```").expect("a closing fence")].to_string()
}

/// The quick reference's entries: a line that does not start with a space opens one, named
/// by its first word (`[game]`, `PATTERN`); the indented lines after it continue it.
fn entries() -> Vec<(String, String)> {
    let block = first_block(&section(&guide(), "Quick reference"));
    let mut out: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with(' ') {
            let last = out.last_mut().expect("an entry before an indented line");
            last.1.push('\n');
            last.1.push_str(line);
        } else {
            let head = line.split_whitespace().next().unwrap_or_default();
            out.push((head.to_string(), line.to_string()));
        }
    }
    out
}

/// The text of the entries whose name is one of `heads`.
fn entry(all: &[(String, String)], heads: &[&str]) -> String {
    let found: Vec<&str> = all
        .iter()
        .filter(|(h, _)| heads.contains(&h.as_str()))
        .map(|(_, t)| t.as_str())
        .collect();
    assert!(
        !found.is_empty(),
        "the quick reference has no entry {heads:?}; it has {:?}",
        all.iter().map(|e| &e.0).collect::<Vec<_>>()
    );
    found.join("\n")
}

/// Whether `word` stands in `text` as a word of its own (not inside a longer name).
fn has_word(text: &str, word: &str) -> bool {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    })
}

/// Asserts that every word of `words` is in the entries `heads` of the quick reference.
fn assert_listed(what: &str, words: &[String], heads: &[&str]) {
    assert!(!words.is_empty(), "no {what} found: the probe is broken");
    let all = entries();
    let text = entry(&all, heads);
    let missing: Vec<&String> = words.iter().filter(|w| !has_word(&text, w)).collect();
    assert!(
        missing.is_empty(),
        "the quick reference of rulesets/README.md lacks {what} {missing:?} in its entry {heads:?}:\n{text}"
    );
}

/// The diagnostics of loading `text` (none when it loads).
fn diagnostics(text: &str) -> Vec<ply_lang::Diagnostic> {
    match ply_lang::load_str("probe.toml", text, &[]) {
        Ok(_) => Vec::new(),
        Err(e) => e.diagnostics,
    }
}

/// The list a diagnostic's hint gives after `prefix` (`expected one of: a, b, c`).
fn hinted(diags: &[ply_lang::Diagnostic], message: &str, prefix: &str) -> Vec<String> {
    let d = diags
        .iter()
        .find(|d| d.message == message)
        .unwrap_or_else(|| {
            panic!(
                "no diagnostic `{message}` among {:?}",
                diags.iter().map(|d| &d.message).collect::<Vec<_>>()
            )
        });
    let help = d.help.as_deref().unwrap_or_default();
    let list = help
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("`{message}`: the hint `{help}` does not start `{prefix}`"));
    list.split([',', ' '])
        .map(|w| w.trim().trim_matches('"').to_string())
        .filter(|w| !w.is_empty() && w != "and" && w != "or")
        .collect()
}

/// A key no table accepts, nor resembles.
const PROBE: &str = "xyzzy_probe";

/// A pack with `PROBE` in every table, an unknown direction, field and option type.
fn probe_pack() -> String {
    format!(
        r#"{PROBE} = 1

[game]
players = ["Pqx", "Pqy"]
{PROBE} = "x"

[board]
rows = 3
cols = 3
{PROBE} = "x"

[zones.zq]
cells = "a1"
{PROBE} = "x"

[pieces.Kq]
letter = "K"
moves = ["step {PROBE}"]
promote = {{ to = "Kq", zone = "zq", {PROBE} = "x" }}
{PROBE} = "x"

[rules]
{PROBE} = "x"

[rules.enter]
piece-fields = 'mover.{PROBE} == 0'
cell-fields = 'to.{PROBE} == 0'

[effects.eq]
flip = "all"
{PROBE} = "x"

[end.nq]
when = 'true'
draw = true
{PROBE} = "x"

[options.oq]
type = "{PROBE}"
default = true
{PROBE} = "x"

[compound.cq]
{PROBE} = "x"

[fen]
{PROBE} = "x"

[eval]
{PROBE} = "x"

[display]
{PROBE} = "x"

[display.pieces.Kq]
{PROBE} = "x"

[display.zones.zq]
{PROBE} = "x"

[display.players.Pqx]
{PROBE} = "x"
"#
    )
}

/// The keys the table `what` accepts, as the loader's hint lists them.
fn keys(diags: &[ply_lang::Diagnostic], what: &str) -> Vec<String> {
    hinted(
        diags,
        &format!("unknown key `{PROBE}` in {what}"),
        "expected one of: ",
    )
    .into_iter()
    // A zone's cells per player are keyed by the players' names.
    .filter(|k| k != "Pqx" && k != "Pqy")
    .collect()
}

#[test]
fn the_quick_reference_names_every_key_of_every_table() {
    let diags = diagnostics(&probe_pack());
    let all = entries();
    // The top-level keys are tables, each with an entry of its own: `[game]`, `[zones.Z]`.
    let mut missing = Vec::new();
    let mut top = keys(&diags, "the pack");
    top.push("extends".into());
    for k in &top {
        let found = all
            .iter()
            .any(|(h, _)| h == k || *h == format!("[{k}]") || h.starts_with(&format!("[{k}.")));
        if !found {
            missing.push(k.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "the quick reference has no entry for {missing:?}"
    );
    for k in keys(&diags, "[rules]") {
        entry(&all, &[&format!("[rules.{k}]")]);
    }
    let mut known: std::collections::BTreeMap<&str, BTreeSet<String>> = Default::default();
    for (what, heads) in [
        ("[game]", &["[game]"][..]),
        ("[board]", &["[board]"]),
        ("[zones.zq]", &["[zones.Z]"]),
        ("[pieces.Kq]", &["[pieces.K]"]),
        ("`promote`", &["[pieces.K]"]),
        ("[effects.eq]", &["[effects.E]"]),
        ("[end.nq]", &["[end.NAME]"]),
        ("[options.oq]", &["[options.O]"]),
        ("[compound.cq]", &["[compound.C]"]),
        ("[fen]", &["[fen]"]),
        ("[eval]", &["[eval]"]),
        ("[display]", &["[display]"]),
        ("[display.pieces.Kq]", &["[display]"]),
        ("[display.zones.zq]", &["[display]"]),
        ("[display.players.Pqx]", &["[display]"]),
    ] {
        let accepted = keys(&diags, what);
        assert_listed(&format!("keys of {what}"), &accepted, heads);
        for k in accepted {
            known.entry(heads[0]).or_default().insert(k);
        }
    }
    // And it names no key the loader refuses: each `key =` of an entry (lower case; upper
    // case words are placeholders) is a key of its table.
    for (head, accepted) in &known {
        let text = entry(&all, &[head]);
        let text = text.strip_prefix(head).unwrap_or(&text);
        for (i, _) in text.match_indices(" =") {
            let before = &text[..i];
            let word = before
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or_default();
            if word.starts_with(|c: char| c.is_ascii_lowercase()) {
                assert!(
                    accepted.contains(word),
                    "the quick reference's {head} names `{word}`, which the loader does not \
                     accept there (it accepts {accepted:?})"
                );
            }
        }
    }
    let types = hinted(
        &diags,
        &format!("unknown option type `{PROBE}`"),
        "an option's type is ",
    );
    assert_listed("option types", &types, &["[options.O]"]);
}

#[test]
fn the_quick_reference_names_every_direction_and_field() {
    let diags = diagnostics(&probe_pack());
    let dirs = hinted(
        &diags,
        &format!("`{PROBE}` is not a direction"),
        "directions: ",
    );
    assert_listed("direction words", &dirs, &["DIRS"]);
    let mut fields = hinted(
        &diags,
        &format!("a piece has no field `{PROBE}`"),
        "a piece's fields are ",
    );
    fields.extend(hinted(
        &diags,
        &format!("a cell has no field `{PROBE}`"),
        "a cell's fields are ",
    ));
    assert_listed("fields", &fields, &["fields"]);
}

/// The keywords of the grammar (its `keyword` rule).
fn grammar_keywords() -> Vec<String> {
    let path = common::root().join("crates/lang/src/grammar.pest");
    let grammar = std::fs::read_to_string(&path).expect("grammar.pest");
    let start = grammar.find("keyword = @{").expect("a `keyword` rule");
    let body = &grammar[start..];
    // The words, before `~ !(ASCII_ALPHANUMERIC | "_")`.
    let body = &body[..body.find('~').expect("the end of the words")];
    let words: Vec<String> = body
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert!(words.len() > 20, "{words:?}");
    words
}

#[test]
fn the_quick_reference_names_every_keyword_and_pattern_form() {
    let keywords = grammar_keywords();
    assert_listed("keywords of the grammar", &keywords, &["PATTERN", "EXPR"]);
    let forms: Vec<String> = ply_lang::PATTERN_FORMS
        .iter()
        .map(|f| f.word.to_string())
        .collect();
    assert_listed("forms of move pattern", &forms, &["PATTERN"]);
}

#[test]
fn the_reserved_words_of_the_guide_are_the_grammars() {
    let md = guide();
    let at = md
        .find("Reserved words cannot be names:")
        .expect("the paragraph on reserved words");
    let text = &md[at..at + md[at..].find("\n\n").expect("its end")];
    let listed: BTreeSet<&str> = text
        .split('`')
        .nth(1)
        .expect("the words in backticks")
        .split_whitespace()
        .collect();
    let keywords = grammar_keywords();
    let grammar: BTreeSet<&str> = keywords.iter().map(String::as_str).collect();
    assert_eq!(listed, grammar, "rulesets/README.md: {text}");
}

#[test]
fn the_forms_of_a_move_pattern_are_the_loaders() {
    let shown = first_block(&section(&guide(), "Move patterns"));
    let table: Vec<&str> = ply_lang::PATTERN_FORMS.iter().map(|f| f.synopsis).collect();
    assert_eq!(
        shown.lines().collect::<Vec<_>>(),
        table,
        "the forms shown at the top of \"Move patterns\" in rulesets/README.md are not \
         ply_lang::PATTERN_FORMS"
    );
    // The hint of a syntax error in a pattern shows them too.
    let pack = "[game]\nplayers = [\"A\", \"B\"]\n[board]\nrows = 3\ncols = 3\n\
                [pieces.S]\nletter = \"S\"\nmoves = [\"walk n\"]\n";
    let diags = diagnostics(pack);
    let help = diags
        .iter()
        .find_map(|d| d.help.clone())
        .expect("a hint for the syntax error");
    for f in table {
        assert!(help.contains(f), "{help}");
    }
}

/// Every word of `crates/lang/src` written as a string literal that could be a name: the
/// builtin functions and the variables are among them.
fn source_words() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut dirs = vec![common::root().join("crates/lang/src")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir)
            .expect("a source directory")
            .flatten()
        {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                for (i, _) in text.match_indices('"') {
                    let rest = &text[i + 1..];
                    let end = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    let word = &rest[..end];
                    if rest[end..].starts_with('"')
                        && word.starts_with(|c: char| c.is_ascii_lowercase())
                    {
                        out.insert(word.to_string());
                    }
                }
            }
        }
    }
    let keywords = grammar_keywords();
    out.retain(|w| !keywords.contains(w) && w.len() < 40);
    out
}

/// A pack whose only piece is `K` and whose players are `Pqx` and `Pqy`, with `extra` added.
fn small_pack(extra: &str) -> String {
    format!(
        "[game]\nplayers = [\"Pqx\", \"Pqy\"]\n[board]\nrows = 3\ncols = 3\n\
         [pieces.Kq]\nletter = \"K\"\nmoves = [\"step n\"]\n{extra}"
    )
}

#[test]
fn the_quick_reference_names_every_builtin_function() {
    // A call of a word that is no function is "unknown function `w`"; a builtin's call with
    // no arguments is refused otherwise (its arity, its scope) or accepted.
    let words = source_words();
    let mut rules = String::from("[rules.enter]\n");
    for (i, w) in words.iter().enumerate() {
        rules.push_str(&format!("r{i} = '{w}() == 0'\n"));
    }
    let diags = diagnostics(&small_pack(&rules));
    let functions: Vec<String> = words
        .iter()
        .filter(|w| {
            !diags
                .iter()
                .any(|d| d.message == format!("unknown function `{w}`"))
        })
        .cloned()
        .collect();
    for f in ["count", "opponent", "no_moves"] {
        assert!(functions.iter().any(|x| x == f), "{functions:?}");
    }
    assert!(
        functions.len() < 40,
        "the probe finds too much: {functions:?}"
    );
    // The checker's table of builtins says the same.
    let mut table: Vec<String> = ply_lang::builtin_functions()
        .map(|(name, _)| name.to_string())
        .collect();
    table.sort();
    table.dedup();
    assert_eq!(
        functions, table,
        "the functions the checker accepts are not its table's"
    );
    assert_listed("builtin functions", &functions, &["functions"]);
}

#[test]
fn the_quick_reference_names_every_variable() {
    // In `chain(...)` no variable exists: a variable of another scope is reported as "not
    // available in a constant; it is in ...", any other unknown name otherwise.
    let words = source_words();
    let moves: Vec<String> = words
        .iter()
        .map(|w| format!("\"hop n chain({w})\""))
        .collect();
    let pack = format!(
        "[game]\nplayers = [\"Pqx\", \"Pqy\"]\n[board]\nrows = 3\ncols = 3\n\
         [pieces.Kq]\nletter = \"K\"\nmoves = [{}]\n",
        moves.join(", ")
    );
    let diags = diagnostics(&pack);
    let mut variables: Vec<String> = words
        .iter()
        .filter(|w| {
            diags.iter().any(|d| {
                d.message == format!("unknown name `{w}`")
                    && d.help
                        .as_deref()
                        .is_some_and(|h| h.contains("is not available in"))
            })
        })
        .cloned()
        .collect();
    for v in ["mover", "target", "occupant", "passes"] {
        assert!(variables.iter().any(|x| x == v), "{variables:?}");
    }
    variables.push("nobody".into());
    assert_listed("variables", &variables, &["scopes"]);
}

/// The rows of the table of limits: (what, the number stated, the name in backticks).
fn limit_rows() -> Vec<(String, u64, String)> {
    let text = section(&guide(), "Limits");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() != 3 || cells[1].starts_with('-') || cells[1] == "at most" {
            continue;
        }
        let number: u64 = cells[1]
            .replace(',', "")
            .parse()
            .unwrap_or_else(|_| panic!("Limits: `{}` is not a number: {line}", cells[1]));
        let name = cells[2].trim_matches('`').to_string();
        out.push((cells[0].to_string(), number, name));
    }
    assert!(out.len() > 10, "the table of limits is not found: {out:?}");
    out
}

/// Whether a pack loads (`Ok`), or the rendered diagnostics.
fn loads(text: &str) -> Result<(), String> {
    ply_lang::load_str("limit.toml", text, &[])
        .map(|_| ())
        .map_err(|e| e.render(false))
}

/// Asserts that `at(n)` loads and `at(n + 1)` is refused with the limit named.
fn at_limit(name: &str, n: u64, at: impl Fn(u64) -> String) {
    if let Err(e) = loads(&at(n)) {
        panic!("Limits: `{name}` is stated as {n}, but a pack at {n} is refused:\n{e}");
    }
    match loads(&at(n + 1)) {
        Ok(()) => panic!(
            "Limits: `{name}` is stated as {n}, but a pack at {} loads",
            n + 1
        ),
        Err(e) => assert!(
            e.contains(&n.to_string()),
            "Limits: a pack past `{name}` is refused without naming the limit {n}:\n{e}"
        ),
    }
}

/// A pack of one kind with `moves`, a piece each, and `extra` lines for the kind.
fn limit_pack(moves: &[String], extra: &str) -> String {
    let moves: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
    format!(
        "[game]\nplayers = [\"A\", \"B\"]\n[board]\nrows = 3\ncols = 3\n\
         [pieces.S]\nletter = \"S\"\nmoves = [{}]\n{extra}\n\
         [setup.A]\nS = \"a1\"\n[setup.B]\nS = \"c3\"\n",
        moves.join(", ")
    )
}

#[test]
fn the_limits_stated_are_the_codes() {
    let constants: &[(&str, u64)] = &[
        ("MAX_ROWS", ply_kernel::MAX_ROWS as u64),
        ("MAX_COLS", ply_kernel::MAX_COLS as u64),
        ("MAX_CELLS", ply_kernel::MAX_CELLS as u64),
        ("MAX_KINDS", ply_kernel::MAX_KINDS as u64),
        ("PLAYERS", ply_kernel::PLAYERS as u64),
        ("MAX_HOPS", ply_kernel::MAX_HOPS as u64),
        ("MAX_FAR_HOPS", ply_kernel::MAX_FAR_HOPS as u64),
        ("MAX_FAR_HOP_LENGTH", ply_kernel::MAX_FAR_HOP_LENGTH as u64),
        ("MAX_MOVES", ply_kernel::MAX_MOVES as u64),
        ("MAX_TABLE_BITS", ply_kernel::MAX_TABLE_BITS as u64),
        ("MAX_PASSED_CELLS", ply_kernel::MAX_PASSED_CELLS as u64),
        ("MAX_END_RULES", ply_kernel::MAX_END_RULES as u64),
        (
            "MAX_GROUP_BOARD_CELLS",
            ply_kernel::MAX_GROUP_BOARD_CELLS as u64,
        ),
        ("MAX_EXPR_DEPTH", ply_kernel::MAX_EXPR_DEPTH as u64),
        (
            "MAX_REPETITION_LOOKBACK",
            ply_kernel::MAX_REPETITION_LOOKBACK as u64,
        ),
        ("MAX_EXPR_NODES", ply_lang::MAX_EXPR_NODES as u64),
        ("MAX_PACK_NODES", ply_lang::MAX_PACK_NODES as u64),
        ("MAX_EVAL_STEPS", ply_lang::MAX_EVAL_STEPS as u64),
        ("MAX_PACK_BYTES", ply_lang::MAX_PACK_BYTES as u64),
        ("MAX_EXTENDS_DEPTH", ply_lang::MAX_EXTENDS_DEPTH as u64),
        ("MAX_GLYPH_CHARS", ply_lang::MAX_GLYPH_CHARS as u64),
    ];
    assert_eq!(ply_kernel::MAX_EXPR_DEPTH, ply_lang::MAX_EXPR_DEPTH);
    let rows = limit_rows();
    for (what, n, name) in &rows {
        if let Some((_, value)) = constants.iter().find(|(c, _)| c == name) {
            assert_eq!(
                n, value,
                "Limits in rulesets/README.md: {what} is stated as {n}, but {name} is {value}"
            );
            continue;
        }
        let step = |_| "step n".to_string();
        match name.as_str() {
            "MAX_PATTERNS" => at_limit(name, *n, |k| {
                limit_pack(&(0..k).map(step).collect::<Vec<_>>(), "")
            }),
            "tags" => at_limit(name, *n, |k| {
                let tags: Vec<String> = (0..k).map(|i| format!("\"t{i}\"")).collect();
                limit_pack(&[step(0)], &format!("tags = [{}]", tags.join(", ")))
            }),
            "supply" => at_limit(name, *n, |k| {
                limit_pack(&[step(0)], &format!("supply = {k}"))
            }),
            "upto" => at_limit(name, *n, |k| limit_pack(&[format!("slide n upto {k}")], "")),
            "MAX_TURN_MOVES" => at_limit(name, *n, |k| {
                limit_pack(&[step(0)], &format!("[turn]\nmoves = {k}"))
            }),
            "MAX_VALUE" => at_limit(name, *n, |k| {
                limit_pack(&[step(0)], &format!("[eval]\nmaterial = {{ S = {k} }}"))
            }),
            other => panic!(
                "Limits in rulesets/README.md: `{other}` ({what}) is checked by no test: \
                 add it to the_limits_stated_are_the_codes"
            ),
        }
    }
    // Every limit named in the code is stated.
    let named: BTreeSet<&str> = rows.iter().map(|r| r.2.as_str()).collect();
    for (name, _) in constants {
        assert!(
            named.contains(name),
            "Limits in rulesets/README.md: no row for {name}"
        );
    }
    for crate_dir in ["crates/kernel/src", "crates/lang/src"] {
        for name in declared_limits(&common::root().join(crate_dir)) {
            assert!(
                named.contains(name.as_str()),
                "Limits in rulesets/README.md: no row for {name}, a limit of {crate_dir}"
            );
        }
    }
}

/// The `MAX_` constants declared public (to the crate or beyond) under `dir`.
fn declared_limits(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir)
            .expect("a source directory")
            .flatten()
        {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            for line in text.lines() {
                let line = line.trim_start();
                let rest = line
                    .strip_prefix("pub const ")
                    .or_else(|| line.strip_prefix("pub(crate) const "));
                if let Some(rest) = rest
                    && rest.starts_with("MAX_")
                {
                    let name = rest.split(':').next().unwrap_or_default().trim();
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

/// A pack in which every example of [`ply_lang::PATTERN_FORMS`] can be written: the kinds,
/// zones, attribute and option they name.
fn forms_pack(moves: &[&str]) -> String {
    let moves: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
    format!(
        "[game]\nplayers = [\"A\", \"B\"]\nattributes = [\"rank\"]\n\
         forward = {{ A = \"up\", B = \"down\" }}\n\
         [board]\nrows = 5\ncols = 5\n\
         [zones.water]\ncells = \"c3\"\n[zones.centre]\ncells = \"e5\"\n\
         [options.multi_hop]\ndefault = true\n\
         [pieces.Rat]\nletter = \"R\"\nmoves = [{}]\n\
         [pieces.Marker]\nletter = \"X\"\nmoves = []\n\
         [setup.A]\nRat = \"a1\"\n[setup.B]\nRat = \"e5\"\n",
        moves.join(", ")
    )
}

#[test]
fn each_form_of_a_move_pattern_loads_with_its_parts_and_only_those() {
    for f in ply_lang::PATTERN_FORMS {
        if let Err(e) = loads(&forms_pack(&[f.example])) {
            panic!("the example of `{}` does not load:\n{e}", f.word);
        }
    }
    // A passing piece is left by the forms whose synopsis says `leaves ghost`, and taken by
    // those that say `takes ghost`; the others refuse it, though the grammar may read it.
    let bare = |word: &str| match word {
        "step" => "step n",
        "slide" => "slide n",
        "leap" => "leap (1, 2)",
        "jump" => "jump n across water",
        "hop" => "hop n",
        _ => "place",
    };
    for f in ply_lang::PATTERN_FORMS {
        for (part, mode) in [("leaves ghost", "quiet"), ("takes ghost", "capturing")] {
            let pattern = format!("{} {mode} {part}", bare(f.word));
            let said = f.synopsis.contains(part);
            let loaded = loads(&forms_pack(&[&pattern]));
            assert_eq!(
                loaded.is_ok(),
                said,
                "`{pattern}`: the synopsis `{}` {} `{part}`, but the pack {}",
                f.synopsis,
                if said { "has" } else { "lacks" },
                match &loaded {
                    Ok(()) => "loads".to_string(),
                    Err(e) => format!("is refused:\n{e}"),
                }
            );
        }
    }
}
