//! An audit: run one algorithm many times, test the counts, and judge the
//! result together with the other audits of the same run.

use crate::engine::{self, Progress, RunSpec};
use crate::error::{Error, Result};
use crate::source::splitmix64;
use crate::spec::TestKind;
use crate::stats::{PositionValueTest, TestResult, Verdict, battery, holm_log10};
use crate::tally::Tally;
use std::time::Instant;

/// The significance level used when none is given: strict, because a run
/// usually audits many algorithms and a false alarm is costly.
pub const DEFAULT_ALPHA: f64 = 0.001;

/// The seed used when none is given, so that a bare run is reproducible.
pub const DEFAULT_SEED: u64 = 20_261_121;

/// One finished audit: what was run, what was counted, what the test says.
#[derive(Debug, Clone)]
pub struct Audit {
    /// What was run.
    pub spec: RunSpec,
    /// Worker threads actually used.
    pub threads: usize,
    /// Wall-clock seconds for the shuffles and counting.
    pub seconds: f64,
    /// The counts.
    pub tally: Tally,
    /// The position-by-value test, with its descriptive figures.
    pub position_value: PositionValueTest,
    /// Every selected test, with p-values Holm-corrected across them.
    pub tests: Vec<TestResult>,
    /// The audit's own p-value (log10): the smallest Holm-adjusted p-value of
    /// its tests, i.e. the evidence of its most decisive test.
    pub log10_p: f64,
    /// `log10_p` after Holm correction across the run's audits.
    pub log10_p_holm: f64,
    /// The verdict at the run's α, after both corrections.
    pub verdict: Verdict,
    /// The looks of a sequential (`--until-decisive`) audit; empty otherwise.
    pub looks: Vec<Look>,
}

/// One look of a sequential audit.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Look {
    /// Trials counted so far.
    pub trials: u64,
    /// log10 of the audit's p-value on those trials.
    pub log10_p: f64,
    /// log10 of the level this look was allowed to spend.
    pub log10_alpha: f64,
}

impl Audit {
    /// The test with the strongest evidence (smallest adjusted p-value).
    pub fn decisive(&self) -> &TestResult {
        self.tests
            .iter()
            .min_by(|a, b| a.log10_p_holm.total_cmp(&b.log10_p_holm))
            .expect("an audit runs at least one test")
    }

    /// The result of test `kind`, if it was run.
    pub fn test(&self, kind: TestKind) -> Option<&TestResult> {
        self.tests.iter().find(|t| t.test == kind)
    }

    /// Shuffles per second achieved.
    pub fn shuffles_per_sec(&self) -> f64 {
        self.spec.trials as f64 / self.seconds.max(1e-9)
    }
}

/// Checks `alpha` is a usable significance level.
pub fn check_alpha(alpha: f64) -> Result<()> {
    if alpha > 0.0 && alpha < 1.0 {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "alpha = {alpha} is not a probability strictly between 0 and 1"
        )))
    }
}

/// Runs one audit; its verdict is provisional (uncorrected) until
/// [`judge`] sees the whole run.
pub fn run(spec: &RunSpec, alpha: f64, progress: Progress<'_>) -> Result<Audit> {
    check_alpha(alpha)?;
    if spec.trials == 0 {
        return Err(Error::invalid("trials must be at least 1"));
    }
    let start = Instant::now();
    let tally = engine::run(spec, progress)?;
    Ok(evaluate(spec, tally, start.elapsed().as_secs_f64(), alpha))
}

/// Tests a tally produced for `spec` (in `seconds`) and gives the audit its
/// provisional verdict at `alpha`.
pub fn evaluate(spec: &RunSpec, tally: Tally, seconds: f64, alpha: f64) -> Audit {
    let position_value = PositionValueTest::run(&tally);
    let tests = battery::run(&tally, &spec.tests, &position_value, spec.seed);
    let log10_p = tests
        .iter()
        .map(|t| t.log10_p_holm)
        .fold(f64::INFINITY, f64::min);
    Audit {
        spec: RunSpec {
            trials: tally.trials(),
            ..spec.clone()
        },
        threads: spec.threads.unwrap_or_else(rayon::current_num_threads),
        seconds,
        tally,
        position_value,
        tests,
        log10_p,
        log10_p_holm: log10_p,
        verdict: Verdict::at(log10_p, alpha),
        looks: Vec::new(),
    }
}

/// Applies the Holm correction across `audits` and sets their verdicts at
/// `alpha`, so that the chance of calling any fair shuffle of the run biased
/// is at most α. (Each audit's p-value is already Holm-corrected across its
/// own tests, so the two corrections together control the error over every
/// test of the run.)
pub fn judge(audits: &mut [Audit], alpha: f64) {
    let raw: Vec<f64> = audits.iter().map(|a| a.log10_p).collect();
    for (audit, adjusted) in audits.iter_mut().zip(holm_log10(&raw)) {
        audit.log10_p_holm = adjusted;
        audit.verdict = Verdict::at(adjusted, alpha);
    }
}

