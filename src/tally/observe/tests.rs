//! Every way of counting against the definitions: the engine's counter (one
//! pass into chunk cells, n ≤ 64; each statistic apart above), a tally
//! recording one permutation at a time, and the one pass with each cycle
//! method, for every combination of what can be collected.

use super::super::{Collect, Counter, StructureParts, Tally};
use super::{ObserveScratch, Rows, StructureChunk, observe_any};
use crate::permutation::tests::{arrangements, by_definition};
use crate::permutation::{CycleCount, Vbmi, factorial};
use crate::spec::MAX_PERMUTATION_N;

/// The sizes around each switch: tiny, the pairs' n = 9, the vectors' 16,
/// the word's 64, and beyond.
const SIZES: [usize; 13] = [1, 2, 3, 8, 9, 10, 16, 17, 52, 63, 64, 65, 100];

/// Every collect at `n`: each subset of the six structure parts, with and
/// without whole permutations where n allows them.
fn collects(n: usize) -> Vec<Collect> {
    let mut all = Vec::new();
    for bits in 0..128u32 {
        let on = |k: u32| bits & (1 << k) != 0;
        let permutations = on(5);
        if permutations && n > MAX_PERMUTATION_N {
            continue;
        }
        all.push(Collect {
            permutations,
            structure: StructureParts {
                fixed_points: on(0),
                cycles: on(1),
                rising: on(2),
                lehmer: on(3),
                pairs: on(4),
                clumping: on(6),
            },
            ..Collect::default()
        });
    }
    all
}

/// The tally of `perms` built from the definitions alone.
fn by_definitions(n: usize, perms: &[Vec<u32>], collect: Collect) -> Tally {
    let mut want = Tally::collecting(n, collect);
    for a in perms {
        let d = by_definition(a);
        for (p, &v) in a.iter().enumerate() {
            want.counts[p * n + v as usize] += 1;
        }
        want.trials += 1;
        if let Some(counts) = &mut want.permutations {
            let rank: usize = (0..n).map(|i| d.digits[i] as usize * factorial(i)).sum();
            counts[rank] += 1;
        }
        let Some(s) = &mut want.structure else {
            continue;
        };
        let parts = collect.structure;
        if parts.fixed_points {
            s.fixed_points[d.fixed_points] += 1;
        }
        if parts.cycles {
            s.cycles[d.cycles] += 1;
        }
        if parts.rising {
            s.rising[d.rising_sequences] += 1;
        }
        if parts.clumping {
            // Values i and i+1 side by side, read off the inverse.
            let mut position = vec![0usize; n];
            for (p, &v) in a.iter().enumerate() {
                position[v as usize] = p;
            }
            let kept = position.windows(2).filter(|w| w[0].abs_diff(w[1]) == 1);
            s.clumping[kept.count()] += 1;
        }
        if parts.lehmer {
            for (i, &digit) in d.digits.iter().enumerate() {
                s.lehmer[i * n + digit as usize] += 1;
            }
        }
        for pair in &mut s.pairs {
            let (i, j) = (pair.first, pair.first + 1);
            let cell = d.digits[i] as usize * (pair.first + 2) + d.digits[j] as usize;
            pair.counts[cell] += 1;
        }
    }
    want
}

#[test]
fn counter_and_record_count_as_the_definitions_say() {
    for n in SIZES {
        let perms = arrangements(&[n]);
        let batch = perms.concat();
        // Two batches, flushed in between, then the rest.
        let split = (perms.len() / 3) * n;
        for collect in collects(n) {
            let want = by_definitions(n, &perms, collect);
            let mut counter = Counter::new(n, collect);
            counter.count_batch(&batch[..split]);
            counter.flush();
            counter.count_batch(&batch[split..]);
            assert_eq!(counter.finish(), want, "counter, n = {n}, {collect:?}");
            let mut recorded = Tally::collecting(n, collect);
            for a in &perms {
                recorded.record(a);
            }
            assert_eq!(recorded, want, "record, n = {n}, {collect:?}");
            assert_eq!(recorded.collect(), collect_held(n, collect));
        }
    }
}

/// What a tally collecting `collect` at `n` says it collects: the same,
/// except the digit pairs below n = 3, where none exists.
fn collect_held(n: usize, collect: Collect) -> Collect {
    let mut held = collect;
    held.structure.pairs &= n >= 3;
    held
}

/// The one pass with every cycle method this CPU has (the counter uses the
/// fastest only), straight into chunk cells.
#[test]
fn one_pass_counts_alike_with_every_cycle_method() {
    let methods = [
        Vbmi::detect().map(CycleCount::Vector),
        Some(CycleCount::Word),
        Some(CycleCount::Walk),
    ];
    for n in [3, 10, 17, 64] {
        let perms = arrangements(&[n]);
        let all = Collect {
            permutations: n <= MAX_PERMUTATION_N,
            structure: StructureParts::ALL,
            ..Collect::default()
        };
        let want = by_definitions(n, &perms, all);
        for cycles in methods.into_iter().flatten() {
            let mut tally = Tally::collecting(n, all);
            let mut matrix = vec![[0; super::NARROW]; n];
            let mut chunk = StructureChunk::for_collect(n, all).expect("n <= 64");
            let rows = Rows {
                matrix: &mut matrix,
                structure: &mut chunk,
            };
            let mut scratch = ObserveScratch::default();
            let batch = perms.concat();
            observe_any((&batch, n, all, cycles, &mut tally, Some(rows), &mut scratch));
            chunk.flush_into(tally.structure.as_mut().expect("structure collected"));
            for (p, row) in matrix.iter().enumerate() {
                for (v, &c) in row[..n].iter().enumerate() {
                    tally.counts[p * n + v] += u64::from(c);
                }
            }
            tally.trials = perms.len() as u64;
            assert_eq!(tally, want, "n = {n}, {cycles:?}");
        }
    }
}
