//! Checking small plans by simulation.
//!
//! Every plan starts from the non-central χ² law of its test's statistic,
//! an approximation for many trials. At a handful of trials it can be false:
//! a test may be unable to reject at all (the serial test has no pair of
//! deals at T = 1, a pooled chi-square of one trial has one group and no
//! degrees of freedom, the position-by-value statistic of one permutation is
//! a constant), and a table with a fraction of a count per cell does not
//! follow the approximation's law. So a plan below [`SIMULATE_BELOW`] trials
//! is searched for again by simulation wherever the test can be simulated
//! honestly:
//! - a built-in algorithm: seeded audits of the algorithm itself, the whole
//!   battery the user's audit runs, judged by every test, tail and
//!   correction exactly as that audit judges them (`audits`);
//! - a structure test whose statistic is one histogram (fixed points,
//!   cycles, rising sequences, clumping): seeded multinomial draws of that
//!   histogram from its law under the shuffle (exact, or as the audit
//!   observed it), judged by the test's own p-value code.
//!
//! **The rule (issue 38).** A trial count T *holds* when the simulated
//! detection rate at T clears the requested power with confidence: of
//! [`SIMULATED_RUNS`] seeded runs at least [`runs_needed`] detect, the
//! fewest whose one-sided [`CONFIDENCE`] (95%) Clopper–Pearson lower bound
//! on the power is at least the power asked for (for 90% power and 400
//! runs: 371, a detection rate of 92.75%). The plan is the smallest T that
//! holds, found by doubling from a first guess and then bisecting. Taking
//! the first T whose point estimate cleared 90% (the rule before, with 200
//! runs: 180) picked, among neighbouring T of nearly equal power, the one
//! whose seeds happened to be lucky, and delivered about 88% on fresh
//! seeds; the margin of the lower bound pays for that winner's curse.
//!
//! Run i draws from seed [`SIMULATION_SEED`] + i at every T (for a built-in
//! algorithm, a run of T trials is the first T trials of the same run at
//! more), so the detections grow with T run by run and the search is
//! deterministic; those seeds are far from any a user types, so a plan is
//! never checked on the seeds that found it. A count whose misses already
//! exceed what [`runs_needed`] allows stops early (the decision is the same
//! as after all runs). Where a test cannot be simulated honestly (its
//! statistic depends on more than the counts kept, or the simulation would
//! cost more than [`SIMULATION_WORK`]), [`super::plan_audit`] gives no plan
//! below the trials its approximation needs rather than a false one.

use crate::audit::{self, Kind, Spec};
use crate::engine::{self, no_progress};
use crate::error::Result;
use crate::spec::{TestKind, TestSet};
use crate::stats::gof;
use crate::subject::Shuffles;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;
use statrs::function::gamma::ln_gamma;

/// Plans whose χ² first guess is below this many trials are searched for
/// again by simulation (where the test can be simulated): below it the
/// approximation is doubtful and a simulation is cheap.
pub const SIMULATE_BELOW: u64 = 300;

/// Seeded runs behind each simulated detection rate: 371 of 400 must detect
/// for 90% power, so a trial count whose true power is 95% holds nearly
/// always, one at 93% about three times in four, and one at 89% with
/// probability below 1%. (More runs would cut the margin, and cost as much
/// more: every simulated audit's tails are judged as the audit judges them.)
pub const SIMULATED_RUNS: u64 = 400;

/// The one-sided confidence of the lower bound on a simulated power that
/// must clear the power asked for (see [`runs_needed`]).
pub const CONFIDENCE: f64 = 0.95;

/// The first seed of the simulated runs: run i uses `SIMULATION_SEED + i`
/// at every trial count, whatever the seed of the audit being planned, so a
/// plan found by simulation depends only on what is simulated.
pub const SIMULATION_SEED: u64 = 0x005E_ED0F_91A4;

/// The most trials a simulated search tries: beyond, the χ² plan is left
/// to stand or fall on its own.
pub const MAX_SIMULATED_TRIALS: u64 = 8 * SIMULATE_BELOW;

/// The most work a simulation of audits may do, in shuffled items (trials ×
/// n, plus [`AUDIT_OVERHEAD_WORK`] per audit for its tests), summed over
/// every run of the search: a few seconds on two cores.
pub const SIMULATION_WORK: u64 = 300_000_000;

