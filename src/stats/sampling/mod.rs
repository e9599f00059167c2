//! Tests of random samplers: k-of-N subsets (unordered and ordered) and
//! weighted picks.
//!
//! Every test takes plain counts, so whatever tallied the sampler's output
//! can feed it, and returns a [`SamplingTest`] (statistic, degrees of
//! freedom, log10 p, the cell that deviates most) or says why it cannot be
//! run ([`NotApplicable`]). Under the null every trial is an independent,
//! uniformly random k-subset (or k-arrangement) of the N items 0..N; the
//! tests look at it from different sides:
//!
//! | test | counts | catches | law |
//! |------|--------|---------|-----|
//! | [`inclusion()`] | C_i = trials including item i | some items in too often | χ²(N−1) |
//! | [`pairs()`] | P_ij = trials including both i and j | items that come together (or never do): systematic sampling | χ²(N(N−3)/2), independent of inclusion |
//! | [`subset()`] | counts of each of the C(N,k) subsets | anything, when C(N,k) is small | uniform over C(N,k) cells (sparse-safe) |
//! | [`order()`] | `S[s][v]` = trials with value v in slot s | an ordered sampler whose order is not uniform (sorted output) | χ²((k−1)(N−1)), beyond inclusion |
//! | [`weighted()`] | pick counts | picks not proportional to integer weights | Pearson χ²(df) with pooling, exact cumulants; a zero-weight pick is impossible (p = 0) |
//!
//! The first, second and fourth are *calibrated quadratic forms*: the cells
//! of one trial are dependent (a k-subset has exactly k items), so the
//! textbook Pearson sum is not χ²; each module derives the covariance of one
//! trial's indicator vector, finds the part it tests is a multiple of a
//! projection, and scales the squared norm of the projected deviations to a
//! χ²(df) law in the limit. Each statistic is exactly a degenerate
//! U-statistic over pairs of trials, whose first four cumulants [`law`]
//! computes exactly ([`pearson`] does the same for Pearson's statistic with
//! unequal probabilities, for weighted picks). The p-value comes from the
//! shifted gamma with the exact mean, variance and skewness, and a test
//! refuses ([`NotApplicable::TooFewTrials`], with the trials that would do)
//! until every cell expects [`MIN_EXPECTED`] counts and the fourth cumulant
//! is close to the law's ([`MAX_EXCESS_KURTOSIS`]): at five expected counts
//! the χ² law is off by 1.2–1.7× at 0.001 for pairs and weighted picks.
//!
//! `tests/calibration_samplers.rs` checks that the p-values of fair samplers
//! are uniform (KS, and the counts below 0.01 and 0.001) and that each test
//! catches the bias it is for; the module docs of [`law`] report 10⁶-audit
//! checks at the smallest trial counts the tests accept.

pub mod inclusion;
pub mod law;
pub mod order;
pub mod pairs;
pub mod pearson;
pub mod subset;
pub mod weighted;

pub use crate::subsets::{binomial, pair_index, subset_rank, subset_unrank};
pub use inclusion::inclusion;
pub use law::{MAX_EXCESS_KURTOSIS, NullLaw};
pub use order::order;
pub use pairs::pairs;
pub use subset::subset;
pub use weighted::weighted;

use super::gof::UniformTest;
use std::fmt;

/// Cells must expect at least this many counts before the calibrated
/// quadratic forms are judged by their χ² law (the crate's usual rule,
/// [`super::gof::MIN_EXPECTED`]).
pub const MIN_EXPECTED: f64 = super::gof::MIN_EXPECTED;

/// The largest Cantelli bound used as a p-value ([`Method::Cantelli`]): a
/// bound this small rejects at the levels verdicts are usually taken at; a
/// larger one says nothing, and the test is refused instead. A bounded
/// test never counts towards "the run could have seen a bias" (its power
/// is not that of the calibrated test).
pub const CANTELLI_DECISIVE: f64 = 1e-4;

/// log10 of Cantelli's one-sided bound P(X − E ≥ t) ≤ Var / (Var + t²) for
/// `statistic` = E + t; 0 (p ≤ 1) when the statistic is not above its mean.
pub fn cantelli_log10(statistic: f64, law: &NullLaw) -> f64 {
    let t = statistic - law.mean;
    if t <= 0.0 || law.variance <= 0.0 {
        return 0.0;
    }
    (law.variance / (law.variance + t * t)).log10()
}

/// The largest number of subsets ([`subset()`]) or cells tallied one by one.
pub const MAX_SUBSET_CELLS: u64 = 1_000_000;

/// The result of a sampler test.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingTest {
    /// The calibrated statistic (χ²(df) under the null, up to the method).
    pub statistic: f64,
    /// Degrees of freedom.
    pub df: f64,
    /// log10 of the p-value: finite far below 1e-300; `-inf` only for
    /// [`Method::Impossible`], where the p-value is exactly 0.
    pub log10_p: f64,
    /// How the p-value was obtained.
    pub method: Method,
    /// The smallest expected count of a cell: at least [`MIN_EXPECTED`] for
    /// the quadratic forms; for weighted picks the rarest item's before
    /// pooling; for [`Method::Uniform`] tables T / cells (sparse allowed).
    pub min_expected: f64,
    /// The cell that deviates most, in standard deviations; `None` when
    /// there is nothing to point at (no deviation at all, or no cells).
    pub largest: Option<Deviation>,
}

