//! One audit path for every kind of subject.
//!
//! A [`Spec`] says what to run; [`run`] counts it (the engine for a
//! built-in subject, the readers for one from outside), the kind's tests
//! test the counts, and the [`Audit`] that results is judged: Holm within
//! the audit, then across the audits of a study ([`judge`]), or over the
//! looks of a sequential audit ([`run_until_decisive`]). What differs
//! between shuffles, decks, samplers and weighted picks is behind the
//! [`Kind`] trait; everything here is written once for all of them.
//!
//! ```
//! use shuffle_audit::audit::{self, Spec};
//! use shuffle_audit::shuffle::{Algorithm, Shuffles};
//! use shuffle_audit::{Verdict, source::SourceSpec};
//!
//! # fn main() -> shuffle_audit::Result<()> {
//! let naive = Algorithm::parse("naive-swap")?;
//! let spec = Spec::<Shuffles>::new(naive, 10, 100_000, SourceSpec::parse("chacha8")?, 1);
//! let result = audit::run(&spec, audit::DEFAULT_ALPHA, &|_| {})?;
//! assert_eq!(result.verdict(), Verdict::Biased);
//! let seen: Vec<&str> = result.seen_by().iter().map(|t| t.test.name()).collect();
//! assert_eq!(seen[0], "position-value");
//! # Ok(())
//! # }
//! ```

mod erased;
mod feed;
mod kind;
mod record;
mod section;
mod sensitivity;
mod spec;

pub use erased::{CountBatches, Counts, Judged, Planned};
pub use feed::{FeedReport, Produced};
pub use kind::{Cost, Kind, Named, Recheck, Tested};
pub use record::{FeedRecord, NotRunRecord, Record, TestRecord, WorkerRecord};
pub use section::{decisive_fact, looks_words, test_table};
pub use sensitivity::Sensitivity;
pub use spec::{ALL_TRIALS, Feed, N_FROM_INPUT, OWN_SOURCE, Outside, Spec, Subject, slug_of};

pub use crate::pacing::{CHUNK_TRIALS, ChunkRange, Progress, no_progress};
pub use crate::sequential::{Batch, Look, look_schedule};

use crate::error::{Error, Front, Opt, Result};
use crate::pacing::{Stopwatch, in_pool};
use crate::sequential::Plan;
use crate::stats::{self, TestResult, Verdict, holm_log10};
use crate::values::check_alpha;

/// The significance level used when none is given: strict, because a run
/// usually audits many subjects and a false alarm is costly.
pub const DEFAULT_ALPHA: f64 = 0.001;

/// The seed used when none is given, so that a bare run is reproducible.
pub const DEFAULT_SEED: u64 = 20_261_121;

/// Fewest trials a run makes by default, whatever the kind's plans say
/// ([`Kind::default_trials`]).
pub const MIN_DEFAULT_TRIALS: u64 = 10_000;

/// One finished audit of any kind: what was run, what was counted, what
/// the tests say and the verdict. Each field is documented at its accessor
/// of the same name.
#[derive(Debug, Clone)]
pub struct Audit<K: Kind> {
    pub(crate) spec: Spec<K>,
    pub(crate) threads: usize,
    pub(crate) seconds: f64,
    pub(crate) tally: K::Tally,
    pub(crate) feed: Option<FeedReport<K>>,
    pub(crate) tests: Vec<TestResult<K::Test>>,
    pub(crate) not_run: Vec<(K::Test, String)>,
    pub(crate) found: K::Found,
    pub(crate) log10_p: f64,
    pub(crate) log10_p_adjusted: f64,
    pub(crate) sensitivity: Sensitivity,
    pub(crate) verdict: Verdict,
    pub(crate) looks: Vec<Look>,
    pub(crate) alpha: f64,
    pub(crate) findings: Option<K::Findings>,
}

/// What an audit found, read through accessors so that fields can be added
/// without breaking a caller.
impl<K: Kind> Audit<K> {
    /// What was run, completed from what was counted.
    pub fn spec(&self) -> &Spec<K> {
        &self.spec
    }

    /// Worker threads used.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Wall-clock seconds of the counting.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The counts.
    pub fn tally(&self) -> &K::Tally {
        &self.tally
    }

