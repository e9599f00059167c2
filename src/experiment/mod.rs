//! Experiment files: a study written down as TOML, so that it can be rerun,
//! reviewed and reproduced bit for bit.
//!
//! ```toml
//! name = "quick"
//! purpose = "Every algorithm at n = 10: a first look."
//! n = 10            # defaults for every [[audit]]
//! trials = "200k"
//! [[audit]]
//! algorithm = "random-swap:k=100"
//! n = [10, 52]
//! ```
//!
//! [`Experiment::parse`] validates everything before any work starts and
//! reports every problem as `FILE:LINE:COLUMN: message`; [`Experiment::runs`]
//! expands the audits into one [`RunSpec`] per audit and size.

pub mod check;
pub mod location;
pub mod mixing;
pub mod record;
mod schema;

use crate::algorithm::Algorithm;
use crate::audit::{DEFAULT_ALPHA, DEFAULT_SEED};
use crate::deck::Deck;
use crate::engine::{self, ALL_DECKS, N_FROM_INPUT, RunSpec};
use crate::error::{Error, Result};
use crate::ingest::Format;
use crate::ingest::samples::{Base, SampleKind};
use crate::params::parse_count;
use crate::sampler::Sampler;
use crate::sampler::run::{ALL_SAMPLES, SampleSpec};
use crate::sampler::subject::{OutsideSampler, SampleFeed, SamplerSubject};
use crate::source::SourceSpec;
use crate::spec::{TestKind, TestSet};
use crate::subject::{Feed, Outside, Subject};
use crate::values::{MIN_N, check_alpha, check_n, parse_confidence};
use location::SourceText;
use mixing::MixingPlan;
use schema::{Count, RawAudit, RawExperiment, RawMixing, RawSample, Sizes, Steps};
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

pub use crate::spec::{DEFAULT_N, DEFAULT_TRIALS};

/// The largest number of step counts one mixing curve may ask for.
pub const MAX_MIXING_POINTS: usize = 1000;

/// A validated experiment.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// The study's name (the default report folder is `reports/latest/<name>`, which git ignores).
    pub name: String,
    /// Why the study exists, as written (paragraphs separated by blank lines).
    pub purpose: String,
    /// The file it was read from, as given.
    pub file: PathBuf,
    /// The file's text, kept so the report folder can hold an exact copy.
    pub text: String,
    /// Significance level of the verdicts (Holm over all audits).
    pub alpha: f64,
    /// Worker threads from the file, if given.
    pub threads: Option<usize>,
    /// Where the report goes unless `--out` says otherwise.
    pub out: PathBuf,
    /// The `[[audit]]` tables, in file order.
    pub audits: Vec<AuditPlan>,
    /// The `[[mixing]]` tables, in file order.
    pub mixing: Vec<MixingPlan>,
    /// The `[[sample]]` tables (sampler audits), in file order.
    pub samples: Vec<SamplePlan>,
}

/// One `[[sample]]` table, checked: the sampler run and its note.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplePlan {
    /// The run (before any `--trials-scale`).
    pub spec: SampleSpec,
    /// Programs that must be on PATH for the audit to run (`requires`); an
    /// audit whose program is missing is skipped, not failed.
    pub requires: Vec<String>,
    /// A remark for the report.
    pub note: Option<String>,
}

/// One `[[audit]]` table with its defaults filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditPlan {
    /// What is audited: a built-in algorithm with its parameters, or a
    /// shuffle from outside (`input` or `cmd`).
    pub subject: Subject,
    /// Programs that must be on PATH for the audit to run (`requires`); an
    /// audit whose program is missing is skipped, not failed.
    pub requires: Vec<String>,
    /// The sizes to audit it at.
    pub sizes: Vec<usize>,
    /// Shuffles per size (before any `--trials-scale`).
    pub trials: u64,
    /// The random source.
    pub source: SourceSpec,
    /// The seed.
    pub seed: u64,
    /// The tests to run; `None` means the default tests for each size.
    pub tests: Option<Vec<TestKind>>,
    /// The bins per side of the position-by-value matrix (`bins` key, as
    /// `--bins`); `None` for the default at each size.
    pub bins: Option<usize>,
    /// The deck (`deck`, `categories`, `hand` keys), whose n is the only
    /// size; `None` for plain decks of distinct items.
    pub deck: Option<Deck>,
    /// A remark for the report (e.g. why a verdict is expected).
    pub note: Option<String>,
}

/// One audit to run: what the engine needs plus what the report shows.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedRun {
    /// The engine's input (including the tests to run).
    pub spec: RunSpec,
    /// The audit's note, if any.
    pub note: Option<String>,
}

