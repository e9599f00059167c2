//! Auditing a sampler: run it, test its counts, and judge it with the same
//! rules as a shuffle (Holm within the audit, then across the audits of a
//! run; "no bias detected" only when the run could have seen a 20%
//! deviation of one item's inclusion with 90% power; otherwise
//! "inconclusive").
//!
//! The tests and their calibrated null laws are in
//! [`crate::stats::sampling`]; a test that cannot be calibrated at this
//! many trials (too few expected per cell) is not run, and says why.

use super::run::{self as sampler_run, SampleFeedReport, SampleProduced, SampleSpec};
use super::subject::Sample;
use super::tally::SampleTally;
use crate::error::Result;
use crate::format::{format_ratio, thousands};
pub use crate::kind::judge;
use crate::kind::{self, Judged, Kind};
use crate::pacing::Progress;
use crate::sequential::Look;
use crate::stats::pvalue::departure;
use crate::stats::sampling::{self, Deviation, Method, NotApplicable, SamplingTest};
use crate::stats::sensitivity::{MAX_CELL_DEVIATION, SENSITIVITY_POWER};
use crate::stats::special::{chi2_isf, noncentrality_for_power};
use crate::stats::{TestResult, Verdict, holm_log10};
use crate::values::check_alpha;
use serde::Serialize;
use std::fmt;
use std::time::Instant;

/// A test of a sampler's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SampleTest {
    /// How often each item is in the sample, against k/N.
    Inclusion,
    /// How often each pair is sampled together, beyond what inclusion
    /// explains (catches `systematic`).
    Pairs,
    /// Every whole k-subset, against 1/C(N, k) (small C(N, k)).
    Subsets,
    /// Which item comes at which slot, beyond inclusion (ordered samplers).
    Order,
    /// A weighted pick's counts against w_i / Σw.
    Picks,
}

impl SampleTest {
    /// The name used in outputs.
    pub fn name(self) -> &'static str {
        match self {
            SampleTest::Inclusion => "inclusion",
            SampleTest::Pairs => "pairs",
            SampleTest::Subsets => "subsets",
            SampleTest::Order => "order",
            SampleTest::Picks => "picks",
        }
    }
}

impl fmt::Display for SampleTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the run could have detected: the smallest relative deviation of
/// one item's inclusion (or pick) probability its inclusion test sees with
/// 90% power at the level the verdict holds each test to.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SampleSensitivity {
    /// The level each test is held to (α over the tests and audits).
    pub level: f64,
    /// The detectable relative deviation of one item (0.2 = ±20%); infinite
    /// when the inclusion test could not run.
    pub item_deviation: f64,
}

impl SampleSensitivity {
    /// Whether "no bias detected" would mean something: the run could see
    /// a 20% deviation of one item.
    pub fn adequate(&self) -> bool {
        self.item_deviation <= MAX_CELL_DEVIATION
    }
}

/// One finished sampler audit.
#[derive(Debug, Clone)]
pub struct SampleAudit {
    /// What was run.
    pub(crate) spec: SampleSpec,
    /// The counts.
    pub(crate) tally: SampleTally,
    /// What an outside sampler's feed gave; `None` for a built-in one.
    pub(crate) feed: Option<SampleFeedReport>,
    /// Wall-clock seconds of the run.
    pub(crate) seconds: f64,
    /// The tests that ran, Holm-corrected across them.
    pub(crate) tests: Vec<TestResult<SampleTest>>,
    /// The tests that did not run, each with why.
    pub(crate) not_run: Vec<(SampleTest, String)>,
    /// Each test's most deviant cell, where it has one.
    pub(crate) deviations: Vec<(SampleTest, Deviation)>,
    /// Tests whose p-value is only a bound (too few trials for their law's
    /// tail, but an overwhelming departure): they can find bias, but do not
    /// count towards what the run could have seen.
    pub(crate) bounded: Vec<SampleTest>,
    /// The audit's own log10 p: its smallest Holm-adjusted p.
    pub(crate) log10_p: f64,
    /// The log10 p the verdict compared with α, after every further
    /// correction the run applied (Holm across the run's audits; for a
    /// sequential audit, Bonferroni over its looks and the run's audits).
    pub(crate) log10_p_adjusted: f64,
    /// What the run could have detected.
    pub(crate) sensitivity: SampleSensitivity,
    /// The verdict.
    pub(crate) verdict: Verdict,
    /// The looks of a sequential (`--until-decisive`) audit; empty otherwise.
    pub(crate) looks: Vec<Look>,
    /// The significance level (before corrections).
    pub(crate) alpha: f64,
}

