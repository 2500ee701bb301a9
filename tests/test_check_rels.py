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
    monkeypatch.setattr(witnesses, "optimum", lambda ctl, budget, target, on_scenario=None, below=None, read=None:
                        plain(ctl, budget, target, below=below, read=read))     # the witnesses' scenarios tell nothing
    assert {name: findings(name) for name in packs} == seeded
    assert any(f["rels"] and len(f["rels"]) < len(rel_names()) for f in seeded["rel-gap"])



REL_SPACE = """
r({rels}).
{{ header(rel, R) : r(R) }} 1.
rel(R) :- header(rel, R).
{{ extra }}.
target(1) :- rel(regular).
target(2) :- rel(regular).
target(2) :- rel(competitive), extra.
target(3).
target(4) :- not rel(_), extra.
#program rel_project.
chk_rel_given :- rel(_).
chk_rel_at(R) :- rel(R).
chk_rel_at(none) :- not chk_rel_given.
#project chk_rel_at/1.
"""


def test_rels_searched_together_are_those_searched_one_finding_at_a_time(monkeypatch):
    # one projected enumeration for every finding (each solve costs its start-up), and its
    # fallback when it does not finish in time: one search per finding
    from ppgcheck.analysis import rels
    names = rel_names()
    targets = [clingo.Function("target", [clingo.Number(n)]) for n in (1, 2, 3, 4)]

    def searched() -> dict:
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], REL_SPACE.format(rels="; ".join(n for n in names if n != "none")))
        ctl.ground([("base", []), ("rel_project", [])])
        return rels._search(ctl, Budget(30, 10 ** 6), targets, {targets[2]: {"regular"}}, names)
    together = searched()
    asked: list[int] = []
    monkeypatch.setattr(rels, "_search_together", lambda ctl, budget, open_, *rest, **kw: asked.append(len(open_)))
    assert searched() == together and asked == [4]
    assert together == {targets[0]: (["regular"], True), targets[1]: (["regular", "competitive"], True),
                        targets[2]: (names, True), targets[3]: (["none"], True)}
