//! The self-test: proves the harness can fail and does not cry wolf.
//!
//! (a) every known-biased algorithm is detected at the trial count the power
//! planner asks for; (b) over many independent audits of fair algorithms the
//! p-values of every test are uniform (Kolmogorov–Smirnov, as NIST SP 800-22
//! and TestU01 check their own p-values) and the false-positive rate matches
//! α; (c) Monte Carlo counts agree with the exact law where both exist.
//! Each part covers the samplers too (`selftest/samplers.rs`): biased samplers caught
//! at the sampler planner's trials, every sampler test calibrated over the
//! fair samplers, Monte Carlo subsets and picks against the exact laws.

mod samplers;

use crate::algorithm::Algorithm;
use crate::audit;
use crate::audit::Spec;
use crate::engine::no_progress;
use crate::error::Result;
use crate::power;
use crate::source::SourceKind;
use crate::spec::{TestKind, TestSet};
use crate::stats::Verdict;
use crate::stats::special::{binomial_band, ks_uniform};
use crate::subject::{ShuffleOptions, Shuffles};
use rayon::prelude::*;
use serde::Serialize;

/// One check of the self-test.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// Which part: "detects", "calibration" or "exact".
    pub part: &'static str,
    /// What was checked.
    pub name: String,
    /// The figures behind the outcome.
    pub detail: String,
    /// Whether it passed.
    pub passed: bool,
}

/// Size of the self-test's workload.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Elements shuffled.
    pub n: usize,
    /// Independent audits per fair algorithm in the calibration part.
    pub audits: u64,
    /// Trials per calibration audit.
    pub trials: u64,
    /// Power the detection plans ask for.
    pub power: f64,
    /// Level of the audits.
    pub alpha: f64,
    /// Seed of everything.
    pub seed: u64,
    /// Items per sample of the k-of-N samplers (on N = `n` items).
    pub sampler_k: u32,
    /// The weights of the weighted picks.
    pub weights: &'static [u64],
}

impl Default for Settings {
    /// n = 6 (every test, including the whole-permutation test over 720
    /// outcomes), 200 audits of 3,000 trials per fair algorithm, detection
    /// planned for 99.9% power at α = 0.001; samplers take k = 3 of the 6
    /// items (every sampler test runs, the 20 subsets included) and weighted
    /// picks the weights 1, 2, 3, 4.
    fn default() -> Self {
        Self {
            n: 6,
            audits: 200,
            trials: 3_000,
            power: 0.999,
            alpha: 0.001,
            seed: 0x5e1f_7e57,
            sampler_k: 3,
            weights: &[1, 2, 3, 4],
        }
    }
}

/// Overall level of the calibration part's checks, split over its tests.
const KS_LEVEL: f64 = 0.001;
/// Level at which false positives are counted in the calibration part.
const CALIBRATION_ALPHA: f64 = 0.01;

/// Trials of a pilot run where the exact effect cannot be computed.
const PILOT_TRIALS: u64 = 200_000;

/// Part (a): each biased algorithm is audited at its planned trial count
/// with the test that needs the fewest trials, and must be flagged. Plans use
/// the exact effect where it can be computed, else a pilot run. Then each
/// biased sampler, likewise (`selftest/samplers.rs`).
pub fn detects_biased(settings: &Settings) -> Result<Vec<Check>> {
    let mut algorithms: Vec<Algorithm> = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| !a.expected_fair())
        .collect();
    algorithms.push(Algorithm::parse("sort-random-comparator:sort=merge")?);
    let mut checks = algorithms
        .into_iter()
        .map(|alg| detect_one(settings, alg))
        .collect::<Result<Vec<Check>>>()?;
    checks.extend(samplers::detects_biased(settings)?);
    Ok(checks)
}