/// What a sampler audit found, read through accessors so that fields can be
/// added without breaking a caller.
impl SampleAudit {
    /// What was run: the sampler, N, k, source, trials and seed.
    pub fn spec(&self) -> &SampleSpec {
        &self.spec
    }

    /// The counts (inclusions, pairs, positions, picks).
    pub fn tally(&self) -> &SampleTally {
        &self.tally
    }

    /// What an outside sampler's feed gave; `None` for a built-in one.
    pub fn feed(&self) -> Option<&SampleFeedReport> {
        self.feed.as_ref()
    }

    /// Wall-clock seconds of the run.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The tests that ran, Holm-corrected across them.
    pub fn tests(&self) -> &[TestResult<SampleTest>] {
        &self.tests
    }

    /// The tests that did not run, each with why.
    pub fn not_run(&self) -> &[(SampleTest, String)] {
        &self.not_run
    }

    /// Each test's most deviant cell, where it has one.
    pub fn deviations(&self) -> &[(SampleTest, Deviation)] {
        &self.deviations
    }

    /// Tests whose p-value is only a bound: they can find bias but do not
    /// count towards what the run could have seen.
    pub fn bounded(&self) -> &[SampleTest] {
        &self.bounded
    }

    /// The audit's own log10 p: its smallest Holm-adjusted p.
    pub fn log10_p(&self) -> f64 {
        self.log10_p
    }

    /// The log10 p the verdict compared with α, after every correction the
    /// run applied.
    pub fn log10_p_adjusted(&self) -> f64 {
        self.log10_p_adjusted
    }

    /// What the run could have detected.
    pub fn sensitivity(&self) -> &SampleSensitivity {
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

    /// The significance level (before corrections).
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}

impl SampleAudit {
    /// The number the input wrote for item 0: 1 for an outside sampler that
    /// numbers its items from 1, else 0. Every output names items as the
    /// input wrote them.
    pub fn first_item(&self) -> usize {
        self.feed.as_ref().map_or(0, |f| f.base.offset() as usize)
    }

    /// The test with the strongest evidence, if any test ran: the first of
    /// [`seen_by`](Self::seen_by) when the audit is biased, else the
    /// smallest p (the same order as a shuffle's,
    /// [`crate::stats::multiple::by_strength`]).
    pub fn decisive(&self) -> Option<&TestResult<SampleTest>> {
        crate::stats::strongest(&self.tests)
    }

    /// The tests that saw the bias, strongest first: those that reject
    /// after every correction the verdict applied (as for a shuffle,
    /// [`crate::audit::Audit::seen_by`]); empty unless the verdict is
    /// biased.
    pub fn seen_by(&self) -> Vec<&TestResult<SampleTest>> {
        crate::stats::seen_by(&self.tests, self.log10_p, self.log10_p_adjusted, self.alpha)
    }

    /// The samples a run of this sampler needs for "no bias detected" to
    /// mean something at the level its tests were held to
    /// ([`adequate_trials`]); `None` unless the verdict is inconclusive.
    pub fn trials_for_verdict(&self) -> Option<u64> {
        (self.verdict == Verdict::Inconclusive).then(|| {
            let (n, k) = (self.tally.n(), self.tally.k());
            let weights = self.spec.weights.as_deref();
            adequate_trials(n, k, weights, self.sensitivity.level).max(self.tally.trials() + 1)
        })
    }

