//! A study: the audits (and mixing curves) of one run, judged together and
//! shown as one set of findings.
//!
//! `shuffle-audit audit`, `shuffle-audit run` and a program calling the
//! library all do the same three things: build a [`Study`], [`Study::run`]
//! it, and show the [`StudyResult`] (print it, [`StudyResult::write`] its
//! files, or read its [`Findings`]). What was found is computed once, when
//! the study finishes, and every output renders that one result, so the
//! terminal, the JSON, the CSV and the report never disagree.
//!
//! ```
//! use shuffle_audit::study::{Study, Unobserved};
//! use shuffle_audit::{algorithm::Algorithm, engine::RunSpec, source::SourceSpec};
//!
//! # fn main() -> shuffle_audit::Result<()> {
//! let specs = ["naive-swap", "fisher-yates"].map(|name| {
//!     RunSpec::new(Algorithm::parse(name).unwrap(), 10, 100_000, SourceSpec::default(), 1)
//! });
//! let result = Study { alpha: 0.001, ..Study::new(specs.to_vec()) }.run(&Unobserved)?;
//! assert!(result.any_biased());
//! println!("{}", result.summary().to_json()); // what --json prints
//! // result.write(dir) writes summary, heatmaps and report.html into a staged folder.
//! # Ok(())
//! # }
//! ```

use crate::algorithm::Algorithm;
use crate::audit::{self, Audit, DEFAULT_ALPHA};
use crate::engine::{self, N_FROM_INPUT, RunSpec};
use crate::error::{Error, ErrorKind, Result};
use crate::experiment::mixing::{LoaderReport, MixingCurve as PlannedCurve, MixingPlan};
use crate::experiment::record::{RunStart, tool_version};
use crate::findings::Findings;
use crate::format::human_bytes;
use crate::kind::{self, Judged};
use crate::mixing::{self, MixingCurve};
use crate::output::{self, files, samples::SampleRecord, summary::Summary};
use crate::produce::FeedReport;
use crate::report::{self, MixingOutcome, Provenance, ReportInput};
use crate::sampler::audit::{self as sample_audit, SampleAudit};
use crate::sampler::run::{SampleFeedReport, SampleSpec};
use crate::stats::Verdict;
use crate::tally::Tally;
use crate::tally::sample::SampleTally;
use crate::values::check_alpha;
use std::path::{Path, PathBuf};

/// What a study runs and how it is judged and presented.
#[derive(Debug, Clone)]
pub struct Study {
    /// The report's title.
    pub title: String,
    /// Why the study was run (may be empty); paragraphs split at blank lines.
    pub purpose: String,
    /// The significance level of the verdicts (before any correction).
    pub alpha: f64,
    /// The shuffle audits, in the order they run and are shown.
    pub audits: Vec<RunSpec>,
    /// The sampler audits, run after the shuffles and judged with them
    /// (one Holm correction over every audit of the study).
    pub samples: Vec<SampleSpec>,
    /// A note per audit for the report (same order; missing means none).
    pub notes: Vec<Option<String>>,
    /// The per-audit trial budget of a sequential study (each audit doubles
    /// its trials until decisively biased or out of budget); `None` runs
    /// every audit once, at its own trials.
    pub until_decisive: Option<u64>,
    /// Mixing curves to measure.
    pub mixing: Vec<MixingPlan>,
    /// Audits that were planned but cannot run here, each with why (said in
    /// the report, never a failure).
    pub skipped: Vec<String>,
    /// Where the study comes from and how to redo it.
    pub provenance: Provenance,
}

/// Follows a study as it runs (progress bars, log lines), whatever kind of
/// subject each audit has. Audits are numbered in study order: the
/// shuffles, then the samplers. Every method has a do-nothing default.
pub trait Observer: Sync {
    /// Audit `index` starts, with `trials` trials (its budget for a
    /// sequential study; [`ALL_DECKS`](crate::engine::ALL_DECKS) for a file
    /// read to its end) of about `work` items each (n for a shuffle, k for
    /// a sample).
    fn begin(&self, index: usize, trials: u64, work: usize) {
        let _ = (index, trials, work);
    }

