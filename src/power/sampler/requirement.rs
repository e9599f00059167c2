//! Which tests a sampler audit runs, and how many trials each needs before
//! it runs at all: "trials for the approximation", kept apart from "trials
//! for power".
//!
//! The sampler tests refuse tables too sparse for their null law (fewer
//! than 5 expected per cell, or a fourth cumulant still far from the
//! law's) and say how many trials would do. Rather than restate those
//! rules, each test is asked on a table of one trial: its refusal names the
//! trials it needs, and its smallest expected count is then the count per
//! trial. The two tables of equally likely cells (inclusion at k = 1 or
//! N−1, and subsets) never refuse: below 5 expected per cell they are
//! judged by their collisions, so their figure is where every cell expects
//! 5, from which the χ² law the plan rests on holds.

use crate::format::thousands;
use crate::sampler::SampleTest;
use crate::sampler::Sampler;
use crate::sampler::tally::{MAX_PAIR_N, MAX_SUBSETS, SampleCounter, SampleTally};
use crate::stats::sampling::{self, MIN_EXPECTED, NotApplicable, SamplingTest};

/// What a test needs before it runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Requirement {
    /// Fewest trials from which the test runs with the law the plan assumes
    /// (see the module docs).
    pub runs_from: u64,
    /// The smallest expected count of a cell, per trial.
    pub per_trial: f64,
    /// Whether the test also runs below `runs_from`, judging a sparse table
    /// by its collisions.
    pub runs_sparse: bool,
}

/// A test's requirement, or why the audit does not run it.
pub(crate) type Standing = Result<Requirement, String>;

/// Every sampler test, in the audit's order, each with its requirement for
/// `sampler` on N = `n` items (with `weights` for a weighted pick), or why
/// the audit does not run it there. Also returns a tally of one trial,
/// which shows which counts the audit keeps.
pub(crate) fn audit_tests(
    sampler: Sampler,
    n: usize,
    weights: Option<&[u64]>,
) -> (Vec<(SampleTest, Standing)>, SampleTally) {
    let k = sampler.k() as usize;
    let mut counter = SampleCounter::new(n, k, sampler.is_ordered());
    let sample: Vec<u32> = match weights {
        Some(w) => vec![w.iter().position(|&x| x > 0).unwrap_or(0) as u32],
        None => (0..k as u32).collect(),
    };
    counter.count(&sample);
    let one = counter.finish();
    let weighted_only = "a weighted pick is audited by its picks test alone";
    let tests = super::SAMPLE_TESTS
        .iter()
        .map(|&test| {
            let requirement = match (test, weights) {
                (SampleTest::Picks, Some(w)) => picks(one.inclusion(), w),
                (SampleTest::Picks, None) => Err(
                    "the picks test is for weighted picks (weighted-prefix, alias, \
                     weighted-off-by-one)"
                        .to_string(),
                ),
                (_, Some(_)) => Err(weighted_only.to_string()),
                (SampleTest::Inclusion, None) => {
                    probe(sampling::inclusion(one.inclusion(), 1, k, 0))
                }
                (SampleTest::Pairs, None) => match one.pairs() {
                    Some(p) => probe(sampling::pairs(p, n, 1, k)),
                    None if k < 2 => Err("a sample of fewer than 2 items has no pairs".into()),
                    None => Err(format!("pair counts are kept for N up to {MAX_PAIR_N}")),
                },
                (SampleTest::Subsets, None) => match one.subsets() {
                    Some(s) => probe(sampling::subset(s, n, k, 0)),
                    None if k < 2 => Err(
                        "with 1 item per sample the subsets are the items (the inclusion test)"
                            .into(),
                    ),
                    None => Err(format!(
                        "C({n}, {k}) subsets are more than the {} counted one by one",
                        thousands(MAX_SUBSETS)
                    )),
                },
                (SampleTest::Order, None) => match one.slots() {
                    Some(s) => probe(sampling::order(s, n, k, 1)),
                    None if !sampler.is_ordered() => Err(format!(
                        "{} is not an ordered sampler: the order within its sample means \
                         nothing",
                        sampler.name()
                    )),
                    None => Err("a sample of fewer than 2 items has no order".into()),
                },
            };
            (test, requirement)
        })
        .collect();
    (tests, one)
}

