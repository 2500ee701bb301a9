"""What the check reads of a pack's statements besides what its rules read (reads.py): how
many rules it has, whether it tells RELs apart, whether a constraint reads the REL.

Each is a pass over the parsed pack (the last one builds a slicer of the whole program:
~0.6 s on dci), so they are kept in the cache (cache.py) under the pack's and the core's
bytes, like the check's programs: on a warm cache the check's main process does not parse
the pack at all.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import clingo
from clingo.ast import ASTType

from ppgcheck.cache import cached_json
from ppgcheck.engine.pack import SCENARIO_CORE, Pack
from ppgcheck.engine.program import Program

# the code that reads the traits (their cache key)
_CODE = [Path(__file__), *(Path(__file__).with_name(name) for name in ("rels.py", "slicing.py")),
         Path(__file__).parent.parent / "engine" / "program.py"]


@dataclass(frozen=True)
class PackTraits:
    rules: int                  # rules with a body (space.is_large)
    requires_rel: bool          # the pack tells RELs apart (rels.requires_rel)
    rel_constrained: bool       # a constraint reads the REL: no finding is blind to it (rels.blind_to_rel)


def pack_traits(pack: Pack, facts: str) -> PackTraits:
    """The pack's traits over the one-observation scenario `facts`, from the cache where it holds them."""
    files = pack.core_files(SCENARIO_CORE) + pack.files
    data = cached_json(f"traits-clingo{clingo.__version__}", [*_CODE, *files], lambda: _read(pack, facts),
                       salt=repr((facts, [str(f) for f in files])))
    return PackTraits(**data)


def _read(pack: Pack, facts: str) -> dict:
    from ppgcheck.analysis.rels import rel_constrained, requires_rel
    program = pack.program
    return {"rules": sum(1 for node in program if node.ast_type == ASTType.Rule and node.body),
            "requires_rel": requires_rel(program),
            "rel_constrained": rel_constrained(rel_program(pack, facts))}


def rel_program(pack: Pack, facts: str) -> Program:
    """What rels.blind_to_rel reads: the core, the pack and the scenario facts."""
    return Program.join([pack.core_program(), pack.program, Program.parse(facts)])
