//! A study: the audits (of any kinds) and mixing curves of one run, judged
//! together and shown as one set of findings.
//!
//! `shuffle-audit audit`, `shuffle-audit run`, the Python package, the page
//! and a program calling the library all do the same three things: build a
//! [`Study`] (from a [`crate::request::Request`], or by hand), [`Study::run`]
//! it, and show the [`StudyResult`] (print it, [`StudyResult::write`] its
//! files, or read its records). What was found is computed once, when the
//! study finishes, and every output renders that one result, so the
//! terminal, the JSON, the CSV and the report never disagree.
//!
//! ```
//! use shuffle_audit::audit::{Planned, Spec};
//! use shuffle_audit::shuffle::{Algorithm, Shuffles};
//! use shuffle_audit::{source::SourceSpec, study::{Study, Unobserved}};
//!
//! # fn main() -> shuffle_audit::Result<()> {
//! let specs: Vec<Box<dyn Planned>> = ["naive-swap", "fisher-yates"]
//!     .iter()
//!     .map(|name| {
//!         let algorithm = Algorithm::parse(name).unwrap();
//!         let spec = Spec::<Shuffles>::new(algorithm, 10, 100_000, SourceSpec::default(), 1);
//!         Box::new(spec) as Box<dyn Planned>
//!     })
//!     .collect();
//! let result = Study { alpha: 0.001, ..Study::new(specs) }.run(&Unobserved)?;
//! assert!(result.any_biased());
//! println!("{}", result.summary().to_json()); // what --json prints
//! // result.write(dir) writes summary, pictures and report.html into a staged folder.
//! # Ok(())
//! # }
//! ```

mod report;
mod summary;

pub use report::{
    COMPARISON_FILE, VERDICT_SECTION_ID, VERDICT_TABLE_ID, anchor, is_surprise, paragraphs,
    tool_words, verdict_counts, verdicts_markdown,
};
pub use summary::{SUMMARY_SCHEMA, Summary};

use crate::algorithm::Algorithm;
use crate::audit::{Counts, DEFAULT_ALPHA, Judged, Planned, Record, judge};
use crate::error::{Error, ErrorKind, Result};
use crate::format::human_bytes;
use crate::mixing::plan::{LoaderReport, MixingCurve as PlannedCurve, MixingPlan};
use crate::mixing::{self, MixingCurve};
use crate::output::{self, files};
use crate::plot::{self, LogScale};
use crate::report::model::Document;
use crate::report::provenance::{RunStart, tool_version};
use crate::report::{self as document, MixingOutcome, Provenance};
use crate::stats::Verdict;
use crate::values::check_alpha;
use std::collections::HashMap;
use std::path::Path;

/// What a study runs and how it is judged and presented.
#[derive(Debug, Clone)]
pub struct Study {
    /// The report's title.
    pub title: String,
    /// Why the study was run (may be empty); paragraphs split at blank lines.
    pub purpose: String,
    /// The significance level of the verdicts (before any correction).
    pub alpha: f64,
    /// The audits, of any kinds, in the order they run and are shown.
    pub audits: Vec<Box<dyn Planned>>,
    /// A note per audit from the request (same order; missing means
    /// none): an experiment table's `note`, how decimal weights were
    /// scaled. The kind's own note is the finished audit's
    /// ([`StudyResult::note`]), so that a deck read from outside, and the
    /// merge of a run's shards, are noted as one run on one machine is.
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
/// subject each audit has. Every method has a do-nothing default.
pub trait Observer: Sync {
    /// Audit `index` starts, with `trials` trials (its budget for a
    /// sequential study; [`crate::audit::ALL_TRIALS`] for a file read to
    /// its end) of about `work` items each (n for a shuffle, k for a
    /// sample).
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

/// One audit's counts made outside [`Study::run`] (a shard's, a resumed
/// run's), for [`Study::conclude`].
#[derive(Debug, Clone)]
pub struct Counted {
    /// The counts.
    pub counts: Box<dyn Counts>,
    /// Seconds spent counting them (shown as the audit's time).
    pub seconds: f64,
}

/// The most a study may write: count matrices beyond this (a few hundred
/// million counts) are no report anyone can open.
pub const MAX_OUTPUT_BYTES: u128 = 1 << 30;

/// What a study costs, estimated before it runs.
pub use crate::audit::Cost;

impl Study {
    /// A study of `audits` with the defaults: α = [`DEFAULT_ALPHA`], a title
    /// naming what is audited, no purpose, no mixing curves, and provenance
    /// naming the library call.
    pub fn new(audits: Vec<Box<dyn Planned>>) -> Self {
        let call = format!("shuffle_audit::study::Study::new(..) ({})", tool_version());
        Self::with_provenance(
            audits,
            Provenance::of(&RunStart::now(), call.clone(), vec![call]),
        )
    }