/// The requirement a test states on a table of one trial.
fn probe(outcome: Result<SamplingTest, NotApplicable>) -> Standing {
    match outcome {
        Ok(t) => Ok(Requirement {
            runs_from: (MIN_EXPECTED / t.min_expected).ceil() as u64,
            per_trial: t.min_expected,
            runs_sparse: true,
        }),
        Err(NotApplicable::TooFewTrials {
            min_expected,
            needed,
            ..
        }) => Ok(Requirement {
            runs_from: needed,
            per_trial: min_expected,
            runs_sparse: false,
        }),
        Err(other) => Err(other.to_string()),
    }
}

/// The picks test's requirement: what it states on one pick, and at least
/// 5 expected picks of the rarest item (below, items pool and δ shrinks).
fn picks(one: &[u64], weights: &[u64]) -> Standing {
    let total: f64 = weights.iter().map(|&w| w as f64).sum();
    let rarest = weights
        .iter()
        .filter(|&&w| w > 0)
        .map(|&w| w as f64 / total)
        .fold(f64::INFINITY, f64::min);
    match sampling::weighted(one, weights) {
        Ok(_) => Err(
            "only one item has positive weight: nothing but zero-weight picks can be wrong".into(),
        ),
        Err(NotApplicable::TooFewTrials { needed, .. }) => Ok(Requirement {
            runs_from: needed.max((MIN_EXPECTED / rarest).ceil() as u64),
            per_trial: rarest,
            runs_sparse: false,
        }),
        Err(other) => Err(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tests_of(name: &str, n: usize, weights: Option<&[u64]>) -> Vec<(SampleTest, Standing)> {
        audit_tests(Sampler::parse(name).unwrap(), n, weights).0
    }

    #[test]
    fn each_test_states_its_own_minimum_or_why_it_does_not_run() {
        let t = tests_of("floyd:k=3", 10, None);
        let inclusion = t[0].1.clone().unwrap();
        // N = 10, k = 3: each item expects 0.3 per trial, so at least 17.
        assert_eq!(inclusion.per_trial, 0.3);
        assert!(inclusion.runs_from >= 17 && !inclusion.runs_sparse);
        // The test itself accepts exactly from there.
        let counts = vec![3 * inclusion.runs_from / 10; 10];
        assert!(sampling::inclusion(&counts, inclusion.runs_from, 3, 0).is_ok());
        let counts = vec![3 * (inclusion.runs_from - 1) / 10; 10];
        assert!(sampling::inclusion(&counts, inclusion.runs_from - 1, 3, 0).is_err());
        assert!(t[1].1.is_ok() && t[2].1.is_ok());
        let subsets = t[2].1.clone().unwrap();
        assert!(subsets.runs_sparse);
        assert_eq!(subsets.runs_from, 600); // 5 · C(10, 3)
        assert!(
            t[3].1
                .as_ref()
                .unwrap_err()
                .contains("not an ordered sampler")
        );
        assert!(t[4].1.as_ref().unwrap_err().contains("weighted picks"));
        // k = 1: the inclusion table is uniform and runs sparse; no pairs.
        let t = tests_of("floyd:k=1", 10, None);
        assert_eq!(t[0].1.clone().unwrap().runs_from, 50);
        assert!(t[1].1.as_ref().unwrap_err().contains("no pairs"));
        // k = N − 1: pairs are fixed by inclusion.
        let t = tests_of("floyd:k=4", 5, None);
        assert!(t[1].1.as_ref().unwrap_err().contains("nothing to test"));
        // An ordered sampler runs the order test.
        let t = tests_of("partial-fisher-yates:k=3", 6, None);
        assert!(t[3].1.clone().unwrap().runs_from >= 30);
    }

    #[test]
    fn weighted_picks_run_their_picks_test_alone() {
        let t = tests_of("alias", 4, Some(&[1, 2, 3, 94]));
        let picks = t[4].1.clone().unwrap();
        assert_eq!(picks.runs_from.max(500), picks.runs_from);
        assert!((picks.per_trial - 0.01).abs() < 1e-15);
        for (test, r) in &t[..4] {
            assert!(
                r.as_ref().unwrap_err().contains("picks test alone"),
                "{test}"
            );
        }
        let t = tests_of("alias", 3, Some(&[0, 5, 0]));
        assert!(t[4].1.as_ref().unwrap_err().contains("only one item"));
    }
}
