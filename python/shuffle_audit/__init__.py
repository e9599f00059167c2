"""shuffle-audit for Python: tells, with calibrated statistics, whether a
shuffle or a random sampler is fair.

The same engine, tests, verdicts and reports as the ``shuffle-audit``
command line (the Rust library is compiled into this package)::

    import random, shuffle_audit

    def my_shuffle(deck, rng):          # a correct Durstenfeld loop
        for i in range(len(deck) - 1, 0, -1):
            j = rng.randrange(i + 1)
            deck[i], deck[j] = deck[j], deck[i]

    shuffle_audit.assert_fair(my_shuffle, n=10)   # in pytest: never flaky

- :func:`assert_fair` / :func:`audit`: a shuffle written in Python,
  ``shuffle(deck, rng)`` on a fresh list ``[0, ..., n-1]``.
- :func:`audit_orders`: permutations already made (a 2-D numpy array read in
  place, or any iterable of decks of integers or labels).
- :func:`audit_samples`, :func:`audit_picks` (and their ``assert_fair_*``):
  samplers of k of N items and weighted picks, from a function or draws.

Every audit is deterministic for its seed. Bad input raises ``ValueError``
in the command line's words.
"""

from __future__ import annotations

import base64
import html
import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from . import _native

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_SEED",
    "Result",
    "assert_fair",
    "assert_fair_picks",
    "assert_fair_sample",
    "audit",
    "audit_orders",
    "audit_picks",
    "audit_samples",
    "default_sample_trials",
    "default_trials",
]

DEFAULT_SEED: int = _native.DEFAULT_SEED
"""The seed used when none is given (the command line's too)."""

DEFAULT_ALPHA: float = _native.DEFAULT_ALPHA
"""The significance level used when none is given."""

RngSpec = Union[str, Callable[[int], Any]]


def _asked(
    *,
    name: str,
    holds: str = "deck",
    n: Optional[int] = None,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    tests: Optional[Union[str, Sequence[str]]] = None,
    categories: Optional[str] = None,
    order: Optional[Sequence[Any]] = None,
    weights: Optional[Sequence[Any]] = None,
    base: Optional[int] = None,
    k: Optional[int] = None,
) -> dict:
    """What a call asked, as the library's request reads it: every default,
    check and refusal is the library's (the command line's too), worded for
    Python (``trials=4629``)."""
    if tests is not None and not isinstance(tests, str):
        tests = ",".join(str(t) for t in tests)
    return {
        "name": name,
        "holds": holds,
        "n": n,
        "trials": trials,
        "seed": seed,
        "alpha": alpha,
        "tests": tests,
        "categories": categories,
        "order": None if order is None else [str(x) for x in order],
        "weights": None if weights is None else list(weights),
        "base": base,
        "k": k,
    }


def default_trials(n: int, alpha: float = DEFAULT_ALPHA) -> int:
    """Trials a default audit of a shuffle of ``n`` items runs (as Rust's
    ``custom::default_trials`` and the command line's): enough to catch the
    naive swap and to make "no bias detected" mean something (18,500 at
    n = 10, 480,598 at 52). ``n`` below 2 raises ``ValueError``."""
    return _native.default_trials(_asked(name="shuffle", n=n, alpha=alpha))


def default_sample_trials(
    n: Optional[int] = None,
    k: int = 1,
    *,
    ordered: bool = False,
    weights: Optional[Sequence[Any]] = None,
    alpha: float = DEFAULT_ALPHA,
) -> int:
    """Samples (or picks) a default audit of k of ``n`` runs; with
    ``weights`` (whole numbers, or proportions such as ``[0.1, 0.9]``) the
    picks a weighted pick's default audit runs."""
    if weights is not None:
        holds = "pick"
    else:
        holds = "ordered" if ordered else ("sample" if k > 1 else "pick")
    asked = _asked(name="sampler", holds=holds, n=n, alpha=alpha, weights=weights, k=k)
    return _native.default_trials(asked)


