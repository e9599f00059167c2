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
                sampler,
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
            let want = if a.spec.sampler.expected_fair() {
                Verdict::NoBiasDetected
            } else {
                Verdict::Biased
            };
            a.verdict != want
        })
        .map(|a| {
            format!(
                "{}: {} ({})",
                a.spec.sampler,
                a.verdict,
                a.deviation_words()
            )
        })
        .collect();
    assert!(wrong.is_empty(), "unexpected verdicts: {wrong:?}");
    assert_eq!(audits.len(), Sampler::ALL.len());
}
