"""Shards: a run of a Python function split into shards, each counted
anywhere (here in this process, and in Dask worker processes), merged into
the result of the same run on one machine: the same counts, tests and
verdict. A chunk of the run (65,536 trials) is drawn with a generator of its
own, seeded from the run's seed and the chunk's number."""

from __future__ import annotations

import os
import pickle
import random
import sys

import numpy as np
import pytest

import shuffle_audit as sa

CHUNK = 65_536

TRIALS = 2 * CHUNK + 500
"""Three chunks, the last one short: shards of 3 hold one chunk each."""


# The shuffles are defined here, not in conftest, so that Dask's workers
# get them by value along with the task (see the Dask test).


def durstenfeld(deck, rng):
    """A correct Fisher–Yates shuffle."""
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]


def naive_swap(deck, rng):
    """Every position swapped with any position: biased."""
    n = len(deck)
    for i in range(n):
        j = rng.randrange(n)
        deck[i], deck[j] = deck[j], deck[i]


def three_of_ten(rng):
    """3 of 10 by a partial Fisher–Yates: fair."""
    items = list(range(10))
    for i in range(3):
        j = rng.randrange(i, 10)
        items[i], items[j] = items[j], items[i]
    return items[:3]


def window(rng):
    """Pick a start, take the next 3: items 0 and 5 are never together."""
    start = rng.randrange(10)
    return [(start + i) % 10 for i in range(3)]


def same(a: sa.Result, b: sa.Result) -> None:
    """Asserts that two results are the same run: counts, tests, p-values,
    verdict and the whole summary but for the times."""

    def untimed(value):
        if isinstance(value, dict):
            return {
                k: untimed(v)
                for k, v in value.items()
                if "seconds" not in k and "per_sec" not in k
            }
        if isinstance(value, list):
            return [untimed(v) for v in value]
        return value

    assert type(a) is type(b) is sa.Result
    assert np.array_equal(a.counts, b.counts)
    assert (a.verdict, a.p_text, a.p_adjusted, a.trials) == (
        b.verdict,
        b.p_text,
        b.p_adjusted,
        b.trials,
    )
    assert a.tests == b.tests
    assert untimed(a.summary) == untimed(b.summary)


@pytest.mark.parametrize(
    "shuffle, verdict", [(durstenfeld, "no bias detected"), (naive_swap, "biased")]
)
def test_merged_shards_of_a_shuffle_are_the_run_on_one_machine(shuffle, verdict):
    whole = sa.audit(shuffle, 6, trials=TRIALS, seed=3, progress=False)
    assert whole.verdict == verdict
    shards = [sa.audit(shuffle, 6, trials=TRIALS, seed=3, shard=(i, 3)) for i in (2, 0, 1)]
    assert [s.chunks for s in shards] == [range(2, 3), range(0, 1), range(1, 2)]
    assert [s.trials for s in shards] == [500, CHUNK, CHUNK]
    assert all(isinstance(s, sa.Shard) and s.run_trials == TRIALS for s in shards)
    same(sa.merge(shards), whole)


def test_merged_shards_of_samplers_and_picks_are_the_run_on_one_machine():
    for sampler, verdict in [(three_of_ten, "no bias detected"), (window, "biased")]:
        whole = sa.audit_samples(sampler, 10, 3, trials=TRIALS, seed=4, progress=False)
        assert whole.verdict == verdict
        # Shards of uneven size: chunks 0..1 and 1..3.
        shards = [sa.audit_samples(sampler, 10, 3, trials=TRIALS, seed=4, shard=(i, 2))
                  for i in range(2)]
        assert shards[1].kind == "sampler" and shards[1].trials == CHUNK + 500
        same(sa.merge(shards), whole)
    weights = [1, 2, 3, 4]
    uniform = lambda rng: rng.randrange(4)  # noqa: E731
    whole = sa.audit_picks(uniform, weights=weights, trials=TRIALS, progress=False)
    shards = [sa.audit_picks(uniform, weights=weights, trials=TRIALS, shard=(i, 3))
              for i in range(3)]
    merged = sa.merge(shards)
    same(merged, whole)
    assert merged.verdict == "biased" and "picks" in merged.seen_by


def test_each_chunk_is_drawn_with_its_own_generator_chunk_0_with_the_seed():
    seeds = []

    def generator(seed):
        seeds.append(seed)
        return random.Random(seed)

    # One chunk: one generator seeded with the seed, as before sharding.
    small = sa.audit(durstenfeld, 6, trials=5_000, seed=11, rng=generator, progress=False)
    rng = random.Random(11)
    decks = []
    for _ in range(5_000):
        deck = list(range(6))
        durstenfeld(deck, rng)
        decks.append(deck)
    assert np.array_equal(small.counts, sa.audit_orders(decks, progress=False).counts)
    assert seeds == [11]
    # Three chunks: three generators; shard 1 of 3 makes only chunk 1's.
    seeds.clear()
    sa.audit(durstenfeld, 6, trials=TRIALS, seed=11, rng=generator, progress=False)
    assert len(seeds) == 3 and seeds[0] == 11 and len(set(seeds)) == 3
    whole_seeds = list(seeds)
    seeds.clear()
    sa.audit(durstenfeld, 6, trials=TRIALS, seed=11, rng=generator, shard=(1, 3))
    assert seeds == whole_seeds[1:2]


