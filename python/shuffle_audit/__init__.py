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
- ``shard=(i, k)`` and :func:`merge`: a run of a function split into k
  shards, each counted anywhere (a Dask, Ray or Spark worker), merged into
  the run's own result.

Every audit is deterministic for its seed: a function's run is drawn in
chunks of 65,536 trials, chunk c with a fresh generator seeded from the
seed and c (chunk 0 with the seed itself), as the command line's engine
draws its chunks. Bad input raises ``ValueError``
in the command line's words. Ctrl-C stops any audit within a second
(``KeyboardInterrupt``; nothing is kept or written; a function that never
returns gets ``KeyboardInterrupt`` too, and one blocked in C is left to
end on its own after half a second), and a run longer than
about two seconds shows a progress bar where tqdm is installed
(``progress=False`` silences it; ``progress=f`` calls ``f(done, total)``).
"""

from __future__ import annotations

import base64
import html
import json
import operator
import os
import random
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union

from . import _native

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_SEED",
    "Result",
    "Shard",
    "__version__",
    "assert_fair",
    "assert_fair_picks",
    "assert_fair_sample",
    "audit",
    "audit_orders",
    "audit_picks",
    "audit_samples",
    "default_sample_trials",
    "default_trials",
    "merge",
]

__version__: str = _native.__version__
"""The package's version: the library's, which ``shuffle-audit --version``
prints."""

DEFAULT_SEED: int = _native.DEFAULT_SEED
"""The seed used when none is given (the command line's too)."""

DEFAULT_ALPHA: float = _native.DEFAULT_ALPHA
"""The significance level used when none is given."""

RngSpec = Union[str, Callable[[int], Any]]

Progress = Union[bool, Callable[[int, Optional[int]], Any]]
"""``progress=``: ``True`` (a tqdm bar where tqdm is installed, shown
once a run has lasted about two seconds), ``False`` (nothing), or a function
``progress(done, total)`` called about ten times a second and once at the
end (``total`` is ``None`` when the input's length is known only at its
end)."""


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
    order: Optional[Union[str, Sequence[Any]]] = None,
    weights: Optional[Union[str, Sequence[Any]]] = None,
    base: Optional[int] = None,
    k: Optional[int] = None,
    until_decisive: bool = False,
    max_trials: Optional[int] = None,
    deck: Optional[str] = None,
) -> dict:
    """What a call asked, as the library's request reads it: every default,
    check and refusal is the library's (the command line's too), worded for
    Python (``trials=4629``). ``weights`` and ``order`` are a list, or a
    string of items separated by commas as ``--weights`` and ``--order``
    take them."""
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
        "order": order,
        "weights": weights,
        "base": base,
        "k": k,
        "until_decisive": bool(until_decisive),
        "max_trials": max_trials,
        "deck": deck,
    }


class _Bar:
    """``progress(done, total)`` drawn as a tqdm bar, opened at the first
    call and shown only once the run has lasted two seconds (tqdm's
    ``delay``)."""

    def __init__(self, tqdm: Any, name: str) -> None:
        self._tqdm = tqdm
        self._name = name
        self._bar: Any = None

    def __call__(self, done: int, total: Optional[int]) -> None:
        if self._bar is None:
            self._bar = self._tqdm(
                total=total, desc=self._name, unit=" trials", unit_scale=True, delay=2
            )
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        """Closes the bar, if one was opened."""
        if self._bar is not None:
            self._bar.close()


@contextmanager
def _progress(progress: Progress, name: str) -> Iterator[Optional[Callable[[int, Optional[int]], Any]]]:
    """The callback the native run calls for ``progress=`` (see
    :data:`Progress`), closed when the run ends however it ends."""
    if progress is False or progress is None:
        yield None
    elif progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            yield None
            return
        bar = _Bar(tqdm, name)
        try:
            yield bar
        finally:
            bar.close()
    elif callable(progress):
        yield progress
    else:
        raise ValueError(
            f"progress={progress!r}: True, False or a function progress(done, total)"
        )


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
    weights: Optional[Union[str, Sequence[Any]]] = None,
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


def _rng_maker(rng: RngSpec) -> Callable[[int], Any]:
    """What makes the generator handed to the code under audit, from a
    chunk's seed: ``"random"`` (``random.Random``), ``"numpy"``
    (``numpy.random.default_rng``) or ``rng`` itself for a callable."""
    if callable(rng):
        return rng
    if rng == "random":
        return random.Random
    if rng == "numpy":
        import numpy

        return numpy.random.default_rng
    raise ValueError(f"rng {rng!r}: one of 'random', 'numpy' or a function of the seed")


