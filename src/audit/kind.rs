//! What differs between kinds of subject, and nothing else: the [`Kind`]
//! trait. Everything else ([`Audit`], judging, sequential looks, studies,
//! shards, summaries, reports) is written once, over any `K: Kind`.

use super::{Audit, FeedReport, Produced, Sensitivity, Spec};
use crate::error::Result;
use crate::ingest::{Batches, CommandSpec, Format, Ingested, Resume};
use crate::pacing::{ChunkRange, Progress};
use crate::plot::{HeatmapPanel, LogScale};
use crate::report::model::Section;
use crate::stats::{TestResult, Verdict};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::fmt::{Debug, Display};
use std::io::Read;
use std::path::Path;

/// A kind of subject: what differs between shuffles, samplers and any
/// other thing whose randomness can be counted and tested.
///
/// A new kind is one `impl` of this trait: [`Spec<K>`](Spec) and
/// [`Audit<K>`](Audit) then run, judge, shard, merge, summarise and report
/// it with every other kind (see `tests/third_kind.rs`, which audits a die).
pub trait Kind: Sized + Clone + Debug + PartialEq + Send + Sync + 'static {
    /// The kind's name in files and records: `shuffle`, `sampler`.
    const NAME: &'static str;

    /// A built-in subject of this kind (an algorithm, a sampler with its
    /// parameters), named by [`parse`](Self::parse).
    type Builtin: Clone + PartialEq + Debug + Display + Send + Sync;
    /// What a spec of this kind holds beyond the shared header (a
    /// shuffle's tests and deck, a weighted pick's weights).
    type Options: Clone + PartialEq + Debug + Send + Sync;
    /// How output made outside the tool is read (a shuffle's starting
    /// order and categories, a sample's shape and numbering); recorded in
    /// an input checkpoint.
    type Reading: Clone + PartialEq + Debug + Send + Sync + Serialize;
    /// What reading an outside feed found out beyond its count (the items
    /// of a deck, how samples numbered their items); saved with the counts
    /// in an input checkpoint.
    type Read: Clone + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned;
    /// The counts of a run: mergeable, and saved in tally files.
    type Tally: Clone + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned;
    /// One test of the kind's battery.
    type Test: Copy + Eq + Debug + Display + Named + Serialize + Send + Sync + 'static;
    /// What the tests found beyond their results (a shuffle's
    /// position-by-value figures, a sampler's most deviant cells).
    type Found: Clone + Debug + Send + Sync;
    /// What is found once the whole study is judged (a shuffle's trial
    /// plan and per-line tests); `()` where nothing is.
    type Findings: Clone + Debug + Send + Sync;

    // The registry.

    /// The built-in subject called `name` (with `NAME:key=value`
    /// parameters), or an error suggesting the closest name.
    fn parse(name: &str) -> Result<Self::Builtin>;

    /// A folder-safe name for a built-in subject.
    fn slug(builtin: &Self::Builtin) -> String;

    /// The verdict an audit of `spec` should reach with enough trials, as
    /// the subject's record says; `None` when nobody knows (output made
    /// outside the tool), so that only the audit judges it.
    fn expected(spec: &Spec<Self>) -> Option<Verdict>;

    /// The kind's options of a spec of `n` items unless the request
    /// says otherwise (a shuffle's default tests at n).
    fn options(n: usize) -> Self::Options;

    // What a run needs.

    /// Refuses, before anything runs, what this kind cannot count for
    /// `spec` (n out of range, k above N, weights that do not fit, a test
    /// that cannot run at this n, more memory than the machine has).
    fn check(spec: &Spec<Self>) -> Result<()>;

    /// Trials per chunk of a built-in run of `spec`: part of the
    /// reproducibility contract (chunk `c` draws from stream `c` of the
    /// seed).
    fn chunk_trials(spec: &Spec<Self>) -> u64;

    /// What a report notes of `spec` beside its verdict (a deck's tests
    /// that were left out), if anything.
    fn note(spec: &Spec<Self>) -> Option<String> {
        let _ = spec;
        None
    }

    /// The trials a run of `spec` needs at `alpha` when nobody says: enough
    /// for "no bias detected" to mean something (and, where the kind knows
    /// a typical bug, to catch it). What every front runs by default.
    fn default_trials(spec: &Spec<Self>, alpha: f64) -> u64;

    /// Items one trial handles (n for a shuffle, k for a sample): how
    /// progress and cost are weighed.
    fn work(spec: &Spec<Self>) -> usize;

    /// What a run of `spec` costs before it runs: the memory it needs
    /// and the bytes its files take. Zero for kinds whose cost is small.
    fn cost(spec: &Spec<Self>) -> Cost {
        let _ = spec;
        Cost::default()
    }

    /// Starts, in the background, whatever the tests will need once the
    /// counting is done (laws that take a while to compute).
    fn prepare(spec: &Spec<Self>) {
        let _ = spec;
    }

    // Counting.

    /// The empty tally of `spec`: the shape its counts must have.
    fn empty(spec: &Spec<Self>) -> Result<Self::Tally>;

    /// Counts the chunks `chunks` of `spec`, a built-in subject's run,
    /// reporting each finished chunk's trials to `progress`. The tallies
    /// of disjoint ranges merge into their union's, bit for bit.
    fn count(spec: &Spec<Self>, chunks: ChunkRange, progress: Progress<'_>) -> Result<Self::Tally>;

    /// Reads what `reader` holds for `spec` (lines of text, or binary
    /// records of `format`), named `name` in messages, and counts it: how
    /// a file, stdin, and output handed over in memory are read alike.
    fn read_from(
        spec: &Spec<Self>,
        reader: &mut (dyn Read + Send),
        name: &str,
        format: Format,
        progress: Progress<'_>,
    ) -> Result<Produced<Self>>;

    /// A counter that batches of binary records of `spec` (written in
    /// `format`) are pushed into one after another, each counted exactly
    /// as [`read_from`](Self::read_from) counts it (one stream, the same
    /// errors), into one count kept between them: how a front that draws
    /// trials batch by batch counts them without a read per batch. `None`
    /// where the kind has no such counter (or not for `format`): the
    /// caller then reads each batch with [`read_from`](Self::read_from).
    fn batches(spec: &Spec<Self>, format: Format) -> Result<Option<Box<dyn Batches<Self::Tally>>>> {
        let _ = (spec, format);
        Ok(None)
    }

    /// Reads the file at `path` for `spec` (lines of text, or binary
    /// records of `format`) from `resume.at`, a point an earlier read of
    /// the same file reached, reading the rest as that read did (with what
    /// it found out and counted, `resume.before`), and tells
    /// `resume.saver` how far it has got as it goes: how a long read of a
    /// file is checkpointed and resumed, for every kind alike
    /// ([`crate::shard::input`]). What it returns is this read's only (the
    /// records before `resume.at` excluded). Kinds that do not read files
    /// in blocks refuse it.
    fn read_file_from(
        spec: &Spec<Self>,
        path: &Path,
        format: Format,
        resume: Resume<'_, Self::Tally, Self::Read>,
        progress: Progress<'_>,
    ) -> Result<Ingested<Self::Tally, Self::Read>> {
        let _ = (path, format, resume, progress);
        Err(crate::error::Error::unsupported(format!(
            "{}: a read of {} is not checkpointed",
            spec.subject,
            Self::unit(spec)
        )))
    }

    /// Runs `command` for `spec` (its copies in parallel, each printing
    /// its share of the trials, seeded from the spec's seed) and counts
    /// what it prints.
    fn read_command(
        spec: &Spec<Self>,
        command: &CommandSpec,
        progress: Progress<'_>,
    ) -> Result<Produced<Self>>;

    /// Adds `other`'s counts to `into`.
    fn merge(into: &mut Self::Tally, other: &Self::Tally);

    /// The trials `tally` holds.
    fn trials(tally: &Self::Tally) -> u64;

    /// Whether `tally` has the shape of `spec`'s counts (a tally file's
    /// counts are checked before they are merged or judged).
    fn fits(spec: &Spec<Self>, tally: &Self::Tally) -> bool;

    // Judging.

    /// The spec as `tally` was counted: its trials are what was counted (a
    /// file may hold fewer than asked), and whatever the input said (n, a
    /// deck whose items repeat) is filled in.
    fn complete(
        spec: &Spec<Self>,
        tally: &Self::Tally,
        feed: Option<&FeedReport<Self>>,
    ) -> Result<Spec<Self>>;

    /// Runs every test that applies to `tally`, counted for `spec`:
    /// their raw p-values (the audit applies Holm across them), the tests
    /// that could not run with why, and what they found.
    fn test(spec: &Spec<Self>, tally: &Self::Tally) -> Tested<Self>;

    /// What `audit` could have detected with its tests each held to
    /// `alpha / family`: the figure behind "no bias detected", and why an
    /// inconclusive run cannot tell with the trials a verdict needs.
    fn sensitivity(audit: &Audit<Self>, alpha: f64, family: usize) -> Sensitivity;

    /// What is found once `audit` is judged among `audits_in_run`.
    fn find(audit: &Audit<Self>, audits_in_run: usize) -> Self::Findings;

    // Words and outputs.

    /// The plural noun of one trial of `spec`: `shuffles`, `samples`,
    /// `picks`.
    fn unit(spec: &Spec<Self>) -> &'static str;

    /// What reading an outside feed found out, in words for records (`the
    /// labels AS, 2S, ...`, `items numbered from 1`), at `n`.
    fn read_words(read: &Self::Read, n: usize) -> String;

    /// What was run or read, in one phrase, the same in every output:
    /// `200,000 shuffles of n = 10 items, chacha8 with seed 7`.
    fn drawn_words(audit: &Audit<Self>) -> String;

    /// The largest deviation in words: for a biased verdict the decisive
    /// test's most deviant cell, otherwise the largest |z| seen.
    fn deviation_words(audit: &Audit<Self>) -> String;

    /// The largest deviation in a few characters, for a terminal's table
    /// (`1.27× v1 p0 exact`, `0.74× item 0`, `none stands out`); by
    /// default [`deviation_words`](Self::deviation_words).
    fn deviation_short(audit: &Audit<Self>) -> String {
        Self::deviation_words(audit)
    }

    /// The trials the verdict table advises, in a few words, when the
    /// kind plans them (a shuffle's trials for 90% power); `None` leaves
    /// the advice to the sensitivity (the trials a verdict needs).
    fn plan_words(audit: &Audit<Self>) -> Option<String> {
        let _ = audit;
        None
    }

    /// The counts every front shows, as rows (a matrix, or one row of
    /// counts per item).
    fn table(audit: &Audit<Self>) -> Vec<Vec<u64>>;

    /// The kind's own fields of the audit's record in `summary.json`,
    /// beside the fields every kind has.
    fn record(audit: &Audit<Self>) -> Map<String, Value>;

    /// The files of the audit's own folder (counts as CSV, pictures as
    /// PNG), by name.
    fn files(audit: &Audit<Self>) -> Result<Vec<(String, Vec<u8>)>>;

    /// The audit's section of the report, anchored `anchor`, with its
    /// files in `folder` and the study's `note` on it.
    fn section(audit: &Audit<Self>, folder: &str, anchor: &str, note: Option<&str>) -> Section;

    /// The sections of the report's method that an audit of this kind
    /// needs (how its tests are calibrated, when it is conclusive); a
    /// report holds each (by id) once, however many audits need it.
    fn method(audit: &Audit<Self>) -> Vec<Section>;

    /// The audit's square in the report's grid of every audit, with its
    /// own colour scale (the grid shares the widest of the scales).
    fn panel(audit: &Audit<Self>) -> Option<(HeatmapPanel, LogScale)>;

    /// What `run --check` compares of a rerun: the counts `recorded` (the
    /// audit's record in the report's `summary.json`; its folder is
    /// `folder`) holds against the rerun's.
    fn recheck(audit: &Audit<Self>, recorded: &Value, folder: &Path) -> Result<Recheck>;

    /// What a tally file records of `spec`: enough to rebuild it with
    /// [`from_recorded`](Self::from_recorded) and to tell two runs apart.
    fn recorded(spec: &Spec<Self>) -> Value;

    /// The spec recorded as `value`, run on `threads` workers.
    fn from_recorded(value: &Value, threads: Option<usize>) -> Result<Spec<Self>>;
}

