//! The names a pack may give things: the reserved words, what a name may be written as, and
//! the words that say why a name is not usable. Its own file because the readers of every
//! section ask it, not only the parser.

/// The reserved words of the language: they cannot name anything.
pub const KEYWORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "if",
    "then",
    "else",
    "in",
    "is",
    "has",
    "true",
    "false",
    "step",
    "jump",
    "hop",
    "across",
    "over",
    "unless",
    "chain",
    "when",
    "quiet",
    "capturing",
    "complete",
];

/// Whether `s` can be written as a name in an expression: letters, digits and `_`, not
/// starting with a digit, and not a reserved word.
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&s)
}

/// Why `name` cannot name a thing of the pack (`what`, as in "a zone"), if it cannot: a
/// reserved word, or not writable in an expression. The second part is how to fix it.
pub fn bad_name(name: &str, what: &str) -> Option<(String, String)> {
    if is_name(name) {
        return None;
    }
    if KEYWORDS.contains(&name) {
        return Some((
            format!("`{name}` is a reserved word of the language, so it cannot name {what}"),
            format!(
                "choose another name; the reserved words are {}",
                KEYWORDS.join(" ")
            ),
        ));
    }
    let fixed: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let fixed = if fixed.starts_with(|c: char| c.is_ascii_digit()) || fixed.is_empty() {
        format!("_{fixed}")
    } else {
        fixed
    };
    Some((
        format!("`{name}` cannot be written in an expression, so it cannot name {what}"),
        format!(
            "a name is letters, digits and `_`, not starting with a digit: `{fixed}`, for instance"
        ),
    ))
}
