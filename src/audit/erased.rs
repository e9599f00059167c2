//! The audits of a study, of any kinds at once: [`Planned`] is a
//! [`Spec<K>`](Spec) and [`Judged`] an [`Audit<K>`](Audit) whose kind is
//! not named, [`Counts`] a tally. A study holds one list of each, and
//! studies, shards, summaries and reports are written once against these,
//! for every kind (one blanket `impl` per trait, over every `K: Kind`).

use super::{
    Audit, Cost, Kind, Look, Named, NextBatch, Produced, Recheck, Record, Sensitivity, Spec,
    evaluate, read_until_decisive, run, run_until_decisive,
};
use crate::error::{Error, Result};
use crate::ingest::Batches;
use crate::pacing::{ChunkRange, Progress};
use crate::plot::{HeatmapPanel, LogScale};
use crate::report::model::Section;
use crate::stats::Verdict;
use serde_json::Value;
use std::any::Any;
use std::fmt::Debug;

/// An audit to run, of any kind: what a study plans.
pub trait Planned: Debug + Send + Sync {
    /// The kind of subject ([`Kind::NAME`]).
    fn kind(&self) -> &'static str;

    /// The subject with its parameters, as outputs name it.
    fn subject(&self) -> String;

    /// A folder-safe name of the subject.
    fn slug(&self) -> String;

    /// Items shuffled, or the population sampled (0: the input says).
    fn n(&self) -> usize;

    /// Where a subject from outside's output comes from; `None` for a
    /// built-in subject.
    fn feed(&self) -> Option<super::Feed>;

    /// Trials asked for.
    fn trials(&self) -> u64;

    /// The run's seed.
    fn seed(&self) -> u64;

    /// The random source as outputs name it (`own` for a subject from
    /// outside).
    fn source_label(&self) -> String;

    /// Whether the subject is built in: drawn in chunks of the seed, so
    /// that its run can be split into shards, saved and resumed.
    fn is_builtin(&self) -> bool;

    /// Items one trial handles (for progress and cost).
    fn work(&self) -> usize;

    /// What the run costs before it runs.
    fn cost(&self) -> Cost;

    /// The run's chunks (a built-in subject's).
    fn chunks(&self) -> ChunkRange;

