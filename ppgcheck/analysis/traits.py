"""What the check reads of a pack's statements besides what its rules read (reads.py): how
many rules it has, whether it tells RELs apart, whether it leaves the judge a choice, and
which findings are blind to the REL.

Each is a pass over the parsed pack (the last one builds a slicer of the whole program:
~0.5-0.7 s on each bundled pack), so they are kept in the cache (cache.py) under the pack's
and the core's bytes, like the check's programs: on a warm cache the check's main process
does not parse the pack at all.
"""
from __future__ import annotations

from dataclasses import dataclass

import clingo
from clingo.ast import ASTType

from ppgcheck.analysis.programs import cached_for_pack
from ppgcheck.contract import CHOICES
from ppgcheck.packs.pack import Pack
from ppgcheck.packs.program import Program, parse_text
from ppgcheck.analysis import rels
from ppgcheck.analysis.rels import requires_rel



@dataclass(frozen=True)
class PackTraits:
    rules: int                  # rules with a body (space.is_large)
    requires_rel: bool          # the pack tells RELs apart (rels.requires_rel)
    leaves_choices: bool        # a rule derives one of heaviest.CHOICES (has_choices asks a grounding)


def pack_traits(pack: Pack) -> PackTraits:
    """The pack's traits, from the cache where it holds them."""
    return PackTraits(**cached_for_pack("traits", pack, lambda: _read(pack)))


def blind_to_rel(pack: Pack, facts: str, targets: list[clingo.Symbol]) -> set[clingo.Symbol]:
    """rels.blind_to_rel over the pack and the one-observation scenario `facts`, from the
    cache where it holds the answer for these targets."""
    blind = set(cached_for_pack("blind", pack,
                                lambda: sorted(str(t) for t in rels.blind_to_rel(rel_program(pack, facts), targets)),
                                facts, sorted(str(t) for t in targets)))
    return {t for t in targets if str(t) in blind}


def _read(pack: Pack) -> dict:
    program = pack.program
    return {"rules": sum(1 for node in program if node.ast_type == ASTType.Rule and node.body),
            "requires_rel": requires_rel(program),
            "leaves_choices": any(a.signature in CHOICES for st in program.statements for a in st.heads)}


def rel_program(pack: Pack, facts: str) -> Program:
    """What rels.blind_to_rel reads: the core, the pack and the scenario facts."""
    return Program.join([pack.core_program(), pack.program, parse_text(facts)])