    /// [`new`](Self::new) with `provenance` given, not read from the clock
    /// and the git checkout here (which WebAssembly in a browser or Node
    /// has neither of).
    pub fn with_provenance(audits: Vec<Box<dyn Planned>>, provenance: Provenance) -> Self {
        Self {
            title: default_title(&audits),
            purpose: String::new(),
            alpha: DEFAULT_ALPHA,
            notes: Vec::new(),
            until_decisive: None,
            mixing: Vec::new(),
            skipped: Vec::new(),
            provenance,
            audits,
        }
    }

    /// The trials the study plans to count in all (budgets for a sequential
    /// study); [`crate::audit::ALL_TRIALS`] if any audit reads a file to
    /// its end.
    pub fn planned_trials(&self) -> u64 {
        self.audits
            .iter()
            .map(|a| self.until_decisive.unwrap_or(a.trials()))
            .fold(0, u64::saturating_add)
    }

    /// How many audits the study makes.
    pub fn len(&self) -> usize {
        self.audits.len()
    }

    /// Whether the study has no audit at all (mixing curves only).
    pub fn is_empty(&self) -> bool {
        self.audits.is_empty()
    }

    /// What the study will cost: the most memory one audit needs while it
    /// runs, and the bytes its files take. Estimates, made before anything
    /// runs; a sequential study is costed at its budget.
    pub fn cost(&self) -> Cost {
        self.audits.iter().fold(Cost::default(), |cost, a| {
            let planned = match self.until_decisive {
                Some(budget) => a.with_trials(budget),
                None => a.clone(),
            };
            let c = planned.cost();
            Cost {
                memory: cost.memory.max(c.memory),
                output: cost.output.saturating_add(c.output),
            }
        })
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
        let mut audits = Vec::with_capacity(count);
        for (i, spec) in self.audits.iter().enumerate() {
            observer.begin(i, self.until_decisive.unwrap_or(spec.trials()), spec.work());
            let progress = |k| observer.advanced(k);
            let audit = match self.until_decisive {
                // Bonferroni across the audits: each sequential audit at α / m.
                Some(max) => spec.run_until_decisive(self.alpha, max, count, &progress)?,
                None => spec.run(self.alpha, &progress)?,
            };
            observer.finished(i, audit.trials(), audit.seconds());
            audits.push(audit);
        }
        Ok(self.finish(audits))
    }

    /// Judges counts made elsewhere, one [`Counted`] per audit in study
    /// order, exactly as [`run`](Self::run) judges the counts it makes: the
    /// same tests, the same corrections across the audits, the same
    /// findings and files. This is how the shards of a run, merged, and a
    /// run resumed from a checkpoint are reported (see [`crate::shard`]).
    /// Refuses what `run` refuses, a sequential study (its looks decide how
    /// much is counted), and counts that do not match the study.
    pub fn conclude(self, counted: Vec<Counted>) -> Result<StudyResult> {
        check_alpha(self.alpha)?;
        self.check_cost()?;
        if self.until_decisive.is_some() {
            return Err(Error::of_kind(
                ErrorKind::Unsupported,
                "a sequential study decides its own trials: its counts cannot come from elsewhere",
            ));
        }
        if counted.len() != self.audits.len() {
            return Err(Error::bad_input(format!(
                "{} tallies for {} audits",
                counted.len(),
                self.audits.len()
            )));
        }
        let audits = self
            .audits
            .iter()
            .zip(counted)
            .map(|(spec, c)| spec.judge_counts(c.counts, c.seconds, self.alpha))
            .collect::<Result<Vec<_>>>()?;
        Ok(self.finish(audits))
    }

