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
//! The reader only reads TOML: each `[[audit]]` and `[[sample]]` table
//! becomes one [`Request`] per size, and the library's request layer fills
//! in every default and refuses every bad value, exactly as for the command
//! line and the bindings; a refusal is reported at the key it is about, as
//! `FILE:LINE:COLUMN: message`. [`Experiment::parse`] validates everything
//! before any work starts; [`Experiment::study`] is the study to run.

pub mod check;
pub mod location;

pub mod record;
mod schema;

use crate::audit::{ALL_TRIALS, DEFAULT_ALPHA, DEFAULT_SEED, Feed, Planned};
use crate::error::{Error, Front, Opt, Result};
use crate::ingest::{CommandSpec, Format};
use crate::mixing::plan::MixingPlan;
use crate::params::{items, parse_count};
use crate::report::Provenance;
use crate::report::provenance::Meta;
use crate::request::{Holds, Request};
use crate::source::SourceSpec;
use crate::study::Study;
use crate::values::{MIN_N, check_alpha, check_n, parse_confidence};
use location::SourceText;
use schema::{Count, RawAudit, RawExperiment, RawMixing, RawSample, Sizes, Steps};
use std::collections::HashMap;
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
    /// The `[[audit]]` and `[[sample]]` tables, in file order (audits
    /// first, as the study runs them).
    pub tables: Vec<Table>,
    /// The `[[mixing]]` tables, in file order.
    pub mixing: Vec<MixingPlan>,
    /// The `[meta]` table: certificate metadata for the report's first
    /// page and `summary.json`.
    pub meta: Meta,
}

/// One `[[audit]]` or `[[sample]]` table: what it asks (one request per
/// size), what it needs installed and what the report notes of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// What the table audits, in words (for a skipped table's note).
    pub subject: String,
    /// One request per size, in order.
    pub requests: Vec<Request>,
    /// Programs that must be on PATH for the table to run (`requires`); a
    /// table whose program is missing is skipped, not failed.
    pub requires: Vec<String>,
    /// A remark for the report.
    pub note: Option<String>,
}

/// Where an `[[audit]]` or `[[sample]]` table's keys are, for errors.
type Spans = HashMap<Opt, Range<usize>>;

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

    /// The audits of every table that runs here, each request's trials
    /// multiplied by `trials_scale` (rounded, at least 1; a file read to
    /// its end stays so), on `threads` (from the command line, else the
    /// file's), with each audit's note: the study to run, titled and
    /// explained as the file says, with `provenance`.
    pub fn study(
        &self,
        trials_scale: f64,
        threads: Option<usize>,
        mut provenance: Provenance,
    ) -> Result<Study> {
        check_trials_scale(trials_scale)?;
        provenance.meta = self.meta.clone();
        let threads = threads.or(self.threads);
        let mut audits: Vec<Box<dyn Planned>> = Vec::new();
        let mut notes = Vec::new();
        for table in self.tables.iter().filter(|t| t.missing().is_none()) {
            for request in &table.requests {
                let request = Request {
                    threads,
                    ..request.clone()
                };
                let resolved = request.resolve()?;
                for (spec, note) in resolved.audits.into_iter().zip(resolved.notes) {
                    let spec = match spec.trials() {
                        ALL_TRIALS => spec,
                        t => spec.with_trials(scale_trials(t, trials_scale)),
                    };
                    let note = match (&table.note, note) {
                        (Some(a), Some(b)) => Some(format!("{a} {b}")),
                        (a, b) => a.clone().or(b),
                    };
                    audits.push(spec);
                    notes.push(note);
                }
            }
        }
        Ok(Study {
            title: self.name.clone(),
            purpose: self.purpose.clone(),
            alpha: self.alpha,
            notes,
            mixing: self
                .mixing
                .iter()
                .map(|plan| MixingPlan {
                    trials: scale_trials(plan.trials, trials_scale),
                    ..plan.clone()
                })
                .collect(),
            skipped: self.skipped(),
            provenance,
            ..Study::new(audits)
        })
    }

    /// The tables that will not run because a program they require is not
    /// on PATH, as `WHAT (needs `PROGRAM`, not installed)`: reported,
    /// never a failure.
    pub fn skipped(&self) -> Vec<String> {
        self.tables
            .iter()
            .filter_map(|t| {
                t.missing()
                    .map(|m| format!("{} (needs `{m}`, not installed)", t.subject))
            })
            .collect()
    }

    /// Whether no audit or mixing curve runs here.
    pub fn nothing_runs(&self) -> bool {
        self.mixing.is_empty() && self.tables.iter().all(|t| t.missing().is_some())
    }
}

