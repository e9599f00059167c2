//! Marginal matrices by propagation: for algorithms whose moves depend only on
//! positions, every value's position is a Markov chain, so the whole matrix
//! M[p][v] = P(value v at position p) is pushed through each step's
//! transition matrix, T[q][p] = P(the content of position p moves to q).
//!
//! Cost: about n³ operations per step (less for sparse steps), so
//! milliseconds at n = 52. Small cases (n ≤ [`EXACT_MAX_N`] and a total
//! denominator of at most [`EXACT_MAX_BITS`] bits) are done in exact integer
//! arithmetic over the product of the steps' denominators. Larger ones use
//! `f64`: every entry is a sum of products of non-negative numbers, so
//! rounding errors do not cancel into large relative errors; the relative
//! error per entry is at most about (steps · (n + 2)) · 2^-53, about 3e-13 at
//! n = 52, far below any deviation worth reporting (see
//! [`ExactMarginals::rounding_bound`]).

use super::plan::{Plan, Step};
use super::{DrawLaw, ExactMarginals, Method, Origin};
use crate::algorithm::Algorithm;
use crate::error::{Error, Result};
use crate::source::SourceSpec;
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Largest n propagated in exact arithmetic.
pub const EXACT_MAX_N: usize = 24;

/// Largest total denominator (in bits) propagated in exact arithmetic: beyond
/// it (say `random-swap:k=1000`) big-integer arithmetic gets slow.
pub const EXACT_MAX_BITS: f64 = 4096.0;

/// Largest amount of work (about multiply-adds) a propagation may take: about
/// ten seconds.
pub const MAX_WORK: f64 = 1e10;

/// The numbers a propagation runs on: exact integers over a tracked
/// denominator, or `f64` probabilities.
trait Scalar: Clone {
    /// Whether values are integers over a denominator the caller tracks.
    const EXACT: bool;
    fn zero() -> Self;
    fn one() -> Self;
    /// `self += x · w`.
    fn mul_add(&mut self, x: &Self, w: u64);
    /// End of a step whose weights were over `den`.
    fn end_step(&mut self, den: u64);
}

impl Scalar for f64 {
    const EXACT: bool = false;
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    #[inline]
    fn mul_add(&mut self, x: &Self, w: u64) {
        *self += x * w as f64;
    }
    #[inline]
    fn end_step(&mut self, den: u64) {
        *self /= den as f64;
    }
}

impl Scalar for BigUint {
    const EXACT: bool = true;
    fn zero() -> Self {
        Zero::zero()
    }
    fn one() -> Self {
        One::one()
    }
    #[inline]
    fn mul_add(&mut self, x: &Self, w: u64) {
        if w == 1 {
            *self += x;
        } else {
            *self += x * w;
        }
    }
    #[inline]
    fn end_step(&mut self, _den: u64) {
        // The denominator is tracked by the caller.
    }
}

/// One step's transitions: the non-zero (q, p, weight) and their common
/// denominator.
struct Transition {
    step: Step,
    entries: Vec<(usize, usize, u64)>,
    den: u64,
}

impl Transition {
    fn of(step: Step, n: usize, law: DrawLaw) -> Self {
        let support = law.support(step.bound);
        let mut t = vec![0u64; n * n];
        let mut a: Vec<u32> = (0..n as u32).collect();
        let mut add = |draws: &[u32], w: u64| {
            if w == 0 {
                return;
            }
            for (q, slot) in a.iter_mut().enumerate() {
                *slot = q as u32;
            }
            step.apply(&mut a, draws);
            for (q, &p) in a.iter().enumerate() {
                t[q * n + p as usize] += w;
            }
        };
        let total = law.total(step.bound);
        let den = match step.draws() {
            1 => {
                for j in 0..support {
                    add(&[j], law.weight(j, step.bound));
                }
                total
            }
            _ => {
                for j in 0..support {
                    for k in 0..support {
                        add(
                            &[j, k],
                            law.weight(j, step.bound) * law.weight(k, step.bound),
                        );
                    }
                }
                total * total
            }
        };
        let entries = t
            .iter()
            .enumerate()
            .filter(|&(_, &w)| w != 0)
            .map(|(i, &w)| (i / n, i % n, w))
            .collect();
        Self { step, entries, den }
    }
}

