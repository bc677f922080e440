//! The forms of a move pattern, as a designer writes them: one table, shown by the hint of a
//! syntax error in a pattern and checked against the guide's reference
//! (`tests/guide_reference.rs`), so that neither forgets a form or a part. A test below checks
//! the table against the grammar (`grammar.pest`).

/// One form of move pattern.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PatternForm {
    /// The word a pattern of this form starts with.
    pub word: &'static str,
    /// How it is written: the required parts, then the optional ones (in `[...]`) in the
    /// order they must come.
    pub synopsis: &'static str,
    /// A pattern of this form with every optional part, as the grammar reads it.
    pub example: &'static str,
}

/// Every form of move pattern the language has.
pub const PATTERN_FORMS: &[PatternForm] = &[
    PatternForm {
        word: "step",
        synopsis: "step DIRS [quiet | capturing] [takes ghost] [when COND] [then place KIND by slide DIRS]",
        example: "step forward_diagonal capturing takes ghost when true then place Marker by slide all",
    },
    PatternForm {
        word: "slide",
        synopsis: "slide DIRS [upto N] [screen | over own] [quiet | capturing] [leaves ghost] [until STOP] [when COND] [then place KIND by slide DIRS]",
        example: "slide n, e upto 2 screen quiet leaves ghost until cell in centre when true then place Marker by slide all",
    },
    PatternForm {
        word: "leap",
        synopsis: "leap (ROWS, COLS) [DIRS] [quiet | capturing] [takes ghost] [unless BLOCKING] [when COND] [then place KIND by slide DIRS]",
        example: "leap (1, 2) n, e capturing takes ghost unless occupied(cell) when true then place Marker by slide all",
    },
    PatternForm {
        word: "jump",
        synopsis: "jump DIRS across ZONE [quiet | capturing] [unless BLOCKING] [when COND] [then place KIND by slide DIRS]",
        example: "jump orthogonal across water quiet unless occupant is Marker when true then place Marker by slide all",
    },
    PatternForm {
        word: "hop",
        synopsis: "hop DIRS [far] [over TARGET] [chain [complete] | chain(CONSTANT) [complete]] [when COND]",
        example: "hop diagonal far over target.rank < mover.rank chain(multi_hop) complete when true",
    },
    PatternForm {
        word: "fly",
        synopsis: "fly [quiet | capturing] [when COND] [then place KIND by slide DIRS]",
        example: "fly quiet when count(player) == 3 then place Marker by slide all",
    },
    PatternForm {
        word: "place",
        synopsis: "place [when COND]",
        example: "place when not empty(neighbour(cell, s))",
    },
];

/// The hint of a syntax error in a move pattern: every form, one a line.
pub fn pattern_help() -> String {
    let mut out =
        String::from("a move pattern is one of these, its optional parts `[...]` in this order:");
    for f in PATTERN_FORMS {
        out.push_str("\n  `");
        out.push_str(f.synopsis);
        out.push('`');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRAMMAR: &str = include_str!("grammar.pest");

    /// The body of the grammar rule `name` (between its braces).
    fn rule(name: &str) -> &'static str {
        let start = GRAMMAR
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name) && l.contains('='))
            .unwrap_or_else(|| panic!("no rule `{name}` in grammar.pest"));
        let body = start.split_once('{').expect("a rule has a body").1;
        body.rsplit_once('}').expect("a rule on one line").0
    }

    #[test]
    fn every_form_of_the_grammar_is_in_the_table_and_no_other() {
        let body = rule("pattern");
        let alternatives = body
            .split_once('(')
            .and_then(|(_, r)| r.split_once(')'))
            .expect("pattern = { SOI ~ (a | b | ...) ~ EOI }")
            .0;
        let mut grammar: Vec<&str> = alternatives.split('|').map(str::trim).collect();
        let mut table: Vec<&str> = PATTERN_FORMS.iter().map(|f| f.word).collect();
        grammar.sort_unstable();
        table.sort_unstable();
        assert_eq!(grammar, table);
    }

    #[test]
    fn each_synopsis_has_the_parts_of_its_grammar_rule_in_order() {
        for f in PATTERN_FORMS {
            assert!(f.synopsis.starts_with(f.word), "{}", f.synopsis);
            let mut at = 0;
            for part in rule(f.word).split('~') {
                let part = part.trim().trim_end_matches('?');
                let needle = match part {
                    "\"(\"" | "\",\"" | "\")\"" | "int" => continue,
                    lit if lit.starts_with('"') => lit.trim_matches('"'),
                    "dirs" => "DIRS",
                    "ident" => "ZONE",
                    "mode" => "quiet | capturing",
                    "ghost" => "ghost",
                    "condition" => "when COND",
                    "then_place" => "then place KIND by slide DIRS",
                    "upto" => "upto N",
                    "screen" => "screen",
                    "(screen | over_own)" => "screen | over own",
                    "until" => "until STOP",
                    "unless" => "unless BLOCKING",
                    "over" => "over TARGET",
                    "chain" => "chain",
                    "far" => "[far]",
                    other => panic!("rule `{}`: no word for part `{other}`", f.word),
                };
                match f.synopsis[at..].find(needle) {
                    Some(i) => at += i + needle.len(),
                    None => panic!(
                        "`{}` lacks `{needle}` after column {at}, where the grammar has it",
                        f.synopsis
                    ),
                }
            }
        }
    }

    #[test]
    fn each_example_is_a_pattern_of_its_form() {
        for f in PATTERN_FORMS {
            assert!(f.example.starts_with(f.word), "{}", f.example);
            if let Err(e) = crate::syntax::parse_pattern(f.example) {
                panic!("`{}` does not parse: {}", f.example, e.message);
            }
        }
    }

    #[test]
    fn the_hint_lists_every_form() {
        let help = pattern_help();
        for f in PATTERN_FORMS {
            assert!(help.contains(f.synopsis), "{help}");
        }
    }
}
