//! Which statistical tests an audit runs: named here, upstream of the engine
//! (which must know what to count) and of the statistics (which run them).

use crate::error::{Error, Result};
use crate::params::lookup;
use crate::permutation::Statistic;
use crate::tally::{Collect, DEFAULT_BINS};
use serde::Serialize;
use std::fmt;

/// One statistical test of an audit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestKind {
    /// Chi-square on the n×n position-by-value counts (calibrated).
    PositionValue,
    /// Chi-square goodness of fit of the n! permutation counts (n ≤ 10).
    Permutation,
    /// The number of fixed points against the rencontres law.
    FixedPoints,
    /// The number of cycles against the Stirling numbers of the first kind.
    Cycles,
    /// The number of rising sequences against the Eulerian numbers.
    RisingSequences,
    /// Each Lehmer-code digit against its uniform law (digit i on [0, i]);
    /// above [`LARGE_N`], the digits in bins of positions and of d/(i + 1)
    /// against their exact mean and covariance (`stats::order::lehmer`).
    Lehmer,
    /// Joint law of neighbouring Lehmer digits (i, i+1) for disjoint pairs.
    LehmerPairs,
    /// Decks with repeated items: chi-square on the n×m position-by-kind
    /// counts (calibrated, see `crate::deck::laws`).
    PositionKind,
    /// Decks with repeated items: the n!/∏n_k! arrangements equally likely
    /// (n ≤ 10).
    Arrangement,
    /// Decks with categories: position-by-category chi-square per column.
    PositionCategory,
    /// Decks with categories: the number of each category in the first h
    /// positions against the hypergeometric law.
    Hand,
    /// Decks with repeated items: which kind directly follows which (the
    /// K × K kind-after-kind table) against its exact mean and covariance
    /// ([`crate::stats::adjacency`]).
    Adjacency,
    /// Decks with repeated items and a known starting order: how many
    /// neighbours of the starting order (a card and the card that followed
    /// it) are neighbours again, against the exact mean and variance.
    Successor,
    /// How many neighbours of the starting order are still neighbours,
    /// against its exact law ([`Statistic::Clumping`]).
    Clumping,
    /// Whether each deal depends on the one before it, in the order made,
    /// given the run's own marginals: in disjoint triples (a, b, c) the
    /// positions where a matches b against those where it matches c, an
    /// exact sign test whatever the deals' law
    /// ([`crate::stats::sequence::serial`]).
    Serial,
    /// Repeated deals (the birthday test): pairs of identical deals against
    /// their law under a uniform shuffle, which catches small seed spaces.
    Birthday,
    /// The number of inversions (Kendall's τ with the starting order) in
    /// bins, against the Mahonian law: O(n log n) per shuffle, any n.
    Inversions,
    /// How far each value moved, |π(p) − p|, in bins of d/n, against its
    /// exact mean and covariance: O(n) per shuffle, any n.
    Displacement,
}

/// Items shuffled (or the population a sampler draws from) when neither
/// the command line, the experiment file nor an input says: small enough
/// that every test runs, whole permutations included. One value for the
/// library, `audit`, `power` and experiment files alike.
pub const DEFAULT_N: usize = 10;

/// Trials per audit when neither the command line nor the experiment file
/// (nor a file of decks) says.
pub const DEFAULT_TRIALS: u64 = 1_000_000;

/// The largest n for which whole permutations can be counted (10! counters
/// per worker, 29 MB).
pub const MAX_PERMUTATION_N: usize = 10;

/// The smallest n at which no test is another's twin
/// ([`TestKind::equivalences`]): where a list of tests is read when n is
/// known only from the input, to be freed of twins at the n read
/// ([`TestSet::at`]).
pub const FIRST_N_WITHOUT_TWINS: usize = 4;

/// The largest n for which the permutation test is on by default.
pub const DEFAULT_PERMUTATION_N: usize = 8;

/// Above this n an audit is "large" (a dataset's row order, a playlist):
/// the position-by-value matrix is counted in bins and the default tests
/// are those whose cost and memory grow at most as n log n per shuffle.
pub const LARGE_N: usize = 1024;

