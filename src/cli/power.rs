//! `shuffle-audit power`: how many trials a test needs to see a bias.
//!
//! The effect comes from the exact law where it can be computed, otherwise
//! from a pilot run; a pilot's estimate carries its uncertainty (an interval
//! of trial counts, or a refusal when the pilot cannot tell the effect from
//! zero). `-a` names a shuffle, planned for one test, or a sampler, whose
//! audit is planned test by test (`power::sampler`); both are printed by
//! [`print`], each with lines of its own ([`Shown`]).

use super::progress::{Progress, work};
use crate::algorithm::Algorithm;
use crate::audit::{DEFAULT_ALPHA, DEFAULT_SEED};
use crate::output::thousands;
use crate::power::sampler::{LawOrigin, SamplerPowerSpec, parse_sample_test, plan_sampler};
use crate::power::{self, AuditPlan, EffectOrigin, PILOT_TRIALS, Plan, PlanOutcome};
use crate::request::{Named, parse_weights};
use crate::sampler::{SampleTest, Sampler, Samplers, Shape};
use crate::source::SourceSpec;
use crate::spec::{DEFAULT_N, TestKind, TestSet};
use crate::values;
use crate::{Error, Result};
use clap::Args;
use serde::Serialize;

/// Arguments of `shuffle-audit power`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Uncertainty and refusals: a pilot estimate is noisy (a fair shuffle's statistic varies by \
sqrt(2 df) around df). When the pilot's excess over df is within 3 such standard deviations of \
zero, no plan is given (\"not distinguishable from zero at this pilot size\"), only a lower \
bound on the trials and the pilot size that could tell; otherwise the plan comes with an \
interval of trial counts (about 99.7%, from Var X = 2(df + 2 lambda)). An exact effect that is \
only f64 rounding (below 1e-20 per trial) is reported as no bias.\n\n\
The audit planned for (shuffles): the one `audit -a ALG -n N` runs with the same options: its \
default battery, or the tests --tests names, Holm-corrected together at --alpha / \
--divide-alpha-by (M, the audits of the run). --test (position-value by default) gives the \
first guess: its non-central chi-square plan at alpha/(m*M) for an audit of m tests (Holm's \
first steps within the audit and across the run: the audit rejects whenever some test's p-value \
is at most alpha/(m*M), so this is a guaranteed lower bound on the battery's power). Below 300 \
trials, and wherever the battery may need fewer trials than that test (tried at 300), the plan \
is found by simulating 400 seeded audits of the whole battery at each trial count tried, each \
judged exactly as `audit` judges it (the same p-values and tails, Holm over the m tests): the \
plan is the smallest trial count at which the detections' one-sided 95% Clopper-Pearson lower \
bound on the power reaches --power (for 90%: 371 of 400), a margin against picking a lucky \
count. The simulated audits use seeds of their own, far from any --seed a user gives.\n\n\
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

    /// Divide alpha by this: the number of audits in the run, which Holm's
    /// correction across the run shares alpha among. The audit's own tests
    /// are counted already (its battery, Holm over its m tests).
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub divide_alpha_by: u32,

    /// Probability of detecting the bias.
    #[arg(long, default_value_t = 0.9)]
    pub power: f64,

    /// The test to plan for: for a shuffle, the test whose chi-square plan
    /// is the first guess for the battery's (one the audit runs):
    /// position-value (default), permutation (n <= 10), inversions,
    /// displacement or lehmer (the tests whose cells do not depend on the
    /// trial count); inclusion (default), pairs, subsets, order or picks
    /// (weighted picks' default) for a sampler.
    #[arg(long, value_name = "NAME")]
    pub test: Option<String>,

    /// A shuffle's audit to plan for, as `audit --tests` takes it: a
    /// comma-separated list, `all` or `default` [default: default, the
    /// battery `audit` runs at this n].
    #[arg(long, value_name = "LIST")]
    pub tests: Option<String>,

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

/// `power`: plans for the shuffle `-a` names, or else for the sampler, and
/// prints the plan; the exit code is 0 whenever a plan or its refusal is
/// printed.
pub fn run(args: &PowerArgs) -> Result<i32> {
    match crate::request::named(&args.algorithm)? {
        Named::Shuffle(algorithm) => shuffle(args, algorithm),
        Named::Sampler(sampler) => self::sampler(args, sampler),
    }
}

