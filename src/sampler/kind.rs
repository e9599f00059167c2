//! Samplers as a kind of subject: how an audit of a sampler (k of N items,
//! in no order or in the order drawn, or a weighted pick) counts, tests and
//! states what it saw, judged with the same rules as a shuffle (Holm within
//! the audit, then across the audits of a run; "no bias detected" only when
//! the run could have seen a 20% deviation of one item's inclusion with 90%
//! power; otherwise "inconclusive").
//!
//! The tests and their calibrated null laws are in
//! [`crate::stats::sampling`]; a test that cannot be calibrated at this
//! many trials (too few expected per cell) is not run, and says why.

use super::subject::{Reading, SamplerOptions, Samplers};
use super::tally::SampleTally;
use super::{Sampler, count, files, section};
use crate::audit::{
    self, Audit, FeedReport, Kind, Named, Produced, Sensitivity, Spec, Subject, Tested,
};
use crate::error::Result;
use crate::format::format_ratio;
use crate::ingest::samples::{self, Base, SampleKind};
use crate::pacing::{ChunkRange, Progress};
use crate::plot::{HeatmapPanel, LogScale};
use crate::report::model::Section;
use crate::stats::pvalue::departure;
use crate::stats::sampling::{self, Deviation, Method, NotApplicable, SampleCell, SamplingTest};
use crate::stats::sensitivity::{MAX_CELL_DEVIATION, SENSITIVITY_POWER};
use crate::stats::special::{chi2_isf, noncentrality_for_power};
use crate::stats::{TestResult, Verdict};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::fmt;

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

impl Named for SampleTest {
    fn name(self) -> &'static str {
        SampleTest::name(self)
    }

    fn title(self) -> &'static str {
        SampleTest::name(self)
    }

    fn description(self) -> &'static str {
        match self {
            SampleTest::Inclusion => {
                "how often each item is in the sample against k/N; Q = ((N−1)/N) Σ (C_i − Tp)² / (T p (1 − p)) follows χ²(N − 1) for uniform k-subsets (the inclusion indicators are negatively correlated, Cov = −p(1−p)/(N−1))"
            }
            SampleTest::Pairs => {
                "how often each pair is drawn together, projected off what inclusion explains (the Johnson-scheme part beyond the items' own counts): catches samplers whose items are each fair but whose pairs are not (systematic sampling)"
            }
            SampleTest::Subsets => {
                "every whole k-subset against 1/C(N, k), while there are few enough to count"
            }
            SampleTest::Order => {
                "which item comes at which slot of an ordered sample, beyond its inclusion; χ²((k − 1)(N − 1))"
            }
            SampleTest::Picks => {
                "a weighted pick's counts against w_i / Σw (Pearson); a pick of a zero-weight item is impossible for a correct sampler (p = 0)"
            }
        }
    }
}

/// What a sampler's tests found beyond their results.
#[derive(Debug, Clone, Default)]
pub struct Found {
    /// Each test's most deviant cell, where it has one (items numbered from
    /// 0; outputs number them as the input did, see [`first_item`]).
    pub deviations: Vec<(SampleTest, Deviation)>,
    /// Tests whose p-value is only a bound (too few trials for their law's
    /// tail, but an overwhelming departure): they can find bias, but do not
    /// count towards what the run could have seen.
    pub bounded: Vec<SampleTest>,
    /// Tests that did not run, or ran only to a bound, with the trials
    /// from which they run in full: advice to run more is never below it.
    pub waiting: Vec<(SampleTest, u64)>,
}

impl Kind for Samplers {
    const NAME: &'static str = "sampler";

    type Builtin = Sampler;
    type Options = SamplerOptions;
    type Reading = Reading;
    type Read = Base;
    type Tally = SampleTally;
    type Test = SampleTest;
    type Found = Found;
    type Findings = ();

    fn parse(name: &str) -> Result<Sampler> {
        Sampler::parse(name)
    }

    fn slug(sampler: &Sampler) -> String {
        sampler.slug()
    }

    fn expected(spec: &Spec<Self>) -> Option<Verdict> {
        let sampler = spec.subject.builtin()?;
        Some(
            match sampler.expected_fair() && !spec.source.kind.is_weak() {
                true => Verdict::NoBiasDetected,
                false => Verdict::Biased,
            },
        )
    }

    fn options(_n: usize) -> SamplerOptions {
        SamplerOptions::default()
    }