/// The keys of a table that say where an outside subject's output comes
/// from.
struct FeedKeys<'a> {
    input: &'a Option<Spanned<String>>,
    cmd: &'a Option<Spanned<String>>,
    format: &'a Option<Spanned<String>>,
    jobs: &'a Option<Spanned<i64>>,
    cmd_timeout: &'a Option<Spanned<i64>>,
}

impl Experiment {
    /// Reads and validates the experiment file at `path`.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::io(format!(
                "cannot read experiment file {}: {e}",
                path.display()
            ))
        })?;
        Self::parse(&text, path)
    }

    /// Validates the experiment `text`, naming `file` in every error.
    pub fn parse(text: &str, file: &Path) -> Result<Self> {
        let name = file.display().to_string();
        let src = SourceText { file: &name, text };
        let raw: RawExperiment =
            toml::from_str(text).map_err(|e| src.error(e.span(), suggest_key(e.message())))?;
        Validator { src }.experiment(raw, file)
    }

    /// Expands the audits into one run per audit and size, in file order.
    ///
    /// Every audit's trials are multiplied by `trials_scale` (rounded, at
    /// least 1); `threads` (from the command line) overrides the file's.
    pub fn runs(&self, trials_scale: f64, threads: Option<usize>) -> Result<Vec<PlannedRun>> {
        check_trials_scale(trials_scale)?;
        if threads == Some(0) {
            return Err(Error::out_of_range("threads must be at least 1 (got 0)"));
        }
        let threads = threads.or(self.threads);
        let workers = threads.unwrap_or_else(rayon::current_num_threads);
        let mut runs = Vec::new();
        for plan in self.audits.iter().filter(|p| p.missing().is_none()) {
            for &n in &plan.sizes {
                let in_audit =
                    |e: Error| Error::of_kind(e.kind(), format!("audit of {}: {e}", plan.subject));
                let tests = match &plan.tests {
                    None => TestSet::default_for(n.max(2)),
                    Some(kinds) => {
                        let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
                        TestSet::parse(&names.join(","), n.max(2)).map_err(in_audit)?
                    }
                };
                let tests = match plan.bins {
                    Some(bins) if n != N_FROM_INPUT => {
                        tests.with_bins(bins, n).map_err(in_audit)?
                    }
                    Some(bins) => tests.with_bins(bins, bins.max(2)).map_err(in_audit)?,
                    None => tests,
                };
                let trials = match plan.trials {
                    ALL_DECKS => ALL_DECKS,
                    t => scale_trials(t, trials_scale),
                };
                let spec = RunSpec {
                    threads,
                    tests,
                    ..RunSpec::new(plan.subject.clone(), n, trials, plan.source, plan.seed)
                };
                let (spec, note) = match &plan.deck {
                    Some(deck) => {
                        let deck_note = crate::deck::battery::note(deck);
                        let note = match &plan.note {
                            Some(n) => format!("{n} {deck_note}"),
                            None => deck_note,
                        };
                        (spec.with_deck(deck.clone()).0, Some(note))
                    }
                    None => (spec, plan.note.clone()),
                };
                if n != N_FROM_INPUT {
                    engine::check_memory(n, workers, spec.collect()).map_err(in_audit)?;
                }
                runs.push(PlannedRun { spec, note });
            }
        }
        Ok(runs)
    }
}

impl Experiment {
    /// The `[[sample]]` runs with every trial count multiplied by
    /// `trials_scale` (rounded, at least 1) and `threads` (from the command
    /// line, else the file's) set.
    pub fn sample_runs(
        &self,
        trials_scale: f64,
        threads: Option<usize>,
    ) -> Result<Vec<SamplePlan>> {
        check_trials_scale(trials_scale)?;
        let threads = threads.or(self.threads);
        Ok(self
            .samples
            .iter()
            .filter(|plan| first_missing(&plan.requires).is_none())
            .map(|plan| SamplePlan {
                spec: SampleSpec {
                    trials: match plan.spec.trials {
                        ALL_SAMPLES => ALL_SAMPLES,
                        t => scale_trials(t, trials_scale),
                    },
                    threads,
                    ..plan.spec.clone()
                },
                requires: plan.requires.clone(),
                note: plan.note.clone(),
            })
            .collect())
    }

    /// The audits that will not run because a program they require is not
    /// on PATH, each with the missing program: reported, never a failure.
    pub fn skipped(&self) -> Vec<(&AuditPlan, String)> {
        self.audits
            .iter()
            .filter_map(|p| p.missing().map(|m| (p, m)))
            .collect()
    }

