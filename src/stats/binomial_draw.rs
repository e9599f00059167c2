//! Binomial draws for the Monte Carlo nulls of [`gof`](super::gof): a
//! table of counts drawn from the exact multinomial null is a chain of
//! conditional binomials, one per group, drawn tens of thousands of times
//! with the same probabilities. [`BinomialDraw`] prepares one group's
//! probability once (its logarithms, its ratio) and [`ln_factorial`]
//! keeps `ln k!` per thread, so that a draw costs one `exp` where it cost
//! three `ln_gamma`, two `ln` and an `exp`.
//!
//! Every draw is bit-for-bit the draw of the plain inversion it replaced
//! (the test module keeps that one as the reference and compares long
//! sequences): the same random numbers are taken in the same order, and
//! every figure is computed from the same operands by the same operations
//! in the same order, a kept value being the very value a draw would have
//! computed. So the p-values, the verdicts and the committed reports are
//! unchanged; only their time is.

use rand::Rng;
use statrs::function::gamma::ln_gamma;
use std::cell::RefCell;

/// The largest k whose `ln k!` is kept (per thread, 32 MiB at most, filled
/// lazily): above it, `ln_gamma` is computed on every call, as before.
const KEPT_FACTORIALS: usize = 1 << 22;

thread_local! {
    /// `ln k!` for 2 ≤ k below the length, 0.0 where not computed yet
    /// (for k ≥ 2, `ln k!` ≥ ln 2).
    static LN_FACTORIALS: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// `ln k!`, as `ln_gamma(k as f64 + 1.0)` gives it (the same value: it is
/// computed by that call the first time and kept).
pub(super) fn ln_factorial(k: u64) -> f64 {
    if k < 2 || k as usize >= KEPT_FACTORIALS {
        // (statrs's ln_gamma(1) and ln_gamma(2) are not exactly 0.)
        return ln_gamma(k as f64 + 1.0);
    }
    LN_FACTORIALS.with(|kept| {
        let mut kept = kept.borrow_mut();
        let k = k as usize;
        if kept.len() <= k {
            // Grown in powers of two from zeroed memory (pages untouched
            // until used).
            kept.resize((k + 1).next_power_of_two().min(KEPT_FACTORIALS), 0.0);
        }
        if kept[k] == 0.0 {
            kept[k] = ln_gamma(k as f64 + 1.0);
        }
        kept[k]
    })
}

/// A uniform draw in [0, 1) with 53 random bits.
pub(super) fn unit(rng: &mut impl Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Binomial(n, p) draws by inversion for one fixed p and any n: from 0
/// when np is small, otherwise outward from the mode (any fixed order of
/// the outcomes gives the exact law; this one costs about one and a half
/// standard deviations of steps). A p above one half draws the failures
/// (with 1 − p) and returns n minus them.
#[derive(Debug, Clone, Copy)]
pub(super) enum BinomialDraw {
    /// p ≤ 0: always 0.
    Never,
    /// p ≥ 1: always n.
    Always,
    /// 0 < p < 1: the inversion, of the failures when `flip` (p > 1/2).
    Invert { inversion: Inversion, flip: bool },
}

/// An inversion's figures for one p in (0, 1/2], worked out once.
#[derive(Debug, Clone, Copy)]
pub(super) struct Inversion {
    p: f64,
    ln_p: f64,
    ln_q: f64,
    /// p / q.
    r: f64,
    /// q / p.
    rinv: f64,
}

impl BinomialDraw {
    /// Draws with success probability `p`.
    pub(super) fn new(p: f64) -> Self {
        if p <= 0.0 {
            return Self::Never;
        }
        if p >= 1.0 {
            return Self::Always;
        }
        let (flip, p) = if p > 0.5 { (true, 1.0 - p) } else { (false, p) };
        let q = 1.0 - p;
        let inversion = Inversion {
            p,
            ln_p: p.ln(),
            ln_q: q.ln(),
            r: p / q,
            rinv: q / p,
        };
        Self::Invert { inversion, flip }
    }

    /// One Binomial(n, p) draw.
    pub(super) fn draw(&self, rng: &mut impl Rng, n: u64) -> u64 {
        match *self {
            _ if n == 0 => 0,
            Self::Never => 0,
            Self::Always => n,
            Self::Invert { inversion, flip } => {
                let x = inversion.draw(rng, n);
                if flip { n - x } else { x }
            }
        }
    }
}

impl Inversion {
    /// The inversion itself, for n ≥ 1.
    fn draw(&self, rng: &mut impl Rng, n: u64) -> u64 {
        let Self {
            p,
            ln_p,
            ln_q,
            r,
            rinv,
        } = *self;
        let nf = n as f64;
        let mut u = unit(rng);
        if nf * p < 20.0 {
            let mut f = (nf * ln_q).exp();
            let mut x = 0u64;
            while u > f && x < n {
                u -= f;
                f *= r * (n - x) as f64 / (x + 1) as f64;
                x += 1;
            }
            return x;
        }
        let mode = (((nf + 1.0) * p).floor() as u64).min(n);
        let m = mode as f64;
        let ln_pm = ln_factorial(n) - ln_factorial(mode) - ln_factorial(n - mode)
            + m * ln_p
            + (nf - m) * ln_q;
        let pm = ln_pm.exp();
        if u < pm {
            return mode;
        }
        u -= pm;
        let (mut up, mut fu) = (mode, pm);
        let (mut down, mut fd) = (mode, pm);
        loop {
            let can_up = up < n;
            let can_down = down > 0;
            if !can_up && !can_down {
                return mode;
            }
            if can_up {
                fu *= r * (n - up) as f64 / (up + 1) as f64;
                up += 1;
                if u < fu {
                    return up;
                }
                u -= fu;
            }
            if can_down {
                fd *= rinv * down as f64 / (n - down + 1) as f64;
                down -= 1;
                if u < fd {
                    return down;
                }
                u -= fd;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The plain inversion [`BinomialDraw`] replaced, as it was: the
    /// reference every draw must equal, bit for bit.
    fn reference(rng: &mut impl Rng, n: u64, p: f64) -> u64 {
        if n == 0 || p <= 0.0 {
            return 0;
        }
        if p >= 1.0 {
            return n;
        }
        if p > 0.5 {
            return n - reference(rng, n, 1.0 - p);
        }
        let q = 1.0 - p;
        let nf = n as f64;
        let mut u = unit(rng);
        if nf * p < 20.0 {
            let r = p / q;
            let mut f = (nf * q.ln()).exp();
            let mut x = 0u64;
            while u > f && x < n {
                u -= f;
                f *= r * (n - x) as f64 / (x + 1) as f64;
                x += 1;
            }
            return x;
        }
        let mode = (((nf + 1.0) * p).floor() as u64).min(n);
        let m = mode as f64;
        let ln_pm = ln_gamma(nf + 1.0) - ln_gamma(m + 1.0) - ln_gamma(nf - m + 1.0)
            + m * p.ln()
            + (nf - m) * q.ln();
        let pm = ln_pm.exp();
        if u < pm {
            return mode;
        }
        u -= pm;
        let (r, rinv) = (p / q, q / p);
        let (mut up, mut fu) = (mode, pm);
        let (mut down, mut fd) = (mode, pm);
        loop {
            let can_up = up < n;
            let can_down = down > 0;
            if !can_up && !can_down {
                return mode;
            }
            if can_up {
                fu *= r * (n - up) as f64 / (up + 1) as f64;
                up += 1;
                if u < fu {
                    return up;
                }
                u -= fu;
            }
            if can_down {
                fd *= rinv * down as f64 / (n - down + 1) as f64;
                down -= 1;
                if u < fd {
                    return down;
                }
                u -= fd;
            }
        }
    }

    #[test]
    fn draws_are_the_reference_draws_bit_for_bit() {
        // Both paths (small np and from the mode), both halves of p, the
        // edges, and n past the kept factorials.
        let ps = [
            0.0, 1e-9, 0.003, 0.1, 0.37, 0.5, 0.5000001, 0.63, 0.9, 0.999, 1.0, 1.5, -0.2,
        ];
        let ns = [0u64, 1, 2, 7, 50, 333, 5_000, 123_457, 20_000_000];
        let mut ours = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let mut theirs = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let mut draws = 0;
        for &p in &ps {
            let prepared = BinomialDraw::new(p);
            for &n in &ns {
                for _ in 0..200 {
                    assert_eq!(
                        prepared.draw(&mut ours, n),
                        reference(&mut theirs, n, p),
                        "n = {n}, p = {p}"
                    );
                    draws += 1;
                }
            }
        }
        // Random n and p, as a Monte Carlo null's conditional binomials
        // meet them.
        let mut pick = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
        for _ in 0..20_000 {
            let p = unit(&mut pick);
            let n = pick.next_u64() % 100_000;
            assert_eq!(
                BinomialDraw::new(p).draw(&mut ours, n),
                reference(&mut theirs, n, p),
                "n = {n}, p = {p}"
            );
            draws += 1;
        }
        assert_eq!(
            ours.next_u64(),
            theirs.next_u64(),
            "the same random numbers were taken"
        );
        assert!(draws > 40_000);
    }

    #[test]
    fn kept_factorials_are_ln_gamma() {
        for k in [
            0u64, 1, 2, 3, 10, 170, 171, 1_000, 65_537, 4_194_303, 4_194_304, 9_000_000,
        ] {
            assert_eq!(
                ln_factorial(k).to_bits(),
                ln_gamma(k as f64 + 1.0).to_bits(),
                "{k}"
            );
            // Kept: the second call reads the same value.
            assert_eq!(
                ln_factorial(k).to_bits(),
                ln_gamma(k as f64 + 1.0).to_bits(),
                "{k}"
            );
        }
    }

    #[test]
    fn binomial_draws_have_their_moments() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for (n, p) in [
            (10u64, 0.3),
            (1000, 0.01),
            (20_000, 0.37),
            (500, 0.9),
            (7, 1.0),
        ] {
            let reps = 100_000;
            let prepared = BinomialDraw::new(p);
            let draws: Vec<f64> = (0..reps)
                .map(|_| prepared.draw(&mut rng, n) as f64)
                .collect();
            let mean = draws.iter().sum::<f64>() / reps as f64;
            let var = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / reps as f64;
            let (m, v) = (n as f64 * p, n as f64 * p * (1.0 - p));
            assert!(
                (mean - m).abs() <= 5.0 * (v / reps as f64).sqrt() + 1e-9,
                "{n} {p}: {mean}"
            );
            assert!((var - v).abs() <= 0.03 * v + 1e-9, "{n} {p}: {var}");
        }
    }
}