    fn check(spec: &Spec<Self>) -> Result<()> {
        if let Some(sampler) = spec.subject.builtin() {
            sampler.prepare(spec.n, spec.options.weights.as_deref())?;
        }
        Ok(())
    }

    fn chunk_trials(_spec: &Spec<Self>) -> u64 {
        crate::pacing::CHUNK_TRIALS
    }

    fn default_trials(spec: &Spec<Self>, alpha: f64) -> u64 {
        let k = spec.subject.known_k().unwrap_or(1);
        let weights = spec.options.weights.as_deref();
        let tests = match weights {
            Some(_) => 1,
            None => {
                let kept = SampleTally::new(spec.n, k.min(spec.n), spec.subject.is_ordered());
                1 + usize::from(kept.pairs().is_some())
                    + usize::from(kept.subsets().is_some())
                    + usize::from(kept.slots().is_some())
            }
        };
        let planned = adequate_trials(spec.n, k, weights, alpha / tests as f64)
            .max(audit::MIN_DEFAULT_TRIALS);
        match spec.subject {
            Subject::Builtin(_) => planned.max(crate::spec::DEFAULT_TRIALS),
            Subject::Outside(_) => planned,
        }
    }

    fn work(spec: &Spec<Self>) -> usize {
        spec.subject.known_k().unwrap_or(1)
    }

    fn prepare(_spec: &Spec<Self>) {
        // The weighted tests judge by the Pearson law, as the shuffles' do.
        crate::stats::pearson_law::build_in_background();
    }

    /// The empty counts of a built-in sampler, or of one from outside whose
    /// k is known before the run (a pick, or a function's samples of a
    /// given k).
    fn empty(spec: &Spec<Self>) -> Result<SampleTally> {
        let k = spec.subject.known_k().ok_or_else(|| {
            crate::error::Error::unsupported(format!(
                "{}: only a sampler whose k is known before the run has counts of a known shape",
                spec.subject
            ))
        })?;
        Ok(SampleTally::new(spec.n, k, spec.subject.is_ordered()))
    }

    fn count(spec: &Spec<Self>, chunks: ChunkRange, progress: Progress<'_>) -> Result<SampleTally> {
        count::count(spec, chunks, progress)
    }

    fn read_from(
        spec: &Spec<Self>,
        reader: &mut (dyn std::io::Read + Send),
        name: &str,
        format: crate::ingest::Format,
        progress: Progress<'_>,
    ) -> Result<Produced<Self>> {
        samples::text_only(format)?;
        let read = samples::read_samples(reader, name, &count::options(spec, format)?, progress)?;
        Ok(count::produced(spec, read, Vec::new()))
    }

    fn read_file_from(
        spec: &Spec<Self>,
        path: &std::path::Path,
        format: crate::ingest::Format,
        resume: crate::ingest::Resume<'_, SampleTally, Base>,
        progress: Progress<'_>,
    ) -> Result<crate::ingest::Ingested<SampleTally, Base>> {
        samples::text_only(format)?;
        samples::read_samples_path_from(path, &count::options(spec, format)?, resume, progress)
    }

    fn read_command(
        spec: &Spec<Self>,
        command: &crate::ingest::CommandSpec,
        progress: Progress<'_>,
    ) -> Result<Produced<Self>> {
        let opts = count::options(spec, crate::ingest::Format::Text)?;
        let (read, workers) =
            samples::run_sample_command(command, &opts, spec.trials, spec.seed, progress)?;
        Ok(count::produced(spec, read, workers))
    }

    fn merge(into: &mut SampleTally, other: &SampleTally) {
        into.merge(other);
    }

    fn trials(tally: &SampleTally) -> u64 {
        tally.trials()
    }

    fn fits(spec: &Spec<Self>, tally: &SampleTally) -> bool {
        match spec.subject.outside() {
            // An outside sampler's k (and so its counts' shape) may only be
            // known from what it drew.
            Some(outside) => {
                tally.n() == spec.n && outside.reading.k.is_none_or(|k| k == tally.k())
            }
            None => Self::empty(spec).is_ok_and(|empty| empty.shape() == tally.shape()),
        }
    }

    fn complete(
        spec: &Spec<Self>,
        tally: &SampleTally,
        _feed: Option<&FeedReport<Self>>,
    ) -> Result<Spec<Self>> {
        Ok(Spec {
            n: tally.n(),
            trials: tally.trials(),
            ..spec.clone()
        })
    }