def _shard_pair(shard: Optional[Sequence[int]]) -> Optional[tuple]:
    """``shard=(i, k)`` as the native run takes it; the range (``0 <= i <
    k``) is the library's to check, as it checks ``--shard I/N``."""
    if shard is None:
        return None
    try:
        if isinstance(shard, (str, bytes)) or any(isinstance(x, bool) for x in shard):
            raise TypeError
        index, count = shard
        return (operator.index(index), operator.index(count))
    except (TypeError, ValueError):
        raise TypeError(
            f"shard={shard!r}: a pair (i, k) of whole numbers, shard i of k (from 0)"
        ) from None


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
        or the trials an inconclusive run needs); ``""`` when no bias was
        detected."""
        if self.passed:
            return ""
        return self._native.failure_message()

    @property
    def trials_for_verdict(self) -> Optional[int]:
        """For an inconclusive run, the trials a run needs for a verdict
        (``trials=`` that many gives one); ``None`` otherwise."""
        trials = self._entry.get("trials_for_verdict")
        return None if trials is None else int(trials)

    def heatmap_png(self) -> bytes:
        """The report's heatmap (a sampler's inclusion chart) as PNG bytes."""
        return self._native.heatmap_png()

    def write_report(self, dir: Union[str, os.PathLike]) -> Path:
        """Writes the report (HTML, Markdown, CSV, JSON, PNG) into ``dir``,
        as the command line writes one; returns the HTML's path."""
        return Path(self._native.write_report(os.fspath(dir)))

    def _repr_html_(self) -> str:
        """The verdict table and the picture, styled inline so that it reads
        the same in Jupyter, VS Code, nbviewer or a plain HTML page."""
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
        colour = {"biased": "#b00020", "no bias detected": "#1b6e20"}.get(self.verdict, "#8a5a00")
        cell = "padding:4px 10px;border:1px solid #ccc;text-align:left;vertical-align:top"
        rows = "".join(
            f'<tr><th style="{cell};background:#f3f3f3;font-weight:600">{html.escape(k)}</th>'
            f'<td style="{cell}'
            + (f";color:{colour};font-weight:600" if k == "verdict" else "")
            + f'">{html.escape(str(v))}</td></tr>'
            for k, v in cells
        )
        png = base64.b64encode(self.heatmap_png()).decode("ascii")
        return (
            '<div style="font-family:system-ui,sans-serif;font-size:13px;color:#222;'
            'background:#fff;padding:6px;display:inline-block">'
            f'<table style="border-collapse:collapse;margin-bottom:8px">{rows}</table>'
            f'<img style="display:block;max-width:100%" alt="heatmap of {html.escape(self.name)}" '
            f'src="data:image/png;base64,{png}"/></div>'
        )

    def __repr__(self) -> str:
        return (
            f"<shuffle_audit.Result {self.name}: {self.verdict}, p (adj.) {self.p_text}, "
            f"n = {self.n}, {self.trials:,} trials, could detect {self.could_detect}>"
        )


def _shard_from_bytes(data: bytes) -> "Shard":
    """A :class:`Shard` from its bytes: how a pickled shard is rebuilt."""
    return Shard.from_bytes(data)


class Shard:
    """The counts of one shard of a run (shard i of k of its chunks), made
    by ``audit(..., shard=(i, k))`` (or :func:`audit_samples`,
    :func:`audit_picks`) wherever it ran: pass every shard of the run to
    :func:`merge` for the run's :class:`Result`. A shard pickles (as its
    bytes), so it travels back from a Dask, Ray or Spark worker as any
    return value does; :meth:`to_bytes` gives the bytes to keep or send
    (the tally file ``shuffle-audit audit --shard`` writes, which
    ``shuffle-audit merge`` also reads)."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self._info: dict = native.info()

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview]) -> "Shard":
        """The shard whose bytes are ``data`` (from :meth:`to_bytes`);
        ``ValueError`` for anything else, or a damaged copy."""
        return cls(_native.Shard.from_bytes(bytes(data)))

    def to_bytes(self) -> bytes:
        """The shard's bytes: a header line with the SHA-256 of the rest,
        then the counts and everything that decides them, as JSON."""
        return self._native.to_bytes()

    def __reduce__(self) -> tuple:
        return (_shard_from_bytes, (self.to_bytes(),))

    @property
    def index(self) -> int:
        """This shard's number, from 0."""
        return int(self._info["index"])

    @property
    def count(self) -> int:
        """How many shards the run is cut into."""
        return int(self._info["count"])

    @property
    def name(self) -> str:
        """The name of what was audited."""
        return self._info["name"]

    @property
    def kind(self) -> str:
        """The kind of subject: ``"shuffle"`` or ``"sampler"``."""
        return self._info["kind"]

    @property
    def n(self) -> int:
        """Items shuffled (or the population of a sampler)."""
        return int(self._info["n"])

    @property
    def seed(self) -> int:
        """The run's seed."""
        return int(self._info["seed"])

    @property
    def trials(self) -> int:
        """Trials counted in this shard."""
        return int(self._info["trials"])

    @property
    def run_trials(self) -> int:
        """Trials of the whole run."""
        return int(self._info["run_trials"])

    @property
    def chunks(self) -> range:
        """The run's chunks this shard counted (of 65,536 trials each, the
        last one shorter)."""
        first, end = self._info["chunks"]
        return range(int(first), int(end))

    @property
    def seconds(self) -> float:
        """Seconds spent counting it."""
        return float(self._info["seconds"])

    def __repr__(self) -> str:
        return (
            f"<shuffle_audit.Shard {self.index}/{self.count} of {self.name}: "
            f"{self.trials:,} of {self.run_trials:,} trials, chunks "
            f"{self.chunks.start}..{self.chunks.stop} of {self._info['run_chunks']}, "
            f"seed {self.seed}>"
        )


