//! Runs the selected tests on a tally and corrects them for multiplicity.

use super::gof::{self, Gof};
use super::multiple::holm_log10;
use super::order;
use super::position_value::PositionValueStats;
use super::pvalue::departure;
use super::result::TestResult;
use super::sequence::{self, SequenceTest};
use crate::spec::{TestKind, TestSet};
use crate::tally::{StructureCounts, Tally};
use rayon::prelude::*;

/// Runs every test in `tests` on `tally` (which must have collected what they
/// need) and fills in the Holm-adjusted p-values across them. `seed` drives
/// the Monte Carlo p-values of sparse small tables.
pub fn run(
    tally: &Tally,
    tests: &TestSet,
    position_value: &PositionValueStats,
    seed: u64,
) -> Vec<TestResult> {
    // The tests are independent: run side by side on the current pool
    // (the audit's, see `audit::run`), in order. At n = 10^6 their laws
    // (cycles, rising sequences, displacement) are most of the tail after
    // the counting.
    // Each on whichever worker takes it, in this thread's way of taking
    // tail p-values (`gof::with_shared_nulls`, where a caller sets it), so
    // that a p-value does not depend on the thread.
    let kinds: Vec<_> = tests.iter().collect();
    let shared = gof::shared_nulls();
    let mut results: Vec<TestResult> = kinds
        .par_iter()
        .map(|&kind| gof::with_nulls(shared, || run_one(kind, tally, position_value, seed)))
        .collect();
    correct(&mut results);
    results
}

/// Fills in the Holm-adjusted p-values across `results` (one audit's
/// tests) and each one's departure.
pub fn correct(results: &mut [TestResult]) {
    let raw: Vec<f64> = results.iter().map(|r| r.log10_p).collect();
    for (r, adjusted) in results.iter_mut().zip(holm_log10(&raw)) {
        r.log10_p_holm = adjusted;
        // A statistic without a chi-square form keeps its own.
        if r.df > 0.0 {
            r.departure = departure(r.statistic, r.df);
        }
    }
}

fn run_one(kind: TestKind, tally: &Tally, pv: &PositionValueStats, seed: u64) -> TestResult {
    let structure = || {
        tally
            .structure()
            .expect("the tally collected structure counts for these tests")
    };
    match kind {
        TestKind::PositionValue => TestResult {
            parts: None,
            df_at_most: None,
            test: kind,
            statistic: pv.statistic,
            df: pv.df,
            log10_p: pv.log10_p(),
            log10_p_holm: pv.log10_p(),
            departure: 0.0,
            method: if tally.binning().is_identity() {
                "chi-square on Q = ((n-1)/n) sum (O-E)^2/E, df (n-1)^2".into()
            } else {
                "chi-square on Q = ((n-1)/n) sum (O-E)^2/E over B x B bins (E = T a b / n for \
                 a positions by b values), df (B-1)^2"
                    .into()
            },
        },
        TestKind::Permutation => {
            let counts = tally
                .permutations()
                .expect("the tally collected permutation counts");
            permutation_test(kind, counts, seed)
        }
        TestKind::FixedPoints
        | TestKind::Cycles
        | TestKind::RisingSequences
        | TestKind::Clumping => statistic_test(kind, tally),
        TestKind::Serial => {
            let counts = tally.serial().expect("the tally collected serial counts");
            from_sequence(kind, sequence::serial(counts, "value"))
        }
        TestKind::Birthday => {
            let sample = tally.deals().expect("the tally kept a sample of deals");
            from_sequence(kind, sequence::birthday(sample, tally.n()))
        }
        TestKind::Inversions => {
            let counts = tally.order().expect("the tally collected order counts");
            let (g, what) = order::inversions(counts, tally.n());
            from_gof_described(kind, g, what)
        }
        TestKind::Displacement => {
            let counts = tally.order().expect("the tally collected order counts");
            from_wald(kind, order::displacement(counts, tally.n(), tally.trials()))
        }
        TestKind::Lehmer => match tally.order().filter(|o| !o.lehmer.is_empty()) {
            // Above `spec::LARGE_N` the digits are counted in bins.
            Some(counts) => from_wald(kind, order::lehmer(counts, tally.n(), tally.trials())),
            None => from_gof(
                kind,
                lehmer_digits(structure(), tally.n()),
                "each digit i uniform on [0, i], digits independent (chi-squares summed)",
            ),
        },
        TestKind::LehmerPairs => from_gof(
            kind,
            lehmer_pairs(structure()),
            "digit pairs (i, i+1) uniform on their (i+1)(i+2) cells (chi-squares summed)",
        ),
        // A deck's tests need the deck: `crate::deck::battery` runs them.
        TestKind::PositionKind
        | TestKind::Arrangement
        | TestKind::PositionCategory
        | TestKind::Hand
        | TestKind::Adjacency
        | TestKind::Successor => TestResult {
            parts: None,
            df_at_most: None,
            test: kind,
            statistic: 0.0,
            df: 0.0,
            log10_p: 0.0,
            log10_p_holm: 0.0,
            departure: 0.0,
            method: "not run: a deck test needs --deck or --categories".into(),
        },
    }
}