/// What evaluating one small audit's tests costs, in shuffled items.
pub const AUDIT_OVERHEAD_WORK: u64 = 4_000;

/// Runs evaluated together before deciding whether to stop early.
const BATCH: u64 = 50;

/// What a simulation draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SimulationMethod {
    /// Whole audits of the built-in algorithm, judged as the run judges
    /// them.
    Audits,
    /// Multinomial draws of one test's histogram from its law under the
    /// shuffle, judged by that test's p-value.
    Counts,
}

/// Detections among simulated runs at one trial count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SimulatedRate {
    /// Trials per run.
    pub trials: u64,
    /// Runs evaluated (fewer than [`SIMULATED_RUNS`] when the count was
    /// stopped early because it could no longer reach the power).
    pub runs: u64,
    /// Runs that rejected.
    pub detected: u64,
}

/// A plan found by simulation: the fewest trials at which at least the
/// requested share of seeded runs detected the bias.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Simulation {
    /// What was simulated.
    pub method: SimulationMethod,
    /// The plan.
    pub trials: u64,
    /// Runs at each trial count ([`SIMULATED_RUNS`]).
    pub runs: u64,
    /// Runs that detected the bias at `trials`.
    pub detected: u64,
    /// The one-sided [`CONFIDENCE`] Clopper–Pearson lower bound on the
    /// power at `trials` from `detected` of `runs`: at least the power asked
    /// for, which is what made `trials` the plan.
    pub power_lower_bound: f64,
    /// The largest trial count below `trials` that was tried and fell short
    /// (`None` when none was tried, e.g. the plan is 1).
    pub fewer: Option<SimulatedRate>,
    /// The level each run was judged at: the audit's own p-value against
    /// α/M for [`SimulationMethod::Audits`], the test's p-value against
    /// α/(m·M) for [`SimulationMethod::Counts`].
    pub level: f64,
    /// The first seed ([`SIMULATION_SEED`]).
    pub seed: u64,
}

impl Simulation {
    /// The simulated evidence in words: "380 of 400 seeded audits at 14
    /// trials detect it (power at least 0.926 with 95% confidence; 350 of
    /// 400 at 13)".
    pub fn words(&self) -> String {
        let what = match self.method {
            SimulationMethod::Audits => "seeded audits",
            SimulationMethod::Counts => "seeded simulations of the test",
        };
        let fewer = self.fewer.map_or(String::new(), |f| {
            if f.runs < self.runs {
                format!(
                    "; at {}: {} misses in the first {} runs, too many for the power",
                    f.trials,
                    f.runs - f.detected,
                    f.runs
                )
            } else {
                format!("; {} of {} at {}", f.detected, f.runs, f.trials)
            }
        });
        format!(
            "{} of {} {what} at {} trials detect it (power at least {:.3} with {:.0}% \
             confidence{fewer})",
            self.detected,
            self.runs,
            self.trials,
            self.power_lower_bound,
            100.0 * CONFIDENCE
        )
    }
}

/// The outcome of a simulated search.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Search {
    /// The plan, with how often each index (a test of the audit; 0 for a
    /// single test) decided a detection at it; `None` when the search
    /// stopped first (work or trial limit).
    pub found: Option<(Simulation, Vec<u64>)>,
    /// The largest trial count tried that fell short of the power (0 when
    /// none did): a plan at or below it is contradicted by simulation.
    pub short_at: u64,
}

/// One trial count's simulated runs.
struct Rate {
    rate: SimulatedRate,
    pass: bool,
    by: Vec<u64>,
}

/// P(X ≥ x) for X ~ Binomial(n, p), summed exactly in log space.
pub fn binomial_sf(n: u64, x: u64, p: f64) -> f64 {
    if x == 0 {
        return 1.0;
    }
    if x > n || p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    let nf = n as f64;
    let ln_choose = |k: f64| ln_gamma(nf + 1.0) - ln_gamma(k + 1.0) - ln_gamma(nf - k + 1.0);
    (x..=n)
        .map(|k| {
            let k = k as f64;
            (ln_choose(k) + k * p.ln() + (nf - k) * (-p).ln_1p()).exp()
        })
        .sum::<f64>()
        .min(1.0)
}

