//! Issue 22 (D3): "trials for 90% power" holds where it is printed, small
//! plans included. The non-central χ² behind a plan is only a first guess
//! at a handful of trials (the serial test has no pairs at T = 1, a pooled
//! chi-square of one trial has one group, the position-by-value statistic of
//! one permutation is a constant), so small plans are found by simulation.
//! Here seeded audits at the printed plan, on seeds the planner never used,
//! detect the bias about as often as promised.

use rayon::prelude::*;
use shuffle_audit::audit::{self, Spec, no_progress};
use shuffle_audit::power::{self, AuditPlan};
use shuffle_audit::shuffle::{Algorithm, ShuffleOptions, Shuffles, TestKind, TestSet};
use shuffle_audit::source::SourceKind;

const ALPHA: f64 = 0.001;
const POWER: f64 = 0.9;
/// Audits at each checked trial count.
const RUNS: u64 = 200;
/// Seeds of the checking audits: far from the planner's
/// (`power::simulate::SIMULATION_SEED` + i) and the pilots'.
const CHECK_SEED: u64 = 1_000_000;

fn spec(alg: &str, n: usize, trials: u64, tests: &str, seed: u64) -> Spec<Shuffles> {
    Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(TestSet::parse(tests, n).unwrap()),
        ..Spec::new(
            Algorithm::parse(alg).unwrap(),
            n,
            trials,
            SourceKind::Chacha8.into(),
            seed,
        )
    }
}

/// The plan printed for one audit of `alg` (judged alone, M = 1) of
/// `pilot` trials.
fn plan_of(alg: &str, n: usize, tests: &str, pilot: u64) -> AuditPlan<Shuffles> {
    let a = audit::run(&spec(alg, n, pilot, tests, 20_261_121), ALPHA, &no_progress).unwrap();
    power::plan_audit(&a, ALPHA, 1, POWER)
}

/// Of `RUNS` seeded audits at `trials`, how many the run would call biased
/// (the audit's own Holm-corrected p-value at most α; M = 1).
fn detected(alg: &str, n: usize, trials: u64, tests: &str) -> u64 {
    (0..RUNS)
        .into_par_iter()
        .filter(|&i| {
            let a = audit::run(
                &spec(alg, n, trials, tests, CHECK_SEED + i),
                ALPHA,
                &no_progress,
            )
            .unwrap();
            a.log10_p() <= ALPHA.log10()
        })
        .count() as u64
}

/// Detections of `RUNS` not significantly below 90% (one-sided binomial
/// p above 0.01: at least 171). Since issue 38 a plan is the smallest count
/// whose simulated power has a 95% lower bound of 90% (371 of 400 seeded
/// audits), so plans deliver 90% or more on fresh seeds.
fn holds(hits: u64) -> bool {
    hits >= 171
}

/// The fewest runs needed on the planner's own seeds.
fn needed() -> u64 {
    power::simulate::runs_needed(power::simulate::SIMULATED_RUNS, POWER)
}

/// (algorithm, n, tests, pilot trials, plan below 50?)
const SIX: [(&str, usize, &str, u64, bool); 6] = [
    ("rotation", 10, "default", 100_000, true),
    ("insert-last", 52, "default", 100_000, true),
    ("random-swap", 52, "default", 100_000, true),
    ("riffle:k=7", 52, "default", 100_000, false),
    ("naive-swap", 52, "position-value", 20_000, false),
    ("riffle:k=7", 10, "default", 100_000, false),
];

/// Three shuffle plans below 50 trials and three above: 200 seeded audits
/// at each printed plan detect the bias at least about 90% of the time
/// ([`holds`]), and where they detect it more than 95% of the time, one
/// trial fewer detects it less than 95% of the time (the plan is not
/// wildly conservative).
#[test]
fn six_printed_plans_hold_in_simulation() {
    for (alg, n, tests, pilot, small) in SIX {
        let start = std::time::Instant::now();
        let plan = plan_of(alg, n, tests, pilot);
        let t = plan
            .trials_for_power
            .unwrap_or_else(|| panic!("{alg} n={n}: no plan: {plan:#?}"));
        assert_eq!(t < 50, small, "{alg} n={n}: plan {t}");
        let hits = detected(alg, n, t, tests);
        println!(
            "{alg} n={n} tests={tests}: plan {t} ({}), detected {hits}/{RUNS}, {:.1}s",
            plan.details
                .simulation
                .as_ref()
                .map_or("χ²".to_string(), |s| s.words()),
            start.elapsed().as_secs_f64()
        );
        // Power can step from below 90% to nearly 100% in one trial where
        // p-values are discrete (rotation at n = 10: 13 and 14 trials); then
        // the plan must be that step, the fewest trials detecting 90%.
        let below = (hits > 190).then(|| detected(alg, n, t - 1, tests));
        assert!(
            holds(hits) && below.is_none_or(|b| b < 190),
            "{alg} n={n}: {hits}/{RUNS} detected at the printed plan of {t}, {below:?} at {}",
            t - 1
        );
    }
}