fn detect_one(settings: &Settings, alg: Algorithm) -> Result<Check> {
    let n = settings.n;
    let mut best: Option<(TestKind, power::Plan)> = None;
    for test in [TestKind::PositionValue, TestKind::Permutation] {
        let effect = match power::exact_effect(alg, n, SourceKind::Chacha8.into(), test)? {
            Some(effect) => effect,
            None => power::pilot_effect(
                alg,
                n,
                SourceKind::Chacha8.into(),
                test,
                PILOT_TRIALS,
                settings.seed ^ 1,
            )?,
        };
        if let Ok(plan) = power::plan(effect, settings.alpha, settings.power)
            && best
                .as_ref()
                .is_none_or(|(_, b)| plan.recommended_trials < b.recommended_trials)
        {
            best = Some((test, plan));
        }
    }
    let Some((test, plan)) = best else {
        return Ok(Check {
            part: "detects",
            name: alg.to_string(),
            detail: "no test sees a bias: nothing to plan".into(),
            passed: false,
        });
    };
    let trials = plan.recommended_trials;
    let spec = Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(TestSet::parse(test.name(), n)?),
        ..Spec::new(alg, n, trials, SourceKind::Chacha8.into(), settings.seed)
    };
    let result = audit::run(&spec, settings.alpha, &no_progress)?;
    let origin = match plan.effect.origin {
        power::EffectOrigin::Exact => "exact",
        power::EffectOrigin::Pilot { .. } => "pilot",
    };
    Ok(Check {
        part: "detects",
        name: alg.to_string(),
        detail: format!(
            "{test} test, {origin} effect: {} trials for {}% power{}: log10 p = {:.1}",
            plan.trials,
            settings.power * 100.0,
            if trials > plan.trials {
                format!(", run at {trials} (5 per cell)")
            } else {
                String::new()
            },
            result.log10_p
        ),
        passed: result.verdict == Verdict::Biased,
    })
}

/// Part (b): many independent audits of every fair algorithm; for each test,
/// the p-values pooled over the fair algorithms must be uniform and the
/// rejection rate at α = 0.01 must lie in its binomial band. Each check runs
/// at level 0.001 / (number of tests), so the whole part raises a false alarm
/// with probability at most about 0.002; the sampler tests likewise, over the
/// fair samplers (`selftest/samplers.rs`).
pub fn calibration(settings: &Settings) -> Result<Vec<Check>> {
    let tests = TestSet::parse("all", settings.n)?;
    let fair: Vec<Algorithm> = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| a.expected_fair())
        .collect();
    let mut p_values: Vec<Vec<f64>> = vec![Vec::new(); tests.iter().count()];
    for (index, &alg) in fair.iter().enumerate() {
        let audits = (0..settings.audits)
            .into_par_iter()
            .map(|i| {
                let seed = settings.seed ^ ((index as u64) << 40) ^ i;
                let spec = Spec::<Shuffles> {
                    options: ShuffleOptions::with_tests(tests.clone()),
                    ..Spec::new(
                        alg,
                        settings.n,
                        settings.trials,
                        SourceKind::Chacha8.into(),
                        seed,
                    )
                };
                audit::run(&spec, CALIBRATION_ALPHA, &no_progress)
            })
            .collect::<Result<Vec<_>>>()?;
        for (slot, kind) in p_values.iter_mut().zip(tests.iter()) {
            slot.extend(
                audits
                    .iter()
                    .map(|a| 10f64.powf(a.test(kind).expect("test was run").log10_p)),
            );
        }
    }
    let level = KS_LEVEL / p_values.len() as f64;
    let mut checks: Vec<Check> = tests
        .iter()
        .zip(&p_values)
        .map(|(kind, p)| {
            calibration_check(
                &format!("{kind} over {} fair algorithms", fair.len()),
                p,
                level,
            )
        })
        .collect();
    checks.extend(samplers::calibration(settings)?);
    Ok(checks)
}

/// Algorithms whose Monte Carlo law part (c) compares with the exact law.
fn exact_cases() -> Vec<Algorithm> {
    [
        "fisher-yates",
        "pick-until-unused",
        "naive-swap",
        "random-swap",
        "shrinking-range",
        "sattolo",
        "insert-last",
        "sort-random-comparator:sort=merge",
        "riffle",
        "rotation",
    ]
    .iter()
    .map(|name| Algorithm::parse(name).expect("a registered algorithm"))
    .collect()
}