/// The bins per side of the position-by-value matrix at `n` unless chosen
/// (`--bins`): [`DEFAULT_BINS`] above [`LARGE_N`], else the full matrix
/// (`None`).
pub fn default_bins(n: usize) -> Option<usize> {
    (n > LARGE_N).then_some(DEFAULT_BINS.min(n))
}

/// The smallest n for which the birthday test is on by default: from
/// n = 13, n! (6.2e9) exceeds a 32-bit seed space (4.3e9), the smallest the
/// test is there to catch; below, repeated deals are common under any
/// shuffle and the permutation counts (n ≤ 10) hold the same information.
pub const DEFAULT_BIRTHDAY_N: usize = 13;

impl TestKind {
    /// Every test, in report order.
    pub const ALL: [TestKind; 12] = [
        TestKind::PositionValue,
        TestKind::Permutation,
        TestKind::FixedPoints,
        TestKind::Cycles,
        TestKind::RisingSequences,
        TestKind::Lehmer,
        TestKind::LehmerPairs,
        TestKind::Clumping,
        TestKind::Serial,
        TestKind::Birthday,
        TestKind::Inversions,
        TestKind::Displacement,
    ];

    /// The tests of decks (`--deck`, `--categories`), in report order: not
    /// in [`ALL`](Self::ALL), which are the tests of distinct items.
    pub const DECK: [TestKind; 6] = [
        TestKind::PositionKind,
        TestKind::Arrangement,
        TestKind::PositionCategory,
        TestKind::Hand,
        TestKind::Adjacency,
        TestKind::Successor,
    ];

    /// Whether the test is one of [`DECK`](Self::DECK).
    pub fn is_deck(self) -> bool {
        Self::DECK.contains(&self)
    }