/// A structure statistic's histogram against its uniform law.
fn statistic_test(kind: TestKind, tally: &Tally) -> TestResult {
    let statistic = kind
        .statistic()
        .expect("a structure test counts a statistic");
    let counts = tally
        .histogram(statistic)
        .expect("the tally collected structure counts for these tests");
    let law = statistic.uniform_law(tally.n());
    from_gof(kind, gof::chi_square(counts, &law), statistic.law_name())
}

fn from_gof(test: TestKind, g: Gof, law: &str) -> TestResult {
    from_gof_described(test, g, format!("chi-square against the {law}"))
}

/// A goodness-of-fit result with `what` saying what was tested, and any
/// pooling.
fn from_gof_described(test: TestKind, g: Gof, what: String) -> TestResult {
    let pooling = if g.pooled > 0 {
        format!(
            "; {} sparse categories pooled into neighbours (expected >= {})",
            g.pooled,
            gof::MIN_EXPECTED
        )
    } else {
        String::new()
    };
    TestResult {
        parts: None,
        df_at_most: (g.pooled > 0).then_some(g.df + g.pooled as f64),
        test,
        statistic: g.statistic,
        df: g.df,
        log10_p: g.log10_p,
        log10_p_holm: g.log10_p,
        departure: 0.0,
        method: format!("{what}{pooling}; {}", g.describe()),
    }
}

/// The digits' marginal tests, summed (independent under the null; only the
/// parts' laws are used, so no part needs its own tail Monte Carlo). Digit 0
/// is always 0 and carries no information.
fn lehmer_digits(s: &StructureCounts, n: usize) -> Gof {
    let parts: Vec<Gof> = (1..n)
        .map(|i| {
            let counts = &s.lehmer[i * n..i * n + i + 1];
            gof::chi_square_by_law(counts, &vec![1.0 / (i + 1) as f64; i + 1])
        })
        .collect();
    gof::combine(&parts)
}

/// The neighbouring pairs' joint tests, summed (disjoint pairs of independent
/// digits are independent under the null).
fn lehmer_pairs(s: &StructureCounts) -> Gof {
    let parts: Vec<Gof> = s
        .pairs
        .iter()
        .map(|pair| {
            let cells = pair.counts.len();
            gof::chi_square_by_law(&pair.counts, &vec![1.0 / cells as f64; cells])
        })
        .collect();
    gof::combine(&parts)
}

fn from_wald(test: TestKind, (w, method): (order::Wald, String)) -> TestResult {
    TestResult {
        parts: None,
        df_at_most: None,
        test,
        statistic: w.statistic,
        df: w.df as f64,
        log10_p: w.log10_p,
        log10_p_holm: w.log10_p,
        departure: 0.0,
        method,
    }
}

fn from_sequence(test: TestKind, t: SequenceTest) -> TestResult {
    TestResult {
        parts: None,
        df_at_most: None,
        test,
        statistic: t.statistic,
        df: t.df,
        log10_p: t.log10_p,
        log10_p_holm: t.log10_p,
        departure: t.departure,
        method: t.method,
    }
}

fn permutation_test(test: TestKind, counts: &[u64], seed: u64) -> TestResult {
    let u = gof::uniform(counts, seed);
    TestResult {
        parts: None,
        df_at_most: None,
        test,
        statistic: u.statistic,
        df: u.df,
        log10_p: u.log10_p,
        log10_p_holm: u.log10_p,
        departure: 0.0,
        method: u.describe(),
    }
}

#[cfg(test)]
mod tests {
    use super::gof;
    use crate::algorithm::Algorithm;
    use crate::audit::{Kind, Spec, no_progress, tested};
    use crate::pacing::in_pool;
    use crate::shuffle::{ShuffleOptions, Shuffles};
    use crate::source::SourceSpec;
    use crate::spec::TestSet;
    use crate::tally::Tally;

    /// The tests run side by side take their tail p-values as the calling
    /// thread does, on whichever worker runs them: a power simulation's
    /// audits (shared null samples) judged on 4 workers as on 1. Before,
    /// a test run on another worker took its own Monte Carlo instead, and
    /// a plan's simulated detections changed from run to run.
    #[test]
    fn tests_on_other_workers_take_the_callers_p_values() {
        fn p_values(
            threads: usize,
            shared: bool,
            spec: &Spec<Shuffles>,
            tally: &Tally,
        ) -> Vec<f64> {
            let judge = || tested(spec, tally).results;
            let results = in_pool(Some(threads), || gof::with_nulls(shared, judge));
            let results = results.expect("a pool");
            results.iter().map(|r| r.log10_p).collect()
        }
        let mut modes_differ = 0;
        for seed in 0..6 {
            // A sparse table at 39 trials, near a plan's detection rate.
            let spec = Spec::<Shuffles> {
                options: ShuffleOptions::with_tests(TestSet::default_for(10)),
                ..Spec::new(Algorithm::InsertLast, 10, 39, SourceSpec::default(), seed)
            };
            let tally = Shuffles::count(&spec, spec.chunks(), &no_progress).expect("a run");
            let shared = p_values(1, true, &spec, &tally);
            assert_eq!(p_values(4, true, &spec, &tally), shared, "seed {seed}");
            modes_differ += usize::from(p_values(1, false, &spec, &tally) != shared);
        }
        // Else this test could not tell the two ways apart.
        assert!(modes_differ > 0, "shared nulls changed no p-value");
    }
}
