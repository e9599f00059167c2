//! An audit: run one algorithm many times, test the counts, and judge the
//! result together with the other audits of the same run.

use crate::engine::{self, Progress, RunSpec};
use crate::error::{Error, Result};
use crate::kind::{self, Judged, Kind};
use crate::produce::{self, FeedReport, Produced};
use crate::spec::TestKind;
use crate::stats::{self, PositionValueStats, Sensitivity, TestResult, Verdict, battery};
use crate::subject::Shuffle;
use crate::tally::{Cells, Tally};
use crate::values::check_alpha;
use std::time::Instant;

pub use crate::kind::judge;
pub use crate::sequential::{Look, look_schedule};

/// The significance level used when none is given: strict, because a run
/// usually audits many algorithms and a false alarm is costly.
pub const DEFAULT_ALPHA: f64 = 0.001;

/// The seed used when none is given, so that a bare run is reproducible.
pub const DEFAULT_SEED: u64 = 20_261_121;

/// One finished audit: what was run, what was counted, what the test says.
#[derive(Debug, Clone)]
pub struct Audit {
    /// What was run.
    pub(crate) spec: RunSpec,
    /// Worker threads actually used.
    pub(crate) threads: usize,
    /// Wall-clock seconds for the shuffles and counting.
    pub(crate) seconds: f64,
    /// The counts.
    pub(crate) tally: Tally,
    /// The position-by-value test, with its descriptive figures.
    pub(crate) position_value: PositionValueStats,
    /// Every selected test, with p-values Holm-corrected across them.
    pub(crate) tests: Vec<TestResult>,
    /// The audit's own p-value (log10): the smallest Holm-adjusted p-value of
    /// its tests, i.e. the evidence of its most decisive test.
    pub(crate) log10_p: f64,
    /// The p-value the verdict compared with α (log10): `log10_p` after every
    /// further correction the run applied (Holm across the run's audits; for
    /// a sequential audit, Bonferroni over its looks and the run's audits).
    /// Every output shows this p next to the verdict.
    pub(crate) log10_p_adjusted: f64,
    /// What the run could have detected, at the level the verdict held each
    /// test to: the figure behind "no bias detected" and "inconclusive".
    pub(crate) sensitivity: Sensitivity,
    /// The verdict at the run's α, after every correction.
    pub(crate) verdict: Verdict,
    /// The looks of a sequential (`--until-decisive`) audit; empty otherwise.
    pub(crate) looks: Vec<Look>,
    /// The significance level the verdict was reached at (before any
    /// correction).
    pub(crate) alpha: f64,
    /// What an outside feed gave (decks read, items, workers); `None` for
    /// shuffles the engine ran.
    pub(crate) feed: Option<FeedReport>,
}

/// What an audit found, read through accessors so that fields can be added
/// without breaking a caller.
impl Audit {
    /// What was run: the algorithm, source, n, trials and seed.
    pub fn spec(&self) -> &RunSpec {
        &self.spec
    }

    /// Worker threads actually used.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Wall-clock seconds for the shuffles and counting.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The counts (position-by-value matrix and every statistic's tally).
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// The position-by-value test, with its descriptive figures.
    pub fn position_value(&self) -> &PositionValueStats {
        &self.position_value
    }

    /// Every selected test, with p-values Holm-corrected across them.
    pub fn tests(&self) -> &[TestResult] {
        &self.tests
    }

    /// The audit's own p-value (log10): its most decisive test's
    /// Holm-adjusted p, before corrections across the run.
    pub fn log10_p(&self) -> f64 {
        self.log10_p
    }

    /// The p-value the verdict compared with α (log10), after every
    /// correction the run applied; every output shows it next to the
    /// verdict.
    pub fn log10_p_adjusted(&self) -> f64 {
        self.log10_p_adjusted
    }

