"""`check` and `diff` results as SARIF 2.1.0: one result per finding (or
change), located in the .lp file (physical location) and the source section
(logical location); the rules and levels come from the one registry of kinds
(analysis/findings.py).  A file is named relative to the folder holding the
rules folder (`rules/fab/s3_1_tardiness.lp`), the uriBaseId `RULESROOT`."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

from ppgcheck.resources import rules_dir

from ppgcheck.analysis.diff import DiffResult
from ppgcheck.analysis.findings import SARIF_LEVELS, CheckResult, sarif_rules


ROOT_ID = "RULESROOT"


def _base_ids(results) -> dict:
    """RULESROOT: the folder holding the rules folder; where it is (an absolute URI) only
    for one rules folder other than the bundled one (where ppgcheck is installed is not the user's)."""
    roots = {Path(r.root).resolve() for r in results if r.root}
    base = {"description": {"text": "the folder holding the rules folder (its `rules/`, or a pack folder's parent)"}}
    if len(roots) == 1:
        (root,) = roots
        if root != rules_dir().parent.resolve():
            base["uri"] = root.as_uri().rstrip("/") + "/"
    return {ROOT_ID: base}


def _locations(policy: str, physical: list[tuple[str, int]], sections: list[str]) -> list[dict]:
    locations = [{"physicalLocation": {"artifactLocation": {"uri": quote(file), "uriBaseId": ROOT_ID},
                                       "region": {"startLine": line}}} for file, line in physical]
    logical = [{"name": s, "kind": "section", "fullyQualifiedName": f"{policy}/{s}"} for s in sections]
    if logical:
        if locations:
            locations[0]["logicalLocations"] = logical
        else:
            locations = [{"logicalLocations": logical}]
    return locations


def to_sarif(results: list[CheckResult]) -> dict:
    items = []
    for r in results:
        for f in r.findings:
            item = {"ruleId": f.kind, "level": SARIF_LEVELS[f.level], "message": {"text": f.message},
                    "locations": _locations(r.policy, [(loc.file, loc.line) for loc in f.locations], f.sections),
                    "properties": {"policy": r.policy, "minimal": f.minimal}}
            if f.witness_text:
                item["properties"]["witness"] = f.witness_text
            if f.contrast_text:
                item["properties"]["oneStepWorse"] = f.contrast_text
            items.append(item)
    return sarif_log("ppgcheck check", sarif_rules("check"), items, results)


def render_sarif(results: list[CheckResult]) -> str:
    return json.dumps(to_sarif(results), indent=2, ensure_ascii=False)


def diff_to_sarif(results: list[DiffResult]) -> dict:
    items = []
    for r in results:
        if r.status == "removed":
            items.append({"ruleId": "pack-changed", "level": SARIF_LEVELS["info"],
                          "message": {"text": f"pack `{r.policy}` is removed"},
                          "properties": {"policy": r.policy}})
        for c in r.changes:
            item = {"ruleId": c.sarif_rule, "level": SARIF_LEVELS[c.level] if c.introduced else SARIF_LEVELS["info"],
                    "message": {"text": c.message},
                    "properties": {"policy": r.policy, "what": c.what, "before": c.before,
                                   "after": c.after, "minimal": c.minimal}}
            locations = _locations(r.policy, [c.location] if c.location else [], c.sections)
            if locations:
                item["locations"] = locations
            if c.witness_text:
                item["properties"]["witness"] = c.witness_text
            if c.ruling_before or c.ruling_after:
                item["properties"]["rulingBefore"] = c.ruling_before
                item["properties"]["rulingAfter"] = c.ruling_after
            items.append(item)
    return sarif_log("ppgcheck diff", sarif_rules("diff"), items, results)


def render_diff_sarif(results: list[DiffResult]) -> str:
    return json.dumps(diff_to_sarif(results), indent=2, ensure_ascii=False)


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
            "originalUriBaseIds": _base_ids(results),
            "results": items,
            "invocations": [{"executionSuccessful": all(r.complete for r in results),
                             "toolExecutionNotifications": [
                                 {"message": {"text": f"{r.policy}: {n}"}, "level": "note"}
                                 for r in results for n in r.notes]}],
        }],
    }