def merge(shards: Iterable[Union[Shard, bytes, bytearray, memoryview]]) -> Result:
    """Merges every shard of one run (:class:`Shard` objects or their
    bytes, in any order) into the run's :class:`Result`: the library adds
    their counts up and judges them as the run on one machine is judged,
    so the result is that of the same call without ``shard=`` (the same
    counts, tests, p-values and verdict). Raises ``ValueError`` naming the
    shard (by its place in ``shards``) for a shard missing, one given
    twice, a shard of another run (another seed, n, trials, function name,
    test or ``rng``) and bytes that are not a shard."""
    items = [
        bytes(s) if isinstance(s, (bytearray, memoryview)) else getattr(s, "_native", s)
        for s in shards
    ]
    return Result(_native.merge(items))


def _ran(native: Any) -> Union[Result, Shard]:
    """The front's object for what a native run gave: a judged audit's
    :class:`Result`, or a :class:`Shard`."""
    if isinstance(native, _native.Shard):
        return Shard(native)
    return Result(native)


def audit(
    shuffle: Callable[[list, Any], Any],
    n: Optional[int] = None,
    *,
    deck: Optional[str] = None,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    tests: Optional[Union[str, Sequence[str]]] = None,
    categories: Optional[str] = None,
    until_decisive: bool = False,
    max_trials: Optional[int] = None,
    progress: Progress = True,
    shard: Optional[Sequence[int]] = None,
) -> Union[Result, Shard]:
    """Audits ``shuffle(deck, rng)``, a shuffle written in Python: called
    ``trials`` times (default :func:`default_trials`) on a fresh list
    ``[0, ..., n-1]``, which it shuffles in place (or returns shuffled).
    ``deck`` hands it a deck whose cards repeat instead (as the command
    line's ``--deck``: ``"shoe:decks=6"`` is six 52-card decks, the list
    ``["AS", "2S", ..., "KC"]`` six times over; ``"AABB"``; ``"cards"``),
    n the deck's, with the order tests of repeated cards; a deck returned
    with a card lost, added or more often than the deck holds it stops the
    run with a ``ValueError`` naming the card.
    ``rng`` makes its generator from a seed: ``"random"`` for
    ``random.Random``, ``"numpy"`` for ``numpy.random.default_rng``, or a
    function of the seed. The run is drawn in chunks of 65,536 trials, chunk
    c with a fresh generator made from a seed derived from ``seed`` and c
    (chunk 0 from ``seed`` itself: a run of at most 65,536 trials is one
    generator seeded with ``seed``); a derived seed is a 64-bit whole
    number, so a seeder that takes 32 bits needs it split
    (``numpy.random.seed([s & 0xFFFFFFFF, s >> 32])``).

    ``shard=(i, k)`` counts only shard i of k of the run's chunks (from 0;
    a run of fewer chunks than shards leaves some empty) and returns a
    :class:`Shard` instead of a :class:`Result`: count the k shards anywhere
    (worker processes, machines) and :func:`merge` them for the result of
    the same call without ``shard``, identical counts and verdict.

    As the command line's options: ``tests`` (``--tests``: ``"default"``,
    ``"all"``, or names, a list or comma-separated); ``categories``
    (``--categories``: ``"cards"`` or a CSV file of the items' categories,
    adding the category tests); ``until_decisive`` (``--until-decisive``:
    the trials double look after look, each look a fresh run of its own seed,
    until the audit is decisively biased or ``max_trials`` are spent,
    64 × the first look's by default; look j's trials are drawn as a run of
    their own, seeded as the library seeds look j; not with ``shard``).
    ``progress``: see :data:`Progress`.
    """
    name = _name_of(shuffle, name)
    asked = _asked(
        name=name, n=n, trials=trials, seed=seed, alpha=alpha, tests=tests,
        categories=categories, until_decisive=until_decisive, max_trials=max_trials, deck=deck,
    )
    maker = _rng_maker(rng)
    pair = _shard_pair(shard)
    with _progress(progress, name) as report:
        return _ran(_native.audit_shuffle(shuffle, maker, asked, pair, report))


