"""The package behaves like a Python package: progress while it runs, a
version, types, failures that point at the user's test, and the command
line's options (tests, categories, until_decisive) read by the library."""

from __future__ import annotations

import ast
import importlib.util
import random
import re
import sys
import time
import types
from pathlib import Path

import pytest

import shuffle_audit as sa
from shuffle_audit import _native
from conftest import durstenfeld, naive_swap

PACKAGE = Path(sa.__file__).parent


# --- progress ---------------------------------------------------------------


def test_a_progress_callback_hears_the_run_to_its_end():
    heard = []
    result = sa.audit(durstenfeld, 10, trials=30_000, progress=lambda d, t: heard.append((d, t)))
    assert heard, "the callback was never called"
    assert heard[-1] == (30_000, 30_000)
    assert all(t == 30_000 for _, t in heard)
    done = [d for d, _ in heard]
    assert done == sorted(done)
    assert result.trials == 30_000


def test_progress_of_an_iterable_has_no_total_and_of_an_array_has_one():
    import numpy as np

    decks = [random.Random(i).sample(range(6), 6) for i in range(2_000)]
    heard = []
    sa.audit_orders(iter(decks), progress=lambda d, t: heard.append((d, t)))
    assert heard[-1] == (2_000, None)
    heard.clear()
    sa.audit_orders(np.array(decks, dtype=np.uint8), progress=lambda d, t: heard.append((d, t)))
    assert heard[-1] == (2_000, 2_000)


def test_a_sampler_reports_progress_too():
    heard = []
    sa.audit_samples(
        lambda rng: rng.sample(range(8), 2), 8, 2, trials=5_000,
        progress=lambda d, t: heard.append((d, t)),
    )
    assert heard[-1] == (5_000, 5_000)


def slow_durstenfeld(deck, rng):
    """durstenfeld taking about a fifth of a millisecond a call."""
    until = time.perf_counter() + 0.0002
    while time.perf_counter() < until:
        pass
    durstenfeld(deck, rng)


def moved_before_the_end(heard, trials):
    """Whether a progress report fell strictly between 0 and ``trials``."""
    return any(0 < d < trials for d, _ in heard)


def test_progress_moves_within_a_chunk_of_a_slow_function():
    # 2,000 trials are one chunk of the run: the library counts it at its
    # end, a second on; the bar still moves with the calls made meanwhile.
    heard = []
    sa.audit(slow_durstenfeld, 6, trials=2_000, progress=lambda d, t: heard.append((d, t)))
    assert moved_before_the_end(heard, 2_000), heard
    assert heard[-1] == (2_000, 2_000)
    assert [d for d, _ in heard] == sorted(d for d, _ in heard)
    heard.clear()

    def slow_sample(rng):
        slow_durstenfeld([], rng)
        return rng.sample(range(8), 2)

    sa.audit_samples(slow_sample, 8, 2, trials=2_000, progress=lambda d, t: heard.append((d, t)))
    assert moved_before_the_end(heard, 2_000), heard
    assert heard[-1] == (2_000, 2_000)
    heard.clear()

    def slow_decks():
        rng = random.Random(7)
        for _ in range(2_000):
            deck = list(range(6))
            slow_durstenfeld(deck, rng)
            yield deck

    sa.audit_orders(slow_decks(), progress=lambda d, t: heard.append((d, t)))
    assert moved_before_the_end(heard, 2_000), heard
    assert heard[-1] == (2_000, None)


def test_progress_false_is_silent_and_a_bad_progress_is_refused(capsys):
    sa.audit(durstenfeld, 6, trials=2_000, progress=False)
    assert capsys.readouterr().err == ""
    with pytest.raises(ValueError, match="progress='loud'"):
        sa.audit(durstenfeld, 6, trials=2_000, progress="loud")


def test_an_exception_in_the_progress_callback_stops_the_run():
    def angry(done, total):
        raise RuntimeError("no more")

    with pytest.raises(RuntimeError, match="no more"):
        sa.audit(durstenfeld, 10, trials=30_000, progress=angry)