impl SamplingTest {
    /// The p-value (underflows to 0 for tiny values; see `log10_p`).
    pub fn p_value(&self) -> f64 {
        10f64.powf(self.log10_p)
    }

    /// One line saying how the p-value was obtained, for reports.
    pub fn describe(&self) -> String {
        match &self.method {
            Method::QuadraticForm { statistic, .. } => format!(
                "{statistic}; shifted-gamma law with its exact mean, variance and skewness (chi-square with {} df in the limit)",
                self.df
            ),
            Method::Pearson { pooled, .. } => format!(
                "Pearson chi-square against the weights{}; shifted-gamma law with its exact mean, variance and skewness (chi-square with {} df in the limit)",
                pooled_words(*pooled),
                self.df
            ),
            Method::Exact { pooled, groups } => format!(
                "Pearson chi-square against the weights{}; p exact over the counts of the {} \
                 rarest group{} (every count enumerated; the rest given their total by their \
                 shifted-gamma law), where the chi-square law's tail is not yet to be trusted",
                pooled_words(*pooled),
                groups,
                if *groups == 1 { "" } else { "s" }
            ),
            Method::Uniform(u) => u.describe(),
            Method::Cantelli { law, .. } => format!(
                "too few trials for the law's tail, but Cantelli's inequality bounds p by \
                 Var / (Var + (X - E)^2) with the exact mean {:.3} and variance {:.3}, whatever \
                 the law's shape",
                law.mean, law.variance
            ),
            Method::Impossible { picks, items } => format!(
                "{picks} picks of zero-weight items ({}): impossible for a correct sampler, p = 0",
                list(items)
            ),
        }
    }
}

/// ", N sparse items pooled into neighbours", or nothing when none were.
fn pooled_words(pooled: usize) -> String {
    if pooled > 0 {
        format!(", {pooled} sparse items pooled into neighbours (expected >= {MIN_EXPECTED})")
    } else {
        String::new()
    }
}

fn list(items: &[usize]) -> String {
    const SHOWN: usize = 5;
    let mut s: Vec<String> = items.iter().take(SHOWN).map(|i| i.to_string()).collect();
    if items.len() > SHOWN {
        s.push(format!("... {} in all", items.len()));
    }
    format!("item {}", s.join(", "))
}

/// How a sampler test's p-value was obtained.
#[derive(Debug, Clone, PartialEq)]
pub enum Method {
    /// A calibrated quadratic form (χ²(df) in the limit) judged by the
    /// shifted gamma with its exact mean, variance and skewness ([`law`]).
    QuadraticForm {
        /// What was summed, for reports.
        statistic: &'static str,
        /// The statistic's exact null cumulants at this T.
        law: NullLaw,
    },
    /// Pearson's goodness of fit against the weights, pooling neighbouring
    /// items (in index order) until each group expects [`MIN_EXPECTED`],
    /// judged by the shifted gamma with the statistic's exact first three
    /// cumulants ([`pearson`]).
    Pearson {
        /// How many items were merged into neighbours.
        pooled: usize,
        /// The statistic's exact null cumulants; `None` with a single
        /// positive weight (df = 0, nothing to test).
        law: Option<NullLaw>,
    },
    /// Pearson's goodness of fit against the weights, as
    /// [`Method::Pearson`], where its law's tail is not yet to be trusted
    /// (a rare item): the p-value is exact over the rarest groups, every
    /// count of theirs enumerated, the others given their total judged by
    /// their own shaped law ([`crate::stats::pearson_tail`]).
    Exact {
        /// How many items were merged into neighbours.
        pooled: usize,
        /// How many groups were enumerated.
        groups: usize,
    },
    /// A table of equally likely cells judged by [`super::gof::uniform`]
    /// (χ² when dense, collisions when sparse).
    Uniform(UniformTest),
    /// Too few trials for the fitted law's tail, but a departure so large
    /// that Cantelli's inequality, which holds for any law with the
    /// statistic's exact mean and variance, already bounds the p-value
    /// below [`CANTELLI_DECISIVE`]: `p ≤ Var / (Var + (X − E)²)`. A bound,
    /// used only when it is decisive.
    Cantelli {
        /// The statistic's exact null cumulants at this T.
        law: NullLaw,
        /// The trials from which the test runs in full (by its law or
        /// exactly).
        needed: u64,
    },
    /// The sampler produced an outcome of probability 0 under the null (a
    /// zero-weight item was picked): certain rejection, p = 0,
    /// `log10_p = -inf`, statistic `+inf`.
    Impossible {
        /// How many such picks.
        picks: u64,
        /// Which items (ascending).
        items: Vec<usize>,
    },
}

