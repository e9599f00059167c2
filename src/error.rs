//! The library's error type.

use std::path::PathBuf;

/// Everything that can go wrong in an audit, phrased for the person who ran it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request or its input is wrong (bad name, bad number, impossible
    /// size, bad input data), or a step failed that has no [`Error::Io`]
    /// of its own; usually nothing was run and nothing was written. `kind`
    /// says which sort of wrong, for programs (tests match kinds, people
    /// read the message).
    #[error("{message}")]
    Invalid {
        /// Which sort of wrong.
        kind: ErrorKind,
        /// The message, naming the bad value.
        message: String,
        /// What the error is about and what would do instead, as data (so
        /// that a front can point at its own spelling of the option, and
        /// nobody matches message text).
        hint: Box<Hint>,
    },
    /// Reading or writing a file failed.
    #[error("{}: {}", path.display(), io_words(source))]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// Encoding an output (CSV, JSON, PNG) failed.
    #[error("cannot write {}: {message}", path.display())]
    Output {
        /// The file being written.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// Which sort of wrong an [`Error`] is, for programs to match: see
/// [`Error::kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A name the tool does not know (algorithm, source, test, key).
    UnknownName,
    /// A number outside its range, or text that is not the number asked
    /// for (n, trials, alpha, threads, k, sizes, weights).
    OutOfRange,
    /// Something the tool does not do (yet), such as decks with repeated
    /// items or an exact law of a shuffle that draws raw bits.
    Unsupported,
    /// Work or memory beyond what the tool allows or the machine has.
    TooCostly,
    /// Input that is not what it should be: a malformed deck line, file,
    /// record or argument text, a failing program, counts that do not fit
    /// together.
    BadInput,
    /// Reading or writing a file or folder failed (or cannot be done: no
    /// such file, a file where a folder should be), or a program could not
    /// be started or is not installed.
    Io,
    /// The run was asked to stop (Ctrl-C) and did: what it had counted is
    /// saved where the message says, to be resumed.
    Interrupted,
    /// Anything else (today only a command worker that stopped without
    /// saying why).
    Other,
}

/// What an error is about and what would do instead, as data: the
/// request's option at fault (so that an experiment file can point at its
/// key, the command line name its flag) and the name meant when a name was
/// misspelt.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hint {
    /// The option of the request the error is about, if one is.
    pub option: Option<Opt>,
    /// The known name closest to a misspelt one (`fisher-yates` for
    /// `fisher-yate`).
    pub meant: Option<String>,
}

/// An option of a request, as each front spells it (see
/// [`Opt::spelled`]): what errors and suggestions name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Opt {
    /// What is audited (an algorithm, a sampler, a file).
    Subject,
    /// Items per deck, or the population sampled.
    N,
    /// Items per sample.
    K,
    /// Trials.
    Trials,
    /// The significance level.
    Alpha,
    /// The seed.
    Seed,
    /// The random source.
    Rng,
    /// The tests.
    Tests,
    /// Bins per side of the position-by-value matrix.
    Bins,
    /// Category columns of a deck.
    Categories,
    /// A deck with repeated items.
    Deck,
    /// The hand size of the hand test.
    Hand,
    /// A weighted pick's weights.
    Weights,
    /// Worker threads.
    Threads,
    /// A sequential audit's trial budget.
    MaxTrials,
    /// A sequential audit.
    UntilDecisive,
    /// A share of the run.
    Shard,
    /// The format of an input file.
    Format,
    /// What an outside subject's lines hold.
    Kind,
    /// How an outside sampler numbers its items.
    Base,
    /// The starting order of outside decks.
    Order,
}

/// Who asked: how an option and a suggestion are spelled for the person
/// reading the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Front {
    /// The command line: `-t 4629`.
    #[default]
    Cli,
    /// An experiment file: `trials = 4629`.
    Toml,
    /// The Python package: `trials=4629`.
    Python,
    /// JavaScript (the page, the npm package): `trials: 4629`.
    JavaScript,
    /// Rust (the library, `CustomAudit`): `.trials(4629)`.
    Rust,
}

