//! `shuffle-audit mixing`: validate everything, compute the curve, write
//! `mixing.csv` and `mixing.png`, print a table.

use super::progress::{Progress, work};
use super::table::{Table, table_width, wrap};
use crate::Result;
use crate::algorithm::{Algorithm, StepKind};
use crate::audit::DEFAULT_SEED;
use crate::mixing::buffer::{self, Loader, LoaderCurve};
use crate::mixing::monte_carlo::RANGE_STANDARD_ERRORS;
use crate::mixing::{self, Method, MixingCurve, MixingSpec};
use crate::output::mixing::{
    LOADER_NOTE, distance_text, fraction_text, loader_threshold_lines, loader_tv_text, tv_text,
    write_loaders, write_mixing,
};
use crate::output::{files, thousands};
use crate::source::SourceSpec;
use crate::values;
use clap::Args;
use std::path::PathBuf;

/// What `mixing --help` adds after the options: how to read the Monte Carlo
/// columns and the rounding mark.
const MIXING_NOTES: &str = "\
Reading the output:
  Monte Carlo TV is the plug-in estimate (1/2) sum |count/T - q|, biased
  upwards: noise in every cell adds to it. Two errors are shown apart:
  - SE (stderr): the spread of the estimate from run to run. It does not
    cover the bias: 'estimate +- SE' can miss the true value by far.
  - bias floor (bias_floor): the expected estimate of a perfectly uniform
    shuffle with the same trials and cells, about sqrt((C-1)/(2 pi T)) for
    C cells (720 cells, 200k trials: 0.024). The bias at any law is between
    0 and about this. The plot shows it as a grey band labelled 'Monte Carlo
    bias floor'.
  - bias bound (bias_bound): the largest bias at the observed law,
    (1/2) sum E|p^_i - p_i| with the observed frequencies plugged in, or
    the floor if larger. It is the floor for whole permutations; it can
    exceed it for a statistic with a non-uniform law (rising sequences,
    cycles).
  - true TV in (tv_low, tv_high): estimate - bias bound - 3 SE to
    estimate + 3 SE, the range that covers the true distance (of the
    counted statistic).
  An estimate within 3 SE of the floor is marked '(≤ floor)' or
  '(≈ floor)' (at_bias_floor = true, a hollow circle on the plot): the
  shuffle cannot be told from uniform with this many trials; the number is
  not a distance. More trials lower the floor like 1/sqrt(T).

  Exact values carry the size of their f64 rounding error (rounding_bound).
  A value at or below it (random-swap after many steps: n = 3, k = 60 gives
  9e-16 for a true 2e-29) is rounding noise, shown as '< 2e-14 (rounding)'
  (rounding_level = true, a hollow circle on the bottom edge of the plot).
  The bound is k (m + 2) u / 2 + u / 2 + n! u TV for m = n(n-1)/2 pairs and
  u = 1.1e-16; riffle values are computed in log space and accurate
  relative to their size, so only an underflow to 0 is flagged.

mixing.csv columns: k, tv, method, statistic, stderr, bias_floor,
bias_bound, tv_low, tv_high, at_bias_floor (Monte Carlo only),
rounding_bound, rounding_level (exact only). --json carries the same fields per point.

Data loaders (-a buffer-shuffle, window-shuffle or shard-shuffle): exact, no
simulation (--rng, --trials, --seed and --monte-carlo are not used). The
distance is, for each item, the TV between its output position and a
uniform position, averaged over items (mean_tv) and for the worst item
(max_tv), against the size as a fraction of n; the three loaders side by
side, with the smallest sizes reaching mean TV 0.1, 0.01 and 0.001.
loaders.csv columns: loader, size, fraction, mean_tv, max_tv,
rounding_bound, rounding_level. It is a distance of where items go: it does
not see shards staying together (0 whenever the shard size divides n).";

#[derive(Debug, Args)]
#[command(after_long_help = MIXING_NOTES)]
pub struct MixingArgs {
    /// Algorithm with a step count k: riffle or random-swap (its own k, if
    /// given, is ignored); or a data loader (buffer-shuffle, window-shuffle,
    /// shard-shuffle): its exact distance against its size, beside the
    /// other two loaders.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    pub algorithm: String,

    /// Number of elements (cards).
    #[arg(short = 'n', long, default_value_t = 52, value_parser = values::parse_n)]
    pub n: usize,

