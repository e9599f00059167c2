//! An audit: run one algorithm many times, test the counts, and judge the
//! result together with the other audits of the same run.

use crate::engine::{self, Progress, RunSpec};
use crate::error::{Error, Result};
use crate::stats::{PositionValueTest, Verdict, holm_log10};
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
    /// The position-by-value test.
    pub position_value: PositionValueTest,
    /// log10 of the p-value after Holm correction across the run's audits.
    pub log10_p_holm: f64,
    /// The verdict at the run's α, after correction.
    pub verdict: Verdict,
}

impl Audit {
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
    let log10_p = position_value.log10_p;
    Ok(Audit {
        spec: spec.clone(),
        threads: spec.threads.unwrap_or_else(rayon::current_num_threads),
        seconds,
        tally,
        position_value,
        log10_p_holm: log10_p,
        verdict: Verdict::at(log10_p, alpha),
    })
}

/// Applies the Holm correction across `audits` and sets their verdicts at
/// `alpha`, so that the chance of calling any fair shuffle of the run biased
/// is at most α.
pub fn judge(audits: &mut [Audit], alpha: f64) {
    let raw: Vec<f64> = audits.iter().map(|a| a.position_value.log10_p).collect();
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