    fn test(spec: &Spec<Self>, tally: &SampleTally) -> Tested<Self> {
        let (n, k, trials) = (tally.n(), tally.k(), tally.trials());
        let outcomes: Vec<(SampleTest, std::result::Result<SamplingTest, NotApplicable>)> =
            match &spec.options.weights {
                Some(w) => vec![(SampleTest::Picks, sampling::weighted(tally.inclusion(), w))],
                None => [
                    Some((
                        SampleTest::Inclusion,
                        sampling::inclusion(tally.inclusion(), trials, k, spec.seed),
                    )),
                    tally
                        .pairs()
                        .map(|c| (SampleTest::Pairs, sampling::pairs(c, n, trials, k))),
                    tally
                        .subsets()
                        .map(|c| (SampleTest::Subsets, sampling::subset(c, n, k, spec.seed))),
                    tally
                        .slots()
                        .map(|c| (SampleTest::Order, sampling::order(c, n, k, trials))),
                ]
                .into_iter()
                .flatten()
                .collect(),
            };
        let mut tested = Tested::<Self> {
            results: Vec::new(),
            not_run: Vec::new(),
            found: Found::default(),
        };
        for (test, outcome) in outcomes {
            let t = match outcome {
                Ok(t) => t,
                Err(why) => {
                    if let NotApplicable::TooFewTrials { needed, .. } = why {
                        tested.found.waiting.push((test, needed));
                    }
                    tested.not_run.push((test, why.to_string()));
                    continue;
                }
            };
            if let Method::Cantelli { needed, .. } = t.method {
                tested.found.bounded.push(test);
                tested.found.waiting.push((test, needed));
            }
            if let Some(d) = t.largest.clone() {
                tested.found.deviations.push((test, d));
            }
            tested.results.push(TestResult {
                parts: None,
                df_at_most: None,
                test,
                statistic: t.statistic,
                df: t.df,
                log10_p: t.log10_p,
                log10_p_holm: t.log10_p,
                departure: departure(t.statistic, t.df),
                method: t.describe(),
            });
        }
        tested
    }

    /// The smallest deviation of one item's inclusion (or pick) probability
    /// that its test, held to its share of `alpha`, sees with 90% power:
    /// adequate up to [`MAX_CELL_DEVIATION`], else why not and the samples
    /// a verdict needs.
    fn sensitivity(audit: &Audit<Self>, alpha: f64, family: usize) -> Sensitivity {
        let level = alpha / family.max(1) as f64;
        let test = match audit.spec.options.weights {
            Some(_) => SampleTest::Picks,
            None => SampleTest::Inclusion,
        };
        let deviation = item_deviation(audit, test, level);
        let (short, words) = if deviation.is_finite() {
            (
                format!("±{:.2}% per item", 100.0 * deviation),
                format!(
                    "with 90% power this run would have detected a ±{:.2}% deviation of one \
                     item's probability",
                    100.0 * deviation
                ),
            )
        } else {
            (
                "nothing".to_string(),
                "this run could not have detected any bias".to_string(),
            )
        };
        let name = Some(test.name().to_string());
        let mut sensitivity = Sensitivity::new(SENSITIVITY_POWER, level, name, short, words);
        let figure = json!(deviation);
        sensitivity
            .figures
            .insert("detectable_item_deviation".into(), figure);
        if deviation <= MAX_CELL_DEVIATION {
            return sensitivity;
        }
        let (n, k, trials) = (audit.tally.n(), audit.tally.k(), audit.tally.trials());
        let unit = Samplers::unit(&audit.spec);
        let weights = audit.spec.options.weights.as_deref();
        let runs_from = audit.found.waiting.iter().find(|w| w.0 == test);
        let why = if let Some((_, why)) = audit.not_run.iter().find(|(t, _)| *t == test) {
            format!("the {test} test did not run ({why})")
        } else if audit.found.bounded.contains(&test) {
            format!("the {test} test's p-value is only a bound at this many {unit}")
        } else {
            format!(
                "could see only a ±{:.0}% deviation of one item's probability, not ±{:.0}%",
                100.0 * deviation,
                100.0 * MAX_CELL_DEVIATION
            )
        };
        // k = N, or a single positive weight: every item's probability is
        // fixed by the law itself, so no number of draws gives a verdict.
        let planned = adequate_trials(n, k, weights, level);
        if planned == 0 {
            return sensitivity.too_small(why, None, unit);
        }
        let needed = planned.max(trials + 1).max(runs_from.map_or(0, |w| w.1));
        // A weighted pick's test may run at some T and wait at another
        // (pooling changes with T): the advice is a T at which it runs.
        let needed = weights
            .and_then(|w| sampling::weighted::runs_from(w, needed))
            .unwrap_or(needed);
        sensitivity.too_small(why, Some(needed), unit)
    }

