//! Exact laws of the samplers, with rational probabilities, by replaying
//! the real kernels against the enumerating [`Script`] source (the same
//! odometer exact mode uses for shuffles; see `exact::script`).
//!
//! Draws are taken to be ideal uniform draws ([`DrawLaw::Ideal`]): the law
//! is the sampler's own, not a generator's. Three methods, chosen by the
//! sampler's record ([`SamplerExact`]):
//!
//! - [`Replay`](SamplerExact::Replay): every draw sequence is replayed
//!   once; each leaf's probability (the product of its draws') is added to
//!   the sample it produced.
//! - [`ReplayWithoutRepeats`](SamplerExact::ReplayWithoutRepeats)
//!   (`retry-distinct`): its draw sequences are unbounded, but a repeated
//!   value changes nothing and is drawn again, so the script deals only new
//!   values, each uniform among those left (exact under independent draws).
//! - [`PassFolded`](SamplerExact::PassFolded) (`bernoulli-trim`): its
//!   rescans are unbounded too, and a pass that takes nothing is repeated
//!   as it was. The law is built over taken sets, one pass at a time: for
//!   each set reached, every draw sequence of one pass (the kernel's own
//!   pass function) is replayed, the chance `q` of taking nothing is
//!   folded away (the other outcomes are divided by `1 - q`), and the mass
//!   moves on to strictly larger sets.
//!
//! `reservoir-skip` (real-valued uniforms from raw bits) has none and is
//! refused with its record's reason.

use super::kernels::bernoulli_pass;
use super::{Sampler, SamplerExact, SamplerScratch, Shape, SubsetMethod, WeightTable};
use crate::error::{Error, Result};
use crate::exact::{DEFAULT_MAX_LEAVES, DrawLaw, Script, ScriptFault};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::HashMap;

/// Largest population an exact subset law takes (a taken set is kept as a
/// 64-bit mask by the pass-folded method; the leaf cap is what limits the
/// others in practice).
pub const MAX_EXACT_N: usize = 64;

/// The exact law of a k-of-N sampler (or board) at population `n`.
#[derive(Debug, Clone)]
pub struct SubsetLaw {
    n: usize,
    k: usize,
    ordered: bool,
    method: SamplerExact,
    leaves: u64,
    /// Reachable k-subsets (items ascending) with probabilities, sorted.
    subsets: Vec<(Vec<u32>, BigRational)>,
    /// For an ordered sampler, reachable k-tuples with probabilities, sorted.
    tuples: Vec<(Vec<u32>, BigRational)>,
}

impl SubsetLaw {
    /// The population size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The sample size.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The exact method used.
    pub fn method(&self) -> SamplerExact {
        self.method
    }

    /// How many replays (of the sampler, or of one pass) it took.
    pub fn leaves(&self) -> u64 {
        self.leaves
    }

    /// Every reachable k-subset (items ascending) with its exact
    /// probability, sorted by subset; unreachable subsets are absent.
    pub fn subsets(&self) -> &[(Vec<u32>, BigRational)] {
        &self.subsets
    }

    /// For an ordered sampler, every reachable ordered k-tuple (as the
    /// sampler returns it) with its exact probability, sorted; `None` for
    /// an unordered one.
    pub fn tuples(&self) -> Option<&[(Vec<u32>, BigRational)]> {
        self.ordered.then_some(self.tuples.as_slice())
    }

    /// The probability that the sample is the set `items` (in any order).
    pub fn probability(&self, items: &[u32]) -> BigRational {
        let mut key = items.to_vec();
        key.sort_unstable();
        let found = self.subsets.binary_search_by(|(k, _)| k.cmp(&key));
        found.map_or_else(|_| BigRational::zero(), |i| self.subsets[i].1.clone())
    }

    /// Each item's probability of being in the sample (they add up to k).
    pub fn inclusion(&self) -> Vec<BigRational> {
        let mut p = vec![BigRational::zero(); self.n];
        for (subset, q) in &self.subsets {
            for &v in subset {
                p[v as usize] += q;
            }
        }
        p
    }

