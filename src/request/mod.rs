//! One place that turns what a user asked into a study: every default and
//! every refusal of every front.
//!
//! The command line, experiment files, the Python package and the page each
//! parse their own syntax into a [`Request`] and call [`Request::resolve`]
//! (or [`Request::study`]); none of them computes a default or refuses a
//! value on its own. A refusal is a typed [`Error`] naming the option at
//! fault ([`Error::option`]), worded for the front that asked
//! ([`Request::front`]: `-t 4629` on the command line, `trials=4629` in
//! Python, `trials: 4629` in JavaScript, `.trials(4629)` in Rust), so that
//! an experiment file can point at its key and nobody matches message
//! text. Every option combination is either honoured on every path or
//! refused here with one line.
//!
//! ```
//! use shuffle_audit::request::Request;
//!
//! # fn main() -> shuffle_audit::Result<()> {
//! let request = Request {
//!     subjects: vec!["naive-swap".into(), "floyd:k=3".into()],
//!     trials: Some(50_000),
//!     ..Request::default()
//! };
//! let resolved = request.resolve()?;
//! assert_eq!(resolved.audits.len(), 2);
//! assert_eq!(resolved.audits[1].kind(), "sampler");
//! // n = 1 is refused at once, whatever the front.
//! let one = Request { n: Some(1), ..request };
//! assert!(one.resolve().is_err());
//! # Ok(())
//! # }
//! ```

mod form;
mod outside;
mod samplers;
mod shuffles;
mod weights;

pub use form::Form;
pub use weights::{parse_weights, scaled_note};

use crate::algorithm::Algorithm;
use crate::audit::{ALL_TRIALS, DEFAULT_ALPHA, DEFAULT_SEED, Feed, Planned};
use crate::error::{Error, Front, Opt, Result};
use crate::ingest::samples::Base;
use crate::report::Provenance;
use crate::sampler::Sampler;
use crate::source::SourceSpec;
use crate::study::Study;
use crate::values::{check_alpha, check_n, check_threads, check_trials};

/// What a user asked for, in any front's words, before any default or
/// check: the one input of [`Request::resolve`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Request {
    /// Who asked, for the wording of every message.
    pub front: Front,
    /// Built-in subjects by name, of any kind (`fisher-yates`,
    /// `floyd:k=3`); none, with no [`outside`](Self::feed) subject,
    /// audits every built-in shuffle.
    pub subjects: Vec<String>,
    /// Where a subject from outside the tool comes from (a file, a
    /// program, a function, or output handed over in memory), instead of
    /// built-in ones.
    pub feed: Option<Feed>,
    /// What each line of the outside subject's output holds (default:
    /// decks).
    pub holds: Option<Holds>,
    /// The name reports give the outside subject (default: the file's name
    /// or the command).
    pub name: Option<String>,
    /// The starting order of outside decks, as item labels (default
    /// ascending).
    pub order: Option<Vec<String>>,
    /// How outside samples number their items (default: the input
    /// decides).
    pub base: Option<Base>,
    /// Items per outside sample, when known before the run (a
    /// function's).
    pub k: Option<usize>,
    /// Items per deck, or the population sampled (default: 10 for a
    /// built-in shuffle or sampler; a file's or a program's first deck;
    /// a board's cells or the weights' count).
    pub n: Option<usize>,
    /// Trials (default: what n needs for a verdict, or for a file every
    /// trial it holds).
    pub trials: Option<u64>,
    /// The seed (default [`DEFAULT_SEED`]).
    pub seed: Option<u64>,
    /// The random source, `NAME[:key=value]` (default ChaCha8).
    pub rng: Option<String>,
    /// The significance level (default [`DEFAULT_ALPHA`]).
    pub alpha: Option<f64>,
    /// The tests, comma-separated, `all` or `default` (shuffles).
    pub tests: Option<String>,
    /// Bins per side of the position-by-value matrix (shuffles).
    pub bins: Option<usize>,
    /// A deck whose items may repeat (`cards`, `shoe:decks=6`, `AABB`).
    pub deck: Option<String>,
    /// Category columns of the items (`cards`, or a CSV file).
    pub categories: Option<String>,
    /// The hand size of the hand test.
    pub hand: Option<usize>,
    /// A weighted pick's weights, as given: whole numbers, or decimals read
    /// as proportions (`0.1,0.9` is `1,9`).
    pub weights: Option<String>,
    /// Worker threads (default: all cores; never changes the counts).
    pub threads: Option<usize>,
    /// Double the trials look after look until decisively biased or out
    /// of budget.
    pub until_decisive: bool,
    /// The trial budget of a sequential audit (default 64 × the first
    /// look's trials).
    pub max_trials: Option<u64>,
    /// Whether the run is counted into a tally file as it goes: a shard
    /// of it, or the whole run checkpointed (see [`Chunks`]).
    pub chunks: Option<Chunks>,
}