    /// Why an inconclusive run could not tell, and what it needs: "could
    /// see only a ±40% deviation of one item's probability, not ±20%; run
    /// at least 9,012 samples for a verdict". `None` unless inconclusive.
    pub fn inconclusive_note(&self) -> Option<String> {
        let needed = self.trials_for_verdict()?;
        let test = match self.spec.weights {
            Some(_) => SampleTest::Picks,
            None => SampleTest::Inclusion,
        };
        let why = if let Some((_, why)) = self.not_run.iter().find(|(t, _)| *t == test) {
            format!("the {test} test did not run ({why})")
        } else if self.bounded.contains(&test) {
            format!("the {test} test's p-value is only a bound at this many samples")
        } else {
            format!(
                "could see only a ±{:.0}% deviation of one item's probability, not ±{:.0}%",
                100.0 * self.sensitivity.item_deviation,
                100.0 * MAX_CELL_DEVIATION
            )
        };
        let what = match test {
            SampleTest::Picks => "picks",
            _ => "samples",
        };
        Some(format!(
            "{why}; run at least {} {what} for a verdict",
            thousands(needed)
        ))
    }

    /// The largest deviation in words: for a biased verdict the decisive
    /// test's most deviant cell ("item 0: 0.71× expected (inclusion)");
    /// otherwise the largest |z| seen, naming no cell (noise is not a
    /// finding).
    pub fn deviation_words(&self) -> String {
        let decisive = self.decisive().map(|t| t.test);
        let found = self
            .deviations
            .iter()
            .find(|(test, _)| Some(*test) == decisive);
        match found {
            Some((test, d)) if self.verdict == Verdict::Biased => {
                let ratio = d.ratio();
                if ratio == 0.0 {
                    format!("{} never drawn ({test})", d.cell)
                } else {
                    format!("{}: {}× expected ({test})", d.cell, format_ratio(ratio))
                }
            }
            _ => {
                let z = self
                    .deviations
                    .iter()
                    .map(|(_, d)| d.z.abs())
                    .fold(0.0, f64::max);
                format!("no cell stands out (max |z| {z:.1})")
            }
        }
    }
}

/// Runs the sampler of `spec` and gives its provisional verdict at `alpha`
/// (final once [`judge`] sees the whole run).
pub fn run(spec: &SampleSpec, alpha: f64, progress: Progress<'_>) -> Result<SampleAudit> {
    run_with(spec, alpha, || sampler_run::produce(spec, progress))
}

/// [`run`] for a user's sampler written in Rust, drawing `k` items per
/// sample (see [`crate::sampler::custom`] for the friendlier front door).
pub fn run_sampler<T: Sample>(
    spec: &SampleSpec,
    k: usize,
    sampler: &T,
    alpha: f64,
    progress: Progress<'_>,
) -> Result<SampleAudit> {
    run_with(spec, alpha, || {
        let tally = sampler_run::run_sampler(spec, k, sampler, progress)?;
        Ok(SampleProduced { tally, feed: None })
    })
}

/// Checks α, produces the counts with `produce` (timed) and evaluates them,
/// naming every cell as the input numbered its items.
fn run_with(
    spec: &SampleSpec,
    alpha: f64,
    produce: impl FnOnce() -> Result<SampleProduced>,
) -> Result<SampleAudit> {
    check_alpha(alpha)?;
    // The weighted tests judge by the Pearson law, as the shuffles' do.
    crate::stats::pearson_law::build_in_background();
    let start = Instant::now();
    let produced = produce()?;
    let mut audit = evaluate(spec, produced.tally, start.elapsed().as_secs_f64(), alpha);
    audit.feed = produced.feed;
    let first = audit.first_item();
    for (_, deviation) in &mut audit.deviations {
        deviation.cell = deviation.cell.numbered_from(first);
    }
    Ok(audit)
}

/// Runs the built-in sampler of `spec` in growing batches until it is
/// decisively biased, or until `max_trials` samples have been counted
/// without finding bias, with α spent over its looks and the
/// `audits_in_run` audits of the run: the procedure every kind of subject
/// shares ([`crate::kind::run_until_decisive`]). The verdict is final.
pub fn run_until_decisive(
    spec: &SampleSpec,
    alpha: f64,
    max_trials: u64,
    audits_in_run: usize,
    progress: Progress<'_>,
) -> Result<SampleAudit> {
    if spec.sampler.builtin().is_none() {
        return Err(crate::error::Error::unsupported(format!(
            "{}: only a built-in sampler can be asked for more samples look after look",
            spec.sampler
        )));
    }
    kind::run_until_decisive::<Samples>(spec, alpha, max_trials, audits_in_run, progress)
}

/// Samplers as a [`Kind`] of subject: the built-in samplers the engine
/// runs batch after batch for [`run_until_decisive`].
#[derive(Debug, Clone, Copy)]
pub struct Samples;

impl Kind for Samples {
    type Spec = SampleSpec;
    type Tally = SampleTally;
    type Audit = SampleAudit;

