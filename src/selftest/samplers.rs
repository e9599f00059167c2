//! The self-test's sampler checks, in the same three parts as the
//! shuffles': (a) every biased sampler is caught at the trials the sampler
//! power planner asks for; (b) over many audits of every fair sampler each
//! sampler test's p-values are uniform and its false-positive rate is in its
//! binomial band; (c) Monte Carlo counts agree with the exact law.
//!
//! Everything runs at N = [`Settings::n`] with k = [`Settings::sampler_k`]
//! (N = 6, k = 3 by default: every test runs, the 20 subsets included, and
//! every sampler's exact law takes milliseconds) and weighted picks on
//! [`Settings::weights`].

use super::{CALIBRATION_ALPHA, Check, KS_LEVEL, PILOT_TRIALS, Settings, calibration_check};
use crate::audit::{self, Kind, Spec};
use crate::engine::no_progress;
use crate::error::Result;
use crate::power::AuditPlan;
use crate::power::sampler::effect::ExpectedCounts;
use crate::power::sampler::{LawOrigin, SAMPLE_TESTS, SamplerPowerSpec, plan_sampler};
use crate::sampler::SampleTest;
use crate::sampler::{
    Sampler, SamplerExact, SubsetMethod, WeightedMethod, exact_pick_law, exact_subset_law,
};
use crate::sampler::{SamplerOptions, Samplers};
use crate::source::SourceKind;
use crate::stats::Verdict;
use crate::stats::gof;
use crate::stats::special::chi2_sf;
use rayon::prelude::*;

/// Mixed into the seeds of the sampler audits, apart from the shuffles'.
const SEEDS: u64 = 0x5a3b << 48;

/// Trials of each Monte Carlo run in part (c).
const EXACT_TRIALS: u64 = 200_000;

/// A sampler at the self-test's size, with its weights for a weighted pick.
#[derive(Debug, Clone)]
struct Case {
    sampler: Sampler,
    weights: Option<Vec<u64>>,
}

impl Case {
    /// Every sampler: each k-of-N sampler with k = `settings.sampler_k`,
    /// each weighted pick on `settings.weights`.
    fn all(settings: &Settings) -> Vec<Case> {
        let subsets = SubsetMethod::ALL.iter().map(|&method| Case {
            sampler: Sampler::Subset {
                method,
                k: settings.sampler_k,
            },
            weights: None,
        });
        let picks = WeightedMethod::ALL.iter().map(|&method| Case {
            sampler: Sampler::Weighted(method),
            weights: Some(settings.weights.to_vec()),
        });
        subsets.chain(picks).collect()
    }

    /// N: the number of weights, else `settings.n`.
    fn n(&self, settings: &Settings) -> usize {
        self.weights.as_ref().map_or(settings.n, Vec::len)
    }

    /// The sampler's name, with its weights.
    fn label(&self) -> String {
        match &self.weights {
            Some(w) => {
                let w: Vec<String> = w.iter().map(u64::to_string).collect();
                format!("{} on weights {}", self.sampler, w.join(","))
            }
            None => self.sampler.to_string(),
        }
    }

    /// A run of `trials` samples from `seed`.
    fn spec(&self, settings: &Settings, trials: u64, seed: u64) -> Spec<Samplers> {
        Spec {
            options: SamplerOptions {
                weights: self.weights.clone(),
            },
            ..Spec::new(
                self.sampler,
                self.n(settings),
                trials,
                SourceKind::Chacha8.into(),
                seed,
            )
        }
    }

    /// The power plan of its audit, as a single audit at `settings.alpha`,
    /// with a pilot of `pilot_trials` where the exact law is out of reach.
    fn plan(&self, settings: &Settings, pilot_trials: u64) -> Result<AuditPlan<Samplers>> {
        let spec = SamplerPowerSpec {
            alpha: settings.alpha,
            power: settings.power,
            pilot_trials,
            seed: settings.seed ^ SEEDS ^ 1,
            ..SamplerPowerSpec::new(self.sampler, self.n(settings), SourceKind::Chacha8.into())
        };
        plan_sampler(&match &self.weights {
            Some(w) => spec.with_weights(w.clone()),
            None => spec,
        })
    }
}