    /// `trials` more trials of the current audit are done (called from
    /// worker threads).
    fn advanced(&self, trials: u64) {
        let _ = trials;
    }

    /// Audit `index` finished after counting `trials` in `seconds` (its
    /// verdict is provisional until the whole study is judged).
    fn finished(&self, index: usize, trials: u64, seconds: f64) {
        let _ = (index, trials, seconds);
    }
}

/// An [`Observer`] that shows nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unobserved;

impl Observer for Unobserved {}

impl Study {
    /// A study of `audits` with the defaults: α = [`DEFAULT_ALPHA`], a title
    /// naming what is audited, no purpose, no mixing curves, and provenance
    /// naming the library call.
    pub fn new(audits: Vec<RunSpec>) -> Self {
        let call = format!("shuffle_audit::study::Study::new(..) ({})", tool_version());
        Self {
            title: default_title(&audits),
            purpose: String::new(),
            alpha: DEFAULT_ALPHA,
            notes: Vec::new(),
            until_decisive: None,
            mixing: Vec::new(),
            skipped: Vec::new(),
            provenance: Provenance::of(&RunStart::now(), call.clone(), vec![call]),
            audits,
            samples: Vec::new(),
        }
    }

    /// A study of sampler audits only, with the defaults of
    /// [`new`](Self::new) and a title naming what is audited.
    pub fn of_samples(samples: Vec<SampleSpec>) -> Self {
        Self {
            title: default_sample_title(&samples),
            samples,
            ..Self::new(Vec::new())
        }
    }

    /// The trials the study plans to count in all (budgets for a sequential
    /// study); [`ALL_DECKS`](crate::engine::ALL_DECKS) if any audit reads a
    /// file to its end.
    pub fn planned_trials(&self) -> u64 {
        let trials = self.audits.iter().map(|s| s.trials);
        trials
            .chain(self.samples.iter().map(|s| s.trials))
            .map(|t| self.until_decisive.unwrap_or(t))
            .fold(0, u64::saturating_add)
    }

    /// How many audits the study makes: its shuffles and its samplers.
    pub fn len(&self) -> usize {
        self.audits.len() + self.samples.len()
    }

    /// Whether the study has no audit at all (mixing curves only).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What the study will cost: the most memory one audit needs while it
    /// runs, and the bytes its files take (the count matrices dominate:
    /// n² numbers per audit, B² when binned). Estimates, made before
    /// anything runs.
    pub fn cost(&self) -> Cost {
        let counted = |s: &&RunSpec| s.n != N_FROM_INPUT;
        let memory = self
            .audits
            .iter()
            .filter(counted)
            .map(|s| {
                let threads = s.threads.unwrap_or_else(rayon::current_num_threads);
                engine::memory_needed(s.n, threads, s.collect())
            })
            .max()
            .unwrap_or(0);
        let output = self
            .audits
            .iter()
            .filter(counted)
            .map(|s| {
                let side = s.collect().bins.unwrap_or(s.n);
                counts_csv_bytes(s.n, side, self.until_decisive.unwrap_or(s.trials))
            })
            .fold(0, u128::saturating_add);
        Cost { memory, output }
    }

    /// [`cost`](Self::cost), refusing ([`ErrorKind::TooCostly`]) a study
    /// whose files would exceed [`MAX_OUTPUT_BYTES`].
    pub fn check_cost(&self) -> Result<Cost> {
        let cost = self.cost();
        if cost.output > MAX_OUTPUT_BYTES {
            return Err(Error::of_kind(
                ErrorKind::TooCostly,
                format!(
                    "this run would write about {} of count matrices (n² counts per audit; at \
                     most {} is allowed): audit fewer or smaller n, or bin the matrix (--bins)",
                    human_bytes(cost.output),
                    human_bytes(MAX_OUTPUT_BYTES)
                ),
            ));
        }
        Ok(cost)
    }

