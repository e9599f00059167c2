//! The enumeration drivers: plain odometer over draw sequences, the
//! rejection-folded variant for `pick-until-unused`, and step-by-step
//! composition for `random-swap`; plus the work count checked against the
//! cap before anything runs.

use super::mass::{Entries, Fraction, MassTable, sort_by_permutation};
use super::plan::Plan;
use super::{DrawLaw, ExactLaw, Method, Origin, Script, ScriptFault};
use crate::algorithm::{Algorithm, Exact, Leaves, Scratch};
use crate::error::{Error, ErrorKind, Result};
use crate::source::{RAND15_RANGE, SourceSpec};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::One;
use std::collections::HashMap;
use std::fmt;

/// Largest n [`super::enumerate`] takes: the law and its n×n exact marginals
/// are kept in memory (beyond it, use [`super::marginals`]).
pub const MAX_ENUMERATE_N: usize = 256;

/// The method for `algorithm`, or why it cannot be enumerated, as its
/// record says.
pub(crate) fn method_for(algorithm: Algorithm) -> Result<Method> {
    match algorithm.record().exact {
        Exact::Replay(_) => Ok(Method::Enumerated),
        Exact::ReplayWithoutRepeats => Ok(Method::RejectionFolded),
        Exact::Stepwise => Ok(Method::Stepwise),
        Exact::Unavailable(why) => Err(Error::of_kind(
            ErrorKind::Unsupported,
            format!("{algorithm} cannot be enumerated exactly: {why}"),
        )),
    }
}

/// Everything [`super::enumerate`] refuses, checked without doing the work.
pub(crate) fn check(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
    max_leaves: u64,
) -> Result<(DrawLaw, Method)> {
    super::check_n(n)?;
    if n > MAX_ENUMERATE_N {
        return Err(Error::too_costly(format!(
            "n = {n} is too large to enumerate (at most {MAX_ENUMERATE_N}); the marginal \
             matrix alone can be propagated for large n (--marginals)"
        )));
    }
    let law = DrawLaw::of(&source)?;
    let method = method_for(algorithm)?;
    if method == Method::RejectionFolded && (law.support(n as u32) as usize) < n {
        return Err(Error::unsupported(format!(
            "{algorithm} never finishes at n = {n} under {source}: indices at or above \
             {RAND15_RANGE} are never drawn"
        )));
    }
    let needed = leaves_needed(algorithm, n, law);
    if needed.exceeds(max_leaves) {
        return Err(cap_error(algorithm, n, &needed, max_leaves));
    }
    check_memory(algorithm, n, &needed)?;
    Ok((law, method))
}

pub(crate) fn enumerate(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
    max_leaves: u64,
) -> Result<ExactLaw> {
    let (law, method) = check(algorithm, n, source, max_leaves)?;
    let origin = Origin {
        algorithm,
        source,
        n,
        method,
    };
    let (entries, leaves) = match method {
        Method::Stepwise => {
            let steps = algorithm.step_count(n).unwrap_or(n as u64);
            stepwise(origin, steps, law, max_leaves)?
        }
        _ => {
            let script = if method == Method::RejectionFolded {
                Script::without_repeats(law)
            } else {
                Script::new(law)
            };
            let (table, leaves) = odometer(origin, script, max_leaves)?;
            (table.into_sorted(), leaves)
        }
    };
    Ok(ExactLaw::build(origin, leaves, entries))
}

/// Replays the algorithm on every leaf of the draw tree.
fn odometer(origin: Origin, mut script: Script, max_leaves: u64) -> Result<(MassTable, u64)> {
    let Origin { algorithm, n, .. } = origin;
    let mut table = MassTable::default();
    let mut a = vec![0u32; n];
    let mut scratch = Scratch::default();
    let mut leaves = 0u64;
    loop {
        leaves += 1;
        if leaves > max_leaves {
            return Err(cap_error(
                algorithm,
                n,
                &Count::at_least(leaves),
                max_leaves,
            ));
        }
        script.rewind();
        for (i, slot) in a.iter_mut().enumerate() {
            *slot = i as u32;
        }
        algorithm.shuffle_with(&mut a, &mut script, &mut scratch);
        script.finish_run().map_err(|f| fault_error(origin, f))?;
        table.add(&a, script.fraction());
        if !script.advance() {
            return Ok((table, leaves));
        }
    }
}

