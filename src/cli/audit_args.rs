//! The arguments of `shuffle-audit audit`, apart from the rest of the
//! grammar ([`super::args`]) so that the modules which read them (audit,
//! samples, shard) import them without importing the commands they sit
//! beside. They come in groups (subject, outside input, deck, run, output,
//! shards), each a struct flattened into [`AuditArgs`] and shown under its
//! own heading in `audit --help`; `merge` reuses the output group.

use super::study::ExportArgs;
use crate::request::Holds;
use crate::shard::Shard;
use crate::values;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// The arguments of `audit` (shuffles and samplers alike), in groups that
/// `--help` shows under their own headings: each group is one concern, and
/// the modules that read the arguments reach the flags through it
/// (`args.run.trials`, `args.output.json`).
#[derive(Debug, Args)]
pub struct AuditArgs {
    #[command(flatten)]
    pub subject: SubjectArgs,

    #[command(flatten)]
    pub outside: InputArgs,

    #[command(flatten)]
    pub deck: DeckArgs,

    #[command(flatten)]
    pub run: RunOptions,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub shards: ShardArgs,
}

impl AuditArgs {
    /// The arguments with `--confidence`, if given, turned into `--alpha`,
    /// so that everything downstream reads one level.
    pub fn with_confidence(mut self) -> Self {
        if let Some(alpha) = self.run.confidence {
            self.run.alpha = Some(alpha);
        }
        self
    }
}

/// What is audited: the built-in shuffles or samplers of `-a`, their
/// size, and the weights of a weighted pick. Shown under "Subject" in
/// `audit --help`.
#[derive(Debug, Args)]
#[command(next_help_heading = "Subject")]
pub struct SubjectArgs {
    /// Algorithm to audit, as NAME or NAME:key=value[,key=value]
    /// (e.g. random-swap:k=100), or a sampler (reservoir:k=3,
    /// minesweeper:w=9,h=9,m=10, weighted-prefix with --weights; see
    /// `list`). Repeat for several; default: all shuffles.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    pub algorithms: Vec<String>,

    /// Number of elements to shuffle, or the population a sampler draws
    /// from [default: 10; with --input or --cmd, the first deck's; a
    /// board's cells or the weights' count].
    #[arg(short = 'n', long, value_parser = values::parse_n)]
    pub n: Option<usize>,

    /// Weights of a weighted pick (weighted-prefix, alias,
    /// weighted-off-by-one): integers, comma-separated, one per item; n is
    /// their count.
    #[arg(long, value_name = "LIST", conflicts_with = "weights_file")]
    pub weights: Option<String>,

    /// The weights, read from FILE (separated by commas, spaces or lines).
    #[arg(long, value_name = "FILE")]
    pub weights_file: Option<PathBuf>,
}

/// Your own shuffle or sampler, audited from outside: its output read
/// from a file (--input) or a program (--cmd), how to read it, what each
/// line holds and the deck it started from. Shown under "Outside input".
#[derive(Debug, Args)]
#[command(next_help_heading = "Outside input")]
pub struct InputArgs {
    /// Audit your own shuffle from the decks in FILE (- for stdin), one per
    /// line (see below).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["algorithms", "cmd"])]
    pub input: Option<PathBuf>,

    /// Audit your own shuffle by running PROGRAM (sh -c), which prints
    /// {count} decks of {N} items for {seed} (see below).
    #[arg(long, value_name = "PROGRAM", conflicts_with = "algorithms")]
    pub cmd: Option<String>,

    /// --input format: text, or fixed-width little-endian binary records
    /// u8, u16 or u32 (which need -n).
    #[arg(
        long,
        default_value = "text",
        value_name = "FORMAT",
        requires = "input"
    )]
    pub format: String,

    /// What each line of --input/--cmd holds: deck (a shuffled deck),
    /// sample (k distinct items of a population of -n items, e.g. a lottery
    /// draw), ordered (the same in the order drawn, tested slot by slot
    /// too) or pick (one item; with --weights, a weighted pick).
    #[arg(long, value_enum, value_name = "KIND")]
    pub kind: Option<Holds>,

    /// --kind sample|ordered|pick: items are numbered from 0 (0..N-1) or from 1
    /// (1..N) [default: the input decides: a 0 or an N].
    #[arg(long, value_name = "0|1")]
    pub base: Option<String>,

    /// The starting order of the deck, comma-separated (--input/--cmd)
    /// [default: ascending].
    #[arg(long, value_name = "LIST", conflicts_with = "order_file")]
    pub order: Option<String>,

    /// The starting order, read from FILE (items separated by spaces,
    /// commas or lines).
    #[arg(long, value_name = "FILE")]
    pub order_file: Option<PathBuf>,

    /// --cmd: copies of the program run in parallel [default: all cores].
    #[arg(long, value_name = "N", requires = "cmd", value_parser = values::parse_jobs)]
    pub jobs: Option<usize>,

    /// --cmd: seconds a program may print nothing before the run fails.
    #[arg(long, value_name = "SECS", default_value_t = 60, requires = "cmd")]
    pub cmd_timeout: u64,

    /// The name reports give your shuffle [default: the file or command].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