impl Table {
    /// The first program of `requires` that is not on PATH, if any.
    pub fn missing(&self) -> Option<String> {
        self.requires.iter().find(|p| !on_path(p)).cloned()
    }
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
    let rest = message.strip_prefix("unknown field `");
    let meant = rest
        .and_then(|r| r.split_once('`'))
        .and_then(|(field, expected)| {
            let known: Vec<(&str, ())> = expected
                .split('`')
                .skip(1)
                .step_by(2)
                .map(|k| (k, ()))
                .collect();
            let error = crate::params::lookup("key", field, &known).err()?;
            error.meant().map(str::to_string)
        });
    match meant {
        Some(meant) => format!("{message} (did you mean '{meant}'?)"),
        None => message.to_string(),
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

/// File-level defaults, already validated.
struct Defaults {
    sizes: Vec<usize>,
    trials: u64,
    source: SourceSpec,
    seed: u64,
}

/// What an audit audits, for refusing a table that repeats another: its
/// subject, n and source.
type Audited = (String, usize, String);

struct Validator<'a> {
    src: SourceText<'a>,
}

/// Where a key is in the file, if it is given.
fn span_of<T>(key: &Option<Spanned<T>>) -> Option<Range<usize>> {
    key.as_ref().map(Spanned::span)
}

/// The spans of the keys a table gives, by the option each is about.
fn spans<const N: usize>(keys: [(Opt, Option<Range<usize>>); N]) -> Spans {
    keys.into_iter()
        .filter_map(|(opt, span)| Some((opt, span?)))
        .collect()
}

/// Sets an outside subject's `feed` and `name` on `request`; returns the
/// name reports give it.
fn outside(request: &mut Request, name: &Option<Spanned<String>>, feed: Feed) -> String {
    request.name = name.as_ref().map(|n| n.get_ref().trim().to_string());
    let subject = request.name.clone().unwrap_or_else(|| feed.default_name());
    request.feed = Some(feed);
    subject
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

    /// Refuses the first of `keys` that is given, with `message`.
    fn refuse_any<const N: usize>(
        &self,
        keys: [Option<Range<usize>>; N],
        message: &str,
    ) -> Result<()> {
        match keys.into_iter().flatten().next() {
            Some(span) => Err(self.at(span, message)),
            None => Ok(()),
        }
    }

    /// A key that must be at least 1, named `what` in the refusal.
    fn positive(&self, value: &Spanned<i64>, what: &str) -> Result<u64> {
        match *value.get_ref() {
            v if v < 1 => Err(self.at(value.span(), format!("{what} = {v} must be at least 1"))),
            v => Ok(v as u64),
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
        let threads = raw.threads.as_ref().map(|t| self.positive(t, "threads"));
        let threads = threads.transpose()?.map(|t| t as usize);
        let defaults = Defaults {
            sizes: match &raw.n {
                Some(n) => self.sizes(n)?,
                None => vec![DEFAULT_N],
            },
            trials: self.count_or(&raw.trials, DEFAULT_TRIALS)?,
            source: self.source_or(&raw.rng, SourceSpec::default())?,
            seed: raw.seed.unwrap_or(DEFAULT_SEED),
        };
        if raw.audit.is_empty() && raw.mixing.is_empty() && raw.sample.is_empty() {
            return Err(self.src.error(
                Some(raw.name.span()),
                "the experiment has no [[audit]], [[sample]] or [[mixing]] table: nothing to run",
            ));
        }
        let mut tables = Vec::new();
        // (folder key, n) of every run so far, with where it was declared.
        let mut seen: Vec<(Audited, Range<usize>)> = Vec::new();
        for table in &raw.audit {
            let (table, span) = self.audit(table, &defaults, alpha)?;
            self.once(&table, span, &mut seen, alpha)?;
            tables.push(table);
        }
        for table in &raw.sample {
            tables.push(self.sample(table, &defaults, alpha)?);
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
        let mut meta = Meta::default();
        if let Some(table) = &raw.meta {
            for (key, value) in table.get_ref() {
                let value = value.as_str().ok_or_else(|| {
                    self.at(
                        table.span(),
                        format!("[meta] {key}: the value must be a string"),
                    )
                })?;
                meta.set(key, value).map_err(|e| self.at(table.span(), e))?;
            }
        }
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
            tables,
            mixing,
            meta,
        })
    }

    /// Refuses a table that audits what an earlier one does (the same
    /// subject, n and source), naming the line of the first.
    fn once(
        &self,
        table: &Table,
        span: Range<usize>,
        seen: &mut Vec<(Audited, Range<usize>)>,
        alpha: f64,
    ) -> Result<()> {
        if table.missing().is_some() {
            return Ok(());
        }
        for request in &table.requests {
            let resolved = Request {
                alpha: Some(alpha),
                ..request.clone()
            };
            let Ok(resolved) = resolved.resolve() else {
                continue;
            };
            for spec in &resolved.audits {
                let source = spec.source_label();
                let key = (spec.slug(), spec.n(), source.clone());
                if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                    let (line, _) = location::line_column(self.src.text, first.start);
                    return Err(self.at(
                        span,
                        format!(
                            "{} at n = {} with rng {source} is already audited (line {line}); \
                             each subject, n and source may appear once",
                            spec.subject(),
                            spec.n()
                        ),
                    ));
                }
                seen.push((key, span.clone()));
            }
        }
        Ok(())
    }

