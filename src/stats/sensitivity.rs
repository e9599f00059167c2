//! What a run could have seen: the smallest bias it would have detected, and
//! whether that is fine enough for "no bias detected" to mean anything.
//!
//! A chi-square-type test of T trials has non-centrality λ = T·δ under a
//! fixed bias of size δ per trial (see [`crate::power`]). At the level the
//! verdict gives each test, a test detects with probability 0.9 once λ
//! reaches λ₉₀ (from the non-central χ²), so the run could see any bias with
//! δ ≥ λ₉₀ / T. The figure shown depends on the test:
//!
//! - **position-value**: the smallest relative deviation ε of a single cell,
//!   its row and column compensating evenly (the least conspicuous way to
//!   change one cell while keeping every row and column a probability law).
//!   That perturbation is ε/n times the projection of the cell's unit vector
//!   on the space of doubly-centred matrices, whose squared norm is
//!   ((n−1)/n)²; so Σ (P − 1/n)² = ε²/(n−1)² and δ = (n−1)·Σ (P − 1/n)² =
//!   ε²/(n−1), i.e. **ε = √((n−1)·δ)**.
//! - any other test: Cohen's effect size **w = √δ** = √(Σ (q − p)²/p), the
//!   usual scale of chi-square effects (0.1 small, 0.3 medium).
//!
//! The level is α divided by the number of tests the verdict corrected over
//! (tests of the audit × audits of the run × looks of a sequential audit):
//! Holm rejects at least whenever that Bonferroni share does, so the stated
//! sensitivity is guaranteed, not optimistic.

use super::result::TestResult;
use super::special::{chi2_isf, noncentrality_for_power};
use crate::format::thousands;
use crate::spec::TestKind;
use serde::Serialize;

/// The power at which sensitivity is stated.
pub const SENSITIVITY_POWER: f64 = 0.9;

/// A run is inconclusive when its position-by-value matrix expects fewer
/// than this many counts per cell: the test's approximation does not hold.
pub const MIN_EXPECTED_PER_CELL: f64 = 5.0;

/// A run is inconclusive when it could not detect (with 90% power) a
/// deviation of this relative size in a single position-by-value cell.
pub const MAX_CELL_DEVIATION: f64 = 0.2;

/// A run without the position-by-value test is inconclusive when its best
/// test could not detect (with 90% power) an effect of Cohen's w this large
/// ("small" on Cohen's scale).
pub const MAX_COHEN_W: f64 = 0.1;

/// What a run could have detected, and whether that suffices for a verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Sensitivity {
    /// The power the figures are stated at.
    pub power: f64,
    /// The level each test is held to for the guarantee: α over the number
    /// of tests corrected for.
    pub level: f64,
    /// The test the figures are for: position-value when it ran, otherwise
    /// the test with the finest sensitivity.
    pub test: TestKind,
    /// The smallest non-centrality per trial that test detects with `power`.
    pub delta: f64,
    /// Position-value only: the smallest relative deviation of one cell it
    /// detects with `power`.
    pub cell_deviation: Option<f64>,
    /// Cohen's w = √δ: the same sensitivity on the generic chi-square scale.
    pub cohen_w: f64,
    /// A deck with repeated kinds (position-by-kind ran, position-value did
    /// not): the smallest relative deviation of one kind at one position
    /// the position-by-kind test detects with `power` at the same level,
    /// √(δ·(m−1)) for m kinds of equal size (its row and column
    /// compensating, as for [`Sensitivity::cell_deviation`]). What a lab
    /// reads as "one card at one position"; the verdict's rules are
    /// unchanged by it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind_deviation: Option<f64>,
    /// Why the run is too small for "no bias detected", if it is (what it
    /// lacks; the advice, from `trials_needed`, is added where it is
    /// stated: `crate::audit::Sensitivity::reason`).
    pub inconclusive: Option<String>,
    /// For a run too small for "no bias detected": the trials at which the
    /// same tests, held to the same level, could detect the documented
    /// bias (a plan for sensitivity, not for any effect the counts show).
    pub trials_needed: Option<u64>,
}