def _make_rng(rng: RngSpec, seed: int) -> Any:
    """The generator handed to the code under audit: ``"random"`` (a
    ``random.Random(seed)``), ``"numpy"`` (``numpy.random.default_rng(seed)``)
    or ``rng(seed)`` for a callable."""
    if callable(rng):
        return rng(seed)
    if rng == "random":
        return random.Random(seed)
    if rng == "numpy":
        import numpy

        return numpy.random.default_rng(seed)
    raise ValueError(f"rng {rng!r}: one of 'random', 'numpy' or a function of the seed")


def _name_of(f: Any, name: Optional[str]) -> str:
    if name is not None:
        return name
    return getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or repr(f)


class Result:
    """A finished audit: its verdict, what it could detect, its tests and
    counts, and its report. In a notebook it shows the verdict table and the
    heatmap (an inclusion chart for a sampler)."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self.summary: dict = json.loads(native.summary_json())
        """The run's ``summary.json`` (what ``shuffle-audit audit --json``
        prints)."""
        self._entry: dict = self.summary["audits"][0]

    @property
    def name(self) -> str:
        """The name of what was audited."""
        return self._entry["subject"]

    @property
    def kind(self) -> str:
        """The kind of subject: ``"shuffle"`` or ``"sampler"``."""
        return self._entry["kind"]

    @property
    def verdict(self) -> str:
        """``"biased"``, ``"no bias detected"`` or ``"inconclusive"``."""
        return self._native.verdict()

    @property
    def passed(self) -> bool:
        """Whether no bias was detected by a run large enough to see one."""
        return self.verdict == "no bias detected"

    @property
    def p_adjusted(self) -> float:
        """The p-value the verdict compared with alpha, after every
        correction (stated values never go below 1e-12: see ``p_text``)."""
        return float(self._entry["p_adjusted"])

    @property
    def p_text(self) -> str:
        """The adjusted p as the command line prints it (``< 1e-12``)."""
        return self._native.p_text()

    @property
    def could_detect(self) -> str:
        """What the run could have seen with 90% power (``±8.8% in a cell``)."""
        return self._native.could_detect()

    @property
    def largest_deviation(self) -> str:
        """The largest deviation in words (or that none stands out)."""
        return self._entry["largest_deviation"]

    @property
    def seen_by(self) -> list:
        """The tests that saw the bias, strongest first (empty unless biased)."""
        return [str(t) for t in self._entry.get("seen_by", [])]

    @property
    def trials(self) -> int:
        """Trials counted."""
        return int(self._entry["trials"])

    @property
    def n(self) -> int:
        """Items shuffled (or the population of a sampler)."""
        return int(self._entry["n"])

    @property
    def tests(self) -> list:
        """Every test run: a dict each (``test``, ``statistic``, ``df``,
        ``p``, ``p_holm``, ``method``, ...)."""
        return self._entry["tests"]

    @property
    def counts(self):
        """The counts as a numpy array: position by value for a shuffle,
        draws per item for a sampler."""
        return self._native.counts()

    @property
    def failure_message(self) -> str:
        """Why the audit is not "no bias detected", in the words of Rust's
        ``assert_fair`` (the decisive test, its p and the largest deviation,
        or the trials an inconclusive run needs)."""
        return self._native.failure_message()

    def heatmap_png(self) -> bytes:
        """The report's heatmap (a sampler's inclusion chart) as PNG bytes."""
        return self._native.heatmap_png()

    def write_report(self, dir: Union[str, os.PathLike]) -> Path:
        """Writes the report (HTML, Markdown, CSV, JSON, PNG) into ``dir``,
        as the command line writes one; returns the HTML's path."""
        return Path(self._native.write_report(os.fspath(dir)))

    def _repr_html_(self) -> str:
        cells = [
            ("subject", self.name),
            ("n", self.n),
            ("trials", f"{self.trials:,}"),
            ("verdict", self.verdict),
            ("p (adj.)", self.p_text),
            ("seen by", ", ".join(self.seen_by) or "-"),
            ("could detect", self.could_detect),
            ("largest deviation", self.largest_deviation),
        ]
        head = "".join(f"<th>{html.escape(k)}</th>" for k, _ in cells)
        row = "".join(f"<td>{html.escape(str(v))}</td>" for _, v in cells)
        png = base64.b64encode(self.heatmap_png()).decode("ascii")
        return (
            f"<table><tr>{head}</tr><tr>{row}</tr></table>"
            f'<img alt="heatmap of {html.escape(self.name)}" '
            f'src="data:image/png;base64,{png}"/>'
        )

    def __repr__(self) -> str:
        return (
            f"<shuffle_audit.Result {self.name}: {self.verdict}, p (adj.) {self.p_text}, "
            f"n = {self.n}, {self.trials:,} trials, could detect {self.could_detect}>"
        )