    /// Resolves `request` as the run will, reporting a refusal at the key
    /// it is about (`spans`), or at `fallback`.
    fn check(&self, request: &Request, spans: &Spans, fallback: Range<usize>) -> Result<()> {
        request.resolve().map(drop).map_err(|e| {
            let span = e.option().and_then(|o| spans.get(&o)).cloned();
            self.rethrow(span.unwrap_or(fallback))(e)
        })
    }

    /// One `[[audit]]` table: its requests (one per size) and the span of
    /// what it audits.
    fn audit(
        &self,
        raw: &RawAudit,
        defaults: &Defaults,
        alpha: f64,
    ) -> Result<(Table, Range<usize>)> {
        let span = self.one_of("[[audit]]", [&raw.algorithm, &raw.input, &raw.cmd])?;
        let spans = spans([
            (Opt::Subject, Some(span.clone())),
            (Opt::N, span_of(&raw.n)),
            (Opt::Trials, span_of(&raw.trials)),
            (Opt::Rng, span_of(&raw.rng)),
            (Opt::Bins, span_of(&raw.bins)),
            (Opt::Deck, span_of(&raw.deck)),
            (Opt::Categories, span_of(&raw.categories)),
            (Opt::Hand, span_of(&raw.hand)),
            (Opt::Order, span_of(&raw.order)),
            (Opt::Format, span_of(&raw.format)),
            (
                Opt::Tests,
                raw.tests.iter().flatten().next().map(Spanned::span),
            ),
        ]);
        let mut request = self.request(raw.seed, &raw.rng, defaults, alpha)?;
        let subject = if let Some(algorithm) = &raw.algorithm {
            self.refuse_any(
                [
                    span_of(&raw.name),
                    span_of(&raw.format),
                    span_of(&raw.order),
                    span_of(&raw.jobs),
                    span_of(&raw.cmd_timeout),
                ],
                "name, format, order, jobs and cmd_timeout describe your own shuffle: use them \
                 with input or cmd, not algorithm",
            )?;
            request.subjects = vec![algorithm.get_ref().clone()];
            algorithm.get_ref().clone()
        } else {
            let feed = self.feed(
                &raw.input,
                &raw.cmd,
                &raw.format,
                &raw.jobs,
                &raw.cmd_timeout,
            )?;
            request.order =
                (raw.order.as_ref()).map(|o| items(o.get_ref()).map(str::to_string).collect());
            outside(&mut request, &raw.name, feed)
        };
        if let Some(tests) = &raw.tests {
            let mut names: Vec<&str> = Vec::new();
            for t in tests {
                let name = t.get_ref().as_str();
                // `all` and `default` name sets, as on the command line.
                if !matches!(name, "all" | "default") {
                    crate::spec::TestKind::parse(name).map_err(self.rethrow(t.span()))?;
                }
                if names.contains(&name) {
                    return Err(self.at(t.span(), format!("test '{name}' is listed twice")));
                }
                names.push(name);
            }
            request.tests = Some(names.join(","));
        }
        if let Some(b) = &raw.bins {
            let bins = usize::try_from(*b.get_ref());
            let bad = |_| {
                self.at(
                    b.span(),
                    format!("bins = {} must be at least 2", b.get_ref()),
                )
            };
            request.bins = Some(bins.map_err(bad)?);
        }
        request.deck = raw.deck.as_ref().map(|d| d.get_ref().clone());
        request.categories = raw.categories.as_ref().map(|c| c.get_ref().clone());
        request.hand = (raw.hand.as_ref()).map(|h| usize::try_from(*h.get_ref()).unwrap_or(0));
        request.trials = self.trials(&raw.trials, &request, defaults)?;
        let reads_file = matches!(request.feed, Some(Feed::File { .. }));
        let sizes: Vec<Option<usize>> = match &raw.n {
            Some(n) => self.sizes(n)?.into_iter().map(Some).collect(),
            // A deck or a file says its own n; a program takes the file's.
            None if request.deck.is_some() || reads_file => vec![None],
            None => defaults.sizes.iter().copied().map(Some).collect(),
        };
        let requests = (sizes.into_iter())
            .map(|n| Request {
                n,
                ..request.clone()
            })
            .collect();
        let note = raw.note.as_ref().map(|s| s.trim().to_string());
        let table = self.table(subject, requests, &raw.requires, note, &spans, span.clone())?;
        Ok((table, span))
    }

