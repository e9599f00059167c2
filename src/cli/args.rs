//! The command-line grammar.

pub use super::audit_args::AuditArgs;
use super::audit_args::OutputArgs;
use super::color::ColorChoice;
use super::mixing::MixingArgs;
use super::run::RunArgs;
use crate::values;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Tells, with calibrated statistics, whether a shuffle is fair.
///
/// shuffle-audit runs shuffle algorithms millions of times in parallel,
/// counts where every value lands, tests the counts with a correctly
/// calibrated chi-square test, and writes CSV, JSON and PNG heatmaps and a
/// readable HTML/Markdown report. Studies can be written down as experiment
/// files and rerun bit for bit (`shuffle-audit run`).
#[derive(Debug, Parser)]
#[command(name = "shuffle-audit", version = VERSION, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Colour the verdicts and errors: auto (on a terminal, unless NO_COLOR
    /// is set), always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
}

/// The version `--version` prints: the package version and the git commit
/// the binary was built from, if it was built in a checkout.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), env!("SHUFFLE_AUDIT_BUILD"));

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the shuffle algorithms, samplers and random sources.
    List(ListArgs),
    /// Audit shuffle algorithms or samplers: run, count, test, write reports.
    #[command(long_about = AUDIT_ABOUT)]
    Audit(Box<AuditArgs>),
    /// Run an experiment file (experiments/*.toml) and write its report.
    #[command(long_about = RUN_ABOUT)]
    Run(RunArgs),
    /// Measure speed: bare Fisher–Yates vs the position-value and default audits, on 1, 2 and all threads, for each generator.
    Bench(BenchArgs),
    /// Plan an audit: how many trials are needed to detect an algorithm's or sampler's bias.
    #[command(long_about = POWER_ABOUT)]
    Power(super::power::PowerArgs),
    /// Prove the harness: biased shuffles and samplers caught, fair ones calibrated, Monte Carlo = exact.
    Selftest(super::selftest::SelftestArgs),
    /// Mixing curves: distance to uniform after k riffles or k transpositions.
    #[command(long_about = MIXING_ABOUT)]
    Mixing(MixingArgs),
    /// Compute an algorithm's exact output distribution (no sampling).
    #[command(long_about = EXACT_ABOUT)]
    Exact(ExactArgs),
    /// Judge the tally files of a sharded audit (audit --shard I/N) as one run.
    #[command(long_about = MERGE_ABOUT)]
    Merge(MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(long_about = COMPLETIONS_ABOUT)]
    Completions(CompletionsArgs),
}

const COMPLETIONS_ABOUT: &str = "\
Print a completion script for SHELL on stdout. For example:
  bash: shuffle-audit completions bash > ~/.local/share/bash-completion/completions/shuffle-audit
  zsh:  shuffle-audit completions zsh > ~/.zfunc/_shuffle-audit   (with fpath+=~/.zfunc)
  fish: shuffle-audit completions fish > ~/.config/fish/completions/shuffle-audit.fish";

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

const AUDIT_ABOUT: &str = "\
Audit shuffle algorithms: run each one TRIALS times on [0, 1, ..., n-1], count \
where every value lands, and test the counts.

