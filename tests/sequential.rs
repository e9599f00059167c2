//! Sequential audits (`audit --until-decisive`) keep their promise, for every
//! kind of subject: looking after every doubling of the trials does not
//! inflate false alarms (α is spent across the looks), and a biased subject
//! is still caught, usually at an early look.
//!
//! Everything is seeded and deterministic: audit i of a setting uses seed
//! base + i.

use rayon::prelude::*;
use shuffle_audit::audit::{self, Audit, Kind, Spec, Subject, look_schedule, no_progress};
use shuffle_audit::sampler::Samplers;
use shuffle_audit::shuffle::Shuffles;
use shuffle_audit::source::SourceSpec;
use shuffle_audit::stats::Verdict;
use shuffle_audit::stats::special::binomial_band;

/// The level of the verdicts.
const LEVEL: f64 = 0.05;

/// One setting of sequential audits: what is audited, and its looks.
struct Setting<K: Kind> {
    /// The subject, as its kind names it.
    name: &'static str,
    /// Items shuffled, or the population sampled.
    n: usize,
    /// The first look's trials.
    first: u64,
    /// The budget: the last look's trials.
    budget: u64,
    /// Audits run.
    runs: u64,
    /// The seed of the first audit; audit i uses `base + i`.
    base: u64,
    /// The random source.
    source: &'static str,
    /// The kind.
    kind: std::marker::PhantomData<K>,
}

impl<K: Kind> Setting<K> {
    /// A setting of `runs` audits of `name` at `n`, looking at `first`,
    /// `2 first`, ... up to `budget` trials, seeds `base`, `base + 1`, ...
    fn new(name: &'static str, n: usize, first: u64, budget: u64, runs: u64, base: u64) -> Self {
        Setting {
            name,
            n,
            first,
            budget,
            runs,
            base,
            source: "xoshiro256pp",
            kind: std::marker::PhantomData,
        }
    }

    /// The same setting drawn from `source`.
    fn on(self, source: &'static str) -> Self {
        Setting { source, ..self }
    }

    /// The setting's sequential audits at [`LEVEL`], one per seed.
    fn audits(&self) -> Vec<Audit<K>> {
        let subject = K::parse(self.name).unwrap();
        let source = SourceSpec::parse(self.source).unwrap();
        (0..self.runs)
            .into_par_iter()
            .map(|i| {
                let spec = Spec::<K>::new(
                    Subject::Builtin(subject.clone()),
                    self.n,
                    self.first,
                    source,
                    self.base + i,
                );
                audit::run_until_decisive(&spec, LEVEL, self.budget, 1, &no_progress).unwrap()
            })
            .collect()
    }
}

/// Runs `setting`'s audits of a fair subject and checks that at most the
/// upper end of the binomial band at 99.9% of them are called biased, and
/// that each spends its budget unless it (falsely) alarms; and that
/// looking at α each time, without spending it, would have raised more
/// false alarms than that: the check would catch a procedure that forgot
/// to divide α.
fn assert_rarely_biased<K: Kind>(setting: Setting<K>) {
    let Setting {
        name, runs, budget, ..
    } = setting;
    let (_, hi) = binomial_band(runs, LEVEL, 0.999);
    let audits = setting.audits();
    let alarms = audits
        .iter()
        .filter(|a| a.verdict() == Verdict::Biased)
        .count() as u64;
    // A fair subject spends its budget unless it (falsely) alarms.
    assert!(
        audits
            .iter()
            .all(|a| a.verdict() == Verdict::Biased || a.trials() == budget),
        "{name}: an audit stopped early without alarming"
    );
    // What looking at α each time would have called biased: any look with
    // p ≤ α (an audit that stopped did so at p ≤ α/J).
    let naive = audits
        .iter()
        .filter(|a| a.looks().iter().any(|l| l.log10_p <= LEVEL.log10()))
        .count() as u64;
    println!(
        "{} {name}: {alarms} false alarms of {runs} at alpha {LEVEL} (at most {hi}); \
         unspent looks would have raised {naive}",
        K::NAME
    );
    assert!(alarms <= hi, "{name}: {alarms} false alarms of {runs}");
    assert!(naive > hi, "{name}: the check has no teeth ({naive})");
}