    /// One `[[sample]]` table: a built-in sampler, or the sampler behind
    /// its `input` or `cmd` with its `kind`, `base` and `name`.
    fn sample(&self, raw: &RawSample, defaults: &Defaults, alpha: f64) -> Result<Table> {
        let span = self.one_of("[[sample]]", [&raw.sampler, &raw.input, &raw.cmd])?;
        let spans = spans([
            (Opt::Subject, Some(span.clone())),
            (Opt::N, span_of(&raw.n)),
            (Opt::Trials, span_of(&raw.trials)),
            (Opt::Rng, span_of(&raw.rng)),
            (Opt::Weights, span_of(&raw.weights)),
            (Opt::Kind, span_of(&raw.kind)),
            (Opt::Base, span_of(&raw.base)),
        ]);
        let mut request = self.request(raw.seed, &raw.rng, defaults, alpha)?;
        if let Some(n) = &raw.n {
            request.n = Some(self.size(*n.get_ref(), n.span())?);
        }
        request.weights = raw.weights.as_ref().map(|w| {
            let w: Vec<String> = w.get_ref().iter().map(u64::to_string).collect();
            w.join(",")
        });
        let subject = if let Some(sampler) = &raw.sampler {
            self.refuse_any(
                [
                    span_of(&raw.kind),
                    span_of(&raw.name),
                    span_of(&raw.base),
                    span_of(&raw.jobs),
                    span_of(&raw.cmd_timeout),
                ],
                "kind, base, name, jobs and cmd_timeout describe a sampler from outside \
                 (input or cmd), not a built-in one",
            )?;
            request.subjects = vec![sampler.get_ref().clone()];
            if request.n.is_none() && request.weights.is_none() {
                let named = crate::sampler::Sampler::parse(sampler.get_ref())
                    .map_err(self.rethrow(span.clone()))?;
                if named.population().is_none() {
                    request.n = Some(defaults.sizes[0]);
                }
            }
            sampler.get_ref().clone()
        } else {
            let holds = match raw.kind.as_ref().map(|k| (k, Holds::parse(k.get_ref()))) {
                None => Holds::Sample,
                Some((_, Ok(holds))) if holds != Holds::Deck => holds,
                Some((k, _)) => {
                    return Err(self.at(
                        k.span(),
                        format!(
                            "kind = \"{}\": a sample (k items per line), ordered (k items \
                             in the order drawn) or a pick",
                            k.get_ref()
                        ),
                    ));
                }
            };
            if raw.weights.is_some() && holds != Holds::Pick {
                let at = span_of(&raw.weights).unwrap_or(span);
                return Err(self.at(at, "weights go with kind = \"pick\""));
            }
            if let Some(b) = &raw.base {
                let base = crate::ingest::samples::Base::parse(
                    &b.get_ref().to_string(),
                    crate::error::Front::Toml,
                );
                request.base = Some(base.map_err(self.rethrow(b.span()))?);
            }
            let feed = self.feed(&raw.input, &raw.cmd, &None, &raw.jobs, &raw.cmd_timeout)?;
            request.holds = Some(holds);
            outside(&mut request, &raw.name, feed)
        };
        request.trials = self.trials(&raw.trials, &request, defaults)?;
        let requests = vec![request];
        self.table(
            subject,
            requests,
            &raw.requires,
            raw.note.clone(),
            &spans,
            span,
        )
    }