    fn find(_audit: &Audit<Self>, _audits_in_run: usize) {}

    fn unit(spec: &Spec<Self>) -> &'static str {
        let pick = spec.options.weights.is_some()
            || spec
                .subject
                .outside()
                .is_some_and(|o| o.reading.kind == SampleKind::Pick);
        if pick { "picks" } else { "samples" }
    }

    fn read_words(base: &Base, n: usize) -> String {
        base.describe(n)
    }

    fn drawn_words(audit: &Audit<Self>) -> String {
        files::drawn_words(audit)
    }

    fn deviation_words(audit: &Audit<Self>) -> String {
        match decisive_cell(audit) {
            Some((test, 0.0, cell)) => format!("{cell} never drawn ({test})"),
            Some((test, ratio, cell)) => {
                format!("{cell}: {}× expected ({test})", format_ratio(ratio))
            }
            None => {
                let z = audit.found.deviations.iter().map(|(_, d)| d.z.abs());
                format!("no cell stands out (max |z| {:.1})", z.fold(0.0, f64::max))
            }
        }
    }

    fn deviation_short(audit: &Audit<Self>) -> String {
        match decisive_cell(audit) {
            Some((_, 0.0, cell)) => format!("never: {cell}"),
            Some((_, ratio, cell)) => format!("{}× {cell}", format_ratio(ratio)),
            None => "none stands out".to_string(),
        }
    }

    fn table(audit: &Audit<Self>) -> Vec<Vec<u64>> {
        vec![audit.tally.inclusion().to_vec()]
    }

    fn record(audit: &Audit<Self>) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("k".into(), json!(audit.tally.k()));
        if let Some(feed) = &audit.feed {
            map.insert("base".into(), json!(feed.read.offset()));
        }
        if let Some(weights) = &audit.spec.options.weights {
            map.insert("weights".into(), json!(weights));
        }
        map.insert("inclusion".into(), json!(audit.tally.inclusion()));
        map
    }

    fn files(audit: &Audit<Self>) -> Result<Vec<(String, Vec<u8>)>> {
        files::files(audit)
    }

    fn section(audit: &Audit<Self>, folder: &str, anchor: &str, note: Option<&str>) -> Section {
        section::section(audit, folder, anchor, note)
    }

    fn method(_audit: &Audit<Self>) -> Vec<Section> {
        section::method()
    }

    fn panel(audit: &Audit<Self>) -> Option<(HeatmapPanel, LogScale)> {
        Some(files::comparison_panel(audit))
    }

    fn recheck(
        audit: &Audit<Self>,
        recorded: &Value,
        _folder: &std::path::Path,
    ) -> Result<audit::Recheck> {
        let counts: Vec<u64> = recorded["inclusion"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        Ok(match counts == audit.tally.inclusion() {
            true => audit::Recheck::Same {
                counts: counts.len() as u64,
                what: "inclusion counts",
            },
            false => audit::Recheck::Different("inclusion counts differ".to_string()),
        })
    }

    fn recorded(spec: &Spec<Self>) -> Value {
        serde_json::to_value(super::Recorded::of(spec)).expect("a record serialises")
    }

    fn from_recorded(value: &Value, threads: Option<usize>) -> Result<Spec<Self>> {
        super::Recorded::from_value(value)?.to_spec(threads)
    }
}

/// The number the input wrote for item 0: 1 for an outside sampler that
/// numbers its items from 1, else 0. Every output names items as the input
/// wrote them.
pub fn first_item(audit: &Audit<Samplers>) -> usize {
    audit.feed.as_ref().map_or(0, |f| f.read.offset() as usize)
}

/// For a biased verdict, the decisive test's most deviant cell: the test,
/// its observed/expected ratio and the cell as the input numbered it.
fn decisive_cell(audit: &Audit<Samplers>) -> Option<(SampleTest, f64, SampleCell)> {
    let decisive = audit.decisive().map(|t| t.test);
    let (test, d) = audit
        .found
        .deviations
        .iter()
        .find(|(t, _)| Some(*t) == decisive)?;
    let cell = d.cell.numbered_from(first_item(audit));
    (audit.verdict == Verdict::Biased).then(|| (*test, d.ratio(), cell))
}

