//! Goodness-of-fit tests of counts against a known law, with honest handling
//! of sparse categories.
//!
//! # The law of Pearson's statistic
//!
//! [`chi_square`] pools neighbouring categories until every group expects
//! [`MIN_EXPECTED`] counts and computes Pearson's statistic over the groups.
//! Its p-value does not come from χ²(groups − 1), only the statistic's
//! limit: a tail group expecting 5–10 counts next to groups expecting
//! hundreds makes the statistic's law right-skewed well beyond χ², and the
//! structure tests rejected up to 3.3× too often at 1e-4 that way (issue
//! 22). Instead:
//!
//! * the p-value comes from the shifted gamma with the pooled table's exact
//!   mean, variance and skewness ([`pearson_law`], [`NullLaw::log10_sf`]);
//! * where that law is not to be trusted in the tail — a group expecting
//!   fewer than [`TAIL_EXPECTED`] counts, whose own term `(O − E)²/E` has a
//!   tail heavier than any gamma's, or a fourth cumulant beyond the gamma's
//!   ([`MAX_EXCESS_KURTOSIS`]) — and it puts the p-value at or below
//!   [`CHECK_TAIL_BELOW`], the p-value is computed exactly over the small
//!   groups, every count of theirs enumerated, with the gamma law for the
//!   large groups given their total ([`pearson_tail`]; no floor);
//! * where the small groups are too many to enumerate
//!   ([`pearson_tail::ENUMERATION_BUDGET`]), a sequential Monte Carlo
//!   p-value from the exact multinomial null of the pooled groups replaces
//!   it (valid by construction, floor [`MONTE_CARLO_FLOOR`]). Below that
//!   floor, where no simulated table reached the statistic, the gamma law's
//!   p-value times [`TAIL_SAFETY`] is reported if smaller than the floor (a
//!   measure of the departure, far below any level a verdict is taken at);
//!   below [`MONTE_CARLO_ABOVE`] the simulation is skipped for the same
//!   reason.
//!
//! [`combine`] adds independent Pearson statistics and takes the p-value
//! from the sum of their exact laws (cumulants add), and [`uniform`]'s
//! dense path uses the exact law of equally likely cells.

use super::binomial_draw::BinomialDraw;
use super::collisions;
use super::pearson_law::{MAX_EXCESS_KURTOSIS, NullLaw, pearson_law, pearson_law_uniform};
use super::pearson_tail;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::f64::consts::LN_10;
use std::sync::{Arc, Mutex, OnceLock};

/// Categories are pooled until each group expects at least this many counts.
pub const MIN_EXPECTED: f64 = 5.0;

/// A pooled table whose smallest group expects fewer counts than this has its
/// small p-values (at or below [`CHECK_TAIL_BELOW`]) computed exactly over
/// its small groups, or by Monte Carlo where they are too many: the term `(O − E)²/E` of a group expecting E counts has a tail heavier
/// than the shifted gamma's, which follows only three cumulants.
pub const TAIL_EXPECTED: f64 = 100.0;

/// The gamma-law p-value at or below which a table with a small group
/// ([`TAIL_EXPECTED`]) gets an exact or Monte Carlo p-value instead. Above it the law
/// is accurate (the heavy tail matters only far out), and larger p-values
/// decide nothing.
pub const CHECK_TAIL_BELOW: f64 = 0.05;

/// Where no simulated table reached the statistic, the gamma law's p-value
/// times this is reported when it is below [`MONTE_CARLO_FLOOR`]: a margin
/// for the tail the gamma cannot follow. On the structure tests' tables
/// (`tests/calibration_gof.rs`) the gamma law alone rejected up to 2× too
/// often at 1e-4, 5× at 1e-5 and 5–15× at 1e-6 (a handful of events), the
/// excess growing into the tail; so only levels below 1e-6 could see the
/// difference, and verdicts are taken far above.
pub const TAIL_SAFETY: f64 = 100.0;

/// An exact small-group tail ([`pearson_tail::upper_tail`]) below this is
/// within its dropped mass (about 1e-14) of 0: the gamma law's p-value times
/// [`TAIL_SAFETY`] is reported, capped at this.
pub const EXACT_RESOLVES: f64 = 1e-12;

/// A gamma-law p-value below this is far beyond the Monte Carlo floor
/// ([`MONTE_CARLO_FLOOR`]): the simulation is skipped (it could only return
/// the floor, at the cost of all its replicates) and the law's p-value times
/// [`TAIL_SAFETY`] is reported, capped at the floor.
pub const MONTE_CARLO_ABOVE: f64 = 1e-9;

/// Whether [`chi_square`] takes the law of Pearson's statistic on pooled
/// groups of probabilities `group_probs` over `trials` at its word in the
/// tail: every group expects at least [`TAIL_EXPECTED`] counts and the
/// law's excess kurtosis beyond the shifted gamma's is within
/// [`MAX_EXCESS_KURTOSIS`].
pub fn law_is_trusted(group_probs: &[f64], trials: u64, law: &NullLaw) -> bool {
    let smallest = group_probs.iter().cloned().fold(f64::INFINITY, f64::min) * trials as f64;
    smallest >= TAIL_EXPECTED && law.excess_kurtosis().abs() <= MAX_EXCESS_KURTOSIS
}