    /// What the run could have detected, at the level each test was held
    /// to: the figure behind "no bias detected" and "inconclusive".
    pub fn sensitivity(&self) -> &Sensitivity {
        &self.sensitivity
    }

    /// The verdict at the run's α, after every correction.
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    /// The looks of a sequential (`--until-decisive`) audit; empty otherwise.
    pub fn looks(&self) -> &[Look] {
        &self.looks
    }

    /// The significance level the verdict was reached at (before any
    /// correction).
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// What an outside feed gave (decks read, items, workers); `None` for
    /// shuffles the engine ran.
    pub fn feed(&self) -> Option<&FeedReport> {
        self.feed.as_ref()
    }
}

impl Audit {
    /// The test with the strongest evidence: the first of
    /// [`seen_by`](Self::seen_by) when the audit is biased (the test whose p
    /// decided the verdict), else the test with the smallest p. Tests are
    /// ordered by their raw p-value even below
    /// [`LOG10_P_FLOOR`](crate::stats::pvalue::LOG10_P_FLOOR), where it
    /// only ranks (see [`crate::stats::multiple::by_strength`]), so every
    /// output names the same test first.
    pub fn decisive(&self) -> &TestResult {
        stats::strongest(&self.tests).expect("an audit runs at least one test")
    }

    /// The tests that saw the bias: those that reject at the audit's level
    /// after every correction its verdict applied (Holm within the audit,
    /// then the run's correction of the audit's p, applied to each test's
    /// Holm-adjusted p), strongest evidence first (smallest raw p; see
    /// [`crate::stats::multiple::seen_by`]). Empty unless the verdict is
    /// biased. A bias is usually seen by several tests at once; the list
    /// says which, in an order that does not favour tests of few degrees of
    /// freedom (the naive swap's position-by-value test comes before its
    /// cycle count).
    pub fn seen_by(&self) -> Vec<&TestResult> {
        stats::seen_by(&self.tests, self.log10_p, self.log10_p_adjusted, self.alpha)
    }

    /// The result of test `kind`, if it was run.
    pub fn test(&self, kind: TestKind) -> Option<&TestResult> {
        self.tests.iter().find(|t| t.test == kind)
    }

    /// The matrix every per-cell output reads ([`cells`]).
    pub fn cells(&self) -> Cells<'_> {
        cells(&self.spec, &self.tally)
    }

    /// Shuffles per second achieved.
    pub fn shuffles_per_sec(&self) -> f64 {
        self.spec.trials as f64 / self.seconds.max(1e-9)
    }
}

/// The matrix of `tally` that a fair shuffle makes uniform, which every
/// per-cell output reads (heatmap, largest deviation, max |z|, TV,
/// counts.csv): position by kind for a deck whose items repeat, whose
/// numbered copies mean nothing, else the tally's own matrix.
pub fn cells<'a>(spec: &RunSpec, tally: &'a Tally) -> Cells<'a> {
    match &spec.deck {
        Some(deck) if deck.repeats() => Cells::by_kind(tally, deck.kind_of(), deck.kinds()),
        _ => Cells::of(tally),
    }
}

/// Runs one audit; its verdict is provisional (uncorrected) until
/// [`judge`] sees the whole run.
pub fn run(spec: &RunSpec, alpha: f64, progress: Progress<'_>) -> Result<Audit> {
    run_with(spec, alpha, || produce::produce(spec, progress))
}

/// [`run`] for a user's shuffle written in Rust (see
/// [`crate::custom`] for the friendlier front door).
pub fn run_shuffle<T: Shuffle>(
    spec: &RunSpec,
    shuffle: &T,
    alpha: f64,
    progress: Progress<'_>,
) -> Result<Audit> {
    run_with(spec, alpha, || {
        engine::run_shuffle(spec, shuffle, progress).map(|tally| Produced { tally, feed: None })
    })
}

