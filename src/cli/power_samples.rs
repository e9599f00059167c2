//! `shuffle-audit power -a SAMPLER`: how many trials a sampler audit needs
//! to see the sampler's bias, test by test (`power::sampler`).

use super::power::{PowerArgs, effect_lines, level_text, outcome_effect, outcome_lines};
use crate::error::ErrorKind;
use crate::output::thousands;
use crate::power::sampler::{LawOrigin, SamplerPowerSpec, parse_sample_test, plan_sampler};
use crate::power::{AuditPlan, PILOT_TRIALS, PlanOutcome, TestPlan};
use crate::request::parse_weights;
use crate::sampler::SampleTest;
use crate::sampler::{Sampler, Samplers, Shape};
use crate::source::SourceSpec;
use crate::{Error, Result};
use serde::Serialize;

/// The JSON document: the chosen test's plan (as the shuffle command
/// prints it), what it is of, and the plan of the whole audit.
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

/// Plans the audit of `sampler` and prints the chosen test's plan and
/// every test's.
pub fn run(args: &PowerArgs, sampler: Sampler) -> Result<i32> {
    let weighted = sampler.record().shape == Shape::Weighted;
    let weights = args.weights.as_deref().map(parse_weights).transpose()?;
    match (weighted, &weights) {
        (false, Some(_)) => {
            return Err(Error::of_kind(
                ErrorKind::Unsupported,
                format!(
                    "--weights is for weighted picks (weighted-prefix, alias, \
                     weighted-off-by-one); {sampler} takes none"
                ),
            ));
        }
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
        audits_in_run: super::power::alpha_divisor(args)? as usize,
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
    if args.json {
        let doc = Document {
            sampler: &plan.details.sampler,
            n: plan.details.n,
            k: plan.details.k,
            rng: &args.rng,
            test: chosen.test,
            outcome: &chosen.details.outcome,
            audit: &plan,
        };
        println!("{}", serde_json::to_string_pretty(&doc).expect("JSON"));
        return Ok(0);
    }
    print!("{}", render(&plan, chosen, &args.rng));
    Ok(0)
}

/// N: the board's cells or the number of weights (a disagreeing -n is
/// refused), else -n, else the default.
fn population(args: &PowerArgs, sampler: Sampler, weights: Option<&[u64]>) -> Result<usize> {
    let Some(fixed) = sampler.population().or(weights.map(<[u64]>::len)) else {
        return Ok(args.n.unwrap_or(crate::spec::DEFAULT_N));
    };
    if let Some(n) = args.n.filter(|&n| n != fixed) {
        return Err(Error::of_kind(
            ErrorKind::OutOfRange,
            format!("-n {n} disagrees with {sampler}, which has N = {fixed} items"),
        ));
    }
    Ok(fixed)
}

/// The chosen test's plan, then every test's, then what the audit as a
/// whole reaches.
fn render(plan: &AuditPlan<Samplers>, chosen: &TestPlan<Samplers>, rng: &str) -> String {
    let details = &plan.details;
    let effect = outcome_effect(&chosen.details.outcome);
    let mut out = format!(
        "{} at N = {} (k = {}), rng {rng}, {} test (df {}):\n",
        details.sampler, details.n, details.k, chosen.test, effect.df
    );
    out.push_str(&effect_lines(effect, "sampler"));
    if let LawOrigin::Pilot { why_not_exact, .. } = &details.law {
        out.push_str(&format!("  not from the exact law: {why_not_exact}\n"));
    }
    out.push_str(&format!(
        "  level: alpha {} / ({} in the audit x {} in the run) = {} (Holm)\n",
        plan.alpha,
        count(plan.tests_in_audit, "test"),
        count(plan.audits_in_run, "audit"),
        level_text(plan.level)
    ));
    out.push_str(&outcome_lines(
        &chosen.details.outcome,
        &approximation_label(chosen),
    ));
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

/// What the trials before the test runs mean for `t`.
fn approximation_label(t: &TestPlan<Samplers>) -> String {
    if t.details.runs_sparse {
        format!(
            "trials for the {} test's chi-square law (5 expected per cell; sparser tables are \
             judged by collisions)",
            t.test
        )
    } else {
        format!(
            "trials before the {} test runs (5 expected per cell, a statistic close to its law)",
            t.test
        )
    }
}