/// Part (a): each biased sampler is audited at the trials its best test
/// needs for `settings.power` (and for its range), and must be flagged.
pub fn detects_biased(settings: &Settings) -> Result<Vec<Check>> {
    Case::all(settings)
        .into_iter()
        .filter(|c| !c.sampler.expected_fair())
        .map(|c| detect_one(settings, &c))
        .collect()
}

fn detect_one(settings: &Settings, case: &Case) -> Result<Check> {
    let plan = case.plan(settings, PILOT_TRIALS)?;
    let fail = |detail: String| Check {
        part: "detects",
        name: case.label(),
        detail,
        passed: false,
    };
    let Some(best) = plan.best() else {
        return Ok(fail("no test sees a bias: nothing to plan".into()));
    };
    let (Some(planned), Some(trials)) = (best.details.trials(), best.details.recommended_trials())
    else {
        return Ok(fail("no plan".into()));
    };
    let spec = case.spec(settings, trials, settings.seed ^ SEEDS);
    let audit = audit::run(&spec, settings.alpha, &no_progress)?;
    let origin = match plan.details.law {
        LawOrigin::Exact { .. } => "exact",
        LawOrigin::Pilot { .. } => "pilot",
    };
    Ok(Check {
        part: "detects",
        name: case.label(),
        detail: format!(
            "{} test, {origin} effect at level {:.1e} (alpha over {} test{}): {planned} trials \
             for {}% power{}: log10 p = {:.1}",
            best.test,
            plan.level,
            plan.tests_in_audit,
            if plan.tests_in_audit == 1 { "" } else { "s" },
            settings.power * 100.0,
            if trials > planned {
                format!(", run at {trials} (the test's range)")
            } else {
                String::new()
            },
            audit.log10_p
        ),
        passed: audit.verdict == Verdict::Biased,
    })
}