/// Composes `steps` independent steps of `random-swap` (the algorithm run
/// with k = 1) over the arrangements reached so far. Every step's leaves
/// share one denominator (two draws below n), so the masses are kept as big
/// integers over the product of those.
fn stepwise(origin: Origin, steps: u64, law: DrawLaw, max_leaves: u64) -> Result<(Entries, u64)> {
    let n = origin.n;
    let one_step = origin
        .algorithm
        .with_k(1)
        .expect("a stepwise algorithm has a step count");
    let identity: Box<[u32]> = (0..n as u32).collect();
    let mut states: HashMap<Box<[u32]>, BigUint> = HashMap::from([(identity, BigUint::one())]);
    let mut den = BigUint::one();
    let mut script = Script::new(law);
    let mut scratch = Scratch::default();
    let mut a = vec![0u32; n];
    let mut replays = 0u64;
    for _ in 0..steps {
        let mut next: HashMap<Box<[u32]>, BigUint> = HashMap::with_capacity(states.len());
        let mut step_den: Option<u128> = None;
        for (state, mass) in &states {
            loop {
                replays += 1;
                if replays > max_leaves {
                    return Err(cap_error(
                        origin.algorithm,
                        n,
                        &Count::at_least(replays),
                        max_leaves,
                    ));
                }
                script.rewind();
                a.copy_from_slice(state);
                one_step.shuffle_with(&mut a, &mut script, &mut scratch);
                script.finish_run().map_err(|f| fault_error(origin, f))?;
                let Fraction::Small { num, den: d } = script.fraction() else {
                    unreachable!("two draws have a u128 denominator")
                };
                debug_assert!(step_den.is_none_or(|s| s == d));
                step_den = Some(d);
                if num != 0 {
                    let add = if num == 1 { mass.clone() } else { mass * num };
                    match next.get_mut(a.as_slice()) {
                        Some(m) => *m += add,
                        None => {
                            next.insert(a.as_slice().into(), add);
                        }
                    }
                }
                if !script.advance() {
                    break;
                }
            }
        }
        den *= step_den.unwrap_or(1);
        states = next;
    }
    let den = BigInt::from(den);
    let mut entries: Entries = states
        .into_iter()
        .map(|(perm, mass)| (perm, BigRational::new(BigInt::from(mass), den.clone())))
        .collect();
    sort_by_permutation(&mut entries);
    Ok((entries, replays.max(1)))
}

/// A count that may be too large for `u128`, known at least by its log10.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Count {
    exact: Option<u128>,
    log10: f64,
    at_least: bool,
}

impl Count {
    fn of(x: u128) -> Self {
        Self {
            exact: Some(x),
            log10: (x as f64).log10(),
            at_least: false,
        }
    }

    fn at_least(x: u64) -> Self {
        Self {
            at_least: true,
            ..Self::of(x.into())
        }
    }

    fn times(self, k: u128) -> Self {
        Self {
            exact: self.exact.and_then(|x| x.checked_mul(k)),
            log10: self.log10 + (k as f64).log10(),
            at_least: self.at_least,
        }
    }

    fn pow(self, k: u32) -> Self {
        Self {
            exact: self.exact.and_then(|x| x.checked_pow(k)),
            log10: self.log10 * f64::from(k),
            at_least: self.at_least,
        }
    }

    fn plus(self, other: Self) -> Self {
        let (hi, lo) = if self.log10 >= other.log10 {
            (self.log10, other.log10)
        } else {
            (other.log10, self.log10)
        };
        let log10 = if lo == f64::NEG_INFINITY {
            hi
        } else {
            hi + (1.0 + 10f64.powf(lo - hi)).log10()
        };
        Self {
            exact: self
                .exact
                .zip(other.exact)
                .and_then(|(a, b)| a.checked_add(b)),
            log10,
            at_least: self.at_least || other.at_least,
        }
    }

    fn exceeds(&self, cap: u64) -> bool {
        self.exact.is_none_or(|x| x > u128::from(cap))
    }

    /// The exact value, where it fits in `u128`.
    #[cfg(test)]
    pub(crate) fn exact(&self) -> Option<u128> {
        self.exact
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at_least {
            f.write_str("more than ")?;
        }
        match self.exact {
            Some(x) if x < 1_000_000 => write!(f, "{x}"),
            Some(x) => write!(f, "{x} ({:.2e})", x as f64),
            None => {
                let exponent = self.log10.floor();
                let mantissa = 10f64.powf(self.log10 - exponent);
                write!(f, "about {mantissa:.1}e{exponent}")
            }
        }
    }
}

