"""One report ruled under every bundled guide (`ppgcheck compare`)."""
from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

from ppgcheck.engine.batches import rule_prepared
from ppgcheck.engine.policy import engine
from ppgcheck.engine.ruling import RulingSet
from ppgcheck.language.report import Report
from ppgcheck.resources import policy_ids


@dataclass
class Comparison:
    """One report ruled under every bundled guide."""

    report: Report
    by_policy: dict[str, RulingSet]
    ignored: dict[str, list[str]]       # history entries a guide has no id for

    def uncovered(self, policy: str) -> list[int]:
        """The observations (1-based) this guide neither rules nor clears."""
        rs = self.by_policy[policy]
        covered = {r.observation for r in rs.rulings} | {n.observation for n in rs.no_infractions}
        return [i for i in range(1, len(rs.observations) + 1) if i not in covered]

    @property
    def exit_code(self) -> int:
        """1 when a guide has a finding or leaves an observation uncovered (a script's signal to look)."""
        return max((max(rs.exit_code, 1 if self.uncovered(p) else 0) for p, rs in self.by_policy.items()), default=0)


def compare_report(report: Report, policies: list[str] | None = None, rules: Path | None = None) -> Comparison:
    """Rule the same observations under each guide (the bundled ones, or those under
    `rules`).  History entries and a judge call name one guide's ids, so each guide
    keeps only those it knows."""
    by_policy: dict[str, RulingSet] = {}
    ignored: dict[str, list[str]] = {}
    for policy_id in policies or policy_ids(rules):
        policy_engine = engine(policy_id, rules)
        variant = copy.copy(report)
        variant.policy = policy_id
        variant.history, ignored[policy_id] = [], []
        for h in report.history:
            if h.infraction in policy_engine.sections and h.penalty in policy_engine.penalties:
                variant.history.append(h)
            else:
                ignored[policy_id].append(f"{h.person}: {h.penalty} for {h.infraction}")
        if report.judge_call and report.policy != policy_id:
            variant.judge_call = None
        by_policy[policy_id] = rule_prepared([(variant, policy_id)], rules)[0]
    return Comparison(report, by_policy, ignored)