Tests (--tests): position-value, a chi-square test on the n x n counts, \
calibrated for the fact that every shuffle adds a whole permutation matrix \
(Q = ((n-1)/n) * sum (O-E)^2/E follows chi2((n-1)^2) under a fair shuffle); \
permutation, a goodness-of-fit test over all n! permutations (n <= 10; on by \
default up to n = 8); and structure tests whose exact laws are known: \
fixed-points (rencontres), cycles (Stirling numbers), rising-sequences \
(Eulerian numbers), lehmer (each Lehmer digit uniform; above n = 1024 in 64 \
position bins x 16 bins of the digit's relative size d/(i+1), against the \
exact mean and covariance), lehmer-pairs (neighbouring digits 1 to 8 jointly \
uniform) and clumping (neighbours i, i+1 still \
side by side; opt-in); serial, dependence between consecutive deals given the \
run's own marginals (in disjoint triples a, b, c of each stream, the matches \
of a with b against those of a with c: an exact sign test, so a positional \
bias alone is not rejected by it); birthday, pairs of identical deals against the \
collision law of a uniform shuffle, which catches small seed spaces (on by \
default from n = 13, where n! exceeds a 32-bit seed space); inversions \
(Kendall's tau with the starting order, binned, against the Mahonian law) and \
displacement (|pi(p) - p| in bins of d/n against its exact mean and \
covariance), which cost O(n log n) per shuffle and are on by default above \
n = 1024. The marginal test \
alone cannot see `rotation` (uniform marginals, n outcomes); the others can.

Each audit's tests are Holm-corrected together; the audits of a run are then \
Holm-corrected across, and verdicts are at level --alpha (at least 1e-6). A \
verdict is one of: biased (the adjusted p is at most alpha); no bias detected \
(no test rejected, and the run could have seen a 20% deviation of one \
position-value cell with 90% power; each audit states the deviation it could \
see); inconclusive (too few trials for that, or under 5 expected counts per \
cell). p (adjusted) is the p-value the verdict used; p-values below 1e-12 \
are shown as the bound < 1e-12. seen by lists the tests that rejected after \
every correction, strongest evidence first (by each test's own p-value, which \
below 1e-12 only ranks); the first one decided the verdict. A cell is named as \
the largest deviation only when it stands out from the noise of the n x n \
cells.

Counts accept 1000000, 1_000_000, 1e6 or 1M. The same --seed gives identical \
counts on any number of threads.

YOUR OWN SHUFFLE, in any language: instead of -a, give its output.
  --input FILE (- for stdin): one shuffled deck per line; items separated by \
spaces or commas, optional [ ] (a JSON array per line works), blank lines and \
# comments skipped. Items are integers (0-based or 1-based: the first line \
must contain 0 or n) or labels (AS 10H QD ...). n comes from the first line; \
every line must be a permutation of the same items. Without -t every deck is \
read; with -t only the first TRIALS. Binary input: --format u8|u16|u32 \
(little-endian records of n values; -n required).
  --cmd 'PROGRAM {N} {count} {seed}' ({N} is the deck size; lowercase n in \
braces works too): runs PROGRAM (through sh -c) --jobs \
times in parallel, each with its own {seed} (derived from --seed and \
{worker}) and its share {count} of -t decks, and reads the decks it prints, \
as from a file. A program that fails, prints a bad line or stays silent for \
--cmd-timeout seconds ends the run (exit 2, its stderr shown, nothing \
written); once it has printed its {count} decks it is stopped and what \
follows is not read (a generator may print forever). Each copy's decks are \
one stream for the serial test, whatever the timing, so a program \
deterministic for its {seed} gives the same results on every run with the \
same --seed and --jobs. run.json records each worker's command, seed and \
count.
  The starting order (--order AS,2S,... or --order-file FILE; default \
ascending) says what the deck looked like before the shuffle. Any fixed \
relabelling of a uniform shuffle is uniform, so every test keeps its null \
law under the default; the true order only adds power to the tests about \
movement (fixed points, cycles, rising sequences).
  Nobody knows the answer in advance for your shuffle, so there is no \
expected verdict: read the verdict and the sensitivity it states. Examples:
    python3 deal.py | shuffle-audit audit --input -
    shuffle-audit audit --cmd 'node shuffle.js {N} {count} {seed}' -n 52 -t 1M
    shuffle-audit audit --input deals.txt --order-file deck.txt

SAMPLERS: -a also takes k-of-N samplers (reservoir:k=3, floyd:k=3, ...), \
minesweeper boards (minesweeper:w=9,h=9,m=10) and weighted picks \
(weighted-prefix, alias, weighted-off-by-one with --weights 1,99 or \
--weights-file FILE); see `list`. N is -n (default 10), a board's w*h or the \
number of weights. Their tests: inclusion (each item against k/N), pairs \
(beyond inclusion), subsets (every k-subset, small C(N,k)), order (item by \
slot, ordered samplers) and picks (against w/sum w). A test that needs more \
trials for its law says how many; a run whose inclusion test cannot run is \
inconclusive. Shuffles and samplers may be audited together, judged in \
one Holm correction (-n is then both the deck size and N; --tests applies \
to the shuffles); --until-decisive, --shard and --checkpoint work for both.
    shuffle-audit audit -a reservoir:k=3 -a reservoir-off-by-one:k=3 -n 10
    shuffle-audit audit -a fisher-yates -a floyd:k=3 -n 10
    shuffle-audit audit -a floyd:k=3 -t 10k --until-decisive

YOUR OWN SAMPLER: --kind sample (k distinct items per line: lottery draws, \
audit samples, cohorts; k from the first line), --kind ordered (the same, \
each line in the order drawn: first prize, second prize, ...) or --kind pick \
(one item per line; with --weights, tested against them) with --input or \
--cmd, as for decks, and -n N, the population. Items are integers 0..N-1 or \
1..N: the first sample holding 0 or N decides, or say --base 0|1. With \
--kind sample the order within a line is not used (draws are often printed \
sorted); with --kind ordered the order test also checks which item comes at \
which slot. Outputs name items as the input writes them.
    shuffle-audit audit --input draws.txt --kind sample -n 49
    shuffle-audit audit --cmd 'node pick.js {count} {seed}' --kind pick --weights 1,99