    fn trials(spec: &SampleSpec) -> u64 {
        spec.trials
    }

    fn seed(spec: &SampleSpec) -> u64 {
        spec.seed
    }

    fn batch(spec: &SampleSpec, trials: u64, seed: u64) -> SampleSpec {
        SampleSpec {
            trials,
            seed,
            ..spec.clone()
        }
    }

    fn count(spec: &SampleSpec, progress: Progress<'_>) -> Result<SampleTally> {
        sampler_run::run(spec, progress)
    }

    fn merge(into: &mut SampleTally, other: &SampleTally) {
        into.merge(other)
    }

    fn log10_p(spec: &SampleSpec, tally: &SampleTally) -> f64 {
        Tested::of(spec, tally).log10_p
    }

    fn evaluate(spec: &SampleSpec, tally: SampleTally, seconds: f64, alpha: f64) -> SampleAudit {
        evaluate(spec, tally, seconds, alpha)
    }

    fn set_looks(audit: &mut SampleAudit, looks: Vec<Look>) {
        audit.looks = looks;
    }
}

/// What the tests of one tally found, before any judging.
struct Tested {
    tests: Vec<TestResult<SampleTest>>,
    not_run: Vec<(SampleTest, String)>,
    deviations: Vec<(SampleTest, Deviation)>,
    bounded: Vec<SampleTest>,
    /// The smallest Holm-adjusted p of the tests (log10; 0 if none ran).
    log10_p: f64,
}

impl Tested {
    /// Runs every test that applies to `tally` (counted for `spec`) and
    /// Holm-corrects them within the audit.
    fn of(spec: &SampleSpec, tally: &SampleTally) -> Self {
        let (n, k, trials) = (tally.n(), tally.k(), tally.trials());
        let mut outcomes: Vec<(SampleTest, std::result::Result<SamplingTest, String>)> = Vec::new();
        let why = |e: NotApplicable| e.to_string();
        match &spec.weights {
            Some(weights) => outcomes.push((
                SampleTest::Picks,
                sampling::weighted(tally.inclusion(), weights).map_err(why),
            )),
            None => {
                outcomes.push((
                    SampleTest::Inclusion,
                    sampling::inclusion(tally.inclusion(), trials, k, spec.seed).map_err(why),
                ));
                if let Some(pairs) = tally.pairs() {
                    outcomes.push((
                        SampleTest::Pairs,
                        sampling::pairs(pairs, n, trials, k).map_err(why),
                    ));
                }
                if let Some(subsets) = tally.subsets() {
                    outcomes.push((
                        SampleTest::Subsets,
                        sampling::subset(subsets, n, k, spec.seed).map_err(why),
                    ));
                }
                if let Some(slots) = tally.slots() {
                    outcomes.push((
                        SampleTest::Order,
                        sampling::order(slots, n, k, trials).map_err(why),
                    ));
                }
            }
        }
        let mut tests = Vec::new();
        let mut not_run = Vec::new();
        let mut deviations = Vec::new();
        let mut bounded = Vec::new();
        for (test, outcome) in outcomes {
            let t = match outcome {
                Ok(t) => t,
                Err(reason) => {
                    not_run.push((test, reason));
                    continue;
                }
            };
            if matches!(t.method, Method::Cantelli { .. }) {
                bounded.push(test);
            }
            if let Some(d) = t.largest.clone() {
                deviations.push((test, d));
            }
            tests.push(TestResult {
                test,
                statistic: t.statistic,
                df: t.df,
                log10_p: t.log10_p,
                log10_p_holm: t.log10_p,
                departure: departure(t.statistic, t.df),
                method: t.describe(),
            });
        }
        let raw: Vec<f64> = tests.iter().map(|t| t.log10_p).collect();
        for (t, adjusted) in tests.iter_mut().zip(holm_log10(&raw)) {
            t.log10_p_holm = adjusted;
        }
        let log10_p = tests.iter().map(|t| t.log10_p_holm).fold(0.0, f64::min);
        Self {
            tests,
            not_run,
            deviations,
            bounded,
            log10_p,
        }
    }
}

/// Audits samples the caller has already read with
/// [`crate::ingest::samples::read_samples`] (from a buffer in memory rather
/// than a file or a command, as the Python package does), as samples read
/// for `spec` from a file are audited. What was read (how the items were
/// numbered) is kept for the report, unless the samples came from the
/// caller's own sampler function (`from_function`). The verdict is
/// provisional until [`judge`].
pub fn of_read(
    spec: &SampleSpec,
    read: crate::ingest::samples::IngestedSamples,
    seconds: f64,
    alpha: f64,
    from_function: bool,
) -> SampleAudit {
    let mut audit = evaluate(spec, read.tally, seconds, alpha);
    if !from_function {
        audit.feed = Some(SampleFeedReport {
            base: read.base,
            stopped_early: read.stopped_early,
            asked: (spec.trials != sampler_run::ALL_SAMPLES).then_some(spec.trials),
            workers: Vec::new(),
            sha256: None,
        });
    }
    audit
}

/// Tests `tally`, counted for `spec`, and judges it alone at `alpha`. The
/// spec's trials become what was counted (a file may hold fewer samples
/// than asked).
pub fn evaluate(spec: &SampleSpec, tally: SampleTally, seconds: f64, alpha: f64) -> SampleAudit {
    let Tested {
        tests,
        not_run,
        deviations,
        bounded,
        log10_p,
    } = Tested::of(spec, &tally);
    let mut audit = SampleAudit {
        spec: SampleSpec {
            trials: tally.trials(),
            ..spec.clone()
        },
        tally,
        feed: None,
        seconds,
        tests,
        not_run,
        deviations,
        bounded,
        log10_p,
        log10_p_adjusted: log10_p,
        sensitivity: SampleSensitivity {
            level: alpha,
            item_deviation: f64::INFINITY,
        },
        verdict: Verdict::Inconclusive,
        looks: Vec::new(),
        alpha,
    };
    audit.conclude(log10_p, alpha, 1);
    audit
}

impl Judged for SampleAudit {
    fn log10_p(&self) -> f64 {
        self.log10_p
    }