/// A plan as `power` prints it, for either kind: the `json` document, and
/// the parts of the text that [`print`] puts among the lines every plan
/// has: the `subject` ("naive-swap at n = 10", "floyd:k=3 at N = 10
/// (k = 3)"), what a fair one is (`noun`: "shuffle", "sampler"), the chosen
/// `test` and its `outcome`, the label of the trials its chi-square form
/// needs (`approximation`), and the kind's own lines `before` the plan's
/// and `after` them.
struct Shown<'a, D> {
    json: D,
    subject: String,
    noun: &'static str,
    test: String,
    outcome: &'a PlanOutcome,
    approximation: String,
    before: String,
    after: String,
}

/// Prints `shown` as JSON with `--json`, else as text: subject and test,
/// the effect (size, origin and a pilot's interval), the kind's lines, the
/// plan (level, trials for power and for the approximation, warning) or
/// why there is none, and the kind's closing lines.
fn print<D: Serialize>(args: &PowerArgs, shown: Shown<'_, D>) -> Result<i32> {
    if args.json {
        let json = serde_json::to_string_pretty(&shown.json).expect("JSON");
        println!("{json}");
        return Ok(0);
    }
    let effect = match shown.outcome {
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
        "{}, rng {}, {} test (df {}):\n  effect: non-centrality {:.6e} per trial, {origin}\n",
        shown.subject, args.rng, shown.test, effect.df, effect.delta
    );
    if let Some(i) = effect.interval() {
        out.push_str(&format!(
            "  pilot excess over df: {:.1} (a fair {}'s sd is {:.1}); {}-sd interval on the \
             effect: {:.3e} to {:.3e}\n",
            i.excess, shown.noun, i.null_sd, i.z, i.low, i.high
        ));
    }
    out.push_str(&shown.before);
    match shown.outcome {
        PlanOutcome::Planned(plan) => out.push_str(&planned(plan, &shown.approximation)),
        PlanOutcome::NoPlan { reason, .. } => {
            out.push_str(&format!("  trials needed: none can be planned: {reason}\n"));
        }
    }
    print!("{out}{}", shown.after);
    Ok(0)
}