/// Pushes the identity matrix through every step of `plan`; returns the
/// final matrix and, for exact scalars, the product of the steps'
/// denominators it is over.
fn propagate<S: Scalar>(plan: &Plan, n: usize, law: DrawLaw) -> (Vec<S>, BigUint) {
    let mut m: Vec<S> = (0..n * n)
        .map(|i| if i / n == i % n { S::one() } else { S::zero() })
        .collect();
    let mut next: Vec<S> = vec![S::zero(); n * n];
    let mut den = <BigUint as One>::one();
    let mut transition: Option<Transition> = None;
    for step in plan.steps() {
        if transition.as_ref().is_none_or(|t| t.step != step) {
            transition = Some(Transition::of(step, n, law));
        }
        let t = transition.as_ref().expect("set just above");
        for x in next.iter_mut() {
            *x = S::zero();
        }
        for &(q, p, w) in &t.entries {
            let (to, from) = (&mut next[q * n..(q + 1) * n], &m[p * n..(p + 1) * n]);
            for (x, y) in to.iter_mut().zip(from) {
                x.mul_add(y, w);
            }
        }
        for x in next.iter_mut() {
            x.end_step(t.den);
        }
        if S::EXACT {
            den *= t.den;
        }
        std::mem::swap(&mut m, &mut next);
    }
    (m, den)
}

/// Everything [`super::marginals`] refuses, checked without doing the work;
/// gives the draw law, the plan and whether to use exact arithmetic.
pub(crate) fn check(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
) -> Result<(DrawLaw, Plan, bool)> {
    super::check_n(n)?;
    let law = DrawLaw::of(&source)?;
    let plan = Plan::of(algorithm, n).ok_or_else(|| refusal(algorithm))?;
    let (work, bits) = cost(&plan, n, law);
    if work > MAX_WORK {
        return Err(Error::too_costly(format!(
            "propagating the marginals of {algorithm} at n = {n} takes about {work:.1e} \
             operations, more than the limit of {MAX_WORK:.0e} (about n^3 per step, {} steps)",
            plan.len()
        )));
    }
    Ok((law, plan, n <= EXACT_MAX_N && bits <= EXACT_MAX_BITS))
}

/// See [`super::marginals`].
pub(crate) fn marginals(
    algorithm: Algorithm,
    n: usize,
    source: SourceSpec,
) -> Result<ExactMarginals> {
    let (law, plan, exact) = check(algorithm, n, source)?;
    let origin = Origin {
        algorithm,
        source,
        n,
        method: Method::Propagated,
    };
    if exact {
        let (m, den) = propagate::<BigUint>(&plan, n, law);
        Ok(ExactMarginals::from_sums(origin, &m, &den))
    } else {
        let (m, _) = propagate::<f64>(&plan, n, law);
        Ok(ExactMarginals::from_f64(
            origin,
            m,
            rounding_bound(&plan, n),
        ))
    }
}

/// The relative error bound of an `f64` propagation: each step computes
/// every entry as a sum of at most n non-negative products, then one division,
/// so it adds at most (n + 2) roundings of relative size 2^-53.
fn rounding_bound(plan: &Plan, n: usize) -> f64 {
    plan.len() as f64 * (n as f64 + 2.0) * f64::EPSILON / 2.0
}

/// The marginals in `f64` whatever n (for tests of the `f64` path).
#[cfg(test)]
pub(crate) fn marginals_f64(algorithm: Algorithm, n: usize, source: SourceSpec) -> Vec<f64> {
    let law = DrawLaw::of(&source).unwrap();
    let plan = Plan::of(algorithm, n).unwrap();
    propagate::<f64>(&plan, n, law).0
}

/// Estimated work (multiply-adds, an upper bound) and bits of the total
/// denominator of propagating `plan`. Once the work is past [`MAX_WORK`]
/// the rest is extrapolated (a huge `random-swap:k` need not be walked).
fn cost(plan: &Plan, n: usize, law: DrawLaw) -> (f64, f64) {
    let nf = n as f64;
    let (mut work, mut bits) = (0.0, 0.0);
    let mut last: Option<Step> = None;
    for (done, step) in plan.steps().enumerate() {
        let draws = step.draws() as i32;
        let support = f64::from(law.support(step.bound));
        work += nf * nf * nf;
        if last != Some(step) {
            work += support.powi(draws) * nf;
            last = Some(step);
        }
        bits += draws as f64 * (law.total(step.bound) as f64).log2();
        if work > MAX_WORK {
            let scale = plan.len() as f64 / (done + 1) as f64;
            return (work * scale, bits * scale);
        }
    }
    (work, bits)
}

/// Why `algorithm` cannot be propagated.
fn refusal(algorithm: Algorithm) -> Error {
    let why = match algorithm {
        Algorithm::PickUntilUnused => {
            "which element it takes next depends on which ones are already taken"
        }
        Algorithm::SortRandomComparator { .. } => {
            "its moves depend on comparisons between the values"
        }
        _ => "it draws raw random bits, whose effect depends on the values",
    };
    let supported: Vec<String> = Algorithm::ALL
        .iter()
        .filter(|a| Plan::of(**a, 2).is_some())
        .map(|a| a.name().to_string())
        .collect();
    Error::unsupported(format!(
        "marginal propagation cannot handle {algorithm}: {why}. It needs moves that depend on \
         positions alone ({}); enumerate {algorithm} at small n instead",
        supported.join(", ")
    ))
}