/// Part (b): `settings.audits` audits of every fair sampler, at
/// `settings.trials` or more (every test of the audit in its range); for
/// each test, the p-values pooled over the fair samplers that run it must be
/// uniform and the rejection rate at 0.01 in its binomial band, each check
/// at level 0.001 / (number of tests).
pub fn calibration(settings: &Settings) -> Result<Vec<Check>> {
    let fair: Vec<Case> = Case::all(settings)
        .into_iter()
        .filter(|c| c.sampler.expected_fair())
        .collect();
    // (p-values, samplers, audits where the test did not run), by test.
    let mut pooled: Vec<(Vec<f64>, usize, u64)> = vec![(Vec::new(), 0, 0); SAMPLE_TESTS.len()];
    for (index, case) in fair.iter().enumerate() {
        // Only the tests and their ranges are needed: a token pilot will do.
        let plan = case.plan(settings, 1_000)?;
        let trials = plan
            .tests
            .iter()
            .map(|t| t.details.effect().approximation_trials)
            .fold(settings.trials, u64::max);
        let audits = (0..settings.audits)
            .into_par_iter()
            .map(|i| {
                let seed = settings.seed ^ SEEDS ^ ((index as u64) << 40) ^ i;
                audit::run(
                    &case.spec(settings, trials, seed),
                    CALIBRATION_ALPHA,
                    &no_progress,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        for planned in &plan.tests {
            let slot = &mut pooled[test_index(planned.test)];
            slot.1 += 1;
            for a in &audits {
                match a.tests.iter().find(|t| t.test == planned.test) {
                    Some(t) => slot.0.push(10f64.powf(t.log10_p)),
                    None => slot.2 += 1,
                }
            }
        }
    }
    let ran = pooled.iter().filter(|p| p.1 > 0).count().max(1);
    let level = KS_LEVEL / ran as f64;
    Ok(SAMPLE_TESTS
        .iter()
        .zip(&pooled)
        .filter(|(_, (_, samplers, _))| *samplers > 0)
        .map(|(test, (p, samplers, missing))| {
            let mut check =
                calibration_check(&format!("{test} over {samplers} fair samplers"), p, level);
            if *missing > 0 {
                check.passed = false;
                check
                    .detail
                    .push_str(&format!("; {missing} audits did not run it"));
            }
            check
        })
        .collect())
}

/// Where `test` sits in [`SAMPLE_TESTS`].
fn test_index(test: SampleTest) -> usize {
    SAMPLE_TESTS
        .iter()
        .position(|&t| t == test)
        .expect("every sampler test is listed")
}

/// Part (c): a Monte Carlo run of every sampler with an exact law agrees
/// with it: whole-subset counts (picks, for a weighted pick) by Pearson's
/// test with sparse cells pooled, no outcome of exact probability 0, and
/// every item's inclusion count within its binomial spread (Bonferroni over
/// the items); each at level 0.001 split over the samplers.
pub fn exact_agreement(settings: &Settings) -> Result<Vec<Check>> {
    let cases: Vec<Case> = Case::all(settings)
        .into_iter()
        .filter(|c| !matches!(c.sampler.record().exact, SamplerExact::Unavailable(_)))
        .collect();
    let level = KS_LEVEL / cases.len() as f64;
    cases
        .iter()
        .map(|case| {
            let n = case.n(settings);
            let spec = case.spec(settings, EXACT_TRIALS, settings.seed ^ SEEDS ^ 0xc);
            Samplers::check(&spec)?;
            let tally = Samplers::count(&spec, spec.chunks(), &no_progress)?;
            let law = match &case.weights {
                Some(w) => ExpectedCounts::of_pick_law(&exact_pick_law(case.sampler, w)?),
                None => ExpectedCounts::of_subset_law(&exact_subset_law(case.sampler, n)?, &tally),
            };
            // The whole law: picks, or every subset.
            let (counts, probs, what) = match (tally.subsets(), law.subsets()) {
                (Some(c), Some(p)) => (c, p, "subsets"),
                _ => (tally.inclusion(), law.inclusion(), "picks"),
            };
            let impossible: u64 = counts
                .iter()
                .zip(probs)
                .filter(|&(_, &p)| p == 0.0)
                .map(|(&c, _)| c)
                .sum();
            let fit = gof::chi_square(counts, probs);
            // A weighted pick's picks are its inclusion: the fit covers them.
            let inclusion = case
                .weights
                .is_none()
                .then(|| inclusion_log10_p(tally.inclusion(), law.inclusion(), EXACT_TRIALS));
            let inclusion_words = inclusion.map_or(String::new(), |p| {
                format!("; inclusion log10 p = {p:.2} (the most deviant item, Bonferroni)")
            });
            Ok(Check {
                part: "exact",
                name: format!("{} at N = {n}", case.label()),
                detail: format!(
                    "{EXACT_TRIALS} trials vs exact law: {what} chi-square {:.1} on {} df, log10 \
                     p = {:.2}; {impossible} impossible outcomes{inclusion_words}",
                    fit.statistic, fit.df, fit.log10_p
                ),
                passed: impossible == 0
                    && fit.log10_p > level.log10()
                    && inclusion.is_none_or(|p| p > level.log10()),
            })
        })
        .collect()
}

/// log10 of the Bonferroni p-value of the item whose inclusion count
/// deviates most from its exact binomial mean T·π (in its standard
/// deviations); -inf when an item of probability 0 or 1 strays at all.
fn inclusion_log10_p(counts: &[u64], probs: &[f64], trials: u64) -> f64 {
    let t = trials as f64;
    let smallest = counts
        .iter()
        .zip(probs)
        .map(|(&c, &p)| {
            let variance = t * p * (1.0 - p);
            let d = c as f64 - t * p;
            if variance <= 0.0 {
                if d.abs() < 0.5 { 1.0 } else { 0.0 }
            } else {
                chi2_sf(d * d / variance, 1.0)
            }
        })
        .fold(1.0, f64::min);
    (smallest * counts.len() as f64).min(1.0).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_fails_for_a_fair_sampler_and_stray_inclusion_is_caught() {
        let settings = Settings::default();
        let floyd = Case {
            sampler: Sampler::parse("floyd:k=3").unwrap(),
            weights: None,
        };
        let check = detect_one(&settings, &floyd).unwrap();
        assert!(!check.passed, "{check:?}");
        assert!(check.detail.contains("no test sees a bias"));
        // 520 of 1,000 against 1/2 is 1.26 sd: fine; 600 is 6.3 sd.
        assert!(inclusion_log10_p(&[520, 480], &[0.5, 0.5], 1000) > -1.0);
        assert!(inclusion_log10_p(&[600, 400], &[0.5, 0.5], 1000) < -8.0);
        assert_eq!(
            inclusion_log10_p(&[1, 999], &[0.0, 1.0], 1000),
            f64::NEG_INFINITY
        );
    }
}