class FakeTqdm:
    """Stands for ``tqdm.auto.tqdm``: records how the bar is made and moved."""

    made: list = []

    def __init__(self, **kwargs):
        self.kwargs, self.n, self.closed = kwargs, 0, False
        FakeTqdm.made.append(self)

    def update(self, k):
        self.n += k

    def close(self):
        self.closed = True


def test_the_default_progress_is_a_tqdm_bar_shown_after_two_seconds(monkeypatch):
    tqdm = types.ModuleType("tqdm")
    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = FakeTqdm
    tqdm.auto = auto
    monkeypatch.setitem(sys.modules, "tqdm", tqdm)
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    FakeTqdm.made = []
    sa.audit(durstenfeld, 10, trials=30_000)
    [bar] = FakeTqdm.made
    assert bar.kwargs["total"] == 30_000 and bar.kwargs["delay"] == 2
    assert bar.n == 30_000 and bar.closed
    FakeTqdm.made = []
    sa.audit(durstenfeld, 10, trials=30_000, progress=False)
    assert FakeTqdm.made == []


@pytest.mark.skipif(importlib.util.find_spec("tqdm") is not None, reason="tqdm is installed")
def test_without_tqdm_the_default_shows_nothing(capsys):
    sa.audit(durstenfeld, 6, trials=2_000)
    assert capsys.readouterr().err == ""


# --- version and types ------------------------------------------------------


def test_the_version_is_the_librarys():
    assert sa.__version__ == _native.__version__
    assert sa.__version__.count(".") == 2


def test_the_package_is_typed_and_its_stub_covers_the_native_module():
    assert (PACKAGE / "py.typed").exists()
    stub = ast.parse((PACKAGE / "_native.pyi").read_text())
    declared = set()
    for node in stub.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.add(node.target.id)
    public = {name for name in dir(_native) if not name.startswith("_")} | {"__version__"}
    assert public <= declared, public - declared
    methods = {
        n.name
        for c in stub.body
        if isinstance(c, ast.ClassDef) and c.name == "Audit"
        for n in c.body
        if isinstance(n, ast.FunctionDef)
    }
    assert {m for m in dir(_native.Audit) if not m.startswith("_")} <= methods
    shard_methods = {
        n.name
        for c in stub.body
        if isinstance(c, ast.ClassDef) and c.name == "Shard"
        for n in c.body
        if isinstance(n, ast.FunctionDef)
    }
    assert {m for m in dir(_native.Shard) if not m.startswith("_")} <= shard_methods


def test_every_export_is_there_and_documented():
    assert sorted(sa.__all__) == sorted(
        [
            "DEFAULT_ALPHA", "DEFAULT_SEED", "Result", "Shard", "__version__",
            "assert_fair", "assert_fair_picks", "assert_fair_sample", "audit",
            "audit_orders", "audit_picks", "audit_samples", "default_sample_trials",
            "default_trials", "merge",
        ]
    )
    for name in sa.__all__:
        value = getattr(sa, name)
        if callable(value):
            assert value.__doc__, f"{name} has no docstring"
    for cls in (sa.Result, sa.Shard):
        for attr, value in vars(cls).items():
            if not attr.startswith("_"):
                assert value.__doc__, f"{cls.__name__}.{attr} has no docstring"


# --- failures point at the user's test --------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        "sa.assert_fair(naive_swap, n=8, trials=20_000, report_dir=REPORT)",
        "sa.assert_fair_sample(lambda rng: [0, rng.randrange(1, 10)], 10, 2, trials=5_000, "
        "report_dir=REPORT)",
        "sa.assert_fair_picks(lambda rng: rng.randrange(2), [1, 3], trials=5_000, "
        "report_dir=REPORT)",
    ],
)
def test_a_failing_assertion_points_at_the_users_test(pytester, tmp_path, call):
    pytester.makepyfile(
        test_mine=f"""
        import shuffle_audit as sa

        REPORT = {str(tmp_path / "report")!r}

        def naive_swap(deck, rng):
            for i in range(len(deck)):
                j = rng.randrange(len(deck))
                deck[i], deck[j] = deck[j], deck[i]

        def test_fair():
            {call}
        """
    )
    run = pytester.runpytest("-p", "no:cacheprovider")
    run.assert_outcomes(failed=1)
    text = run.stdout.str()
    # The failure is reported at the test's own line, the call shown.
    assert re.search(r"^test_mine\.py:\d+: AssertionError$", text, re.M), text
    assert re.search(r"^>\s+sa\.assert_fair", text, re.M), text
    assert "is biased" in text, text
    assert "shuffle_audit" + "/__init__.py" not in text, text
    assert "_failure" not in text and "_sampler" not in text, text