    /// Each test is held to α / (tests × `copies`), counting the tests
    /// that could not run (they were planned, and stand in the family).
    fn conclude(&mut self, log10_p_adjusted: f64, alpha: f64, copies: usize) {
        let family = (self.tests.len() + self.not_run.len()).max(1) * copies.max(1);
        let level = alpha / family as f64;
        self.alpha = alpha;
        self.log10_p_adjusted = log10_p_adjusted;
        self.sensitivity = SampleSensitivity {
            level,
            item_deviation: item_deviation(self, level),
        };
        self.verdict = Verdict::decide(log10_p_adjusted, alpha, self.sensitivity.adequate());
    }

    fn verdict(&self) -> Verdict {
        self.verdict
    }
}

/// The relative deviation of one item's inclusion probability p = k/N
/// (or pick probability) that the inclusion test sees with 90% power at
/// `level`: with the item at p(1 + δ) and the others making up for it, the
/// test's non-centrality is λ = T δ² p / (1 − p), so δ = √(λ (1 − p) / (T p)).
/// Infinite when the test did not run (nothing was checked).
fn item_deviation(audit: &SampleAudit, level: f64) -> f64 {
    let test = if audit.spec.weights.is_some() {
        SampleTest::Picks
    } else {
        SampleTest::Inclusion
    };
    let Some(result) = audit.tests.iter().find(|t| t.test == test) else {
        return f64::INFINITY;
    };
    if audit.bounded.contains(&test) {
        return f64::INFINITY;
    }
    let (n, k, trials) = (audit.tally.n(), audit.tally.k(), audit.tally.trials());
    let p = hardest_probability(n, k, audit.spec.weights.as_deref());
    if !(p > 0.0 && p < 1.0) || result.df <= 0.0 {
        return f64::INFINITY;
    }
    (detectable_lambda(level, result.df) * (1.0 - p) / (trials as f64 * p)).sqrt()
}

/// The probability of the item hardest to see off: k/N for a sample, the
/// rarest positive weight's share for a weighted pick.
fn hardest_probability(n: usize, k: usize, weights: Option<&[u64]>) -> f64 {
    match weights {
        Some(w) => {
            let total: u64 = w.iter().sum();
            w.iter().filter(|&&x| x > 0).min().copied().unwrap_or(0) as f64 / total.max(1) as f64
        }
        None => k as f64 / n as f64,
    }
}

/// The non-centrality a test of `df` degrees of freedom at `level` sees
/// with 90% power.
fn detectable_lambda(level: f64, df: f64) -> f64 {
    noncentrality_for_power(chi2_isf(level, df), df, SENSITIVITY_POWER)
}

/// The samples (or picks) an audit of k of N items (or of picks with
/// `weights`) needs for "no bias detected" to mean something when its
/// inclusion (or picks) test is held to `level`: the fewest with which a
/// [`MAX_CELL_DEVIATION`] deviation of the hardest item's probability is
/// seen with 90% power (the inverse of what [`SampleSensitivity`] states).
/// A plan, not a promise: a test that pools sparse cells has fewer degrees
/// of freedom than the N − 1 assumed here, and sees a little more.
pub fn adequate_trials(n: usize, k: usize, weights: Option<&[u64]>, level: f64) -> u64 {
    let p = hardest_probability(n, k, weights);
    let df = match weights {
        Some(w) => w.iter().filter(|&&x| x > 0).count().saturating_sub(1),
        None => n.saturating_sub(1),
    };
    if !(p > 0.0 && p < 1.0) || df == 0 {
        return 0;
    }
    let lambda = detectable_lambda(level, df as f64);
    (lambda * (1.0 - p) / (MAX_CELL_DEVIATION * MAX_CELL_DEVIATION * p)).ceil() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pacing::no_progress;
    use crate::sampler::Sampler;
    use crate::source::SourceSpec;

    fn audit(name: &str, n: usize, trials: u64, weights: Option<Vec<u64>>) -> SampleAudit {
        let spec = SampleSpec {
            sampler: Sampler::parse(name).unwrap().into(),
            n,
            weights,
            trials,
            source: SourceSpec::parse("xoshiro256pp").unwrap(),
            seed: 11,
            threads: None,
        };
        run(&spec, 0.001, &no_progress).unwrap()
    }

    #[test]
    fn fair_samplers_pass_and_biased_ones_are_caught() {
        let mut audits = vec![
            audit("floyd:k=3", 10, 200_000, None),
            audit("partial-fisher-yates:k=3", 10, 200_000, None),
            audit("reservoir:k=3", 10, 200_000, None),
            audit("reservoir-off-by-one:k=3", 10, 200_000, None),
            audit("systematic:k=2", 10, 200_000, None),
            audit("weighted-prefix", 2, 200_000, Some(vec![1, 99])),
            audit("weighted-off-by-one", 2, 200_000, Some(vec![1, 99])),
        ];
        judge(&mut audits, 0.001);
        let verdicts: Vec<(String, Verdict)> = audits
            .iter()
            .map(|a| (a.spec.sampler.to_string(), a.verdict))
            .collect();
        use Verdict::{Biased, NoBiasDetected};
        let want = [
            NoBiasDetected,
            NoBiasDetected,
            NoBiasDetected,
            Biased,
            Biased,
            NoBiasDetected,
            Biased,
        ];
        for ((name, got), want) in verdicts.iter().zip(want) {
            assert_eq!(*got, want, "{name}: {verdicts:?}");
        }
        // systematic keeps every item's inclusion at k/N: pairs catch it.
        let systematic = &audits[4];
        let decisive = systematic
            .tests
            .iter()
            .min_by(|a, b| a.log10_p_holm.total_cmp(&b.log10_p_holm))
            .unwrap();
        assert_ne!(decisive.test, SampleTest::Inclusion);
        // A fair run states what it could have seen.
        assert!(audits[0].sensitivity.item_deviation < 0.05);
        assert!(
            audits[0]
                .deviation_words()
                .starts_with("no cell stands out")
        );
        // The off-by-one reservoir keeps the first k items too rarely.
        let words = audits[3].deviation_words();
        assert!(
            words.starts_with("item ") && words.contains("× expected"),
            "{words}"
        );
        assert_eq!(audits[6].deviation_words(), "item 0 never drawn (picks)");
    }

    #[test]
    fn a_run_too_small_to_tell_is_inconclusive_and_says_why() {
        let small = audit("floyd:k=3", 40, 30, None);
        assert_eq!(small.verdict, Verdict::Inconclusive);
        assert!(
            small
                .not_run
                .iter()
                .any(|(t, why)| *t == SampleTest::Inclusion && !why.is_empty()),
            "{:?}",
            small.not_run
        );
        assert!(small.sensitivity.item_deviation.is_infinite());
    }

    fn sequential(name: &str, trials: u64, max: u64, audits: usize) -> SampleAudit {
        let spec = SampleSpec::new(
            Sampler::parse(name).unwrap(),
            10,
            trials,
            SourceSpec::parse("xoshiro256pp").unwrap(),
            11,
        );
        run_until_decisive(&spec, 0.001, max, audits, &no_progress).unwrap()
    }

    #[test]
    fn a_biased_sampler_stops_early_and_a_fair_one_spends_the_budget() {
        let looks = crate::sequential::look_schedule(2_000, 256_000);
        assert_eq!(looks.len(), 8);
        let level = (0.001f64 / 8.0).log10();
        let biased = sequential("reservoir-off-by-one:k=3", 2_000, 256_000, 1);
        assert_eq!(biased.verdict, Verdict::Biased);
        let stopped = biased.looks.last().unwrap().trials;
        assert!(stopped < 256_000, "stopped at {stopped}");
        assert_eq!(biased.tally.trials(), stopped);
        assert_eq!(biased.spec.trials, stopped);
        // Every look but the last was within its level; all spent α / J.
        let (last, before) = biased.looks.split_last().unwrap();
        assert!(last.log10_p <= level, "{last:?}");
        assert!(before.iter().all(|l| l.log10_p > level), "{before:?}");
        assert!(
            biased
                .looks
                .iter()
                .all(|l| (l.log10_alpha - level).abs() < 1e-12)
        );
        let trials: Vec<u64> = biased.looks.iter().map(|l| l.trials).collect();
        assert_eq!(trials, looks[..trials.len()]);

        let fair = sequential("floyd:k=3", 2_000, 256_000, 1);
        assert_eq!(fair.verdict, Verdict::NoBiasDetected);
        assert_eq!(fair.tally.trials(), 256_000);
        let trials: Vec<u64> = fair.looks.iter().map(|l| l.trials).collect();
        assert_eq!(trials, looks);
        assert!(fair.sensitivity.adequate());
    }

    #[test]
    fn a_sequential_verdict_pays_for_every_look_and_audit() {
        // 3 planned looks (1k, 2k, 4k) among 4 audits: α is divided by 12,
        // even when the audit stops at its first look.
        let a = sequential("reservoir-off-by-one:k=3", 1_000, 4_000, 4);
        assert_eq!(a.verdict, Verdict::Biased);
        assert_eq!(a.looks.len(), 1);
        let best = a.looks[0].log10_p;
        assert!((a.log10_p_adjusted - (best + 12f64.log10())).abs() < 1e-12);
        let level = (0.001f64 / 12.0).log10();
        assert!((a.looks[0].log10_alpha - level).abs() < 1e-12);
        // The sensitivity is stated at the level each test was held to.
        let tests = a.tests.len() + a.not_run.len();
        let level = 0.001 / (tests * 12) as f64;
        assert!(
            (a.sensitivity.level / level - 1.0).abs() < 1e-12,
            "{:?}",
            a.sensitivity
        );
        // Alone in its run, the same looks pay for 3, not 12.
        let alone = sequential("reservoir-off-by-one:k=3", 1_000, 4_000, 1);
        assert_eq!(alone.looks[0].log10_p, best);
        assert!((alone.log10_p_adjusted - (best + 3f64.log10())).abs() < 1e-12);
        // A fair sampler's adjusted p is capped at 1.
        let fair = sequential("floyd:k=3", 1_000, 4_000, 4);
        let best = fair
            .looks
            .iter()
            .map(|l| l.log10_p)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(fair.log10_p_adjusted, (best + 12f64.log10()).min(0.0));
    }

    #[test]
    fn sequential_batches_follow_the_seed_rule() {
        let spec = SampleSpec::new(
            Sampler::parse("floyd:k=3").unwrap(),
            10,
            1_000,
            SourceSpec::parse("xoshiro256pp").unwrap(),
            11,
        );
        // Two looks: batch 0 from the seed, batch 1 from splitmix64(seed ^ 1).
        let a = run_until_decisive(&spec, 0.001, 2_000, 1, &no_progress).unwrap();
        let mut want = sampler_run::run(&spec, &no_progress).unwrap();
        let second = SampleSpec {
            seed: crate::sequential::batch_seed(11, 1),
            ..spec.clone()
        };
        want.merge(&sampler_run::run(&second, &no_progress).unwrap());
        assert_eq!(a.tally, want);
        // One look is a plain audit of the first look's trials, at α / 1.
        let one = run_until_decisive(&spec, 0.001, 1_000, 1, &no_progress).unwrap();
        let plain = run(&spec, 0.001, &no_progress).unwrap();
        assert_eq!(one.tally, plain.tally);
        assert_eq!(one.log10_p_adjusted, plain.log10_p_adjusted);
        assert_eq!(one.verdict, plain.verdict);
        assert!(plain.looks.is_empty());
        // A budget below the first look is refused, naming it.
        let err = run_until_decisive(&spec, 0.001, 999, 1, &no_progress).unwrap_err();
        assert!(err.to_string().contains("999"), "{err}");
    }
}