BIG RUNS, over many machines or with interruptions (built-in shuffles, or an \
--input file to checkpoint; one \
pass, not --until-decisive): trials are counted in chunks of 65,536, chunk c \
drawn from stream c of the seed, so any share of the chunks can be counted \
anywhere and the counts added up.
  --shard I/N counts only shard I of N (from 0) and writes its counts, the \
whole run's options, the seed, its chunks and the tool version to a tally \
file (--tally, with a SHA-256 checksum) instead of a report; `shuffle-audit \
merge` judges all N tallies as one run, bit-identical to it. deploy/ has a \
Slurm job array and a Kubernetes Indexed Job that run one shard per task.
  --checkpoint FILE saves the counts so far every --checkpoint-every seconds \
and on Ctrl-C (written whole, flushed to disk, then renamed into place); \
after Ctrl-C, a crash or a kill, the same command with --resume FILE \
continues where the last save left off, with the same counts as a run never \
stopped. A second Ctrl-C quits at once (the last save stays). With --input \
FILE (not stdin, not --cmd) the checkpoint holds the record offset reached \
and the SHA-256 of the file before it: --resume reopens the file there.
    shuffle-audit audit -a fisher-yates -n 10 -t 2.1e9 --shard 3/64 --tally s3.tally
    shuffle-audit merge s*.tally --out reports/big
    shuffle-audit audit -a naive-swap -t 1e10 --checkpoint run.tally
    shuffle-audit audit -a naive-swap -t 1e10 --resume run.tally
    shuffle-audit audit --input huge-deals.txt --checkpoint read.ck

Exit codes: 0 ran (and, with --fail-on-bias, nothing was biased; with \
--require-pass, every audit was \"no bias detected\"); 1 --fail-on-bias and \
something was biased, or --require-pass and something was biased or \
inconclusive; 2 bad input; 130 interrupted \
(Ctrl-C; with --checkpoint, the counts so far saved).";

const POWER_ABOUT: &str = "\
Plan an audit: the number of trials the chosen test needs to detect this \
algorithm's (or sampler's) bias with the given power at level --alpha. For a \
sampler every test of its audit is planned, at the level the audit's Holm \
correction holds each test to.

Under a fixed bias the test statistic is approximately non-central chi-square \
with non-centrality growing as T x delta. delta comes from the exact law or \
exact marginals when `exact` can compute them, otherwise from a pilot Monte \
Carlo run (statistic minus df, per trial). A warning is printed when the \
planned run would have fewer than 5 expected counts per cell, where the \
chi-square approximation is unreliable.";
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
distance). Each estimate comes with its standard error (spread only) and the \
bias floor: the TV a perfectly uniform shuffle shows with the same trials; the \
plug-in estimate is biased upwards by up to that much, so estimates near it are \
not distances. Exact values at f64 rounding level are marked (rounding).

Data loaders (-a buffer-shuffle, window-shuffle or shard-shuffle) get their exact curve against \
their size instead: the mean TV between an item's output position and a uniform position, the \
three loaders side by side, with the smallest sizes reaching 0.1, 0.01 and 0.001 \
(loaders.csv, loaders.png).

--k takes 1..12 (inclusive), 0..50, 1,2,4,8 or a mix (1..5,10,20) \
[default: 1..12 for riffle, 0..ceil(n ln n) for random-swap, thinned to about 200 points].

Writes mixing.csv (k, tv, method, statistic, stderr, bias_floor, bias_bound, \
tv_low, tv_high, at_bias_floor, rounding_bound, rounding_level) and mixing.png \
into --out.

Examples:
  shuffle-audit mixing -a riffle -n 52 --k 1..10
  shuffle-audit mixing -a riffle -n 52 --k 1..12 --monte-carlo -t 1M
  shuffle-audit mixing -a random-swap -n 6 --k 0..30 --monte-carlo
  shuffle-audit mixing -a buffer-shuffle -n 100000   (exact loader curve: loaders.csv, loaders.png)

Exit codes: 0 ran; 2 bad input (nothing is written).";
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

Samplers (-a reservoir-off-by-one:k=2 -n 4): the exact probability of every \
reachable subset, each item's inclusion probability and the distance to \
uniform; a weighted pick (-a weighted-off-by-one -n 2 --weights 1,99): each \
index's probability against its weight.

Exit codes: 0 computed; 2 bad input or refused.";

#[derive(Debug, Args)]
pub struct ExactArgs {
    /// Algorithm, as NAME or NAME:key=value (e.g. random-swap:k=3), or a
    /// sampler (e.g. reservoir-off-by-one:k=2): its exact law over subsets.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    pub algorithm: String,

    /// Number of elements to shuffle (N items for a sampler).
    #[arg(short = 'n', long, value_parser = values::parse_n)]
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