    /// The name used on the command line and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            TestKind::PositionValue => "position-value",
            TestKind::Permutation => "permutation",
            TestKind::FixedPoints => "fixed-points",
            TestKind::Cycles => "cycles",
            TestKind::RisingSequences => "rising-sequences",
            TestKind::Lehmer => "lehmer",
            TestKind::LehmerPairs => "lehmer-pairs",
            TestKind::PositionKind => "position-kind",
            TestKind::Arrangement => "arrangement",
            TestKind::PositionCategory => "position-category",
            TestKind::Hand => "hand",
            TestKind::Adjacency => "adjacency",
            TestKind::Successor => "successor",
            TestKind::Clumping => "clumping",
            TestKind::Serial => "serial",
            TestKind::Birthday => "birthday",
            TestKind::Inversions => "inversions",
            TestKind::Displacement => "displacement",
        }
    }

    /// The test called `name` (leniently: case and `_`/`-` ignored), or an
    /// error suggesting the closest name.
    pub fn parse(name: &str) -> Result<TestKind> {
        let known: Vec<(&str, TestKind)> = TestKind::ALL
            .iter()
            .chain(&TestKind::DECK)
            .map(|k| (k.name(), *k))
            .collect();
        lookup("test", name, &known)
    }

    /// The per-permutation statistic the test compares with its uniform
    /// law, for the tests that count one.
    pub fn statistic(self) -> Option<Statistic> {
        match self {
            TestKind::Permutation => Some(Statistic::Permutation),
            TestKind::FixedPoints => Some(Statistic::FixedPoints),
            TestKind::Cycles => Some(Statistic::Cycles),
            TestKind::RisingSequences => Some(Statistic::RisingSequences),
            TestKind::Clumping => Some(Statistic::Clumping),
            _ => None,
        }
    }

    /// A short human title for tables and reports.
    pub fn title(self) -> &'static str {
        match self {
            TestKind::PositionValue => "position-by-value χ²",
            TestKind::Permutation => "whole-permutation test",
            TestKind::FixedPoints => "fixed points",
            TestKind::Cycles => "cycles",
            TestKind::RisingSequences => "rising sequences",
            TestKind::Lehmer => "Lehmer digits",
            TestKind::LehmerPairs => "Lehmer digit pairs",
            TestKind::PositionKind => "position-by-kind χ²",
            TestKind::Arrangement => "whole-arrangement test",
            TestKind::PositionCategory => "position-by-category χ²",
            TestKind::Hand => "hand composition",
            TestKind::Adjacency => "kind after kind",
            TestKind::Successor => "starting-order neighbours kept",
            TestKind::Clumping => "clumping (neighbours kept)",
            TestKind::Serial => "serial dependence",
            TestKind::Birthday => "repeated deals (birthday)",
            TestKind::Inversions => "inversions (Kendall's tau)",
            TestKind::Displacement => "displacement |pi(p) - p|",
        }
    }

    /// What the test catches that the others miss, in a sentence.
    pub fn description(self) -> &'static str {
        match self {
            TestKind::PositionValue => {
                "where each value lands: any bias in the marginals (naive swap, off-by-one, modulo bias)"
            }
            TestKind::Permutation => {
                "the whole law for n <= 10: sees every bias, including uniform-marginal ones (rotation, merge-comparator)"
            }
            TestKind::FixedPoints => {
                "how many values stay put: too few (sattolo has none) or too many (too few swaps)"
            }
            TestKind::Cycles => {
                "cycle structure: sattolo's single n-cycle, rotation's equal cycles, parity-like defects"
            }
            TestKind::RisingSequences => {
                "rising sequences: the signature of too few riffle shuffles and of insertion-like moves"
            }
            TestKind::Lehmer => {
                "each Lehmer digit (how many larger values precede position i): order structure at any n \
                 (binned above n = 1024)"
            }
            TestKind::LehmerPairs => {
                "pairs of neighbouring Lehmer digits: dependence between positions that marginals miss"
            }
            TestKind::PositionKind => {
                "decks with repeated items: where each kind lands (a shoe's card, a block list's letter)"
            }
            TestKind::Arrangement => {
                "decks with repeated items, n <= 10: every distinct arrangement equally likely"
            }
            TestKind::PositionCategory => {
                "where each category (suit, rank, colour, ...) lands, column by column"
            }
            TestKind::Hand => {
                "how many of each category the first h items hold, against the hypergeometric law"
            }
            TestKind::Adjacency => {
                "decks with repeated items: which kind directly follows which (a shoe's card after card), cut or not: too few riffles, clumps that survive"
            }
            TestKind::Successor => {
                "decks with repeated items: how often a card is followed again by the card that followed it in the starting order (new-deck order for cards): too few riffles of a stacked shoe"
            }
            TestKind::Clumping => {
                "neighbours of the starting order left side by side: too few riffles, local (window) shuffles"
            }
            TestKind::Serial => {
                "each deal against the one before, given the run's own marginals (lag 1 against lag 2): clock-seeded or incremental deals, reused state; positional bias alone is not its catch"
            }
            TestKind::Birthday => {
                "identical deals repeated too often: small seed spaces (32-bit seeds, clock seeds)"
            }
            TestKind::Inversions => {
                "how much of the starting order survives (inversions, Kendall's tau) at any n: too few swaps, buffer and window shuffles"
            }
            TestKind::Displacement => {
                "how far items move, |pi(p) - p| on the scale d/n, at any n: local shuffles (buffer, window, shard)"
            }
        }
    }
}

impl TestKind {
    /// The tests that are one and the same test at `n` (they split the n!
    /// permutations into the same classes, so their p-values coincide), as
    /// (dropped, kept) pairs in report order: counting them twice would make
    /// the Holm correction stricter for nothing.
    ///
    /// At n = 2 every test asks only how often the identity came up. At n = 3
    /// the fixed-point count (0, 1, 3) and the cycle count (1, 2, 3) name the
    /// same classes (3-cycles, transpositions, identity), and the one Lehmer
    /// pair (digits 1 and 2) is the whole permutation. The inversion count
    /// at n = 3 (0, 1, 2, 3) splits the permutations into four classes no
    /// other test has; the displacement histogram splits them alike, but its
    /// test sees only the histogram's mean (two df, not three), so both
    /// stay.
    /// (None from n = 4 on: `FIRST_N_WITHOUT_TWINS`.)
    pub fn equivalences(n: usize) -> Vec<(TestKind, TestKind)> {
        match n {
            2 => TestKind::ALL[1..]
                .iter()
                .filter(|&&t| t != TestKind::Serial)
                .map(|&t| (t, TestKind::PositionValue))
                .collect(),
            3 => vec![
                (TestKind::Cycles, TestKind::FixedPoints),
                (TestKind::LehmerPairs, TestKind::Permutation),
            ],
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for TestKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of tests to run, in report order.
///
/// A set chosen as "the default" or "all" remembers it, so that a run
/// whose n is only known once its input is read (permutations from a
/// file) can take the default (or every test) for that n (see
/// [`at`](Self::at)), and a deck its own forms of them
/// (`crate::deck::battery::tests_for`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestSet {
    kinds: Vec<TestKind>,
    default: bool,
    /// Chosen as `all`: every test that applies to the subject.
    all: bool,
    /// The bins per side of the position-by-value matrix (B < n), or
    /// `None` for the full matrix: [`default_bins`] unless chosen.
    bins: Option<usize>,
    /// The bins chosen (`--bins`), if any; B = n means the full matrix.
    chosen_bins: Option<usize>,
}

impl Serialize for TestSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.kinds.serialize(s)
    }
}

