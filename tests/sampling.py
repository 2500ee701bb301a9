"""Equivalence tests (a speed-up rules every report as before) compare a fixed sample of
reports per pack instead of all ~700 golden reports, and the fuzz properties draw fewer
examples than they once did; `bench/full_sweeps` runs the same tests over every report and
with the larger example counts (PPGCHECK_FULL_SWEEP=1)."""
from __future__ import annotations

import os
import random
from typing import Sequence, TypeVar

T = TypeVar("T")


def sampled(items: Sequence[T], size: int, seed: str) -> list[tuple[int, T]]:
    """(index, item) pairs: a sample of `size` items, the same every run for a seed (the
    first and last item always in it), or every item under PPGCHECK_FULL_SWEEP=1."""
    indexed = list(enumerate(items))
    if full_sweep() or len(indexed) <= size:
        return indexed
    middle = random.Random(seed).sample(indexed[1:-1], size - 2)
    return sorted([indexed[0], *middle, indexed[-1]], key=lambda pair: pair[0])


def full_sweep() -> bool:
    return os.environ.get("PPGCHECK_FULL_SWEEP") == "1"


def examples(suite: int, sweep: int) -> int:
    """How many examples a hypothesis property draws: `suite` in the test suite, `sweep` (the
    count the suite drew before it was cut for time) under PPGCHECK_FULL_SWEEP=1."""
    return sweep if full_sweep() else suite
