//! Syntax errors, and pest's failures put into words a designer reads. Its own file so that
//! every stage of parsing reports in the same terms, and so that pest's rule names stay here.

use super::Span;
use super::parse::Rule;

/// A syntax error: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where (within the parsed text).
    pub span: Span,
    /// What was expected.
    pub message: String,
    /// A short note under the caret, when there is something better to say than the message.
    pub label: Option<String>,
    /// How to fix it, when known.
    pub help: Option<String>,
}

impl SyntaxError {
    pub(super) fn new(span: Span, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            span,
            message: message.into(),
            label: None,
            help: None,
        }
    }

    pub(super) fn label(mut self, label: impl Into<String>) -> SyntaxError {
        self.label = Some(label.into());
        self
    }

    pub(super) fn help(mut self, help: impl Into<String>) -> SyntaxError {
        self.help = Some(help.into());
        self
    }
}

/// Words for the grammar's rules, as a designer would say them.
fn rule_words(rule: &Rule) -> String {
    use Rule::*;
    match rule {
        EOI => "the end of the text",
        dir => "a direction",
        ident | int | boolean | expr | expression | primary | call | if_expr | prefix | not_op
        | neg_op => "a value (a name, a number, `(` ...)",
        infix | postfix => "an operator",
        or_op | and_op | eq_op | ne_op | le_op | ge_op | lt_op | gt_op | in_op | is_op | has_op
        | add_op | sub_op | mul_op | div_op | rem_op => "an operator",
        field => "`.` and a field name",
        pattern | step | jump | hop | slide | leap | fly | place => {
            "`step`, `slide`, `leap`, `jump`, `hop`, `fly` or `place`"
        }
        upto => "`upto N`",
        screen => "`screen`",
        over_own | own => "`over own`",
        ghost | leaves | takes => "`leaves ghost` or `takes ghost`",
        until => "`until`",
        then_place => "`then place KIND by slide DIRS`",
        dirs => "a direction such as `orthogonal`",
        mode | quiet | capturing => "`quiet` or `capturing`",
        unless => "`unless`",
        over => "`over`",
        far => "`far`",
        chain => "`chain`",
        complete => "`complete`",
        condition => "`when`",
        definition => "a definition name such as `strength(p)`",
        keyword => "a keyword",
        WHITESPACE | COMMENT => "a space",
    }
    .to_string()
}

pub(super) fn convert_error(e: pest::error::Error<Rule>) -> SyntaxError {
    use pest::error::{ErrorVariant, InputLocation};
    let span = match e.location {
        InputLocation::Pos(p) => Span { start: p, end: p },
        InputLocation::Span((s, t)) => Span { start: s, end: t },
    };
    let message = match &e.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let mut words: Vec<String> = positives.iter().map(rule_words).collect();
            words.sort();
            words.dedup();
            if words.is_empty() {
                let mut neg: Vec<String> = negatives.iter().map(rule_words).collect();
                neg.dedup();
                format!("unexpected {}", neg.join(" or "))
            } else {
                format!("expected {}", join_or(&words))
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    SyntaxError::new(span, message)
}

fn join_or(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}