/// The D3 cases of issue 22, each a plan printed from a large run that
/// failed at its own trial count (0–71 of 100 detected): now each plan
/// holds on fresh seeded audits ([`holds`]), and one fewer falls short of
/// 95%. Where the power jumps
/// (a pooled table gains a group, a test gains its first pair), the plan
/// can be detected more often than 95%; the count below it then clearly
/// falls short.
#[test]
fn the_d3_cases_print_plans_that_hold() {
    // (algorithm, n, the plan printed before the fix)
    let cases = [
        ("rotation", 10, 1),
        ("shrinking-range", 10, 3),
        ("shrinking-range", 52, 1),
        ("sort-random-comparator", 52, 1),
        ("rotation", 52, 2),
        ("insert-last", 52, 8),
        ("random-swap", 52, 9),
    ];
    for (alg, n, before) in cases {
        let plan = plan_of(alg, n, "default", 100_000);
        let Some(t) = plan.trials_for_power else {
            println!("{alg} n={n}: no plan ({:?})", plan.details.no_power_reason);
            continue;
        };
        let hits = detected(alg, n, t, "default");
        let below = detected(alg, n, t - 1, "default");
        println!(
            "{alg} n={n}: plan {before} before, {t} now; detected {hits}/{RUNS} at {t}, \
             {below}/{RUNS} at {}",
            t - 1
        );
        assert!(t > before, "{alg} n={n}: plan {t}");
        assert!(holds(hits), "{alg} n={n}: {hits}/{RUNS} at the plan {t}");
        assert!(
            below < 190,
            "{alg} n={n}: {below}/{RUNS} at {}: the plan {t} is not the smallest",
            t - 1
        );
    }
}

/// A test that cannot reject at the χ² plan's trial count gives no plan of
/// its own: the position-by-value test of a sparse table (its χ² plan is 4
/// trials for shrinking-range at n = 52, with 0.08 expected per cell) is
/// withdrawn, with the reason, while simulated structure tests keep theirs;
/// the serial test, which sees no dependence in a memoryless shuffle, says
/// its effect cannot be told from zero.
#[test]
fn plans_that_cannot_hold_are_withdrawn_with_a_reason() {
    let test_of =
        |plan: &AuditPlan<Shuffles>, kind: TestKind| plan.test(kind).unwrap().details.clone();
    let sparse = test_of(
        &plan_of("shrinking-range", 52, "default", 100_000),
        TestKind::PositionValue,
    );
    let t = sparse.chi_square_trials.expect("a χ² plan");
    assert!(t < sparse.trials_for_approximation, "{sparse:?}");
    assert_eq!(sparse.trials_for_power, None);
    assert!(
        sparse
            .reason
            .as_deref()
            .unwrap()
            .contains("approximation needs"),
        "{sparse:?}"
    );
    let plan = plan_of("rotation", 10, "default", 100_000);
    let serial = test_of(&plan, TestKind::Serial);
    assert_eq!(serial.trials_for_power, None, "{serial:?}");
    assert!(serial.reason.is_some(), "{serial:?}");
    let fixed = test_of(&plan, TestKind::FixedPoints);
    let sim = fixed
        .simulation
        .as_ref()
        .expect("a simulated structure plan");
    assert_eq!(fixed.trials_for_power, Some(sim.trials));
    assert!(sim.detected >= needed());
    // The battery's own plan is the simulated audits'.
    let sim = plan.details.simulation.as_ref().expect("simulated audits");
    assert_eq!(plan.trials_for_power, Some(sim.trials));
    assert_eq!(sim.runs, power::simulate::SIMULATED_RUNS);
    assert!(sim.detected >= needed() && sim.fewer.unwrap().trials == sim.trials - 1);
    assert!(sim.power_lower_bound >= POWER, "{sim:?}");
}

/// A battery with the whole-permutation test (on by default up to n = 8)
/// is planned by simulation without repeating its costly Monte Carlo
/// p-values: the simulated audits leave it out but keep its share of the
/// correction, so the plan is a safe one, and audits with it detect the
/// bias at least as often.
#[test]
fn a_battery_with_the_permutation_test_is_simulated_quickly_and_safely() {
    let start = std::time::Instant::now();
    let plan = plan_of("rotation", 5, "default", 50_000);
    let sim = plan.details.simulation.as_ref().expect("simulated audits");
    assert!(
        start.elapsed().as_secs_f64() < 10.0,
        "{:?}",
        start.elapsed()
    );
    let t = plan.trials_for_power.unwrap();
    assert_eq!(sim.trials, t);
    let hits = detected("rotation", 5, t, "default");
    println!(
        "rotation n=5: plan {t} ({}), detected {hits}/{RUNS}",
        sim.words()
    );
    assert!(hits >= 180, "{hits}/{RUNS} at {t}");
}
