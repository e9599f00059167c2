"""Types of ``shuffle_audit._native``, the compiled library behind the
package (its documented front is ``shuffle_audit``): what each function
takes and gives, for type checkers and editors."""

from typing import Any, Callable, Optional, TypedDict, Union

import numpy as np

__version__: str
"""The library's version (``shuffle-audit --version``)."""

DEFAULT_SEED: int
"""The seed used when none is given."""

DEFAULT_ALPHA: float
"""The significance level used when none is given."""

_Progress = Optional[Callable[[int, Optional[int]], Any]]

class Asked(TypedDict):
    """What a call asked, as the library's request reads it: a plain dict
    at run time, every key present (``None`` for the library's default)."""

    name: str
    holds: str
    n: Optional[int]
    trials: Optional[int]
    seed: int
    alpha: float
    tests: Optional[str]
    categories: Optional[str]
    order: Optional[Union[str, list[Any]]]
    weights: Optional[Union[str, list[Any]]]
    base: Optional[int]
    k: Optional[int]
    until_decisive: bool
    max_trials: Optional[int]
    deck: Optional[str]

class Audit:
    """A finished, judged audit of any kind."""

    def verdict(self) -> str:
        """``biased``, ``no bias detected`` or ``inconclusive``."""
    def p_text(self) -> str:
        """The adjusted p as every output states it."""
    def summary_json(self) -> str:
        """The run's ``summary.json``, as text."""
    def could_detect(self) -> str:
        """What the run could have detected."""
    def failure_message(self) -> str:
        """Why the audit is not "no bias detected"."""
    def counts(self) -> np.ndarray:
        """The counts: 2-D for a shuffle, 1-D for a sampler."""
    def heatmap_png(self) -> bytes:
        """The audit's picture as PNG bytes."""
    def write_report(self, dir: str) -> str:
        """Writes the report into ``dir``; returns the HTML's path."""

class Shard:
    """The counts of one shard of a run drawn by a Python function: the
    library's tally file."""

    @staticmethod
    def from_bytes(data: bytes) -> Shard:
        """Reads a shard's bytes; ``ValueError`` for anything else."""
    def to_bytes(self) -> bytes:
        """The shard's bytes (a tally file)."""
    def info(self) -> dict[str, Any]:
        """``index``, ``count``, ``name``, ``kind``, ``n``, ``seed``,
        ``trials``, ``run_trials``, ``chunks``, ``run_chunks``, ``seconds``."""

def merge(shards: list[Union[Shard, bytes]]) -> Audit:
    """Merges every shard of one run and judges the run."""

def default_trials(asked: Asked) -> int:
    """The trials a default audit runs for what was asked."""

def audit_shuffle(
    shuffle: Callable[[list[Any], Any], Any],
    make_rng: Callable[[int], Any],
    asked: Asked,
    shard: Optional[tuple[int, int]] = None,
    progress: _Progress = None,
) -> Union[Audit, Shard]:
    """Audits ``shuffle(deck, rng)`` over fresh decks ``[0, ..., n-1]``
    (or the cards of ``asked["deck"]``, a shoe), each chunk of the run with the generator ``make_rng(chunk's seed)``;
    one shard of the run's chunks with ``shard``."""

def audit_draws(
    draw: Callable[[Any], Any],
    make_rng: Callable[[int], Any],
    asked: Asked,
    shard: Optional[tuple[int, int]] = None,
    progress: _Progress = None,
) -> Union[Audit, Shard]:
    """Audits what ``draw(rng)`` returns (k items, or one for a pick),
    each chunk of the run with the generator ``make_rng(chunk's seed)``;
    one shard of the run's chunks with ``shard``."""

def audit_given(given: Any, asked: Asked, progress: _Progress = None) -> Audit:
    """Audits output already made (a 2-D integer array or an iterable)."""

def slug_of(name: str) -> str:
    """The folder name the library gives a subject named ``name``."""