    /// The request every table starts from: the front, α, and the table's
    /// seed and source, or the file's.
    fn request(
        &self,
        seed: Option<u64>,
        rng: &Option<Spanned<String>>,
        defaults: &Defaults,
        alpha: f64,
    ) -> Result<Request> {
        Ok(Request {
            front: Front::Toml,
            alpha: Some(alpha),
            seed: Some(seed.unwrap_or(defaults.seed)),
            rng: Some(self.source_or(rng, defaults.source)?.to_string()),
            ..Request::default()
        })
    }

    /// A table's trials: its own, else none for a file (read whole), else
    /// the file's default.
    fn trials(
        &self,
        trials: &Option<Spanned<Count>>,
        request: &Request,
        defaults: &Defaults,
    ) -> Result<Option<u64>> {
        match trials {
            Some(t) => self.count(t).map(Some),
            None if matches!(request.feed, Some(Feed::File { .. })) => Ok(None),
            None => Ok(Some(defaults.trials)),
        }
    }

    /// The table of `requests`, each checked as the run will resolve it
    /// (refusals at the key of `spans` they are about, else at `span`),
    /// unless a program it `requires` is missing: then it is skipped.
    fn table(
        &self,
        subject: String,
        requests: Vec<Request>,
        requires: &Option<Vec<Spanned<String>>>,
        note: Option<String>,
        spans: &Spans,
        span: Range<usize>,
    ) -> Result<Table> {
        let requires = requires.iter().flatten();
        let table = Table {
            subject,
            requests,
            requires: requires.map(|r| r.get_ref().trim().to_string()).collect(),
            note,
        };
        if table.missing().is_none() {
            for request in &table.requests {
                self.check(request, spans, span.clone())?;
            }
        }
        Ok(table)
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
    /// `[[sample]]`, which has no `format`).
    fn feed(
        &self,
        input: &Option<Spanned<String>>,
        cmd: &Option<Spanned<String>>,
        format: &Option<Spanned<String>>,
        jobs: &Option<Spanned<i64>>,
        cmd_timeout: &Option<Spanned<i64>>,
    ) -> Result<Feed> {
        match (input, cmd) {
            (Some(input), _) => {
                let with_cmd = [span_of(jobs), span_of(cmd_timeout)];
                self.refuse_any(with_cmd, "jobs and cmd_timeout go with cmd, not input")?;
                let format = match format {
                    Some(f) => Format::parse(f.get_ref()).map_err(self.rethrow(f.span()))?,
                    None => Format::Text,
                };
                Ok(Feed::File {
                    path: PathBuf::from(input.get_ref()),
                    format,
                })
            }
            (None, Some(cmd)) => {
                if let Some(f) = format {
                    return Err(self.at(f.span(), "format goes with input: a cmd prints text"));
                }
                if cmd.get_ref().trim().is_empty() {
                    return Err(self.at(cmd.span(), "cmd is empty"));
                }
                let jobs = jobs
                    .as_ref()
                    .map(|j| self.positive(j, "jobs"))
                    .transpose()?;
                let timeout = cmd_timeout
                    .as_ref()
                    .map(|t| self.positive(t, "cmd_timeout"));
                Ok(Feed::Command(CommandSpec {
                    template: cmd.get_ref().clone(),
                    jobs: jobs.map_or_else(rayon::current_num_threads, |j| j as usize),
                    timeout: std::time::Duration::from_secs(timeout.transpose()?.unwrap_or(60)),
                }))
            }
            (None, None) => Err(self.src.error(None, "nothing to audit")),
        }
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
