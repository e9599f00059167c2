//! What an audit runs: a [`Spec`] (the shared header every kind has, plus
//! what its kind adds) of a [`Subject`], built in or from outside the tool.

use super::Kind;
use crate::error::Result;
use crate::ingest::{CommandSpec, Format};
use crate::pacing::ChunkRange;
use crate::source::SourceSpec;
use std::fmt;
use std::path::PathBuf;

/// `Spec::trials` of a file read to its end: every trial the input holds.
pub const ALL_TRIALS: u64 = u64::MAX;

/// `Spec::n` when the input says it (a file's or a program's first deck).
pub const N_FROM_INPUT: usize = 0;

/// Everything that decides an audit's counts, for any kind of subject: the
/// subject, n, trials, source and seed (the shared header), the kind's own
/// options, and the thread count (which does not change the counts).
#[derive(Debug, Clone, PartialEq)]
pub struct Spec<K: Kind> {
    /// What is audited.
    pub subject: Subject<K>,
    /// Items shuffled, or the population a sampler draws from
    /// ([`N_FROM_INPUT`] when the input says).
    pub n: usize,
    /// Trials: shuffles, samples or picks ([`ALL_TRIALS`] for a file read
    /// to its end).
    pub trials: u64,
    /// The random source handed to the subject.
    pub source: SourceSpec,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads; `None` uses the current rayon pool (all cores by
    /// default). `Some` runs on a pool of that many, kept for the process.
    pub threads: Option<usize>,
    /// What the kind adds (a shuffle's tests and deck, a pick's weights).
    pub options: K::Options,
}

impl<K: Kind> Spec<K> {
    /// A spec of `subject` with the kind's default options at `n`, on the
    /// current thread pool.
    pub fn new(
        subject: impl Into<Subject<K>>,
        n: usize,
        trials: u64,
        source: SourceSpec,
        seed: u64,
    ) -> Self {
        Self {
            subject: subject.into(),
            n,
            trials,
            source,
            seed,
            threads: None,
            options: K::options(n),
        }
    }

    /// The same spec with `options`.
    pub fn with_options(self, options: K::Options) -> Self {
        Self { options, ..self }
    }

    /// Every chunk of a built-in run: chunk `c` draws from stream `c` of
    /// the seed, so a share of these (a shard, what a resumed run has
    /// left) counts exactly those trials of the whole run.
    pub fn chunks(&self) -> ChunkRange {
        ChunkRange::all_sized(self.trials, K::chunk_trials(self))
    }

    /// The random source as outputs name it: the source, or `own` for a
    /// subject from outside that brings its own generator.
    pub fn source_label(&self) -> String {
        if self.subject.uses_our_source() {
            self.source.to_string()
        } else {
            OWN_SOURCE.to_string()
        }
    }

    /// The random source's bare name (no parameters), or `own` like
    /// [`source_label`](Self::source_label): for folder names.
    pub fn source_name(&self) -> &'static str {
        if self.subject.uses_our_source() {
            self.source.kind.name()
        } else {
            OWN_SOURCE
        }
    }

    /// Refuses what cannot be counted: the kind's checks.
    pub fn check(&self) -> Result<()> {
        K::check(self)
    }
}

/// How outputs name the random source of a subject from outside the tool,
/// which brings its own generator.
pub const OWN_SOURCE: &str = "own";

/// What an audit judges: one of the kind's built-in subjects, run on our
/// sources, or a subject from outside the tool, seen only through what it
/// made.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject<K: Kind> {
    /// A built-in subject with its parameters.
    Builtin(K::Builtin),
    /// A subject whose code is elsewhere: the audit counts what it made.
    Outside(Outside<K>),
}

/// A subject from outside the tool: a name for reports, where its output
/// comes from and how to read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outside<K: Kind> {
    /// The name reports show (the file name, the command, or the user's).
    pub name: String,
    /// Where its output comes from.
    pub feed: Feed,
    /// How its output is read (the kind's own: a deck's starting order, a
    /// sample's shape).
    pub reading: K::Reading,
}

