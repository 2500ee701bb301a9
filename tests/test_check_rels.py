"""The RELs a finding shows up at: the scenarios the witness searches pass
through already tell some of them (rels.RelsSeen); the REL searches look only
for the others, and the answer is the same."""
from __future__ import annotations

from pathlib import Path

import clingo

from ppgcheck import check_policy
from ppgcheck.analysis import witnesses
from ppgcheck.analysis.check import result_dict
from ppgcheck.analysis.rels import _search, rel_names
from ppgcheck.analysis.search import Budget

PACKS = Path(__file__).parent / "fixtures" / "packs"


def test_a_finding_seen_at_every_rel_needs_no_search():
    t = clingo.Function("chk_finding_any", [clingo.Function("gap")])
    out = _search(None, Budget(10, 10), [t], {t: set(rel_names())})
    assert out == {t: (rel_names(), True)}


def test_rels_are_the_same_without_what_the_witnesses_saw(monkeypatch):
    def findings(name: str) -> list[dict]:
        (r,) = check_policy(path=PACKS / name, timeout=60)
        return result_dict(r)["findings"]
    packs = ["rel-gap", "conflict", "gap"]
    seeded = {name: findings(name) for name in packs}
    plain = witnesses.optimum
    monkeypatch.setattr(witnesses, "optimum", lambda ctl, budget, target, on_scenario=None, below=None:
                        plain(ctl, budget, target, below=below))     # the witnesses' scenarios tell nothing
    assert {name: findings(name) for name in packs} == seeded
    assert any(f["rels"] and len(f["rels"]) < len(rel_names()) for f in seeded["rel-gap"])
