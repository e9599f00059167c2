//! `shuffle-audit power`: how many trials a test needs to see a bias.

use clap::Args;
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::audit::{DEFAULT_ALPHA, DEFAULT_SEED};
use shuffle_audit::output::thousands;
use shuffle_audit::params::parse_count;
use shuffle_audit::power::{self, EffectOrigin, Plan};
use shuffle_audit::source::SourceSpec;
use shuffle_audit::spec::{TestKind, TestSet};
use shuffle_audit::{Error, Result};

/// Arguments of `shuffle-audit power`.
#[derive(Debug, Args)]
pub struct PowerArgs {
    /// Algorithm, as NAME or NAME:key=value.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    pub algorithm: String,

    /// Number of elements.
    #[arg(short = 'n', long, default_value_t = 10)]
    pub n: usize,

    /// Random source.
    #[arg(long = "rng", default_value = "chacha8", value_name = "NAME")]
    pub rng: String,

    /// Significance level the audit will use.
    #[arg(long, default_value_t = DEFAULT_ALPHA)]
    pub alpha: f64,

    /// Probability of detecting the bias.
    #[arg(long, default_value_t = 0.9)]
    pub power: f64,

    /// The test to plan for: position-value or permutation (n <= 10).
    #[arg(long, default_value = "position-value", value_name = "NAME")]
    pub test: String,

    /// Trials of the pilot run, when the exact law is not available.
    #[arg(long, default_value = "1M", value_name = "TRIALS")]
    pub pilot_trials: String,

    /// Seed of the pilot run.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,

    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &PowerArgs) -> Result<i32> {
    let algorithm = Algorithm::parse(&args.algorithm)?;
    let source = SourceSpec::parse(&args.rng)?;
    if args.n < 2 {
        return Err(Error::invalid(format!(
            "n = {} is too small: n must be at least 2",
            args.n
        )));
    }
    let test = match args.test.as_str() {
        "position-value" => TestKind::PositionValue,
        "permutation" => TestKind::Permutation,
        other => {
            return Err(Error::invalid(format!(
                "power planning supports the tests position-value and permutation (got '{other}')"
            )));
        }
    };
    // Refuse a test that cannot run at this n before any work starts.
    TestSet::parse(test.name(), args.n)?;
    let pilot_trials = parse_count(&args.pilot_trials)?;
    if pilot_trials == 0 {
        return Err(Error::invalid("pilot trials must be at least 1 (got 0)"));
    }
    let effect = match power::exact_effect(algorithm, args.n, source, test)? {
        Some(effect) => effect,
        None => power::pilot_effect(algorithm, args.n, source, test, pilot_trials, args.seed)?,
    };
    let plan = power::plan(effect, args.alpha, args.power)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&plan).expect("JSON"));
    } else {
        print!("{}", render(&plan, algorithm, args, test));
    }
    Ok(0)
}

fn render(plan: &Plan, algorithm: Algorithm, args: &PowerArgs, test: TestKind) -> String {
    let origin = match plan.effect.origin {
        EffectOrigin::Exact => "computed from the exact law".to_string(),
        EffectOrigin::Pilot { trials } => format!(
            "estimated from a pilot of {} trials (statistic minus df, per trial)",
            thousands(trials)
        ),
    };
    let mut out = format!(
        "{algorithm} at n = {}, rng {}, {test} test (df {}):\n\
         \x20 effect: non-centrality {:.6} per trial, {origin}\n\
         \x20 at alpha = {}: reject when the statistic exceeds {:.2}; {:.0}% power needs non-centrality {:.2}\n\
         \x20 trials needed: {}  ({:.1} expected per cell); recommended run: {}\n",
        args.n,
        args.rng,
        plan.effect.df,
        plan.effect.delta,
        plan.alpha,
        plan.critical_value,
        plan.power * 100.0,
        plan.lambda,
        thousands(plan.trials),
        plan.expected_per_cell,
        thousands(plan.recommended_trials),
    );
    if let Some(w) = &plan.warning {
        out.push_str(&format!("  warning: {w}\n"));
    }
    out
}
