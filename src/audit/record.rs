//! One audit as every output states it: the record of `summary.json` (and
//! a row of `summary.csv`, the terminal's verdict table and the report's),
//! the same fields for every kind, and the kind's own beside them.
//!
//! p-values appear twice: as stated (`p_*`, never below 1e-12, with
//! `*_is_bound` true where the value is only the bound "p < 1e-12") and as
//! `log10_p_*`, the exact log10 of the approximation's tail. The log10 form
//! keeps full precision for p-values that are real probabilities; below −12
//! it only ranks, it is not a probability claim (see
//! [`crate::stats::pvalue`]).

use super::{Audit, Kind, Look, Named};
use crate::stats::{TestResult, Verdict, pvalue};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One audit of any kind, as `summary.json` records it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    /// The kind of subject: `shuffle`, `sampler`.
    pub kind: &'static str,
    /// The subject with its parameters (`random-swap:k=100`,
    /// `floyd:k=3`), or the name of one from outside.
    pub subject: String,
    /// Items shuffled, or the population sampled (N).
    pub n: usize,
    /// Trials counted.
    pub trials: u64,
    /// What a trial is, in the plural: `shuffles`, `samples`, `picks`.
    pub unit: &'static str,
    /// What was run or read, in one phrase (the same as the report).
    pub drawn: String,
    /// The random source with its parameters; `own` for a subject from
    /// outside that brings its own generator.
    pub rng: String,
    /// The run's seed (an outside program's seeds derive from it).
    pub seed: u64,
    /// Worker threads used (they do not change the counts).
    pub threads: usize,
    /// Wall-clock seconds of the counting.
    pub seconds: f64,
    /// Trials per second.
    pub per_second: f64,
    /// The tests run, comma-separated.
    pub tests_run: String,
    /// `biased`, `no-bias-detected` or `inconclusive`.
    pub verdict: Verdict,
    /// The p-value the verdict compared with α, after every correction
    /// (within the audit, across audits, over looks), as stated.
    pub p_adjusted: f64,
    /// Whether `p_adjusted` is only the bound "p < 1e-12".
    pub p_adjusted_is_bound: bool,
    /// log10 of the verdict's p-value.
    pub log10_p_adjusted: f64,
    /// The test with the strongest evidence, if any ran: the first of
    /// `seen_by` when the audit is biased.
    pub decisive_test: Option<String>,
    /// Its standardised departure (X − df)/√(2·df).
    pub decisive_departure: Option<f64>,
    /// The power at which the sensitivity is stated (0.9).
    pub sensitivity_power: f64,
    /// The level each test was held to for the sensitivity guarantee.
    pub sensitivity_level: f64,
    /// The test the sensitivity is stated for.
    pub sensitivity_test: Option<String>,
    /// What the run could have detected, in a few words (`±6.6% in a
    /// cell`).
    pub could_detect: String,
    /// Why the run is inconclusive, if its verdict is.
    pub inconclusive_reason: Option<String>,
    /// For an inconclusive run: the trials at which its tests, held to the
    /// same level, would see the bias a verdict must be able to see.
    pub trials_for_verdict: Option<u64>,
    /// The largest deviation in words, as every output states it.
    pub largest_deviation: String,
    /// The trials the verdict table advises, in a few words, where the
    /// kind plans them (a biased shuffle's trials for 90% power).
    pub plan: Option<String>,
    /// The kind's own figures of what the run could have detected, and its
    /// own fields (a shuffle's position-by-value figures, a sampler's k and
    /// inclusion counts).
    #[serde(flatten)]
    pub details: Map<String, Value>,
    /// The tests that saw the bias, strongest first; empty unless the
    /// verdict is biased.
    pub seen_by: Vec<String>,
    /// The sensitivity in words, as the report states it.
    pub sensitivity: String,
    /// Every test that ran.
    pub tests: Vec<TestRecord>,
    /// The tests that could not run, with why.
    pub not_run: Vec<NotRunRecord>,
    /// The looks of a sequential (`--until-decisive`) audit, in order: the
    /// trials counted by then, log10 of the audit's p on them and log10 of
    /// the level the look could spend (α / (looks × audits)); the last is
    /// where it stopped. Empty for a plain audit.
    pub looks: Vec<Look>,
    /// Where a subject from outside's output came from and what it gave;
    /// absent (not `null`) for a run the engine drew, as every field that
    /// holds a table is absent when it has none, so that `summary.csv`
    /// has the same columns whichever audits hold one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feed: Option<FeedRecord>,
}

/// One test's result, with its p-values as stated next to their exact
/// log10 forms.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestRecord {
    /// The result, its test named as outputs name it.
    #[serde(flatten)]
    pub result: TestResult<&'static str>,
    /// The p-value as stated (never below 1e-12).
    pub p: f64,
    /// The Holm-adjusted (within the audit) p-value as stated.
    pub p_holm: f64,
    /// Whether `p` is only the bound "p < 1e-12".
    pub p_is_bound: bool,
}