def _report_dir(name: str, report_dir: Optional[Union[str, os.PathLike]]) -> Path:
    """Where a failing assertion writes its report: ``report_dir``, else
    ``$SHUFFLE_AUDIT_REPORTS/NAME``, else ``TMPDIR/shuffle-audit/NAME``."""
    if report_dir is not None:
        return Path(report_dir)
    root = os.environ.get("SHUFFLE_AUDIT_REPORTS") or os.path.join(
        tempfile.gettempdir(), "shuffle-audit"
    )
    return Path(root) / _native.slug_of(name)


def _failure(
    result: Result, report_dir: Optional[Union[str, os.PathLike]]
) -> Optional[AssertionError]:
    """The ``AssertionError`` an assertion raises for ``result`` (its report
    written), or ``None`` when no bias was detected. The assertion raises it
    itself, so that pytest's report of the failure points at the caller's
    test (the assertion's frame is hidden by ``__tracebackhide__``)."""
    if result.passed:
        return None
    try:
        where = f"report: {result.write_report(_report_dir(result.name, report_dir))}"
    except (OSError, ValueError) as e:
        where = f"(the report could not be written: {e})"
    return AssertionError(f"{result.failure_message}\n{where}")


def assert_fair(
    shuffle: Callable[[list, Any], Any],
    n: Optional[int] = None,
    *,
    deck: Optional[str] = None,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    tests: Optional[Union[str, Sequence[str]]] = None,
    categories: Optional[str] = None,
    until_decisive: bool = False,
    max_trials: Optional[int] = None,
    progress: Progress = True,
    report_dir: Optional[Union[str, os.PathLike]] = None,
) -> Result:
    """:func:`audit`, then raises ``AssertionError`` unless no bias was
    detected by a run large enough to have seen one: on "biased" (naming the
    decisive test, its p, the largest deviation and the report) and on
    "inconclusive" (naming the trials a verdict needs), with the message of
    Rust's ``assert_fair``. Deterministic for its seed: never flaky. In
    pytest the failure points at the calling test, not at this package.
    ``n`` is 52 (a deck of cards) unless given, or ``deck`` (a shoe) is."""
    __tracebackhide__ = True
    if n is None and deck is None:
        n = 52
    result = audit(
        shuffle, n, deck=deck, trials=trials, seed=seed, alpha=alpha, rng=rng, name=name, tests=tests,
        categories=categories, until_decisive=until_decisive, max_trials=max_trials,
        progress=progress,
    )
    failure = _failure(result, report_dir)
    if failure is not None:
        raise failure
    return result