    /// The total probability (exactly 1 when the law is right).
    pub fn total(&self) -> BigRational {
        self.subsets
            .iter()
            .fold(BigRational::zero(), |acc, (_, q)| acc + q)
    }

    /// The number of k-subsets of `0..n`, C(n, k).
    pub fn subset_count(&self) -> BigInt {
        binomial(self.n, self.k)
    }

    /// Whether every k-subset has probability exactly 1/C(n, k).
    pub fn is_uniform(&self) -> bool {
        all_of(&self.subsets, self.subset_count())
    }

    /// For an ordered sampler, whether every ordered k-tuple of distinct
    /// items has probability exactly (n-k)!/n!; `None` for an unordered one.
    pub fn is_uniform_ordered(&self) -> Option<bool> {
        let count = (self.n - self.k + 1..=self.n).fold(BigInt::one(), |c, x| c * x);
        self.ordered.then(|| all_of(&self.tuples, count))
    }

    /// The total variation distance between the subset law and the
    /// uniform law on k-subsets (unreached subsets included): 0 exactly
    /// when [`is_uniform`](Self::is_uniform).
    pub fn distance_to_uniform(&self) -> BigRational {
        let count = self.subset_count();
        let u = BigRational::new(BigInt::one(), count.clone());
        let reached: BigRational = self
            .subsets
            .iter()
            .fold(BigRational::zero(), |acc, (_, q)| acc + (q - &u).abs());
        let missing = BigRational::from_integer(count - BigInt::from(self.subsets.len())) * &u;
        (reached + missing) / BigRational::from_integer(BigInt::from(2))
    }
}

/// The exact law of a weighted pick for one weight vector.
#[derive(Debug, Clone)]
pub struct PickLaw {
    weights: Vec<u64>,
    leaves: u64,
    probabilities: Vec<BigRational>,
}

impl PickLaw {
    /// The weights.
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// How many draw sequences were replayed.
    pub fn leaves(&self) -> u64 {
        self.leaves
    }

    /// Each index's exact probability.
    pub fn probabilities(&self) -> &[BigRational] {
        &self.probabilities
    }

    /// Whether every index has probability exactly `w[i] / Σw`.
    pub fn is_proportional(&self) -> bool {
        let total: u64 = self.weights.iter().sum();
        self.weights
            .iter()
            .zip(&self.probabilities)
            .all(|(&w, p)| *p == BigRational::new(w.into(), total.into()))
    }
}

/// The exact law of `sampler` (a k-of-N sampler or a board) on `0..n`,
/// with at most [`DEFAULT_MAX_LEAVES`] replays.
pub fn exact_subset_law(sampler: Sampler, n: usize) -> Result<SubsetLaw> {
    exact_subset_law_capped(sampler, n, DEFAULT_MAX_LEAVES)
}