    /// The `[[sample]]` audits skipped for the same reason, as `NAME (needs
    /// `PROGRAM`, not installed)`.
    pub fn skipped_samples(&self) -> Vec<String> {
        self.samples
            .iter()
            .filter_map(|p| {
                first_missing(&p.requires)
                    .map(|m| format!("{} (needs `{m}`, not installed)", p.spec.sampler))
            })
            .collect()
    }
}

impl AuditPlan {
    /// The first program of `requires` that is not on PATH, if any.
    pub fn missing(&self) -> Option<String> {
        first_missing(&self.requires)
    }
}

/// The first of `requires` that is not on PATH, if any.
fn first_missing(requires: &[String]) -> Option<String> {
    requires.iter().find(|p| !on_path(p)).cloned()
}

/// Whether `program` is an executable file in one of PATH's folders.
pub fn on_path(program: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| {
        std::fs::metadata(dir.join(program)).is_ok_and(|m| m.is_file() && executable(&m))
    })
}

/// Whether a file's permissions let someone execute it (on a platform
/// without execute bits, such as WebAssembly, any file).
fn executable(metadata: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        true
    }
}

/// serde's "unknown field `trails`, expected one of `name`, ..." with the
/// closest known key suggested ("did you mean `trials`?"), when one is near.
fn suggest_key(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_string();
    };
    let Some((field, expected)) = rest.split_once('`') else {
        return message.to_string();
    };
    let known: Vec<(&str, ())> = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|k| (k, ()))
        .collect();
    match crate::params::lookup("key", field, &known) {
        Err(e) if e.to_string().contains("did you mean") => {
            let hint = e.to_string();
            let start = hint.find("did you mean").unwrap_or(0);
            let end = hint.find('?').map_or(hint.len(), |i| i + 1);
            format!("{message} ({})", &hint[start..end])
        }
        _ => message.to_string(),
    }
}

/// Fails unless `scale` is a positive finite factor.
pub fn check_trials_scale(scale: f64) -> Result<()> {
    if scale > 0.0 && scale.is_finite() {
        Ok(())
    } else {
        Err(Error::out_of_range(format!(
            "trials scale {scale} must be a positive number"
        )))
    }
}

/// `trials × scale`, rounded to the nearest whole number, at least 1.
pub fn scale_trials(trials: u64, scale: f64) -> u64 {
    if scale == 1.0 {
        return trials;
    }
    let scaled = (trials as f64 * scale).round();
    if scaled >= u64::MAX as f64 {
        u64::MAX
    } else {
        (scaled as u64).max(1)
    }
}

/// A folder-safe version of an experiment name: letters, digits, `-`, `_`
/// and `.` are kept, anything else becomes `-`.
pub fn folder_name(name: &str) -> String {
    let slug: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug.trim_matches(|c| c == '-' || c == '.');
    if slug.is_empty() {
        "experiment".to_string()
    } else {
        slug.to_string()
    }
}

/// What names a run's output folder: algorithm slug, n and source name.
type RunKey = (String, usize, &'static str);

/// File-level defaults, already validated.
struct Defaults {
    sizes: Vec<usize>,
    trials: u64,
    source: SourceSpec,
    seed: u64,
}

struct Validator<'a> {
    src: SourceText<'a>,
}