    /// Weights of a weighted pick (e.g. -a weighted-off-by-one --weights
    /// 1,99); -n must be their count.
    #[arg(long, value_name = "LIST")]
    pub weights: Option<String>,
}
const RUN_ABOUT: &str = "\
Run an experiment file and write a fairness report people can read.

An experiment file (TOML) names a study and its purpose, sets defaults (n, \
trials, rng, seed, alpha, threads, out) and lists [[audit]] tables, each an \
algorithm with optional n (one size or a list), trials, rng, seed, tests and \
note, and optional [[mixing]] tables (algorithm, n, k range, trials; for a data loader such as buffer-shuffle, k lists sizes in items and may be left out). A file may \
instead list [[sample]] tables (sampler, n, trials, rng, seed, weights, \
note; or input/cmd with kind sample|ordered|pick, base, name, jobs, cmd_timeout, \
requires for your own sampler) to audit samplers; `run --check` then compares inclusion counts. Every \
value is checked before any work starts; a bad one is reported as \
FILE:LINE:COLUMN and the exit code is 2. All audits are judged together \
(Holm correction at the file's alpha).

The report folder (--out, else the file's `out`, else reports/latest/<name>) gets \
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
  shuffle-audit run --check reports/latest/quick";

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print the lists as JSON.
    #[arg(long)]
    pub json: bool,
}

const MERGE_ABOUT: &str = "\
Merge the tally files of a run's shards (audit --shard I/N) and judge them as \
one run: the counts are added up, bit-identical to the run on one machine, \
then tested, corrected and reported exactly as `audit` does (the same table, \
summary.json, summary.csv, heatmaps and report.html; only the time differs: \
the shards' total).

The files may come in any order. Refused, with exit code 2, the file named and \
nothing written: a file that is not a tally or is damaged (its SHA-256 \
checksum does not match), another format version, an unfinished checkpoint, a \
file from another run (another tool version, algorithms, n, trials, rng, seed, \
tests or alpha), and chunks held twice (a shard given twice) or by no file (a \
shard missing).

Examples:
  shuffle-audit merge runs/mod-bias/shard-*.tally --out reports/mod-bias
  shuffle-audit merge a.tally b.tally --json

Exit codes: 0 merged (and, with --fail-on-bias, nothing was biased; with \
--require-pass, every audit was \"no bias detected\"); 1 --fail-on-bias and \
something was biased, or --require-pass and something was not \"no bias \
detected\"; 2 refused.";

/// The arguments of `merge`: the tallies, then the same output flags as
/// `audit` ([`OutputArgs`], declared once). Only the help of --out and
/// --quiet is worded for a merge (`mut_arg`), as it always was: a merge
/// shows no progress bar.
#[derive(Debug, Args)]
#[command(
    mut_arg("out", |a| a.help(
        "Output folder for the report [default: reports/latest/audit; with --json or an \
         --export-*, no folder unless --out is given]"
    )),
    mut_arg("quiet", |a| a.help("No closing note on stderr")),
)]
pub struct MergeArgs {
    /// The tally files of every shard of one run.
    #[arg(value_name = "TALLY", required = true)]
    pub tallies: Vec<PathBuf>,

    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Sizes to measure.
    #[arg(short = 'n', long = "n", default_values_t = [10usize, 52], num_args = 1.., value_parser = values::parse_n)]
    pub sizes: Vec<usize>,

    /// Shuffles per measurement [default: 2e8 / n (2e7 / n above n = 1024), about half a second each, rounded up to a chunk per thread].
    #[arg(short = 't', long, value_name = "TRIALS", value_parser = values::parse_trials)]
    pub trials: Option<u64>,

    /// Random sources, each measured in a table of its own (every row of a
    /// table, the bare loop and the audits alike, draws from it).
    #[arg(long = "rng", default_values_t = ["chacha8".to_string(), "xoshiro256pp".to_string()], num_args = 1.., value_name = "NAME")]
    pub rng: Vec<String>,

    /// Also measure large n: 100000 and 1000000 (fewer shuffles each, about
    /// 2e7 elements, and at most 3 repeats), where the matrix is binned and
    /// the order tests run: with it, one run gives every figure the README
    /// and the book quote (a few minutes).
    #[arg(long)]
    pub large: bool,

    /// Measurements of each kind, interleaved; the median is reported.
    #[arg(long, default_value_t = 5, value_parser = crate::values::parse_repeats)]
    pub repeats: usize,

    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// clap's own checks of the grammar (made in debug builds): among them,
    /// that every id a `conflicts_with` or `requires` names exists, now that
    /// `audit`'s flags sit in flattened groups and `merge` rewords two of
    /// the output group's.
    #[test]
    fn grammar_is_consistent() {
        Cli::command().debug_assert();
    }
}