    /// Judges the finished `audits` together (unless the study is
    /// sequential: each of its audits was judged as it ran) and measures
    /// the mixing curves.
    fn finish(mut self, mut audits: Vec<Box<dyn Judged>>) -> StudyResult {
        // A default title made before n was known (a file says n only once
        // read) names the n counted.
        if self.title == default_title(&self.audits) {
            let counted: Vec<Box<dyn Planned>> = audits.iter().map(|a| a.planned()).collect();
            self.title = default_title(&counted);
        }
        if self.until_decisive.is_none() {
            judge(&mut audits, self.alpha);
        }
        let mixing = self.mixing.iter().map(measure).collect();
        StudyResult::judged(self, audits, mixing)
    }
}

/// The title a study gets when nobody names it: "Audit of naive-swap at
/// n = 10", "Audit of 16 shuffles at n = 10", "Audit of 12 samplers",
/// "Audit of 3 subjects".
pub fn default_title(audits: &[Box<dyn Planned>]) -> String {
    let Some(first) = audits.first() else {
        return "Audit".to_string();
    };
    let same_n = audits.iter().all(|a| a.n() == first.n()) && first.n() > 0;
    let at_n = if same_n {
        format!(" at n = {}", first.n())
    } else {
        String::new()
    };
    if audits.len() == 1 {
        return format!("Audit of {}{at_n}", first.subject());
    }
    let what = match audits.iter().all(|a| a.kind() == first.kind()) {
        true => format!("{}s", first.kind()),
        false => "subjects".to_string(),
    };
    format!("Audit of {} {what}{at_n}", audits.len())
}

/// What a study found: its judged audits (of every kind, in study order,
/// their specs completed from what was counted: a file's n and deck), and
/// its mixing curves.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StudyResult {
    /// The study that ran.
    pub study: Study,
    /// The judged audits, in study order.
    pub audits: Vec<Box<dyn Judged>>,
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
    /// What the report notes of audit `i`: the request's note (an
    /// experiment table's `note`, how decimal weights were scaled) and the
    /// kind's note of the finished audit (a source too small for n, the
    /// tests a deck leaves out).
    pub fn note(&self, i: usize) -> Option<String> {
        let asked = self.study.notes.get(i).cloned().flatten();
        let found = self.audits.get(i).and_then(|a| a.note());
        match (asked, found) {
            (Some(a), Some(f)) => Some(format!("{a} {f}")),
            (a, f) => a.or(f),
        }
    }

    /// Every audit's note, each said once, in study order: the notes a
    /// terminal prints under the verdict table.
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = Vec::new();
        for note in (0..self.audits.len()).filter_map(|i| self.note(i)) {
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
        notes
    }

    /// The result of `study` whose `audits` have already run and been
    /// judged: what each found, computed once, among them all.
    pub fn judged(
        study: Study,
        mut audits: Vec<Box<dyn Judged>>,
        mixing: Vec<MeasuredMixing>,
    ) -> Self {
        let count = audits.len();
        for audit in &mut audits {
            audit.find(count);
        }
        Self {
            study,
            audits,
            mixing,
        }
    }

    /// Every audit's record, in study order: what every output states.
    pub fn records(&self) -> Vec<Record> {
        self.audits.iter().map(|a| a.record()).collect()
    }

    /// The `summary.json` document (also what `--json` prints).
    pub fn summary(&self) -> Summary {
        Summary::of(&self.audits, self.study.alpha, &self.study.provenance.meta)
    }