    /// The trials counted.
    pub fn trials(&self) -> u64 {
        K::trials(&self.tally)
    }

    /// What an outside feed gave; `None` for a run the engine drew.
    pub fn feed(&self) -> Option<&FeedReport<K>> {
        self.feed.as_ref()
    }

    /// Every test that ran, with p-values Holm-corrected across them.
    pub fn tests(&self) -> &[TestResult<K::Test>] {
        &self.tests
    }

    /// The tests that could not run, each with why.
    pub fn not_run(&self) -> &[(K::Test, String)] {
        &self.not_run
    }

    /// What the kind's tests found beyond their results.
    pub fn found(&self) -> &K::Found {
        &self.found
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

    /// The looks of a sequential (`--until-decisive`) audit; empty
    /// otherwise.
    pub fn looks(&self) -> &[Look] {
        &self.looks
    }

    /// The significance level the verdict was reached at (before any
    /// correction).
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// What was found once the study was judged, if it has been.
    pub fn findings(&self) -> Option<&K::Findings> {
        self.findings.as_ref()
    }

    /// Trials per second of the counting.
    pub fn per_second(&self) -> f64 {
        self.trials() as f64 / self.seconds.max(1e-9)
    }

    /// The test with the strongest evidence, if any test ran: the first of
    /// [`seen_by`](Self::seen_by) when the audit is biased (the test whose
    /// p decided the verdict), else the test with the smallest p. Tests are
    /// ordered by their raw p-value even below
    /// [`LOG10_P_FLOOR`](crate::stats::pvalue::LOG10_P_FLOOR), where it only
    /// ranks (see [`crate::stats::multiple::by_strength`]), so every output
    /// names the same test first.
    pub fn decisive(&self) -> Option<&TestResult<K::Test>> {
        stats::strongest(&self.tests)
    }

    /// The tests that saw the bias: those that reject at the audit's level
    /// after every correction its verdict applied, strongest evidence
    /// first (see [`crate::stats::multiple::seen_by`]). Empty unless the
    /// verdict is biased.
    pub fn seen_by(&self) -> Vec<&TestResult<K::Test>> {
        stats::seen_by(&self.tests, self.log10_p, self.log10_p_adjusted, self.alpha)
    }

    /// The result of `test`, if it ran.
    pub fn test(&self, test: K::Test) -> Option<&TestResult<K::Test>> {
        self.tests.iter().find(|t| t.test == test)
    }

    /// The trials a run of this subject needs for a verdict, at the level
    /// its tests were held to; `None` unless the verdict is inconclusive.
    /// Running that many gives a verdict.
    pub fn trials_for_verdict(&self) -> Option<u64> {
        (self.verdict == Verdict::Inconclusive)
            .then_some(self.sensitivity.trials_needed)
            .flatten()
    }

    /// Why an inconclusive run could not tell, and the trials that would
    /// make it conclusive (or that no number would); `None` unless
    /// inconclusive.
    pub fn inconclusive_reason(&self) -> Option<String> {
        (self.verdict == Verdict::Inconclusive)
            .then(|| self.sensitivity.reason())
            .flatten()
    }

    /// What was run or read, in one phrase.
    pub fn drawn_words(&self) -> String {
        K::drawn_words(self)
    }

    /// The largest deviation in words, as every output states it.
    pub fn deviation_words(&self) -> String {
        K::deviation_words(self)
    }

    /// Why the audit is not "no bias detected", in a few lines: the
    /// decisive test, its p and the largest deviation in words, or for an
    /// inconclusive run why and the trials a verdict needs, suggested as
    /// `front` spells it (`-t 4629`, `trials=4629`, `.trials(4629)`).
    pub fn failure_message(&self, front: Front) -> String {
        let head = format!(
            "{} is {} (n = {}, {} {}, seed {})",
            self.spec.subject,
            self.verdict,
            self.spec.n,
            crate::format::thousands(self.trials()),
            K::unit(&self.spec),
            self.spec.seed
        );
        match (self.verdict, self.decisive()) {
            (Verdict::Inconclusive, _) => {
                let why = self.sensitivity.reason().unwrap_or_default();
                // A sequential run's trials are its budget.
                let option = if self.looks.is_empty() {
                    Opt::Trials
                } else {
                    Opt::MaxTrials
                };
                // Decks or draws handed over are all there is: no option
                // adds to them.
                let given = matches!(
                    self.spec.subject.outside().map(|o| &o.feed),
                    Some(Feed::Given { .. } | Feed::File { .. })
                );
                match self.sensitivity.trials_needed {
                    Some(needed) if given => format!(
                        "{head}: {why} (give at least {} {}: only {} were given)",
                        crate::format::thousands(needed),
                        K::unit(&self.spec),
                        crate::format::thousands(self.trials())
                    ),
                    Some(needed) => format!(
                        "{head}: {why} ({})",
                        option.spelled(front, &needed.to_string())
                    ),
                    None => format!("{head}: {why}"),
                }
            }
            (_, Some(decisive)) => format!(
                "{head}: decisive test {}, p (adjusted) {}; {}",
                decisive.test.title(),
                crate::output::format_p(self.log10_p_adjusted),
                self.deviation_words()
            ),
            (_, None) => format!("{head}: no test could run"),
        }
    }

    /// Restates the verdict at `alpha` from `log10_p_adjusted`, the p-value
    /// after every correction the run applied, with each of the audit's
    /// tests standing `copies` times in the run's family (the audits of the
    /// run, times the looks of a sequential audit): each test is held to α
    /// / (tests × `copies`), counting the tests that could not run, which
    /// fixes what the run could have detected.
    pub fn conclude(&mut self, log10_p_adjusted: f64, alpha: f64, copies: usize) {
        self.alpha = alpha;
        self.log10_p_adjusted = log10_p_adjusted;
        self.sensitivity = K::sensitivity(self, alpha, self.family(copies));
        self.verdict = Verdict::decide(log10_p_adjusted, alpha, self.sensitivity.adequate());
    }

    /// How many members the audit's tests make in a family where each
    /// stands `copies` times: the tests run and those that could not.
    fn family(&self, copies: usize) -> usize {
        (self.tests.len() + self.not_run.len()).max(1) * copies.max(1)
    }

    /// For a sequential audit too small to tell, whose first look counted
    /// `first` trials among `audits_in_run`: the budget that gives a
    /// verdict, as [`trials_for_verdict`](Self::trials_for_verdict). A
    /// larger budget allows more looks, each spending a smaller share of
    /// α, so the advice is the budget at which the tests, held to the
    /// level of a run of that budget, see what a verdict must see (a fixed
    /// point: the looks grow only as the budget's logarithm).
    fn advise_budget(&mut self, first: u64, audits_in_run: usize) {
        let Some(mut budget) = self.trials_for_verdict() else {
            return;
        };
        for _ in 0..64 {
            let looks = crate::sequential::look_schedule(first, budget).len();
            let family = self.family(looks * audits_in_run.max(1));
            let needed = K::sensitivity(self, self.alpha, family).trials_needed;
            match needed {
                Some(needed) if needed > budget => budget = needed,
                _ => break,
            }
        }
        self.sensitivity.trials_needed = Some(budget);
    }

    /// Computes what is found once the audit is judged among
    /// `audits_in_run`.
    pub fn find(&mut self, audits_in_run: usize) {
        self.findings = Some(K::find(self, audits_in_run));
    }
}

/// Runs one audit of `spec`: counts it (a built-in subject on the engine,
/// one from outside through its feed), tests the counts and judges them
/// alone at `alpha`. The verdict is provisional until [`judge`] sees the
/// whole run. Every bad request is refused before anything runs.
pub fn run<K: Kind>(spec: &Spec<K>, alpha: f64, progress: Progress<'_>) -> Result<Audit<K>> {
    run_with(spec, alpha, || produce(spec, progress))
}

/// Checks the request, produces the counts with `produce` (timed) and
/// evaluates them on the pool that counted: the tests' own parallel parts
/// use the threads the run was given.
pub fn run_with<K: Kind>(
    spec: &Spec<K>,
    alpha: f64,
    produce: impl FnOnce() -> Result<Produced<K>>,
) -> Result<Audit<K>> {
    check_alpha(alpha)?;
    if spec.trials == 0 {
        return Err(Error::out_of_range("trials must be at least 1"));
    }
    if spec.subject.builtin().is_some() {
        K::check(spec)?;
    }
    K::prepare(spec);
    let start = Stopwatch::start();
    let produced = produce()?;
    let seconds = start.seconds();
    in_pool(spec.threads, || evaluate(spec, produced, seconds, alpha))?
}

/// Counts `spec`: every chunk of a built-in subject's run, or what a
/// subject from outside made. A Rust function is run with its own entry
/// point (see `crate::custom`) and output handed over in memory with
/// [`of_read`].
pub fn produce<K: Kind>(spec: &Spec<K>, progress: Progress<'_>) -> Result<Produced<K>> {
    match &spec.subject {
        Subject::Builtin(_) => {
            let tally = K::count(spec, spec.chunks(), progress)?;
            Ok(Produced { tally, feed: None })
        }
        Subject::Outside(outside) => match &outside.feed {
            Feed::File { path, format } => read_file(spec, path, *format, progress),
            Feed::Command(command) => K::read_command(spec, command, progress),
            Feed::Function => Err(Error::unsupported(format!(
                "{} is a Rust function: run it with its function (see shuffle_audit::custom)",
                outside.name
            ))),
            Feed::Given { .. } | Feed::Drawn { .. } => Err(Error::unsupported(format!(
                "{}: output handed over in memory is counted by the caller and audited with \
                 audit::of_read",
                outside.name
            ))),
        },
    }
}

/// Reads the file at `path` (`-` is stdin) for `spec`, on the run's pool,
/// naming the exact bytes it judged (SHA-256) in what the feed gave.
fn read_file<K: Kind>(
    spec: &Spec<K>,
    path: &std::path::Path,
    format: crate::ingest::Format,
    progress: Progress<'_>,
) -> Result<Produced<K>> {
    if path.as_os_str() == "-" {
        let mut reader = std::io::stdin();
        return in_pool(spec.threads, || {
            K::read_from(spec, &mut reader, "stdin", format, progress)
        })?;
    }
    let sha256 = crate::digest::file_sha256(path)?;
    let mut file = std::fs::File::open(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let name = path.display().to_string();
    let mut produced = in_pool(spec.threads, || {
        K::read_from(spec, &mut file, &name, format, progress)
    })??;
    produced.feed = produced.feed.map(|f| f.with_sha256(Some(sha256)));
    Ok(produced)
}

/// Reads and judges output handed over in memory, as the Python package
/// and the page hand it: what `reader` holds for `spec` (an outside
/// subject's; text lines, or binary records of `format`), read exactly as
/// a file of it would be, judged alone at `alpha`. `from_function`: the
/// caller's own function drew it (the report then names no input).
pub fn read_given<K: Kind>(
    spec: &Spec<K>,
    reader: &mut (dyn std::io::Read + Send),
    format: crate::ingest::Format,
    alpha: f64,
    from_function: bool,
    progress: Progress<'_>,
) -> Result<Audit<K>> {
    check_alpha(alpha)?;
    K::prepare(spec);
    let start = Stopwatch::start();
    let name = spec.subject.to_string();
    let produced = in_pool(spec.threads, || {
        K::read_from(spec, reader, &name, format, progress)
    })??;
    of_read(spec, produced, start.seconds(), alpha, from_function)
}

/// Audits output the caller has already counted (read from a buffer or an
/// array in memory, as the Python package and the page do) exactly as the
/// same output read from a file is audited. What was read is kept for the
/// report, unless it came from the caller's own function
/// (`from_function`), which draws like a built-in subject. The verdict is
/// provisional until [`judge`].
pub fn of_read<K: Kind>(
    spec: &Spec<K>,
    produced: Produced<K>,
    seconds: f64,
    alpha: f64,
    from_function: bool,
) -> Result<Audit<K>> {
    check_alpha(alpha)?;
    let mut audit = evaluate(spec, produced, seconds, alpha)?;
    if from_function {
        audit.feed = None;
    }
    Ok(audit)
}

/// Tests what was produced for `spec` (counted in `seconds`) and gives the
/// audit its provisional verdict at `alpha`. The spec is completed from the
/// counts ([`Kind::complete`]): its trials are what was counted, and what
/// the input said is filled in.
pub fn evaluate<K: Kind>(
    spec: &Spec<K>,
    produced: Produced<K>,
    seconds: f64,
    alpha: f64,
) -> Result<Audit<K>> {
    let Produced { tally, feed } = produced;
    let spec = K::complete(spec, &tally, feed.as_ref())?;
    let Tested {
        results,
        not_run,
        found,
    } = tested(&spec, &tally);
    let log10_p = results.iter().map(|t| t.log10_p_holm).fold(0.0, f64::min);
    let mut audit = Audit {
        threads: spec.threads.unwrap_or_else(rayon::current_num_threads),
        spec,
        seconds,
        tally,
        feed,
        tests: results,
        not_run,
        found,
        log10_p,
        log10_p_adjusted: log10_p,
        sensitivity: Sensitivity::new(0.0, alpha, None, "", ""),
        verdict: Verdict::Inconclusive,
        looks: Vec::new(),
        alpha,
        findings: None,
    };
    audit.conclude(log10_p, alpha, 1);
    Ok(audit)
}

/// The kind's tests on `tally`, Holm-corrected within the audit: what a
/// look of a sequential audit and a power simulation need, without the
/// descriptive figures of a whole audit.
pub fn tested<K: Kind>(spec: &Spec<K>, tally: &K::Tally) -> Tested<K> {
    let mut tested = K::test(spec, tally);
    let raw: Vec<f64> = tested.results.iter().map(|t| t.log10_p).collect();
    for (t, adjusted) in tested.results.iter_mut().zip(holm_log10(&raw)) {
        t.log10_p_holm = adjusted;
    }
    tested
}

/// Applies the Holm correction across `audits` and sets their verdicts at
/// `alpha`, so that the chance of calling any fair subject of the run
/// biased is at most α. (Each audit's p is already Holm-corrected across
/// its own tests, so the two corrections together control the error over
/// every test of the run.) What each audit could detect is restated for
/// the whole family.
pub fn judge(audits: &mut [Box<dyn Judged>], alpha: f64) {
    let raw: Vec<f64> = audits.iter().map(|a| a.log10_p()).collect();
    let count = audits.len();
    for (audit, adjusted) in audits.iter_mut().zip(holm_log10(&raw)) {
        audit.conclude(adjusted, alpha, count);
    }
}

/// Runs an audit in growing batches until it is decisively biased, or
/// until `max_trials` have been counted without finding bias.
///
/// The cumulative trials double at every look (the first counts the spec's
/// trials). α is spent across the J looks the budget allows and the
/// `audits_in_run` audits alongside (Bonferroni, see `crate::sequential`),
/// so the verdict is final (no [`judge`] across the run): the adjusted p is
/// the best look's p times J × audits, and what the run could detect is
/// stated at the level each test was held to. Batch j draws from seed
/// splitmix64(seed ⊕ j) (batch 0 from the seed itself); a file is read from
/// its start at each look, as far as the look reaches, its end being the
/// last look. Each look tests the counts exactly as a plain audit of them
/// would (the spec completed from what was read).
pub fn run_until_decisive<K: Kind>(
    spec: &Spec<K>,
    alpha: f64,
    max_trials: u64,
    audits_in_run: usize,
    progress: Progress<'_>,
) -> Result<Audit<K>> {
    let reads_file = match &spec.subject {
        Subject::Builtin(_) => {
            K::check(spec)?;
            false
        }
        Subject::Outside(outside) => match &outside.feed {
            Feed::File { .. } => true,
            Feed::Command(_) => false,
            Feed::Function | Feed::Given { .. } | Feed::Drawn { .. } => {
                return Err(Error::unsupported(format!(
                    "{}: output made by a function or handed over is audited as it is: it \
                     cannot be asked for more trials look after look (leave out \
                     --until-decisive)",
                    outside.name
                )));
            }
        },
    };
    looks(
        spec,
        alpha,
        max_trials,
        audits_in_run,
        reads_file,
        |counted, _| produce(counted, progress),
    )
}

/// A reader of one look's batch of output drawn on demand: what
/// [`read_until_decisive`] asks its caller for, look after look.
pub type NextBatch<'a> = dyn FnMut(Batch) -> Result<Box<dyn std::io::Read + Send + 'a>> + Send + 'a;

/// Runs an audit of output drawn on demand by the caller (a function in
/// another language, such as Python's, [`Feed::Drawn`]) look after look,
/// exactly as [`run_until_decisive`] runs a program: `next(batch)` gives a
/// reader of the batch's `batch.trials` trials (in `format`), read and
/// merged into the counts so far, until the audit is decisively biased or
/// `max_trials` have been counted. The audit is judged alone (one audit in
/// the run); what the function drew is not kept, as [`of_read`] does for a
/// function.
pub fn read_until_decisive<K: Kind>(
    spec: &Spec<K>,
    alpha: f64,
    max_trials: u64,
    format: crate::ingest::Format,
    next: &mut NextBatch<'_>,
    progress: Progress<'_>,
) -> Result<Audit<K>> {
    let Subject::Outside(outside) = &spec.subject else {
        return Err(Error::unsupported(format!(
            "{}: a built-in subject draws its own batches (see run_until_decisive)",
            spec.subject
        )));
    };
    if !matches!(outside.feed, Feed::Drawn { .. }) {
        return Err(Error::unsupported(format!(
            "{}: only output drawn on demand is read look after look",
            outside.name
        )));
    }
    let name = outside.name.clone();
    let mut audit = looks(spec, alpha, max_trials, 1, false, |counted, batch| {
        let mut reader = next(batch)?;
        K::read_from(counted, &mut *reader, &name, format, progress)
    })?;
    audit.feed = None;
    Ok(audit)
}

/// The looks of a sequential audit (see [`run_until_decisive`]):
/// `produce(counted, batch)` counts one look's batch for `counted` (the
/// spec with the batch's trials, or the cumulative trials when the subject
/// is a file read from its start, and the batch's seed).
fn looks<K: Kind>(
    spec: &Spec<K>,
    alpha: f64,
    max_trials: u64,
    audits_in_run: usize,
    reads_file: bool,
    mut produce: impl FnMut(&Spec<K>, Batch) -> Result<Produced<K>> + Send,
) -> Result<Audit<K>> {
    check_alpha(alpha)?;
    let plan = Plan::new(spec.trials, max_trials, alpha, audits_in_run)?;
    K::prepare(spec);
    let start = Stopwatch::start();
    let seq = in_pool(spec.threads, || {
        plan.run(
            spec.seed,
            |batch| {
                let counted = Spec {
                    trials: if reads_file {
                        batch.cumulative
                    } else {
                        batch.trials
                    },
                    seed: batch.seed,
                    ..spec.clone()
                };
                produce(&counted, batch)
            },
            |into: &mut Produced<K>, batch: Produced<K>| {
                if reads_file {
                    *into = batch;
                } else {
                    K::merge(&mut into.tally, &batch.tally);
                    into.feed = match (into.feed.take(), batch.feed) {
                        (Some(mut a), Some(b)) => {
                            a.counted += b.counted;
                            a.workers.extend(b.workers);
                            Some(a)
                        }
                        (a, b) => a.or(b),
                    };
                }
            },
            |produced| K::trials(&produced.tally),
            |produced| {
                let Ok(counted) = K::complete(spec, &produced.tally, produced.feed.as_ref()) else {
                    return 0.0;
                };
                let tested = tested(&counted, &produced.tally);
                tested
                    .results
                    .iter()
                    .map(|t| t.log10_p_holm)
                    .fold(0.0, f64::min)
            },
        )
    })??;
    let seconds = start.seconds();
    let mut audit = in_pool(spec.threads, || evaluate(spec, seq.tally, seconds, alpha))??;
    audit.conclude(seq.log10_p_adjusted, alpha, seq.share);
    audit.looks = seq.looks;
    audit.advise_budget(spec.trials, audits_in_run);
    Ok(audit)
}

#[cfg(test)]
mod tests;