/// The level a Pearson statistic on pooled groups of probabilities
/// `group_probs` over `trials` must reach by its law for [`chi_square`] to
/// reject at `level`: `level` itself, except below the Monte Carlo floor on
/// a table whose law is not trusted in the tail ([`law_is_trusted`]), where
/// the law's p-value is reported with its [`TAIL_SAFETY`] margin. Power
/// plans use it, so that a plan counts on no more than the test can show.
pub fn level_reached(level: f64, group_probs: &[f64], trials: u64) -> f64 {
    if level < MONTE_CARLO_FLOOR
        && !law_is_trusted(group_probs, trials, &pearson_law(group_probs, trials))
        && !pearson_tail::is_enumerable(group_probs, trials, TAIL_EXPECTED)
    {
        level / TAIL_SAFETY
    } else {
        level
    }
}

/// How a goodness-of-fit p-value was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GofMethod {
    /// Fewer than two groups, or no trials: nothing to test (p = 1).
    Trivial,
    /// The shifted gamma with the exact mean, variance and skewness of the
    /// statistic ([`NullLaw::log10_sf`]).
    Law,
    /// Exact over the pooled groups expecting fewer than [`TAIL_EXPECTED`]
    /// counts, every count of theirs enumerated, and the shifted gamma for
    /// the others given their total ([`pearson_tail`]).
    Exact {
        /// The groups enumerated (and the one standing in for the rest
        /// when every group is small).
        groups: usize,
    },
    /// A sequential Monte Carlo p-value from the exact multinomial null of
    /// the pooled groups, after this many simulated tables (see the module
    /// docs).
    MonteCarlo {
        /// Tables simulated.
        replicates: usize,
    },
}

/// A goodness-of-fit result.
#[derive(Debug, Clone, PartialEq)]
pub struct Gof {
    /// Pearson's statistic over the (pooled) groups.
    pub statistic: f64,
    /// Degrees of freedom of the limiting χ² (groups − 1, summed over
    /// independent parts); the p-value comes from `law`, not χ²(df).
    pub df: f64,
    /// log10 of the p-value.
    pub log10_p: f64,
    /// How many categories were merged into neighbours.
    pub pooled: usize,
    /// The exact null cumulants of the statistic (of the pooled table;
    /// summed over the parts of a [`combine`]d result).
    pub law: NullLaw,
    /// How the p-value was obtained.
    pub method: GofMethod,
}

impl Gof {
    /// A short phrase for reports: how the p-value was obtained.
    pub fn describe(&self) -> String {
        match self.method {
            GofMethod::Trivial => "nothing to test (one group)".into(),
            GofMethod::Law => {
                "p-value from the shifted gamma with the exact mean, variance and skewness of \
                 Pearson's statistic (chi-square in the limit)"
                    .into()
            }
            GofMethod::Exact { groups } => format!(
                "p-value exact over the {groups} group(s) expecting under {TAIL_EXPECTED} counts \
                 (every count enumerated), the shifted gamma for the rest given their total"
            ),
            GofMethod::MonteCarlo { replicates } => format!(
                "p-value by sequential Monte Carlo from the exact multinomial null \
                 ({replicates} simulated tables; a group expects under {TAIL_EXPECTED} counts)"
            ),
        }
    }
}

/// Pearson's goodness-of-fit test of `counts` against the law `probs` (same
/// length, summing to 1), pooling neighbouring categories (in order) until
/// every group expects at least [`MIN_EXPECTED`] counts. The p-value comes
/// from the pooled table's exact law, checked by Monte Carlo in the tail
/// where small groups make it heavy (module docs); the Monte Carlo is
/// seeded from the counts, so the same table always gets the same p-value.
pub fn chi_square(counts: &[u64], probs: &[f64]) -> Gof {
    judge(counts, probs, true)
}

/// [`chi_square`] with the p-value from the exact law alone (no Monte Carlo
/// in the tail; below [`MONTE_CARLO_ABOVE`] as [`chi_square`]): for power
/// simulations, which judge thousands of tables near their level, where the
/// Monte Carlo would cost up to [`MONTE_CARLO_REPLICATES`] tables each. The
/// law alone rejected up to 1.3× too often at 0.001 and 2× at 1e-4 on the
/// structure tests' tables (`tests/calibration_gof.rs`), against 2–3.4×
/// for χ²(df): close enough to plan trials by.
pub fn chi_square_by_law(counts: &[u64], probs: &[f64]) -> Gof {
    judge(counts, probs, false)
}