/// [`exact_subset_law`] with at most `max_leaves` replays: refused before
/// any work when the count is known in advance to exceed it, stopped when
/// reached otherwise (`bernoulli-trim`).
pub fn exact_subset_law_capped(sampler: Sampler, n: usize, max_leaves: u64) -> Result<SubsetLaw> {
    let record = sampler.record();
    let Some(method) = sampler.subset_method() else {
        return Err(Error::unsupported(format!(
            "{sampler} picks one index by weight: its exact law is exact_pick_law's"
        )));
    };
    sampler.check(n)?;
    if n > MAX_EXACT_N {
        return Err(Error::too_costly(format!(
            "n = {n} is too large for an exact sampler law (at most {MAX_EXACT_N})"
        )));
    }
    let k = sampler.k() as usize;
    if let SamplerExact::Unavailable(why) = record.exact {
        return Err(Error::unsupported(format!(
            "{sampler} cannot be enumerated exactly: {why}"
        )));
    }
    if let Some(needed) = leaves_needed(method, n, k)
        && needed > u128::from(max_leaves)
    {
        return Err(cap_error(sampler, n, &needed.to_string(), max_leaves));
    }
    debug_assert!(matches!(record.shape, Shape::Subset | Shape::Board { .. }));
    let ordered = record.ordered;
    let (table, leaves) = match record.exact {
        SamplerExact::Replay => {
            replay(sampler, n, Script::new(DrawLaw::Ideal), ordered, max_leaves)?
        }
        SamplerExact::ReplayWithoutRepeats => replay(
            sampler,
            n,
            Script::without_repeats(DrawLaw::Ideal),
            ordered,
            max_leaves,
        )?,
        SamplerExact::PassFolded => passes(sampler, n, k, max_leaves)?,
        SamplerExact::Unavailable(_) => unreachable!("refused above"),
    };
    let mut outcomes: Vec<(Vec<u32>, BigRational)> =
        table.into_iter().map(|(key, m)| (key, m.total())).collect();
    outcomes.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let (subsets, tuples) = if ordered {
        let mut sets: HashMap<Vec<u32>, BigRational> = HashMap::new();
        for (tuple, q) in &outcomes {
            let mut key = tuple.clone();
            key.sort_unstable();
            *sets.entry(key).or_insert_with(BigRational::zero) += q;
        }
        let mut subsets: Vec<_> = sets.into_iter().collect();
        subsets.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        (subsets, outcomes)
    } else {
        (outcomes, Vec::new())
    };
    Ok(SubsetLaw {
        n,
        k,
        ordered,
        method: record.exact,
        leaves,
        subsets,
        tuples,
    })
}

/// The exact law of the weighted pick `sampler` with `weights`, with at
/// most [`DEFAULT_MAX_LEAVES`] replays.
pub fn exact_pick_law(sampler: Sampler, weights: &[u64]) -> Result<PickLaw> {
    exact_pick_law_capped(sampler, weights, DEFAULT_MAX_LEAVES)
}

/// [`exact_pick_law`] with at most `max_leaves` replays (refused before any
/// work: `Σw` replays, `n·Σw` for `alias`).
pub fn exact_pick_law_capped(
    sampler: Sampler,
    weights: &[u64],
    max_leaves: u64,
) -> Result<PickLaw> {
    let Sampler::Weighted(method) = sampler else {
        return Err(Error::unsupported(format!(
            "{sampler} is not a weighted pick: its exact law is exact_subset_law's"
        )));
    };
    let table = WeightTable::new(weights)?;
    let n = table.len();
    let total = u128::from(table.total());
    let needed = match method {
        super::WeightedMethod::Alias => total * n as u128,
        _ => total,
    };
    if needed > u128::from(max_leaves) {
        return Err(cap_error(sampler, n, &needed.to_string(), max_leaves));
    }
    let mut masses: Vec<Mass> = vec![Mass::default(); n];
    let mut script = Script::new(DrawLaw::Ideal);
    let mut leaves = 0u64;
    loop {
        leaves += 1;
        script.rewind();
        let i = method.pick(&table, &mut script);
        script
            .finish_run()
            .map_err(|f| fault_error(sampler, n, f))?;
        masses[i as usize].add(&script.probability());
        if !script.advance() {
            break;
        }
    }
    Ok(PickLaw {
        weights: weights.to_vec(),
        leaves,
        probabilities: masses.iter().map(Mass::total).collect(),
    })
}

/// Probability mass gathered on one outcome: leaf probabilities are added
/// as `u128` numerators per distinct denominator (leaves of a sampler share
/// few denominators), and only the final sum becomes a big rational.
#[derive(Debug, Clone, Default)]
struct Mass {
    small: Vec<(u128, u128)>,
    big: Option<BigRational>,
}

