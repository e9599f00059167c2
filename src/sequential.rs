//! Sequential audits (`--until-decisive`): count in growing batches and look
//! at the evidence after each, stopping as soon as it is decisive, without
//! letting the repeated looks inflate the false-alarm rate.
//!
//! The procedure is the same for shuffles ([`crate::audit`]) and samplers
//! ([`crate::sampler::audit`]); only what is counted and how a tally is
//! tested differ, so both hand those to [`Plan::run`] and keep the rest here:
//! the look schedule, the seed of each batch, the level each look may spend
//! and the adjusted p-value of the verdict.

use crate::error::{Error, Result};
use crate::source::splitmix64;
use crate::values::check_alpha;

/// One look of a sequential audit.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct Look {
    /// Trials counted so far.
    pub trials: u64,
    /// log10 of the audit's p-value on those trials.
    pub log10_p: f64,
    /// log10 of the level this look was allowed to spend.
    pub log10_alpha: f64,
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

/// The seed of batch `look` of a sequential audit seeded `seed`: the seed
/// itself for the first batch (so the first look counts exactly what a plain
/// audit of the first look's trials would), splitmix64(seed ⊕ j) for batch
/// j after it, so the batches are independent and the whole audit is
/// reproducible.
pub fn batch_seed(seed: u64, look: usize) -> u64 {
    if look == 0 {
        seed
    } else {
        splitmix64(seed ^ look as u64)
    }
}

/// How a sequential audit looks: its schedule and the level each look may
/// spend.
///
/// The level α is spent across the J looks the budget allows, α/J at each
/// (Bonferroni alpha-spending), and further divided by the audits run
/// alongside (Bonferroni across the run), so the chance that any fair subject
/// of the run is ever called biased stays at most α.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Cumulative trials at each look ([`look_schedule`]).
    pub schedule: Vec<u64>,
    /// Audits of the run (at least 1), each sequential at the same budget.
    pub audits_in_run: usize,
    /// The level α before any division.
    pub alpha: f64,
}

impl Plan {
    /// The plan of an audit whose first look counts `first` trials, with a
    /// budget of `max_trials`, at `alpha`, among `audits_in_run` audits.
    /// Refuses a bad α, and a budget below the first look (or a first look of
    /// no trials), before anything runs.
    pub fn new(first: u64, max_trials: u64, alpha: f64, audits_in_run: usize) -> Result<Self> {
        check_alpha(alpha)?;
        if first == 0 || max_trials < first {
            return Err(Error::out_of_range(format!(
                "the trial budget ({max_trials}) must be at least the first look's trials \
                 ({first})"
            )));
        }
        Ok(Self {
            schedule: look_schedule(first, max_trials),
            audits_in_run: audits_in_run.max(1),
            alpha,
        })
    }

    /// J × audits: how many parts α is divided into. The level of one look
    /// is α over this, and the adjusted p-value is the best look's p times it.
    pub fn share(&self) -> usize {
        self.schedule.len() * self.audits_in_run
    }

    /// log10 of the level each look may spend: α / (J × audits).
    pub fn log10_alpha(&self) -> f64 {
        (self.alpha / self.share() as f64).log10()
    }

