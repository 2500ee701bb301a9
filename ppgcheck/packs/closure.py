"""The one dependency closure every analysis of a program shares, apart from the program
reader (ppgcheck/packs/program.py), so that ruling from the cache need not import clingo.ast."""
from __future__ import annotations

from collections.abc import Iterable, Mapping


def reachable(start: Iterable, edges: Mapping) -> set:
    """Everything reachable from `start` along `edges` (node -> its successors),
    start included: the one dependency closure (what depends on the inputs,
    what a wanted predicate needs, what an edit changes)."""
    seen = set(start)
    todo = list(seen)
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