/// The side of a position-by-value matrix (n, or B when binned) from its
/// test's degrees of freedom, (side - 1)².
pub fn matrix_side(df: f64) -> f64 {
    df.sqrt().round() + 1.0
}

impl Sensitivity {
    /// The sensitivity of a run of `trials` shuffles of `n` items whose tests
    /// gave `results`, each held to level `alpha / family`.
    ///
    /// # Panics
    /// If `results` is empty.
    pub fn of(results: &[TestResult], n: usize, trials: u64, alpha: f64, family: usize) -> Self {
        let level = alpha / family.max(1) as f64;
        let delta_of = |df: f64| detectable_delta(df, level, trials);
        // A test made of parts: its least sensitive part at its share of
        // the level, whichever part decided this run.
        let delta_of_test = |r: &TestResult| match r.parts {
            Some(parts) => {
                detectable_delta(parts.largest_df, level / parts.count.max(1) as f64, trials)
            }
            None => delta_of(r.df),
        };
        let position_value = results.iter().find(|r| r.test == TestKind::PositionValue);
        // The birthday test has no effect size per trial (its power grows
        // with the square of the deals, against a seed space: its method
        // says which it would catch), so it is left out here.
        let (test, delta) = match position_value {
            Some(r) => (r.test, delta_of(r.df)),
            None => results
                .iter()
                .filter(|r| r.test != TestKind::Birthday)
                .map(|r| (r.test, delta_of_test(r)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap_or((
                    results
                        .first()
                        .expect("an audit runs at least one test")
                        .test,
                    f64::INFINITY,
                )),
        };
        // What the advice rests on: the same choice of test with each at
        // the df more trials can give it (pooled categories unpooled), so
        // that a run of the trials advised holds its tests to no larger a
        // df than the advice assumed (at the df of this run alone, 100
        // shoes advised 3,856, where the hand test's df had grown and 4,250
        // were needed).
        let delta_at_most = |r: &TestResult| match r.parts {
            Some(parts) => detectable_delta(
                parts.largest_df_at_most.max(parts.largest_df),
                level / parts.count.max(1) as f64,
                trials,
            ),
            None => delta_of(r.df_at_most.unwrap_or(r.df).max(r.df)),
        };
        let delta_advised = match position_value {
            Some(_) => delta,
            None => results
                .iter()
                .filter(|r| r.test != TestKind::Birthday)
                .map(delta_at_most)
                .fold(f64::INFINITY, f64::min),
        };
        let cohen_w = delta.sqrt();
        let kind_deviation = results
            .iter()
            .find(|r| r.test == TestKind::PositionKind && position_value.is_none())
            .filter(|r| n > 1 && r.df > 0.0)
            .map(|r| {
                let kinds = r.df / (n as f64 - 1.0) + 1.0;
                (delta_of(r.df) * (kinds - 1.0)).sqrt()
            });
        // The matrix's side: n, or B for a binned matrix, whose cells hold
        // about n/B² of the n² (its df is (side - 1)² either way).
        let side = position_value.map_or(n as f64, |r| matrix_side(r.df));
        let nf = n as f64;
        let cell_deviation =
            position_value.map(|_| ((side - 1.0) * (side - 1.0) / (nf - 1.0) * delta).sqrt());
        let expected = trials as f64 * nf / (side * side);
        // The trials at which each rule below passes, held to the same
        // level: δ scales as 1/T, so each threshold inverts in closed form.
        let lambda = delta * trials as f64;
        let for_cells = (MIN_EXPECTED_PER_CELL * side * side / nf).ceil() as u64;
        let for_deviation = ((side - 1.0) * (side - 1.0) * lambda
            / ((nf - 1.0) * MAX_CELL_DEVIATION * MAX_CELL_DEVIATION))
            .ceil() as u64;
        let for_w = (delta_advised * trials as f64 / (MAX_COHEN_W * MAX_COHEN_W)).ceil() as u64;
        let (inconclusive, trials_needed) = if test == TestKind::Birthday {
            (
                Some(
                    "the birthday test alone states no effect size (its method says which seed \
                     space it would catch): add another test"
                        .to_string(),
                ),
                None,
            )
        } else if !delta.is_finite() && results.iter().all(|r| r.df == 0.0) {
            // A count or sign test (serial, successor) has no χ² effect
            // size: it judges, but cannot say what it could have missed.
            (
                Some(format!(
                    "the {} test states no effect size it would detect (it is a count, not a \
                     chi-square): add a test that does (the default tests do)",
                    test.title()
                )),
                None,
            )
        } else if !delta.is_finite() {
            (
                Some(format!(
                    "with {} trials the {} test has no categories left to compare",
                    thousands(trials),
                    test.title()
                )),
                None,
            )
        } else if position_value.is_some()
            && (expected < MIN_EXPECTED_PER_CELL
                || cell_deviation.is_some_and(|e| e > MAX_CELL_DEVIATION))
        {
            let t = for_cells.max(for_deviation);
            let why = if expected < MIN_EXPECTED_PER_CELL {
                format!(
                    "only {expected:.2} expected counts per position-value cell (at least \
                     {MIN_EXPECTED_PER_CELL} needed)"
                )
            } else {
                format!(
                    "too few trials to see even a {} deviation of one cell (the threshold is \
                     {})",
                    percent(cell_deviation.unwrap_or(f64::INFINITY)),
                    percent(MAX_CELL_DEVIATION)
                )
            };
            // The +1 absorbs rounding in the inversion (tested: adequate there).
            (Some(why), Some(t + 1))
        } else if cell_deviation.is_none() && cohen_w > MAX_COHEN_W {
            (
                Some(format!(
                    "too few trials to see even an effect of size w = {cohen_w:.3} (it must be \
                     {MAX_COHEN_W:.3} or smaller)"
                )),
                Some(for_w + 1),
            )
        } else {
            (None, None)
        };
        Self {
            power: SENSITIVITY_POWER,
            level,
            test,
            delta,
            cell_deviation,
            cohen_w,
            kind_deviation,
            inconclusive,
            trials_needed,
        }
    }

    /// Whether the run could have seen a bias of the documented size, so that
    /// finding none may be called "no bias detected".
    pub fn adequate(&self) -> bool {
        self.inconclusive.is_none()
    }

    /// The sensitivity in one sentence, the same in every output.
    pub fn words(&self) -> String {
        let power = format!("{:.0}%", 100.0 * self.power);
        match self.cell_deviation {
            Some(eps) if eps >= 1.0 => format!(
                "even with {power} power this run could not have detected one value landing at \
                 one position twice as often as it should, or never"
            ),
            Some(eps) if eps.is_finite() => format!(
                "with {power} power this run would have detected a {} excess or deficit of one \
                 value at one position",
                percent(eps)
            ),
            _ if self.kind_deviation.is_some_and(f64::is_finite) => {
                let eps = self.kind_deviation.unwrap_or(f64::INFINITY);
                // A share cannot fall by more than all of it.
                let which = if eps < 1.0 {
                    "excess or deficit"
                } else {
                    "excess"
                };
                format!(
                    "with {power} power this run would have detected a {} {which} of one kind \
                     (a card and its copies) at one position, by the position-by-kind test",
                    percent(eps)
                )
            }
            _ if self.cohen_w.is_finite() => format!(
                "with {power} power this run would have detected an effect of size w = {:.3} \
                 on the {} test (Cohen's w: the root of the summed squared relative shifts of \
                 its cells' shares; 0.1 is a small effect)",
                self.cohen_w,
                self.test.title()
            ),
            _ => "this run could not have detected any bias".to_string(),
        }
    }
}

impl Sensitivity {
    /// The sensitivity in a few words, for tables: `±1.2% in a cell` or
    /// `w = 0.050`.
    pub fn short(&self) -> String {
        match self.cell_deviation {
            Some(eps) if eps >= 1.0 => "> ±100% in a cell".to_string(),
            Some(eps) if eps.is_finite() => format!("±{} in a cell", percent(eps)),
            _ if self.kind_deviation.is_some_and(f64::is_finite) => {
                let eps = self.kind_deviation.unwrap_or(f64::INFINITY);
                let sign = if eps < 1.0 { "±" } else { "+" };
                format!("{sign}{} of a kind in a cell", percent(eps))
            }
            _ if self.cohen_w.is_finite() => format!("a w = {:.3} effect", self.cohen_w),
            _ => "nothing".to_string(),
        }
    }
}

/// A relative deviation as a percentage with sensible precision.
fn percent(x: f64) -> String {
    let pct = 100.0 * x;
    if pct >= 10.0 {
        format!("{pct:.0}%")
    } else if pct >= 1.0 {
        format!("{pct:.1}%")
    } else {
        format!("{pct:.2}%")
    }
}

/// The fewest trials with which a position-by-value test of n items, held
/// to `level`, is adequate for "no bias detected": at least
/// [`MIN_EXPECTED_PER_CELL`] expected counts per cell and a detectable
/// single-cell deviation of at most [`MAX_CELL_DEVIATION`] (the inverse of
/// ε = √((n−1)·λ₉₀/T)).
pub fn adequate_trials(n: usize, level: f64) -> u64 {
    let df = ((n - 1) * (n - 1)) as f64;
    let lambda = noncentrality_for_power(chi2_isf(level, df), df, SENSITIVITY_POWER);
    let for_deviation = (n as f64 - 1.0) * lambda / (MAX_CELL_DEVIATION * MAX_CELL_DEVIATION);
    let for_cells = MIN_EXPECTED_PER_CELL * n as f64;
    // The +1 absorbs rounding in the inversion: at the returned T the
    // adequacy check itself passes (tested).
    for_deviation.max(for_cells).ceil() as u64 + 1
}

/// The smallest non-centrality per trial a χ²(df) test of `trials` trials
/// detects with [`SENSITIVITY_POWER`] at `level`; infinite when df = 0.
pub fn detectable_delta(df: f64, level: f64, trials: u64) -> f64 {
    if df <= 0.0 || trials == 0 {
        return f64::INFINITY;
    }
    let critical = chi2_isf(level, df);
    noncentrality_for_power(critical, df, SENSITIVITY_POWER) / trials as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inconclusive_run_knows_the_trials_that_make_it_conclusive() {
        let cases = [
            (vec![result(TestKind::PositionValue, 51.0 * 51.0)], 52),
            (vec![result(TestKind::PositionValue, 9.0 * 9.0)], 10),
            (vec![result(TestKind::Cycles, 10.0)], 52),
            (vec![result(TestKind::PositionKind, 311.0 * 51.0)], 312),
        ];
        for (tests, n) in cases {
            for small_t in [3, 1_000] {
                let small = Sensitivity::of(&tests, n, small_t, 1e-3, 3);
                let t = small.trials_needed.expect("inconclusive");
                assert!(small.inconclusive.is_some());
                assert!(
                    Sensitivity::of(&tests, n, t, 1e-3, 3).adequate(),
                    "n = {n}: {t}"
                );
                assert!(
                    !Sensitivity::of(&tests, n, t * 99 / 100, 1e-3, 3).adequate(),
                    "n = {n}: {t} is not the threshold"
                );
            }
        }
    }

    #[test]
    fn adequate_trials_is_the_threshold_of_adequacy() {
        for (n, level) in [(2usize, 1e-3), (10, 1e-3 / 7.0), (52, 1e-3 / 6.0)] {
            let tests = [result(TestKind::PositionValue, ((n - 1) * (n - 1)) as f64)];
            let t = adequate_trials(n, level);
            assert!(
                Sensitivity::of(&tests, n, t, level, 1).adequate(),
                "n = {n}"
            );
            let fewer = Sensitivity::of(&tests, n, t * 99 / 100, level, 1);
            assert!(!fewer.adequate(), "n = {n}: {t} is not the threshold");
        }
    }
    use crate::stats::special::noncentral_chi2_sf;

    fn result(test: TestKind, df: f64) -> TestResult {
        TestResult {
            parts: None,
            df_at_most: None,
            test,
            statistic: df,
            df,
            log10_p: -0.3,
            log10_p_holm: -0.3,
            departure: 0.0,
            method: String::new(),
        }
    }

    #[test]
    fn a_count_test_alone_says_it_states_no_effect_size() {
        // It said "has no categories left to compare" of a serial test
        // that had run.
        let s = Sensitivity::of(&[result(TestKind::Serial, 0.0)], 10, 10_000, 0.001, 1);
        let why = s.inconclusive.unwrap();
        assert!(why.contains("states no effect size"), "{why}");
        assert_eq!(s.trials_needed, None);
    }

    #[test]
    fn advice_rests_on_the_df_more_trials_can_give_a_pooled_test() {
        // A structure test with 4 df at this run, 9 once nothing is pooled:
        // the sensitivity stated is this run's, the trials advised are
        // those at which the unpooled test sees w = 0.1.
        let pooled = TestResult {
            df_at_most: Some(9.0),
            ..result(TestKind::FixedPoints, 4.0)
        };
        let (trials, level) = (100, 0.001);
        let s = Sensitivity::of(std::slice::from_ref(&pooled), 10, trials, level, 1);
        let fixed = Sensitivity::of(&[result(TestKind::FixedPoints, 4.0)], 10, trials, level, 1);
        assert_eq!(s.cohen_w, fixed.cohen_w);
        let at = |df: f64| {
            (detectable_delta(df, level, trials) * trials as f64 / (MAX_COHEN_W * MAX_COHEN_W))
                .ceil() as u64
                + 1
        };
        assert_eq!(fixed.trials_needed, Some(at(4.0)));
        assert_eq!(s.trials_needed, Some(at(9.0)));
        assert!(at(9.0) > at(4.0));
    }

    #[test]
    fn detectable_delta_gives_the_stated_power() {
        let (df, level, trials) = (81.0, 0.001 / 6.0, 10_000);
        let delta = detectable_delta(df, level, trials);
        let power = noncentral_chi2_sf(chi2_isf(level, df), df, delta * trials as f64);
        assert!((power - 0.9).abs() < 1e-6, "{power}");
    }

    #[test]
    fn small_runs_are_inconclusive_and_large_ones_are_not() {
        let tests = [result(TestKind::PositionValue, 81.0)];
        let one = Sensitivity::of(&tests, 10, 1, 0.001, 6);
        assert!(!one.adequate(), "T = 1 sees nothing");
        assert!(one.inconclusive.unwrap().contains("expected counts"));
        let small = Sensitivity::of(&tests, 10, 200, 0.001, 6);
        assert!(!small.adequate(), "{small:?}");
        let large = Sensitivity::of(&tests, 10, 1_000_000, 0.001, 6);
        assert!(large.adequate(), "{large:?}");
        let eps = large.cell_deviation.unwrap();
        assert!(eps > 0.005 && eps < 0.05, "{eps}");
        assert!(large.words().contains("one value at one position"));
        // More tests to correct for: a coarser guarantee.
        let wider = Sensitivity::of(&tests, 10, 1_000_000, 0.001, 600);
        assert!(wider.cell_deviation.unwrap() > eps);
    }

    #[test]
    fn without_position_value_the_finest_test_speaks() {
        let tests = [
            result(TestKind::Cycles, 6.0),
            result(TestKind::FixedPoints, 3.0),
        ];
        let s = Sensitivity::of(&tests, 10, 100_000, 0.001, 2);
        assert_eq!(s.test, TestKind::FixedPoints, "fewer df: finer");
        assert!(s.cell_deviation.is_none());
        assert!(s.adequate(), "{s:?}");
        assert!(!Sensitivity::of(&tests, 10, 300, 0.001, 2).adequate());
        assert!(!Sensitivity::of(&[result(TestKind::Cycles, 0.0)], 10, 3, 0.001, 1).adequate());
    }
}