/// How many leaves (replays of the algorithm, or of one step for
/// `random-swap`) enumerating `algorithm` at `n` takes: exact for every
/// algorithm but `random-swap`, for which it is an upper bound.
pub(crate) fn leaves_needed(algorithm: Algorithm, n: usize, law: DrawLaw) -> Count {
    let factorial = |m: usize| (2..=m as u128).fold(Count::of(1), |c, k| c.times(k));
    match algorithm.record().exact {
        Exact::Stepwise => {
            // Before step s at most min(n!, S^(2(s-1))) arrangements, each
            // replayed for S^2 draw pairs, S = draws with non-zero weight.
            let pairs = u128::from(law.support(n as u32)).pow(2);
            let all = factorial(n);
            let k = algorithm.step_count(n).unwrap_or(n as u64);
            let mut total = Count::of(0);
            let mut states = Count::of(1);
            for s in 0..k {
                if states.log10 >= all.log10 {
                    let rest = u128::from(k - s);
                    return total.plus(all.times(pairs).times(rest));
                }
                total = total.plus(states.times(pairs));
                states = states.times(pairs);
            }
            total
        }
        Exact::ReplayWithoutRepeats => {
            let support = u128::from(law.support(n as u32));
            (0..n as u128).fold(Count::of(1), |c, t| c.times(support - t))
        }
        Exact::Replay(Leaves::Comparisons) => factorial(n),
        Exact::Replay(Leaves::FixedBounds) => {
            let mut bounds = Bounds(Vec::new());
            let mut deck: Vec<u32> = (0..n as u32).collect();
            algorithm.shuffle(&mut deck, &mut bounds);
            bounds.0.iter().fold(Count::of(1), |c, &bound| {
                c.times(u128::from(law.support(bound)))
            })
        }
        Exact::Replay(Leaves::Riffles) => {
            let k = algorithm.step_count(n).unwrap_or(1) as u32;
            // One riffle: n cut coins (2^n sequences, c heads in C(n, c) of
            // them), then one draw below L + R per card until a packet is
            // empty: f(L, R) = L f(L-1, R) + R f(L, R-1) sequences (every
            // value below n < 32768 has weight under both laws). The draws
            // never depend on the cards, so k riffles take (one riffle)^k.
            let mut f = vec![vec![Count::of(1); n + 1]; n + 1];
            for l in 1..=n {
                for r in 1..=n - l {
                    f[l][r] = f[l - 1][r]
                        .times(l as u128)
                        .plus(f[l][r - 1].times(r as u128));
                }
            }
            let mut one = Count::of(0);
            let mut choose = 1u128;
            for (c, row) in f.iter().enumerate() {
                one = one.plus(row[n - c].times(choose));
                choose = choose * (n - c) as u128 / (c + 1) as u128;
            }
            // A final cut draws once below n: n leaves per interleaving.
            let cut = matches!(algorithm, Algorithm::Riffle { cut: true, .. });
            let cuts = if cut { n as u128 } else { 1 };
            one.pow(k).times(cuts)
        }
        Exact::Replay(Leaves::Positional) => match Plan::of(algorithm, n) {
            Some(plan) => plan.steps().fold(Count::of(1), |c, step| {
                let support = u128::from(law.support(step.bound));
                c.times(support.pow(step.draws() as u32))
            }),
            None => Count::at_least(u64::MAX),
        },
        // Refused before counting (see `method_for`): no leaves to count.
        Exact::Unavailable(_) => Count::at_least(u64::MAX),
    }
}

/// A source that records the bound of every draw and always draws 0: one
/// replay of an algorithm whose bounds do not depend on the values drawn
/// lists them all.
struct Bounds(Vec<u32>);

impl crate::source::RandomSource for Bounds {
    fn below(&mut self, bound: u32) -> u32 {
        self.0.push(bound);
        0
    }

    fn bits32(&mut self) -> u32 {
        unreachable!("fixed-bounds algorithms draw bounded integers only")
    }
}

/// Memory kept per reachable permutation, measured at n = 10 (about 450
/// bytes with the report) and rounded up: the permutation, its exact
/// probability, the aggregation table and the outputs built from them.
const BYTES_PER_PERMUTATION: u128 = 640;

/// Refuses an enumeration whose reachable permutations (at most the leaves
/// and at most n!) would not fit in the available memory.
fn check_memory(algorithm: Algorithm, n: usize, leaves: &Count) -> Result<()> {
    let factorial = (2..=n as u128).try_fold(1u128, |f, k| f.checked_mul(k));
    let permutations = match (leaves.exact, factorial) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) => a,
        (None, Some(b)) => b,
        (None, None) => u128::MAX,
    };
    let per_permutation = BYTES_PER_PERMUTATION + 8 * n as u128;
    let needed = permutations.saturating_mul(per_permutation);
    let available = crate::pacing::available_memory().unwrap_or(u128::MAX);
    if needed > available {
        return Err(Error::too_costly(format!(
            "enumerating {algorithm} at n = {n} may reach {permutations} permutations and need \
             about {} of memory, but only {} is available",
            crate::format::human_bytes(needed),
            crate::format::human_bytes(available)
        )));
    }
    Ok(())
}

fn cap_error(algorithm: Algorithm, n: usize, needed: &Count, max_leaves: u64) -> Error {
    Error::of_kind(
        ErrorKind::TooCostly,
        format!(
            "enumerating {algorithm} at n = {n} needs {needed} leaves (replays of the algorithm), \
         more than the cap of {max_leaves} (--max-leaves); raise the cap (time and memory grow \
         with it) or compute only the marginal matrix by propagation (--marginals)"
        ),
    )
}

fn fault_error(origin: Origin, fault: ScriptFault) -> Error {
    Error::unsupported(format!(
        "{} cannot be enumerated exactly at n = {} under {}: {fault}",
        origin.algorithm, origin.n, origin.source
    ))
}