    /// Runs every audit (telling `observer`), judges them together and
    /// measures the mixing curves; nothing is written. Refuses, before
    /// anything runs, a bad α and a study whose files would be absurdly
    /// large ([`check_cost`](Self::check_cost)).
    pub fn run(self, observer: &dyn Observer) -> Result<StudyResult> {
        check_alpha(self.alpha)?;
        self.check_cost()?;
        let count = self.len();
        let budget = |trials| self.until_decisive.unwrap_or(trials);
        let mut audits = Vec::with_capacity(self.audits.len());
        for (i, spec) in self.audits.iter().enumerate() {
            observer.begin(i, budget(spec.trials), spec.n);
            let progress = |k| observer.advanced(k);
            let audit = match self.until_decisive {
                // Bonferroni across the audits: each sequential audit at alpha / m.
                Some(max) => audit::run_until_decisive(spec, self.alpha, max, count, &progress)?,
                None => audit::run(spec, self.alpha, &progress)?,
            };
            observer.finished(i, audit.spec.trials, audit.seconds);
            audits.push(audit);
        }
        let mut samples = Vec::with_capacity(self.samples.len());
        for (j, spec) in self.samples.iter().enumerate() {
            let i = self.audits.len() + j;
            let k = spec.sampler.known_k().unwrap_or(1) as usize;
            observer.begin(i, budget(spec.trials), k);
            let progress = |k| observer.advanced(k);
            let audit = match self.until_decisive {
                Some(max) => {
                    sample_audit::run_until_decisive(spec, self.alpha, max, count, &progress)?
                }
                None => sample_audit::run(spec, self.alpha, &progress)?,
            };
            observer.finished(i, audit.tally.trials(), audit.seconds);
            samples.push(audit);
        }
        Ok(self.finish(audits, samples))
    }

    /// Judges counts made elsewhere, one [`Counted`] per shuffle audit in
    /// study order, exactly as [`run`](Self::run) judges the counts it
    /// makes: the same tests, the same corrections across the audits, the
    /// same findings and files. This is how the shards of a run, merged,
    /// and a run resumed from a checkpoint are reported (see
    /// [`crate::shard`]). Refuses what `run` refuses, a sequential study
    /// (its looks decide how much is counted), and counts that do not match
    /// the study; a study with sampler audits gives their counts too, with
    /// [`conclude_all`](Self::conclude_all).
    pub fn conclude(self, counted: Vec<Counted>) -> Result<StudyResult> {
        self.conclude_all(counted, Vec::new())
    }

    /// [`conclude`](Self::conclude) for a study with sampler audits too:
    /// `counted` holds the shuffle audits' counts and `samples` the sampler
    /// audits', each in study order. Every audit is judged in the one Holm
    /// correction that [`run`](Self::run) applies over the whole study, so
    /// the same counts give the same verdicts and p-values.
    pub fn conclude_all(
        self,
        counted: Vec<Counted>,
        samples: Vec<CountedSamples>,
    ) -> Result<StudyResult> {
        check_alpha(self.alpha)?;
        self.check_cost()?;
        if self.until_decisive.is_some() {
            return Err(Error::of_kind(
                ErrorKind::Unsupported,
                "a sequential study decides its own trials: its counts cannot come from elsewhere",
            ));
        }
        if samples.len() != self.samples.len() {
            return Err(Error::bad_input(format!(
                "{} sampler tallies for {} sampler audits",
                samples.len(),
                self.samples.len()
            )));
        }
        if counted.len() != self.audits.len() {
            return Err(Error::bad_input(format!(
                "{} tallies for {} audits",
                counted.len(),
                self.audits.len()
            )));
        }
        let mut audits = Vec::with_capacity(counted.len());
        for (spec, c) in self.audits.iter().zip(counted) {
            let read = spec.subject.builtin().is_none();
            let n_fits = c.tally.n() == spec.n || (read && spec.n == N_FROM_INPUT);
            let trials_fit =
                c.tally.trials() == spec.trials || (read && c.tally.trials() <= spec.trials);
            if !n_fits || !trials_fit {
                return Err(Error::bad_input(format!(
                    "a tally of {} trials at n = {} does not belong to {} ({} trials at n = {})",
                    c.tally.trials(),
                    c.tally.n(),
                    spec.subject,
                    spec.trials,
                    spec.n
                )));
            }
            let mut audit = audit::evaluate(spec, c.tally, c.seconds, self.alpha);
            audit.feed = c.feed;
            audits.push(audit);
        }
        let mut judged = Vec::with_capacity(samples.len());
        for (spec, c) in self.samples.iter().zip(samples) {
            let read = spec.sampler.builtin().is_none();
            let k_fits = spec
                .sampler
                .known_k()
                .is_none_or(|k| c.tally.k() == k as usize);
            let trials_fit =
                c.tally.trials() == spec.trials || (read && c.tally.trials() <= spec.trials);
            if c.tally.n() != spec.n || !k_fits || !trials_fit {
                return Err(Error::bad_input(format!(
                    "a tally of {} samples of k = {} at N = {} does not belong to {} ({} samples \
                     at N = {})",
                    c.tally.trials(),
                    c.tally.k(),
                    c.tally.n(),
                    spec.sampler,
                    spec.trials,
                    spec.n
                )));
            }
            let mut audit = sample_audit::evaluate(spec, c.tally, c.seconds, self.alpha);
            audit.feed = c.feed;
            judged.push(audit);
        }
        Ok(self.finish(audits, judged))
    }