/// How a run is counted into a tally file as it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chunks {
    /// One shard of the run's chunks: only built-in subjects, drawn in
    /// chunks of a seed, are split.
    Shard,
    /// The whole run, saved as it goes and resumed: built-in subjects by
    /// chunks, a file of decks by how far its read has got.
    Checkpoint,
}

/// What each line of an outside subject's output holds (`--kind` on the
/// command line, whose help lists these descriptions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Holds {
    /// A shuffled deck (a permutation).
    #[default]
    Deck,
    /// k distinct items of a population of N (a lottery draw, an audit sample).
    Sample,
    /// k distinct items of N in the order drawn (first prize, second
    /// prize, ...): also tested for which item comes at which slot.
    Ordered,
    /// One item of N (a uniform or weighted pick).
    Pick,
}

impl Holds {
    /// The name a front uses: `deck`, `sample`, `ordered`, `pick`.
    pub fn name(self) -> &'static str {
        match self {
            Holds::Deck => "deck",
            Holds::Sample => "sample",
            Holds::Ordered => "ordered",
            Holds::Pick => "pick",
        }
    }

    /// The kind called `name`, or an error naming the known ones.
    pub fn parse(name: &str) -> Result<Holds> {
        let all = [Holds::Deck, Holds::Sample, Holds::Ordered, Holds::Pick];
        let known: Vec<(&str, Holds)> = all.iter().map(|h| (h.name(), *h)).collect();
        crate::params::lookup("kind", name, &known).map_err(|e| e.about(Opt::Kind))
    }
}

/// A request resolved: the audits to run (each a spec of its kind, every
/// default filled in and every value checked), with what the study needs
/// beside them.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The audits, in the order asked.
    pub audits: Vec<Box<dyn Planned>>,
    /// A note per audit for the report (a source too small for n, the
    /// tests a deck leaves out).
    pub notes: Vec<Option<String>>,
    /// The significance level.
    pub alpha: f64,
    /// The per-audit budget of a sequential study.
    pub until_decisive: Option<u64>,
    /// What the person running it should know before it runs (said once
    /// on stderr by the command line).
    pub warnings: Vec<String>,
}

impl Resolved {
    /// The study of these audits, with `provenance`.
    pub fn study(self, provenance: Provenance) -> Study {
        Study {
            alpha: self.alpha,
            until_decisive: self.until_decisive,
            notes: self.notes,
            provenance,
            ..Study::new(self.audits)
        }
    }
}

/// A built-in subject, found by name among every kind's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Named {
    /// A shuffle algorithm.
    Shuffle(Algorithm),
    /// A sampler.
    Sampler(Sampler),
}

/// The built-in subject called `name`, of whichever kind knows it; an
/// unknown name is refused suggesting the closest name of the kind that
/// has one near.
pub fn named(name: &str) -> Result<Named> {
    match (Algorithm::parse(name), Sampler::parse(name)) {
        (Ok(algorithm), _) => Ok(Named::Shuffle(algorithm)),
        (Err(_), Ok(sampler)) => Ok(Named::Sampler(sampler)),
        (Err(shuffle), Err(sampler)) => {
            let shuffles = Algorithm::ALL.map(|a| a.name());
            let samplers = Sampler::ALL.map(|s| s.name());
            // A known name with a bad parameter: that kind's error.
            let base = name.split(':').next().unwrap_or(name);
            let knows = |names: &[&str]| {
                let known: Vec<(&str, ())> = names.iter().map(|n| (*n, ())).collect();
                crate::params::lookup("name", base, &known).is_ok()
            };
            let error = match (shuffle.meant(), sampler.meant()) {
                _ if knows(&shuffles) => shuffle,
                _ if knows(&samplers) => sampler,
                (None, Some(_)) => sampler,
                (Some(_), _) => shuffle,
                // Near neither: every name of both kinds.
                (None, None) => Error::unknown_name(format!(
                    "unknown algorithm or sampler '{name}' (shuffles: {}; samplers: {})",
                    shuffles.join(", "),
                    samplers.join(", ")
                )),
            };
            Err(error.about(Opt::Subject))
        }
    }
}

