//! How far the data-loader shuffles (`buffer-shuffle`, `window-shuffle`,
//! `shard-shuffle`) are from uniform, exactly, as a function of their size
//! parameter: the curve that answers "how big must my shuffle buffer be?".
//!
//! The distance is the one a data engineer can read off directly: **for a
//! typical item, the total variation distance between where it lands and a
//! uniformly random position**, averaged over the items (`mean_tv`), and
//! for the worst-placed item (`max_tv`). A mean TV of 0.2 means that, for
//! the average item, some set of positions gets 20 percentage points more
//! of its probability than a uniform shuffle would give it. Summed over all
//! n² (item, position) cells, the same number is also the mean over
//! positions of the TV between the item a position receives and a uniform
//! item, so it reads either way.
//!
//! This is a distance of the marginals (where each item goes), not of the
//! whole arrangement: it is 0 for every shuffle whose marginals are uniform,
//! and `shard-shuffle` with a shard size dividing n is one (a uniform shard
//! slot plus a uniform offset is a uniform position), although its shards
//! stay together. The curve says so rather than calling it uniform; the
//! audit's structure tests are what see the clumping.
//!
//! Everything is computed in O(n) per size without the n × n law:
//! - the buffer: item i enters the buffer at step e = max(0, i − b + 1); while
//!   the buffer is full (steps up to n − b) it leaves at each step with
//!   probability 1/b, so its position is e + a geometric number of steps;
//!   whatever is left at the drain is spread evenly over the last b − 1
//!   positions (the factors (1 − 1/m) telescope to (n − t)/(b − 1)). So
//!   P(i at t) is (1/b) q^(t − e) for e ≤ t ≤ n − b with q = 1 − 1/b, and
//!   q^(n − b + 1 − e)/(b − 1) for t > n − b; the TV of one item is then a
//!   closed form, and items only differ by e.
//!   `crate::algorithm::buffer_marginals` is the O(n²) reference.
//! - a window of c items: each item is uniform over its window, TV 1 − c/n.
//! - shards: an item of the short last shard (r items) lands uniformly in
//!   r positions starting at s·u, u uniform among the k shard slots: TV
//!   1 − k r/n; an item of a full shard starts at s·u, less s − r when the
//!   short shard came before it (probability u/(k − 1)); its law is summed
//!   over the k slots with a difference array.

use crate::error::{Error, Result};
use serde::Serialize;
use std::time::Instant;

pub use crate::algorithm::Loader;

impl Loader {
    /// The exact distance from uniform of this loader with size `size` on
    /// n items (sizes above n act as n).
    pub fn distance(self, n: usize, size: usize) -> Distance {
        match self {
            Loader::Buffer => buffer_distance(n, size),
            Loader::Window => window_distance(n, size),
            Loader::Shard => shard_distance(n, size),
        }
    }
}

/// The distance from uniform of a shuffle's marginals: the TV between an
/// item's output position and a uniform position, averaged over the items
/// and at the worst item.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Distance {
    /// Mean over items of the TV of the item's position law from uniform
    /// (equal to the mean over positions of the TV of the position's item
    /// law: both are (1/2n) Σ |P(i at t) − 1/n| over all cells).
    pub mean_tv: f64,
    /// The largest TV of one item's position law.
    pub max_tv: f64,
}

impl Distance {
    /// A shuffle with uniform marginals.
    pub const UNIFORM: Distance = Distance {
        mean_tv: 0.0,
        max_tv: 0.0,
    };
}

