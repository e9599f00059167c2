//! Sequential sampler audits (`audit -a SAMPLER --until-decisive`) keep
//! their promise: looking after every doubling of the samples does not
//! inflate false alarms (α is spent across the looks), and a biased sampler
//! is still caught, usually at an early look.
//!
//! Everything is seeded and deterministic: audit i of a setting uses seed
//! base + i.

use rayon::prelude::*;
use shuffle_audit::engine::no_progress;
use shuffle_audit::sampler::Sampler;
use shuffle_audit::sampler::audit::{SampleAudit, run_until_decisive};
use shuffle_audit::sampler::run::SampleSpec;
use shuffle_audit::sequential::look_schedule;
use shuffle_audit::source::SourceSpec;
use shuffle_audit::stats::Verdict;
use shuffle_audit::stats::special::binomial_band;

/// Sequential audits per setting.
const RUNS: u64 = 1_000;
/// The level of the verdicts.
const LEVEL: f64 = 0.05;
/// N of every setting.
const N: usize = 6;
/// The first look's samples.
const FIRST: u64 = 300;
/// The budget: looks at 300, 600, 1,200 and 2,400 samples.
const BUDGET: u64 = 2_400;

/// `RUNS` sequential audits of `sampler` at N = 6, seeds `base`, `base + 1`, ...
fn audits(sampler: &str, base: u64) -> Vec<SampleAudit> {
    let sampler = Sampler::parse(sampler).unwrap();
    (0..RUNS)
        .into_par_iter()
        .map(|i| {
            let spec = SampleSpec::new(
                sampler,
                N,
                FIRST,
                SourceSpec::parse("xoshiro256pp").unwrap(),
                base + i,
            );
            run_until_decisive(&spec, LEVEL, BUDGET, 1, &no_progress).unwrap()
        })
        .collect()
}

/// Over 1,000 sequential audits of a fair sampler with up to 4 looks, the
/// rate of "biased" at α = 0.05 is at most α (within the binomial band's
/// upper end at 99.9%, 74). Looking 4 times at α each, without spending it,
/// raises false alarms well beyond that: the same looks show it, so this
/// check would catch a procedure that forgot to divide α.
///
/// Measured: 37 (floyd) and 50 (partial-fisher-yates) false alarms; 116 and
/// 156 with unspent looks. Over 20,000 audits each the rates were 3.3% and
/// 3.7%: Bonferroni over correlated looks is conservative.
#[test]
fn a_fair_sampler_is_rarely_called_biased_however_often_it_is_looked_at() {
    assert_eq!(look_schedule(FIRST, BUDGET), [300, 600, 1_200, 2_400]);
    let (_, hi) = binomial_band(RUNS, LEVEL, 0.999);
    for (sampler, base) in [
        ("floyd:k=2", 1_000_000),
        ("partial-fisher-yates:k=2", 2_000_000),
    ] {
        let audits = audits(sampler, base);
        let alarms = audits
            .iter()
            .filter(|a| a.verdict() == Verdict::Biased)
            .count() as u64;
        // A fair sampler spends its budget unless it (falsely) alarms.
        assert!(
            audits
                .iter()
                .all(|a| a.verdict() == Verdict::Biased || a.tally().trials() == BUDGET)
        );
        // What looking at α each time would have called biased: any look
        // with p ≤ α (an audit that stopped did so at p ≤ α/4).
        let naive = audits
            .iter()
            .filter(|a| a.looks().iter().any(|l| l.log10_p <= LEVEL.log10()))
            .count() as u64;
        println!(
            "{sampler}: {alarms} false alarms of {RUNS} at alpha {LEVEL} (at most {hi}); \
             unspent looks would have raised {naive}"
        );
        assert!(alarms <= hi, "{sampler}: {alarms} false alarms of {RUNS}");
        assert!(naive > hi, "{sampler}: the check has no teeth ({naive})");
    }
}

/// A biased sampler is caught in (nearly) every run, most at the first look.
#[test]
fn a_biased_sampler_is_caught_in_most_runs() {
    for (sampler, base, caught_at_least) in [
        // Items 0 and 1 are kept with probability 1/5 instead of 1/3.
        ("reservoir-off-by-one:k=2", 3_000_000, RUNS),
        // Every item is fair; only pairs {i, i + 3} are ever drawn.
        ("systematic:k=2", 4_000_000, RUNS),
        // Items after a run of taken ones are drawn too often.
        ("linear-probe:k=2", 5_000_000, 9 * RUNS / 10),
    ] {
        let audits = audits(sampler, base);
        let caught: Vec<&SampleAudit> = audits
            .iter()
            .filter(|a| a.verdict() == Verdict::Biased)
            .collect();
        let mut stops: Vec<u64> = caught.iter().map(|a| a.tally().trials()).collect();
        stops.sort_unstable();
        let median = stops.get(stops.len() / 2).copied().unwrap_or(0);
        println!(
            "{sampler}: caught in {} of {RUNS}, median stop at {median} samples",
            caught.len()
        );
        assert!(
            caught.len() as u64 >= caught_at_least,
            "{sampler}: caught in {} of {RUNS}",
            caught.len()
        );
        // Caught audits stop at the look that was decisive.
        assert!(caught.iter().all(|a| {
            let last = a.looks().last().unwrap();
            last.trials == a.tally().trials() && last.log10_p <= last.log10_alpha
        }));
    }
}