/// [`chi_square`], with or without the Monte Carlo in the tail.
fn judge(counts: &[u64], probs: &[f64], monte_carlo: bool) -> Gof {
    assert_eq!(counts.len(), probs.len());
    let total: u64 = counts.iter().sum();
    let t = total as f64;
    let groups = pool_neighbours(probs.iter().copied().zip(counts.iter().copied()), t);
    let nonempty = probs.iter().filter(|&&p| p > 0.0).count();
    let pooled = nonempty.saturating_sub(groups.len());
    let observed: Vec<u64> = groups.iter().map(|g| g.1).collect();
    let group_probs: Vec<f64> = groups.iter().map(|g| g.0).collect();
    let statistic = pearson(&observed, &group_probs, t);
    let df = groups.len().saturating_sub(1) as f64;
    let trivial = Gof {
        statistic,
        df,
        log10_p: 0.0,
        pooled,
        law: NullLaw::sum(&[]),
        method: GofMethod::Trivial,
    };
    if groups.len() < 2 || total == 0 || group_probs.iter().any(|&p| p <= 0.0) {
        return trivial;
    }
    let law = pearson_law(&group_probs, total);
    let mut log10_p = law.log10_sf(statistic);
    let mut method = GofMethod::Law;
    let trusted = law_is_trusted(&group_probs, total, &law);
    let shared = shared_nulls();
    let budget = if shared {
        SHARED_ENUMERATION_BUDGET
    } else {
        pearson_tail::ENUMERATION_BUDGET
    };
    let exact =
        || pearson_tail::upper_tail_within(&group_probs, total, statistic, TAIL_EXPECTED, budget);
    if trusted || log10_p > CHECK_TAIL_BELOW.log10() {
        // The law holds, or the p-value decides nothing.
    } else if let Some(p) = monte_carlo.then(exact).flatten() {
        log10_p = if p < EXACT_RESOLVES {
            // Within the enumeration's dropped mass of 0: the law's far
            // smaller p-value, with its margin, says more.
            (log10_p + TAIL_SAFETY.log10()).min(EXACT_RESOLVES.log10())
        } else {
            p.log10()
        };
        let groups = group_probs
            .iter()
            .filter(|&&p| p * t < TAIL_EXPECTED)
            .count();
        method = GofMethod::Exact { groups };
    } else if log10_p < MONTE_CARLO_ABOVE.log10() {
        // Far beyond the Monte Carlo floor: the simulation could only say
        // "below the floor"; the law's p-value with its margin says more.
        log10_p = (log10_p + TAIL_SAFETY.log10()).min(MONTE_CARLO_FLOOR.log10());
    } else if monte_carlo {
        let (p, replicates, reached) = if shared {
            shared_null_p(&group_probs, total, statistic)
        } else {
            monte_carlo_pearson(&group_probs, total, statistic, table_seed(counts, probs))
        };
        log10_p = if reached == 0 {
            // No simulated table reached the statistic: the floor, or the
            // law's far smaller p-value with its margin.
            p.log10().min(log10_p + TAIL_SAFETY.log10())
        } else {
            p.log10()
        };
        method = GofMethod::MonteCarlo { replicates };
    }
    Gof {
        log10_p,
        law,
        method,
        ..trivial
    }
}

/// Pools neighbouring categories (in order) until each group expects at
/// least [`MIN_EXPECTED`] of `trials` under its probability, a short
/// remainder joining the last group: the pooling of [`chi_square`], shared
/// by the power plans and the sampler tests so that a plan and a test pool
/// alike. `items` are (probability, payload) per category (a count, or the
/// probability under an alternative); a group's payloads are added.
pub fn pool_neighbours<W>(items: impl IntoIterator<Item = (f64, W)>, trials: f64) -> Vec<(f64, W)>
where
    W: Copy + Default + PartialEq + std::ops::AddAssign,
{
    let mut groups: Vec<(f64, W)> = Vec::new();
    let mut current = (0.0, W::default());
    for (p, w) in items {
        current.0 += p;
        current.1 += w;
        if current.0 * trials >= MIN_EXPECTED {
            groups.push(std::mem::take(&mut current));
        }
    }
    if current.0 > 0.0 || current.1 != W::default() {
        match groups.last_mut() {
            Some(last) => {
                last.0 += current.0;
                last.1 += current.1;
            }
            None => groups.push(current),
        }
    }
    groups
}

/// Pearson's statistic of `observed` against `probs` over `t` trials.
fn pearson(observed: &[u64], probs: &[f64], t: f64) -> f64 {
    observed
        .iter()
        .zip(probs)
        .map(|(&o, &p)| {
            let e = p * t;
            if e > 0.0 {
                (o as f64 - e) * (o as f64 - e) / e
            } else {
                0.0
            }
        })
        .sum()
}

/// A seed for the Monte Carlo p-value of one table, from its counts and law
/// (SplitMix64 over the words), so that a p-value is reproducible.
fn table_seed(counts: &[u64], probs: &[f64]) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let words = counts
        .iter()
        .copied()
        .chain(probs.iter().map(|p| p.to_bits()));
    words.fold(0x05EE_D0FC_415A_u64, |h, w| {
        mix(h ^ mix(w.wrapping_add(0x9E37_79B9_7F4A_7C15)))
    })
}