def audit(
    shuffle: Callable[[list, Any], Any],
    n: int,
    *,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    tests: Optional[Union[str, Sequence[str]]] = None,
) -> Result:
    """Audits ``shuffle(deck, rng)``, a shuffle written in Python: called
    ``trials`` times (default :func:`default_trials`) on a fresh list
    ``[0, ..., n-1]``, which it shuffles in place (or returns shuffled), with
    one generator seeded by ``seed`` (``rng``: ``"random"`` for
    ``random.Random``, ``"numpy"`` for ``numpy.random.default_rng``, or a
    function of the seed). ``tests``: the tests to run, as ``--tests``
    names them (``"default"``, ``"all"`` or a list)."""
    asked = _asked(
        name=_name_of(shuffle, name), n=n, trials=trials, seed=seed, alpha=alpha, tests=tests
    )
    return Result(_native.audit_shuffle(shuffle, _make_rng(rng, seed), asked))


def _report_dir(name: str, report_dir: Optional[Union[str, os.PathLike]]) -> Path:
    """Where a failing assertion writes its report: ``report_dir``, else
    ``$SHUFFLE_AUDIT_REPORTS/NAME``, else ``TMPDIR/shuffle-audit/NAME``."""
    if report_dir is not None:
        return Path(report_dir)
    root = os.environ.get("SHUFFLE_AUDIT_REPORTS") or os.path.join(
        tempfile.gettempdir(), "shuffle-audit"
    )
    return Path(root) / _native.slug_of(name)


def _assert_passed(result: Result, report_dir: Optional[Union[str, os.PathLike]]) -> Result:
    if result.passed:
        return result
    try:
        where = f"report: {result.write_report(_report_dir(result.name, report_dir))}"
    except (OSError, ValueError) as e:
        where = f"(the report could not be written: {e})"
    raise AssertionError(f"{result.failure_message}\n{where}")


def assert_fair(
    shuffle: Callable[[list, Any], Any],
    n: int = 52,
    *,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    tests: Optional[Union[str, Sequence[str]]] = None,
    report_dir: Optional[Union[str, os.PathLike]] = None,
) -> Result:
    """:func:`audit`, then raises ``AssertionError`` unless no bias was
    detected by a run large enough to have seen one: on "biased" (naming the
    decisive test, its p, the largest deviation and the report) and on
    "inconclusive" (naming the trials a verdict needs), with the message of
    Rust's ``assert_fair``. Deterministic for its seed: never flaky."""
    result = audit(
        shuffle, n, trials=trials, seed=seed, alpha=alpha, rng=rng, name=name, tests=tests
    )
    return _assert_passed(result, report_dir)


def audit_orders(
    decks: Any,
    *,
    n: Optional[int] = None,
    trials: Optional[int] = None,
    order: Optional[Sequence[Any]] = None,
    name: str = "decks",
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    tests: Optional[Union[str, Sequence[str]]] = None,
    categories: Optional[str] = None,
) -> Result:
    """Audits permutations already made, read as ``--input`` reads a file:

    - a 2-D numpy integer array of shape (T, n), one deck per row, read in
      place (``uint8``/``uint16``/``uint32`` in C order without any copy,
      other integer types a block at a time), with the GIL released; rows
      whose values repeat are a shoe, read as labels;
    - any iterable of decks (lists, tuples, arrays, a generator of a data
      loader's epochs): integers 0..n-1 or 1..n, or labels (``"AS"``,
      ``"10H"``, ...; repeated labels make a shoe).

    A numpy array and the same decks as a list give the same answer.
    ``trials`` reads only the first decks; ``order`` is the starting order
    (``--order``); ``categories`` groups the items (``"cards"`` or a CSV
    file, as ``--categories``); ``seed`` drives the Monte Carlo p-values of
    sparse tables."""
    asked = _asked(
        name=name, n=n, trials=trials, seed=seed, alpha=alpha, tests=tests,
        categories=categories, order=order,
    )
    return Result(_native.audit_given(decks, asked))