    /// Runs the looks. `count(batch)` counts one look's batch: its trials,
    /// the cumulative trials the look should reach and its [`batch_seed`];
    /// `merge` adds a batch into the counts so far and `log10_p` tests
    /// them. `trials_of` says how many trials counts hold: a look that
    /// reaches fewer than it asked (a file that ended) is the last one, and
    /// every look records the trials it really counted. Stops at the first
    /// look whose p is within its level, or after the last look of the
    /// schedule.
    pub fn run<T>(
        &self,
        seed: u64,
        mut count: impl FnMut(Batch) -> Result<T>,
        merge: impl Fn(&mut T, T),
        trials_of: impl Fn(&T) -> u64,
        mut log10_p: impl FnMut(&T) -> f64,
    ) -> Result<Sequence<T>> {
        let log10_alpha = self.log10_alpha();
        let mut tally: Option<T> = None;
        let mut looks = Vec::new();
        let mut done = 0u64;
        for (j, &cumulative) in self.schedule.iter().enumerate() {
            let batch = count(Batch {
                trials: cumulative - done,
                cumulative,
                seed: batch_seed(seed, j),
            })?;
            done = cumulative;
            let merged = match tally.take() {
                Some(mut t) => {
                    merge(&mut t, batch);
                    t
                }
                None => batch,
            };
            let p = log10_p(&merged);
            let counted = trials_of(&merged);
            tally = Some(merged);
            looks.push(Look {
                trials: counted,
                log10_p: p,
                log10_alpha,
            });
            if p <= log10_alpha || counted < cumulative {
                break;
            }
        }
        let best = looks
            .iter()
            .map(|l| l.log10_p)
            .fold(f64::INFINITY, f64::min);
        Ok(Sequence {
            tally: tally.expect("the schedule has at least one look"),
            looks,
            share: self.share(),
            log10_p_adjusted: (best + (self.share() as f64).log10()).min(0.0),
        })
    }
}

/// One look's batch of a sequential audit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batch {
    /// The trials of this batch (what the look adds).
    pub trials: u64,
    /// The trials the look should reach in all (what a source read from
    /// its start, such as a file, reads).
    pub cumulative: u64,
    /// The batch's seed (`batch_seed` of the audit's seed and the look).
    pub seed: u64,
}

/// What a sequential audit counted and saw, ready to be judged.
#[derive(Debug, Clone)]
pub struct Sequence<T> {
    /// Every batch's counts, merged.
    pub tally: T,
    /// The looks taken, in order (the last one is where it stopped).
    pub looks: Vec<Look>,
    /// J × audits ([`Plan::share`]): each test of the audit stands for this
    /// many members of the run's family, for the sensitivity the verdict
    /// states.
    pub share: usize,
    /// log10 of the p-value the verdict compares with α: the best look's p
    /// times J × audits, capped at 1.
    pub log10_p_adjusted: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_double_up_to_the_budget() {
        assert_eq!(look_schedule(10, 10), vec![10]);
        assert_eq!(look_schedule(10, 75), vec![10, 20, 40, 75]);
    }

    #[test]
    fn the_first_batch_keeps_the_seed_and_the_others_differ() {
        assert_eq!(batch_seed(7, 0), 7);
        assert_eq!(batch_seed(7, 1), splitmix64(7 ^ 1));
        assert_ne!(batch_seed(7, 1), batch_seed(7, 2));
    }

    #[test]
    fn looks_stop_at_the_first_decisive_one_and_pay_for_every_planned_look() {
        let plan = Plan::new(10, 75, 0.01, 2).unwrap();
        assert_eq!(plan.share(), 8);
        // A "tally" that is the trials counted; decisive from 40 on.
        let mut seeds = Vec::new();
        let seq = plan
            .run(
                5,
                |batch| {
                    seeds.push(batch.seed);
                    Ok(batch.trials)
                },
                |t, b| *t += b,
                |&t| t,
                |&t| if t >= 40 { -9.0 } else { -1.0 },
            )
            .unwrap();
        assert_eq!(seq.tally, 40);
        assert_eq!(seeds, [5, batch_seed(5, 1), batch_seed(5, 2)]);
        let trials: Vec<u64> = seq.looks.iter().map(|l| l.trials).collect();
        assert_eq!(trials, [10, 20, 40]);
        assert!((seq.looks[0].log10_alpha - (0.01f64 / 8.0).log10()).abs() < 1e-12);
        assert!((seq.log10_p_adjusted - (-9.0 + 8f64.log10())).abs() < 1e-12);
        assert!(Plan::new(10, 9, 0.01, 1).is_err());
        assert!(Plan::new(0, 9, 0.01, 1).is_err());
    }
}
