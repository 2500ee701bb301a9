"""Check results as SARIF 2.1.0: one result per finding, located in the .lp
file (physical location) and the source section (logical location)."""
from __future__ import annotations

import json

from ppgcheck.analysis.check import KIND_ORDER, CheckResult

_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_RULES = {
    "conflict": "Two rules of the guide disagree on the same facts.",
    "gap": "The guide says nothing for these facts (uncovered observation, undefined infraction, no penalty, REL out of scope).",
    "cap": "A repeat upgrade ends above the cap the guide states.",
    "monotonicity": "A worse fact gives a lighter penalty.",
    "dead-rule": "No scenario fires this rule.",
    "vocabulary": "The rules read a fact no form of the report language produces.",
    "citation": "A rule or infraction without its section.",
    "misquote": "A sentence a rule quotes is not in the source text.",
}


def to_sarif(results: list[CheckResult]) -> dict:
    sarif_results = []
    for r in results:
        for f in r.findings:
            locations = [{"physicalLocation": {"artifactLocation": {"uri": loc.file},
                                               "region": {"startLine": loc.line}}}
                         for loc in f.locations]
            logical = [{"name": s, "kind": "section", "fullyQualifiedName": f"{r.policy}/{s}"}
                       for s in f.sections]
            if logical:
                if locations:
                    locations[0]["logicalLocations"] = logical
                else:
                    locations = [{"logicalLocations": logical}]
            item = {"ruleId": f.kind, "level": _LEVEL[f.level],
                    "message": {"text": f.message}, "locations": locations,
                    "properties": {"policy": r.policy, "minimal": f.minimal}}
            if f.witness_text:
                item["properties"]["witness"] = f.witness_text
            if f.contrast_text:
                item["properties"]["oneStepWorse"] = f.contrast_text
            sarif_results.append(item)
    return sarif_log("ppgcheck check", {k: _RULES[k] for k in KIND_ORDER}, sarif_results, results)


def sarif_log(tool: str, rules: dict[str, str], items: list[dict], results) -> dict:
    """A SARIF 2.1.0 log of one run; `results` are per-pack results with
    `policy`, `complete` and `notes` (check or diff)."""
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": tool,
                                "rules": [{"id": k, "shortDescription": {"text": v}}
                                          for k, v in rules.items()]}},
            "results": items,
            "invocations": [{"executionSuccessful": all(r.complete for r in results),
                             "toolExecutionNotifications": [
                                 {"message": {"text": f"{r.policy}: {n}"}, "level": "note"}
                                 for r in results for n in r.notes]}],
        }],
    }


def render_sarif(results: list[CheckResult]) -> str:
    return json.dumps(to_sarif(results), indent=2, ensure_ascii=False)