/// The one-sided `confidence` Clopper–Pearson lower bound on a rate from
/// `detected` of `runs`: the p at which P(X ≥ detected) = 1 − confidence
/// (0 when nothing was detected), by bisection.
pub fn power_lower_bound(detected: u64, runs: u64, confidence: f64) -> f64 {
    if detected == 0 || runs == 0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if binomial_sf(runs, detected, mid) > 1.0 - confidence {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo
}

/// The fewest detections of `runs` whose one-sided [`CONFIDENCE`]
/// Clopper–Pearson lower bound on the power is at least `power`: the
/// smallest x with P(X ≥ x) ≤ 1 − [`CONFIDENCE`] for X ~ Binomial(runs,
/// power), i.e. the count at which an exact one-sided binomial test rejects
/// "the power is below `power`" at 5%. For 90% and 1,000 runs: 916.
pub fn runs_needed(runs: u64, power: f64) -> u64 {
    (0..=runs)
        .find(|&x| binomial_sf(runs, x, power) <= 1.0 - CONFIDENCE)
        .unwrap_or(runs + 1)
}

/// Evaluates runs at `trials` in batches until `runs` are done or the
/// misses exceed what `power` allows ([`runs_needed`]). `detect(trials,
/// run)` says whether a run rejected, and which index decided it.
fn rate_at<F>(trials: u64, runs: u64, power: f64, detect: &F) -> Result<Rate>
where
    F: Fn(u64, u64) -> Result<Option<usize>> + Sync,
{
    let need = runs_needed(runs, power);
    let (mut done, mut detected) = (0u64, 0u64);
    let mut by: Vec<u64> = Vec::new();
    while done < runs {
        let batch = BATCH.min(runs - done);
        let outcomes = (done..done + batch)
            .into_par_iter()
            .map(|run| detect(trials, run))
            .collect::<Result<Vec<_>>>()?;
        for k in outcomes.into_iter().flatten() {
            detected += 1;
            if by.len() <= k {
                by.resize(k + 1, 0);
            }
            by[k] += 1;
        }
        done += batch;
        if done - detected > runs.saturating_sub(need) {
            break;
        }
    }
    Ok(Rate {
        rate: SimulatedRate {
            trials,
            runs: done,
            detected,
        },
        pass: detected >= need,
        by,
    })
}

/// What a simulated search looks for: runs of `method` judged at `level`,
/// at least `power` of which must detect.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Goal {
    /// What is simulated.
    pub method: SimulationMethod,
    /// The level each run is judged at.
    pub level: f64,
    /// The power whose 95% lower bound the detections must reach.
    pub power: f64,
    /// The most trials tried (at most [`MAX_SIMULATED_TRIALS`]).
    pub most: u64,
}

/// The smallest T ≥ `floor` that holds (at least [`runs_needed`] of
/// [`SIMULATED_RUNS`] runs detect: a 95% lower bound on the power of at
/// least `goal.power`), searched from `guess` up by doubling,
/// then by bisection; each run at T costs `cost(T)` of a `budget`, and no
/// count beyond [`MAX_SIMULATED_TRIALS`] is tried. Counts below `floor` are
/// taken to fall short without being tried (the test cannot reject there).
pub(crate) fn search<F>(
    goal: Goal,
    guess: u64,
    floor: u64,
    cost: impl Fn(u64) -> u64,
    budget: u64,
    detect: F,
) -> Result<Search>
where
    F: Fn(u64, u64) -> Result<Option<usize>> + Sync,
{
    let Goal {
        method,
        level,
        power,
        most,
    } = goal;
    let most = most.min(MAX_SIMULATED_TRIALS);
    let runs = SIMULATED_RUNS;
    let floor = floor.max(1);
    let mut spent = 0u64;
    let mut out = Search {
        found: None,
        short_at: floor - 1,
    };
    let try_at = |t: u64, spent: &mut u64| -> Result<Option<Rate>> {
        let whole = cost(t).saturating_mul(runs);
        if t > most || spent.saturating_add(whole) > budget {
            return Ok(None);
        }
        let r = rate_at(t, runs, power, &detect)?;
        *spent += cost(t).saturating_mul(r.rate.runs);
        Ok(Some(r))
    };
    // Up from the guess until a count reaches the power.
    let mut t = guess.clamp(floor, most.max(floor));
    let mut short: Option<SimulatedRate> = None;
    let mut hi = loop {
        match try_at(t, &mut spent)? {
            None => return Ok(out),
            Some(r) if r.pass => break (t, r),
            Some(r) => {
                out.short_at = out.short_at.max(t);
                short = Some(r.rate);
                if t >= most {
                    return Ok(out);
                }
                t = (2 * t).min(most);
            }
        }
    };
    // Down by bisection between the last count that fell short and it.
    let mut lo = out.short_at;
    while hi.0 - lo > 1 {
        let mid = lo + (hi.0 - lo) / 2;
        match try_at(mid, &mut spent)? {
            // Out of work: the count found holds, if not the smallest.
            None => break,
            Some(r) if r.pass => hi = (mid, r),
            Some(r) => {
                lo = mid;
                out.short_at = out.short_at.max(mid);
                short = Some(r.rate);
            }
        }
    }
    let (trials, rate) = hi;
    out.found = Some((
        Simulation {
            method,
            trials,
            runs: rate.rate.runs,
            detected: rate.rate.detected,
            power_lower_bound: power_lower_bound(rate.rate.detected, rate.rate.runs, CONFIDENCE),
            fewer: short.filter(|s| s.trials < trials),
            level,
            seed: SIMULATION_SEED,
        },
        rate.by,
    ));
    Ok(out)
}