thread_local! {
    static SHARED_NULLS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What a null sample of [`with_shared_nulls`] is of: Pearson's statistic
/// of a pooled law (its probabilities' bits) at some trials, or the
/// collision count of trials over equally likely cells ([`uniform`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum NullKey {
    /// Pearson's statistic: (trials, the pooled probabilities' bits).
    Pearson(u64, Vec<u64>),
    /// The collision count: (trials, cells).
    Collisions(u64, usize),
}

/// The null samples of [`with_shared_nulls`], sorted, by what they are of.
type NullSamples = HashMap<NullKey, Arc<Vec<f64>>>;

/// At most this many null samples of [`MONTE_CARLO_REPLICATES`] statistics
/// (800 kB each) are kept; the cache is emptied when it is full.
const SHARED_NULLS_KEPT: usize = 64;

/// The most counts [`with_shared_nulls`] walks for an exact tail (about a
/// millisecond); a table needing more gets the shared null sample.
pub const SHARED_ENUMERATION_BUDGET: f64 = 2e4;

/// Runs `f` with every [`chi_square`] on this thread taking a p-value in
/// the tail as the audit does where that is cheap (an exact tail of at most
/// [`SHARED_ENUMERATION_BUDGET`] counts), and otherwise from one sample of
/// [`MONTE_CARLO_REPLICATES`] null tables shared by every table of the same
/// pooled law and trials — `(k + 1)/(R + 1)`, valid for each table on its
/// own — instead of the table's own sequential Monte Carlo or a long
/// enumeration. Made for power simulations, which judge hundreds of audits
/// of one size near their level, where a Monte Carlo per table cost over a
/// minute per plan. Since issue 38 `power` no longer uses it (its plan
/// must judge each table as the audit does, not by a shared threshold the
/// audit never uses); the "trials advised" of an audit's own report still
/// does, to stay cheap beside the audit.
pub fn with_shared_nulls<R>(f: impl FnOnce() -> R) -> R {
    with_nulls(true, f)
}

/// Whether [`with_shared_nulls`] is in force on this thread: work that
/// takes p-values on other threads (an audit's tests run side by side)
/// must carry it there with [`with_nulls`], or a test's p-value would
/// depend on which thread ran it.
pub(crate) fn shared_nulls() -> bool {
    SHARED_NULLS.with(|c| c.get())
}

/// Runs `f` with [`with_shared_nulls`] in force on this thread if
/// `shared`, and out of force if not.
pub(crate) fn with_nulls<R>(shared: bool, f: impl FnOnce() -> R) -> R {
    let before = SHARED_NULLS.with(|c| c.replace(shared));
    let out = f();
    SHARED_NULLS.with(|c| c.set(before));
    out
}

/// [`with_shared_nulls`]'s p-value of `statistic`: (p, tables, tables that
/// reached it), as [`monte_carlo_pearson`].
fn shared_null_p(probs: &[f64], t: u64, statistic: f64) -> (f64, usize, usize) {
    let key = NullKey::Pearson(t, probs.iter().map(|p| p.to_bits()).collect());
    let sample = shared_sample(key, || {
        let mut draw = NullDraw::new(probs, t, table_seed(&[t], probs));
        (0..MONTE_CARLO_REPLICATES).map(|_| draw.next()).collect()
    });
    tail_share(&sample, statistic)
}

/// [`with_shared_nulls`]'s p-value of `observed` collisions among `t`
/// trials over `k` equally likely cells: (p, tables simulated), as
/// [`monte_carlo_collisions`].
fn shared_collisions_p(k: usize, t: u64, observed: u64) -> (f64, usize) {
    let sample = shared_sample(NullKey::Collisions(t, k), || {
        let mut rng =
            rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(table_seed(&[t, k as u64], &[]));
        let mut sim = vec![0u64; k];
        (0..MONTE_CARLO_REPLICATES)
            .map(|_| collision_table(&mut rng, &mut sim, t) as f64)
            .collect()
    });
    let (p, tables, _) = tail_share(&sample, observed as f64);
    (p, tables)
}

/// The sorted null sample of `key`, drawn by `draw` the first time it is
/// asked for and kept (a few dozen at most) for every later table.
fn shared_sample(key: NullKey, draw: impl FnOnce() -> Vec<f64>) -> Arc<Vec<f64>> {
    static SAMPLES: OnceLock<Mutex<NullSamples>> = OnceLock::new();
    let samples = SAMPLES.get_or_init(Default::default);
    if let Some(known) = samples.lock().ok().and_then(|s| s.get(&key).cloned()) {
        return known;
    }
    let mut sample = draw();
    sample.sort_by(f64::total_cmp);
    let sample = Arc::new(sample);
    if let Ok(mut s) = samples.lock() {
        if s.len() >= SHARED_NULLS_KEPT {
            s.clear();
        }
        s.insert(key, sample.clone());
    }
    sample
}