/// A deck whose items repeat or carry categories (--deck, --categories,
/// --hand), tested by the deck tests. Shown under "Deck".
#[derive(Debug, Args)]
#[command(next_help_heading = "Deck")]
pub struct DeckArgs {
    /// A deck whose items may repeat, shuffled by the built-in algorithms
    /// (sets n): `cards` (52 cards AS..KC with suit, rank and colour),
    /// `shoe:decks=D` (D 52-card decks one after the other),
    /// `copies:kinds=K,each=E` (K kinds, E adjacent copies each), or a block
    /// list `AABB` (one kind per character) / `A,A,B,B`. Tested by
    /// position-by-kind chi-square, df (n-1)(m-1), and for n <= 8 the
    /// whole-arrangement test.
    #[arg(long, value_name = "DECK", conflicts_with_all = ["input", "cmd"])]
    pub deck: Option<String>,

    /// Category columns of the deck's items: `cards` (suit, rank, colour of
    /// card labels), or a CSV FILE with a header `item,col1[,col2...]` and
    /// one row per item (e.g. item,land). Adds the position-by-category
    /// chi-square and the hand test (hypergeometric law) per column.
    /// Without --deck, the items are 0..n-1; with --input/--cmd, the items
    /// as the input writes them (card labels like AS 10H QD for `cards`);
    /// --hand is refused there (hands are not counted while reading).
    #[arg(long, value_name = "FILE|cards")]
    pub categories: Option<String>,

    /// Hand size of the hand test: how many of each category the first H
    /// items hold [default: 5].
    #[arg(long, value_name = "H")]
    pub hand: Option<usize>,
}

/// How the audit runs and is judged: trials, seed, random source, tests,
/// threads, the verdicts' level, and the sequential run of
/// --until-decisive. Shown under "Run".
#[derive(Debug, Args)]
#[command(next_help_heading = "Run")]
pub struct RunOptions {
    /// Trials per audit (1e6, 1_000_000 and 1M are all accepted) [default:
    /// what n needs for a verdict, at least 1M for a built-in subject; with
    /// --input, every line of the file].
    #[arg(short = 't', long, value_name = "TRIALS", value_parser = values::parse_trials)]
    pub trials: Option<u64>,

    /// Seed of the run; the same seed reproduces the same counts
    /// [default: 20261121].
    #[arg(long, value_parser = values::parse_seed)]
    pub seed: Option<u64>,

    /// Random source (see `shuffle-audit list`) [default: chacha8].
    #[arg(long = "rng", value_name = "NAME")]
    pub rng: Option<String>,

    /// Tests to run, comma-separated: position-value, permutation (n <= 10),
    /// fixed-points, cycles, rising-sequences, lehmer, lehmer-pairs, clumping,
    /// serial, birthday, inversions, displacement; or `all` (every test that
    /// applies: permutation only up to n = 10; on a deck, every test of
    /// decks that applies), or `default` (all but permutation above n = 8,
    /// birthday below n = 13, clumping, and inversions and displacement up
    /// to n = 1024). With --deck or --categories: position-kind,
    /// arrangement (n <= 10), position-category, hand, and for a deck whose
    /// items repeat adjacency and successor (structure tests are skipped,
    /// with a note) [default: default].
    #[arg(long, value_name = "LIST")]
    pub tests: Option<String>,

    /// Count the position-by-value matrix in B×B bins (2 <= B <= n; B = n
    /// is the full n×n matrix). Index i (a position or a value) falls in
    /// bin i*B/n, so bins differ in size by at most one, and the binned
    /// chi-square keeps its exact calibration (df (B-1)²). Above n = 1024
    /// the matrix is binned by default with B = 64 (memory O(n + B²) per
    /// worker instead of n²); there the default tests are position-value,
    /// fixed-points, cycles, rising-sequences, lehmer (its digits binned),
    /// lehmer-pairs, serial, birthday, inversions and displacement, and the
    /// per-position line tests and deck tests are left out.
    #[arg(long, value_name = "B")]
    pub bins: Option<usize>,

