//! Sampler power plans hold up: audits of a biased sampler run at the
//! planned trial count detect the bias about as often as planned, through
//! the planned test at the planned level, and the audit as a whole at least
//! as often (the plan is a lower bound); at a quarter of the plan they
//! clearly do not (the plan is not wildly conservative).

use rayon::prelude::*;
use shuffle_audit::audit::{self, Spec, no_progress};
use shuffle_audit::power::PlanOutcome;
use shuffle_audit::power::sampler::{LawOrigin, SamplerPowerSpec, plan_sampler};
use shuffle_audit::sampler::{SampleTest, Sampler, SamplerOptions, Samplers};
use shuffle_audit::source::{SourceKind, SourceSpec};
use shuffle_audit::stats::Verdict;
use shuffle_audit::stats::special::binomial_band;

const ALPHA: f64 = 0.001;
const POWER: f64 = 0.9;
/// Seeded audits per trial count.
const RUNS: u64 = 200;

/// (planned test rejections at its level, audits judged biased) among
/// `RUNS` seeded audits of `trials` trials.
fn detections(
    sampler: Sampler,
    n: usize,
    weights: &Option<Vec<u64>>,
    trials: u64,
    test: SampleTest,
    level: f64,
    seed: u64,
) -> (u64, u64) {
    let source: SourceSpec = SourceKind::Chacha8.into();
    let outcomes: Vec<(bool, bool)> = (0..RUNS)
        .into_par_iter()
        .map(|i| {
            let spec = Spec::<Samplers>::new(sampler, n, trials, source, seed + i).with_options(
                SamplerOptions {
                    weights: weights.clone(),
                },
            );
            let a = audit::run(&spec, ALPHA, &no_progress).unwrap();
            let planned = a
                .tests()
                .iter()
                .find(|t| t.test == test)
                .is_some_and(|t| t.log10_p <= level.log10());
            (planned, a.verdict() == Verdict::Biased)
        })
        .collect();
    let count = |f: fn(&(bool, bool)) -> bool| outcomes.iter().filter(|o| f(o)).count() as u64;
    (count(|o| o.0), count(|o| o.1))
}

#[test]
fn sampler_plans_hold_up_in_simulation() {
    // (sampler, N, weights, test)
    let cases: [(&str, usize, Option<Vec<u64>>, SampleTest); 3] = [
        ("reservoir-off-by-one:k=3", 10, None, SampleTest::Inclusion),
        (
            "weighted-off-by-one",
            3,
            Some(vec![5, 6, 7]),
            SampleTest::Picks,
        ),
        ("linear-probe:k=3", 10, None, SampleTest::Pairs),
    ];
    let (lo, hi) = binomial_band(RUNS, POWER, 0.999);
    // The plan rests on asymptotic non-central chi-square laws at a few
    // hundred trials: allow 4 points beyond the exact binomial band.
    let slack = (0.04 * RUNS as f64) as u64;
    for (k, (name, n, weights, test)) in cases.iter().enumerate() {
        let sampler = Sampler::parse(name).unwrap();
        let mut spec = SamplerPowerSpec {
            alpha: ALPHA,
            power: POWER,
            ..SamplerPowerSpec::new(sampler, *n, SourceKind::Chacha8.into())
        };
        if let Some(w) = weights {
            spec = spec.with_weights(w.clone());
        }
        let plan = plan_sampler(&spec).unwrap();
        assert_eq!(plan.details.law, LawOrigin::Exact { fair: false }, "{name}");
        let planned = plan.test(*test).unwrap();
        let PlanOutcome::Planned(p) = &planned.details.outcome else {
            panic!("{name}: {planned:?}")
        };
        let t = p.trials;
        assert!(t >= p.approximation_trials, "{name}: in the test's range");
        let seed = 1_000_000 * (k as u64 + 1);
        let (hit, biased) = detections(sampler, *n, weights, t, *test, plan.level, seed);
        let quarter = t / 4;
        let (hit4, biased4) = detections(
            sampler,
            *n,
            weights,
            quarter,
            *test,
            plan.level,
            seed + 500_000,
        );
        println!(
            "{name} N={n} {test}: level {:.3e} ({} tests), planned T = {t} (test runs from {}): \
             {test} rejects {hit}/{RUNS}, audit biased {biased}/{RUNS}; at T/4 = {quarter}: \
             {hit4}/{RUNS} and {biased4}/{RUNS} (band {lo}..={hi})",
            plan.level, plan.tests_in_audit, p.approximation_trials
        );
        assert!(
            hit + slack >= lo && hit <= hi + slack,
            "{name}: the {test} test rejected {hit}/{RUNS} at the planned {t}"
        );
        assert!(
            biased + slack >= lo,
            "{name}: the audit found bias {biased}/{RUNS} at the planned {t}"
        );
        assert!(
            (hit4 as f64) < 0.5 * RUNS as f64 && (biased4 as f64) < 0.75 * RUNS as f64,
            "{name}: {hit4}/{RUNS} ({biased4} biased) at T/4 = {quarter}: the plan is far too \
             conservative"
        );
    }
}