impl Opt {
    /// The option's name in a key-value front (`trials`, `max_trials`).
    pub fn key(self) -> &'static str {
        match self {
            Opt::Subject => "subject",
            Opt::N => "n",
            Opt::K => "k",
            Opt::Trials => "trials",
            Opt::Alpha => "alpha",
            Opt::Seed => "seed",
            Opt::Rng => "rng",
            Opt::Tests => "tests",
            Opt::Bins => "bins",
            Opt::Categories => "categories",
            Opt::Deck => "deck",
            Opt::Hand => "hand",
            Opt::Weights => "weights",
            Opt::Threads => "threads",
            Opt::MaxTrials => "max_trials",
            Opt::UntilDecisive => "until_decisive",
            Opt::Shard => "shard",
            Opt::Format => "format",
            Opt::Kind => "kind",
            Opt::Base => "base",
            Opt::Order => "order",
        }
    }

    /// The option's flag on the command line (`-t`, `--max-trials`).
    pub fn flag(self) -> String {
        match self {
            Opt::Subject => "-a".to_string(),
            Opt::N => "-n".to_string(),
            Opt::K => "-k".to_string(),
            Opt::Trials => "-t".to_string(),
            Opt::Alpha => "--alpha".to_string(),
            other => format!("--{}", other.key().replace('_', "-")),
        }
    }

    /// `value` given to the option as `front` writes it: `-t 4629`,
    /// `trials = 4629`, `trials=4629`, `trials: 4629`, `.trials(4629)`.
    pub fn spelled(self, front: Front, value: &str) -> String {
        match front {
            Front::Cli => format!("{} {value}", self.flag()),
            Front::Toml => format!("{} = {value}", self.key()),
            Front::Python => format!("{}={value}", self.key()),
            Front::JavaScript => format!("{}: {value}", camel(self.key())),
            Front::Rust => format!(".{}({value})", self.key()),
        }
    }

    /// The option's name alone as `front` writes it.
    pub fn named(self, front: Front) -> String {
        match front {
            Front::Cli => self.flag(),
            Front::JavaScript => camel(self.key()),
            Front::Toml | Front::Python | Front::Rust => self.key().to_string(),
        }
    }
}

/// What the operating system said, in the words every message uses: a
/// missing file is "no such file" (as `--input` says it), not "No such
/// file or directory (os error 2)".
fn io_words(source: &std::io::Error) -> String {
    match source.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        _ => source.to_string(),
    }
}

/// `max_trials` → `maxTrials`.
fn camel(key: &str) -> String {
    let mut words = key.split('_');
    let mut out = words.next().unwrap_or_default().to_string();
    for word in words {
        let mut chars = word.chars();
        out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
        out.push_str(chars.as_str());
    }
    out
}

impl Error {
    /// An [`Error::Invalid`] of `kind`.
    pub fn of_kind(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error::Invalid {
            kind,
            message: message.into(),
            hint: Box::default(),
        }
    }

    /// The same error, about `option` of the request.
    pub fn about(mut self, option: Opt) -> Self {
        if let Error::Invalid { hint, .. } = &mut self {
            hint.option.get_or_insert(option);
        }
        self
    }

    /// The same error, suggesting `name` for a misspelt one.
    pub fn meaning(mut self, name: impl Into<String>) -> Self {
        if let Error::Invalid { hint, .. } = &mut self {
            hint.meant = Some(name.into());
        }
        self
    }

    /// The option of the request the error is about, if it says.
    pub fn option(&self) -> Option<Opt> {
        match self {
            Error::Invalid { hint, .. } => hint.option,
            _ => None,
        }
    }

    /// The known name closest to a misspelt one, if the error suggests one.
    pub fn meant(&self) -> Option<&str> {
        match self {
            Error::Invalid { hint, .. } => hint.meant.as_deref(),
            _ => None,
        }
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::BadInput`].
    pub fn bad_input(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::BadInput, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::OutOfRange`].
    pub fn out_of_range(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::OutOfRange, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::UnknownName`].
    pub fn unknown_name(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::UnknownName, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::Unsupported`].
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::Unsupported, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::TooCostly`].
    pub fn too_costly(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::TooCostly, message)
    }

    /// An [`Error::Invalid`] of kind [`ErrorKind::Io`]: a file, folder or
    /// program trouble told in a sentence of its own (an [`Error::Io`]
    /// reads `PATH: what the system said`).
    pub fn io(message: impl Into<String>) -> Self {
        Self::of_kind(ErrorKind::Io, message)
    }

    /// Which sort of wrong this is: the kind of an [`Error::Invalid`], and
    /// [`ErrorKind::Io`] for [`Error::Io`] and [`Error::Output`].
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Invalid { kind, .. } => *kind,
            Error::Io { .. } | Error::Output { .. } => ErrorKind::Io,
        }
    }

    /// The same error with `kind`, if it is an [`Error::Invalid`] (used by
    /// layers that know better what went wrong than the helper that said it).
    pub fn with_kind(mut self, kind: ErrorKind) -> Self {
        if let Error::Invalid { kind: k, .. } = &mut self {
            *k = kind;
        }
        self
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