/// Checks the request, produces the tally with `produce` (timed) and
/// evaluates it.
fn run_with(
    spec: &RunSpec,
    alpha: f64,
    produce: impl FnOnce() -> Result<Produced>,
) -> Result<Audit> {
    check_alpha(alpha)?;
    if spec.trials == 0 {
        return Err(Error::out_of_range("trials must be at least 1"));
    }
    stats::pearson_law::build_in_background();
    if spec.tests.at(spec.n).contains(TestKind::Cycles) {
        crate::permutation::laws::prepare_in_background(spec.n);
    }
    let start = Instant::now();
    let produced = produce()?;
    let seconds = start.elapsed().as_secs_f64();
    // Evaluated on the pool that counted: the tests' own parallel parts
    // (the birthday test's sort) use the threads the run was given.
    engine::in_pool(spec.threads, || of_produced(spec, produced, seconds, alpha))?
}

/// Audits decks the caller has already read with [`crate::ingest::read`]
/// (from a buffer or an array in memory rather than a file or a command, as
/// the Python package does), as decks read for `spec` from a file are
/// audited: decks whose labels repeat are that deck, without the hand test.
/// What was read is kept for the report, unless the decks came from the
/// caller's own shuffle function (`from_function`). The verdict is
/// provisional until [`judge`].
pub fn of_read(
    spec: &RunSpec,
    read: crate::ingest::Ingested,
    seconds: f64,
    alpha: f64,
    from_function: bool,
) -> Result<Audit> {
    check_alpha(alpha)?;
    let feed = FeedReport {
        decks: read.decks,
        stopped_early: read.stopped_early,
        asked: (spec.trials != engine::ALL_DECKS).then_some(spec.trials),
        items: read.items,
        workers: Vec::new(),
        sha256: None,
    };
    let produced = Produced {
        tally: read.tally,
        feed: Some(feed),
    };
    let mut audit = of_produced(spec, produced, seconds, alpha)?;
    if from_function {
        audit.feed = None;
    }
    Ok(audit)
}

/// Evaluates what was produced for `spec` in `seconds`, the deck of decks
/// read from outside decided by their items.
fn of_produced(spec: &RunSpec, produced: Produced, seconds: f64, alpha: f64) -> Result<Audit> {
    // Decks read with repeated items (a shoe printed by a program) are
    // known to be a deck only once read.
    let read_deck = match produced.feed.as_ref().filter(|_| spec.deck.is_none()) {
        None => None,
        Some(feed) => read_deck(spec, feed, produced.tally.n())?,
    };
    let spec = &match read_deck {
        Some(deck) => {
            let spec = spec.clone().with_deck(deck).0;
            // Hands are not counted while reading: no hand test.
            let tests = spec.tests.iter().filter(|&k| k != TestKind::Hand).collect();
            RunSpec {
                tests: crate::spec::TestSet::of_kinds(tests),
                ..spec
            }
        }
        None => spec.clone(),
    };
    let mut audit = evaluate(spec, produced.tally, seconds, alpha);
    audit.feed = produced.feed;
    Ok(audit)
}

/// The deck that decks read from outside turn out to be: a multiset when
/// their items repeat (a shoe printed by a program), with the category
/// columns asked for (`--categories`), which need the items' names; `None`
/// for distinct items and no categories. Hands are not counted while
/// reading, so the hand test is left out (the deck's label says so).
fn read_deck(spec: &RunSpec, feed: &FeedReport, n: usize) -> Result<Option<crate::deck::Deck>> {
    let labels: Vec<String> = (0..n).map(|i| feed.items.label(i)).collect();
    let categories = match &spec.subject {
        crate::subject::Subject::Outside(outside) => outside.categories.as_deref(),
        crate::subject::Subject::Builtin(_) => None,
    };
    let repeated = match &feed.items {
        crate::ingest::Items::Labels(labels) => crate::deck::Deck::from_labels(labels),
        crate::ingest::Items::Numeric { .. } => None,
    };
    let Some(source) = categories else {
        return Ok(repeated);
    };
    let deck = repeated.unwrap_or_else(|| crate::deck::Deck::of_labels(&labels));
    let mut deck = crate::deck::categories::apply(deck, source)?;
    deck.label = format!(
        "{} (hand test not run: hands are not counted while reading)",
        deck.label
    );
    Ok(Some(deck))
}

