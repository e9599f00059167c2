//! The statistical tests an audit can run, by name: the one list that
//! experiment files are validated against and that reports describe.
//!
//! A new test (whole-permutation, structure, ...) adds one entry here; the
//! experiment parser then accepts its name in `tests = [...]` and the report's
//! method section explains it.

/// What a report and an experiment file need to know about one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestInfo {
    /// The name used in experiment files (`tests = ["position-value"]`).
    pub name: &'static str,
    /// A short human title for tables.
    pub title: &'static str,
    /// What the test detects, and what it is blind to, in plain words.
    pub detects: &'static str,
}

/// The test every audit runs when an experiment does not choose.
pub const DEFAULT_TEST: &str = "position-value";

/// Every known test, in the order reports list them.
pub const TESTS: &[TestInfo] = &[TestInfo {
    name: "position-value",
    title: "position-by-value χ²",
    detects: "Does every value land at every position equally often? It compares the n × n \
              table of counts (position by value) with the T/n expected in every cell. It \
              catches any bias in the marginals, i.e. in where single values end up, such as \
              naive swaps favouring some positions or a modulo-biased generator. It is blind \
              to bias that leaves the marginals uniform: a uniform rotation puts every value \
              everywhere equally often yet produces only n of the n! orderings.",
}];

/// The entry for `name`, if it is a known test.
pub fn find(name: &str) -> Option<&'static TestInfo> {
    TESTS.iter().find(|t| t.name == name)
}

/// The known test names, comma-separated, for error messages.
pub fn known_names() -> String {
    TESTS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_test_is_known_and_names_are_unique() {
        assert!(find(DEFAULT_TEST).is_some());
        assert!(find("runs-up").is_none());
        for (i, a) in TESTS.iter().enumerate() {
            assert!(
                TESTS[i + 1..].iter().all(|b| b.name != a.name),
                "{}",
                a.name
            );
        }
        assert!(known_names().contains("position-value"));
    }
}
