"""A gallery of real Python libraries' shuffles and samplers, each audited
through the package: random, numpy, pandas, scikit-learn, PyTorch's
samplers and Hugging Face datasets' shuffle buffer. A library that is not
installed is skipped with a line. Writes one report per audit and a summary
(``README.md``) into ``reports/python/``::

    pip install ./python pandas scikit-learn datasets   # torch if it fits
    python python/gallery.py [--out reports/python]

Every audit is seeded: a rerun gives the same counts and verdicts.
"""

from __future__ import annotations

import argparse
import importlib
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Callable, List, Optional

import numpy as np

# The installed package, not its source folder beside this script.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import shuffle_audit as sa  # noqa: E402

N = 10
"""Items per deck: small enough that a Python loop gives 200,000 decks in
seconds, large enough for every test to have power."""

TRIALS = 200_000
"""Decks per audit of a library that shuffles fast."""

EPOCHS = 20_000
"""Epochs per audit of a data loader (slower per order)."""


class Entry:
    """One audit of the gallery: what it audits and how."""

    def __init__(self, library: str, what: str, needs: List[str], run: Callable[[], sa.Result]):
        self.library, self.what, self.needs, self.run = library, what, needs, run


def python_random() -> List[Entry]:
    return [
        Entry("random", "random.shuffle(deck)", [],
              lambda: sa.audit(lambda d, r: r.shuffle(d), N, trials=TRIALS, name="random.shuffle")),
        Entry("random", "random.sample(range(49), 6), ordered (a lottery draw)", [],
              lambda: sa.audit_samples(lambda r: r.sample(range(49), 6), 49, 6, ordered=True,
                                       trials=TRIALS, name="random.sample 6 of 49")),
    ]


def numpy_entries() -> List[Entry]:
    def legacy(seed: int) -> None:
        # A chunk's seed is a 64-bit whole number; the legacy seeder takes
        # 32-bit words.
        np.random.seed([seed & 0xFFFFFFFF, seed >> 32])

    return [
        Entry("numpy", "Generator.permutation(deck)", ["numpy"],
              lambda: sa.audit(lambda d, r: r.permutation(d), N, trials=TRIALS, rng="numpy",
                               name="numpy Generator.permutation")),
        Entry("numpy", "numpy.random.shuffle(deck) (the legacy global generator)", ["numpy"],
              lambda: sa.audit(lambda d, r: np.random.shuffle(d), N, trials=TRIALS, rng=legacy,
                               name="numpy.random.shuffle")),
    ]


def pandas_entries() -> List[Entry]:
    def sample_frac(deck, rng):
        import pandas as pd

        return pd.Series(deck).sample(frac=1, random_state=rng).tolist()

    return [
        Entry("pandas", "Series.sample(frac=1, random_state=Generator) as a shuffle", ["pandas"],
              lambda: sa.audit(sample_frac, N, trials=50_000, rng="numpy", name="pandas sample(frac=1)")),
    ]


def sklearn_entries() -> List[Entry]:
    def shuffle(deck, rng):
        from sklearn.utils import shuffle as sk_shuffle

        return sk_shuffle(deck, random_state=rng)

    return [
        Entry("scikit-learn", "sklearn.utils.shuffle(deck, random_state=RandomState)", ["sklearn"],
              lambda: sa.audit(shuffle, N, trials=50_000, rng=lambda s: np.random.RandomState(s),
                               name="sklearn.utils.shuffle")),
    ]


def torch_entries() -> List[Entry]:
    def random_sampler():
        import torch
        from torch.utils.data import RandomSampler

        g = torch.Generator().manual_seed(sa.DEFAULT_SEED)
        sampler = RandomSampler(range(N), generator=g)
        return sa.audit_orders((list(sampler) for _ in range(EPOCHS)), name="torch RandomSampler")

    def distributed(set_epoch: bool):
        def run():
            from torch.utils.data import DistributedSampler

            sampler = DistributedSampler(list(range(N)), num_replicas=1, rank=0, shuffle=True,
                                         seed=sa.DEFAULT_SEED)

            def epochs():
                for epoch in range(EPOCHS):
                    if set_epoch:
                        sampler.set_epoch(epoch)
                    yield list(sampler)

            name = "torch DistributedSampler " + ("with set_epoch" if set_epoch else "without set_epoch")
            return sa.audit_orders(epochs(), name=name)

        return run

    return [
        Entry("torch", "RandomSampler, one order per epoch", ["torch"], random_sampler),
        Entry("torch", "DistributedSampler, set_epoch(epoch) every epoch", ["torch"], distributed(True)),
        Entry("torch", "DistributedSampler, set_epoch forgotten", ["torch"], distributed(False)),
    ]