/// How a simulated audit's tests take their p-values in the tail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tails {
    /// As the audit does, table by table: the plan of `power`, which a
    /// user runs next and which must hold for it.
    AsAudited,
    /// From null samples shared by every table of a size
    /// ([`gof::with_shared_nulls`]) and within [`REPORT_SIMULATION_WORK`]:
    /// the "trials advised" an audit's own report states, which must cost
    /// little beside the audit (judged table by table, a riffle's report
    /// plan took 30 s after a 0.1 s audit). It may differ from `power`'s
    /// by the runs whose tables sit near the level; `power` is the plan to
    /// follow.
    Shared,
}

/// The work a report's simulated plan may spend (`Tails::Shared`).
pub const REPORT_SIMULATION_WORK: u64 = 40_000_000;

/// Simulates seeded audits of `spec` (a built-in algorithm's run with the
/// battery the user's audit runs; its trials and seed are replaced) to find
/// the fewest trials that hold (a 95% lower bound on the share rejecting at
/// `level` of at least `power`, see the module docs): an audit rejects when
/// its own p-value (the smallest Holm-adjusted p of its m tests, m times
/// the smallest raw p) is at most `level`, α/M for an audit judged among M
/// (Holm's first step across the run). Searches from `guess` (the χ² plan),
/// trying no count above `most`.
///
/// Each simulated audit's tests are judged by the audit's own code, tails
/// included: an exact tail where the audit enumerates one, and otherwise
/// the table's own seeded Monte Carlo p-value, as `audit` computes it for
/// that table. (Until issue 38 the tails came from one null sample shared by
/// every table of a size, a fixed threshold the audit does not use, so the
/// planner and the audit disagreed on tables near the level.)
///
/// The whole-permutation test of a sparse table takes a Monte Carlo p-value
/// of up to [`gof::MONTE_CARLO_REPLICATES`] simulated tables, too costly to
/// repeat for hundreds of audits: beside other tests it is left out of the
/// simulated audits, which still count m tests for the correction (some
/// other test's raw p at most `level`/m), so the plan is a safe one (the
/// left-out test could only add detections); alone, its cost is counted.
///
/// Returns the search with the test kinds its decider indices stand for
/// (each detection is credited to the test with the smallest p-value).
pub(crate) fn audits(
    spec: &Spec<Shuffles>,
    level: f64,
    power: f64,
    guess: u64,
    most: u64,
    tails: Tails,
) -> Result<(Search, Vec<TestKind>)> {
    let m = spec.options.tests.iter().count().max(1);
    let log10_level = level.log10() - (m as f64).log10();
    let all: Vec<TestKind> = spec.options.tests.iter().collect();
    let (kinds, simulated) = if all.len() > 1 && all.contains(&TestKind::Permutation) {
        let kinds: Vec<TestKind> = all
            .into_iter()
            .filter(|&k| k != TestKind::Permutation)
            .collect();
        let mut tests = TestSet::of_kinds(kinds.clone());
        if let Some(bins) = spec.options.tests.chosen_bins() {
            tests = tests.with_bins(bins, spec.n)?;
        }
        let mut spec = spec.clone();
        spec.options.tests = tests;
        (spec.options.tests.iter().collect(), spec)
    } else {
        (all, spec.clone())
    };
    let n = spec.n as u64;
    // Trials below which the permutation test's table is sparse (5 per
    // outcome): a Monte Carlo p-value.
    let sparse_below = if kinds.contains(&TestKind::Permutation) {
        crate::permutation::factorial(spec.n) as u64 * 5
    } else {
        0
    };
    let detect = |trials: u64, run: u64| -> Result<Option<usize>> {
        let spec = Spec {
            trials,
            seed: SIMULATION_SEED.wrapping_add(run),
            // Inside the pool: never a dedicated one per run.
            threads: None,
            ..simulated.clone()
        };
        let tally = Shuffles::count(&spec, spec.chunks(), &no_progress)?;
        // Judged exactly as the audit judges, tails included (at these
        // small trial counts the law alone can be far off): the same exact
        // tails and the same per-table Monte Carlo p-values.
        let results = match tails {
            Tails::AsAudited => audit::tested(&spec, &tally).results,
            Tails::Shared => gof::with_shared_nulls(|| audit::tested(&spec, &tally).results),
        };
        let best = results
            .iter()
            .min_by(|a, b| a.log10_p.total_cmp(&b.log10_p))
            .filter(|r| r.log10_p <= log10_level);
        Ok(best.map(|r| {
            kinds
                .iter()
                .position(|&k| k == r.test)
                .unwrap_or(kinds.len())
        }))
    };
    let goal = Goal {
        method: SimulationMethod::Audits,
        level,
        power,
        most,
    };
    let cost = |t: u64| {
        let monte_carlo = if t < sparse_below {
            t.saturating_mul(gof::MONTE_CARLO_REPLICATES as u64)
        } else {
            0
        };
        t.saturating_mul(n)
            .saturating_add(AUDIT_OVERHEAD_WORK)
            .saturating_add(monte_carlo)
    };
    // On the run's own workers (`--threads`), as its audit ran.
    let search = engine::in_pool(spec.threads, || {
        let budget = match tails {
            Tails::AsAudited => SIMULATION_WORK,
            Tails::Shared => REPORT_SIMULATION_WORK,
        };
        search(goal, guess, 1, cost, budget, detect)
    })??;
    Ok((search, kinds))
}