    /// Runs and judges the audit alone at `alpha` (see [`run`]).
    fn run(&self, alpha: f64, progress: Progress<'_>) -> Result<Box<dyn Judged>>;

    /// Runs the audit look after look (see [`run_until_decisive`]).
    fn run_until_decisive(
        &self,
        alpha: f64,
        max_trials: u64,
        audits_in_run: usize,
        progress: Progress<'_>,
    ) -> Result<Box<dyn Judged>>;

    /// Reads output drawn on demand (a Python function's) look after look,
    /// `next(batch)` giving each look's batch (see [`read_until_decisive`]):
    /// a finished sequential audit, judged alone with its findings.
    fn read_until_decisive(
        &self,
        alpha: f64,
        max_trials: u64,
        format: crate::ingest::Format,
        next: &mut NextBatch<'_>,
        progress: Progress<'_>,
    ) -> Result<Box<dyn Judged>>;

    /// Reads and judges what `reader` holds for this run, an outside
    /// subject's output handed over in memory (see [`super::read_given`]):
    /// a finished audit, judged alone with its findings, as a study of one
    /// would give it.
    fn read_given(
        &self,
        reader: &mut (dyn std::io::Read + Send),
        format: crate::ingest::Format,
        alpha: f64,
        from_function: bool,
        progress: Progress<'_>,
    ) -> Result<Box<dyn Judged>>;

    /// Reads what `reader` holds for this run into counts, not judged: one
    /// piece of an outside subject's output handed over piece by piece (the
    /// page's batches), to be merged ([`Counts::merge`]) and judged with
    /// [`judge_counts`](Self::judge_counts). Each piece is read as one
    /// stream, as a file's block is.
    fn read_counts(
        &self,
        reader: &mut (dyn std::io::Read + Send),
        format: crate::ingest::Format,
        progress: Progress<'_>,
    ) -> Result<Box<dyn Counts>>;

    /// A counter that batches of binary records of this run (written in
    /// `format`) are pushed into one after another, each counted exactly
    /// as [`read_counts`](Self::read_counts) of it would count it, into
    /// one count kept between them ([`Kind::batches`]); `None` where the
    /// kind has none (or not for `format`): read each batch with
    /// [`read_counts`](Self::read_counts) then.
    fn batches(&self, format: crate::ingest::Format) -> Result<Option<CountBatches>>;

    /// The empty counts of the run.
    fn empty(&self) -> Result<Box<dyn Counts>>;

    /// Counts the chunks `chunks` of a built-in subject's run.
    fn count(&self, chunks: ChunkRange, progress: Progress<'_>) -> Result<Box<dyn Counts>>;

    /// Judges `counts` made elsewhere (the merged shards of the run, a
    /// resumed run) in `seconds`, alone at `alpha`, exactly as [`run`]
    /// judges the counts it makes; refuses counts of another kind or
    /// shape.
    fn judge_counts(
        &self,
        counts: Box<dyn Counts>,
        seconds: f64,
        alpha: f64,
    ) -> Result<Box<dyn Judged>>;

    /// Counts of this run saved as `value` (in a tally file), checked to
    /// have its shape.
    fn counts_from(&self, value: Value) -> Result<Box<dyn Counts>>;

    /// Whether `counts` have the shape of this run's (its kind, n and
    /// tests): what may be merged into its counts.
    fn fits(&self, counts: &dyn Counts) -> bool;

    /// What a tally file records of the run ([`Kind::recorded`]).
    fn recorded(&self) -> Value;

    /// The same run on `threads` workers.
    fn on_threads(&self, threads: Option<usize>) -> Box<dyn Planned>;

    /// The same run of `trials` trials.
    fn with_trials(&self, trials: u64) -> Box<dyn Planned>;

    /// A copy.
    fn clone_box(&self) -> Box<dyn Planned>;

    /// The spec itself, to be downcast to a `Spec<K>`.
    fn as_any(&self) -> &dyn Any;
}

/// Batches of records counted into [`Counts`] of any kind
/// ([`Planned::batches`]).
pub type CountBatches = Box<dyn Batches<Box<dyn Counts>>>;

/// A tally of any kind: counts that merge and are saved in tally files.
pub trait Counts: Debug + Send + Sync {
    /// The kind of subject counted.
    fn kind(&self) -> &'static str;

    /// Trials counted.
    fn trials(&self) -> u64;

    /// Adds `other`'s counts; refuses counts of another kind.
    fn merge(&mut self, other: &dyn Counts) -> Result<()>;

    /// The counts as saved in a tally file.
    fn to_json(&self) -> Value;

    /// Whether `other` holds the same counts.
    fn same(&self, other: &dyn Counts) -> bool;

    /// A copy.
    fn clone_box(&self) -> Box<dyn Counts>;

    /// The tally itself, to be downcast to a `K::Tally`.
    fn as_any(&self) -> &dyn Any;

    /// The tally itself, owned.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

/// A finished audit of any kind: what a study judges and every output
/// states.
pub trait Judged: Debug + Send + Sync {
    /// What was run, completed from what was counted: the audit's own
    /// spec, whose accessors the ones below restate.
    fn plan(&self) -> &dyn Planned;

    /// [`plan`](Self::plan), owned.
    fn planned(&self) -> Box<dyn Planned> {
        self.plan().clone_box()
    }

    /// The kind of subject ([`Kind::NAME`]).
    fn kind(&self) -> &'static str {
        self.plan().kind()
    }

    /// The subject with its parameters, as outputs name it.
    fn subject(&self) -> String {
        self.plan().subject()
    }

    /// A folder-safe name of the subject.
    fn slug(&self) -> String {
        self.plan().slug()
    }

    /// Where a subject from outside's output came from; `None` for a
    /// built-in subject.
    fn feed(&self) -> Option<super::Feed> {
        self.plan().feed()
    }

    /// Items shuffled, or the population sampled.
    fn n(&self) -> usize {
        self.plan().n()
    }

    /// The random source as outputs name it.
    fn source_label(&self) -> String {
        self.plan().source_label()
    }

    /// Trials counted.
    fn trials(&self) -> u64;

    /// Wall-clock seconds of the counting.
    fn seconds(&self) -> f64;

    /// The audit's own p (log10), before corrections across the run.
    fn log10_p(&self) -> f64;

    /// The p the verdict compared with α (log10), after every correction.
    fn log10_p_adjusted(&self) -> f64;

    /// The significance level (before any correction).
    fn alpha(&self) -> f64;

    /// The verdict.
    fn verdict(&self) -> Verdict;

    /// The verdict the subject's record expects, if anybody knows.
    fn expected(&self) -> Option<Verdict>;

    /// What the run could have detected.
    fn sensitivity(&self) -> &Sensitivity;

    /// The looks of a sequential audit.
    fn looks(&self) -> &[Look];

    /// The titles of the tests that saw the bias, strongest first.
    fn seen_by_titles(&self) -> Vec<&'static str>;

    /// Restates the verdict after the run's corrections (see
    /// [`Audit::conclude`]).
    fn conclude(&mut self, log10_p_adjusted: f64, alpha: f64, copies: usize);

    /// Computes what is found once the study is judged (see
    /// [`Audit::find`]).
    fn find(&mut self, audits_in_run: usize);

    /// The record every output states.
    fn record(&self) -> Record;

    /// What a report notes of the audit beside its verdict, from what
    /// was run ([`Kind::note`] of the completed spec: a deck read from
    /// outside is known only then).
    fn note(&self) -> Option<String>;

    /// The largest deviation in a few characters (see
    /// [`Kind::deviation_short`]).
    fn deviation_short(&self) -> String;

    /// Why the audit is not "no bias detected", with the trials a verdict
    /// needs spelled as `front` spells them (see [`Audit::failure_message`]).
    fn failure_message(&self, front: crate::error::Front) -> String;

    /// The counts every front shows, as rows: a shuffle's position-by-value
    /// matrix (by kind for a deck whose items repeat), a sampler's draws
    /// per item as one row.
    fn table(&self) -> Vec<Vec<u64>>;

    /// The files of the audit's own folder, by name.
    fn files(&self) -> Result<Vec<(String, Vec<u8>)>>;

    /// The audit's report section (see [`Kind::section`]).
    fn section(&self, folder: &str, anchor: &str, note: Option<&str>) -> Section;

    /// The sections of the report's method this audit needs (see
    /// [`Kind::method`]).
    fn method(&self) -> Vec<Section>;

    /// The titles and descriptions of the tests that ran (the report's
    /// "what each test detects").
    fn described(&self) -> Vec<(&'static str, &'static str)>;

    /// The audit's square in the report's grid of every audit, with its
    /// own colour scale.
    fn panel(&self) -> Option<(HeatmapPanel, LogScale)>;

    /// The counts.
    fn counts(&self) -> Box<dyn Counts>;

    /// What `run --check` compares (see [`Kind::recheck`]).
    fn recheck(&self, recorded: &Value, folder: &std::path::Path) -> Result<Recheck>;

    /// A copy.
    fn clone_box(&self) -> Box<dyn Judged>;

    /// The audit itself, to be downcast to an `Audit<K>`.
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn Planned> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl Clone for Box<dyn Judged> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl Clone for Box<dyn Counts> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A kind's batch counter ([`Kind::batches`]), handing its counts back as
/// [`Counts`].
struct BatchesOf<K: Kind>(Box<dyn Batches<K::Tally>>);

impl<K: Kind> Batches<Box<dyn Counts>> for BatchesOf<K> {
    fn push(&mut self, bytes: &[u8]) -> Result<()> {
        self.0.push(bytes)
    }

    fn trials(&self) -> u64 {
        self.0.trials()
    }

    fn counts(&self) -> Box<dyn Counts> {
        Box::new(TallyOf::<K>(self.0.counts()))
    }
}

/// A kind's tally as [`Counts`].
pub(crate) struct TallyOf<K: Kind>(pub(crate) K::Tally);

impl<K: Kind> Debug for TallyOf<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<K: Kind> Counts for TallyOf<K> {
    fn kind(&self) -> &'static str {
        K::NAME
    }

    fn trials(&self) -> u64 {
        K::trials(&self.0)
    }

    fn merge(&mut self, other: &dyn Counts) -> Result<()> {
        let other = tally_of::<K>(other)?;
        K::merge(&mut self.0, other);
        Ok(())
    }

    fn to_json(&self) -> Value {
        serde_json::to_value(&self.0).expect("a tally serialises")
    }

    fn same(&self, other: &dyn Counts) -> bool {
        tally_of::<K>(other).is_ok_and(|t| *t == self.0)
    }

    fn clone_box(&self) -> Box<dyn Counts> {
        Box::new(TallyOf::<K>(self.0.clone()))
    }

    fn as_any(&self) -> &dyn Any {
        &self.0
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        Box::new(self.0)
    }
}

/// The `K::Tally` of `counts`, refusing counts of another kind.
fn tally_of<K: Kind>(counts: &dyn Counts) -> Result<&K::Tally> {
    counts.as_any().downcast_ref::<K::Tally>().ok_or_else(|| {
        Error::bad_input(format!(
            "counts of a {} audit where a {} audit's were expected",
            counts.kind(),
            K::NAME
        ))
    })
}

impl<K: Kind> Planned for Spec<K> {
    fn kind(&self) -> &'static str {
        K::NAME
    }

    fn subject(&self) -> String {
        self.subject.to_string()
    }

    fn slug(&self) -> String {
        self.subject.slug()
    }

    fn n(&self) -> usize {
        self.n
    }

    fn feed(&self) -> Option<super::Feed> {
        self.subject.outside().map(|o| o.feed.clone())
    }

    fn trials(&self) -> u64 {
        self.trials
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn source_label(&self) -> String {
        Spec::source_label(self)
    }

    fn is_builtin(&self) -> bool {
        self.subject.builtin().is_some()
    }

    fn work(&self) -> usize {
        K::work(self)
    }

    fn cost(&self) -> Cost {
        K::cost(self)
    }

    fn chunks(&self) -> ChunkRange {
        Spec::chunks(self)
    }

    fn run(&self, alpha: f64, progress: Progress<'_>) -> Result<Box<dyn Judged>> {
        Ok(Box::new(run(self, alpha, progress)?))
    }

    fn run_until_decisive(
        &self,
        alpha: f64,
        max_trials: u64,
        audits_in_run: usize,
        progress: Progress<'_>,
    ) -> Result<Box<dyn Judged>> {
        let audit = run_until_decisive(self, alpha, max_trials, audits_in_run, progress)?;
        Ok(Box::new(audit))
    }

    fn read_until_decisive(
        &self,
        alpha: f64,
        max_trials: u64,
        format: crate::ingest::Format,
        next: &mut NextBatch<'_>,
        progress: Progress<'_>,
    ) -> Result<Box<dyn Judged>> {
        let mut audit = read_until_decisive(self, alpha, max_trials, format, next, progress)?;
        audit.find(1);
        Ok(Box::new(audit))
    }

    fn read_given(
        &self,
        reader: &mut (dyn std::io::Read + Send),
        format: crate::ingest::Format,
        alpha: f64,
        from_function: bool,
        progress: Progress<'_>,
    ) -> Result<Box<dyn Judged>> {
        let mut audit = super::read_given(self, reader, format, alpha, from_function, progress)?;
        audit.find(1);
        Ok(Box::new(audit))
    }

    fn read_counts(
        &self,
        reader: &mut (dyn std::io::Read + Send),
        format: crate::ingest::Format,
        progress: Progress<'_>,
    ) -> Result<Box<dyn Counts>> {
        K::prepare(self);
        let name = self.subject.to_string();
        let produced = K::read_from(self, reader, &name, format, progress)?;
        Ok(Box::new(TallyOf::<K>(produced.tally)))
    }

    fn batches(&self, format: crate::ingest::Format) -> Result<Option<CountBatches>> {
        K::prepare(self);
        Ok(K::batches(self, format)?
            .map(|batches| Box::new(BatchesOf::<K>(batches)) as CountBatches))
    }

    fn empty(&self) -> Result<Box<dyn Counts>> {
        Ok(Box::new(TallyOf::<K>(K::empty(self)?)))
    }

    fn count(&self, chunks: ChunkRange, progress: Progress<'_>) -> Result<Box<dyn Counts>> {
        if self.subject.builtin().is_none() {
            return Err(Error::unsupported(format!(
                "{} is not built in: only built-in subjects are drawn in chunks that can be \
                 split across machines or saved and resumed",
                self.subject
            )));
        }
        let all = Spec::chunks(self);
        if chunks.size != all.size || chunks.end > all.end || chunks.first > chunks.end {
            return Err(Error::bad_input(format!(
                "chunks {chunks} (of {} trials) do not belong to {}: a run of {} chunks of {}",
                chunks.size, self.subject, all.end, all.size
            )));
        }
        K::check(self)?;
        Ok(Box::new(TallyOf::<K>(K::count(self, chunks, progress)?)))
    }

    fn judge_counts(
        &self,
        counts: Box<dyn Counts>,
        seconds: f64,
        alpha: f64,
    ) -> Result<Box<dyn Judged>> {
        let tally = tally_of::<K>(counts.as_ref())?.clone();
        let read = self.subject.builtin().is_none();
        let trials = K::trials(&tally);
        let trials_fit = trials == self.trials || (read && trials <= self.trials);
        if !trials_fit || !K::fits(self, &tally) {
            return Err(Error::bad_input(format!(
                "a tally of {trials} trials does not belong to {} ({} trials at n = {})",
                self.subject, self.trials, self.n
            )));
        }
        let produced = Produced { tally, feed: None };
        Ok(Box::new(evaluate(self, produced, seconds, alpha)?))
    }

    fn fits(&self, counts: &dyn Counts) -> bool {
        tally_of::<K>(counts).is_ok_and(|tally| K::fits(self, tally))
    }

    fn counts_from(&self, value: Value) -> Result<Box<dyn Counts>> {
        let tally: K::Tally = serde_json::from_value(value)
            .map_err(|e| Error::bad_input(format!("not the counts of {}: {e}", self.subject)))?;
        if !K::fits(self, &tally) {
            return Err(Error::bad_input(format!(
                "the counts of {} do not have the shape of its tests at n = {}",
                self.subject, self.n
            )));
        }
        Ok(Box::new(TallyOf::<K>(tally)))
    }

    fn recorded(&self) -> Value {
        K::recorded(self)
    }

    fn on_threads(&self, threads: Option<usize>) -> Box<dyn Planned> {
        Box::new(Spec {
            threads,
            ..self.clone()
        })
    }

    fn with_trials(&self, trials: u64) -> Box<dyn Planned> {
        Box::new(Spec {
            trials,
            ..self.clone()
        })
    }

    fn clone_box(&self) -> Box<dyn Planned> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl<K: Kind> Judged for Audit<K> {
    fn plan(&self) -> &dyn Planned {
        &self.spec
    }

    fn trials(&self) -> u64 {
        Audit::trials(self)
    }

    fn seconds(&self) -> f64 {
        self.seconds
    }

    fn log10_p(&self) -> f64 {
        self.log10_p
    }

    fn log10_p_adjusted(&self) -> f64 {
        self.log10_p_adjusted
    }

    fn alpha(&self) -> f64 {
        self.alpha
    }

    fn verdict(&self) -> Verdict {
        self.verdict
    }

    fn expected(&self) -> Option<Verdict> {
        K::expected(&self.spec)
    }

    fn sensitivity(&self) -> &Sensitivity {
        &self.sensitivity
    }

    fn looks(&self) -> &[Look] {
        &self.looks
    }

    fn seen_by_titles(&self) -> Vec<&'static str> {
        self.seen_by().iter().map(|t| t.test.title()).collect()
    }

    fn conclude(&mut self, log10_p_adjusted: f64, alpha: f64, copies: usize) {
        Audit::conclude(self, log10_p_adjusted, alpha, copies);
    }

    fn find(&mut self, audits_in_run: usize) {
        Audit::find(self, audits_in_run);
    }

    fn record(&self) -> Record {
        Record::of(self)
    }

    fn note(&self) -> Option<String> {
        K::note(&self.spec)
    }

    fn deviation_short(&self) -> String {
        K::deviation_short(self)
    }

    fn failure_message(&self, front: crate::error::Front) -> String {
        Audit::failure_message(self, front)
    }

    fn table(&self) -> Vec<Vec<u64>> {
        K::table(self)
    }

    fn files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        K::files(self)
    }

    fn section(&self, folder: &str, anchor: &str, note: Option<&str>) -> Section {
        K::section(self, folder, anchor, note)
    }

    fn method(&self) -> Vec<Section> {
        K::method(self)
    }

    fn described(&self) -> Vec<(&'static str, &'static str)> {
        self.tests
            .iter()
            .map(|t| (t.test.title(), t.test.description()))
            .collect()
    }

    fn panel(&self) -> Option<(HeatmapPanel, LogScale)> {
        K::panel(self)
    }

    fn counts(&self) -> Box<dyn Counts> {
        Box::new(TallyOf::<K>(self.tally.clone()))
    }

    fn recheck(&self, recorded: &Value, folder: &std::path::Path) -> Result<Recheck> {
        K::recheck(self, recorded, folder)
    }

    fn clone_box(&self) -> Box<dyn Judged> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl<K: Kind> From<Spec<K>> for Box<dyn Planned> {
    fn from(spec: Spec<K>) -> Self {
        Box::new(spec)
    }
}

impl<K: Kind> From<Audit<K>> for Box<dyn Judged> {
    fn from(audit: Audit<K>) -> Self {
        Box::new(audit)
    }
}
