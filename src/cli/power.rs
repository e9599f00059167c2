//! `shuffle-audit power`: how many trials a test needs to see a bias.
//!
//! The effect comes from the exact law where it can be computed, otherwise
//! from a pilot run; a pilot's estimate carries its uncertainty (an interval
//! of trial counts, or a refusal when the pilot cannot tell the effect from
//! zero).

use clap::Args;
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::audit::{DEFAULT_ALPHA, DEFAULT_SEED};
use shuffle_audit::output::thousands;
use shuffle_audit::power::{self, EffectOrigin, Plan, PlanOutcome};
use shuffle_audit::source::SourceSpec;
use shuffle_audit::spec::{TestKind, TestSet};
use shuffle_audit::values;
use shuffle_audit::{Error, Result};

/// Arguments of `shuffle-audit power`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Uncertainty and refusals: a pilot estimate is noisy (a fair shuffle's statistic varies by \
sqrt(2 df) around df). When the pilot's excess over df is within 3 such standard deviations of \
zero, no plan is given (\"not distinguishable from zero at this pilot size\"), only a lower \
bound on the trials and the pilot size that could tell; otherwise the plan comes with an \
interval of trial counts (about 99.7%, from Var X = 2(df + 2 lambda)). An exact effect that is \
only f64 rounding (below 1e-20 per trial) is reported as no bias.\n\n\
Level: the test is planned at --alpha / --divide-alpha-by. An audit running m tests among M \
audits of a run rejects whenever some test's p-value is at most alpha/(m*M) (Holm's first \
steps within the audit and across the run), so --divide-alpha-by m*M gives a guaranteed lower \
bound on the battery's power.\n\n\
\"trials needed for power\" is for power only; the trials at which the chi-square \
approximation holds (5 expected per cell: 5n for position-value, 5 n! for permutation) are \
shown on their own line.")]
pub struct PowerArgs {
    /// Algorithm, as NAME or NAME:key=value.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    pub algorithm: String,

    /// Number of elements.
    #[arg(short = 'n', long, default_value_t = 10, value_parser = values::parse_n)]
    pub n: usize,

    /// Random source.
    #[arg(long = "rng", default_value = "chacha8", value_name = "NAME")]
    pub rng: String,

    /// Significance level the audit will use.
    #[arg(long, default_value_t = DEFAULT_ALPHA, value_parser = values::parse_alpha)]
    pub alpha: f64,

    /// Divide alpha by this (the number of tests times audits that the
    /// Holm corrections share alpha among): the plan is at alpha / this.
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub divide_alpha_by: u32,

    /// Probability of detecting the bias.
    #[arg(long, default_value_t = 0.9)]
    pub power: f64,

    /// The test to plan for: position-value or permutation (n <= 10).
    #[arg(long, default_value = "position-value", value_name = "NAME")]
    pub test: String,

    /// Trials of the pilot run, when the exact law is not available.
    #[arg(long, default_value = "1M", value_name = "TRIALS", value_parser = values::parse_trials)]
    pub pilot_trials: u64,

    /// Seed of the pilot run.
    #[arg(long, default_value_t = DEFAULT_SEED, value_parser = values::parse_seed)]
    pub seed: u64,

    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &PowerArgs) -> Result<i32> {
    let algorithm = Algorithm::parse(&args.algorithm)?;
    let source = SourceSpec::parse(&args.rng)?;
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
    let pilot_trials = args.pilot_trials;
    let effect = match power::exact_effect(algorithm, args.n, source, test)? {
        Some(effect) => effect,
        None => power::pilot_effect(algorithm, args.n, source, test, pilot_trials, args.seed)?,
    };
    if args.divide_alpha_by == 0 {
        return Err(Error::invalid("--divide-alpha-by must be at least 1"));
    }
    let level = args.alpha / f64::from(args.divide_alpha_by);
    let outcome = power::plan_outcome(effect, level, args.power)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&outcome).expect("JSON"));
        return Ok(0);
    }
    let head = header(&outcome, algorithm, args, test);
    match &outcome {
        PlanOutcome::Planned(plan) => print!("{head}{}", render(plan)),
        PlanOutcome::NoPlan { reason, .. } => {
            println!("{head}  trials needed: none can be planned: {reason}")
        }
    }
    Ok(0)
}

fn header(outcome: &PlanOutcome, algorithm: Algorithm, args: &PowerArgs, test: TestKind) -> String {
    let effect = match outcome {
        PlanOutcome::Planned(p) => &p.effect,
        PlanOutcome::NoPlan { effect, .. } => effect,
    };
    let origin = match effect.origin {
        EffectOrigin::Exact => "computed from the exact law".to_string(),
        EffectOrigin::Pilot { trials, .. } => format!(
            "estimated from a pilot of {} trials (statistic minus df, per trial)",
            thousands(trials)
        ),
    };
    let mut out = format!(
        "{algorithm} at n = {}, rng {}, {test} test (df {}):\n\
         \x20 effect: non-centrality {:.6e} per trial, {origin}\n",
        args.n, args.rng, effect.df, effect.delta,
    );
    if let Some(i) = effect.interval() {
        out.push_str(&format!(
            "  pilot excess over df: {:.1} (a fair shuffle's sd is {:.1}); {}-sd interval on the \
             effect: {:.3e} to {:.3e}\n",
            i.excess, i.null_sd, i.z, i.low, i.high
        ));
    }
    out
}

fn render(plan: &Plan) -> String {
    let level = plan.alpha;
    let needed = match plan.trials_range {
        Some(r) => format!(
            "about {} (interval {r}, from the effect's interval)",
            thousands(plan.trials)
        ),
        None => thousands(plan.trials),
    };
    let mut out = format!(
        "  at level {level}: reject when the statistic exceeds {:.2}; {:.0}% power needs \
         non-centrality {:.2}\n\
         \x20 trials needed for power: {needed}\n\
         \x20 trials for the chi-square approximation (5 expected per cell): {}\n",
        plan.critical_value,
        plan.power * 100.0,
        plan.lambda,
        thousands(plan.approximation_trials),
    );
    if let Some(w) = &plan.warning {
        out.push_str(&format!("  warning: {w}\n"));
    }
    out
}
