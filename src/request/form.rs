//! A request as a form gives it: text fields, each read as the command
//! line reads the same flag (`1e6`, `1_000_000`, `0.1,0.9`), an empty one
//! left to the library's default. What the page (and any front made of
//! text boxes) hands over; [`Form::request`] turns it into a [`Request`].

use super::{Holds, Request};
use crate::audit::Feed;
use crate::error::{Front, Opt, Result};
use crate::ingest::samples::Base;
use crate::params::items;
use crate::values::{parse_alpha, parse_k, parse_n, parse_seed, parse_trials_of};
use serde::Deserialize;

/// What a form asks of an outside subject drawn by the user's own code, as
/// text; an empty field takes the library's default (the trials n needs,
/// the default seed).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Form {
    /// What each draw holds: `deck`, `sample`, `ordered` or `pick`.
    pub holds: String,
    /// The subject's name in the outputs.
    pub name: String,
    /// Where the draws come from, in a phrase (`shuffled in the browser by
    /// a JavaScript function on Math.random`).
    pub from: String,
    /// Items per deck, or the population sampled.
    pub n: String,
    /// Items per sample.
    pub k: String,
    /// Trials; empty for the default n needs.
    pub trials: String,
    /// The trial budget of a sequential audit (`until_decisive`); empty
    /// for the library's default.
    pub max_trials: String,
    /// The seed of the user's generator, which the report states.
    pub seed: String,
    /// A weighted pick's weights: whole numbers or proportions, separated
    /// by commas.
    pub weights: String,
    /// How samples and picks number their items: `0` or `1`; empty lets
    /// the draws decide.
    pub base: String,
    /// The level the verdict is judged at (`0.001`, `1e-4`); empty for the
    /// library's default.
    pub alpha: String,
    /// The tests to run, comma-separated, `all` or `default`; empty for
    /// the default battery.
    pub tests: String,
    /// How a deck's items fall into categories (`cards`, a file's
    /// labels); empty for none.
    pub categories: String,
    /// A deck whose items may repeat, handed to the user's function
    /// (`shoe:decks=6`, `cards`, `AABB`: what `--deck` takes), each
    /// deck it returns written as item indices of it; empty for the
    /// items 0..n-1.
    pub deck: String,
    /// The starting order of decks given whole, items separated by commas
    /// or spaces (what `--order` takes); empty for ascending.
    pub order: String,
    /// Whether the draws were made before the call and are handed over
    /// whole (JavaScript's `auditOrders`): read as the command line reads
    /// a file (every draw unless trials are given; a deck's tests decided
    /// by what its decks hold), not drawn by the user's function.
    pub given: bool,
}

/// The field's text, or `None` when it is empty.
fn given(text: &str) -> Option<&str> {
    Some(text.trim()).filter(|t| !t.is_empty())
}