/// Simulates a test whose statistic is the histogram of one structure
/// statistic: T trials' categories drawn (seeded) from `alt`, the law under
/// the shuffle, and judged by [`gof::chi_square_by_law`] against `null` (the
/// test's own pooling and exact law, without its exact or Monte Carlo tail) at
/// `level`. Searches from
/// `guess` (the χ² plan), never below `floor` (the trials at which the
/// pooled table has two groups, the least it needs to reject at all).
pub(crate) fn counts(
    null: &[f64],
    alt: &[f64],
    level: f64,
    power: f64,
    guess: u64,
    floor: u64,
) -> Result<Search> {
    let log10_level = level.log10();
    let total: f64 = alt.iter().map(|p| p.max(0.0)).sum();
    let cdf: Vec<f64> = alt
        .iter()
        .scan(0.0, |acc, p| {
            *acc += p.max(0.0) / total;
            Some(*acc)
        })
        .collect();
    let last = cdf.len().saturating_sub(1);
    let detect = |trials: u64, run: u64| -> Result<Option<usize>> {
        let mut rng =
            rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(SIMULATION_SEED.wrapping_add(run));
        let mut histogram = vec![0u64; cdf.len()];
        for _ in 0..trials {
            let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
            let k = cdf.partition_point(|&c| c <= u).min(last);
            histogram[k] += 1;
        }
        // The law alone: the tail's Monte Carlo would cost up to 10^5
        // tables per simulated audit near the level.
        let g = gof::chi_square_by_law(&histogram, null);
        Ok((g.log10_p <= log10_level).then_some(0))
    };
    let goal = Goal {
        method: SimulationMethod::Counts,
        level,
        power,
        most: MAX_SIMULATED_TRIALS,
    };
    search(goal, guess, floor, |t| t, u64::MAX, detect)
}