impl TestSet {
    /// Every test that makes sense at `n`: the permutation test only up to
    /// n = 8 (its cost grows as n!), the birthday test only from n = 13
    /// ([`DEFAULT_BIRTHDAY_N`]), inversions and displacement only above
    /// [`LARGE_N`] (below, the full matrix and the Lehmer digits see what
    /// they see), clumping never (opt-in: what it catches,
    /// runs left together, the position-value, rising-sequence and Lehmer
    /// tests mostly see too, and it costs about 5% of the default audit's
    /// speed), the rest always. Serial and birthday are on because nothing
    /// else can see what they catch (clock seeds, small seed spaces).
    pub fn default_for(n: usize) -> Self {
        let kinds = TestKind::ALL
            .into_iter()
            .filter(|&t| match t {
                TestKind::Permutation => n <= DEFAULT_PERMUTATION_N,
                TestKind::Birthday => n >= DEFAULT_BIRTHDAY_N,
                TestKind::Clumping => false,
                TestKind::Inversions | TestKind::Displacement => n > LARGE_N,
                _ => true,
            })
            .collect();
        Self {
            default: true,
            bins: default_bins(n),
            ..Self::of_kinds(kinds)
        }
        .without_equivalents(n)
    }

    /// The set counting the position-by-value matrix in `bins` bins per
    /// side at `n` (`bins = n`: the full matrix), or an error naming the
    /// value unless 2 ≤ bins ≤ n, or if a test of the set needs the full
    /// matrix.
    pub fn with_bins(mut self, bins: usize, n: usize) -> Result<Self> {
        self.chosen_bins = Some(bins);
        self.bins = (bins < n).then_some(bins);
        self.check(n)?;
        Ok(self)
    }

    /// `all`: every test of permutations that can run at `n` (the
    /// permutation test only up to [`MAX_PERMUTATION_N`]), each once; a
    /// deck adds its own tests to their deck forms
    /// (`crate::deck::battery::tests_for`).
    pub fn all_for(n: usize) -> Self {
        let kinds = TestKind::ALL
            .into_iter()
            .filter(|&t| t != TestKind::Permutation || n <= MAX_PERMUTATION_N)
            .collect();
        Self {
            all: true,
            bins: default_bins(n),
            ..Self::of_kinds(kinds)
        }
        .without_equivalents(n)
    }

    /// The set with `bins` chosen for an n known only once the input is
    /// read: resolved there by [`at`](Self::at) and checked against it by
    /// [`check`](Self::check) (not before, against an n it may not meet).
    pub fn choosing_bins(mut self, bins: usize) -> Self {
        self.chosen_bins = Some(bins);
        self
    }

    /// The bins per side of the position-by-value matrix (B < n), or
    /// `None` for the full matrix.
    pub fn bins(&self) -> Option<usize> {
        self.bins
    }

    /// The bins chosen (`--bins`, a `bins` key), if any.
    pub fn chosen_bins(&self) -> Option<usize> {
        self.chosen_bins
    }

    /// The bins at `n`: the chosen ones if they fit (B ≤ n), else the
    /// default (and [`check`](Self::check) refuses the chosen ones).
    fn bins_at(&self, n: usize) -> Option<usize> {
        match self.chosen_bins {
            Some(b) if b <= n => (b < n).then_some(b),
            _ => default_bins(n),
        }
    }

