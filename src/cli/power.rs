//! `shuffle-audit power`: how many trials a test needs to see a bias.
//!
//! The effect comes from the exact law where it can be computed, otherwise
//! from a pilot run; a pilot's estimate carries its uncertainty (an interval
//! of trial counts, or a refusal when the pilot cannot tell the effect from
//! zero). `-a` names a shuffle; samplers are planned by
//! [`super::power_samples`].

use super::progress::{Progress, work};
use crate::algorithm::Algorithm;
use crate::audit::{DEFAULT_ALPHA, DEFAULT_SEED};
use crate::output::thousands;
use crate::power::{self, Effect, EffectOrigin, Plan, PlanOutcome};
use crate::source::SourceSpec;
use crate::spec::{DEFAULT_N, TestKind, TestSet};
use crate::values;
use crate::{Error, Result};
use clap::Args;

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
shown on their own line.\n\n\
Samplers (-a reservoir-off-by-one:k=3, -a weighted-off-by-one --weights 3,5,7): the plan is for \
the sampler audit as it runs. --test is one of its tests: inclusion (the default; each item \
against k/N, delta = ((N-1)/N) sum (pi_i - p)^2 / (p(1-p))), pairs (beyond inclusion), subsets \
(every k-subset, delta = C sum (pi_s - 1/C)^2), order (item by slot, ordered samplers only) or \
picks (the default and only test of a weighted pick, delta = sum (pi_i - q_i)^2 / q_i). The \
effect comes from the sampler's exact law (ideal draws) when it can be enumerated quickly, \
otherwise from a pilot run, refused as above when it cannot tell the effect from zero. The audit \
shares alpha among its m tests (Holm), so each test is planned at alpha/(m*K), K = \
--divide-alpha-by counting the audits of the run; every test the audit runs is listed with its \
own plan. A fair law gets \"no bias: no trial count detects one\". The sampler tests refuse \
tables too sparse for their law: the trials before the test runs are shown apart from the \
trials for power. N is -n (default 10), a board's w*h or the number of --weights.")]
pub struct PowerArgs {
    /// Algorithm or sampler, as NAME or NAME:key=value.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    pub algorithm: String,

    /// Number of elements (default 10; a board's w*h or the number of
    /// weights for a sampler).
    #[arg(short = 'n', long, value_parser = values::parse_n)]
    pub n: Option<usize>,

    /// Random source.
    #[arg(long = "rng", default_value = "chacha8", value_name = "NAME")]
    pub rng: String,

    /// Significance level the audit will use.
    #[arg(long, default_value_t = DEFAULT_ALPHA, value_parser = values::parse_alpha)]
    pub alpha: f64,

    /// Divide alpha by this (the number of tests times audits that the
    /// Holm corrections share alpha among): the plan is at alpha / this.
    /// For a sampler the audit's own tests are counted already: give the
    /// number of audits in the run.
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub divide_alpha_by: u32,

    /// Probability of detecting the bias.
    #[arg(long, default_value_t = 0.9)]
    pub power: f64,

    /// The test to plan for: position-value (default), permutation
    /// (n <= 10), inversions, displacement or lehmer for a shuffle (the
    /// tests whose cells do not depend on the trial count); inclusion
    /// (default), pairs, subsets, order or picks (weighted picks' default)
    /// for a sampler.
    #[arg(long, value_name = "NAME")]
    pub test: Option<String>,

    /// A weighted pick's integer weights, one per item (`1,99`).
    #[arg(long, value_name = "W1,W2,...")]
    pub weights: Option<String>,

    /// Trials of the pilot run, when the exact law is not available
    /// [default: 1M; for a shuffle above n = 100, 10^8/n, at least 2,000,
    /// so that a pilot shuffles about 10^8 items at any n].
    #[arg(long, value_name = "TRIALS", value_parser = values::parse_trials)]
    pub pilot_trials: Option<u64>,

    /// Seed of the pilot run.
    #[arg(long, default_value_t = DEFAULT_SEED, value_parser = values::parse_seed)]
    pub seed: u64,

    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Plans for a shuffle and prints the plan; the exit code is 0 whenever a
/// plan or its refusal is printed. (A sampler's plan is
/// [`super::power_samples::run`]'s; `super::power_plan` picks.)
pub fn run(args: &PowerArgs, algorithm: Algorithm) -> Result<i32> {
    if args.weights.is_some() {
        return Err(Error::unsupported(format!(
            "--weights is for weighted picks (weighted-prefix, alias, weighted-off-by-one), not \
             the shuffle '{algorithm}'"
        )));
    }
    let n = args.n.unwrap_or(DEFAULT_N);
    let source = SourceSpec::parse(&args.rng)?;
    let test = plannable(args.test.as_deref().unwrap_or("position-value"))?;
    // Refuse a test that cannot run at this n before any work starts.
    TestSet::parse(test.name(), n)?;
    let pilot_trials = args
        .pilot_trials
        .unwrap_or_else(|| power::default_pilot_trials(n));
    let effect = match power::exact_effect(algorithm, n, source, test)? {
        Some(effect) => effect,
        None => {
            let progress = Progress::new(pilot_trials, work(pilot_trials, n), false);
            progress.begin(format!("pilot: {algorithm}, n = {n}"), pilot_trials, n);
            let effect = power::pilot_effect_with(
                algorithm,
                n,
                source,
                test,
                pilot_trials,
                args.seed,
                &|trials| progress.add(trials),
            );
            progress.finish();
            effect?
        }
    };
    let level = args.alpha / f64::from(alpha_divisor(args)?);
    let outcome =
        power::checked_plan_outcome(algorithm, n, source, test, effect, level, args.power)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&outcome).expect("JSON"));
        return Ok(0);
    }
    print!(
        "{algorithm} at n = {n}, rng {}, {test} test (df {}):\n{}{}",
        args.rng,
        outcome_effect(&outcome).df,
        effect_lines(outcome_effect(&outcome), "shuffle"),
        outcome_lines(
            &outcome,
            "trials for the chi-square approximation (5 expected per cell)"
        )
    );
    Ok(0)
}

