//! An audit: run one algorithm many times, test the counts, and judge the
//! result together with the other audits of the same run.

use crate::engine::{self, Progress, RunSpec};
use crate::error::{Error, Result};
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
    let seconds = start.elapsed().as_secs_f64();
    let position_value = PositionValueTest::run(&tally);
    let tests = battery::run(&tally, &spec.tests, &position_value, spec.seed);
    let log10_p = tests
        .iter()
        .map(|t| t.log10_p_holm)
        .fold(f64::INFINITY, f64::min);
    Ok(Audit {
        spec: spec.clone(),
        threads: spec.threads.unwrap_or_else(rayon::current_num_threads),
        seconds,
        tally,
        position_value,
        tests,
        log10_p,
        log10_p_holm: log10_p,
        verdict: Verdict::at(log10_p, alpha),
    })
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
