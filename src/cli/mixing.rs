//! `shuffle-audit mixing`: validate everything, compute the curve, write
//! `mixing.csv` and `mixing.png`, print a table.

use super::progress::Progress;
use super::table::Table;
use clap::Args;
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::audit::DEFAULT_SEED;
use shuffle_audit::mixing::{self, Method, MixingCurve, MixingSpec};
use shuffle_audit::output::mixing::{ERROR_BAR_STANDARD_ERRORS, write_mixing};
use shuffle_audit::output::{files, thousands};
use shuffle_audit::params::parse_count;
use shuffle_audit::source::SourceSpec;
use shuffle_audit::{Error, Result};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct MixingArgs {
    /// Algorithm with a step count k: riffle or random-swap (its own k, if
    /// given, is ignored).
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    pub algorithm: String,

    /// Number of elements (cards).
    #[arg(short = 'n', long, default_value_t = 52)]
    pub n: usize,

    /// Step counts: 1..12 (inclusive), 0..50, 1,2,4,8, or a mix
    /// [default: 1..12 for riffle, 0..ceil(n ln n) for random-swap].
    #[arg(long = "k", value_name = "LIST")]
    pub k: Option<String>,

    /// Random source of the Monte Carlo runs (see `shuffle-audit list`).
    #[arg(long = "rng", default_value = "chacha8", value_name = "NAME")]
    pub rng: String,

    /// Monte Carlo trials (1e6, 1_000_000 and 1M are all accepted).
    #[arg(short = 't', long, default_value = "1M", value_name = "TRIALS")]
    pub trials: String,

    /// Seed of the Monte Carlo runs; the same seed reproduces the same counts.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,

    /// Simulate even where the exact curve is known, and show both.
    #[arg(long)]
    pub monte_carlo: bool,

    /// Print the curve as JSON on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Output folder for mixing.csv and mixing.png.
    #[arg(long, default_value = "reports/mixing", value_name = "DIR")]
    pub out: PathBuf,

    /// No progress bar and no closing note on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(args: &MixingArgs) -> Result<i32> {
    let spec = spec(args)?;
    files::prepare_dir(&args.out)?;

    let total = if mixing::simulates(&spec) {
        spec.trials
    } else {
        0
    };
    let progress = Progress::new(total, args.quiet);
    progress.begin(spec.algorithm.name().to_string(), total);
    let curve = mixing::run(&spec, &|trials| progress.add(trials))?;
    progress.finish();

    write_mixing(&args.out, &curve)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&curve).expect("curve serialises")
        );
    } else {
        print!("{}", render(&curve));
    }
    if !args.quiet {
        eprintln!(
            "Curve written to {} ({:.1} s)",
            args.out.display(),
            curve.seconds
        );
    }
    Ok(0)
}

/// Turns the arguments into a spec, rejecting every bad value before any
/// work starts.
fn spec(args: &MixingArgs) -> Result<MixingSpec> {
    let algorithm = Algorithm::parse(&args.algorithm)?;
    let ks = match &args.k {
        Some(text) => mixing::parse_ks(text)?,
        None => mixing::default_ks(&algorithm, args.n),
    };
    let trials = parse_count(&args.trials)?;
    if trials == 0 {
        return Err(Error::invalid("trials must be at least 1 (got 0)"));
    }
    let spec = MixingSpec {
        algorithm,
        n: args.n,
        ks,
        monte_carlo: args.monte_carlo,
        trials,
        source: SourceSpec::parse(&args.rng)?,
        seed: args.seed,
    };
    mixing::check(&spec)?;
    Ok(spec)
}

/// The human-readable table: one row per point, ascending in k, with notes
/// on what the Monte Carlo points measure.
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
    let mut table = Table::new(&[
        ("k", true),
        ("TV", true),
        ("method", false),
        ("± SE", true),
        ("noise floor", true),
    ]);
    let mut points: Vec<_> = curve.points.iter().collect();
    points.sort_by_key(|p| (p.k, p.method == Method::MonteCarlo));
    for p in points {
        let (se, floor) = match (p.stderr, p.noise_floor) {
            (Some(se), Some(floor)) => (format!("{se:.4}"), format!("{floor:.4}")),
            _ => ("-".to_string(), "-".to_string()),
        };
        table.push(vec![
            p.k.to_string(),
            format!("{:.4}", p.tv),
            p.method.to_string(),
            se,
            floor,
        ]);
    }
    out.push_str(&table.render());
    if curve.statistic.is_some_and(|s| s.is_lower_bound()) {
        out.push_str(
            "\nThe TV of a statistic is a lower bound on the TV of the permutation: a \
             function of the deck cannot separate two laws more than the deck does.",
        );
        if matches!(curve.algorithm, Algorithm::Riffle { .. }) {
            out.push_str(
                " Rising sequences lose nothing for riffles: a riffled deck's law depends \
                 on them alone.",
            );
        }
        out.push('\n');
    }
    if curve.statistic.is_some() {
        out.push_str(&format!(
            "\nMonte Carlo TV is the plug-in estimate, biased upwards by noise: a perfectly \
             uniform shuffle shows about the noise floor with these trials. The plot's error \
             bars are ± {ERROR_BAR_STANDARD_ERRORS} SE.\n"
        ));
    }
    out
}