/// The shuffle test named `name` if `power` can plan it: one whose
/// statistic has a fixed number of cells whatever the trials, so that an
/// effect per trial means the same at every trial count. The structure
/// tests pool sparse categories by the trial count, and the birthday
/// test's pairs grow with its square: an audit's report plans those.
fn plannable(name: &str) -> Result<TestKind> {
    let test = TestKind::parse(name)?;
    let why = match test {
        TestKind::PositionValue
        | TestKind::Permutation
        | TestKind::Inversions
        | TestKind::Displacement
        | TestKind::Lehmer => return Ok(test),
        TestKind::FixedPoints
        | TestKind::Cycles
        | TestKind::RisingSequences
        | TestKind::LehmerPairs
        | TestKind::Clumping
        | TestKind::Serial => "its categories are pooled by the trial count",
        TestKind::Birthday => {
            "its pairs grow with the square of the trials, not as a per-trial effect"
        }
        TestKind::PositionKind
        | TestKind::Arrangement
        | TestKind::PositionCategory
        | TestKind::Hand => {
            "it is a test of decks (--deck, --categories), which power does not take"
        }
    };
    Err(Error::unsupported(format!(
        "power plans position-value, permutation, inversions, displacement or lehmer for a \
         shuffle, not {name}: {why}; an audit's report plans every test it ran"
    )))
}

/// --divide-alpha-by, refused at 0.
pub fn alpha_divisor(args: &PowerArgs) -> Result<u32> {
    if args.divide_alpha_by == 0 {
        return Err(Error::out_of_range("--divide-alpha-by must be at least 1"));
    }
    Ok(args.divide_alpha_by)
}

/// The effect a plan or a refusal rests on.
pub fn outcome_effect(outcome: &PlanOutcome) -> &Effect {
    match outcome {
        PlanOutcome::Planned(p) => &p.effect,
        PlanOutcome::NoPlan { effect, .. } => effect,
    }
}

/// The effect's lines: its size and origin, and for a pilot its interval
/// (`subject`: what a fair one of is meant, "shuffle" or "sampler").
pub fn effect_lines(effect: &Effect, subject: &str) -> String {
    let origin = match effect.origin {
        EffectOrigin::Exact => "computed from the exact law".to_string(),
        EffectOrigin::Pilot { trials, .. } => format!(
            "estimated from a pilot of {} trials (statistic minus df, per trial)",
            thousands(trials)
        ),
    };
    let mut out = format!(
        "  effect: non-centrality {:.6e} per trial, {origin}\n",
        effect.delta
    );
    if let Some(i) = effect.interval() {
        out.push_str(&format!(
            "  pilot excess over df: {:.1} (a fair {subject}'s sd is {:.1}); {}-sd interval on the \
             effect: {:.3e} to {:.3e}\n",
            i.excess, i.null_sd, i.z, i.low, i.high
        ));
    }
    out
}

/// The plan's lines (level, trials for power, trials for the approximation
/// under the label `approximation`, warning), or the reason there is none.
pub fn outcome_lines(outcome: &PlanOutcome, approximation: &str) -> String {
    match outcome {
        PlanOutcome::Planned(plan) => render(plan, approximation),
        PlanOutcome::NoPlan { reason, .. } => {
            format!("  trials needed: none can be planned: {reason}\n")
        }
    }
}

/// A level in plain decimals to 4 significant digits (0.0003333), or in
/// scientific notation below 1e-6.
pub fn level_text(level: f64) -> String {
    if level < 1e-6 {
        return format!("{level:.3e}");
    }
    let decimals = (3 - level.log10().floor() as i32).max(0) as usize;
    let text = format!("{level:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

fn render(plan: &Plan, approximation: &str) -> String {
    let level = level_text(plan.alpha);
    let needed = match (&plan.simulation, plan.trials_range) {
        (Some(sim), _) => format!(
            "{} (found by simulation: {}; the χ² plan, only a first guess below {} trials, \
             was {})",
            thousands(plan.trials),
            sim.words(),
            thousands(power::simulate::SIMULATE_BELOW),
            thousands(plan.chi_square_trials)
        ),
        (None, Some(r)) => format!(
            "about {} (interval {r}, from the effect's interval)",
            thousands(plan.trials)
        ),
        (None, None) => thousands(plan.trials),
    };
    let mut out = format!(
        "  at level {level}: reject when the statistic exceeds {:.2}; {:.0}% power needs \
         non-centrality {:.2}\n\
         \x20 trials needed for power: {needed}\n\
         \x20 {approximation}: {}\n",
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