/// Runs every spec in turn and judges them together.
pub fn run_all(specs: &[RunSpec], alpha: f64, progress: Progress<'_>) -> Result<Vec<Audit>> {
    let mut audits = specs
        .iter()
        .map(|spec| run(spec, alpha, progress))
        .collect::<Result<Vec<_>>>()?;
    judge(&mut audits, alpha);
    Ok(audits)
}

/// Runs an audit in growing batches until it is decisively biased, or until
/// `max_trials` have been counted without finding bias.
///
/// The cumulative trial count doubles at every look (the first look counts
/// `spec.trials`). Looking repeatedly inflates the false-alarm rate, so the
/// level α is spent across the looks, α/J at each of the J looks the budget
/// allows (Bonferroni alpha-spending): the chance that a fair shuffle is ever
/// called biased stays at most α. Batch j draws from seed
/// splitmix64(seed ⊕ j) (batch 0 from the seed itself), so a sequential audit
/// is as reproducible as a plain one.
pub fn run_until_decisive(
    spec: &RunSpec,
    alpha: f64,
    max_trials: u64,
    progress: Progress<'_>,
) -> Result<Audit> {
    check_alpha(alpha)?;
    if spec.trials == 0 || max_trials < spec.trials {
        return Err(Error::invalid(format!(
            "the trial budget ({max_trials}) must be at least the first look's trials ({})",
            spec.trials
        )));
    }
    let schedule = look_schedule(spec.trials, max_trials);
    let log10_alpha = (alpha / schedule.len() as f64).log10();
    let start = Instant::now();
    let mut tally: Option<Tally> = None;
    let mut looks = Vec::new();
    let mut done = 0u64;
    for (j, &cumulative) in schedule.iter().enumerate() {
        let batch_spec = RunSpec {
            trials: cumulative - done,
            seed: if j == 0 {
                spec.seed
            } else {
                splitmix64(spec.seed ^ j as u64)
            },
            ..spec.clone()
        };
        let batch = engine::run(&batch_spec, progress)?;
        done = cumulative;
        match &mut tally {
            Some(t) => t.merge(&batch),
            None => tally = Some(batch),
        }
        let current = tally.as_ref().expect("at least one batch");
        let position_value = PositionValueTest::run(current);
        let tests = battery::run(current, &spec.tests, &position_value, spec.seed);
        let log10_p = tests
            .iter()
            .map(|t| t.log10_p_holm)
            .fold(f64::INFINITY, f64::min);
        looks.push(Look {
            trials: cumulative,
            log10_p,
            log10_alpha,
        });
        if log10_p <= log10_alpha {
            break;
        }
    }
    let tally = tally.expect("at least one batch");
    let mut audit = evaluate(spec, tally, start.elapsed().as_secs_f64(), alpha);
    let rejected = looks.last().is_some_and(|l| l.log10_p <= l.log10_alpha);
    audit.verdict = if rejected {
        Verdict::Biased
    } else {
        Verdict::Fair
    };
    audit.looks = looks;
    Ok(audit)
}

/// Cumulative trial counts at each look: t, 2t, 4t, ... capped at `max`.
pub fn look_schedule(first: u64, max: u64) -> Vec<u64> {
    let mut looks = vec![first];
    while let Some(&last) = looks.last() {
        if last >= max {
            break;
        }
        looks.push(last.saturating_mul(2).min(max));
    }
    looks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::engine::no_progress;
    use crate::source::SourceKind;

    #[test]
    fn looks_double_up_to_the_budget() {
        assert_eq!(look_schedule(10, 10), vec![10]);
        assert_eq!(look_schedule(10, 75), vec![10, 20, 40, 75]);
    }

    #[test]
    fn a_biased_shuffle_stops_early_and_a_fair_one_spends_the_budget() {
        let spec = |alg| RunSpec::new(alg, 6, 2_000, SourceKind::Chacha8.into(), 3);
        let biased =
            run_until_decisive(&spec(Algorithm::NaiveSwap), 0.001, 256_000, &no_progress).unwrap();
        assert_eq!(biased.verdict, Verdict::Biased);
        assert!(
            biased.spec.trials < 256_000,
            "stopped at {}",
            biased.spec.trials
        );
        let fair =
            run_until_decisive(&spec(Algorithm::FisherYates), 0.001, 64_000, &no_progress).unwrap();
        assert_eq!(fair.verdict, Verdict::Fair);
        assert_eq!(fair.spec.trials, 64_000);
        assert_eq!(fair.looks.len(), 6);
        assert_eq!(fair.tally.trials(), 64_000);
    }
}