impl Mass {
    fn add(&mut self, p: &BigRational) {
        if let (Some(num), Some(den)) = (p.numer().to_u128(), p.denom().to_u128()) {
            match self.small.iter_mut().find(|(d, _)| *d == den) {
                // Never overflows: masses over one denominator add up to at
                // most 1, so the numerators to at most the denominator.
                Some((_, sum)) => *sum += num,
                None => self.small.push((den, num)),
            }
        } else {
            *self.big.get_or_insert_with(BigRational::zero) += p;
        }
    }

    fn total(&self) -> BigRational {
        self.small.iter().fold(
            self.big.clone().unwrap_or_else(BigRational::zero),
            |acc, &(den, num)| acc + BigRational::new(num.into(), den.into()),
        )
    }
}

/// Replays `sampler` on every leaf of the draw tree, adding each leaf's
/// probability to its sample (sorted unless `ordered`).
fn replay(
    sampler: Sampler,
    n: usize,
    mut script: Script,
    ordered: bool,
    max_leaves: u64,
) -> Result<(HashMap<Vec<u32>, Mass>, u64)> {
    let mut table: HashMap<Vec<u32>, Mass> = HashMap::new();
    let mut scratch = SamplerScratch::default();
    let (mut out, mut key) = (Vec::new(), Vec::new());
    let mut leaves = 0u64;
    loop {
        count_leaf(&mut leaves, max_leaves, sampler, n)?;
        script.rewind();
        sampler.sample(n, &mut script, &mut out, &mut scratch);
        script
            .finish_run()
            .map_err(|f| fault_error(sampler, n, f))?;
        key.clear();
        key.extend_from_slice(&out);
        if !ordered {
            key.sort_unstable();
        }
        // Cloning the key only for a new sample, not at every leaf.
        if !table.contains_key(&key) {
            table.insert(key.clone(), Mass::default());
        }
        table
            .get_mut(&key)
            .expect("inserted")
            .add(&script.probability());
        if !script.advance() {
            return Ok((table, leaves));
        }
    }
}

/// `bernoulli-trim`'s law, one pass at a time over the taken sets reached
/// (64-bit masks), passes that take nothing folded away (see the module
/// documentation).
fn passes(
    sampler: Sampler,
    n: usize,
    k: usize,
    max_leaves: u64,
) -> Result<(HashMap<Vec<u32>, Mass>, u64)> {
    let mut layers: Vec<HashMap<u64, BigRational>> = (0..=k).map(|_| HashMap::new()).collect();
    layers[0].insert(0, BigRational::one());
    let mut taken = vec![false; n];
    let mut out: Vec<u32> = Vec::with_capacity(k);
    let mut leaves = 0u64;
    for size in 0..k {
        for (mask, mass) in std::mem::take(&mut layers[size]) {
            let mut reached: HashMap<u64, Mass> = HashMap::new();
            let mut script = Script::new(DrawLaw::Ideal);
            loop {
                count_leaf(&mut leaves, max_leaves, sampler, n)?;
                script.rewind();
                out.clear();
                for (i, flag) in taken.iter_mut().enumerate() {
                    *flag = mask >> i & 1 == 1;
                    if *flag {
                        out.push(i as u32);
                    }
                }
                bernoulli_pass(n, k, &mut script, &mut out, &mut taken);
                script
                    .finish_run()
                    .map_err(|f| fault_error(sampler, n, f))?;
                let after = out.iter().fold(mask, |m, &v| m | 1 << v);
                reached.entry(after).or_default().add(&script.probability());
                if !script.advance() {
                    break;
                }
            }
            let stay = reached
                .remove(&mask)
                .map_or_else(BigRational::zero, |m| m.total());
            let moving = BigRational::one() - stay;
            debug_assert!(
                moving.is_positive(),
                "a pass takes something with positive probability"
            );
            for (after, m) in reached {
                let size = after.count_ones() as usize;
                *layers[size].entry(after).or_insert_with(BigRational::zero) +=
                    &mass * m.total() / &moving;
            }
        }
    }
    let mut table: HashMap<Vec<u32>, Mass> = HashMap::new();
    for (mask, q) in std::mem::take(&mut layers[k]) {
        let subset: Vec<u32> = (0..n as u32).filter(|&i| mask >> i & 1 == 1).collect();
        table.entry(subset).or_default().add(&q);
    }
    Ok((table, leaves))
}