    /// Judges the finished `audits` together (unless the study is
    /// sequential: each of its audits was judged as it ran) and measures
    /// the mixing curves.
    fn finish(mut self, mut audits: Vec<Audit>, mut samples: Vec<SampleAudit>) -> StudyResult {
        // A default title made before n was known (decks read from outside
        // say n only once read) names the n counted.
        if !audits.is_empty() && self.title == default_title(&self.audits) {
            let counted: Vec<RunSpec> = audits.iter().map(|a| a.spec.clone()).collect();
            self.title = default_title(&counted);
        }
        if self.until_decisive.is_none() {
            let shuffles = audits.iter_mut().map(|a| a as &mut dyn Judged);
            let samplers = samples.iter_mut().map(|a| a as &mut dyn Judged);
            kind::judge_mixed(
                &mut shuffles.chain(samplers).collect::<Vec<_>>(),
                self.alpha,
            );
        }
        let mixing = self.mixing.iter().map(measure).collect();
        StudyResult::judged(self, audits, mixing).with_samples(samples)
    }
}

/// One audit's counts made outside [`Study::run`], for [`Study::conclude`].
#[derive(Debug, Clone, PartialEq)]
pub struct Counted {
    /// The counts.
    pub tally: Tally,
    /// Seconds spent counting them (shown as the audit's time).
    pub seconds: f64,
    /// What an outside feed gave, for counts of decks read from a file
    /// (`None` for a built-in algorithm's).
    pub feed: Option<FeedReport>,
}

/// One sampler audit's counts made outside [`Study::run`], for
/// [`Study::conclude_all`]: the [`Counted`] of a sampler.
#[derive(Debug, Clone, PartialEq)]
pub struct CountedSamples {
    /// The counts.
    pub tally: SampleTally,
    /// Seconds spent counting them (shown as the audit's time).
    pub seconds: f64,
    /// What an outside sampler's feed gave (`None` for a built-in
    /// sampler's counts).
    pub feed: Option<SampleFeedReport>,
}

/// The folder, inside a study's, of its sampler audits' files and report
/// when the study also audits shuffles.
pub const SAMPLERS_FOLDER: &str = "samplers";

/// The most a study may write: count matrices beyond this (a few hundred
/// million counts) are no report anyone can open.
pub const MAX_OUTPUT_BYTES: u128 = 1 << 30;

/// What a study costs, estimated before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Bytes of memory the largest audit needs while it runs.
    pub memory: u128,
    /// Bytes its files take.
    pub output: u128,
}

/// The size of counts.csv for `trials` shuffles of n: n² numbers of about
/// the digits of trials / n, each with a separator.
fn counts_csv_bytes(n: usize, side: usize, trials: u64) -> u128 {
    let per_cell = (n / side.max(1)) as u128;
    let mean = (trials as u128 * per_cell * per_cell / n.max(1) as u128).max(1);
    let digits = mean.ilog10() as u128 + 1;
    (side as u128).pow(2) * (digits + 1)
}

/// The title a study gets when nobody names it: "Audit of naive-swap at
/// n = 10", "Audit of 16 algorithms at n = 10".
pub fn default_title(audits: &[RunSpec]) -> String {
    match audits {
        [one] => format!("Audit of {} at n = {}", one.subject, one.n),
        [first, ..] => format!("Audit of {} algorithms at n = {}", audits.len(), first.n),
        [] => "Audit".to_string(),
    }
}