    /// Whether every audit was judged "no bias detected" (none biased, none
    /// inconclusive): what a CI job that needs a conclusive pass asks.
    pub fn all_pass(&self) -> bool {
        self.audits
            .iter()
            .all(|a| a.verdict() == Verdict::NoBiasDetected)
    }

    /// Whether any audit was judged biased.
    pub fn any_biased(&self) -> bool {
        self.audits.iter().any(|a| a.verdict() == Verdict::Biased)
    }

    /// The folder of each audit's files in the report folder: the subject's
    /// slug, with its n and source where two audits would share it, and a
    /// number where they still would.
    pub fn folders(&self) -> Vec<String> {
        let mut slugs: HashMap<String, usize> = HashMap::new();
        for a in &self.audits {
            *slugs.entry(a.slug()).or_default() += 1;
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        self.audits
            .iter()
            .map(|a| {
                let slug = a.slug();
                let base = match slugs[&slug] {
                    1 => slug,
                    _ => format!("{slug}_n{}_{}", a.n(), source_name(&a.source_label())),
                };
                let count = seen.entry(base.clone()).or_insert(0);
                *count += 1;
                match *count {
                    1 => base,
                    k => format!("{base}-{k}"),
                }
            })
            .collect()
    }

    /// The report of the study, as a document (what [`write`](Self::write)
    /// renders as `report.html` and `report.md`).
    pub fn document(&self) -> Document {
        report::build(self, &self.folders(), &self.records())
    }

    /// Writes every file of the study into `dir` (which should be staged:
    /// see `files::staged`): summary.json and .csv, comparison.png, a
    /// folder per audit with its kind's files, a folder per mixing curve,
    /// report.html and report.md.
    pub fn write(&self, dir: &Path) -> Result<()> {
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
        // The report embeds the mixing curves' pictures, just written.
        let beside = |relative: &str| std::fs::read(dir.join(relative)).ok();
        for (name, bytes) in self.files_beside(&beside)? {
            files::write_atomic(&dir.join(name), &bytes)?;
        }
        Ok(())
    }

    /// Every file [`write`](Self::write) writes but the mixing curves', in
    /// memory, each with its path in the report folder (`/`-separated),
    /// `report.html` and `report.md` last: what a front without a file
    /// system (WebAssembly) hands its user to save.
    pub fn files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        self.files_beside(&|_| None)
    }