/// A test as outputs name it: `name` on the command line and in files,
/// `title` in tables and reports.
pub trait Named {
    /// The name used on the command line and in outputs.
    fn name(self) -> &'static str;

    /// A short human title for tables and reports.
    fn title(self) -> &'static str;

    /// What the test catches, in a sentence (the report's method).
    fn description(self) -> &'static str;
}

/// What a kind's tests found on one tally, before any judging.
#[derive(Debug, Clone)]
pub struct Tested<K: Kind> {
    /// Every test that ran, with its raw p-value.
    pub results: Vec<TestResult<K::Test>>,
    /// The tests that could not run at this many trials, each with why.
    pub not_run: Vec<(K::Test, String)>,
    /// What the tests found beyond their results.
    pub found: K::Found,
}

/// What `run --check` found comparing one audit's counts with a rerun's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recheck {
    /// Every count compared is the same.
    Same {
        /// How many counts were compared.
        counts: u64,
        /// What they are (`position-by-value counts`, `inclusion counts`).
        what: &'static str,
    },
    /// The first difference, in words.
    Different(String),
}

/// What a run costs before it runs: the most memory it needs and the
/// bytes its files take. Estimates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cost {
    /// Bytes of memory while it runs.
    pub memory: u128,
    /// Bytes of files it writes.
    pub output: u128,
}
