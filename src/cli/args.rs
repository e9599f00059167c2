//! The command-line grammar.

use clap::{Args, Parser, Subcommand};
use shuffle_audit::audit::{DEFAULT_ALPHA, DEFAULT_SEED};
use std::path::PathBuf;

/// Tells, with calibrated statistics, whether a shuffle is fair.
///
/// shuffle-audit runs shuffle algorithms millions of times in parallel,
/// counts where every value lands, tests the counts with a correctly
/// calibrated chi-square test, and writes CSV, JSON and PNG heatmaps.
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
    /// Measure speed: bare Fisher–Yates vs the engine on 1 and all threads.
    Bench(BenchArgs),
    /// Compute an algorithm's exact output distribution (no sampling).
    #[command(long_about = EXACT_ABOUT)]
    Exact(ExactArgs),
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

const EXACT_ABOUT: &str = "\
Compute the EXACT output distribution of a shuffle algorithm on [0, 1, ..., n-1], \
with exact rational probabilities: no sampling, no noise.

The real algorithm code is replayed against a scripted random source that walks \
through every possible sequence of draws (odometer-style); each sequence's \
probability is the product of its draws' probabilities. Printed: every reachable \
permutation with its probability (for large n! the most and least likely, with \
--json listing all), the exact n x n marginal matrix P(value v at position p), \
the total variation distance to the uniform law, the largest marginal deviation \
|n*P - 1| and where it is, and whether the marginals are exactly uniform.

Sources: chacha8, chacha20, xoshiro256pp and pcg64 all mean ideal uniform draws; \
rand15-mod means r % bound for an ideal 15-bit r. msvc-rand and reseed-per-draw \
(dependent draws) and the algorithms rand-crate and sort-random-keys (raw 32/64-bit \
draws) cannot be enumerated and are refused. pick-until-unused is exact too: a \
rejected draw changes nothing, so the accepted index is drawn directly with its \
conditional probability. random-swap is composed one transposition at a time.

The work grows fast with n (n! or n^n leaves): above --max-leaves the run is \
refused before it starts. --marginals computes only the marginal matrix, by \
propagating each value's position through the steps, for algorithms whose moves \
depend on positions alone; it takes milliseconds at n = 52 (exact fractions up \
to n = 24, f64 beyond).

With --out DIR: heatmap.png (n*P per cell), marginals.csv and, when enumerated, \
permutations.csv.

Exit codes: 0 computed; 2 bad input or refused.";

#[derive(Debug, Args)]
pub struct ExactArgs {
    /// Algorithm, as NAME or NAME:key=value (e.g. random-swap:k=3).
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    pub algorithm: String,

    /// Number of elements to shuffle.
    #[arg(short = 'n', long)]
    pub n: usize,

    /// Random source (see `shuffle-audit list`); the good generators all mean
    /// ideal uniform draws.
    #[arg(long = "rng", default_value = "chacha8", value_name = "SOURCE")]
    pub rng: String,

    /// Print the result as JSON (with every reachable permutation).
    #[arg(long)]
    pub json: bool,

    /// Folder for heatmap.png, marginals.csv and permutations.csv.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Refuse enumerations needing more leaves (replays of the algorithm)
    /// than this (1e6, 50M and 50_000_000 are accepted).
    #[arg(long, default_value = "50M", value_name = "L")]
    pub max_leaves: String,

    /// Compute only the marginal matrix, by propagation (large n).
    #[arg(long)]
    pub marginals: bool,
}

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

    /// Output folder for CSV, JSON and PNG files.
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