    /// [`files`](Self::files), the report's pictures found among them or
    /// by `beside` (a picture already written into the report folder).
    fn files_beside(
        &self,
        beside: &dyn Fn(&str) -> Option<Vec<u8>>,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        let summary = self.summary();
        let mut out = vec![
            ("summary.json".to_string(), summary.to_json().into_bytes()),
            ("summary.csv".to_string(), summary.to_csv().into_bytes()),
        ];
        let mut panels = Vec::new();
        let mut scales = Vec::new();
        for (audit, folder) in self.audits.iter().zip(self.folders()) {
            for (name, bytes) in audit.files()? {
                out.push((format!("{folder}/{name}"), bytes));
            }
            if let Some((panel, scale)) = audit.panel() {
                panels.push(panel);
                scales.push(scale);
            }
        }
        // One scale for all panels: the widest of theirs.
        if let Some(shared) = LogScale::widest(scales) {
            let png = plot::draw_comparison(&panels, &shared).map_err(|e| Error::Output {
                path: COMPARISON_FILE.into(),
                message: e.0,
            })?;
            out.push((COMPARISON_FILE.to_string(), png));
        }
        let document = self.document();
        let image = |relative: &str| {
            out.iter()
                .find(|(name, _)| name == relative)
                .map(|(_, bytes)| bytes.clone())
                .or_else(|| beside(relative))
        };
        let html = document::html::render(&document, &image);
        let markdown = document::markdown::render(&document);
        out.push((document::HTML_FILE.to_string(), html.into_bytes()));
        out.push((document::MARKDOWN_FILE.to_string(), markdown.into_bytes()));
        Ok(out)
    }
}

/// Writes the report of one judged `audit` (its summary, files,
/// report.html and .md) into `dir`, replacing what an earlier report left
/// there (a folder not written by shuffle-audit is refused), with
/// `provenance` saying how to redo it; returns the HTML's path. What a
/// failing [`crate::custom::CustomAudit::assert_fair`] writes.
pub fn write_report(
    audit: Box<dyn Judged>,
    provenance: Provenance,
    dir: &Path,
) -> Result<std::path::PathBuf> {
    files::staged(dir, |staged| alone(audit, provenance).write(staged))?;
    Ok(dir.join(document::HTML_FILE))
}

/// The files of the report of one judged `audit`, in memory
/// ([`StudyResult::files`]): what [`write_report`] writes, for a front
/// without a file system (the npm package).
pub fn report_files(
    audit: Box<dyn Judged>,
    provenance: Provenance,
) -> Result<Vec<(String, Vec<u8>)>> {
    alone(audit, provenance).files()
}

/// The study of one judged `audit`, made by `provenance`.
fn alone(audit: Box<dyn Judged>, provenance: Provenance) -> StudyResult {
    let study = Study {
        alpha: audit.alpha(),
        ..Study::with_provenance(vec![audit.planned()], provenance)
    };
    StudyResult {
        study,
        audits: vec![audit],
        mixing: Vec::new(),
    }
}

/// The bare name of a source label (`chacha8` of `chacha8`, `seed32` of
/// `seed32:bits=32`), for folder names.
fn source_name(label: &str) -> &str {
    label.split(':').next().unwrap_or(label)
}

/// The folder of a mixing curve in the report folder.
fn mixing_folder(plan: &MixingPlan) -> String {
    format!("mixing-{}-n{}", plan.process, plan.n)
}

/// Measures the curve of `plan`: exact where the law is known, Monte Carlo
/// otherwise; a data loader's exact curve against its size. A process the
/// mixing library cannot measure, or a failure, is reported, not fatal.
fn measure(plan: &MixingPlan) -> MeasuredMixing {
    let failed = |e: Error| MixingOutcome::Failed(plan.clone(), e.to_string());
    let algorithm = Algorithm::parse(&plan.process)
        .ok()
        .and_then(|a| a.with_k(1));
    let (outcome, curve) = match (plan.loader(), algorithm) {
        (Some(loader), _) => match mixing::buffer::curve(loader, plan.n, &plan.steps) {
            Ok(curve) => (
                MixingOutcome::Loaders(LoaderReport {
                    plan: plan.clone(),
                    curve,
                    image: Some(format!("{}/loaders.png", mixing_folder(plan))),
                }),
                None,
            ),
            Err(e) => (failed(e), None),
        },
        (None, None) => (MixingOutcome::NotAvailable(plan.clone()), None),
        (None, Some(algorithm)) => match measure_with(plan, algorithm) {
            Ok(curve) => {
                let method = match curve.statistic {
                    Some(statistic) => {
                        format!("Monte Carlo, {} trials per k, via {statistic}", plan.trials)
                    }
                    None => "exact".to_string(),
                };
                let measured = PlannedCurve {
                    plan: plan.clone(),
                    metric: format!("total variation distance to uniform ({method})"),
                    points: curve.points.clone(),
                    image: Some(format!("{}/mixing.png", mixing_folder(plan))),
                };
                (MixingOutcome::Measured(measured), Some(curve))
            }
            Err(e) => (failed(e), None),
        },
    };
    MeasuredMixing { outcome, curve }
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
    use crate::audit::{ALL_TRIALS, Audit, Spec};
    use crate::sampler::{Sampler, Samplers};
    use crate::shuffle::Shuffles;
    use crate::source::SourceSpec;
    use crate::stats::holm_log10;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A built-in shuffle at n = 6, on xoshiro256++ with seed 7.
    fn spec(name: &str, trials: u64) -> Spec<Shuffles> {
        Spec::new(
            Algorithm::parse(name).unwrap(),
            6,
            trials,
            SourceSpec::parse("xoshiro256pp").unwrap(),
            7,
        )
    }

    /// A built-in sampler of N = 10, 40,000 samples on xoshiro256++ with
    /// seed 7.
    fn sample(name: &str) -> Spec<Samplers> {
        Spec::new(
            Sampler::parse(name).unwrap(),
            10,
            40_000,
            SourceSpec::parse("xoshiro256pp").unwrap(),
            7,
        )
    }

    /// The specs as a study's list of audits.
    fn planned<K: crate::audit::Kind>(specs: Vec<Spec<K>>) -> Vec<Box<dyn Planned>> {
        specs.into_iter().map(Into::into).collect()
    }

    /// Counts the trials it is told of, and the audits that finish.
    struct Counting(AtomicU64, AtomicU64);

    impl Counting {
        fn new() -> Self {
            Self(AtomicU64::new(0), AtomicU64::new(0))
        }
    }

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
        let mut audits = planned(vec![
            spec("naive-swap", 30_000),
            spec("fisher-yates", 30_000),
        ]);
        audits.extend(planned(vec![
            sample("floyd:k=3"),
            sample("reservoir-off-by-one:k=3"),
        ]));
        let study = Study::new(audits);
        assert_eq!((study.len(), study.planned_trials()), (4, 140_000));
        assert_eq!(study.title, "Audit of 4 subjects");
        let seen = Counting::new();
        let result = study.run(&seen).unwrap();
        assert_eq!(seen.0.load(Ordering::Relaxed), 140_000);
        assert_eq!(seen.1.load(Ordering::Relaxed), 4);
        let verdicts: Vec<Verdict> = result.audits.iter().map(|a| a.verdict()).collect();
        use Verdict::{Biased, NoBiasDetected};
        assert_eq!(verdicts, [Biased, NoBiasDetected, NoBiasDetected, Biased]);
        assert!(result.any_biased());
        assert_eq!(result.summary().audits.len(), 4);
        // What each audit found is computed once the study is judged.
        for audit in &result.audits[..2] {
            let audit: &Audit<Shuffles> = audit.as_any().downcast_ref().unwrap();
            assert!(audit.findings().is_some(), "{}", audit.spec().subject);
        }
        let shuffles = planned(vec![spec("naive-swap", 1), spec("fisher-yates", 1)]);
        assert_eq!(default_title(&shuffles), "Audit of 2 shuffles at n = 6");
        // One Holm correction over the four audits' own p-values.
        let raw: Vec<f64> = result.audits.iter().map(|a| a.log10_p()).collect();
        let adjusted: Vec<f64> = result.audits.iter().map(|a| a.log10_p_adjusted()).collect();
        assert_eq!(adjusted, holm_log10(&raw));
        // Each sampler test is held to α / (its tests × the 4 audits).
        let floyd: &Audit<Samplers> = result.audits[2].as_any().downcast_ref().unwrap();
        let tests = floyd.tests().len() + floyd.not_run().len();
        assert_eq!(floyd.sensitivity().level, 0.001 / (4 * tests) as f64);
        // One summary, one report, a folder per audit: no samplers/ apart.
        let folders = result.folders();
        assert_eq!(
            folders,
            [
                "naive-swap",
                "fisher-yates",
                "floyd_k-3",
                "reservoir-off-by-one_k-3"
            ]
        );
        let dir = std::env::temp_dir().join(format!("sa-mixed-study-{}", std::process::id()));
        files::staged(&dir, |staged| result.write(staged)).unwrap();
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap())
                .unwrap();
        assert_eq!(summary["schema"], SUMMARY_SCHEMA);
        let records = summary["audits"].as_array().unwrap();
        let kinds: Vec<&str> = records
            .iter()
            .map(|r| r["kind"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["shuffle", "shuffle", "sampler", "sampler"]);
        assert_eq!(records[3]["subject"], "reservoir-off-by-one:k=3");
        assert_eq!(records[3]["verdict"], "biased");
        assert!(summary.get("samplers").is_none());
        assert!(!dir.join("samplers").exists());
        assert!(dir.join("naive-swap").join("counts.csv").is_file());
        assert!(dir.join("floyd_k-3").join("inclusion.csv").is_file());
        assert!(dir.join(document::HTML_FILE).is_file());
        let report = std::fs::read_to_string(dir.join(document::MARKDOWN_FILE)).unwrap();
        assert!(
            report.contains("Holm-corrected across the 4 audits"),
            "{report}"
        );
        assert!(report.contains("reservoir-off-by-one:k=3"), "{report}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn counts_made_elsewhere_are_judged_as_the_run_judges_its_own() {
        let specs = planned(vec![
            spec("naive-swap", 30_000),
            spec("fisher-yates", 30_000),
        ]);
        let ran = Study::new(specs.clone()).run(&Unobserved).unwrap();
        let counted = ran
            .audits
            .iter()
            .map(|a| Counted {
                counts: a.counts(),
                seconds: a.seconds(),
            })
            .collect();
        let concluded = Study::new(specs.clone()).conclude(counted).unwrap();
        assert_eq!(concluded.summary().to_json(), ran.summary().to_json());
        let short = vec![Counted {
            counts: ran.audits[0].counts(),
            seconds: 0.0,
        }];
        assert!(Study::new(specs.clone()).conclude(short).is_err());
        let wrong = ["fisher-yates", "naive-swap"].map(|name| {
            let spec = spec(name, 1_000);
            Counted {
                counts: Planned::count(&spec, spec.chunks(), &crate::audit::no_progress).unwrap(),
                seconds: 0.0,
            }
        });
        let e = Study::new(specs.clone())
            .conclude(wrong.to_vec())
            .unwrap_err();
        assert!(
            e.to_string().contains("does not belong to naive-swap"),
            "{e}"
        );
        // Counts of another kind are refused for what they are.
        let floyd = sample("floyd:k=3");
        let other = |counts| Counted {
            counts,
            seconds: 0.0,
        };
        let kinds = vec![
            other(Planned::count(&floyd, floyd.chunks(), &crate::audit::no_progress).unwrap()),
            other(ran.audits[1].counts()),
        ];
        let e = Study::new(specs).conclude(kinds).unwrap_err();
        assert!(
            e.to_string()
                .contains("counts of a sampler audit where a shuffle audit's were expected"),
            "{e}"
        );
    }

    #[test]
    fn a_bad_alpha_is_refused_before_anything_runs() {
        let study = Study {
            alpha: 0.0,
            ..Study::new(planned(vec![spec("naive-swap", 1_000)]))
        };
        let seen = Counting::new();
        assert!(study.run(&seen).is_err());
        assert_eq!(seen.0.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn absurd_output_is_refused_before_the_run() {
        let mut big = spec("fisher-yates", 1_000_000_000);
        big.n = 20_000;
        let study = Study::new(planned(vec![big]));
        let cost = study.cost();
        // 4e8 counts of 5 digits and a comma.
        assert_eq!(cost.output, 400_000_000 * 6);
        let e = study.check_cost().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TooCostly);
        assert!(e.to_string().contains("would write about 2.2 GiB"), "{e}");
        let seen = Counting::new();
        assert!(study.run(&seen).is_err());
        assert_eq!(seen.0.load(Ordering::Relaxed), 0, "nothing ran");
        let small = Study::new(planned(vec![spec("fisher-yates", 1_000)]));
        assert!(small.check_cost().unwrap().memory > 0);
    }

    #[test]
    fn files_read_to_their_end_plan_an_unknown_total() {
        let study = Study::new(planned(vec![spec("naive-swap", ALL_TRIALS)]));
        assert_eq!(study.planned_trials(), ALL_TRIALS);
    }
}
