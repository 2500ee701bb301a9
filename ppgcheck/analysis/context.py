"""What every pass of one pack's check shares (check.py)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import clingo

from ppgcheck.analysis.reads import PackReads, read_pack_cached
from ppgcheck.analysis.search import Budget, ground
from ppgcheck.analysis.space import is_large
from ppgcheck.analysis.traits import PackTraits, pack_traits
from ppgcheck.packs.pack import Pack
from ppgcheck.analysis.scenarios import scenario_facts


@dataclass
class Context:
    """The pack, what it reads, the budget of its searches and where progress goes."""

    pack: Pack
    reads: PackReads
    budget: Budget
    observations: int = 2
    say: Callable[[str], None] = lambda _message: None
    root: Path = Path()                                     # paths in findings are shown relative to it (Pack.root)
    messages: list[str] = field(default_factory=list)       # what clingo said, for a failed grounding

    @classmethod
    def of(cls, pack: Pack, timeout: float = 60.0, max_models: int = 200_000, **options) -> "Context":
        return cls(pack, read_pack_cached(pack), Budget(timeout, max_models), root=pack.root, **options)

    @cached_property
    def large(self) -> bool:
        """A pack large enough for the strategies that pay only there (space.py, monotonicity.py)."""
        return is_large(self.traits.rules)

    @cached_property
    def one_observation(self) -> str:
        """The scenario facts of the one-observation space (scenarios.scenario_facts), built once:
        the main space, the REL search and the monotonicity search all read them."""
        return scenario_facts(self.reads, 1)

    @cached_property
    def traits(self) -> PackTraits:
        """What the check reads of the pack's statements themselves (traits.py)."""
        return pack_traits(self.pack)

    def ground(self, ctl: clingo.Control, parts: list[tuple[str, list]] | None = None,
               what: str = "checking") -> clingo.Control:
        return ground(ctl, parts or [("base", [])], f"policy `{self.pack.id}` does not ground for {what}",
                      self.messages)