def audit_orders(
    decks: Any,
    *,
    n: Optional[int] = None,
    trials: Optional[int] = None,
    order: Optional[Union[str, Sequence[Any]]] = None,
    name: str = "decks",
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    tests: Optional[Union[str, Sequence[str]]] = None,
    categories: Optional[str] = None,
    progress: Progress = True,
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
    (``--order``: a list of items, or a string of them separated by commas); ``tests`` and ``categories`` are :func:`audit`'s;
    ``seed`` drives the Monte Carlo p-values of sparse tables. Output
    already made is audited as it is (no ``until_decisive``)."""
    asked = _asked(
        name=name, n=n, trials=trials, seed=seed, alpha=alpha, tests=tests,
        categories=categories, order=order,
    )
    with _progress(progress, name) as report:
        return Result(_native.audit_given(decks, asked, report))


def _sampler(
    draw: Any,
    holds: str,
    n: Optional[int],
    k: Optional[int],
    weights: Optional[Union[str, Sequence[Any]]],
    trials: Optional[int],
    seed: int,
    alpha: float,
    rng: RngSpec,
    name: Optional[str],
    base: Optional[int],
    until_decisive: bool,
    max_trials: Optional[int],
    progress: Progress,
    shard: Optional[Sequence[int]] = None,
) -> Union[Result, Shard]:
    """A sampler's audit, of a function (``draw(rng)``, drawn in chunks as
    :func:`audit` draws a shuffle, or one ``shard`` of them) or of draws
    already made (any iterable)."""
    drawing = callable(draw)
    name = _name_of(draw, name) if drawing else (name or "draws")
    if shard is not None and not drawing:
        raise ValueError(
            f"shard={shard!r} splits a run that a function draws: draws already made "
            "are audited as they are"
        )
    asked = _asked(
        name=name, holds=holds, n=n, k=k, weights=weights, trials=trials, seed=seed,
        alpha=alpha, base=base, until_decisive=until_decisive, max_trials=max_trials,
    )
    maker = _rng_maker(rng) if drawing else None
    pair = _shard_pair(shard)
    with _progress(progress, name) as report:
        if drawing:
            return _ran(_native.audit_draws(draw, maker, asked, pair, report))
        return Result(_native.audit_given(draw, asked, report))


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
    until_decisive: bool = False,
    max_trials: Optional[int] = None,
    progress: Progress = True,
    shard: Optional[Sequence[int]] = None,
) -> Union[Result, Shard]:
    """Audits a sampler of k distinct items of a population of ``n``:
    ``sampler(rng)`` returning k items of 0..n-1 (``base=1``: 1..n), called
    ``trials`` times (default :func:`default_sample_trials`; ``k``
    required), or draws already made (an iterable of samples, items 0..n-1
    or 1..n, or say ``base``). ``ordered``: the order within a sample is
    the sampler's (first prize, second prize...) and is tested too.
    ``rng``, ``until_decisive``, ``max_trials``, ``progress`` and ``shard``
    are :func:`audit`'s (a function only: draws already made are audited
    as they are)."""
    holds = "ordered" if ordered else "sample"
    return _sampler(
        sampler_or_draws, holds, n, k, None, trials, seed, alpha, rng, name, base,
        until_decisive, max_trials, progress, shard,
    )


def audit_picks(
    picker_or_draws: Any,
    *,
    weights: Optional[Union[str, Sequence[Any]]] = None,
    n: Optional[int] = None,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    base: Optional[int] = None,
    until_decisive: bool = False,
    max_trials: Optional[int] = None,
    progress: Progress = True,
    shard: Optional[Sequence[int]] = None,
) -> Union[Result, Shard]:
    """Audits picks of one item: ``picker(rng)`` returning an item of
    0..N-1 (``base=1``: 1..N), or picks already made (an iterable of
    items), against ``weights`` (item i with probability ``weights[i] /
    sum(weights)``: whole numbers, or proportions such as ``[0.1, 0.9]``,
    read as the command line reads them; or a string of them separated by
    commas, as ``--weights`` takes it: ``"10,30"``), or uniform over ``n`` items
    without weights. ``rng``, ``until_decisive``, ``max_trials``,
    ``progress`` and ``shard`` are :func:`audit_samples`'."""
    return _sampler(
        picker_or_draws, "pick", n, 1, weights, trials, seed, alpha, rng, name, base,
        until_decisive, max_trials, progress, shard,
    )


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
    until_decisive: bool = False,
    max_trials: Optional[int] = None,
    progress: Progress = True,
    report_dir: Optional[Union[str, os.PathLike]] = None,
) -> Result:
    """:func:`audit_samples` of a sampler function, raising
    ``AssertionError`` unless no bias was detected (as :func:`assert_fair`)."""
    __tracebackhide__ = True
    result = audit_samples(
        sampler, n, k, ordered=ordered, trials=trials, seed=seed, alpha=alpha, rng=rng,
        name=name, until_decisive=until_decisive, max_trials=max_trials, progress=progress,
    )
    failure = _failure(result, report_dir)
    if failure is not None:
        raise failure
    return result


def assert_fair_picks(
    picker: Callable[[Any], int],
    weights: Union[str, Sequence[Any]],
    *,
    trials: Optional[int] = None,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    rng: RngSpec = "random",
    name: Optional[str] = None,
    until_decisive: bool = False,
    max_trials: Optional[int] = None,
    progress: Progress = True,
    report_dir: Optional[Union[str, os.PathLike]] = None,
) -> Result:
    """:func:`audit_picks` of a picker function against ``weights``,
    raising ``AssertionError`` unless no bias was detected (as
    :func:`assert_fair`)."""
    __tracebackhide__ = True
    result = audit_picks(
        picker, weights=weights, trials=trials, seed=seed, alpha=alpha, rng=rng, name=name,
        until_decisive=until_decisive, max_trials=max_trials, progress=progress,
    )
    failure = _failure(result, report_dir)
    if failure is not None:
        raise failure
    return result