def datasets_entries() -> List[Entry]:
    def buffer(size: int, epochs: int, set_epoch: bool = True):
        def run():
            import datasets

            datasets.disable_progress_bars()
            data = datasets.Dataset.from_dict({"v": list(range(N))}).to_iterable_dataset()
            shuffled = data.shuffle(seed=sa.DEFAULT_SEED, buffer_size=size)

            def orders():
                for epoch in range(epochs):
                    if set_epoch:
                        shuffled.set_epoch(epoch)
                    yield [row["v"] for row in shuffled]

            forgot = "" if set_epoch else ", set_epoch forgotten"
            return sa.audit_orders(
                orders(), name=f"datasets IterableDataset.shuffle(buffer_size={size}){forgot}"
            )

        return run

    return [
        Entry("datasets", f"IterableDataset.shuffle(buffer_size=3) of {N} rows, set_epoch each epoch",
              ["datasets"], buffer(3, 5_000)),
        Entry("datasets", f"IterableDataset.shuffle(buffer_size={N}) (the full dataset)",
              ["datasets"], buffer(N, EPOCHS)),
        Entry("datasets", f"IterableDataset.shuffle(buffer_size={N}), set_epoch forgotten",
              ["datasets"], buffer(N, 2_000, set_epoch=False)),
    ]


def missing(modules: List[str]) -> Optional[str]:
    """Why one of ``modules`` cannot be imported, if one cannot."""
    for m in modules:
        try:
            importlib.import_module(m)
        except Exception as e:  # noqa: BLE001 - any failure to import skips the entry
            why = str(e).split(" in the system path")[0]
            return f"{m} cannot be imported here: {type(e).__name__}: {why}"
    return None


def cell(text: object) -> str:
    """``text`` as a Markdown table cell."""
    return str(text).replace("|", "\\|")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("reports/python"))
    args = parser.parse_args()
    entries = (python_random() + numpy_entries() + pandas_entries() + sklearn_entries()
               + torch_entries() + datasets_entries())
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    rows, skipped = [], []
    for e in entries:
        lacking = missing(e.needs)
        if lacking:
            line = f"{e.library}: {e.what}: skipped ({lacking})"
            skipped.append(line)
            print(line, flush=True)
            continue
        start = time.perf_counter()
        result = e.run()
        seconds = time.perf_counter() - start
        folder = result.write_report(args.out / sa._native.slug_of(result.name)).parent
        print(f"{result.name}: {result.verdict}, p (adj.) {result.p_text}, "
              f"{result.trials:,} trials, could detect {result.could_detect}, "
              f"largest deviation {result.largest_deviation} ({seconds:.1f} s)", flush=True)
        rows.append((e, result, folder.name))
    versions = []
    for m in ["numpy", "pandas", "sklearn", "torch", "datasets"]:
        try:
            versions.append(f"{m} {importlib.import_module(m).__version__}")
        except Exception:  # noqa: BLE001
            pass
    lines = [
        "# Python libraries, audited through the shuffle_audit package",
        "",
        f"Written by `python python/gallery.py` (Python {sys.version.split()[0]}; {', '.join(versions)}).",
        f"Shuffles of n = {N} items; seed {sa.DEFAULT_SEED}, alpha {sa.DEFAULT_ALPHA}. "
        "Each folder holds the audit's report.",
        "",
        "| library | what | trials | verdict | p (adj.) | seen by | could detect | largest deviation |",
        "|---|---|---:|---|---:|---|---|---|",
    ]
    for e, r, folder in rows:
        seen = ", ".join(r.seen_by) or "-"
        lines.append(f"| {e.library} | [{cell(e.what)}]({folder}/report.md) | {r.trials:,} | {r.verdict} | "
                     f"{cell(r.p_text)} | {seen} | {cell(r.could_detect)} | {cell(r.largest_deviation)} |")
    if skipped:
        lines += ["", "Skipped:", ""] + [f"- {s}" for s in skipped]
    (args.out / "README.md").write_text("\n".join(lines) + "\n")
    print(f"summary: {args.out / 'README.md'}")


if __name__ == "__main__":
    main()