/// Where a subject from outside comes from, for every kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Feed {
    /// A file (`-` is stdin), in `format`.
    File {
        /// The path, or `-` for standard input.
        path: PathBuf,
        /// Text lines or fixed-width binary records.
        format: Format,
    },
    /// A program run by the tool, in parallel copies, each printing its
    /// share of the trials.
    Command(CommandSpec),
    /// A function written in Rust, handed to the engine alongside the spec
    /// (see `crate::custom`), drawing from our random source.
    Function,
    /// Output already made, handed over whole in memory (an array, an
    /// iterable of decks): read as a file would be, every trial it holds
    /// unless a count is asked; `from` says where it came from, for the
    /// report ("handed over from Python").
    Given {
        /// Where the output came from, as a phrase.
        from: String,
    },
    /// Output the caller's own function draws on demand with its own
    /// generator (a Python or JavaScript shuffle), as many trials as asked
    /// (by default what n needs for a verdict); `from` says how, for the
    /// report ("shuffled by a Python function, its generator seeded with
    /// 7").
    Drawn {
        /// How the output was drawn, as a phrase.
        from: String,
    },
}

impl<K: Kind> Subject<K> {
    /// The built-in subject, if this is one.
    pub fn builtin(&self) -> Option<&K::Builtin> {
        match self {
            Subject::Builtin(builtin) => Some(builtin),
            Subject::Outside(_) => None,
        }
    }

    /// The subject from outside, if this is one.
    pub fn outside(&self) -> Option<&Outside<K>> {
        match self {
            Subject::Builtin(_) => None,
            Subject::Outside(outside) => Some(outside),
        }
    }

    /// A subject the caller's own function draws on demand
    /// ([`Feed::Drawn`]): where its draws come from, in the report's
    /// words, and how they are read (what a record of it keeps, so that a
    /// tally file of it reads back); `None` for any other subject.
    pub fn drawn(&self) -> Option<(&str, &K::Reading)> {
        match self {
            Subject::Outside(Outside {
                feed: Feed::Drawn { from },
                reading,
                ..
            }) => Some((from, reading)),
            _ => None,
        }
    }

    /// Whether one of our random sources (with the seed) draws the trials,
    /// so that the source is worth naming in outputs.
    pub fn uses_our_source(&self) -> bool {
        match self {
            Subject::Builtin(_) => true,
            Subject::Outside(outside) => outside.feed == Feed::Function,
        }
    }

    /// A name safe to use as a folder name.
    pub fn slug(&self) -> String {
        match self {
            Subject::Builtin(builtin) => K::slug(builtin),
            Subject::Outside(outside) => slug_of(&outside.name),
        }
    }
}

impl<K: Kind> fmt::Display for Subject<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Builtin(builtin) => builtin.fmt(f),
            Subject::Outside(outside) => f.write_str(&outside.name),
        }
    }
}

impl Feed {
    /// Where the feed's output came from, in a few words for a record
    /// (`input shoes.txt`, `cmd ./deal {n} (2 jobs)`); `None` for a Rust
    /// function, whose output is drawn like a built-in subject's.
    pub fn input_words(&self) -> Option<String> {
        match self {
            Feed::File { path, .. } => Some(format!("input {}", crate::output::input_words(path))),
            Feed::Command(cmd) => Some(format!("cmd {} ({} jobs)", cmd.template, cmd.jobs)),
            Feed::Function => None,
            Feed::Given { from } | Feed::Drawn { from } => Some(from.clone()),
        }
    }

    /// The name a feed's subject gets unless the user names it, the same
    /// from every front: a file's name without its folders (`-` is
    /// `stdin`), or the command.
    pub fn default_name(&self) -> String {
        match self {
            Feed::File { path, .. } if path.as_os_str() == "-" => "stdin".to_string(),
            Feed::File { path, .. } => path.file_name().map_or_else(
                || path.display().to_string(),
                |f| f.to_string_lossy().into_owned(),
            ),
            Feed::Command(cmd) => cmd.template.clone(),
            Feed::Function => "function".to_string(),
            Feed::Given { from } | Feed::Drawn { from } => from.clone(),
        }
    }
}

/// `name` with every character that is awkward in a folder name replaced:
/// letters, digits, `-`, `_` and `.` are kept, runs of anything else become
/// one `_`, and the result is at most 60 characters.
pub fn slug_of(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out: String = out.trim_matches('_').chars().take(60).collect();
    if out.is_empty() {
        "outside".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awkward_names_become_folder_names() {
        assert_eq!(slug_of("node shuffle.js {n}"), "node_shuffle.js_n");
        assert_eq!(slug_of("///"), "outside");
    }
}