impl Validator<'_> {
    fn at(&self, span: Range<usize>, message: impl std::fmt::Display) -> Error {
        self.src.at(span, message)
    }

    /// Re-anchors a library error (bad name, bad count) at `span`.
    fn rethrow(&self, span: Range<usize>) -> impl Fn(Error) -> Error + '_ {
        move |e| {
            let kind = e.kind();
            self.at(span.clone(), e).with_kind(kind)
        }
    }

    fn experiment(&self, raw: RawExperiment, file: &Path) -> Result<Experiment> {
        let name = raw.name.get_ref().trim().to_string();
        if name.is_empty() || name.contains('\n') {
            return Err(self.at(raw.name.span(), "name must be a non-empty single line"));
        }
        let alpha = match (&raw.alpha, &raw.confidence) {
            (Some(_), Some(c)) => {
                return Err(self.at(
                    c.span(),
                    "give alpha or confidence, not both (confidence = 0.99 is alpha = 0.01)",
                ));
            }
            (Some(a), None) => {
                check_alpha(*a.get_ref()).map_err(self.rethrow(a.span()))?;
                *a.get_ref()
            }
            (None, Some(c)) => {
                parse_confidence(&c.get_ref().to_string()).map_err(self.rethrow(c.span()))?
            }
            (None, None) => DEFAULT_ALPHA,
        };
        let threads = match &raw.threads {
            Some(t) if *t.get_ref() < 1 => {
                return Err(self.at(
                    t.span(),
                    format!("threads = {} must be at least 1", t.get_ref()),
                ));
            }
            Some(t) => Some(*t.get_ref() as usize),
            None => None,
        };
        let defaults = Defaults {
            sizes: match &raw.n {
                Some(n) => self.sizes(n)?,
                None => vec![DEFAULT_N],
            },
            trials: match &raw.trials {
                Some(t) => self.count(t)?,
                None => DEFAULT_TRIALS,
            },
            source: match &raw.rng {
                Some(r) => self.source(r)?,
                None => SourceSpec::default(),
            },
            seed: raw.seed.unwrap_or(DEFAULT_SEED),
        };
        if raw.audit.is_empty() && raw.mixing.is_empty() && raw.sample.is_empty() {
            return Err(self.src.error(
                Some(raw.name.span()),
                "the experiment has no [[audit]], [[sample]] or [[mixing]] table: nothing to run",
            ));
        }
        let samples = raw
            .sample
            .iter()
            .map(|t| self.sample(t, &defaults))
            .collect::<Result<Vec<_>>>()?;
        let mut audits: Vec<AuditPlan> = Vec::new();
        // (folder key, n) of every run so far, with where it was declared.
        let mut seen: Vec<(RunKey, Range<usize>)> = Vec::new();
        for table in &raw.audit {
            let plan = self.audit(table, &defaults)?;
            let span = self.one_of("[[audit]]", [&table.algorithm, &table.input, &table.cmd])?;
            for &n in &plan.sizes {
                let key = (plan.subject.slug(), n, plan.source.kind.name());
                if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                    let (line, _) = location::line_column(self.src.text, first.start);
                    return Err(self.at(
                        span,
                        format!(
                            "{} at n = {n} with rng {} is already audited (line {line}); \
                             each algorithm, n and source may appear once",
                            plan.subject,
                            plan.source.kind.name()
                        ),
                    ));
                }
                seen.push((key, span.clone()));
            }
            audits.push(plan);
        }
        let mixing = raw
            .mixing
            .iter()
            .map(|m| self.mixing(m, &defaults))
            .collect::<Result<Vec<_>>>()?;
        // Checked last, so that a missing purpose does not hide the other
        // errors of a file being written.
        let purpose = match &raw.purpose {
            Some(p) if p.get_ref().trim().is_empty() => {
                return Err(self.at(
                    p.span(),
                    "purpose is empty: say in a paragraph what the study is for",
                ));
            }
            Some(p) => p.get_ref().trim().to_string(),
            None => {
                return Err(self.src.error(
                    Some(raw.name.span()),
                    "missing key purpose: say in a paragraph what the study is for",
                ));
            }
        };
        let out = match raw.out {
            Some(out) => PathBuf::from(out),
            None => Path::new("reports").join("latest").join(folder_name(&name)),
        };
        Ok(Experiment {
            name,
            purpose,
            file: file.to_path_buf(),
            text: self.src.text.to_string(),
            alpha,
            threads,
            out,
            audits,
            mixing,
            samples,
        })
    }

    /// One `[[sample]]` table, checked: the sampler (built in, or from an
    /// `input` file or `cmd` program with its `kind`, `base` and `name`),
    /// its N (a board's w·h or the weights' count unless `n` says, and then
    /// they must agree; an outside sampler's must be given), trials, source
    /// and seed, and whether a built-in sampler can run at that N.
    fn sample(&self, raw: &RawSample, defaults: &Defaults) -> Result<SamplePlan> {
        let span = self.one_of("[[sample]]", [&raw.sampler, &raw.input, &raw.cmd])?;
        let subject = self.sampler_subject(raw, span.clone())?;
        let builtin = subject.builtin();
        let weights = raw.weights.as_ref().map(|w| w.get_ref().clone());
        let fixed = builtin
            .and_then(|s| s.population())
            .or(weights.as_ref().map(Vec::len));
        let n = match (&raw.n, fixed) {
            (Some(n), Some(f)) if *n.get_ref() != f as i64 => {
                return Err(self.at(
                    n.span(),
                    format!("{subject} has N = {f} items, but n = {}", n.get_ref()),
                ));
            }
            (Some(n), _) => self.size(*n.get_ref(), n.span())?,
            (None, Some(f)) => f,
            (None, None) if builtin.is_some() => defaults.sizes[0],
            (None, None) => {
                return Err(self.at(
                    span,
                    "a sampler from outside needs n, the population size (n = 49 for 6 of 49)",
                ));
            }
        };
        let trials = match (&raw.trials, &subject) {
            (Some(t), _) => self.count(t)?,
            (None, SamplerSubject::Outside(o)) if matches!(o.feed, SampleFeed::File(_)) => {
                ALL_SAMPLES
            }
            (None, _) => defaults.trials,
        };
        let spec = SampleSpec {
            weights,
            ..SampleSpec::new(
                subject,
                n,
                trials,
                self.source_or(&raw.rng, defaults.source)?,
                raw.seed.unwrap_or(defaults.seed),
            )
        };
        if let Some(sampler) = builtin {
            sampler
                .prepare(spec.n, spec.weights.as_deref())
                .map_err(self.rethrow(span))?;
        }
        Ok(SamplePlan {
            spec,
            requires: self.requires(&raw.requires),
            note: raw.note.clone(),
        })
    }

    /// What a `[[sample]]` table audits: its built-in `sampler`, or the
    /// sampler behind its `input` or `cmd`.
    fn sampler_subject(&self, raw: &RawSample, span: Range<usize>) -> Result<SamplerSubject> {
        if let Some(sampler) = &raw.sampler {
            let outside_keys = [&raw.kind, &raw.name].into_iter().flatten();
            let numbers = [&raw.base, &raw.jobs, &raw.cmd_timeout]
                .into_iter()
                .flatten();
            if let Some(key) = outside_keys
                .map(Spanned::span)
                .chain(numbers.map(Spanned::span))
                .next()
            {
                return Err(self.at(
                    key,
                    "kind, base, name, jobs and cmd_timeout describe a sampler from outside \
                     (input or cmd), not a built-in one",
                ));
            }
            let parsed = Sampler::parse(sampler.get_ref()).map_err(self.rethrow(span))?;
            return Ok(parsed.into());
        }
        let kind = match &raw.kind {
            None => SampleKind::Sample,
            Some(k) => match k.get_ref().as_str() {
                "sample" => SampleKind::Sample,
                "ordered" => SampleKind::Ordered,
                "pick" => SampleKind::Pick,
                other => {
                    return Err(self.at(
                        k.span(),
                        format!(
                            "kind = \"{other}\": a sample (k items per line), ordered (k items \
                             in the order drawn) or a pick"
                        ),
                    ));
                }
            },
        };
        if raw.weights.is_some() && kind != SampleKind::Pick {
            let at = raw.weights.as_ref().map(Spanned::span).unwrap_or(span);
            return Err(self.at(at, "weights go with kind = \"pick\""));
        }
        let base = match &raw.base {
            None => None,
            Some(b) => Some(Base::parse(&b.get_ref().to_string()).map_err(self.rethrow(b.span()))?),
        };
        let (feed, default_name) = self.feed(FeedKeys {
            input: &raw.input,
            cmd: &raw.cmd,
            format: &None,
            jobs: &raw.jobs,
            cmd_timeout: &raw.cmd_timeout,
        })?;
        let feed = SampleFeed::from_feed(feed).map_err(self.rethrow(span))?;
        Ok(SamplerSubject::Outside(OutsideSampler {
            name: raw
                .name
                .as_ref()
                .map_or(default_name, |n| n.get_ref().trim().to_string()),
            feed,
            kind,
            base,
        }))
    }

    /// The programs a table's `requires` lists.
    fn requires(&self, requires: &Option<Vec<Spanned<String>>>) -> Vec<String> {
        requires
            .iter()
            .flatten()
            .map(|r| r.get_ref().trim().to_string())
            .collect()
    }

    /// Where a `table` says what it audits: its one key among `keys`
    /// (`algorithm` or `sampler`, `input`, `cmd`).
    fn one_of(&self, table: &str, keys: [&Option<Spanned<String>>; 3]) -> Result<Range<usize>> {
        let given: Vec<Range<usize>> = keys.into_iter().flatten().map(Spanned::span).collect();
        let (a, what) = if table == "[[audit]]" {
            ("an", "algorithm")
        } else {
            ("a", "sampler")
        };
        match given.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(self.src.error(
                None,
                format!("{a} {table} table needs one of {what}, input or cmd"),
            )),
            [_, second, ..] => Err(self.at(
                second.clone(),
                format!(
                    "{a} {table} table audits one thing: give only one of {what}, input or cmd"
                ),
            )),
        }
    }

    /// Where an outside subject's output comes from, from the `input` or
    /// `cmd` key and the keys that go with them (shared by `[[audit]]` and
    /// `[[sample]]`), with the name reports give it by default.
    fn feed(&self, keys: FeedKeys<'_>) -> Result<(Feed, String)> {
        let positive = |v: &Option<Spanned<i64>>, what: &str| -> Result<Option<u64>> {
            match v {
                Some(x) if *x.get_ref() < 1 => Err(self.at(
                    x.span(),
                    format!("{what} = {} must be at least 1", x.get_ref()),
                )),
                Some(x) => Ok(Some(*x.get_ref() as u64)),
                None => Ok(None),
            }
        };
        let found = match (keys.input, keys.cmd) {
            (Some(input), _) => {
                if let Some(span) = [keys.jobs, keys.cmd_timeout]
                    .into_iter()
                    .flatten()
                    .map(Spanned::span)
                    .next()
                {
                    return Err(self.at(span, "jobs and cmd_timeout go with cmd, not input"));
                }
                let format = match keys.format {
                    Some(f) => Format::parse(f.get_ref()).map_err(self.rethrow(f.span()))?,
                    None => Format::Text,
                };
                let path = PathBuf::from(input.get_ref());
                (Feed::File { path, format }, input.get_ref().clone())
            }
            (None, Some(cmd)) => {
                if let Some(f) = keys.format {
                    return Err(self.at(f.span(), "format goes with input: a cmd prints text"));
                }
                if cmd.get_ref().trim().is_empty() {
                    return Err(self.at(cmd.span(), "cmd is empty"));
                }
                let jobs = positive(keys.jobs, "jobs")?;
                let timeout = positive(keys.cmd_timeout, "cmd_timeout")?.unwrap_or(60);
                (
                    Feed::Command {
                        template: cmd.get_ref().clone(),
                        jobs: jobs.map_or_else(rayon::current_num_threads, |j| j as usize),
                        timeout: std::time::Duration::from_secs(timeout),
                    },
                    cmd.get_ref().clone(),
                )
            }
            (None, None) => return Err(self.src.error(None, "nothing to audit")),
        };
        Ok(found)
    }

    /// What an `[[audit]]` table audits, checked.
    fn subject(&self, raw: &RawAudit) -> Result<Subject> {
        self.one_of("[[audit]]", [&raw.algorithm, &raw.input, &raw.cmd])?;
        let outside_keys = [
            raw.name.as_ref().map(Spanned::span),
            raw.format.as_ref().map(Spanned::span),
            raw.order.as_ref().map(Spanned::span),
            raw.jobs.as_ref().map(Spanned::span),
            raw.cmd_timeout.as_ref().map(Spanned::span),
        ];
        if let Some(algorithm) = &raw.algorithm {
            if let Some(span) = outside_keys.into_iter().flatten().next() {
                return Err(self.at(
                    span,
                    "name, format, order, jobs and cmd_timeout describe your own shuffle: use \
                     them with input or cmd, not algorithm",
                ));
            }
            return Algorithm::parse(algorithm.get_ref())
                .map(Subject::from)
                .map_err(self.rethrow(algorithm.span()));
        }
        let order = raw.order.as_ref().map(|o| {
            o.get_ref()
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        });
        let (feed, default_name) = self.feed(FeedKeys {
            input: &raw.input,
            cmd: &raw.cmd,
            format: &raw.format,
            jobs: &raw.jobs,
            cmd_timeout: &raw.cmd_timeout,
        })?;
        Ok(Subject::Outside(Outside {
            name: raw
                .name
                .as_ref()
                .map_or(default_name, |n| n.get_ref().trim().to_string()),
            feed,
            order,
            categories: None,
        }))
    }

    fn audit(&self, raw: &RawAudit, defaults: &Defaults) -> Result<AuditPlan> {
        let subject = self.subject(raw)?;
        let reads_file = raw.input.is_some();
        let tests = match &raw.tests {
            None => None,
            Some(tests) => {
                let mut kinds: Vec<TestKind> = Vec::new();
                for t in tests {
                    let name = t.get_ref().as_str();
                    let kind = TestKind::parse(name).map_err(self.rethrow(t.span()))?;
                    if kinds.contains(&kind) {
                        return Err(self.at(t.span(), format!("test '{name}' is listed twice")));
                    }
                    kinds.push(kind);
                }
                Some(kinds)
            }
        };
        let deck = self.deck(raw)?;
        Ok(AuditPlan {
            subject,
            requires: self.requires(&raw.requires),
            sizes: match (&raw.n, &deck) {
                (Some(n), Some(deck)) => {
                    let sizes = self.sizes(n)?;
                    if sizes != [deck.n()] {
                        return Err(self.at(
                            n.span(),
                            format!("the deck has {} items: leave n out", deck.n()),
                        ));
                    }
                    sizes
                }
                (None, Some(deck)) => vec![deck.n()],
                (Some(n), None) => self.sizes(n)?,
                // A file's decks say how many items they hold.
                (None, None) if reads_file => vec![N_FROM_INPUT],
                (None, None) => defaults.sizes.clone(),
            },
            trials: match &raw.trials {
                Some(t) => self.count(t)?,
                None if reads_file => ALL_DECKS,
                None => defaults.trials,
            },
            source: self.source_or(&raw.rng, defaults.source)?,
            seed: raw.seed.unwrap_or(defaults.seed),
            tests,
            bins: match &raw.bins {
                None => None,
                Some(b) => Some(usize::try_from(*b.get_ref()).map_err(|_| {
                    self.at(
                        b.span(),
                        format!("bins = {} must be at least 2", b.get_ref()),
                    )
                })?),
            },
            deck,
            note: raw.note.as_ref().map(|s| s.trim().to_string()),
        })
    }

    /// The deck of an `[[audit]]` table's `deck`, `categories` and `hand`
    /// keys (as `--deck`, `--categories`, `--hand`), if any: for built-in
    /// algorithms only.
    fn deck(&self, raw: &RawAudit) -> Result<Option<Deck>> {
        let keys = [
            raw.deck.as_ref().map(Spanned::span),
            raw.categories.as_ref().map(Spanned::span),
            raw.hand.as_ref().map(Spanned::span),
        ];
        let Some(first) = keys.iter().flatten().next().cloned() else {
            return Ok(None);
        };
        if raw.algorithm.is_none() {
            return Err(self.at(
                first,
                "deck, categories and hand are for built-in algorithms (a text input whose items \
                 repeat is read as a deck by itself)",
            ));
        }
        let deck = match (&raw.deck, &raw.categories) {
            (Some(d), _) => Deck::parse(d.get_ref()).map_err(self.rethrow(d.span()))?,
            (None, Some(c)) if c.get_ref() == "cards" => {
                Deck::parse("cards").map_err(self.rethrow(c.span()))?
            }
            (None, _) => {
                return Err(self.at(first, "categories and hand need a deck = \"...\" here"));
            }
        };
        let deck = match &raw.categories {
            Some(c) => {
                crate::deck::categories::apply(deck, c.get_ref()).map_err(self.rethrow(c.span()))?
            }
            None => deck,
        };
        let hand = match &raw.hand {
            Some(h) => usize::try_from(*h.get_ref()).unwrap_or(0),
            None => crate::deck::DEFAULT_HAND.min(deck.n() - 1),
        };
        let span = raw.hand.as_ref().map_or(first, Spanned::span);
        deck.with_hand(hand).map(Some).map_err(self.rethrow(span))
    }

    /// A table's trial count, or the file's default.
    fn count_or(&self, raw: &Option<Spanned<Count>>, default: u64) -> Result<u64> {
        raw.as_ref().map_or(Ok(default), |t| self.count(t))
    }

    /// A table's random source, or the file's default.
    fn source_or(&self, raw: &Option<Spanned<String>>, default: SourceSpec) -> Result<SourceSpec> {
        raw.as_ref().map_or(Ok(default), |r| self.source(r))
    }

    /// One `[[mixing]]` table: a stepped algorithm with its step counts, or
    /// a data loader with its sizes in items (default: the loader curve's
    /// grid, see [`crate::mixing::buffer::default_sizes`]).
    fn mixing(&self, raw: &RawMixing, defaults: &Defaults) -> Result<MixingPlan> {
        use crate::mixing::buffer;
        let process = raw.algorithm.get_ref().trim();
        let loader = buffer::Loader::ALL
            .into_iter()
            .find(|l| l.name() == process);
        let processes = crate::mixing::stepped_names();
        if loader.is_none() && !processes.contains(&process) {
            let loaders = buffer::Loader::ALL.map(buffer::Loader::name);
            return Err(self.at(
                raw.algorithm.span(),
                format!(
                    "no mixing curve for '{process}' (known: {}, and the data loaders {})",
                    processes.join(", "),
                    loaders.join(", ")
                ),
            ));
        }
        let n = match &raw.n {
            Some(n) => self.size(*n.get_ref(), n.span())?,
            None => match defaults.sizes.as_slice() {
                [n] => *n,
                _ => {
                    return Err(self.at(
                        raw.algorithm.span(),
                        "this [[mixing]] table needs its own n (the file's n is a list)",
                    ));
                }
            },
        };
        let steps = match (&raw.k, loader) {
            (Some(k), Some(_)) => {
                let sizes = self.steps(k)?;
                buffer::check(n, &sizes).map_err(self.rethrow(k.span()))?;
                sizes
            }
            (None, Some(_)) => buffer::default_sizes(n),
            (Some(k), None) => self.steps(k)?,
            (None, None) => {
                return Err(self.at(
                    raw.algorithm.span(),
                    format!("this [[mixing]] table of '{process}' needs k, its step counts"),
                ));
            }
        };
        Ok(MixingPlan {
            process: process.to_string(),
            n,
            steps,
            trials: self.count_or(&raw.trials, defaults.trials)?,
            source: self.source_or(&raw.rng, defaults.source)?,
            seed: raw.seed.unwrap_or(defaults.seed),
        })
    }

    fn size(&self, n: i64, span: Range<usize>) -> Result<usize> {
        let n = usize::try_from(n).map_err(|_| {
            self.at(
                span.clone(),
                format!("n = {n} is too small: n must be at least {MIN_N}"),
            )
        })?;
        check_n(n).map_err(self.rethrow(span))
    }

    fn sizes(&self, sizes: &Spanned<Sizes>) -> Result<Vec<usize>> {
        match sizes.get_ref() {
            Sizes::One(n) => Ok(vec![self.size(*n, sizes.span())?]),
            Sizes::Many(list) => {
                if list.is_empty() {
                    return Err(self.at(sizes.span(), "n = [] lists no sizes"));
                }
                let mut out: Vec<usize> = Vec::new();
                for n in list {
                    let size = self.size(*n.get_ref(), n.span())?;
                    if out.contains(&size) {
                        return Err(self.at(n.span(), format!("n = {size} is listed twice")));
                    }
                    out.push(size);
                }
                Ok(out)
            }
        }
    }

    fn count(&self, count: &Spanned<Count>) -> Result<u64> {
        let span = count.span();
        let trials = match count.get_ref() {
            Count::Integer(t) if *t < 0 => {
                return Err(self.at(span, format!("trials = {t} must be at least 1")));
            }
            Count::Integer(t) => *t as u64,
            Count::Float(t) => parse_count(&t.to_string()).map_err(self.rethrow(span.clone()))?,
            Count::Text(t) => parse_count(t).map_err(self.rethrow(span.clone()))?,
        };
        if trials == 0 {
            return Err(self.at(span, "trials must be at least 1 (got 0)"));
        }
        Ok(trials)
    }

    fn source(&self, rng: &Spanned<String>) -> Result<SourceSpec> {
        SourceSpec::parse(rng.get_ref()).map_err(self.rethrow(rng.span()))
    }

    fn steps(&self, k: &Spanned<Steps>) -> Result<Vec<u64>> {
        let steps: Vec<u64> = match k.get_ref() {
            Steps::List(list) => {
                let mut out: Vec<u64> = Vec::new();
                for step in list {
                    let value = *step.get_ref();
                    if value < 0 {
                        return Err(self.at(step.span(), format!("k = {value} is negative")));
                    }
                    if out.last().is_some_and(|&last| value as u64 <= last) {
                        return Err(self.at(
                            step.span(),
                            format!("k = {value} is out of order: list step counts increasing"),
                        ));
                    }
                    out.push(value as u64);
                }
                out
            }
            Steps::Range(r) => {
                let step = r.step.unwrap_or(1);
                if r.from < 0 || r.to < r.from || step < 1 {
                    return Err(self.at(
                        k.span(),
                        format!(
                            "k = {{ from = {}, to = {}, step = {step} }} is not a range: \
                             need 0 <= from <= to and step >= 1",
                            r.from, r.to
                        ),
                    ));
                }
                let points = (r.to - r.from) / step + 1;
                if points as u128 > MAX_MIXING_POINTS as u128 {
                    return Err(self.at(
                        k.span(),
                        format!(
                            "k range has {points} points; at most {MAX_MIXING_POINTS} are allowed"
                        ),
                    ));
                }
                (r.from..=r.to)
                    .step_by(step as usize)
                    .map(|k| k as u64)
                    .collect()
            }
        };
        if steps.is_empty() {
            return Err(self.at(k.span(), "k lists no step counts"));
        }
        if steps.len() > MAX_MIXING_POINTS {
            return Err(self.at(
                k.span(),
                format!(
                    "k has {} points; at most {MAX_MIXING_POINTS} are allowed",
                    steps.len()
                ),
            ));
        }
        Ok(steps)
    }
}

#[cfg(test)]
mod tests;