/// The relative deviation of one item's inclusion probability p = k/N
/// (or pick probability) that `test` sees with 90% power at `level`:
/// with the item at p(1 + δ) and the others making up for it, the test's
/// non-centrality is λ = T δ² p / (1 − p), so δ = √(λ (1 − p) / (T p)).
/// Infinite when the test did not run or is only bounded (nothing was
/// checked).
fn item_deviation(audit: &Audit<Samplers>, test: SampleTest, level: f64) -> f64 {
    let Some(result) = audit.tests.iter().find(|t| t.test == test) else {
        return f64::INFINITY;
    };
    if audit.found.bounded.contains(&test) {
        return f64::INFINITY;
    }
    let (n, k, trials) = (audit.tally.n(), audit.tally.k(), audit.tally.trials());
    let p = hardest_probability(n, k, audit.spec.options.weights.as_deref());
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
/// seen with 90% power (the inverse of what [`Sensitivity`] states).
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
    use crate::audit::Judged;
    use crate::pacing::no_progress;
    use crate::source::SourceSpec;

    /// An audit of `name` over N = `n` items, judged alone at α = 0.001.
    fn audit(name: &str, n: usize, trials: u64, weights: Option<Vec<u64>>) -> Audit<Samplers> {
        let mut spec = Spec::<Samplers>::new(
            Sampler::parse(name).unwrap(),
            n,
            trials,
            SourceSpec::parse("xoshiro256pp").unwrap(),
            11,
        );
        spec.options.weights = weights;
        audit::run(&spec, 0.001, &no_progress).unwrap()
    }

    /// The sampler audit `judged` is.
    fn sampled(judged: &dyn Judged) -> &Audit<Samplers> {
        judged.as_any().downcast_ref().expect("a sampler audit")
    }

    #[test]
    fn fair_samplers_pass_and_biased_ones_are_caught() {
        use Verdict::{Biased, NoBiasDetected};
        let cases = [
            ("floyd:k=3", 10, None, NoBiasDetected),
            ("partial-fisher-yates:k=3", 10, None, NoBiasDetected),
            ("reservoir:k=3", 10, None, NoBiasDetected),
            ("reservoir-off-by-one:k=3", 10, None, Biased),
            ("systematic:k=2", 10, None, Biased),
            ("weighted-prefix", 2, Some(vec![1, 99]), NoBiasDetected),
            ("weighted-off-by-one", 2, Some(vec![1, 99]), Biased),
        ];
        let mut audits: Vec<Box<dyn Judged>> = cases
            .iter()
            .map(|(name, n, weights, _)| audit(name, *n, 200_000, weights.clone()).into())
            .collect();
        audit::judge(&mut audits, 0.001);
        let audits: Vec<&Audit<Samplers>> = audits.iter().map(|a| sampled(a.as_ref())).collect();
        for (audit, (name, .., want)) in audits.iter().zip(&cases) {
            assert_eq!(audit.verdict, *want, "{name}");
        }
        // systematic keeps every item's inclusion at k/N: pairs catch it.
        let systematic = audits[4];
        let decisive = systematic
            .tests
            .iter()
            .min_by(|a, b| a.log10_p_holm.total_cmp(&b.log10_p_holm))
            .unwrap();
        assert_ne!(decisive.test, SampleTest::Inclusion);
        // A fair run states what it could have seen.
        let seen = &audits[0].sensitivity.figures["detectable_item_deviation"];
        assert!(seen.as_f64().unwrap() < 0.05, "{seen}");
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
    fn a_law_with_nothing_to_compare_promises_no_trials() {
        // k = N: every sample holds every item; one positive weight: every
        // pick is that item. More draws cannot help, so no count is
        // advised (it once said "about T + 1 would make it conclusive").
        for (name, n, weights) in [
            ("reservoir:k=10", 10, None),
            ("weighted-prefix", 2, Some(vec![0, 5])),
        ] {
            let a = audit(name, n, 1_000, weights);
            assert_eq!(a.verdict, Verdict::Inconclusive, "{name}");
            assert_eq!(a.trials_for_verdict(), None, "{name}");
            let why = a.inconclusive_reason().unwrap();
            assert!(why.contains("no number of"), "{name}: {why}");
        }
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
        // Nothing was checked: the figure is infinite, which JSON writes
        // as null.
        let figure = &small.sensitivity.figures["detectable_item_deviation"];
        assert!(figure.is_null(), "{figure}");
        let why = small.inconclusive_reason().unwrap();
        assert!(why.contains("the inclusion test did not run"), "{why}");
        assert!(small.trials_for_verdict().is_some_and(|t| t > 30));
    }
}