def test_a_shard_pickles_as_its_bytes_and_reads_back():
    shard = sa.audit(naive_swap, 5, trials=3_000, seed=2, shard=(1, 2))
    back = pickle.loads(pickle.dumps(shard))
    assert isinstance(back, sa.Shard) and back.to_bytes() == shard.to_bytes()
    assert (back.index, back.count, back.name, back.n, back.seed) == (1, 2, "naive_swap", 5, 2)
    assert (back.trials, back.chunks) == (3_000, range(0, 1))
    data = shard.to_bytes()
    assert data.startswith(b"shuffle-audit tally v5 sha256=")
    assert sa.Shard.from_bytes(bytearray(data)).to_bytes() == data
    assert "Shard 1/2 of naive_swap" in repr(shard)
    # A run of fewer chunks than shards: shard 0 of 2 is empty, and merges.
    empty = sa.audit(naive_swap, 5, trials=3_000, seed=2, shard=(0, 2))
    assert empty.trials == 0 and empty.chunks == range(0, 0)
    merged = sa.merge([memoryview(empty.to_bytes()), data])
    same(merged, sa.audit(naive_swap, 5, trials=3_000, seed=2, progress=False))
    damaged = bytearray(data)
    damaged[-30] ^= 1
    with pytest.raises(ValueError, match="checksum"):
        sa.Shard.from_bytes(damaged)


def test_categories_survive_the_merge():
    shards = [sa.audit(durstenfeld, 52, trials=2_000, categories="cards", shard=(i, 2))
              for i in range(2)]
    merged = sa.merge(shards)
    assert "position-category" in {t["test"] for t in merged.tests}
    same(merged, sa.audit(durstenfeld, 52, trials=2_000, categories="cards", progress=False))


def test_shards_that_do_not_make_one_run_are_refused_naming_them():
    shards = [sa.audit(durstenfeld, 6, trials=TRIALS, seed=3, shard=(i, 3)) for i in range(3)]
    with pytest.raises(ValueError, match=r"chunks 1\.\.2 .* in no tally file .*shard missing"):
        sa.merge([shards[0], shards[2]])
    with pytest.raises(ValueError, match=r"shards\[3\] \(shard 1/3\) overlaps shards\[1\]"):
        sa.merge([*shards, shards[1]])
    reseeded = sa.audit(durstenfeld, 6, trials=TRIALS, seed=4, shard=(1, 3))
    with pytest.raises(ValueError, match=r"shards\[1\] .* not a shard of the same run .*"
                       r"its seed is 4, not 3"):
        sa.merge([shards[0], reseeded, shards[2]])
    other = sa.audit(naive_swap, 6, trials=TRIALS, seed=3, shard=(1, 3))
    with pytest.raises(ValueError, match="its subjects is naive_swap, not durstenfeld"):
        sa.merge([shards[0], other, shards[2]])
    # Another generator draws other decks: not a shard of the run either.
    def other_random(seed):
        return random.Random(seed + 1)

    redrawn = sa.audit(durstenfeld, 6, trials=TRIALS, seed=3, rng=other_random, shard=(1, 3))
    with pytest.raises(ValueError, match=r"shards\[1\] .* not a shard of the same run .*"
                       r"its drawn is .*other_random\) seeded from 3, not .*random\.Random\)"):
        sa.merge([shards[0], redrawn, shards[2]])
    with pytest.raises(ValueError, match="no shards to merge"):
        sa.merge([])
    with pytest.raises(ValueError, match=r"shards\[0\]: not a shuffle-audit tally file"):
        sa.merge([b"not a shard"])
    with pytest.raises(TypeError, match=r"shards\[1\] is a str"):
        sa.merge([shards[0], "shard 1"])


@pytest.mark.parametrize(
    "shard, error, message",
    [
        ((3, 3), ValueError, r"shard=\(3, 3\): the index counts from 0 and must be below"),
        ((0, 0), ValueError, r"shard=\(0, 0\): the count must be at least 1"),
        ((-1, 3), ValueError, r"shard=\(-1, 3\)"),
        ("0/3", TypeError, r"shard='0/3': a pair \(i, k\)"),
        ((0, 1, 2), TypeError, r"a pair \(i, k\)"),
        ((True, 2), TypeError, r"a pair \(i, k\)"),
    ],
)
def test_a_bad_shard_is_refused_naming_it(shard, error, message):
    with pytest.raises(error, match=message):
        sa.audit(durstenfeld, 6, trials=1_000, shard=shard)


def test_what_cannot_be_sharded_is_refused():
    with pytest.raises(ValueError, match="sequential .* not split"):
        sa.audit(durstenfeld, 6, trials=1_000, until_decisive=True, shard=(0, 2))
    with pytest.raises(ValueError, match="draws already made"):
        sa.audit_samples([[0, 1], [2, 3]], 5, shard=(0, 2))


# --- Dask -------------------------------------------------------------------


def count_shard(index: int, count: int) -> tuple:
    """One Dask task: shard `index` of `count` of the run, counted in the
    worker process, with that process's id."""
    return os.getpid(), sa.audit(naive_swap, 6, trials=TRIALS, seed=9, shard=(index, count))


def test_shards_mapped_over_a_dask_cluster_of_processes_merge_to_the_run():
    distributed = pytest.importorskip("distributed")
    import cloudpickle

    # The workers cannot import this test module: its functions travel by
    # value (shuffle_audit itself is installed, and imported there).
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        with distributed.LocalCluster(
            processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None
        ) as cluster, distributed.Client(cluster) as client:
            done = client.gather(client.map(count_shard, range(3), count=3))
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    pids = {pid for pid, _ in done}
    assert os.getpid() not in pids, "the shards were counted in worker processes"
    merged = sa.merge([shard for _, shard in done])
    whole = sa.audit(naive_swap, 6, trials=TRIALS, seed=9, progress=False)
    same(merged, whole)
    assert merged.verdict == "biased"
