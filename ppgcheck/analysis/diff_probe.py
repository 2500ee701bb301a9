"""Whether a version of a pack can rule at all, before `diff` compares it.

A version whose files are refused (packs/confine.py, through its Pack), whose
grounding of a report of some observation kind goes past the time or memory
limit, or which gives not exactly one answer set (for the probe reports, or for
any report of one observation: determinism.py) cannot rule: `diff` reports that
as a change of its own, never as "no change".
"""
from __future__ import annotations

from ppgcheck.analysis.context import Context
from ppgcheck.analysis.determinism import nondeterminism
from ppgcheck.cache import cached_json
from ppgcheck.packs import isolation
from ppgcheck.packs.pack import Pack
from ppgcheck.engine.policy import PolicyEngine, hold_to_contract
from ppgcheck.errors import PpgError
from ppgcheck.language.facts import build_facts
from ppgcheck.language.report import Observation, Report
from ppgcheck.language.vocabulary import Vocabulary


def cannot_rule(pack: Pack, seconds: float, max_models: int = 200_000) -> str | None:
    """Why this version of a pack cannot rule, None when it rules a report of every kind
    of observation (one batch, one job under the time bound and the memory limit) and no
    report of one observation gets two answer sets (a second job).  That it rules is kept in
    the cache for its files byte for byte (a diff's old side is the same version run after run:
    ~4 s a side); why it cannot is never kept (a time limit is the machine's as much as the pack's)."""
    try:
        bound = isolation.Limits(seconds, isolation.limits().megabytes)
        hold_to_contract(pack, bound)
        engine = PolicyEngine(pack)
        cached_json("rules-every-kind", pack.every_file, lambda: _rules_every_kind(pack, engine, seconds, max_models, bound),
                    salt=f"{max_models}:{seconds}")
        return None
    except _CannotRule as exc:
        return exc.why
    except PpgError as exc:
        return str(exc)


class _CannotRule(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def _rules_every_kind(pack: Pack, engine: PolicyEngine, seconds: float, max_models: int,
                      bound: isolation.Limits) -> bool:
    """True, or _CannotRule with why (a report of two answer sets); PpgError past a limit."""
    facts = [build_facts(r).inputs for r in probe_reports(pack.id, engine.vocabulary)]
    isolation.call_bounded(lambda: len(engine.solve_many(facts)),
                           f"{pack.where} (one report of each kind of observation)",
                           lambda: engine.locate_overrun(facts), bound)
    found = isolation.call_bounded(lambda: nondeterminism(Context.of(pack, seconds, max_models)),
                                   f"the determinism search of {pack.where}", limits=bound)
    if found:
        raise _CannotRule(f"a report gets two answer sets ({found[0].message.split('): ', 1)[-1]}):\n"
                          + "\n".join("    " + line for line in found[0].witness_text.splitlines()))
    return True


def probe_reports(policy: str, vocab: Vocabulary) -> list[Report]:
    """A report of each kind of observation the pack's language has, with the smallest counts."""
    reports = []
    for kind in sorted(vocab.observations):
        slots = vocab.canonical("observation", kind).slots
        counts = {s: vocab.count_ranges[s][0] for s in slots if s in vocab.count_ranges}
        observation = Observation("Alice", kind, other="Bob" if "Q" in slots else None, counts=counts)
        reports.append(Report(policy=policy, persons=[("Alice", "player"), ("Bob", "player")],
                              observations=[observation], vocab=vocab))
    return reports