impl Request {
    /// The request resolved into checked specs: every default filled in,
    /// every bad value and every combination that cannot be honoured
    /// refused before anything runs, each with one line naming the option
    /// as [`front`](Self::front) spells it.
    pub fn resolve(&self) -> Result<Resolved> {
        let alpha = check_alpha(self.alpha.unwrap_or(DEFAULT_ALPHA))?;
        if let Some(n) = self.n {
            check_n(n)?;
        }
        if let Some(trials) = self.trials {
            check_trials(trials)?;
        }
        if let Some(threads) = self.threads {
            check_threads(threads)?;
        }
        if self.max_trials.is_some() && !self.until_decisive {
            return Err(self.refuse(
                Opt::MaxTrials,
                format!(
                    "{} is the budget of a sequential audit: add {}",
                    Opt::MaxTrials.named(self.front),
                    Opt::UntilDecisive.named(self.front)
                ),
            ));
        }
        let source = match &self.rng {
            Some(rng) => SourceSpec::parse(rng).map_err(|e| e.about(Opt::Rng))?,
            None => SourceSpec::default(),
        };
        let header = Header {
            source,
            seed: self.seed.unwrap_or(DEFAULT_SEED),
            alpha,
        };
        let mut planned: Vec<(Box<dyn Planned>, Option<String>)> = Vec::new();
        let mut warnings = Vec::new();
        if let Some(feed) = &self.feed {
            if !self.subjects.is_empty() {
                return Err(self.refuse(
                    Opt::Subject,
                    "audit built-in subjects or your own, not both at once".to_string(),
                ));
            }
            planned.push(outside::resolve(self, feed, &header, &mut warnings)?);
        } else {
            self.refuse_outside_options()?;
            let mut names: Vec<Named> = Vec::new();
            for name in &self.subjects {
                let found = named(name)?;
                if names.contains(&found) {
                    return Err(self.refuse(Opt::Subject, format!("'{name}' is asked twice")));
                }
                names.push(found);
            }
            if names.is_empty() {
                names = Algorithm::ALL.into_iter().map(Named::Shuffle).collect();
            }
            if !names.iter().any(|n| matches!(n, Named::Shuffle(_))) {
                shuffles::refuse_options(self)?;
            }
            if !names.iter().any(|n| matches!(n, Named::Sampler(_))) {
                samplers::refuse_options(self)?;
            }
            for name in names {
                planned.push(match name {
                    Named::Shuffle(a) => shuffles::builtin(self, a, &header, &mut warnings)?,
                    Named::Sampler(s) => samplers::builtin(self, s, &header)?,
                });
            }
        }
        let until_decisive = self.budget(&planned)?;
        if let Some(chunks) = self.chunks {
            self.refuse_unchunked(chunks, &planned)?;
        }
        let (audits, notes) = planned.into_iter().unzip();
        Ok(Resolved {
            audits,
            notes,
            alpha,
            until_decisive,
            warnings,
        })
    }

    /// The request as a study, named as nobody named it, with
    /// `provenance`.
    pub fn study(&self, provenance: Provenance) -> Result<Study> {
        Ok(self.resolve()?.study(provenance))
    }

    /// An error about `option`, worded by `message`.
    fn refuse(&self, option: Opt, message: String) -> Error {
        Error::unsupported(message).about(option)
    }

    /// Refuses the options of an outside subject when none is given.
    fn refuse_outside_options(&self) -> Result<()> {
        let given = [
            (self.holds.is_some(), Opt::Kind),
            (self.name.is_some(), Opt::Subject),
            (self.order.is_some(), Opt::Order),
            (self.base.is_some(), Opt::Base),
        ];
        match given.iter().find(|(on, _)| *on) {
            Some((_, option)) => Err(self.refuse(
                *option,
                format!(
                    "{} describes your own subject's output: use it with an input file or a \
                     program",
                    match option {
                        Opt::Subject => "the name".to_string(),
                        other => other.named(self.front),
                    }
                ),
            )),
            None => Ok(()),
        }
    }

