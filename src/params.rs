//! The `NAME:key=value[,key=value]` syntax shared by algorithms and sources.

use crate::error::{Error, Result};
use std::str::FromStr;

/// A name with its parameters, as typed by the user (`random-swap:k=100`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedParams {
    /// The part before the colon.
    pub name: String,
    /// `key=value` pairs in the order given.
    pub params: Vec<(String, String)>,
}

impl NamedParams {
    /// Splits `NAME[:key=value,...]`; rejects empty names, missing `=` and repeated keys.
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        let (name, rest) = match text.split_once(':') {
            Some((name, rest)) => (name.trim(), Some(rest)),
            None => (text, None),
        };
        if name.is_empty() {
            return Err(Error::bad_input(format!("missing name in '{text}'")));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        for pair in rest.into_iter().flat_map(|r| r.split(',')) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(Error::bad_input(format!(
                    "parameter '{pair}' of '{name}' is not of the form key=value"
                )));
            };
            let (key, value) = (key.trim(), value.trim());
            if params.iter().any(|(k, _)| k == key) {
                return Err(Error::bad_input(format!(
                    "parameter '{key}' of '{name}' given twice"
                )));
            }
            params.push((key.to_string(), value.to_string()));
        }
        Ok(Self {
            name: name.to_string(),
            params,
        })
    }

    /// Fails if any parameter is not in `allowed`, naming it and the allowed ones.
    pub fn only(&self, allowed: &[&str]) -> Result<()> {
        match self
            .params
            .iter()
            .find(|(k, _)| !allowed.contains(&k.as_str()))
        {
            None => Ok(()),
            Some((k, _)) if allowed.is_empty() => Err(Error::unknown_name(format!(
                "'{}' takes no parameters (got '{k}')",
                self.name
            ))),
            Some((k, _)) => Err(Error::unknown_name(format!(
                "unknown parameter '{k}' for '{}' (expected: {})",
                self.name,
                allowed.join(", ")
            ))),
        }
    }

    /// The value of `key` parsed as `T`, if given.
    pub fn get<T: FromStr>(&self, key: &str) -> Result<Option<T>> {
        let Some((_, value)) = self.params.iter().find(|(k, _)| k == key) else {
            return Ok(None);
        };
        value.parse().map(Some).map_err(|_| {
            Error::out_of_range(format!(
                "bad value '{value}' for parameter '{key}' of '{}'",
                self.name
            ))
        })
    }
}

/// The entry of `known` (name, value) called `name`: exactly, or ignoring
/// case and `_`/`-` (so `Fisher_Yates` finds `fisher-yates`). Otherwise an
/// error naming the `what` and the closest known name when it is near
/// (a typo): `unknown algorithm 'fisher-yate': did you mean 'fisher-yates'?
/// (known: ...)`.
pub fn lookup<T: Copy>(what: &str, name: &str, known: &[(&str, T)]) -> Result<T> {
    if let Some(&(_, value)) = known.iter().find(|(k, _)| *k == name) {
        return Ok(value);
    }
    let wanted = normalise(name);
    if let Some(&(_, value)) = known.iter().find(|(k, _)| normalise(k) == wanted) {
        return Ok(value);
    }
    let names: Vec<&str> = known.iter().map(|(k, _)| *k).collect();
    let near = names
        .iter()
        .map(|k| (edit_distance(&wanted, &normalise(k)), *k))
        .min()
        .filter(|&(d, _)| d <= (wanted.chars().count() / 3).max(2));
    let hint = near.map_or(String::new(), |(_, k)| format!(": did you mean '{k}'?"));
    let error = Error::unknown_name(format!(
        "unknown {what} '{name}'{hint} (known: {})",
        names.join(", ")
    ));
    Err(match near {
        Some((_, k)) => error.meaning(k),
        None => error,
    })
}

/// The items of a list as people write them: separated by commas, spaces
/// or lines (weights, a starting order).
pub fn items(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
}

/// Lower case, with `_` spelled `-`: how names are compared leniently.
fn normalise(name: &str) -> String {
    name.trim().to_lowercase().replace('_', "-")
}