/// The exact [`Distance`] of `buffer-shuffle:b=b` on n items, in O(n).
pub fn buffer_distance(n: usize, b: usize) -> Distance {
    let b = b.clamp(1, n.max(1));
    if n <= 1 || b == n {
        // A buffer holding everything outputs a uniform remaining item at
        // every step: Fisher–Yates.
        return Distance::UNIFORM;
    }
    let nf = n as f64;
    if b == 1 {
        // The identity: every item where it was.
        let tv = 1.0 - 1.0 / nf;
        return Distance {
            mean_tv: tv,
            max_tv: tv,
        };
    }
    let bf = b as f64;
    let ln_q = (-1.0 / bf).ln_1p();
    // P(i at e + j) = (1/b) q^j while the buffer is full: above 1/n for the
    // first `above` values of j (they decrease; b < n so j = 0 is above).
    let is_above = |j: usize| (ln_q * j as f64).exp() / bf > 1.0 / nf;
    let mut above = ((bf / nf).ln() / ln_q).ceil().max(0.0) as usize;
    while above > 0 && !is_above(above - 1) {
        above -= 1;
    }
    while is_above(above) {
        above += 1;
    }
    let full_end = n - b; // the last step with a full buffer
    // The TV of an item entering at step e: the excess over 1/n of the
    // geometric stretch's first terms, plus the drain's if above 1/n.
    let item_tv = |e: usize| {
        let steps = full_end - e + 1; // geometric terms j = 0..steps
        let k = above.min(steps);
        let geometric = -(ln_q * k as f64).exp_m1() - k as f64 / nf;
        let survive = (ln_q * steps as f64).exp();
        let drain = (survive - (bf - 1.0) / nf).max(0.0);
        geometric + drain
    };
    // Items 0..b all enter at step 0; item i ≥ b enters at i − b + 1.
    let first = item_tv(0);
    let mut sum = bf * first;
    let mut max = first;
    for e in 1..=full_end {
        let tv = item_tv(e);
        sum += tv;
        max = max.max(tv);
    }
    Distance {
        mean_tv: sum / nf,
        max_tv: max,
    }
}

/// The exact [`Distance`] of `window-shuffle:w=w` on n items, in O(1): an
/// item of a window of c items is uniform over those c positions.
pub fn window_distance(n: usize, w: usize) -> Distance {
    let w = w.clamp(1, n.max(1));
    if n <= 1 || w == n {
        return Distance::UNIFORM;
    }
    let windows = n.div_ceil(w);
    let last = n - (windows - 1) * w;
    let (n2, w2, last2) = (
        n as u128 * n as u128,
        (w * w) as u128,
        (last * last) as u128,
    );
    // Σ_items (1 − c/n) / n = 1 − Σ_windows c² / n², in integers first.
    let squares = (windows as u128 - 1) * w2 + last2;
    Distance {
        mean_tv: (n2 - squares) as f64 / n2 as f64,
        max_tv: 1.0 - last as f64 / n as f64,
    }
}

/// The exact [`Distance`] of `shard-shuffle:s=s` on n items, in O(n)
/// (its marginals are exactly uniform when s divides n).
pub fn shard_distance(n: usize, s: usize) -> Distance {
    let s = s.clamp(1, n.max(1));
    let shards = n.div_ceil(s.max(1));
    let short = n - (shards.saturating_sub(1)) * s;
    if n <= 1 || short == s {
        // Equal shards: slot u uniform, offset uniform, s·u + offset uniform.
        return Distance::UNIFORM;
    }
    // Here 2 ≤ shards and 1 ≤ short < s.
    let nf = n as f64;
    let short_tv = 1.0 - (shards * short) as f64 / nf;
    let mut diff = vec![0.0f64; n + 1];
    let weight = 1.0 / (shards as f64 * s as f64);
    let mut add = |start: usize, w: f64| {
        diff[start] += w;
        diff[start + s] -= w;
    };
    for u in 0..shards {
        let before = u as f64 / (shards - 1) as f64;
        if u < shards - 1 {
            add(s * u, (1.0 - before) * weight);
        }
        if u > 0 {
            add(s * u - (s - short), before * weight);
        }
    }
    let mut p = 0.0;
    let mut full_tv = 0.0;
    for d in &diff[..n] {
        p += d;
        full_tv += (p - 1.0 / nf).max(0.0);
    }
    let full_items = (n - short) as f64;
    Distance {
        mean_tv: (full_items * full_tv + short as f64 * short_tv) / nf,
        max_tv: full_tv.max(short_tv),
    }
}