    /// Step counts: 1..12 (inclusive), 0..50, 1,2,4,8, or a mix
    /// [default: 1..12 for riffle, 0..ceil(n ln n) for random-swap]; for a
    /// loader, its sizes in items [default: 1-2-5 fractions of n from 1/n,
    /// then 1/4, 3/4, 0.9, 0.95, 0.99, 0.999 and 1].
    #[arg(long = "k", value_name = "LIST")]
    pub k: Option<String>,

    /// Random source of the Monte Carlo runs (see `shuffle-audit list`).
    #[arg(long = "rng", default_value = "chacha8", value_name = "NAME")]
    pub rng: String,

    /// Monte Carlo trials (1e6, 1_000_000 and 1M are all accepted).
    #[arg(short = 't', long, default_value = "1M", value_name = "TRIALS", value_parser = values::parse_trials)]
    pub trials: u64,

    /// Seed of the Monte Carlo runs; the same seed reproduces the same counts.
    #[arg(long, default_value_t = DEFAULT_SEED, value_parser = values::parse_seed)]
    pub seed: u64,

    /// Simulate even where the exact curve is known, and show both.
    #[arg(long)]
    pub monte_carlo: bool,

    /// Print the curve as JSON on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Output folder for mixing.csv and mixing.png.
    #[arg(long, default_value = "reports/latest/mixing", value_name = "DIR")]
    pub out: PathBuf,

    /// No progress bar and no closing note on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(args: &MixingArgs) -> Result<i32> {
    if let Some(loader) = Loader::of(&Algorithm::parse(&args.algorithm)?) {
        return run_loaders(args, loader);
    }
    let spec = spec(args)?;
    files::prepare_dir(&args.out)?;

    let total = if mixing::simulates(&spec) {
        spec.trials
    } else {
        0
    };
    let progress = Progress::new(total, work(total, spec.n), args.quiet);
    progress.begin(spec.algorithm.name().to_string(), total, spec.n);
    let curve = mixing::run(&spec, &|trials| progress.add(trials))?;
    progress.finish();

    write_mixing(&args.out, &curve)?;
    show(
        args,
        &curve,
        || render(&curve),
        format!("{:.1} s", curve.seconds),
    );
    Ok(0)
}

/// `mixing -a buffer-shuffle` (or another loader): the exact loader curve
/// against the size, written as loaders.csv and loaders.png.
fn run_loaders(args: &MixingArgs, loader: Loader) -> Result<i32> {
    let sizes: Vec<u64> = match &args.k {
        Some(text) => mixing::parse_ks(text)?.into_iter().map(u64::from).collect(),
        None => buffer::default_sizes(args.n),
    };
    buffer::check(args.n, &sizes)?;
    files::prepare_dir(&args.out)?;
    let curve = buffer::curve(loader, args.n, &sizes)?;
    write_loaders(&args.out, &curve)?;
    show(
        args,
        &curve,
        || render_loaders(&curve),
        format!("{:.2} s", curve.seconds),
    );
    Ok(0)
}

/// Prints a written curve: as JSON with `--json`, else its table, then
/// (unless quiet) where it was written and how long it took.
fn show<C: serde::Serialize>(
    args: &MixingArgs,
    curve: &C,
    table: impl FnOnce() -> String,
    took: String,
) {
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(curve).expect("curve serialises")
        );
    } else {
        print!("{}", table());
    }
    if !args.quiet {
        eprintln!("Curve written to {} ({took})", args.out.display());
    }
}

/// The loader curve as a table: one row per size, the mean TV of each
/// loader (the one asked for first) and the worst item's TV of that one,
/// then the thresholds and what the distance means.
fn render_loaders(curve: &LoaderCurve) -> String {
    let mut out = format!(
        "Data loaders, n = {}: distance from uniform against the size (exact)\n\n",
        thousands(curve.n as u64)
    );
    let order = curve.loader.first();
    let worst = format!("worst item ({})", curve.loader.name());
    let mut header = vec![("size", true), ("size/n", true)];
    header.extend(order.iter().map(|l| (l.name(), true)));
    header.push((worst.as_str(), true));
    let mut table = Table::new(&header);
    for (i, &size) in curve.sizes.iter().enumerate() {
        let mut row = vec![thousands(size), fraction_text(size as f64 / curve.n as f64)];
        let at = |l: Loader| curve.points_of(l).nth(i).expect("a point per size");
        row.extend(order.iter().map(|&l| loader_tv_text(at(l))));
        let p = at(curve.loader);
        row.push(distance_text(p.max_tv, 0.0, false));
        table.push(row);
    }
    out.push_str(&table.render());
    out.push('\n');
    for line in loader_threshold_lines(curve) {
        out.push_str(&wrap(&line, table_width()));
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&wrap(LOADER_NOTE, table_width()));
    out.push('\n');
    out
}