    /// The set to run at `n`: the default (or every test) for `n` if this
    /// set was chosen as the default (or `all`) for another or an unknown
    /// n, else this set itself.
    pub fn at(&self, n: usize) -> Self {
        let mut set = if self.default {
            Self::default_for(n)
        } else if self.all {
            Self::all_for(n)
        } else {
            self.clone().without_equivalents(n)
        };
        set.bins = self.bins_at(n);
        set.chosen_bins = self.chosen_bins;
        set
    }

    /// The set with every test that is another test of the set at `n` (see
    /// [`TestKind::equivalences`]) removed, so that each is counted once.
    /// A test whose twin is absent stays.
    pub fn without_equivalents(mut self, n: usize) -> Self {
        let twins = TestKind::equivalences(n);
        let kept = self.kinds.clone();
        self.kinds.retain(|t| {
            !twins
                .iter()
                .any(|(dropped, keep)| dropped == t && kept.contains(keep))
        });
        self
    }

    /// The set of exactly `kinds` (in report order, each once), not a
    /// default: for decks, whose tests `crate::deck::battery` chooses.
    pub fn of_kinds(mut kinds: Vec<TestKind>) -> Self {
        kinds.sort();
        kinds.dedup();
        Self {
            kinds,
            default: false,
            all: false,
            bins: None,
            chosen_bins: None,
        }
    }

    /// Whether the set was chosen as "the default".
    pub fn is_default(&self) -> bool {
        self.default
    }

    /// Whether the set was chosen as `all`.
    pub fn is_all(&self) -> bool {
        self.all
    }

    /// Whether a deck runs its own tests for this set (the default, or
    /// `all`), rather than the deck forms of tests named one by one.
    pub fn takes_deck_tests(&self) -> bool {
        self.default || self.all
    }

    /// Only the position-by-value test (the fastest audit), on the full
    /// n×n matrix; [`at`](Self::at)`(n)` bins it as `--tests
    /// position-value` does above [`LARGE_N`] (the full matrix at n = 10^5
    /// would be 80 GB per worker).
    pub fn position_value() -> Self {
        Self::of_kinds(vec![TestKind::PositionValue])
    }

    /// Parses a comma-separated list of test names, or `all` / `default`,
    /// checking that each test is possible at `n`. `all` is every test
    /// that applies ([`all_for`](Self::all_for)), also with other names
    /// beside it.
    pub fn parse(text: &str, n: usize) -> Result<Self> {
        let text = text.trim();
        if text == "default" {
            return Ok(Self::default_for(n));
        }
        let mut tests = Vec::new();
        let mut all = false;
        for name in text.split(',').map(str::trim) {
            if name == "all" {
                all = true;
            } else {
                let or = |e: Error| Error::unknown_name(format!("{e}; or all, or default"));
                tests.push(TestKind::parse(name).map_err(or)?);
            }
        }
        if all {
            // A name beside `all` is one of its tests (or a twin, or a test
            // of decks, which `all` runs on a deck), unless it cannot run
            // at n: that is refused as when named alone.
            for &kind in &tests {
                Self::of_kinds(vec![kind]).check(n)?;
            }
            return Ok(Self::all_for(n));
        }
        let set = Self {
            bins: default_bins(n),
            ..Self::of_kinds(tests)
        }
        .without_equivalents(n);
        set.check(n)?;
        Ok(set)
    }

    /// Fails if a test in the set cannot run at `n`.
    pub fn check(&self, n: usize) -> Result<()> {
        if (self.contains(TestKind::Permutation) || self.contains(TestKind::Arrangement))
            && n > MAX_PERMUTATION_N
        {
            return Err(Error::too_costly(format!(
                "the permutation test needs n <= {MAX_PERMUTATION_N} (it keeps n! counters per \
                 thread; n = {n} would need {n}! of them): choose other tests"
            )));
        }
        if let Some(bins) = self.chosen_bins
            && !(2..=n).contains(&bins)
        {
            return Err(Error::out_of_range(format!(
                "{bins} bins are out of range: the bins must be between 2 and n = {n} \
                 (n means the full matrix)"
            )));
        }
        if let Some(bins) = self.bins
            && let Some(t) = self.iter().find(|t| t.is_deck())
        {
            return Err(Error::unsupported(format!(
                "the {t} test needs the full position-by-value matrix, not {bins} bins: \
                 leave the bins out (or give n of them)"
            )));
        }
        if self.kinds.is_empty() {
            return Err(Error::bad_input("no test selected"));
        }
        Ok(())
    }

