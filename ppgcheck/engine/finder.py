"""What the judge station's observation search and number defaults read, ruled by the pack.

For each observation form of a policy: the infractions it is ruled as (at its default
numbers), the ones one more modifier the rules read makes it (the questions' answers), and
its default numbers: the first values, smallest first, that make it an infraction at all
("drew 2 cards with intellect 1", not "drew 1 cards with intellect 1").  Every one of these
is the pack's own ruling of a sample report; Python only writes the samples and reads the
rulings.  Computed once per pack and kept in the cache under the rule files' bytes.
"""
from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Callable
from pathlib import Path

from ppgcheck.cache import cached_json
from ppgcheck.engine.batches import rule_prepared
from ppgcheck.engine.policy import engine
from ppgcheck.language.model import Observation
from ppgcheck.language.report import parse_reports

PERSONS = ("P", "Q")
SAMPLE = ("Alice", "Bob")
TRIED = 8                   # values tried for each number, from the lowest its range allows
_SLOT = re.compile(r"\{(\w+)\}")


def _candidates(slots: list[str], ranges: dict[str, tuple[int, int]]) -> list[dict[str, int]]:
    """The numbers tried for a form's slots, the smallest first (by their sum above the lows)."""
    values = []
    for slot in slots:
        lo, hi = ranges.get(slot) or (1, 60)
        values.append(range(lo, min(hi, lo + TRIED - 1) + 1))
    combos = sorted(itertools.product(*values),
                    key=lambda combo: (sum(v - r.start for v, r in zip(combo, values)), combo))
    return [dict(zip(slots, combo)) for combo in combos]


def _sample(base, kind: str, two_person: bool, counts: dict[str, int]):
    report = copy.copy(base)
    report.observations = [Observation(SAMPLE[0], kind, SAMPLE[1] if two_person else None, dict(counts))]
    return report


Rule = Callable[..., list]          # rule_prepared's (prepared, questions=...) -> RulingSets


def _compute(policy_id: str, rules: Path | None, rule: Rule) -> dict[str, dict]:
    vocab = engine(policy_id, rules).vocabulary
    base = parse_reports(f"policy: {policy_id}\nplayer: {SAMPLE[0]}\nplayer: {SAMPLE[1]}\n",
                         "finder", policy_id, rules)[0]
    candidates = {kind: _candidates([s for s in _SLOT.findall(forms[0].text) if s not in PERSONS],
                                    vocab.count_ranges) for kind, forms in vocab.observations.items()}
    first = {kind: found[0] for kind, found in candidates.items()}
    # the lowest numbers of every form first; the other numbers only of a form they left no infraction
    defaults: dict[str, dict[str, int] | None] = {}
    for stage in (lambda found: found[:1], lambda found: found[1:]):
        tries = [(kind, counts) for kind, found in candidates.items() if kind not in defaults
                 for counts in stage(found)]
        ruled = rule([(_sample(base, kind, kind in vocab.two_person, counts), policy_id) for kind, counts in tries],
                     questions=False) if tries else []
        for (kind, counts), rs in zip(tries, ruled):
            if rs.rulings and kind not in defaults:
                defaults[kind] = counts
    kinds = list(vocab.observations)
    asked = rule([(_sample(base, kind, kind in vocab.two_person, defaults.get(kind) or first[kind]), policy_id)
                  for kind in kinds], questions=True)
    sections = engine(policy_id, rules).sections
    out = {}
    for kind, rs in zip(kinds, asked):
        ruled_as = sorted({r.infraction for r in rs.rulings})
        also = sorted({q.infraction for q in rs.questions if q.infraction} - set(ruled_as))
        out[kind] = {"infractions": [{"id": i, "section": sections.get(i, "")} for i in ruled_as],
                     "with_more": [{"id": i, "section": sections.get(i, "")} for i in also],
                     "defaults": defaults.get(kind)}
    return out


def observation_finder(policy_id: str, rules: Path | None = None, rule: Rule | None = None) -> dict[str, dict]:
    """observation kind -> {"infractions": [{id, section}] it is ruled as at its default
    numbers, "with_more": those one more modifier the rules read makes it, "defaults":
    {slot: number} (the first numbers that make it an infraction; None: none tried does)}.
    `rule` rules the samples (default: rule_prepared, here; a server passes its batcher's, which
    rules in its resident child: a process with threads does not fork)."""
    files = list(engine(policy_id, rules).files)

    def here(prepared: list, questions: bool = False) -> list:
        return rule_prepared(prepared, rules, questions)
    return cached_json("finder", files, lambda: _compute(policy_id, rules, rule or here), salt=f"{policy_id}:{TRIED}")