def _sampler(
    draw: Any,
    holds: str,
    n: Optional[int],
    k: Optional[int],
    weights: Optional[Sequence[Any]],
    trials: Optional[int],
    seed: int,
    alpha: float,
    rng: RngSpec,
    name: Optional[str],
    base: Optional[int],
) -> Result:
    """A sampler's audit, of a function (``draw(rng)``) or of draws already
    made (any iterable)."""
    if callable(draw):
        asked = _asked(
            name=_name_of(draw, name), holds=holds, n=n, k=k, weights=weights, trials=trials,
            seed=seed, alpha=alpha, base=base,
        )
        return Result(_native.audit_draws(draw, _make_rng(rng, seed), asked))
    asked = _asked(
        name=name or "draws", holds=holds, n=n, k=k, weights=weights, trials=trials,
        seed=seed, alpha=alpha, base=base,
    )
    return Result(_native.audit_given(draw, asked))


def audit_samples(
    sampler_or_draws: Any,
    n: int,
    k: Optional[int] = None,
    *,
    ordered: bool = False,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    base: Optional[int] = None,
) -> Result:
    """Audits a sampler of k distinct items of a population of ``n``:
    ``sampler(rng)`` returning k items of 0..n-1, called ``trials`` times
    (default :func:`default_sample_trials`; ``k`` required), or draws
    already made (an iterable of samples, items 0..n-1 or 1..n, or say
    ``base``). ``ordered``: the order within a sample is the sampler's
    (first prize, second prize...) and is tested too."""
    holds = "ordered" if ordered else "sample"
    return _sampler(sampler_or_draws, holds, n, k, None, trials, seed, alpha, rng, name, base)


def audit_picks(
    picker_or_draws: Any,
    *,
    weights: Optional[Sequence[Any]] = None,
    n: Optional[int] = None,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    base: Optional[int] = None,
) -> Result:
    """Audits picks of one item: ``picker(rng)`` returning an item, or
    picks already made (an iterable of items), against ``weights`` (item i
    with probability ``weights[i] / sum(weights)``: whole numbers, or
    proportions such as ``[0.1, 0.9]``, read as the command line reads
    them), or uniform over ``n`` items without weights."""
    return _sampler(picker_or_draws, "pick", n, 1, weights, trials, seed, alpha, rng, name, base)


def assert_fair_sample(
    sampler: Callable[[Any], Sequence[int]],
    n: int,
    k: int,
    *,
    ordered: bool = False,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    report_dir: Optional[Union[str, os.PathLike]] = None,
) -> Result:
    """:func:`audit_samples` of a sampler function, raising
    ``AssertionError`` unless no bias was detected (as :func:`assert_fair`)."""
    result = audit_samples(
        sampler, n, k, ordered=ordered, trials=trials, seed=seed, alpha=alpha, rng=rng, name=name
    )
    return _assert_passed(result, report_dir)


def assert_fair_picks(
    picker: Callable[[Any], int],
    weights: Sequence[Any],
    *,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    report_dir: Optional[Union[str, os.PathLike]] = None,
) -> Result:
    """:func:`audit_picks` of a picker function against ``weights``,
    raising ``AssertionError`` unless no bias was detected."""
    result = audit_picks(
        picker, weights=weights, trials=trials, seed=seed, alpha=alpha, rng=rng, name=name
    )
    return _assert_passed(result, report_dir)