    /// Whether `kind` is in the set.
    pub fn contains(&self, kind: TestKind) -> bool {
        self.kinds.contains(&kind)
    }

    /// The tests, in report order.
    pub fn iter(&self) -> impl Iterator<Item = TestKind> + '_ {
        self.kinds.iter().copied()
    }

    /// What a tally must collect for these tests at `n`: each test only
    /// what it needs. The Lehmer digits are counted in full (n² cells) up
    /// to [`LARGE_N`] and binned above (`crate::tally::OrderCounts::lehmer`).
    pub fn collect(&self, n: usize) -> Collect {
        let mut collect = Collect {
            bins: self.bins,
            ..Collect::default()
        };
        for kind in self.iter() {
            let part = &mut collect.structure;
            match kind {
                TestKind::PositionValue => {}
                TestKind::Permutation => collect.permutations = true,
                TestKind::FixedPoints => part.fixed_points = true,
                TestKind::Cycles => part.cycles = true,
                TestKind::RisingSequences => part.rising = true,
                TestKind::Lehmer if n > LARGE_N => collect.order.lehmer = true,
                TestKind::Lehmer => part.lehmer = true,
                TestKind::LehmerPairs => part.pairs = true,
                TestKind::Arrangement => collect.permutations = true,
                // Counted from the matrix, and the hands (see `Deck`).
                TestKind::PositionKind | TestKind::PositionCategory | TestKind::Hand => {}
                TestKind::Adjacency | TestKind::Successor => collect.adjacency = true,
                TestKind::Clumping => part.clumping = true,
                TestKind::Serial => collect.serial = true,
                TestKind::Birthday => collect.deals = true,
                TestKind::Inversions => collect.order.inversions = true,
                TestKind::Displacement => collect.order.displacement = true,
            }
        }
        collect
    }
}