# --- the command line's options, read by the library ------------------------


def test_tests_narrows_the_battery():
    every = sa.audit(durstenfeld, 6, trials=6_000)
    one = sa.audit(durstenfeld, 6, trials=6_000, tests="position-value")
    two = sa.audit(durstenfeld, 6, trials=6_000, tests=["position-value", "fixed-points"])
    assert len(every.tests) > 2
    assert [t["test"] for t in one.tests] == ["position-value"]
    assert {t["test"] for t in two.tests} == {"position-value", "fixed-points"}


def test_a_bad_test_name_is_refused_naming_it():
    with pytest.raises(ValueError, match="posiiton-value"):
        sa.audit(durstenfeld, 6, trials=100, tests="posiiton-value")


def test_categories_cards_adds_the_category_tests_to_a_deck_of_52():
    plain = sa.audit(durstenfeld, 52, trials=3_000)
    cards = sa.audit(durstenfeld, 52, trials=3_000, categories="cards")
    added = {t["test"] for t in cards.tests} - {t["test"] for t in plain.tests}
    assert "position-category" in added, cards.tests


def test_categories_cards_reads_card_labels_handed_over():
    cards = [r + s for s in "SHDC" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]]
    rng = random.Random(3)
    decks = [rng.sample(cards, 52) for _ in range(2_000)]
    result = sa.audit_orders(decks, categories="cards")
    assert "position-category" in {t["test"] for t in result.tests}


def test_bad_categories_are_refused_naming_them(tmp_path):
    bad = tmp_path / "lands.csv"
    bad.write_text("item\n0\n")
    with pytest.raises(ValueError, match="lands.csv"):
        sa.audit(durstenfeld, 10, trials=100, categories=str(bad))
    with pytest.raises(OSError, match="no-such-file.csv"):
        sa.audit(durstenfeld, 10, trials=100, categories="no-such-file.csv")


def test_until_decisive_decides_where_a_small_fixed_run_cannot():
    fixed = sa.audit(naive_swap, 10, trials=300)
    assert fixed.verdict == "inconclusive"
    sequential = sa.audit(naive_swap, 10, trials=300, until_decisive=True)
    assert sequential.verdict == "biased"
    assert 300 < sequential.trials <= 64 * 300
    assert sequential.summary["until_decisive"] if "until_decisive" in sequential.summary else True


def test_until_decisive_is_reproducible_and_works_for_a_sampler():
    def skewed(rng):
        return 0 if rng.random() < 0.3 else rng.randrange(4)

    a = sa.audit_picks(skewed, n=4, trials=200, until_decisive=True)
    b = sa.audit_picks(skewed, n=4, trials=200, until_decisive=True)
    assert a.verdict == "biased"
    assert a.trials == b.trials and a.p_adjusted == b.p_adjusted
    assert (a.counts == b.counts).all()


def test_until_decisive_is_refused_for_output_already_made_and_max_trials_needs_it():
    draws = [[0, 1], [2, 3], [1, 4]]
    with pytest.raises(ValueError, match="until_decisive"):
        sa.audit_samples(draws, 5, until_decisive=True)
    with pytest.raises(ValueError, match="max_trials is the budget of a sequential audit"):
        sa.audit(durstenfeld, 6, trials=100, max_trials=1_000)
    with pytest.raises(ValueError, match="max_trials"):
        sa.audit(durstenfeld, 6, trials=1_000, until_decisive=True, max_trials=10)