/// The Levenshtein distance between `a` and `b` (characters).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Parses a count the way people write them: `1000000`, `1_000_000`, `1e6`,
/// `2.5e6`, `10M`, `500k`, `1G`. The result must be a whole number.
pub fn parse_count(text: &str) -> Result<u64> {
    let bad = |why: &str| Error::out_of_range(format!("bad count '{text}': {why}"));
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|&c| c != '_' && c != ',')
        .collect();
    let (number, scale) = match cleaned.char_indices().last() {
        Some((i, 'k' | 'K')) => (&cleaned[..i], 1e3),
        Some((i, 'M')) => (&cleaned[..i], 1e6),
        Some((i, 'G' | 'B')) => (&cleaned[..i], 1e9),
        _ => (cleaned.as_str(), 1.0),
    };
    if number.is_empty() {
        return Err(bad("no number"));
    }
    if let Ok(whole) = number.parse::<u64>() {
        return whole
            .checked_mul(scale as u64)
            .ok_or_else(|| bad("too large"));
    }
    let value: f64 = number
        .parse()
        .map_err(|_| bad("expected a number like 1000000, 1_000_000, 1e6 or 10M"))?;
    let value = value * scale;
    if !value.is_finite() || value < 0.0 {
        return Err(bad("must be a non-negative number"));
    }
    if value.fract() != 0.0 {
        return Err(bad("must be a whole number"));
    }
    if value >= u64::MAX as f64 {
        return Err(bad("too large"));
    }
    Ok(value as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_in_every_common_spelling() {
        for (text, want) in [
            ("1000000", 1_000_000),
            ("1_000_000", 1_000_000),
            ("1,000,000", 1_000_000),
            ("1e6", 1_000_000),
            ("2.5e6", 2_500_000),
            ("10M", 10_000_000),
            ("500k", 500_000),
            ("1.5k", 1_500),
            ("0", 0),
        ] {
            assert_eq!(parse_count(text).unwrap(), want, "{text}");
        }
        for text in ["", "ten", "1.5", "-3", "1e400", "M", "1e-3"] {
            let err = parse_count(text).unwrap_err().to_string();
            assert!(err.contains(&format!("'{text}'")), "{text}: {err}");
        }
    }

    #[test]
    fn names_are_found_leniently_and_typos_get_a_suggestion() {
        let known = [("fisher-yates", 1), ("sattolo", 2), ("naive-swap", 3)];
        assert_eq!(lookup("algorithm", "fisher-yates", &known).unwrap(), 1);
        assert_eq!(lookup("algorithm", "Fisher_Yates", &known).unwrap(), 1);
        assert_eq!(lookup("algorithm", "NAIVE-SWAP", &known).unwrap(), 3);
        let err = lookup("algorithm", "fisher-yate", &known)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("unknown algorithm 'fisher-yate': did you mean 'fisher-yates'?"),
            "{err}"
        );
        let err = lookup("algorithm", "bogo-sort", &known)
            .unwrap_err()
            .to_string();
        assert!(!err.contains("did you mean"), "{err}");
        assert!(
            err.contains("(known: fisher-yates, sattolo, naive-swap)"),
            "{err}"
        );
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn parses_names_and_parameters() {
        let p = NamedParams::parse("random-swap:k=100").unwrap();
        assert_eq!(p.name, "random-swap");
        assert_eq!(p.get::<u32>("k").unwrap(), Some(100));
        assert_eq!(p.get::<u32>("x").unwrap(), None);
        assert!(
            NamedParams::parse("fisher-yates")
                .unwrap()
                .params
                .is_empty()
        );
    }

    #[test]
    fn rejects_malformed_parameters() {
        assert!(NamedParams::parse(":k=1").is_err());
        assert!(NamedParams::parse("a:k").is_err());
        assert!(NamedParams::parse("a:k=1,k=2").is_err());
        let p = NamedParams::parse("a:k=x").unwrap();
        let err = p.get::<u32>("k").unwrap_err().to_string();
        assert!(err.contains("'x'"), "{err}");
        let err = p.only(&["sort"]).unwrap_err().to_string();
        assert!(err.contains("unknown parameter 'k'"), "{err}");
    }
}
