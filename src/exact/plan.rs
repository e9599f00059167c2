//! Position-only algorithms restated as a plan of random steps, for marginal
//! propagation.
//!
//! An algorithm whose moves depend only on positions and draws (never on the
//! values being moved) sends every value along the same Markov chain of
//! positions, so its marginal matrix can be propagated step by step. The
//! algorithm functions are single loops that cannot be stopped between steps,
//! so each loop is restated here as a list of steps (bounds and a move). The
//! test at the bottom replays every draw sequence (n ≤ 6) through both the
//! real algorithm and its plan and requires identical arrays, so a plan cannot
//! drift from its algorithm unnoticed.

use crate::algorithm::{Algorithm, Positional};

/// What one step does with its draw(s) `j` (and `k` for two-draw steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Move {
    /// `swap(a[i], a[offset + j])`: the Fisher–Yates family and its mistakes.
    SwapWith { i: usize, offset: usize },
    /// `swap(a[j], a[k])`: one transposition of `random-swap`.
    SwapPair,
    /// `a[i..=i+j].rotate_right(1)`: `fisher-yates-original`.
    Strike { i: usize },
    /// `a[j..].rotate_right(1)`: `insert-last`.
    InsertLast,
    /// `a[..=j].rotate_left(1)`: `top-to-random`.
    TopTo,
    /// `a.rotate_left(j)`: `rotation`.
    Rotate,
}

/// One random step: one draw below `bound` (two independent ones for
/// [`Move::SwapPair`]) and the move it makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step {
    /// Bound of the step's draw(s).
    pub bound: u32,
    /// The move.
    pub kind: Move,
}

impl Step {
    /// Draws this step makes.
    pub(crate) fn draws(&self) -> usize {
        match self.kind {
            Move::SwapPair => 2,
            _ => 1,
        }
    }

    /// Applies the step with draws `d` (as many as [`draws`](Self::draws)).
    pub(crate) fn apply(&self, a: &mut [u32], d: &[u32]) {
        let j = d[0] as usize;
        match self.kind {
            Move::SwapWith { i, offset } => a.swap(i, offset + j),
            Move::SwapPair => a.swap(j, d[1] as usize),
            Move::Strike { i } => a[i..=i + j].rotate_right(1),
            Move::InsertLast => a[j..].rotate_right(1),
            Move::TopTo => a[..=j].rotate_left(1),
            Move::Rotate => a.rotate_left(j),
        }
    }
}

/// The steps of a position-only algorithm at size `n`, generated on demand
/// (`random-swap` may have billions).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    pattern: Positional,
    n: usize,
    len: u64,
}

impl Plan {
    /// The plan of `algorithm` at `n`, or `None` if its record has no
    /// position-only pattern (its moves depend on the values, or it draws
    /// raw bits, or, for riffles, packet sizes that are themselves drawn).
    pub(crate) fn of(algorithm: Algorithm, n: usize) -> Option<Self> {
        let pattern = algorithm.record().positional?;
        let n64 = n as u64;
        let len = match pattern {
            Positional::Durstenfeld | Positional::Forward | Positional::Sattolo => {
                n64.saturating_sub(1)
            }
            Positional::InsideOut
            | Positional::Strike
            | Positional::Naive
            | Positional::Shrinking
            | Positional::InsertLast
            | Positional::TopTo => n64,
            Positional::Transpositions => algorithm.step_count(n).unwrap_or(n64),
            Positional::Rotate => 1,
        };
        Some(Self { pattern, n, len })
    }

    /// Number of steps.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Step `s` (0-based, below [`len`](Self::len)).
    pub(crate) fn step(&self, s: u64) -> Step {
        let n = self.n;
        let s = s as usize;
        let (bound, kind) = match self.pattern {
            Positional::Durstenfeld => {
                let i = n - 1 - s;
                (i + 1, Move::SwapWith { i, offset: 0 })
            }
            Positional::Forward => (n - s, Move::SwapWith { i: s, offset: s }),
            Positional::InsideOut => (s + 1, Move::SwapWith { i: s, offset: 0 }),
            Positional::Strike => (n - s, Move::Strike { i: s }),
            Positional::Naive => (n, Move::SwapWith { i: s, offset: 0 }),
            Positional::Transpositions => (n, Move::SwapPair),
            Positional::Shrinking => (n - s, Move::SwapWith { i: s, offset: 0 }),
            Positional::Sattolo => {
                let i = n - 1 - s;
                (i, Move::SwapWith { i, offset: 0 })
            }
            Positional::InsertLast => (n, Move::InsertLast),
            Positional::TopTo => (n, Move::TopTo),
            Positional::Rotate => (n, Move::Rotate),
        };
        Step {
            bound: bound as u32,
            kind,
        }
    }

    /// The steps in order.
    pub(crate) fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        (0..self.len).map(|s| self.step(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::ComparatorSort;
    use crate::exact::{DrawLaw, Script};

    /// Every algorithm with a plan, including non-default parameters.
    pub(crate) fn planned() -> Vec<Algorithm> {
        let mut algs: Vec<Algorithm> = Algorithm::ALL
            .into_iter()
            .filter(|&a| Plan::of(a, 4).is_some())
            .collect();
        algs.push(Algorithm::RandomSwap { k: Some(2) });
        algs
    }

    #[test]
    fn plans_match_their_algorithms_on_every_draw_sequence() {
        for alg in planned() {
            for n in 2..=6usize {
                if matches!(alg, Algorithm::RandomSwap { k: None }) && n > 4 {
                    continue; // n^(2n) sequences: 4^8 is plenty
                }
                let plan = Plan::of(alg, n).unwrap();
                let mut script = Script::new(DrawLaw::Ideal);
                let mut sequences = 0u64;
                loop {
                    script.rewind();
                    let mut real: Vec<u32> = (0..n as u32).collect();
                    alg.shuffle(&mut real, &mut script);
                    script.finish_run().unwrap();
                    let (draws, bounds) = (script.draws(), script.bounds());
                    let mut planned: Vec<u32> = (0..n as u32).collect();
                    let mut at = 0;
                    for step in plan.steps() {
                        let k = step.draws();
                        assert!(
                            bounds[at..at + k].iter().all(|&b| b == step.bound),
                            "{alg} n={n}: bounds {bounds:?} at step draw {at}"
                        );
                        step.apply(&mut planned, &draws[at..at + k]);
                        at += k;
                    }
                    assert_eq!(at, draws.len(), "{alg} n={n}: draw count");
                    assert_eq!(planned, real, "{alg} n={n} draws {draws:?}");
                    sequences += 1;
                    if !script.advance() {
                        break;
                    }
                }
                let expected: u64 = plan
                    .steps()
                    .map(|s| u64::from(s.bound).pow(s.draws() as u32))
                    .product();
                assert_eq!(sequences, expected, "{alg} n={n}");
            }
        }
    }

    #[test]
    fn value_dependent_algorithms_have_no_plan() {
        for alg in [
            Algorithm::PickUntilUnused,
            Algorithm::RandCrate,
            Algorithm::SortRandomKeys,
            Algorithm::SortRandomComparator {
                sort: ComparatorSort::Merge,
            },
        ] {
            assert!(Plan::of(alg, 5).is_none(), "{alg}");
        }
        assert_eq!(planned().len(), 12);
    }
}