/// Trials of each Monte Carlo run in part (c).
const EXACT_TRIALS: u64 = 200_000;

/// Part (c): the whole-permutation counts of a Monte Carlo run agree with the
/// exact law (Pearson's test with sparse cells pooled, at level 0.001 split
/// over the cases), and no permutation of exact probability 0 ever occurs;
/// then every sampler with an exact law, likewise (`selftest/samplers.rs`).
pub fn exact_agreement(settings: &Settings) -> Result<Vec<Check>> {
    let n = settings.n.min(5);
    let cases = exact_cases();
    let level = KS_LEVEL / cases.len() as f64;
    let mut checks = cases
        .into_iter()
        .map(|alg| {
            let source = SourceKind::Chacha8.into();
            let law = crate::exact::enumerate(alg, n, source, power::EXACT_EFFECT_MAX_LEAVES)?;
            let probs = power::law_by_rank(&law);
            let spec = Spec::<Shuffles> {
                options: ShuffleOptions::with_tests(TestSet::parse("permutation", n)?),
                ..Spec::new(alg, n, EXACT_TRIALS, source, settings.seed ^ 0xc)
            };
            let result = audit::run(&spec, settings.alpha, &no_progress)?;
            let counts = result.tally.permutations().expect("permutation counts");
            let impossible: u64 = counts
                .iter()
                .zip(&probs)
                .filter(|&(_, &p)| p == 0.0)
                .map(|(&c, _)| c)
                .sum();
            let fit = crate::stats::gof::chi_square(counts, &probs);
            Ok(Check {
                part: "exact",
                name: format!("{alg} at n = {n}"),
                detail: format!(
                    "{} trials vs exact law ({} permutations possible): chi-square {:.1} on {} df, log10 p = {:.2}; {impossible} impossible outcomes",
                    EXACT_TRIALS,
                    law.support_size(),
                    fit.statistic,
                    fit.df,
                    fit.log10_p
                ),
                passed: impossible == 0 && fit.log10_p > level.log10(),
            })
        })
        .collect::<Result<Vec<Check>>>()?;
    checks.extend(samplers::exact_agreement(settings)?);
    Ok(checks)
}

/// Whether `p_values` look uniform at level `level`, as one check: KS on the
/// p-values and the count of rejections at α = 0.01.
pub fn calibration_check(name: &str, p_values: &[f64], level: f64) -> Check {
    let ks = ks_uniform(p_values);
    let m = p_values.len() as u64;
    let rejections = p_values.iter().filter(|&&p| p <= CALIBRATION_ALPHA).count() as u64;
    let (lo, hi) = binomial_band(m, CALIBRATION_ALPHA, 1.0 - level);
    Check {
        part: "calibration",
        name: name.to_string(),
        detail: format!(
            "{m} audits: KS p = {:.3}; false positives at {CALIBRATION_ALPHA}: {rejections} = {:.2}% (band {lo}..={hi})",
            ks.p_value,
            100.0 * rejections as f64 / m as f64
        ),
        passed: ks.p_value > level && (lo..=hi).contains(&rejections),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_fails_for_a_fair_algorithm() {
        let check = detect_one(&Settings::default(), Algorithm::FisherYates).unwrap();
        assert!(!check.passed, "{check:?}");
    }

    #[test]
    fn calibration_fails_for_skewed_p_values() {
        let skewed: Vec<f64> = (0..1000)
            .map(|i| ((i as f64 + 0.5) / 1000.0).powi(2))
            .collect();
        assert!(!calibration_check("skewed", &skewed, 0.001).passed);
        let uniform: Vec<f64> = (0..1000).map(|i| (i as f64 + 0.5) / 1000.0).collect();
        assert!(calibration_check("uniform", &uniform, 0.001).passed);
    }
}
