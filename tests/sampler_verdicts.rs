//! Every registered sampler gets the verdict its record expects: the fair
//! ones pass, the biased ones are caught, judged together as one run.

use shuffle_audit::engine::no_progress;
use shuffle_audit::sampler::Sampler;
use shuffle_audit::sampler::audit::{self, SampleAudit};
use shuffle_audit::sampler::run::SampleSpec;
use shuffle_audit::source::SourceSpec;
use shuffle_audit::stats::Verdict;

/// The registry's samplers at sizes where every flaw shows: k = 3 of 10
/// (k = 2 for systematic, which needs k | N), the default board, and the
/// weights 3, 1, 4, 1, 5 for weighted picks.
fn specs() -> Vec<SampleSpec> {
    Sampler::ALL
        .iter()
        .map(|&sampler| {
            let (sampler, n, weights) = match sampler {
                Sampler::Subset { method, .. } => {
                    let k = if method.name() == "systematic" { 2 } else { 3 };
                    (Sampler::Subset { method, k }, 10, None)
                }
                Sampler::Minesweeper(board) => (sampler, board.cells(), None),
                Sampler::Weighted(_) => (sampler, 5, Some(vec![3, 1, 4, 1, 5])),
            };
            SampleSpec {
                sampler: sampler.into(),
                n,
                weights,
                trials: 400_000,
                source: SourceSpec::parse("chacha8").unwrap(),
                seed: 2026,
                threads: None,
            }
        })
        .collect()
}

#[test]
fn every_sampler_gets_its_expected_verdict() {
    let mut audits: Vec<SampleAudit> = specs()
        .iter()
        .map(|spec| audit::run(spec, 0.001, &no_progress).unwrap())
        .collect();
    audit::judge(&mut audits, 0.001);
    let wrong: Vec<String> = audits
        .iter()
        .filter(|a| {
            let want = if a
                .spec()
                .sampler
                .builtin()
                .is_some_and(|s| s.expected_fair())
            {
                Verdict::NoBiasDetected
            } else {
                Verdict::Biased
            };
            a.verdict() != want
        })
        .map(|a| {
            format!(
                "{}: {} ({})",
                a.spec().sampler,
                a.verdict(),
                a.deviation_words()
            )
        })
        .collect();
    assert!(wrong.is_empty(), "unexpected verdicts: {wrong:?}");
    assert_eq!(audits.len(), Sampler::ALL.len());
    // What saw the bias: a biased sampler names its tests, strongest first,
    // starting with the decisive one; a fair one names none.
    for a in &audits {
        let seen = a.seen_by();
        assert_eq!(
            seen.is_empty(),
            a.verdict() != Verdict::Biased,
            "{}",
            a.spec().sampler
        );
        if let Some(first) = seen.first() {
            assert_eq!(
                first.test,
                a.decisive().unwrap().test,
                "{}",
                a.spec().sampler
            );
        }
        assert!(seen.windows(2).all(|w| w[0].log10_p <= w[1].log10_p));
    }
}

/// A fair sampler's audit is called biased at most at the stated rate, in
/// the tail the verdicts use (α = 0.001) as well as at 0.01: 3,000 seeded
/// audits of floyd (k = 3 of 10, whose inclusion, pairs and subset tests all
/// run) and of partial-fisher-yates (ordered: the order test runs too).
#[test]
fn fair_sampler_audits_reject_at_the_stated_rate() {
    use shuffle_audit::stats::special::binomial_band;
    const AUDITS: u64 = 3_000;
    for name in ["floyd:k=3", "partial-fisher-yates:k=3"] {
        let mut p_values = Vec::new();
        for seed in 0..AUDITS {
            let spec = SampleSpec {
                sampler: Sampler::parse(name).unwrap().into(),
                n: 10,
                weights: None,
                trials: 3_000,
                source: SourceSpec::parse("xoshiro256pp").unwrap(),
                seed,
                threads: Some(1),
            };
            let audit = audit::run(&spec, 0.001, &no_progress).unwrap();
            assert!(audit.not_run().is_empty(), "{name}: {:?}", audit.not_run());
            p_values.push(10f64.powf(audit.log10_p()));
        }
        for alpha in [0.01, 0.001] {
            let rejected = p_values.iter().filter(|&&p| p <= alpha).count() as u64;
            let (_, hi) = binomial_band(AUDITS, alpha, 0.999);
            eprintln!("{name}: {rejected} of {AUDITS} rejected at {alpha} (at most {hi})");
            assert!(
                rejected <= hi,
                "{name}: {rejected} of {AUDITS} fair audits rejected at {alpha} (at most {hi})"
            );
        }
    }
}
