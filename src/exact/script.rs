//! A scripted random source that walks through every draw sequence of an
//! algorithm, odometer-style.
//!
//! Each run of the algorithm replays the current path of draw values. A draw
//! past the end of the path takes the first possible value and records its
//! bound. After the run, [`Script::advance`] increments the deepest draw that
//! still has a next value and cuts the path after it: later draws may have
//! different bounds (or not happen at all) on the new branch, so they are
//! discovered afresh by the next run. Because algorithms are deterministic
//! given their draws, this visits every leaf of the draw tree exactly once.

use super::draw_law::DrawLaw;
use super::mass::Fraction;
use crate::source::RandomSource;
use num_rational::BigRational;
use std::fmt;

/// Why a scripted run cannot be trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptFault {
    /// The algorithm asked for raw bits (`bits32`/`bits64`): 2^32 values per
    /// draw cannot be enumerated.
    RawBits,
    /// On replay, draw `draw` came with a different bound than before: the
    /// algorithm is not a function of its draws.
    BoundChanged {
        /// Index of the draw in the sequence.
        draw: usize,
        /// Bound on an earlier run.
        was: u32,
        /// Bound on this run.
        now: u32,
    },
    /// The run made fewer draws than an earlier run with the same prefix.
    ShortRun,
    /// Sampling without repeats ran out of values.
    Exhausted,
}

impl fmt::Display for ScriptFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptFault::RawBits => f.write_str(
                "it asks for raw random bits (bits32/bits64), and 2^32 values per draw cannot be enumerated",
            ),
            ScriptFault::BoundChanged { draw, was, now } => write!(
                f,
                "draw {draw} had bound {was} on one run and {now} on a replay of the same draws"
            ),
            ScriptFault::ShortRun => {
                f.write_str("a replay of the same draws made fewer draws than before")
            }
            ScriptFault::Exhausted => {
                f.write_str("it asked for more distinct values than the draws can give")
            }
        }
    }
}

/// A [`RandomSource`] that replays one path of the draw tree and records the
/// bounds it is asked for; see the module documentation.
///
/// In *without-repeats* mode, a draw never returns a value an earlier draw of
/// the same run returned, and its probability is conditioned on that: value
/// `j` has weight `w(j) / (total - Σ w(earlier values))`. This is exact for a
/// consumer that ignores repeated values and draws again (rejection), because
/// under independent draws the first new value is distributed like that.
#[derive(Debug, Clone)]
pub struct Script {
    law: DrawLaw,
    without_repeats: bool,
    values: Vec<u32>,
    bounds: Vec<u32>,
    next: usize,
    fault: Option<ScriptFault>,
}

impl Script {
    /// A script at the first leaf (every draw 0), with draws following `law`.
    pub fn new(law: DrawLaw) -> Self {
        Self {
            law,
            without_repeats: false,
            values: Vec::new(),
            bounds: Vec::new(),
            next: 0,
            fault: None,
        }
    }

    /// A script in without-repeats mode (see the type's documentation).
    pub fn without_repeats(law: DrawLaw) -> Self {
        Self {
            without_repeats: true,
            ..Self::new(law)
        }
    }

    /// Starts a new run of the current path.
    pub fn rewind(&mut self) {
        self.next = 0;
        self.fault = None;
    }

    /// Checks the run that just ended.
    pub fn finish_run(&mut self) -> Result<(), ScriptFault> {
        if let Some(fault) = self.fault.take() {
            return Err(fault);
        }
        if self.next != self.values.len() {
            return Err(ScriptFault::ShortRun);
        }
        Ok(())
    }

    /// The draw values of the current path.
    pub fn draws(&self) -> &[u32] {
        &self.values
    }

    /// The bounds of the current path's draws.
    pub fn bounds(&self) -> &[u32] {
        &self.bounds
    }

    /// The probability of the current path: the product of its draws'
    /// probabilities.
    pub fn probability(&self) -> BigRational {
        self.fraction().to_rational()
    }

    /// [`probability`](Self::probability), unreduced, for fast adding up.
    pub(crate) fn fraction(&self) -> Fraction {
        let mut f = Fraction::one();
        for i in 0..self.values.len() {
            let (num, den) = self.draw_weight(i);
            f.mul(num, den);
        }
        f
    }

    /// Moves to the next leaf; false when every leaf has been visited.
    pub fn advance(&mut self) -> bool {
        while let Some(&last) = self.values.last() {
            let i = self.values.len() - 1;
            if let Some(v) = self.value_from(i, last + 1, self.bounds[i]) {
                self.values[i] = v;
                return true;
            }
            self.values.pop();
            self.bounds.pop();
        }
        false
    }

