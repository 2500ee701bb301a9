"""The scenario space a search runs over, whole or in parts.

A search over the space is a search over each of its parts, and their
results joined: brave consequences by union, a finding's witness the
smallest of its parts' (a later part asked only for a strictly smaller one),
the RELs part by part.  A small pack's space is one part, grounded once.
For a large pack (tuning.LARGE_PACK_RULES), a header
the pack compares with several values (copies of its rules for each round,
say) splits the space into parts grounded one by one, so that the grounder
leaves out the rules a part cannot fire and the history no infraction of the
part reads (scen_hist_scoped): the searches then cost what the parts do
rather than what the whole does.  Else, where the whole space grounds to
many atoms (tuning.KIND_SPLIT_MIN_ATOMS), it is searched in a few parts by
observation kind: every solve assigns each variable of its grounding, and a
check makes a hundred or more.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import clingo

from ppgcheck.analysis import tuning
from ppgcheck.analysis.reads import PackReads
from ppgcheck.analysis.scenarios import header_parts, kind_parts
from ppgcheck.cache import cached_json

# Headers a monotonicity step changes (a stricter REL, a higher tier, a longer
# ruling): the space is split only by another, so that each part is closed
# under the steps.
STEPPED_HEADERS = {"rel", "tier", "ruling_minutes"}

Ground = Callable[[str], clingo.Control]      # a part's scenario facts -> its grounded control


@dataclass
class Space:
    """The parts of a scenario space: (scenario facts, grounded control) each;
    `header` the header it is split by (None: one part, the whole space)."""

    parts: list[tuple[str, clingo.Control]]
    header: str | None = None
    named: frozenset[str] = frozenset()      # the header's values the pack names

    @property
    def splits(self) -> int:
        """How many parts `split` makes of other scenario facts."""
        return len(self.parts) if self.header is not None else 1

    def split(self, facts: str) -> list[str]:
        """Other scenario facts (the two-observation space) split as this space is."""
        if self.header is None:
            return [facts]
        return [part for _, part in header_parts(facts, self.header, set(self.named))]


def split_candidates(reads: PackReads) -> list[str]:
    """The headers the pack compares with several values, most values first."""
    return sorted((h for h, values in reads.header_constants.items()
                   if h not in STEPPED_HEADERS and len(values) >= tuning.SPLIT_MIN_VALUES),
                  key=lambda h: (-len(reads.header_constants[h]), h))


def is_large(rules: int) -> bool:
    return rules >= tuning.LARGE_PACK_RULES


def scenario_space(reads: PackReads, facts: str, *, large: bool, whole: Ground, part: Ground,
                   program: str | None = None) -> Space:
    """The space of the scenario facts: split by a header when the pack is
    large and a header selects parts of its rules (each part grounded by
    `part`), else the whole space (grounded by `whole`), unless that grounds to
    so many atoms (tuning.KIND_SPLIT_MIN_ATOMS) that it is split by observation
    kind.  With the text of the `program` grounded, the sizes that decide are
    kept in the cache: a space split by kind is not grounded whole again, nor a
    header refused tried again."""
    split = large and split_by_header(reads, facts, part, program)
    if split:
        return split
    grounded: list[clingo.Control] = []

    def size() -> int:
        grounded.append(whole(facts))
        return len(grounded[0].symbolic_atoms)
    atoms = size() if program is None else cached_json(f"space-clingo{clingo.__version__}", [], size,
                                                       salt=f"{program}\0{facts}")
    if len(reads.observation_kinds) > 1 and atoms >= tuning.KIND_SPLIT_MIN_ATOMS:
        grounded.clear()        # (its memory freed before the parts are grounded)
        return split_by_kind(facts, part)
    return Space([(facts, grounded[0] if grounded else whole(facts))])


def split_by_kind(facts: str, ground: Ground) -> Space:
    """The one-observation space in parts by observation kind (tuning.KIND_GROUPS), each
    grounded on its own.  The two-observation space is not split so (its scenarios mix
    kinds): `split` leaves it whole."""
    parts = kind_parts(facts, tuning.KIND_GROUPS)
    return Space([(part, ground(part)) for part in parts])


def split_by_header(reads: PackReads, facts: str, ground: Ground, program: str | None = None) -> Space | None:
    """The space split by a header the pack compares with several values,
    when it selects parts of the rules: the space without the header and the
    space at each value tried for it, each grounded on its own.  The values
    the pack never names share the part without the header.  Chosen when the
    part at the first value the pack names grounds to under a share
    (tuning.SPLIT_SHARE) of the whole, estimated as the part without the
    header plus what the part at each value the pack names adds to it.  None
    when no header is.  With the text of the `program` grounded, the two
    parts' sizes are kept in the cache: a header refused is not tried again."""
    for header in split_candidates(reads):
        named = {str(v) for v in reads.header_constants[header]}
        parts = header_parts(facts, header, named)
        if len(parts) < 2:
            continue
        probe_at = 1
        grounded: dict[int, clingo.Control] = {}

        def sizes() -> list[int]:
            grounded.update((i, ground(parts[i][1])) for i in (0, probe_at))
            return [len(grounded[i].symbolic_atoms) for i in (0, probe_at)]
        without, probe = sizes() if program is None else cached_json(
            f"split-clingo{clingo.__version__}", [], sizes, salt=f"{program}\0{facts}\0{header}")
        whole = without + (len(parts) - 1) * max(probe - without, 0)
        if probe >= tuning.SPLIT_SHARE * whole:
            continue
        return Space([(part_facts, grounded.get(i) or ground(part_facts)) for i, (_, part_facts) in enumerate(parts)],
                     header, frozenset(named))
    return None