/// How many leaves enumerating `method` at `(n, k)` visits, where it is
/// known in advance (saturating); `None` for `bernoulli-trim` (its pass
/// count is found as it goes, under the cap) and for the unenumerable.
fn leaves_needed(method: SubsetMethod, n: usize, k: usize) -> Option<u128> {
    let product =
        |range: std::ops::Range<usize>| range.fold(1u128, |acc, x| acc.saturating_mul(x as u128));
    Some(match method {
        // Item i (0-based, i >= k) draws below i + 1: n!/k!.
        SubsetMethod::Reservoir | SubsetMethod::SampleRange => product(k + 1..n + 1),
        // ... below i: (n-1)!/(k-1)!.
        SubsetMethod::ReservoirOffByOne => product(k..n),
        // n (n-1) ... (n-k+1).
        SubsetMethod::Floyd
        | SubsetMethod::PartialFisherYates
        | SubsetMethod::RetryDistinct
        | SubsetMethod::VirtualSwap => product(n - k + 1..n + 1),
        SubsetMethod::ShufflePrefix => product(1..n + 1),
        SubsetMethod::NaiveSwapPrefix => (n as u128).saturating_pow(n as u32),
        SubsetMethod::LinearProbe => (n as u128).saturating_pow(k as u32),
        SubsetMethod::Systematic => (n / k) as u128,
        SubsetMethod::Selection => {
            // L(i, need): leaves from item i still needing `need`;
            // L(i, 0) = 1, L(i, need) = need L(i+1, need-1) + (n-i-need) L(i+1, need).
            let mut row = vec![0u128; k + 1]; // row[need] = L(i+1, need)
            row[0] = 1;
            for i in (0..n).rev() {
                for need in (1..=k.min(n - i)).rev() {
                    let take = (need as u128).saturating_mul(row[need - 1]);
                    let skip = ((n - i - need) as u128).saturating_mul(row[need]);
                    row[need] = take.saturating_add(skip);
                }
            }
            row[k]
        }
        SubsetMethod::BernoulliTrim | SubsetMethod::ReservoirSkip => return None,
    })
}

/// C(n, k).
fn binomial(n: usize, k: usize) -> BigInt {
    (0..k).fold(BigInt::one(), |c, i| c * (n - i) / (i + 1))
}

/// Counts one more replay, failing once there are more than `max_leaves`.
fn count_leaf(leaves: &mut u64, max_leaves: u64, sampler: Sampler, n: usize) -> Result<()> {
    *leaves += 1;
    if *leaves > max_leaves {
        return Err(cap_error(
            sampler,
            n,
            &format!("more than {max_leaves}"),
            max_leaves,
        ));
    }
    Ok(())
}

/// Whether `entries` are all `count` outcomes, each of probability 1/count.
fn all_of(entries: &[(Vec<u32>, BigRational)], count: BigInt) -> bool {
    BigInt::from(entries.len()) == count && {
        let u = BigRational::new(BigInt::one(), count);
        entries.iter().all(|(_, q)| *q == u)
    }
}

fn cap_error(sampler: Sampler, n: usize, needed: &str, max_leaves: u64) -> Error {
    Error::too_costly(format!(
        "the exact law of {sampler} at n = {n} needs {needed} leaves (replays), more than \
             the cap of {max_leaves}; use a smaller n or k, or raise the cap"
    ))
}

fn fault_error(sampler: Sampler, n: usize, fault: ScriptFault) -> Error {
    Error::unsupported(format!(
        "{sampler} cannot be enumerated exactly at n = {n}: {fault}"
    ))
}