    /// Numerator and denominator of draw `i`'s probability.
    fn draw_weight(&self, i: usize) -> (u64, u64) {
        let (value, bound) = (self.values[i], self.bounds[i]);
        let num = self.law.weight(value, bound);
        let mut den = self.law.total(bound);
        if self.without_repeats {
            let support = self.law.support(bound);
            for &earlier in &self.values[..i] {
                if earlier < support {
                    den -= self.law.weight(earlier, bound);
                }
            }
        }
        (num, den)
    }

    /// The first allowed value at draw `i` that is at least `from`.
    fn value_from(&self, i: usize, from: u32, bound: u32) -> Option<u32> {
        let support = self.law.support(bound);
        (from..support).find(|v| !self.without_repeats || !self.values[..i].contains(v))
    }

    fn note(&mut self, fault: ScriptFault) {
        self.fault.get_or_insert(fault);
    }
}

impl RandomSource for Script {
    fn below(&mut self, bound: u32) -> u32 {
        let i = self.next;
        self.next += 1;
        if let Some(&value) = self.values.get(i) {
            if self.bounds[i] != bound {
                let was = self.bounds[i];
                self.note(ScriptFault::BoundChanged {
                    draw: i,
                    was,
                    now: bound,
                });
            }
            return value;
        }
        let value = self.value_from(i, 0, bound).unwrap_or_else(|| {
            self.note(ScriptFault::Exhausted);
            0
        });
        self.values.push(value);
        self.bounds.push(bound);
        value
    }

    fn bits32(&mut self) -> u32 {
        self.note(ScriptFault::RawBits);
        0
    }

    fn bits64(&mut self) -> u64 {
        self.note(ScriptFault::RawBits);
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn leaves(mut script: Script, run: impl Fn(&mut Script)) -> Vec<(Vec<u32>, BigRational)> {
        let mut out = Vec::new();
        loop {
            script.rewind();
            run(&mut script);
            script.finish_run().unwrap();
            out.push((script.draws().to_vec(), script.probability()));
            if !script.advance() {
                return out;
            }
        }
    }

    fn q(num: i64, den: i64) -> BigRational {
        BigRational::new(BigInt::from(num), BigInt::from(den))
    }

    #[test]
    fn the_odometer_visits_every_leaf_of_a_tree_with_varying_bounds() {
        // First draw below 2; if it is 1, a second draw below 3.
        let got = leaves(Script::new(DrawLaw::Ideal), |s| {
            if s.below(2) == 1 {
                s.below(3);
            }
        });
        let paths: Vec<_> = got.iter().map(|(p, _)| p.clone()).collect();
        assert_eq!(paths, vec![vec![0], vec![1, 0], vec![1, 1], vec![1, 2]]);
        assert_eq!(got[0].1, q(1, 2));
        assert_eq!(got[3].1, q(1, 6));
    }

    #[test]
    fn rand15_weights_apply_per_draw() {
        let got = leaves(Script::new(DrawLaw::Rand15Mod), |s| {
            s.below(3);
        });
        // 32768 = 3 * 10922 + 2: residues 0 and 1 get one extra.
        assert_eq!(got[0].1, q(10923, 32768));
        assert_eq!(got[2].1, q(10922, 32768));
    }

    #[test]
    fn without_repeats_conditions_on_new_values() {
        let got = leaves(Script::without_repeats(DrawLaw::Ideal), |s| {
            s.below(3);
            s.below(3);
        });
        assert_eq!(got.len(), 6);
        assert!(got.iter().all(|(p, w)| p[0] != p[1] && *w == q(1, 6)));
        let got = leaves(Script::without_repeats(DrawLaw::Rand15Mod), |s| {
            s.below(3);
            s.below(3);
        });
        // First 0 (10923/32768), then 2 among {1, 2}: 10922 / (32768 - 10923).
        let (_, w) = got.iter().find(|(p, _)| p == &vec![0, 2]).unwrap();
        assert_eq!(*w, q(10923, 32768) * q(10922, 32768 - 10923));
    }

    #[test]
    fn faults_are_reported() {
        let mut s = Script::new(DrawLaw::Ideal);
        s.bits32();
        assert_eq!(s.finish_run(), Err(ScriptFault::RawBits));
        s.rewind();
        s.below(4);
        s.finish_run().unwrap();
        s.rewind();
        s.below(5);
        assert!(matches!(
            s.finish_run(),
            Err(ScriptFault::BoundChanged { was: 4, now: 5, .. })
        ));
        s.rewind();
        assert_eq!(s.finish_run(), Err(ScriptFault::ShortRun));
    }
}