/// Whether `test`'s statistic is one histogram of a structure statistic,
/// which [`counts`] can simulate from its law alone.
pub(crate) fn one_histogram(test: TestKind) -> bool {
    matches!(
        test,
        TestKind::FixedPoints | TestKind::Cycles | TestKind::RisingSequences | TestKind::Clumping
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOAL: Goal = Goal {
        method: SimulationMethod::Counts,
        level: 0.001,
        power: 0.9,
        most: MAX_SIMULATED_TRIALS,
    };

    /// A deterministic toy: run r detects from T = 10 + r % 20 on; the
    /// search finds the smallest T whose 95% lower bound on the detection
    /// rate clears 90% (exactly 90% is not enough: the margin), and says how
    /// short the count below fell.
    #[test]
    fn the_search_finds_the_smallest_count_that_holds() {
        let detect = |t: u64, run: u64| Ok((t >= 10 + run % 20).then_some(0));
        let s = search(GOAL, 3, 1, |t| t, u64::MAX, detect).unwrap();
        let (sim, by) = s.found.unwrap();
        // 18 of every 20 runs detect at T = 27 (360 of 400: a point
        // estimate of 90%, lower bound 0.873), 19 of 20 at T = 28.
        assert_eq!(sim.trials, 28);
        assert_eq!(sim.runs, SIMULATED_RUNS);
        assert_eq!(sim.detected, 380);
        assert_eq!(by, vec![380]);
        assert!(sim.power_lower_bound >= 0.9 && sim.power_lower_bound < 0.95);
        assert_eq!(s.short_at, 27);
        let fewer = sim.fewer.unwrap();
        assert_eq!(fewer.trials, 27);
        assert!(fewer.detected < runs_needed(SIMULATED_RUNS, 0.9));
        // A floor above the answer is respected; a budget too small for a
        // single count gives nothing.
        let s = search(GOAL, 3, 40, |t| t, u64::MAX, detect).unwrap();
        assert_eq!(s.found.unwrap().0.trials, 40);
        let s = search(GOAL, 3, 1, |t| t, 10, detect).unwrap();
        assert!(s.found.is_none());
    }

    /// A histogram far from its null law is detected with few trials, and
    /// never below the floor the pooled test needs.
    #[test]
    fn counts_are_judged_by_the_tests_own_p_value() {
        let null = vec![0.5, 0.25, 0.25];
        let alt = vec![0.1, 0.45, 0.45];
        let s = counts(&null, &alt, 1e-3, 0.9, 50, 20).unwrap();
        let sim = s.found.unwrap().0;
        assert!(sim.trials >= 20 && sim.trials < 100, "{sim:?}");
        assert!(sim.detected >= runs_needed(SIMULATED_RUNS, 0.9));
        // The same law as the null is never detected.
        let s = counts(&null, &null, 1e-3, 0.9, 50, 20).unwrap();
        assert!(s.found.is_none());
    }

    /// The rule's numbers: 916 of 1,000 runs (371 of 400) are the fewest
    /// whose one-sided 95% Clopper–Pearson lower bound reaches 90%; the
    /// bound inverts the binomial tail.
    #[test]
    fn the_margin_is_a_clopper_pearson_lower_bound() {
        assert_eq!(runs_needed(1_000, 0.9), 916);
        assert_eq!(runs_needed(400, 0.9), 371);
        assert!(power_lower_bound(916, 1_000, CONFIDENCE) >= 0.9);
        assert!(power_lower_bound(915, 1_000, CONFIDENCE) < 0.9);
        let lb = power_lower_bound(916, 1_000, CONFIDENCE);
        assert!((binomial_sf(1_000, 916, lb) - 0.05).abs() < 1e-9);
        assert_eq!(power_lower_bound(0, 1_000, CONFIDENCE), 0.0);
        assert!((binomial_sf(10, 0, 0.3) - 1.0).abs() < 1e-15);
        // P(X ≥ 9) for Bin(10, 0.5) = 11/1024.
        assert!((binomial_sf(10, 9, 0.5) - 11.0 / 1024.0).abs() < 1e-12);
    }
}