/// The title a study of samplers only gets when nobody names it: "Audit
/// of floyd:k=3 at N = 10", "Audit of 12 samplers".
pub fn default_sample_title(samples: &[SampleSpec]) -> String {
    match samples {
        [one] if one.sampler.builtin().is_none() => format!("Audit of {}", one.sampler),
        [one] => format!("Audit of {} at N = {}", one.sampler, one.n),
        [] => "Audit".to_string(),
        _ => format!("Audit of {} samplers", samples.len()),
    }
}

/// What a study found: its judged audits, the findings every output
/// renders, and its mixing curves.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StudyResult {
    /// The study that ran.
    pub study: Study,
    /// The judged audits, in study order (their specs completed from what
    /// was counted: a file's n and deck count).
    pub audits: Vec<Audit>,
    /// The judged sampler audits, in study order.
    pub samples: Vec<SampleAudit>,
    /// What the shuffle audits found, computed once.
    pub findings: Findings,
    /// The mixing curves, in study order.
    pub mixing: Vec<MeasuredMixing>,
}

/// One mixing curve of a study: what the report says of it, and the curve
/// itself when it was measured (for its CSV and PNG).
#[derive(Debug, Clone)]
pub struct MeasuredMixing {
    /// What became of it, as the report shows it.
    pub outcome: MixingOutcome,
    /// The measured curve.
    pub curve: Option<MixingCurve>,
}

impl StudyResult {
    /// The result of `study` whose `audits` have already run and been judged
    /// (e.g. one audit of a user's function in `cargo test`).
    pub fn judged(study: Study, audits: Vec<Audit>, mixing: Vec<MeasuredMixing>) -> Self {
        let findings = Findings::of(&audits, study.alpha);
        Self {
            study,
            audits,
            samples: Vec::new(),
            findings,
            mixing,
        }
    }

    /// This result with its sampler audits, already judged.
    pub fn with_samples(self, samples: Vec<SampleAudit>) -> Self {
        Self { samples, ..self }
    }

    /// The `summary.json` document (also what `--json` prints).
    pub fn summary(&self) -> Summary {
        let samplers = match self.audits.is_empty() {
            true => Vec::new(),
            false => self.samples.iter().map(SampleRecord::of).collect(),
        };
        Summary {
            samplers,
            ..Summary::of(&self.audits, &self.findings)
        }
    }

    /// Whether any audit was judged biased.
    pub fn any_biased(&self) -> bool {
        let shuffles = self.audits.iter().map(|a| a.verdict);
        shuffles
            .chain(self.samples.iter().map(|a| a.verdict))
            .any(|v| v == Verdict::Biased)
    }

    /// Writes every file of the study into `dir` (which should be staged:
    /// see [`files::staged`]): summary.json and .csv, comparison.png, a
    /// folder per audit, a folder per mixing curve, report.html and
    /// report.md.
    ///
    /// Sampler audits write their own files and report
    /// ([`report::samples::write`]): in `dir` itself when the study has no
    /// shuffle audit, else in `dir/samplers`, which the report links.
    pub fn write(&self, dir: &Path) -> Result<()> {
        if !self.samples.is_empty() {
            let title = &self.study.title;
            let provenance = &self.study.provenance;
            let alpha = self.study.alpha;
            let folder = match self.audits.is_empty() {
                true => dir.to_path_buf(),
                false => dir.join(SAMPLERS_FOLDER),
            };
            let judged_with = self.study.len();
            report::samples::write(
                &folder,
                title,
                &self.samples,
                judged_with,
                alpha,
                provenance,
            )?;
            if self.audits.is_empty() {
                return Ok(());
            }
        }
        output::write_run(dir, &self.audits, &self.findings, &self.summary())?;
        for measured in &self.mixing {
            if let (Some(curve), MixingOutcome::Measured(planned)) =
                (&measured.curve, &measured.outcome)
            {
                output::mixing::write_mixing(&dir.join(mixing_folder(&planned.plan)), curve)?;
            }
            if let MixingOutcome::Loaders(report) = &measured.outcome {
                let folder = dir.join(mixing_folder(&report.plan));
                output::mixing::write_loaders(&folder, &report.curve)?;
            }
        }
        let mut doc = report::content::build(&self.report_input());
        if !self.samples.is_empty() {
            let (judged_with, alpha) = (self.study.len(), self.study.alpha);
            let samplers =
                report::samples::study_section(&self.samples, judged_with, alpha, SAMPLERS_FOLDER);
            doc.sections.insert(1.min(doc.sections.len()), samplers);
            for (label, value) in &mut doc.facts {
                match label.as_str() {
                    "Audits" => {
                        *value = format!("{value} and {} sampler audits", self.samples.len());
                    }
                    "Verdicts" => {
                        let k = self.audits.len();
                        let all = format!("across the {judged_with} audits, shuffles and samplers");
                        *value = match k {
                            1 => format!("{value}, then {all}"),
                            _ => value.replace(&format!("across the {k} audits"), &all),
                        };
                    }
                    _ => {}
                }
            }
        }
        report::write_document(dir, &doc)?;
        Ok(())
    }