/// How far f64 rounding can have moved a computed distance `tv` on n
/// items: each item's TV is a few terms within a few ulps of 1, and the
/// powers q^j are exponentials of arguments up to about ln n + 1 (relative
/// error that size times ε); summing n items adds up to n ε of the total.
/// A value at or below it is rounding noise. Deliberately generous.
pub fn rounding_bound(n: usize, tv: f64) -> f64 {
    let n = n.max(2) as f64;
    (4.0 * (n.ln() + 8.0) + n * tv) * f64::EPSILON
}

/// One point of a loader curve (a row of `loaders.csv`, in this column
/// order).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LoaderPoint {
    /// The loader.
    pub loader: Loader,
    /// Its size parameter, in items.
    pub size: u64,
    /// The size as a fraction of n.
    pub fraction: f64,
    /// Mean over items of the TV from uniform of where the item lands.
    pub mean_tv: f64,
    /// The same for the worst-placed item.
    pub max_tv: f64,
    /// How far f64 rounding can have moved `mean_tv` (see
    /// [`rounding_bound`]); 0 for a value known to be exactly 0.
    pub rounding_bound: f64,
    /// `mean_tv` is non-zero but no larger than `rounding_bound`: rounding
    /// noise, to be read as "below the bound".
    pub rounding_level: bool,
}

impl LoaderPoint {
    /// The point of `loader` with size `size` on n items.
    pub fn of(loader: Loader, n: usize, size: u64) -> Self {
        let d = loader.distance(n, usize::try_from(size).unwrap_or(usize::MAX));
        let exact_zero = d == Distance::UNIFORM;
        let bound = if exact_zero {
            0.0
        } else {
            rounding_bound(n, d.mean_tv)
        };
        LoaderPoint {
            loader,
            size,
            fraction: size as f64 / n as f64,
            mean_tv: d.mean_tv,
            max_tv: d.max_tv,
            rounding_bound: bound,
            rounding_level: !exact_zero && d.mean_tv <= bound,
        }
    }
}

/// The smallest size at which a loader's mean TV is at most `target`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Threshold {
    /// The loader.
    pub loader: Loader,
    /// The mean TV aimed at.
    pub target: f64,
    /// The smallest size, in items, whose mean TV is at most `target`.
    pub size: u64,
    /// That size as a fraction of n.
    pub fraction: f64,
    /// Its mean TV.
    pub mean_tv: f64,
}

/// The mean TVs the curve gives thresholds for.
pub const TARGETS: [f64; 3] = [0.1, 0.01, 0.001];

/// Largest n of a loader curve (the shard law takes n floats).
pub const MAX_LOADER_N: usize = 100_000_000;

/// The exact loader curve: every loader at every size, and the thresholds
/// of [`TARGETS`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoaderCurve {
    /// The loader asked for (shown first; the others are there to compare).
    pub loader: Loader,
    /// Number of items.
    pub n: usize,
    /// The sizes, in items, ascending.
    pub sizes: Vec<u64>,
    /// The points, loader by loader ([`Loader::ALL`] order), ascending in
    /// size.
    pub points: Vec<LoaderPoint>,
    /// The smallest sizes reaching each target, for the loaders whose
    /// distance decreases with the size (buffer and window; the shard
    /// distance is 0 at every divisor of n and means nothing there).
    pub thresholds: Vec<Threshold>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl LoaderCurve {
    /// The points of one loader, ascending in size.
    pub fn points_of(&self, loader: Loader) -> impl Iterator<Item = &LoaderPoint> {
        self.points.iter().filter(move |p| p.loader == loader)
    }

    /// The thresholds of one loader, in [`TARGETS`] order.
    pub fn thresholds_of(&self, loader: Loader) -> impl Iterator<Item = &Threshold> {
        self.thresholds.iter().filter(move |t| t.loader == loader)
    }
}