/// Turns the arguments into a spec, rejecting every bad value before any
/// work starts.
fn spec(args: &MixingArgs) -> Result<MixingSpec> {
    let algorithm = Algorithm::parse(&args.algorithm)?;
    let ks = match &args.k {
        Some(text) => mixing::parse_ks(text)?,
        None => mixing::default_ks(&algorithm, args.n),
    };
    let spec = MixingSpec {
        algorithm,
        n: args.n,
        ks,
        monte_carlo: args.monte_carlo,
        trials: args.trials,
        source: SourceSpec::parse(&args.rng)?,
        seed: args.seed,
    };
    mixing::check(&spec)?;
    Ok(spec)
}

/// The human-readable table: one row per point, ascending in k, with notes
/// on what the Monte Carlo points measure, their bias floor and the rounding
/// mark of exact values.
fn render(curve: &MixingCurve) -> String {
    let mut out = format!(
        "{}, n = {}: total variation distance to uniform after k {}\n",
        curve.algorithm.name(),
        curve.n,
        curve.step_name()
    );
    if let (Some(trials), Some(note)) = (curve.trials, curve.statistic_note()) {
        out.push_str(&format!(
            "Monte Carlo: {} trials, rng {}, seed {}, counting {note}\n",
            thousands(trials),
            curve.source,
            curve.seed,
        ));
    }
    out.push('\n');
    let simulated = curve.statistic.is_some();
    let mut header = vec![("k", true), ("TV", false), ("method", false)];
    if simulated {
        header.extend([("SE", true), ("bias floor", true), ("true TV in", false)]);
    }
    let mut table = Table::new(&header);
    let mut points: Vec<_> = curve.points.iter().collect();
    points.sort_by_key(|p| (p.k, p.method == Method::MonteCarlo));
    for p in &points {
        let mut row = vec![p.k.to_string(), tv_text(p), p.method.to_string()];
        if simulated {
            match (p.stderr, p.bias_floor, p.tv_low, p.tv_high) {
                (Some(se), Some(floor), Some(lo), Some(hi)) => row.extend([
                    format!("{se:.4}"),
                    format!("{floor:.4}"),
                    format!("[{lo:.4}, {hi:.4}]"),
                ]),
                _ => row.extend(["-", "-", "-"].map(String::from)),
            }
        }
        table.push(row);
    }
    out.push_str(&table.render());
    if curve.statistic.is_some_and(|s| s.is_lower_bound()) {
        out.push_str(
            "\nThe TV of a statistic is a lower bound on the TV of the permutation: a \
             function of the deck cannot separate two laws more than the deck does.",
        );
        if curve.algorithm.record().steps == Some(StepKind::Riffles) {
            out.push_str(
                " Rising sequences lose nothing for riffles: a riffled deck's law depends \
                 on them alone.",
            );
        }
        out.push('\n');
    }
    if simulated {
        let floor = points.iter().find_map(|p| p.bias_floor).unwrap_or(0.0);
        out.push_str(&format!(
            "\nMonte Carlo TV is the plug-in estimate, biased upwards by noise. SE is its \
             spread from run to run and does not cover the bias. The bias floor ({floor:.4}) \
             is what a perfectly uniform shuffle shows with these trials; the bias is at \
             most the floor for whole permutations, and at most the bias bound at the \
             observed law in general. 'true TV in' is estimate - max(floor, bias bound) - \
             {RANGE_STANDARD_ERRORS} SE to estimate + {RANGE_STANDARD_ERRORS} SE. An \
             estimate within {RANGE_STANDARD_ERRORS} SE of the floor (≤ floor, ≈ floor) \
             cannot be told from uniform with these trials: it is not a distance.\n"
        ));
    }
    if points.iter().any(|p| p.is_rounding_level()) {
        out.push_str(
            "\n(rounding): the exact value is no larger than the f64 rounding error of its \
             computation; the true distance is below the bound shown.\n",
        );
    }
    out
}
