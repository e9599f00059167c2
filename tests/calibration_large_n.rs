//! The binned position-by-value test (large n) is calibrated: over many
//! independent fair audits with bins of unequal sizes its rejections at
//! α = 0.001 and α = 0.01 lie in binomial bands and its mean is its df; a
//! biased shuffle is caught. Also: a binned tally is the same on any number
//! of threads and merges like a full one, and `bins = n` is the full
//! matrix.

use rayon::prelude::*;
use shuffle_audit::audit::{Kind, Spec, no_progress};
use shuffle_audit::shuffle::{Algorithm, ShuffleOptions, Shuffles, Tally, TestSet};
use shuffle_audit::source::SourceKind;
use shuffle_audit::stats::PositionValueStats;
use shuffle_audit::stats::special::binomial_band;

/// Fair audits per configuration.
const AUDITS: u64 = 2000;

/// The spec of a position-value audit of `algorithm` at `n` in `bins` bins.
fn spec(algorithm: &str, n: usize, bins: usize, trials: u64, seed: u64) -> Spec<Shuffles> {
    Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(TestSet::position_value().with_bins(bins, n).unwrap()),
        threads: Some(1),
        ..Spec::new(
            Algorithm::parse(algorithm).unwrap(),
            n,
            trials,
            SourceKind::Chacha8.into(),
            seed,
        )
    }
}

/// The counts of the whole run of `spec`.
fn count(spec: &Spec<Shuffles>) -> Tally {
    Shuffles::count(spec, spec.chunks(), &no_progress).unwrap()
}

/// `AUDITS` independent fair audits (seeds from `base`) at `n` in `bins`
/// bins, each of `trials` trials.
fn fair_audits(n: usize, bins: usize, trials: u64, base: u64) -> Vec<PositionValueStats> {
    (0..AUDITS)
        .into_par_iter()
        .map(|i| {
            let spec = spec("fisher-yates", n, bins, trials, base + i);
            // The engine's own dedicated pool is not needed inside rayon.
            let spec = Spec::<Shuffles> {
                threads: None,
                ..spec
            };
            PositionValueStats::run(&count(&spec))
        })
        .collect()
}

/// Rejections at α = 0.001 and 0.01 lie in their 99.9% binomial bands, and
/// the mean statistic is its df within 4 standard errors: for equal-ish
/// bins of n = 2003 (125 or 126 each) and bins of n = 3000 in 7 (428 or
/// 429).
#[test]
fn binned_fair_audits_reject_at_the_stated_rate() {
    for (n, bins, trials, base) in [
        (2003usize, 16usize, 200u64, 7_000_000u64),
        (3000, 7, 100, 8_000_000),
    ] {
        let stats = fair_audits(n, bins, trials, base);
        let df = ((bins - 1) * (bins - 1)) as f64;
        assert!(stats.iter().all(|s| s.df == df && s.bins == Some(bins)));
        for alpha in [0.001, 0.01] {
            let rejected = stats.iter().filter(|s| s.p_value() <= alpha).count() as u64;
            let (lo, hi) = binomial_band(AUDITS, alpha, 0.999);
            println!(
                "n = {n}, B = {bins}: {rejected} of {AUDITS} rejected at α = {alpha} (band {lo}..={hi})"
            );
            assert!(
                (lo..=hi).contains(&rejected),
                "n = {n}, B = {bins}: {rejected} rejections at α = {alpha}, band {lo}..={hi}"
            );
        }
        let mean = stats.iter().map(|s| s.statistic).sum::<f64>() / AUDITS as f64;
        let se = (2.0 * df / AUDITS as f64).sqrt();
        println!("n = {n}, B = {bins}: mean Q {mean:.2}, df {df} (se {se:.2})");
        assert!((mean - df).abs() < 4.0 * se, "mean {mean} against df {df}");
        // Without the (n-1)/n factor the sum is larger by n/(n-1): at these
        // n a shift far below the noise, so the factor is checked exactly.
        let s = &stats[0];
        assert!((s.statistic - s.pearson * (n as f64 - 1.0) / n as f64).abs() < 1e-9 * s.pearson);
    }
}

/// Biased shuffles are caught by the binned test: the naive swap and a
/// shuffle buffer of 10% of n.
#[test]
fn binned_test_catches_biased_shuffles() {
    for algorithm in ["naive-swap", "buffer-shuffle:b=200"] {
        let tally = count(&spec(algorithm, 2000, 16, 2000, 11));
        let stats = PositionValueStats::run(&tally);
        assert!(
            stats.log10_p() < -6.0,
            "{algorithm}: log10 p = {}",
            stats.log10_p()
        );
    }
}

/// A binned tally is identical on 1 and 2 threads (several chunks at
/// n = 5000), equals the merge of its halves, and its cells sum the full
/// matrix's cells over the bins; `bins = n` is the full matrix itself.
#[test]
fn binned_tallies_are_deterministic_and_sum_the_full_matrix() {
    let (n, bins, trials) = (5000usize, 9usize, 40_000u64);
    let one = count(&spec("naive-swap", n, bins, trials, 3));
    let two = count(&Spec::<Shuffles> {
        threads: Some(2),
        ..spec("naive-swap", n, bins, trials, 3)
    });
    assert_eq!(one, two);
    assert!(
        Shuffles::chunk_trials(&spec("naive-swap", n, bins, trials, 3)) < trials,
        "several chunks"
    );
    assert_eq!(one.counts().len(), bins * bins);
    assert_eq!(one.trials(), trials);
    // The binned counts are the full matrix's summed over the bins.
    let small = 1500usize;
    let full = count(&spec("naive-swap", small, small, 300, 5));
    assert!(!full.is_binned());
    let plain = count(&Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(TestSet::position_value()),
        ..spec("naive-swap", small, small, 300, 5)
    });
    assert_eq!(full, plain, "bins = n is the full matrix");
    let binned = count(&spec("naive-swap", small, 10, 300, 5));
    let binning = binned.binning();
    for i in 0..10 {
        for j in 0..10 {
            let sum: u64 = binning
                .range(i)
                .flat_map(|p| binning.range(j).map(move |v| (p, v)))
                .map(|(p, v)| full.count(p, v))
                .sum();
            assert_eq!(binned.count(i, j), sum, "cell ({i}, {j})");
        }
    }
    // Tallies of different bins do not merge.
    let other = count(&spec("naive-swap", small, 11, 10, 5));
    let merged = std::panic::catch_unwind(|| {
        let mut a: Tally = binned.clone();
        a.merge(&other);
    });
    assert!(merged.is_err(), "different bins must not merge");
}