impl fmt::Display for TestSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = self.kinds.iter().map(|t| t.name()).collect();
        f.write_str(&names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_every_test_that_can_run_at_n_and_follows_n() {
        let small = TestSet::parse("all", 10).unwrap();
        assert!(small.is_all() && small.contains(TestKind::Permutation));
        let large = TestSet::parse("all", 52).unwrap();
        assert!(large.is_all() && !large.contains(TestKind::Permutation));
        assert!(large.contains(TestKind::Clumping) && large.contains(TestKind::Displacement));
        // Chosen for an unknown n (read from a file), resolved at the n read.
        assert_eq!(large.at(8), TestSet::all_for(8));
        assert!(large.at(8).contains(TestKind::Permutation) && large.at(8).takes_deck_tests());
        // Twins and deck tests beside `all` are its own; what cannot run is refused.
        assert_eq!(
            TestSet::parse("all,cycles,hand", 3).unwrap(),
            TestSet::all_for(3)
        );
        assert!(TestSet::parse("all,permutation", 11).is_err());
    }

    #[test]
    fn no_test_has_a_twin_from_the_first_n_a_list_of_unknown_n_is_read_at() {
        for n in FIRST_N_WITHOUT_TWINS..12 {
            assert!(TestKind::equivalences(n).is_empty(), "n = {n}");
        }
        // Read for an unknown n, a list keeps every test; at n = 2 its
        // twins of position-value go.
        let list = TestSet::parse("position-value,cycles", FIRST_N_WITHOUT_TWINS).unwrap();
        assert!(list.at(10).contains(TestKind::Cycles));
        assert!(!list.at(2).contains(TestKind::Cycles));
    }

    #[test]
    fn defaults_depend_on_n() {
        assert!(TestSet::default_for(8).contains(TestKind::Permutation));
        assert!(!TestSet::default_for(9).contains(TestKind::Permutation));
        assert!(TestSet::default_for(52).contains(TestKind::Cycles));
        for large in [LARGE_N + 1, 1_000_000] {
            let set = TestSet::default_for(large);
            assert!(set.contains(TestKind::Inversions) && set.contains(TestKind::Displacement));
        }
        let at_limit = TestSet::default_for(LARGE_N);
        assert!(!at_limit.contains(TestKind::Inversions));
        assert!(!at_limit.contains(TestKind::Displacement));
        // Asked for, they run at any n >= 2 (at n = 2 alone: their twin,
        // position-value, is absent).
        let asked = TestSet::parse("inversions,displacement", 3).unwrap();
        assert_eq!(asked.to_string(), "inversions,displacement");
        assert_eq!(
            TestSet::parse("inversions", 2).unwrap().to_string(),
            "inversions"
        );
        assert_eq!(
            TestSet::parse("position-value,displacement", 2)
                .unwrap()
                .to_string(),
            "position-value"
        );
    }

    #[test]
    fn tests_that_coincide_at_small_n_are_counted_once() {
        let three = TestSet::default_for(3);
        assert!(three.contains(TestKind::FixedPoints) && !three.contains(TestKind::Cycles));
        assert!(three.contains(TestKind::Permutation) && !three.contains(TestKind::LehmerPairs));
        assert_eq!(TestSet::default_for(2).to_string(), "position-value,serial");
        // Alone, a test is kept even where it has a twin.
        assert_eq!(TestSet::parse("cycles", 3).unwrap().to_string(), "cycles");
        assert_eq!(TestSet::default_for(4).iter().count(), 8);
        assert!(!TestSet::default_for(52).contains(TestKind::Clumping));
        assert!(TestSet::default_for(52).contains(TestKind::Birthday));
        assert!(!TestSet::default_for(12).contains(TestKind::Birthday));
        assert!(TestSet::default_for(13).contains(TestKind::Birthday));
    }

    /// The equivalences are facts about the tests, checked by enumeration: at
    /// n = 3 both members of each pair split the 6 permutations alike.
    #[test]
    fn equivalences_hold_by_enumeration() {
        use crate::permutation::{self, StatisticScratch, unrank};
        let classes = |statistic: Statistic| -> Vec<usize> {
            let mut scratch = StatisticScratch::default();
            (0..6)
                .map(|r| statistic.value(&unrank(r, 3), &mut scratch))
                .collect()
        };
        let same_partition = |a: Vec<usize>, b: Vec<usize>| {
            (0..6).all(|i| (0..6).all(|j| (a[i] == a[j]) == (b[i] == b[j])))
        };
        let fixed = classes(Statistic::FixedPoints);
        assert!(same_partition(fixed.clone(), classes(Statistic::Cycles)));
        let rising = classes(Statistic::RisingSequences);
        assert!(!same_partition(fixed, rising), "rising sequences differ");
        let (mut words, mut tree) = (Vec::new(), Vec::new());
        let pairs: Vec<usize> = (0..6)
            .map(|r| {
                permutation::lehmer_digits(&unrank(r, 3), &mut words, &mut tree);
                (words[1] * 3 + words[2]) as usize
            })
            .collect();
        assert!(
            same_partition(pairs, (0..6).collect()),
            "digits 1, 2 give the permutation"
        );
        // Inversions: a partition of their own; displacement: the same one.
        let mut order = crate::tally::OrderScratch::default();
        let inversions: Vec<usize> = (0..6)
            .map(|r| crate::tally::inversions(&unrank(r, 3), &mut order) as usize)
            .collect();
        for statistic in Statistic::ALL {
            assert!(
                !same_partition(inversions.clone(), classes(statistic)),
                "{statistic:?}"
            );
        }
        let displacement: Vec<usize> = (0..6)
            .map(|r| {
                let a = unrank(r, 3);
                // The histogram of d, as base-4 digits.
                (0..3)
                    .map(|p| 4usize.pow((a[p] as usize).abs_diff(p) as u32))
                    .sum()
            })
            .collect();
        assert!(same_partition(inversions, displacement));
    }

    #[test]
    fn parses_lists_and_refuses_impossible_ones() {
        let set = TestSet::parse("cycles, position-value,cycles", 20).unwrap();
        assert_eq!(set.to_string(), "position-value,cycles");
        assert!(
            TestSet::parse("all", 10)
                .unwrap()
                .contains(TestKind::Permutation)
        );
        let err = TestSet::parse("permutation", 11).unwrap_err().to_string();
        assert!(err.contains("n <= 10"), "{err}");
        let err = TestSet::parse("runs", 5).unwrap_err().to_string();
        assert!(err.contains("'runs'"), "{err}");
    }
}
