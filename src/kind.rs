//! What every kind of subject (a shuffle of distinct items or of a deck
//! with repeated items, a sampler of k of N, an ordered sample, a weighted
//! pick) gives the one pipeline that judges it: an audit that can be
//! [`Judged`] across a run, and a [`Kind`] that counts batches and tests a
//! tally, so that the run's correction and the sequential driver are
//! written once, here, for all of them.
//!
//! A new kind of subject plugs in by implementing these two traits for its
//! audit and its spec (as [`crate::audit`] does for shuffles and
//! [`crate::sampler::audit`] for samplers); the Holm correction across a
//! run ([`judge`], [`judge_mixed`]) and `--until-decisive`
//! ([`run_until_decisive`]) then work for it unchanged.

use crate::error::Result;
use crate::pacing::Progress;
use crate::sequential::{Look, Plan};
use crate::stats::{Verdict, holm_log10};
use std::time::Instant;

/// An audit, of any kind of subject, as the judging of a run sees it: its
/// own evidence, and how it restates its verdict once the run's
/// corrections are known.
pub trait Judged {
    /// The audit's own evidence (log10): the smallest Holm-adjusted p of its
    /// tests, before any correction across the run.
    fn log10_p(&self) -> f64;

    /// Sets the verdict at `alpha` from the p-value after every correction
    /// the run applied (`log10_p_adjusted`), with each of the audit's tests
    /// standing `copies` times in the run's family (the audits of the run,
    /// times the looks of a sequential audit), which fixes the level each
    /// test is held to and so what the run could have detected.
    fn conclude(&mut self, log10_p_adjusted: f64, alpha: f64, copies: usize);

    /// The verdict, as last concluded.
    fn verdict(&self) -> Verdict;
}

/// Applies the Holm correction across `audits` and sets their verdicts at
/// `alpha`, so that the chance of calling any fair subject of the run
/// biased is at most α. (Each audit's p is already Holm-corrected across its
/// own tests, so the two corrections together control the error over every
/// test of the run.) What each run could detect is restated for the whole
/// family.
pub fn judge<A: Judged>(audits: &mut [A], alpha: f64) {
    let mut all: Vec<&mut dyn Judged> = audits.iter_mut().map(|a| a as &mut dyn Judged).collect();
    judge_mixed(&mut all, alpha);
}

/// [`judge`] over audits of different kinds (the shuffles and the samplers
/// of one study): one Holm correction over all of them.
pub fn judge_mixed(audits: &mut [&mut dyn Judged], alpha: f64) {
    let raw: Vec<f64> = audits.iter().map(|a| a.log10_p()).collect();
    let count = audits.len();
    for (audit, adjusted) in audits.iter_mut().zip(holm_log10(&raw)) {
        audit.conclude(adjusted, alpha, count);
    }
}

/// A kind of subject as the sequential driver sees it: how a spec asks for
/// a batch, how batches are counted and merged, and how a tally is tested
/// and turned into an audit.
pub trait Kind {
    /// What determines a run's counts (subject, n, trials, source, seed).
    type Spec: Clone;
    /// The mergeable counts of a run.
    type Tally;
    /// A finished audit.
    type Audit: Judged;

    /// The trials `spec` asks for (a sequential audit's first look).
    fn trials(spec: &Self::Spec) -> u64;

    /// The seed of `spec`.
    fn seed(spec: &Self::Spec) -> u64;

    /// `spec` with `trials` and `seed` (one batch of a sequential audit).
    fn batch(spec: &Self::Spec, trials: u64, seed: u64) -> Self::Spec;

    /// Counts the trials of `spec`.
    fn count(spec: &Self::Spec, progress: Progress<'_>) -> Result<Self::Tally>;

    /// Adds `other`'s counts to `into`.
    fn merge(into: &mut Self::Tally, other: &Self::Tally);

    /// The audit's own log10 p on `tally` (see [`Judged::log10_p`]), without
    /// the descriptive figures: what each look needs.
    fn log10_p(spec: &Self::Spec, tally: &Self::Tally) -> f64;

    /// Tests `tally`, counted for `spec` in `seconds`, and judges it alone
    /// at `alpha`.
    fn evaluate(spec: &Self::Spec, tally: Self::Tally, seconds: f64, alpha: f64) -> Self::Audit;

    /// Records the looks of a sequential audit.
    fn set_looks(audit: &mut Self::Audit, looks: Vec<Look>);
}

/// Runs an audit in growing batches until it is decisively biased, or until
/// `max_trials` have been counted without finding bias.
///
/// The cumulative trial count doubles at every look (the first look counts
/// the spec's trials). Looking repeatedly inflates the false-alarm rate, so
/// the level α is spent across the looks, α/J at each of the J looks the
/// budget allows (Bonferroni alpha-spending), and further divided by the
/// `audits_in_run` audits run alongside (Bonferroni): the chance that any
/// fair subject of the run is ever called biased stays at most α, and the
/// verdict is final (no [`judge`] across the run). The adjusted p-value is
/// the best look's p times J × audits; what the run could detect is stated
/// at the level each test was held to. Batch j draws from seed
/// splitmix64(seed ⊕ j) (batch 0 from the seed itself), so a sequential
/// audit is as reproducible as a plain one (see [`Plan`]).
pub fn run_until_decisive<K: Kind>(
    spec: &K::Spec,
    alpha: f64,
    max_trials: u64,
    audits_in_run: usize,
    progress: Progress<'_>,
) -> Result<K::Audit> {
    let plan = Plan::new(K::trials(spec), max_trials, alpha, audits_in_run)?;
    let start = Instant::now();
    let seq = plan.run(
        K::seed(spec),
        |trials, seed| K::count(&K::batch(spec, trials, seed), progress),
        K::merge,
        |tally| K::log10_p(spec, tally),
    )?;
    let mut audit = K::evaluate(spec, seq.tally, start.elapsed().as_secs_f64(), alpha);
    audit.conclude(seq.log10_p_adjusted, alpha, seq.share);
    K::set_looks(&mut audit, seq.looks);
    Ok(audit)
}
