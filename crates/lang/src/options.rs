//! Option values a caller gives a pack: typed (`true`, `3`), or as text (`"true"`, as a
//! command line has them). The reader of `[options]` takes each by the type the pack declares
//! for the option; a value of the wrong type, or for an option the pack does not declare, is an
//! error of the load like any other.

use crate::check::OptionValue;
use std::fmt;

/// One option value, typed or as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionArg {
    /// A typed value.
    Value(OptionValue),
    /// Text, read by the option's declared type (`true`, `false`, or an integer).
    Text(String),
}

impl fmt::Display for OptionArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionArg::Value(OptionValue::Bool(b)) => write!(f, "{b}"),
            OptionArg::Value(OptionValue::Int(i)) => write!(f, "{i}"),
            OptionArg::Text(t) => f.write_str(t),
        }
    }
}

impl From<OptionValue> for OptionArg {
    fn from(v: OptionValue) -> OptionArg {
        OptionArg::Value(v)
    }
}

impl From<bool> for OptionArg {
    fn from(b: bool) -> OptionArg {
        OptionArg::Value(OptionValue::Bool(b))
    }
}

impl From<i64> for OptionArg {
    fn from(i: i64) -> OptionArg {
        OptionArg::Value(OptionValue::Int(i))
    }
}

impl From<i32> for OptionArg {
    fn from(i: i32) -> OptionArg {
        OptionArg::Value(OptionValue::Int(i.into()))
    }
}

impl From<&str> for OptionArg {
    fn from(t: &str) -> OptionArg {
        OptionArg::Text(t.to_string())
    }
}

impl From<String> for OptionArg {
    fn from(t: String) -> OptionArg {
        OptionArg::Text(t)
    }
}

/// The option values given to a pack, by name, in order (a later value of the same name
/// wins).
///
/// ```
/// use ply_lang::Options;
///
/// let options = Options::new().set("multi_hop", true);
/// let pack = ply_lang::load_with("../../rulesets/cats_rabbits.toml", &options).unwrap();
/// assert_eq!(pack.options[0].value, ply_lang::OptionValue::Bool(true));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    values: Vec<(String, OptionArg)>,
}

impl Options {
    /// No option values: every option has its default.
    pub fn new() -> Options {
        Options::default()
    }

    /// With `name` set to `value`.
    #[must_use]
    pub fn set(mut self, name: impl Into<String>, value: impl Into<OptionArg>) -> Options {
        self.values.push((name.into(), value.into()));
        self
    }

    /// The values, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &OptionArg)> {
        self.values.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// Values given as `(name, text)` pairs.
    pub fn from_texts(set: &[(String, String)]) -> Options {
        set.iter().map(|(n, v)| (n.clone(), v.clone())).collect()
    }
}

impl<N: Into<String>, V: Into<OptionArg>> FromIterator<(N, V)> for Options {
    fn from_iter<I: IntoIterator<Item = (N, V)>>(iter: I) -> Options {
        iter.into_iter()
            .fold(Options::new(), |o, (n, v)| o.set(n, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load_with;

    const CR: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../rulesets/cats_rabbits.toml"
    );

    #[test]
    fn typed_and_text_values_mean_the_same() {
        let typed = load_with(CR, &Options::new().set("multi_hop", true)).unwrap();
        let text = load_with(CR, &Options::new().set("multi_hop", "true")).unwrap();
        assert_eq!(typed.options, text.options);
        assert_eq!(typed.options[0].value, OptionValue::Bool(true));
        let from_pairs: Options = [("multi_hop", false)].into_iter().collect();
        let off = load_with(CR, &from_pairs).unwrap();
        assert_eq!(off.options[0].value, OptionValue::Bool(false));
    }

    #[test]
    fn a_value_of_the_wrong_type_is_an_error() {
        let err = load_with(CR, &Options::new().set("multi_hop", 3)).unwrap_err();
        assert!(
            err.render(false).contains("`3` is not a value"),
            "{}",
            err.render(false)
        );
        let err = load_with(CR, &Options::new().set("multi_hp", true)).unwrap_err();
        assert!(err.render(false).contains("did you mean `multi_hop`?"));
    }
}
