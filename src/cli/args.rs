//! The command-line grammar.

use super::run::RunArgs;
use clap::{Args, Parser, Subcommand};
use shuffle_audit::audit::{DEFAULT_ALPHA, DEFAULT_SEED};
use std::path::PathBuf;

/// Tells, with calibrated statistics, whether a shuffle is fair.
///
/// shuffle-audit runs shuffle algorithms millions of times in parallel,
/// counts where every value lands, tests the counts with a correctly
/// calibrated chi-square test, and writes CSV, JSON and PNG heatmaps and a
/// readable HTML/Markdown report. Studies can be written down as experiment
/// files and rerun bit for bit (`shuffle-audit run`).
#[derive(Debug, Parser)]
#[command(name = "shuffle-audit", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the shuffle algorithms and random sources.
    List(ListArgs),
    /// Audit shuffle algorithms: run, count, test, write reports.
    #[command(long_about = AUDIT_ABOUT)]
    Audit(AuditArgs),
    /// Run an experiment file (experiments/*.toml) and write its report.
    #[command(long_about = RUN_ABOUT)]
    Run(RunArgs),
    /// Measure speed: bare Fisher–Yates vs the engine on 1 and all threads.
    Bench(BenchArgs),
}

const AUDIT_ABOUT: &str = "\
Audit shuffle algorithms: run each one TRIALS times on [0, 1, ..., n-1], count \
where every value lands, and test the counts.

The test is a chi-square test on the n x n position-by-value counts, calibrated \
for the fact that every shuffle adds a whole permutation matrix: \
Q = ((n-1)/n) * sum (O-E)^2/E follows chi2((n-1)^2) under a fair shuffle. \
Verdicts are at level --alpha after a Holm correction across the audited \
algorithms. This test sees biased marginals only: an algorithm whose every \
value is equally likely at every position (e.g. `rotation`) passes it.

Counts accept 1000000, 1_000_000, 1e6 or 1M. The same --seed gives identical \
counts on any number of threads.

Exit codes: 0 ran (and, with --fail-on-bias, nothing was biased); \
1 --fail-on-bias and something was biased; 2 bad input.";

const RUN_ABOUT: &str = "\
Run an experiment file and write a fairness report people can read.

An experiment file (TOML) names a study and its purpose, sets defaults (n, \
trials, rng, seed, alpha, threads, out) and lists [[audit]] tables, each an \
algorithm with optional n (one size or a list), trials, rng, seed, tests and \
note, and optional [[mixing]] tables (algorithm, n, k range, trials). Every \
value is checked before any work starts; a bad one is reported as \
FILE:LINE:COLUMN and the exit code is 2. All audits are judged together \
(Holm correction at the file's alpha).

The report folder (--out, else the file's `out`, else reports/<name>) gets \
report.html (one self-contained page), report.md, summary.json, summary.csv, \
comparison.png, one folder per audit with counts.csv and heatmap.png, and, \
to rerun bit for bit, experiment.toml (a copy of the file) and run.json \
(tool version, git commit, command line, date, seeds, sources, trials scale).

`run --check DIR` reruns the experiment recorded in DIR in memory and compares \
every count with DIR/summary.json: it prints \"identical\" and exits 0, or \
names the first difference and exits 1. Counts do not depend on --threads.

Examples:
  shuffle-audit run experiments/quick.toml
  shuffle-audit run experiments/classics.toml --trials-scale 0.1 --out /tmp/c
  shuffle-audit run --check reports/quick";

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print the lists as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Algorithm to audit, as NAME or NAME:key=value[,key=value]
    /// (e.g. random-swap:k=100). Repeat for several; default: all of them.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    pub algorithms: Vec<String>,

    /// Number of elements to shuffle.
    #[arg(short = 'n', long, default_value_t = 10)]
    pub n: usize,

    /// Shuffles per algorithm (1e6, 1_000_000 and 1M are all accepted).
    #[arg(short = 't', long, default_value = "1M", value_name = "TRIALS")]
    pub trials: String,

    /// Seed of the run; the same seed reproduces the same counts.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,

    /// Random source (see `shuffle-audit list`).
    #[arg(long = "rng", default_value = "chacha8", value_name = "NAME")]
    pub rng: String,

    /// Worker threads [default: all cores]. Does not change the counts.
    #[arg(long)]
    pub threads: Option<usize>,

    /// Significance level of the verdicts (after Holm correction).
    #[arg(long, default_value_t = DEFAULT_ALPHA)]
    pub alpha: f64,

    /// Output folder for the report (HTML, Markdown) and CSV, JSON, PNG files.
    #[arg(long, default_value = "reports/latest", value_name = "DIR")]
    pub out: PathBuf,

    /// Print the summary as JSON on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// No progress bar and no closing note on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    /// Exit with code 1 if any audit is judged biased.
    #[arg(long)]
    pub fail_on_bias: bool,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Sizes to measure.
    #[arg(short = 'n', long = "n", default_values_t = [10usize, 52], num_args = 1..)]
    pub sizes: Vec<usize>,

    /// Shuffles per measurement [default: 2e8 / n, about half a second each].
    #[arg(short = 't', long, value_name = "TRIALS")]
    pub trials: Option<String>,

    /// Random source used by all three measurements.
    #[arg(long = "rng", default_value = "chacha8", value_name = "NAME")]
    pub rng: String,

    /// Measurements of each kind, interleaved; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub repeats: usize,

    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
}