    /// Everything the report shows.
    pub fn report_input(&self) -> ReportInput<'_> {
        ReportInput {
            title: self.study.title.clone(),
            purpose: self.study.purpose.clone(),
            alpha: self.study.alpha,
            audits: &self.audits,
            findings: &self.findings,
            notes: self.study.notes.clone(),
            mixing: self.mixing.iter().map(|m| m.outcome.clone()).collect(),
            skipped: self.study.skipped.clone(),
            provenance: self.study.provenance.clone(),
        }
    }
}

impl Audit {
    /// Writes this audit's report (summary, heatmap, report.html and .md)
    /// into `dir`, replacing what an earlier report left there (a folder
    /// not written by shuffle-audit is refused); returns the HTML's path.
    /// What [`crate::custom::Audit::assert_fair`] does when it fails.
    pub fn write_report(&self, dir: &Path) -> Result<PathBuf> {
        let call = format!(
            "shuffle_audit::Audit::of_fn({:?}, {}, ..).trials({}).seed({})",
            self.spec.subject.to_string(),
            self.spec.n,
            self.spec.trials,
            self.spec.seed
        );
        let study = Study {
            alpha: self.alpha,
            provenance: Provenance::of(&RunStart::now(), call.clone(), vec![call]),
            ..Study::new(vec![self.spec.clone()])
        };
        let result = StudyResult::judged(study, vec![self.clone()], Vec::new());
        files::staged(dir, |staged| result.write(staged))?;
        Ok(dir.join(report::HTML_FILE))
    }
}

/// The folder of a mixing curve in the report folder.
fn mixing_folder(plan: &MixingPlan) -> String {
    format!("mixing-{}-n{}", plan.process, plan.n)
}

/// Measures the curve of `plan`: exact where the law is known, Monte Carlo
/// otherwise; a data loader's exact curve against its size. A process the
/// mixing library cannot measure, or a failure, is reported, not fatal.
fn measure(plan: &MixingPlan) -> MeasuredMixing {
    if let Some(loader) = plan.loader() {
        let outcome = match mixing::buffer::curve(loader, plan.n, &plan.steps) {
            Ok(curve) => MixingOutcome::Loaders(LoaderReport {
                plan: plan.clone(),
                curve,
                image: Some(format!("{}/loaders.png", mixing_folder(plan))),
            }),
            Err(e) => MixingOutcome::Failed(plan.clone(), e.to_string()),
        };
        return MeasuredMixing {
            outcome,
            curve: None,
        };
    }
    let Some(algorithm) = Algorithm::parse(&plan.process)
        .ok()
        .and_then(|a| a.with_k(1))
    else {
        return MeasuredMixing {
            outcome: MixingOutcome::NotAvailable(plan.clone()),
            curve: None,
        };
    };
    match measure_with(plan, algorithm) {
        Ok(curve) => {
            let method = match curve.statistic {
                Some(statistic) => {
                    format!("Monte Carlo, {} trials per k, via {statistic}", plan.trials)
                }
                None => "exact".to_string(),
            };
            MeasuredMixing {
                outcome: MixingOutcome::Measured(PlannedCurve {
                    plan: plan.clone(),
                    metric: format!("total variation distance to uniform ({method})"),
                    points: curve.points.clone(),
                    image: Some(format!("{}/mixing.png", mixing_folder(plan))),
                }),
                curve: Some(curve),
            }
        }
        Err(e) => MeasuredMixing {
            outcome: MixingOutcome::Failed(plan.clone(), e.to_string()),
            curve: None,
        },
    }
}