/// A test that could not run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotRunRecord {
    /// Which test.
    pub test: String,
    /// Why not.
    pub why: String,
}

/// What an outside feed gave, as `summary.json` records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeedRecord {
    /// Where it came from (`input shoes.txt`, `cmd ./deal {n} (2 jobs)`).
    pub input: Option<String>,
    /// Trials read.
    pub counted: u64,
    /// Trials asked for (`--trials`), if a limit was set.
    pub asked: Option<u64>,
    /// Whether the limit stopped the read before the input ended.
    pub stopped_early: bool,
    /// What reading found out, in words (the items of a deck, how samples
    /// numbered their items).
    pub read: String,
    /// SHA-256 of the input file (`None` for stdin, commands and output
    /// handed over).
    pub sha256: Option<String>,
    /// A command's workers: command, seed and count of each.
    pub workers: Vec<WorkerRecord>,
}

/// One worker of a command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkerRecord {
    /// Its number, from 0.
    pub worker: usize,
    /// Its `{seed}`.
    pub seed: u64,
    /// Its `{count}`.
    pub count: u64,
    /// The command as run.
    pub command: String,
}

impl TestRecord {
    /// The record of one test result.
    pub fn of<T: Named + Copy>(result: &TestResult<T>) -> Self {
        Self {
            result: TestResult {
                parts: None,
                df_at_most: None,
                test: result.test.name(),
                statistic: result.statistic,
                df: result.df,
                log10_p: result.log10_p,
                log10_p_holm: result.log10_p_holm,
                departure: result.departure,
                method: result.method.clone(),
            },
            p: pvalue::stated(result.log10_p),
            p_holm: pvalue::stated(result.log10_p_holm),
            p_is_bound: pvalue::is_bound(result.log10_p),
        }
    }
}

impl Record {
    /// The record of one judged audit.
    pub fn of<K: Kind>(audit: &Audit<K>) -> Self {
        let s = &audit.sensitivity;
        let decisive = audit.decisive();
        let mut details = s.figures.clone();
        details.extend(K::record(audit));
        let feed = match (&audit.spec.subject, &audit.feed) {
            (super::Subject::Outside(outside), Some(feed)) => Some(FeedRecord {
                input: outside.feed.input_words(),
                counted: feed.counted,
                asked: feed.asked,
                stopped_early: feed.stopped_early,
                read: K::read_words(&feed.read, audit.spec.n),
                sha256: feed.sha256.clone(),
                workers: feed
                    .workers
                    .iter()
                    .map(|w| WorkerRecord {
                        worker: w.worker,
                        seed: w.seed,
                        count: w.count,
                        command: w.command.clone(),
                    })
                    .collect(),
            }),
            _ => None,
        };
        let ran = audit.tests.iter().map(|t| t.test);
        let names: Vec<&str> = ran
            .chain(audit.not_run.iter().map(|(t, _)| *t))
            .map(|t| t.name())
            .collect();
        Self {
            kind: K::NAME,
            subject: audit.spec.subject.to_string(),
            n: audit.spec.n,
            trials: audit.trials(),
            unit: K::unit(&audit.spec),
            drawn: audit.drawn_words(),
            rng: audit.spec.source_label(),
            seed: audit.spec.seed,
            threads: audit.threads,
            seconds: audit.seconds,
            per_second: audit.per_second(),
            tests_run: names.join(","),
            verdict: audit.verdict,
            p_adjusted: pvalue::stated(audit.log10_p_adjusted),
            p_adjusted_is_bound: pvalue::is_bound(audit.log10_p_adjusted),
            log10_p_adjusted: audit.log10_p_adjusted,
            decisive_test: decisive.map(|t| t.test.name().to_string()),
            decisive_departure: decisive.map(|t| t.departure),
            sensitivity_power: s.power,
            sensitivity_level: s.level,
            sensitivity_test: s.test.clone(),
            could_detect: s.short.clone(),
            inconclusive_reason: audit.inconclusive_reason(),
            trials_for_verdict: audit.trials_for_verdict(),
            largest_deviation: audit.deviation_words(),
            plan: K::plan_words(audit),
            details,
            seen_by: audit
                .seen_by()
                .iter()
                .map(|t| t.test.name().to_string())
                .collect(),
            sensitivity: s.stated(audit.verdict == Verdict::Inconclusive),
            tests: audit.tests.iter().map(TestRecord::of).collect(),
            not_run: audit
                .not_run
                .iter()
                .map(|(test, why)| NotRunRecord {
                    test: test.name().to_string(),
                    why: why.clone(),
                })
                .collect(),
            looks: audit.looks.clone(),
            feed,
        }
    }
}