    /// The per-audit budget of a sequential study, if asked: the same rule
    /// for every kind (64 × the first look's trials unless given, and at
    /// least the first look's trials).
    fn budget(&self, planned: &[(Box<dyn Planned>, Option<String>)]) -> Result<Option<u64>> {
        if !self.until_decisive {
            return Ok(None);
        }
        if self.chunks.is_some() {
            return Err(self.refuse(
                Opt::UntilDecisive,
                format!(
                    "{} decides its trials as it goes: it is not split or checkpointed (give a \
                     fixed {})",
                    Opt::UntilDecisive.named(self.front),
                    Opt::Trials.named(self.front)
                ),
            ));
        }
        if let Some(Feed::Given { .. }) = &self.feed {
            return Err(self.refuse(
                Opt::UntilDecisive,
                format!(
                    "output handed over is audited as it is: it cannot be asked for more trials \
                     look after look (leave out {})",
                    Opt::UntilDecisive.named(self.front)
                ),
            ));
        }
        if let Some(Feed::File { path, .. }) = &self.feed
            && path.as_os_str() == "-"
        {
            return Err(self.refuse(
                Opt::UntilDecisive,
                format!(
                    "stdin is read once: it cannot be read again look after look (give a file, \
                     or a program, for {})",
                    Opt::UntilDecisive.named(self.front)
                ),
            ));
        }
        let first = planned.iter().map(|(p, _)| p.trials()).max().unwrap_or(1);
        if first == ALL_TRIALS && self.max_trials.is_some() {
            return Err(Error::bad_input(format!(
                "{} needs {}, the first look's trials: without it the first look reads the \
                 whole input",
                Opt::MaxTrials.named(self.front),
                Opt::Trials.named(self.front),
            ))
            .about(Opt::MaxTrials));
        }
        let max = self.max_trials.unwrap_or_else(|| first.saturating_mul(64));
        if max < first {
            return Err(Error::out_of_range(format!(
                "{} ({max}) must be at least {} ({first}), the first look's",
                Opt::MaxTrials.named(self.front),
                Opt::Trials.named(self.front),
            ))
            .about(Opt::MaxTrials));
        }
        Ok(Some(max))
    }

    /// Refuses, for a run counted into a tally file, subjects that are not
    /// drawn in chunks of a seed (a file of any kind, decks, samples or
    /// picks, may be checkpointed by how far its read has got).
    fn refuse_unchunked(
        &self,
        chunks: Chunks,
        planned: &[(Box<dyn Planned>, Option<String>)],
    ) -> Result<()> {
        let Some((outside, _)) = planned.iter().find(|(p, _)| !p.is_builtin()) else {
            return Ok(());
        };
        let why = match (chunks, outside.feed()) {
            (Chunks::Checkpoint, Some(Feed::File { path, .. })) if path.as_os_str() == "-" => {
                "stdin cannot be reopened where it stopped: give a file to checkpoint"
            }
            (Chunks::Checkpoint, Some(Feed::File { .. })) if planned.len() == 1 => {
                return Ok(());
            }
            (Chunks::Checkpoint, Some(Feed::File { .. })) => {
                "a file's read is checkpointed alone: audit it on its own"
            }
            (Chunks::Shard, Some(Feed::File { .. })) => {
                "it is read from a file, not drawn in chunks of a seed: split the file and audit \
                 each part, or checkpoint its read"
            }
            _ => "its output comes from outside, not from chunks of the seed",
        };
        Err(self.refuse(
            Opt::Shard,
            format!(
                "{}: {why}; only built-in subjects are split into shards or checkpointed by \
                 chunks",
                outside.subject()
            ),
        ))
    }
}

/// What every audit of a request shares.
#[derive(Debug, Clone, Copy)]
struct Header {
    source: SourceSpec,
    seed: u64,
    alpha: f64,
}

/// The entry of `known` called `name` (exactly, or ignoring case and
/// `_`/`-`), for a front's own list of names (the page's presets); an
/// unknown name is refused as every name is, suggesting the closest:
/// `unknown preset 'fisher-yate': did you mean 'fisher-yates'? (known:
/// ...)`.
pub fn choose<'a>(what: &str, name: &str, known: &[&'a str]) -> Result<&'a str> {
    let pairs: Vec<(&str, &'a str)> = known.iter().map(|&k| (k, k)).collect();
    crate::params::lookup(what, name, &pairs).map_err(|e| e.about(Opt::Subject))
}