fn measure_with(plan: &MixingPlan, algorithm: Algorithm) -> Result<MixingCurve> {
    let ks = plan
        .steps
        .iter()
        .map(|&k| {
            u32::try_from(k).map_err(|_| {
                Error::out_of_range(format!("k = {k} is too large for a mixing curve"))
            })
        })
        .collect::<Result<Vec<u32>>>()?;
    let spec = mixing::MixingSpec {
        algorithm,
        n: plan.n,
        ks,
        monte_carlo: false,
        trials: plan.trials,
        source: plan.source,
        seed: plan.seed,
    };
    mixing::run(&spec, &crate::engine::no_progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ALL_DECKS;
    use crate::source::SourceSpec;
    use crate::stats::holm_log10;
    use crate::subject::Subject;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn spec(name: &str, trials: u64) -> RunSpec {
        RunSpec::new(
            Subject::from(Algorithm::parse(name).unwrap()),
            6,
            trials,
            SourceSpec::parse("xoshiro256pp").unwrap(),
            7,
        )
    }

    struct Counting(AtomicU64, AtomicU64);

    impl Observer for Counting {
        fn advanced(&self, trials: u64) {
            self.0.fetch_add(trials, Ordering::Relaxed);
        }
        fn finished(&self, _: usize, _: u64, _: f64) {
            self.1.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn shuffles_and_samplers_are_judged_in_one_correction_and_written_together() {
        let sample = |name: &str| {
            let sampler = crate::sampler::Sampler::parse(name).unwrap();
            SampleSpec::new(
                sampler,
                10,
                40_000,
                SourceSpec::parse("xoshiro256pp").unwrap(),
                7,
            )
        };
        let study = Study {
            samples: vec![sample("floyd:k=3"), sample("reservoir-off-by-one:k=3")],
            ..Study::new(vec![
                spec("naive-swap", 30_000),
                spec("fisher-yates", 30_000),
            ])
        };
        assert_eq!((study.len(), study.planned_trials()), (4, 140_000));
        let seen = Counting(AtomicU64::new(0), AtomicU64::new(0));
        let result = study.run(&seen).unwrap();
        assert_eq!(seen.0.load(Ordering::Relaxed), 140_000);
        assert_eq!(seen.1.load(Ordering::Relaxed), 4);
        let verdicts: Vec<Verdict> = (result.audits.iter().map(|a| a.verdict))
            .chain(result.samples.iter().map(|a| a.verdict))
            .collect();
        use Verdict::{Biased, NoBiasDetected};
        assert_eq!(verdicts, [Biased, NoBiasDetected, NoBiasDetected, Biased]);
        // One Holm correction over the four audits' own p-values.
        let raw: Vec<f64> = (result.audits.iter().map(|a| a.log10_p))
            .chain(result.samples.iter().map(|a| a.log10_p))
            .collect();
        let adjusted: Vec<f64> = (result.audits.iter().map(|a| a.log10_p_adjusted))
            .chain(result.samples.iter().map(|a| a.log10_p_adjusted))
            .collect();
        assert_eq!(adjusted, holm_log10(&raw));
        // Each sampler test is held to α / (its tests × the 4 audits).
        let floyd = &result.samples[0];
        let tests = floyd.tests.len() + floyd.not_run.len();
        assert_eq!(floyd.sensitivity.level, 0.001 / (4 * tests) as f64);
        // The samplers' files go beside the shuffles', in samplers/.
        let dir = std::env::temp_dir().join(format!("sa-mixed-study-{}", std::process::id()));
        files::staged(&dir, |staged| result.write(staged)).unwrap();
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap())
                .unwrap();
        assert_eq!(summary["audits"].as_array().unwrap().len(), 2);
        assert_eq!(summary["samplers"][1]["verdict"], "biased");
        assert!(dir.join(SAMPLERS_FOLDER).join("summary.json").is_file());
        assert!(dir.join(SAMPLERS_FOLDER).join(report::HTML_FILE).is_file());
        let report = std::fs::read_to_string(dir.join(report::MARKDOWN_FILE)).unwrap();
        assert!(report.contains("## Samplers"), "{report}");
        assert!(
            report.contains("across the 4 audits, shuffles and samplers"),
            "{report}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_study_runs_judges_and_reports_every_trial() {
        let study = Study::new(vec![
            spec("naive-swap", 30_000),
            spec("fisher-yates", 30_000),
        ]);
        assert_eq!(study.planned_trials(), 60_000);
        assert_eq!(study.title, "Audit of 2 algorithms at n = 6");
        let seen = Counting(AtomicU64::new(0), AtomicU64::new(0));
        let result = study.run(&seen).unwrap();
        assert_eq!(seen.0.load(Ordering::Relaxed), 60_000);
        assert_eq!(seen.1.load(Ordering::Relaxed), 2);
        assert_eq!(result.audits[0].verdict, Verdict::Biased);
        assert_eq!(result.audits[1].verdict, Verdict::NoBiasDetected);
        assert!(result.any_biased());
        assert_eq!(result.findings.audits.len(), 2);
        assert_eq!(result.summary().audits.len(), 2);
    }

    #[test]
    fn counts_made_elsewhere_are_judged_as_the_run_judges_its_own() {
        let specs = vec![spec("naive-swap", 30_000), spec("fisher-yates", 30_000)];
        let ran = Study::new(specs.clone()).run(&Unobserved).unwrap();
        let counted = ran
            .audits
            .iter()
            .map(|a| Counted {
                tally: a.tally.clone(),
                seconds: a.seconds,
                feed: None,
            })
            .collect();
        let concluded = Study::new(specs.clone()).conclude(counted).unwrap();
        assert_eq!(concluded.summary().to_json(), ran.summary().to_json());
        let short = vec![Counted {
            tally: ran.audits[0].tally.clone(),
            seconds: 0.0,
            feed: None,
        }];
        assert!(Study::new(specs.clone()).conclude(short).is_err());
        let wrong = ["fisher-yates", "naive-swap"].map(|name| Counted {
            tally: crate::engine::run(&spec(name, 1_000), &crate::engine::no_progress).unwrap(),
            seconds: 0.0,
            feed: None,
        });
        let e = Study::new(specs).conclude(wrong.to_vec()).unwrap_err();
        assert!(
            e.to_string().contains("does not belong to naive-swap"),
            "{e}"
        );
    }

    #[test]
    fn a_bad_alpha_is_refused_before_anything_runs() {
        let study = Study {
            alpha: 0.0,
            ..Study::new(vec![spec("naive-swap", 1_000)])
        };
        let seen = Counting(AtomicU64::new(0), AtomicU64::new(0));
        assert!(study.run(&seen).is_err());
        assert_eq!(seen.0.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn absurd_output_is_refused_before_the_run() {
        let mut big = spec("fisher-yates", 1_000_000_000);
        big.n = 20_000;
        let study = Study::new(vec![big]);
        let cost = study.cost();
        // 4e8 counts of 5 digits and a comma.
        assert_eq!(cost.output, 400_000_000 * 6);
        let e = study.check_cost().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TooCostly);
        assert!(e.to_string().contains("would write about 2.2 GiB"), "{e}");
        let seen = Counting(AtomicU64::new(0), AtomicU64::new(0));
        assert!(study.run(&seen).is_err());
        assert_eq!(seen.0.load(Ordering::Relaxed), 0, "nothing ran");
        let small = Study::new(vec![spec("fisher-yates", 1_000)]);
        assert!(small.check_cost().unwrap().memory > 0);
    }

    #[test]
    fn files_read_to_their_end_plan_an_unknown_total() {
        let study = Study::new(vec![spec("naive-swap", ALL_DECKS)]);
        assert_eq!(study.planned_trials(), ALL_DECKS);
    }
}