impl Form {
    /// The request the form makes, asked by `front` (whose spelling every
    /// message uses); a field that does not read is refused naming it.
    pub fn request(&self, front: Front) -> Result<Request> {
        let holds = Holds::parse(given(&self.holds).unwrap_or("deck"))?;
        let n = given(&self.n).map(parse_n).transpose()?;
        let k = given(&self.k).map(parse_k).transpose()?;
        let trials = given(&self.trials)
            .map(|t| parse_trials_of(t, Opt::Trials))
            .transpose()?;
        let max_trials = given(&self.max_trials)
            .map(|t| parse_trials_of(t, Opt::MaxTrials))
            .transpose()?;
        let seed = given(&self.seed).map(parse_seed).transpose()?;
        let base = given(&self.base)
            .map(|b| Base::parse(b, front))
            .transpose()?;
        let alpha = given(&self.alpha).map(parse_alpha).transpose()?;
        Ok(Request {
            front,
            feed: Some(if self.given {
                Feed::Given {
                    from: self.from.clone(),
                }
            } else {
                Feed::Drawn {
                    from: self.from.clone(),
                }
            }),
            holds: Some(holds),
            name: given(&self.name).map(str::to_string),
            n,
            k: if holds == Holds::Pick { None } else { k },
            trials,
            max_trials,
            seed,
            order: given(&self.order).map(|o| items(o).map(str::to_string).collect()),
            weights: given(&self.weights).map(str::to_string),
            base,
            alpha,
            tests: given(&self.tests).map(str::to_string),
            categories: given(&self.categories).map(str::to_string),
            deck: given(&self.deck).map(str::to_string),
            ..Request::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Opt;

    /// A deck of `n` drawn by the user's code, with `alpha` and `tests`.
    fn form(n: &str, alpha: &str, tests: &str) -> Form {
        Form {
            n: n.to_string(),
            alpha: alpha.to_string(),
            tests: tests.to_string(),
            ..Form::default()
        }
    }

    #[test]
    fn alpha_and_tests_reach_the_study_and_bad_ones_are_named() {
        let resolved = form("10", "1e-4", "position-value")
            .request(Front::JavaScript)
            .and_then(|r| r.resolve())
            .unwrap();
        assert_eq!(resolved.alpha, 1e-4);
        assert_eq!(
            resolved.audits[0].recorded()["tests"],
            serde_json::json!(["position-value"])
        );
        let e = form("10", "two", "")
            .request(Front::JavaScript)
            .unwrap_err();
        assert!(e.to_string().contains("'two'"), "{e}");
        let e = form("10", "", "no-such-test")
            .request(Front::JavaScript)
            .and_then(|r| r.resolve())
            .unwrap_err();
        assert!(e.to_string().contains("no-such-test"), "{e}");
    }

    #[test]
    fn counts_and_the_order_read_as_their_flags_and_bad_ones_are_named() {
        // The Python package hands its numbers over as text: a refusal
        // names the option and the value, as the command line's does.
        for (field, text, want) in [
            ("trials", "1.5", "bad trials '1.5': must be a whole number"),
            ("trials", "0", "trials must be at least 1 (got 0)"),
            ("max_trials", "-1", "bad max_trials '-1'"),
            ("n", "10.5", "bad n '10.5'"),
            ("seed", "-1", "bad seed '-1'"),
            (
                "seed",
                "18446744073709551616",
                "bad seed '18446744073709551616': too large",
            ),
        ] {
            let mut f = form("10", "", "");
            match field {
                "trials" => f.trials = text.into(),
                "max_trials" => f.max_trials = text.into(),
                "n" => f.n = text.into(),
                _ => f.seed = text.into(),
            }
            let e = f.request(Front::Python).unwrap_err().to_string();
            assert!(e.contains(want), "{field}={text}: {e}");
        }
        let f = Form {
            order: "5,4 3,2,1,0".into(),
            max_trials: "1e5".into(),
            ..form("6", "", "")
        };
        let request = f.request(Front::Python).unwrap();
        assert_eq!(request.order.unwrap(), ["5", "4", "3", "2", "1", "0"]);
        assert_eq!(request.max_trials, Some(100_000));
    }

    #[test]
    fn cards_for_a_functions_deck_not_of_52_are_refused_in_the_fronts_words() {
        // Once refused only while reading, in the command line's words
        // (`--categories cards: ...`), whatever the front.
        for (front, want) in [
            (
                Front::Python,
                "categories=cards: your function's decks hold the items 0..4",
            ),
            (
                Front::JavaScript,
                "categories: cards: your function's decks hold the items 0..4",
            ),
        ] {
            let f = Form {
                categories: "cards".into(),
                ..form("5", "", "")
            };
            let e = f.request(front).and_then(|r| r.resolve()).unwrap_err();
            assert!(e.to_string().starts_with(want), "{e}");
            assert!(e.to_string().contains("deck"), "{e}");
            // One line, no run of spaces (a string continuation once
            // lacked its backslash).
            assert!(!e.to_string().contains("  "), "{e}");
        }
        let f = Form {
            categories: "cards".into(),
            ..form("52", "", "")
        };
        assert!(f.request(Front::Python).and_then(|r| r.resolve()).is_ok());
    }

    #[test]
    fn decks_handed_over_follow_the_rule_of_decks_read() {
        // npm's auditOrders hands its decks over whole, as Python's
        // audit_orders and the command line's --input do: they say what
        // they hold, so categories = cards on a shoe of card labels and the
        // tests of decks are the reading's to decide, not refused as for a
        // function's decks of 0..n-1 (they once were, in npm only).
        let given = |tests: &str, categories: &str| Form {
            given: true,
            categories: categories.to_string(),
            ..form("104", "", tests)
        };
        for front in [Front::JavaScript, Front::Python] {
            for asked in [
                given("", "cards"),
                given("position-kind,adjacency", ""),
                given("position-kind", "cards"),
            ] {
                let resolved = asked.request(front).and_then(|r| r.resolve());
                let audit = &resolved.unwrap_or_else(|e| panic!("{asked:?}: {e}")).audits[0];
                assert!(
                    matches!(audit.feed(), Some(Feed::Given { .. })),
                    "{asked:?}"
                );
            }
        }
        // A function's decks are still 0..n-1: the same asks are refused.
        let drawn = |tests: &str, categories: &str| Form {
            given: false,
            ..given(tests, categories)
        };
        for asked in [drawn("", "cards"), drawn("position-kind,adjacency", "")] {
            let e = asked.request(Front::JavaScript).and_then(|r| r.resolve());
            assert!(e.is_err(), "{asked:?}");
        }
    }

    #[test]
    fn samples_of_more_items_than_the_population_are_refused_before_any_call() {
        // Python and npm once called the user's sampler, then blamed it for
        // returning fewer than k items.
        for (front, want) in [
            (
                Front::Python,
                "k=11: cannot take 11 distinct items of a population of n=10",
            ),
            (
                Front::JavaScript,
                "k: 11: cannot take 11 distinct items of a population of n: 10",
            ),
        ] {
            for holds in ["sample", "ordered"] {
                let e = Form {
                    holds: holds.to_string(),
                    k: "11".to_string(),
                    ..form("10", "", "")
                }
                .request(front)
                .and_then(|r| r.resolve())
                .unwrap_err();
                assert_eq!(e.option(), Some(Opt::K), "{e}");
                assert_eq!(e.to_string(), want);
            }
        }
        let ten = Form {
            holds: "sample".to_string(),
            k: "10".to_string(),
            ..form("10", "", "")
        };
        assert!(ten.request(Front::Python).and_then(|r| r.resolve()).is_ok());
    }

    #[test]
    fn a_bad_base_and_unreadable_categories_are_named_in_the_fronts_words() {
        // Both once said the command line's --base and --categories
        // whatever the front; npm, which reads no files, said only
        // "operation not supported on this platform".
        for (front, want) in [
            (
                Front::Python,
                "base='2': items are numbered from 0 or from 1",
            ),
            (Front::JavaScript, "base: '2': items are numbered"),
        ] {
            let e = Form {
                holds: "sample".to_string(),
                k: "3".to_string(),
                base: "2".to_string(),
                ..form("10", "", "")
            }
            .request(front)
            .unwrap_err();
            assert_eq!(e.option(), Some(Opt::Base), "{e}");
            assert!(e.to_string().starts_with(want), "{e}");
        }
        let nope = |given| Form {
            categories: "/no/such/dir/nope.csv".to_string(),
            given,
            ..form("10", "", "")
        };
        for given in [false, true] {
            let e = nope(given)
                .request(Front::Python)
                .and_then(|r| r.resolve())
                .unwrap_err();
            assert_eq!(e.option(), Some(Opt::Categories), "{e}");
            assert_eq!(
                e.to_string(),
                "categories=/no/such/dir/nope.csv: cannot read it (no such file)"
            );
            let e = nope(given)
                .request(Front::JavaScript)
                .and_then(|r| r.resolve())
                .unwrap_err();
            assert_eq!(e.option(), Some(Opt::Categories), "{e}");
            assert!(
                e.to_string().starts_with(
                    "categories: \"/no/such/dir/nope.csv\": JavaScript takes only categories: \
                     \"cards\""
                ),
                "{e}"
            );
        }
    }

    #[test]
    fn a_function_without_n_or_a_deck_is_refused_naming_both() {
        // A function's decks are made by the front: there is no input to
        // take n from (this once reached the engine with n = 0).
        for front in [Front::JavaScript, Front::Python] {
            let e = form("", "", "")
                .request(front)
                .and_then(|r| r.resolve())
                .unwrap_err();
            assert!(e.to_string().starts_with("n is needed"), "{e}");
            assert!(e.to_string().contains("shoe:decks=6"), "{e}");
        }
    }

    #[test]
    fn a_test_of_decks_for_a_function_of_plain_decks_is_refused_before_the_run() {
        // A function shuffling 0..n-1 has no repeated cards or categories:
        // these tests once ran, found nothing to compare and left the
        // audit inconclusive with no count that could help.
        for test in [
            "hand",
            "position-kind",
            "adjacency",
            "successor",
            "arrangement",
        ] {
            for front in [Front::JavaScript, Front::Python] {
                let e = form("8", "", test)
                    .request(front)
                    .and_then(|r| r.resolve())
                    .unwrap_err();
                assert!(e.to_string().contains("is a test of decks"), "{test}: {e}");
                assert!(e.to_string().contains("deck"), "{test}: {e}");
            }
        }
    }

    #[test]
    fn a_function_sampling_without_k_is_refused_naming_k() {
        // k once became 0 here, and the run failed later with "no samples
        // found"; picks hold one item and need no k.
        for holds in ["sample", "ordered"] {
            let e = Form {
                holds: holds.to_string(),
                ..form("10", "", "")
            }
            .request(Front::JavaScript)
            .and_then(|r| r.resolve())
            .unwrap_err();
            assert_eq!(e.option(), Some(Opt::K), "{e}");
            assert!(e.to_string().contains("need k,"), "{e}");
            assert!(e.to_string().contains("k: 6"), "{e}");
        }
        let picks = Form {
            holds: "pick".to_string(),
            weights: "1,2".to_string(),
            ..form("", "", "")
        };
        assert!(
            picks
                .request(Front::JavaScript)
                .and_then(|r| r.resolve())
                .is_ok()
        );
    }

    #[test]
    fn a_declared_shoe_is_handed_to_the_function_and_gets_the_order_tests() {
        // The page and the npm package hand a shoe's cards to the user's
        // shuffle: n is the shoe's, the order tests of repeated cards run,
        // the hand test does not (hands are not counted while reading).
        let shoe = |n: &str, deck: &str| Form {
            deck: deck.to_string(),
            ..form(n, "", "")
        };
        let resolved = shoe("", "shoe:decks=2")
            .request(Front::JavaScript)
            .and_then(|r| r.resolve())
            .unwrap();
        let audit = &resolved.audits[0];
        assert_eq!(audit.n(), 104);
        let tests = audit.recorded()["tests"].to_string();
        assert!(
            tests.contains("adjacency") && tests.contains("successor") && !tests.contains("hand"),
            "{tests}"
        );
        let e = shoe("52", "shoe:decks=2")
            .request(Front::JavaScript)
            .and_then(|r| r.resolve())
            .unwrap_err();
        assert!(e.to_string().contains("has 104 items"), "{e}");
        let e = shoe("", "shoe:decks=0")
            .request(Front::JavaScript)
            .and_then(|r| r.resolve())
            .unwrap_err();
        assert!(e.to_string().starts_with("deck 'shoe:decks=0'"), "{e}");
    }

    #[test]
    fn an_empty_list_of_tests_is_refused_naming_tests() {
        // What the npm package hands for tests: [] (a blank field is the
        // default).
        let e = form("10", "", ",")
            .request(Front::JavaScript)
            .and_then(|r| r.resolve())
            .unwrap_err();
        assert_eq!(e.option(), Some(Opt::Tests), "{e}");
        assert!(e.to_string().starts_with("tests names no test"), "{e}");
        assert!(
            form("10", "", "")
                .request(Front::JavaScript)
                .and_then(|r| r.resolve())
                .is_ok()
        );
    }
}