    /// Worker threads, 1 to 1024 [default: all cores]. Does not change the
    /// counts.
    #[arg(long, value_parser = values::parse_threads)]
    pub threads: Option<usize>,

    /// Significance level of the verdicts (after Holm correction)
    /// [default: 0.001].
    #[arg(long, value_parser = values::parse_alpha)]
    pub alpha: Option<f64>,

    /// The confidence level of the verdicts, as lab standards state it:
    /// 0.99 or 99% is --alpha 0.01. The per-position and per-card tests of
    /// the report are held to the same level.
    #[arg(long, value_name = "LEVEL", conflicts_with = "alpha", value_parser = values::parse_confidence)]
    pub confidence: Option<f64>,

    /// Keep doubling the trials (starting from --trials) until the verdict is
    /// decisively biased or --max-trials is reached, for shuffles and
    /// samplers alike. The level is spent across the looks (alpha-spending)
    /// and across the audits (Bonferroni), so repeated looking does not
    /// inflate false alarms.
    #[arg(long)]
    pub until_decisive: bool,

    /// Trial budget per audit for --until-decisive [default: 64 x --trials].
    #[arg(
        long,
        value_name = "TRIALS",
        requires = "until_decisive",
        value_parser = values::parse_trials
    )]
    pub max_trials: Option<u64>,
}

/// What is shown and written once a run is judged: the report folder, the
/// `--export-*` files, JSON or the table, stderr's notes and the exit code
/// on bias. Shared by `audit` and `merge` (which rewords --out and --quiet
/// for itself, see [`super::args::MergeArgs`]), so that each flag is
/// declared once. Shown under "Output".
#[derive(Debug, Args)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Output folder for the report (HTML, Markdown) and CSV, JSON, PNG files
    /// [default: reports/latest/audit; with --json or an --export-*, no folder
    /// unless --out is given].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    #[command(flatten)]
    pub export: ExportArgs,

    /// Print the summary as JSON on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// No progress bar and no closing note on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    /// Exit with code 1 if any audit is judged biased.
    #[arg(long)]
    pub fail_on_bias: bool,

    /// Exit with code 1 unless every audit is "no bias detected": an
    /// inconclusive audit fails too, as assert_fair does. For CI jobs that
    /// need a conclusive pass (with the trials the audit needs, or
    /// --until-decisive).
    #[arg(long)]
    pub require_pass: bool,

    /// Certificate metadata, repeatable: shown first on the report's first
    /// page and as "meta" in summary.json, e.g. --meta lab="Acme Test Labs"
    /// --meta client=Casino --meta device="Shufflers Inc. SX-2".
    #[arg(long, value_name = "KEY=VALUE")]
    pub meta: Vec<String>,
}

/// A run counted in chunks into a tally file: one shard of it (--shard,
/// --tally), or the whole run saved as it goes and continued
/// (--checkpoint, --resume). Shown under "Shards and checkpoints".
#[derive(Debug, Args)]
#[command(next_help_heading = "Shards and checkpoints")]
pub struct ShardArgs {
    /// Count only shard I of N (from 0) of the run's chunks and write them
    /// to a tally file (--tally) instead of a report; `merge` judges the N
    /// tallies as one run (see BIG RUNS in --help).
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,

    /// --shard: the tally file to write [default: shard-I-of-N.tally].
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub tally: Option<PathBuf>,

    /// Save the counts so far to FILE every --checkpoint-every seconds and
    /// on Ctrl-C (atomically: a crash leaves the last save whole), so that
    /// --resume FILE can continue.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// Seconds between two saves of --checkpoint (0.5 and 1e3 are accepted).
    #[arg(long, value_name = "SECS", default_value = "60", requires = "checkpoint", value_parser = values::parse_seconds)]
    pub checkpoint_every: Duration,

    /// Continue the run saved in FILE (by --checkpoint; give the same
    /// options as the run that saved it), checkpointing into FILE unless
    /// --checkpoint names another.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

impl OutputArgs {
    /// The report folder: --out, else reports/latest/audit, unless --json
    /// or an export alone was asked for (then no folder).
    pub fn dir(&self) -> Option<PathBuf> {
        let default = !(self.json || self.export.any());
        (self.out.clone()).or_else(|| default.then(|| PathBuf::from("reports/latest/audit")))
    }
}

impl ShardArgs {
    /// Whether the run is split or saved as it goes (--shard, --checkpoint,
    /// --resume).
    pub fn in_chunks(&self) -> bool {
        self.shard.is_some() || self.checkpoint.is_some() || self.resume.is_some()
    }
}