/// Tests a tally produced for `spec` (in `seconds`) and gives the audit its
/// provisional verdict at `alpha`.
///
/// The spec is completed from the tally: its trials and n are what was
/// counted (a file may hold fewer decks than asked, and say what n is), and
/// default tests are those for that n.
pub fn evaluate(spec: &RunSpec, tally: Tally, seconds: f64, alpha: f64) -> Audit {
    let spec = &completed(spec, &tally);
    let position_value = PositionValueStats::of(&cells(spec, &tally));
    let tests = run_tests(spec, &tally, &position_value);
    let log10_p = audit_log10_p(&tests);
    let sensitivity = Sensitivity::of(&tests, spec.n, tally.trials(), alpha, tests.len());
    Audit {
        spec: spec.clone(),
        threads: spec.threads.unwrap_or_else(rayon::current_num_threads),
        seconds,
        tally,
        position_value,
        verdict: Verdict::decide(log10_p, alpha, sensitivity.adequate()),
        tests,
        log10_p,
        log10_p_adjusted: log10_p,
        sensitivity,
        looks: Vec::new(),
        alpha,
        feed: None,
    }
}

/// `spec` completed from `tally`: its trials and n are what was counted, and
/// default tests are those for that n (see [`evaluate`]).
fn completed(spec: &RunSpec, tally: &Tally) -> RunSpec {
    RunSpec {
        n: tally.n(),
        trials: tally.trials(),
        tests: spec.tests.at(tally.n()),
        ..spec.clone()
    }
}

/// The tests of `spec` on `tally`, with their p-values and Holm
/// corrections exactly as [`evaluate`] computes them for a verdict, but
/// without the descriptive figures (sensitivity, largest deviation): what a
/// simulation of many small audits needs to know whether each one would
/// have rejected (`power`'s check of small plans), at a fraction of the
/// cost.
pub fn test_results(spec: &RunSpec, tally: &Tally) -> Vec<TestResult> {
    let spec = completed(spec, tally);
    let position_value = PositionValueStats::of(&cells(&spec, tally));
    run_tests(&spec, tally, &position_value)
}

/// The selected tests of `spec` on `tally`: a deck's own tests for a deck.
fn run_tests(
    spec: &RunSpec,
    tally: &Tally,
    position_value: &PositionValueStats,
) -> Vec<TestResult> {
    let Some(deck) = &spec.deck else {
        return battery::run(tally, &spec.tests, position_value, spec.seed);
    };
    // A deck of distinct items also runs the tests of permutations.
    let standard: Vec<TestKind> = spec
        .tests
        .iter()
        .filter(|&k| !crate::deck::battery::owns(k, deck))
        .collect();
    let mut results = if standard.is_empty() {
        Vec::new()
    } else {
        let standard = crate::spec::TestSet::of_kinds(standard);
        battery::run(tally, &standard, position_value, spec.seed)
    };
    results.extend(crate::deck::battery::run(
        tally,
        &spec.tests,
        deck,
        spec.seed,
    ));
    battery::correct(&mut results);
    results
}

/// An audit's own p-value: the smallest Holm-adjusted p of its tests.
fn audit_log10_p(tests: &[TestResult]) -> f64 {
    tests
        .iter()
        .map(|t| t.log10_p_holm)
        .fold(f64::INFINITY, f64::min)
}

impl Judged for Audit {
    fn log10_p(&self) -> f64 {
        self.log10_p
    }