/// A plan's lines: level, trials for power, trials for the approximation
/// (under the label `approximation`), warning.
fn planned(plan: &Plan, approximation: &str) -> String {
    let level = level_text(plan.alpha);
    let needed = match (&plan.simulation, plan.trials_range) {
        (Some(sim), _) => format!(
            "{} (found by simulating the audit: {}; {})",
            thousands(plan.trials),
            sim.words(),
            match plan.chi_square_trials {
                Some(t) => format!(
                    "the χ² plan of the one test, the first guess, was {}",
                    thousands(t)
                ),
                None => "the one test sees no bias in the exact law; the battery's others do"
                    .to_string(),
            }
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

/// A level in plain decimals to 4 significant digits (0.0003333), or in
/// scientific notation below 1e-6.
fn level_text(level: f64) -> String {
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

/// The refusal of `--weights` for a subject that takes none (`tail` says
/// which).
fn no_weights(tail: String) -> Error {
    Error::unsupported(format!(
        "--weights is for weighted picks (weighted-prefix, alias, weighted-off-by-one){tail}"
    ))
}

/// --divide-alpha-by, refused at 0.
fn alpha_divisor(args: &PowerArgs) -> Result<u32> {
    if args.divide_alpha_by == 0 {
        return Err(Error::out_of_range("--divide-alpha-by must be at least 1"));
    }
    Ok(args.divide_alpha_by)
}

/// Plans the audit of `algorithm` that `audit` runs with these options
/// (`--tests`, the default battery unless told), from `--test`'s effect
/// (position-value by default; exact, or else from a pilot run) as a first
/// guess, checked by simulating the battery's audits
/// ([`power::checked_plan_outcome`]), and prints the plan.
fn shuffle(args: &PowerArgs, algorithm: Algorithm) -> Result<i32> {
    if args.weights.is_some() {
        return Err(no_weights(format!(", not the shuffle '{algorithm}'")));
    }
    let n = args.n.unwrap_or(DEFAULT_N);
    let source = SourceSpec::parse(&args.rng)?;
    let tests = TestSet::parse(args.tests.as_deref().unwrap_or("default"), n)?;
    let test = match args.test.as_deref() {
        Some(name) => plannable(name)?,
        // Position-value, or else the first test of the battery that a
        // plan can start from.
        None => tests
            .iter()
            .find(|&t| t == TestKind::PositionValue)
            .or_else(|| tests.iter().find(|t| plannable(t.name()).is_ok()))
            .ok_or_else(|| {
                Error::unsupported(format!(
                    "power starts a shuffle's plan from position-value, permutation, \
                     inversions, displacement or lehmer, and the audit planned for runs none \
                     of them ({tests})"
                ))
            })?,
    };
    // Refuse a test that cannot run at this n, or that the audit does not
    // run, before any work starts.
    TestSet::parse(test.name(), n)?;
    if !tests.contains(test) {
        return Err(Error::unsupported(format!(
            "the audit planned for runs {tests}, not {test}: plan a test it runs, or add {test} \
             to --tests"
        )));
    }
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
    let audits = alpha_divisor(args)?;
    let level = args.alpha / f64::from(audits);
    let outcome = power::checked_plan_outcome(
        algorithm, n, source, &tests, test, effect, level, args.power,
    )?;
    let m = tests.iter().count();
    let shown = Shown {
        json: &outcome,
        subject: format!("{algorithm} at n = {n}"),
        noun: "shuffle",
        test: test.to_string(),
        outcome: &outcome,
        approximation: "trials for the chi-square approximation (5 expected per cell)".into(),
        before: format!(
            "  the audit planned for: tests {tests}; Holm: alpha {} / ({} in the audit x {} in \
             the run) = {} for the {test} test's chi-square plan\n",
            args.alpha,
            count(m, "test"),
            count(audits as usize, "audit"),
            level_text(level / m as f64)
        ),
        after: String::new(),
    };
    print(args, shown)
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
        | TestKind::Hand
        | TestKind::Adjacency
        | TestKind::Successor => {
            "it is a test of decks (--deck, --categories), which power does not take"
        }
    };
    Err(Error::unsupported(format!(
        "power plans position-value, permutation, inversions, displacement or lehmer for a \
         shuffle, not {name}: {why}; an audit's report plans every test it ran"
    )))
}

/// The JSON document of a sampler's plan: the chosen test's plan (as a
/// shuffle's is printed), what it is of, and the plan of the whole audit.
#[derive(Serialize)]
struct Document<'a> {
    sampler: &'a str,
    n: usize,
    k: usize,
    rng: &'a str,
    test: SampleTest,
    #[serde(flatten)]
    outcome: &'a PlanOutcome,
    audit: &'a AuditPlan<Samplers>,
}

/// Plans the audit of `sampler` and prints the chosen test's plan, every
/// test's and what the audit as a whole reaches.
fn sampler(args: &PowerArgs, sampler: Sampler) -> Result<i32> {
    let weighted = sampler.record().shape == Shape::Weighted;
    let weights = args.weights.as_deref().map(parse_weights).transpose()?;
    match (weighted, &weights) {
        (false, Some(_)) => return Err(no_weights(format!("; {sampler} takes none"))),
        (true, None) => {
            return Err(Error::unsupported(format!(
                "{sampler} needs --weights: one integer weight per item (e.g. --weights 1,99)"
            )));
        }
        _ => {}
    }
    let n = population(args, sampler, weights.as_deref())?;
    let test = args.test.as_deref().map(parse_sample_test).transpose()?;
    let mut spec = SamplerPowerSpec {
        alpha: args.alpha,
        audits_in_run: alpha_divisor(args)? as usize,
        power: args.power,
        pilot_trials: args.pilot_trials.unwrap_or(PILOT_TRIALS),
        seed: args.seed,
        ..SamplerPowerSpec::new(sampler, n, SourceSpec::parse(&args.rng)?)
    };
    if let Some(w) = weights {
        spec = spec.with_weights(w);
    }
    let plan = plan_sampler(&spec)?;
    let chosen = plan.test(test.unwrap_or(plan.default_test()))?;
    let details = &plan.details;
    let not_exact = match &details.law {
        LawOrigin::Pilot { why_not_exact, .. } => {
            format!("  not from the exact law: {why_not_exact}\n")
        }
        LawOrigin::Exact { .. } => String::new(),
    };
    let shown = Shown {
        json: Document {
            sampler: &details.sampler,
            n: details.n,
            k: details.k,
            rng: &args.rng,
            test: chosen.test,
            outcome: &chosen.details.outcome,
            audit: &plan,
        },
        subject: format!(
            "{} at N = {} (k = {})",
            details.sampler, details.n, details.k
        ),
        noun: "sampler",
        test: chosen.test.to_string(),
        outcome: &chosen.details.outcome,
        // What the trials before the test runs mean for it.
        approximation: if chosen.details.runs_sparse {
            format!(
                "trials for the {} test's chi-square law (5 expected per cell; sparser tables \
                 are judged by collisions)",
                chosen.test
            )
        } else {
            format!(
                "trials before the {} test runs (5 expected per cell, a statistic close to its \
                 law)",
                chosen.test
            )
        },
        before: format!(
            "{not_exact}  level: alpha {} / ({} in the audit x {} in the run) = {} (Holm)\n",
            plan.alpha,
            count(plan.tests_in_audit, "test"),
            count(plan.audits_in_run, "audit"),
            level_text(plan.level)
        ),
        after: audit_lines(&plan),
    };
    print(args, shown)
}

/// N: the board's cells or the number of weights (a disagreeing -n is
/// refused), else -n, else the default.
fn population(args: &PowerArgs, sampler: Sampler, weights: Option<&[u64]>) -> Result<usize> {
    let Some(fixed) = sampler.population().or(weights.map(<[u64]>::len)) else {
        return Ok(args.n.unwrap_or(DEFAULT_N));
    };
    if let Some(n) = args.n.filter(|&n| n != fixed) {
        return Err(Error::out_of_range(format!(
            "-n {n} disagrees with {sampler}, which has N = {fixed} items"
        )));
    }
    Ok(fixed)
}

/// The lines after the chosen test's plan: zero-weight picks, every test's
/// plan, the tests not run and what the audit as a whole reaches.
fn audit_lines(plan: &AuditPlan<Samplers>) -> String {
    let details = &plan.details;
    let mut out = String::new();
    if let Some(i) = &details.impossible_picks {
        let trials = i
            .trials_for_power
            .map_or("more than 2^64".into(), thousands);
        let seen = i.pilot_picks.map_or(String::new(), |picks| {
            format!(" (estimated: {} such picks in the pilot)", thousands(picks))
        });
        out.push_str(&format!(
            "  zero-weight items are picked with probability {:.4e} per pick{seen}: the first \
             such pick is certain bias (p = 0); {trials} picks catch one with {:.0}% \
             probability\n",
            i.rate,
            plan.power * 100.0
        ));
    }
    out.push_str("every test of the audit, at this level:\n");
    let width = plan
        .tests
        .iter()
        .map(|t| t.test.name().len())
        .max()
        .unwrap_or(0);
    for t in &plan.tests {
        let runs = format!(
            "runs from {} trials",
            thousands(t.details.effect().approximation_trials)
        );
        let line = match &t.details.outcome {
            PlanOutcome::Planned(p) => match p.trials_range {
                Some(r) => format!(
                    "about {} trials for power (interval {r}; {runs})",
                    thousands(p.trials)
                ),
                None => format!("{} trials for power ({runs})", thousands(p.trials)),
            },
            // The reason's first clause ("no bias", "the effect is not
            // distinguishable from zero at this pilot size").
            PlanOutcome::NoPlan { reason, .. } => {
                let head = reason.split(": ").next().unwrap_or(reason);
                format!("no plan: {head} ({runs})")
            }
        };
        out.push_str(&format!("  {:width$}  {line}\n", t.test.name()));
    }
    // Tests not run, grouped by reason.
    let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
    for t in &plan.not_run {
        match reasons.iter_mut().find(|(why, _)| *why == t.why) {
            Some((_, tests)) => tests.push(t.test.name()),
            None => reasons.push((&t.why, vec![t.test.name()])),
        }
    }
    for (why, tests) in reasons {
        out.push_str(&format!("  not run: {}: {why}\n", tests.join(", ")));
    }
    // The fewest trials by which some route reaches the power: the best
    // test in its range, or else a first zero-weight pick.
    match plan.trials_for_power {
        Some(trials) => out.push_str(&format!(
            "the audit has at least {:.0}% power from {}{} trials on ({})\n",
            plan.power * 100.0,
            if matches!(details.law, LawOrigin::Pilot { .. }) {
                "about "
            } else {
                ""
            },
            thousands(trials),
            match plan.best() {
                Some(b) if b.details.recommended_trials() == Some(trials) => {
                    format!("its {} test, in its range", b.test)
                }
                _ => "its first zero-weight pick".to_string(),
            }
        )),
        None => out.push_str("no test of the audit gives a plan\n"),
    }
    out
}

/// "1 test", "3 tests".
fn count(m: usize, noun: &str) -> String {
    match m {
        1 => format!("1 {noun}"),
        m => format!("{m} {noun}s"),
    }
}
