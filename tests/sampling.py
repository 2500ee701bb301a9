"""Equivalence tests (a speed-up rules every report as before) compare a fixed sample of
reports per pack instead of all ~700 golden reports; `bench/full_sweeps` runs the same tests
over every report (PPGCHECK_FULL_SWEEP=1)."""
from __future__ import annotations

import os
import random
from typing import Sequence, TypeVar

T = TypeVar("T")


def sampled(items: Sequence[T], size: int, seed: str) -> list[tuple[int, T]]:
    """(index, item) pairs: a sample of `size` items, the same every run for a seed (the
    first and last item always in it), or every item under PPGCHECK_FULL_SWEEP=1."""
    indexed = list(enumerate(items))
    if os.environ.get("PPGCHECK_FULL_SWEEP") == "1" or len(indexed) <= size:
        return indexed
    middle = random.Random(seed).sample(indexed[1:-1], size - 2)
    return sorted([indexed[0], *middle, indexed[-1]], key=lambda pair: pair[0])
