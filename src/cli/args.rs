//! The command-line grammar.

use super::mixing::MixingArgs;
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
    /// Mixing curves: distance to uniform after k riffles or k transpositions.
    #[command(long_about = MIXING_ABOUT)]
    Mixing(MixingArgs),
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

const MIXING_ABOUT: &str = "\
Mixing curves: the total variation distance to uniform of an algorithm made of \
k repeated random steps, as a function of k. Two algorithms have a step count: \
riffle (k Gilbert-Shannon-Reeds riffles) and random-swap (k transpositions of \
two uniform cells).

Exact where the law is known: riffle for any n by Bayer and Diaconis' formula \
(P(pi) = C(2^k + n - r, n) / 2^(nk), r the rising sequences of pi), which gives \
the famous 52-card table (TV 1.000 up to k = 4, 0.924, 0.614, 0.334, 0.167 ... \
for k = 5, 6, 7, 8); random-swap for n <= 8 by carrying the law of all n! \
arrangements forward.

Monte Carlo otherwise, or with --monte-carlo (then both are shown): for n <= 8 \
whole arrangements are counted; beyond, a statistic whose uniform law is known: \
the number of rising sequences (riffle: the law of a riffled deck depends on it \
alone, so nothing is lost) or of cycles (random-swap: a lower bound on the true \
distance). Each estimate comes with a standard error and the noise floor: the \
TV a perfectly uniform shuffle would show with the same number of trials (the \
plug-in estimate is biased upwards by about that much near uniform).

--k takes 1..12 (inclusive), 0..50, 1,2,4,8 or a mix (1..5,10,20) \
[default: 1..12 for riffle, 0..ceil(n ln n) for random-swap, thinned to about 200 points].

Writes mixing.csv (k, tv, stderr, method, noise_floor, statistic) and \
mixing.png into --out.

Examples:
  shuffle-audit mixing -a riffle -n 52 --k 1..10
  shuffle-audit mixing -a riffle -n 52 --k 1..12 --monte-carlo -t 1M
  shuffle-audit mixing -a random-swap -n 6 --k 0..30 --monte-carlo

Exit codes: 0 ran; 2 bad input (nothing is written).";

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