/// (p, tables, tables that reached `statistic`) from a sorted null
/// sample: (reached + 1)/(R + 1), valid for each table on its own.
fn tail_share(sample: &[f64], statistic: f64) -> (f64, usize, usize) {
    let bar = statistic - 1e-9 * statistic.abs().max(1.0);
    let reached = sample.len() - sample.partition_point(|&x| x < bar);
    (
        (reached + 1) as f64 / (sample.len() + 1) as f64,
        sample.len(),
        reached,
    )
}

/// Pearson statistics of tables drawn from the exact multinomial null, by
/// conditional binomials: P(group i | not in the groups before i).
struct NullDraw<'a> {
    probs: &'a [f64],
    /// Group i's draw, with P(group i | not in the groups before i)
    /// (the last group takes what is left).
    draws: Vec<BinomialDraw>,
    t: u64,
    rng: rand_xoshiro::Xoshiro256PlusPlus,
}

impl<'a> NullDraw<'a> {
    fn new(probs: &'a [f64], t: u64, seed: u64) -> Self {
        let mut tail = vec![0.0; probs.len()];
        let mut acc = 0.0;
        for i in (0..probs.len()).rev() {
            acc += probs[i];
            tail[i] = acc;
        }
        let draws = probs
            .iter()
            .zip(&tail)
            .map(|(&p, &rest)| BinomialDraw::new((p / rest).min(1.0)))
            .collect();
        Self {
            probs,
            draws,
            t,
            rng: rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// The statistic of the next table.
    fn next(&mut self) -> f64 {
        let tf = self.t as f64;
        let mut left = self.t;
        let mut x2 = 0.0;
        for (i, &p) in self.probs.iter().enumerate() {
            let o = if i + 1 == self.probs.len() {
                left
            } else {
                self.draws[i].draw(&mut self.rng, left)
            };
            left -= o;
            let e = p * tf;
            x2 += (o as f64 - e) * (o as f64 - e) / e;
        }
        x2
    }
}

/// Sequential Monte Carlo p-value (Besag & Clifford 1991) of Pearson's
/// `statistic` over `t` trials into groups of probabilities `probs`: tables
/// are drawn from the exact multinomial null until
/// [`MONTE_CARLO_EXCEEDANCES`] of them reach the statistic or
/// [`MONTE_CARLO_REPLICATES`] are done, as [`uniform`]'s sparse path.
/// Returns (p, tables simulated, tables that reached the statistic).
fn monte_carlo_pearson(probs: &[f64], t: u64, statistic: f64, seed: u64) -> (f64, usize, usize) {
    let mut draw = NullDraw::new(probs, t, seed);
    // Ties count as reaching the statistic (up to rounding).
    let bar = statistic - 1e-9 * statistic.abs().max(1.0);
    let mut reached = 0usize;
    for replicate in 1..=MONTE_CARLO_REPLICATES {
        if draw.next() >= bar {
            reached += 1;
            if reached == MONTE_CARLO_EXCEEDANCES {
                return (reached as f64 / replicate as f64, replicate, reached);
            }
        }
    }
    (
        (reached + 1) as f64 / (MONTE_CARLO_REPLICATES + 1) as f64,
        MONTE_CARLO_REPLICATES,
        reached,
    )
}

/// Sums independent goodness-of-fit results: their statistics, df and exact
/// laws add (every cumulant of a sum of independent statistics is the sum
/// of theirs), and the p-value comes from the summed law.
pub fn combine(parts: &[Gof]) -> Gof {
    let statistic = parts.iter().map(|g| g.statistic).sum();
    let df = parts.iter().map(|g| g.df).sum();
    let laws: Vec<NullLaw> = parts.iter().map(|g| g.law).collect();
    let law = NullLaw::sum(&laws);
    let (log10_p, method) = if law.variance > 0.0 {
        (law.log10_sf(statistic), GofMethod::Law)
    } else {
        (0.0, GofMethod::Trivial)
    };
    Gof {
        statistic,
        df,
        log10_p,
        pooled: parts.iter().map(|g| g.pooled).sum(),
        law,
        method,
    }
}

/// How a test of counts over equally likely cells was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SparseMethod {
    /// Every cell expects at least [`MIN_EXPECTED`]: Pearson's statistic
    /// against the shifted gamma with its exact mean, variance and skewness
    /// for k equally likely cells ([`pearson_law_uniform`]; χ²(k − 1) only
    /// in the limit).
    ChiSquare,
    /// Sparse and cheap to simulate: a sequential Monte Carlo p-value of the
    /// collision count (equivalently Pearson's statistic) from simulated
    /// uniform multinomial tables, exact by construction.
    MonteCarlo,
    /// Sparse and too large to simulate: the collision count against the
    /// shifted-gamma (Pearson type III) law with its exact first three
    /// cumulants ([`collisions::ln_pearson3_sf`]).
    CollisionMoments,
    /// Sparse with so few trials per cell that the collision count is Poisson
    /// to within its skew ([`collisions::Moments::poisson_is_adequate`]).
    CollisionPoisson,
}

/// A test of counts over `counts.len()` equally likely outcomes.
#[derive(Debug, Clone, PartialEq)]
pub struct UniformTest {
    /// Pearson's statistic.
    pub statistic: f64,
    /// Degrees of freedom (cells − 1).
    pub df: f64,
    /// log10 of the p-value.
    pub log10_p: f64,
    /// Which method gave the p-value.
    pub method: SparseMethod,
    /// Observed and expected collisions (pairs of trials in the same cell),
    /// for every sparse method.
    pub collisions: Option<(u64, f64)>,
    /// Monte Carlo replicates simulated, for [`SparseMethod::MonteCarlo`].
    pub replicates: Option<usize>,
    /// Cells (outcomes) of the table.
    pub cells: usize,
}

impl UniformTest {
    /// One line saying how the p-value was obtained, for reports: the law,
    /// observed against expected collisions for sparse tables, and the
    /// replicates of a Monte Carlo p-value.
    pub fn describe(&self) -> String {
        let k = self.cells;
        let sparse = format!("sparse table (< {MIN_EXPECTED} expected per outcome)");
        let (observed, expected) = self.collisions.unwrap_or((0, 0.0));
        match self.method {
            SparseMethod::ChiSquare => {
                format!(
                    "chi-square goodness of fit over all {k} equally likely outcomes (exact law of Pearson's statistic: shifted gamma with its mean, variance and skewness)"
                )
            }
            SparseMethod::MonteCarlo => format!(
                "{sparse}: {observed} collisions vs {expected:.1} expected, sequential Monte Carlo p-value from {} simulated uniform tables (floor {MONTE_CARLO_FLOOR:.1e})",
                self.replicates.unwrap_or(0)
            ),
            SparseMethod::CollisionMoments => format!(
                "{sparse}: {observed} collisions vs {expected:.1} expected, shifted-gamma law with the exact mean, variance and skewness"
            ),
            SparseMethod::CollisionPoisson => format!(
                "{sparse}: {observed} collisions vs {expected:.1} expected, Poisson tail (so few trials per cell that its skew is right)"
            ),
        }
    }
}

/// Most replicates of a Monte Carlo p-value. The p-value is never below
/// [`MONTE_CARLO_FLOOR`] = 1/(this + 1), far below α = 0.001 after Holm over
/// the seven tests of an audit (1.4e-4).
pub const MONTE_CARLO_REPLICATES: usize = 99_999;

/// The smallest Monte Carlo p-value, 1/(replicates + 1) = 1e-5. Callers can
/// check that a level is reachable (`level >= MONTE_CARLO_FLOOR`).
pub const MONTE_CARLO_FLOOR: f64 = 1.0 / (MONTE_CARLO_REPLICATES as f64 + 1.0);

/// Stop the Monte Carlo early once this many simulated tables reach the
/// observed collision count (Besag & Clifford's sequential p-value, h/L, which
/// is valid like the fixed-size one). Fair tables then cost a few hundred
/// replicates; only small p-values need all of them.
pub const MONTE_CARLO_EXCEEDANCES: usize = 50;

/// The largest replicates × trials a Monte Carlo p-value may cost (random
/// draws, about 0.2 s); larger sparse tables use the collision moments. With
/// [`MONTE_CARLO_REPLICATES`] this allows up to 500 trials.
pub const MONTE_CARLO_BUDGET: u64 = 50_000_000;

/// Tests counts over equally likely outcomes: Pearson's statistic against its
/// exact law ([`pearson_law_uniform`]) when every cell expects at least
/// [`MIN_EXPECTED`]; otherwise the collision count
/// judged by a sequential Monte Carlo p-value seeded by `seed` (when it costs
/// at most [`MONTE_CARLO_BUDGET`] draws), or else by its moment-matched law
/// (see [`collisions`]).
pub fn uniform(counts: &[u64], seed: u64) -> UniformTest {
    let k = counts.len();
    let t: u64 = counts.iter().sum();
    let expected = t as f64 / k as f64;
    let statistic = if t == 0 {
        0.0
    } else {
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    };
    let df = (k - 1) as f64;
    let mut test = UniformTest {
        statistic,
        df,
        log10_p: 0.0,
        method: SparseMethod::ChiSquare,
        collisions: None,
        replicates: None,
        cells: k,
    };
    if expected >= MIN_EXPECTED {
        test.log10_p = pearson_law_uniform(k, t).log10_sf(statistic);
        return test;
    }
    let observed = collisions::count(counts);
    let moments = collisions::Moments::new(k, t);
    test.collisions = Some((observed, moments.mean));
    if t * MONTE_CARLO_REPLICATES as u64 <= MONTE_CARLO_BUDGET {
        let (p, replicates) = match shared_nulls() {
            true => shared_collisions_p(k, t, observed),
            false => monte_carlo_collisions(k, t, observed, seed),
        };
        test.log10_p = p.log10();
        test.method = SparseMethod::MonteCarlo;
        test.replicates = Some(replicates);
    } else {
        test.log10_p = collisions::ln_sf(observed, &moments) / LN_10;
        test.method = if moments.poisson_is_adequate() {
            SparseMethod::CollisionPoisson
        } else {
            SparseMethod::CollisionMoments
        };
    }
    test
}

/// Sequential Monte Carlo p-value (Besag & Clifford 1991) of `observed`
/// collisions among `t` uniform trials over `k` cells: simulate tables until
/// [`MONTE_CARLO_EXCEEDANCES`] of them reach `observed` (p = h/L after L
/// tables) or [`MONTE_CARLO_REPLICATES`] are done (p = (g + 1)/(R + 1)).
/// Either way P(p ≤ x) ≤ x under the null. Returns (p, tables simulated).
fn monte_carlo_collisions(k: usize, t: u64, observed: u64, seed: u64) -> (f64, usize) {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut sim = vec![0u64; k];
    let mut reached = 0usize;
    for replicate in 1..=MONTE_CARLO_REPLICATES {
        if collision_table(&mut rng, &mut sim, t) >= observed {
            reached += 1;
            if reached == MONTE_CARLO_EXCEEDANCES {
                return (reached as f64 / replicate as f64, replicate);
            }
        }
    }
    (
        (reached + 1) as f64 / (MONTE_CARLO_REPLICATES + 1) as f64,
        MONTE_CARLO_REPLICATES,
    )
}

/// The collision count of one null table: `t` trials over the
/// `sim.len()` equally likely cells (`sim` all zero on entry and exit).
fn collision_table(rng: &mut impl Rng, sim: &mut [u64], t: u64) -> u64 {
    let k = sim.len();
    let mut c = 0u64;
    for _ in 0..t {
        // Multiply-shift on 64 bits: bias below k / 2^64.
        let cell = ((rng.next_u64() as u128 * k as u128) >> 64) as usize;
        c += sim[cell];
        sim[cell] += 1;
    }
    sim.fill(0);
    c
}

/// ln P(X ≥ c) for X ~ Poisson(λ): the law the collision count was once
/// judged by, kept for comparison (see [`collisions::ln_poisson_sf`]).
pub fn ln_poisson_upper_tail(c: u64, lambda: f64) -> f64 {
    collisions::ln_poisson_sf(c, lambda)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::special::chi2_sf;

    #[test]
    fn pooling_merges_sparse_tails() {
        // Expected 50, 45, 4, 0.9, 0.1: the last three pool into one group.
        let probs = [0.5, 0.45, 0.04, 0.009, 0.001];
        let counts = [50, 45, 4, 1, 0];
        let g = chi_square(&counts, &probs);
        assert_eq!(g.df, 2.0);
        assert_eq!(g.pooled, 2);
        // Groups (50,50), (45,45), (5,5): statistic 0.
        assert!(g.statistic.abs() < 1e-12);
    }

    #[test]
    fn chi_square_matches_a_hand_computation() {
        // Two groups expecting 20 each: X² = 10, and the exact p-value is
        // P(|Bin(40, 1/2) − 20| ≥ 10) = 0.0022214338 (χ²(1) says 0.00157).
        let g = chi_square(&[30, 10], &[0.5, 0.5]);
        assert!((g.statistic - 10.0).abs() < 1e-12);
        assert_eq!(g.method, GofMethod::Exact { groups: 2 });
        let p = 10f64.powf(g.log10_p);
        assert!((p / 0.0022214338 - 1.0).abs() < 1e-7, "{p}");
        // Large groups: the law, close to χ²(1).
        let g = chi_square(&[5300, 4700], &[0.5, 0.5]);
        assert_eq!(g.method, GofMethod::Law);
        assert!(
            (g.log10_p - chi2_sf(36.0, 1.0).log10()).abs() < 0.1,
            "{}",
            g.log10_p
        );
    }

    #[test]
    fn sparse_uniform_tests_pick_their_method() {
        let dense = uniform(&[100, 100, 100], 1);
        assert_eq!(dense.method, SparseMethod::ChiSquare);
        assert!(dense.describe().contains("chi-square"));
        let few_cells = uniform(&[2, 0, 1, 1], 1);
        assert_eq!(few_cells.method, SparseMethod::MonteCarlo);
        assert!(few_cells.replicates.unwrap() >= MONTE_CARLO_EXCEEDANCES);
        assert!(few_cells.describe().contains("Monte Carlo"));
        // 100 trials over 1000 cells: cheap, so Monte Carlo.
        let mut many = vec![0u64; 1000];
        many[..100].iter_mut().for_each(|c| *c = 1);
        let spread = uniform(&many, 1);
        assert_eq!(spread.method, SparseMethod::MonteCarlo);
        assert_eq!(spread.collisions.unwrap().0, 0);
        assert_eq!(spread.log10_p, 0.0);
        // 590 trials over 120 cells: the moment-matched law.
        let mut table = vec![5u64; 120];
        table[..10].iter_mut().for_each(|c| *c = 0);
        table[10..20].iter_mut().for_each(|c| *c = 4);
        assert_eq!(table.iter().sum::<u64>(), 540);
        let moments = uniform(&table, 1);
        assert_eq!(moments.method, SparseMethod::CollisionMoments);
        assert!(moments.describe().contains("shifted-gamma"));
        // 600 trials over 3.6 million cells: Poisson.
        let mut huge = vec![0u64; 3_628_800];
        huge[..600].iter_mut().for_each(|c| *c = 1);
        let poisson = uniform(&huge, 1);
        assert_eq!(poisson.method, SparseMethod::CollisionPoisson);
        assert!(poisson.log10_p > -1.0);
    }

    #[test]
    fn an_excess_of_collisions_gets_a_tiny_p_on_every_path() {
        // Monte Carlo: 435 collisions where about 5 are expected; the p-value
        // sits at the floor.
        let mut many = vec![0u64; 1000];
        many[..100].iter_mut().for_each(|c| *c = 1);
        many[0] = 30;
        let mc = uniform(&many, 1);
        assert_eq!(mc.method, SparseMethod::MonteCarlo);
        assert!((mc.log10_p - MONTE_CARLO_FLOOR.log10()).abs() < 1e-12);
        assert_eq!(mc.replicates, Some(MONTE_CARLO_REPLICATES));
        const { assert!(MONTE_CARLO_FLOOR <= 0.001 / 7.0) };
        // Moments: 600 trials over 120 cells, all in 60 cells (10 each).
        let mut table = vec![0u64; 120];
        table[..60].iter_mut().for_each(|c| *c = 10);
        let t = uniform(&table, 1);
        assert_eq!(t.method, SparseMethod::ChiSquare);
        let mut table = vec![0u64; 120];
        table[..59].iter_mut().for_each(|c| *c = 10);
        let t = uniform(&table, 1);
        assert_eq!(t.method, SparseMethod::CollisionMoments);
        assert!(t.log10_p < -50.0, "{}", t.log10_p);
        // Poisson: 600 trials over 3.6 million cells with one cell of 30.
        let mut huge = vec![0u64; 3_628_800];
        huge[..600].iter_mut().for_each(|c| *c = 1);
        huge[0] = 30;
        let p = uniform(&huge, 1);
        assert_eq!(p.method, SparseMethod::CollisionPoisson);
        assert!(p.log10_p < -100.0, "{}", p.log10_p);
    }

    #[test]
    fn too_many_small_groups_get_a_reproducible_monte_carlo_p_value() {
        // 40 groups expecting 50 each: beyond the enumeration's budget. A
        // table 3 standard deviations out along one group.
        let probs = vec![1.0 / 40.0; 40];
        let mut counts = vec![50u64; 40];
        counts[0] += 50;
        counts[1] -= 25;
        counts[2] -= 25;
        let g = chi_square(&counts, &probs);
        assert!(matches!(g.method, GofMethod::MonteCarlo { .. }), "{g:?}");
        // X² = 75 on 39 df: χ²(39) says 5e-4.
        let p = 10f64.powf(g.log10_p);
        assert!(p > 1e-4 && p < 2e-3, "{p}");
        assert_eq!(g, chi_square(&counts, &probs), "reproducible");
    }

    #[test]
    fn monte_carlo_p_values_are_deterministic_and_plausible() {
        let table = [3u64, 2, 4, 1, 0, 2, 5, 3, 1, 2, 3, 4];
        let a = uniform(&table, 7);
        assert_eq!(a, uniform(&table, 7));
        let p = 10f64.powf(a.log10_p);
        assert!(p > 0.05 && p < 1.0, "{p}");
    }

    #[test]
    fn shared_collision_nulls_give_the_same_kind_of_p_at_a_fraction_of_the_cost() {
        // A sparse table typical of the null, and one with every trial in
        // a ninth of the cells (60 collisions where 8.7 are expected).
        let typical = [3u64, 2, 4, 1, 0, 2, 5, 3, 1, 2, 3, 4];
        let mut crowded = vec![0u64; 90];
        crowded[..10].iter_mut().for_each(|c| *c = 4);
        for (counts, near_floor) in [(&typical[..], false), (&crowded[..], true)] {
            let own = uniform(counts, 7);
            let shared = with_shared_nulls(|| uniform(counts, 7));
            assert_eq!(shared.method, SparseMethod::MonteCarlo);
            assert_eq!(shared.replicates, Some(MONTE_CARLO_REPLICATES));
            assert_eq!(
                shared,
                with_shared_nulls(|| uniform(counts, 99)),
                "one sample per (k, t)"
            );
            let (p_own, p_shared) = (10f64.powf(own.log10_p), 10f64.powf(shared.log10_p));
            if near_floor {
                assert!(p_shared < 1e-3 && p_own < 1e-3, "{p_own} {p_shared}");
            } else {
                // Two Monte Carlo estimates of one p: the shared one from
                // 99,999 tables (sd 0.002), the table's own stopping at 50
                // exceedances (relative sd 1/√50, about 0.1 here).
                assert!(
                    p_shared > 0.5 && (p_own - p_shared).abs() < 0.25,
                    "{p_own} {p_shared}"
                );
            }
        }
    }
}