/// Over many sequential audits of a fair subject with several looks, the
/// rate of "biased" at α = 0.05 is at most α (within the binomial band's
/// upper end at 99.9%), for a shuffle and for samplers.
///
/// Fisher–Yates at n = 5: 400 audits, looks at 500, 1,000, ..., 8,000
/// shuffles (chacha8; band's upper end 36). Samplers at N = 6: 1,000 audits
/// each, looks at 300, 600, 1,200 and 2,400 samples (band's upper end 74).
/// Looking at α each time, without spending it, raises false alarms well
/// beyond that: the same looks show it. Measured: 14 (fisher-yates), 37
/// (floyd) and 50 (partial-fisher-yates) false alarms; 60, 116 and 156 with
/// unspent looks. Over 20,000 audits each the samplers' rates were 3.3% and
/// 3.7%: Bonferroni over correlated looks is conservative.
#[test]
fn a_fair_subject_is_rarely_called_biased_however_often_it_is_looked_at() {
    assert_eq!(look_schedule(300, 2_400), [300, 600, 1_200, 2_400]);
    assert_eq!(look_schedule(500, 8_000).len(), 5);
    assert_rarely_biased(
        Setting::<Shuffles>::new("fisher-yates", 5, 500, 8_000, 400, 40_000).on("chacha8"),
    );
    for (sampler, base) in [
        ("floyd:k=2", 1_000_000),
        ("partial-fisher-yates:k=2", 2_000_000),
    ] {
        assert_rarely_biased(Setting::<Samplers>::new(
            sampler, 6, 300, 2_400, 1_000, base,
        ));
    }
}

/// Runs `setting`'s audits of a biased subject and checks that at least
/// `caught_at_least` of them are called biased, each stopping at the look
/// that was decisive.
fn assert_caught<K: Kind>(setting: Setting<K>, caught_at_least: u64) {
    let (name, runs) = (setting.name, setting.runs);
    let audits = setting.audits();
    let caught: Vec<&Audit<K>> = audits
        .iter()
        .filter(|a| a.verdict() == Verdict::Biased)
        .collect();
    let mut stops: Vec<u64> = caught.iter().map(|a| a.trials()).collect();
    stops.sort_unstable();
    let median = stops.get(stops.len() / 2).copied().unwrap_or(0);
    println!(
        "{} {name}: caught in {} of {runs}, median stop at {median} trials",
        K::NAME,
        caught.len()
    );
    assert!(
        caught.len() as u64 >= caught_at_least,
        "{name}: caught in {} of {runs}",
        caught.len()
    );
    // Caught audits stop at the look that was decisive.
    assert!(caught.iter().all(|a| {
        let last = a.looks().last().unwrap();
        last.trials == a.trials() && last.log10_p <= last.log10_alpha
    }));
}

/// A biased subject is caught in (nearly) every run, most at the first
/// look: samplers at N = 6, 1,000 audits each, looks at 300 to 2,400
/// samples; the naive swap at n = 6, 400 audits, looks at 500 to 8,000
/// shuffles.
#[test]
fn a_biased_subject_is_caught_in_most_runs() {
    for (sampler, base, caught_at_least) in [
        // Items 0 and 1 are kept with probability 1/5 instead of 1/3.
        ("reservoir-off-by-one:k=2", 3_000_000, 1_000),
        // Every item is fair; only pairs {i, i + 3} are ever drawn.
        ("systematic:k=2", 4_000_000, 1_000),
        // Items after a run of taken ones are drawn too often.
        ("linear-probe:k=2", 5_000_000, 900),
    ] {
        assert_caught(
            Setting::<Samplers>::new(sampler, 6, 300, 2_400, 1_000, base),
            caught_at_least,
        );
    }
    // The naive swap at n = 6: its cells are up to a third off.
    assert_caught(
        Setting::<Shuffles>::new("naive-swap", 6, 500, 8_000, 400, 6_000_000).on("chacha8"),
        400,
    );
}