    /// Each test is held to α / (tests × `copies`).
    fn conclude(&mut self, log10_p_adjusted: f64, alpha: f64, copies: usize) {
        let family = self.tests.len() * copies;
        self.alpha = alpha;
        self.log10_p_adjusted = log10_p_adjusted;
        self.sensitivity =
            Sensitivity::of(&self.tests, self.spec.n, self.spec.trials, alpha, family);
        self.verdict = Verdict::decide(log10_p_adjusted, alpha, self.sensitivity.adequate());
    }

    fn verdict(&self) -> Verdict {
        self.verdict
    }
}

/// Shuffles as a [`Kind`] of subject: the built-in algorithms the engine
/// runs batch after batch for [`run_until_decisive`].
#[derive(Debug, Clone, Copy)]
pub struct Shuffles;

impl Kind for Shuffles {
    type Spec = RunSpec;
    type Tally = Tally;
    type Audit = Audit;

    fn trials(spec: &RunSpec) -> u64 {
        spec.trials
    }

    fn seed(spec: &RunSpec) -> u64 {
        spec.seed
    }

    fn batch(spec: &RunSpec, trials: u64, seed: u64) -> RunSpec {
        RunSpec {
            trials,
            seed,
            ..spec.clone()
        }
    }

    fn count(spec: &RunSpec, progress: Progress<'_>) -> Result<Tally> {
        produce::run(spec, progress)
    }

    fn merge(into: &mut Tally, other: &Tally) {
        Tally::merge(into, other)
    }

    fn log10_p(spec: &RunSpec, tally: &Tally) -> f64 {
        let position_value = PositionValueStats::of(&cells(spec, tally));
        audit_log10_p(&run_tests(spec, tally, &position_value))
    }

    fn evaluate(spec: &RunSpec, tally: Tally, seconds: f64, alpha: f64) -> Audit {
        evaluate(spec, tally, seconds, alpha)
    }

    fn set_looks(audit: &mut Audit, looks: Vec<Look>) {
        audit.looks = looks;
    }
}

/// Runs every spec in turn and judges them together.
pub fn run_all(specs: &[RunSpec], alpha: f64, progress: Progress<'_>) -> Result<Vec<Audit>> {
    let mut audits = specs
        .iter()
        .map(|spec| run(spec, alpha, progress))
        .collect::<Result<Vec<_>>>()?;
    judge(&mut audits, alpha);
    Ok(audits)
}

/// Runs an audit of a built-in algorithm in growing batches until it is
/// decisively biased, or until `max_trials` have been counted without
/// finding bias, with α spent over its looks and the `audits_in_run` audits
/// of the run: the procedure every kind of subject shares
/// ([`crate::kind::run_until_decisive`]).
pub fn run_until_decisive(
    spec: &RunSpec,
    alpha: f64,
    max_trials: u64,
    audits_in_run: usize,
    progress: Progress<'_>,
) -> Result<Audit> {
    kind::run_until_decisive::<Shuffles>(spec, alpha, max_trials, audits_in_run, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::engine::no_progress;
    use crate::source::SourceKind;

    #[test]
    fn a_biased_shuffle_stops_early_and_a_fair_one_spends_the_budget() {
        let spec = |alg| RunSpec::new(alg, 6, 2_000, SourceKind::Chacha8.into(), 3);
        let biased =
            run_until_decisive(&spec(Algorithm::NaiveSwap), 0.001, 256_000, 1, &no_progress)
                .unwrap();
        assert_eq!(biased.verdict, Verdict::Biased);
        assert!(
            biased.spec.trials < 256_000,
            "stopped at {}",
            biased.spec.trials
        );
        let fair = run_until_decisive(
            &spec(Algorithm::FisherYates),
            0.001,
            64_000,
            1,
            &no_progress,
        )
        .unwrap();
        assert_eq!(fair.verdict, Verdict::NoBiasDetected);
        assert_eq!(fair.spec.trials, 64_000);
        assert_eq!(fair.looks.len(), 6);
        assert_eq!(fair.tally.trials(), 64_000);
    }
}