/// Where a deviation is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SampleCell {
    /// Item i (inclusion, weighted picks).
    Item(usize),
    /// The pair of items i < j.
    Pair(usize, usize),
    /// A whole subset (ascending items).
    Subset(Vec<usize>),
    /// Value `value` in slot `slot` of an ordered sample.
    Slot {
        /// Position in the sample, 0..k.
        slot: usize,
        /// The item.
        value: usize,
    },
}

impl SampleCell {
    /// The same cell with its items numbered from `first` (as an input
    /// that writes items 1..N names them); slots keep their numbers.
    pub fn numbered_from(&self, first: usize) -> SampleCell {
        match self {
            SampleCell::Item(i) => SampleCell::Item(i + first),
            SampleCell::Pair(i, j) => SampleCell::Pair(i + first, j + first),
            SampleCell::Subset(items) => {
                SampleCell::Subset(items.iter().map(|i| i + first).collect())
            }
            SampleCell::Slot { slot, value } => SampleCell::Slot {
                slot: *slot,
                value: value + first,
            },
        }
    }
}

impl fmt::Display for SampleCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleCell::Item(i) => write!(f, "item {i}"),
            SampleCell::Pair(i, j) => write!(f, "pair ({i}, {j})"),
            SampleCell::Subset(items) => {
                let items: Vec<String> = items.iter().map(|i| i.to_string()).collect();
                write!(f, "subset {{{}}}", items.join(", "))
            }
            SampleCell::Slot { slot, value } => write!(f, "item {value} in slot {slot}"),
        }
    }
}

/// The cell that deviates most from its expectation.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Deviation {
    /// Which cell.
    pub cell: SampleCell,
    /// Its count.
    pub observed: u64,
    /// Its expected count (see each test for what it is conditioned on).
    pub expected: f64,
    /// (observed − expected) / (its standard deviation under the null).
    pub z: f64,
}

impl Deviation {
    /// O/E: above 1 too often, below 1 too rarely (NaN when nothing is
    /// expected).
    pub fn ratio(&self) -> f64 {
        self.observed as f64 / self.expected
    }
}

/// Why a test cannot be run on these counts.
#[derive(Debug, Clone, PartialEq)]
pub enum NotApplicable {
    /// No trials were counted.
    NoTrials,
    /// The test has nothing to test at this N and k; `why` says what.
    Degenerate {
        /// The reason, for reports.
        why: &'static str,
    },
    /// Too few trials for the law of the statistic: a cell expects fewer
    /// than [`MIN_EXPECTED`] counts, or the statistic's tails are not yet
    /// close enough to the law's ([`MAX_EXCESS_KURTOSIS`]).
    TooFewTrials {
        /// The smallest expected count of a cell.
        min_expected: f64,
        /// The statistic's exact excess kurtosis beyond its law's
        /// ([`NullLaw::excess_kurtosis`]); `None` where no law was fitted
        /// (every item pooled into one group).
        excess_kurtosis: Option<f64>,
        /// Trials that would satisfy both conditions.
        needed: u64,
    },
    /// More subsets than [`MAX_SUBSET_CELLS`] to count one by one.
    TooManyCells {
        /// C(N, k), or `None` when it overflows 64 bits.
        cells: Option<u64>,
    },
}

impl fmt::Display for NotApplicable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotApplicable::NoTrials => write!(f, "no trials counted"),
            NotApplicable::Degenerate { why } => write!(f, "nothing to test: {why}"),
            NotApplicable::TooFewTrials {
                min_expected,
                excess_kurtosis,
                needed,
            } => {
                write!(f, "too few trials: ")?;
                match excess_kurtosis {
                    _ if *min_expected < MIN_EXPECTED => write!(
                        f,
                        "a cell expects {min_expected:.2} counts where the law needs {MIN_EXPECTED}"
                    )?,
                    Some(excess) => write!(
                        f,
                        "the statistic's tails are not yet those of its law (excess kurtosis \
                         {excess:.3}, at most {MAX_EXCESS_KURTOSIS})"
                    )?,
                    None => write!(
                        f,
                        "every item pools into one group, leaving nothing to compare"
                    )?,
                }
                write!(f, "; {} trials would do", crate::format::thousands(*needed))
            }
            NotApplicable::TooManyCells { cells } => match cells {
                Some(c) => write!(
                    f,
                    "{c} subsets, more than the {MAX_SUBSET_CELLS} that can be counted one by one"
                ),
                None => write!(f, "more than 2^64 subsets"),
            },
        }
    }
}

impl std::error::Error for NotApplicable {}

/// Keeps the larger |z| of `best` and a new candidate (ties: the first).
fn keep_largest(best: &mut Option<Deviation>, candidate: Deviation) {
    let better = match best {
        None => candidate.z != 0.0,
        Some(b) => candidate.z.abs() > b.z.abs(),
    };
    if better {
        *best = Some(candidate);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_exact_and_overflow_honestly() {
        assert_eq!(binomial(5, 2), Some(10));
        assert_eq!(binomial(52, 5), Some(2_598_960));
        assert_eq!(binomial(3, 4), Some(0));
        assert_eq!(binomial(10, 0), Some(1));
        assert_eq!(binomial(67, 33), Some(14_226_520_737_620_288_370));
        assert_eq!(binomial(68, 34), None);
    }
}