/// The fractions of n a loader curve shows by default above the 1-2-5
/// grid: the near-uniform end, where the buffer's distance drops fastest.
pub const UPPER_FRACTIONS: [f64; 7] = [0.25, 0.75, 0.9, 0.95, 0.99, 0.999, 1.0];

/// The sizes a loader curve shows by default: 1, 2 and 5 times the powers
/// of ten as fractions of n (1/10 down to 1/n), then [`UPPER_FRACTIONS`],
/// rounded to whole items (22 sizes at n = 100,000, fewer for small n).
pub fn default_sizes(n: usize) -> Vec<u64> {
    let n = n.max(1) as u64;
    let at = |fraction: f64| ((fraction * n as f64).round() as u64).clamp(1, n);
    let mut sizes: Vec<u64> = UPPER_FRACTIONS.iter().map(|&f| at(f)).collect();
    let mut decade = 10.0;
    while decade <= 10.0 * n as f64 {
        for m in [1.0, 2.0, 5.0] {
            if m * n as f64 / decade >= 1.0 {
                sizes.push(at(m / decade));
            }
        }
        decade *= 10.0;
    }
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// Checks a loader curve's n and sizes.
pub fn check(n: usize, sizes: &[u64]) -> Result<()> {
    if !(2..=MAX_LOADER_N).contains(&n) {
        return Err(Error::out_of_range(format!(
            "n = {n} is out of range: loader curves need 2 <= n <= {MAX_LOADER_N}"
        )));
    }
    if sizes.is_empty() || sizes.windows(2).any(|w| w[1] <= w[0]) {
        return Err(Error::bad_input(format!(
            "the sizes must be non-empty and strictly ascending (got {sizes:?})"
        )));
    }
    if let Some(&bad) = sizes.iter().find(|&&s| s == 0 || s > n as u64) {
        return Err(Error::out_of_range(format!(
            "size {bad} is out of range: a loader's size must be between 1 and n = {n}"
        )));
    }
    Ok(())
}

/// Computes the curve of `loader` (with the other loaders beside it) on n
/// items at `sizes`.
pub fn curve(loader: Loader, n: usize, sizes: &[u64]) -> Result<LoaderCurve> {
    check(n, sizes)?;
    let start = Instant::now();
    let ordered = loader.first();
    let points = ordered
        .iter()
        .flat_map(|&l| sizes.iter().map(move |&s| LoaderPoint::of(l, n, s)))
        .collect();
    let mut thresholds = Vec::new();
    for &l in &ordered {
        for target in TARGETS {
            let size = match l {
                Loader::Buffer => smallest_buffer(n, target),
                Loader::Window => smallest_window(n, target),
                Loader::Shard => None,
            };
            if let Some(size) = size {
                thresholds.push(Threshold {
                    loader: l,
                    target,
                    size: size as u64,
                    fraction: size as f64 / n as f64,
                    mean_tv: l.distance(n, size).mean_tv,
                });
            }
        }
    }
    Ok(LoaderCurve {
        loader,
        n,
        sizes: sizes.to_vec(),
        points,
        thresholds,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The smallest buffer whose mean TV is at most `target`, by bisection:
/// the distance decreases as the buffer grows (checked at every b for small
/// n in the tests) and is 0 at b = n, so there always is one.
pub fn smallest_buffer(n: usize, target: f64) -> Option<usize> {
    let (mut lo, mut hi) = (1usize, n.max(1));
    if buffer_distance(n, lo).mean_tv <= target {
        return Some(lo);
    }
    // Invariant: distance(lo) > target >= distance(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if buffer_distance(n, mid).mean_tv <= target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// The smallest window whose mean TV is at most `target`, by trying every
/// w (each costs O(1)): the window distance is not monotone in w (a short
/// last window helps), so no bisection.
pub fn smallest_window(n: usize, target: f64) -> Option<usize> {
    (1..=n.max(1)).find(|&w| window_distance(n, w).mean_tv <= target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::{buffer_marginals, buffer_shuffle, shard_shuffle, window_shuffle};
    use crate::source::{StreamSource, Xoshiro256ppSource};

    /// The distance of an n × n law `p[t * n + i]`, computed cell by cell.
    fn distance_of(n: usize, p: &[f64]) -> Distance {
        let mut sum = 0.0;
        let mut max = 0.0f64;
        for i in 0..n {
            let tv: f64 = (0..n)
                .map(|t| (p[t * n + i] - 1.0 / n as f64).abs())
                .sum::<f64>()
                / 2.0;
            sum += tv;
            max = max.max(tv);
        }
        Distance {
            mean_tv: sum / n as f64,
            max_tv: max,
        }
    }

    #[test]
    fn the_buffer_distance_is_that_of_the_exact_marginals() {
        for n in [1usize, 2, 3, 7, 30, 101] {
            for b in 1..=n + 1 {
                let exact = distance_of(n, &buffer_marginals(n, b));
                let fast = buffer_distance(n, b);
                assert!(
                    (exact.mean_tv - fast.mean_tv).abs() < 1e-12
                        && (exact.max_tv - fast.max_tv).abs() < 1e-12,
                    "n {n} b {b}: {exact:?} vs {fast:?}"
                );
            }
        }
    }

    #[test]
    fn the_buffer_distance_decreases_with_the_buffer() {
        // What `smallest_buffer`'s bisection relies on.
        for n in [2usize, 10, 64, 200] {
            let d: Vec<f64> = (1..=n).map(|b| buffer_distance(n, b).mean_tv).collect();
            assert!(d.windows(2).all(|w| w[1] < w[0]), "n {n}: {d:?}");
            assert_eq!(d[n - 1], 0.0);
        }
        // The worst item is the last: it can only land in the last b
        // positions, uniformly.
        for b in [1usize, 7, 100, 2500, 4999] {
            let worst = buffer_distance(5000, b).max_tv;
            assert!(
                (worst - (1.0 - b as f64 / 5000.0)).abs() < 1e-12,
                "{b}: {worst}"
            );
        }
        let n = 5000;
        for target in TARGETS {
            let b = smallest_buffer(n, target).unwrap();
            assert!(buffer_distance(n, b).mean_tv <= target);
            assert!(buffer_distance(n, b - 1).mean_tv > target, "{target}: {b}");
        }
    }

    /// Position-by-item counts of `trials` runs of `shuffle` on n items.
    fn simulate(n: usize, trials: u64, mut shuffle: impl FnMut(&mut [u32])) -> Vec<f64> {
        let mut counts = vec![0u64; n * n];
        let mut a = vec![0u32; n];
        for _ in 0..trials {
            a.iter_mut().enumerate().for_each(|(i, v)| *v = i as u32);
            shuffle(&mut a);
            for (t, &v) in a.iter().enumerate() {
                counts[t * n + v as usize] += 1;
            }
        }
        counts.iter().map(|&c| c as f64 / trials as f64).collect()
    }

    /// Checks the exact distance against a simulation: the plug-in mean TV
    /// differs from the true one by at most (1/2n) Σ |p̂ − p| over the
    /// cells, whose expectation is below B = (1/2n) Σ sqrt(p(1 − p)/T);
    /// the sum of n² nearly independent terms hardly exceeds 1.5 B. And a
    /// neighbouring size, whose distance differs by more than that, fails.
    fn agrees(n: usize, trials: u64, exact: Distance, other: Distance, observed: &[f64]) {
        let estimate = distance_of(n, observed);
        let spread: f64 = observed
            .iter()
            .map(|&p| (p * (1.0 - p) / trials as f64).sqrt())
            .sum::<f64>()
            / (2 * n) as f64;
        let error = (estimate.mean_tv - exact.mean_tv).abs();
        assert!(
            error < 1.5 * spread,
            "estimate {estimate:?}, exact {exact:?}, error {error}, spread {spread}"
        );
        assert!(
            (estimate.mean_tv - other.mean_tv).abs() > 1.5 * spread,
            "a neighbouring size {other:?} cannot be told apart: the check is too weak"
        );
    }

    #[test]
    fn every_loader_distance_matches_a_simulation() {
        let (n, trials) = (24usize, 400_000u64);
        let mut rng = Xoshiro256ppSource::for_stream(2026, 0);
        let (mut buffer, mut order, mut spare) = (Vec::new(), Vec::new(), Vec::new());
        let observed = simulate(n, trials, |a| buffer_shuffle(a, &mut rng, 6, &mut buffer));
        agrees(
            n,
            trials,
            buffer_distance(n, 6),
            buffer_distance(n, 7),
            &observed,
        );
        let observed = simulate(n, trials, |a| window_shuffle(a, &mut rng, 7));
        agrees(
            n,
            trials,
            window_distance(n, 7),
            window_distance(n, 8),
            &observed,
        );
        let observed = simulate(n, trials, |a| {
            shard_shuffle(a, &mut rng, 5, &mut order, &mut spare)
        });
        agrees(
            n,
            trials,
            shard_distance(n, 5),
            shard_distance(n, 7),
            &observed,
        );
        // A shard size dividing n: exactly uniform marginals.
        assert_eq!(shard_distance(n, 6), Distance::UNIFORM);
    }

    #[test]
    fn sizes_covering_everything_are_uniform_and_size_one_is_the_identity() {
        for loader in Loader::ALL {
            assert_eq!(loader.distance(1000, 1000), Distance::UNIFORM);
            assert_eq!(loader.distance(1000, 5000), Distance::UNIFORM);
        }
        let identity = 1.0 - 1.0 / 1000.0;
        assert_eq!(buffer_distance(1000, 1).mean_tv, identity);
        assert_eq!(window_distance(1000, 1).mean_tv, identity);
        // Shards of one item are shuffled as a whole: uniform.
        assert_eq!(shard_distance(1000, 1), Distance::UNIFORM);
        // Two windows of 3 and 2 of n = 5: items are uniform over 3 or 2
        // places: mean (3 · 2/5 + 2 · 3/5) / 5 = 12/25.
        assert_eq!(window_distance(5, 3).mean_tv, 12.0 / 25.0);
        assert_eq!(window_distance(5, 3).max_tv, 1.0 - 2.0 / 5.0);
    }

    #[test]
    fn a_curve_at_n_100000_takes_well_under_a_second_and_is_sane() {
        let n = 100_000;
        let sizes = default_sizes(n);
        assert_eq!(sizes.len(), 22, "{sizes:?}");
        assert_eq!((sizes[0], *sizes.last().unwrap()), (1, n as u64));
        let c = curve(Loader::Buffer, n, &sizes).unwrap();
        assert!(c.seconds < 5.0, "{} s", c.seconds);
        assert_eq!(c.points.len(), 3 * sizes.len());
        let buffer: Vec<f64> = c.points_of(Loader::Buffer).map(|p| p.mean_tv).collect();
        assert!(buffer.windows(2).all(|w| w[1] < w[0]), "{buffer:?}");
        assert_eq!(c.thresholds_of(Loader::Buffer).count(), TARGETS.len());
        assert!(c.points.iter().all(|p| !p.rounding_level));
        assert!(check(n, &[0]).is_err() && check(n, &[5, 5]).is_err());
        assert!(check(n, &[n as u64 + 1]).is_err() && check(1, &[1]).is_err());
    }
}
